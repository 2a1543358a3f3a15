/* The deprecated linear copies to, from and between arrays (cudaMemcpyToArray and
 * friends, declared by both ABIs' headers): bytes fill the array's rows from the offset on. */
#include "array_util.h"

#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

#define W 6
#define H 4

static void dump(const char *label, cudaArray_t a) {
    unsigned int v[H][W];
    memset(v, 0, sizeof v);
    cudaError_t r = cudaMemcpy2DFromArray(v, W * 4, a, 0, 0, W * 4, H, cudaMemcpyDeviceToHost);
    printf("%s (%s):\n", label, cudaGetErrorName(r));
    for (int y = 0; y < H; y++) {
        printf(" ");
        for (int x = 0; x < W; x++)
            printf(" %u", v[y][x]);
        printf("\n");
    }
}

int main(void) {
    struct cudaChannelFormatDesc d = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t a = NULL, b = NULL;
    OK(cudaMallocArray(&a, &d, W, H, 0));
    OK(cudaMallocArray(&b, &d, W, H, 0));
    unsigned int zero[H][W];
    memset(zero, 0, sizeof zero);
    OK(cudaMemcpy2DToArray(a, 0, 0, zero, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    OK(cudaMemcpy2DToArray(b, 0, 0, zero, W * 4, W * 4, H, cudaMemcpyHostToDevice));

    unsigned int src[W * H];
    for (int i = 0; i < W * H; i++)
        src[i] = 1 + (unsigned)i;

    SHOW("ToArray within a row", cudaMemcpyToArray(a, 4, 0, src, 8, cudaMemcpyHostToDevice));
    dump("after within a row", a);
    SHOW("ToArray across rows", cudaMemcpyToArray(a, 8, 1, src, 40, cudaMemcpyHostToDevice));
    dump("after across rows", a);
    SHOW("ToArray whole", cudaMemcpyToArray(b, 0, 0, src, sizeof src, cudaMemcpyHostToDevice));
    dump("b after whole", b);
    SHOW("ToArray past end", cudaMemcpyToArray(a, 0, 1, src, sizeof src, cudaMemcpyHostToDevice));
    SHOW_LAST("past end");
    SHOW("ToArray wOffset past row", cudaMemcpyToArray(a, W * 4 + 4, 0, src, 4, cudaMemcpyHostToDevice));
    SHOW_LAST("wOffset past row");
    SHOW("ToArray count 0", cudaMemcpyToArray(a, 0, 0, src, 0, cudaMemcpyHostToDevice));
    SHOW("ToArray bad kind", cudaMemcpyToArray(a, 0, 0, src, 4, (enum cudaMemcpyKind)7));
    SHOW_LAST("bad kind");
    SHOW("ToArray NULL array", cudaMemcpyToArray(NULL, 0, 0, src, 4, cudaMemcpyHostToDevice));
    SHOW_LAST("NULL array");

    unsigned int out[W * H];
    memset(out, 0, sizeof out);
    SHOW("FromArray whole", cudaMemcpyFromArray(out, b, 0, 0, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(memcmp(out, src, sizeof src) == 0);
    memset(out, 0, sizeof out);
    SHOW("FromArray across rows", cudaMemcpyFromArray(out, b, 12, 1, 28, cudaMemcpyDeviceToHost));
    printf("from across rows:");
    for (int i = 0; i < 8; i++)
        printf(" %u", out[i]);
    printf("\n");
    SHOW("FromArray past end", cudaMemcpyFromArray(out, b, 4, 3, 24, cudaMemcpyDeviceToHost));
    SHOW_LAST("from past end");
    SHOW("FromArray NULL array", cudaMemcpyFromArray(out, NULL, 0, 0, 4, cudaMemcpyDeviceToHost));
    SHOW_LAST("from NULL array");

    SHOW("ArrayToArray", cudaMemcpyArrayToArray(a, 0, 2, b, 4, 0, 40, cudaMemcpyDeviceToDevice));
    dump("after array to array", a);
    SHOW("ArrayToArray past end", cudaMemcpyArrayToArray(a, 0, 3, b, 0, 0, 40, cudaMemcpyDeviceToDevice));
    SHOW_LAST("a2a past end");
    SHOW("ArrayToArray bad kind", cudaMemcpyArrayToArray(a, 0, 0, b, 0, 0, 4, (enum cudaMemcpyKind)-3));
    SHOW_LAST("a2a bad kind");

    /* async forms */
    memset(out, 0, sizeof out);
    SHOW("ToArrayAsync", cudaMemcpyToArrayAsync(a, 0, 0, src, sizeof src, cudaMemcpyHostToDevice, 0));
    SHOW("FromArrayAsync", cudaMemcpyFromArrayAsync(out, a, 0, 0, sizeof out, cudaMemcpyDeviceToHost, 0));
    OK(cudaDeviceSynchronize());
    CHECK(memcmp(out, src, sizeof src) == 0);
    SHOW("ToArrayAsync per-thread", cudaMemcpyToArrayAsync(a, 4, 1, src, 12, cudaMemcpyHostToDevice, cudaStreamPerThread));
    OK(cudaStreamSynchronize(cudaStreamPerThread));
    dump("after per-thread", a);

    ct_free_arrays(a, b, NULL);
    DONE();
}
