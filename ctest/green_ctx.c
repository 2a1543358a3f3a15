/* ctest: gpu abi13
 * CUDA 13.5's device resources, green contexts and execution contexts: the device's SM
 * resource, splits by count and structured splits (and their queries), resource descriptors,
 * green context creation, the execution context calls on a green context and on the device's
 * own (primary) one, streams made on an execution context and their resources, recording and
 * waiting on events, synchronising, destroying; every call with NULL pointers, bad devices,
 * bad flags, bad resource types and invalid handles. Work on a green context's stream is
 * checked by reading it back. */
#include <dlfcn.h>

#include "ctest.h"

cudaError_t cudaStreamGetDevResource_ptsz(cudaStream_t hStream, cudaDevResource *resource,
                                          enum cudaDevResourceType type);

static void show_sm(const char *label, const cudaDevResource *r) {
    printf("%s: type %d, smCount %u, minSmPartitionSize %u, smCoscheduledAlignment %u, flags %u, "
           "localityDomainId %u, next %s\n",
           label, (int)r->type, r->sm.smCount, r->sm.minSmPartitionSize,
           r->sm.smCoscheduledAlignment, r->sm.flags, r->sm.localityDomainId,
           r->nextResource ? "set" : "NULL");
}

/* The first byte from the end of the resource that still holds the fill pattern. */
static int written_up_to(const cudaDevResource *r) {
    const unsigned char *b = (const unsigned char *)r;
    int n = (int)sizeof *r;
    while (n > 0 && b[n - 1] == 0xab) n--;
    return n;
}

static cudaDevResource fresh(void) {
    cudaDevResource r;
    memset(&r, 0xab, sizeof r);
    return r;
}

/* A resource query: result, what was written. */
static void query_dev(const char *label, int dev, int type) {
    cudaDevResource r = fresh();
    cudaError_t e = cudaDeviceGetDevResource(dev, &r, (enum cudaDevResourceType)type);
    printf("%s: %s, bytes written %d", label, cudaGetErrorName(e), written_up_to(&r));
    if (e == cudaSuccess && r.type == cudaDevResourceTypeWorkqueueConfig)
        printf(", wqConfig device %d, concurrency %s, scope %d", r.wqConfig.device,
               r.wqConfig.wqConcurrencyLimit ? "nonzero" : "0", (int)r.wqConfig.sharingScope);
    printf(", type %d\n", e == cudaSuccess ? (int)r.type : -1);
    SHOW_LAST(label);
}

static volatile int host_calls;
static void CUDART_CB host_fn(void *p) {
    (void)p;
    __sync_fetch_and_add(&host_calls, 1);
}

/* Destroying a green context whose stream is still alive, in a process of its own: with no
 * context current (the calls after the destruction are then the first to need one), or with
 * the device's primary context current (an event and a buffer made first). */
