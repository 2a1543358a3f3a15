/* cudaGetDeviceProperties answered again and again: after each call that changes a device
 * setting (limits, cache and shared memory configurations, device flags, a reset), from other
 * threads, and from threads that all ask first at once in a fresh process. Each time the
 * properties must be the same as the first answer, and every field that has a device
 * attribute equal to the attribute read now: no field a runtime keeps may go stale, and
 * none of them changes under these calls (a field that did would print its name and both
 * values, under NVIDIA's runtime as well as ours). The CUDA 12 ABI's five fields that may
 * change while a process runs (clocks, compute mode, kernel timeout, double-precision
 * ratio) are among those compared. Only booleans and error names are printed. */
#include <pthread.h>
#include <stddef.h>

#include "ctest.h"

/* The bytes a runtime writes: every field before the reserved tail (NVIDIA's runtime leaves
 * the tail as the caller had it). */
#define PROP_BYTES offsetof(struct cudaDeviceProp, reserved)

static int attr(int a, int dev) {
    int v = -12345;
    cudaError_t e = cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)a, dev);
    if (e != cudaSuccess) {
        printf("FAIL attribute %d: %s\n", a, cudaGetErrorName(e));
        ct_failed++;
    }
    return v;
}

/* How many fields differ from their attributes (each printed). */
static int fields_vs_attributes(const char *when, const struct cudaDeviceProp *p, int dev) {
    int bad = 0;
#define F(field, a)                                                                          \
    do {                                                                                     \
        long long have = (long long)p->field, want = attr((a), dev);                         \
        if (have != want) {                                                                  \
            printf("%s: %s = %lld, attribute %d = %lld\n", when, #field, have, (a), want);   \
            bad++;                                                                           \
        }                                                                                    \
    } while (0)
    F(maxThreadsPerBlock, 1);
    F(sharedMemPerBlock, 8);
    F(totalConstMem, 9);
    F(warpSize, 10);
    F(regsPerBlock, 12);
    F(multiProcessorCount, 16);
    F(canMapHostMemory, 19);
    F(concurrentKernels, 31);
    F(ECCEnabled, 32);
    F(l2CacheSize, 38);
    F(maxThreadsPerMultiProcessor, 39);
    F(asyncEngineCount, 40);
    F(major, 75);
    F(minor, 76);
    F(sharedMemPerMultiprocessor, 81);
    F(regsPerMultiprocessor, 82);
    F(managedMemory, 83);
    F(pageableMemoryAccess, 88);
    F(concurrentManagedAccess, 89);
    F(computePreemptionSupported, 90);
    F(cooperativeLaunch, 95);
    F(sharedMemPerBlockOptin, 97);
    F(maxBlocksPerMultiProcessor, 106);
    F(persistingL2CacheMaxSize, 108);
    F(accessPolicyMaxWindowSize, 109);
    F(reservedSharedMemPerBlock, 111);
    F(memoryPoolsSupported, 115);
    F(clusterLaunch, 120);
#if CUDART_VERSION >= 13000
    F(deviceNumaConfig, 130);
    F(deviceNumaId, 131);
    F(mpsEnabled, 133);
    F(hostNumaId, 134);
#else
    F(clockRate, 13);
    F(kernelExecTimeoutEnabled, 17);
    F(computeMode, 20);
    F(memoryClockRate, 36);
    F(singleToDoublePrecisionPerfRatio, 87);
#endif
#undef F
    return bad;
}

static struct cudaDeviceProp first;

/* The properties of device 0 now: the same bytes as the first answer, and each field equal
 * to its attribute. */
static void check(const char *when) {
    struct cudaDeviceProp p;
    memset(&p, 0x5a, sizeof p);
    cudaError_t e = cudaGetDeviceProperties(&p, 0);
    if (e != cudaSuccess) {
        printf("%s: cudaGetDeviceProperties: %s\n", when, cudaGetErrorName(e));
        return;
    }
    int bad = fields_vs_attributes(when, &p, 0);
    printf("%s: same as the first answer %d, fields equal to their attributes %d\n", when,
           memcmp(&p, &first, PROP_BYTES) == 0, bad == 0);
}

/* Threads asking at once: each compares every answer with `first`. */
#define THREADS 8
#define ROUNDS 300
static pthread_barrier_t start;
static int thread_ok[THREADS];
static struct cudaDeviceProp thread_first[THREADS];

static void *asker(void *arg) {
    int i = (int)(long)arg;
    pthread_barrier_wait(&start);
    int ok = 1;
    for (int r = 0; r < ROUNDS; r++) {
        struct cudaDeviceProp p;
        memset(&p, r & 1 ? 0xff : 0, sizeof p);
        if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
            ok = 0;
            break;
        }
        if (r == 0) thread_first[i] = p;
        if (memcmp(&p, &thread_first[i], PROP_BYTES)) ok = 0;
    }
    thread_ok[i] = ok;
    return NULL;
}

