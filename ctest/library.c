/* ctest: gpu */
/* Library management with a PTX library embedded here: loading from memory and from a file,
 * with JIT and library options; kernel count, enumeration and names; globals and managed
 * variables; kernels from the library launched with cudaLaunchKernel and cudaLaunchKernelExC,
 * their attributes (cudaFuncGetAttributes, cudaFuncSetAttribute,
 * cudaKernelSetAttributeForDevice) and occupancy; unified functions; unloading; the errors
 * of null and garbage images, unknown names, bad options and handles. */
#include <stdint.h>
#include <unistd.h>

#include "ctest.h"

static const char lib_ptx[] =
    ".version 7.0\n"
    ".target sm_52\n"
    ".address_size 64\n"
    ".visible .global .align 4 .u32 lib_base = 1000;\n"
    ".visible .global .align 4 .b8 lib_table[64];\n"
    ".visible .global .attribute(.managed) .align 4 .u32 lib_managed = 7;\n"
    ".visible .entry lib_add(.param .u64 out, .param .u32 v)\n"
    "{\n"
    "  .reg .u64 %rd<5>;\n"
    "  .reg .u32 %r<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r1, [v];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  ld.global.u32 %r3, [lib_base];\n"
    "  ld.global.u32 %r4, [lib_managed];\n"
    "  add.u32 %r5, %r1, %r2;\n"
    "  add.u32 %r5, %r5, %r3;\n"
    "  add.u32 %r5, %r5, %r4;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r2, 4;\n"
    "  add.u64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r5;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry lib_bump()\n"
    "{\n"
    "  .reg .u32 %r<3>;\n"
    "  ld.global.u32 %r1, [lib_managed];\n"
    "  add.u32 %r2, %r1, 1;\n"
    "  st.global.u32 [lib_managed], %r2;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry lib_noop()\n"
    "{\n"
    "  ret;\n"
    "}\n";

static const char bad_ptx[] =
    ".version 7.0\n"
    ".target sm_52\n"
    ".address_size 64\n"
    ".visible .entry broken(\n"
    "{\n"
    "  frobnicate;\n"
    "}\n";

static dim3 dim3_1d(unsigned x) {
    dim3 d = {x, 1, 1};
    return d;
}

/* Launches lib_add on 8 threads (out[i] = v + i + lib_base + lib_managed) and prints out[0],
 * out[7]. */
static void launch_add(const char *label, cudaKernel_t k, unsigned v) {
    unsigned *d = NULL, h[8] = {0};
    OK(cudaMalloc((void **)&d, sizeof h));
    OK(cudaMemset(d, 0, sizeof h));
    void *args[] = {&d, &v};
    printf("%s launch: %s\n", label, cudaGetErrorName(cudaLaunchKernel((const void *)k, dim3_1d(1), dim3_1d(8), args, 0, 0)));
    SHOW("  sync", cudaDeviceSynchronize());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("%s out[0] = %u, out[7] = %u\n", label, h[0], h[7]);
    OK(cudaFree(d));
}

static void show_attrs(const char *label, const void *f) {
    struct cudaFuncAttributes a;
    memset(&a, 0, sizeof a);
    cudaError_t e = cudaFuncGetAttributes(&a, f);
    if (e != cudaSuccess) {
        printf("%s attrs: %s\n", label, cudaGetErrorName(e));
        return;
    }
    printf("%s attrs: maxThreads=%d shared=%zu const=%zu local=%zu regs=%d ptx=%d binary=%d cacheCA=%d "
           "maxDynShared=%d carveout=%d\n",
           label, a.maxThreadsPerBlock, a.sharedSizeBytes, a.constSizeBytes, a.localSizeBytes, a.numRegs,
           a.ptxVersion, a.binaryVersion, a.cacheModeCA, a.maxDynamicSharedSizeBytes, a.preferredShmemCarveout);
}

/* Loads from memory with the given options; prints the result; unloads. */
static void try_load(const char *label, const void *code, enum cudaJitOption *jo, void **jv, unsigned nj,
                     enum cudaLibraryOption *lo, void **lv, unsigned nl) {
    cudaLibrary_t l = NULL;
    cudaError_t e = cudaLibraryLoadData(&l, code, jo, jv, nj, lo, lv, nl);
    printf("%s: %s\n", label, cudaGetErrorName(e));
    if (e != cudaSuccess) {
        SHOW_LAST(label);
        return;
    }
    SHOW("  unload", cudaLibraryUnload(l));
}