static void destroy_before_stream(int with_current) {
    const char *w = with_current ? "child, a context current" : "child";
    char l[160];
#define L(what) (snprintf(l, sizeof l, "%s: %s", w, what), l)
    cudaDevResource dev = fresh(), groups[2], rem = fresh();
    unsigned int n = 2;
    OK(cudaDeviceGetDevResource(0, &dev, cudaDevResourceTypeSm));
    OK(cudaDevSmResourceSplitByCount(groups, &n, &dev, &rem, 0, 8));
    cudaDevResourceDesc_t desc = NULL;
    OK(cudaDevResourceGenerateDesc(&desc, &groups[0], 1));
    cudaExecutionContext_t g = NULL;
    OK(cudaGreenCtxCreate(&g, desc, 0, 0));
    cudaStream_t s = NULL;
    OK(cudaExecutionCtxStreamCreate(&s, g, cudaStreamDefault, 0));
    cudaEvent_t ev = NULL;
    unsigned char *buf = NULL;
    if (with_current) {
        OK(cudaEventCreate(&ev));
        OK(cudaMalloc((void **)&buf, 256));
    }
    /* Which context is current (the driver's view): none, the green one, another. */
    typedef int (*get_current_fn)(void **);
    void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    get_current_fn get_current = drv ? (get_current_fn)dlsym(drv, "cuCtxGetCurrent") : NULL;
    void *cur = (void *)1;
    if (get_current) get_current(&cur);
    printf("%s: current context before destroy: %s\n", w, cur == NULL ? "none" : cur == (void *)g ? "the green one" : "another");
    SHOW(L("destroy green ctx with a live stream"), cudaExecutionCtxDestroy(g));
    cur = (void *)1;
    if (get_current) get_current(&cur);
    printf("%s: current context after destroy: %s\n", w, cur == NULL ? "none" : cur == (void *)g ? "the green one" : "another");
    SHOW_LAST(L("after destroy"));
    SHOW(L("stream query after its ctx was destroyed"), cudaStreamQuery(s));
    SHOW(L("stream synchronize after"), cudaStreamSynchronize(s));
    SHOW(L("memset on it after"), cudaMemsetAsync(NULL, 0, 0, s));
    SHOW_LAST(L("detached stream"));
    /* The other calls on such a stream. */
    unsigned int fl = 77;
    int pr = 77, dv = 77;
    unsigned long long id = 77;
    SHOW(L("cudaStreamGetFlags after"), cudaStreamGetFlags(s, &fl));
    SHOW(L("cudaStreamGetPriority after"), cudaStreamGetPriority(s, &pr));
    SHOW(L("cudaStreamGetId after"), cudaStreamGetId(s, &id));
    SHOW(L("cudaStreamGetDevice after"), cudaStreamGetDevice(s, &dv));
    if (with_current) {
        SHOW(L("cudaEventRecord on it after"), cudaEventRecord(ev, s));
        SHOW(L("cudaStreamWaitEvent after"), cudaStreamWaitEvent(s, ev, 0));
        SHOW(L("cudaMemsetAsync 64 bytes after"), cudaMemsetAsync(buf, 0, 64, s));
        SHOW(L("cudaMemcpyAsync 64 bytes after"), cudaMemcpyAsync(buf, buf + 64, 64, cudaMemcpyDeviceToDevice, s));
    }
    SHOW(L("cudaStreamBeginCapture after"), cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    enum cudaStreamCaptureStatus cs = (enum cudaStreamCaptureStatus)77;
    SHOW(L("cudaStreamIsCapturing after"), cudaStreamIsCapturing(s, &cs));
    SHOW_LAST(L("other calls"));
    SHOW(L("cudaStreamDestroy after"), cudaStreamDestroy(s));
    SHOW_LAST(L("destroy"));
    SHOW(L("device synchronize"), cudaDeviceSynchronize());
    void *p = NULL;
    SHOW(L("cudaMalloc after"), cudaMalloc(&p, 256));
    if (p) OK(cudaFree(p));
#undef L
}

int main(int argc, char **argv) {
    if (argc > 1 && (strcmp(argv[1], "destroy-before-stream") == 0 || strcmp(argv[1], "destroy-current") == 0)) {
        destroy_before_stream(strcmp(argv[1], "destroy-current") == 0);
        fflush(stdout);
        return ct_failed ? 1 : 0;
    }
    int v = 0;
    OK(cudaRuntimeGetVersion(&v));
    SHOWI("runtime version", v);

    /* The device's SM resource. */
    cudaDevResource dev = fresh();
    SHOW("device 0 SM resource", cudaDeviceGetDevResource(0, &dev, cudaDevResourceTypeSm));
    show_sm("device 0 SM", &dev);
    SHOWI("device SM resource bytes written", written_up_to(&dev));
    int sms = 0;
    OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(dev.type == cudaDevResourceTypeSm && (int)dev.sm.smCount == sms);

    query_dev("resource NULL out", 0, cudaDevResourceTypeSm);
    SHOW("resource NULL pointer", cudaDeviceGetDevResource(0, NULL, cudaDevResourceTypeSm));
    SHOW_LAST("resource NULL pointer");
    query_dev("resource device -1", -1, cudaDevResourceTypeSm);
    query_dev("resource device 99", 99, cudaDevResourceTypeSm);
    query_dev("resource type invalid", 0, cudaDevResourceTypeInvalid);
    query_dev("resource type 2", 0, 2);
    query_dev("resource type workqueue config", 0, cudaDevResourceTypeWorkqueueConfig);
    query_dev("resource type workqueue", 0, cudaDevResourceTypeWorkqueue);

    /* Splits by count: the query form, then real splits. */
    unsigned int n = 0;
    SHOW("split query min 8", cudaDevSmResourceSplitByCount(NULL, &n, &dev, NULL, 0, 8));
    SHOWU("split query min 8 groups", n);
    unsigned int n0 = 0;
    SHOW("split query min 0", cudaDevSmResourceSplitByCount(NULL, &n0, &dev, NULL, 0, 0));
    SHOWU("split query min 0 groups", n0);
    unsigned int mins[] = {1, 2, 7, 16, 33, 66, (unsigned)sms, (unsigned)sms + 1};
    for (unsigned i = 0; i < sizeof mins / sizeof *mins; i++) {
        char label[96];
        unsigned int q = 0;
        snprintf(label, sizeof label, "split query min %s", i >= 6 ? (i == 6 ? "all" : "all+1") : "");
        if (i < 6) snprintf(label, sizeof label, "split query min %u", mins[i]);
        cudaError_t e = cudaDevSmResourceSplitByCount(NULL, &q, &dev, NULL, 0, mins[i]);
        printf("%s: %s, groups %u\n", label, cudaGetErrorName(e), q);
        q = 0;
        e = cudaDevSmResourceSplitByCount(NULL, &q, &dev, NULL, cudaDevSmResourceSplitIgnoreSmCoscheduling, mins[i]);
        printf("%s ignoring coscheduling: %s, groups %u\n", label, cudaGetErrorName(e), q);
    }
    n = 0;
    SHOW("split query flags 4", cudaDevSmResourceSplitByCount(NULL, &n, &dev, NULL, 4, 8));
    n = 0;
    SHOW("split query max cluster flag",
         cudaDevSmResourceSplitByCount(NULL, &n, &dev, NULL, cudaDevSmResourceSplitMaxPotentialClusterSize, 8));
    SHOWU("split query max cluster groups", n);
    SHOW("split NULL nbGroups", cudaDevSmResourceSplitByCount(NULL, NULL, &dev, NULL, 0, 8));
    n = 2;
    SHOW("split NULL input", cudaDevSmResourceSplitByCount(NULL, &n, NULL, NULL, 0, 8));
    cudaDevResource bad = fresh();
    bad.type = cudaDevResourceTypeInvalid;
    n = 2;
    SHOW("split invalid-type input", cudaDevSmResourceSplitByCount(NULL, &n, &bad, NULL, 0, 8));
    SHOW_LAST("split errors");

    cudaDevResource groups[4], rem = fresh();
    for (int i = 0; i < 4; i++) groups[i] = fresh();
    n = 2;
    SHOW("split 2 groups min 16", cudaDevSmResourceSplitByCount(groups, &n, &dev, &rem, 0, 16));
    SHOWU("split 2 groups min 16 made", n);
    show_sm("group 0", &groups[0]);
    show_sm("group 1", &groups[1]);
    show_sm("remaining", &rem);
    CHECK(n == 2 && groups[0].sm.smCount >= 16 && groups[1].sm.smCount >= 16);
    CHECK(groups[0].sm.smCount + groups[1].sm.smCount + rem.sm.smCount == dev.sm.smCount);
    cudaDevResource g1[1] = {fresh()};
    n = 0;
    SHOW("split nbGroups 0 with result", cudaDevSmResourceSplitByCount(g1, &n, &dev, NULL, 0, 8));
    SHOWU("split nbGroups 0 made", n);
    n = 1;
    SHOW("split 1 group min 8, no remaining", cudaDevSmResourceSplitByCount(g1, &n, &dev, NULL, 0, 8));
    show_sm("single group", &g1[0]);
    cudaDevResource again[2] = {fresh(), fresh()};
    n = 2;
    SHOW("split of a split group", cudaDevSmResourceSplitByCount(again, &n, &groups[0], NULL, 0, 8));
    SHOWU("split of a split group made", n);
    SHOW_LAST("splits");

    /* Structured splits. */
    cudaDevSmResourceGroupParams gp[2];
    memset(gp, 0, sizeof gp);
    SHOW("structured discovery", cudaDevSmResourceSplit(NULL, 1, &dev, NULL, 0, gp));
    SHOWU("structured discovery smCount", gp[0].smCount);
    SHOWU("structured discovery coscheduled", gp[0].coscheduledSmCount);
    memset(gp, 0, sizeof gp);
    gp[0].smCount = 16;
    gp[0].coscheduledSmCount = 8;
    gp[1].smCount = 0;
    gp[1].coscheduledSmCount = 2;
    gp[1].flags = cudaDevSmResourceGroupBackfill;
    cudaDevResource sg[2] = {fresh(), fresh()}, srem = fresh();
    SHOW("structured 16 + rest", cudaDevSmResourceSplit(sg, 2, &dev, &srem, 0, gp));
    show_sm("structured group 0", &sg[0]);
    show_sm("structured group 1", &sg[1]);
    show_sm("structured remainder", &srem);
    SHOWU("structured params 1 smCount", gp[1].smCount);
    memset(gp, 0, sizeof gp);
    gp[0].smCount = 3;
    SHOW("structured odd smCount", cudaDevSmResourceSplit(sg, 1, &dev, NULL, 0, gp));
    gp[0].smCount = 16;
    SHOW("structured flags 1", cudaDevSmResourceSplit(sg, 1, &dev, NULL, 1, gp));
    SHOW("structured NULL params", cudaDevSmResourceSplit(sg, 1, &dev, NULL, 0, NULL));
    SHOW("structured NULL input", cudaDevSmResourceSplit(sg, 1, NULL, NULL, 0, gp));
    SHOW("structured 0 groups", cudaDevSmResourceSplit(sg, 0, &dev, NULL, 0, gp));
    gp[0].reserved[0] = 1;
    SHOW("structured reserved set", cudaDevSmResourceSplit(sg, 1, &dev, NULL, 0, gp));
    SHOW_LAST("structured splits");

    /* Descriptors. */
    cudaDevResourceDesc_t desc0 = NULL, desc1 = NULL, desc2 = NULL;
    SHOW("desc group 0", cudaDevResourceGenerateDesc(&desc0, &groups[0], 1));
    SHOW("desc group 1", cudaDevResourceGenerateDesc(&desc1, &groups[1], 1));
    SHOW("desc both groups", cudaDevResourceGenerateDesc(&desc2, groups, 2));
    cudaDevResourceDesc_t dx = NULL;
    SHOW("desc whole device", cudaDevResourceGenerateDesc(&dx, &dev, 1));
    SHOW("desc NULL out", cudaDevResourceGenerateDesc(NULL, &groups[0], 1));
    SHOW("desc NULL resources", cudaDevResourceGenerateDesc(&dx, NULL, 1));
    /* No "0 resources" case: NVIDIA's 13.5 runtime passes it to the 13.0 driver, which crashes
     * (SIGSEGV); ours answers cudaErrorInvalidValue. */
    SHOW("desc invalid-type resource", cudaDevResourceGenerateDesc(&dx, &bad, 1));
    cudaDevResource mixed[2] = {groups[0], g1[0]};
    SHOW("desc groups of two splits", cudaDevResourceGenerateDesc(&dx, mixed, 2));
    SHOW_LAST("descriptors");

    /* Green contexts. */
    int cur = -1;
    cudaExecutionContext_t g0 = NULL, gB = NULL, gx = NULL;
    SHOW("green ctx NULL out", cudaGreenCtxCreate(NULL, desc0, 0, 0));
    SHOW("green ctx NULL desc", cudaGreenCtxCreate(&gx, NULL, 0, 0));
    SHOW("green ctx device -1", cudaGreenCtxCreate(&gx, desc0, -1, 0));
    SHOW("green ctx device 99", cudaGreenCtxCreate(&gx, desc0, 99, 0));
    SHOW("green ctx flags 1", cudaGreenCtxCreate(&gx, desc0, 0, 1));
    SHOW_LAST("green ctx errors");
    SHOW("green ctx group 0", cudaGreenCtxCreate(&g0, desc0, 0, 0));
    SHOW("green ctx group 1", cudaGreenCtxCreate(&gB, desc1, 0, 0));
    CHECK(g0 != NULL && gB != NULL && g0 != gB);
    OK(cudaGetDevice(&cur));
    SHOWI("current device after green ctx", cur);

    cudaDevResource r = fresh();
    SHOW("green ctx 0 SM resource", cudaExecutionCtxGetDevResource(g0, &r, cudaDevResourceTypeSm));
    show_sm("green ctx 0 SM", &r);
    CHECK(r.sm.smCount == groups[0].sm.smCount);
    r = fresh();
    SHOW("green ctx workqueue config", cudaExecutionCtxGetDevResource(g0, &r, cudaDevResourceTypeWorkqueueConfig));
    r = fresh();
    SHOW("green ctx resource type 0", cudaExecutionCtxGetDevResource(g0, &r, cudaDevResourceTypeInvalid));
    SHOW("green ctx resource NULL out", cudaExecutionCtxGetDevResource(g0, NULL, cudaDevResourceTypeSm));
    SHOW("exec ctx NULL resource", cudaExecutionCtxGetDevResource(NULL, &r, cudaDevResourceTypeSm));
    int d = -7;
    SHOW("green ctx device", cudaExecutionCtxGetDevice(&d, g0));
    SHOWI("green ctx device is", d);
    SHOW("green ctx device NULL out", cudaExecutionCtxGetDevice(NULL, g0));
    SHOW("exec ctx NULL device", cudaExecutionCtxGetDevice(&d, NULL));
    unsigned long long id0 = 0, idB = 0, idp = 0;
    SHOW("green ctx 0 id", cudaExecutionCtxGetId(g0, &id0));
    SHOW("green ctx 1 id", cudaExecutionCtxGetId(gB, &idB));
    SHOW("green ctx id NULL out", cudaExecutionCtxGetId(g0, NULL));
    SHOW("exec ctx NULL id", cudaExecutionCtxGetId(NULL, &id0));
    SHOW_LAST("green ctx queries");

    /* The device's own execution context. */
    cudaExecutionContext_t prim = NULL, prim2 = NULL;
    SHOW("device exec ctx", cudaDeviceGetExecutionCtx(&prim, 0));
    SHOW("device exec ctx again", cudaDeviceGetExecutionCtx(&prim2, 0));
    SHOWI("device exec ctx same handle", prim == prim2);
    SHOWI("device exec ctx differs from green", prim != g0 && prim != gB);
    SHOW("device exec ctx NULL out", cudaDeviceGetExecutionCtx(NULL, 0));
    SHOW("device exec ctx device -1", cudaDeviceGetExecutionCtx(&prim2, -1));
    SHOW("device exec ctx device 99", cudaDeviceGetExecutionCtx(&prim2, 99));
    SHOW_LAST("device exec ctx");
    r = fresh();
    SHOW("device exec ctx SM resource", cudaExecutionCtxGetDevResource(prim, &r, cudaDevResourceTypeSm));
    show_sm("device exec ctx SM", &r);
    d = -7;
    SHOW("device exec ctx device", cudaExecutionCtxGetDevice(&d, prim));
    SHOWI("device exec ctx device is", d);
    SHOW("device exec ctx id", cudaExecutionCtxGetId(prim, &idp));
    SHOWI("context ids distinct", id0 != idB && id0 != idp && idB != idp && id0 && idB && idp);

    /* Streams on execution contexts. */
    cudaStream_t s0 = NULL, sB = NULL, sp = NULL, sx = NULL;
    SHOW("stream on green ctx 0", cudaExecutionCtxStreamCreate(&s0, g0, cudaStreamDefault, 0));
    SHOW("stream on green ctx 1 prio -100", cudaExecutionCtxStreamCreate(&sB, gB, cudaStreamNonBlocking, -100));
    SHOW("stream on device exec ctx", cudaExecutionCtxStreamCreate(&sp, prim, cudaStreamDefault, 0));
    SHOW("exec ctx stream NULL out", cudaExecutionCtxStreamCreate(NULL, g0, 0, 0));
    SHOW("exec ctx stream NULL ctx", cudaExecutionCtxStreamCreate(&sx, NULL, 0, 0));
    SHOW("exec ctx stream flags 2", cudaExecutionCtxStreamCreate(&sx, g0, 2, 0));
    SHOW("exec ctx stream flags 0x80", cudaExecutionCtxStreamCreate(&sx, g0, 0x80, 0));
    SHOW_LAST("exec ctx streams");
    unsigned int fl = 99;
    int prio = 99;
    SHOW("green stream flags", cudaStreamGetFlags(s0, &fl));
    SHOWU("green stream 0 flags", fl);
    SHOW("green stream priority", cudaStreamGetPriority(sB, &prio));
    SHOWI("green stream 1 priority", prio);
    fl = 99;
    OK(cudaStreamGetFlags(sp, &fl));
    SHOWU("device exec ctx stream flags", fl);
    d = -7;
    SHOW("green stream device", cudaStreamGetDevice(s0, &d));
    SHOWI("green stream device is", d);

    r = fresh();
    SHOW("green stream 0 SM resource", cudaStreamGetDevResource(s0, &r, cudaDevResourceTypeSm));
    show_sm("green stream 0 SM", &r);
    CHECK(r.sm.smCount == groups[0].sm.smCount);
    r = fresh();
    SHOW("green stream 1 SM resource (_ptsz)", cudaStreamGetDevResource_ptsz(sB, &r, cudaDevResourceTypeSm));
    show_sm("green stream 1 SM", &r);
    r = fresh();
    SHOW("device exec ctx stream SM resource", cudaStreamGetDevResource(sp, &r, cudaDevResourceTypeSm));
    show_sm("device exec ctx stream SM", &r);
    r = fresh();
    SHOW("legacy stream SM resource", cudaStreamGetDevResource(0, &r, cudaDevResourceTypeSm));
    show_sm("legacy stream SM", &r);
    r = fresh();
    SHOW("per-thread stream SM resource", cudaStreamGetDevResource(cudaStreamPerThread, &r, cudaDevResourceTypeSm));
    show_sm("per-thread stream SM", &r);
    r = fresh();
    SHOW("NULL stream SM resource (_ptsz)", cudaStreamGetDevResource_ptsz(0, &r, cudaDevResourceTypeSm));
    show_sm("NULL stream SM (_ptsz)", &r);
    cudaStream_t plain = NULL;
    OK(cudaStreamCreate(&plain));
    r = fresh();
    SHOW("created stream SM resource", cudaStreamGetDevResource(plain, &r, cudaDevResourceTypeSm));
    show_sm("created stream SM", &r);
    r = fresh();
    SHOW("stream workqueue config", cudaStreamGetDevResource(s0, &r, cudaDevResourceTypeWorkqueueConfig));
    SHOW("stream workqueue", cudaStreamGetDevResource(s0, &r, cudaDevResourceTypeWorkqueue));
    SHOW("stream resource type 0", cudaStreamGetDevResource(s0, &r, cudaDevResourceTypeInvalid));
    SHOW("stream resource NULL out", cudaStreamGetDevResource(s0, NULL, cudaDevResourceTypeSm));
    SHOW_LAST("stream resources");

    /* Work on the green contexts' streams. */
    const size_t N = 1 << 20;
    unsigned char *dbuf = NULL, *h = (unsigned char *)malloc(N);
    OK(cudaMalloc((void **)&dbuf, N));
    SHOW("memset on green stream 0", cudaMemsetAsync(dbuf, 0x5a, N, s0));
    SHOW("copy on green stream 0", cudaMemcpyAsync(h, dbuf, N, cudaMemcpyDeviceToHost, s0));
    SHOW("host func on green stream 0", cudaLaunchHostFunc(s0, host_fn, NULL));
    SHOW("green stream 0 sync", cudaStreamSynchronize(s0));
    int good = 1;
    for (size_t i = 0; i < N; i++) good &= h[i] == 0x5a;
    CHECK(good);
    SHOWI("green stream 0 data read back", good);
    SHOWI("host func calls", host_calls);

    /* Events and execution contexts. */
    cudaEvent_t ev = NULL, ev2 = NULL;
    OK(cudaEventCreate(&ev));
    OK(cudaEventCreateWithFlags(&ev2, cudaEventDisableTiming));
    SHOW("memset on green stream 1", cudaMemsetAsync(dbuf, 0x33, N, sB));
    SHOW("record green ctx 1", cudaExecutionCtxRecordEvent(gB, ev));
    SHOW("green ctx 0 waits", cudaExecutionCtxWaitEvent(g0, ev));
    SHOW("copy on green stream 0 after wait", cudaMemcpyAsync(h, dbuf, N, cudaMemcpyDeviceToHost, s0));
    SHOW("sync green ctx 0", cudaExecutionCtxSynchronize(g0));
    good = 1;
    for (size_t i = 0; i < N; i++) good &= h[i] == 0x33;
    CHECK(good);
    SHOWI("copy after event wait read back", good);
    SHOW("event query", cudaEventQuery(ev));
    SHOW("record device exec ctx", cudaExecutionCtxRecordEvent(prim, ev2));
    SHOW("device exec ctx waits", cudaExecutionCtxWaitEvent(prim, ev2));
    SHOW("sync device exec ctx", cudaExecutionCtxSynchronize(prim));
    SHOW("event 2 query", cudaEventQuery(ev2));
    SHOW("record NULL ctx", cudaExecutionCtxRecordEvent(NULL, ev));
    SHOW("record NULL event", cudaExecutionCtxRecordEvent(g0, NULL));
    SHOW("wait NULL ctx", cudaExecutionCtxWaitEvent(NULL, ev));
    SHOW("wait NULL event", cudaExecutionCtxWaitEvent(g0, NULL));
    SHOW("sync NULL ctx", cudaExecutionCtxSynchronize(NULL));
    SHOW_LAST("events");
    SHOW("stream wait event across green ctxs", cudaStreamWaitEvent(sB, ev, 0));
    SHOW("event record on green stream", cudaEventRecord(ev, s0));
    SHOW("event sync", cudaEventSynchronize(ev));

    /* Capture on a green context's stream. */
    enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    SHOW("begin capture on green stream", cudaStreamBeginCapture(sB, cudaStreamCaptureModeGlobal));
    SHOW("record green ctx 1 while capturing", cudaExecutionCtxRecordEvent(gB, ev));
    SHOW("wait green ctx 1 while capturing", cudaExecutionCtxWaitEvent(gB, ev));
    SHOW("capture status", cudaStreamIsCapturing(sB, &cs));
    SHOWI("capture status is", cs);
    cudaGraph_t cg = NULL;
    SHOW("end capture", cudaStreamEndCapture(sB, &cg));
    if (cg) OK(cudaGraphDestroy(cg));
    SHOW_LAST("capture");

    /* Destroying. */
    SHOW("destroy green stream 0", cudaStreamDestroy(s0));
    SHOW("destroy green stream 1", cudaStreamDestroy(sB));
    SHOW("destroy device exec ctx stream", cudaStreamDestroy(sp));
    OK(cudaStreamDestroy(plain));
    SHOW("destroy green ctx 0", cudaExecutionCtxDestroy(g0));
    SHOW("destroy green ctx 1", cudaExecutionCtxDestroy(gB));
    SHOW("destroy NULL exec ctx", cudaExecutionCtxDestroy(NULL));
    SHOW("destroy device exec ctx", cudaExecutionCtxDestroy(prim));
    SHOW("device exec ctx still usable", cudaExecutionCtxSynchronize(prim));
    SHOW_LAST("destroy");
    ct_destroy_events(ev, ev2, NULL);
    OK(cudaGetDevice(&cur));
    SHOWI("current device at the end", cur);
    SHOW("cudaMalloc still works", cudaMemset(dbuf, 0, N));
    OK(cudaFree(dbuf));
    free(h);

    ct_failed += ct_in_fresh_process("destroy-before-stream");
    ct_failed += ct_in_fresh_process("destroy-current");
    SHOW("device synchronize at the end", cudaDeviceSynchronize());
    DONE();
}
