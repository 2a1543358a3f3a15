#!/usr/bin/env bash
# PyTorch on two GPUs (DistributedDataParallel over NCCL, collectives, peer copies, CUDA IPC,
# graph capture on each rank), under NVIDIA's runtime and under ours, on a machine with at
# least two GPUs:
#   bash scripts/torch2-check.sh [--runs N] [--steps S]
# Runs scripts/torch/ddp.py (spawn, torchrun, peer, ipc) under NVIDIA's runtime and under ours
# (LD_PRELOAD of .gpu/dist/lib/libcudart.so.13, or $CUDART_RS_LIB; the processes torch starts
# inherit it), compares what each printed, then times the spawned training N times each
# runtime, alternated (default 3), and prints the medians and ours/NVIDIA.
# NVLink multicast stays off in every process: NCCL_NVLS_ENABLE=0,
# TORCH_SYMM_MEM_DISABLE_MULTICAST=1, NVSHMEM_DISABLE_NVLS=1.
# Leaves torch2-nvidia.out, torch2-ours.out (+ .err) and torch2-check.log under $OUT (or
# target/torch2-check). Ends with `torch2-check: identical`, `torch2-check: DIFFERENT`, or
# `torch2-check: skipped: ...` when fewer than two GPUs are there (never a pass).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 1
runs=3 steps=50
while (($#)); do
    case $1 in
        --runs) runs=$2; shift ;;
        --steps) steps=$2; shift ;;
        *) echo "usage: $0 [--runs N] [--steps S]" >&2; exit 2 ;;
    esac
    shift
done
out=${OUT:-$root/target/torch2-check}
mkdir -p "$out"
ours=${CUDART_RS_LIB:-$root/.gpu/dist/lib/libcudart.so.13}
[[ -f $ours ]] || { echo "torch2-check: no $ours (scripts/gpu-bundle.sh, carry .gpu)"; exit 1; }
export PYTHONUNBUFFERED=1 CUBLAS_WORKSPACE_CONFIG=:4096:8
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
d=scripts/torch/ddp.py

gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if ((gpus < 2)); then
    echo "torch2-check: skipped: needs two GPUs, this machine has ${gpus:-0}" | tee "$out/torch2-check.log"
    exit 0
fi

# run LABEL ENV... : every section into $out/torch2-LABEL.out / .err
run() {
    local label=$1 o=$out/torch2-$1.out e=$out/torch2-$1.err
    shift
    : >"$o"
    : >"$e"
    for sec in spawn peer ipc; do
        echo "== $sec" >>"$o"
        env "$@" timeout 300 python3 "$d" "$sec" --steps "$steps" >>"$o" 2>>"$e"
        echo "exit status $?" >>"$o"
    done
    echo "== torchrun" >>"$o"
    env "$@" timeout 300 torchrun --nproc-per-node 2 --master-port 29631 "$d" train --steps "$steps" >>"$o" 2>>"$e"
    echo "exit status $?" >>"$o"
}

median() { sort -n | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }

{
    echo "== PyTorch: $(python3 -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda)' 2>&1 | tail -n 1)"
    nvidia-smi -L 2>/dev/null | sed 's/^/== /'
    echo "== ours: $ours"
    run nvidia
    run ours LD_PRELOAD="$ours"
    same=0
    if cmp -s "$out/torch2-nvidia.out" "$out/torch2-ours.out"; then
        same=1
        echo "== outputs identical ($(wc -l <"$out/torch2-nvidia.out") lines)"
    else
        echo "== outputs differ:"
        diff "$out/torch2-nvidia.out" "$out/torch2-ours.out" | head -n 60
    fi
    # The spawned training's wall time (both optimisers), alternated.
    : >"$out/t-nvidia"
    : >"$out/t-ours"
    for ((i = 1; i <= runs; i++)); do
        for label in nvidia ours; do
            pre=()
            [[ $label == ours ]] && pre=(LD_PRELOAD="$ours")
            t0=$(date +%s%N)
            env "${pre[@]}" python3 "$d" spawn --steps "$steps" >/dev/null 2>&1
            echo $(( ($(date +%s%N) - t0) / 1000000 )) | awk '{printf "%.3f\n", $1 / 1000}' >>"$out/t-$label"
        done
    done
    mn=$(median <"$out/t-nvidia")
    mo=$(median <"$out/t-ours")
    echo "== spawned training, whole process, $runs runs each: NVIDIA $(tr '\n' ' ' <"$out/t-nvidia")(median $mn s), ours $(tr '\n' ' ' <"$out/t-ours")(median $mo s), ours/NVIDIA $(awk -v o="$mo" -v n="$mn" 'BEGIN {printf "%.4f", o / n}')"
    if ((same)); then echo "torch2-check: identical"; else echo "torch2-check: DIFFERENT"; fi
} 2>&1 | tee "$out/torch2-check.log"
grep -q '^torch2-check: identical' "$out/torch2-check.log"
