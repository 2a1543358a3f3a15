/* ctest: gpu */
/* A kernel's attributes and occupancy asked again and again while what they depend on
 * changes: after cudaFuncSetAttribute (maximum dynamic shared memory, carveout, cluster
 * width, non-portable clusters, scheduling policy), cudaFuncSetCacheConfig,
 * cudaFuncSetSharedMemConfig, cudaKernelSetAttributeForDevice, the driver API's own setters
 * on the same kernel (cuKernelSetAttribute, cuFuncSetAttribute), device limits and cache
 * configuration, cudaDeviceReset, and a library unloaded and another loaded in its place
 * (whose kernel may get the unloaded kernel's handle: its attributes must be its own). From
 * several threads at once, and from threads that all ask first at once in a fresh process.
 * Each answer is printed in full, so a runtime that answers from a stale copy prints
 * something else than NVIDIA's. The kernels are PTX, loaded with cudaLibraryLoadData. */
#include <pthread.h>
#include <stdint.h>

#include "ctest.h"

/* Two kernels: one with 1024 bytes of static shared memory (ka_shared), one without. */
#define KERNELS_PTX(SHARED, NAME_SHARED, NAME_PLAIN)                                       \
    ".version 7.0\n"                                                                       \
    ".target sm_52\n"                                                                      \
    ".address_size 64\n"                                                                   \
    ".visible .entry " NAME_SHARED "(.param .u64 out)\n"                                   \
    "{\n"                                                                                  \
    "  .reg .u64 %rd<6>;\n"                                                                \
    "  .reg .u32 %r<4>;\n"                                                                 \
    "  .shared .align 4 .b8 sbuf[" SHARED "];\n"                                          \
    "  mov.u32 %r1, %tid.x;\n"                                                             \
    "  mul.wide.u32 %rd1, %r1, 4;\n"                                                       \
    "  mov.u64 %rd2, sbuf;\n"                                                              \
    "  add.u64 %rd3, %rd2, %rd1;\n"                                                        \
    "  st.shared.u32 [%rd3], %r1;\n"                                                       \
    "  bar.sync 0;\n"                                                                      \
    "  xor.b32 %r2, %r1, 1;\n"                                                             \
    "  mul.wide.u32 %rd4, %r2, 4;\n"                                                       \
    "  add.u64 %rd4, %rd2, %rd4;\n"                                                        \
    "  ld.shared.u32 %r3, [%rd4];\n"                                                       \
    "  ld.param.u64 %rd5, [out];\n"                                                        \
    "  cvta.to.global.u64 %rd5, %rd5;\n"                                                   \
    "  add.u64 %rd5, %rd5, %rd1;\n"                                                        \
    "  st.global.u32 [%rd5], %r3;\n"                                                       \
    "  ret;\n"                                                                             \
    "}\n"                                                                                  \
    ".visible .entry " NAME_PLAIN "(.param .u64 out)\n"                                    \
    "{\n"                                                                                  \
    "  .reg .u64 %rd<3>;\n"                                                                \
    "  .reg .u32 %r<2>;\n"                                                                 \
    "  mov.u32 %r1, %tid.x;\n"                                                             \
    "  ld.param.u64 %rd1, [out];\n"                                                        \
    "  cvta.to.global.u64 %rd1, %rd1;\n"                                                   \
    "  mul.wide.u32 %rd2, %r1, 4;\n"                                                       \
    "  add.u64 %rd1, %rd1, %rd2;\n"                                                        \
    "  st.global.u32 [%rd1], %r1;\n"                                                       \
    "  ret;\n"                                                                             \
    "}\n"

static const char ptx_a[] = KERNELS_PTX("1024", "ka_shared", "ka_plain");
/* The library loaded after the first is unloaded: other kernels, 3072 bytes of shared memory. */
static const char ptx_b[] = KERNELS_PTX("3072", "kb_shared", "kb_plain");

