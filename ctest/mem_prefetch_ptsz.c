/* The per-thread default stream export of the prefetch (what a program built with
 * --default-stream per-thread calls): called by name from several threads, each on its own
 * null stream. */
#include "ctest.h"
#include <pthread.h>

#if CUDART_VERSION >= 13000
cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location,
                                      unsigned int flags, cudaStream_t stream);
#else
cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream);
cudaError_t cudaMemPrefetchAsync_v2_ptsz(const void *devPtr, size_t count, struct cudaMemLocation location,
                                         unsigned int flags, cudaStream_t stream);
#endif

#define THREADS 4
#define SZ (256 << 10)

struct job {
    unsigned char *m;
    cudaError_t to_dev, to_cpu, sync, bad;
    int last_dev, last_cpu;
};

static cudaError_t pf(const void *p, size_t n, int device) {
#if CUDART_VERSION >= 13000
    struct cudaMemLocation l;
    l.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
    l.id = device == cudaCpuDeviceId ? 0 : device;
    return cudaMemPrefetchAsync_ptsz(p, n, l, 0, 0);
#else
    return cudaMemPrefetchAsync_ptsz(p, n, device, 0);
#endif
}

static void *work(void *arg) {
    struct job *j = arg;
    j->to_dev = pf(j->m, SZ, 0);
    j->sync = cudaStreamSynchronize(cudaStreamPerThread);
    cudaMemRangeGetAttribute(&j->last_dev, sizeof(int), cudaMemRangeAttributeLastPrefetchLocation, j->m, SZ);
    j->to_cpu = pf(j->m, SZ, cudaCpuDeviceId);
    cudaError_t s2 = cudaStreamSynchronize(cudaStreamPerThread);
    if (j->sync == cudaSuccess) j->sync = s2;
    cudaMemRangeGetAttribute(&j->last_cpu, sizeof(int), cudaMemRangeAttributeLastPrefetchLocation, j->m, SZ);
    j->bad = pf(j->m, SZ, 99);
    cudaGetLastError();
    return NULL;
}

int main(void) {
    struct job jobs[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        OK(cudaMallocManaged((void **)&jobs[i].m, SZ, cudaMemAttachGlobal));
        if (jobs[i].m) memset(jobs[i].m, i + 1, SZ);
    }
    for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, work, &jobs[i]);
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < THREADS; i++) {
        printf("thread %d: to device %s, to cpu %s, sync %s, device 99 %s\n", i,
               cudaGetErrorName(jobs[i].to_dev), cudaGetErrorName(jobs[i].to_cpu),
               cudaGetErrorName(jobs[i].sync), cudaGetErrorName(jobs[i].bad));
        printf("  last prefetch: %d then %d\n", jobs[i].last_dev, jobs[i].last_cpu);
        int good = 1;
        for (int k = 0; k < SZ; k++) good &= jobs[i].m[k] == (unsigned char)(i + 1);
        CHECK(good);
        OK(cudaFree(jobs[i].m));
    }
#if CUDART_VERSION < 13000
    {
        unsigned char *m = NULL;
        OK(cudaMallocManaged((void **)&m, SZ, cudaMemAttachGlobal));
        struct cudaMemLocation l;
        l.type = cudaMemLocationTypeDevice;
        l.id = 0;
        OK(SHOW("cudaMemPrefetchAsync_v2_ptsz", cudaMemPrefetchAsync_v2_ptsz(m, SZ, l, 0, 0)));
        OK(cudaStreamSynchronize(cudaStreamPerThread));
        int last = 7;
        OK(cudaMemRangeGetAttribute(&last, sizeof last, cudaMemRangeAttributeLastPrefetchLocation, m, SZ));
        SHOWI("  last prefetch", last);
        OK(cudaFree(m));
    }
#endif
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
