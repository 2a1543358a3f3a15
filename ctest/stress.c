/* 16 host threads making mixed allocation, copy, memset, attribute and error calls for a
 * bounded time. Every result is checked; at the end every allocation is freed and device
 * memory in use is back where it started. */
#include "ctest.h"
#include <pthread.h>
#include <time.h>

#define THREADS 16
#define SECONDS 3.0

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

struct result {
    unsigned index;
    long iterations;
    int failures;
};

static void *worker(void *arg) {
    struct result *r = arg;
    unsigned seed = (r->index + 1) * 2654435761u;
    double end = now() + SECONDS;
    cudaStream_t s;
    if (cudaStreamCreate(&s) != cudaSuccess) {
        r->failures++;
        return NULL;
    }
    while (now() < end) {
        size_t n = 1 + (rand_r(&seed) % 65536);
        unsigned char *h = malloc(n), *back = malloc(n), *pinned = NULL;
        void *d = NULL;
        int ok = h && back;
        for (size_t i = 0; ok && i < n; i++) h[i] = (unsigned char)(i * 31 + seed);
        ok = ok && cudaMalloc(&d, n) == cudaSuccess;
        ok = ok && cudaMemcpy(d, h, n, cudaMemcpyHostToDevice) == cudaSuccess;
        ok = ok && cudaMemcpy(back, d, n, cudaMemcpyDeviceToHost) == cudaSuccess;
        ok = ok && memcmp(h, back, n) == 0;
        ok = ok && cudaMemsetAsync(d, 0x5a, n / 2, s) == cudaSuccess;
        ok = ok && cudaMallocHost((void **)&pinned, n) == cudaSuccess;
        ok = ok && cudaMemcpyAsync(pinned, d, n, cudaMemcpyDefault, s) == cudaSuccess;
        ok = ok && cudaStreamSynchronize(s) == cudaSuccess;
        for (size_t i = 0; ok && i < n; i++)
            ok = pinned[i] == (i < n / 2 ? 0x5a : h[i]);
        struct cudaPointerAttributes a;
        ok = ok && cudaPointerGetAttributes(&a, d) == cudaSuccess && a.type == cudaMemoryTypeDevice;
        ok = ok && cudaPointerGetAttributes(&a, pinned) == cudaSuccess && a.type == cudaMemoryTypeHost;
        /* An error, and this thread's last error reports exactly it. */
        ok = ok && cudaMalloc(NULL, 16) == cudaErrorInvalidValue;
        ok = ok && cudaGetLastError() == cudaErrorInvalidValue;
        ok = ok && cudaGetLastError() == cudaSuccess;
        if (pinned && cudaFreeHost(pinned) != cudaSuccess) ok = 0;
        if (d && cudaFree(d) != cudaSuccess) ok = 0;
        free(h);
        free(back);
        if (!ok) r->failures++;
        r->iterations++;
    }
    if (cudaStreamDestroy(s) != cudaSuccess) r->failures++;
    return NULL;
}

int main(void) {
    size_t free0 = 0, total = 0, free1 = 0;
    OK(cudaFree(0));
    OK(cudaMemGetInfo(&free0, &total));
    pthread_t t[THREADS];
    struct result r[THREADS];
    memset(r, 0, sizeof r);
    for (int i = 0; i < THREADS; i++) r[i].index = (unsigned)i;
    for (int i = 0; i < THREADS; i++) CHECK(pthread_create(&t[i], NULL, worker, &r[i]) == 0);
    long iterations = 0;
    int failures = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        iterations += r[i].iterations;
        failures += r[i].failures;
        CHECK(r[i].iterations > 0);
    }
    OK(cudaDeviceSynchronize());
    OK(cudaMemGetInfo(&free1, &total));
    printf("threads: %d\n", THREADS);
    printf("failed iterations: %d\n", failures);
    CHECK(failures == 0);
    CHECK(iterations >= THREADS);
    /* Everything was freed: device memory in use is back (the driver may keep a little for
     * its own bookkeeping, never a test allocation's worth per iteration). */
    printf("memory back: %s\n", free1 + (8u << 20) >= free0 ? "yes" : "no");
    CHECK(free1 + (8u << 20) >= free0);
    DONE();
}
