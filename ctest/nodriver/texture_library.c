/* No CUDA driver: the texture, surface and library calls (with good and NULL arguments), what
 * they return, what they leave in their out parameters and what the last error says. Run by
 * scripts/test/nodriver-check.sh under NVIDIA's runtime and ours; the outputs must be identical. */
#include "../ctest.h"

static const char ptx[] = ".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry k()\n{\n ret;\n}\n";

int main(void) {
    struct cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = (void *)0x10000;
    r.res.linear.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    r.res.linear.sizeInBytes = 4096;
    struct cudaTextureDesc t;
    memset(&t, 0, sizeof t);
    struct cudaResourceViewDesc v;
    memset(&v, 0, sizeof v);

    cudaTextureObject_t o = 77;
    SHOW("cudaCreateTextureObject", cudaCreateTextureObject(&o, &r, &t, NULL));
    SHOWU("texture object", o);
    SHOW_LAST("cudaCreateTextureObject");
    SHOW("cudaCreateTextureObject(NULL res)", cudaCreateTextureObject(&o, NULL, &t, NULL));
    SHOW_LAST("cudaCreateTextureObject(NULL res)");
    SHOW("cudaCreateTextureObject(NULL tex)", cudaCreateTextureObject(&o, &r, NULL, NULL));
    SHOW_LAST("cudaCreateTextureObject(NULL tex)");
    SHOW("cudaCreateTextureObject(NULL out)", cudaCreateTextureObject(NULL, &r, &t, &v));
    SHOW_LAST("cudaCreateTextureObject(NULL out)");
    SHOW("cudaCreateTextureObject(NULL, NULL, NULL, NULL)", cudaCreateTextureObject(NULL, NULL, NULL, NULL));
    SHOW_LAST("cudaCreateTextureObject(NULL, NULL, NULL, NULL)");
    r.resType = (enum cudaResourceType)9;
    SHOW("cudaCreateTextureObject(resource type 9)", cudaCreateTextureObject(&o, &r, &t, NULL));
    SHOW_LAST("cudaCreateTextureObject(resource type 9)");
    r.resType = cudaResourceTypeLinear;
    SHOW("cudaDestroyTextureObject(0)", cudaDestroyTextureObject(0));
    SHOW_LAST("cudaDestroyTextureObject(0)");
    SHOW("cudaGetTextureObjectResourceDesc", cudaGetTextureObjectResourceDesc(&r, 1));
    SHOW("cudaGetTextureObjectResourceDesc(NULL)", cudaGetTextureObjectResourceDesc(NULL, 1));
    SHOW_LAST("cudaGetTextureObjectResourceDesc(NULL)");
    SHOW("cudaGetTextureObjectTextureDesc", cudaGetTextureObjectTextureDesc(&t, 1));
    SHOW("cudaGetTextureObjectTextureDesc(NULL)", cudaGetTextureObjectTextureDesc(NULL, 1));
    SHOW_LAST("cudaGetTextureObjectTextureDesc(NULL)");
    SHOW("cudaGetTextureObjectResourceViewDesc", cudaGetTextureObjectResourceViewDesc(&v, 1));
    SHOW("cudaGetTextureObjectResourceViewDesc(NULL)", cudaGetTextureObjectResourceViewDesc(NULL, 1));
    SHOW_LAST("cudaGetTextureObjectResourceViewDesc(NULL)");

    cudaSurfaceObject_t s = 77;
    SHOW("cudaCreateSurfaceObject", cudaCreateSurfaceObject(&s, &r));
    SHOWU("surface object", s);
    SHOW("cudaCreateSurfaceObject(NULL res)", cudaCreateSurfaceObject(&s, NULL));
    SHOW_LAST("cudaCreateSurfaceObject(NULL res)");
    SHOW("cudaCreateSurfaceObject(NULL out)", cudaCreateSurfaceObject(NULL, &r));
    SHOW_LAST("cudaCreateSurfaceObject(NULL out)");
    SHOW("cudaDestroySurfaceObject(0)", cudaDestroySurfaceObject(0));
    SHOW("cudaGetSurfaceObjectResourceDesc", cudaGetSurfaceObjectResourceDesc(&r, 1));
    SHOW("cudaGetSurfaceObjectResourceDesc(NULL)", cudaGetSurfaceObjectResourceDesc(NULL, 1));
    SHOW_LAST("cudaGetSurfaceObjectResourceDesc(NULL)");

    size_t w = 77;
    struct cudaChannelFormatDesc d = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    SHOW("cudaDeviceGetTexture1DLinearMaxWidth", cudaDeviceGetTexture1DLinearMaxWidth(&w, &d, 0));
    SHOWU("max width", w);
    SHOW("cudaDeviceGetTexture1DLinearMaxWidth(NULL desc)", cudaDeviceGetTexture1DLinearMaxWidth(&w, NULL, 0));
    SHOW("cudaDeviceGetTexture1DLinearMaxWidth(NULL out)", cudaDeviceGetTexture1DLinearMaxWidth(NULL, &d, 0));
    SHOW("cudaDeviceGetTexture1DLinearMaxWidth(device -1)", cudaDeviceGetTexture1DLinearMaxWidth(&w, &d, -1));
    SHOW_LAST("cudaDeviceGetTexture1DLinearMaxWidth(device -1)");

    cudaLibrary_t l = (cudaLibrary_t)0x77;
    SHOW("cudaLibraryLoadData", cudaLibraryLoadData(&l, ptx, NULL, NULL, 0, NULL, NULL, 0));
    printf("library untouched: %d\n", l == (cudaLibrary_t)0x77);
    SHOW("cudaLibraryLoadData(NULL code)", cudaLibraryLoadData(&l, NULL, NULL, NULL, 0, NULL, NULL, 0));
    SHOW_LAST("cudaLibraryLoadData(NULL code)");
    SHOW("cudaLibraryLoadData(NULL out)", cudaLibraryLoadData(NULL, ptx, NULL, NULL, 0, NULL, NULL, 0));
    SHOW_LAST("cudaLibraryLoadData(NULL out)");
    SHOW("cudaLibraryLoadFromFile", cudaLibraryLoadFromFile(&l, "/nonexistent.ptx", NULL, NULL, 0, NULL, NULL, 0));
    SHOW("cudaLibraryLoadFromFile(NULL name)", cudaLibraryLoadFromFile(&l, NULL, NULL, NULL, 0, NULL, NULL, 0));
    SHOW_LAST("cudaLibraryLoadFromFile(NULL name)");
    SHOW("cudaLibraryUnload(NULL)", cudaLibraryUnload(NULL));
    SHOW_LAST("cudaLibraryUnload(NULL)");
    cudaKernel_t k = (cudaKernel_t)0x77;
    SHOW("cudaLibraryGetKernel(NULL library)", cudaLibraryGetKernel(&k, NULL, "k"));
    SHOW("cudaLibraryGetKernel(NULL out)", cudaLibraryGetKernel(NULL, NULL, "k"));
    SHOW("cudaLibraryGetKernel(NULL name)", cudaLibraryGetKernel(&k, NULL, NULL));
    printf("kernel untouched: %d\n", k == (cudaKernel_t)0x77);
    void *p = (void *)0x77;
    size_t n = 77;
    SHOW("cudaLibraryGetGlobal", cudaLibraryGetGlobal(&p, &n, NULL, "g"));
    SHOW("cudaLibraryGetGlobal(NULL, NULL)", cudaLibraryGetGlobal(NULL, NULL, NULL, "g"));
    SHOW("cudaLibraryGetManaged", cudaLibraryGetManaged(&p, &n, NULL, "g"));
    SHOW("cudaLibraryGetUnifiedFunction", cudaLibraryGetUnifiedFunction(&p, NULL, "f"));
    SHOW("cudaLibraryGetUnifiedFunction(NULL out)", cudaLibraryGetUnifiedFunction(NULL, NULL, "f"));
    printf("pointer untouched: %d, size untouched: %d\n", p == (void *)0x77, n == 77);
    unsigned c = 77;
    SHOW("cudaLibraryGetKernelCount", cudaLibraryGetKernelCount(&c, NULL));
    SHOW("cudaLibraryGetKernelCount(NULL)", cudaLibraryGetKernelCount(NULL, NULL));
    SHOWU("count", c);
    cudaKernel_t ks[2] = {(cudaKernel_t)0x77, (cudaKernel_t)0x77};
    SHOW("cudaLibraryEnumerateKernels", cudaLibraryEnumerateKernels(ks, 2, NULL));
    SHOW("cudaLibraryEnumerateKernels(NULL)", cudaLibraryEnumerateKernels(NULL, 2, NULL));
    printf("kernels untouched: %d\n", ks[0] == (cudaKernel_t)0x77 && ks[1] == (cudaKernel_t)0x77);
    SHOW("cudaKernelSetAttributeForDevice", cudaKernelSetAttributeForDevice(NULL, cudaFuncAttributeMaxDynamicSharedMemorySize, 0, 0));
    SHOW("cudaKernelSetAttributeForDevice(attribute 0)", cudaKernelSetAttributeForDevice(NULL, (enum cudaFuncAttribute)0, 0, 0));
    SHOW("cudaKernelSetAttributeForDevice(device -1)", cudaKernelSetAttributeForDevice(NULL, cudaFuncAttributeMaxDynamicSharedMemorySize, 0, -1));
    SHOW_LAST("end");
    SHOW_LAST("again");
    DONE();
}
