/* Sparse and deferred-mapping arrays: sparse properties and memory requirements, and the
 * errors for arrays made without those flags; planes of NV12 arrays. */
#include "array_util.h"

/* "label what: result" and, where it succeeded, the sparse properties p; else the last error. */
static void show_sparse(const char *label, const char *what, cudaError_t r, const struct cudaArraySparseProperties *p) {
    printf("%s %s: %s\n", label, what, cudaGetErrorName(r));
    if (r == cudaSuccess)
        printf("  tile %u x %u x %u, miptail first %u size %llu, flags 0x%x\n", p->tileExtent.width,
               p->tileExtent.height, p->tileExtent.depth, p->miptailFirstLevel,
               (unsigned long long)p->miptailSize, p->flags);
    else
        SHOW_LAST(label);
}

static void sparse(const char *label, cudaArray_t a) {
    struct cudaArraySparseProperties p;
    memset(&p, 0x5a, sizeof p);
    show_sparse(label, "sparse", cudaArrayGetSparseProperties(&p, a), &p);
}

/* "label what: result" and, where it succeeded, the memory requirements m; else the last error. */
static void show_requirements(const char *label, const char *what, cudaError_t r,
                              const struct cudaArrayMemoryRequirements *m) {
    printf("%s %s: %s\n", label, what, cudaGetErrorName(r));
    if (r == cudaSuccess)
        printf("  size %llu alignment %llu\n", (unsigned long long)m->size, (unsigned long long)m->alignment);
    else
        SHOW_LAST(label);
}

static void reqs(const char *label, cudaArray_t a, int dev) {
    struct cudaArrayMemoryRequirements m;
    memset(&m, 0x5a, sizeof m);
    char what[48];
    snprintf(what, sizeof what, "requirements (device %d)", dev);
    show_requirements(label, what, cudaArrayGetMemoryRequirements(&m, a, dev), &m);
}

static void mip(const char *label, cudaMipmappedArray_t m) {
    struct cudaArraySparseProperties p;
    memset(&p, 0x5a, sizeof p);
    show_sparse(label, "mipmapped sparse", cudaMipmappedArrayGetSparseProperties(&p, m), &p);
    struct cudaArrayMemoryRequirements q;
    show_requirements(label, "mipmapped requirements", cudaMipmappedArrayGetMemoryRequirements(&q, m, 0), &q);
}

