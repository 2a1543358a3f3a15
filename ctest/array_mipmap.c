/* Mipmapped arrays: level counts (clamped), each level a real array that copies work on,
 * bad levels, NULL handles, flags. */
#include "array_util.h"

static void levels(const char *name, const struct cudaChannelFormatDesc *d, struct cudaExtent e,
                   unsigned int n, unsigned int flags) {
    cudaMipmappedArray_t m = NULL;
    cudaError_t r = cudaMallocMipmappedArray(&m, d, e, n, flags);
    printf("%s (%llu,%llu,%llu) levels %u flags 0x%x: %s\n", name, (unsigned long long)e.width,
           (unsigned long long)e.height, (unsigned long long)e.depth, n, flags, cudaGetErrorName(r));
    if (r != cudaSuccess) {
        SHOW_LAST(name);
        return;
    }
    for (unsigned int l = 0; l < 16; l++) {
        cudaArray_t a = NULL;
        r = cudaGetMipmappedArrayLevel(&a, m, l);
        char label[96];
        snprintf(label, sizeof label, "  level %u", l);
        if (r != cudaSuccess) {
            printf("%s: %s\n", label, cudaGetErrorName(r));
            SHOW_LAST(label);
            break;
        }
        show_info(label, a);
    }
    OK(cudaFreeMipmappedArray(m));
}