int main(void) {
    /* ---- load from memory ---- */
    cudaLibrary_t lib = NULL;
    SHOW("load", cudaLibraryLoadData(&lib, lib_ptx, NULL, NULL, 0, NULL, NULL, 0));
    CHECK(lib != NULL);

    unsigned count = 12345;
    SHOW("kernel count", cudaLibraryGetKernelCount(&count, lib));
    SHOWU("kernel count", count);
    cudaKernel_t ks[8];
    memset(ks, 0, sizeof ks);
    SHOW("enumerate 8", cudaLibraryEnumerateKernels(ks, 8, lib));
    for (int i = 0; i < 8 && ks[i]; i++) {
        const char *name = NULL;
        cudaError_t e = cudaFuncGetName(&name, (const void *)ks[i]);
        printf("kernel %d name: %s %s\n", i, cudaGetErrorName(e), e == cudaSuccess ? name : "-");
    }
    cudaKernel_t one[3] = {NULL, NULL, NULL};
    SHOW("enumerate 1", cudaLibraryEnumerateKernels(one, 1, lib));
    printf("enumerate 1 wrote: %d %d, first the same: %d\n", one[0] != NULL, one[1] != NULL, one[0] == ks[0]);
    SHOW_AND_LAST("enumerate 0", cudaLibraryEnumerateKernels(one, 0, lib), "enumerate 0");

    cudaKernel_t add = NULL, bump = NULL, k = NULL;
    SHOW("get lib_add", cudaLibraryGetKernel(&add, lib, "lib_add"));
    SHOW("get lib_bump", cudaLibraryGetKernel(&bump, lib, "lib_bump"));
    int found = 0;
    for (int i = 0; i < 8; i++) found += ks[i] && ks[i] == add;
    SHOWI("lib_add among the enumerated", found);
    SHOW("get again", cudaLibraryGetKernel(&k, lib, "lib_add"));
    SHOWI("get again is the same", k == add);
    SHOW_AND_LAST("get unknown", cudaLibraryGetKernel(&k, lib, "nope"), "get unknown");
    SHOW_AND_LAST("get a global's name", cudaLibraryGetKernel(&k, lib, "lib_base"), "get a global's name");
    SHOW_AND_LAST("get null library", cudaLibraryGetKernel(&k, NULL, "lib_add"), "get null library");
    const char *name = NULL;
    SHOW("name of lib_add", cudaFuncGetName(&name, (const void *)add));
    if (name) printf("name of lib_add = %s\n", name);

    /* ---- globals and managed variables ---- */
    void *p = NULL;
    size_t size = 0;
    SHOW("global lib_base", cudaLibraryGetGlobal(&p, &size, lib, "lib_base"));
    SHOWU("global lib_base size", size);
    unsigned base = 0;
    OK(cudaMemcpy(&base, p, 4, cudaMemcpyDeviceToHost));
    SHOWU("lib_base", base);
    base = 2000;
    OK(cudaMemcpy(p, &base, 4, cudaMemcpyHostToDevice));
    void *q = NULL;
    size = 0;
    SHOW("global lib_table", cudaLibraryGetGlobal(&q, &size, lib, "lib_table"));
    SHOWU("global lib_table size", size);
    size = 0;
    SHOW("global size only", cudaLibraryGetGlobal(NULL, &size, lib, "lib_base"));
    SHOWU("global size only", size);
    q = NULL;
    SHOW("global pointer only", cudaLibraryGetGlobal(&q, NULL, lib, "lib_base"));
    SHOWI("global pointer only is the same", q == p);
    SHOW_AND_LAST("global unknown", cudaLibraryGetGlobal(&q, &size, lib, "nope"), "global unknown");
    SHOW_AND_LAST("global of a kernel's name", cudaLibraryGetGlobal(&q, &size, lib, "lib_add"), "global of a kernel's name");
    SHOW_AND_LAST("global null library", cudaLibraryGetGlobal(&q, &size, NULL, "lib_base"), "global null library");

    unsigned *m = NULL;
    size = 0;
    SHOW("managed lib_managed", cudaLibraryGetManaged((void **)&m, &size, lib, "lib_managed"));
    SHOWU("managed size", size);
    if (m) SHOWU("lib_managed read by the host", *m);
    void *g = NULL;
    SHOW_AND_LAST("global of the managed variable", cudaLibraryGetGlobal(&g, &size, lib, "lib_managed"), "global of the managed variable");
    SHOW_AND_LAST("managed of a global", cudaLibraryGetManaged(&g, &size, lib, "lib_base"), "managed of a global");
    SHOW_AND_LAST("managed unknown", cudaLibraryGetManaged(&g, &size, lib, "nope"), "managed unknown");

    /* ---- launches ---- */
    launch_add("lib_add", add, 5);
    SHOW("bump launch", cudaLaunchKernel((const void *)bump, dim3_1d(1), dim3_1d(1), NULL, 0, 0));
    SHOW("bump sync", cudaDeviceSynchronize());
    if (m) SHOWU("lib_managed after bump", *m);
    if (m) *m = 40;
    launch_add("lib_add managed 40", add, 0);
    {
        unsigned *d = NULL, h[8] = {0}, v = 1;
        OK(cudaMalloc((void **)&d, sizeof h));
        void *args[] = {&d, &v};
        cudaLaunchConfig_t cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.gridDim = dim3_1d(1);
        cfg.blockDim = dim3_1d(8);
        SHOW("launch ex", cudaLaunchKernelExC(&cfg, (const void *)add, args));
        SHOW("launch ex sync", cudaDeviceSynchronize());
        OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        printf("launch ex out[3] = %u\n", h[3]);
        cudaStream_t s = NULL;
        OK(cudaStreamCreate(&s));
        SHOW("launch on a stream", cudaLaunchKernel((const void *)add, dim3_1d(1), dim3_1d(8), args, 0, s));
        SHOW("stream sync", cudaStreamSynchronize(s));
        OK(cudaStreamDestroy(s));
        SHOW_AND_LAST("launch 2048 threads", cudaLaunchKernel((const void *)add, dim3_1d(1), dim3_1d(2048), args, 0, 0), "launch 2048 threads");
        SHOW_AND_LAST("launch too much shared", cudaLaunchKernel((const void *)add, dim3_1d(1), dim3_1d(8), args, 1 << 20, 0), "launch too much shared");
        OK(cudaFree(d));
    }

    /* ---- attributes and occupancy ---- */
    show_attrs("lib_add", (const void *)add);
    SHOW("set max dynamic shared 1024", cudaFuncSetAttribute((const void *)add, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024));
    show_attrs("after cudaFuncSetAttribute", (const void *)add);
    SHOW("for device 0: max dynamic shared 2048",
         cudaKernelSetAttributeForDevice(add, cudaFuncAttributeMaxDynamicSharedMemorySize, 2048, 0));
    show_attrs("after cudaKernelSetAttributeForDevice", (const void *)add);
    SHOW("for device 0 on lib_bump: carveout 50",
         cudaKernelSetAttributeForDevice(bump, cudaFuncAttributePreferredSharedMemoryCarveout, 50, 0));
    show_attrs("lib_bump after", (const void *)bump);
    SHOW_AND_LAST("for device 0: attribute 0", cudaKernelSetAttributeForDevice(add, (enum cudaFuncAttribute)0, 1, 0), "attribute 0");
    SHOW("for device 0: cluster must be set (read-only)",
         cudaKernelSetAttributeForDevice(add, cudaFuncAttributeClusterDimMustBeSet, 1, 0));
    SHOW_LAST("read-only attribute");
    SHOW_AND_LAST("for device 0: attribute 16", cudaKernelSetAttributeForDevice(add, (enum cudaFuncAttribute)16, 1, 0), "attribute 16");
    SHOW("for device 0: too much shared",
         cudaKernelSetAttributeForDevice(add, cudaFuncAttributeMaxDynamicSharedMemorySize, 1 << 30, 0));
    SHOW_LAST("too much shared");
    SHOW_AND_LAST("for device -1", cudaKernelSetAttributeForDevice(add, cudaFuncAttributeMaxDynamicSharedMemorySize, 0, -1), "device -1");
    SHOW_AND_LAST("for device 99", cudaKernelSetAttributeForDevice(add, cudaFuncAttributeMaxDynamicSharedMemorySize, 0, 99), "device 99");
    SHOW_AND_LAST("for a null kernel", cudaKernelSetAttributeForDevice(NULL, cudaFuncAttributeMaxDynamicSharedMemorySize, 0, 0), "null kernel");
    int blocks = -1;
    SHOW("occupancy", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)add, 128, 0));
    SHOWI("occupancy blocks", blocks);
    cudaFunction_t fn = NULL;
    SHOW("function by symbol", cudaGetFuncBySymbol(&fn, (const void *)add));

    /* ---- unified functions (none on a device without unified function pointers) ---- */
    int ufp = -1;
    /* 129: the driver's CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS (the runtime calls it reserved). */
    SHOW("unified function pointers attribute", cudaDeviceGetAttribute(&ufp, (enum cudaDeviceAttr)129, 0));
    SHOWI("unified function pointers", ufp);
    void *fp = NULL;
    SHOW_AND_LAST("unified lib_add", cudaLibraryGetUnifiedFunction(&fp, lib, "lib_add"), "unified lib_add");
    SHOW_AND_LAST("unified unknown", cudaLibraryGetUnifiedFunction(&fp, lib, "nope"), "unified unknown");

    SHOW_AND_LAST("count null library", cudaLibraryGetKernelCount(&count, NULL), "count null library");
    SHOW_AND_LAST("enumerate null library", cudaLibraryEnumerateKernels(ks, 3, NULL), "enumerate null library");

    /* ---- options ---- */
    {
        char info[4096], err[4096];
        info[0] = err[0] = 0;
        enum cudaJitOption jo[] = {cudaJitInfoLogBuffer, cudaJitInfoLogBufferSizeBytes, cudaJitErrorLogBuffer,
                                   cudaJitErrorLogBufferSizeBytes, cudaJitLogVerbose, cudaJitMaxRegisters,
                                   cudaJitOptimizationLevel, cudaJitGenerateLineInfo, cudaJitCacheMode,
                                   cudaJitFallbackStrategy};
        void *jv[] = {info, (void *)(uintptr_t)sizeof info, err, (void *)(uintptr_t)sizeof err, (void *)(uintptr_t)1,
                      (void *)(uintptr_t)32, (void *)(uintptr_t)3, (void *)(uintptr_t)1,
                      (void *)(uintptr_t)cudaJitCacheOptionCG, (void *)(uintptr_t)cudaPreferPtx};
        cudaLibrary_t l = NULL;
        SHOW("load with JIT options", cudaLibraryLoadData(&l, lib_ptx, jo, jv, 10, NULL, NULL, 0));
        /* (Whether the info log is written depends on the driver's JIT cache: not printed.) */
        printf("error log empty: %d\n", err[0] == 0);
        if (l) {
            cudaKernel_t a2 = NULL;
            OK(cudaLibraryGetKernel(&a2, l, "lib_add"));
            launch_add("JIT options", a2, 0);
            OK(cudaLibraryUnload(l));
        }
        enum cudaLibraryOption lo[] = {cudaLibraryBinaryIsPreserved};
        void *lv[] = {(void *)(uintptr_t)1};
        try_load("load, binary preserved", lib_ptx, NULL, NULL, 0, lo, lv, 1);
        enum cudaJitOption bad_jo[] = {(enum cudaJitOption)999};
        void *bad_jv[] = {NULL};
        try_load("load, JIT option 999", lib_ptx, bad_jo, bad_jv, 1, NULL, NULL, 0);
        enum cudaJitOption target_jo[] = {(enum cudaJitOption)9};
        void *target_jv[] = {(void *)(uintptr_t)90};
        try_load("load, JIT option 9 (the driver's target)", lib_ptx, target_jo, target_jv, 1, NULL, NULL, 0);
        enum cudaLibraryOption bad_lo[] = {(enum cudaLibraryOption)7};
        try_load("load, library option 7", lib_ptx, NULL, NULL, 0, bad_lo, lv, 1);
        try_load("load, 1 JIT option, null arrays", lib_ptx, NULL, NULL, 1, NULL, NULL, 0);
        /* Not "1 library option, null arrays": NVIDIA's runtime crashes on it (in the driver). */
        err[0] = 0;
        enum cudaJitOption ejo[] = {cudaJitErrorLogBuffer, cudaJitErrorLogBufferSizeBytes};
        void *ejv[] = {err, (void *)(uintptr_t)sizeof err};
        try_load("load broken PTX with an error log", bad_ptx, ejo, ejv, 2, NULL, NULL, 0);
        printf("error log written: %d\n", err[0] != 0);
    }

    /* ---- load from a file ---- */
    {
        char path[] = "/tmp/cudart-rs-library-XXXXXX";
        int fd = mkstemp(path);
        CHECK(fd >= 0);
        CHECK(write(fd, lib_ptx, sizeof lib_ptx - 1) == (ssize_t)(sizeof lib_ptx - 1));
        close(fd);
        cudaLibrary_t l = NULL;
        SHOW("load from file", cudaLibraryLoadFromFile(&l, path, NULL, NULL, 0, NULL, NULL, 0));
        if (l) {
            SHOW("file kernel count", cudaLibraryGetKernelCount(&count, l));
            SHOWU("file kernel count", count);
            cudaKernel_t a2 = NULL;
            OK(cudaLibraryGetKernel(&a2, l, "lib_add"));
            launch_add("from file", a2, 3);
            SHOW("file unload", cudaLibraryUnload(l));
        }
        enum cudaLibraryOption lo[] = {cudaLibraryBinaryIsPreserved};
        void *lv[] = {(void *)(uintptr_t)1};
        l = NULL;
        SHOW_AND_LAST("load from file, binary preserved", cudaLibraryLoadFromFile(&l, path, NULL, NULL, 0, lo, lv, 1), "load from file, binary preserved");
        if (l) OK(cudaLibraryUnload(l));
        unlink(path);
        SHOW_AND_LAST("load from a missing file", cudaLibraryLoadFromFile(&l, path, NULL, NULL, 0, NULL, NULL, 0), "load from a missing file");
        SHOW_AND_LAST("load from a directory", cudaLibraryLoadFromFile(&l, "/tmp", NULL, NULL, 0, NULL, NULL, 0), "load from a directory");
        SHOW_AND_LAST("load from a null file name", cudaLibraryLoadFromFile(&l, NULL, NULL, NULL, 0, NULL, NULL, 0), "load from a null file name");
        SHOW_AND_LAST("load from file, null out", cudaLibraryLoadFromFile(NULL, "/tmp", NULL, NULL, 0, NULL, NULL, 0), "load from file, null out");
    }

    /* ---- bad images ---- */
    {
        static const unsigned char elf[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};
        try_load("load text that is no PTX", "hello, world", NULL, NULL, 0, NULL, NULL, 0);
        try_load("load empty text", "", NULL, NULL, 0, NULL, NULL, 0);
        try_load("load an empty ELF", elf, NULL, NULL, 0, NULL, NULL, 0);
        /* (No fat binary with an empty payload: NVIDIA's runtime never returns from it.) */
        try_load("load null code", NULL, NULL, NULL, 0, NULL, NULL, 0);
        SHOW_AND_LAST("load null out", cudaLibraryLoadData(NULL, lib_ptx, NULL, NULL, 0, NULL, NULL, 0), "load null out");
        SHOW_AND_LAST("unload null", cudaLibraryUnload(NULL), "unload null");
    }
    /* ---- last, as NVIDIA's runtime might not survive them: null names and out pointers ---- */
    {
        cudaKernel_t k2 = NULL;
        void *q2 = NULL, *fp2 = NULL;
        size_t size2 = 0;
        SHOW_AND_LAST("get null out", cudaLibraryGetKernel(NULL, lib, "lib_add"), "get null out");
        SHOW_AND_LAST("global neither", cudaLibraryGetGlobal(NULL, NULL, lib, "lib_base"), "global neither");
        SHOW_AND_LAST("managed neither", cudaLibraryGetManaged(NULL, NULL, lib, "lib_managed"), "managed neither");
        SHOW_AND_LAST("unified null out", cudaLibraryGetUnifiedFunction(NULL, lib, "lib_add"), "unified null out");
        SHOW_AND_LAST("count null out", cudaLibraryGetKernelCount(NULL, lib), "count null out");
        SHOW_AND_LAST("enumerate null out", cudaLibraryEnumerateKernels(NULL, 3, lib), "enumerate null out");
        SHOW_AND_LAST("get null name", cudaLibraryGetKernel(&k2, lib, NULL), "get null name");
        SHOW_AND_LAST("global null name", cudaLibraryGetGlobal(&q2, &size2, lib, NULL), "global null name");
        SHOW_AND_LAST("unified null name", cudaLibraryGetUnifiedFunction(&fp2, lib, NULL), "unified null name");
    }
    SHOW("unload", cudaLibraryUnload(lib));
    DONE();
}
