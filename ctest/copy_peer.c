/* cudaMemcpyPeer(Async) and cudaMemcpy3DPeer(Async) with device 0 as both ends (any
 * machine has one device), invalid devices, zero bytes and null parameters. */
#include "ctest.h"

#define N 128

static unsigned char pat(int i) { return (unsigned char)(3 * i + 11); }

int main(void) {
    unsigned char h[N], back[N];
    unsigned char *a = NULL, *b = NULL;
    int n = 0;
    OK(cudaGetDeviceCount(&n));
    OK(cudaMalloc((void **)&a, N));
    OK(cudaMalloc((void **)&b, N));
    if (!a || !b) DONE();
    for (int i = 0; i < N; i++) h[i] = pat(i);
    OK(cudaMemcpy(a, h, N, cudaMemcpyHostToDevice));

    SHOW("cudaMemcpyPeer 0->0", cudaMemcpyPeer(b, 0, a, 0, N));
    memset(back, 0, N);
    OK(cudaMemcpy(back, b, N, cudaMemcpyDeviceToHost));
    CHECK(memcmp(back, h, N) == 0);
    printf("peer copy: %s\n", memcmp(back, h, N) == 0 ? "same" : "different");

    cudaStream_t s = NULL;
    OK(cudaStreamCreate(&s));
    OK(cudaMemset(b, 0, N));
    SHOW("cudaMemcpyPeerAsync 0->0", cudaMemcpyPeerAsync(b + 8, 0, a, 0, 64, s));
    OK(cudaStreamSynchronize(s));
    memset(back, 0xcc, N);
    OK(cudaMemcpy(back, b, N, cudaMemcpyDeviceToHost));
    {
        int ok = 1;
        for (int i = 0; i < N; i++) ok &= back[i] == ((i >= 8 && i < 72) ? pat(i - 8) : 0);
        CHECK(ok);
        printf("peer async copy: %s\n", ok ? "ok" : "wrong");
    }
    SHOW("cudaMemcpyPeerAsync null stream", cudaMemcpyPeerAsync(b, 0, a, 0, N, 0));
    OK(cudaDeviceSynchronize());

    /* Invalid devices and empty copies. */
    SHOW("peer dst device -1", cudaMemcpyPeer(b, -1, a, 0, N));
    SHOW_LAST("dst device -1");
    SHOW("peer src device n", cudaMemcpyPeer(b, 0, a, n, N));
    SHOW_LAST("src device n");
    SHOW("peer src device 1000, 0 bytes", cudaMemcpyPeer(b, 0, a, 1000, 0));
    SHOW_LAST("src device 1000, 0 bytes");
    SHOW("peer async dst device n", cudaMemcpyPeerAsync(b, n, a, 0, N, s));
    SHOW_LAST("async dst device n");
    SHOW("peer 0 bytes NULL", cudaMemcpyPeer(NULL, 0, NULL, 0, 0));
    SHOW("peer NULL dst", cudaMemcpyPeer(NULL, 0, a, 0, N));
    SHOW_LAST("peer NULL dst");
    SHOW("peer NULL src", cudaMemcpyPeer(b, 0, NULL, 0, N));
    SHOW_LAST("peer NULL src");

    /* 3D peer: 16 bytes x 4 rows from a (pitch 16) at (2,1,0) to b (pitch 32). */
    struct cudaMemcpy3DPeerParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(a, 16, 16, 8);
    p.srcPos.x = 2;
    p.srcPos.y = 1;
    p.srcDevice = 0;
    p.dstPtr = make_cudaPitchedPtr(b, 32, 32, 4);
    p.dstDevice = 0;
    p.extent = make_cudaExtent(12, 4, 1);
    OK(cudaMemset(b, 0, N));
    SHOW("cudaMemcpy3DPeer", cudaMemcpy3DPeer(&p));
    memset(back, 0xcc, N);
    OK(cudaMemcpy(back, b, N, cudaMemcpyDeviceToHost));
    {
        int ok = 1;
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 32; x++) ok &= back[y * 32 + x] == (x < 12 ? pat((y + 1) * 16 + x + 2) : 0);
        CHECK(ok);
        printf("3D peer: %s\n", ok ? "ok" : "wrong");
    }
    SHOW("cudaMemcpy3DPeerAsync", cudaMemcpy3DPeerAsync(&p, s));
    OK(cudaStreamSynchronize(s));
    p.extent = make_cudaExtent(12, 4, 0);
    SHOW("3D peer depth 0", cudaMemcpy3DPeer(&p));
    p.extent = make_cudaExtent(12, 4, 1);
    p.dstDevice = n;
    SHOW("3D peer dst device n", cudaMemcpy3DPeer(&p));
    SHOW_LAST("3D peer dst device n");
    p.dstDevice = 0;
    p.srcDevice = -1;
    SHOW("3D peer async src device -1", cudaMemcpy3DPeerAsync(&p, s));
    SHOW_LAST("3D peer async src device -1");
    p.srcDevice = 0;
    p.srcPtr.pitch = 4;
    SHOW("3D peer src pitch < width", cudaMemcpy3DPeer(&p));
    SHOW_LAST("3D peer src pitch < width");
    p.srcPtr.pitch = 16;
    p.srcArray = (cudaArray_t)0; /* neither */
    p.srcPtr.ptr = NULL;
    SHOW("3D peer no source", cudaMemcpy3DPeer(&p));
    SHOW_LAST("3D peer no source");
    SHOW("3D peer NULL", cudaMemcpy3DPeer(NULL));
    SHOW_LAST("3D peer NULL");
    SHOW("3D peer async NULL", cudaMemcpy3DPeerAsync(NULL, s));
    SHOW_LAST("3D peer async NULL");

    OK(cudaStreamDestroy(s));
    ct_free_device(a, b, NULL);
    DONE();
}
