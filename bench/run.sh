#!/usr/bin/env bash
# The side-by-side benchmark, on the GPU machine (prepared here by scripts/gpu/gpu-bundle.sh;
# .gpu carried), in one call:
#   bash bench/run.sh [--rounds N] [--quick]
# Builds bench/bench.c and bench/kern.cu with nvcc -cudart shared, then runs the benchmark N
# times (default 3) under each of NVIDIA's runtime, ours and the raw driver API, alternating
# them (the order turns each round), and prints the markdown table of the medians
# (bench/bench.c's `report`): per row NVIDIA's, ours, ours/NVIDIA, the driver's, ours minus the
# driver's, and the spread of the runs (✗ marks a row where ours' best run is slower than
# NVIDIA's slowest, ⚠ one slower by more than 2% within the spread). About two and a half
# minutes on an H100; --quick: fewer batches and bandwidth sizes up to 64 MiB.
# Environment: CUDA_HOME (/usr/local/cuda: nvcc, and NVIDIA's libcudart.so.13 in lib64, else
# .gpu/nvidia13), OURS_LIB (.gpu/dist/lib), NVCC (CUDA_HOME/bin/nvcc), NVCC_ARCH (-arch=sm_90),
# NVCC_FLAGS (more nvcc options), OUT (target/bench): gets
# bench.md (the table), bench.log (everything printed) and runs/ (every run's output).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

rounds=3
quick=()
while (($#)); do
    case $1 in
        --rounds) rounds=$2; shift 2 ;;
        --quick) quick=(--quick); shift ;;
        *) echo "usage: bench/run.sh [--rounds N] [--quick]" >&2; exit 2 ;;
    esac
done

out=${OUT:-$root/target/bench}
mkdir -p "$out/runs"
out=$(cd "$out" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=${NVCC:-$cuda/bin/nvcc}
nvlib=$cuda/lib64
[[ -f $nvlib/libcudart.so.13 ]] || nvlib=$root/.gpu/nvidia13
ours=$(cd "${OURS_LIB:-$root/.gpu/dist/lib}" 2>/dev/null && pwd || echo "${OURS_LIB:-$root/.gpu/dist/lib}")
build=$root/target/bench-build

main() {
    local start=$SECONDS
    echo "== GPU"
    nvidia-smi -L 2>&1 || echo "nvidia-smi -L failed"
    echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1 || echo unknown)"
    echo "host: $(nproc) CPUs, $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), glibc $(ldd --version 2>/dev/null | head -n 1 | grep -o '[0-9.]*$')"
    echo "nvcc: $("$nvcc" --version 2>/dev/null | grep -o 'release [0-9.]*' || echo MISSING)"
    echo "NVIDIA's runtime: $nvlib/libcudart.so.13 ($(readlink -f "$nvlib/libcudart.so.13" 2>/dev/null))"
    echo "ours: $ours/libcudart.so.13 ($(tr '\n' ' ' <"$ours/../BUILD-INFO" 2>/dev/null))"
    [[ -f $nvlib/libcudart.so.13 ]] || { echo "bench: no NVIDIA libcudart.so.13"; return 1; }
    [[ -f $ours/libcudart.so.13 ]] || { echo "bench: no $ours/libcudart.so.13 (run scripts/gpu/gpu-bundle.sh and carry .gpu)"; return 1; }

    echo "== build"
    mkdir -p "$build"
    # shellcheck disable=SC2086 # NVCC_FLAGS: extra options, split on blanks
    "$nvcc" -O2 -cudart shared ${NVCC_ARCH:--arch=sm_90} ${NVCC_FLAGS:-} -Xlinker --no-as-needed \
        bench/bench.c bench/kern.cu -o "$build/bench" -lpthread -ldl || { echo "bench: build failed"; return 1; }

    local kinds=(nvidia ours driver) r k i lib mode
    for ((r = 1; r <= rounds; r++)); do
        for ((i = 0; i < 3; i++)); do
            k=${kinds[$(((i + r - 1) % 3))]}
            case $k in
                nvidia) lib=$nvlib mode=runtime ;;
                ours) lib=$ours mode=runtime ;;
                driver) lib=$nvlib mode=driver ;;
            esac
            echo "== round $r: $k"
            LD_LIBRARY_PATH=$lib timeout 150 "$build/bench" "$mode" "${quick[@]}" >"$out/runs/$k.$r.txt" 2>"$out/runs/$k.$r.err"
            local rc=$?
            head -n 1 "$out/runs/$k.$r.txt"
            tail -n 1 "$out/runs/$k.$r.txt"
            [[ $rc == 0 ]] || { echo "bench: the $k run failed ($rc)"; cat "$out/runs/$k.$r.err"; }
            grep -q "from $lib/" "$out/runs/$k.$r.txt" || echo "bench: WARNING: the $k run did not use $lib"
        done
    done

    echo "== table"
    local runs=()
    for k in nvidia ours driver; do
        runs+=("$out"/runs/"$k".*.txt --)
    done
    LD_LIBRARY_PATH=$nvlib "$build/bench" report "${runs[@]}" | tee "$out/bench.md"
    echo "bench: $((SECONDS - start)) s"
}

main 2>&1 | tee "$out/bench.log"
exit "${PIPESTATUS[0]}"
