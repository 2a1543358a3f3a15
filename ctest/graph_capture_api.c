/* The stream capture API in both ABIs' forms, with work that needs no kernels (memsets,
 * copies between device, pinned host and pageable memory, events): capture status of each
 * kind of stream, capture info (the CUDA 13 form; CUDA 12's plain, _v2 and _v3 forms and the
 * CUDA 10.1 symbol), updating a capturing stream's dependencies, capture into an existing
 * graph, the per-thread default stream and the _ptsz exports, the thread's capture mode, and
 * the basic rules that end a capture. The captured graphs are launched and read back. */
#include "ctest.h"
#include "graph_util.h"

#define N 4096

cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, enum cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph);
cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus);
cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *dependencies,
                                               const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                               enum cudaStreamCaptureMode mode);
cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream);
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
#if CUDART_VERSION >= 13000
cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                          unsigned long long *id_out, cudaGraph_t *graph_out,
                                          const cudaGraphNode_t **dependencies_out,
                                          const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out);
cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                     const cudaGraphEdgeData *dependencyData, size_t numDependencies,
                                                     unsigned int flags);
#else
/* The CUDA 10.1 form the CUDA 12 library still exports under the plain name. */
cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                          unsigned long long *id_out);
cudaError_t cudaStreamGetCaptureInfo_v2_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                             unsigned long long *id_out, cudaGraph_t *graph_out,
                                             const cudaGraphNode_t **dependencies_out, size_t *numDependencies_out);
cudaError_t cudaStreamGetCaptureInfo_v3_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
                                             unsigned long long *id_out, cudaGraph_t *graph_out,
                                             const cudaGraphNode_t **dependencies_out,
                                             const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out);
cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                     size_t numDependencies, unsigned int flags);
cudaError_t cudaStreamUpdateCaptureDependencies_v2_ptsz(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                        const cudaGraphEdgeData *dependencyData,
                                                        size_t numDependencies, unsigned int flags);
typedef cudaError_t (*info101_t)(cudaStream_t, enum cudaStreamCaptureStatus *, unsigned long long *);
#endif

static cudaStream_t s, nb, s3;
static unsigned char *d, *d2, *pinned, *pout, back[N];

/* The capture status of `st`, printed as "<label>: <error> status <n>". */
static void show_status(const char *label, cudaStream_t st) {
    enum cudaStreamCaptureStatus cs = (enum cudaStreamCaptureStatus)77;
    cudaError_t e = cudaStreamIsCapturing(st, &cs);
    printf("%s: %s status %d\n", label, cudaGetErrorName(e), (int)cs);
}

/* Capture info of `st` in the ABI's plain form: status, whether the id is non-zero, the
 * graph, the number of dependencies and the type of each. Returns the id. */
static unsigned long long show_info(const char *label, cudaStream_t st, cudaGraph_t *graph_out) {
    enum cudaStreamCaptureStatus cs = (enum cudaStreamCaptureStatus)77;
    unsigned long long id = 0;
    cudaGraph_t g = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t nd = 999;
#if CUDART_VERSION >= 13000
    const cudaGraphEdgeData *ed = NULL;
    cudaError_t e = cudaStreamGetCaptureInfo(st, &cs, &id, &g, &deps, &ed, &nd);
#else
    cudaError_t e = cudaStreamGetCaptureInfo(st, &cs, &id, &g, &deps, &nd);
#endif
    printf("%s: %s status %d, id non-zero %d, graph %d, dependencies %llu", label, cudaGetErrorName(e), (int)cs,
           id != 0, g != NULL, (unsigned long long)(nd == 999 ? 999 : nd));
    if (e == cudaSuccess && cs == cudaStreamCaptureStatusActive) {
        printf(", types");
        for (size_t i = 0; i < nd && deps; i++) {
            enum cudaGraphNodeType t = (enum cudaGraphNodeType)-1;
            cudaGraphNodeGetType(deps[i], &t);
            printf(" %d", (int)t);
        }
#if CUDART_VERSION >= 13000
        printf(", edge data");
        for (size_t i = 0; i < nd && ed; i++) printf(" %d/%d/%d", ed[i].from_port, ed[i].to_port, ed[i].type);
#endif
    }
    printf("\n");
    if (graph_out) *graph_out = g;
    return id;
}

