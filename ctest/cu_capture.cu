/* ctest: gpu cu */
/* Stream capture of every kind of work the runtime enqueues: kernels (<<<>>>, cudaLaunchKernel,
 * cooperative, the first launch of a module inside a capture), memsets and copies of every
 * shape (1D, 2D, 3D, arrays, symbols, peer, pinned and pageable host memory), host functions,
 * event records and waits (plain, for fork/join, and external), stream-ordered allocation,
 * prefetch; a fork/join of two streams; the graph replayed many times with results read back.
 * Also: capture info during a capture, updating a capturing stream's dependencies, capture
 * into an existing graph, and the capture status of each kind of stream. */
#include "ctest.h"
#include "graph_util.h"

#define N 1024

__device__ int g_sym[N];

__global__ void add(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += v;
}

__global__ void copy_scale(int *dst, const int *src, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[i] * k;
}

__global__ void from_sym(int *dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = g_sym[i];
}

typedef cudaError_t (*host_fn_t)(cudaStream_t, cudaHostFn_t, void *);
typedef cudaError_t (*record_flags_t)(cudaEvent_t, cudaStream_t, unsigned int);
typedef cudaError_t (*malloc_async_t)(void **, size_t, cudaStream_t);
typedef cudaError_t (*free_async_t)(void *, cudaStream_t);

static volatile int host_calls;
static void CUDART_CB on_host(void *p) {
    (void)p;
    host_calls++;
}

static void show_status(const char *label, cudaStream_t st) {
    enum cudaStreamCaptureStatus cs = (enum cudaStreamCaptureStatus)77;
    cudaError_t e = cudaStreamIsCapturing(st, &cs);
    printf("%s: %s status %d\n", label, cudaGetErrorName(e), (int)cs);
}

static unsigned long long show_info(const char *label, cudaStream_t st, cudaGraph_t *gout) {
    enum cudaStreamCaptureStatus cs = (enum cudaStreamCaptureStatus)77;
    unsigned long long id = 0;
    cudaGraph_t g = NULL;
    const cudaGraphNode_t *deps = NULL;
    const cudaGraphEdgeData *ed = NULL;
    size_t nd = 999;
#if CUDART_VERSION >= 13000
    cudaError_t e = cudaStreamGetCaptureInfo(st, &cs, &id, &g, &deps, &ed, &nd);
#else
    /* CUDA 12: the form with edge data is _v3; cudaStreamGetCaptureInfo is _v2 (without), and
     * the 10.1 symbol of that name has status and id only. Each must say what _v3 says (asked
     * last: a query's dependency array lasts until the next query). */
    enum cudaStreamCaptureStatus cs2 = (enum cudaStreamCaptureStatus)77, cs3 = cs2;
    unsigned long long id2 = 0, id3 = 0;
    cudaGraph_t g2 = NULL;
    const cudaGraphNode_t *deps2 = NULL;
    size_t nd2 = 999;
    cudaGraphNode_t deps2_copy[GU_MAX];
    cudaError_t e2 = cudaStreamGetCaptureInfo_v2(st, &cs2, &id2, &g2, &deps2, &nd2);
    for (size_t i = 0; e2 == cudaSuccess && cs2 == cudaStreamCaptureStatusActive && i < nd2 && i < GU_MAX; i++)
        deps2_copy[i] = deps2[i];
    typedef cudaError_t (*info101_t)(cudaStream_t, enum cudaStreamCaptureStatus *, unsigned long long *);
    info101_t info101 = (info101_t)gu_runtime_fn("cudaStreamGetCaptureInfo");
    CHECK(info101 != NULL);
    cudaError_t e3 = info101 ? info101(st, &cs3, &id3) : cudaErrorUnknown;
    cudaError_t e = cudaStreamGetCaptureInfo_v3(st, &cs, &id, &g, &deps, &ed, &nd);
    CHECK(e2 == e && cs2 == cs && e3 == e && cs3 == cs);
    if (e == cudaSuccess && cs == cudaStreamCaptureStatusActive) {
        CHECK(id2 == id && id3 == id && g2 == g && nd2 == nd);
        for (size_t i = 0; nd2 == nd && i < nd && i < GU_MAX; i++) CHECK(deps2_copy[i] == deps[i]);
    }
#endif
    printf("%s: %s status %d, id non-zero %d, graph %d, dependencies %llu, types", label, cudaGetErrorName(e),
           (int)cs, id != 0, g != NULL, (unsigned long long)nd);
    for (size_t i = 0; e == cudaSuccess && cs == cudaStreamCaptureStatusActive && i < nd; i++) {
        enum cudaGraphNodeType t = (enum cudaGraphNodeType)-1;
        cudaGraphNodeGetType(deps[i], &t);
        printf(" %d", (int)t);
    }
    printf("\n");
    if (gout) *gout = g;
    return id;
}

