/* Device-wide settings and queries: cudaInitDevice, cudaSetValidDevices, limits, cache and
 * shared memory configurations, PCI bus ids, peer attributes, atomic capabilities (13),
 * GPUDirect RDMA flushes, async notifications, the persisting L2 reset, and CUDA 12's
 * cudaThread* and cudaSetDoubleFor* (errors too: bad devices, NULL pointers, bad
 * enums and flags). */
#include "ctest.h"
#include <ctype.h>

static const char *limit_names[] = {"StackSize", "PrintfFifoSize", "MallocHeapSize", "DevRuntimeSyncDepth",
                                    "DevRuntimePendingLaunchCount", "MaxL2FetchGranularity",
                                    "PersistingL2CacheSize"};

static void show_limit(const char *when, int l) {
    size_t v = 12345;
    char label[160];
    snprintf(label, sizeof label, "cudaDeviceGetLimit(%s) %s", limit_names[l], when);
    if (SHOW(label, cudaDeviceGetLimit(&v, (enum cudaLimit)l)) == cudaSuccess) {
        snprintf(label, sizeof label, "%s %s", limit_names[l], when);
        SHOWU(label, v);
    }
}

static void show_cache_config(const char *when) {
    enum cudaFuncCache c = (enum cudaFuncCache)99;
    char label[128];
    snprintf(label, sizeof label, "cudaDeviceGetCacheConfig %s", when);
    SHOW(label, cudaDeviceGetCacheConfig(&c));
    snprintf(label, sizeof label, "cache config %s", when);
    SHOWI(label, c);
}

static int notified = 0;
static void on_notification(cudaAsyncNotificationInfo_t *info, void *user, cudaAsyncCallbackHandle_t h) {
    (void)info;
    (void)user;
    (void)h;
    notified++;
}

