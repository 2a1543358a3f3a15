#!/usr/bin/env bash
# PyTorch on every GPU of the machine (two or more) under NVIDIA's runtime and under ours:
#   bash scripts/gpu/torch2-check.sh [--runs N] [--steps S]
# Runs scripts/gpu/torch/ddp.py (N = the machine's GPU count, from nvidia-smi):
#   spawn     DDP over NCCL, one process per GPU started by torch.multiprocessing.spawn: SGD
#             and Adam (S steps each, default 50), the collectives, torch.cuda.graph on each
#             rank; run N times (default 3) under each runtime, alternated, and timed
#   torchrun  the same, started by `torchrun --standalone --nproc-per-node N` (python3 -m
#             torch.distributed.run)
#   local     tensors between every ordered pair of devices; a CUDA tensor handed to a process
#             on another device through torch.multiprocessing queues
# under NVIDIA's runtime (the one PyTorch loads) and under ours (LD_PRELOAD of
# .gpu/dist/lib/libcudart.so.13, or $CUDART_RS_LIB: PyTorch's RPATH would beat
# LD_LIBRARY_PATH; every process torch starts inherits it), and compares what each printed:
# each part under ours must print exactly what it printed under NVIDIA's, and every spawn run
# what the first printed (under NVIDIA's too: a workload that does not repeat itself proves
# nothing). Which libcudart each process mapped is checked (stderr `maps:` lines).
# Then the training's wall time (both optimisers' loops, the slowest rank, after a warm-up)
# and the whole process's, per run, with the medians, the spread ((max - min) / median) and
# ours/NVIDIA.
# NVLink multicast stays off in every process: NCCL_NVLS_ENABLE=0,
# TORCH_SYMM_MEM_DISABLE_MULTICAST=1, NVSHMEM_DISABLE_NVLS=1 (exported here, inherited).
# TORCH2_DEADLINE (seconds since the epoch): no process runs past it (those left are not run,
# and fail). Leaves under $OUT (or target/torch2-check): torch2-check.log, and PART-RUNTIME[-K].out/.err
# for each run. The last line is `N passed, N failed, N skipped` (a part per comparison: spawn,
# spawn repeats, torchrun, local, which runtime was mapped); with fewer than two GPUs,
# `torch2-check: skipped: needs two GPUs` and one skip (never a pass).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root" || exit 1
runs=3 steps=50
while (($#)); do
    case $1 in
        --runs) runs=$2; shift ;;
        --steps) steps=$2; shift ;;
        *) header_usage ;;
    esac
    shift
done
out=$(out_dir torch2-check) || die "cannot make the output folder"
ours=${CUDART_RS_LIB:-$root/.gpu/dist/lib/libcudart.so.13}
py=${PYTHON:-python3}
export PYTHONUNBUFFERED=1 CUBLAS_WORKSPACE_CONFIG=:4096:8
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
d=$root/scripts/gpu/torch/ddp.py

gpus=$(gpu_count)
if ((gpus < 2)); then
    { echo "torch2-check: skipped: needs two GPUs (this machine has ${gpus:-0})"
      echo "0 passed, 0 failed, 1 skipped"; } | tee "$out/torch2-check.log"
    exit 0
fi
[[ -f $ours ]] || { echo "torch2-check: no $ours (scripts/gpu/gpu-bundle.sh, carry .gpu)"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }

passed=0 failed=0
failures=()
ok() { passed=$((passed + 1)); echo "PASS $1"; }
bad() { failed=$((failed + 1)); failures+=("$1"); echo "FAIL $1"; [[ -n ${2:-} ]] && printf '%s\n' "$2"; return 0; }

# run PART LABEL [K]: one part under one runtime into $out/PART-LABEL[-K].out/.err, timed
# (seconds in $out/PART-LABEL[-K].wall).
port=29600
run() {
    local part=$1 label=$2 base=$out/$1-$2${3:+-$3} pre=() t0 t1 rc limit=150
    # 150 s at most each (a spawn run on four GPUs takes well under a minute), less where the
    # deadline (TORCH2_DEADLINE, seconds since the epoch) is nearer; none left: not run.
    if [[ -n ${TORCH2_DEADLINE:-} ]]; then
        limit=$((TORCH2_DEADLINE - $(date +%s)))
        ((limit > 150)) && limit=150
        if ((limit < 20)); then
            echo "not run: out of time" >"$base.out"
            : >"$base.err"
            echo "exit status 124" >>"$base.out"
            echo 0 >"$base.wall"
            return
        fi
    fi
    [[ $label == ours ]] && pre=(LD_PRELOAD="$ours")
    port=$((port + 1))
    t0=$EPOCHREALTIME
    case $part in
        spawn) env "${pre[@]}" timeout -k 5 "$limit" "$py" "$d" spawn --steps "$steps" --port "$port" >"$base.out" 2>"$base.err" ;;
        torchrun) env "${pre[@]}" timeout -k 5 "$limit" "$py" -m torch.distributed.run --standalone --nproc-per-node "$gpus" \
            "$d" rank --steps "$steps" >"$base.out" 2>"$base.err" ;;
        local) env "${pre[@]}" timeout -k 5 "$limit" "$py" "$d" local >"$base.out" 2>"$base.err" ;;
    esac
    rc=$?
    t1=$EPOCHREALTIME
    echo "exit status $rc" >>"$base.out"
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >"$base.wall"
}

