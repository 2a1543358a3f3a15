#!/usr/bin/env bash
# NVIDIA's tools on our runtime, compared with NVIDIA's runtime, on the GPU machine (run by
# scripts/gpu/gpu-check.sh; .gpu carried):
#   bash scripts/gpu/tools-check.sh
# 1. PyTorch's profiler (CUPTI, through the runtime API callbacks): the runtime functions it
#    lists, with their counts, and the number of device rows, for a few matmuls and copies,
#    under torch's own runtime and with LD_PRELOAD of ours.
# 2. compute-sanitizer on a program with API errors and an out-of-bounds write
#    (scripts/gpu/tools/api_errors.cu), under both runtimes (addresses masked).
# 3. Nsight Systems (when nsys is installed): the runtime functions and their call counts in
#    `nsys stats -r cuda_api_sum` of examples/timeline.cu, under both runtimes.
# (CUPTI's callbacks and activity records are compared by ctest/cu_cupti.cu.)
# Each: PASS when the outputs are the same, FAIL with the diff, SKIP with the reason. Outputs
# under $OUT (or target/tools-check). Ends with `N passed, N failed, N skipped`.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"
out=$(out_dir tools-check) || die "cannot make the output folder"
ours=${CUDART_RS_LIB:-$root/.gpu/dist/lib/libcudart.so.13}
nvrt=/usr/local/cuda/lib64
[[ -e $nvrt/libcudart.so.13 ]] || nvrt=$root/.gpu/nvidia13
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
w=$(mktemp -d /tmp/tools-check.XXXXXX)
trap 'rm -rf "$w"' EXIT
passed=0 failed=0 skipped=0
compare() {  # NAME A B
    if diff -u "$2" "$3" >"$out/$1.diff"; then
        echo "PASS $1: the same under NVIDIA's runtime and ours ($(wc -l <"$2") lines)"; passed=$((passed + 1))
    else
        echo "FAIL $1:"; head -n 60 "$out/$1.diff"; failed=$((failed + 1))
    fi
}
[[ -f $ours ]] || { echo "tools-check: no $ours (scripts/gpu/gpu-bundle.sh, carry .gpu)"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
echo "NVIDIA's runtime: $(readlink -f "$nvrt/libcudart.so.13"); ours: $ours"

if python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
    timeout 120 python3 scripts/gpu/tools/torch_profile.py >"$out/profile-nvidia.out" 2>"$out/profile-nvidia.err"
    LD_PRELOAD=$ours timeout 120 python3 scripts/gpu/tools/torch_profile.py >"$out/profile-ours.out" 2>"$out/profile-ours.err"
    grep -v '^runtime:' "$out/profile-nvidia.out" >"$w/a"; grep -v '^runtime:' "$out/profile-ours.out" >"$w/b"
    if [[ ! -s $w/a ]]; then
        echo "FAIL torch.profiler: no rows under NVIDIA's runtime"; tail -n 5 "$out/profile-nvidia.err"; failed=$((failed + 1))
    elif ! grep -q "^runtime:.*'$(readlink -f "$ours")'" "$out/profile-ours.out"; then
        echo "FAIL torch.profiler: with LD_PRELOAD, $ours is not mapped in the process"; head -n 1 "$out/profile-ours.out"; failed=$((failed + 1))
    else
        cat "$out/profile-ours.out"
        compare torch.profiler "$w/a" "$w/b"
    fi
else
    echo "SKIP torch.profiler: skipped: no PyTorch with CUDA here"; skipped=$((skipped + 1))
fi

cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [[ ! -x $cs ]]; then
    echo "SKIP compute-sanitizer: skipped: not installed"; skipped=$((skipped + 1))
elif ! "$nvcc" -cudart shared -arch=sm_90 -Xlinker --no-as-needed scripts/gpu/tools/api_errors.cu -o "$w/api_errors" >"$w/cc.log" 2>&1; then
    echo "FAIL compute-sanitizer: the program does not build"; tail -n 5 "$w/cc.log"; failed=$((failed + 1))
else
    for rt in nvidia ours; do
        [[ $rt == nvidia ]] && lib=$nvrt || lib=$(dirname "$ours")
        LD_LIBRARY_PATH=$lib timeout 60 "$cs" --show-backtrace no "$w/api_errors" 2>&1 |
            sed -E 's/=+ //; s/0x[0-9a-f]+/ADDR/g; s/\(pid [0-9]+\)//' | grep -v '^$' >"$out/sanitizer-$rt.out"
    done
    cat "$out/sanitizer-ours.out"
    if grep -q 'Invalid __global__ write' "$out/sanitizer-nvidia.out"; then
        compare compute-sanitizer "$out/sanitizer-nvidia.out" "$out/sanitizer-ours.out"
    else
        echo "FAIL compute-sanitizer: no report of the bad write under NVIDIA's runtime"; failed=$((failed + 1))
    fi
fi
nsys=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda/nsight-systems*/bin/nsys 2>/dev/null | head -n 1)
if [[ -z $nsys || ! -x $nsys ]]; then
    echo "SKIP nsys: skipped: Nsight Systems is not installed"; skipped=$((skipped + 1))
elif ! "$nvcc" -cudart shared -arch=sm_90 -Xlinker --no-as-needed examples/timeline.cu -o "$w/timeline" >"$w/tl.log" 2>&1; then
    echo "FAIL nsys: examples/timeline.cu does not build"; tail -n 5 "$w/tl.log"; failed=$((failed + 1))
else
    for rt in nvidia ours; do
        [[ $rt == nvidia ]] && lib=$nvrt || lib=$(dirname "$ours")
        LD_LIBRARY_PATH=$lib timeout 120 "$nsys" profile -t cuda -o "$w/nsys-$rt" --force-overwrite true "$w/timeline" >"$out/nsys-$rt.log" 2>&1
        # Name and call count of each runtime function (columns: ..., Num Calls (3), ..., Name (last)).
        timeout 120 "$nsys" stats -q -r cuda_api_sum -f csv "$w/nsys-$rt.nsys-rep" 2>>"$out/nsys-$rt.log" |
            awk -F, 'NR > 1 && NF > 3 {gsub(/"/, ""); print $NF, $3}' | sort >"$out/nsys-$rt.out"
    done
    if [[ ! -s $out/nsys-nvidia.out ]]; then
        echo "FAIL nsys: no cuda_api_sum rows under NVIDIA's runtime"; tail -n 5 "$out/nsys-nvidia.log"; failed=$((failed + 1))
    else
        cat "$out/nsys-ours.out"
        compare nsys "$out/nsys-nvidia.out" "$out/nsys-ours.out"
    fi
fi
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
