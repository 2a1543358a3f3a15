/* ctest: abi13
 * CUDA 13.5's graph identity and parameter queries: graph and executable graph ids, a node's
 * containing graph (child graphs included), local id and tools id, checked against the DOT
 * output; cudaGraphNodeGetParams for each node type the runtime can make without a kernel;
 * cudaGraphConditionalHandleCreate_v2 with and without an execution context; recapturing a
 * stream into an existing graph (cudaStreamBeginRecaptureToGraph) with and without a
 * callback. NULL pointers, NULL handles and bad flags for each. Ids are printed relative to
 * each other, never as handles. */
#include "ctest.h"
#include "graph_util.h"

cudaError_t cudaStreamBeginRecaptureToGraph_ptsz(cudaStream_t stream, enum cudaStreamCaptureMode mode,
                                                 cudaGraph_t graph,
                                                 struct cudaGraphRecaptureCallbackData *callbackData);

static void host_fn(void *p) { (void)p; }

static int callbacks, cb_status[8];
static cudaError_t cb_result = cudaSuccess;
static cudaError_t CUDART_CB recapture_cb(void *data, cudaGraphNode_t node,
                                          const struct cudaGraphNodeParams *orig,
                                          const struct cudaGraphNodeParams *re,
                                          enum cudaGraphRecaptureStatus status) {
    (void)node;
    if (callbacks < 8) cb_status[callbacks] = (int)status;
    callbacks++;
    printf("recapture callback: data %s, node type %d/%d, memset value %u -> %u, status %d\n",
           data == (void *)&callbacks ? "as given" : "other", (int)orig->type, (int)re->type,
           orig->type == cudaGraphNodeTypeMemset ? orig->memset.value : 0,
           re->type == cudaGraphNodeTypeMemset ? re->memset.value : 0, (int)status);
    return cb_result;
}

/* Whether the DOT output of `g` names node `local` of graph `gid` as "graph_<gid>_node_<local>". */
static int dot_names(cudaGraph_t g, unsigned gid, unsigned local) {
    char path[64], want[64], line[512];
    snprintf(path, sizeof path, "/tmp/graph_ids_%d.dot", (int)getpid());
    if (cudaGraphDebugDotPrint(g, path, 0) != cudaSuccess) return -1;
    snprintf(want, sizeof want, "graph_%u_node_%u", gid, local);
    FILE *f = fopen(path, "r");
    int found = 0;
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, want)) found = 1;
    if (f) fclose(f);
    unlink(path);
    return found;
}

static void memset_params(struct cudaMemsetParams *m, void *dst, unsigned value) {
    memset(m, 0, sizeof *m);
    m->dst = dst;
    m->value = value;
    m->elementSize = 1;
    m->width = 256;
    m->height = 1;
    m->pitch = 0;
}

