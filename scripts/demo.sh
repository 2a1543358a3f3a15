#!/usr/bin/env bash
# Builds cudart-rs (scripts/build.sh) and runs examples/demo.c on it: on the GPU when this
# machine has NVIDIA's driver, else on the host-memory stand-in driver.
# Usage: scripts/demo.sh [--debug]
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$root"

bash scripts/build.sh "$@" || exit 1
mkdir -p target/demo
gcc -O2 -Wall -I dist/include examples/demo.c -o target/demo/demo \
    -L dist/lib -l:libcudart.so.13 -Wl,-rpath,"$root/dist/lib" || die "examples/demo.c does not build"

if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
    echo "== examples/demo.c on cudart-rs ($(readlink -f dist/lib/libcudart.so.13)), NVIDIA's driver"
    exec target/demo/demo
fi
echo "== examples/demo.c on cudart-rs, no NVIDIA driver here: on the stand-in driver (host memory)"
CUDART_RS_DRIVER="$root/dist/lib/stand-in/libcuda.so.1" exec target/demo/demo
