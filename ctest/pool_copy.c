/* Pool (stream-ordered) allocations are device memory to every copy and memset: cudaMemcpy
 * with each kind, cudaMemcpyAsync, cudaMemcpyPeer(+Async), cudaMemcpy2D(+Async),
 * cudaMemcpy3D(+Async), cudaMemcpy2DToArray/FromArray, cudaMemset, 2D and 3D (+Async), on
 * allocations from the default pool and from a created pool, the data checked after each;
 * then what cudaPointerGetAttributes, cudaMemRangeGetAttribute and cudaMemPrefetchAsync say
 * of such memory. */
#include "pool_util.h"

#define N 65536

static unsigned char src[N], back[N];

static void fill_src(int seed) {
    for (int i = 0; i < N; i++) src[i] = (unsigned char)(i * 7 + seed);
}

/* Reads n bytes at d back (synchronously) and compares them with want. */
static void expect(const char *label, const void *d, const unsigned char *want, size_t n) {
    memset(back, 0, n);
    cudaError_t e = cudaMemcpy(back, d, n, cudaMemcpyDeviceToHost);
    int same = e == cudaSuccess && memcmp(back, want, n) == 0;
    printf("%s: %s\n", label, same ? "ok" : "wrong");
    CHECK(same);
}

static void expect_value(const char *label, const void *d, int v, size_t n) {
    static unsigned char want[N];
    memset(want, v, n);
    expect(label, d, want, n);
}

