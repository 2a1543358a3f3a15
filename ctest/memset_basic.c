/* cudaMemset, cudaMemset2D and cudaMemset3D (and their Async forms): only the low byte of
 * the value is used, rows and slices are set and the padding between them is not; empty
 * sizes, narrow pitches, null and freed pointers. */
#include "ctest.h"

#define N 300
static unsigned char buf[4096];

/* Sets var to the number of bytes of buf[0..n) that differ from `want`, an expression of i. */
#define COUNT_BAD(var, n, want)                                                          \
    do {                                                                                 \
        var = 0;                                                                         \
        for (int i = 0; i < (n); i++) var += buf[i] != (unsigned char)(want);            \
    } while (0)

int main(void) {
    unsigned char *d = NULL;
    OK(SHOW("cudaMalloc", cudaMalloc((void **)&d, 4096)));
    if (!d) DONE();

    /* 1D: whole buffer, a middle range, and values beyond a byte. */
    SHOW("memset 0xab", cudaMemset(d, 0xab, N));
    SHOW("memset [10,50) 0x1234", cudaMemset(d + 10, 0x1234, 40));
    SHOW("memset [60,61) -1", cudaMemset(d + 60, -1, 1));
    SHOW("memset [61,63) 256+7", cudaMemset(d + 61, 256 + 7, 2));
    memset(buf, 0, sizeof buf);
    OK(cudaMemcpy(buf, d, N, cudaMemcpyDeviceToHost));
    {
        int bad;
        COUNT_BAD(bad, N, i >= 10 && i < 50 ? 0x34 : i == 60 ? 0xff : (i == 61 || i == 62) ? 7 : 0xab);
        CHECK(bad == 0);
        SHOWI("1D wrong bytes", bad);
    }
    SHOW("memset 0 bytes", cudaMemset(d, 1, 0));
    SHOW("memset 0 bytes NULL", cudaMemset(NULL, 1, 0));
    SHOW("memset NULL", cudaMemset(NULL, 1, 16));
    SHOW_LAST("memset NULL");

    /* Async on the null stream and on a created stream. */
    cudaStream_t s = NULL;
    OK(cudaStreamCreate(&s));
    SHOW("memsetAsync stream 0", cudaMemsetAsync(d, 0x11, 128, 0));
    SHOW("memsetAsync stream", cudaMemsetAsync(d + 128, 0x22, 128, s));
    SHOW("memsetAsync per-thread", cudaMemsetAsync(d + 256, 0x33, 44, cudaStreamPerThread));
    OK(SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s)));
    OK(cudaDeviceSynchronize());
    OK(cudaMemcpy(buf, d, N, cudaMemcpyDeviceToHost));
    {
        int bad;
        COUNT_BAD(bad, N, i < 128 ? 0x11 : i < 256 ? 0x22 : 0x33);
        CHECK(bad == 0);
        SHOWI("async wrong bytes", bad);
    }
    SHOW("memsetAsync NULL", cudaMemsetAsync(NULL, 1, 16, s));
    SHOW_LAST("memsetAsync NULL");
    SHOW("memsetAsync 0 bytes", cudaMemsetAsync(NULL, 1, 0, s));

    /* 2D: 5 rows of 12 bytes, pitch 32, starting at byte 3; the padding keeps 0xee. */
    OK(cudaMemset(d, 0xee, 4096));
    SHOW("memset2D", cudaMemset2D(d + 3, 32, 0x5c, 12, 5));
    OK(cudaMemcpy(buf, d, 256, cudaMemcpyDeviceToHost));
    {
        int bad;
        COUNT_BAD(bad, 256, (i >= 3 && i < 3 + 32 * 5 && (i - 3) % 32 < 12) ? 0x5c : 0xee);
        CHECK(bad == 0);
        SHOWI("2D wrong bytes", bad);
    }
    SHOW("memset2DAsync", cudaMemset2DAsync(d, 16, 0x01, 16, 4, s));
    OK(cudaStreamSynchronize(s));
    OK(cudaMemcpy(buf, d, 64, cudaMemcpyDeviceToHost));
    {
        int bad;
        COUNT_BAD(bad, 64, 0x01);
        CHECK(bad == 0);
    }
    /* One row: the pitch is not used. */
    OK(cudaMemset(d, 0xee, 4096));
    SHOW("memset2D 1 row pitch 0", cudaMemset2D(d, 0, 0x77, 20, 1));
    SHOW("memset2D 1 row pitch < width", cudaMemset2D(d + 100, 5, 0x78, 20, 1));
    OK(cudaMemcpy(buf, d, 200, cudaMemcpyDeviceToHost));
    {
        int bad;
        COUNT_BAD(bad, 200, i < 20 ? 0x77 : (i >= 100 && i < 120) ? 0x78 : 0xee);
        CHECK(bad == 0);
        SHOWI("2D one row wrong bytes", bad);
    }
    SHOW("memset2D width 0", cudaMemset2D(d, 32, 1, 0, 4));
    SHOW("memset2D height 0", cudaMemset2D(d, 32, 1, 8, 0));
    SHOW("memset2D empty NULL", cudaMemset2D(NULL, 0, 1, 0, 0));
    SHOW("memset2D pitch < width", cudaMemset2D(d, 8, 1, 16, 4));
    SHOW_LAST("memset2D pitch < width");
    SHOW("memset2D pitch 0", cudaMemset2D(d, 0, 1, 16, 4));
    SHOW_LAST("memset2D pitch 0");
    SHOW("memset2D pitch == width", cudaMemset2D(d, 16, 2, 16, 4));
    SHOW("memset2D NULL", cudaMemset2D(NULL, 32, 1, 8, 4));
    SHOW_LAST("memset2D NULL");
    SHOW("memset2DAsync pitch < width", cudaMemset2DAsync(d, 8, 1, 16, 4, s));
    SHOW_LAST("memset2DAsync pitch < width");

    /* 3D on cudaMalloc3D memory: 10 bytes x 3 rows x 2 slices of a 16 x 4 x 3 volume. */
    struct cudaPitchedPtr v;
    OK(SHOW("cudaMalloc3D", cudaMalloc3D(&v, make_cudaExtent(16, 4, 3))));
    size_t vbytes = v.pitch * 4 * 3;
    unsigned char *vb = (unsigned char *)malloc(vbytes);
    OK(cudaMemset(v.ptr, 0xee, vbytes));
    SHOW("memset3D", cudaMemset3D(v, 0x42, make_cudaExtent(10, 3, 2)));
    OK(cudaMemcpy(vb, v.ptr, vbytes, cudaMemcpyDeviceToHost));
    {
        int bad = 0;
        for (size_t z = 0; z < 3; z++)
            for (size_t y = 0; y < 4; y++)
                for (size_t x = 0; x < v.pitch; x++) {
                    int in = x < 10 && y < 3 && z < 2;
                    bad += vb[(z * 4 + y) * v.pitch + x] != (in ? 0x42 : 0xee);
                }
        CHECK(bad == 0);
        SHOWI("3D wrong bytes", bad);
    }
    /* Whole volume (slices follow each other), then Async at an offset pointer. */
    SHOW("memset3D whole", cudaMemset3D(v, 0x10, make_cudaExtent(16, 4, 3)));
    struct cudaPitchedPtr off = v;
    off.ptr = (char *)v.ptr + v.pitch + 2; /* row 1, byte 2 */
    SHOW("memset3DAsync offset", cudaMemset3DAsync(off, 0x20, make_cudaExtent(5, 2, 3), s));
    OK(cudaStreamSynchronize(s));
    OK(cudaMemcpy(vb, v.ptr, vbytes, cudaMemcpyDeviceToHost));
    {
        int bad = 0;
        for (size_t z = 0; z < 3; z++)
            for (size_t y = 0; y < 4; y++)
                for (size_t x = 0; x < 16; x++) {
                    int in = x >= 2 && x < 7 && y >= 1 && y < 3;
                    bad += vb[(z * 4 + y) * v.pitch + x] != (in ? 0x20 : 0x10);
                }
        CHECK(bad == 0);
        SHOWI("3D offset wrong bytes", bad);
    }
    /* A pitched pointer over plain cudaMalloc memory: pitch 8, 3 rows per slice. */
    OK(cudaMemset(d, 0xee, 4096));
    SHOW("memset3D linear", cudaMemset3D(make_cudaPitchedPtr(d, 8, 8, 3), 0x99, make_cudaExtent(4, 2, 3)));
    OK(cudaMemcpy(buf, d, 96, cudaMemcpyDeviceToHost));
    {
        int bad;
        COUNT_BAD(bad, 96, (i < 72 && (i % 24) / 8 < 2 && i % 8 < 4) ? 0x99 : 0xee);
        CHECK(bad == 0);
        SHOWI("3D linear wrong bytes", bad);
    }
    /* One row and one slice: unlike cudaMemset2D, a pitch narrower than the row is refused
     * (where a call succeeds, its bytes must be set). */
    {
        static const struct {
            const char *label;
            size_t pitch, xsize, ysize;
        } one[] = {
            {"memset3D 1x1 pitch 0", 0, 0, 0},
            {"memset3D 1x1 pitch < width", 8, 24, 1},
            {"memset3D 1x1 pitch == width, ysize 0", 24, 0, 0},
            {"memset3D 1x1 pitch > width, ysize 1", 32, 24, 1},
        };
        for (int k = 0; k < (int)(sizeof one / sizeof one[0]); k++) {
            OK(cudaMemset(d, 0xee, 64));
            cudaError_t r = SHOW(one[k].label, cudaMemset3D(make_cudaPitchedPtr(d, one[k].pitch, one[k].xsize, one[k].ysize), 0x31, make_cudaExtent(24, 1, 1)));
            cudaGetLastError();
            OK(cudaMemcpy(buf, d, 32, cudaMemcpyDeviceToHost));
            int bad;
            COUNT_BAD(bad, 32, (r == cudaSuccess && i < 24) ? 0x31 : 0xee);
            CHECK(bad == 0);
        }
    }
    /* Empty extents and failures. */
    SHOW("memset3D width 0", cudaMemset3D(v, 1, make_cudaExtent(0, 4, 3)));
    SHOW("memset3D height 0", cudaMemset3D(v, 1, make_cudaExtent(16, 0, 3)));
    SHOW("memset3D depth 0", cudaMemset3D(v, 1, make_cudaExtent(16, 4, 0)));
    SHOW("memset3D empty NULL", cudaMemset3D(make_cudaPitchedPtr(NULL, 0, 0, 0), 1, make_cudaExtent(0, 0, 0)));
    SHOW("memset3D pitch < width", cudaMemset3D(make_cudaPitchedPtr(d, 4, 8, 3), 1, make_cudaExtent(8, 2, 2)));
    SHOW_LAST("memset3D pitch < width");
    SHOW("memset3D NULL", cudaMemset3D(make_cudaPitchedPtr(NULL, 64, 16, 4), 1, make_cudaExtent(16, 4, 3)));
    SHOW_LAST("memset3D NULL");

    /* Freed memory. */
    OK(cudaFree(v.ptr));
    SHOW("memset freed", cudaMemset(v.ptr, 1, 16));
    SHOW_LAST("memset freed");
    SHOW("memset2D freed", cudaMemset2D(v.ptr, v.pitch, 1, 16, 4));
    SHOW_LAST("memset2D freed");
    SHOW("memset3D freed", cudaMemset3D(v, 1, make_cudaExtent(16, 4, 3)));
    SHOW_LAST("memset3D freed");

    free(vb);
    OK(cudaStreamDestroy(s));
    OK(cudaFree(d));
    DONE();
}