int main(void) {
    struct cudaChannelFormatDesc f = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    struct cudaChannelFormatDesc u4 = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);

    levels("2D", &f, make_cudaExtent(16, 8, 0), 0, 0);
    levels("2D", &f, make_cudaExtent(16, 8, 0), 1, 0);
    levels("2D", &f, make_cudaExtent(16, 8, 0), 3, 0);
    levels("2D", &f, make_cudaExtent(16, 8, 0), 5, 0);
    levels("2D", &f, make_cudaExtent(16, 8, 0), 6, 0);
    levels("2D", &f, make_cudaExtent(16, 8, 0), 100, 0);
    levels("2D odd", &u4, make_cudaExtent(13, 5, 0), 100, 0);
    levels("1D", &f, make_cudaExtent(32, 0, 0), 100, 0);
    levels("3D", &f, make_cudaExtent(8, 4, 16), 100, 0);
    levels("1D layered", &f, make_cudaExtent(16, 0, 3), 100, cudaArrayLayered);
    levels("2D layered", &f, make_cudaExtent(16, 8, 3), 100, cudaArrayLayered);
    levels("2D layered many layers", &f, make_cudaExtent(4, 4, 64), 100, cudaArrayLayered);
    levels("cubemap", &f, make_cudaExtent(8, 8, 6), 100, cudaArrayCubemap);
    levels("layered cubemap", &f, make_cudaExtent(8, 8, 12), 100, cudaArrayCubemap | cudaArrayLayered);
    levels("2D surface", &f, make_cudaExtent(16, 8, 0), 3, cudaArraySurfaceLoadStore);
    levels("2D gather", &f, make_cudaExtent(16, 8, 0), 3, cudaArrayTextureGather);
    levels("3D gather", &f, make_cudaExtent(16, 8, 4), 3, cudaArrayTextureGather);
    levels("2D deferred", &f, make_cudaExtent(16, 8, 0), 3, cudaArrayDeferredMapping);
    levels("2D sparse", &f, make_cudaExtent(256, 256, 0), 100, cudaArraySparse);
    levels("width 0", &f, make_cudaExtent(0, 8, 0), 3, 0);
    levels("cubemap w != h", &f, make_cudaExtent(8, 4, 6), 3, cudaArrayCubemap);
    levels("cubemap depth 5", &f, make_cudaExtent(8, 8, 5), 3, cudaArrayCubemap);
    levels("too wide", &f, make_cudaExtent((size_t)1 << 30, 8, 0), 3, 0);
    levels("unknown flag", &f, make_cudaExtent(16, 8, 0), 3, 0x100);

    /* bad descriptors and nulls */
    struct cudaChannelFormatDesc bad = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
    levels("3 channels", &bad, make_cudaExtent(16, 8, 0), 3, 0);
    cudaMipmappedArray_t m = NULL;
    SHOW("cudaMallocMipmappedArray(NULL out)", cudaMallocMipmappedArray(NULL, &f, make_cudaExtent(16, 8, 0), 3, 0));
    SHOW_LAST("NULL out");
    SHOW("cudaMallocMipmappedArray(NULL desc)", cudaMallocMipmappedArray(&m, NULL, make_cudaExtent(16, 8, 0), 3, 0));
    SHOW_LAST("NULL desc");

    /* levels hold data: each level written and read back */
    OK(SHOW("cudaMallocMipmappedArray", cudaMallocMipmappedArray(&m, &f, make_cudaExtent(8, 8, 0), 4, 0)));
    float in[8 * 8], out[8 * 8];
    for (unsigned int l = 0; l < 4; l++) {
        cudaArray_t a = NULL;
        OK(cudaGetMipmappedArrayLevel(&a, m, l));
        size_t w = 8u >> l;
        for (size_t i = 0; i < w * w; i++)
            in[i] = (float)(l * 100 + i);
        memset(out, 0, sizeof out);
        OK(cudaMemcpy2DToArray(a, 0, 0, in, w * 4, w * 4, w, cudaMemcpyHostToDevice));
        OK(cudaMemcpy2DFromArray(out, w * 4, a, 0, 0, w * 4, w, cudaMemcpyDeviceToHost));
        CHECK(memcmp(in, out, w * w * 4) == 0);
        char label[64];
        snprintf(label, sizeof label, "level %u past width", l);
        SHOW(label, cudaMemcpy2DToArray(a, 0, 0, in, 64, (w + 1) * 4, 1, cudaMemcpyHostToDevice));
        /* the same level asked again is the same array: its data is there */
        cudaArray_t again = NULL;
        OK(cudaGetMipmappedArrayLevel(&again, m, l));
        memset(out, 0, sizeof out);
        OK(cudaMemcpy2DFromArray(out, w * 4, again, 0, 0, w * 4, w, cudaMemcpyDeviceToHost));
        CHECK(memcmp(in, out, w * w * 4) == 0);
        /* level to level of another size */
        if (l > 0) {
            cudaArray_t top = NULL;
            OK(cudaGetMipmappedArrayLevel(&top, m, 0));
            OK(SHOW("level -> level 0", cudaMemcpy2DArrayToArray(top, 0, 0, a, 0, 0, w * 4, w, cudaMemcpyDeviceToDevice)));
        }
    }
    /* a level's sparse properties and memory requirements: not for levels */
    cudaArray_t l0 = NULL;
    OK(cudaGetMipmappedArrayLevel(&l0, m, 0));
    struct cudaArraySparseProperties sp;
    SHOW("level sparse properties", cudaArrayGetSparseProperties(&sp, l0));
    SHOW_LAST("level sparse");

    cudaArray_t a = NULL;
    SHOW("level 4 of 4", cudaGetMipmappedArrayLevel(&a, m, 4));
    SHOW_LAST("level 4");
    SHOW("level 1000", cudaGetMipmappedArrayLevel(&a, m, 1000));
    SHOW("level NULL out", cudaGetMipmappedArrayLevel(NULL, m, 0));
    SHOW_LAST("level NULL out");
    SHOW("level of NULL", cudaGetMipmappedArrayLevel(&a, NULL, 0));
    SHOW_LAST("level of NULL");
    OK(SHOW("cudaFreeMipmappedArray", cudaFreeMipmappedArray(m)));
    SHOW("cudaFreeMipmappedArray(NULL)", cudaFreeMipmappedArray(NULL));
    SHOW_LAST("free NULL");

    /* mipmapped sparse properties / requirements on a plain one */
    OK(cudaMallocMipmappedArray(&m, &f, make_cudaExtent(64, 64, 0), 3, 0));
    SHOW("mipmapped sparse properties (plain)", cudaMipmappedArrayGetSparseProperties(&sp, m));
    SHOW_LAST("mip sparse plain");
    struct cudaArrayMemoryRequirements mr;
    SHOW("mipmapped memory requirements (plain)", cudaMipmappedArrayGetMemoryRequirements(&mr, m, 0));
    SHOW_LAST("mip reqs plain");
    OK(cudaFreeMipmappedArray(m));
    DONE();
}
