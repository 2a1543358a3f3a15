#!/usr/bin/env bash
# The timeline of examples/timeline.cu under ours, with the GPU's own times
# (CUDART_RS_TIMELINE=FILE,gpu), on the GPU machine (.gpu carried):
#   bash scripts/gpu/timeline-check.sh
# Builds it with nvcc (NVCC, /usr/local/cuda/bin/nvcc; NVCC_FLAGS, -arch=sm_90), runs it with
# ours (.gpu/dist/lib; CUDART_RS_DRYRUN, a driver: a dry run) and leaves $OUT/timeline.json
# (draw it: scripts/dev/timeline-picture.sh). Passes when the program ends normally and the
# timeline holds complete events. Ends with `N passed, N failed, N skipped`.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

out=$(out_dir timeline-check) || die "cannot make the output folder"
w=$(mktemp -d /tmp/timeline-check.XXXXXX)
trap 'rm -rf "$w"' EXIT
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
read -r -a flags <<<"${NVCC_FLAGS:--arch=sm_90}"
if ! "$nvcc" -cudart shared "${flags[@]}" examples/timeline.cu -o "$w/timeline" >"$w/cc.log" 2>&1; then
    echo "FAIL timeline: examples/timeline.cu does not build:"
    tail -n 5 "$w/cc.log"
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
fi
rc=0
env -u LD_PRELOAD ${CUDART_RS_DRYRUN:+CUDART_RS_DRIVER=$CUDART_RS_DRYRUN} LD_LIBRARY_PATH="$root/.gpu/dist/lib" \
    CUDART_RS_TIMELINE="$out/timeline.json,gpu" timeout 120 "$w/timeline" >"$w/run.out" 2>&1 || rc=$?
events=$(grep -o '"ph": *"X"' "$out/timeline.json" 2>/dev/null | wc -l)
if ((rc == 0 && events > 0)); then
    echo "PASS timeline: timeline.json, $events complete events (draw it: scripts/dev/timeline-picture.sh)"
    echo "1 passed, 0 failed, 0 skipped"
else
    echo "FAIL timeline: exit status $rc, $events complete events in timeline.json"
    tail -n 5 "$w/run.out"
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
fi
