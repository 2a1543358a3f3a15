#!/usr/bin/env bash
# Builds the CUDA tests (ctest/*.cu) for the CUDA 12 ABI with clang, here, for the GPU machine
# (which has nvcc 13 only; there is no nvcc 12 on PyPI). Each test becomes a program linked
# to NVIDIA's libcudart.so.12 (DT_NEEDED libcudart.so.12, no RPATH), which registers its fat
# binary through the CUDA 12 entry points (__cudaRegisterFatBinary, ...) and calls the
# CUDA 12 API names; scripts/test/ctest.sh --gpu runs it under NVIDIA's runtime and ours.
#
#   scripts/gpu/cu12-build.sh [--out DIR] [--only a,b]      (DIR: target/cu12-clang)
#
# DIR gets, per test: NAME (the program) and NAME.log (the commands and what they printed);
# for a test that could not be built, no program and NAME.skip (one line: why); and
# BUILD-INFO (the compiler and CUDA versions). Exit status 1 when a test failed to build.
#
# What it uses (CLANG: clang++-19, as Debian 12 ships it; the rest from scripts/dev/fetch-nvidia.sh
# --cu12-clang): NVIDIA's CUDA 12.9 headers (the runtime's, crt/ and the CCCL's), libdevice
# and ptxas of nvcc 12.9, and CUDA 13's fatbinary, through a wrapper that turns clang's
# `--image=profile=sm_90,file=F` into `--image3=kind=elf,sm=90,file=F` (and compute_90 into
# kind=ptx). clang compiles the device code for sm_90 (the H100) with PTX for it.
#
# What clang does not do as nvcc does, and how the tests deal with it (ctest/README.md):
#   - no __managed__ variables: the tests keep those parts under `#ifndef CT_CLANG_CUDA`;
#   - no surface functions (surf2Dwrite, ...): ctest/clang_surface.h has them;
#   - `nvcc-flags=--default-stream per-thread` is -DCUDA_API_PER_THREAD_DEFAULT_STREAM (the
#     API calls go to their _ptds/_ptsz exports, as with nvcc), and, since clang's launch
#     stubs call cudaLaunchKernel by name whatever the default stream, the host objects'
#     references to cudaLaunchKernel are renamed to cudaLaunchKernel_ptsz (objcopy), which
#     is what nvcc's stubs call in that mode. Other nvcc flags are refused.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

out=target/cu12-clang
only=
while (($#)); do
    case $1 in
        --out) out=${2:?}; shift ;;
        --only) only=,${2:?},; shift ;;
        *) header_usage ;;
    esac
    shift
done
clang=${CLANG:-clang++-19}
tdir=ctest
work=target/cu12-clang-work
mkdir -p "$out" && out=$(cd "$out" && pwd) || die "cannot make $out"

# skip_all REASON: no test can be built; each gets NAME.skip with the reason.
skip_all() {
    local f n
    for f in "$tdir"/*.cu; do
        n=$(basename "$f" .cu)
        [[ -z $only || $only == *",$n,"* ]] || continue
        rm -f "$out/$n" "$out/$n.log"
        echo "$1" >"$out/$n.skip"
    done
    echo "cu12-build: $1" >&2
    exit 1
}

command -v "$clang" >/dev/null || skip_all "not built for the 12 ABI: no $clang where the bundle was made (apt-get install clang-19)"
command -v objcopy >/dev/null || skip_all "not built for the 12 ABI: no objcopy where the bundle was made"
bash scripts/dev/fetch-nvidia.sh --cu12-clang || skip_all "not built for the 12 ABI: scripts/dev/fetch-nvidia.sh --cu12-clang failed"
nv=${CUDART_RS_NVIDIA_CACHE:-$root/.cache/nvidia}
cu12=$nv/cu12/nvidia
cu13=$nv/cu13/nvidia/cu13

# The CUDA installation clang is given (--cuda-path): include/, nvvm/libdevice/, bin/ptxas,
# bin/fatbinary; and lib/libcudart.so for -lcudart.
cuda=$work/cuda
rm -rf "$work"
{
    mkdir -p "$cuda/include" "$cuda/bin" "$cuda/nvvm/libdevice" "$work/lib" &&
        cp -a "$cu12/cuda_runtime/include/." "$cuda/include/" &&
        cp -a "$cu12/cuda_nvcc/include/crt" "$cuda/include/" &&
        cp -a "$cu12/cuda_cccl/include/cuda" "$cu12/cuda_cccl/include/nv" "$cuda/include/" &&
        # clang's CUDA wrapper header includes it (nvcc's curand kernels); no test uses curand.
        : >"$cuda/include/curand_mtgp32_kernel.h" &&
        ln -s "$cu12/cuda_nvcc/nvvm/libdevice/libdevice.10.bc" "$cuda/nvvm/libdevice/" &&
        ln -s "$cu12/cuda_nvcc/bin/ptxas" "$cuda/bin/ptxas"
} || skip_all "not built for the 12 ABI: the CUDA 12 installation for clang could not be laid out"
cat >"$cuda/bin/fatbinary" <<EOF
#!/usr/bin/env bash
# clang's fatbinary command line, for CUDA 13's fatbinary (which knows --image3 only).
args=()
for a in "\$@"; do
    case \$a in
        --image=profile=sm_*,file=*) p=\${a#--image=profile=sm_}; args+=("--image3=kind=elf,sm=\${p%%,*},file=\${a#*,file=}") ;;
        --image=profile=compute_*,file=*) p=\${a#--image=profile=compute_}; args+=("--image3=kind=ptx,sm=\${p%%,*},file=\${a#*,file=}") ;;
        --image=*) echo "fatbinary wrapper: cannot translate \$a" >&2; exit 1 ;;
        *) args+=("\$a") ;;
    esac
done
exec "$cu13/bin/fatbinary" "\${args[@]}"
EOF
chmod +x "$cuda/bin/fatbinary" && ln -s "$cu12/cuda_runtime/lib/libcudart.so.12" "$work/lib/libcudart.so" ||
    skip_all "not built for the 12 ABI: the CUDA 12 installation for clang could not be laid out"

{
    echo "compiler=$("$clang" --version | head -n 1)"
    echo "headers=nvidia-cuda-runtime-cu12 12.9.79, nvidia-cuda-nvcc-cu12 12.9.86 (crt, libdevice, ptxas), nvidia-cuda-cccl-cu12 12.9.27"
    echo "ptxas=$("$cuda/bin/ptxas" --version | grep -o 'V[0-9][0-9.]*' | head -n 1)"
    echo "fatbinary=nvidia-cuda-nvcc 13.0.88"
    echo "arch=sm_90"
    echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$out/BUILD-INFO"

# The marker line of a test and a key's value on it (as scripts/test/ctest.sh reads them).
marker_line() {
    head -n 30 "$1" | grep -m 1 -E 'ctest:' | sed -E 's/.*ctest:[[:space:]]*//; s#[[:space:]]*\*/.*##'
}
marker_value() {
    marker_line "$1" | sed -nE "s/.*(^|[[:space:]])$2=//p" | sed -E 's/[[:space:]]+[a-z0-9-]+=.*//'
}

