#!/usr/bin/env bash
# Shows that each ABI check fails when the thing it guards is broken: every case mutates a
# scratch copy of the header or builds a scratch library, runs scripts/test/abi/check.py on it and
# expects a FAIL line with the given text. Nothing in src/ or include/ is touched.
#   bash scripts/test/abi/selftest.sh [path to our generated header]   (default include/)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../lib.sh"
cd "$root"
hdr=${1:-include/cuda_runtime_api.h}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0

# case NAME EXPECTED-REGEX -- check.py arguments
case_() {
    local name=$1 want=$2; shift 3
    local out
    out=$(python3 scripts/test/abi/check.py "$@" 2>&1)
    local rc=$?
    if [ $rc -ne 0 ] && grep -qE "$want" <<<"$out"; then
        echo "ok   $name: $(grep -E "$want" <<<"$out" | head -1 | sed 's/^ *//')"
    else
        echo "BAD  $name: rc=$rc, no line matching /$want/"; echo "$out" | sed 's/^/     /'; bad=1
    fi
}

# mutate NAME SED-EXPR [FILE...]: a scratch copy of the header set with one edit, in the first
# of the files (default: the generated declarations) it changes something in
hdir=$(dirname "$hdr")
mutate() {
    local d=$tmp/$1 expr=$2 f
    shift 2
    (($#)) || set -- cuda_runtime_api.h driver_types.h texture_types.h surface_types.h
    mkdir -p "$d" && cp -r "$hdir/." "$d/"
    for f in "$@"; do
        sed -E "$expr" "$hdir/$f" >"$d/$f.new"
        if ! cmp -s "$hdir/$f" "$d/$f.new"; then mv "$d/$f.new" "$d/$f"; return 0; fi
        rm -f "$d/$f.new"
    done
    echo "BAD  ${d##*/}: the edit matched nothing in $hdir ($*)"; bad=1; return 1
}

# Layout: a field's type (same size, other signedness), a field's width, an enum constant,
# a #define's value, a typedef's target, an enum we declare with a constant NVIDIA lacks,
# a #define that names a type, an array NVIDIA sizes with sizeof, a field of an anonymous union.
mutate field_sign '0,/^    unsigned int width;/s//    int width;/' &&
    case_ "field type (unsigned int -> int)" 'width type: ours int' -- --abi 13 --only layout --header "$tmp/field_sign/cuda_runtime_api.h"
mutate field_width '0,/^    unsigned int width;/s//    unsigned long long width;/' &&
    case_ "field width (offsets move)" 'FAIL layout-C .*|offsetof: ours' -- --abi 13 --only layout --header "$tmp/field_width/cuda_runtime_api.h"
mutate enum_value 's/cudaErrorInvalidValue = 1,/cudaErrorInvalidValue = 2,/' &&
    case_ "enum constant value" 'cudaErrorInvalidValue value: ours 2, NVIDIA 1' -- --abi 13 --only layout --header "$tmp/enum_value/cuda_runtime_api.h"
mutate function_alias 's/^#define cudaGetDeviceProperties cudaGetDeviceProperties_v2$/#define cudaGetDeviceProperties cudaChooseDevice/' &&
    case_ "a function's other name" 'cudaGetDeviceProperties expands to: ours cudaChooseDevice, NVIDIA cudaGetDeviceProperties_v2' -- --abi 12 --only layout --header "$tmp/function_alias/cuda_runtime_api.h"
mutate enum_extra 's/cudaErrorInvalidValue = 1,/cudaErrorInvalidValue = 1, cudaErrorNotNvidias = 12345,/' &&
    case_ "enum constant NVIDIA lacks" 'cudaErrorNotNvidias.*not in NVIDIA' -- --abi 13 --only layout --header "$tmp/enum_extra/cuda_runtime_api.h"
mutate enum_missing '/^ *cudaErrorInvalidPitchValue = 12,/d' &&
    case_ "enum lacks a constant" 'lacks 1 constant.*cudaErrorInvalidPitchValue' -- --abi 13 --only layout --header "$tmp/enum_missing/cuda_runtime_api.h"
mutate define_value 's/^#define cudaStreamNonBlocking 1$/#define cudaStreamNonBlocking 2/' &&
    case_ "#define value" 'cudaStreamNonBlocking value: ours 2, NVIDIA 1' -- --abi 13 --only layout --header "$tmp/define_value/cuda_runtime_api.h"
mutate typedef_target 's/^typedef struct CUstream_st \*cudaStream_t;/typedef struct CUevent_st *cudaStream_t;/' &&
    case_ "typedef target" 'typedef cudaStream_t type: ours CUevent_st' -- --abi 13 --only layout --header "$tmp/typedef_target/cuda_runtime_api.h"
mutate define_type 's/^#define cudaStreamAttrValue cudaLaunchAttributeValue$/#define cudaStreamAttrValue cudaLaunchAttribute/' &&
    case_ "#define naming a type" 'cudaStreamAttrValue type: ours cudaLaunchAttribute_st' -- --abi 13 --only layout --header "$tmp/define_type/cuda_runtime_api.h"
mutate array_bound 's/^    char pad\[4\];$/    char pad[5];/' &&
    case_ "array bound NVIDIA writes with sizeof" 'cudaLaunchAttribute_st.pad sizeof: ours 5, NVIDIA 4' -- --abi 12 --only layout --header "$tmp/array_bound/cuda_runtime_api.h"
mutate anonymous_member 's/^        long long reserved1\[29\];$/        long long reserved1[30];/' &&
    case_ "field of an anonymous union" 'cudaGraphNodeParams.reserved1 sizeof: ours 240, NVIDIA 232' -- --abi 13 --only layout --header "$tmp/anonymous_member/cuda_runtime_api.h"

# The rest of the header set: a vector type's alignment, a C++ default argument, a macro of
# host_defines.h, a header that does not compile alone, a device-only header that compiles.
mutate vector_align 's/^struct __attribute__\(\(aligned\(16\)\)\) float4 \{/struct __attribute__((aligned(8))) float4 {/' vector_types.h &&
    case_ "vector type alignment" 'struct float4 alignof: ours 8, NVIDIA 16' -- --abi 13 --only layout --header "$tmp/vector_align/cuda_runtime_api.h"
mutate default_arg 's/^(cudaError_t cudaEventRecord\(cudaEvent_t event, cudaStream_t stream) __dv\(0\)\);/\1);/' &&
    case_ "C++ default argument" "cudaEventRecord: NVIDIA's defaults .1: '0'., ours none" -- --abi 12 --only headers --header "$tmp/default_arg/cuda_runtime_api.h"
mutate host_macro 's/^#define __forceinline__ __inline__ __attribute__\(\(always_inline\)\)$/#define __forceinline__ __inline__/' crt/host_defines.h &&
    case_ "host_defines.h macro" "__forceinline__: ours expands to '__inline__'" -- --abi 13 --only headers --header "$tmp/host_macro/cuda_runtime_api.h"
mutate not_alone 's/^#include "builtin_types.h"$//' cuda_runtime_api.h &&
    case_ "header that does not compile alone" 'cuda_runtime_api.h \(gcc C\)' -- --abi 13 --only headers --header "$tmp/not_alone/cuda_runtime_api.h"
mutate device_compiles 's/^#error .*$//' cuda_fp16.h &&
    case_ "device-only header without its #error" 'cuda_fp16.h \(gcc C\): want one #error' -- --abi 12 --only headers --header "$tmp/device_compiles/cuda_runtime_api.h"

# Signatures: a parameter type, a return type, a function NVIDIA does not declare.
mutate sig_param 's/^cudaError_t cudaSetDevice\(int device\);/cudaError_t cudaSetDevice(unsigned int device);/' &&
    case_ "parameter type" 'cudaSetDevice: differs' -- --abi 13 --only signatures --header "$tmp/sig_param/cuda_runtime_api.h"
mutate sig_ret 's/^cudaError_t cudaGetDeviceCount\(/int cudaGetDeviceCount(/' &&
    case_ "return type" 'cudaGetDeviceCount: differs' -- --abi 12 --only signatures --header "$tmp/sig_ret/cuda_runtime_api.h"
mutate sig_extra 's/^cudaError_t cudaSetDevice\(int device\);/cudaError_t cudaSetDevice(int device);\ncudaError_t cudaNotNvidias(int device);/' &&
    case_ "function NVIDIA lacks" 'cudaNotNvidias: not declared' -- --abi 13 --only signatures --header "$tmp/sig_extra/cuda_runtime_api.h"

# The interop headers (checked with the main header when they lie next to it): an EGL enum
# constant, an EGL struct field, an OpenGL and a VDPAU parameter type.
# mutate_interop NAME FILE SED-EXPR: scratch copy of every header with one edit in FILE
mutate_interop() {
    local d=$tmp/$1 src
    src=$(dirname "$hdr")
    mkdir -p "$d"
    cp -r "$src/." "$d/"
    for f in cuda_gl_interop.h cuda_egl_interop.h cuda_vdpau_interop.h; do
        [ -f "$src/$f" ] || { echo "BAD  $1: no $src/$f"; bad=1; return 1; }
    done
    sed -E -i "$3" "$d/$2"
    if cmp -s "$src/$2" "$d/$2"; then echo "BAD  $1: the edit matched nothing in $src/$2"; bad=1; return 1; fi
}
mutate_interop egl_enum cuda_egl_interop.h 's/cudaEglColorFormatARGB = 6,/cudaEglColorFormatARGB = 5,/' &&
    case_ "EGL enum constant" 'cudaEglColorFormatARGB value: ours 5, NVIDIA 6' -- --abi 13 --only layout --header "$tmp/egl_enum/cuda_runtime_api.h"
mutate_interop egl_field cuda_egl_interop.h '/cudaEglPlaneDesc_st \{/,/\}/s/^    unsigned int pitch;/    unsigned long long pitch;/' &&
    case_ "EGL struct field" 'cudaEglPlaneDesc_st.pitch (sizeof|type)' -- --abi 12 --only layout --header "$tmp/egl_field/cuda_runtime_api.h"
mutate_interop gl_param cuda_gl_interop.h 's/^cudaError_t cudaGLSetGLDevice\(int device\);/cudaError_t cudaGLSetGLDevice(unsigned int device);/' &&
    case_ "OpenGL parameter type" 'cudaGLSetGLDevice: differs' -- --abi 13 --only signatures --header "$tmp/gl_param/cuda_runtime_api.h"
mutate_interop vdpau_param cuda_vdpau_interop.h 's/^cudaError_t cudaVDPAUGetDevice\(int \*device,/cudaError_t cudaVDPAUGetDevice(unsigned int *device,/' &&
    case_ "VDPAU parameter type" 'cudaVDPAUGetDevice: differs' -- --abi 12 --only signatures --header "$tmp/vdpau_param/cuda_runtime_api.h"

# Symbols: a scratch library with an unversioned export, a leaked internal symbol, an export
# NVIDIA's library lacks, the wrong SONAME, and an export list that names a missing symbol.
cat >"$tmp/fake.c" <<'C'
int cudaGetDeviceCount(int *c) { *c = 0; return 0; }
int cudaDriverGetVersion(int *v) { *v = 0; return 0; }
int cudaNotNvidias(void) { return 0; }
int rust_begin_unwind(void) { return 0; }
C
echo 'libcudart.so.13 { global: cuda*; rust*; local: *; };' >"$tmp/fake.map"
gcc -shared -fPIC -o "$tmp/libfake.so" "$tmp/fake.c" -Wl,-soname,libcudart.so.12 -Wl,--version-script,"$tmp/fake.map"
printf 'cudaGetDeviceCount\ncudaDriverGetVersion\ncudaNotNvidias\ncudaMalloc\n' >"$tmp/exports.txt"
printf 'int cudaGetDeviceCount(int *c);\n' >"$tmp/mini.h"
case_ "SONAME" 'SONAME libcudart.so.12, NVIDIA.s libcudart.so.13' -- --abi 13 --only symbols --header "$tmp/mini.h" --lib "$tmp/libfake.so" --dist "$tmp/dist"
case_ "internal symbol leaks" 'rust_begin_unwind: internal symbol exported' -- --abi 13 --only symbols --header "$tmp/mini.h" --lib "$tmp/libfake.so" --dist "$tmp/dist"
case_ "export NVIDIA lacks" 'cudaNotNvidias: exported, but NVIDIA' -- --abi 13 --only symbols --header "$tmp/mini.h" --lib "$tmp/libfake.so" --dist "$tmp/dist"
case_ "exports.txt names a missing export" 'cudaMalloc: in .* but not exported' -- --abi 13 --only symbols --header "$tmp/mini.h" --lib "$tmp/libfake.so" --exports "$tmp/exports.txt" --dist "$tmp/dist"
gcc -shared -fPIC -o "$tmp/libnover.so" "$tmp/fake.c" -Wl,-soname,libcudart.so.13 2>/dev/null
case_ "export without version node" "version '\(none\)'" -- --abi 13 --only symbols --header "$tmp/mini.h" --lib "$tmp/libnover.so" --dist "$tmp/dist"

echo 'libcudart.so.13 { global: cudaGetDeviceCount; };' >"$tmp/base.map"
gcc -shared -fPIC -o "$tmp/libbase.so" "$tmp/fake.c" -Wl,-soname,libcudart.so.13 -Wl,--version-script,"$tmp/base.map"
case_ "export at the base version" "cudaDriverGetVersion: version '\(none\)'" -- --abi 13 --only symbols --header "$tmp/mini.h" --lib "$tmp/libbase.so" --dist "$tmp/dist"

# The exports NVIDIA lacks (NOT_NVIDIAS): one that computes something else than NVIDIA's
# inline definition, one the library lacks, and one our header declares instead of defining
# it static inline.
cat >"$tmp/make.c" <<'C'
#include <stddef.h>
struct pos { size_t x, y, z; };
struct pos make_cudaPos(size_t x, size_t y, size_t z) { struct pos p = { z, y, x }; return p; }
int cudaGetDeviceCount(int *c) { *c = 0; return 0; }
C
echo 'libcudart.so.13 { global: cuda*; make_*; local: *; };' >"$tmp/make.map"
gcc -shared -fPIC -o "$tmp/libmake.so" "$tmp/make.c" -Wl,-soname,libcudart.so.13 -Wl,--version-script,"$tmp/make.map"
case_ "make_* export computes something else" 'make_cudaPos\(1, 18446744073709551615, 0\) returned' -- --abi 13 --only symbols --header "$hdr" --lib "$tmp/libmake.so" --dist "$tmp/dist"
case_ "make_* export missing" 'make_cudaExtent: not exported' -- --abi 13 --only symbols --header "$hdr" --lib "$tmp/libmake.so" --dist "$tmp/dist"
mutate make_declared 's/^(cudaError_t cudaMalloc\(void \*\*devPtr, size_t size\);)$/\1\nstruct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d);/' &&
    case_ "make_* declared by the header" 'make_cudaExtent: declared by our header' -- --abi 13 --only symbols --header "$tmp/make_declared/cuda_runtime_api.h" --lib "$tmp/libmake.so" --dist "$tmp/dist"

# nvcc link: the scratch library lacks nearly everything the program needs.
case_ "nvcc link" 'FAIL nvcc-link.*|lacks [0-9]+ registration' -- --abi 13 --only nvcc-link --lib "$tmp/libfake.so"

[ $bad = 0 ] && echo "selftest: every case failed as it should" || echo "selftest: FAILED"
exit $bad
