/* 2D copies to, from and between CUDA arrays: data written through one path and read back
 * through another, offsets, the async and per-thread forms, and every error case. */
#include "array_util.h"

#define W 8 /* elements per row */
#define H 5 /* rows */

static void fill(unsigned int *p, size_t n, unsigned int base) {
    for (size_t i = 0; i < n; i++)
        p[i] = base + (unsigned int)i;
}

int main(void) {
    struct cudaChannelFormatDesc d = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t a = NULL, b = NULL;
    OK(SHOW("cudaMallocArray a", cudaMallocArray(&a, &d, W, H, 0)));
    OK(SHOW("cudaMallocArray b", cudaMallocArray(&b, &d, W, H, 0)));

    /* host -> array -> host, whole array, tight pitch */
    unsigned int src[H][W], dst[H][W];
    fill(&src[0][0], W * H, 1000);
    memset(dst, 0, sizeof dst);
    OK(SHOW("2DToArray whole", cudaMemcpy2DToArray(a, 0, 0, src, W * 4, W * 4, H, cudaMemcpyHostToDevice)));
    OK(SHOW("2DFromArray whole", cudaMemcpy2DFromArray(dst, W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost)));
    CHECK(memcmp(src, dst, sizeof src) == 0);
    printf("whole round trip equal: %d\n", memcmp(src, dst, sizeof src) == 0);

    /* array -> array, then read b back */
    OK(SHOW("2DArrayToArray whole", cudaMemcpy2DArrayToArray(b, 0, 0, a, 0, 0, W * 4, H, cudaMemcpyDeviceToDevice)));
    memset(dst, 0, sizeof dst);
    OK(cudaMemcpy2DFromArray(dst, W * 4, b, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    CHECK(memcmp(src, dst, sizeof src) == 0);
    printf("array to array equal: %d\n", memcmp(src, dst, sizeof src) == 0);

    /* a sub-rectangle at an offset, with a wide source pitch */
    unsigned int wide[3][12];
    fill(&wide[0][0], 3 * 12, 7);
    OK(SHOW("2DToArray offset", cudaMemcpy2DToArray(a, 2 * 4, 1, wide, 12 * 4, 3 * 4, 3, cudaMemcpyHostToDevice)));
    memset(dst, 0, sizeof dst);
    OK(cudaMemcpy2DFromArray(dst, W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++) {
        printf("row %d:", y);
        for (int x = 0; x < W; x++)
            printf(" %u", dst[y][x]);
        printf("\n");
    }
    /* read the same rectangle back to a wide destination pitch */
    unsigned int back[3][10];
    memset(back, 0, sizeof back);
    OK(SHOW("2DFromArray offset", cudaMemcpy2DFromArray(back, 10 * 4, a, 2 * 4, 1, 3 * 4, 3, cudaMemcpyDeviceToHost)));
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 3; x++)
            CHECK(back[y][x] == wide[y][x]);
    CHECK(back[0][3] == 0 && back[2][9] == 0);

    /* array to array between offsets */
    OK(SHOW("2DArrayToArray offsets", cudaMemcpy2DArrayToArray(b, 4 * 4, 3, a, 2 * 4, 1, 2 * 4, 2, cudaMemcpyDeviceToDevice)));
    memset(dst, 0, sizeof dst);
    OK(cudaMemcpy2DFromArray(dst, W * 4, b, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    printf("b row 3: %u %u %u %u\n", dst[3][3], dst[3][4], dst[3][5], dst[3][6]);
    printf("b row 4: %u %u %u %u\n", dst[4][3], dst[4][4], dst[4][5], dst[4][6]);
    CHECK(dst[3][4] == wide[0][0] && dst[3][5] == wide[0][1] && dst[4][4] == wide[1][0]);

    /* every kind that names a host side, and cudaMemcpyDefault */
    static const int kinds[] = {cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
                                cudaMemcpyDeviceToDevice, cudaMemcpyDefault, 5, -1, 100};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        char label[64];
        snprintf(label, sizeof label, "2DToArray kind %d", kinds[k]);
        SHOW(label, cudaMemcpy2DToArray(a, 0, 0, src, W * 4, W * 4, H, (enum cudaMemcpyKind)kinds[k]));
        SHOW_LAST(label);
        snprintf(label, sizeof label, "2DFromArray kind %d", kinds[k]);
        SHOW(label, cudaMemcpy2DFromArray(dst, W * 4, a, 0, 0, W * 4, H, (enum cudaMemcpyKind)kinds[k]));
        SHOW_LAST(label);
        snprintf(label, sizeof label, "2DArrayToArray kind %d", kinds[k]);
        SHOW(label, cudaMemcpy2DArrayToArray(b, 0, 0, a, 0, 0, W * 4, H, (enum cudaMemcpyKind)kinds[k]));
        SHOW_LAST(label);
    }
    fill(&src[0][0], W * H, 5000);
    OK(SHOW("2DToArray default", cudaMemcpy2DToArray(a, 0, 0, src, W * 4, W * 4, H, cudaMemcpyDefault)));
    memset(dst, 0, sizeof dst);
    OK(SHOW("2DFromArray default", cudaMemcpy2DFromArray(dst, W * 4, a, 0, 0, W * 4, H, cudaMemcpyDefault)));
    CHECK(memcmp(src, dst, sizeof src) == 0);

    /* async forms: null stream, a created stream, the per-thread stream */
    cudaStream_t s = NULL;
    OK(cudaStreamCreate(&s));
    cudaStream_t streams[3] = {0, s, cudaStreamPerThread};
    for (int i = 0; i < 3; i++) {
        char label[64];
        fill(&src[0][0], W * H, 100u * (unsigned)(i + 1));
        memset(dst, 0, sizeof dst);
        snprintf(label, sizeof label, "2DToArrayAsync stream %d", i);
        OK(SHOW(label, cudaMemcpy2DToArrayAsync(a, 0, 0, src, W * 4, W * 4, H, cudaMemcpyHostToDevice, streams[i])));
        snprintf(label, sizeof label, "2DFromArrayAsync stream %d", i);
        OK(SHOW(label, cudaMemcpy2DFromArrayAsync(dst, W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost, streams[i])));
        OK(cudaStreamSynchronize(streams[i]));
        CHECK(memcmp(src, dst, sizeof src) == 0);
    }
    SHOW("2DToArrayAsync bad kind", cudaMemcpy2DToArrayAsync(a, 0, 0, src, W * 4, W * 4, H, (enum cudaMemcpyKind)9, s));
    SHOW_LAST("async bad kind");
    OK(cudaStreamDestroy(s));

    /* bounds and pitch */
    SHOW("2DToArray width > spitch", cudaMemcpy2DToArray(a, 0, 0, src, 4, 8, 1, cudaMemcpyHostToDevice));
    SHOW_LAST("width > spitch");
    SHOW("2DToArray width > spitch 1 row", cudaMemcpy2DToArray(a, 0, 0, src, 4, 8, 1, cudaMemcpyHostToDevice));
    SHOW("2DToArray spitch 0", cudaMemcpy2DToArray(a, 0, 0, src, 0, 4, 2, cudaMemcpyHostToDevice));
    SHOW_LAST("spitch 0");
    SHOW("2DFromArray width > dpitch", cudaMemcpy2DFromArray(dst, 4, a, 0, 0, 8, 2, cudaMemcpyDeviceToHost));
    SHOW_LAST("width > dpitch");
    SHOW("2DToArray past width", cudaMemcpy2DToArray(a, 4, 0, src, W * 4, W * 4, 1, cudaMemcpyHostToDevice));
    SHOW_LAST("past width");
    SHOW("2DToArray wOffset at end", cudaMemcpy2DToArray(a, W * 4, 0, src, W * 4, 4, 1, cudaMemcpyHostToDevice));
    SHOW("2DToArray past height", cudaMemcpy2DToArray(a, 0, 1, src, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    SHOW_LAST("past height");
    SHOW("2DToArray hOffset at end", cudaMemcpy2DToArray(a, 0, H, src, W * 4, 4, 1, cudaMemcpyHostToDevice));
    SHOW("2DFromArray past width", cudaMemcpy2DFromArray(dst, W * 4, a, 4, 0, W * 4, 1, cudaMemcpyDeviceToHost));
    SHOW("2DFromArray past height", cudaMemcpy2DFromArray(dst, W * 4, a, 0, 3, 4, 3, cudaMemcpyDeviceToHost));
    SHOW_LAST("from past height");
    SHOW("2DArrayToArray dst past width", cudaMemcpy2DArrayToArray(b, 4, 0, a, 0, 0, W * 4, 1, cudaMemcpyDeviceToDevice));
    SHOW("2DArrayToArray src past width", cudaMemcpy2DArrayToArray(b, 0, 0, a, 4, 0, W * 4, 1, cudaMemcpyDeviceToDevice));
    SHOW("2DArrayToArray past height", cudaMemcpy2DArrayToArray(b, 0, 2, a, 0, 0, 4, H, cudaMemcpyDeviceToDevice));
    SHOW_LAST("a2a past height");
    SHOW("2DToArray unaligned offset", cudaMemcpy2DToArray(a, 1, 0, src, W * 4, 4, 1, cudaMemcpyHostToDevice));
    SHOW_LAST("unaligned offset");
    SHOW("2DToArray unaligned width", cudaMemcpy2DToArray(a, 0, 0, src, W * 4, 3, 1, cudaMemcpyHostToDevice));
    SHOW_LAST("unaligned width");

    /* zero-sized copies */
    SHOW("2DToArray width 0", cudaMemcpy2DToArray(a, 0, 0, src, W * 4, 0, H, cudaMemcpyHostToDevice));
    SHOW("2DToArray height 0", cudaMemcpy2DToArray(a, 0, 0, src, W * 4, 4, 0, cudaMemcpyHostToDevice));
    SHOW("2DToArray height 0 past", cudaMemcpy2DToArray(a, 1000, 1000, src, W * 4, 4, 0, cudaMemcpyHostToDevice));
    SHOW("2DFromArray width 0", cudaMemcpy2DFromArray(dst, W * 4, a, 0, 0, 0, H, cudaMemcpyDeviceToHost));
    SHOW("2DArrayToArray width 0", cudaMemcpy2DArrayToArray(b, 0, 0, a, 0, 0, 0, H, cudaMemcpyDeviceToDevice));
    SHOW_LAST("zero sized");

    /* null arguments */
    SHOW("2DToArray NULL array", cudaMemcpy2DToArray(NULL, 0, 0, src, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    SHOW_LAST("NULL dst array");
    SHOW("2DToArray NULL src", cudaMemcpy2DToArray(a, 0, 0, NULL, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    SHOW_LAST("NULL src");
    SHOW("2DFromArray NULL array", cudaMemcpy2DFromArray(dst, W * 4, NULL, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    SHOW_LAST("NULL src array");
    SHOW("2DFromArray NULL dst", cudaMemcpy2DFromArray(NULL, W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
    SHOW_LAST("NULL dst");
    SHOW("2DArrayToArray NULL dst", cudaMemcpy2DArrayToArray(NULL, 0, 0, a, 0, 0, 4, 1, cudaMemcpyDeviceToDevice));
    SHOW("2DArrayToArray NULL src", cudaMemcpy2DArrayToArray(b, 0, 0, NULL, 0, 0, 4, 1, cudaMemcpyDeviceToDevice));
    SHOW_LAST("a2a NULL");
    SHOW("2DToArray NULL array width 0", cudaMemcpy2DToArray(NULL, 0, 0, src, W * 4, 0, H, cudaMemcpyHostToDevice));
    SHOW_LAST("NULL array width 0");

    /* arrays of different element sizes */
    struct cudaChannelFormatDesc d16 = cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
    struct cudaChannelFormatDesc d8x4 = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    cudaArray_t c16 = NULL, c8x4 = NULL;
    OK(cudaMallocArray(&c16, &d16, 2 * W, H, 0));
    OK(cudaMallocArray(&c8x4, &d8x4, W, H, 0));
    SHOW("2DArrayToArray u32 -> u16", cudaMemcpy2DArrayToArray(c16, 0, 0, a, 0, 0, W * 4, H, cudaMemcpyDeviceToDevice));
    SHOW_LAST("u32 -> u16");
    SHOW("2DArrayToArray u32 -> uchar4", cudaMemcpy2DArrayToArray(c8x4, 0, 0, a, 0, 0, W * 4, H, cudaMemcpyDeviceToDevice));
    SHOW_LAST("u32 -> uchar4");
    memset(dst, 0, sizeof dst);
    if (cudaMemcpy2DFromArray(dst, W * 4, c8x4, 0, 0, W * 4, H, cudaMemcpyDeviceToHost) == cudaSuccess)
        printf("uchar4 copy equal: %d\n", memcmp(src, dst, sizeof src) == 0);
    SHOW_LAST("uchar4 read");
    /* a 16-bit array copied through bytes: same bytes back */
    unsigned short h16[H][2 * W], r16[H][2 * W];
    for (int i = 0; i < H * 2 * W; i++)
        (&h16[0][0])[i] = (unsigned short)(i * 3);
    OK(SHOW("2DToArray u16", cudaMemcpy2DToArray(c16, 0, 0, h16, sizeof h16[0], sizeof h16[0], H, cudaMemcpyHostToDevice)));
    memset(r16, 0, sizeof r16);
    OK(cudaMemcpy2DFromArray(r16, sizeof r16[0], c16, 0, 0, sizeof r16[0], H, cudaMemcpyDeviceToHost));
    CHECK(memcmp(h16, r16, sizeof h16) == 0);
    SHOW("2DToArray u16 odd offset", cudaMemcpy2DToArray(c16, 1, 0, h16, sizeof h16[0], 2, 1, cudaMemcpyHostToDevice));
    SHOW_LAST("u16 odd offset");
    ct_free_arrays(c16, c8x4, NULL);

    /* a 1D array: height 1 copies */
    cudaArray_t one = NULL;
    OK(cudaMallocArray(&one, &d, 16, 0, 0));
    unsigned int line[16], line2[16];
    fill(line, 16, 42);
    OK(SHOW("2DToArray 1D", cudaMemcpy2DToArray(one, 0, 0, line, sizeof line, sizeof line, 1, cudaMemcpyHostToDevice)));
    memset(line2, 0, sizeof line2);
    OK(SHOW("2DFromArray 1D", cudaMemcpy2DFromArray(line2, sizeof line2, one, 0, 0, sizeof line2, 1, cudaMemcpyDeviceToHost)));
    CHECK(memcmp(line, line2, sizeof line) == 0);
    SHOW("2DToArray 1D 2 rows", cudaMemcpy2DToArray(one, 0, 0, line, 32, 32, 2, cudaMemcpyHostToDevice));
    SHOW_LAST("1D 2 rows");
    SHOW("2DToArray 1D row 1", cudaMemcpy2DToArray(one, 0, 1, line, 32, 32, 1, cudaMemcpyHostToDevice));
    OK(cudaFreeArray(one));

    ct_free_arrays(a, b, NULL);
    DONE();
}
