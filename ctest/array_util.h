/* What the array tests share: printing an array's description. */
#ifndef CUDART_RS_ARRAY_UTIL_H
#define CUDART_RS_ARRAY_UTIL_H

#include "ctest.h"

/* Prints cudaArrayGetInfo of `a` field by field. */
static void show_info(const char *label, cudaArray_t a) {
    struct cudaChannelFormatDesc d;
    struct cudaExtent e;
    unsigned int fl = 12345;
    memset(&d, 0x7f, sizeof d);
    memset(&e, 0x7f, sizeof e);
    cudaError_t r = cudaArrayGetInfo(&d, &e, &fl, a);
    if (r != cudaSuccess) {
        printf("%s info: %s\n", label, cudaGetErrorName(r));
        return;
    }
    printf("%s info: desc=(%d,%d,%d,%d kind %d) extent=(%llu,%llu,%llu) flags=0x%x\n", label,
           d.x, d.y, d.z, d.w, (int)d.f, (unsigned long long)e.width,
           (unsigned long long)e.height, (unsigned long long)e.depth, fl);
}

static struct cudaChannelFormatDesc mkdesc(int x, int y, int z, int w, int kind) {
    return cudaCreateChannelDesc(x, y, z, w, (enum cudaChannelFormatKind)kind);
}

#endif
