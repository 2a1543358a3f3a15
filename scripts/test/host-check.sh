#!/usr/bin/env bash
# The host programs (ctest/host/, README.md there): every program built with g++ and clang++
# (a .c file: gcc and clang) against our headers alone (include/) and against NVIDIA's, per
# ABI, and every build must print the same.
#
#   scripts/test/host-check.sh --standin [--abi 13|12|both]
#       Here: builds (target/host-check/) and runs each build on the stand-in driver with our
#       runtime (dist/, scripts/build.sh first).
#   scripts/test/host-check.sh --build DIR
#       Builds every variant into DIR/<abi>/<program>/<compiler>-<headers> (scripts/gpu/gpu-bundle.sh:
#       .gpu/host), for a machine without the compilers or NVIDIA's headers.
#   scripts/test/host-check.sh --gpu [--abi 13|12|both]
#       On the GPU machine, .gpu carried: runs the builds of .gpu/host under NVIDIA's runtime
#       (NVIDIA13_LIB, .gpu/nvidia135, for 13; NVIDIA12_LIB, .gpu/nvidia12, for 12) and ours
#       (.gpu/dist/lib; CUDART_RS_DRYRUN, a driver for every run: a dry run); every run of a
#       program must print what NVIDIA's runtime prints for the build against NVIDIA's headers
#       with g++ (its output goes to $OUT/host-expected/<abi>/<program>.out).
#
# The builds against ours link to dist/lib/libcudart.so.N, those against NVIDIA's to NVIDIA's
# libcudart.so.N (both NEEDED libcudart.so.N, no RUNPATH: LD_LIBRARY_PATH picks the runtime).
# A compiler that is missing is said and its builds skipped (counted as skipped, never passed).
# Last line: `N passed, N failed, N skipped` (one per program and ABI); exit status non-zero on
# a failure.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

mode="" abis=(13 12) dir=""
while (($#)); do
    case $1 in
        --standin) mode=standin ;;
        --gpu) mode=gpu ;;
        --build) mode=build; dir=${2:?}; shift ;;
        --abi)
            abis_of "${2:-}" || mode=bad
            shift ;;
        *) mode=bad ;;
    esac
    shift
done
[[ -n $mode && $mode != bad ]] || header_usage