static void show(const char *label, cudaKernel_t k) {
    struct cudaFuncAttributes a;
    memset(&a, 0, sizeof a);
    cudaError_t e = cudaFuncGetAttributes(&a, (const void *)k);
    if (e != cudaSuccess) {
        printf("%s: cudaFuncGetAttributes: %s\n", label, cudaGetErrorName(e));
        SHOW_LAST(label);
        return;
    }
    printf("%s: maxThreads=%d shared=%zu const=%zu local=%zu regs=%d ptx=%d binary=%d cacheCA=%d maxDynShared=%d "
           "carveout=%d clusterMustBeSet=%d cluster=%dx%dx%d nonPortable=%d policy=%d\n",
           label, a.maxThreadsPerBlock, a.sharedSizeBytes, a.constSizeBytes, a.localSizeBytes, a.numRegs, a.ptxVersion,
           a.binaryVersion, a.cacheModeCA, a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout, a.clusterDimMustBeSet,
           a.requiredClusterWidth, a.requiredClusterHeight, a.requiredClusterDepth, a.nonPortableClusterSizeAllowed,
           a.clusterSchedulingPolicyPreference);
}

static void occupancy(const char *label, cudaKernel_t k, int block, size_t dyn) {
    int n = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)k, block, dyn);
    size_t avail = 0;
    cudaError_t e2 = cudaOccupancyAvailableDynamicSMemPerBlock(&avail, (const void *)k, 2, block);
    printf("%s: occupancy(%d threads, %zu dynamic) %s %d; dynamic shared for 2 blocks %s %zu\n", label, block, dyn,
           cudaGetErrorName(e), e ? -1 : n, cudaGetErrorName(e2), e2 ? 0 : avail);
    cudaGetLastError();
}

/* The attributes and occupancy of `k` as a string, to compare answers between threads. */
static int summary(cudaKernel_t k, char *buf, size_t n) {
    struct cudaFuncAttributes a;
    memset(&a, 0, sizeof a);
    int blocks = -1;
    if (cudaFuncGetAttributes(&a, (const void *)k) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)k, 128, 0) != cudaSuccess)
        return 0;
    snprintf(buf, n, "%d %zu %zu %zu %d %d %d %d %d %d %d %d %d %d %d %d / %d", a.maxThreadsPerBlock, a.sharedSizeBytes,
             a.constSizeBytes, a.localSizeBytes, a.numRegs, a.ptxVersion, a.binaryVersion, a.cacheModeCA,
             a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout, a.clusterDimMustBeSet, a.requiredClusterWidth,
             a.requiredClusterHeight, a.requiredClusterDepth, a.nonPortableClusterSizeAllowed,
             a.clusterSchedulingPolicyPreference, blocks);
    return 1;
}

#define THREADS 8
#define ROUNDS 200
static cudaKernel_t shared_k;
static pthread_barrier_t start;
static char thread_first[THREADS][256];
static int thread_ok[THREADS];

static void *asker(void *arg) {
    int i = (int)(long)arg;
    pthread_barrier_wait(&start);
    int ok = summary(shared_k, thread_first[i], sizeof thread_first[i]);
    for (int r = 1; r < ROUNDS && ok; r++) {
        char s[256];
        ok = summary(shared_k, s, sizeof s) && !strcmp(s, thread_first[i]);
    }
    thread_ok[i] = ok;
    return NULL;
}

/* THREADS threads asking about `k` at once; 1 if every answer is the same (and `want`'s,
 * when given). */
static int ask_from_threads(cudaKernel_t k, const char *want) {
    pthread_t t[THREADS];
    shared_k = k;
    pthread_barrier_init(&start, NULL, THREADS);
    for (long i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, asker, (void *)i);
    int ok = 1;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        ok &= thread_ok[i] && !strcmp(thread_first[i], want ? want : thread_first[0]);
    }
    pthread_barrier_destroy(&start);
    return ok;
}

/* The driver API's setters, found through the runtime. */
typedef int (*kernel_set_t)(int attrib, int value, void *kernel, int dev);
typedef int (*kernel_function_t)(void **func, void *kernel);
typedef int (*func_set_t)(void *func, int attrib, int value);

static void *entry(const char *name) {
    void *p = NULL;
    enum cudaDriverEntryPointQueryResult q;
    cudaError_t e = cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &q);
    printf("entry point %s: %s, found %d\n", name, cudaGetErrorName(e), e == cudaSuccess && q == cudaDriverEntryPointSuccess && p);
    return e == cudaSuccess ? p : NULL;
}