int main(void) {
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    struct cudaMemPoolProps props = pool_props(cudaMemLocationTypeDevice, 0);
    cudaMemPool_t pool = NULL;
    OK(cudaMemPoolCreate(&pool, &props));
    unsigned char *a = NULL, *b = NULL;
    OK(SHOW("cudaMallocAsync(a, default pool)", cudaMallocAsync((void **)&a, N, s)));
    OK(SHOW("cudaMallocFromPoolAsync(b, created pool)", cudaMallocFromPoolAsync((void **)&b, N, pool, s)));
    OK(cudaStreamSynchronize(s));
    unsigned char *pinned = NULL;
    OK(cudaMallocHost((void **)&pinned, N));

    /* 1D, synchronous, each kind. */
    fill_src(1);
    OK(SHOW("cudaMemcpy(a <- host, HostToDevice)", cudaMemcpy(a, src, N, cudaMemcpyHostToDevice)));
    expect("  a", a, src, N);
    OK(SHOW("cudaMemcpy(b <- a, DeviceToDevice)", cudaMemcpy(b, a, N, cudaMemcpyDeviceToDevice)));
    expect("  b", b, src, N);
    memset(back, 0, N);
    OK(SHOW("cudaMemcpy(host <- b, DeviceToHost)", cudaMemcpy(back, b, N, cudaMemcpyDeviceToHost)));
    printf("  host: %s\n", memcmp(back, src, N) ? "wrong" : "ok");
    fill_src(2);
    OK(SHOW("cudaMemcpy(a <- host, Default)", cudaMemcpy(a, src, N, cudaMemcpyDefault)));
    OK(SHOW("cudaMemcpy(b <- a, Default)", cudaMemcpy(b, a, N, cudaMemcpyDefault)));
    expect("  b", b, src, N);

    /* 1D, asynchronous, pinned and pageable host memory. */
    fill_src(3);
    memcpy(pinned, src, N);
    OK(SHOW("cudaMemcpyAsync(a <- pinned)", cudaMemcpyAsync(a, pinned, N, cudaMemcpyHostToDevice, s)));
    OK(SHOW("cudaMemcpyAsync(b <- a)", cudaMemcpyAsync(b, a, N, cudaMemcpyDeviceToDevice, s)));
    /* The copy from pinned memory reads it asynchronously: cleared only once it is done. */
    OK(cudaStreamSynchronize(s));
    memset(pinned, 0, N);
    OK(SHOW("cudaMemcpyAsync(pinned <- b)", cudaMemcpyAsync(pinned, b, N, cudaMemcpyDeviceToHost, s)));
    OK(cudaStreamSynchronize(s));
    printf("  pinned: %s\n", memcmp(pinned, src, N) ? "wrong" : "ok");
    CHECK(memcmp(pinned, src, N) == 0);

    /* Peer copies within device 0. */
    fill_src(4);
    OK(cudaMemcpy(a, src, N, cudaMemcpyHostToDevice));
    OK(SHOW("cudaMemcpyPeer(b <- a)", cudaMemcpyPeer(b, 0, a, 0, N)));
    expect("  b", b, src, N);
    OK(cudaMemset(b, 0, N));
    OK(SHOW("cudaMemcpyPeerAsync(b <- a)", cudaMemcpyPeerAsync(b, 0, a, 0, N, s)));
    OK(cudaStreamSynchronize(s));
    expect("  b", b, src, N);

    /* Memsets. */
    OK(SHOW("cudaMemset(a, 0x31)", cudaMemset(a, 0x31, N)));
    expect_value("  a", a, 0x31, N);
    OK(SHOW("cudaMemsetAsync(b, 0x32)", cudaMemsetAsync(b, 0x32, N, s)));
    OK(cudaStreamSynchronize(s));
    expect_value("  b", b, 0x32, N);
    OK(cudaMemset(a, 0, N));
    OK(SHOW("cudaMemset2D(a, pitch 256, 100 x 32)", cudaMemset2D(a, 256, 0x33, 100, 32)));
    {
        static unsigned char want[N];
        memset(want, 0, N);
        for (int y = 0; y < 32; y++) memset(want + y * 256, 0x33, 100);
        expect("  a", a, want, 256 * 32);
        OK(SHOW("cudaMemset2DAsync(b, pitch 512, 300 x 16)", cudaMemset2DAsync(b, 512, 0x34, 300, 16, s)));
        OK(cudaStreamSynchronize(s));
        memset(back, 0, N);
        OK(cudaMemcpy2D(back, 300, b, 512, 300, 16, cudaMemcpyDeviceToHost));
        int ok = 1;
        for (int i = 0; i < 300 * 16; i++) ok &= back[i] == 0x34;
        printf("  b (read with cudaMemcpy2D): %s\n", ok ? "ok" : "wrong");
        CHECK(ok);
    }
    OK(cudaMemset(a, 0, N));
    struct cudaPitchedPtr pa = make_cudaPitchedPtr(a, 256, 64, 16);
    OK(SHOW("cudaMemset3D(a, pitch 256, ysize 16, 64 x 16 x 4)", cudaMemset3D(pa, 0x35, make_cudaExtent(64, 16, 4))));
    {
        static unsigned char want[N];
        memset(want, 0, N);
        for (int z = 0; z < 4; z++)
            for (int y = 0; y < 16; y++) memset(want + (z * 16 + y) * 256, 0x35, 64);
        expect("  a", a, want, 256 * 16 * 4);
    }
    OK(SHOW("cudaMemset3DAsync(b, pitch 256, ysize 16, 256 x 16 x 16)",
            cudaMemset3DAsync(make_cudaPitchedPtr(b, 256, 256, 16), 0x36, make_cudaExtent(256, 16, 16), s)));
    OK(cudaStreamSynchronize(s));
    expect_value("  b", b, 0x36, N);

    /* 2D and 3D copies. */
    fill_src(5);
    OK(SHOW("cudaMemcpy2D(a <- host, 128 x 64, pitch 256)", cudaMemcpy2D(a, 256, src, 128, 128, 64, cudaMemcpyHostToDevice)));
    OK(SHOW("cudaMemcpy2DAsync(b <- a, pitch 256 -> 128)", cudaMemcpy2DAsync(b, 128, a, 256, 128, 64, cudaMemcpyDeviceToDevice, s)));
    OK(cudaStreamSynchronize(s));
    expect("  b", b, src, 128 * 64);

    fill_src(6);
    OK(cudaMemcpy(a, src, N, cudaMemcpyHostToDevice));
    struct cudaMemcpy3DParms p3 = {.srcPtr = make_cudaPitchedPtr(a, 128, 128, 32),
                                   .dstPtr = make_cudaPitchedPtr(b, 128, 128, 32),
                                   .extent = make_cudaExtent(128, 32, 16),
                                   .kind = cudaMemcpyDeviceToDevice};
    OK(cudaMemset(b, 0, N));
    OK(SHOW("cudaMemcpy3D(b <- a, 128 x 32 x 16)", cudaMemcpy3D(&p3)));
    expect("  b", b, src, N);
    OK(cudaMemset(b, 0, N));
    p3.kind = cudaMemcpyDefault;
    OK(SHOW("cudaMemcpy3DAsync(b <- a, Default)", cudaMemcpy3DAsync(&p3, s)));
    OK(cudaStreamSynchronize(s));
    expect("  b", b, src, N);

    /* To and from a CUDA array. */
    struct cudaChannelFormatDesc cd = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t arr = NULL;
    OK(cudaMallocArray(&arr, &cd, 64, 32, 0));
    fill_src(7);
    OK(cudaMemcpy(a, src, 64 * 32, cudaMemcpyHostToDevice));
    OK(SHOW("cudaMemcpy2DToArray(array <- a)", cudaMemcpy2DToArray(arr, 0, 0, a, 64, 64, 32, cudaMemcpyDeviceToDevice)));
    OK(cudaMemset(b, 0, N));
    OK(SHOW("cudaMemcpy2DFromArray(b <- array)", cudaMemcpy2DFromArray(b, 64, arr, 0, 0, 64, 32, cudaMemcpyDeviceToDevice)));
    expect("  b", b, src, 64 * 32);
    OK(cudaFreeArray(arr));

    /* What the runtime says of pool memory. */
    struct cudaPointerAttributes at;
    memset(&at, 0x7f, sizeof at);
    OK(SHOW("cudaPointerGetAttributes(a)", cudaPointerGetAttributes(&at, a)));
    printf("  type %d, device %d, devicePointer == a: %d, hostPointer NULL: %d\n", (int)at.type, at.device,
           (int)(at.devicePointer == a), (int)(at.hostPointer == NULL));
    memset(&at, 0x7f, sizeof at);
    OK(SHOW("cudaPointerGetAttributes(b + 1000)", cudaPointerGetAttributes(&at, b + 1000)));
    printf("  type %d, device %d, devicePointer == b + 1000: %d, hostPointer NULL: %d\n", (int)at.type, at.device,
           (int)(at.devicePointer == b + 1000), (int)(at.hostPointer == NULL));
    int rm = -7;
    SHOW("cudaMemRangeGetAttribute(a, read mostly)", cudaMemRangeGetAttribute(&rm, sizeof rm, cudaMemRangeAttributeReadMostly, a, N));
    SHOW_LAST("range attribute");
#if CUDART_VERSION >= 13000
    struct cudaMemLocation l0 = loc(cudaMemLocationTypeDevice, 0);
    SHOW("cudaMemPrefetchAsync(a, device 0)", cudaMemPrefetchAsync(a, N, l0, 0, s));
#else
    SHOW("cudaMemPrefetchAsync(a, device 0)", cudaMemPrefetchAsync(a, N, 0, s));
#endif
    SHOW_LAST("prefetch");
    OK(cudaStreamSynchronize(s));

    OK(cudaFreeAsync(a, s));
    OK(cudaFreeAsync(b, s));
    OK(cudaStreamSynchronize(s));
    OK(cudaFreeHost(pinned));
    OK(cudaMemPoolDestroy(pool));
    OK(cudaStreamDestroy(s));
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
