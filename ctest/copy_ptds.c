/* The per-thread default stream exports of the copies and memsets (what a program built with
 * --default-stream per-thread calls): called by name, from several threads, each using its
 * own null stream. */
#include "ctest.h"
#include <pthread.h>

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                 cudaStream_t stream);
cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch,
                                   size_t width, size_t height, enum cudaMemcpyKind kind,
                                   cudaStream_t stream);
cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p);
cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p, cudaStream_t stream);
cudaError_t cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p);
cudaError_t cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p, cudaStream_t stream);
cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream);
cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                                   cudaStream_t stream);
cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value, struct cudaExtent extent);
cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                                   struct cudaExtent extent, cudaStream_t stream);

#define N 256
#define THREADS 4

/* Each thread: memsets and copies on its own null stream; returns the number of failures. */
static void *worker(void *arg) {
    long t = (long)arg;
    long bad = 0;
    unsigned char *d = NULL, *d2 = NULL, h[N], back[N];
    if (cudaMalloc((void **)&d, N) != cudaSuccess || cudaMalloc((void **)&d2, N) != cudaSuccess)
        return (void *)1000;
    for (int round = 0; round < 20; round++) {
        int v = (int)(t * 40 + round);
        for (int i = 0; i < N; i++) h[i] = (unsigned char)(i + v);
        bad += cudaMemsetAsync_ptsz(d, v, N, 0) != cudaSuccess;
        bad += cudaMemcpyAsync_ptsz(d2, d, N / 2, cudaMemcpyDeviceToDevice, 0) != cudaSuccess;
        bad += cudaMemcpyAsync_ptsz(d2 + N / 2, h + N / 2, N / 2, cudaMemcpyHostToDevice, 0) != cudaSuccess;
        bad += cudaMemcpy2DAsync_ptsz(back, 16, d2, 16, 16, N / 16, cudaMemcpyDeviceToHost, 0) != cudaSuccess;
        bad += cudaStreamSynchronize(cudaStreamPerThread) != cudaSuccess;
        for (int i = 0; i < N; i++) bad += back[i] != (i < N / 2 ? (unsigned char)v : h[i]);
        bad += cudaMemset_ptds(d, 0x5a, N) != cudaSuccess;
        bad += cudaMemcpy_ptds(back, d, N, cudaMemcpyDeviceToHost) != cudaSuccess;
        for (int i = 0; i < N; i++) bad += back[i] != 0x5a;
    }
    cudaFree(d);
    cudaFree(d2);
    return (void *)bad;
}

