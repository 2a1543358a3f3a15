/* cudaMemcpyAsync, cudaMemcpy2DAsync and cudaMemcpy3DAsync on a created stream, the null
 * stream and cudaStreamPerThread, with pinned and pageable host memory; data checked after
 * cudaStreamSynchronize. Failures of the async forms. */
#include "ctest.h"

#define N 512

static unsigned char pat(int i, int seed) { return (unsigned char)(i * 5 + seed * 17 + 2); }

static int same(const unsigned char *p, int n, int seed) {
    for (int i = 0; i < n; i++)
        if (p[i] != pat(i, seed)) return 0;
    return 1;
}

int main(void) {
    cudaStream_t s = NULL;
    OK(SHOW("cudaStreamCreate", cudaStreamCreate(&s)));
    unsigned char *pin = NULL, *pin2 = NULL, *d = NULL, *d2 = NULL;
    OK(cudaMallocHost((void **)&pin, N));
    OK(cudaMallocHost((void **)&pin2, N));
    OK(cudaMalloc((void **)&d, N));
    OK(cudaMalloc((void **)&d2, N));
    unsigned char *h = (unsigned char *)malloc(N);
    if (!pin || !pin2 || !d || !d2) DONE();

    cudaStream_t streams[3] = {s, 0, cudaStreamPerThread};
    const char *names[3] = {"stream", "null stream", "per-thread stream"};
    for (int k = 0; k < 3; k++) {
        char l[96];
        for (int i = 0; i < N; i++) pin[i] = pat(i, k);
        memset(pin2, 0, N);
        snprintf(l, sizeof l, "H2D async, %s", names[k]);
        SHOW(l, cudaMemcpyAsync(d, pin, N, cudaMemcpyHostToDevice, streams[k]));
        snprintf(l, sizeof l, "D2D async, %s", names[k]);
        SHOW(l, cudaMemcpyAsync(d2, d, N, cudaMemcpyDeviceToDevice, streams[k]));
        snprintf(l, sizeof l, "D2H async, %s", names[k]);
        SHOW(l, cudaMemcpyAsync(pin2, d2, N, cudaMemcpyDeviceToHost, streams[k]));
        snprintf(l, sizeof l, "cudaStreamSynchronize, %s", names[k]);
        SHOW(l, cudaStreamSynchronize(streams[k]));
        CHECK(same(pin2, N, k));
        printf("async round trip, %s: %s\n", names[k], same(pin2, N, k) ? "same" : "different");
    }

    /* Default kind, pageable host memory, host to host. */
    for (int i = 0; i < N; i++) h[i] = pat(i, 7);
    SHOW("Default async pageable H2D", cudaMemcpyAsync(d, h, N, cudaMemcpyDefault, s));
    SHOW("Default async D2H pinned", cudaMemcpyAsync(pin2, d, N, cudaMemcpyDefault, s));
    OK(cudaStreamSynchronize(s));
    CHECK(same(pin2, N, 7));
    SHOW("H2H async", cudaMemcpyAsync(pin, h, N, cudaMemcpyHostToHost, s));
    OK(cudaStreamSynchronize(s));
    CHECK(same(pin, N, 7));

    /* 2D async: 8 rows of 20 bytes with pitch 32 -> device with pitch 24 -> back. */
    for (int i = 0; i < N; i++) pin[i] = pat(i, 8);
    memset(pin2, 0xcc, N);
    SHOW("2D H2D async", cudaMemcpy2DAsync(d, 24, pin, 32, 20, 8, cudaMemcpyHostToDevice, s));
    SHOW("2D D2H async", cudaMemcpy2DAsync(pin2, 32, d, 24, 20, 8, cudaMemcpyDeviceToHost, s));
    OK(cudaStreamSynchronize(s));
    {
        int ok = 1;
        for (int i = 0; i < 8 * 32; i++) ok &= pin2[i] == (i % 32 < 20 ? pat(i, 8) : 0xcc);
        CHECK(ok);
        printf("2D async: %s\n", ok ? "ok" : "wrong");
    }

    /* 3D async: 6 x 3 x 2 bytes from pinned (pitch 8, 4 rows/slice) at (1,1,0) to device. */
    {
        struct cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(pin, 8, 8, 4);
        p.srcPos.x = 1;
        p.srcPos.y = 1;
        p.dstPtr = make_cudaPitchedPtr(d2, 6, 6, 3);
        p.extent = make_cudaExtent(6, 3, 2);
        p.kind = cudaMemcpyHostToDevice;
        SHOW("3D H2D async", cudaMemcpy3DAsync(&p, s));
        memset(pin2, 0, N);
        SHOW("D2H async", cudaMemcpyAsync(pin2, d2, 36, cudaMemcpyDeviceToHost, s));
        OK(cudaStreamSynchronize(s));
        int ok = 1;
        for (int z = 0; z < 2; z++)
            for (int y = 0; y < 3; y++)
                for (int x = 0; x < 6; x++) ok &= pin2[(z * 3 + y) * 6 + x] == pat(z * 32 + (y + 1) * 8 + x + 1, 8);
        CHECK(ok);
        printf("3D async: %s\n", ok ? "ok" : "wrong");
        SHOW("3D async NULL", cudaMemcpy3DAsync(NULL, s));
        SHOW_LAST("3D async NULL");
        p.kind = (enum cudaMemcpyKind)5;
        SHOW("3D async kind 5", cudaMemcpy3DAsync(&p, s));
        SHOW_LAST("3D async kind 5");
    }

    /* Failures. */
    SHOW("async 0 bytes NULL", cudaMemcpyAsync(NULL, NULL, 0, cudaMemcpyHostToDevice, s));
    SHOW("async kind 5", cudaMemcpyAsync(d, pin, N, (enum cudaMemcpyKind)5, s));
    SHOW_LAST("async kind 5");
    SHOW("async NULL dst", cudaMemcpyAsync(NULL, pin, N, cudaMemcpyHostToDevice, s));
    SHOW_LAST("async NULL dst");
    SHOW("2D async pitch < width", cudaMemcpy2DAsync(d, 8, pin, 32, 20, 8, cudaMemcpyHostToDevice, s));
    SHOW_LAST("2D async pitch < width");
    SHOW("2D async kind -1", cudaMemcpy2DAsync(d, 24, pin, 32, 20, 8, (enum cudaMemcpyKind)-1, s));
    SHOW_LAST("2D async kind -1");
    SHOW("2D async empty", cudaMemcpy2DAsync(NULL, 0, NULL, 0, 0, 0, cudaMemcpyHostToDevice, s));
    OK(SHOW("cudaStreamSynchronize after failures", cudaStreamSynchronize(s)));

    OK(SHOW("cudaStreamDestroy", cudaStreamDestroy(s)));
    ct_free_device(d, d2, NULL);
    ct_free_host(pin, pin2, NULL);
    free(h);
    DONE();
}