/* Counts of each node type in `g`, as "type:count" pairs. */
static void show_types(const char *label, cudaGraph_t g) {
    printf("%s: node types", label);
    for (int t = 0; t <= 13; t++) {
        int c = gu_count_type(g, t);
        if (c) printf(" %d:%d", t, c);
    }
    printf("\n");
}

/* One operation captured alone on a fresh stream: the operation's result, the capture's
 * status after it, the end of the capture, the graph; the graph is launched once. */
template <typename F> static void capture_one(const char *label, F op) {
    cudaStream_t st = NULL;
    OK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    char l[160];
    snprintf(l, sizeof l, "%s: begin", label);
    OK(SHOW(l, cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal)));
    snprintf(l, sizeof l, "%s: op", label);
    SHOW(l, op(st));
    snprintf(l, sizeof l, "%s: status after op", label);
    show_status(l, st);
    cudaGraph_t g = NULL;
    snprintf(l, sizeof l, "%s: end", label);
    cudaError_t e = SHOW(l, cudaStreamEndCapture(st, &g));
    if (e != cudaSuccess) SHOW_LAST(label);
    if (g) {
        gu_show(label, g);
        cudaGraphExec_t x = NULL;
        snprintf(l, sizeof l, "%s: instantiate", label);
        if (SHOW(l, cudaGraphInstantiate(&x, g, 0)) == cudaSuccess) {
            snprintf(l, sizeof l, "%s: launch", label);
            SHOW(l, cudaGraphLaunch(x, st));
            snprintf(l, sizeof l, "%s: synchronize", label);
            SHOW(l, cudaStreamSynchronize(st));
            cudaGraphExecDestroy(x);
        } else {
            SHOW_LAST(label);
        }
        cudaGraphDestroy(g);
    }
    cudaStreamDestroy(st);
}