int main(void) {
    unsigned char *d = NULL, h[N], back[N];
    OK(cudaMalloc((void **)&d, N));
    if (!d) DONE();
    for (int i = 0; i < N; i++) h[i] = (unsigned char)(i * 3);

    /* Each export once, from the main thread. */
    SHOW("cudaMemcpy_ptds", cudaMemcpy_ptds(d, h, N, cudaMemcpyHostToDevice));
    memset(back, 0, N);
    SHOW("cudaMemcpyAsync_ptsz", cudaMemcpyAsync_ptsz(back, d, N, cudaMemcpyDeviceToHost, 0));
    SHOW("cudaStreamSynchronize(per-thread)", cudaStreamSynchronize(cudaStreamPerThread));
    CHECK(memcmp(back, h, N) == 0);
    SHOW("cudaMemcpy2D_ptds", cudaMemcpy2D_ptds(d, 32, h, 32, 16, 8, cudaMemcpyHostToDevice));
    SHOW("cudaMemcpy2DAsync_ptsz", cudaMemcpy2DAsync_ptsz(back, 32, d, 32, 32, 8, cudaMemcpyDeviceToHost, 0));
    SHOW("cudaMemset_ptds", cudaMemset_ptds(d, 1, 64));
    SHOW("cudaMemsetAsync_ptsz", cudaMemsetAsync_ptsz(d + 64, 2, 64, 0));
    SHOW("cudaMemset2D_ptds", cudaMemset2D_ptds(d + 128, 16, 3, 8, 4));
    SHOW("cudaMemset2DAsync_ptsz", cudaMemset2DAsync_ptsz(d + 128 + 8, 16, 4, 8, 4, 0));
    SHOW("cudaMemset3D_ptds", cudaMemset3D_ptds(make_cudaPitchedPtr(d + 192, 8, 8, 2), 5, make_cudaExtent(4, 2, 2)));
    SHOW("cudaMemset3DAsync_ptsz", cudaMemset3DAsync_ptsz(make_cudaPitchedPtr(d + 196, 8, 8, 2), 6, make_cudaExtent(4, 2, 2), 0));
    SHOW("cudaStreamSynchronize(per-thread)", cudaStreamSynchronize(cudaStreamPerThread));
    OK(cudaMemcpy(back, d, N, cudaMemcpyDeviceToHost));
    {
        int ok = 1;
        for (int i = 0; i < 64; i++) ok &= back[i] == 1 && back[64 + i] == 2;
        for (int i = 128; i < 192; i++) ok &= back[i] == ((i - 128) % 16 < 8 ? 3 : 4);
        for (int i = 192; i < 224; i++) ok &= back[i] == ((i - 192) % 8 < 4 ? 5 : 6);
        CHECK(ok);
        printf("memsets: %s\n", ok ? "ok" : "wrong");
    }
    struct cudaMemcpy3DParms p = {.srcPtr = make_cudaPitchedPtr(h, 16, 16, 4),
                                  .dstPtr = make_cudaPitchedPtr(d, 16, 16, 4),
                                  .extent = make_cudaExtent(16, 4, 2),
                                  .kind = cudaMemcpyHostToDevice};
    SHOW("cudaMemcpy3D_ptds", cudaMemcpy3D_ptds(&p));
    p.kind = cudaMemcpyDefault;
    SHOW("cudaMemcpy3DAsync_ptsz", cudaMemcpy3DAsync_ptsz(&p, 0));
    struct cudaMemcpy3DPeerParms q;
    memset(&q, 0, sizeof q);
    q.srcPtr = make_cudaPitchedPtr(d, 16, 16, 4);
    q.dstPtr = make_cudaPitchedPtr(d + 128, 16, 16, 4);
    q.extent = make_cudaExtent(16, 4, 2);
    SHOW("cudaMemcpy3DPeer_ptds", cudaMemcpy3DPeer_ptds(&q));
    SHOW("cudaMemcpy3DPeerAsync_ptsz", cudaMemcpy3DPeerAsync_ptsz(&q, 0));
    SHOW("cudaStreamSynchronize(per-thread)", cudaStreamSynchronize(cudaStreamPerThread));
    OK(cudaMemcpy(back, d + 128, 128, cudaMemcpyDeviceToHost));
    CHECK(memcmp(back, h, 128) == 0);
    printf("3D copies: %s\n", memcmp(back, h, 128) == 0 ? "ok" : "wrong");

    /* Failures through the per-thread exports. */
    SHOW("cudaMemcpy_ptds kind 5", cudaMemcpy_ptds(d, h, N, (enum cudaMemcpyKind)5));
    SHOW_LAST("cudaMemcpy_ptds kind 5");
    SHOW("cudaMemcpy2D_ptds pitch < width", cudaMemcpy2D_ptds(d, 8, h, 32, 16, 2, cudaMemcpyHostToDevice));
    SHOW_LAST("cudaMemcpy2D_ptds pitch < width");
    SHOW("cudaMemcpy3D_ptds NULL", cudaMemcpy3D_ptds(NULL));
    SHOW_LAST("cudaMemcpy3D_ptds NULL");
    SHOW("cudaMemsetAsync_ptsz NULL", cudaMemsetAsync_ptsz(NULL, 0, 16, 0));
    SHOW_LAST("cudaMemsetAsync_ptsz NULL");

    /* Several threads at once, each on its own null stream. */
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, worker, (void *)t);
    long total = 0;
    for (int t = 0; t < THREADS; t++) {
        void *r = NULL;
        pthread_join(th[t], &r);
        total += (long)r;
    }
    CHECK(total == 0);
    SHOWI("threads' failures", total);

    OK(cudaFree(d));
    DONE();
}
