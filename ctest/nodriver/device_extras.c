/* No CUDA driver: the device, IPC, stream-callback and event calls (with good and NULL
 * arguments), what they return, what they leave in their out parameters and what the last
 * error says. Run by scripts/test/nodriver-check.sh under NVIDIA's runtime and ours. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include "../ctest.h"

static void cb(cudaStream_t s, cudaError_t e, void *u) {
    (void)s;
    (void)e;
    (void)u;
}
static void hf(void *u) { (void)u; }
static void notify(cudaAsyncNotificationInfo_t *i, void *u, cudaAsyncCallbackHandle_t h) {
    (void)i;
    (void)u;
    (void)h;
}

int main(void) {
    struct cudaDeviceProp p;
    memset(&p, 0x5a, sizeof p);
    SHOW("cudaGetDeviceProperties", cudaGetDeviceProperties(&p, 0));
    SHOWI("properties untouched", ((unsigned char *)&p)[0] == 0x5a && ((unsigned char *)&p)[sizeof p - 1] == 0x5a);
    SHOW("cudaGetDeviceProperties(NULL)", cudaGetDeviceProperties(NULL, 0));
    SHOW_LAST("after cudaGetDeviceProperties");
    int d = -7;
    SHOW("cudaChooseDevice", cudaChooseDevice(&d, &p));
    SHOWI("chosen", d);
    SHOW("cudaChooseDevice(NULL, NULL)", cudaChooseDevice(NULL, NULL));
    SHOW("cudaInitDevice", cudaInitDevice(0, 0, 0));
    SHOW("cudaInitDevice(bad flags)", cudaInitDevice(0, 0, 99));
    SHOW("cudaSetValidDevices(NULL, 0)", cudaSetValidDevices(NULL, 0));
    SHOW("cudaSetValidDevices(NULL, 1)", cudaSetValidDevices(NULL, 1));
    char bus[32] = "untouched";
    SHOW("cudaDeviceGetPCIBusId", cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
    printf("bus id: %s\n", bus);
    SHOW("cudaDeviceGetByPCIBusId", cudaDeviceGetByPCIBusId(&d, "0000:00:00.0"));
    SHOW("cudaDeviceGetByPCIBusId(NULL)", cudaDeviceGetByPCIBusId(NULL, NULL));
    size_t v = 77;
    SHOW("cudaDeviceGetLimit", cudaDeviceGetLimit(&v, cudaLimitStackSize));
    SHOWU("limit", v);
    SHOW("cudaDeviceGetLimit(NULL)", cudaDeviceGetLimit(NULL, cudaLimitStackSize));
    SHOW("cudaDeviceSetLimit", cudaDeviceSetLimit(cudaLimitStackSize, 2048));
    enum cudaFuncCache fc = (enum cudaFuncCache)77;
    SHOW("cudaDeviceGetCacheConfig", cudaDeviceGetCacheConfig(&fc));
    SHOWI("cache config", fc);
    SHOW("cudaDeviceSetCacheConfig", cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
    enum cudaSharedMemConfig sc = (enum cudaSharedMemConfig)77;
    SHOW("cudaDeviceGetSharedMemConfig", cudaDeviceGetSharedMemConfig(&sc));
    SHOWI("shared memory config", sc);
    SHOW("cudaDeviceSetSharedMemConfig", cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeFourByte));
    int pv = 77;
    SHOW("cudaDeviceGetP2PAttribute", cudaDeviceGetP2PAttribute(&pv, cudaDevP2PAttrAccessSupported, 0, 0));
    SHOWI("peer attribute", pv);
#if CUDART_VERSION >= 13000
    enum cudaAtomicOperation op = cudaAtomicOperationCAS;
    unsigned int caps = 77;
    SHOW("cudaDeviceGetHostAtomicCapabilities", cudaDeviceGetHostAtomicCapabilities(&caps, &op, 1, 0));
    SHOW("cudaDeviceGetP2PAtomicCapabilities", cudaDeviceGetP2PAtomicCapabilities(&caps, &op, 1, 0, 0));
    SHOWU("caps", caps);
#endif
    SHOW("cudaDeviceFlushGPUDirectRDMAWrites",
         cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                            cudaFlushGPUDirectRDMAWritesToOwner));
    cudaAsyncCallbackHandle_t h = NULL;
    SHOW("cudaDeviceRegisterAsyncNotification", cudaDeviceRegisterAsyncNotification(0, notify, NULL, &h));
    SHOW("cudaDeviceUnregisterAsyncNotification", cudaDeviceUnregisterAsyncNotification(0, h));
    SHOW("cudaCtxResetPersistingL2Cache", cudaCtxResetPersistingL2Cache());

    cudaIpcMemHandle_t mh;
    cudaIpcEventHandle_t eh;
    memset(&mh, 0, sizeof mh);
    memset(&eh, 0, sizeof eh);
    void *ptr = (void *)0x1;
    cudaEvent_t ev = (cudaEvent_t)0x1;
    SHOW("cudaIpcGetMemHandle(NULL)", cudaIpcGetMemHandle(NULL, NULL));
    SHOW("cudaIpcOpenMemHandle", cudaIpcOpenMemHandle(&ptr, mh, cudaIpcMemLazyEnablePeerAccess));
    printf("pointer untouched: %d\n", ptr == (void *)0x1);
    SHOW("cudaIpcCloseMemHandle(NULL)", cudaIpcCloseMemHandle(NULL));
    SHOW("cudaIpcGetEventHandle(NULL)", cudaIpcGetEventHandle(NULL, NULL));
    SHOW("cudaIpcOpenEventHandle", cudaIpcOpenEventHandle(&ev, eh));
    printf("event untouched: %d\n", ev == (cudaEvent_t)0x1);

    SHOW("cudaStreamAddCallback", cudaStreamAddCallback(NULL, cb, NULL, 0));
    SHOW("cudaStreamAddCallback(NULL)", cudaStreamAddCallback(NULL, NULL, NULL, 0));
    SHOW("cudaLaunchHostFunc", cudaLaunchHostFunc(NULL, hf, NULL));
    unsigned long long id = 77;
    SHOW("cudaStreamGetId", cudaStreamGetId(NULL, &id));
    SHOWU("id", id);
    SHOW("cudaStreamGetDevice", cudaStreamGetDevice(NULL, &d));
    SHOW("cudaEventRecordWithFlags", cudaEventRecordWithFlags(NULL, NULL, cudaEventRecordExternal));
#if CUDART_VERSION < 13000
    float ms = 1.0f;
    SHOW("cudaEventElapsedTime_v2", cudaEventElapsedTime_v2(&ms, NULL, NULL));
    SHOW("cudaThreadSynchronize", cudaThreadSynchronize());
    SHOW("cudaThreadExit", cudaThreadExit());
    SHOW("cudaThreadGetLimit", cudaThreadGetLimit(&v, cudaLimitStackSize));
    SHOW("cudaThreadSetLimit", cudaThreadSetLimit(cudaLimitStackSize, 2048));
    SHOW("cudaThreadGetCacheConfig", cudaThreadGetCacheConfig(&fc));
    SHOW("cudaThreadSetCacheConfig", cudaThreadSetCacheConfig(cudaFuncCachePreferL1));
    double dbl = 2.5;
    SHOW("cudaSetDoubleForDevice", cudaSetDoubleForDevice(&dbl));
    SHOW("cudaSetDoubleForHost", cudaSetDoubleForHost(&dbl));
    SHOW("cudaSetDoubleForDevice(NULL)", cudaSetDoubleForDevice(NULL));
    printf("double untouched: %d\n", dbl == 2.5);
    {
        /* The symbol programs built before CUDA 12.0 call. */
#undef cudaGetDeviceProperties
        extern cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *, int);
        SHOW("legacy cudaGetDeviceProperties", cudaGetDeviceProperties(&p, 0));
        SHOW("legacy cudaGetDeviceProperties(NULL)", cudaGetDeviceProperties(NULL, 0));
    }
#endif
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
