/* ctest: gpu2
 * Copies between every ordered pair of the machine's devices, without peer access and with
 * it (enabled both ways): cudaMemcpyPeer, cudaMemcpyPeerAsync (on a stream of the source, of
 * the destination, and the null stream), cudaMemcpy3DPeer and 3DPeerAsync (pitched regions,
 * a CUDA array of either device at either end), cudaMemcpy, cudaMemcpyAsync, cudaMemcpy2D and
 * cudaMemcpy3D with cudaMemcpyDefault and cudaMemcpyDeviceToDevice across devices, device
 * ordinals that name the wrong device, a count past the end. The current device is the
 * source's; each result, and whether the destination holds exactly the bytes it should. */
#include "ctest.h"

#define MAXD 16
#define SZ (64 * 1024)
#define AW 64 /* array width (bytes, one-byte elements) */
#define AH 16 /* array height */

static unsigned char *buf[MAXD];
static cudaArray_t arr[MAXD];
static cudaStream_t stream[MAXD];
static unsigned char host[MAXD][SZ]; /* what each device buffer holds */
static unsigned char want[SZ], got[SZ];

static unsigned char pat(int dev, size_t i) { return (unsigned char)(i * 13 + dev * 41 + 7); }

/* Device d's buffer back to its own pattern, and its array to zeros. */
static void reset(int d) {
    int cur;
    OK(cudaGetDevice(&cur));
    OK(cudaSetDevice(d));
    for (size_t i = 0; i < SZ; i++) host[d][i] = pat(d, i);
    OK(cudaMemcpy(buf[d], host[d], SZ, cudaMemcpyHostToDevice));
    static unsigned char zero[AW * AH];
    OK(cudaMemcpy2DToArray(arr[d], 0, 0, zero, AW, AW, AH, cudaMemcpyHostToDevice));
    OK(cudaDeviceSynchronize());
    OK(cudaSetDevice(cur));
}

/* Reads device d's buffer (with d current) and says whether it is `want`. */
static const char *judge(int d) {
    int cur;
    OK(cudaGetDevice(&cur));
    OK(cudaSetDevice(d));
    memset(got, 0xee, SZ);
    OK(cudaMemcpy(got, buf[d], SZ, cudaMemcpyDeviceToHost));
    OK(cudaSetDevice(cur));
    int same = memcmp(got, want, SZ) == 0;
    CHECK(same);
    return same ? "bytes ok" : "bytes WRONG";
}

/* Reads device d's array into `got` (AW x AH). */
static void read_array(int d) {
    int cur;
    OK(cudaGetDevice(&cur));
    OK(cudaSetDevice(d));
    memset(got, 0xee, AW * AH);
    OK(cudaMemcpy2DFromArray(got, AW, arr[d], 0, 0, AW, AH, cudaMemcpyDeviceToHost));
    OK(cudaSetDevice(cur));
}

static void line(int s, int d, const char *mode, const char *what, cudaError_t e, const char *bytes) {
    printf("%d->%d %s %s: %s, %s\n", s, d, mode, what, cudaGetErrorName(e), bytes);
    if (e != cudaSuccess) SHOW_LAST("  after it");
}

/* want: the destination after a whole-buffer copy from s (or unchanged if it failed). */
static void want_whole(int s, int d, cudaError_t e) { memcpy(want, e == cudaSuccess ? host[s] : host[d], SZ); }

/* want: a pitched region of `w` x `h` bytes from s at (sx, sy) with pitch sp to d at (dx, dy)
 * with pitch dp. */
static void want_region(int s, int d, cudaError_t e, size_t w, size_t h, size_t sx, size_t sy, size_t sp, size_t dx,
                        size_t dy, size_t dp) {
    memcpy(want, host[d], SZ);
    if (e != cudaSuccess) return;
    for (size_t y = 0; y < h; y++) memcpy(want + (dy + y) * dp + dx, host[s] + (sy + y) * sp + sx, w);
}