/* Ends the capture on `st`, prints the result and the graph, and returns the graph. */
static cudaGraph_t end(const char *label, cudaStream_t st) {
    cudaGraph_t g = (cudaGraph_t)(size_t)0x5a5a;
    char l[160];
    snprintf(l, sizeof l, "%s: cudaStreamEndCapture", label);
    cudaError_t e = SHOW(l, cudaStreamEndCapture(st, &g));
    printf("%s: graph NULL %d\n", label, g == NULL);
    if (e != cudaSuccess) {
        SHOW_LAST(label);
        return NULL;
    }
    gu_show(label, g);
    return g;
}

/* Instantiates `g`, launches it `times` on `st` and destroys both. */
static void replay(const char *label, cudaGraph_t g, cudaStream_t st, int times) {
    cudaGraphExec_t e = NULL;
    char l[160];
    snprintf(l, sizeof l, "%s: instantiate", label);
    if (SHOW(l, cudaGraphInstantiate(&e, g, 0)) != cudaSuccess) return;
    for (int i = 0; i < times; i++) OK(cudaGraphLaunch(e, st));
    snprintf(l, sizeof l, "%s: synchronize", label);
    SHOW(l, cudaStreamSynchronize(st));
    OK(cudaGraphExecDestroy(e));
    OK(cudaGraphDestroy(g));
}

