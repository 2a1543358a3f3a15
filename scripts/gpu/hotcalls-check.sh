#!/usr/bin/env bash
# The check of the calls libraries make around each launch and of the allocation rows, on the
# GPU machine (prepared here by scripts/gpu/gpu-bundle.sh; .gpu carried), in one call from the
# repository root:
#   bash scripts/gpu/hotcalls-check.sh [--no-bench] [--no-tests] [--quick]
# 1. Driver calls: scripts/gpu/hotcalls/probe.c (each call of bench's slow rows once, between
#    marks) under drvtrace (DRVTRACE_TIME=1), with NVIDIA's 13.0.96 (the machine's
#    /usr/local/cuda/lib64, else .gpu/nvidia13), NVIDIA's 13.5.37 (.gpu/nvidia135) and ours
#    (.gpu/dist/lib): per probe, each runtime's driver calls with their arguments, results and
#    time in the driver. Then the probe without the trace, each runtime twice, alternated: the
#    calls' own times.
# 2. Tests: scripts/test/ctest.sh --gpu --abi both on the tests of cached answers (props_cache,
#    kernel_attrs_cache) and on those of every call this work touched (device properties,
#    function attributes, occupancy, libraries, pinned and pitched allocation, faults, resets,
#    driver interop): each under NVIDIA's runtime and ours, outputs compared.
# 3. bench/run.sh (--quick passed on).
# $OUT (target/hotcalls) gets hotcalls.log (everything printed), traces/ (the raw traces, the
# probe outputs), ctest/ (expected.tgz with NVIDIA's outputs, ctest-gpu.log) and bench/
# (bench.md, the table; runs/). About six minutes on an H100. Exit status: non-zero when a
# test failed or the benchmark did not run.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

bench=1 tests=1 quick=()
while (($#)); do
    case $1 in
        --no-bench) bench=0 ;;
        --no-tests) tests=0 ;;
        --quick) quick=(--quick) ;;
        *) header_usage ;;
    esac
    shift
done

out=$(out_dir hotcalls) && mkdir -p "$out/traces" || die "cannot make the output folder"
cuda=${CUDA_HOME:-/usr/local/cuda}
nv130=$cuda/lib64
[[ -f $nv130/libcudart.so.13 ]] || nv130=$root/.gpu/nvidia13
nv135=$root/.gpu/nvidia135
ours=$root/.gpu/dist/lib
work=$root/target/hotcalls-build
inc=$cuda/include
[[ -f $inc/cuda_runtime_api.h ]] || inc=$root/.gpu/cu135/include

TESTS=props_cache,kernel_attrs_cache,device_props,device_props_gpu,device_basics,device_limits,library,launch_handle,cu_occupancy,cu_kernels,cu_library,cu_func_params,cu_multi_tu,mem_host,mem_alloc,mem_pointer_attrs,sticky_fault,reset_current,interop_driver

