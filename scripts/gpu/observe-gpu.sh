#!/usr/bin/env bash
# The observation of jobs of several processes on two GPUs, as one run (about 3 minutes):
#   (a) a DDP training of two ranks started by torchrun, sent SIGINT midway, without cudart-rs
#       and under `cudart-rs run --summary --leaks --timeline`: both ranks' KeyboardInterrupt
#       and `finally` run and print the same both ways, the same exit status, one summary of
#       both ranks, one valid timeline;
#   (b) a job of two nodes on this machine: two `cudart-rs run -o DIR` (a GPU and, as root, a
#       host name each), each running `torchrun --nnodes 2 --node-rank R --rdzv-backend c10d
#       --rdzv-endpoint 127.0.0.1:PORT --local-addr 127.0.0.1`, joined by `cudart-rs report DIR0
#       DIR1 --timeline`.
# (scripts/test/observe/gpu_jobs.py; scripts/gpu/torch/interrupted.py is the training.) On a
# machine of one GPU the ranks share it and their collectives go over gloo (NCCL allows no two
# ranks on one GPU); the rest is the same.
#
#   bash scripts/gpu/observe-gpu.sh
#       On the GPU machine, from the repository root, with .gpu carried (made here by
#       scripts/gpu/gpu-bundle.sh): .gpu/dist's command and library, PyTorch's torchrun.
#   bash scripts/gpu/observe-gpu.sh --rehearse
#       Here, without a GPU or PyTorch: dist/ (scripts/build.sh), the stand-in driver, a
#       torchrun-like launcher (scripts/test/observe/fakerun.py), the ranks' calls made through
#       ctypes.
#
# NVLink multicast stays off in every process (NCCL_NVLS_ENABLE=0,
# TORCH_SYMM_MEM_DISABLE_MULTICAST=1, NVSHMEM_DISABLE_NVLS=1, exported here). Leaves in $OUT
# (default target/observe-gpu): observe-gpu.log (everything printed), observe-gpu-runs.tgz
# (each run's output and reports), ddp-interrupted.json.gz and job-timeline.json.gz (the two
# timelines, for Perfetto). Prints PASS/FAIL/SKIP lines; the last line is
# `N passed, N failed, N skipped`; the exit status is non-zero when a check failed.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

rehearse=0
case ${1:-} in
    --rehearse) rehearse=1 ;;
    "") ;;
    *) header_usage ;;
esac
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
if ((rehearse)); then
    dist=$root/dist
    args=(--rehearse --driver "$dist/lib/stand-in/libcuda.so.1")
else
    dist=$root/.gpu/dist
    args=()
fi
out=${OUT:-$root/target/observe-gpu}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[[ -x $dist/bin/cudart-rs && -f $dist/lib/libcudart.so.13 ]] || {
    echo "observe-gpu: no $dist (run scripts/build.sh, and for the GPU scripts/gpu/gpu-bundle.sh)"
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
}

{
    echo "== $(date -u +%FT%TZ) $(nvidia-smi -L 2>/dev/null | tr '\n' ';' || echo 'no nvidia-smi')"
    # Within the 4 minutes the run may take, whatever hangs.
    timeout -k 5 220 python3 scripts/test/observe/gpu_jobs.py --cli "$dist/bin/cudart-rs" --lib "$dist/lib" \
        --work "$work/runs" --out "$work" "${args[@]}"
    rc=$?
    if ((rc == 124 || rc == 137)); then
        echo "FAIL the jobs did not end within 220 s"
    elif ((rc != 0 && rc != 1)); then
        echo "FAIL scripts/test/observe/gpu_jobs.py ended with status $rc"
    fi
} 2>&1 | tee "$out/observe-gpu.log"
for t in ddp-interrupted job-timeline; do
    [[ -f $work/$t.json ]] && gzip -c "$work/$t.json" >"$out/$t.json.gz"
done
tar -czf "$out/observe-gpu-runs.tgz" -C "$work" runs 2>/dev/null
passed=$(grep -c '^PASS ' "$out/observe-gpu.log")
failed=$(grep -c '^FAIL ' "$out/observe-gpu.log")
skipped=$(grep -c '^SKIP ' "$out/observe-gpu.log")
echo "$passed passed, $failed failed, $skipped skipped" | tee -a "$out/observe-gpu.log"
((failed == 0))
