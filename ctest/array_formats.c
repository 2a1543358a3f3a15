/* Channel descriptors: every kind and shape NVIDIA's runtime accepts or refuses for a CUDA
 * array, and the descriptor, extent and flags cudaArrayGetInfo reports back. */
#include "array_util.h"

struct fmt {
    int x, y, z, w, kind;
};

static const struct fmt formats[] = {
    /* signed, unsigned, float: 8/16/32 bits, 1/2/4 channels */
    {8, 0, 0, 0, 0}, {8, 8, 0, 0, 0}, {8, 8, 8, 8, 0},
    {16, 0, 0, 0, 0}, {16, 16, 0, 0, 0}, {16, 16, 16, 16, 0},
    {32, 0, 0, 0, 0}, {32, 32, 0, 0, 0}, {32, 32, 32, 32, 0},
    {8, 0, 0, 0, 1}, {8, 8, 0, 0, 1}, {8, 8, 8, 8, 1},
    {16, 0, 0, 0, 1}, {16, 16, 0, 0, 1}, {16, 16, 16, 16, 1},
    {32, 0, 0, 0, 1}, {32, 32, 0, 0, 1}, {32, 32, 32, 32, 1},
    {16, 0, 0, 0, 2}, {16, 16, 0, 0, 2}, {16, 16, 16, 16, 2},
    {32, 0, 0, 0, 2}, {32, 32, 0, 0, 2}, {32, 32, 32, 32, 2},
    /* normalized */
    {8, 0, 0, 0, 5}, {8, 8, 0, 0, 6}, {8, 8, 8, 8, 7},
    {16, 0, 0, 0, 8}, {16, 16, 0, 0, 9}, {16, 16, 16, 16, 10},
    {8, 0, 0, 0, 11}, {8, 8, 0, 0, 12}, {8, 8, 8, 8, 13},
    {16, 0, 0, 0, 14}, {16, 16, 0, 0, 15}, {16, 16, 16, 16, 16},
    /* block compressed */
    {8, 8, 8, 8, 17}, {8, 8, 8, 8, 18}, {8, 8, 8, 8, 19}, {8, 8, 8, 8, 20},
    {8, 8, 8, 8, 21}, {8, 8, 8, 8, 22}, {8, 0, 0, 0, 23}, {8, 0, 0, 0, 24},
    {8, 8, 0, 0, 25}, {8, 8, 0, 0, 26}, {16, 16, 16, 0, 27}, {16, 16, 16, 0, 28},
    {8, 8, 8, 8, 29}, {8, 8, 8, 8, 30},
    /* 10-10-10-2 and NV12 */
    {10, 10, 10, 2, 31}, {8, 8, 8, 0, 4},
    /* refused or doubtful shapes */
    {8, 8, 8, 0, 0}, {32, 32, 32, 0, 2}, {8, 0, 0, 0, 2}, {64, 0, 0, 0, 1},
    {0, 0, 0, 0, 1}, {8, 16, 0, 0, 1}, {8, 0, 8, 0, 1}, {0, 8, 0, 0, 1},
    {8, 8, 8, 16, 1}, {24, 0, 0, 0, 1}, {-8, 0, 0, 0, 1}, {8, 0, 0, 8, 1},
    {32, 0, 0, 0, 3}, {0, 0, 0, 0, 3}, {8, 0, 0, 0, 32}, {8, 0, 0, 0, -1},
    {8, 0, 0, 0, 1000}, {16, 0, 0, 0, 5}, {8, 8, 0, 0, 5}, {8, 0, 0, 0, 7},
    {8, 8, 8, 8, 23}, {8, 8, 8, 8, 4}, {8, 8, 0, 0, 4}, {0, 0, 0, 0, 17},
    {10, 10, 10, 10, 31}, {16, 16, 16, 16, 27},
};