/* PCI bus id "dddd:bb:dd.f": hexadecimal digits where they belong. */
static int well_formed(const char *s) {
    if (strlen(s) != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.') return 0;
    for (int i = 0; i < 12; i++)
        if (i != 4 && i != 7 && i != 10 && !isxdigit((unsigned char)s[i])) return 0;
    return 1;
}

int main(void) {
    /* cudaInitDevice: first, while nothing else has touched the device. */
    unsigned int fl = 99;
    OK(SHOW("cudaInitDevice(0, BlockingSync, AreValid)",
            cudaInitDevice(0, cudaDeviceScheduleBlockingSync, cudaInitDeviceFlagsAreValid)));
    OK(cudaGetDeviceFlags(&fl));
    SHOWU("device flags after cudaInitDevice", fl);
    SHOW("cudaInitDevice(0, Spin|Yield, 0)", cudaInitDevice(0, cudaDeviceScheduleSpin | cudaDeviceScheduleYield, 0));
    OK(cudaGetDeviceFlags(&fl));
    SHOWU("device flags after flags not marked valid", fl);
    SHOW("cudaInitDevice(0, Spin|Yield, AreValid)",
         cudaInitDevice(0, cudaDeviceScheduleSpin | cudaDeviceScheduleYield, cudaInitDeviceFlagsAreValid));
    SHOW("cudaInitDevice(0, 0x100, AreValid)", cudaInitDevice(0, 0x100, cudaInitDeviceFlagsAreValid));
    SHOW("cudaInitDevice(0, 0, 2)", cudaInitDevice(0, 0, 2));
    SHOW("cudaInitDevice(-1)", cudaInitDevice(-1, 0, 0));
    SHOW("cudaInitDevice(1000)", cudaInitDevice(1000, 0, 0));
    SHOW_LAST("after bad cudaInitDevice");
    OK(SHOW("cudaInitDevice(0, Auto, AreValid)", cudaInitDevice(0, cudaDeviceScheduleAuto, cudaInitDeviceFlagsAreValid)));
    OK(cudaGetDeviceFlags(&fl));
    SHOWU("device flags after Auto", fl);

    /* cudaSetValidDevices. */
    int n = 0;
    OK(cudaGetDeviceCount(&n));
    int list[2] = {0, 0};
    OK(SHOW("cudaSetValidDevices({0}, 1)", cudaSetValidDevices(list, 1)));
    int dev = -1;
    OK(cudaGetDevice(&dev));
    SHOWI("device after cudaSetValidDevices", dev);
    SHOW("cudaSetValidDevices(NULL, 1)", cudaSetValidDevices(NULL, 1));
    SHOW("cudaSetValidDevices(list, count + 1)", cudaSetValidDevices(list, n + 1));
    SHOW("cudaSetValidDevices(list, -1)", cudaSetValidDevices(list, -1));
    list[0] = 1000;
    SHOW("cudaSetValidDevices({1000}, 1)", cudaSetValidDevices(list, 1));
    list[0] = -1;
    SHOW("cudaSetValidDevices({-1}, 1)", cudaSetValidDevices(list, 1));
    SHOW_LAST("after bad cudaSetValidDevices");
    OK(SHOW("cudaSetValidDevices(NULL, 0)", cudaSetValidDevices(NULL, 0)));

    /* Limits: defaults, set and read back, errors, back to defaults after a reset. */
    for (int l = 0; l <= 6; l++) show_limit("default", l);
    static const size_t want[] = {2048, 2 << 20, 16 << 20, 4, 4096, 32, 4 << 20};
    for (int l = 0; l <= 6; l++) {
        char label[128];
        snprintf(label, sizeof label, "cudaDeviceSetLimit(%s, %zu)", limit_names[l], want[l]);
        SHOW(label, cudaDeviceSetLimit((enum cudaLimit)l, want[l]));
        show_limit("after set", l);
    }
    SHOW("cudaDeviceSetLimit(MaxL2FetchGranularity, 256)", cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 256));
    show_limit("after 256", 5);
    size_t v = 0;
    SHOW("cudaDeviceGetLimit(NULL)", cudaDeviceGetLimit(NULL, cudaLimitStackSize));
    SHOW("cudaDeviceGetLimit(7)", cudaDeviceGetLimit(&v, (enum cudaLimit)7));
    SHOW("cudaDeviceGetLimit(100)", cudaDeviceGetLimit(&v, (enum cudaLimit)100));
    SHOW("cudaDeviceGetLimit(-1)", cudaDeviceGetLimit(&v, (enum cudaLimit)-1));
    SHOW("cudaDeviceGetLimit(NULL, 100)", cudaDeviceGetLimit(NULL, (enum cudaLimit)100));
    SHOW("cudaDeviceSetLimit(100)", cudaDeviceSetLimit((enum cudaLimit)100, 1));
    SHOW_LAST("after bad limits");
#if CUDART_VERSION < 13000
    SHOW("cudaThreadSetLimit(StackSize, 4096)", cudaThreadSetLimit(cudaLimitStackSize, 4096));
    v = 0;
    SHOW("cudaThreadGetLimit(StackSize)", cudaThreadGetLimit(&v, cudaLimitStackSize));
    SHOWU("StackSize (thread)", v);
    SHOW("cudaThreadGetLimit(NULL)", cudaThreadGetLimit(NULL, cudaLimitStackSize));
    SHOW("cudaThreadGetLimit(DevRuntimeSyncDepth)", cudaThreadGetLimit(&v, cudaLimitDevRuntimeSyncDepth));
    SHOW_LAST("after cudaThread limits");
#endif
    OK(SHOW("cudaDeviceReset", cudaDeviceReset()));
    for (int l = 0; l <= 6; l++) show_limit("after reset", l);

    /* Cache configuration. */
    show_cache_config("default");
    for (int c = 0; c <= 3; c++) {
        char label[64];
        snprintf(label, sizeof label, "cudaDeviceSetCacheConfig(%d)", c);
        OK(SHOW(label, cudaDeviceSetCacheConfig((enum cudaFuncCache)c)));
        snprintf(label, sizeof label, "after %d", c);
        show_cache_config(label);
    }
    SHOW("cudaDeviceSetCacheConfig(4)", cudaDeviceSetCacheConfig((enum cudaFuncCache)4));
    SHOW("cudaDeviceSetCacheConfig(-1)", cudaDeviceSetCacheConfig((enum cudaFuncCache)-1));
    SHOW("cudaDeviceGetCacheConfig(NULL)", cudaDeviceGetCacheConfig(NULL));
    SHOW_LAST("after bad cache configs");
    show_cache_config("after bad sets");
#if CUDART_VERSION < 13000
    OK(SHOW("cudaThreadSetCacheConfig(PreferShared)", cudaThreadSetCacheConfig(cudaFuncCachePreferShared)));
    enum cudaFuncCache tc = (enum cudaFuncCache)99;
    OK(SHOW("cudaThreadGetCacheConfig", cudaThreadGetCacheConfig(&tc)));
    SHOWI("cache config (thread)", tc);
    SHOW("cudaThreadGetCacheConfig(NULL)", cudaThreadGetCacheConfig(NULL));
    SHOW("cudaThreadSetCacheConfig(4)", cudaThreadSetCacheConfig((enum cudaFuncCache)4));
    SHOW_LAST("after cudaThread cache configs");
#endif
    OK(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone));

    /* Shared memory bank configuration (deprecated; fixed on this hardware). */
    enum cudaSharedMemConfig sc = (enum cudaSharedMemConfig)99;
    SHOW("cudaDeviceGetSharedMemConfig", cudaDeviceGetSharedMemConfig(&sc));
    SHOWI("shared memory config", sc);
    SHOW("cudaDeviceSetSharedMemConfig(EightByte)", cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
    sc = (enum cudaSharedMemConfig)99;
    SHOW("cudaDeviceGetSharedMemConfig after EightByte", cudaDeviceGetSharedMemConfig(&sc));
    SHOWI("shared memory config after EightByte", sc);
    SHOW("cudaDeviceSetSharedMemConfig(Default)", cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeDefault));
    SHOW("cudaDeviceSetSharedMemConfig(3)", cudaDeviceSetSharedMemConfig((enum cudaSharedMemConfig)3));
    SHOW("cudaDeviceGetSharedMemConfig(NULL)", cudaDeviceGetSharedMemConfig(NULL));
    SHOW_LAST("after bad shared memory configs");

    /* PCI bus ids: the string's form, and back to the device in every accepted form. */
    char bus[64], alt[64];
    memset(bus, 0, sizeof bus);
    OK(SHOW("cudaDeviceGetPCIBusId(64)", cudaDeviceGetPCIBusId(bus, sizeof bus, 0)));
    SHOWI("PCI bus id length", strlen(bus));
    SHOWI("PCI bus id well formed", well_formed(bus));
    struct cudaDeviceProp p;
    OK(cudaGetDeviceProperties(&p, 0));
    unsigned int pd = 0, pb = 0, pv = 0, pf = 9;
    CHECK(sscanf(bus, "%x:%x:%x.%x", &pd, &pb, &pv, &pf) == 4);
    SHOWI("PCI bus id matches the properties",
          (int)pd == p.pciDomainID && (int)pb == p.pciBusID && (int)pv == p.pciDeviceID && pf == 0);
    OK(SHOW("cudaDeviceGetPCIBusId(13)", cudaDeviceGetPCIBusId(bus, 13, 0)));
    SHOWI("length with 13", strlen(bus));
    memset(alt, 0x7f, sizeof alt);
    SHOW("cudaDeviceGetPCIBusId(8)", cudaDeviceGetPCIBusId(alt, 8, 0));
    SHOWI("length with 8", strnlen(alt, sizeof alt));
    SHOWI("bytes after the 8 untouched", (unsigned char)alt[8] == 0x7f);
    SHOW("cudaDeviceGetPCIBusId(NULL)", cudaDeviceGetPCIBusId(NULL, 13, 0));
    SHOW("cudaDeviceGetPCIBusId(len 0)", cudaDeviceGetPCIBusId(alt, 0, 0));
    SHOW("cudaDeviceGetPCIBusId(len -1)", cudaDeviceGetPCIBusId(alt, -1, 0));
    SHOW("cudaDeviceGetPCIBusId(device -1)", cudaDeviceGetPCIBusId(alt, 13, -1));
    SHOW("cudaDeviceGetPCIBusId(device 1000)", cudaDeviceGetPCIBusId(alt, 13, 1000));
    SHOW("cudaDeviceGetPCIBusId(NULL, device 1000)", cudaDeviceGetPCIBusId(NULL, 13, 1000));
    SHOW_LAST("after bad cudaDeviceGetPCIBusId");

    dev = -1;
    OK(SHOW("cudaDeviceGetByPCIBusId(as given)", cudaDeviceGetByPCIBusId(&dev, bus)));
    SHOWI("device (as given)", dev);
    for (size_t i = 0; i < strlen(bus); i++) alt[i] = (char)tolower((unsigned char)bus[i]);
    alt[strlen(bus)] = 0;
    dev = -1;
    SHOW("cudaDeviceGetByPCIBusId(lower case)", cudaDeviceGetByPCIBusId(&dev, alt));
    SHOWI("device (lower case)", dev);
    for (size_t i = 0; i < strlen(bus); i++) alt[i] = (char)toupper((unsigned char)bus[i]);
    dev = -1;
    SHOW("cudaDeviceGetByPCIBusId(upper case)", cudaDeviceGetByPCIBusId(&dev, alt));
    SHOWI("device (upper case)", dev);
    dev = -1;
    OK(SHOW("cudaDeviceGetByPCIBusId(bus:device.function)", cudaDeviceGetByPCIBusId(&dev, bus + 5)));
    SHOWI("device (bus:device.function)", dev);
    snprintf(alt, sizeof alt, "%.10s", bus);
    dev = -1;
    OK(SHOW("cudaDeviceGetByPCIBusId(domain:bus:device)", cudaDeviceGetByPCIBusId(&dev, alt)));
    SHOWI("device (domain:bus:device)", dev);
    SHOW("cudaDeviceGetByPCIBusId(NULL device)", cudaDeviceGetByPCIBusId(NULL, bus));
    SHOW("cudaDeviceGetByPCIBusId(NULL id)", cudaDeviceGetByPCIBusId(&dev, NULL));
    SHOW("cudaDeviceGetByPCIBusId(\"\")", cudaDeviceGetByPCIBusId(&dev, ""));
    SHOW("cudaDeviceGetByPCIBusId(\"not a bus id\")", cudaDeviceGetByPCIBusId(&dev, "not a bus id"));
    SHOW("cudaDeviceGetByPCIBusId(\"ffff:ff:1f.7\")", cudaDeviceGetByPCIBusId(&dev, "ffff:ff:1f.7"));
    SHOW_LAST("after bad cudaDeviceGetByPCIBusId");

    /* Peer attributes: a device is not its own peer. */
    int pv_ = -7;
    SHOW("cudaDeviceGetP2PAttribute(PerformanceRank, 0, 0)",
         cudaDeviceGetP2PAttribute(&pv_, cudaDevP2PAttrPerformanceRank, 0, 0));
    SHOW("cudaDeviceGetP2PAttribute(AccessSupported, 0, 0)",
         cudaDeviceGetP2PAttribute(&pv_, cudaDevP2PAttrAccessSupported, 0, 0));
    SHOW("cudaDeviceGetP2PAttribute(AccessSupported, 0, 1000)",
         cudaDeviceGetP2PAttribute(&pv_, cudaDevP2PAttrAccessSupported, 0, 1000));
    SHOW("cudaDeviceGetP2PAttribute(AccessSupported, -1, 0)",
         cudaDeviceGetP2PAttribute(&pv_, cudaDevP2PAttrAccessSupported, -1, 0));
    SHOW("cudaDeviceGetP2PAttribute(NULL, 0, 0)", cudaDeviceGetP2PAttribute(NULL, cudaDevP2PAttrAccessSupported, 0, 0));
    SHOW("cudaDeviceGetP2PAttribute(attr 0, 0, 0)", cudaDeviceGetP2PAttribute(&pv_, (enum cudaDeviceP2PAttr)0, 0, 0));
    SHOW("cudaDeviceGetP2PAttribute(attr 99, 0, 0)", cudaDeviceGetP2PAttribute(&pv_, (enum cudaDeviceP2PAttr)99, 0, 0));
    SHOWI("value after failed peer queries", pv_);
    SHOW_LAST("after peer attributes");

