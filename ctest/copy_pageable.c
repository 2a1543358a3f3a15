/* Copies between pageable host memory and device memory of odd sizes at odd offsets, both
 * ways, synchronous and Async, with explicit kinds and cudaMemcpyDefault, the caller reusing
 * its buffer as soon as a call returns: every byte must arrive and nothing around the range
 * may change. cudart-rs copies pageable memory of at least CUDART_RS_PAGEABLE's `min` bytes
 * through its staging pipeline; the test sets a small minimum and little staging memory (its
 * own setting; NVIDIA's runtime ignores it), so that these sizes take many chunks. */
#include "ctest.h"
#include <stdint.h>

#define DEV_BYTES ((size_t)12 << 20)
#define GUARD 64

static void fill(unsigned char *p, size_t n, unsigned seed) {
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (unsigned char)(x >> 24);
    }
}

int main(void) {
    setenv("CUDART_RS_PAGEABLE", "threads=3,staging=2M,min=64k", 1);
    static const size_t sizes[] = {65536, 65537, 262143, 262144, 262145, 1000003, (2 << 20) + 7, (5 << 20) - 1, (9 << 20) + 4093};
    static const size_t host_off[] = {0, 1, 13};
    static const size_t dev_off[] = {0, 3};
    const int nsizes = sizeof sizes / sizeof sizes[0];

    unsigned char *dev = NULL;
    OK(cudaMalloc((void **)&dev, DEV_BYTES + 2 * GUARD));
    unsigned char *src = malloc(DEV_BYTES + 2 * GUARD), *want = malloc(DEV_BYTES), *back = malloc(DEV_BYTES + 2 * GUARD);
    CHECK(dev && src && want && back);
    if (!dev || !src || !want || !back) DONE();
    cudaStream_t s = NULL;
    OK(cudaStreamCreate(&s));

    int cases = 0, good = 0;
    for (int i = 0; i < nsizes; i++) {
        for (int h = 0; h < 3; h++) {
            for (int d = 0; d < 2; d++) {
                size_t n = sizes[i], ho = host_off[h], dof = GUARD + dev_off[d];
                int mode = cases % 4; /* sync explicit, sync Default, Async explicit, Async Default */
                enum cudaMemcpyKind to = mode % 2 ? cudaMemcpyDefault : cudaMemcpyHostToDevice;
                enum cudaMemcpyKind from = mode % 2 ? cudaMemcpyDefault : cudaMemcpyDeviceToHost;
                cudaStream_t st = mode >= 2 ? s : 0;
                OK(cudaMemset(dev, 0x5c, DEV_BYTES + 2 * GUARD));
                fill(src + ho, n, (unsigned)(i * 7 + h * 3 + d));
                memcpy(want, src + ho, n);
                OK(cudaMemcpyAsync(dev + dof, src + ho, n, to, st));
                /* The source may be reused at once: the copy has taken what it needs. */
                memset(src + ho, 0xa5, n);
                memset(back, 0x11, DEV_BYTES + 2 * GUARD);
                OK(cudaMemcpyAsync(back + ho, dev + dof, n, from, st));
                if (st) OK(cudaStreamSynchronize(st));
                int ok = !memcmp(back + ho, want, n) && ct_all_bytes(back, ho, 0x11) && ct_all_bytes(back + ho + n, GUARD, 0x11);
                /* Nothing changed on the device around the range. */
                unsigned char around[2 * GUARD];
                OK(cudaMemcpy(around, dev + dof - GUARD, GUARD, cudaMemcpyDeviceToHost));
                OK(cudaMemcpy(around + GUARD, dev + dof + n, GUARD, cudaMemcpyDeviceToHost));
                ok = ok && ct_all_bytes(around, 2 * GUARD, 0x5c);
                if (!ok) printf("FAIL size %zu, host offset %zu, device offset %zu, mode %d\n", n, ho, dev_off[d], mode);
                good += ok;
                cases++;
            }
        }
    }
    printf("pageable round trips: %d of %d exact\n", good, cases);
    CHECK(good == cases);

    /* Back to back without a sync: the second copy to the device lands after the first. */
    size_t n = (3 << 20) + 5;
    fill(src, n, 99);
    OK(cudaMemcpy(dev, src, n, cudaMemcpyHostToDevice));
    fill(src, n, 100);
    memcpy(want, src, n);
    OK(cudaMemcpy(dev, src, n, cudaMemcpyHostToDevice));
    OK(cudaMemcpy(back, dev, n, cudaMemcpyDeviceToHost));
    printf("second copy wins: %d\n", !memcmp(back, want, n));
    CHECK(!memcmp(back, want, n));

    /* Device to device after a pageable copy on the same (legacy) stream sees its bytes. */
    OK(cudaMemcpy(dev + (6 << 20), dev, n, cudaMemcpyDeviceToDevice));
    OK(cudaMemcpy(back, dev + (6 << 20), n, cudaMemcpyDeviceToHost));
    printf("device copy of a pageable upload: %d\n", !memcmp(back, want, n));
    CHECK(!memcmp(back, want, n));

    /* Errors are the driver's own: a range past the end of the allocation, either way. */
    SHOW("H2D past the end", cudaMemcpy(dev + DEV_BYTES, src, (1 << 20) + 1, cudaMemcpyHostToDevice));
    SHOW_LAST("H2D past the end");
    SHOW("D2H past the end", cudaMemcpy(back, dev + DEV_BYTES, (1 << 20) + 1, cudaMemcpyDeviceToHost));
    SHOW_LAST("D2H past the end");
    SHOW("Default past the end", cudaMemcpy(back, dev + DEV_BYTES, (1 << 20) + 1, cudaMemcpyDefault));
    SHOW_LAST("Default past the end");
    /* A freed device buffer. */
    unsigned char *gone = NULL;
    OK(cudaMalloc((void **)&gone, 1 << 20));
    OK(cudaFree(gone));
    SHOW("H2D to a freed buffer", cudaMemcpy(gone, src, 1 << 20, cudaMemcpyHostToDevice));
    SHOW_LAST("H2D to a freed buffer");

    OK(cudaStreamDestroy(s));
    OK(cudaFree(dev));
    free(src);
    free(want);
    free(back);
    DONE();
}
