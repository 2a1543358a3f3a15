#!/usr/bin/env bash
# Runs the fuzz target (fuzz/harness.c; fuzz/build.sh builds it) on the stand-in driver:
#   bash fuzz/run.sh [--seconds N] [--checked] [--replay] [--no-build] [-- LIBFUZZER-OPTIONS...]
#   --seconds N  fuzz for N seconds (default 60), from fuzz/corpus/ (not changed: new inputs go
#                to a scratch folder; --merge-into-corpus keeps the ones that add coverage)
#   --checked    with CUDART_RS_CHECKED=1: the inputs also pass host memory that is not there,
#                which checked mode must refuse
#   --replay     run each input of fuzz/corpus/ once, no fuzzing (with --checked: under
#                checked mode)
# Fails (exit 1) on a crash, a Rust panic, an input that takes over 10 s (a hang), a leak
# (LeakSanitizer; the stand-in's own bookkeeping excepted, scripts/test/lsan.supp), or memory
# over 4 GiB. Prints the inputs run, the edges covered and the time; the last line is
# `N passed, N failed, N skipped` (one check). A finding is saved as target/fuzz/out/crash-*
# (leak-*, timeout-*): replay it with `target/fuzz/harness FILE`.
# A longer run for developers: `bash fuzz/run.sh --seconds 1800` (and with --checked), then
# `bash fuzz/run.sh --seconds 600 --merge-into-corpus` to keep what it found.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$root"

seconds=60
checked=0
replay=0
build=1
merge=0
extra=()
while (($#)); do
    case $1 in
        --seconds) seconds=${2:-}; shift ;;
        --checked) checked=1 ;;
        --replay) replay=1 ;;
        --no-build) build=0 ;;
        --merge-into-corpus) merge=1 ;;
        --) shift; extra=("$@"); break ;;
        -h | --help) header_usage ;;
        *) echo "fuzz: unknown argument $1" >&2; header_usage ;;
    esac
    shift
done
[[ $seconds =~ ^[1-9][0-9]*$ ]] || header_usage

out=target/fuzz/out
mkdir -p "$out"
if ((build)) || [[ ! -x target/fuzz/harness ]]; then
    bash fuzz/build.sh >"$out/build.log" 2>&1 || { tail -n 20 "$out/build.log"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
fi

label="fuzz$( ((checked)) && echo ", CUDART_RS_CHECKED=1")"
env_run=(env CUDART_RS_DRIVER="$root/target/fuzz/lib/libcuda_standin.so" RUST_BACKTRACE=1
    ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:${ASAN_OPTIONS:-}"
    LSAN_OPTIONS="suppressions=$root/scripts/test/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}")
((checked)) && env_run+=(CUDART_RS_CHECKED=1)
opts=(-timeout=10 -rss_limit_mb=4096 -max_len=512 -artifact_prefix="$out/" -print_final_stats=1)
log=$out/$( ((checked)) && echo checked || echo plain)$( ((replay)) && echo -replay).log
start=$SECONDS
if ((replay)); then
    "${env_run[@]}" target/fuzz/harness "${opts[@]}" -runs=0 "${extra[@]}" fuzz/corpus >"$log" 2>&1
    rc=$?
else
    scratch=$out/corpus$( ((checked)) && echo -checked)
    rm -rf "$scratch" && mkdir -p "$scratch"
    "${env_run[@]}" target/fuzz/harness "${opts[@]}" -max_total_time="$seconds" "${extra[@]}" "$scratch" fuzz/corpus >"$log" 2>&1
    rc=$?
    if ((merge && rc == 0)); then
        "${env_run[@]}" target/fuzz/harness -merge=1 "${opts[@]}" fuzz/corpus "$scratch" >>"$log" 2>&1 || rc=$?
    fi
fi
runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -n 1)
cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+')
why=
((rc != 0)) && why="libFuzzer exit status $rc"
grep -q 'panicked at' "$log" && why+="${why:+, }a Rust panic"
echo "$label: ${runs:-?} inputs in $((SECONDS - start)) s, ${cov:-?} edges covered ($(ls fuzz/corpus | wc -l) corpus inputs; log $log)"
if [[ -n $why ]]; then
    grep -E 'ERROR|SUMMARY|panicked at|Test unit written' "$log" | head -n 20 | sed 's/^/    /'
    echo "FAIL $label: $why"
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
fi
echo "PASS $label"
echo "1 passed, 0 failed, 0 skipped"
