#!/usr/bin/env bash
# The seeded random differential tester (ctest/difftest/difftest.c, see ctest/README.md).
#
#   scripts/test/difftest.sh [options]
#       On the GPU machine (NVIDIA's driver; .gpu carried, as for scripts/gpu/gpu-check.sh): builds
#       the tester for each ABI with gcc against NVIDIA's header, linked to libcudart, runs
#       every seed under NVIDIA's runtime and under ours (LD_LIBRARY_PATH), compares the two
#       outputs line by line, and prints each diverging seed's first divergence, the seeds
#       whose run died (NVIDIA's runtime and ours apart), and per ABI the line
#         difftest [ABI]: S seeds x N calls: D diverged, C crashed NVIDIA's runtime, K crashed ours
#       Exit status non-zero on any divergence or crash of ours (or a build failure).
#
#   scripts/test/difftest.sh --standin [options]
#       Without a GPU (CI): builds against our header (include/) and runs every seed with our
#       runtime (dist/lib) on the stand-in driver; each run must end normally and print one
#       line per call. Nothing is compared: the stand-in is no reference.
#
# Options:
#   --seeds FIRST-LAST   seeds to run (default 1-200; --standin 1-20)
#   --calls N            calls per seed (default 400; --standin 200)
#   --abi 13|12|both     (default both)
#   --faults auto|on|off passed to the tester: auto faults the context in one seed in four
#                        (default auto)
#   --jobs J             runs at a time (default: the number of cores)
#   --out DIR            where the log and the outputs of diverging seeds go (default $OUT,
#                        else target/difftest/out)
#   --timeout S          seconds one run may take (default 120)
#   --context N          lines shown before a divergence (default 4)
#   --ours-driver PATH   CUDART_RS_DRIVER for our runs only (to compare with NVIDIA's runtime
#                        on a machine without a GPU: every seed must then diverge)
#   --nvidia-twice       run NVIDIA's runtime in place of ours too: every divergence is then
#                        a run that does not repeat itself (the tester's or the machine's)
#
# Environment (GPU mode): CUDART_RS_DIST (.gpu/dist when there is one, else dist),
#   NVIDIA13_LIB (/usr/local/cuda/lib64 when it has libcudart.so.13, else .gpu/nvidia13),
#   NVIDIA12_LIB (.gpu/nvidia12), CU13_INCLUDE (/usr/local/cuda/include, else the wheel's
#   headers in .cache/nvidia), CU12_INCLUDE (.gpu/cu12/include, else the wheels' in
#   .cache/nvidia; several folders separated by ':').
#
# Left in the output folder: difftest.log (everything printed) and difftest-runs-ABI.tgz (both
# runs' outputs of every diverging or crashed seed, up to 40 seeds per ABI).
set -uo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

mode=gpu
first= last= calls=
abis=(13 12)
faults=auto
jobs=$(nproc 2>/dev/null || echo 4)
out_dir=${OUT:-}
timeout_s=120
context=4
ours_driver=
twice=0

while (($#)); do
    case $1 in
        --standin) mode=standin ;;
        --seeds)
            [[ ${2:-} =~ ^([0-9]+)-([0-9]+)$ ]] || header_usage
            first=${BASH_REMATCH[1]} last=${BASH_REMATCH[2]}
            shift ;;
        --calls) calls=${2:-}; shift ;;
        --abi) abis_of "${2:-}" || header_usage; shift ;;
        --faults) faults=${2:-}; shift ;;
        --jobs) jobs=${2:-}; shift ;;
        --out) out_dir=${2:-}; shift ;;
        --timeout) timeout_s=${2:-}; shift ;;
        --context) context=${2:-}; shift ;;
        --ours-driver) ours_driver=${2:-}; shift ;;
        --nvidia-twice) twice=1 ;;
        -h | --help) header_usage ;;
        *) echo "difftest: unknown argument $1" >&2; header_usage ;;
    esac
    shift
done
if [[ -z $first ]]; then
    if [[ $mode == standin ]]; then first=1 last=20; else first=1 last=200; fi
fi
if [[ -z $calls ]]; then
    if [[ $mode == standin ]]; then calls=200; else calls=400; fi
fi
[[ $calls =~ ^[0-9]+$ && $jobs =~ ^[1-9][0-9]*$ && $timeout_s =~ ^[1-9][0-9]*$ && $context =~ ^[0-9]+$ ]] || header_usage
[[ $faults == auto || $faults == on || $faults == off ]] || header_usage
((first <= last)) || header_usage

