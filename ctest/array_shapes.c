/* CUDA array shapes and flags: 1D, 2D, 3D, layered, cubemap, layered cubemap, surface
 * load/store, texture gather, sparse, deferred mapping; valid and invalid extents. */
#include "array_util.h"

struct shape {
    const char *name;
    size_t w, h, d;
    unsigned int flags;
};

static const struct shape shapes[] = {
    {"1D", 16, 0, 0, cudaArrayDefault},
    {"1D width 1", 1, 0, 0, cudaArrayDefault},
    {"2D", 16, 4, 0, cudaArrayDefault},
    {"2D 1x1", 1, 1, 0, cudaArrayDefault},
    {"3D", 8, 4, 2, cudaArrayDefault},
    {"3D depth 1", 8, 4, 1, cudaArrayDefault},
    {"1D layered", 16, 0, 3, cudaArrayLayered},
    {"2D layered", 8, 4, 3, cudaArrayLayered},
    {"2D layered 1 layer", 8, 4, 1, cudaArrayLayered},
    {"cubemap", 8, 8, 6, cudaArrayCubemap},
    {"layered cubemap", 8, 8, 12, cudaArrayCubemap | cudaArrayLayered},
    {"2D surface", 16, 4, 0, cudaArraySurfaceLoadStore},
    {"1D surface", 16, 0, 0, cudaArraySurfaceLoadStore},
    {"3D surface", 8, 4, 2, cudaArraySurfaceLoadStore},
    {"2D layered surface", 8, 4, 3, cudaArrayLayered | cudaArraySurfaceLoadStore},
    {"cubemap surface", 8, 8, 6, cudaArrayCubemap | cudaArraySurfaceLoadStore},
    {"2D gather", 16, 4, 0, cudaArrayTextureGather},
    {"2D gather surface", 16, 4, 0, cudaArrayTextureGather | cudaArraySurfaceLoadStore},
    {"2D color attachment", 16, 4, 0, cudaArrayColorAttachment},
    {"2D deferred", 16, 4, 0, cudaArrayDeferredMapping},
    {"3D deferred", 8, 4, 2, cudaArrayDeferredMapping},
    {"1D deferred", 16, 0, 0, cudaArrayDeferredMapping},
    {"2D sparse", 128, 128, 0, cudaArraySparse},
    {"3D sparse", 64, 64, 4, cudaArraySparse},
    {"2D layered sparse", 128, 128, 2, cudaArraySparse | cudaArrayLayered},
    {"1D sparse", 128, 0, 0, cudaArraySparse},
    {"sparse deferred", 128, 128, 0, cudaArraySparse | cudaArrayDeferredMapping},
    /* invalid */
    {"width 0", 0, 0, 0, cudaArrayDefault},
    {"width 0 2D", 0, 4, 0, cudaArrayDefault},
    {"width 0 3D", 0, 4, 2, cudaArrayDefault},
    {"height 0 depth 2", 16, 0, 2, cudaArrayDefault},
    {"1D layered no layers", 16, 0, 0, cudaArrayLayered},
    {"2D layered no layers", 16, 4, 0, cudaArrayLayered},
    {"cubemap w != h", 8, 4, 6, cudaArrayCubemap},
    {"cubemap depth 5", 8, 8, 5, cudaArrayCubemap},
    {"cubemap depth 12", 8, 8, 12, cudaArrayCubemap},
    {"cubemap depth 0", 8, 8, 0, cudaArrayCubemap},
    {"layered cubemap depth 7", 8, 8, 7, cudaArrayCubemap | cudaArrayLayered},
    {"layered cubemap w != h", 8, 4, 12, cudaArrayCubemap | cudaArrayLayered},
    {"3D gather", 8, 4, 2, cudaArrayTextureGather},
    {"1D gather", 16, 0, 0, cudaArrayTextureGather},
    {"layered gather", 8, 4, 2, cudaArrayTextureGather | cudaArrayLayered},
    {"unknown flag 0x10", 16, 4, 0, 0x10},
    {"unknown flag 0x100", 16, 4, 0, 0x100},
    {"unknown flag 0x80000000", 16, 4, 0, 0x80000000u},
    {"1D too wide", (size_t)1 << 30, 0, 0, cudaArrayDefault},
    {"2D too wide", (size_t)1 << 30, 4, 0, cudaArrayDefault},
    {"2D too high", 4, (size_t)1 << 30, 0, cudaArrayDefault},
    {"3D too deep", 4, 4, (size_t)1 << 30, cudaArrayDefault},
    {"too many layers", 4, 4, (size_t)1 << 30, cudaArrayLayered},
    {"width 2^40", (size_t)1 << 40, 4, 0, cudaArrayDefault},
    {"width max", (size_t)-1, 4, 0, cudaArrayDefault},
};

int main(void) {
    struct cudaChannelFormatDesc f4 = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    struct cudaChannelFormatDesc u8x4 = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const struct shape *s = &shapes[i];
        for (int k = 0; k < 2; k++) {
            char label[128];
            snprintf(label, sizeof label, "%s %s", s->name, k ? "uchar4" : "float");
            cudaArray_t a = NULL;
            cudaError_t r = cudaMalloc3DArray(&a, k ? &u8x4 : &f4, make_cudaExtent(s->w, s->h, s->d), s->flags);
            printf("%s cudaMalloc3DArray: %s\n", label, cudaGetErrorName(r));
            if (r == cudaSuccess) {
                show_info(label, a);
                OK(cudaFreeArray(a));
            } else {
                SHOW_LAST(label);
            }
            if (s->d == 0) {
                r = cudaMallocArray(&a, k ? &u8x4 : &f4, s->w, s->h, s->flags);
                printf("%s cudaMallocArray: %s\n", label, cudaGetErrorName(r));
                if (r == cudaSuccess) {
                    show_info(label, a);
                    OK(cudaFreeArray(a));
                } else {
                    SHOW_LAST(label);
                }
            }
        }
    }
    /* cudaMallocArray cannot ask for layers or cubemaps: depth is 0 */
    cudaArray_t a = NULL;
    SHOW("cudaMallocArray layered", cudaMallocArray(&a, &f4, 8, 8, cudaArrayLayered));
    SHOW_LAST("cudaMallocArray layered");
    SHOW("cudaMallocArray cubemap", cudaMallocArray(&a, &f4, 8, 8, cudaArrayCubemap));
    SHOW_LAST("cudaMallocArray cubemap");
    DONE();
}
