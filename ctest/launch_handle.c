/* ctest: gpu */
/* Kernels a program loads itself through the driver (PTX through cuLibraryLoadData, found by
 * cudaGetDriverEntryPointByVersion), handed to the runtime as cudaKernel_t: extensible
 * launches with attributes, parameter info, occupancy, cache and bank configurations,
 * attributes; built for the 12 ABI, the multi-device cooperative launch. The C way to reach
 * these exports in both ABIs. */
#include "ctest.h"
#include <stdint.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

typedef int CUresult;
typedef struct CUlib_st *CUlibrary;
typedef struct CUkern_st *CUkernel;

static const char ptx[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry fill(.param .u64 p_out, .param .u32 p_v)\n"
    "{\n"
    "  .reg .b32 %r<7>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [p_out];\n"
    "  ld.param.u32 %r1, [p_v];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  add.s32 %r6, %r5, %r1;\n"
    "  mul.wide.s32 %rd3, %r5, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r6;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry bounded(.param .u64 p_out)\n"
    ".maxntid 128, 1, 1\n"
    "{\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [p_out];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r1, %ctaid.x;\n"
    "  mov.u32 %r2, %ntid.x;\n"
    "  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.s32 %r4, %r1, %r2, %r3;\n"
    "  mul.wide.u32 %rd3, %r4, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  mov.u32 %r5, 7;\n"
    "  st.global.u32 [%rd4], %r5;\n"
    "  ret;\n"
    "}\n";

#define N 512

static cudaLaunchConfig_t config(unsigned grid, unsigned block, cudaLaunchAttribute *a, unsigned n) {
    cudaLaunchConfig_t c;
    memset(&c, 0, sizeof c);
    c.gridDim.x = grid;
    c.gridDim.y = c.gridDim.z = 1;
    c.blockDim.x = block;
    c.blockDim.y = c.blockDim.z = 1;
    c.attrs = a;
    c.numAttrs = n;
    return c;
}

int main(void) {
    CUresult (*load)(CUlibrary *, const void *, void *, void **, unsigned, void *, void **, unsigned) = NULL;
    CUresult (*getKernel)(CUkernel *, CUlibrary, const char *) = NULL;
    CUresult (*unload)(CUlibrary) = NULL;
    OK(cudaGetDriverEntryPointByVersion("cuLibraryLoadData", (void **)&load, 12000, cudaEnableDefault, NULL));
    OK(cudaGetDriverEntryPointByVersion("cuLibraryGetKernel", (void **)&getKernel, 12000, cudaEnableDefault, NULL));
    OK(cudaGetDriverEntryPointByVersion("cuLibraryUnload", (void **)&unload, 12000, cudaEnableDefault, NULL));
    CHECK(load && getKernel && unload);
    if (ct_failed) DONE();
    OK(cudaFree(NULL));
    CUlibrary lib = NULL;
    SHOWI("cuLibraryLoadData", load(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0));
    CUkernel kfill = NULL, kbounded = NULL;
    SHOWI("cuLibraryGetKernel(fill)", getKernel(&kfill, lib, "fill"));
    SHOWI("cuLibraryGetKernel(bounded)", getKernel(&kbounded, lib, "bounded"));
    if (!kfill || !kbounded) DONE();
    const void *fill = (const void *)kfill, *bounded = (const void *)kbounded;

    int *d = NULL, h[N];
    OK(cudaMalloc((void **)&d, N * sizeof(int)));

    /* Extensible launches. */
    int v = 100;
    void *args[] = {&d, &v};
    cudaLaunchAttribute a;
    memset(&a, 0, sizeof a);
    a.id = cudaLaunchAttributePriority;
    a.val.priority = 0;
    cudaLaunchConfig_t c = config(N / 128, 128, &a, 1);
    SHOW("cudaLaunchKernelExC(fill)", cudaLaunchKernelExC(&c, fill, args));
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int good = 1;
    for (int i = 0; i < N; i++) good &= h[i] == 100 + i;
    CHECK(good);
    SHOWI("h[511]", h[511]);
    memset(&a, 0, sizeof a);
    a.id = cudaLaunchAttributeCooperative;
    a.val.cooperative = 1;
    v = 200;
    SHOW("cooperative cudaLaunchKernelExC(fill)", cudaLaunchKernelExC(&c, fill, args));
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOWI("h[511]", h[511]);
    memset(&a, 0, sizeof a);
    a.id = cudaLaunchAttributeClusterDimension;
    a.val.clusterDim.x = 2;
    a.val.clusterDim.y = a.val.clusterDim.z = 1;
    v = 300;
    SHOW("cluster 2 cudaLaunchKernelExC(fill)", cudaLaunchKernelExC(&c, fill, args));
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOWI("h[511]", h[511]);
    c = config(3, 128, &a, 1);
    SHOW_AND_LAST("cluster 2 of grid 3", cudaLaunchKernelExC(&c, fill, args), "cluster 2 of grid 3");
    c = config(1, 2048, NULL, 0);
    SHOW_AND_LAST("2048 threads", cudaLaunchKernelExC(&c, fill, args), "2048 threads");
    c = config(0, 128, NULL, 0);
    SHOW_AND_LAST("zero grid", cudaLaunchKernelExC(&c, fill, args), "zero grid");
    c = config(1, 256, NULL, 0);
    void *bargs[] = {&d};
    SHOW_AND_LAST("bounded (max 128 threads) with 256", cudaLaunchKernelExC(&c, bounded, bargs), "bounded 256");
    SHOW("bounded (max 128 threads) with 256, cudaLaunchKernel",
         cudaLaunchKernel(bounded, c.gridDim, c.blockDim, bargs, 0, 0));
    SHOW_LAST("bounded 256 cudaLaunchKernel");
    c = config(1, 128, NULL, 0);
    SHOW("bounded with 128", cudaLaunchKernelExC(&c, bounded, bargs));
    SHOW("sync", cudaDeviceSynchronize());

    /* Parameters. */
    for (size_t i = 0; i < 3; i++) {
        size_t off = 777, size = 777;
        char label[80];
        snprintf(label, sizeof label, "cudaFuncGetParamInfo(fill, %zu)", i);
        SHOW(label, cudaFuncGetParamInfo(fill, i, &off, &size));
        printf("  offset %zu, size %zu\n", off, size);
    }
    SHOW_LAST("param info");

    /* Attributes and configurations. */
    struct cudaFuncAttributes fa;
    OK(SHOW("cudaFuncGetAttributes(bounded)", cudaFuncGetAttributes(&fa, bounded)));
    SHOWI("  maxThreadsPerBlock", fa.maxThreadsPerBlock);
    SHOW("cudaFuncSetCacheConfig(fill, PreferL1)", cudaFuncSetCacheConfig(fill, cudaFuncCachePreferL1));
    SHOW_AND_LAST("cudaFuncSetCacheConfig(fill, 9)", cudaFuncSetCacheConfig(fill, (enum cudaFuncCache)9), "cache config 9");
    SHOW("cudaFuncSetSharedMemConfig(fill, EightByte)", cudaFuncSetSharedMemConfig(fill, cudaSharedMemBankSizeEightByte));
    SHOW_AND_LAST("cudaFuncSetSharedMemConfig(fill, 5)", cudaFuncSetSharedMemConfig(fill, (enum cudaSharedMemConfig)5), "bank config 5");

    /* Occupancy. */
    int n = -1;
    SHOW("max active blocks (fill, 128)", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fill, 128, 0));
    SHOWI("  blocks", n);
    SHOW("max active blocks (bounded, 128)", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, bounded, 128, 0));
    SHOWI("  blocks", n);
    SHOW_AND_LAST("max active blocks (bounded, 256)", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, bounded, 256, 0), "bounded 256 occupancy");
    SHOW("max active blocks with flags (fill, 1024)",
         cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, fill, 1024, 0, cudaOccupancyDisableCachingOverride));
    SHOWI("  blocks", n);
    size_t dyn = 0;
    SHOW("available dynamic smem (fill, 4 x 256)", cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, fill, 4, 256));
    SHOWU("  bytes", dyn);
    c = config(64, 128, NULL, 0);
    SHOW("max potential cluster size (fill)", cudaOccupancyMaxPotentialClusterSize(&n, fill, &c));
    SHOWI("  cluster size", n);
    memset(&a, 0, sizeof a);
    a.id = cudaLaunchAttributeClusterDimension;
    a.val.clusterDim.x = 4;
    a.val.clusterDim.y = a.val.clusterDim.z = 1;
    c = config(64, 128, &a, 1);
    SHOW("max active clusters (fill, cluster 4)", cudaOccupancyMaxActiveClusters(&n, fill, &c));
    SHOWI("  clusters", n);