int main(void) {
    struct cudaChannelFormatDesc f = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    struct cudaChannelFormatDesc u4 = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    int n = 0;
    OK(cudaGetDeviceCount(&n));

    static const struct {
        const char *name;
        size_t w, h, d;
        unsigned int flags;
    } cases[] = {
        {"plain 2D", 128, 128, 0, 0},
        {"sparse 2D", 128, 128, 0, cudaArraySparse},
        {"sparse 3D", 64, 64, 8, cudaArraySparse},
        {"sparse 2D layered", 128, 128, 3, cudaArraySparse | cudaArrayLayered},
        {"sparse small", 8, 8, 0, cudaArraySparse},
        {"deferred 2D", 128, 128, 0, cudaArrayDeferredMapping},
        {"deferred 1D", 128, 0, 0, cudaArrayDeferredMapping},
        {"deferred 3D", 16, 16, 4, cudaArrayDeferredMapping},
        {"sparse deferred", 128, 128, 0, cudaArraySparse | cudaArrayDeferredMapping},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int k = 0; k < 2; k++) {
            char label[96];
            snprintf(label, sizeof label, "%s %s", cases[i].name, k ? "uchar4" : "float");
            cudaArray_t a = NULL;
            cudaError_t r = cudaMalloc3DArray(&a, k ? &u4 : &f, make_cudaExtent(cases[i].w, cases[i].h, cases[i].d), cases[i].flags);
            printf("%s cudaMalloc3DArray: %s\n", label, cudaGetErrorName(r));
            if (r != cudaSuccess) {
                SHOW_LAST(label);
                continue;
            }
            show_info(label, a);
            sparse(label, a);
            reqs(label, a, 0);
            OK(cudaFreeArray(a));
        }
    }

    /* argument errors */
    cudaArray_t a = NULL, sp_a = NULL, plain = NULL;
    OK(cudaMalloc3DArray(&a, &f, make_cudaExtent(128, 128, 0), cudaArrayDeferredMapping));
    OK(cudaMalloc3DArray(&sp_a, &f, make_cudaExtent(128, 128, 0), cudaArraySparse));
    OK(cudaMallocArray(&plain, &f, 16, 16, 0));
    SHOW("sparse NULL out", cudaArrayGetSparseProperties(NULL, sp_a));
    SHOW_LAST("sparse NULL out");
    struct cudaArraySparseProperties sp;
    SHOW("sparse NULL array", cudaArrayGetSparseProperties(&sp, NULL));
    SHOW_LAST("sparse NULL array");
    SHOW("requirements NULL out", cudaArrayGetMemoryRequirements(NULL, a, 0));
    SHOW_LAST("reqs NULL out");
    struct cudaArrayMemoryRequirements mr;
    SHOW("requirements NULL array", cudaArrayGetMemoryRequirements(&mr, NULL, 0));
    SHOW_LAST("reqs NULL array");
    SHOW("requirements device -1", cudaArrayGetMemoryRequirements(&mr, a, -1));
    SHOW_LAST("reqs device -1");
    SHOW("requirements device n", cudaArrayGetMemoryRequirements(&mr, a, n));
    SHOW_LAST("reqs device n");
    SHOW("requirements plain device -1", cudaArrayGetMemoryRequirements(&mr, plain, -1));
    SHOW_LAST("reqs plain device -1");
    SHOW("mipmapped sparse NULL", cudaMipmappedArrayGetSparseProperties(&sp, NULL));
    SHOW_LAST("mip sparse NULL");
    SHOW("mipmapped requirements NULL", cudaMipmappedArrayGetMemoryRequirements(&mr, NULL, 0));
    SHOW_LAST("mip reqs NULL");
    ct_free_arrays(a, sp_a, plain, NULL);

    /* sparse and deferred mipmapped arrays */
    static const struct {
        const char *name;
        size_t w, h, d;
        unsigned int levels, flags;
    } mcases[] = {
        {"mip sparse 2D", 256, 256, 0, 9, cudaArraySparse},
        {"mip sparse 3D", 64, 64, 16, 4, cudaArraySparse},
        {"mip sparse layered", 128, 128, 4, 8, cudaArraySparse | cudaArrayLayered},
        {"mip deferred 2D", 64, 64, 0, 4, cudaArrayDeferredMapping},
        {"mip sparse deferred", 256, 256, 0, 9, cudaArraySparse | cudaArrayDeferredMapping},
    };
    for (size_t i = 0; i < sizeof mcases / sizeof mcases[0]; i++) {
        cudaMipmappedArray_t m = NULL;
        cudaError_t r = cudaMallocMipmappedArray(&m, &f, make_cudaExtent(mcases[i].w, mcases[i].h, mcases[i].d),
                                                 mcases[i].levels, mcases[i].flags);
        printf("%s cudaMallocMipmappedArray: %s\n", mcases[i].name, cudaGetErrorName(r));
        if (r != cudaSuccess) {
            SHOW_LAST(mcases[i].name);
            continue;
        }
        mip(mcases[i].name, m);
        cudaArray_t l1 = NULL;
        if (cudaGetMipmappedArrayLevel(&l1, m, 1) == cudaSuccess) {
            show_info("  level 1", l1);
            sparse("  level 1", l1);
            reqs("  level 1", l1, 0);
        }
        SHOW("mipmapped requirements NULL out", cudaMipmappedArrayGetMemoryRequirements(NULL, m, 0));
        SHOW("mipmapped requirements device -1", cudaMipmappedArrayGetMemoryRequirements(&mr, m, -1));
        SHOW("mipmapped sparse NULL out", cudaMipmappedArrayGetSparseProperties(NULL, m));
        SHOW_LAST("mip nulls");
        OK(cudaFreeMipmappedArray(m));
    }

    /* planes: NV12 has two, other formats none */
    struct cudaChannelFormatDesc nv12 = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindNV12);
    cudaArray_t y = NULL;
    cudaError_t r = cudaMallocArray(&y, &nv12, 16, 8, 0);
    printf("NV12 16x8: %s\n", cudaGetErrorName(r));
    if (r == cudaSuccess) {
        show_info("NV12", y);
        for (unsigned int p = 0; p < 3; p++) {
            cudaArray_t pl = NULL;
            char label[64];
            snprintf(label, sizeof label, "NV12 plane %u", p);
            r = cudaArrayGetPlane(&pl, y, p);
            printf("%s: %s\n", label, cudaGetErrorName(r));
            if (r == cudaSuccess)
                show_info(label, pl);
            else
                SHOW_LAST(label);
        }
        /* data through the planes */
        cudaArray_t p0 = NULL, p1 = NULL;
        OK(cudaArrayGetPlane(&p0, y, 0));
        OK(cudaArrayGetPlane(&p1, y, 1));
        unsigned char luma[8][16], chroma[4][16], back[8][16];
        for (int i = 0; i < 8 * 16; i++)
            (&luma[0][0])[i] = (unsigned char)i;
        for (int i = 0; i < 4 * 16; i++)
            (&chroma[0][0])[i] = (unsigned char)(255 - i);
        OK(SHOW("plane 0 write", cudaMemcpy2DToArray(p0, 0, 0, luma, 16, 16, 8, cudaMemcpyHostToDevice)));
        OK(SHOW("plane 1 write", cudaMemcpy2DToArray(p1, 0, 0, chroma, 16, 16, 4, cudaMemcpyHostToDevice)));
        memset(back, 0, sizeof back);
        OK(cudaMemcpy2DFromArray(back, 16, p0, 0, 0, 16, 8, cudaMemcpyDeviceToHost));
        CHECK(memcmp(back, luma, sizeof luma) == 0);
        memset(back, 0, sizeof back);
        OK(cudaMemcpy2DFromArray(back, 16, p1, 0, 0, 16, 4, cudaMemcpyDeviceToHost));
        CHECK(memcmp(back, chroma, sizeof chroma) == 0);
        SHOW("plane 1 past height", cudaMemcpy2DToArray(p1, 0, 0, chroma, 16, 16, 5, cudaMemcpyHostToDevice));
        SHOW_LAST("plane 1 past height");
        SHOW("plane NULL out", cudaArrayGetPlane(NULL, y, 0));
        SHOW_LAST("plane NULL out");
        OK(cudaFreeArray(y));
    } else {
        SHOW_LAST("NV12");
    }
    SHOW("NV12 odd size", cudaMallocArray(&y, &nv12, 15, 7, 0));
    SHOW_LAST("NV12 odd");
    OK(cudaMallocArray(&plain, &f, 16, 16, 0));
    cudaArray_t pl = NULL;
    SHOW("plane of float array", cudaArrayGetPlane(&pl, plain, 0));
    SHOW_LAST("plane of float");
    SHOW("plane of NULL", cudaArrayGetPlane(&pl, NULL, 0));
    SHOW_LAST("plane of NULL");
    OK(cudaFreeArray(plain));
    DONE();
}
