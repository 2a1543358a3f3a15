/*
 * cudart-rs: what NVIDIA's crt/host_defines.h defines for a host compiler (gcc, g++, clang):
 * CUDA C++'s qualifiers (__host__, __device__, __global__, ...) as nothing, the alignment and
 * inlining attributes as GCC's, the calling conventions of the API and its callbacks as
 * nothing (they are Windows'). Written for cudart-rs; device compilers are not its business.
 */
#ifndef CUDART_RS_HOST_DEFINES_H
#define CUDART_RS_HOST_DEFINES_H
#ifndef __HOST_DEFINES_H__
#define __HOST_DEFINES_H__
#endif

/* The API's and its callbacks' calling conventions: the platform's own off Windows. */
#ifndef CUDARTAPI
#define CUDARTAPI
#endif
#ifndef CUDARTAPI_CDECL
#define CUDARTAPI_CDECL
#endif
#ifndef CUDART_CB
#define CUDART_CB
#endif
#ifndef __cdecl
#define __cdecl
#endif

/* Where code and data live, to a CUDA compiler; to a host compiler, nowhere in particular. */
#ifndef __annotate__
#define __annotate__(a)
#endif
#ifndef __location__
#define __location__(a) __annotate__(a)
#endif
#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __shared__
#define __shared__
#endif
#ifndef __constant__
#define __constant__
#endif
#ifndef __managed__
#define __managed__
#endif
#ifndef __grid_constant__
#define __grid_constant__
#endif
#ifndef __nv_pure__
#define __nv_pure__
#endif
#ifndef __tile__
#define __tile__
#endif
#ifndef __tile_builtin__
#define __tile_builtin__
#endif
#ifndef __tile_global__
#define __tile_global__
#endif
#ifndef __device_builtin__
#define __device_builtin__
#endif
#ifndef __device_builtin_texture_type__
#define __device_builtin_texture_type__
#endif
#ifndef __device_builtin_surface_type__
#define __device_builtin_surface_type__
#endif
#ifndef __cudart_builtin__
#define __cudart_builtin__
#endif
#ifndef __export__
#define __export__
#endif
#ifndef __import__
#define __import__
#endif
#ifndef __specialization_static
#define __specialization_static
#endif

/* GCC's attributes under CUDA's names. */
#ifndef __align__
#define __align__(n) __attribute__((aligned(n)))
#endif
#ifndef __builtin_align__
#define __builtin_align__(a) __align__(a)
#endif
#ifndef __forceinline__
#define __forceinline__ __inline__ __attribute__((always_inline))
#endif
#ifndef __no_return__
#define __no_return__ __attribute__((noreturn))
#endif
#ifndef __thread__
#define __thread__ __thread
#endif
/* Kernel attributes: a host compiler sees no kernel, and these stay the attributes they are. */
#ifndef __inline_hint__
#define __inline_hint__ __attribute__((nv_inline_hint))
#endif
#ifndef __maxnreg__
#define __maxnreg__(a) __attribute__((maxnreg(a)))
#endif
#ifndef __local_maxnreg__
#define __local_maxnreg__(a) __attribute__((local_maxnreg(a)))
#endif
#ifndef __block_size__
#define __block_size__(...) __attribute__((block_size(__VA_ARGS__)))
#endif
#ifndef __cluster_dims__
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))
#endif

/* Architecture feature tests: no device architecture in host code. */
#ifndef __CUDA_ARCH_HAS_FEATURE__
#define __CUDA_ARCH_HAS_FEATURE__(_FEAT) __CUDA_ARCH_FEAT_##_FEAT
#endif
#ifndef __CUDA_HAS_ARCH_SPECIFIC
#define __CUDA_HAS_ARCH_SPECIFIC(N) 0
#endif
#ifndef __CUDA_HAS_ARCH_FAMILY_SPECIFIC
#define __CUDA_HAS_ARCH_FAMILY_SPECIFIC(N) 0
#endif

#endif
