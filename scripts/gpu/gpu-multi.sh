#!/usr/bin/env bash
# The one command for a machine with several GPUs (prepared here by scripts/gpu/gpu-bundle.sh;
# .gpu carried):
#   bash scripts/gpu/gpu-multi.sh [--abi 13|12|both] [--only a,b] [--no-torch] [--runs N]
# 1. The tests of several devices (ctest/ marker gpu2, scripts/test/ctest.sh --gpu --multi) under
#    NVIDIA's runtime and ours (LD_LIBRARY_PATH and LD_PRELOAD), both ABIs at once (each in
#    its own work folder), every pair of the machine's devices; NVIDIA's outputs are compared
#    with those recorded for this GPU count (ctest/expected/<abi>/multi<N>/), where there are
#    some: a difference is listed (NOTE), not counted (the machine may differ).
# 2. PyTorch on every GPU, under NVIDIA's runtime and ours (scripts/gpu/torch2-check.sh: DDP by
#    spawn and torchrun, collectives, tensors between devices, IPC, graphs; the training
#    timed, --runs N alternated runs each, default 3).
# NVLink multicast stays off in every process: NCCL_NVLS_ENABLE=0,
# TORCH_SYMM_MEM_DISABLE_MULTICAST=1, NVSHMEM_DISABLE_NVLS=1 (exported here, inherited).
# Time: the C tests at most 300 s, PyTorch what is left of 570 s (TORCH2_DEADLINE; each of
# its processes at most 150 s), so that everything ends within the 10 minutes a command may
# take.
# Leaves under $OUT (target/gpu-multi) three files:
#   gpu-multi.log            everything printed
#   multi<N>-expected.tgz    NVIDIA's outputs, expected/<abi>/multi<N>/<name>.out, the
#                            machine's description (machine.txt) and the C test logs: put them
#                            into ctest/expected/ with scripts/gpu/record-multi.sh
#   multi<N>-runs.tgz        every build log and run output (ours and NVIDIA's), PyTorch's
# Ends with `N passed, N failed, N skipped` (the C tests of both ABIs and PyTorch's parts).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

abis=(13 12) torch=1 runs=3 ctest_args=()
while (($#)); do
    case $1 in
        --abi)
            abis_of "${2:-}" || { header_usage; }
            shift ;;
        --only) ctest_args+=(--only "${2:-}"); shift ;;
        --no-torch) torch=0 ;;
        --runs) runs=${2:-3}; shift ;;
        *) header_usage ;;
    esac
    shift
done
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1

out=$(out_dir gpu-multi) || die "cannot make the output folder"
# Builds and runs out of $OUT, which gets only the three files (written as soon as each is
# complete, so that a run stopped at the machine's time limit still brings back what it did).
work=$root/target/gpu-multi-work
rm -rf "$work"
mkdir -p "$work"
gpus=$(gpu_count)
# Ours (CUDART_RS_DIST, NVIDIA12_LIB and the rest of scripts/test/ctest.sh's environment are
# honoured, for trying the script elsewhere).
dist=${CUDART_RS_DIST:-$root/.gpu/dist}

# NVIDIA's outputs (expected/<abi>/multi<N>/), the machine's description and the C test logs.
pack_expected() {
    (
        cd "$work" || exit 1
        rm -rf pack
        mkdir -p pack/expected
        for abi in "${abis[@]}"; do
            [[ -d ctest$abi/expected/$abi ]] && cp -r "ctest$abi/expected/$abi" pack/expected/
            cp "ctest$abi.log" "pack/ctest$abi.log" 2>/dev/null
        done
        cp machine.txt pack/
        tar -C pack -czf "$out/multi$gpus-expected.tgz" .
    )
}

# Every run's output and log (not the programs).
pack_runs() {
    (
        cd "$work" || exit 1
        local runs=(machine.txt) f
        for f in ctest*.log ctest*/gpu-runs.tgz ctest*/ctest-gpu.log torch2 torch2.log; do [[ -e $f ]] && runs+=("$f"); done
        tar -czf "$out/multi$gpus-runs.tgz" "${runs[@]}"
    )
}

