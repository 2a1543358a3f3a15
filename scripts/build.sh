#!/usr/bin/env bash
# Builds both ABIs of the runtime and the stand-in driver, and lays out dist/:
#   dist/lib/libcudart.so.13.5.0, libcudart.so.13 -> .13.5.0, libcudart.so -> .13
#   dist/lib/libcudart.so.12.9.0, libcudart.so.12 -> .12.9.0
#   dist/bin/cudart-rs                   the command (`cudart-rs run`, `cudart-rs doctor`)
#                                        (the file names carry the version each ABI reports,
#                                        CUDART_VERSION: 13050 is 13.5.0; BUILD-INFO has them)
#   dist/lib/stand-in/libcuda.so.1       the host-memory stand-in driver
#   dist/lib/.debug/, dist/lib/stand-in/.debug/   release: the libraries' debug info, split off
#                                        (NAME.debug; each library is stripped and names its
#                                        file in .gnu_debuglink, where gdb looks for it)
#   dist/include/                        copy of include/, the host header set (cuda_runtime.h,
#                                        cuda_runtime_api.h, driver_types.h, ...: docs/headers.md)
#   dist/exports-13.txt, dist/exports-12.txt   what each build exports
#   dist/exports.tsv                     the export manifest: every export of either ABI with what
#                                        its declaration says (build/manifest.rs)
# Usage: scripts/build.sh [--debug]   (release by default)
# A release build is stripped as distributions strip (dh_strip): the DWARF goes, compressed,
# into a separate file of its own, and .symtab with it; the library keeps its build id
# (.note.gnu.build-id) and a .gnu_debuglink naming that file. scripts/package/install.sh installs the
# debug files where gdb finds them (next to the library in .debug/, or under a build-id tree).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$root"

profile=release
case "${1:-}" in
    --debug) profile=debug ;;
    --release | "") ;;
    *) header_usage ;;
esac
flags=()
[[ $profile == release ]] && flags=(--release)

# The 13 ABI in the shared target dir, the 12 ABI in its own (both make libcudart.so).
out13=$(cargo_out_dir "${flags[@]}" -p cudart-rs) || die "the 13 ABI does not build"
out12=$(cargo_out_dir "${flags[@]}" -p cudart-rs --features abi12 --target-dir target/abi12) || die "the 12 ABI does not build"
cargo build "${flags[@]}" -p cuda-standin --message-format=short -q || die "the stand-in driver does not build"
cargo build "${flags[@]}" -p cudart-rs-cli --message-format=short -q || die "the cudart-rs command does not build"

lib13=target/$profile/libcudart.so
lib12=target/abi12/$profile/libcudart.so
standin=target/$profile/libcuda_standin.so

soname() { objdump -p "$1" | awk '$1 == "SONAME" { print $2 }'; }
[[ $(soname "$lib13") == libcudart.so.13 ]] || die "$lib13 has SONAME '$(soname "$lib13")'"
[[ $(soname "$lib12") == libcudart.so.12 ]] || die "$lib12 has SONAME '$(soname "$lib12")'"

# split_debug LIB: LIB's debug info and symbol table into .debug/LIB.debug beside it, LIB
# stripped (--strip-unneeded keeps every dynamic symbol and its version) with a debuglink.
split_debug() {
    local lib=$1 dir name
    dir=$(dirname "$lib") name=$(basename "$lib")
    readelf -n "$lib" | grep -q 'Build ID' || die "$lib has no build id"
    mkdir -p "$dir/.debug" &&
        objcopy --only-keep-debug --compress-debug-sections "$lib" "$dir/.debug/$name.debug" &&
        chmod 0644 "$dir/.debug/$name.debug" &&
        strip --remove-section=.comment --remove-section=.note --strip-unneeded "$lib" &&
        (cd "$dir" && objcopy --add-gnu-debuglink=".debug/$name.debug" "$name") || die "$lib: its debug info not split off"
}

