/* Single rows and single slices: 2D and 3D copies and memsets of one row (height 1) or one
 * slice (depth 1), with pitches of 0, narrower than the row, equal, wider and beyond the
 * device's maximum, for every kind and every pair of memory types a kind allows (pageable,
 * pinned, device). Prints each result and, for each copy that succeeds, whether the row
 * arrived; the row's bytes must be right whatever the pitches said. */
#include "ctest.h"

#define W 3      /* the row: an odd number of bytes */
#define BUF 8192 /* every buffer */

enum { PAGEABLE, PINNED, DEVICE };
static const char *mem_name[] = {"pageable", "pinned", "device"};
static unsigned char *buf[3][2]; /* [memory type][0 source, 1 destination] */

static const size_t BIG = (size_t)1 << 40;

static void fill(int type, int which, unsigned char v0) {
    unsigned char tmp[BUF];
    for (int i = 0; i < BUF; i++) tmp[i] = (unsigned char)(v0 + i * 7);
    if (type == DEVICE)
        OK(cudaMemcpy(buf[type][which], tmp, BUF, cudaMemcpyHostToDevice));
    else
        memcpy(buf[type][which], tmp, BUF);
}

/* 1 if the first W bytes of the destination are the source's and the next byte is untouched. */
static int arrived(int stype, int dtype, size_t soff, size_t doff) {
    unsigned char s[W + 1], d[W + 1];
    OK(cudaMemcpy(s, buf[stype][0] + soff, W + 1, cudaMemcpyDefault));
    OK(cudaMemcpy(d, buf[dtype][1] + doff, W + 1, cudaMemcpyDefault));
    unsigned char next = (unsigned char)(0xc0 + (doff + W) * 7);
    return memcmp(s, d, W) == 0 && d[W] == next;
}

static const char *kind_name(enum cudaMemcpyKind k) {
    switch (k) {
    case cudaMemcpyHostToHost: return "H2H";
    case cudaMemcpyHostToDevice: return "H2D";
    case cudaMemcpyDeviceToHost: return "D2H";
    case cudaMemcpyDeviceToDevice: return "D2D";
    case cudaMemcpyDefault: return "Default";
    default: return "kind?";
    }
}

static int host(int t) { return t != DEVICE; }

/* May a copy of `kind` go from memory type s to d (without NVIDIA's runtime dereferencing a
 * device pointer as host memory)? */
static int allowed(enum cudaMemcpyKind k, int s, int d) {
    switch (k) {
    case cudaMemcpyHostToHost: return host(s) && host(d);
    case cudaMemcpyHostToDevice: return host(s) && d == DEVICE;
    case cudaMemcpyDeviceToHost: return s == DEVICE && host(d);
    case cudaMemcpyDeviceToDevice: return s == DEVICE && d == DEVICE;
    default: return 1;
    }
}

static const enum cudaMemcpyKind kinds[] = {cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
                                            cudaMemcpyDeviceToDevice, cudaMemcpyDefault};
static const size_t pitches[][2] = {{0, 0}, {0, W}, {W, 0}, {W - 1, W}, {W, W - 1}, {W, W}, {W + 13, W + 5}, {BIG, W}, {W, BIG}};

static void reset_bufs(void) {
    for (int t = 0; t < 3; t++) {
        fill(t, 0, 1);
        fill(t, 1, 0xc0);
    }
}

static void copies_2d(int async, cudaStream_t st) {
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (int s = 0; s < 3; s++)
            for (int d = 0; d < 3; d++) {
                if (!allowed(kinds[k], s, d)) continue;
                for (size_t p = 0; p < sizeof pitches / sizeof pitches[0]; p++) {
                    size_t dp = pitches[p][0], sp = pitches[p][1];
                    reset_bufs();
                    cudaError_t e = async
                        ? cudaMemcpy2DAsync(buf[d][1] + 5, dp, buf[s][0] + 2, sp, W, 1, kinds[k], st)
                        : cudaMemcpy2D(buf[d][1] + 5, dp, buf[s][0] + 2, sp, W, 1, kinds[k]);
                    if (async) OK(cudaStreamSynchronize(st));
                    printf("2D%s %s %s->%s dpitch %zu spitch %zu: %s", async ? "Async" : "", kind_name(kinds[k]),
                           mem_name[s], mem_name[d], dp, sp, cudaGetErrorName(e));
                    if (e == cudaSuccess) {
                        int ok = arrived(s, d, 2, 5);
                        CHECK(ok);
                        printf(", row %s", ok ? "arrived" : "WRONG");
                    }
                    printf(", last %s\n", cudaGetErrorName(cudaGetLastError()));
                }
            }
}

