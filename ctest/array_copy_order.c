/* The order of the checks of the copies to, from and between CUDA arrays, as the
 * differential tester (ctest/difftest) found NVIDIA's runtime makes them: an empty copy, then
 * several rows' pitch, then the kind, then the array (the driver's invalid handle for a null
 * one); cudaMemcpy2DArrayToArray looks up only its source, the destination is the driver's.
 * The deprecated linear copies check the count, then the kind (two kinds are invalid
 * directions, other values copy nothing), then the array, and copy in up to three pieces with
 * no bounds check of their own: a copy that leaves the array fails after the pieces before it
 * were copied. */
#include <stdint.h>
#include "ctest.h"


#define AW 8 /* bytes a row (8 unsigned chars) */
#define AH 4 /* rows */

static unsigned char init_val(int i) { return (unsigned char)(0xa0 + i); }

static void fill(cudaArray_t a) {
    unsigned char b[AW * AH];
    for (int i = 0; i < AW * AH; i++) b[i] = init_val(i);
    OK(cudaMemcpy2DToArray(a, 0, 0, b, AW, AW, AH, cudaMemcpyHostToDevice));
}

/* Prints which bytes of the array differ from their initial value, row by row ('.' the same,
 * 'x' changed). */
static void show_changed(const char *label, cudaArray_t a) {
    unsigned char b[AW * AH];
    OK(cudaMemcpy2DFromArray(b, AW, a, 0, 0, AW, AH, cudaMemcpyDeviceToHost));
    printf("%s:", label);
    for (int y = 0; y < AH; y++) {
        printf(" ");
        for (int x = 0; x < AW; x++) {
            int i = y * AW + x;
            printf("%c", b[i] == init_val(i) ? '.' : 'x');
        }
    }
    printf("\n");
}

/* The array filled afresh, then a copy of n bytes from host to (x, y) in it (with the last error
 * after it), and what it changed. */
static void to_array_piece(cudaArray_t a, const char *label, size_t x, size_t y, const unsigned char *host, size_t n) {
    fill(a);
    SHOW_CLEARED(label, cudaMemcpyToArray(a, x, y, host, n, cudaMemcpyHostToDevice));
    show_changed("array after", a);
}

