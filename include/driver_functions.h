/*
 * cudart-rs: make_cudaPitchedPtr, make_cudaPos and make_cudaExtent, static inline as NVIDIA's
 * driver_functions.h defines them (the library exports them too, for programs that bind it
 * without a C compiler; a program built with this header uses these).
 */
#ifndef CUDART_RS_DRIVER_FUNCTIONS_H
#define CUDART_RS_DRIVER_FUNCTIONS_H
#ifndef __DRIVER_FUNCTIONS_H__
#define __DRIVER_FUNCTIONS_H__
#endif
#include "builtin_types.h"
#include "crt/host_defines.h"

/** A cudaPitchedPtr of pointer d, pitch p, and xsz by ysz logical elements. */
static __inline__ struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz)
{
    struct cudaPitchedPtr r;
    r.ptr = d;
    r.pitch = p;
    r.xsize = xsz;
    r.ysize = ysz;
    return r;
}

/** The position (x, y, z). */
static __inline__ struct cudaPos make_cudaPos(size_t x, size_t y, size_t z)
{
    struct cudaPos r;
    r.x = x;
    r.y = y;
    r.z = z;
    return r;
}

/** The extent w by h by d. */
static __inline__ struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d)
{
    struct cudaExtent r;
    r.width = w;
    r.height = h;
    r.depth = d;
    return r;
}

#endif