static void array_copies(void) {
    struct cudaChannelFormatDesc cd = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t a = NULL, a2 = NULL;
    OK(cudaMallocArray(&a, &cd, 64, 4, 0));
    OK(cudaMallocArray(&a2, &cd, 64, 4, 0));
    const size_t ap[] = {0, W - 1, W, W + 9, BIG};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (int s = 0; s < 3; s++) {
            /* To an array: the array is on the device. */
            if (!allowed(kinds[k], s, DEVICE)) continue;
            for (size_t p = 0; p < sizeof ap / sizeof ap[0]; p++) {
                /* A one-row copy between an array and device memory, or with
                 * cudaMemcpyDefault, with a pitch of 0 kills NVIDIA's runtime (SIGFPE, driver
                 * 580, 13.0.96 and 12.9.79). */
                if (ap[p] == 0 && (s == DEVICE || kinds[k] == cudaMemcpyDefault)) continue;
                reset_bufs();
                cudaError_t e = cudaMemcpy2DToArray(a, 1, 2, buf[s][0] + 2, ap[p], W, 1, kinds[k]);
                printf("2DToArray %s %s spitch %zu: %s", kind_name(kinds[k]), mem_name[s], ap[p], cudaGetErrorName(e));
                if (e == cudaSuccess) {
                    unsigned char got[W] = {0}, want[W];
                    OK(cudaMemcpy2DFromArray(got, W, a, 1, 2, W, 1, cudaMemcpyDeviceToHost));
                    OK(cudaMemcpy(want, buf[s][0] + 2, W, cudaMemcpyDefault));
                    CHECK(memcmp(got, want, W) == 0);
                    printf(", row %s", memcmp(got, want, W) == 0 ? "arrived" : "WRONG");
                }
                printf(", last %s\n", cudaGetErrorName(cudaGetLastError()));
                e = cudaMemcpy2DFromArray(buf[s][1] + 5, ap[p], a, 1, 2, W, 1,
                                          kinds[k] == cudaMemcpyHostToDevice ? cudaMemcpyDeviceToHost
                                          : kinds[k] == cudaMemcpyDeviceToHost ? cudaMemcpyHostToDevice
                                                                               : kinds[k]);
                printf("2DFromArray (reverse of %s) to %s dpitch %zu: %s, last %s\n", kind_name(kinds[k]), mem_name[s],
                       ap[p], cudaGetErrorName(e), cudaGetErrorName(cudaGetLastError()));
            }
        }
    SHOW("2DArrayToArray 1 row", cudaMemcpy2DArrayToArray(a2, 0, 0, a, 1, 2, W, 1, cudaMemcpyDeviceToDevice));
    SHOW("2DArrayToArray 1 row Default", cudaMemcpy2DArrayToArray(a2, 0, 0, a, 1, 2, W, 1, cudaMemcpyDefault));
    ct_free_arrays(a, a2, NULL);
}