int main(void) {
    struct cudaChannelFormatDesc u8 = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t a = NULL, b = NULL;
    OK(cudaMallocArray(&a, &u8, AW, AH, 0));
    OK(cudaMallocArray(&b, &u8, AW, AH, 0));
    static unsigned char host[4096], host2[4096];
    for (int i = 0; i < 4096; i++) host[i] = (unsigned char)(i * 3 + 5);
    unsigned char *dev = NULL;
    OK(cudaMalloc((void **)&dev, 4096));
    OK(cudaMemset(dev, 0x11, 4096));

    /* cudaMemcpy2DArrayToArray */
    SHOW_CLEARED("2DArrayToArray NULL to NULL", cudaMemcpy2DArrayToArray(NULL, 0, 0, NULL, 0, 4, 3, 1, cudaMemcpyDeviceToDevice));
    SHOW_CLEARED("2DArrayToArray array to NULL", cudaMemcpy2DArrayToArray(NULL, 0, 0, a, 0, 0, 4, 1, cudaMemcpyDeviceToDevice));
    SHOW_CLEARED("2DArrayToArray NULL to array", cudaMemcpy2DArrayToArray(b, 0, 0, NULL, 0, 0, 4, 1, cudaMemcpyDefault));
    SHOW_CLEARED("2DArrayToArray NULL to NULL, HostToDevice", cudaMemcpy2DArrayToArray(NULL, 0, 0, NULL, 0, 0, 4, 1, cudaMemcpyHostToDevice));
    SHOW_CLEARED("2DArrayToArray NULL to NULL, empty, kind 99", cudaMemcpy2DArrayToArray(NULL, 0, 0, NULL, 0, 0, 0, 1, (enum cudaMemcpyKind)99));
    SHOW_CLEARED("2DArrayToArray past the source's rows", cudaMemcpy2DArrayToArray(b, 0, 0, a, 0, 2, 4, 3, cudaMemcpyDeviceToDevice));

    /* cudaMemcpy2DToArray / FromArray */
    SHOW_CLEARED("2DToArray NULL, DeviceToHost", cudaMemcpy2DToArray(NULL, 0, 0, host, 8, 8, 2, cudaMemcpyDeviceToHost));
    SHOW_CLEARED("2DToArray NULL, HostToHost", cudaMemcpy2DToArray(NULL, 0, 0, host, 8, 8, 2, cudaMemcpyHostToHost));
    SHOW_CLEARED("2DToArray NULL, pitch narrow, 2 rows, kind 99", cudaMemcpy2DToArray(NULL, 0, 0, host, 7, 8, 2, (enum cudaMemcpyKind)99));
    SHOW_CLEARED("2DToArray NULL, HostToDevice", cudaMemcpy2DToArray(NULL, 0, 0, host, 8, 8, 2, cudaMemcpyHostToDevice));
    SHOW_CLEARED("2DToArray NULL, empty, kind 99", cudaMemcpy2DToArray(NULL, 0, 0, NULL, 0, 0, 2, (enum cudaMemcpyKind)99));
    SHOW_CLEARED("2DToArray one row, pitch narrow", cudaMemcpy2DToArray(a, 0, 0, host, 4, 8, 1, cudaMemcpyHostToDevice));
    SHOW_CLEARED("2DToArray one row, pitch 0", cudaMemcpy2DToArray(a, 0, 0, host, 0, 8, 1, cudaMemcpyHostToDevice));
    SHOW_CLEARED("2DToArray one row, device pitch 8", cudaMemcpy2DToArray(a, 0, 1, dev, 8, 8, 1, cudaMemcpyDeviceToDevice));
    SHOW_CLEARED("2DFromArray NULL, HostToDevice", cudaMemcpy2DFromArray(host2, 8, NULL, 0, 0, 8, 2, cudaMemcpyHostToDevice));
    SHOW_CLEARED("2DFromArray NULL, pitch narrow, 2 rows", cudaMemcpy2DFromArray(host2, 7, NULL, 0, 0, 8, 2, cudaMemcpyDeviceToHost));
    SHOW_CLEARED("2DFromArray NULL, one row, pitch narrow", cudaMemcpy2DFromArray(host2, 7, NULL, 0, 0, 8, 1, cudaMemcpyDeviceToHost));
    SHOW_CLEARED("2DFromArray one row, pitch narrow", cudaMemcpy2DFromArray(host2, 7, a, 0, 0, 8, 1, cudaMemcpyDeviceToHost));
    SHOW_CLEARED("2DFromArray one row, pitch 0", cudaMemcpy2DFromArray(host2, 0, a, 0, 0, 8, 1, cudaMemcpyDeviceToHost));

    /* The deprecated linear copies: count, kind, array. */
    SHOW_CLEARED("ToArray NULL, 0 bytes", cudaMemcpyToArray(NULL, 0, 4, host, 0, cudaMemcpyHostToDevice));
    SHOW_CLEARED("ToArray NULL, DeviceToHost", cudaMemcpyToArray(NULL, 13, 0, dev, 256, cudaMemcpyDeviceToHost));
    SHOW_CLEARED("ToArray NULL, HostToHost", cudaMemcpyToArray(NULL, 0, 0, host, 16, cudaMemcpyHostToHost));
    SHOW_CLEARED("ToArray NULL, kind 5", cudaMemcpyToArray(NULL, 0, 0, host, 16, (enum cudaMemcpyKind)5));
    SHOW_CLEARED("ToArray NULL, HostToDevice", cudaMemcpyToArray(NULL, 0, 0, host, 16, cudaMemcpyHostToDevice));
    SHOW_CLEARED("FromArray NULL, HostToDevice", cudaMemcpyFromArray(dev, NULL, 5, 0, 256, cudaMemcpyHostToDevice));
    SHOW_CLEARED("FromArray NULL, kind -1", cudaMemcpyFromArray(host2, NULL, 0, 0, 16, (enum cudaMemcpyKind)-1));
    SHOW_CLEARED("FromArray NULL, DeviceToHost", cudaMemcpyFromArray(host2, NULL, 0, 0, 16, cudaMemcpyDeviceToHost));
    SHOW_CLEARED("ArrayToArray NULL to NULL, HostToHost", cudaMemcpyArrayToArray(NULL, 0, 0, NULL, 0, 0, 16, cudaMemcpyHostToHost));
    SHOW_CLEARED("ArrayToArray NULL to NULL", cudaMemcpyArrayToArray(NULL, 0, 0, NULL, 0, 0, 16, cudaMemcpyDeviceToDevice));

    /* Pieces: the rest of row 3 from byte 4 is copied before the next row is refused. */
    to_array_piece(a, "ToArray 12 bytes from (4, 3)", 4, 3, host, 12);
    /* Two whole rows from row 2 are copied before the 4 bytes left, in row 4, are refused. */
    to_array_piece(a, "ToArray 20 bytes from (0, 2)", 0, 2, host, 20);
    /* Fewer bytes than the rest of the row: one piece at (x, y). */
    to_array_piece(a, "ToArray 3 bytes from (4, 1)", 4, 1, host, 3);
    /* All of it: the rest of row 0, two rows, 2 bytes. */
    to_array_piece(a, "ToArray 22 bytes from (4, 0)", 4, 0, host, 22);
    {
        unsigned char back[AW * AH];
        OK(cudaMemcpy2DFromArray(back, AW, a, 0, 0, AW, AH, cudaMemcpyDeviceToHost));
        CHECK(memcmp(back + 4, host, 22) == 0);
    }
    /* From an array: the rest of row 0 arrives before a count of SIZE_MAX is refused. */
    fill(a);
    SHOW_CLEARED("FromArray SIZE_MAX bytes from (4, 0)", cudaMemcpyFromArray(dev, a, 4, 0, SIZE_MAX, cudaMemcpyDeviceToDevice));
    {
        unsigned char back[8];
        OK(cudaMemcpy(back, dev, 8, cudaMemcpyDeviceToHost));
        printf("device after:");
        for (int i = 0; i < 8; i++) printf(" %02x", back[i]);
        printf("\n");
        CHECK(back[0] == init_val(4) && back[3] == init_val(7) && back[4] == 0x11);
    }
    /* Between arrays: through a device buffer, from the source then to the destination. */
    fill(a);
    fill(b);
    SHOW_CLEARED("ArrayToArray 12 bytes to (4, 3)", cudaMemcpyArrayToArray(b, 4, 3, a, 0, 0, 12, cudaMemcpyDeviceToDevice));
    show_changed("destination after", b);

    cudaFreeArray(a);
    cudaFreeArray(b);
    cudaFree(dev);
    DONE();
}