work=$root/target/difftest
out_dir=${out_dir:-$work/out}
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
src=ctest/difftest/difftest.c
cflags=(-std=gnu11 -O1 -g -Wall -Wno-deprecated-declarations -Werror=implicit-function-declaration)

# run_one BIN SEED BASE ENV...: one run of the tester; stdout to BASE.out, stderr to BASE.err,
# the exit status (124 when it timed out) to BASE.rc.
run_one() {
    local bin=$1 seed=$2 base=$3
    shift 3
    { env -u CUDART_RS_DRIVER -u LD_PRELOAD "$@" timeout -k 5 "$timeout_s" "$bin" "$seed" "$calls" "faults=$faults" \
        >"$base.out" 2>"$base.err" </dev/null; } 2>/dev/null
    echo $? >"$base.rc"
}

# how RC: how a run ended, in words ("" when it ended normally).
how() {
    local rc=$1
    if ((rc == 0)); then
        echo ""
    elif ((rc == 124 || rc == 137)); then
        echo "timed out after ${timeout_s}s"
    elif ((rc > 128)); then
        echo "died of SIG$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))"
    else
        echo "exit status $rc"
    fi
}

# The last line a run printed (a call cut short by a crash has no result yet).
last_line() { tail -c 2000 "$1" | tail -n 1; }

# first_diff A B: the number of the first line where A and B differ (one ending before the
# other differs at the line after its last), or nothing.
first_diff() {
    awk '
        NR == FNR { a[FNR] = $0; n = FNR; next }
        { m = FNR; if (!(FNR in a) || a[FNR] != $0) { print FNR; found = 1; exit } }
        END { if (!found && n > m) print m + 1 }
    ' "$1" "$2"
}

# The number of the line a run was printing when it died: its last line when that was cut
# short, else the line after its last.
crash_line() { echo $(($(wc -l <"$1") + 1)); }

############################################################################ stand-in mode

standin() {
    local dist=${CUDART_RS_DIST:-dist}
    dist=$(cd "$dist" 2>/dev/null && pwd) || { echo "difftest: no dist/ (run scripts/build.sh)"; return 1; }
    local driver=$dist/lib/stand-in/libcuda.so.1 failed=0 abi
    [[ -f $driver ]] || { echo "difftest: no stand-in driver at $driver (run scripts/build.sh)"; return 1; }
    for abi in "${abis[@]}"; do
        local dir=$work/standin/$abi bin defs=()
        rm -rf "$dir"
        mkdir -p "$dir"
        bin=$dir/difftest
        [[ $abi == 12 ]] && defs=(-DCUDART_RS_ABI12)
        if ! gcc "${cflags[@]}" -DDIFFTEST_ABI="$abi" "${defs[@]}" -Iinclude "$src" -o "$bin" "$dist/lib/libcudart.so.$abi" -ldl >"$dir/cc.log" 2>&1; then
            echo "difftest [$abi] stand-in: does not build against include/:"
            sed 's/^/    /' "$dir/cc.log" | head -n 30
            failed=1
            continue
        fi
        export -f run_one
        export timeout_s calls faults
        seq "$first" "$last" | xargs -P "$jobs" -I{} bash -c \
            'run_one "$1" {} "$2/{}" LD_LIBRARY_PATH="$3/lib" CUDART_RS_DRIVER="$4"' _ "$bin" "$dir" "$dist" "$driver"
        local seed bad=0 n rc mism=0 faulted=0
        for ((seed = first; seed <= last; seed++)); do
            rc=$(cat "$dir/$seed.rc" 2>/dev/null || echo 255)
            n=$(grep -c -E '^[0-9]+ ' "$dir/$seed.out" 2>/dev/null)
            if ((rc != 0)) || [[ $n != "$calls" ]] || ! tail -n 1 "$dir/$seed.out" | grep -q "^end after $calls calls"; then
                bad=$((bad + 1))
                local h
                h=$(how "$rc")
                echo "seed $seed [$abi]: ${h:-ended}, $n of $calls call lines; last line:"
                echo "    $(last_line "$dir/$seed.out")"
                [[ -s $dir/$seed.err ]] && tail -n 5 "$dir/$seed.err" | sed 's/^/    stderr: /'
            fi
            grep -q '(model ' "$dir/$seed.out" 2>/dev/null && mism=$((mism + 1))
            grep -q '^-- fault' "$dir/$seed.out" 2>/dev/null && faulted=$((faulted + 1))
        done
        echo "difftest [$abi] stand-in: $((last - first + 1)) seeds x $calls calls: $bad did not end normally ($faulted reached a fault point, $mism printed checksums unlike the tester's model)"
        ((bad)) && failed=1
    done
    return "$failed"
}

