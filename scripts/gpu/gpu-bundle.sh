#!/usr/bin/env bash
# Run here, before a run on the GPU machine: builds (scripts/build.sh) and fills the ignored
# folder .gpu/ with what that machine needs and lacks (it has no cargo and no internet):
#   .gpu/dist/              dist/, with debug info stripped from the libraries (no .debug/)
#   .gpu/deb/               the Debian packages, when scripts/package/deb.sh made them (dist/deb/),
#                           and in .gpu/deb/tools/ Debian's pkgconf packages, for a machine
#                           without pkg-config: bash scripts/package/deb-test.sh --system there
#   .gpu/cu12/include/      NVIDIA's CUDA 12 headers (crt/ included)
#   .gpu/nvidia12/          NVIDIA's libcudart.so.12 (12.9.79)
#   .gpu/nvidia13/          NVIDIA's libcudart.so.13 (13.0.96), used when the machine's
#                           /usr/local/cuda/lib64 has none
#   .gpu/nvidia135/         NVIDIA's libcudart.so.13 (13.5.37) and .gpu/cu135/include/ its
#                           headers: the 13 ABI's reference in scripts/test/ctest.sh --gpu (ours is
#                           13.5's ABI); the machine's 13.0.96 runs there as a second one
#   .gpu/ab/REV/            other builds for bench/run.sh --against REV (bench/ab-build.sh's
#                           target/ab/REV/, the library xz-compressed)
#   .gpu/host/              the host programs (ctest/host/), every build (scripts/test/host-check.sh)
#   .gpu/wheel/             the wheel (scripts/package/wheel.sh --no-build, into dist/wheel/):
#                           bash scripts/gpu/wheel-gpu.sh there
#   .gpu/cu12-clang/        the CUDA tests (ctest/*.cu) built for the 12 ABI with clang
#                           (scripts/gpu/cu12-build.sh: NAME and NAME.log per test; NAME.skip, the
#                           reason, for a test not built, e.g. where clang-19 is missing)
# Then, on the GPU machine, with .gpu carried: bash scripts/gpu/gpu-suite.sh (the whole suite
# within 8 minutes; bash scripts/gpu/gpu-check.sh records NVIDIA's outputs anew; on a machine
# with several GPUs: bash scripts/gpu/gpu-multi.sh)
# Usage: scripts/gpu/gpu-bundle.sh [--no-build]
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

if [[ ${1:-} != --no-build ]]; then
    bash scripts/build.sh || exit 1
fi
[[ -f dist/lib/libcudart.so.13 && -f dist/lib/libcudart.so.12 ]] || die "no dist/ (run scripts/build.sh)"
bash scripts/dev/fetch-nvidia.sh || exit 1
nv=.cache/nvidia

rm -rf target/gpu-staging
mkdir -p target/gpu-staging/cu12/include target/gpu-staging/nvidia12 target/gpu-staging/nvidia13 \
    target/gpu-staging/nvidia135 target/gpu-staging/cu135/include target/gpu-staging/dist || die "cannot make target/gpu-staging"
cp -a dist/bin dist/lib dist/include dist/exports-13.txt dist/exports-12.txt dist/BUILD-INFO target/gpu-staging/dist/ ||
    die "cannot copy dist/"
rm -rf target/gpu-staging/dist/bin/.debug target/gpu-staging/dist/lib/.debug target/gpu-staging/dist/lib/stand-in/.debug
for f in $(readlink -f target/gpu-staging/dist/lib/libcudart.so.13 target/gpu-staging/dist/lib/libcudart.so.12) target/gpu-staging/dist/lib/stand-in/libcuda.so.1; do
    strip --strip-debug "$f" || die "cannot strip $f"
done
# Plain files in place of the links, whatever way the folder travels.
find target/gpu-staging/dist -type l | while read -r l; do
    cp --remove-destination "$(readlink -f "$l")" "$l" || exit 1
done || die "the links in target/gpu-staging/dist not replaced"
{
    cp -a "$nv/cu12/nvidia/cuda_runtime/include/." target/gpu-staging/cu12/include/ &&
        cp -a "$nv/cu12/nvidia/cuda_nvcc/include/crt" target/gpu-staging/cu12/include/ &&
        cp "$nv/cu12/nvidia/cuda_runtime/lib/libcudart.so.12" target/gpu-staging/nvidia12/ &&
        cp "$nv/cu13/nvidia/cu13/lib/libcudart.so.13" target/gpu-staging/nvidia13/
} || die "NVIDIA's CUDA 12 headers and runtimes not copied"
# The GPU machine has no clang and no nvcc 12: the CUDA tests' 12 builds are made here. A
# test that is not built is skipped there (with the reason in NAME.skip).
if ! bash scripts/gpu/cu12-build.sh --out target/gpu-staging/cu12-clang; then
    echo "gpu-bundle: some CUDA tests are not built for the 12 ABI (.gpu/cu12-clang/*.skip); they are skipped on the GPU" >&2
