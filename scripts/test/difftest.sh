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
#       then, last, `N passed, N failed, 0 skipped` (seeds of both ABIs: those where ours
#       diverged or crashed, or that did not run, failed). Exit status non-zero on any divergence
#       or crash of ours (or a build failure).
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
#   --recorded           NVIDIA's results as recorded (ctest/expected/difftest/<abi>.txt: a
#                        line `seed exit-status sha256-of-output` a seed, for the calls and
#                        faults its first line names): where ours printed exactly that, NVIDIA's
#                        runtime is not run (a divergence needs its output: it runs there)
#   --deadline T         (seconds since the epoch) no run starts after T or lasts past it; a
#                        seed not run counts as a failure
#
# Environment (GPU mode): CUDART_RS_DIST (.gpu/dist when there is one, else dist),
#   NVIDIA13_LIB (/usr/local/cuda/lib64 when it has libcudart.so.13, else .gpu/nvidia13),
#   NVIDIA12_LIB (.gpu/nvidia12), CU13_INCLUDE (/usr/local/cuda/include, else the wheel's
#   headers in .cache/nvidia), CU12_INCLUDE (.gpu/cu12/include, else the wheels' in
#   .cache/nvidia; several folders separated by ':').
#
# Left in the output folder: difftest.log (everything printed), difftest-runs-ABI.tgz (both
# runs' outputs of every diverging or crashed seed, up to 40 seeds per ABI) and, where NVIDIA's
# runtime ran, its results as ctest/expected/difftest/ records them: expected/difftest/ABI.txt.
# Both ABIs' runs share the --jobs.
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
recorded=0
deadline=0

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
        --recorded) recorded=1 ;;
        --deadline) deadline=${2:-}; shift ;;
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
[[ $calls =~ ^[0-9]+$ && $jobs =~ ^[1-9][0-9]*$ && $timeout_s =~ ^[1-9][0-9]*$ && $context =~ ^[0-9]+$ && $deadline =~ ^[0-9]+$ ]] ||
    header_usage
[[ $faults == auto || $faults == on || $faults == off ]] || header_usage
((first <= last)) || header_usage

work=$root/target/difftest
out_dir=${out_dir:-$work/out}
mkdir -p "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
src=ctest/difftest/difftest.c
cflags=(-std=gnu11 -O1 -g -Wall -Wno-deprecated-declarations -Werror=implicit-function-declaration)

# run_one BIN SEED BASE ENV...: one run of the tester (at most until the deadline); stdout to
# BASE.out, stderr to BASE.err, the exit status (124 when it timed out) to BASE.rc.
# CUDART_RS_DRYRUN (a dry run without a GPU: scripts/gpu/gpu-suite.sh --standin) is the driver
# of every run, unless ENV names one.
run_one() {
    local bin=$1 seed=$2 base=$3 t=$timeout_s
    shift 3
    if ((deadline)) && ((deadline - EPOCHSECONDS < t)); then
        t=$((deadline - EPOCHSECONDS))
        ((t < 1)) && t=1
    fi
    { env -u CUDART_RS_DRIVER -u LD_PRELOAD ${CUDART_RS_DRYRUN:+CUDART_RS_DRIVER=$CUDART_RS_DRYRUN} "$@" \
        timeout -k 5 "$t" "$bin" "$seed" "$calls" "faults=$faults" >"$base.out" 2>"$base.err" </dev/null; } 2>/dev/null
    echo $? >"$base.rc"
}

