#!/usr/bin/env bash
# Checks the observation modes (CUDART_RS_TRACE, _SUMMARY, _LEAKS, _TIMELINE, _CHECKED; see
# docs/observation.md) with ctest/observe/observe.c: builds it with gcc against our header, runs it with
# each variable and checks the trace, summary, leak report, timeline and checked mode against
# what the program did (scripts/test/observe/check.py); then, with ctest/observe/procs.c, the
# reports of process trees (wrappers, shells, forks, processes sharing a path), report files
# that are unsafe to write, the `cudart-rs` command, and secure-execution mode: a setuid
# program, made and removed by the check as root (scripts/test/observe/procs.py); then
# signals (Python's KeyboardInterrupt, nohup, the command's forwarding), processes that end
# by _exit, exec or SIGKILL, threaded forks and forks during initialisation, what the command
# writes and refuses (as root and as another user), a full disk (a small tmpfs, as root), and
# a job of two nodes joined by `cudart-rs report` (scripts/test/observe/ends.py).
#
#   bash scripts/test/observe-check.sh --standin [--abi 13|12|both]
#       Here (and in scripts/test.sh): dist/ (scripts/build.sh), the stand-in driver.
#   bash scripts/test/observe-check.sh --gpu [--abi 13|12|both]
#       On the GPU machine (no cargo there): .gpu/dist (scripts/gpu/gpu-bundle.sh here, .gpu
#       carried), the machine's driver; the kernel must run. Takes seconds; with two GPUs also
#       `cudart-rs run --summary --timeline` on a DDP training of two ranks started by
#       torchrun (scripts/test/observe/ddp.py, a minute). Writes observe-check.log,
#       observe-runs.tgz (every run's output and files) and ddp-timeline.json.gz to $OUT.
#
# The last line is `observe: N passed, N failed, N skipped` (a check that cannot run here says
# why, and is not counted as passed); the exit status is non-zero when a check failed.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

mode=
abis=(13 12)
while (($#)); do
    case $1 in
        --standin) mode=standin ;;
        --gpu) mode=gpu ;;
        --abi) abis_of "${2:-}" || header_usage; shift ;;
        *) header_usage ;;
    esac
    shift
done
[[ -n $mode ]] || header_usage

if [[ $mode == gpu ]]; then
    dist=$root/.gpu/dist
    out=${OUT:-$root/target/observe-check}
else
    dist=$root/dist
    out=$root/target/observe-check
fi
[[ -f $dist/lib/libcudart.so.13 ]] || { echo "observe-check: no $dist (run scripts/build.sh, and for --gpu scripts/gpu/gpu-bundle.sh)"; echo "observe: 0 passed, 1 failed"; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

main() {
    local rc=0 abi so def exe
    if [[ $mode == gpu ]]; then
        echo "== GPU: $(nvidia-smi -L 2>/dev/null | head -n 1 || echo unknown), driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
    fi
    for abi in "${abis[@]}"; do
        so=$abi
        def=()
        [[ $abi == 12 ]] && def=(-DCUDART_RS_ABI12)
        mkdir -p "$work/$abi/lib"
        # The library under the name programs link to, alone in its folder.
        cp "$dist/lib/libcudart.so.$so" "$work/$abi/lib/"
        ln -sf "libcudart.so.$so" "$work/$abi/lib/libcudart.so"
        exe=$work/$abi/observe
        if ! gcc -std=gnu11 -O1 -g -Wall "${def[@]}" -I "$dist/include" -o "$exe" ctest/observe/observe.c \
            -L "$work/$abi/lib" -lcudart -Wl,-rpath,"$work/$abi/lib" 2>"$work/$abi/build.log"; then
            cat "$work/$abi/build.log"
            echo "FAIL [$abi] build"
            rc=1
            continue
        fi
        # ctest/stress.c: 16 threads, every mode on at once.
        if ! gcc -std=gnu11 -O1 -g "${def[@]}" -I "$dist/include" -I ctest -o "$work/$abi/stress" ctest/stress.c \
            -L "$work/$abi/lib" -lcudart -Wl,-rpath,"$work/$abi/lib" -pthread 2>>"$work/$abi/build.log"; then
            cat "$work/$abi/build.log"
            echo "FAIL [$abi] build of ctest/stress.c"
            rc=1
            continue
        fi
        local args=(--exe "$exe" --stress "$work/$abi/stress" --work "$work/$abi/runs" --label "[$abi]" --cli "$dist/bin/cudart-rs")
        if [[ $mode == gpu ]]; then
            args+=(--gpu)
        else
            args+=(--driver "$dist/lib/stand-in/libcuda.so.1")
        fi
        python3 scripts/test/observe/check.py "${args[@]}" || rc=1
        # Process trees, report files, the cudart-rs command, secure-execution mode.
        args=(--lib "$work/$abi/lib/libcudart.so.$so" --cli "$dist/bin/cudart-rs" --include "$dist/include" --abi "$abi"
            --observe "$exe" --work "$work/$abi/procs" --label "[$abi]")
        if [[ $mode == gpu ]]; then
            args+=(--gpu)
        else
            args+=(--driver "$dist/lib/stand-in/libcuda.so.1")
        fi
        python3 scripts/test/observe/procs.py "${args[@]}" || rc=1
        # Signals, the ends of processes (_exit, exec, kills), forks, report files, several
        # nodes.
        python3 scripts/test/observe/ends.py "${args[@]}" --work "$work/$abi/ends" || rc=1
    done
    if [[ $mode == gpu ]]; then
        # cudart-rs run on a DDP training of two ranks started by torchrun (two GPUs).
        python3 scripts/test/observe/ddp.py --cli "$dist/bin/cudart-rs" --lib "$dist/lib" --work "$work/ddp/runs" \
            --timeline "$out/ddp-timeline.json" --label "[13]" || rc=1
        [[ -f $out/ddp-timeline.json ]] && gzip -f "$out/ddp-timeline.json"
    fi
    return $rc
}

main 2>&1 | tee "$work/observe-check.log"
rc=${PIPESTATUS[0]}
passed=$(grep -c '^PASS ' "$work/observe-check.log")
failed=$(grep -c '^FAIL ' "$work/observe-check.log")
skipped=$(grep -c '^SKIP ' "$work/observe-check.log")
cp "$work/observe-check.log" "$out/observe-check.log"
tar -czf "$out/observe-runs.tgz" -C "$work" $(cd "$work" && ls -d */runs 2>/dev/null) 2>/dev/null
echo "observe: $passed passed, $failed failed, $skipped skipped"
((rc == 0 && failed == 0))