main() {
    local t0=$SECONDS
    echo "== GPUs: $gpus"
    nvidia-smi -L 2>&1 || echo "nvidia-smi -L failed"
    {
        nvidia-smi -L 2>&1
        echo "driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
        [[ -n ${CUDA_VISIBLE_DEVICES:-} ]] && echo "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES: $gpus of them used"
        echo "nvcc $("${NVCC:-/usr/local/cuda/bin/nvcc}" --version 2>/dev/null | grep -o 'release [0-9.]*')"
        echo "PyTorch $(python3 -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda)' 2>/dev/null | tail -n 1)"
        echo "host $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), $(nproc) CPUs"
        echo "topology (nvidia-smi topo -m):"
        nvidia-smi topo -m 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
    } >"$work/machine.txt"
    sed -n '/^driver/,$p' "$work/machine.txt"
    if ((gpus < 2)); then
        echo "gpu-multi: this machine has $gpus GPU(s); the tests of several devices skip themselves and PyTorch's part is skipped"
    fi
    if [[ ! -f $dist/lib/libcudart.so.13 ]]; then
        echo "no .gpu/dist: run scripts/gpu/gpu-bundle.sh first and carry .gpu"
        echo "0 passed, 1 failed, 0 skipped"
        return 1
    fi
    echo "bundle: $(tr '\n' ' ' <.gpu/BUNDLE-INFO 2>/dev/null)"
    echo "build: $(tr '\n' ' ' <"$dist/BUILD-INFO" 2>/dev/null)"

    echo "== tests of several devices (${abis[*]}: at once)"
    local abi pids=()
    for abi in "${abis[@]}"; do
        CUDART_RS_DIST=$dist \
        NVIDIA12_LIB=${NVIDIA12_LIB:-$root/.gpu/nvidia12} \
        CU12_INCLUDE=${CU12_INCLUDE:-$root/.gpu/cu12/include} \
        NVIDIA13_ALSO_LIB=none \
        CTEST_WORK=$work/gpu$abi \
        CTEST_GPUS=$gpus \
        OUT=$work/ctest$abi \
            timeout -k 10 300 bash scripts/test/ctest.sh --gpu --multi --abi "$abi" --timeout 120 "${ctest_args[@]}" >"$work/ctest$abi.log" 2>&1 &
        pids+=($!)
    done
    local rc=0 p
    for p in "${pids[@]}"; do wait "$p" || rc=1; done
    for abi in "${abis[@]}"; do
        echo "-- $abi ABI"
        cat "$work/ctest$abi.log"
    done
    # NVIDIA's outputs against those recorded for this GPU count.
    local f rec notes=0
    for f in "$work"/ctest*/expected/*/multi*/*.out; do
        [[ -f $f ]] || continue
        rec=ctest/${f#"$work"/ctest*/}
        if [[ -f $rec ]] && ! cmp -s "$rec" "$f"; then
            notes=$((notes + 1))
            echo "NOTE NVIDIA's output is not the one recorded in $rec:"
            diff "$rec" "$f" | head -n 20 | sed 's/^/      /'
        fi
    done
    echo "NVIDIA's outputs unlike those recorded: $notes"
    echo "== tests of several devices: $((SECONDS - t0)) s"
    pack_expected

    if ((torch)); then
        echo "== PyTorch on every GPU"
        local left=$((570 - (SECONDS - t0)))
        echo "(at most $left s)"
        TORCH2_DEADLINE=$(($(date +%s) + left)) CUDART_RS_LIB=${CUDART_RS_LIB:-$dist/lib/libcudart.so.13} OUT=$work/torch2 \
            bash scripts/gpu/torch2-check.sh --runs "$runs" | tee "$work/torch2.log"
        ((PIPESTATUS[0] == 0)) || rc=1
    fi

    local passed=0 failed=0 skipped=0 l
    for abi in "${abis[@]}"; do
        add_summary "$(tail -n 1 "$work/ctest$abi.log")" || { failed=$((failed + 1)); echo "no summary line from the $abi ABI's C tests"; }
    done
    if ((torch)); then
        add_summary "$(tail -n 1 "$work/torch2.log")" || { failed=$((failed + 1)); echo "no summary line from torch2-check"; }
    fi
    echo "gpu-multi: $gpus GPUs ($(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c | sed 's/^ *//' | tr '\n' ' ' | sed 's/ $//')), tests of several devices (${abis[*]})$( ((torch)) && echo ", PyTorch"), $((SECONDS - t0)) s"
    echo "$passed passed, $failed failed, $skipped skipped"
    ((failed == 0)) || rc=1
    return "$rc"
}

main 2>&1 | tee "$out/gpu-multi.log"
rc=${PIPESTATUS[0]}
pack_runs
rm -rf "$work"
exit "$rc"