#if CUDART_VERSION >= 13000
    /* Atomic capabilities of the link to the host, per operation. */
    enum cudaAtomicOperation ops[13];
    unsigned int caps[13];
    for (int i = 0; i < 13; i++) {
        ops[i] = (enum cudaAtomicOperation)i;
        caps[i] = 0xdeadbeef;
    }
    OK(SHOW("cudaDeviceGetHostAtomicCapabilities(13 ops)", cudaDeviceGetHostAtomicCapabilities(caps, ops, 13, 0)));
    for (int i = 0; i < 13; i++) {
        char label[64];
        snprintf(label, sizeof label, "host atomic capabilities of operation %d", i);
        SHOWU(label, caps[i]);
    }
    enum cudaAtomicOperation bad_op = (enum cudaAtomicOperation)13;
    SHOW("cudaDeviceGetHostAtomicCapabilities(NULL caps)", cudaDeviceGetHostAtomicCapabilities(NULL, ops, 1, 0));
    SHOW("cudaDeviceGetHostAtomicCapabilities(NULL ops)", cudaDeviceGetHostAtomicCapabilities(caps, NULL, 1, 0));
    SHOW("cudaDeviceGetHostAtomicCapabilities(count 0)", cudaDeviceGetHostAtomicCapabilities(caps, ops, 0, 0));
    SHOW("cudaDeviceGetHostAtomicCapabilities(op 13)", cudaDeviceGetHostAtomicCapabilities(caps, &bad_op, 1, 0));
    SHOW("cudaDeviceGetHostAtomicCapabilities(device 1000)", cudaDeviceGetHostAtomicCapabilities(caps, ops, 1, 1000));
    SHOW("cudaDeviceGetHostAtomicCapabilities(NULL caps, device 1000)",
         cudaDeviceGetHostAtomicCapabilities(NULL, ops, 1, 1000));
    SHOW_LAST("after bad host atomic queries");
    SHOW("cudaDeviceGetP2PAtomicCapabilities(0, 0)", cudaDeviceGetP2PAtomicCapabilities(caps, ops, 1, 0, 0));
    SHOW("cudaDeviceGetP2PAtomicCapabilities(0, 1000)", cudaDeviceGetP2PAtomicCapabilities(caps, ops, 1, 0, 1000));
    SHOW("cudaDeviceGetP2PAtomicCapabilities(NULL caps, 0, 0)", cudaDeviceGetP2PAtomicCapabilities(NULL, ops, 1, 0, 0));
    SHOW("cudaDeviceGetP2PAtomicCapabilities(count 0, 0, 0)", cudaDeviceGetP2PAtomicCapabilities(caps, ops, 0, 0, 0));
    SHOW_LAST("after peer atomic queries");