static void pair(int s, int d, const char *mode) {
    cudaError_t e;
    OK(cudaSetDevice(s));

    reset(d);
    e = cudaMemcpyPeer(buf[d], d, buf[s], s, SZ);
    want_whole(s, d, e);
    line(s, d, mode, "cudaMemcpyPeer", e, judge(d));

    const int streams[3] = {s, d, -1};
    const char *const sname[3] = {"cudaMemcpyPeerAsync, source's stream", "cudaMemcpyPeerAsync, destination's stream",
                                  "cudaMemcpyPeerAsync, null stream"};
    for (int k = 0; k < 3; k++) {
        reset(d);
        cudaStream_t st = streams[k] < 0 ? 0 : stream[streams[k]];
        e = cudaMemcpyPeerAsync(buf[d], d, buf[s], s, SZ, st);
        OK(cudaStreamSynchronize(st));
        want_whole(s, d, e);
        line(s, d, mode, sname[k], e, judge(d));
    }

    /* 3D peer, pitched: 100 x 40 bytes from (4, 2) pitch 256 to (8, 1) pitch 512. */
    struct cudaMemcpy3DPeerParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(buf[s], 256, 256, 64);
    p.srcPos = make_cudaPos(4, 2, 0);
    p.srcDevice = s;
    p.dstPtr = make_cudaPitchedPtr(buf[d], 512, 512, 64);
    p.dstPos = make_cudaPos(8, 1, 0);
    p.dstDevice = d;
    p.extent = make_cudaExtent(100, 40, 1);
    reset(d);
    e = cudaMemcpy3DPeer(&p);
    want_region(s, d, e, 100, 40, 4, 2, 256, 8, 1, 512);
    line(s, d, mode, "cudaMemcpy3DPeer", e, judge(d));
    reset(d);
    e = cudaMemcpy3DPeerAsync(&p, stream[d]);
    OK(cudaStreamSynchronize(stream[d]));
    want_region(s, d, e, 100, 40, 4, 2, 256, 8, 1, 512);
    line(s, d, mode, "cudaMemcpy3DPeerAsync, destination's stream", e, judge(d));
    reset(d);
    e = cudaMemcpy3DPeerAsync(&p, stream[s]);
    OK(cudaStreamSynchronize(stream[s]));
    want_region(s, d, e, 100, 40, 4, 2, 256, 8, 1, 512);
    line(s, d, mode, "cudaMemcpy3DPeerAsync, source's stream", e, judge(d));

    /* 3D peer with arrays: the source's buffer into the destination's array, then the
     * source's array (filled from its buffer) into the destination's buffer. */
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(buf[s], 128, AW, AH);
    p.srcDevice = s;
    p.dstArray = arr[d];
    p.dstDevice = d;
    p.extent = make_cudaExtent(AW, AH, 1);
    reset(d);
    e = cudaMemcpy3DPeer(&p);
    read_array(d);
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++) want[y * AW + x] = e == cudaSuccess ? host[s][y * 128 + x] : 0;
    {
        int same = memcmp(got, want, AW * AH) == 0;
        CHECK(same);
        line(s, d, mode, "cudaMemcpy3DPeer pointer to the peer's array", e, same ? "bytes ok" : "bytes WRONG");
    }
    reset(s);
    OK(cudaMemcpy2DToArray(arr[s], 0, 0, host[s], AW, AW, AH, cudaMemcpyHostToDevice));
    OK(cudaDeviceSynchronize());
    memset(&p, 0, sizeof p);
    p.srcArray = arr[s];
    p.srcDevice = s;
    p.dstPtr = make_cudaPitchedPtr(buf[d], 256, AW, AH);
    p.dstDevice = d;
    p.extent = make_cudaExtent(AW, AH, 1);
    reset(d);
    e = cudaMemcpy3DPeerAsync(&p, stream[d]);
    OK(cudaStreamSynchronize(stream[d]));
    want_region(s, d, e, AW, AH, 0, 0, AW, 0, 0, 256);
    line(s, d, mode, "cudaMemcpy3DPeerAsync array to the peer's pointer", e, judge(d));
    reset(s);

    /* The copies that infer or are told the direction, across devices. */
    reset(d);
    e = cudaMemcpy(buf[d], buf[s], SZ, cudaMemcpyDefault);
    want_whole(s, d, e);
    line(s, d, mode, "cudaMemcpy Default", e, judge(d));
    reset(d);
    e = cudaMemcpy(buf[d], buf[s], SZ, cudaMemcpyDeviceToDevice);
    want_whole(s, d, e);
    line(s, d, mode, "cudaMemcpy DeviceToDevice", e, judge(d));
    reset(d);
    e = cudaMemcpyAsync(buf[d], buf[s], SZ, cudaMemcpyDefault, stream[d]);
    OK(cudaStreamSynchronize(stream[d]));
    want_whole(s, d, e);
    line(s, d, mode, "cudaMemcpyAsync Default, destination's stream", e, judge(d));
    reset(d);
    e = cudaMemcpyAsync(buf[d], buf[s], SZ, cudaMemcpyDeviceToDevice, stream[s]);
    OK(cudaStreamSynchronize(stream[s]));
    want_whole(s, d, e);
    line(s, d, mode, "cudaMemcpyAsync DeviceToDevice, source's stream", e, judge(d));
    reset(d);
    e = cudaMemcpy2D(buf[d] + 3, 512, buf[s] + 5, 256, 200, 30, cudaMemcpyDefault);
    want_region(s, d, e, 200, 30, 5, 0, 256, 3, 0, 512);
    line(s, d, mode, "cudaMemcpy2D Default", e, judge(d));
    reset(d);
    e = cudaMemcpy2DAsync(buf[d], 256, buf[s], 256, 256, 64, cudaMemcpyDeviceToDevice, stream[d]);
    OK(cudaStreamSynchronize(stream[d]));
    memcpy(want, e == cudaSuccess ? host[s] : host[d], 256 * 64);
    memcpy(want + 256 * 64, host[d] + 256 * 64, SZ - 256 * 64);
    line(s, d, mode, "cudaMemcpy2DAsync DeviceToDevice (whole rows)", e, judge(d));
    {
        struct cudaMemcpy3DParms q;
        memset(&q, 0, sizeof q);
        q.srcPtr = make_cudaPitchedPtr(buf[s], 256, 256, 16);
        q.srcPos = make_cudaPos(1, 1, 1);
        q.dstPtr = make_cudaPitchedPtr(buf[d], 256, 256, 16);
        q.extent = make_cudaExtent(64, 8, 2);
        q.kind = cudaMemcpyDefault;
        reset(d);
        e = cudaMemcpy3D(&q);
        memcpy(want, host[d], SZ);
        if (e == cudaSuccess)
            for (size_t z = 0; z < 2; z++)
                for (size_t y = 0; y < 8; y++)
                    memcpy(want + (z * 16 + y) * 256, host[s] + ((z + 1) * 16 + y + 1) * 256 + 1, 64);
        line(s, d, mode, "cudaMemcpy3D Default", e, judge(d));
    }

    /* Ordinals that name the wrong devices: swapped, and both the source's. */
    reset(d);
    e = cudaMemcpyPeer(buf[d], s, buf[s], d, SZ);
    want_whole(s, d, e);
    line(s, d, mode, "cudaMemcpyPeer, ordinals swapped", e, judge(d));
    reset(d);
    e = cudaMemcpyPeer(buf[d], s, buf[s], s, SZ);
    want_whole(s, d, e);
    line(s, d, mode, "cudaMemcpyPeer, both ordinals the source's", e, judge(d));
    /* Past the end of the destination. */
    reset(d);
    e = cudaMemcpyPeer(buf[d] + 16, d, buf[s], s, SZ);
    memcpy(want, host[d], SZ);
    line(s, d, mode, "cudaMemcpyPeer past the end", e, judge(d));
}