# same PART-LABEL PART-LABEL: compares two outputs (the first is the reference, which must
# have ended well and say nothing FAILED).
same() {
    local a=$out/$1.out b=$out/$2.out
    if [[ $(tail -n 1 "$a") != "exit status 0" ]] || grep -q 'FAILED' "$a"; then
        bad "$2: the reference run $1 did not end well" "$(grep 'FAILED' "$a" | head -n 5 | sed 's/^/      /'; tail -n 1 "$a" | sed 's/^/      /'; tail -n 15 "${a%.out}.err" | sed 's/^/      | /')"
    elif cmp -s "$a" "$b"; then
        ok "$2 prints what $1 printed ($(wc -l <"$a") lines)"
    else
        bad "$2 differs from $1" "$(diff -u --label "$1" --label "$2" "$a" "$b" | head -n 60 | sed 's/^/      /')"
    fi
}

{
    echo "== PyTorch: $("$py" -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda)' 2>&1 | tail -n 1)"
    nvidia-smi -L 2>/dev/null | sed 's/^/== /'
    echo "== driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1), $gpus GPUs"
    echo "== ours: $ours"
    echo "== NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE TORCH_SYMM_MEM_DISABLE_MULTICAST=$TORCH_SYMM_MEM_DISABLE_MULTICAST NVSHMEM_DISABLE_NVLS=$NVSHMEM_DISABLE_NVLS"
    for ((k = 1; k <= runs; k++)); do
        for label in nvidia ours; do
            run spawn "$label" "$k"
            echo "== spawn run $k under $label: $(tail -n 1 "$out/spawn-$label-$k.out"), $(cat "$out/spawn-$label-$k.wall") s"
        done
    done
    for part in torchrun local; do
        for label in nvidia ours; do
            run "$part" "$label"
            echo "== $part under $label: $(tail -n 1 "$out/$part-$label.out"), $(cat "$out/$part-$label.wall") s"
        done
    done

    # What each printed.
    same spawn-nvidia-1 spawn-ours-1
    for ((k = 2; k <= runs; k++)); do
        same spawn-nvidia-1 "spawn-nvidia-$k"
        same spawn-ours-1 "spawn-ours-$k"
    done
    same torchrun-nvidia torchrun-ours
    same local-nvidia local-ours
    # torchrun runs the same work as spawn: a difference is noted, not counted.
    if ! cmp -s <(sed '$d' "$out/spawn-nvidia-1.out") <(sed '$d' "$out/torchrun-nvidia.out"); then
        echo "NOTE under NVIDIA's runtime, torchrun's output is not spawn's:"
        diff <(sed '$d' "$out/spawn-nvidia-1.out") <(sed '$d' "$out/torchrun-nvidia.out") | head -n 10 | sed 's/^/      /'
    fi
    # Which runtime the processes had: ours mapped under ours (and NVIDIA's file not), ours
    # nowhere under NVIDIA's.
    mapped_ok=1
    ours_real=$(readlink -f "$ours")
    for f in "$out"/*-ours*.err; do
        grep '^maps: ' "$f" | grep -qF "$ours_real" || { mapped_ok=0; echo "      $(basename "$f"): ours not mapped"; }
    done
    for f in "$out"/*-nvidia*.err; do
        ! grep '^maps: ' "$f" | grep -qF "$ours_real" || { mapped_ok=0; echo "      $(basename "$f"): ours mapped"; }
        grep -q '^maps: ' "$f" || { mapped_ok=0; echo "      $(basename "$f"): no maps line"; }
    done
    grep -h '^maps: ' "$out"/spawn-*-1.err | sort -u | sed 's/^/== /'
    if ((mapped_ok)); then ok "each process mapped the runtime meant"; else bad "a process mapped another runtime than meant"; fi

    # Times: the training (the slowest rank's two loops) and the whole process, per run.
    "$py" - "$out" "$runs" <<'PY'
import re, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
def train(label, k):
    ts = [float(m.group(1)) for m in re.finditer(r"^time: training ([0-9.]+)", open(f"{out}/spawn-{label}-{k}.err").read(), re.M)]
    return max(ts) if ts else float("nan")
def wall(label, k):
    return float(open(f"{out}/spawn-{label}-{k}.wall").read())
for what, f in (("training (slowest rank, SGD + Adam loops)", train), ("whole process", wall)):
    med = {}
    for label in ("nvidia", "ours"):
        v = [f(label, k) for k in range(1, runs + 1)]
        med[label] = statistics.median(v)
        spread = (max(v) - min(v)) / med[label] if med[label] else float("nan")
        print(f"== {what}: {label} median {med[label]:.4f} s, spread {spread * 100:.1f}% (runs: {', '.join(f'{x:.4f}' for x in v)})")
    r = med["ours"] / med["nvidia"] if med["nvidia"] else float("nan")
    verdict = "no times" if r != r else "at most 2% slower" if r <= 1.02 else "MORE than 2% slower"
    print(f"== {what}: ours/NVIDIA {r:.4f} ({verdict})")
PY
    ((failed)) && echo "failed: ${failures[*]}"
    if ((failed)); then echo "torch2-check: DIFFERENT"; else echo "torch2-check: identical"; fi
    echo "$passed passed, $failed failed, 0 skipped"
} 2>&1 | tee "$out/torch2-check.log"
[[ $(tail -n 1 "$out/torch2-check.log") == *" 0 failed, "* ]]