#endif

    /* GPUDirect RDMA write flushes. */
    SHOW("cudaDeviceFlushGPUDirectRDMAWrites(CurrentDevice, ToOwner)",
         cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                            cudaFlushGPUDirectRDMAWritesToOwner));
    SHOW("cudaDeviceFlushGPUDirectRDMAWrites(CurrentDevice, ToAllDevices)",
         cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                            cudaFlushGPUDirectRDMAWritesToAllDevices));
    SHOW("cudaDeviceFlushGPUDirectRDMAWrites(target 1)",
         cudaDeviceFlushGPUDirectRDMAWrites((enum cudaFlushGPUDirectRDMAWritesTarget)1,
                                            cudaFlushGPUDirectRDMAWritesToOwner));
    SHOW("cudaDeviceFlushGPUDirectRDMAWrites(scope 0)",
         cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                            (enum cudaFlushGPUDirectRDMAWritesScope)0));
    SHOW("cudaDeviceFlushGPUDirectRDMAWrites(scope 300)",
         cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                            (enum cudaFlushGPUDirectRDMAWritesScope)300));
    SHOW_LAST("after RDMA flushes");

    /* Async notifications: register two, unregister both; errors. */
    cudaAsyncCallbackHandle_t h1 = NULL, h2 = NULL;
    SHOW("cudaDeviceRegisterAsyncNotification", cudaDeviceRegisterAsyncNotification(0, on_notification, &notified, &h1));
    SHOWI("handle set", h1 != NULL);
    SHOW("cudaDeviceRegisterAsyncNotification (second)",
         cudaDeviceRegisterAsyncNotification(0, on_notification, NULL, &h2));
    SHOWI("handles differ", h1 != h2);
    SHOW("cudaDeviceRegisterAsyncNotification(device 1000)",
         cudaDeviceRegisterAsyncNotification(1000, on_notification, NULL, &h2));
    SHOW("cudaDeviceRegisterAsyncNotification(NULL callback)", cudaDeviceRegisterAsyncNotification(0, NULL, NULL, &h2));
    /* (No NULL handle: NVIDIA's runtime crashes on it.) */
    SHOW("cudaDeviceUnregisterAsyncNotification(NULL)", cudaDeviceUnregisterAsyncNotification(0, NULL));
    SHOW("cudaDeviceUnregisterAsyncNotification(device 1000)", cudaDeviceUnregisterAsyncNotification(1000, h2));
    SHOW_LAST("after bad notification calls");
    if (h1) SHOW("cudaDeviceUnregisterAsyncNotification(first)", cudaDeviceUnregisterAsyncNotification(0, h1));
    if (h2) SHOW("cudaDeviceUnregisterAsyncNotification(second)", cudaDeviceUnregisterAsyncNotification(0, h2));
    SHOWI("notifications received", notified);

    OK(SHOW("cudaCtxResetPersistingL2Cache", cudaCtxResetPersistingL2Cache()));

#if CUDART_VERSION < 13000
    /* CUDA 12's deprecated thread calls and double conversions. */
    OK(SHOW("cudaThreadSynchronize", cudaThreadSynchronize()));
    OK(cudaDeviceSetLimit(cudaLimitStackSize, 8192));
    OK(SHOW("cudaThreadExit", cudaThreadExit()));
    show_limit("after cudaThreadExit", 0);
    double d = 1.5;
    SHOW("cudaSetDoubleForDevice", cudaSetDoubleForDevice(&d));
    SHOW("cudaSetDoubleForHost", cudaSetDoubleForHost(&d));
    CHECK(d == 1.5);
    SHOW("cudaSetDoubleForDevice(NULL)", cudaSetDoubleForDevice(NULL));
    SHOW("cudaSetDoubleForHost(NULL)", cudaSetDoubleForHost(NULL));
    SHOW_LAST("after cudaSetDoubleFor* (NULL)");
#endif
    DONE();
}