int main(void) {
    CHECK(gu_driver());
    if (ct_failed) DONE();
    OK(cudaStreamCreate(&s));
    OK(cudaStreamCreate(&s3));
    OK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    OK(cudaMalloc((void **)&d, N));
    OK(cudaMalloc((void **)&d2, N));
    OK(cudaMallocHost((void **)&pinned, N));
    OK(cudaMallocHost((void **)&pout, N));
    cudaEvent_t ev = NULL, ev2 = NULL;
    OK(cudaEventCreate(&ev));
    OK(cudaEventCreateWithFlags(&ev2, cudaEventDisableTiming));

    /* ---- status of each kind of stream, nothing capturing ---- */
    show_status("idle created", s);
    show_status("idle non-blocking", nb);
    show_status("idle 0", 0);
    show_status("idle cudaStreamLegacy", cudaStreamLegacy);
    show_status("idle cudaStreamPerThread", cudaStreamPerThread);
    SHOW("cudaStreamIsCapturing(NULL out)", cudaStreamIsCapturing(s, NULL));
    SHOW_LAST("after NULL status out");
    show_info("idle info", s, NULL);
    {
        enum cudaStreamCaptureStatus cs;
        unsigned long long id = 0;
#if CUDART_VERSION >= 13000
        SHOW("cudaStreamGetCaptureInfo(NULL status)", cudaStreamGetCaptureInfo(s, NULL, &id, NULL, NULL, NULL, NULL));
        SHOW("cudaStreamGetCaptureInfo(status only)", cudaStreamGetCaptureInfo(s, &cs, NULL, NULL, NULL, NULL, NULL));
#else
        SHOW("cudaStreamGetCaptureInfo(NULL status)", cudaStreamGetCaptureInfo(s, NULL, &id, NULL, NULL, NULL));
        SHOW("cudaStreamGetCaptureInfo(status only)", cudaStreamGetCaptureInfo(s, &cs, NULL, NULL, NULL, NULL));
#endif
        SHOW_LAST("after info with NULL status");
        (void)id;
    }

    /* ---- which streams can capture ---- */
    SHOW("cudaStreamBeginCapture(0)", cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal));
    SHOW_LAST("after capture of stream 0");
    SHOW("cudaStreamBeginCapture(cudaStreamLegacy)", cudaStreamBeginCapture(cudaStreamLegacy, cudaStreamCaptureModeGlobal));
    SHOW_LAST("after capture of the legacy stream");
    SHOW("cudaStreamBeginCapture(mode 7)", cudaStreamBeginCapture(s, (enum cudaStreamCaptureMode)7));
    SHOW_LAST("after bad mode");
    show_status("after refused captures", s);
    SHOW("cudaStreamEndCapture(not capturing)", cudaStreamEndCapture(s, &(cudaGraph_t){NULL}));
    SHOW_LAST("after ending no capture");

    /* ---- a capture on a created stream, forked to a non-blocking one and joined ---- */
    for (int i = 0; i < N; i++) pinned[i] = (unsigned char)i;
    OK(SHOW("cudaStreamBeginCapture(s, global)", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal)));
    SHOW("cudaStreamBeginCapture(s) again", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    SHOW_LAST("after beginning twice");
    show_status("capturing created", s);
    show_status("capturing: non-blocking", nb);
    show_status("capturing: other created", s3);
    show_status("capturing: cudaStreamPerThread", cudaStreamPerThread);
    unsigned long long id0 = show_info("info before work", s, NULL);
    OK(SHOW("memset", cudaMemsetAsync(d, 1, N, s)));
    cudaGraph_t cg = NULL;
    unsigned long long id1 = show_info("info after memset", s, &cg);
    printf("id stable: %d\n", id0 == id1);
    OK(SHOW("copy H2D pinned", cudaMemcpyAsync(d2, pinned, N / 2, cudaMemcpyHostToDevice, s)));
    OK(SHOW("copy D2D", cudaMemcpyAsync(d2 + N / 2, d, N / 2, cudaMemcpyDeviceToDevice, s)));
    OK(SHOW("cudaEventRecord(fork)", cudaEventRecord(ev, s)));
    show_info("info after event record", s, NULL);
    OK(SHOW("cudaStreamWaitEvent(nb, fork)", cudaStreamWaitEvent(nb, ev, 0)));
    show_status("forked non-blocking", nb);
    unsigned long long idnb = show_info("info of forked stream", nb, NULL);
    printf("forked stream has the capture's id: %d\n", idnb == id1);
    OK(SHOW("memset2D on nb", cudaMemset2DAsync(d + 0, 64, 9, 32, 4, nb)));
    OK(SHOW("copy2D on nb", cudaMemcpy2DAsync(d + 1024, 64, d2, 64, 64, 8, cudaMemcpyDeviceToDevice, nb)));
    OK(SHOW("cudaEventRecord(join)", cudaEventRecord(ev2, nb)));
    OK(SHOW("cudaStreamWaitEvent(s, join)", cudaStreamWaitEvent(s, ev2, 0)));
    show_info("info after join", s, NULL);
    OK(SHOW("copy D2H pinned", cudaMemcpyAsync(pout, d, N, cudaMemcpyDeviceToHost, s)));
    cudaGraph_t g = end("fork/join", s);
    show_status("after end: created", s);
    show_status("after end: forked", nb);
    printf("graph from info is the captured one: %d\n", cg == g);
    if (g) {
        for (int i = 0; i < N; i++) pinned[i] = (unsigned char)(i + 3);
        replay("fork/join", g, s, 3);
        int ok = 1;
        for (int i = 0; i < N; i++) {
            unsigned char want = 1;
            if (i % 64 < 32 && i < 4 * 64) want = 9;
            if (i >= 1024 && i < 1024 + 8 * 64) want = (unsigned char)((i - 1024) + 3);
            ok &= pout[i] == want;
        }
        SHOWI("fork/join result as expected", ok);
        CHECK(ok);
    }

    /* ---- updating the dependencies of a capturing stream ---- */
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaMemsetAsync(d, 2, N, s));
    {
        cudaGraph_t ug = NULL;
        show_info("update: before", s, &ug);
        cudaGraphNode_t x = gu_empty(ug, NULL, 0), y = gu_empty(ug, NULL, 0);
#if CUDART_VERSION >= 13000
        OK(SHOW("update: set {x}", cudaStreamUpdateCaptureDependencies(s, &x, NULL, 1, cudaStreamSetCaptureDependencies)));
        show_info("update: after set", s, NULL);
        OK(SHOW("update: add {y}", cudaStreamUpdateCaptureDependencies(s, &y, NULL, 1, cudaStreamAddCaptureDependencies)));
        show_info("update: after add", s, NULL);
        SHOW("update: flags 2", cudaStreamUpdateCaptureDependencies(s, &y, NULL, 1, 2));
        SHOW("update: NULL nodes, 1", cudaStreamUpdateCaptureDependencies(s, NULL, NULL, 1, 0));
        SHOW_LAST("after update errors");
        cudaGraphEdgeData ed;
        memset(&ed, 0, sizeof ed);
        SHOW("update: add {x} again, default edge data", cudaStreamUpdateCaptureDependencies(s, &x, &ed, 1, 0));
        show_info("update: after adding x again", s, NULL);
        OK(SHOW("update: set {} ", cudaStreamUpdateCaptureDependencies(s, NULL, NULL, 0, cudaStreamSetCaptureDependencies)));
#else
        OK(SHOW("update: set {x}", cudaStreamUpdateCaptureDependencies(s, &x, 1, cudaStreamSetCaptureDependencies)));
        show_info("update: after set", s, NULL);
        OK(SHOW("update_v2: add {y}", cudaStreamUpdateCaptureDependencies_v2(s, &y, NULL, 1, cudaStreamAddCaptureDependencies)));
        show_info("update: after add", s, NULL);
        SHOW("update: flags 2", cudaStreamUpdateCaptureDependencies(s, &y, 1, 2));
        SHOW("update_v2: flags 2", cudaStreamUpdateCaptureDependencies_v2(s, &y, NULL, 1, 2));
        SHOW("update: NULL nodes, 1", cudaStreamUpdateCaptureDependencies(s, NULL, 1, 0));
        SHOW_LAST("after update errors");
        cudaGraphEdgeData ed;
        memset(&ed, 0, sizeof ed);
        SHOW("update_v2: add {x} again, default edge data", cudaStreamUpdateCaptureDependencies_v2(s, &x, &ed, 1, 0));
        show_info("update: after adding x again", s, NULL);
        {
            enum cudaStreamCaptureStatus cs = (enum cudaStreamCaptureStatus)77;
            unsigned long long id = 0;
            cudaGraph_t g2 = NULL;
            const cudaGraphNode_t *deps = NULL;
            const cudaGraphEdgeData *edo = NULL;
            size_t nd = 999;
            SHOW("cudaStreamGetCaptureInfo_v3", cudaStreamGetCaptureInfo_v3(s, &cs, &id, &g2, &deps, &edo, &nd));
            printf("v3: status %d, id non-zero %d, same graph %d, dependencies %llu, edge data %d\n", (int)cs, id != 0,
                   g2 == ug, (unsigned long long)nd, edo != NULL);
            nd = 999;
            SHOW("cudaStreamGetCaptureInfo_v2", cudaStreamGetCaptureInfo_v2(s, &cs, &id, &g2, &deps, &nd));
            printf("v2: status %d, dependencies %llu\n", (int)cs, (unsigned long long)nd);
            SHOW("cudaStreamGetCaptureInfo_v3(edge data without nodes)",
                 cudaStreamGetCaptureInfo_v3(s, &cs, NULL, NULL, NULL, &edo, &nd));
            SHOW("cudaStreamGetCaptureInfo_v3(NULL status)", cudaStreamGetCaptureInfo_v3(s, NULL, &id, NULL, NULL, NULL, NULL));
            info101_t info101 = (info101_t)gu_runtime_fn("cudaStreamGetCaptureInfo");
            info101_t info101_ptsz = (info101_t)gu_runtime_fn("cudaStreamGetCaptureInfo_ptsz");
            printf("CUDA 10.1 symbol exported: %d %d\n", info101 != NULL, info101_ptsz != NULL);
            if (info101) {
                unsigned long long id101 = 0;
                cs = (enum cudaStreamCaptureStatus)77;
                SHOW("cudaStreamGetCaptureInfo (10.1 symbol)", info101(s, &cs, &id101));
                printf("10.1 symbol: status %d, same id %d\n", (int)cs, id101 == id);
                SHOW("cudaStreamGetCaptureInfo (10.1 symbol, NULL status)", info101(s, NULL, &id101));
                SHOW("cudaStreamGetCaptureInfo (10.1 symbol, NULL id)", info101(s, &cs, NULL));
            }
        }
        OK(SHOW("update: set {} ", cudaStreamUpdateCaptureDependencies(s, NULL, 0, cudaStreamSetCaptureDependencies)));
#endif
        show_info("update: after set {}", s, NULL);
        OK(cudaMemsetAsync(d2, 3, N, s));
        g = end("update", s);
        if (g) replay("update", g, s, 1);
    }

    /* ---- capture into an existing graph ---- */
    {
        cudaGraph_t eg = NULL, out = NULL;
        OK(cudaGraphCreate(&eg, 0));
        cudaGraphNode_t root = gu_empty(eg, NULL, 0);
        OK(SHOW("cudaStreamBeginCaptureToGraph", cudaStreamBeginCaptureToGraph(s, eg, &root, NULL, 1, cudaStreamCaptureModeGlobal)));
        show_info("to graph: info", s, &out);
        printf("to graph: info names the existing graph %d\n", out == eg);
        OK(cudaMemsetAsync(d, 4, N, s));
        out = end("to graph", s);
        printf("to graph: end returns the existing graph %d\n", out == eg);
        cudaGraph_t other = NULL;
        OK(cudaGraphCreate(&other, 0));
        cudaGraphNode_t foreign = gu_empty(other, NULL, 0);
        SHOW("cudaStreamBeginCaptureToGraph(node of another graph)",
             cudaStreamBeginCaptureToGraph(s, eg, &foreign, NULL, 1, cudaStreamCaptureModeGlobal));
        SHOW_LAST("after foreign dependency");
        show_status("after foreign dependency", s);
        cudaStreamEndCapture(s, &out);
        cudaGetLastError();
        cudaGraphEdgeData ed;
        memset(&ed, 0, sizeof ed);
        SHOW("cudaStreamBeginCaptureToGraph(edge data, no dependencies)",
             cudaStreamBeginCaptureToGraph(s, eg, NULL, &ed, 0, cudaStreamCaptureModeThreadLocal));
        SHOW("memset into the graph again", cudaMemsetAsync(d2, 5, N, s));
        out = end("to graph again", s);
        SHOW("cudaStreamBeginCaptureToGraph(NULL graph)", cudaStreamBeginCaptureToGraph(s, NULL, NULL, NULL, 0, cudaStreamCaptureModeGlobal));
        SHOW_LAST("after NULL graph");
        show_status("after NULL graph", s);
        cudaStreamEndCapture(s, &out);
        cudaGetLastError();
        replay("to graph", eg, s, 1);
        OK(cudaMemcpy(back, d, N, cudaMemcpyDeviceToHost));
        printf("to graph: d all 4 %d\n", ct_all_bytes(back, N, 4));
        OK(cudaMemcpy(back, d2, N, cudaMemcpyDeviceToHost));
        printf("to graph: d2 all 5 %d\n", ct_all_bytes(back, N, 5));
        cudaGraphDestroy(other);
    }

    /* ---- the per-thread default stream ---- */
    OK(SHOW("cudaStreamBeginCapture(cudaStreamPerThread)", cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal)));
    show_status("per-thread: cudaStreamPerThread", cudaStreamPerThread);
    show_status("per-thread: 0", 0);
    {
        enum cudaStreamCaptureStatus cs = (enum cudaStreamCaptureStatus)77;
        SHOW("cudaStreamIsCapturing_ptsz(0)", cudaStreamIsCapturing_ptsz(0, &cs));
        SHOWI("status", cs);
    }
    SHOW("memset on cudaStreamPerThread", cudaMemsetAsync(d, 6, N, cudaStreamPerThread));
    SHOW("memset _ptsz on 0", cudaMemsetAsync_ptsz(d2, 7, N, 0));
    g = end("per-thread", cudaStreamPerThread);
    if (g) {
        cudaGraphExec_t e = NULL;
        OK(cudaGraphInstantiate(&e, g, 0));
        OK(SHOW("cudaGraphLaunch_ptsz(0)", cudaGraphLaunch_ptsz(e, 0)));
        OK(cudaStreamSynchronize(cudaStreamPerThread));
        OK(cudaMemcpy(back, d2, N, cudaMemcpyDeviceToHost));
        printf("per-thread: d2 all 7 %d\n", ct_all_bytes(back, N, 7));
        OK(cudaGraphExecDestroy(e));
        OK(cudaGraphDestroy(g));
    }
    OK(SHOW("cudaStreamBeginCapture_ptsz(0)", cudaStreamBeginCapture_ptsz(0, cudaStreamCaptureModeRelaxed)));
    show_status("ptsz capture: cudaStreamPerThread", cudaStreamPerThread);
    show_status("ptsz capture: 0 (legacy)", 0);
    SHOW("memset _ptsz on 0, relaxed", cudaMemsetAsync_ptsz(d, 8, N, 0));
    {
        enum cudaStreamCaptureStatus cs = (enum cudaStreamCaptureStatus)77;
        unsigned long long id = 0;
#if CUDART_VERSION >= 13000
        size_t nd = 999;
        const cudaGraphNode_t *deps = NULL;
        SHOW("cudaStreamGetCaptureInfo_ptsz(0)", cudaStreamGetCaptureInfo_ptsz(0, &cs, &id, NULL, &deps, NULL, &nd));
        printf("ptsz info: status %d, id non-zero %d, dependencies %llu\n", (int)cs, id != 0, (unsigned long long)nd);
        SHOW("cudaStreamUpdateCaptureDependencies_ptsz(0, keep)",
             cudaStreamUpdateCaptureDependencies_ptsz(0, NULL, NULL, 0, cudaStreamAddCaptureDependencies));
#else
        SHOW("cudaStreamGetCaptureInfo_ptsz(0) (10.1 form)", cudaStreamGetCaptureInfo_ptsz(0, &cs, &id));
        printf("ptsz info: status %d, id non-zero %d\n", (int)cs, id != 0);
        size_t nd = 999;
        const cudaGraphNode_t *deps = NULL;
        SHOW("cudaStreamGetCaptureInfo_v2_ptsz(0)", cudaStreamGetCaptureInfo_v2_ptsz(0, &cs, &id, NULL, &deps, &nd));
        printf("v2_ptsz info: status %d, dependencies %llu\n", (int)cs, (unsigned long long)nd);
        nd = 999;
        SHOW("cudaStreamGetCaptureInfo_v3_ptsz(0)", cudaStreamGetCaptureInfo_v3_ptsz(0, &cs, &id, NULL, &deps, NULL, &nd));
        printf("v3_ptsz info: status %d, dependencies %llu\n", (int)cs, (unsigned long long)nd);
        SHOW("cudaStreamUpdateCaptureDependencies_ptsz(0, keep)",
             cudaStreamUpdateCaptureDependencies_ptsz(0, NULL, 0, cudaStreamAddCaptureDependencies));
        SHOW("cudaStreamUpdateCaptureDependencies_v2_ptsz(0, keep)",
             cudaStreamUpdateCaptureDependencies_v2_ptsz(0, NULL, NULL, 0, cudaStreamAddCaptureDependencies));
#endif
    }
    {
        cudaGraph_t pg = NULL;
        SHOW("cudaStreamEndCapture_ptsz(0)", cudaStreamEndCapture_ptsz(0, &pg));
        if (pg) gu_show("ptsz capture", pg);
        if (pg) cudaGraphDestroy(pg);
        cudaGraph_t eg = NULL;
        OK(cudaGraphCreate(&eg, 0));
        OK(SHOW("cudaStreamBeginCaptureToGraph_ptsz(0)",
                cudaStreamBeginCaptureToGraph_ptsz(0, eg, NULL, NULL, 0, cudaStreamCaptureModeGlobal)));
        SHOW("memset on cudaStreamPerThread, to graph", cudaMemsetAsync(d, 9, N, cudaStreamPerThread));
        SHOW("cudaStreamEndCapture_ptsz(0) to graph", cudaStreamEndCapture_ptsz(0, &pg));
        printf("ptsz to graph: same graph %d\n", pg == eg);
        gu_show("ptsz to graph", eg);
        cudaGraphDestroy(eg);
    }

    /* ---- the thread's capture mode ---- */
    {
        enum cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
        OK(SHOW("exchange to relaxed", cudaThreadExchangeStreamCaptureMode(&m)));
        SHOWI("previous mode", m);
        m = cudaStreamCaptureModeThreadLocal;
        OK(SHOW("exchange to thread-local", cudaThreadExchangeStreamCaptureMode(&m)));
        SHOWI("previous mode", m);
        m = (enum cudaStreamCaptureMode)5;
        SHOW("exchange to mode 5", cudaThreadExchangeStreamCaptureMode(&m));
        SHOWI("mode after refused exchange", m);
        SHOW_LAST("after bad mode");
        /* No NULL mode: NVIDIA's runtime crashes on cudaThreadExchangeStreamCaptureMode(NULL). */
        m = cudaStreamCaptureModeGlobal;
        OK(SHOW("exchange back to global", cudaThreadExchangeStreamCaptureMode(&m)));
        SHOWI("previous mode", m);
    }

    /* ---- copies of pageable memory, synchronous calls on another stream ---- */
    {
        static unsigned char pageable[N];
        for (int i = 0; i < N; i++) pageable[i] = (unsigned char)(255 - i);
        OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        SHOW("copy H2D pageable in capture", cudaMemcpyAsync(d, pageable, N, cudaMemcpyHostToDevice, s));
        show_status("after pageable H2D", s);
        SHOW("copy D2H pageable in capture", cudaMemcpyAsync(back, d, N, cudaMemcpyDeviceToHost, s));
        show_status("after pageable D2H", s);
        g = end("pageable", s);
        if (g) {
            memset(back, 0, N);
            replay("pageable", g, s, 1);
            int ok = 1;
            for (int i = 0; i < N; i++) ok &= back[i] == (unsigned char)(255 - i);
            SHOWI("pageable round trip", ok);
        }
        OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        OK(cudaMemsetAsync(d, 1, N, s));
        SHOW("synchronous copy on a non-blocking stream's device", cudaMemcpyAsync(d2, d, N, cudaMemcpyDeviceToDevice, nb));
        SHOW("cudaStreamSynchronize(nb)", cudaStreamSynchronize(nb));
        show_status("after work on an unrelated non-blocking stream", s);
        g = end("unrelated stream work", s);
        if (g) cudaGraphDestroy(g);
    }

    /* ---- the basic rules that end a capture ---- */
    {
        void *p = NULL;
        OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        OK(cudaMemsetAsync(d, 1, N, s));
        SHOW("rule: cudaMalloc in global capture", cudaMalloc(&p, 256));
        SHOW_LAST("rule: cudaMalloc");
        show_status("rule: after cudaMalloc", s);
        SHOW("rule: work after invalidation", cudaMemsetAsync(d, 1, N, s));
        SHOW_LAST("rule: work after invalidation");
        end("rule: cudaMalloc", s);
        if (p) cudaFree(p);
        p = NULL;

        OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        OK(cudaMemsetAsync(d, 1, N, s));
        SHOW("rule: synchronous copy on the legacy stream", cudaMemcpy(back, d2, 16, cudaMemcpyDeviceToHost));
        SHOW_LAST("rule: legacy copy");
        show_status("rule: after legacy copy", s);
        end("rule: legacy copy", s);

        OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        OK(cudaMemsetAsync(d, 1, N, s));
        SHOW("rule: cudaStreamSynchronize(capturing)", cudaStreamSynchronize(s));
        SHOW_LAST("rule: synchronize");
        show_status("rule: after synchronize", s);
        end("rule: synchronize", s);

        OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
        OK(cudaMemsetAsync(d, 1, N, s));
        SHOW("rule: cudaMalloc in relaxed capture", cudaMalloc(&p, 256));
        show_status("rule: after relaxed cudaMalloc", s);
        g = end("rule: relaxed cudaMalloc", s);
        if (g) cudaGraphDestroy(g);
        if (p) cudaFree(p);
    }
    OK(cudaDeviceSynchronize());

    ct_destroy_events(ev, ev2, NULL);
    ct_free_host(pinned, pout, NULL);
    ct_free_device(d, d2, NULL);
    ct_destroy_streams(s, s3, nb, NULL);
    DONE();
}
