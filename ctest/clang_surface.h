/*
 * clang_surface.h: the surface functions the CUDA tests use, for clang builds (CT_CLANG_CUDA,
 * scripts/gpu/cu12-build.sh): clang's CUDA headers have none. Each is the PTX instruction nvcc
 * makes of NVIDIA's own (surface_indirect_functions.h, CUDA 12.9): sust.b/suld.b with the
 * byte offset x, the boundary mode chosen at run time (nothing is done for a mode other than
 * zero, clamp and trap, as in nvcc's code), the 3D, layered and cubemap forms with the
 * coordinates nvcc gives them (cubemaps are 2D layered, the face or layer-face the layer).
 * Only the element types the tests use: float, int and uchar4.
 */
#ifndef CUDART_RS_CLANG_SURFACE_H
#define CUDART_RS_CLANG_SURFACE_H

#ifdef CT_CLANG_CUDA

/* Runs ASM(mode suffix) for the boundary mode `mode`. */
#define CT_SURF_MODE(mode, ASM)                                                           \
    do {                                                                                  \
        if ((mode) == cudaBoundaryModeTrap)                                               \
            ASM("trap");                                                                  \
        else if ((mode) == cudaBoundaryModeClamp)                                         \
            ASM("clamp");                                                                 \
        else if ((mode) == cudaBoundaryModeZero)                                          \
            ASM("zero");                                                                  \
    } while (0)

static __device__ __forceinline__ unsigned ct_surf_bits(float v) { return __float_as_uint(v); }
static __device__ __forceinline__ unsigned ct_surf_bits(int v) { return (unsigned)v; }

template <typename T>
static __device__ void surf1Dwrite(T v, cudaSurfaceObject_t s, int x,
                                   cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
    unsigned b = ct_surf_bits(v);
#define CT_A(m) asm volatile("sust.b.1d.b32." m " [%0, {%1}], {%2};" ::"l"(s), "r"(x), "r"(b) : "memory")
    CT_SURF_MODE(mode, CT_A);
#undef CT_A
}

template <typename T>
static __device__ void surf2Dwrite(T v, cudaSurfaceObject_t s, int x, int y,
                                   cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
    unsigned b = ct_surf_bits(v);
#define CT_A(m) asm volatile("sust.b.2d.b32." m " [%0, {%1, %2}], {%3};" ::"l"(s), "r"(x), "r"(y), "r"(b) : "memory")
    CT_SURF_MODE(mode, CT_A);
#undef CT_A
}

static __device__ void surf2Dwrite(uchar4 v, cudaSurfaceObject_t s, int x, int y,
                                   cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
    unsigned short a = v.x, b = v.y, c = v.z, d = v.w;
#define CT_A(m)                                                                           \
    asm volatile("sust.b.2d.v4.b8." m " [%0, {%1, %2}], {%3, %4, %5, %6};" ::"l"(s), "r"(x), "r"(y), \
                 "h"(a), "h"(b), "h"(c), "h"(d)                                           \
                 : "memory")
    CT_SURF_MODE(mode, CT_A);
#undef CT_A
}

template <typename T>
static __device__ void surf3Dwrite(T v, cudaSurfaceObject_t s, int x, int y, int z,
                                   cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
    unsigned b = ct_surf_bits(v);
#define CT_A(m)                                                                           \
    asm volatile("sust.b.3d.b32." m " [%0, {%1, %2, %3, %3}], {%4};" ::"l"(s), "r"(x), "r"(y), "r"(z), "r"(b) \
                 : "memory")
    CT_SURF_MODE(mode, CT_A);
#undef CT_A
}

template <typename T>
static __device__ void surf1DLayeredwrite(T v, cudaSurfaceObject_t s, int x, int layer,
                                          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
    unsigned b = ct_surf_bits(v);
#define CT_A(m) asm volatile("sust.b.a1d.b32." m " [%0, {%1, %2}], {%3};" ::"l"(s), "r"(layer), "r"(x), "r"(b) : "memory")
    CT_SURF_MODE(mode, CT_A);
#undef CT_A
}

template <typename T>
static __device__ void surf2DLayeredwrite(T v, cudaSurfaceObject_t s, int x, int y, int layer,
                                          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
    unsigned b = ct_surf_bits(v);
#define CT_A(m)                                                                           \
    asm volatile("sust.b.a2d.b32." m " [%0, {%1, %2, %3, %3}], {%4};" ::"l"(s), "r"(layer), "r"(x), "r"(y), "r"(b) \
                 : "memory")
    CT_SURF_MODE(mode, CT_A);
#undef CT_A
}

template <typename T>
static __device__ void surfCubemapwrite(T v, cudaSurfaceObject_t s, int x, int y, int face,
                                        cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
    surf2DLayeredwrite(v, s, x, y, face, mode);
}

template <typename T>
static __device__ void surfCubemapLayeredwrite(T v, cudaSurfaceObject_t s, int x, int y, int layerFace,
                                               cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
    surf2DLayeredwrite(v, s, x, y, layerFace, mode);
}

/* surf2Dread<float> (a mode nvcc's code does nothing for leaves the result undefined; 0 here). */
template <typename T> static __device__ T surf2Dread(cudaSurfaceObject_t s, int x, int y,
                                                      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
template <>
__device__ float surf2Dread<float>(cudaSurfaceObject_t s, int x, int y, cudaSurfaceBoundaryMode mode) {
    unsigned b = 0;
#define CT_A(m) asm volatile("suld.b.2d.b32." m " {%0}, [%1, {%2, %3}];" : "=r"(b) : "l"(s), "r"(x), "r"(y) : "memory")
    CT_SURF_MODE(mode, CT_A);
#undef CT_A
    return __uint_as_float(b);
}

#undef CT_SURF_MODE

#endif /* CT_CLANG_CUDA */
#endif
