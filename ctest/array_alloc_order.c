/* The order of the checks of cudaMallocArray, cudaMalloc3DArray and cudaMallocMipmappedArray,
 * as the differential tester (ctest/difftest) found NVIDIA's runtime makes them: the out
 * pointer and the channel descriptor given, then the context (the out pointer is cleared),
 * then the shape (no width, no height under several slices of an array that is not layered,
 * a layered array of no layers, a cubemap not square or not of six faces: an invalid value),
 * and only then the channel descriptor. */
#include <stdint.h>
#include "ctest.h"


static cudaArray_t a;

static void out_cleared(const char *label) {
    printf("%s: out %s\n", label, a == NULL ? "NULL" : "set");
    if (a) cudaFreeArray(a);
    a = NULL;
}

int main(void) {
    struct cudaChannelFormatDesc ok = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    struct cudaChannelFormatDesc bad = cudaCreateChannelDesc(24, 0, 0, 0, cudaChannelFormatKindUnsigned);
    struct cudaChannelFormatDesc mixed = cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned);

    SHOW_CLEARED("MallocArray NULL out", cudaMallocArray(NULL, &ok, 4, 4, 0));
    SHOW_CLEARED("MallocArray NULL descriptor", cudaMallocArray(&a, NULL, 4, 4, 0));
    SHOW_CLEARED("MallocArray NULL descriptor, width 0", cudaMallocArray(&a, NULL, 0, 4, 0));
    a = (cudaArray_t)(uintptr_t)0x1234;
    SHOW_CLEARED("MallocArray width 0, bad descriptor", cudaMallocArray(&a, &bad, 0, 16, 0));
    out_cleared("width 0, bad descriptor");
    SHOW_CLEARED("MallocArray bad descriptor", cudaMallocArray(&a, &bad, 1, 3, 0));
    SHOW_CLEARED("MallocArray mixed descriptor, layered", cudaMallocArray(&a, &mixed, 64, 3, cudaArrayLayered));
    SHOW_CLEARED("MallocArray good, layered", cudaMallocArray(&a, &ok, 64, 3, cudaArrayLayered));
    out_cleared("good, layered");
    SHOW_CLEARED("MallocArray good", cudaMallocArray(&a, &ok, 64, 3, 0));
    out_cleared("good");

    SHOW_CLEARED("Malloc3DArray width 0, bad descriptor", cudaMalloc3DArray(&a, &bad, make_cudaExtent(0, 1, 8), 0));
    SHOW_CLEARED("Malloc3DArray height 0 under 2 slices, bad descriptor", cudaMalloc3DArray(&a, &bad, make_cudaExtent(5, 0, 2), 0));
    SHOW_CLEARED("Malloc3DArray height 0 under 2 layers", cudaMalloc3DArray(&a, &ok, make_cudaExtent(5, 0, 2), cudaArrayLayered));
    out_cleared("height 0 under 2 layers");
    SHOW_CLEARED("Malloc3DArray layered, no layers, bad descriptor", cudaMalloc3DArray(&a, &mixed, make_cudaExtent(1, 3, 0), cudaArrayLayered));
    SHOW_CLEARED("Malloc3DArray cubemap 33 x 33 x 0, bad descriptor", cudaMalloc3DArray(&a, &mixed, make_cudaExtent(33, 33, 0), cudaArrayCubemap));
    SHOW_CLEARED("Malloc3DArray cubemap 8 x 4 x 6", cudaMalloc3DArray(&a, &ok, make_cudaExtent(8, 4, 6), cudaArrayCubemap));
    SHOW_CLEARED("Malloc3DArray cubemap 8 x 8 x 6", cudaMalloc3DArray(&a, &ok, make_cudaExtent(8, 8, 6), cudaArrayCubemap));
    out_cleared("cubemap 8 x 8 x 6");
    SHOW_CLEARED("Malloc3DArray layered cubemap 8 x 8 x 7", cudaMalloc3DArray(&a, &ok, make_cudaExtent(8, 8, 7), cudaArrayLayered | cudaArrayCubemap));
    SHOW_CLEARED("Malloc3DArray layered cubemap 8 x 8 x 12", cudaMalloc3DArray(&a, &ok, make_cudaExtent(8, 8, 12), cudaArrayLayered | cudaArrayCubemap));
    out_cleared("layered cubemap 8 x 8 x 12");
    SHOW_CLEARED("Malloc3DArray 1 x 1 x 1, bad descriptor", cudaMalloc3DArray(&a, &bad, make_cudaExtent(1, 1, 1), 0));
    SHOW_CLEARED("Malloc3DArray NULL descriptor, width 0", cudaMalloc3DArray(&a, NULL, make_cudaExtent(0, 0, 0), 0));

    cudaMipmappedArray_t m = NULL;
    SHOW_CLEARED("MallocMipmappedArray width 0, bad descriptor", cudaMallocMipmappedArray(&m, &bad, make_cudaExtent(0, 4, 0), 1, 0));
    SHOW_CLEARED("MallocMipmappedArray bad descriptor", cudaMallocMipmappedArray(&m, &bad, make_cudaExtent(4, 4, 0), 1, 0));
    SHOW_CLEARED("MallocMipmappedArray NULL out", cudaMallocMipmappedArray(NULL, &ok, make_cudaExtent(4, 4, 0), 1, 0));
    SHOW_CLEARED("MallocMipmappedArray good", cudaMallocMipmappedArray(&m, &ok, make_cudaExtent(4, 4, 0), 2, 0));
    if (m) cudaFreeMipmappedArray(m);
    DONE();
}
