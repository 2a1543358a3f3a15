/* ctest: gpu
 * Which checks NVIDIA's runtime makes itself and which it leaves to the driver, shown by a
 * faulted context (the driver reports the fault before judging arguments): after a kernel
 * stores to an unmapped address, calls whose arguments NVIDIA's runtime checks return the
 * argument error, calls that take them to the driver return the fault. After cudaDeviceReset
 * (the device then refuses a new primary context), calls that make a context current first
 * return cudaErrorDevicesUnavailable, those that make none get the driver's answer for the
 * reset context. As the differential tester (ctest/difftest) found on the H100. */
#include "ctest.h"
#include "fault.h"


static const size_t HUGE_PITCH = (size_t)1 << 33;

static void scenario(void) {
    unsigned char *dev = NULL;
    void *pinned = NULL, *managed = NULL, *d = NULL;
    static unsigned char host[8192];
    OK(cudaFree(NULL));
    cudaArray_t a = NULL;
    struct cudaChannelFormatDesc f32 = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    OK(cudaMalloc((void **)&dev, 8192));
    OK(cudaMallocHost(&pinned, 4096));
    OK(cudaMallocManaged(&managed, 4096, cudaMemAttachGlobal));
    OK(cudaMallocArray(&a, &f32, 16, 4, 0));
    int r = ft_launch(FT_ILLEGAL_ADDRESS);
    printf("launch: driver result %d\n", r);
    SHOW_CLEARED("cudaDeviceSynchronize", cudaDeviceSynchronize());

    printf("== faulted\n");
    /* The runtime's own checks. */
    SHOW_CLEARED("2D 3 rows, pitch narrow", cudaMemcpy2D(dev, 56, host, 57, 57, 3, cudaMemcpyHostToDevice));
    SHOW_CLEARED("2D kind 99", cudaMemcpy2D(dev, 64, host, 64, 64, 3, (enum cudaMemcpyKind)99));
    SHOW_CLEARED("3D NULL parameters", cudaMemcpy3D(NULL));
    SHOW_CLEARED("Malloc3DArray 0 x 3 x 1", cudaMalloc3DArray(&a, &f32, make_cudaExtent(0, 3, 1), 0));
    SHOW_CLEARED("ToArray NULL, DeviceToHost", cudaMemcpyToArray(NULL, 0, 0, host, 16, cudaMemcpyDeviceToHost));
    SHOW_CLEARED("ToArray NULL, 0 bytes", cudaMemcpyToArray(NULL, 0, 0, host, 0, cudaMemcpyHostToDevice));
    SHOW_CLEARED("HostGetDevicePointer NULL host", cudaHostGetDevicePointer(&d, NULL, 0));
    /* The driver's checks, after the fault. */
    SHOW_CLEARED("2D one row, pitch narrow", cudaMemcpy2D(dev, 10, dev + 64, 11, 11, 1, cudaMemcpyDeviceToDevice));
    SHOW_CLEARED("2D 3 rows, pitch 2^33", cudaMemcpy2D(host, 57, dev, HUGE_PITCH, 57, 3, cudaMemcpyDeviceToHost));
    SHOW_CLEARED("memset 2D 5 rows, pitch 0", cudaMemset2D(dev, 0, 1, 7, 5));
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.extent = make_cudaExtent(64, 0, 1);
    p.kind = (enum cudaMemcpyKind)5;
    SHOW_CLEARED("3D empty extent, kind 5", cudaMemcpy3D(&p));
    memset(&p, 0, sizeof p);
    p.srcArray = a;
    p.extent = make_cudaExtent(4, 1, 1);
    p.kind = cudaMemcpyHostToDevice;
    SHOW_CLEARED("3D source array, HostToDevice", cudaMemcpy3D(&p));
    SHOW_CLEARED("2DArrayToArray array to NULL", cudaMemcpy2DArrayToArray(NULL, 0, 0, a, 0, 0, 4, 1, cudaMemcpyDeviceToDevice));
    SHOW_CLEARED("HostGetDevicePointer NULL out", cudaHostGetDevicePointer(NULL, pinned, 0));
    SHOW_CLEARED("HostGetDevicePointer flags 1", cudaHostGetDevicePointer(&d, pinned, 1));
    SHOW_CLEARED("StreamDestroy per-thread", cudaStreamDestroy(cudaStreamPerThread));
#if CUDART_VERSION >= 13000
    struct cudaMemLocation dev0 = {cudaMemLocationTypeDevice, 0};
    SHOW_CLEARED("MemAdvise advice 0", cudaMemAdvise(managed, 4096, (enum cudaMemoryAdvise)0, dev0));
#else
    SHOW_CLEARED("MemAdvise advice 0", cudaMemAdvise(managed, 4096, (enum cudaMemoryAdvise)0, 0));
    SHOW_CLEARED("MemPrefetchAsync device 99", cudaMemPrefetchAsync(managed, 4096, 99, 0));
#endif
    int v = 0;
    SHOW_CLEARED("MemRangeGetAttribute", cudaMemRangeGetAttribute(&v, sizeof v, cudaMemRangeAttributeReadMostly, managed, 4096));

    SHOW_CLEARED("cudaDeviceReset", cudaDeviceReset());
    printf("== after cudaDeviceReset\n");
    SHOW_CLEARED("MemRangeGetAttribute", cudaMemRangeGetAttribute(&v, sizeof v, cudaMemRangeAttributeReadMostly, host, 4096));
    struct cudaPointerAttributes pa;
    SHOW_CLEARED("PointerGetAttributes pageable", cudaPointerGetAttributes(&pa, host));
    SHOW_CLEARED("HostGetDevicePointer NULL host", cudaHostGetDevicePointer(&d, NULL, 0));
    SHOW_CLEARED("HostGetDevicePointer NULL out", cudaHostGetDevicePointer(NULL, host, 0));
    SHOW_CLEARED("MallocArray NULL descriptor", cudaMallocArray(&a, NULL, 4, 4, 0));
    struct cudaChannelFormatDesc bad = cudaCreateChannelDesc(8, 0, 0, 0, (enum cudaChannelFormatKind)99);
    SHOW_CLEARED("MallocArray bad descriptor", cudaMallocArray(&a, &bad, 64, 3, 0));
    SHOW_CLEARED("2DArrayToArray empty, kind 99", cudaMemcpy2DArrayToArray(NULL, 0, 0, NULL, 0, 0, 0, 1, (enum cudaMemcpyKind)99));
    SHOW_CLEARED("2DToArray NULL", cudaMemcpy2DToArray(NULL, 0, 0, host, 8, 8, 2, cudaMemcpyHostToDevice));
    SHOW_CLEARED("ToArray NULL", cudaMemcpyToArray(NULL, 0, 0, host, 16, cudaMemcpyHostToDevice));
    struct cudaChannelFormatDesc cd;
    SHOW_CLEARED("GetChannelDesc NULL array", cudaGetChannelDesc(&cd, NULL));
    struct cudaExtent e;
    unsigned int fl = 0;
    SHOW_CLEARED("ArrayGetInfo NULL array", cudaArrayGetInfo(&cd, &e, &fl, NULL));
    cudaStream_t s = NULL;
    SHOW_CLEARED("StreamCreateWithFlags 0x2", cudaStreamCreateWithFlags(&s, 0x2));
    SHOW_CLEARED("MallocHost NULL out", cudaMallocHost(NULL, 64));
    memset(&p, 0, sizeof p);
    p.extent = make_cudaExtent(0, 1, 1);
    SHOW_CLEARED("3D empty extent", cudaMemcpy3D(&p));
}

int main(void) {
    if (!ft_init()) {
        printf("no driver that loads kernels\n");
        DONE();
    }
    ct_failed += ct_in_child(scenario);
    DONE();
}
