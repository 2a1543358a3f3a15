/* cudaMemset3D: which cudaPitchedPtr fields NVIDIA's runtime checks against the extent
 * (pitch, xsize, ysize; one or several rows and slices). Where a call succeeds, exactly the
 * extent's bytes are set. */
#include "ctest.h"

int main(void) {
    enum { N = 4096 };
    static const struct {
        const char *label;
        size_t pitch, xsize, ysize, w, h, d;
    } cases[] = {
        {"1 row: pitch 24 xsize 24 ysize 0", 24, 24, 0, 24, 1, 1},
        {"1 row: pitch 24 xsize 0 ysize 1", 24, 0, 1, 24, 1, 1},
        {"1 row: pitch 0 xsize 24 ysize 1", 0, 24, 1, 24, 1, 1},
        {"1 row: pitch 8 xsize 8 ysize 1", 8, 8, 1, 24, 1, 1},
        {"1 row: pitch 8 xsize 24 ysize 1", 8, 24, 1, 24, 1, 1},
        {"1 row: pitch 32 xsize 16 ysize 5", 32, 16, 5, 24, 1, 1},
        {"2 rows: pitch 32 xsize 24 ysize 1", 32, 24, 1, 24, 2, 1},
        {"2 rows: pitch 32 xsize 24 ysize 0", 32, 24, 0, 24, 2, 1},
        {"2 rows: pitch 32 xsize 24 ysize 2", 32, 24, 2, 24, 2, 1},
        {"2 rows: pitch 16 xsize 24 ysize 2", 16, 24, 2, 24, 2, 1},
        {"2 rows: pitch 32 xsize 8 ysize 2", 32, 8, 2, 24, 2, 1},
        {"2 slices: pitch 32 xsize 24 ysize 2", 32, 24, 2, 24, 2, 2},
        {"2 slices: pitch 32 xsize 24 ysize 3", 32, 24, 3, 24, 2, 2},
        {"2 slices: pitch 32 xsize 24 ysize 1", 32, 24, 1, 24, 2, 2},
        {"2 slices: pitch 32 xsize 24 ysize 0", 32, 24, 0, 24, 2, 2},
        {"2 slices 1 row: pitch 32 xsize 24 ysize 0", 32, 24, 0, 24, 1, 2},
        {"2 slices 1 row: pitch 32 xsize 24 ysize 1", 32, 24, 1, 24, 1, 2},
        {"2 slices 1 row: pitch 8 xsize 24 ysize 1", 8, 24, 1, 24, 1, 2},
    };
    unsigned char *d = NULL;
    static unsigned char buf[N];
    OK(cudaMalloc((void **)&d, N));
    for (int k = 0; k < (int)(sizeof cases / sizeof cases[0]); k++) {
        OK(cudaMemset(d, 0xee, N));
        cudaError_t r = SHOW(cases[k].label, cudaMemset3D(make_cudaPitchedPtr(d, cases[k].pitch, cases[k].xsize, cases[k].ysize), 0x31,
                                                          make_cudaExtent(cases[k].w, cases[k].h, cases[k].d)));
        cudaGetLastError();
        OK(cudaMemcpy(buf, d, N, cudaMemcpyDeviceToHost));
        int bad = 0;
        for (size_t i = 0; i < N; i++) {
            int in = 0;
            if (r == cudaSuccess) {
                size_t slice = cases[k].pitch * cases[k].ysize;
                for (size_t z = 0; z < cases[k].d; z++)
                    for (size_t y = 0; y < cases[k].h; y++) {
                        size_t at = z * slice + y * cases[k].pitch;
                        if (i >= at && i < at + cases[k].w) in = 1;
                    }
            }
            bad += buf[i] != (in ? 0x31 : 0xee);
        }
        printf("  bytes as the extent says: %s\n", bad ? "no" : "yes");
        CHECK(bad == 0);
    }
    OK(cudaFree(d));
    DONE();
}
