#!/usr/bin/env bash
# The side-by-side benchmark, on the GPU machine (prepared here by scripts/gpu/gpu-bundle.sh;
# .gpu carried), in one call:
#   bash bench/run.sh [--rounds N] [--quick] [--only SECTION,...] [--rows 'PART|PART...']
#                     [--against REV|DIR]...
# Builds bench/bench.c and bench/kern.cu with nvcc -cudart shared, then runs the benchmark N
# times (default 3) under each of NVIDIA's runtime, ours, the raw driver API and every other
# build named by --against, alternating them on one GPU (the order turns each round), and
# prints the markdown table of the medians (bench/report.py): per row NVIDIA's, ours,
# ours/NVIDIA, the driver's, ours minus the driver's; per other build its median, ours/other
# and other/NVIDIA; the spread of each runtime's runs. Marks: ✗ ours' best run slower than
# NVIDIA's slowest, ⚠ ours slower by more than 2% within the spread, ▼ ours' best run slower
# than the other build's slowest. About two and a half minutes on an H100 for the three
# runtimes; --quick: fewer batches and bandwidth sizes up to 64 MiB; --only runs these
# sections (latency, queries, graphs, allocations, bandwidth, threads); --rows only the rows whose
# names contain one of the parts.
# --against REV|DIR (repeatable): another build of ours. DIR holds its libcudart.so.13; a
# revision is looked for in .gpu/ab/REV/ (scripts/gpu/gpu-bundle.sh carries target/ab/ there,
# xz-compressed), then target/ab/REV/, and built there by bench/ab-build.sh where cargo is at
# hand.
# Environment: CUDA_HOME (/usr/local/cuda: nvcc, and NVIDIA's libcudart.so.13 in lib64, else
# .gpu/nvidia13), OURS_LIB (.gpu/dist/lib), NVCC (CUDA_HOME/bin/nvcc), NVCC_ARCH (-arch=sm_90),
# NVCC_FLAGS (more nvcc options), OUT (target/bench): gets
# bench.md (the table), bench.log (everything printed) and runs/ (every run's output).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$root"

rounds=3
args=()
against=()
while (($#)); do
    case $1 in
        --rounds) rounds=$2; shift 2 ;;
        --quick) args+=(--quick); shift ;;
        --only | --rows) args+=("$1" "$2"); shift 2 ;;
        --against) against+=("$2"); shift 2 ;;
        *) header_usage ;;
    esac
done

out=${OUT:-$root/target/bench}
mkdir -p "$out/runs"
rm -f "$out"/runs/*.txt "$out"/runs/*.err
out=$(cd "$out" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=${NVCC:-$cuda/bin/nvcc}
nvlib=$cuda/lib64
[[ -f $nvlib/libcudart.so.13 ]] || nvlib=$root/.gpu/nvidia13
ours=$(cd "${OURS_LIB:-$root/.gpu/dist/lib}" 2>/dev/null && pwd || echo "${OURS_LIB:-$root/.gpu/dist/lib}")
build=$root/target/bench-build

# other_lib REV|DIR: the folder holding that build's libcudart.so.13 (built when need be).
other_lib() {
    local a=$1 d
    if [[ -f $a/libcudart.so.13 ]]; then
        (cd "$a" && pwd)
        return
    fi
    for d in "$root/.gpu/ab/$a" "$root/target/ab/$a"; do
        [[ -f $d/libcudart.so.13 ]] && { echo "$d"; return; }
        # As carried: compressed (xz), unpacked into target/ab/REV/ once.
        if [[ -f $d/libcudart.so.13.xz ]]; then
            mkdir -p "$root/target/ab/$a"
            xz -dc "$d/libcudart.so.13.xz" >"$root/target/ab/$a/libcudart.so.13" || return 1
            cp "$d/BUILD-INFO" "$root/target/ab/$a/" 2>/dev/null
            echo "$root/target/ab/$a"
            return
        fi
    done
    command -v cargo >/dev/null || return 1
    bash bench/ab-build.sh "$a" >&2 || return 1
    echo "$root/target/ab/$a"
}

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

    local kinds=(nvidia ours driver) libs=("$nvlib" "$ours" "$nvlib") modes=(runtime runtime driver) a lib
    for a in "${against[@]}"; do
        lib=$(other_lib "$a") || { echo "bench: no build of $a (not in .gpu/ab/ nor target/ab/, and no cargo here)"; return 1; }
        kinds+=("$(basename "$a")") libs+=("$lib") modes+=(runtime)
        echo "other build $(basename "$a"): $lib/libcudart.so.13"
    done

    echo "== build"
    mkdir -p "$build"
    # shellcheck disable=SC2086 # NVCC_FLAGS: extra options, split on blanks
    "$nvcc" -O2 -cudart shared ${NVCC_ARCH:--arch=sm_90} ${NVCC_FLAGS:-} -Xlinker --no-as-needed \
        bench/bench.c bench/kern.cu -o "$build/bench" -lpthread -ldl || { echo "bench: build failed"; return 1; }

    local n=${#kinds[@]} r i j k
    for ((r = 1; r <= rounds; r++)); do
        for ((i = 0; i < n; i++)); do
            j=$(((i + r - 1) % n))
            k=${kinds[$j]}
            echo "== round $r: $k"
            LD_LIBRARY_PATH=${libs[$j]} timeout 300 "$build/bench" "${modes[$j]}" "${args[@]}" \
                >"$out/runs/$k.$r.txt" 2>"$out/runs/$k.$r.err"
            local rc=$?
            head -n 1 "$out/runs/$k.$r.txt"
            tail -n 1 "$out/runs/$k.$r.txt"
            [[ $rc == 0 ]] || { echo "bench: the $k run failed ($rc)"; cat "$out/runs/$k.$r.err"; }
            grep -q "from ${libs[$j]}/" "$out/runs/$k.$r.txt" || echo "bench: WARNING: the $k run did not use ${libs[$j]}"
        done
    done

    echo "== table"
    local report=()
    for k in "${kinds[@]}"; do
        report+=(--kind "$k" "$out"/runs/"$k".*.txt)
    done
    python3 bench/report.py "${report[@]}" | tee "$out/bench.md"
    echo "bench: $((SECONDS - start)) s"
}

main 2>&1 | tee "$out/bench.log"
exit "${PIPESTATUS[0]}"
