/* ctest: gpu
 * Large copies between pageable host memory and device memory on a real GPU, where copies
 * run asynchronously: many odd sizes both ways (at and around the size from which cudart-rs
 * copies pageable memory through its staging pipeline, 4 MiB by default, and well above it),
 * stream order (a copy sees the memset enqueued before it, and work enqueued after a copy
 * sees its bytes), the caller reusing its buffer at once, and four threads copying at once. */
#include "ctest.h"
#include <pthread.h>
#include <stdint.h>

static void fill(unsigned char *p, size_t n, unsigned seed) {
    uint32_t x = seed * 2654435761u + 7;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (unsigned char)(x >> 24);
    }
}

#define MAXN (((size_t)129 << 20) + 4099)

struct job {
    int id, ok;
};

static void *worker(void *arg) {
    struct job *j = arg;
    size_t n = ((size_t)(17 + 5 * j->id) << 20) + 333 * j->id + 1;
    unsigned char *src = malloc(n), *back = malloc(n), *dev = NULL;
    cudaStream_t s = NULL;
    j->ok = src && back && cudaMalloc((void **)&dev, n) == cudaSuccess && cudaStreamCreate(&s) == cudaSuccess;
    for (int round = 0; round < 3 && j->ok; round++) {
        fill(src, n, 1000 + 10 * j->id + round);
        j->ok &= cudaMemcpyAsync(dev, src, n, cudaMemcpyHostToDevice, s) == cudaSuccess;
        memset(back, 0, n);
        j->ok &= cudaMemcpyAsync(back, dev, n, cudaMemcpyDeviceToHost, s) == cudaSuccess;
        j->ok &= cudaStreamSynchronize(s) == cudaSuccess;
        j->ok &= !memcmp(src, back, n);
    }
    if (s) cudaStreamDestroy(s);
    if (dev) cudaFree(dev);
    free(src);
    free(back);
    return NULL;
}

int main(void) {
    static const size_t sizes[] = {(4 << 20) - 1, 4 << 20, (4 << 20) + 1, (4 << 20) + 4095, (33 << 20) + 17, (64 << 20) + 4093, MAXN};
    const int nsizes = sizeof sizes / sizeof sizes[0];
    unsigned char *dev = NULL;
    OK(cudaMalloc((void **)&dev, MAXN + 128));
    unsigned char *src = malloc(MAXN + 128), *want = malloc(MAXN), *back = malloc(MAXN + 128);
    CHECK(dev && src && want && back);
    if (!dev || !src || !want || !back) DONE();
    cudaStream_t s = NULL;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    for (int i = 0; i < nsizes; i++) {
        size_t n = sizes[i], ho = i % 3 == 1 ? 5 : 0, dof = 64 + (i % 2 ? 1 : 0);
        fill(src + ho, n, (unsigned)i);
        memcpy(want, src + ho, n);
        OK(cudaMemset(dev, 0x3c, MAXN + 128));
        OK(cudaMemcpy(dev + dof, src + ho, n, i % 2 ? cudaMemcpyDefault : cudaMemcpyHostToDevice));
        memset(src + ho, 0xee, n); /* reused at once */
        memset(back, 0x77, MAXN + 128);
        OK(cudaMemcpy(back + ho, dev + dof, n, i % 2 ? cudaMemcpyDeviceToHost : cudaMemcpyDefault));
        int exact = !memcmp(back + ho, want, n), untouched = ct_all_bytes(back, ho, 0x77) && ct_all_bytes(back + ho + n, 64, 0x77);
        unsigned char around[128];
        OK(cudaMemcpy(around, dev + dof - 64, 64, cudaMemcpyDeviceToHost));
        OK(cudaMemcpy(around + 64, dev + dof + n, 64, cudaMemcpyDeviceToHost));
        printf("size %zu: exact %d, host around %d, device around %d\n", n, exact, untouched, ct_all_bytes(around, 128, 0x3c));
        CHECK(exact && untouched && ct_all_bytes(around, 128, 0x3c));
    }

    /* Stream order on a non-blocking stream: the copy to the host sees the memset before it;
     * the memset after a copy to the device overwrites it. */
    size_t n = (48 << 20) + 3;
    OK(cudaMemsetAsync(dev, 0x42, n, s));
    memset(back, 0, n);
    OK(cudaMemcpyAsync(back, dev, n, cudaMemcpyDeviceToHost, s));
    OK(cudaStreamSynchronize(s));
    printf("copy after memset sees it: %d\n", ct_all_bytes(back, n, 0x42));
    CHECK(ct_all_bytes(back, n, 0x42));
    fill(src, n, 77);
    OK(cudaMemcpyAsync(dev, src, n, cudaMemcpyHostToDevice, s));
    OK(cudaMemsetAsync(dev, 0x24, n / 2, s));
    memset(back, 0, n);
    OK(cudaMemcpyAsync(back, dev, n, cudaMemcpyDeviceToHost, s));
    OK(cudaStreamSynchronize(s));
    int order = ct_all_bytes(back, n / 2, 0x24) && !memcmp(back + n / 2, src + n / 2, n - n / 2);
    printf("memset after copy overwrites it: %d\n", order);
    CHECK(order);

    /* The legacy stream: a device-to-device copy right after a pageable upload sees it. */
    fill(src, n, 78);
    OK(cudaMemcpy(dev, src, n, cudaMemcpyHostToDevice));
    OK(cudaMemcpy(dev + n + 64, dev, n, cudaMemcpyDeviceToDevice));
    OK(cudaMemcpy(back, dev + n + 64, n, cudaMemcpyDeviceToHost));
    printf("legacy stream order: %d\n", !memcmp(back, src, n));
    CHECK(!memcmp(back, src, n));

    /* Four threads at once, each with its own stream and buffers. */
    pthread_t t[4];
    struct job jobs[4];
    for (int i = 0; i < 4; i++) {
        jobs[i].id = i;
        pthread_create(&t[i], NULL, worker, &jobs[i]);
    }
    int threads_ok = 1;
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        threads_ok &= jobs[i].ok;
    }
    printf("four threads: %d\n", threads_ok);
    CHECK(threads_ok);

    OK(cudaStreamDestroy(s));
    OK(cudaFree(dev));
    free(src);
    free(want);
    free(back);
    DONE();
}
