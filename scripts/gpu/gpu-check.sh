#!/usr/bin/env bash
# The GPU suite one part after the other, NVIDIA's runtime running every test: to record its
# outputs (prepared here by scripts/gpu/gpu-bundle.sh; .gpu carried). (The whole suite within 8
# minutes, ours compared with the recordings, is scripts/gpu/gpu-suite.sh.)
#   bash scripts/gpu/gpu-check.sh
# Prints the GPU and driver, runs scripts/test/ctest.sh --gpu against the runtimes in .gpu/, and
# leaves under $OUT:
#   gpu-check.log   everything printed
#   expected.tgz    expected/<abi>/<name>.out, NVIDIA's outputs (commit as ctest/expected/),
#                   and ctest-gpu.log
#   gpu-runs.tgz    every build log and every run's output, ours and NVIDIA's
#   host-expected/  NVIDIA's outputs of the host programs (scripts/test/host-check.sh --gpu)
#   tools/         scripts/gpu/tools-check.sh's outputs (PyTorch's profiler, compute-sanitizer)
#   timeline.json  examples/timeline.cu's timeline under ours (CUDART_RS_TIMELINE=...,gpu)
# Options go to scripts/test/ctest.sh (e.g. --abi 13); with --only a,b, the C tests only.
# Ends with the line `N passed, N failed, N skipped` (everything together).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

out=$(out_dir gpu-check) || die "cannot make the output folder"

main() {
    echo "== GPU"
    gpu_machine || return 1
    echo "== C tests"
    CUDART_RS_DIST=.gpu/dist \
    NVIDIA12_LIB=$root/.gpu/nvidia12 \
    CU12_INCLUDE=$root/.gpu/cu12/include \
    OUT=$out \
        bash scripts/test/ctest.sh --gpu "$@" | tee "$out/.ctest.log"
    local rc=${PIPESTATUS[0]}
    # With --only (a part of the C tests), that is all.
    [[ " $* " == *" --only "* ]] && return "$rc"
    echo "== host programs (ctest/host/): builds against our headers and NVIDIA's, under both runtimes"
    OUT=$out bash scripts/test/host-check.sh --gpu | tee "$out/.host.log"
    ((PIPESTATUS[0] == 0)) || rc=1
    echo "== NVIDIA's tools on our runtime"
    OUT=$out/tools bash scripts/gpu/tools-check.sh | tee "$out/.tools.log"
    ((PIPESTATUS[0] == 0)) || rc=1
    echo "== timeline of examples/timeline.cu (CUDART_RS_TIMELINE=timeline.json,gpu)"
    OUT=$out bash scripts/gpu/timeline-check.sh | tee "$out/.timeline.log"
    ((PIPESTATUS[0] == 0)) || rc=1
    # One summary line for everything (a part without its summary line counts as a failure).
    local passed=0 failed=0 skipped=0 l
    for l in .ctest.log .host.log .tools.log .timeline.log; do
        add_summary "$(tail -n 1 "$out/$l")" || failed=$((failed + 1))
    done
    rm -f "$out/.ctest.log" "$out/.host.log" "$out/.tools.log" "$out/.timeline.log"
    echo "gpu-check: C tests, host programs, NVIDIA's tools, then the timeline"
    echo "$passed passed, $failed failed, $skipped skipped"
    return "$rc"
}

main "$@" 2>&1 | tee "$out/gpu-check.log"
rc=${PIPESTATUS[0]}
# Only what is meant to come back stays in $OUT.
rm -rf "$out/expected"
exit "$rc"