int main(void) {
    int n = ct_devices_or_skip();
    if (n > MAXD) n = MAXD;
    for (int d = 0; d < n; d++) {
        OK(cudaSetDevice(d));
        OK(cudaMalloc((void **)&buf[d], SZ));
        struct cudaChannelFormatDesc c = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
        OK(cudaMallocArray(&arr[d], &c, AW, AH, 0));
        OK(cudaStreamCreateWithFlags(&stream[d], cudaStreamNonBlocking));
        reset(d);
    }
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++) {
            if (s == d) continue;
            pair(s, d, "without peer access");
        }
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++) {
            if (s == d) continue;
            if (!ct_peers(s, d)) {
                printf("%d->%d: no peer access possible between them\n", s, d);
                continue;
            }
            OK(cudaSetDevice(d));
            OK(cudaDeviceEnablePeerAccess(s, 0));
            OK(cudaSetDevice(s));
            OK(cudaDeviceEnablePeerAccess(d, 0));
            pair(s, d, "with peer access");
            OK(cudaSetDevice(d));
            OK(cudaDeviceDisablePeerAccess(s));
            OK(cudaSetDevice(s));
            OK(cudaDeviceDisablePeerAccess(d));
        }
    for (int d = 0; d < n; d++) {
        OK(cudaSetDevice(d));
        OK(cudaStreamDestroy(stream[d]));
        OK(cudaFreeArray(arr[d]));
        OK(cudaFree(buf[d]));
    }
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