################################################################################ GPU mode

gpu() {
    local dist=${CUDART_RS_DIST:-}
    if [[ -z $dist ]]; then
        if [[ -f .gpu/dist/lib/libcudart.so.13 ]]; then dist=.gpu/dist; else dist=dist; fi
    fi
    dist=$(cd "$dist" 2>/dev/null && pwd) || { echo "difftest: no $dist (run scripts/gpu/gpu-bundle.sh here and carry .gpu)"; return 1; }
    local nv13=${NVIDIA13_LIB:-}
    if [[ -z $nv13 ]]; then
        if [[ -e /usr/local/cuda/lib64/libcudart.so.13 ]]; then nv13=/usr/local/cuda/lib64; else nv13=$root/.gpu/nvidia13; fi
    fi
    local nv12=${NVIDIA12_LIB:-$root/.gpu/nvidia12}
    local inc13=${CU13_INCLUDE:-} inc12=${CU12_INCLUDE:-}
    if [[ -z $inc13 ]]; then
        if [[ -f /usr/local/cuda/include/cuda_runtime_api.h ]]; then inc13=/usr/local/cuda/include; else inc13=$root/.cache/nvidia/cu13/nvidia/cu13/include; fi
    fi
    if [[ -z $inc12 ]]; then
        if [[ -d $root/.gpu/cu12/include ]]; then inc12=$root/.gpu/cu12/include
        else inc12=$root/.cache/nvidia/cu12/nvidia/cuda_runtime/include:$root/.cache/nvidia/cu12/nvidia/cuda_nvcc/include; fi
    fi
    echo "GPU: $(nvidia-smi -L 2>/dev/null | head -n 1 || echo none) driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1 || echo unknown)"
    echo "ours: $dist/lib ($(tr '\n' ' ' <"$dist/BUILD-INFO" 2>/dev/null))"
    [[ -n $ours_driver ]] && echo "ours on the driver: $ours_driver"
    ((twice)) && echo "NVIDIA's runtime twice: \"ours\" below is a second run of NVIDIA's"

    local failed=0 abi
    for abi in "${abis[@]}"; do
        local nvlib inc dir bin incs=() d
        if [[ $abi == 13 ]]; then nvlib=$nv13 inc=$inc13; else nvlib=$nv12 inc=$inc12; fi
        echo
        echo "== ABI $abi: NVIDIA's runtime $(readlink -f "$nvlib/libcudart.so.$abi" 2>/dev/null || echo "MISSING in $nvlib"), headers $inc"
        IFS=: read -r -a d <<<"$inc"
        for x in "${d[@]}"; do incs+=(-I"$x"); done
        dir=$work/gpu/$abi
        rm -rf "$dir"
        mkdir -p "$dir/runs"
        bin=$dir/difftest
        if ! gcc "${cflags[@]}" -DDIFFTEST_ABI="$abi" "${incs[@]}" "$src" -o "$bin" -L"$nvlib" -l:libcudart.so.$abi -ldl >"$dir/cc.log" 2>&1; then
            echo "difftest [$abi]: does not build against NVIDIA's header:"
            sed 's/^/    /' "$dir/cc.log" | head -n 30
            failed=1
            continue
        fi
        # The runtime meant must be the one the loader picks.
        local want got
        for want in "$nvlib" "$dist/lib"; do
            got=$(LD_LIBRARY_PATH=$want ldd "$bin" 2>/dev/null | awk '/libcudart\.so/ { print $3; exit }')
            if [[ $(readlink -f "$(dirname "$got")" 2>/dev/null) != "$(readlink -f "$want")" ]]; then
                echo "difftest [$abi]: with LD_LIBRARY_PATH=$want the loader picks '$got'"
                failed=1
                continue 2
            fi
        done

        export -f run_one
        export timeout_s calls faults
        local t0=$SECONDS ours_lib=$dist/lib
        ((twice)) && ours_lib=$nvlib
        seq "$first" "$last" | xargs -P "$jobs" -I{} bash -c '
            run_one "$1" {} "$2/{}.nvidia" LD_LIBRARY_PATH="$3"
            if [[ -n $5 ]]; then run_one "$1" {} "$2/{}.ours" LD_LIBRARY_PATH="$4" CUDART_RS_DRIVER="$5"
            else run_one "$1" {} "$2/{}.ours" LD_LIBRARY_PATH="$4"; fi' _ "$bin" "$dir/runs" "$nvlib" "$ours_lib" "$ours_driver"
        local secs=$((SECONDS - t0))

        local seed diverged=0 nv_crashed=0 ours_crashed=0 kept=() fns=() model_seeds=0 model_first=
        for ((seed = first; seed <= last; seed++)); do
            local nv=$dir/runs/$seed.nvidia ours=$dir/runs/$seed.ours
            local rn ro hn ho limit=0 line keep=0
            rn=$(cat "$nv.rc" 2>/dev/null || echo 255)
            ro=$(cat "$ours.rc" 2>/dev/null || echo 255)
            hn=$(how "$rn")
            ho=$(how "$ro")
            if [[ -n $hn ]]; then
                nv_crashed=$((nv_crashed + 1))
                keep=1
                echo "seed $seed [$abi]: NVIDIA's runtime $hn in: $(last_line "$nv.out")"
                # Only what NVIDIA's run printed before it died is compared.
                limit=$(crash_line "$nv.out")
            fi
            if [[ -n $ho ]]; then
                ours_crashed=$((ours_crashed + 1))
                keep=1
                echo "seed $seed [$abi]: ours $ho in: $(last_line "$ours.out")"
                [[ -s $ours.err ]] && tail -n 3 "$ours.err" | sed 's/^/    stderr: /'
                local lo
                lo=$(crash_line "$ours.out")
                if ((limit == 0 || lo < limit)); then limit=$lo; fi
            fi
            line=$(first_diff "$nv.out" "$ours.out")
            # A crashed run's last line is cut short: a difference there is the crash itself.
            if [[ -n $line ]] && ((limit == 0 || line < limit)); then
                diverged=$((diverged + 1))
                keep=1
                local at fn
                at=$(sed -n "${line}p" "$nv.out")
                [[ -z $at ]] && at=$(sed -n "${line}p" "$ours.out")
                fn=$(sed -nE 's/^[0-9]+ ([A-Za-z0-9_]+)\(.*/\1/p; s/^= sums.*/(checksums)/p; s/^-- fault.*/(fault)/p; s/^end after.*/(end)/p' <<<"$at")
                fns+=("${fn:-(other line)}")
                echo "seed $seed [$abi]: first divergence at line $line"
                local from=$((line - context))
                ((from < 1)) && from=1
                if ((line > from)); then
                    sed -n "${from},$((line - 1))p" "$nv.out" | cut -c1-400 | sed 's/^/      /'
                fi
                echo "  NVIDIA: $(sed -n "${line}p" "$nv.out" | cut -c1-600)"
                echo "  ours:   $(sed -n "${line}p" "$ours.out" | cut -c1-600)"
            fi
            if ((keep)) && ((${#kept[@]} < 40)); then kept+=("$seed"); fi
            if grep -q '(model ' "$nv.out" 2>/dev/null; then
                model_seeds=$((model_seeds + 1))
                [[ -z $model_first ]] && model_first="seed $seed: $(grep -m 1 '(model ' "$nv.out" | cut -c1-400)"
            fi
        done
        if ((${#fns[@]})); then
            echo "diverging calls [$abi]: $(printf '%s\n' "${fns[@]}" | sort | uniq -c | sort -rn | awk '{ printf "%s%s x%s", sep, $2, $1; sep = ", " }')"
        fi
        if ((model_seeds)); then
            echo "note [$abi]: in $model_seeds seeds NVIDIA's runtime left an object unlike the tester's model (its semantics or the model's); first: $model_first"
        fi
        if ((${#kept[@]})); then
            local files=() s
            for s in "${kept[@]}"; do files+=("$abi/runs/$s.nvidia.out" "$abi/runs/$s.nvidia.err" "$abi/runs/$s.ours.out" "$abi/runs/$s.ours.err"); done
            tar -C "$work/gpu" -czf "$out_dir/difftest-runs-$abi.tgz" "${files[@]}" 2>/dev/null
        fi
        echo "($((2 * (last - first + 1))) runs in ${secs}s, $jobs at a time)"
        echo "difftest [$abi]: $((last - first + 1)) seeds x $calls calls: $diverged diverged, $nv_crashed crashed NVIDIA's runtime, $ours_crashed crashed ours"
        ((diverged || ours_crashed)) && failed=1
    done
    return "$failed"
}

###########################################################################################

rm -f "$out_dir"/difftest-runs-*.tgz
if [[ $mode == standin ]]; then
    standin 2>&1 | tee "$out_dir/difftest.log"
else
    gpu 2>&1 | tee "$out_dir/difftest.log"
fi
exit "${PIPESTATUS[0]}"