fi
# The host programs (ctest/host/), built here with g++ and clang++ against our headers and
# NVIDIA's (scripts/test/host-check.sh --gpu runs them there under both runtimes).
bash scripts/test/host-check.sh --build target/gpu-staging/host || die "the host programs not built"
# CUDA 13.5's runtime and headers (the 13 ABI's reference in scripts/test/ctest.sh --gpu): the library
# also as libcudart.so, what the NVIDIA-header builds link to.
{
    cp "$nv/cu135/nvidia/cu13/lib/libcudart.so.13" target/gpu-staging/nvidia135/ &&
        cp "$nv/cu135/nvidia/cu13/lib/libcudart.so.13" target/gpu-staging/nvidia135/libcudart.so &&
        cp -a "$nv/cu135/nvidia/cu13/include/." target/gpu-staging/cu135/include/
} || die "NVIDIA's CUDA 13.5 runtime and headers not copied"
# The wheel, for scripts/gpu/wheel-gpu.sh (maturin and auditwheel come from PyPI the first time).
if bash scripts/package/wheel.sh --no-build >target/gpu-staging/wheel.log 2>&1; then
    mkdir -p target/gpu-staging/wheel && cp dist/wheel/*.whl target/gpu-staging/wheel/ || die "the wheel not copied"
else
    tail -n 5 target/gpu-staging/wheel.log >&2
    echo "gpu-bundle: no wheel (scripts/package/wheel.sh failed): scripts/gpu/wheel-gpu.sh cannot run there" >&2
fi
rm -f target/gpu-staging/wheel.log
if compgen -G 'dist/deb/*.deb' >/dev/null; then
    mkdir -p target/gpu-staging/deb/tools && cp dist/deb/*.deb target/gpu-staging/deb/ || die "the Debian packages not copied"
    # pkgconf for scripts/package/deb-test.sh --system, used there only when the machine has no
    # pkg-config of its own.
    if ! (cd target/gpu-staging/deb/tools && apt-get download -q pkgconf pkgconf-bin libpkgconf3 >/dev/null 2>&1); then
        echo "gpu-bundle: could not fetch Debian's pkgconf packages: .gpu/deb/tools is empty" >&2
    fi
fi
# Other builds for bench/run.sh --against (bench/ab-build.sh), compressed.
for d in target/ab/*/; do
    [[ -f $d/libcudart.so.13 ]] || continue
    mkdir -p "target/gpu-staging/ab/$(basename "$d")" &&
        xz -c "$d/libcudart.so.13" >"target/gpu-staging/ab/$(basename "$d")/libcudart.so.13.xz" &&
        cp "$d/BUILD-INFO" "target/gpu-staging/ab/$(basename "$d")/" || die "the build $d not bundled"
done
{
    echo "bundled=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "nvidia13=nvidia-cuda-runtime 13.0.96"
    echo "nvidia135=nvidia-cuda-runtime 13.5.37 (with its headers in cu135/include)"
    echo "nvidia12=nvidia-cuda-runtime-cu12 12.9.79, headers with nvidia-cuda-nvcc-cu12 12.9.86 crt/"
    echo "wheel=$(basename "$(compgen -G 'target/gpu-staging/wheel/*.whl' | head -n 1)" 2>/dev/null)"
    echo "cu12-clang=$(find target/gpu-staging/cu12-clang -maxdepth 1 -type f -perm -u+x | wc -l) CUDA tests built for 12 ($(head -n 1 target/gpu-staging/cu12-clang/BUILD-INFO 2>/dev/null | sed 's/^compiler=//'))"
} >target/gpu-staging/BUNDLE-INFO || die "BUNDLE-INFO not written"
rm -rf .gpu
mv target/gpu-staging .gpu || die "target/gpu-staging not moved to .gpu"

size=$(du -sm .gpu | cut -f1)
((size < 60)) || die ".gpu is ${size} MiB, over the 60 MiB it must stay under"
echo "gpu-bundle: .gpu/ ready (${size} MiB): carry .gpu and run: bash scripts/gpu/gpu-suite.sh (everything within 8 minutes; to record NVIDIA's outputs: bash scripts/gpu/gpu-check.sh; several GPUs: bash scripts/gpu/gpu-multi.sh; the wheel: bash scripts/gpu/wheel-gpu.sh)"