int main(void) {
    void *d = NULL;
    OK(cudaMalloc(&d, 1 << 16));
    cudaGraph_t g1 = NULL, g2 = NULL, child = NULL;
    OK(cudaGraphCreate(&g1, 0));
    OK(cudaGraphCreate(&g2, 0));
    OK(cudaGraphCreate(&child, 0));

    /* Graph ids. */
    unsigned id1 = 0, id2 = 0, idc = 0;
    SHOW("graph 1 id", cudaGraphGetId(g1, &id1));
    SHOW("graph 2 id", cudaGraphGetId(g2, &id2));
    SHOW("child graph id", cudaGraphGetId(child, &idc));
    SHOWI("graph 2 id - graph 1 id", (long long)id2 - (long long)id1);
    SHOWI("child id - graph 1 id", (long long)idc - (long long)id1);
    SHOW("graph id NULL graph", cudaGraphGetId(NULL, &id1));
    SHOW("graph id NULL out", cudaGraphGetId(g1, NULL));
    SHOW_LAST("graph ids");

    /* Nodes of each kind in g1, one in the child, the child in g1. */
    cudaGraphNode_t n_empty = NULL, n_memset = NULL, n_host = NULL, n_rec = NULL, n_child = NULL,
                    n_in_child = NULL, n_alloc = NULL, n_free = NULL;
    struct cudaMemsetParams mp;
    memset_params(&mp, d, 7);
    OK(cudaGraphAddEmptyNode(&n_empty, g1, NULL, 0));
    OK(cudaGraphAddMemsetNode(&n_memset, g1, &n_empty, 1, &mp));
    struct cudaHostNodeParams hp = {host_fn, &callbacks};
    OK(cudaGraphAddHostNode(&n_host, g1, &n_memset, 1, &hp));
    cudaEvent_t ev = NULL;
    OK(cudaEventCreate(&ev));
    OK(cudaGraphAddEventRecordNode(&n_rec, g1, &n_host, 1, ev));
    OK(cudaGraphAddEmptyNode(&n_in_child, child, NULL, 0));
    OK(cudaGraphAddChildGraphNode(&n_child, g1, &n_rec, 1, child));
    struct cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = 1 << 20;
    OK(cudaGraphAddMemAllocNode(&n_alloc, g1, &n_child, 1, &ap));
    OK(cudaGraphAddMemFreeNode(&n_free, g1, &n_alloc, 1, ap.dptr));

    cudaGraphNode_t nodes[] = {n_empty, n_memset, n_host, n_rec, n_child, n_alloc, n_free};
    const char *names[] = {"empty", "memset", "host", "event record", "child", "alloc", "free"};
    unsigned long long tools[7] = {0};
    for (int i = 0; i < 7; i++) {
        char label[96];
        cudaGraph_t in = NULL;
        unsigned local = 99;
        snprintf(label, sizeof label, "%s node containing graph", names[i]);
        SHOW(label, cudaGraphNodeGetContainingGraph(nodes[i], &in));
        printf("%s node is in: %s\n", names[i], in == g1 ? "graph 1" : in == NULL ? "NULL" : "other");
        snprintf(label, sizeof label, "%s node local id", names[i]);
        cudaError_t e = cudaGraphNodeGetLocalId(nodes[i], &local);
        printf("%s: %s, %u\n", label, cudaGetErrorName(e), local);
        if (e == cudaSuccess) printf("%s node named in DOT: %d\n", names[i], dot_names(g1, id1, local));
        snprintf(label, sizeof label, "%s node tools id", names[i]);
        SHOW(label, cudaGraphNodeGetToolsId(nodes[i], &tools[i]));
    }
    int distinct = 1;
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < i; j++) distinct &= tools[i] != tools[j];
    SHOWI("tools ids distinct", distinct);
    SHOWI("tools id of empty node nonzero", tools[0] != 0);
    cudaGraph_t in = NULL;
    unsigned local = 99;
    SHOW("node in child: containing graph", cudaGraphNodeGetContainingGraph(n_in_child, &in));
    printf("node in child is in: %s\n", in == child ? "the child graph" : in == g1 ? "graph 1" : in ? "other (a copy)" : "NULL");
    cudaGraph_t embedded = NULL;
    OK(cudaGraphChildGraphNodeGetGraph(n_child, &embedded));
    cudaGraphNode_t en[4];
    size_t nen = 4;
    OK(cudaGraphGetNodes(embedded, en, &nen));
    in = NULL;
    SHOW("node in embedded child: containing graph", cudaGraphNodeGetContainingGraph(en[0], &in));
    printf("node in embedded child is in: %s\n", in == embedded ? "the embedded graph" : in == g1 ? "graph 1" : in ? "other" : "NULL");
    unsigned ide = 0;
    SHOW("embedded graph id", cudaGraphGetId(embedded, &ide));
    SHOWI("embedded id differs from graph 1 and child", ide != id1 && ide != idc);
    SHOW("node in child: local id", cudaGraphNodeGetLocalId(n_in_child, &local));
    SHOWU("node in child local id", local);
    SHOW("containing graph NULL node", cudaGraphNodeGetContainingGraph(NULL, &in));
    SHOW("containing graph NULL out", cudaGraphNodeGetContainingGraph(n_empty, NULL));
    SHOW("local id NULL node", cudaGraphNodeGetLocalId(NULL, &local));
    SHOW("local id NULL out", cudaGraphNodeGetLocalId(n_empty, NULL));
    SHOW("tools id NULL node", cudaGraphNodeGetToolsId(NULL, &tools[0]));
    SHOW("tools id NULL out", cudaGraphNodeGetToolsId(n_empty, NULL));
    SHOW_LAST("node ids");

    /* Node parameters. */
    struct cudaGraphNodeParams np;
    for (int i = 0; i < 7; i++) {
        char label[96];
        memset(&np, 0xab, sizeof np);
        snprintf(label, sizeof label, "%s node params", names[i]);
        cudaError_t e = cudaGraphNodeGetParams(nodes[i], &np);
        printf("%s: %s, type %d\n", label, cudaGetErrorName(e), e == cudaSuccess ? (int)np.type : -1);
        if (e != cudaSuccess) continue;
        switch (np.type) {
        case cudaGraphNodeTypeMemset:
            printf("  memset: dst %s, value %u, elementSize %u, width %zu, height %zu\n",
                   np.memset.dst == d ? "as set" : "other", np.memset.value, np.memset.elementSize,
                   np.memset.width, np.memset.height);
            break;
        case cudaGraphNodeTypeHost:
            printf("  host: fn %s, userData %s\n", np.host.fn == host_fn ? "as set" : "other",
                   np.host.userData == &callbacks ? "as set" : "other");
            break;
        case cudaGraphNodeTypeEventRecord:
            printf("  event: %s\n", np.eventRecord.event == ev ? "as set" : "other");
            break;
        case cudaGraphNodeTypeGraph:
            printf("  child graph: %s, ownership %d\n",
                   np.graph.graph == embedded ? "the embedded graph" : np.graph.graph == child ? "the original" : "other",
                   (int)np.graph.ownership);
            break;
        case cudaGraphNodeTypeMemAlloc:
            printf("  alloc: bytesize %zu, dptr %s, location %d/%d\n", np.alloc.bytesize,
                   np.alloc.dptr == ap.dptr ? "as made" : "other", (int)np.alloc.poolProps.location.type,
                   np.alloc.poolProps.location.id);
            break;
        case cudaGraphNodeTypeMemFree:
            printf("  free: dptr %s\n", np.free.dptr == ap.dptr ? "as made" : "other");
            break;
        default:
            break;
        }
    }
    SHOW("node params NULL node", cudaGraphNodeGetParams(NULL, &np));
    SHOW("node params NULL out", cudaGraphNodeGetParams(n_memset, NULL));
    SHOW_LAST("node params");

    /* Executable graph ids. */
    cudaGraphExec_t x1 = NULL, x2 = NULL;
    OK(cudaGraphInstantiate(&x1, g1, 0));
    OK(cudaGraphInstantiate(&x2, child, 0));
    unsigned xi1 = 0, xi2 = 0;
    SHOW("exec 1 id", cudaGraphExecGetId(x1, &xi1));
    SHOW("exec 2 id", cudaGraphExecGetId(x2, &xi2));
    SHOWI("exec ids differ", xi1 != xi2);
    SHOWI("exec 1 id differs from graph ids", xi1 != id1 && xi1 != id2);
    SHOW("exec id NULL exec", cudaGraphExecGetId(NULL, &xi1));
    SHOW("exec id NULL out", cudaGraphExecGetId(x1, NULL));
    SHOW_LAST("exec ids");
    OK(cudaGraphLaunch(x1, 0));
    OK(cudaStreamSynchronize(0));

    /* Conditional handles, _v2. */
    cudaGraphConditionalHandle h = 0;
    cudaExecutionContext_t prim = NULL;
    OK(cudaDeviceGetExecutionCtx(&prim, 0));
    SHOW("cond v2 NULL ctx", cudaGraphConditionalHandleCreate_v2(&h, g2, NULL, 1, cudaGraphCondAssignDefault));
    SHOW("cond v2 device exec ctx", cudaGraphConditionalHandleCreate_v2(&h, g2, prim, 0, 0));
    SHOW("cond v2 NULL out", cudaGraphConditionalHandleCreate_v2(NULL, g2, NULL, 0, 0));
    SHOW("cond v2 NULL graph", cudaGraphConditionalHandleCreate_v2(&h, NULL, NULL, 0, 0));
    SHOW("cond v2 flags 2", cudaGraphConditionalHandleCreate_v2(&h, g2, NULL, 0, 2));
    SHOW_LAST("cond v2");
    struct cudaGraphNodeParams cp;
    memset(&cp, 0, sizeof cp);
    cp.type = cudaGraphNodeTypeConditional;
    cp.conditional.handle = h;
    cp.conditional.type = cudaGraphCondTypeIf;
    cp.conditional.size = 1;
    cudaGraphNode_t n_cond = NULL;
    SHOW("conditional node with v2 handle", cudaGraphAddNode(&n_cond, g2, NULL, NULL, 0, &cp));
    cudaGraphExec_t x3 = NULL;
    SHOW("instantiate graph 2", cudaGraphInstantiate(&x3, g2, 0));
    if (x3) {
        SHOW("launch graph 2", cudaGraphLaunch(x3, 0));
        SHOW("sync graph 2", cudaStreamSynchronize(0));
        OK(cudaGraphExecDestroy(x3));
    }

    /* Recapture into an existing graph. */
    cudaStream_t s = NULL;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraph_t cap = NULL;
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaMemsetAsync(d, 1, 256, s));
    OK(cudaMemsetAsync((char *)d + 256, 2, 256, s));
    OK(cudaStreamEndCapture(s, &cap));
    size_t ncap = 0;
    OK(cudaGraphGetNodes(cap, NULL, &ncap));
    SHOWU("captured nodes", ncap);
    unsigned capid = 0, capid2 = 0;
    SHOW("captured graph id", cudaGraphGetId(cap, &capid));

    struct cudaGraphRecaptureCallbackData cbd = {recapture_cb, &callbacks};
    SHOW("recapture same work, callback", cudaStreamBeginRecaptureToGraph(s, cudaStreamCaptureModeGlobal, cap, &cbd));
    enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    OK(cudaStreamIsCapturing(s, &cs));
    SHOWI("capturing", cs);
    SHOW("recaptured memset 1", cudaMemsetAsync(d, 1, 256, s));
    SHOW("recaptured memset 2", cudaMemsetAsync((char *)d + 256, 2, 256, s));
    cudaGraph_t out = NULL;
    SHOW("end recapture", cudaStreamEndCapture(s, &out));
    printf("end recapture graph: %s\n", out == cap ? "the same graph" : out ? "another" : "NULL");
    SHOWI("callbacks after identical recapture", callbacks);
    if (out == cap) {
        SHOW("captured graph id after recapture", cudaGraphGetId(cap, &capid2));
        SHOWI("graph id kept", capid2 == capid);
    }
    SHOW_LAST("recapture 1");

    callbacks = 0;
    SHOW("recapture changed values", cudaStreamBeginRecaptureToGraph(s, cudaStreamCaptureModeGlobal, cap, &cbd));
    SHOW("recaptured memset 1 value 5", cudaMemsetAsync(d, 5, 256, s));
    SHOW("recaptured memset 2", cudaMemsetAsync((char *)d + 256, 2, 256, s));
    out = NULL;
    SHOW("end recapture", cudaStreamEndCapture(s, &out));
    printf("end recapture graph: %s\n", out == cap ? "the same graph" : out ? "another" : "NULL");
    SHOWI("callbacks after changed recapture", callbacks);
    if (out) {
        cudaGraphNode_t cn[4];
        size_t ncn = 4;
        OK(cudaGraphGetNodes(out, cn, &ncn));
        struct cudaMemsetParams got;
        if (ncn && cudaGraphMemsetNodeGetParams(cn[0], &got) == cudaSuccess) SHOWU("first node value now", got.value);
    }
    SHOW_LAST("recapture 2");

    callbacks = 0;
    cb_result = cudaErrorInvalidValue;
    SHOW("recapture, callback refuses", cudaStreamBeginRecaptureToGraph(s, cudaStreamCaptureModeGlobal, cap, &cbd));
    SHOW("recaptured memset value 9", cudaMemsetAsync(d, 9, 256, s));
    SHOW("recaptured memset 2", cudaMemsetAsync((char *)d + 256, 2, 256, s));
    out = NULL;
    SHOW("end recapture", cudaStreamEndCapture(s, &out));
    SHOWI("callbacks when refused", callbacks);
    SHOW_LAST("recapture 3");
    cb_result = cudaSuccess;

    cudaGraph_t fresh = NULL;
    OK(cudaGraphCreate(&fresh, 0));
    SHOW("recapture into an empty graph, no callback", cudaStreamBeginRecaptureToGraph(s, cudaStreamCaptureModeGlobal, fresh, NULL));
    SHOW("memset into empty graph", cudaMemsetAsync(d, 3, 256, s));
    out = NULL;
    SHOW("end recapture", cudaStreamEndCapture(s, &out));
    printf("end recapture graph: %s\n", out == fresh ? "the same graph" : out ? "another" : "NULL");
    SHOW_LAST("recapture 4");

    SHOW("recapture topology mismatch (two nodes into one)", cudaStreamBeginRecaptureToGraph(s, cudaStreamCaptureModeGlobal, fresh, NULL));
    SHOW("memset 1", cudaMemsetAsync(d, 3, 256, s));
    SHOW("memset 2", cudaMemsetAsync((char *)d + 256, 2, 256, s));
    out = NULL;
    SHOW("end recapture", cudaStreamEndCapture(s, &out));
    SHOW_LAST("recapture 5");

    cudaGraph_t other = NULL;
    OK(cudaGraphCreate(&other, 0));
    SHOW("recapture NULL graph", cudaStreamBeginRecaptureToGraph(s, cudaStreamCaptureModeGlobal, NULL, NULL));
    SHOW_LAST("recapture NULL graph");
    SHOW("recapture legacy stream", cudaStreamBeginRecaptureToGraph(0, cudaStreamCaptureModeGlobal, other, NULL));
    SHOW_LAST("recapture legacy stream");
    SHOW("recapture bad mode", cudaStreamBeginRecaptureToGraph(s, (enum cudaStreamCaptureMode)7, other, NULL));
    SHOW_LAST("recapture bad mode");
    OK(cudaStreamIsCapturing(s, &cs));
    SHOWI("capturing after errors", cs);
    if (cs != cudaStreamCaptureStatusNone) {
        out = NULL;
        SHOW("end stray capture", cudaStreamEndCapture(s, &out));
    }
    SHOW("recapture per-thread stream (_ptsz)",
         cudaStreamBeginRecaptureToGraph_ptsz(cudaStreamPerThread, cudaStreamCaptureModeThreadLocal, other, NULL));
    SHOW("memset on per-thread stream", cudaMemsetAsync(d, 4, 256, cudaStreamPerThread));
    out = NULL;
    SHOW("end per-thread recapture", cudaStreamEndCapture(cudaStreamPerThread, &out));
    SHOW_LAST("recapture ptsz");

    ct_destroy_graph_execs(x1, x2, NULL);
    ct_destroy_graphs(g1, g2, child, cap, fresh, other, NULL);
    OK(cudaStreamDestroy(s));
    OK(cudaEventDestroy(ev));
    OK(cudaFree(d));
    SHOW("device synchronize at the end", cudaDeviceSynchronize());
    DONE();
}