int main(void) {
    CHECK(gu_driver());
    if (ct_failed) DONE();
    host_fn_t launch_host = (host_fn_t)gu_runtime_fn("cudaLaunchHostFunc");
    record_flags_t record_flags = (record_flags_t)gu_runtime_fn("cudaEventRecordWithFlags");
    malloc_async_t malloc_async = (malloc_async_t)gu_runtime_fn("cudaMallocAsync");
    free_async_t free_async = (free_async_t)gu_runtime_fn("cudaFreeAsync");
    printf("exported: cudaLaunchHostFunc %d, cudaEventRecordWithFlags %d, cudaMallocAsync %d, cudaFreeAsync %d\n",
           launch_host != NULL, record_flags != NULL, malloc_async != NULL, free_async != NULL);

    cudaStream_t s1 = NULL, s2 = NULL, s3 = NULL, nb = NULL;
    OK(cudaStreamCreate(&s1));
    OK(cudaStreamCreate(&s2));
    OK(cudaStreamCreate(&s3));
    OK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    int *da = NULL, *db = NULL, *dc = NULL, *de = NULL, *df = NULL, *hin = NULL, *hout = NULL;
    OK(cudaMalloc((void **)&da, N * sizeof(int)));
    OK(cudaMalloc((void **)&db, N * sizeof(int)));
    OK(cudaMalloc((void **)&dc, N * sizeof(int)));
    OK(cudaMalloc((void **)&de, N * sizeof(int)));
    OK(cudaMalloc((void **)&df, N * sizeof(int)));
    OK(cudaMallocHost((void **)&hin, N * sizeof(int)));
    OK(cudaMallocHost((void **)&hout, 4 * N * sizeof(int)));

    /* ---- the first use of the program's kernels, inside a global capture ---- */
    OK(cudaMemset(da, 0, N * sizeof(int)));
    OK(SHOW("first: begin", cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal)));
    add<<<N / 256, 256, 0, s1>>>(da, N, 2);
    SHOW("first: launch of a kernel never used before", cudaGetLastError());
    show_status("first: status", s1);
    cudaGraph_t g = NULL;
    SHOW("first: end", cudaStreamEndCapture(s1, &g));
    if (g) {
        gu_show("first", g);
        cudaGraphExec_t x = NULL;
        OK(cudaGraphInstantiate(&x, g, 0));
        for (int i = 0; i < 3; i++) OK(cudaGraphLaunch(x, s1));
        OK(cudaStreamSynchronize(s1));
        OK(cudaMemcpy(hout, da, N * sizeof(int), cudaMemcpyDeviceToHost));
        SHOWI("first: da[5] after 3 launches", hout[5]);
        CHECK(hout[5] == 6);
        cudaGraphExecDestroy(x);
        cudaGraphDestroy(g);
        g = NULL;
    }

    /* ---- a fork/join capture of every kind of work ---- */
    cudaEvent_t fork = NULL, join = NULL, ext = NULL, outside = NULL;
    OK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    OK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    OK(cudaEventCreate(&ext));
    OK(cudaEventCreate(&outside));
    size_t pitch = 0;
    int *dp = NULL;
    OK(cudaMallocPitch((void **)&dp, &pitch, 32 * sizeof(int), 32));
    cudaPitchedPtr p3 = make_cudaPitchedPtr(NULL, 0, 0, 0);
    OK(cudaMalloc3D(&p3, make_cudaExtent(16 * sizeof(int), 4, 4)));
    struct cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindSigned);
    cudaArray_t arr = NULL;
    OK(cudaMallocArray(&arr, &cd, 32, 32, 0));
    int v = 0;
    void *args[] = {&db, (void *)&v, (void *)&v};
    int n = N, k = 3;
    void *cargs[] = {&dc, &db, &n, &k};

    OK(SHOW("main: begin", cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal)));
    unsigned long long id1 = show_info("main: info at start", s1, &g);
    OK(SHOW("main: memset da", cudaMemsetAsync(da, 0, N * sizeof(int), s1)));
    add<<<N / 256, 256, 0, s1>>>(da, N, 1);
    SHOW("main: kernel <<<>>>", cudaGetLastError());
    OK(SHOW("main: H2D pinned", cudaMemcpyAsync(db, hin, N * sizeof(int), cudaMemcpyHostToDevice, s1)));
    OK(SHOW("main: cudaLaunchKernel", cudaLaunchKernel((const void *)copy_scale, dim3(N / 256), dim3(256), cargs, 0, s1)));
    show_info("main: info before fork", s1, NULL);
    OK(SHOW("main: record fork", cudaEventRecord(fork, s1)));
    OK(SHOW("main: s2 waits fork", cudaStreamWaitEvent(s2, fork, 0)));
    show_status("main: s2 after fork", s2);
    unsigned long long id2 = show_info("main: s2 info", s2, NULL);
    printf("main: s2 in the same capture: %d\n", id1 == id2);
    OK(SHOW("main: D2D on s2", cudaMemcpyAsync(de, da, N * sizeof(int), cudaMemcpyDeviceToDevice, s2)));
    OK(SHOW("main: memset2D on s2", cudaMemset2DAsync(dp, pitch, 0, 32 * sizeof(int), 32, s2)));
    OK(SHOW("main: copy2D on s2", cudaMemcpy2DAsync(dp, pitch, dc, 32 * sizeof(int), 32 * sizeof(int), 32,
                                                     cudaMemcpyDeviceToDevice, s2)));
    OK(SHOW("main: memset3D on s2", cudaMemset3DAsync(p3, 0x11, make_cudaExtent(16 * sizeof(int), 4, 4), s2)));
    {
        struct cudaMemcpy3DParms m;
        memset(&m, 0, sizeof m);
        m.srcPtr = make_cudaPitchedPtr(dc, 16 * sizeof(int), 16, 4);
        m.dstPtr = p3;
        m.extent = make_cudaExtent(16 * sizeof(int), 4, 2);
        m.kind = cudaMemcpyDeviceToDevice;
        OK(SHOW("main: copy3D on s2", cudaMemcpy3DAsync(&m, s2)));
    }
    OK(SHOW("main: copy2D to array", cudaMemcpy2DToArrayAsync(arr, 0, 0, dp, pitch, 32 * sizeof(int), 32,
                                                              cudaMemcpyDeviceToDevice, s2)));
    OK(SHOW("main: copy2D from array", cudaMemcpy2DFromArrayAsync(df, 32 * sizeof(int), arr, 0, 0, 32 * sizeof(int), 32,
                                                                  cudaMemcpyDeviceToDevice, s2)));
    OK(SHOW("main: to symbol", cudaMemcpyToSymbolAsync(g_sym, hin, N * sizeof(int), 0, cudaMemcpyHostToDevice, s2)));
    from_sym<<<N / 256, 256, 0, s2>>>(de, N);
    SHOW("main: kernel on s2", cudaGetLastError());
    OK(SHOW("main: from symbol", cudaMemcpyFromSymbolAsync(hout + N, g_sym, N * sizeof(int), 0, cudaMemcpyDeviceToHost, s2)));
    if (launch_host) SHOW("main: host function", launch_host(s2, on_host, NULL));
    if (record_flags) SHOW("main: external event record", record_flags(ext, s2, cudaEventRecordExternal));
    OK(SHOW("main: record join", cudaEventRecord(join, s2)));
    OK(SHOW("main: s1 waits join", cudaStreamWaitEvent(s1, join, 0)));
    show_info("main: info after join", s1, NULL);
    OK(SHOW("main: D2H da", cudaMemcpyAsync(hout, da, N * sizeof(int), cudaMemcpyDeviceToHost, s1)));
    OK(SHOW("main: D2H dc", cudaMemcpyAsync(hout + 2 * N, dc, N * sizeof(int), cudaMemcpyDeviceToHost, s1)));
    OK(SHOW("main: D2H df", cudaMemcpyAsync(hout + 3 * N, df, N * sizeof(int), cudaMemcpyDeviceToHost, s1)));
    cudaGraph_t main_graph = NULL;
    OK(SHOW("main: end", cudaStreamEndCapture(s1, &main_graph)));
    printf("main: graph from info is the captured one: %d\n", g == main_graph);
    show_status("main: s1 after end", s1);
    show_status("main: s2 after end", s2);
    if (main_graph) {
        gu_show("main", main_graph);
        show_types("main", main_graph);
        cudaGraphExec_t x = NULL;
        OK(SHOW("main: instantiate", cudaGraphInstantiate(&x, main_graph, 0)));
        int good = 1;
        host_calls = 0;
        for (int it = 0; it < 20 && x; it++) {
            for (int i = 0; i < N; i++) hin[i] = i * 7 + it;
            OK(cudaGraphLaunch(x, it % 2 ? s3 : s1));
            OK(cudaStreamSynchronize(it % 2 ? s3 : s1));
            for (int i = 0; i < N; i++) {
                good &= hout[i] == 1;                          /* da: memset 0, +1 */
                good &= hout[N + i] == i * 7 + it;             /* symbol round trip */
                good &= hout[2 * N + i] == (i * 7 + it) * 3;   /* dc = db * 3 */
            }
            for (int r = 0; r < 32; r++)
                for (int c = 0; c < 32; c++) good &= hout[3 * N + r * 32 + c] == (r * 32 + c) * 7 * 3 + it * 3;
        }
        SHOWI("main: 20 replays read back as expected", good);
        CHECK(good);
        SHOWI("main: host function calls", host_calls);
        if (x) cudaGraphExecDestroy(x);
        cudaGraphDestroy(main_graph);
    }

    /* ---- each kind of work captured alone ---- */
    static int pageable[N];
    for (int i = 0; i < N; i++) pageable[i] = i;
    capture_one("pageable H2D", [&](cudaStream_t st) { return cudaMemcpyAsync(da, pageable, sizeof pageable, cudaMemcpyHostToDevice, st); });
    capture_one("pageable D2H", [&](cudaStream_t st) { return cudaMemcpyAsync(pageable, da, sizeof pageable, cudaMemcpyDeviceToHost, st); });
    capture_one("pageable H2H", [&](cudaStream_t st) { return cudaMemcpyAsync(pageable, pageable + N / 2, 16, cudaMemcpyHostToHost, st); });
    capture_one("pinned H2H", [&](cudaStream_t st) { return cudaMemcpyAsync(hout, hin, 16, cudaMemcpyHostToHost, st); });
    capture_one("default-kind copy", [&](cudaStream_t st) { return cudaMemcpyAsync(da, hin, 16, cudaMemcpyDefault, st); });
    capture_one("peer copy", [&](cudaStream_t st) { return cudaMemcpyPeerAsync(da, 0, db, 0, 64, st); });
    capture_one("memset 3D, slices apart", [&](cudaStream_t st) {
        cudaPitchedPtr q = p3;
        q.ysize = 4;
        return cudaMemset3DAsync(q, 1, make_cudaExtent(8, 2, 3), st);
    });
    capture_one("linear copy to array spanning rows", [&](cudaStream_t st) {
        return cudaMemcpyToArrayAsync(arr, 8, 1, hin, 300 * sizeof(int), cudaMemcpyHostToDevice, st);
    });
    capture_one("synchronous array copy while a non-blocking stream captures", [&](cudaStream_t st) {
        (void)st;
        return cudaMemcpyArrayToArray(arr, 0, 2, arr, 0, 0, 8, cudaMemcpyDeviceToDevice);
    });
    capture_one("empty copy", [&](cudaStream_t st) { return cudaMemcpyAsync(da, db, 0, cudaMemcpyDeviceToDevice, st); });
    capture_one("empty memset", [&](cudaStream_t st) { return cudaMemsetAsync(da, 0, 0, st); });
    capture_one("cooperative kernel", [&](cudaStream_t st) {
        return cudaLaunchCooperativeKernel((const void *)add, dim3(1), dim3(32), args, 0, st);
    });
    capture_one("kernel with a bad configuration", [&](cudaStream_t st) {
        add<<<1, 4096, 0, st>>>(da, N, 1);
        return cudaGetLastError();
    });
    capture_one("event record", [&](cudaStream_t st) { return cudaEventRecord(outside, st); });
    OK(cudaEventRecord(ext, s3));
    OK(cudaStreamSynchronize(s3));
    capture_one("wait on an event recorded outside", [&](cudaStream_t st) { return cudaStreamWaitEvent(st, ext, 0); });
    capture_one("external wait on an event recorded outside", [&](cudaStream_t st) {
        return cudaStreamWaitEvent(st, ext, cudaEventWaitExternal);
    });
    capture_one("wait flags 2", [&](cudaStream_t st) { return cudaStreamWaitEvent(st, ext, 2); });
    if (record_flags)
        capture_one("external record", [&](cudaStream_t st) { return record_flags(outside, st, cudaEventRecordExternal); });
    if (launch_host)
        capture_one("host function", [&](cudaStream_t st) { return launch_host(st, on_host, NULL); });
    {
        int *m = NULL;
        OK(cudaMallocManaged((void **)&m, 4096, cudaMemAttachGlobal));
        capture_one("prefetch", [&](cudaStream_t st) {
            struct cudaMemLocation loc;
            loc.type = cudaMemLocationTypeDevice;
            loc.id = 0;
            return cudaMemPrefetchAsync(m, 4096, loc, 0, st);
        });
        capture_one("attach", [&](cudaStream_t st) { return cudaStreamAttachMemAsync(st, m, 0, cudaMemAttachSingle); });
        OK(cudaFree(m));
    }
    if (malloc_async && free_async) {
        capture_one("stream-ordered allocation", [&](cudaStream_t st) {
            void *p = NULL;
            cudaError_t e = malloc_async(&p, 1 << 20, st);
            if (e != cudaSuccess) return e;
            e = cudaMemsetAsync(p, 1, 1 << 20, st);
            if (e != cudaSuccess) return e;
            return free_async(p, st);
        });
        unsigned long long hi = 0;
        SHOW("graph memory high after allocation", cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &hi));
        SHOWI("used high watermark non-zero", hi != 0);
        OK(cudaDeviceGraphMemTrim(0));
    }

    /* ---- updating a capturing stream's dependencies ---- */
    OK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    OK(cudaMemsetAsync(da, 0, N * sizeof(int), s1));
