#!/usr/bin/env bash
# The whole GPU suite, both ABIs, in one run within a deadline it enforces (8 minutes on one
# H200), for every change that touches behaviour (prepared here by scripts/gpu/gpu-bundle.sh;
# .gpu carried):
#   bash scripts/gpu/gpu-suite.sh [--deadline S] [--jobs N] [--record] [--standin]
# Side by side:
#   C tests         scripts/test/ctest.sh --gpu --recorded: ours compared with NVIDIA's outputs
#                   as recorded (ctest/expected/); NVIDIA's runtime runs only a test with no
#                   recording. Those marked `serial` first, alone; nothing else starts before.
#   differential    scripts/test/difftest.sh --seeds 1-200 --calls 400 --recorded: ours compared
#                   with NVIDIA's recorded results (ctest/expected/difftest/); NVIDIA's runtime
#                   runs where ours differs or nothing is recorded
#   host programs   scripts/test/host-check.sh --gpu
#   NVIDIA's tools  scripts/gpu/tools-check.sh
#   timeline        scripts/gpu/timeline-check.sh
# A process holds the GPU open throughout (when its persistence mode is off), so that no test
# pays for the GPU's initialisation.
# Options:
#   --deadline S   seconds from the start after which nothing starts and every run is cut
#                  (default 430; what did not run fails); the whole run ends within S + 40
#   --jobs N       C tests at a time (default: the number of CPUs), and half as many seeds
#   --record       NVIDIA's runtime runs every test and seed, to record its outputs again
#   --standin      a dry run without a GPU: our runtime on the stand-in driver takes the place
#                  of NVIDIA's 13 and 12 runtimes (and of the driver), nvcc and NVIDIA's
#                  headers from .cache/nvidia (scripts/dev/fetch-nvidia.sh): for the schedule,
#                  the deadline, the files and the time of all but the GPU
# Leaves under $OUT (target/gpu-suite) four files:
#   gpu-suite.log   everything every part printed, one part after the other, then the summary
#   durations.txt   seconds per C test (ABI, name, verdict) and per part, slowest first
#   expected.tgz    NVIDIA's outputs where its runtime ran, laid out as ctest/expected/ (C
#                   tests, expected/difftest/<abi>.txt), and host-expected/: to commit
#   runs.tgz        what failed (outputs, build logs, the diverging seeds' runs), the tools'
#                   outputs and timeline.json
# Prints each part's summary, what failed, the slowest tests; ends with the line
# `N passed, N failed, N skipped` (every part together).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

start=$EPOCHSECONDS
limit=430 jobs=$(nproc 2>/dev/null || echo 4) record=0 standin=0
while (($#)); do
    case $1 in
        --deadline) limit=${2:-}; shift ;;
        --jobs) jobs=${2:-}; shift ;;
        --record) record=1 ;;
        --standin) standin=1 ;;
        *) header_usage ;;
    esac
    shift
done
[[ $limit =~ ^[1-9][0-9]*$ && $jobs =~ ^[1-9][0-9]*$ ]] || header_usage
deadline=$((start + limit))
djobs=$(((jobs + 1) / 2))

out=$(out_dir gpu-suite) || die "cannot make the output folder"
rm -f "$out/gpu-suite.log" "$out/durations.txt" "$out/expected.tgz" "$out/runs.tgz"
work=$root/target/gpu-suite-work
rm -rf "$work"
mkdir -p "$work/parts" "$work/pack"