main() {
    local start=$SECONDS status=0
    echo "== GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1 || echo unknown)"
    echo "NVIDIA 13.0: $nv130/libcudart.so.13 ($(readlink -f "$nv130/libcudart.so.13" 2>/dev/null))"
    echo "NVIDIA 13.5: $nv135/libcudart.so.13"
    echo "ours: $ours/libcudart.so.13 ($(tr '\n' ' ' <"$ours/../BUILD-INFO" 2>/dev/null))"
    [[ -f $ours/libcudart.so.13 ]] || { echo "hotcalls: no $ours/libcudart.so.13 (run scripts/gpu/gpu-bundle.sh and carry .gpu)"; return 1; }

    echo "== 1. driver calls of each probe"
    rm -rf "$work"
    mkdir -p "$work/dt"
    local real
    real=${REAL_LIBCUDA:-$(ldconfig -p | awk '/libcuda\.so\.1 .*x86-64/ {print $NF; exit}')}
    if ! bash scripts/gpu/drvtrace/build.sh "$real" "$work/dt" >"$work/drvtrace.log" 2>&1; then
        echo "hotcalls: drvtrace did not build"; tail -5 "$work/drvtrace.log"
    elif ! gcc -O1 -Wall -Wno-deprecated-declarations -I"$inc" scripts/gpu/hotcalls/probe.c -o "$work/probe" \
        -Wl,--no-as-needed "$nv130/libcudart.so.13" -ldl >"$work/probe.log" 2>&1; then
        echo "hotcalls: the probe did not build"; tail -5 "$work/probe.log"
    else
        local who lib
        for who in nvidia13.0 nvidia13.5 ours; do
            case $who in
                nvidia13.0) lib=$nv130 ;;
                nvidia13.5) lib=$nv135 ;;
                ours) lib=$ours ;;
            esac
            [[ -f $lib/libcudart.so.13 ]] || { echo "($who: no $lib/libcudart.so.13)"; continue; }
            rm -f "$out/traces/trace-$who.txt"
            if [[ $who == ours ]]; then
                env LD_LIBRARY_PATH="$lib" CUDART_RS_DRIVER="$work/dt/libcuda.so.1" PROBE_MARK_LIB="$work/dt/libcuda.so.1" \
                    DRVTRACE_REAL="$real" DRVTRACE_TIME=1 DRVTRACE_OUT="$out/traces/trace-$who.txt" \
                    timeout 120 "$work/probe" >"$out/traces/probe-traced-$who.txt" 2>&1
            else
                env LD_LIBRARY_PATH="$work/dt:$lib" PROBE_MARK_LIB="$work/dt/libcuda.so.1" \
                    DRVTRACE_REAL="$real" DRVTRACE_TIME=1 DRVTRACE_OUT="$out/traces/trace-$who.txt" \
                    timeout 120 "$work/probe" >"$out/traces/probe-traced-$who.txt" 2>&1
            fi
            echo "$who traced: exit $?, $(head -n 1 "$out/traces/probe-traced-$who.txt")"
            awk -v who="$who" -f scripts/gpu/hotcalls/summary.awk "$out/traces/trace-$who.txt" >"$work/sum-$who.tsv"
        done
        # Per probe, each runtime's driver calls (pointer arguments are addresses: they differ;
        # the six argument registers are shown whatever the function's arity).
        local sums=()
        for who in nvidia13.0 nvidia13.5 ours; do
            [[ -s $work/sum-$who.tsv ]] && sums+=("$work/sum-$who.tsv")
        done
        ((${#sums[@]})) && awk -F'\t' '!seen[$1]++ {order[++n] = $1} {lines[$1] = lines[$1] sprintf("  %-11s %s\n", $2, $3)}
                    END {for (i = 1; i <= n; i++) printf "-- %s\n%s", order[i], lines[order[i]]}' "${sums[@]}" |
            tee "$out/traces/driver-calls.txt"
        echo "== the probes untraced (first call, then the median of the next), alternated"
        local r
        for r in 1 2; do
            for who in nvidia13.0 ours nvidia13.5; do
                case $who in
                    nvidia13.0) lib=$nv130 ;;
                    nvidia13.5) lib=$nv135 ;;
                    ours) lib=$ours ;;
                esac
                [[ -f $lib/libcudart.so.13 ]] || continue
                LD_LIBRARY_PATH=$lib timeout 120 "$work/probe" >"$out/traces/probe-$who.$r.txt" 2>&1
            done
        done
        for who in nvidia13.0 nvidia13.5 ours; do
            [[ -f $out/traces/probe-$who.2.txt ]] || continue
            echo "-- $who (second round)"
            cat "$out/traces/probe-$who.2.txt"
        done
    fi
    echo "== 1 done at $((SECONDS - start)) s"

    if ((tests)); then
        echo "== 2. tests: $TESTS"
        mkdir -p "$out/ctest"
        OUT=$out/ctest bash scripts/test/ctest.sh --gpu --abi both --only "$TESTS" 2>&1 | tail -n 60
        local rc=${PIPESTATUS[0]}
        ((rc == 0)) || status=1
        echo "== 2 done at $((SECONDS - start)) s (ctest exit $rc)"
    fi

    if ((bench)); then
        echo "== 3. bench/run.sh ${quick[*]}"
        mkdir -p "$out/bench"
        OUT=$out/bench bash bench/run.sh "${quick[@]}" >"$out/bench/run.log" 2>&1
        local rc=$?
        grep -E '^== (GPU|round)|^(driver|host|nvcc|NVIDIA|ours):|^bench:' "$out/bench/run.log" | head -n 40
        cat "$out/bench/bench.md" 2>/dev/null
        ((rc == 0)) && [[ -s $out/bench/bench.md ]] || { echo "hotcalls: the benchmark failed ($rc)"; status=1; }
        echo "== 3 done at $((SECONDS - start)) s"
    fi
    echo "hotcalls: $((SECONDS - start)) s, exit $status; \$OUT: $out"
    return $status
}

main 2>&1 | tee "$out/hotcalls.log"
exit "${PIPESTATUS[0]}"