static void copies_3d(int peer) {
    struct shape { size_t h, d; } shapes[] = {{1, 1}, {1, 2}, {2, 1}};
    const size_t ps[] = {0, W - 1, W, BIG};
    const size_t ys[] = {0, 1, 2};
    for (size_t sh = 0; sh < 3; sh++)
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            if (peer && kinds[k] != cudaMemcpyDefault) continue;
            int s = kinds[k] == cudaMemcpyDeviceToDevice || kinds[k] == cudaMemcpyDeviceToHost ? DEVICE : PINNED;
            int d = kinds[k] == cudaMemcpyHostToHost || kinds[k] == cudaMemcpyDeviceToHost ? PAGEABLE : DEVICE;
            if (peer) s = d = DEVICE;
            for (size_t p = 0; p < sizeof ps / sizeof ps[0]; p++)
                for (size_t y = 0; y < sizeof ys / sizeof ys[0]; y++) {
                    /* Several rows a huge pitch apart would reach past every allocation. */
                    if (ps[p] == BIG && shapes[sh].h * shapes[sh].d > 1) continue;
                    reset_bufs();
                    struct cudaExtent ext = make_cudaExtent(W, shapes[sh].h, shapes[sh].d);
                    cudaError_t e;
                    if (peer) {
                        struct cudaMemcpy3DPeerParms pp;
                        memset(&pp, 0, sizeof pp);
                        pp.srcPtr = make_cudaPitchedPtr(buf[s][0] + 2, ps[p], W, ys[y]);
                        pp.dstPtr = make_cudaPitchedPtr(buf[d][1] + 5, W + 16, W, 4);
                        pp.extent = ext;
                        pp.srcDevice = 0;
                        pp.dstDevice = 0;
                        e = cudaMemcpy3DPeer(&pp);
                    } else {
                        struct cudaMemcpy3DParms cp;
                        memset(&cp, 0, sizeof cp);
                        cp.srcPtr = make_cudaPitchedPtr(buf[s][0] + 2, ps[p], W, ys[y]);
                        cp.dstPtr = make_cudaPitchedPtr(buf[d][1] + 5, W + 16, W, 4);
                        cp.extent = ext;
                        cp.kind = kinds[k];
                        e = cudaMemcpy3D(&cp);
                    }
                    printf("3D%s %s %zux%zux%zu src pitch %zu ysize %zu: %s", peer ? "Peer" : "", kind_name(kinds[k]),
                           (size_t)W, shapes[sh].h, shapes[sh].d, ps[p], ys[y], cudaGetErrorName(e));
                    if (e == cudaSuccess) {
                        int ok = arrived(s, d, 2, 5);
                        CHECK(ok);
                        printf(", first row %s", ok ? "arrived" : "WRONG");
                    }
                    printf(", last %s\n", cudaGetErrorName(cudaGetLastError()));
                }
        }
}

static void memsets(void) {
    unsigned char *d = buf[DEVICE][1];
    const size_t ps[] = {0, W - 1, W, BIG};
    for (size_t p = 0; p < sizeof ps / sizeof ps[0]; p++) {
        reset_bufs();
        cudaError_t e = cudaMemset2D(d + 5, ps[p], 0x5a, W, 1);
        printf("Memset2D 1 row pitch %zu: %s", ps[p], cudaGetErrorName(e));
        if (e == cudaSuccess) {
            unsigned char got[W + 1];
            OK(cudaMemcpy(got, d + 5, W + 1, cudaMemcpyDeviceToHost));
            int ok = got[0] == 0x5a && got[W - 1] == 0x5a && got[W] != 0x5a;
            CHECK(ok);
            printf(", row %s", ok ? "set" : "WRONG");
        }
        printf(", last %s\n", cudaGetErrorName(cudaGetLastError()));
        e = cudaMemset2DAsync(d + 5, ps[p], 0x5a, W, 1, 0);
        OK(cudaDeviceSynchronize());
        printf("Memset2DAsync 1 row pitch %zu: %s, last %s\n", ps[p], cudaGetErrorName(e),
               cudaGetErrorName(cudaGetLastError()));
        for (size_t ys = 0; ys < 3; ys++) {
            e = cudaMemset3D(make_cudaPitchedPtr(d + 5, ps[p], W, ys), 0x5a, make_cudaExtent(W, 1, 1));
            printf("Memset3D %zux1x1 pitch %zu ysize %zu: %s, last %s\n", (size_t)W, ps[p], ys, cudaGetErrorName(e),
                   cudaGetErrorName(cudaGetLastError()));
            if (ps[p] == BIG) continue; /* two slices a huge pitch apart */
            e = cudaMemset3D(make_cudaPitchedPtr(d + 5, ps[p], W, ys), 0x5a, make_cudaExtent(W, 1, 2));
            printf("Memset3D %zux1x2 pitch %zu ysize %zu: %s, last %s\n", (size_t)W, ps[p], ys, cudaGetErrorName(e),
                   cudaGetErrorName(cudaGetLastError()));
        }
    }
}

int main(void) {
    for (int w = 0; w < 2; w++) {
        buf[PAGEABLE][w] = malloc(BUF);
        OK(cudaMallocHost((void **)&buf[PINNED][w], BUF));
        OK(cudaMalloc((void **)&buf[DEVICE][w], BUF));
    }
    cudaStream_t st;
    OK(cudaStreamCreate(&st));
    copies_2d(0, st);
    copies_2d(1, st);
    array_copies();
    copies_3d(0);
    copies_3d(1);
    memsets();
    OK(cudaStreamDestroy(st));
    for (int w = 0; w < 2; w++) {
        free(buf[PAGEABLE][w]);
        OK(cudaFreeHost(buf[PINNED][w]));
        OK(cudaFree(buf[DEVICE][w]));
    }
    DONE();
}
