#!/usr/bin/env bash
# For the GPU machine (prepared here by scripts/gpu/gpu-bundle.sh; .gpu carried), from the
# repository root:
#   bash scripts/gpu/standin-gpu.sh [TEST...]
# What the stand-in driver and checked mode are held to, recorded from NVIDIA's runtime:
#  1. ctest/driver_refusals.c (what the driver refuses), ctest/checked_host.c (host memory
#     that is not there) and the TESTs named (default: those two and STANDIN_GPU_TESTS), both
#     ABIs, through scripts/test/ctest.sh --gpu --only (one job per test and ABI, in parallel):
#     built against NVIDIA's header and ours, run under NVIDIA's runtime (the reference; for 13
#     also the machine's 13.0.96, differences as NOTE lines), ours, and ours preloaded; every
#     output must be NVIDIA's.
#  2. checked_host under ours with CUDART_RS_CHECKED=1, both builds, both ABIs: no case may end
#     its process and every guarded call must be refused with cudaErrorInvalidValue (the test's
#     own checks), with a misuse report each; the two builds print what the stand-in prints
#     (ctest/expected/<abi>/checked_host.checked.out, which CI compares on the stand-in).
#  3. NVIDIA's outputs of step 1 against the committed ctest/expected/<abi>/TEST.out (what CI
#     compares the stand-in with; driver_refusals' cudaMallocPitch lines were written by hand
#     from an earlier GPU run): a PASS or FAIL line each.
# $OUT (default target/standin-gpu) gets standin-gpu.log (everything printed), expected.tgz
# (expected/<abi>/*.out: unpack into ctest/ and commit) and runs.tgz (every run's output,
# stderr and build log). A PASS or FAIL line per test and ABI; the last line is
# `N passed, N failed, N skipped`.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

out=$(out_dir standin-gpu) || die "cannot make the output folder"
work=$(mktemp -d "${TMPDIR:-/tmp}/standin-gpu.XXXXXX")
trap 'rm -rf "$work"' EXIT