static int run_threads(void) {
    pthread_t t[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (long i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, asker, (void *)i);
    int ok = 1;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        ok &= thread_ok[i] && !memcmp(&thread_first[i], &thread_first[0], PROP_BYTES);
    }
    pthread_barrier_destroy(&start);
    return ok;
}

/* In a fresh process: the first call of all is made by eight threads at once. */
static void first_calls_at_once(void) {
    int ok = run_threads();
    printf("fresh process, %d threads asking first at once: every answer the same %d\n", THREADS, ok);
    int bad = fields_vs_attributes("fresh process", &thread_first[0], 0);
    printf("fresh process: fields equal to their attributes %d\n", bad == 0);
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "fresh")) {
        first_calls_at_once();
        fflush(stdout);
        return ct_failed ? 1 : 0;
    }
    int n = 0;
    OK(cudaGetDeviceCount(&n));
    memset(&first, 0, sizeof first);
    OK(SHOW("cudaGetDeviceProperties(0)", cudaGetDeviceProperties(&first, 0)));
    int bad = fields_vs_attributes("first answer", &first, 0);
    printf("first answer: fields equal to their attributes %d\n", bad == 0);
    check("asked again");

    /* Every device: two answers alike. */
    int alike = 1;
    for (int d = 0; d < n; d++) {
        struct cudaDeviceProp a, b;
        memset(&a, 0, sizeof a);
        memset(&b, 0xff, sizeof b);
        alike &= cudaGetDeviceProperties(&a, d) == cudaSuccess && cudaGetDeviceProperties(&b, d) == cudaSuccess &&
                 !memcmp(&a, &b, PROP_BYTES) && fields_vs_attributes("every device", &a, d) == 0;
    }
    printf("every device: two answers alike and equal to the attributes %d\n", alike);

    /* Errors are the same once the answers are kept. */
    struct cudaDeviceProp p;
    SHOW_AND_LAST("cudaGetDeviceProperties(-1)", cudaGetDeviceProperties(&p, -1), "cudaGetDeviceProperties(-1)");
    SHOW_AND_LAST("cudaGetDeviceProperties(count)", cudaGetDeviceProperties(&p, n), "cudaGetDeviceProperties(count)");
    SHOW_AND_LAST("cudaGetDeviceProperties(NULL, 0)", cudaGetDeviceProperties(NULL, 0), "cudaGetDeviceProperties(NULL, 0)");

    /* Settings of the device; their results are not what this test is about. */
    size_t stack = 0;
    cudaDeviceGetLimit(&stack, cudaLimitStackSize);
    cudaDeviceSetLimit(cudaLimitStackSize, 8192);
    check("after cudaDeviceSetLimit(StackSize)");
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20);
    check("after cudaDeviceSetLimit(MallocHeapSize)");
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, (size_t)first.persistingL2CacheMaxSize / 2);
    check("after cudaDeviceSetLimit(PersistingL2CacheSize)");
    cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);
    check("after cudaDeviceSetCacheConfig(PreferShared)");
    cudaDeviceSetCacheConfig(cudaFuncCachePreferL1);
    check("after cudaDeviceSetCacheConfig(PreferL1)");
    cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte);
    check("after cudaDeviceSetSharedMemConfig(EightByte)");
    cudaCtxResetPersistingL2Cache();
    check("after cudaCtxResetPersistingL2Cache");
    cudaGetLastError();
    OK(cudaDeviceReset());
    check("after cudaDeviceReset");
    cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
    check("after cudaSetDeviceFlags(BlockingSync)");
    OK(cudaFree(NULL));
    check("after a context is made again");
    cudaDeviceSetLimit(cudaLimitStackSize, stack);
    OK(cudaDeviceReset());
    cudaGetLastError();

    int ok = run_threads();
    printf("%d threads asking %d times at once: every answer the same %d\n", THREADS, ROUNDS, ok);
    printf("the threads' answers are the first one %d\n", !memcmp(&thread_first[0], &first, PROP_BYTES));

    if (ct_in_fresh_process("fresh")) ct_failed++;
    DONE();
}