/* A fresh process: the first questions about a kernel come from THREADS threads at once. */
static void first_questions_at_once(void) {
    cudaLibrary_t lib = NULL;
    cudaKernel_t k = NULL;
    OK(cudaLibraryLoadData(&lib, ptx_a, NULL, NULL, 0, NULL, NULL, 0));
    OK(cudaLibraryGetKernel(&k, lib, "ka_shared"));
    int ok = ask_from_threads(k, NULL);
    printf("fresh process, %d threads asking first at once: every answer the same %d\n", THREADS, ok);
    char s[256] = "";
    printf("fresh process: the answer after them the same %d\n", summary(k, s, sizeof s) && !strcmp(s, thread_first[0]));
    show("fresh process ka_shared", k);
    OK(cudaLibraryUnload(lib));
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "fresh")) {
        first_questions_at_once();
        fflush(stdout);
        return ct_failed ? 1 : 0;
    }
    cudaLibrary_t lib = NULL;
    cudaKernel_t ks = NULL, kp = NULL;
    OK(SHOW("load library A", cudaLibraryLoadData(&lib, ptx_a, NULL, NULL, 0, NULL, NULL, 0)));
    OK(cudaLibraryGetKernel(&ks, lib, "ka_shared"));
    OK(cudaLibraryGetKernel(&kp, lib, "ka_plain"));

    show("ka_shared", ks);
    show("ka_shared again", ks);
    show("ka_plain", kp);
    occupancy("ka_shared", ks, 128, 0);
    occupancy("ka_shared", ks, 128, 65536);

    SHOW("set max dynamic shared 65536", cudaFuncSetAttribute((const void *)ks, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
    show("after max dynamic shared 65536", ks);
    occupancy("after max dynamic shared 65536", ks, 128, 65536);
    SHOW("set max dynamic shared 8192", cudaFuncSetAttribute((const void *)ks, cudaFuncAttributeMaxDynamicSharedMemorySize, 8192));
    show("after max dynamic shared 8192", ks);
    occupancy("after max dynamic shared 8192", ks, 128, 65536);
    SHOW("set carveout 25", cudaFuncSetAttribute((const void *)ks, cudaFuncAttributePreferredSharedMemoryCarveout, 25));
    show("after carveout 25", ks);
    occupancy("after carveout 25", ks, 256, 4096);
    SHOW("set carveout 100", cudaFuncSetAttribute((const void *)ks, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
    show("after carveout 100", ks);
    occupancy("after carveout 100", ks, 256, 4096);
    SHOW("cudaFuncSetCacheConfig(PreferL1)", cudaFuncSetCacheConfig((const void *)ks, cudaFuncCachePreferL1));
    show("after cudaFuncSetCacheConfig(PreferL1)", ks);
    occupancy("after cudaFuncSetCacheConfig(PreferL1)", ks, 256, 4096);
    SHOW("cudaFuncSetSharedMemConfig(EightByte)", cudaFuncSetSharedMemConfig((const void *)ks, cudaSharedMemBankSizeEightByte));
    SHOW_LAST("cudaFuncSetSharedMemConfig");
    show("after cudaFuncSetSharedMemConfig", ks);
    SHOW("for device 0: max dynamic shared 32768",
         cudaKernelSetAttributeForDevice(ks, cudaFuncAttributeMaxDynamicSharedMemorySize, 32768, 0));
    show("after cudaKernelSetAttributeForDevice", ks);
    occupancy("after cudaKernelSetAttributeForDevice", ks, 128, 32768);

    SHOW("set cluster width 2", cudaFuncSetAttribute((const void *)kp, cudaFuncAttributeRequiredClusterWidth, 2));
    SHOW_LAST("set cluster width 2");
    show("ka_plain after cluster width 2", kp);
    SHOW("set non-portable clusters", cudaFuncSetAttribute((const void *)kp, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    SHOW_LAST("set non-portable clusters");
    show("ka_plain after non-portable clusters", kp);
    SHOW("set scheduling policy spread",
         cudaFuncSetAttribute((const void *)kp, cudaFuncAttributeClusterSchedulingPolicyPreference, cudaClusterSchedulingPolicySpread));
    SHOW_LAST("set scheduling policy");
    show("ka_plain after scheduling policy", kp);
    SHOW("set attribute 0 (read-only)", cudaFuncSetAttribute((const void *)kp, (enum cudaFuncAttribute)0, 1));
    SHOW_LAST("set attribute 0");
    show("ka_plain after a refused set", kp);

    /* The driver API's setters on the same kernel: the runtime's next answer is the driver's. */
    kernel_set_t kset = (kernel_set_t)entry("cuKernelSetAttribute");
    kernel_function_t kfunc = (kernel_function_t)entry("cuKernelGetFunction");
    func_set_t fset = (func_set_t)entry("cuFuncSetAttribute");
    if (kset) {
        /* 8: CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 9: ..._PREFERRED_SHARED_MEMORY_CARVEOUT */
        printf("cuKernelSetAttribute(max dynamic shared 20000): %d\n", kset(8, 20000, (void *)ks, 0));
        show("after cuKernelSetAttribute", ks);
        occupancy("after cuKernelSetAttribute", ks, 128, 20000);
        printf("cuKernelSetAttribute(carveout 50): %d\n", kset(9, 50, (void *)ks, 0));
        show("after cuKernelSetAttribute(carveout)", ks);
    }
    if (kfunc && fset) {
        void *h = NULL;
        printf("cuKernelGetFunction: %d\n", kfunc(&h, (void *)ks));
        printf("cuFuncSetAttribute(max dynamic shared 12000): %d\n", h ? fset(h, 8, 12000) : -1);
        show("after cuFuncSetAttribute", ks);
        occupancy("after cuFuncSetAttribute", ks, 128, 12000);
    }

    /* Device settings. */
    SHOW("cudaDeviceSetLimit(StackSize, 16384)", cudaDeviceSetLimit(cudaLimitStackSize, 16384));
    show("after cudaDeviceSetLimit", ks);
    occupancy("after cudaDeviceSetLimit", ks, 256, 0);
    SHOW("cudaDeviceSetCacheConfig(PreferShared)", cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    show("after cudaDeviceSetCacheConfig", ks);
    occupancy("after cudaDeviceSetCacheConfig", ks, 256, 0);

    /* Other threads see what this one sees. */
    char mine[256] = "";
    CHECK(summary(ks, mine, sizeof mine));
    printf("%d threads asking %d times at once: every answer this thread's %d\n", THREADS, ROUNDS, ask_from_threads(ks, mine));

    /* A reset. */
    OK(SHOW("cudaDeviceReset", cudaDeviceReset()));
    show("ka_shared after cudaDeviceReset", ks);
    show("ka_plain after cudaDeviceReset", kp);
    occupancy("after cudaDeviceReset", ks, 128, 0);
    SHOW("set max dynamic shared 4096 after the reset",
         cudaFuncSetAttribute((const void *)ks, cudaFuncAttributeMaxDynamicSharedMemorySize, 4096));
    show("after the reset and a set", ks);

    /* The library unloaded and another loaded: its kernels are other code, whatever their handles. */
    OK(SHOW("unload library A", cudaLibraryUnload(lib)));
    cudaLibrary_t lib_b = NULL;
    cudaKernel_t kb = NULL, kbp = NULL;
    OK(SHOW("load library B", cudaLibraryLoadData(&lib_b, ptx_b, NULL, NULL, 0, NULL, NULL, 0)));
    OK(cudaLibraryGetKernel(&kb, lib_b, "kb_shared"));
    OK(cudaLibraryGetKernel(&kbp, lib_b, "kb_plain"));
    show("kb_shared", kb);
    show("kb_plain", kbp);
    occupancy("kb_shared", kb, 128, 0);
    OK(SHOW("unload library B", cudaLibraryUnload(lib_b)));
    /* And A again: its kernels as they are when loaded anew. */
    OK(SHOW("load library A again", cudaLibraryLoadData(&lib, ptx_a, NULL, NULL, 0, NULL, NULL, 0)));
    OK(cudaLibraryGetKernel(&ks, lib, "ka_shared"));
    show("ka_shared loaded again", ks);
    occupancy("ka_shared loaded again", ks, 128, 0);
    OK(SHOW("unload library A again", cudaLibraryUnload(lib)));

    if (ct_in_fresh_process("fresh")) ct_failed++;
    DONE();
}