tests=("$@")
((${#tests[@]})) || tests=(driver_refusals checked_host ${STANDIN_GPU_TESTS:-})
# Seconds a job (one test, one ABI, every build and runtime) may take.
job_limit=${STANDIN_GPU_JOB_SECONDS:-170}

main() {
    echo "== GPU"
    gpu_machine || return 1
    local passed=0 failed=0 skipped=0 t abi job
    local started=$SECONDS
    echo "== ${tests[*]}: NVIDIA's runtime and ours (scripts/test/ctest.sh --gpu), one job per test and ABI"
    for t in "${tests[@]}"; do
        [[ -f ctest/$t.c || -f ctest/$t.cu ]] || { echo "FAIL $t: no ctest/$t.c"; failed=$((failed + 1)); continue; }
        for abi in 13 12; do
            job=$work/$t-$abi
            mkdir -p "$job"
            CUDART_RS_DIST=.gpu/dist NVIDIA12_LIB=$root/.gpu/nvidia12 CU12_INCLUDE=$root/.gpu/cu12/include \
                OUT=$job/out CTEST_WORK=$job/build \
                timeout -k 5 "$job_limit" bash scripts/test/ctest.sh --gpu --abi "$abi" --only "$t" >"$job/log" 2>&1 &
        done
    done
    wait
    for t in "${tests[@]}"; do
        for abi in 13 12; do
            job=$work/$t-$abi
            [[ -f $job/log ]] || continue
            echo "-- $t [$abi]"
            grep -v -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$job/log"
            if ! add_summary "$(tail -n 1 "$job/log")"; then
                echo "FAIL $t [$abi]: the run ended early (over ${job_limit}s?)"
                failed=$((failed + 1))
            fi
            mkdir -p "$work/expected" "$work/runs/$t-$abi"
            [[ -d $job/out/expected ]] && cp -r "$job/out/expected/." "$work/expected/"
            [[ -f $job/out/gpu-runs.tgz ]] && tar -C "$work/runs/$t-$abi" -xzf "$job/out/gpu-runs.tgz"
        done
    done
    echo "(${SECONDS}s so far, $((SECONDS - started))s for the jobs)"

    # What CI compares the stand-in with must be what NVIDIA's runtime printed now (lines
    # written by hand from an earlier GPU run, as driver_refusals' cudaMallocPitch case,
    # included).
    echo "== NVIDIA's outputs against the committed ctest/expected/"
    local want got
    for t in "${tests[@]}"; do
        for abi in 13 12; do
            want=ctest/expected/$abi/$t.out got=$work/expected/$abi/$t.out
            [[ -f $want && -f $got ]] || continue
            if cmp -s "$want" "$got"; then
                echo "PASS $t [$abi]: NVIDIA's output is the committed one"; passed=$((passed + 1))
            else
                echo "FAIL $t [$abi]: NVIDIA's output differs from the committed $want"; failed=$((failed + 1))
                diff -u --label committed --label NVIDIA "$want" "$got" | head -n 30 | sed 's/^/      /'
            fi
        done
    done

    echo "== checked_host with CUDART_RS_CHECKED=1 under ours"
    local bin base rc name=checked_host
    for abi in 13 12; do
        [[ " ${tests[*]} " == *" $name "* ]] || break
        local outs=() ok=1 why=
        for b in ours-header nvidia-header; do
            bin=$work/$name-$abi/build/$abi/$name/$b
            base=$work/runs/$name-$abi/checked-$b
            if [[ ! -x $bin ]]; then
                ok=0; why+=" no $b build;"; continue
            fi
            { env -u LD_PRELOAD LD_LIBRARY_PATH="$root/.gpu/dist/lib" CUDART_RS_CHECKED=1 \
                timeout -k 5 120 "$bin" >"$base.out" 2>"$base.err" </dev/null; } 2>/dev/null
            rc=$?
            outs+=("$base.out")
            if ((rc != 0)) || grep -q '^FAIL' "$base.out"; then
                ok=0; why+=" $b: exit $rc;"
                grep -E '^FAIL|killed by|did not return' "$base.out" | head -n 20 | sed 's/^/      /'
                tail -n 5 "$base.err" | sed 's/^/      | /'
            fi
        done
        local want=ctest/expected/$abi/$name.checked.out o
        for o in "${outs[@]}"; do
            if [[ ! -f $want ]]; then
                ok=0; why+=" no $want;"; break
            elif ! cmp -s "$want" "$o"; then
                ok=0; why+=" $(basename "$o" .out) prints otherwise than the stand-in;"
                diff -u --label stand-in --label GPU "$want" "$o" | head -n 30 | sed 's/^/      /'
            fi
        done
        if ((${#outs[@]})); then
            mkdir -p "$work/expected/$abi"
            cp "${outs[0]}" "$work/expected/$abi/$name.checked.out"
            local guarded reports
            guarded=$(grep -c 'CT_G(' ctest/$name.c)
            reports=$(grep -c '^========= Misuse' "${outs[0]%.out}.err" 2>/dev/null)
            echo "   misuse reports of the ours-header run: $reports (guarded calls in the source: $guarded)"
            ((reports > 0)) || { ok=0; why+=" no misuse report;"; }
        fi
        if ((ok)); then
            echo "PASS $name [$abi, CUDART_RS_CHECKED=1]"; passed=$((passed + 1))
        else
            echo "FAIL $name [$abi, CUDART_RS_CHECKED=1]:$why"; failed=$((failed + 1))
        fi
    done

    [[ -d $work/expected ]] && tar -C "$work" -czf "$out/expected.tgz" expected
    [[ -d $work/runs ]] && tar -C "$work" -czf "$out/runs.tgz" runs
    echo "standin-gpu: $(((SECONDS)))s; \$OUT: standin-gpu.log, expected.tgz, runs.tgz"
    echo "$passed passed, $failed failed, $skipped skipped"
    ((failed == 0))
}

main 2>&1 | tee "$out/standin-gpu.log"
exit "${PIPESTATUS[0]}"