# version OUT_DIR [DEFINES...]: the version the build's header reports, CUDART_VERSION 13050
# as 13.5.0 (what cudaRuntimeGetVersion returns: the header and the library share the constant).
version() {
    local out=$1 v
    shift
    v=$(printf '#include "cuda_runtime_api.h"\n' | gcc -E -dM -x c "$@" -I "$out" - | awk '$2 == "CUDART_VERSION" { print $3 }')
    [[ $v =~ ^[0-9]+$ ]] || die "no CUDART_VERSION in $out/cuda_runtime_api.h"
    echo "$((v / 1000)).$((v % 1000 / 10)).0"
}
v13=$(version "$out13") || exit 1
v12=$(version "$out12" -DCUDART_RS_ABI12) || exit 1
[[ $v13 == 13.* && $v12 == 12.* ]] || die "versions $v13 and $v12"

rm -rf target/dist-staging
{
    mkdir -p target/dist-staging/lib/stand-in target/dist-staging/include target/dist-staging/bin &&
        cp target/$profile/cudart-rs target/dist-staging/bin/ &&
        cp "$lib13" "target/dist-staging/lib/libcudart.so.$v13" &&
        ln -s "libcudart.so.$v13" target/dist-staging/lib/libcudart.so.13 &&
        ln -s libcudart.so.13 target/dist-staging/lib/libcudart.so &&
        cp "$lib12" "target/dist-staging/lib/libcudart.so.$v12" &&
        ln -s "libcudart.so.$v12" target/dist-staging/lib/libcudart.so.12 &&
        cp "$standin" target/dist-staging/lib/stand-in/libcuda.so.1 &&
        cp -r include/. target/dist-staging/include/
} || die "target/dist-staging not laid out"
if [[ $profile == release ]]; then
    for f in "target/dist-staging/lib/libcudart.so.$v13" "target/dist-staging/lib/libcudart.so.$v12" \
        target/dist-staging/lib/stand-in/libcuda.so.1 target/dist-staging/bin/cudart-rs; do
        split_debug "$f"
    done
fi
cp "$out13/exports.txt" target/dist-staging/exports-13.txt && cp "$out12/exports.txt" target/dist-staging/exports-12.txt ||
    die "no exports.txt"
# Both builds write the manifest of both ABIs.
cmp -s "$out13/exports.tsv" "$out12/exports.tsv" || die "the two builds' exports.tsv differ"
cp "$out13/exports.tsv" target/dist-staging/exports.tsv || die "no exports.tsv"
{
    echo "profile=$profile"
    echo "commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "dirty=$(git status --porcelain -- src build.rs build cbindgen.toml Cargo.toml Cargo.lock standin include 2>/dev/null | wc -l)"
    echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "version13=$v13"
    echo "version12=$v12"
} >target/dist-staging/BUILD-INFO
# Replace what this script makes; leave what other tools write in dist/ (coverage reports).
mkdir -p dist && rm -rf dist/lib dist/include dist/bin &&
    mv target/dist-staging/bin target/dist-staging/lib target/dist-staging/include target/dist-staging/exports-13.txt \
        target/dist-staging/exports-12.txt target/dist-staging/exports.tsv \
        target/dist-staging/BUILD-INFO dist/ || die "dist/ not replaced"
rm -rf target/dist-staging

echo "build ($profile):"
echo "  dist/lib/libcudart.so.13 -> libcudart.so.$v13   ($(wc -l <dist/exports-13.txt) exports, dist/exports-13.txt)"
echo "  dist/lib/libcudart.so.12 -> libcudart.so.$v12   ($(wc -l <dist/exports-12.txt) exports, dist/exports-12.txt)"
echo "  dist/lib/libcudart.so -> libcudart.so.13"
echo "  dist/exports.tsv: the export manifest ($(($(wc -l <dist/exports.tsv) - 1)) lines)"
if [[ $profile == release ]]; then
    echo "  stripped: libcudart.so.$v13 $(stat -c %s "dist/lib/libcudart.so.$v13") bytes, libcudart.so.$v12 $(stat -c %s "dist/lib/libcudart.so.$v12") bytes;" \
        "debug info in dist/lib/.debug/"
fi
echo "  dist/bin/cudart-rs   the command: cudart-rs run [options] -- PROGRAM, cudart-rs doctor"
echo "  dist/lib/stand-in/libcuda.so.1   (use: CUDART_RS_DRIVER=$root/dist/lib/stand-in/libcuda.so.1)"
echo "  dist/include/: the host header set ($(find dist/include -type f | wc -l) headers: cuda_runtime.h, cuda_runtime_api.h, ...)"
