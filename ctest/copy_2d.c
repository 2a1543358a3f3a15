/* cudaMemcpy2D: pitched copies between host and device with pitches wider than the rows,
 * offsets inside both ends, device-to-device, cudaMemcpyDefault, empty copies and the
 * failures (pitch narrower than the row, invalid kind, null pointers). */
#include "ctest.h"

#define W 40 /* row width in bytes */
#define H 6  /* rows */
#define HP 64 /* host pitch */

static unsigned char pat(int x, int y, int seed) { return (unsigned char)(x + 41 * y + 13 * seed + 1); }

int main(void) {
    unsigned char *d = NULL, *d2 = NULL;
    size_t dp = 0, dp2 = 0;
    OK(SHOW("cudaMallocPitch d", cudaMallocPitch((void **)&d, &dp, W, H)));
    OK(SHOW("cudaMallocPitch d2", cudaMallocPitch((void **)&d2, &dp2, W, H)));
    CHECK(dp >= W && dp2 >= W);
    if (!d || !d2) DONE();

    static unsigned char h[HP * H], back[HP * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < HP; x++) h[y * HP + x] = pat(x, y, 1);

    /* Host (pitch 64) -> device (its pitch) -> device -> host (pitch 64). */
    SHOW("2D H2D", cudaMemcpy2D(d, dp, h, HP, W, H, cudaMemcpyHostToDevice));
    SHOW("2D D2D", cudaMemcpy2D(d2, dp2, d, dp, W, H, cudaMemcpyDeviceToDevice));
    memset(back, 0xcc, sizeof back);
    SHOW("2D D2H", cudaMemcpy2D(back, HP, d2, dp2, W, H, cudaMemcpyDeviceToHost));
    {
        int ok = 1;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < HP; x++)
                ok &= back[y * HP + x] == (x < W ? pat(x, y, 1) : 0xcc);
        CHECK(ok);
        printf("2D round trip (padding untouched): %s\n", ok ? "ok" : "wrong");
    }

    /* A 10x3 block at (x 5, row 2) of the host image to (x 7, row 1) of the device image,
     * read back whole with cudaMemcpyDefault. */
    OK(cudaMemset2D(d, dp, 0, W, H));
    SHOW("2D H2D block", cudaMemcpy2D(d + 1 * dp + 7, dp, h + 2 * HP + 5, HP, 10, 3, cudaMemcpyHostToDevice));
    memset(back, 0xcc, sizeof back);
    SHOW("2D Default D2H whole", cudaMemcpy2D(back, W, d, dp, W, H, cudaMemcpyDefault));
    {
        int ok = 1;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int in = y >= 1 && y < 4 && x >= 7 && x < 17;
                unsigned char want = in ? pat(x - 7 + 5, y - 1 + 2, 1) : 0;
                ok &= back[y * W + x] == want;
            }
        CHECK(ok);
        printf("2D block at offsets: %s\n", ok ? "ok" : "wrong");
    }

    /* Host to host with different pitches, and pitch == width (contiguous). */
    static unsigned char hh[W * H];
    memset(hh, 0, sizeof hh);
    SHOW("2D H2H", cudaMemcpy2D(hh, W, h, HP, W, H, cudaMemcpyHostToHost));
    {
        int ok = 1;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) ok &= hh[y * W + x] == pat(x, y, 1);
        CHECK(ok);
        printf("2D H2H: %s\n", ok ? "ok" : "wrong");
    }
    /* cudaMemcpyDefault device to device into a contiguous cudaMalloc buffer. */
    unsigned char *lin = NULL;
    OK(cudaMalloc((void **)&lin, W * H));
    SHOW("2D Default D2D contiguous", cudaMemcpy2D(lin, W, d2, dp2, W, H, cudaMemcpyDefault));
    memset(back, 0, sizeof back);
    OK(cudaMemcpy(back, lin, W * H, cudaMemcpyDeviceToHost));
    {
        int ok = 1;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) ok &= back[y * W + x] == pat(x, y, 1);
        CHECK(ok);
        printf("2D Default D2D: %s\n", ok ? "ok" : "wrong");
    }

    /* Empty copies. */
    SHOW("2D width 0", cudaMemcpy2D(d, dp, h, HP, 0, H, cudaMemcpyHostToDevice));
    SHOW("2D height 0", cudaMemcpy2D(d, dp, h, HP, W, 0, cudaMemcpyHostToDevice));
    SHOW("2D width 0 NULL", cudaMemcpy2D(NULL, 0, NULL, 0, 0, 4, cudaMemcpyHostToDevice));
    SHOW("2D height 0 NULL", cudaMemcpy2D(NULL, 0, NULL, 0, 8, 0, cudaMemcpyDefault));
    SHOW("2D height 0 small pitch", cudaMemcpy2D(d, 1, h, 1, W, 0, cudaMemcpyHostToDevice));
    SHOW("2D width 0 kind 7", cudaMemcpy2D(d, dp, h, HP, 0, H, (enum cudaMemcpyKind)7));
    SHOW_LAST("empty copies");

    /* Pitches narrower than the row. */
    SHOW("2D dpitch < width", cudaMemcpy2D(d, W - 1, h, HP, W, H, cudaMemcpyHostToDevice));
    SHOW_LAST("dpitch < width");
    SHOW("2D spitch < width", cudaMemcpy2D(d, dp, h, W - 1, W, H, cudaMemcpyHostToDevice));
    SHOW_LAST("spitch < width");
    SHOW("2D both pitches < width", cudaMemcpy2D(d, 4, h, 4, W, H, cudaMemcpyDeviceToDevice));
    SHOW_LAST("both pitches < width");
    SHOW("2D spitch < width, 1 row", cudaMemcpy2D(d, dp, h, W - 1, W, 1, cudaMemcpyHostToDevice));
    SHOW_LAST("spitch < width, 1 row");
    SHOW("2D pitch 0", cudaMemcpy2D(d, 0, h, HP, W, H, cudaMemcpyHostToDevice));
    SHOW_LAST("pitch 0");
    /* Pitches beyond the device's maximum pitch (one row, so nothing past it is read). */
    SHOW("2D spitch 2^40, 1 row", cudaMemcpy2D(d, dp, h, (size_t)1 << 40, W, 1, cudaMemcpyHostToDevice));
    SHOW_LAST("spitch 2^40, 1 row");
    SHOW("2D dpitch 2^33, 1 row", cudaMemcpy2D(d, (size_t)1 << 33, h, HP, W, 1, cudaMemcpyHostToDevice));
    SHOW_LAST("dpitch 2^33, 1 row");

    /* Invalid kinds, with valid and with narrow pitches. */
    SHOW("2D kind 5", cudaMemcpy2D(d, dp, h, HP, W, H, (enum cudaMemcpyKind)5));
    SHOW_LAST("kind 5");
    SHOW("2D kind -1", cudaMemcpy2D(d, dp, h, HP, W, H, (enum cudaMemcpyKind)-1));
    SHOW_LAST("kind -1");
    SHOW("2D kind 5 narrow pitch", cudaMemcpy2D(d, 1, h, 1, W, H, (enum cudaMemcpyKind)5));
    SHOW_LAST("kind 5 narrow pitch");

    /* Null pointers. */
    SHOW("2D NULL dst", cudaMemcpy2D(NULL, dp, h, HP, W, H, cudaMemcpyHostToDevice));
    SHOW_LAST("NULL dst");
    SHOW("2D NULL src", cudaMemcpy2D(d, dp, NULL, HP, W, H, cudaMemcpyDeviceToDevice));
    SHOW_LAST("NULL src");

    /* A freed source. */
    OK(cudaFree(d2));
    SHOW("2D D2H freed src", cudaMemcpy2D(back, HP, d2, dp2, W, H, cudaMemcpyDeviceToHost));
    SHOW_LAST("freed src");

    ct_free_device(lin, d, NULL);
    DONE();
}
