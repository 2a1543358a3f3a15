/* 2D and 3D copies and memsets whose rows (and slices) follow each other without a gap
 * (pitch equal to the row width, rows per slice equal to the height), which cudart-rs runs
 * as one linear copy or memset, next to ones with gaps and offsets, which stay 2D/3D: every
 * kind and direction, synchronous and Async, and the bytes around each range untouched. */
#include "ctest.h"
#include <stdint.h>

#define BYTES (1 << 20)
#define G 256 /* guard before each range */

static unsigned char host_src[BYTES], host_dst[BYTES], want[BYTES];

static void fill(unsigned char *p, size_t n, unsigned seed) {
    uint32_t x = seed * 2654435761u + 3;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (unsigned char)(x >> 24);
    }
}

/* The device buffer read back whole. */
static void readback(const unsigned char *dev) { OK(cudaMemcpy(host_dst, dev, BYTES, cudaMemcpyDeviceToHost)); }

static int same(const unsigned char *a, const unsigned char *b, size_t n) { return !memcmp(a, b, n); }

int main(void) {
    unsigned char *dev = NULL, *dev2 = NULL, *pinned = NULL;
    OK(cudaMalloc((void **)&dev, BYTES));
    OK(cudaMalloc((void **)&dev2, BYTES));
    OK(cudaMallocHost((void **)&pinned, BYTES));
    cudaStream_t s = NULL;
    OK(cudaStreamCreate(&s));
    const size_t w = 173, h = 37;

    /* 2D, pitch == width at both ends, each kind; synchronous then Async. */
    static const struct {
        const char *name;
        enum cudaMemcpyKind kind;
        int src_dev, dst_dev;
    } kinds[] = {
        {"H2D", cudaMemcpyHostToDevice, 0, 1}, {"D2H", cudaMemcpyDeviceToHost, 1, 0},     {"D2D", cudaMemcpyDeviceToDevice, 1, 1},
        {"Default H2D", cudaMemcpyDefault, 0, 1}, {"Default D2H", cudaMemcpyDefault, 1, 0}, {"Default D2D", cudaMemcpyDefault, 1, 1},
    };
    for (int async = 0; async < 2; async++) {
        for (int k = 0; k < 6; k++) {
            int host_end = !kinds[k].src_dev || !kinds[k].dst_dev;
            for (int pin = 0; pin < 1 + host_end; pin++) {
                unsigned char *host = pin ? pinned : host_src;
                fill(want, BYTES, k * 4 + async * 2 + pin);
                /* Sources hold `want`; destinations start as 0x5a. */
                unsigned char *src = kinds[k].src_dev ? dev2 : host, *dst = kinds[k].dst_dev ? dev : host_dst;
                if (kinds[k].src_dev)
                    OK(cudaMemcpy(dev2, want, BYTES, cudaMemcpyHostToDevice));
                else
                    memcpy(host, want, BYTES);
                if (kinds[k].dst_dev)
                    OK(cudaMemset(dev, 0x5a, BYTES));
                else
                    memset(host_dst, 0x5a, BYTES);
                cudaError_t e = async ? cudaMemcpy2DAsync(dst + G, w, src + 3 * w, w, w, h, kinds[k].kind, s)
                                      : cudaMemcpy2D(dst + G, w, src + 3 * w, w, w, h, kinds[k].kind);
                if (async) OK(cudaStreamSynchronize(s));
                if (kinds[k].dst_dev) readback(dev);
                int exact = same(host_dst + G, want + 3 * w, w * h);
                int around = host_dst[G - 1] == 0x5a && host_dst[G + w * h] == 0x5a;
                printf("2D%s %s%s: %s, exact %d, around %d\n", async ? "Async" : "", kinds[k].name,
                       host_end ? (pin ? " pinned" : " pageable") : "", cudaGetErrorName(e), exact, around);
                CHECK(e == cudaSuccess && exact && around);
            }
        }
    }

    /* One row: the pitches are not used (0 or wider than the row). */
    fill(want, BYTES, 40);
    OK(cudaMemcpy(dev2, want, BYTES, cudaMemcpyHostToDevice));
    OK(cudaMemset(dev, 0, BYTES));
    SHOW("2D one row, pitches 0", cudaMemcpy2D(dev + 10, 0, dev2 + 20, 0, 5000, 1, cudaMemcpyDeviceToDevice));
    SHOW("2D one row, wide pitches", cudaMemcpy2D(dev + 9000, 9999, dev2 + 30, 8000, 5000, 1, cudaMemcpyDeviceToDevice));
    readback(dev);
    printf("one-row copies exact: %d\n", same(host_dst + 10, want + 20, 5000) && same(host_dst + 9000, want + 30, 5000));
    CHECK(same(host_dst + 10, want + 20, 5000) && same(host_dst + 9000, want + 30, 5000));

    /* With a gap at one end only: still 2D, still exact. */
    OK(cudaMemset(dev, 0, BYTES));
    OK(cudaMemcpy2D(dev, w + 8, dev2, w, w, h, cudaMemcpyDeviceToDevice));
    readback(dev);
    int gap = 1;
    for (size_t r = 0; r < h; r++) gap &= same(host_dst + r * (w + 8), want + r * w, w) && host_dst[r * (w + 8) + w] == 0;
    printf("2D with a gap: %d\n", gap);
    CHECK(gap);

    /* A pitch narrower than the row is still refused before anything moves. */
    SHOW("2D pitch narrower than the row", cudaMemcpy2D(dev, w - 1, dev2, w, w, h, cudaMemcpyDeviceToDevice));
    SHOW_LAST("2D narrow pitch");

    /* 3D: whole slices (ysize == height, pitch == width), each direction; then offsets. */
    const size_t d = 5, hh = 11;
    for (int k = 0; k < 6; k++) {
        fill(want, BYTES, 50 + k);
        unsigned char *src = kinds[k].src_dev ? dev2 : host_src, *dst = kinds[k].dst_dev ? dev : host_dst;
        if (kinds[k].src_dev)
            OK(cudaMemcpy(dev2, want, BYTES, cudaMemcpyHostToDevice));
        else
            memcpy(host_src, want, BYTES);
        if (kinds[k].dst_dev)
            OK(cudaMemset(dev, 0x5a, BYTES));
        else
            memset(host_dst, 0x5a, BYTES);
        struct cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(src + 7, w, w, hh);
        p.dstPtr = make_cudaPitchedPtr(dst + G, w, w, hh);
        p.extent = make_cudaExtent(w, hh, d);
        p.kind = kinds[k].kind;
        cudaError_t e = k % 2 ? cudaMemcpy3DAsync(&p, s) : cudaMemcpy3D(&p);
        OK(cudaStreamSynchronize(s));
        OK(cudaDeviceSynchronize());
        if (kinds[k].dst_dev) readback(dev);
        int exact = same(host_dst + G, want + 7, w * hh * d), around = host_dst[G - 1] == 0x5a && host_dst[G + w * hh * d] == 0x5a;
        printf("3D%s whole slices %s: %s, exact %d, around %d\n", k % 2 ? "Async" : "", kinds[k].name, cudaGetErrorName(e), exact, around);
        CHECK(e == cudaSuccess && exact && around);
    }
    /* Positions and more rows per slice than the copy: not linear, still exact. */
    fill(want, BYTES, 60);
    OK(cudaMemcpy(dev2, want, BYTES, cudaMemcpyHostToDevice));
    OK(cudaMemset(dev, 0, BYTES));
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(dev2, w, w, hh + 2);
    p.dstPtr = make_cudaPitchedPtr(dev, w, w, hh + 2);
    p.srcPos = make_cudaPos(0, 1, 1);
    p.dstPos = make_cudaPos(0, 2, 0);
    p.extent = make_cudaExtent(w, hh, d);
    p.kind = cudaMemcpyDeviceToDevice;
    SHOW("3D with positions", cudaMemcpy3D(&p));
    readback(dev);
    int pos = 1;
    for (size_t z = 0; z < d; z++)
        for (size_t y = 0; y < hh; y++)
            pos &= same(host_dst + (z * (hh + 2) + y + 2) * w, want + ((z + 1) * (hh + 2) + y + 1) * w, w);
    printf("3D with positions exact: %d\n", pos);
    CHECK(pos);
    /* An x position with pitch == width: the driver's range check, as before. */
    p.srcPtr = make_cudaPitchedPtr(dev2, w, w, hh);
    p.dstPtr = make_cudaPitchedPtr(dev, w, w, hh);
    p.srcPos = make_cudaPos(1, 0, 0);
    p.dstPos = make_cudaPos(0, 0, 0);
    SHOW("3D with an x position past the pitch", cudaMemcpy3D(&p));
    SHOW_LAST("3D x position");

    /* Memsets: contiguous 2D and 3D, then with gaps. */
    OK(cudaMemset(dev, 0x11, BYTES));
    OK(SHOW("memset2D pitch == width", cudaMemset2D(dev + G, w, 0x22, w, h)));
    OK(SHOW("memset2DAsync pitch == width", cudaMemset2DAsync(dev + G + w * h + G, w, 0x33, w, h, s)));
    OK(cudaStreamSynchronize(s));
    OK(SHOW("memset3D whole slices", cudaMemset3D(make_cudaPitchedPtr(dev + 4 * BYTES / 8, w, w, hh), 0x44, make_cudaExtent(w, hh, d))));
    OK(SHOW("memset2D with a gap", cudaMemset2D(dev + 6 * BYTES / 8, w + 5, 0x55, w, h)));
    readback(dev);
    int m = 1;
    size_t a = G, b = G + w * h + G, c = 4 * BYTES / 8, e2 = 6 * BYTES / 8;
    for (size_t i = 0; i < w * h; i++) m &= host_dst[a + i] == 0x22 && host_dst[b + i] == 0x33;
    m &= host_dst[a - 1] == 0x11 && host_dst[a + w * h] == 0x11 && host_dst[b - 1] == 0x11 && host_dst[b + w * h] == 0x11;
    for (size_t i = 0; i < w * hh * d; i++) m &= host_dst[c + i] == 0x44;
    m &= host_dst[c - 1] == 0x11 && host_dst[c + w * hh * d] == 0x11;
    for (size_t r = 0; r < h; r++)
        for (size_t i = 0; i < w + 5; i++) m &= host_dst[e2 + r * (w + 5) + i] == (i < w ? 0x55 : 0x11);
    printf("memsets exact: %d\n", m);
    CHECK(m);
    SHOW("memset2D pitch narrower than the row", cudaMemset2D(dev, w - 1, 0, w, h));
    SHOW_LAST("memset2D narrow pitch");

    OK(cudaStreamDestroy(s));
    ct_free_device(dev, dev2, NULL);
    OK(cudaFreeHost(pinned));
    DONE();
}