passed=0 failed=0 skipped=0
nv=${CUDART_RS_NVIDIA:-$root/.cache/nvidia}
programs=(ctest/host/*.cpp ctest/host/*.c)

# The compilers: C++ and C, GNU's and LLVM's (clang, clang++ or a versioned one).
find_clang() {
    local c
    for c in "$1" "$1-19" "$1-18" "$1-17" "$1-16" "$1-15" "$1-14"; do
        command -v "$c" >/dev/null && { echo "$c"; return; }
    done
}
clangxx=$(find_clang clang++) clangc=$(find_clang clang)

# build ABI SRC OUTDIR: every build of one program; prints a line per build that fails.
build() {
    local abi=$1 src=$2 out=$3 cc ccs hdr flags lib std ok=0
    mkdir -p "$out"
    if [[ $src == *.cpp ]]; then std=-std=c++17 ccs=("g++" "${clangxx:-}"); else std=-std=c11 ccs=("gcc" "${clangc:-}"); fi
    for cc in "${ccs[@]}"; do
        [[ -n $cc ]] || continue
        for hdr in ours nvidia; do
            if [[ $hdr == ours ]]; then
                flags=(-Wall -Werror -Iinclude)
                [[ $abi == 12 ]] && flags+=(-DCUDART_RS_ABI12)
                lib=$root/dist/lib/libcudart.so.$abi
            elif [[ $abi == 13 ]]; then
                flags=(-Wall -I"$nv/cu135/nvidia/cu13/include" -I"$nv/cu13/nvidia/cu13/include")
                lib=$nv/cu135/nvidia/cu13/lib/libcudart.so.13
            else
                flags=(-Wall -I"$nv/cu12/nvidia/cuda_runtime/include" -I"$nv/cu12/nvidia/cuda_nvcc/include")
                lib=$nv/cu12/nvidia/cuda_runtime/lib/libcudart.so.12
            fi
            local name=${cc%%-[0-9]*}-$hdr
            if "$cc" "$std" -O1 "${flags[@]}" -Ictest/host "$src" -o "$out/$name" \
                -Wl,--no-as-needed "$lib" >"$out/$name.log" 2>&1; then
                ok=$((ok + 1))
            else
                echo "    build failed: $cc against $hdr headers:"
                head -n 15 "$out/$name.log" | sed 's/^/      | /'
            fi
        done
    done
    return 0
}

# judge LABEL OUTPUT...: the outputs (files) must be equal, none with a FAIL line.
judge() {
    local label=$1 first=$2 f bad=""
    shift
    for f in "$@"; do
        if grep -q '^[^:]*: FAIL$' "$f"; then bad+="    $(basename "$f" .out): a check failed: $(grep -m 1 ': FAIL$' "$f")"$'\n'; fi
        if ! cmp -s "$first" "$f"; then
            bad+="    $(basename "$f" .out) differs from $(basename "$first" .out):"$'\n'
            bad+=$(diff "$first" "$f" | head -n 12 | sed 's/^/      /')$'\n'
        fi
    done
    if [[ -z $bad ]]; then
        passed=$((passed + 1)); echo "PASS $label: $# runs print the same ($(wc -l <"$first") lines)"
    else
        failed=$((failed + 1)); echo "FAIL $label"; printf '%s' "$bad"
    fi
}

tools_line() {
    echo "compilers: g++ $(g++ -dumpfullversion), gcc $(gcc -dumpfullversion), ${clangxx:-no clang++} ${clangc:+($($clangc -dumpversion))}"
    [[ -n $clangxx && -n $clangc ]] || echo "(no clang/clang++: their builds are skipped: apt-get install clang)"
}

case $mode in
build)
    mkdir -p "$dir"
    tools_line
    for abi in "${abis[@]}"; do
        for src in "${programs[@]}"; do
            n=$(basename "$src"); n=${n%.*}
            build "$abi" "$src" "$dir/$abi/$n"
        done
    done
    find "$dir" -name '*.log' -delete
    echo "host-check: $(find "$dir" -type f | wc -l) builds in $dir"
    ;;
standin)
    tools_line
    [[ -f dist/lib/stand-in/libcuda.so.1 ]] || { echo "no dist/ (scripts/build.sh)"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
    work=target/host-check
    rm -rf "$work"
    for abi in "${abis[@]}"; do
        for src in "${programs[@]}"; do
            n=$(basename "$src"); n=${n%.*}
            out=$work/$abi/$n
            build "$abi" "$src" "$out"
            runs=()
            for bin in "$out"/*; do
                [[ -x $bin && $bin != *.log && $bin != *.out ]] || continue
                { env -u LD_PRELOAD LD_LIBRARY_PATH="$root/dist/lib" CUDART_RS_DRIVER="$root/dist/lib/stand-in/libcuda.so.1" \
                    timeout 60 "$bin" >"$bin.out" 2>"$bin.err" </dev/null; } 2>/dev/null
                rc=$?
                ((rc == 0)) || echo "exit status $rc" >>"$bin.out"
                runs+=("$bin.out")
            done
            want=2
            [[ $src == *.cpp && -n $clangxx || $src == *.c && -n $clangc ]] && want=4
            if ((${#runs[@]} < want)); then
                failed=$((failed + 1)); echo "FAIL $n [$abi]: ${#runs[@]} of $want builds"
                continue
            fi
            # The g++ (gcc) build against NVIDIA's headers first: the reference.
            ref=$(ls "$out"/g*-nvidia.out)
            judge "$n [$abi] on the stand-in" "$ref" $(ls "$out"/*.out | grep -v "^$ref\$")
            ((want == 2)) && { skipped=$((skipped + 1)); echo "SKIP $n [$abi] clang builds: skipped: no clang"; }
        done
    done
    echo "$passed passed, $failed failed, $skipped skipped"
    ((failed == 0))
    ;;
gpu)
    bins=.gpu/host
    [[ -d $bins ]] || { echo "no $bins (scripts/gpu/gpu-bundle.sh here first)"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
    if ! nvidia-smi -L >/dev/null 2>&1 && [[ -z ${CUDART_RS_DRYRUN:-} ]]; then
        echo "skipped: no GPU"; echo "0 passed, 0 failed, $((${#programs[@]} * ${#abis[@]})) skipped"; exit 0
    fi
    out=${OUT:-$root/target/host-check-gpu}
    mkdir -p "$out"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    for abi in "${abis[@]}"; do
        if [[ $abi == 13 ]]; then nvlib=${NVIDIA13_LIB:-$root/.gpu/nvidia135}; else nvlib=${NVIDIA12_LIB:-$root/.gpu/nvidia12}; fi
        echo "[$abi] NVIDIA's runtime: $(readlink -f "$nvlib/libcudart.so.$abi"), ours: $root/.gpu/dist/lib"
        for src in "${programs[@]}"; do
            n=$(basename "$src"); n=${n%.*}
            runs=()
            for bin in "$bins/$abi/$n"/*; do
                [[ -f $bin ]] || continue
                chmod +x "$bin"
                b=$(basename "$bin")
                for rt in nvidia ours; do
                    if [[ $rt == nvidia ]]; then lp=$nvlib; else lp=$root/.gpu/dist/lib; fi
                    { env -u LD_PRELOAD -u CUDART_RS_DRIVER ${CUDART_RS_DRYRUN:+CUDART_RS_DRIVER=$CUDART_RS_DRYRUN} LD_LIBRARY_PATH="$lp" timeout 120 "$bin" \
                        >"$work/$abi-$n-$b-$rt.out" 2>"$work/$abi-$n-$b-$rt.err" </dev/null; } 2>/dev/null
                    rc=$?
                    ((rc == 0)) || echo "exit status $rc" >>"$work/$abi-$n-$b-$rt.out"
                    runs+=("$work/$abi-$n-$b-$rt.out")
                done
            done
            ref=$work/$abi-$n-g++-nvidia-nvidia.out
            [[ -f $ref ]] || ref=$work/$abi-$n-gcc-nvidia-nvidia.out
            if [[ ! -f $ref ]]; then
                failed=$((failed + 1)); echo "FAIL $n [$abi]: no build against NVIDIA's headers in $bins"; continue
            fi
            mkdir -p "$out/host-expected/$abi"
            cp "$ref" "$out/host-expected/$abi/$n.out"
            judge "$n [$abi] on the GPU, NVIDIA's runtime and ours" "$ref" $(printf '%s\n' "${runs[@]}" | grep -v "^$ref\$")
        done
    done
    echo "$passed passed, $failed failed, $skipped skipped"
    ((failed == 0))
    ;;
esac
