#!/usr/bin/env bash
# PyTorch on our runtime, compared with NVIDIA's, on the GPU machine (python3 there has
# PyTorch built for CUDA 13, which loads libcudart.so.13 dynamically):
#   bash scripts/gpu/torch-check.sh [--runs N] [--only "SECTION ..."]
# Runs scripts/gpu/torch/workload.py under NVIDIA's runtime and under ours (LD_PRELOAD of
# .gpu/dist/lib/libcudart.so.13, or $CUDART_RS_LIB), once with the default caching allocator
# and once with PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync, and compares the outputs line
# by line. Then times the training section and the whole workload, N times each runtime
# alternated (default 3), and prints the medians and ours/NVIDIA.
# Leaves torch-nvidia.out, torch-ours.out (+ .err) and torch-check.log under $OUT (or
# target/torch-check). Ends with `torch-check: identical` or `torch-check: DIFFERENT`, and
# exits non-zero when the outputs differ.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"
runs=3 only=
while (($#)); do
    case $1 in
        --runs) runs=$2; shift ;;
        --only) only=$2; shift ;;
        *) header_usage ;;
    esac
    shift
done
out=$(out_dir torch-check) || die "cannot make the output folder"
ours=${CUDART_RS_LIB:-$root/.gpu/dist/lib/libcudart.so.13}
[[ -f $ours ]] || { echo "torch-check: no $ours (scripts/gpu/gpu-bundle.sh, carry .gpu)"; exit 1; }
export PYTHONUNBUFFERED=1 CUBLAS_WORKSPACE_CONFIG=:4096:8
# Never NVLink multicast (see the GPU machines' rules); harmless on one GPU.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
w=scripts/gpu/torch/workload.py

# run LABEL ENV... : the workload, twice (caching allocator, then cudaMallocAsync), into
# $out/torch-LABEL.out / .err
run() {
    local label=$1
    shift
    # shellcheck disable=SC2086
    env "$@" python3 "$w" $only >"$out/torch-$label.out" 2>"$out/torch-$label.err"
    echo "exit status $?" >>"$out/torch-$label.out"
    env "$@" PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync python3 "$w" allocator >>"$out/torch-$label.out" 2>>"$out/torch-$label.err"
    echo "exit status $?" >>"$out/torch-$label.out"
}

{
    echo "== PyTorch: $(python3 -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda)' 2>&1 | tail -n 1)"
    echo "== GPU: $(nvidia-smi -L 2>/dev/null | head -n 1), driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
    echo "== ours: $ours"
    run nvidia
    run ours LD_PRELOAD="$ours"
    # Which runtime each process really had.
    for label in nvidia ours; do
        pre=()
        [[ $label == ours ]] && pre=(LD_PRELOAD="$ours")
        env "${pre[@]}" python3 -c 'import torch; torch.zeros(1, device="cuda"); print(open("/proc/self/maps").read())' 2>/dev/null |
            grep -o '/[^ ]*libcudart\.so[^ ]*' | sort -u | sed "s/^/== $label process maps: /"
    done
    if cmp -s "$out/torch-nvidia.out" "$out/torch-ours.out"; then
        echo "== outputs identical ($(wc -l <"$out/torch-nvidia.out") lines)"
        same=1
    else
        echo "== outputs differ:"
        diff -u --label NVIDIA --label cudart-rs "$out/torch-nvidia.out" "$out/torch-ours.out" | head -n 80
        same=0
    fi
    grep -h "FAILED\|Traceback\|Error" "$out/torch-nvidia.err" "$out/torch-ours.err" 2>/dev/null | head -n 20 | sed 's/^/== stderr: /'

    if ((runs > 0)); then
        echo "== timing: $runs runs each, alternated (training section: python3 $w train)"
        : >"$out/times"
        for ((i = 1; i <= runs; i++)); do
            for label in nvidia ours; do
                pre=()
                [[ $label == ours ]] && pre=(LD_PRELOAD="$ours")
                t0=$EPOCHREALTIME
                env "${pre[@]}" python3 "$w" train 2>"$out/t.err" >/dev/null
                t1=$EPOCHREALTIME
                train=$(awk '/^time train/ {print $3}' "$out/t.err")
                echo "$label ${train:-nan} $t0 $t1" >>"$out/times"
            done
        done
        python3 - "$out/times" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
rows = [(r[0], float(r[1]), float(r[3]) - float(r[2])) for r in rows]
for col, what in ((1, "training section"), (2, "whole process")):
    m = {}
    for lab in ("nvidia", "ours"):
        v = [r[col] for r in rows if r[0] == lab]
        m[lab] = statistics.median(v)
        print(f"== {what}: {lab} median {m[lab]:.3f} s  (runs: {', '.join(f'{x:.3f}' for x in v)})")
    print(f"== {what}: ours/NVIDIA {m['ours'] / m['nvidia']:.4f}")
PY
    fi
    if ((same)); then echo "torch-check: identical"; else echo "torch-check: DIFFERENT"; fi
} 2>&1 | tee "$out/torch-check.log"
grep -q "^torch-check: identical" "$out/torch-check.log"
