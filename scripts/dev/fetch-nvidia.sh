#!/usr/bin/env bash
# Fetches NVIDIA's pinned CUDA wheels from PyPI into .cache/nvidia/wheels (skipped when
# already there) and unpacks them:
#   .cache/nvidia/cu13/nvidia/cu13/{include,lib/libcudart.so.13,bin/nvcc}
#   .cache/nvidia/cu135/nvidia/cu13/{include,lib/libcudart.so.13}   (13.5: the newest runtime)
#   .cache/nvidia/cu12/nvidia/cuda_runtime/{include,lib/libcudart.so.12}
#   .cache/nvidia/cu12/nvidia/cuda_nvcc/include/crt
# With --cu12-clang, also what scripts/gpu/cu12-build.sh needs to build the CUDA tests for the 12
# ABI with clang (NVIDIA's CUDA 12 CCCL headers: libcu++, which cooperative_groups.h and
# cuda_fp16.h include):
#   .cache/nvidia/cu12/nvidia/cuda_cccl/include/{cuda,nv}
# Idempotent and quiet; any failure stops it with a message.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

cache=${CUDART_RS_NVIDIA_CACHE:-$root/.cache/nvidia}
wheels=$cache/wheels

# requirement  unpack-into
pins=(
    "nvidia-cuda-runtime==13.0.96     cu13"
    "nvidia-cuda-nvcc==13.0.88        cu13"
    "nvidia-nvvm==13.0.88             cu13"
    "nvidia-cuda-crt==13.0.88         cu13"
    "nvidia-cuda-cccl==13.0.85        cu13"
    "nvidia-cuda-runtime==13.5.37     cu135"
    "nvidia-cuda-runtime-cu12==12.9.79 cu12"
    "nvidia-cuda-nvcc-cu12==12.9.86   cu12"
)
case ${1:-} in
    --cu12-clang) pins+=("nvidia-cuda-cccl-cu12==12.9.27   cu12") ;;
    "") ;;
    *) header_usage ;;
esac

# nvidia-cuda-runtime-cu12==12.9.79 -> nvidia_cuda_runtime_cu12-12.9.79 (wheel file stem)
stem() {
    local name=${1%%==*} version=${1##*==}
    echo "${name//-/_}-$version"
}

wheel_of() { compgen -G "$wheels/$(stem "$1")-*.whl" | head -n 1 || true; }

python=$(command -v python3 || command -v python || true)

mkdir -p "$wheels" || die "cannot make $wheels"
missing=()
for p in "${pins[@]}"; do
    read -r req _ <<<"$p"
    [[ -n $(wheel_of "$req") ]] || missing+=("$req")
done

if ((${#missing[@]})); then
    [[ -n $python ]] || die "python3 is needed to download ${missing[*]}"
    echo "fetch-nvidia: downloading ${missing[*]}"
    # One requirement per pip call: two versions of one distribution (the 13.0 and 13.5
    # runtimes) in one call are a conflict to pip's resolver, even with --no-deps.
    for req in "${missing[@]}"; do
        "$python" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
            --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 \
            --platform manylinux_2_17_x86_64 --platform manylinux_2_27_x86_64 \
            --python-version 3.11 "$req" -d "$wheels" \
            || die "pip download failed for $req"
    done
    for req in "${missing[@]}"; do
        [[ -n $(wheel_of "$req") ]] || die "no wheel for $req in $wheels after download"
    done
fi

unpack() { # wheel dir
    if command -v unzip >/dev/null; then
        unzip -qo "$1" -d "$2"
    else
        [[ -n $python ]] || die "need unzip or python3 to unpack $1"
        # zipfile drops the mode bits; put them back (nvcc, ptxas, ... are executables).
        "$python" - "$1" "$2" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for info in z.infolist():
        path = z.extract(info, sys.argv[2])
        mode = (info.external_attr >> 16) & 0o777
        if mode:
            os.chmod(path, mode)
PY
    fi
}

for p in "${pins[@]}"; do
    read -r req dir <<<"$p"
    whl=$(wheel_of "$req")
    # A stamp, written once the whole wheel is out, marks it unpacked.
    info="$cache/$dir/$(stem "$req").dist-info"
    stamp="$cache/$dir/.unpacked-$(basename "$whl")"
    [[ -f $stamp ]] && continue
    mkdir -p "$cache/$dir" && unpack "$whl" "$cache/$dir" || die "could not unpack $whl"
    [[ -f $info/RECORD ]] || die "$whl did not unpack to $info"
    touch "$stamp" || die "cannot write $stamp"
done

for f in cu13/nvidia/cu13/lib/libcudart.so.13 cu13/nvidia/cu13/include/cuda_runtime_api.h \
         cu135/nvidia/cu13/lib/libcudart.so.13 cu135/nvidia/cu13/include/cuda_runtime_api.h \
         cu13/nvidia/cu13/bin/nvcc cu12/nvidia/cuda_runtime/lib/libcudart.so.12 \
         cu12/nvidia/cuda_runtime/include/cuda_runtime_api.h \
         cu12/nvidia/cuda_nvcc/include/crt/host_defines.h; do
    [[ -e $cache/$f ]] || die "missing $cache/$f after unpacking"
done
if [[ ${1:-} == --cu12-clang ]]; then
    [[ -e $cache/cu12/nvidia/cuda_cccl/include/nv/target ]] || die "missing $cache/cu12/nvidia/cuda_cccl/include/nv/target after unpacking"
fi
