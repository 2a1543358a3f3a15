/* Device allocations: cudaMalloc, cudaFree, cudaMallocPitch, cudaMemGetInfo (free memory must
 * drop by an allocation: no other process may allocate or free meanwhile, hence serial).
 * ctest: serial */
#include "ctest.h"

int main(void) {
    /* cudaFree(0) initialises the runtime and succeeds. */
    SHOW("cudaFree(NULL)", cudaFree(NULL));
    SHOW_LAST("after cudaFree(NULL)");

    void *p = (void *)1;
    OK(SHOW("cudaMalloc(4096)", cudaMalloc(&p, 4096)));
    CHECK(p != NULL);
    printf("aligned 256: %d\n", (int)(((size_t)p & 255) == 0));
    OK(SHOW("cudaFree(p)", cudaFree(p)));
    SHOW("cudaFree(p) again", cudaFree(p));
    SHOW_LAST("double free");

    void *q = (void *)1;
    SHOW("cudaMalloc(0)", cudaMalloc(&q, 0));
    printf("size 0 gives NULL: %d\n", (int)(q == NULL));
    SHOW("cudaFree(size-0 pointer)", cudaFree(q));
    SHOW("cudaMalloc(NULL, 16)", cudaMalloc(NULL, 16));
    SHOW_LAST("cudaMalloc(NULL)");
    SHOW("cudaMalloc(NULL, 0)", cudaMalloc(NULL, 0));
    SHOW_LAST("cudaMalloc(NULL, 0)");

    void *huge = (void *)1;
    SHOW("cudaMalloc(1<<62)", cudaMalloc(&huge, (size_t)1 << 62));
    SHOW_LAST("huge cudaMalloc");
    SHOW("cudaMalloc(SIZE_MAX)", cudaMalloc(&huge, (size_t)-1));
    SHOW_LAST("SIZE_MAX cudaMalloc");

    /* Freeing what cudaMalloc did not return. */
    void *r = NULL;
    OK(cudaMalloc(&r, 1 << 20));
    SHOW("cudaFree(p + 256)", cudaFree((char *)r + 256));
    SHOW_LAST("interior free");
    OK(SHOW("cudaFree(r)", cudaFree(r)));
    int on_stack = 0;
    SHOW("cudaFree(stack pointer)", cudaFree(&on_stack));
    SHOW_LAST("stack free");
    void *heap = malloc(64);
    SHOW("cudaFree(malloc pointer)", cudaFree(heap));
    SHOW_LAST("malloc free");
    free(heap);
    void *pinned = NULL;
    OK(cudaMallocHost(&pinned, 4096));
    SHOW("cudaFree(cudaMallocHost pointer)", cudaFree(pinned));
    SHOW_LAST("pinned free");
    SHOW("cudaFreeHost(pinned)", cudaFreeHost(pinned));
    SHOW("cudaFree(0x1000)", cudaFree((void *)0x1000));
    SHOW_LAST("bogus free");

    /* Several allocations alive at once, all distinct. */
    void *ps[8];
    for (int i = 0; i < 8; i++) {
        ps[i] = NULL;
        OK(cudaMalloc(&ps[i], (size_t)(i + 1) * 1000));
        CHECK(ps[i] != NULL);
        for (int j = 0; j < i; j++) CHECK(ps[i] != ps[j]);
    }
    for (int i = 7; i >= 0; i--) OK(cudaFree(ps[i]));

    /* Pitched allocations. */
    size_t widths[] = {1, 4, 100, 512, 513, 1000, 4096, 5000};
    for (unsigned i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        void *d = NULL;
        size_t pitch = 0;
        char label[64];
        snprintf(label, sizeof label, "cudaMallocPitch(w=%zu, h=7)", widths[i]);
        OK(SHOW(label, cudaMallocPitch(&d, &pitch, widths[i], 7)));
        SHOWU("  pitch", pitch);
        CHECK(pitch >= widths[i]);
        CHECK(d != NULL);
        OK(cudaFree(d));
    }
    {
        void *d = (void *)1;
        size_t pitch = 12345;
        SHOW("cudaMallocPitch(w=0, h=5)", cudaMallocPitch(&d, &pitch, 0, 5));
        printf("  NULL: %d\n", (int)(d == NULL));
        SHOWU("  pitch", pitch);
        d = (void *)1;
        pitch = 12345;
        SHOW("cudaMallocPitch(w=16, h=0)", cudaMallocPitch(&d, &pitch, 16, 0));
        printf("  NULL: %d\n", (int)(d == NULL));
        SHOWU("  pitch", pitch);
        SHOW("cudaMallocPitch(NULL ptr)", cudaMallocPitch(NULL, &pitch, 16, 4));
        SHOW_LAST("cudaMallocPitch(NULL ptr)");
        SHOW("cudaMallocPitch(NULL pitch)", cudaMallocPitch(&d, NULL, 16, 4));
        SHOW_LAST("cudaMallocPitch(NULL pitch)");
        SHOW("cudaMallocPitch(huge)", cudaMallocPitch(&d, &pitch, (size_t)1 << 40, (size_t)1 << 20));
        SHOW_LAST("cudaMallocPitch(huge)");
        SHOW("cudaMallocPitch(w=4096, h=1<<50)", cudaMallocPitch(&d, &pitch, 4096, (size_t)1 << 50));
        SHOW_LAST("cudaMallocPitch(tall)");
    }

    /* Memory info: print only relations, never figures. */
    size_t fr = 0, to = 0;
    OK(SHOW("cudaMemGetInfo", cudaMemGetInfo(&fr, &to)));
    CHECK(to > 0 && fr <= to);
    void *big = NULL;
    OK(cudaMalloc(&big, 64 << 20));
    size_t fr2 = 0, to2 = 0;
    OK(cudaMemGetInfo(&fr2, &to2));
    printf("total unchanged: %d\n", (int)(to2 == to));
    printf("free dropped: %d\n", (int)(fr2 < fr));
    OK(cudaFree(big));
    SHOW("cudaMemGetInfo(NULL, &total)", cudaMemGetInfo(NULL, &to));
    SHOW_LAST("cudaMemGetInfo(NULL free)");
    SHOW("cudaMemGetInfo(&free, NULL)", cudaMemGetInfo(&fr, NULL));
    SHOW_LAST("cudaMemGetInfo(NULL total)");
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