cflags=(-x cuda --cuda-path="$cuda" --cuda-gpu-arch=sm_90 -std=c++17 -O1
        -Wno-unknown-cuda-version -D_CG_CLUSTER_INTRINSICS_AVAILABLE -I"$tdir" -I"$tdir/syshdr")
# libstdc++ and libgcc linked in, so that the program needs no newer libstdc++ than the GPU
# machine's.
ldflags=(-static-libstdc++ -static-libgcc -L"$work/lib" -lcudart -ldl -lpthread -lrt)

# build SRC NAME LOG: compiles each source to an object, renames what the per-thread mode
# needs, links; returns non-zero (with the reason in $why) on failure.
build() {
    local src=$1 name=$2 log=$3 extra_src=() nvflags=() defs=() ptsz=0 s o objs=() f
    IFS=, read -r -a extra_src <<<"$(marker_value "$src" nvcc-extra-sources)"
    read -r -a nvflags <<<"$(marker_value "$src" nvcc-flags)"
    for ((f = 0; f < ${#nvflags[@]}; f++)); do
        case ${nvflags[f]} in
            --default-stream)
                [[ ${nvflags[f + 1]:-} == per-thread ]] || { why="nvcc flag --default-stream ${nvflags[f + 1]:-} has no clang equivalent here"; return 1; }
                defs+=(-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1); ptsz=1; f=$((f + 1)) ;;
            *) why="nvcc flag ${nvflags[f]} has no clang equivalent here"; return 1 ;;
        esac
    done
    for s in "$src" "${extra_src[@]}"; do
        o=$work/obj/$name.$(basename "$s" .cu).o
        mkdir -p "$work/obj"
        echo "+ $clang ${cflags[*]} ${defs[*]} -c $s -o $o" >>"$log"
        "$clang" "${cflags[@]}" "${defs[@]}" -c "$s" -o "$o" >>"$log" 2>&1 || { why="compile of $s failed (see $name.log)"; return 1; }
        if ((ptsz)); then
            echo "+ objcopy --redefine-sym cudaLaunchKernel=cudaLaunchKernel_ptsz $o" >>"$log"
            objcopy --redefine-sym cudaLaunchKernel=cudaLaunchKernel_ptsz "$o" >>"$log" 2>&1 || { why="objcopy of $o failed"; return 1; }
        fi
        objs+=("$o")
    done
    echo "+ $clang ${objs[*]} -o $out/$name ${ldflags[*]}" >>"$log"
    "$clang" "${objs[@]}" -o "$out/$name" "${ldflags[@]}" >>"$log" 2>&1 || { why="link failed (see $name.log)"; return 1; }
    # What it must be: linked to libcudart.so.12, found through the loader's search path.
    if ! readelf -d "$out/$name" | grep -q 'NEEDED.*\[libcudart\.so\.12\]' || readelf -d "$out/$name" | grep -Eq 'RPATH|RUNPATH'; then
        why="the program does not need libcudart.so.12, or has an RPATH"; return 1
    fi
    echo "+ imports from libcudart.so.12:" >>"$log"
    nm -D --undefined-only "$out/$name" | awk '/@libcudart\.so\.12/ { sub(/@.*/, "", $2); print "  " $2 }' >>"$log"
    return 0
}

built=0 failed=0
failed_names=()
for src in "$tdir"/*.cu; do
    name=$(basename "$src" .cu)
    [[ -z $only || $only == *",$name,"* ]] || continue
    rm -f "$out/$name" "$out/$name.skip"
    log=$out/$name.log
    : >"$log"
    why=
    case " $(marker_line "$src") " in
        *" abi13 "*) why="a test of functions CUDA 12 does not have (marker abi13)" ;;
        *" cupti "*) why="uses CUPTI, whose 12 headers and library this build does not have" ;;
    esac
    if [[ -n $why ]]; then
        echo "not built for the 12 ABI: $why" >"$out/$name.skip"
        continue
    fi
    if build "$src" "$name" "$log"; then
        built=$((built + 1))
    else
        rm -f "$out/$name"
        echo "not built for the 12 ABI: $why" >"$out/$name.skip"
        failed=$((failed + 1))
        failed_names+=("$name")
        echo "cu12-build: $name: $why" >&2
    fi
done
echo "cu12-build: $built built into $out, $failed not built${failed_names[*]:+: ${failed_names[*]}}"
((failed == 0))