#if CUDART_VERSION < 13000
    /* The multi-device cooperative launch, on the one device a stream of which it is given. */
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    v = 400;
    struct cudaLaunchParams lp[2];
    memset(lp, 0, sizeof lp);
    lp[0].func = (void *)fill;
    lp[0].gridDim.x = N / 128;
    lp[0].gridDim.y = lp[0].gridDim.z = 1;
    lp[0].blockDim.x = 128;
    lp[0].blockDim.y = lp[0].blockDim.z = 1;
    lp[0].args = args;
    lp[0].sharedMem = 0;
    lp[0].stream = s;
    SHOW_AND_LAST("cudaLaunchCooperativeKernelMultiDevice(1 device)", cudaLaunchCooperativeKernelMultiDevice(lp, 1, 0), "multi-device");
    SHOW("multi-device sync", cudaStreamSynchronize(s));
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOWI("h[511]", h[511]);
    v = 500;
    SHOW("multi-device, no sync flags",
         cudaLaunchCooperativeKernelMultiDevice(lp, 1, cudaCooperativeLaunchMultiDeviceNoPreSync |
                                                           cudaCooperativeLaunchMultiDeviceNoPostSync));
    SHOW("multi-device sync", cudaStreamSynchronize(s));
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    SHOWI("h[511]", h[511]);
    lp[0].stream = 0;
    SHOW_AND_LAST("multi-device on the null stream", cudaLaunchCooperativeKernelMultiDevice(lp, 1, 0), "multi-device null stream");
    lp[0].stream = s;
    SHOW_AND_LAST("multi-device flags 4", cudaLaunchCooperativeKernelMultiDevice(lp, 1, 4), "multi-device flags 4");
    SHOW_AND_LAST("multi-device NULL list", cudaLaunchCooperativeKernelMultiDevice(NULL, 1, 0), "multi-device NULL");
    SHOW_AND_LAST("multi-device 0 devices", cudaLaunchCooperativeKernelMultiDevice(lp, 0, 0), "multi-device 0");
    int count = 0;
    OK(cudaGetDeviceCount(&count));
    lp[1] = lp[0];
    SHOW_AND_LAST("multi-device, one more launch than devices", cudaLaunchCooperativeKernelMultiDevice(lp, count + 1, 0), "multi-device too many");
    lp[0].func = (void *)bounded;
    SHOW("multi-device bounded with 128", cudaLaunchCooperativeKernelMultiDevice(lp, 1, 0));
    lp[0].blockDim.x = 256;
    SHOW_AND_LAST("multi-device bounded with 256", cudaLaunchCooperativeKernelMultiDevice(lp, 1, 0), "multi-device bounded 256");
    lp[0].blockDim.x = 2048;
    SHOW_AND_LAST("multi-device 2048 threads", cudaLaunchCooperativeKernelMultiDevice(lp, 1, 0), "multi-device 2048");
    lp[0].func = NULL;
    lp[0].blockDim.x = 128;
    SHOW_AND_LAST("multi-device NULL function", cudaLaunchCooperativeKernelMultiDevice(lp, 1, 0), "multi-device NULL function");
    SHOW("multi-device sync", cudaStreamSynchronize(s));
    OK(cudaStreamDestroy(s));
#endif

    OK(cudaFree(d));
    SHOWI("cuLibraryUnload", unload(lib));
    SHOW_LAST("end");
    DONE();
}