#if CUDART_VERSION >= 13000
    OK(SHOW("update: set {}", cudaStreamUpdateCaptureDependencies(s1, NULL, NULL, 0, cudaStreamSetCaptureDependencies)));
#else
    OK(SHOW("update: set {}", cudaStreamUpdateCaptureDependencies(s1, NULL, 0, cudaStreamSetCaptureDependencies)));
#endif
    show_info("update: after set {}", s1, NULL);
    add<<<N / 256, 256, 0, s1>>>(db, N, 1);
    {
        cudaGraph_t ug = NULL;
        show_info("update: after kernel", s1, &ug);
        cudaGraphNode_t x = gu_empty(ug, NULL, 0);
#if CUDART_VERSION >= 13000
        OK(SHOW("update: add {empty}", cudaStreamUpdateCaptureDependencies(s1, &x, NULL, 1, cudaStreamAddCaptureDependencies)));
#else
        /* CUDA 12: the form with edge data is _v2. */
        OK(SHOW("update: add {empty}", cudaStreamUpdateCaptureDependencies_v2(s1, &x, NULL, 1, cudaStreamAddCaptureDependencies)));
#endif
        show_info("update: after add", s1, NULL);
    }
    add<<<N / 256, 256, 0, s1>>>(db, N, 1);
    g = NULL;
    SHOW("update: end", cudaStreamEndCapture(s1, &g));
    if (g) {
        gu_show("update", g);
        cudaGraphDestroy(g);
    }

    /* ---- capture into an existing graph ---- */
    {
        cudaGraph_t eg = NULL, out = NULL;
        OK(cudaGraphCreate(&eg, 0));
        cudaGraphNode_t root = gu_empty(eg, NULL, 0);
        OK(SHOW("to graph: begin", cudaStreamBeginCaptureToGraph(s1, eg, &root, NULL, 1, cudaStreamCaptureModeGlobal)));
        add<<<N / 256, 256, 0, s1>>>(da, N, 5);
        OK(cudaMemcpyAsync(hout, da, N * sizeof(int), cudaMemcpyDeviceToHost, s1));
        OK(SHOW("to graph: end", cudaStreamEndCapture(s1, &out)));
        printf("to graph: same graph %d\n", out == eg);
        gu_show("to graph", eg);
        cudaGraphExec_t x = NULL;
        OK(cudaMemset(da, 0, N * sizeof(int)));
        OK(cudaGraphInstantiate(&x, eg, 0));
        for (int i = 0; i < 4; i++) OK(cudaGraphLaunch(x, s1));
        OK(cudaStreamSynchronize(s1));
        SHOWI("to graph: da[100] after 4 launches", hout[100]);
        CHECK(hout[100] == 20);
        cudaGraphExecDestroy(x);
        cudaGraphDestroy(eg);
    }

    /* ---- capture status of each kind of stream while a blocking stream captures ---- */
    OK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed));
    add<<<1, 32, 0, s1>>>(da, 32, 1);
    show_status("status: capturing stream", s1);
    show_status("status: other blocking stream", s3);
    show_status("status: non-blocking stream", nb);
    show_status("status: cudaStreamPerThread", cudaStreamPerThread);
    show_status("status: cudaStreamLegacy", cudaStreamLegacy);
    SHOW_LAST("status: legacy");
    show_status("status: capturing stream after asking the legacy stream", s1);
    show_status("status: 0", 0);
    show_status("status: capturing stream after asking 0", s1);
    g = NULL;
    SHOW("status: end", cudaStreamEndCapture(s1, &g));
    SHOW_LAST("status: end");
    if (g) cudaGraphDestroy(g);
    OK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
    add<<<1, 32, 0, nb>>>(da, 32, 1);
    show_status("status (non-blocking capturing): legacy", cudaStreamLegacy);
    show_status("status (non-blocking capturing): capturing stream", nb);
    g = NULL;
    SHOW("status (non-blocking capturing): end", cudaStreamEndCapture(nb, &g));
    if (g) cudaGraphDestroy(g);

    OK(cudaDeviceSynchronize());
    cudaFreeArray(arr);
    cudaFree(p3.ptr);
    cudaFree(dp);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(de);
    cudaFree(df);
    cudaFreeHost(hin);
    cudaFreeHost(hout);
    cudaEventDestroy(fork);
    cudaEventDestroy(join);
    cudaEventDestroy(ext);
    cudaEventDestroy(outside);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaStreamDestroy(s3);
    cudaStreamDestroy(nb);
    DONE();
}
