#!/usr/bin/env bash
# The one command for the GPU machine (prepared here by scripts/gpu-bundle.sh; .gpu carried):
#   bash scripts/gpu-check.sh
# Prints the GPU and driver, runs scripts/ctest.sh --gpu against the runtimes in .gpu/, and
# leaves under $OUT (at most 8 files):
#   gpu-check.log   everything printed
#   expected.tgz    expected/<abi>/<name>.out, NVIDIA's outputs (commit as ctest/expected/),
#                   and ctest-gpu.log
#   gpu-runs.tgz    every build log and every run's output, ours and NVIDIA's
# Ends with the line `N passed, N failed, N skipped`.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

out=${OUT:-$root/target/gpu-check}
mkdir -p "$out"
out=$(cd "$out" && pwd)

main() {
    echo "== GPU"
    nvidia-smi -L 2>&1 || echo "nvidia-smi -L failed"
    echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1 || echo unknown)"
    echo "host: $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), gcc $(gcc -dumpfullversion 2>/dev/null)"
    if [[ ! -f .gpu/dist/lib/libcudart.so.13 ]]; then
        echo "no .gpu/dist: run scripts/gpu-bundle.sh first and carry .gpu"
        echo "0 passed, 1 failed, 0 skipped"
        return 1
    fi
    echo "bundle: $(tr '\n' ' ' <.gpu/BUNDLE-INFO 2>/dev/null)"
    echo "build: $(tr '\n' ' ' <.gpu/dist/BUILD-INFO 2>/dev/null)"
    echo "== C tests"
    CUDART_RS_DIST=.gpu/dist \
    NVIDIA12_LIB=$root/.gpu/nvidia12 \
    CU12_INCLUDE=$root/.gpu/cu12/include \
    OUT=$out \
        bash scripts/ctest.sh --gpu "$@"
}

main "$@" 2>&1 | tee "$out/gpu-check.log"
rc=${PIPESTATUS[0]}
# Only what is meant to come back stays in $OUT.
rm -rf "$out/expected"
exit "$rc"