# seed_job DIR NVLIB OURS_LIB SEED: one seed of one ABI (a job of its own; the tester is
# DIR/difftest): ours, then NVIDIA's where DIR/recorded (`seed rc sha256` of NVIDIA's runs)
# does not say ours is what NVIDIA's printed (DIR/runs/SEED.matched where it is); both where
# nothing is recorded. A seed not started by the deadline leaves DIR/runs/SEED.notrun.
seed_job() {
    local dir=$1 nvlib=$2 ours_lib=$3 seed=$4 rec ours_env
    if ((deadline)) && ((EPOCHSECONDS >= deadline)); then
        : >"$dir/runs/$seed.notrun"
        return
    fi
    ours_env=(LD_LIBRARY_PATH="$ours_lib")
    [[ -n $ours_driver ]] && ours_env+=(CUDART_RS_DRIVER="$ours_driver")
    rec=$(awk -v s="$seed" '$1 == s { print $2, $3; exit }' "$dir/recorded")
    if [[ -n $rec ]]; then
        run_one "$dir/difftest" "$seed" "$dir/runs/$seed.ours" "${ours_env[@]}"
        if [[ "$(cat "$dir/runs/$seed.ours.rc") $(sha256sum <"$dir/runs/$seed.ours.out" | cut -c1-64)" == "$rec" ]]; then
            : >"$dir/runs/$seed.matched"
            return
        fi
        run_one "$dir/difftest" "$seed" "$dir/runs/$seed.nvidia" LD_LIBRARY_PATH="$nvlib"
    else
        run_one "$dir/difftest" "$seed" "$dir/runs/$seed.nvidia" LD_LIBRARY_PATH="$nvlib"
        run_one "$dir/difftest" "$seed" "$dir/runs/$seed.ours" "${ours_env[@]}"
    fi
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

    local failed=0 abi ok_abis=() seeds_passed=0 seeds_failed=0
    declare -A nvlibs=()
    for abi in "${abis[@]}"; do
        local nvlib inc dir bin incs=() d
        if [[ $abi == 13 ]]; then nvlib=$nv13 inc=$inc13; else nvlib=$nv12 inc=$inc12; fi
        nvlibs[$abi]=$nvlib
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
            failed=1 seeds_failed=$((seeds_failed + last - first + 1))
            continue
        fi
        # The runtime meant must be the one the loader picks.
        local want got
        for want in "$nvlib" "$dist/lib"; do
            got=$(LD_LIBRARY_PATH=$want ldd "$bin" 2>/dev/null | awk '/libcudart\.so/ { print $3; exit }')
            if [[ $(readlink -f "$(dirname "$got")" 2>/dev/null) != "$(readlink -f "$want")" ]]; then
                echo "difftest [$abi]: with LD_LIBRARY_PATH=$want the loader picks '$got'"
                failed=1 seeds_failed=$((seeds_failed + last - first + 1))
                continue 2
            fi
        done
        # NVIDIA's recorded results (--recorded), where they are of these calls and faults.
        local rec=ctest/expected/difftest/$abi.txt
        if ((recorded && !twice)) && [[ -z $ours_driver && $(head -n 1 "$rec" 2>/dev/null) == "# calls=$calls faults=$faults" ]]; then
            grep -v '^#' "$rec" >"$dir/recorded"
            echo "NVIDIA's results recorded for $(wc -l <"$dir/recorded") seeds ($rec): NVIDIA's runtime runs only where ours differs or none is recorded"
        else
            : >"$dir/recorded"
        fi
        ok_abis+=("$abi")
    done

    # Every run of every ABI, $jobs at a time: for a seed with a recorded result, ours, then
    # NVIDIA's only where ours differs from the recording; for any other, both.
    export -f run_one seed_job
    export timeout_s calls faults deadline ours_driver
    local t0=$SECONDS
    # (The ABIs' seeds alternate: a deadline cuts both alike.)
    local seed ours_lib
    for ((seed = first; seed <= last; seed++)); do
        for abi in "${ok_abis[@]}"; do
            ours_lib=$dist/lib
            ((twice)) && ours_lib=${nvlibs[$abi]}
            echo "$work/gpu/$abi ${nvlibs[$abi]} $ours_lib $seed"
        done
    done | xargs -P "$jobs" -L 1 bash -c 'seed_job "$@"' _
    local secs=$((SECONDS - t0))

    for abi in "${ok_abis[@]}"; do
        local dir=$work/gpu/$abi
        local seed diverged=0 nv_crashed=0 ours_crashed=0 kept=() fns=() model_seeds=0 model_first= matched=0 not_run=0
        local live=0 unrepeated=0
        rm -f "$dir/recording"
        for ((seed = first; seed <= last; seed++)); do
            local nv=$dir/runs/$seed.nvidia ours=$dir/runs/$seed.ours
            local rn ro hn ho limit=0 line keep=0
            if [[ -f $dir/runs/$seed.notrun ]]; then
                not_run=$((not_run + 1))
                seeds_failed=$((seeds_failed + 1))
                continue
            fi
            # NVIDIA's output as recorded is ours: nothing to compare (a crash of both was
            # recorded as NVIDIA's).
            if [[ -f $dir/runs/$seed.matched ]]; then
                matched=$((matched + 1))
                nv=$ours
            fi
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
            # A seed fails where ours diverged or crashed.
            if [[ -n $ho ]] || { [[ -n $line ]] && ((limit == 0 || line < limit)); }; then
                seeds_failed=$((seeds_failed + 1))
            else
                seeds_passed=$((seeds_passed + 1))
            fi
            if grep -q '(model ' "$nv.out" 2>/dev/null; then
                model_seeds=$((model_seeds + 1))
                [[ -z $model_first ]] && model_first="seed $seed: $(grep -m 1 '(model ' "$nv.out" | cut -c1-400)"
            fi
            # NVIDIA's result, for the recording: as recorded, or of this run.
            local got_rec was_rec
            was_rec=$(awk -v s="$seed" '$1 == s { print $2, $3; exit }' "$dir/recorded")
            if [[ -f $dir/runs/$seed.matched ]]; then
                got_rec=$was_rec
            else
                got_rec="$rn $(sha256sum <"$nv.out" | cut -c1-64)"
                live=$((live + 1))
                if [[ -n $was_rec && $was_rec != "$got_rec" ]]; then
                    unrepeated=$((unrepeated + 1))
                    echo "seed $seed [$abi]: NVIDIA's runtime printed other than it did when recorded (it does not repeat itself there)"
                fi
            fi
            echo "$seed $got_rec" >>"$dir/recording"
        done
        # What NVIDIA's runtime printed, where it ran (to commit as ctest/expected/difftest/).
        if ((live && !twice)) && [[ -z $ours_driver ]]; then
            mkdir -p "$out_dir/expected/difftest"
            { echo "# calls=$calls faults=$faults"; cat "$dir/recording"; } >"$out_dir/expected/difftest/$abi.txt"
        fi
        if ((${#fns[@]})); then
            echo "diverging calls [$abi]: $(printf '%s\n' "${fns[@]}" | sort | uniq -c | sort -rn | awk '{ printf "%s%s x%s", sep, $2, $1; sep = ", " }')"
        fi
        if ((model_seeds)); then
            echo "note [$abi]: in $model_seeds seeds NVIDIA's runtime left an object unlike the tester's model (its semantics or the model's); first: $model_first"
        fi
        if ((${#kept[@]})); then
            local files=() s f
            for s in "${kept[@]}"; do
                for f in "$abi/runs/$s.nvidia.out" "$abi/runs/$s.nvidia.err" "$abi/runs/$s.ours.out" "$abi/runs/$s.ours.err"; do
                    [[ -f $work/gpu/$f ]] && files+=("$f")
                done
            done
            tar -C "$work/gpu" -czf "$out_dir/difftest-runs-$abi.tgz" "${files[@]}" 2>/dev/null
        fi
        ((not_run)) && echo "difftest [$abi]: $not_run seeds not run: the deadline had passed"
        ((unrepeated)) && echo "difftest [$abi]: in $unrepeated seeds NVIDIA's runtime printed other than it did when recorded"
        ((matched)) && echo "difftest [$abi]: $matched seeds printed what NVIDIA's runtime printed when recorded (not run again)"
        echo "difftest [$abi]: $((last - first + 1)) seeds x $calls calls: $diverged diverged, $nv_crashed crashed NVIDIA's runtime, $ours_crashed crashed ours"
        ((diverged || ours_crashed || not_run)) && failed=1
    done
    echo "($(find "$work/gpu" -name '*.rc' | wc -l) runs in ${secs}s, $jobs at a time)"
    # Seeds of both ABIs: those where ours diverged, crashed or did not run failed.
    echo "$seeds_passed passed, $seeds_failed failed, 0 skipped"
    return "$failed"
}

###########################################################################################

rm -rf "$out_dir"/difftest-runs-*.tgz "$out_dir/expected/difftest"
if [[ $mode == standin ]]; then
    standin 2>&1 | tee "$out_dir/difftest.log"
else
    gpu 2>&1 | tee "$out_dir/difftest.log"
fi
exit "${PIPESTATUS[0]}"
