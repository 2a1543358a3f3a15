/* The order of cudaMemcpy3D's, cudaMemcpy3DPeer's and cudaMemcpy2D's checks, and what they
 * leave to the driver, as the differential tester (ctest/difftest) found NVIDIA's runtime
 * does them: the source end is checked completely before the destination; the pitches of
 * pointer ends are checked only where rows follow each other, against the extent's width in
 * elements (not bytes) and never against the device's maximum pitch; a destination array
 * ignores what the kind says of that end; the peer copies check both devices first, whatever
 * the extent, and treat pointer ends as device memory. */
#include "ctest.h"


static const size_t HUGE_PITCH = (size_t)1 << 33;

static struct cudaMemcpy3DParms parms(cudaArray_t sa, struct cudaPitchedPtr sp, cudaArray_t da,
                                      struct cudaPitchedPtr dp, struct cudaExtent e, enum cudaMemcpyKind k) {
    return (struct cudaMemcpy3DParms){.srcArray = sa, .srcPtr = sp, .dstArray = da, .dstPtr = dp, .extent = e, .kind = k};
}

static const struct cudaPitchedPtr NOPTR = {0, 0, 0, 0};

int main(void) {
    static unsigned char host[8192], host2[8192];
    for (int i = 0; i < 8192; i++) host[i] = (unsigned char)(i * 7 + 1);
    unsigned char *dev = NULL, *dev2 = NULL;
    OK(cudaMalloc((void **)&dev, 8192));
    OK(cudaMalloc((void **)&dev2, 8192));
    OK(cudaMemcpy(dev, host, 8192, cudaMemcpyHostToDevice));
    struct cudaChannelFormatDesc f32 = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    struct cudaChannelFormatDesc u8 = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t af = NULL, ab = NULL;
    OK(cudaMallocArray(&af, &f32, 16, 4, 0));
    OK(cudaMallocArray(&ab, &u8, 16, 4, 0));
    struct cudaMemcpy3DParms p;

    /* The source end first: its narrow pitch before the destination's missing pointer. */
    p = parms(NULL, make_cudaPitchedPtr(host, 58, 845, 4), NULL, make_cudaPitchedPtr(NULL, 845, 845, 4),
              make_cudaExtent(845, 4, 4), cudaMemcpyHostToDevice);
    SHOW_CLEARED("3D src pitch narrow, dst NULL", cudaMemcpy3D(&p));
    p = parms(NULL, make_cudaPitchedPtr(NULL, 64, 64, 4), NULL, make_cudaPitchedPtr(dev, 8, 64, 4),
              make_cudaExtent(64, 4, 1), cudaMemcpyHostToDevice);
    SHOW_CLEARED("3D src NULL, dst pitch narrow", cudaMemcpy3D(&p));
    /* Rows per slice, with several slices. */
    p = parms(NULL, make_cudaPitchedPtr(host, 64, 64, 2), NULL, make_cudaPitchedPtr(dev, 64, 64, 4),
              make_cudaExtent(64, 3, 2), cudaMemcpyHostToDevice);
    SHOW_CLEARED("3D src ysize < height", cudaMemcpy3D(&p));
    /* Pitches against the width in elements: 14 floats need 56 bytes, a pitch of 28 passes
     * the runtime (28 >= 14) and the driver refuses it. */
    p = parms(af, NOPTR, NULL, make_cudaPitchedPtr(host2, 28, 28, 5), make_cudaExtent(14, 3, 1), cudaMemcpyDeviceToHost);
    SHOW_CLEARED("3D array to pitch 28, 14 floats x 3 rows", cudaMemcpy3D(&p));
    p = parms(af, NOPTR, NULL, make_cudaPitchedPtr(host2, 12, 12, 5), make_cudaExtent(14, 3, 1), cudaMemcpyDeviceToHost);
    SHOW_CLEARED("3D array to pitch 12, 14 floats x 3 rows", cudaMemcpy3D(&p));
    /* No maximum pitch in the runtime: the driver refuses rows 2^33 apart. */
    p = parms(NULL, make_cudaPitchedPtr(dev, HUGE_PITCH, 64, 3), NULL, make_cudaPitchedPtr(host2, 64, 64, 2),
              make_cudaExtent(64, 2, 1), cudaMemcpyDeviceToHost);
    SHOW_CLEARED("3D src pitch 2^33, 2 rows", cudaMemcpy3D(&p));
    /* A destination array whatever the kind says; a source array never on the host side. */
    p = parms(NULL, make_cudaPitchedPtr(dev, 64, 64, 4), ab, NOPTR, make_cudaExtent(16, 4, 1), cudaMemcpyDeviceToHost);
    SHOW_CLEARED("3D device to array, kind DeviceToHost", cudaMemcpy3D(&p));
    {
        unsigned char back[64];
        memset(back, 0, sizeof back);
        OK(cudaMemcpy2DFromArray(back, 16, ab, 0, 0, 16, 4, cudaMemcpyDeviceToHost));
        int same = 1;
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 16; x++) same &= back[y * 16 + x] == host[y * 64 + x];
        SHOWI("array holds the rows", same);
        CHECK(same);
    }
    p = parms(ab, NOPTR, NULL, make_cudaPitchedPtr(dev2, 64, 64, 4), make_cudaExtent(16, 4, 1), cudaMemcpyHostToDevice);
    SHOW_CLEARED("3D array to device, kind HostToDevice", cudaMemcpy3D(&p));
    p = parms(ab, make_cudaPitchedPtr(host, 64, 64, 4), NULL, make_cudaPitchedPtr(dev2, 64, 64, 4),
              make_cudaExtent(16, 4, 1), cudaMemcpyDeviceToDevice);
    SHOW_CLEARED("3D source array and pointer", cudaMemcpy3D(&p));
    p = parms(NULL, make_cudaPitchedPtr(dev, 64, 64, 4), ab, make_cudaPitchedPtr(host, 64, 64, 4),
              make_cudaExtent(16, 4, 1), cudaMemcpyDeviceToDevice);
    SHOW_CLEARED("3D destination array and pointer", cudaMemcpy3D(&p));
    p = parms(af, NOPTR, ab, NOPTR, make_cudaExtent(4, 1, 1), cudaMemcpyDeviceToDevice);
    SHOW_CLEARED("3D arrays of 4 and 1 bytes an element", cudaMemcpy3D(&p));
    /* An empty extent, whatever else. */
    p = parms(NULL, NOPTR, NULL, NOPTR, make_cudaExtent(0, 4, 4), (enum cudaMemcpyKind)99);
    SHOW_CLEARED("3D empty extent, kind 99", cudaMemcpy3D(&p));
    SHOW_CLEARED("3D NULL parameters", cudaMemcpy3D(NULL));

    /* Peer copies: devices first, then a device-to-device copy. */
    struct cudaMemcpy3DPeerParms q;
    memset(&q, 0, sizeof q);
    q.srcPtr = make_cudaPitchedPtr(host, 64, 64, 4);
    q.dstPtr = make_cudaPitchedPtr(host2, 64, 64, 4);
    q.extent = make_cudaExtent(64, 0, 1);
    q.srcDevice = 99;
    SHOW_CLEARED("3D peer empty extent, source device 99", cudaMemcpy3DPeer(&q));
    q.srcDevice = 0;
    q.dstDevice = -1;
    SHOW_CLEARED("3D peer empty extent, destination device -1", cudaMemcpy3DPeer(&q));
    q.dstDevice = 0;
    SHOW_CLEARED("3D peer empty extent", cudaMemcpy3DPeer(&q));
    q.extent = make_cudaExtent(64, 4, 1);
    SHOW_CLEARED("3D peer host to host", cudaMemcpy3DPeer(&q));
    q.srcPtr = make_cudaPitchedPtr(dev, 64, 64, 4);
    SHOW_CLEARED("3D peer device to host", cudaMemcpy3DPeer(&q));
    q.dstPtr = make_cudaPitchedPtr(dev2, 64, 64, 4);
    SHOW_CLEARED("3D peer device to device", cudaMemcpy3DPeer(&q));
    {
        unsigned char back[256];
        OK(cudaMemcpy(back, dev2, 256, cudaMemcpyDeviceToHost));
        SHOWI("3D peer copied", memcmp(back, host, 256) == 0);
        CHECK(memcmp(back, host, 256) == 0);
    }
    q.srcPtr = make_cudaPitchedPtr(dev, 8, 64, 4);
    SHOW_CLEARED("3D peer source pitch narrow", cudaMemcpy3DPeer(&q));
    SHOW_CLEARED("3D peer NULL parameters", cudaMemcpy3DPeer(NULL));

    /* 2D: several rows' pitches in the runtime, a single row's in the driver. */
    SHOW_CLEARED("2D source pitch 2^33, 3 rows", cudaMemcpy2D(host2, 57, dev, HUGE_PITCH, 57, 3, cudaMemcpyDeviceToHost));
    SHOW_CLEARED("2D destination pitch 2^33, 3 rows", cudaMemcpy2D(dev2, HUGE_PITCH, host, 57, 57, 3, cudaMemcpyHostToDevice));
    SHOW_CLEARED("2D pitch narrow, 3 rows, kind 99", cudaMemcpy2D(dev2, 56, host, 57, 57, 3, (enum cudaMemcpyKind)99));
    SHOW_CLEARED("2D one row, destination pitch narrow", cudaMemcpy2D(dev2, 10, dev, 11, 11, 1, cudaMemcpyDeviceToDevice));
    SHOW_CLEARED("2D one row, pitches 0", cudaMemcpy2D(dev2, 0, dev, 0, 11, 1, cudaMemcpyDeviceToDevice));
    SHOW_CLEARED("2D one row, pitches 2^33", cudaMemcpy2D(host2, HUGE_PITCH, dev, HUGE_PITCH, 11, 1, cudaMemcpyDeviceToHost));
    SHOW_CLEARED("2D empty, kind 99", cudaMemcpy2D(NULL, 0, NULL, 0, 0, 3, (enum cudaMemcpyKind)99));
    /* 2D memsets: the pitch is the driver's. */
    SHOW_CLEARED("memset 2D one row, pitch 2^33", cudaMemset2D(dev2, HUGE_PITCH, 1, 63, 1));
    SHOW_CLEARED("memset 2D one row, pitch 0", cudaMemset2D(dev2, 0, 1, 63, 1));
    SHOW_CLEARED("memset 2D 5 rows, pitch 0", cudaMemset2D(dev2, 0, 1, 7, 5));

    cudaFreeArray(af);
    cudaFreeArray(ab);
    cudaFree(dev);
    cudaFree(dev2);
    DONE();
}