int main(void) {
    struct cudaChannelFormatDesc c = cudaCreateChannelDesc(1, 2, 3, 4, cudaChannelFormatKindFloat);
    printf("cudaCreateChannelDesc: (%d,%d,%d,%d kind %d)\n", c.x, c.y, c.z, c.w, (int)c.f);
    c = mkdesc(-5, 0, 7, 9, 77);
    printf("cudaCreateChannelDesc odd: (%d,%d,%d,%d kind %d)\n", c.x, c.y, c.z, c.w, (int)c.f);
    SHOW_LAST("after cudaCreateChannelDesc");

    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        const struct fmt *f = &formats[i];
        struct cudaChannelFormatDesc d = mkdesc(f->x, f->y, f->z, f->w, f->kind);
        char label[96];
        snprintf(label, sizeof label, "(%d,%d,%d,%d kind %d)", f->x, f->y, f->z, f->w, f->kind);
        cudaArray_t a = NULL;
        /* 8x8: a multiple of the 4x4 blocks of compressed formats and even for NV12 */
        cudaError_t r = cudaMallocArray(&a, &d, 8, 8, 0);
        printf("%s cudaMallocArray 8x8: %s\n", label, cudaGetErrorName(r));
        if (r != cudaSuccess) {
            SHOW_LAST(label);
            continue;
        }
        show_info(label, a);
        struct cudaChannelFormatDesc g;
        memset(&g, 0, sizeof g);
        SHOW("  cudaGetChannelDesc", cudaGetChannelDesc(&g, a));
        printf("  channel desc: (%d,%d,%d,%d kind %d)\n", g.x, g.y, g.z, g.w, (int)g.f);
        OK(cudaFreeArray(a));

        /* the same format as a 1D array and a 3D array */
        r = cudaMallocArray(&a, &d, 16, 0, 0);
        printf("%s cudaMallocArray 1D 16: %s\n", label, cudaGetErrorName(r));
        if (r == cudaSuccess) {
            show_info("  1D", a);
            OK(cudaFreeArray(a));
        } else {
            SHOW_LAST(label);
        }
        r = cudaMalloc3DArray(&a, &d, make_cudaExtent(8, 8, 4), 0);
        printf("%s cudaMalloc3DArray 8x8x4: %s\n", label, cudaGetErrorName(r));
        if (r == cudaSuccess) {
            show_info("  3D", a);
            OK(cudaFreeArray(a));
        } else {
            SHOW_LAST(label);
        }
    }

    /* null arguments */
    struct cudaChannelFormatDesc d = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t a = NULL;
    SHOW("cudaMallocArray(NULL array)", cudaMallocArray(NULL, &d, 4, 4, 0));
    SHOW_LAST("NULL array");
    SHOW("cudaMallocArray(NULL desc)", cudaMallocArray(&a, NULL, 4, 4, 0));
    SHOW_LAST("NULL desc");
    SHOW("cudaMalloc3DArray(NULL array)", cudaMalloc3DArray(NULL, &d, make_cudaExtent(4, 4, 4), 0));
    SHOW("cudaMalloc3DArray(NULL desc)", cudaMalloc3DArray(&a, NULL, make_cudaExtent(4, 4, 4), 0));
    SHOW_LAST("NULL desc 3D");

    /* cudaArrayGetInfo with NULL outputs, and of NULL */
    OK(cudaMallocArray(&a, &d, 5, 3, 0));
    SHOW("cudaArrayGetInfo(all NULL)", cudaArrayGetInfo(NULL, NULL, NULL, a));
    struct cudaExtent e;
    SHOW("cudaArrayGetInfo(extent only)", cudaArrayGetInfo(NULL, &e, NULL, a));
    printf("extent only: %llu %llu %llu\n", (unsigned long long)e.width,
           (unsigned long long)e.height, (unsigned long long)e.depth);
    unsigned int fl = 99;
    SHOW("cudaArrayGetInfo(flags only)", cudaArrayGetInfo(NULL, NULL, &fl, a));
    SHOWU("flags only", fl);
    SHOW("cudaGetChannelDesc(NULL desc)", cudaGetChannelDesc(NULL, a));
    SHOW_LAST("NULL channel desc");
    SHOW("cudaArrayGetInfo(NULL array)", cudaArrayGetInfo(NULL, &e, NULL, NULL));
    SHOW_LAST("info of NULL");
    struct cudaChannelFormatDesc g;
    SHOW("cudaGetChannelDesc(NULL array)", cudaGetChannelDesc(&g, NULL));
    SHOW_LAST("channel desc of NULL");
    OK(SHOW("cudaFreeArray", cudaFreeArray(a)));
    SHOW("cudaFreeArray(NULL)", cudaFreeArray(NULL));
    SHOW_LAST("free NULL");
    DONE();
}