# Where things are: the bundle (.gpu), and for a dry run our runtime in NVIDIA's place.
export CUDART_RS_DIST=$root/.gpu/dist
if ((standin)); then
    nv=$root/.cache/nvidia
    fake=$work/nvidia
    mkdir -p "$fake/13" "$fake/12"
    ln -s "$CUDART_RS_DIST/lib/libcudart.so.13" "$fake/13/libcudart.so.13"
    ln -s "$CUDART_RS_DIST/lib/libcudart.so.13" "$fake/13/libcudart.so"
    ln -s "$nv/cu13/nvidia/cu13/lib/libcudadevrt.a" "$fake/13/libcudadevrt.a"
    ln -s "$CUDART_RS_DIST/lib/libcudart.so.12" "$fake/12/libcudart.so.12"
    export CUDART_RS_DRYRUN=$CUDART_RS_DIST/lib/stand-in/libcuda.so.1
    export NVIDIA13_LIB=$fake/13 NVIDIA12_LIB=$fake/12 NVIDIA13_ALSO_LIB=none CTEST_GPUS=1
    export NVIDIA13_INCLUDE=$root/.gpu/cu135/include CU12_INCLUDE=$root/.gpu/cu12/include
    export CU13_INCLUDE=$nv/cu13/nvidia/cu13/include
    export NVCC=$nv/cu13/nvidia/cu13/bin/nvcc NVCC_FLAGS="-arch=sm_90 -L$fake/13"
fi
export NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}

# part NAME CMD...: runs one part in the background, its output to parts/NAME.log, cut at
# the deadline (and killed 10 s after).
declare -A part_pid=() part_t0=()
part() {
    local name=$1
    shift
    part_t0[$name]=$EPOCHSECONDS
    mkdir -p "$work/out/$name"
    (OUT=$work/out/$name timeout -k 10 $((deadline - EPOCHSECONDS + 20)) "$@" >"$work/parts/$name.log" 2>&1
     echo $? >"$work/parts/$name.rc"
     echo $((EPOCHSECONDS - part_t0[$name])) >"$work/parts/$name.secs") &
    part_pid[$name]=$!
}

{
    echo "== GPU suite: $(date -u +%FT%TZ), deadline $limit s ($(date -d "@$deadline" +%T)), $jobs C tests and $djobs seeds at a time"
    ((standin)) && echo "DRY RUN on the stand-in driver: ours in place of NVIDIA's runtimes ($CUDART_RS_DRYRUN)"
    gpu_machine
} >"$work/head.log"
rc=$?
cat "$work/head.log"
if ((rc)); then
    cp "$work/head.log" "$out/gpu-suite.log"
    exit 1
fi

# The GPU held open while the suite runs, where the driver would otherwise initialise it for
# every process that starts with none other open.
keeper=
if ((!standin)) && [[ $(nvidia-smi --query-gpu=persistence_mode --format=csv,noheader 2>/dev/null | head -n 1) != Enabled ]]; then
    python3 -c '
import ctypes, sys, time
c = ctypes.CDLL("libcuda.so.1")
d, ctx = ctypes.c_int(), ctypes.c_void_p()
ok = c.cuInit(0) == 0 and c.cuDeviceGet(ctypes.byref(d), 0) == 0 and c.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), d) == 0
print("the GPU held open (persistence mode is off)" if ok else "could not hold the GPU open", flush=True)
time.sleep(1200)
' >"$work/keeper.log" 2>&1 &
    keeper=$!
    sleep 2
    cat "$work/keeper.log" | tee -a "$work/head.log"
fi
trap '[[ -n $keeper ]] && kill "$keeper" 2>/dev/null' EXIT

rec=--recorded
((record)) && rec=
# The C tests first: the other parts start once the serial tests are done (or the C tests end).
part ctest env CTEST_SERIAL_DONE="$work/serial-done" CTEST_WORK="$work/ctest" \
    bash scripts/test/ctest.sh --gpu --abi both $rec --jobs "$jobs" --deadline "$deadline"
