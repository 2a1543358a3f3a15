#!/usr/bin/env bash
# Without a CUDA driver, NVIDIA's runtime is its own oracle on this machine: every program in
# ctest/nodriver/ is built against NVIDIA's header of each ABI and run under NVIDIA's runtime
# (from the wheels) and under ours (dist/lib, its driver pointed at a file that does not
# exist); the outputs must be identical. Skipped where a driver is installed.
# Usage: scripts/test/nodriver-check.sh   (after scripts/build.sh and scripts/dev/fetch-nvidia.sh)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
    echo "skipped: a CUDA driver is installed here"
    exit 0
fi
nv=.cache/nvidia
work=target/nodriver
mkdir -p "$work"
# The 13 ABI's reference is CUDA 13.5.37 (its headers first, then 13.0's for crt/).
declare -A inc=([13]="-I $nv/cu135/nvidia/cu13/include -I $nv/cu13/nvidia/cu13/include" [12]="-I $nv/cu12/nvidia/cuda_runtime/include -I $nv/cu12/nvidia/cuda_nvcc/include")
declare -A lib=([13]="$nv/cu135/nvidia/cu13/lib" [12]="$nv/cu12/nvidia/cuda_runtime/lib")
passed=0 failed=0
for src in ctest/nodriver/*.c; do
    name=$(basename "$src" .c)
    for abi in 13 12; do
        bin=$work/$name-$abi
        # shellcheck disable=SC2086
        if ! gcc -O1 -Wall -Werror ${inc[$abi]} "$src" -o "$bin" -L "${lib[$abi]}" -l:libcudart.so.$abi; then
            echo "FAIL $name [$abi]: does not build"
            failed=$((failed + 1))
            continue
        fi
        LD_LIBRARY_PATH=${lib[$abi]} timeout 30 "$bin" >"$bin.nvidia.out" 2>&1
        LD_LIBRARY_PATH=dist/lib CUDART_RS_DRIVER=/nonexistent/libcuda.so.1 timeout 30 "$bin" >"$bin.ours.out" 2>&1
        if diff -u --label NVIDIA --label cudart-rs "$bin.nvidia.out" "$bin.ours.out"; then
            echo "PASS $name [$abi]"
            passed=$((passed + 1))
        else
            echo "FAIL $name [$abi]: output differs from NVIDIA's runtime without a driver"
            failed=$((failed + 1))
        fi
    done
done
echo "$passed passed, $failed failed, 0 skipped"
((failed == 0))
