/* No CUDA driver: the launch, function, occupancy, stream attribute, entry point, export
 * table, profiler and log calls. Run by scripts/test/nodriver-check.sh under NVIDIA's runtime and
 * ours; the outputs must be identical. */
#include "../ctest.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);

int main(void) {
    /* The export table checks its pointers before it initialises anything. */
    const void *t = (const void *)0x1;
    cudaUUID_t u;
    memset(&u, 0x42, sizeof u);
    SHOW("cudaGetExportTable(NULL, NULL)", cudaGetExportTable(NULL, NULL));
    SHOW("cudaGetExportTable(&t, NULL)", cudaGetExportTable(&t, NULL));
    printf("table untouched: %d\n", t == (const void *)0x1);
    SHOW("cudaGetExportTable(NULL, &u)", cudaGetExportTable(NULL, &u));
    SHOW("cudaGetExportTable(&t, &u)", cudaGetExportTable(&t, &u));
    printf("table NULL: %d\n", t == NULL);
    SHOW_LAST("export table");

    void *p = (void *)0x1;
    enum cudaDriverEntryPointQueryResult st = (enum cudaDriverEntryPointQueryResult)77;
    SHOW("cudaGetDriverEntryPoint", cudaGetDriverEntryPoint("cuInit", &p, 0, &st));
    SHOW("cudaGetDriverEntryPointByVersion", cudaGetDriverEntryPointByVersion("cuInit", &p, 12000, 0, &st));
    SHOW("cudaGetDriverEntryPointByVersion(NULL, NULL)", cudaGetDriverEntryPointByVersion(NULL, NULL, 12000, 0, NULL));
    printf("pointer untouched: %d, status untouched: %d\n", p == (void *)0x1, (int)st == 77);
    SHOW("cudaProfilerStart", cudaProfilerStart());
    SHOW("cudaProfilerStop", cudaProfilerStop());

    cudaLaunchConfig_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDim.x = cfg.gridDim.y = cfg.gridDim.z = 1;
    cfg.blockDim.x = cfg.blockDim.y = cfg.blockDim.z = 1;
    SHOW("cudaLaunchKernelExC", cudaLaunchKernelExC(&cfg, (const void *)main, NULL));
    SHOW("cudaLaunchKernelExC(NULL func)", cudaLaunchKernelExC(&cfg, NULL, NULL));
    int n = -1;
    size_t sz = 7;
    SHOW("cudaOccupancyMaxActiveBlocksPerMultiprocessor", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, NULL, 32, 0));
    SHOW("...WithFlags", cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(NULL, NULL, 32, 0, 99));
    SHOW("cudaOccupancyAvailableDynamicSMemPerBlock", cudaOccupancyAvailableDynamicSMemPerBlock(&sz, NULL, 1, 32));
    SHOW("cudaOccupancyMaxPotentialClusterSize", cudaOccupancyMaxPotentialClusterSize(&n, NULL, &cfg));
    SHOW("cudaOccupancyMaxActiveClusters", cudaOccupancyMaxActiveClusters(&n, NULL, &cfg));
    printf("untouched: %d %d\n", n == -1, sz == 7);
    size_t off = 5;
    SHOW("cudaFuncGetParamInfo", cudaFuncGetParamInfo(NULL, 0, &off, &sz));
    SHOW("cudaFuncSetCacheConfig", cudaFuncSetCacheConfig(NULL, cudaFuncCachePreferL1));
    SHOW("cudaFuncSetSharedMemConfig", cudaFuncSetSharedMemConfig(NULL, cudaSharedMemBankSizeFourByte));

    cudaStreamAttrValue v;
    memset(&v, 0, sizeof v);
    SHOW("cudaStreamGetAttribute", cudaStreamGetAttribute(0, cudaStreamAttributePriority, &v));
    SHOW("cudaStreamSetAttribute(id 99, NULL)", cudaStreamSetAttribute(0, (cudaStreamAttrID)99, NULL));
    SHOW("cudaStreamSetAttribute", cudaStreamSetAttribute(0, cudaStreamAttributePriority, &v));
    SHOW("cudaStreamCopyAttributes", cudaStreamCopyAttributes(0, 0));
#if CUDART_VERSION >= 13000
    cudaLogIterator it = 5;
    SHOW("cudaLogsCurrent", cudaLogsCurrent(&it, 0));
    SHOW("cudaLogsCurrent(NULL)", cudaLogsCurrent(NULL, 0));
    SHOW("cudaLogsDumpToMemory", cudaLogsDumpToMemory(NULL, NULL, &sz, 0));
    SHOW("cudaLogsDumpToFile", cudaLogsDumpToFile(NULL, "/dev/null", 0));
    cudaLogsCallbackHandle h = NULL;
    SHOW("cudaLogsRegisterCallback", cudaLogsRegisterCallback(NULL, NULL, &h));
    SHOW("cudaLogsUnregisterCallback", cudaLogsUnregisterCallback(NULL));
    printf("iterator untouched: %d\n", it == 5);
#else
    struct cudaLaunchParams lp;
    memset(&lp, 0, sizeof lp);
    SHOW("cudaLaunchCooperativeKernelMultiDevice", cudaLaunchCooperativeKernelMultiDevice(&lp, 1, 0));
    SHOW("cudaLaunchCooperativeKernelMultiDevice(NULL)", cudaLaunchCooperativeKernelMultiDevice(NULL, 0, 0));
#endif
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