while [[ ! -f $work/serial-done && ! -f $work/parts/ctest.rc ]] && ((EPOCHSECONDS < deadline)); do sleep 1; done
part difftest bash scripts/test/difftest.sh --seeds 1-200 --calls 400 --abi both $rec --jobs "$djobs" --deadline "$deadline"
part host bash scripts/test/host-check.sh --gpu --abi both
part tools bash scripts/gpu/tools-check.sh
part timeline bash scripts/gpu/timeline-check.sh
# Every minute, how far the parts are (C tests and seeds done).
while :; do
    left=0
    for p in "${!part_pid[@]}"; do [[ -f $work/parts/$p.rc ]] || left=$((left + 1)); done
    ((left)) || break
    sleep 5
    if (((EPOCHSECONDS - start) % 60 < 5)); then
        echo "$((EPOCHSECONDS - start)) s: $left parts running; C tests done: $(grep -cE '^(PASS|FAIL|SKIP) ' "$work/parts/ctest.log"), seeds run: $(find target/difftest/gpu -name '*.ours.rc' 2>/dev/null | wc -l)"
    fi
done
wait

# The log: every part's output in order; the summary, durations and verdicts after.
order=(ctest difftest host tools timeline)
passed=0 failed=0 skipped=0
{
    cat "$work/head.log"
    for p in "${order[@]}"; do
        echo
        echo "==== $p ($(cat "$work/parts/$p.secs" 2>/dev/null || echo "?") s, exit status $(cat "$work/parts/$p.rc" 2>/dev/null || echo "?"))"
        cat "$work/parts/$p.log"
    done
} >"$out/gpu-suite.log"

# Durations: the C tests', then each part's.
{
    sort -rn "$work/ctest/durations" 2>/dev/null | awk '{ print $1, "s", "[" $2 "]", $3 }'
    for p in "${order[@]}"; do echo "$(cat "$work/parts/$p.secs" 2>/dev/null || echo "?") s part $p"; done | sort -rn
} >"$out/durations.txt"

# What to commit (NVIDIA's outputs where its runtime ran) and what failed.
(
    cd "$work/pack" || exit
    mkdir -p expected
    [[ -d $work/out/ctest/expected ]] && cp -r "$work/out/ctest/expected/." expected/
    [[ -d $work/out/difftest/expected ]] && cp -r "$work/out/difftest/expected/." expected/
    [[ -d $work/out/host/host-expected ]] && cp -r "$work/out/host/host-expected" .
    if [[ -n $(find . -type f) ]]; then tar -czf "$out/expected.tgz" expected host-expected 2>/dev/null; fi
    mkdir -p runs
    cp "$work/out/ctest/gpu-runs.tgz" "$work"/out/difftest/difftest-runs-*.tgz runs/ 2>/dev/null
    [[ -d $work/out/tools ]] && cp -r "$work/out/tools" runs/
    cp "$work/out/timeline/timeline.json" runs/ 2>/dev/null
    tar -czf "$out/runs.tgz" runs
)

{
    echo
    echo "==== what failed"
    grep -h -A 8 '^FAIL ' "$work/parts/ctest.log" "$work/parts/host.log" "$work/parts/tools.log" "$work/parts/timeline.log" |
        cut -c1-200 | head -n 60
    grep -h '^seed .*: first divergence\|^seed .*: ours ' "$work/parts/difftest.log" | head -n 10
    grep -h '^difftest \[' "$work/parts/difftest.log"
    echo
    echo "==== summary ($((EPOCHSECONDS - start)) s in all)"
    echo "slowest C tests (seconds, [ABI], test): $(head -n 10 "$out/durations.txt" | awk '{ printf "%s%s %s %s", sep, $1, $3, $4; sep = ", " }')"
    echo "files: $(cd "$out" && ls | tr '\n' ' ')"
    for p in "${order[@]}"; do
        last=$(tail -n 1 "$work/parts/$p.log" 2>/dev/null)
        if add_summary "$last"; then
            echo "$p: $last ($(cat "$work/parts/$p.secs") s)"
        else
            failed=$((failed + 1))
            echo "$p: FAILED, no summary line (exit status $(cat "$work/parts/$p.rc" 2>/dev/null || echo "?")); its last lines:"
            tail -n 5 "$work/parts/$p.log" | sed 's/^/    /'
        fi
    done
    echo "$passed passed, $failed failed, $skipped skipped"
} >"$work/summary.log"
tee -a "$out/gpu-suite.log" <"$work/summary.log"
((failed == 0))
