/* make_cudaExtent, make_cudaPitchedPtr and make_cudaPos (static inline functions, as in
 * NVIDIA's driver_functions.h), used in a 3D copy round trip. */
#include "ctest.h"

int main(void) {
    struct cudaExtent e = make_cudaExtent(16, 4, 2);
    SHOWU("extent", e.width * 10000 + e.height * 100 + e.depth);
    struct cudaPos pos = make_cudaPos(3, 1, 0);
    SHOWU("pos", pos.x * 10000 + pos.y * 100 + pos.z);

    static unsigned char host[2][4][16], back[2][4][16];
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 16; x++) host[z][y][x] = (unsigned char)(z * 64 + y * 16 + x);
    struct cudaPitchedPtr dev;
    OK(SHOW("cudaMalloc3D", cudaMalloc3D(&dev, e)));
    SHOWU("xsize", dev.xsize);
    SHOWU("ysize", dev.ysize);
    CHECK(dev.pitch >= 16);

    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(host, 16, 16, 4);
    p.dstPtr = dev;
    p.extent = e;
    p.kind = cudaMemcpyHostToDevice;
    OK(SHOW("cudaMemcpy3D H2D", cudaMemcpy3D(&p)));
    memset(&p, 0, sizeof p);
    p.srcPtr = dev;
    p.dstPtr = make_cudaPitchedPtr(back, 16, 16, 4);
    p.extent = e;
    p.kind = cudaMemcpyDeviceToHost;
    OK(SHOW("cudaMemcpy3D D2H", cudaMemcpy3D(&p)));
    CHECK(memcmp(host, back, sizeof host) == 0);
    printf("round trip: %s\n", memcmp(host, back, sizeof host) ? "differs" : "same");
    OK(cudaFree(dev.ptr));
    DONE();
}
