#!/usr/bin/env bash
# Builds the fuzz target (fuzz/harness.c, a libFuzzer program) into target/fuzz/:
#   bash fuzz/build.sh
# The runtime (13 ABI) and the stand-in driver are built with sanitizer coverage (the edges
# libFuzzer steers by, as cargo-fuzz instruments a crate), the harness with clang-19's
# -fsanitize=fuzzer,address. Needs clang-19 and its libFuzzer (Debian: clang-19,
# libclang-rt-19-dev). Prints where the program is.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$root"

cc=${FUZZ_CC:-clang-19}
command -v "$cc" >/dev/null || { echo "fuzz: no $cc (apt-get install clang-19 libclang-rt-19-dev)" >&2; exit 2; }
out=target/fuzz
cov="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=3 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters"
cov+=" -Cllvm-args=-sanitizer-coverage-pc-table -Cllvm-args=-sanitizer-coverage-trace-compares"
# With an explicit target the flags reach only the target's code, not build scripts and
# procedural macros (which run here, uninstrumented).
triple=$(rustc -vV | sed -n 's/^host: //p')
RUSTFLAGS="$cov" cargo build --release -q -p cudart-rs -p cuda-standin --target "$triple" --target-dir "$out/cargo"
mkdir -p "$out/lib"
cp "$out/cargo/$triple/release/libcudart.so" "$out/lib/libcudart.so.13"
cp "$out/cargo/$triple/release/libcuda_standin.so" "$out/lib/libcuda_standin.so"
"$cc" -g -O1 -fsanitize=fuzzer,address -Iinclude fuzz/harness.c -o "$out/harness" \
    -Wl,--no-as-needed "$out/lib/libcudart.so.13" -Wl,-rpath,"$root/$out/lib"
echo "fuzz: $out/harness (driver: $out/lib/libcuda_standin.so)"
