/* Graph nodes without kernels, in both ABIs: memsets (element sizes 1, 2 and 4, 2D), copies
 * (1D, 3D between pitched memory, into and out of an array), host, child graph, empty, event
 * record and wait, memory allocation and free nodes. A graph of all of them is launched three
 * times and its results checked; every node's parameters are read back, set in the graph (a
 * new instantiation shows them), and set in the executable graph (a relaunch shows them).
 * Then the same kinds of nodes made with cudaGraphAddNode, changed with cudaGraphNodeSetParams
 * and cudaGraphExecNodeSetParams, and a conditional IF node whose body is a memset. */
#include "ctest.h"
#include "graph_node_util.h"

#include <stdint.h>

enum { N = 64, W = 16, H = 4 };

static int host_calls, host_calls2;
static void host_fn(void *p) { host_calls += *(int *)p; }
static void host_fn2(void *p) { host_calls2 += *(int *)p; }

static void show_memset(const char *label, cudaGraphNode_t n, const struct cudaMemsetParams *set, int show_pitch) {
    struct cudaMemsetParams p;
    memset(&p, 0x5a, sizeof p);
    cudaError_t r = cudaGraphMemsetNodeGetParams(n, &p);
    printf("%s get: %s\n", label, cudaGetErrorName(r));
    if (r != cudaSuccess) return;
    printf("%s: dst %s, value 0x%x, elementSize %u, width %llu, height %llu\n", label,
           p.dst == set->dst ? "same as set" : "different", p.value, p.elementSize,
           (unsigned long long)p.width, (unsigned long long)p.height);
    if (show_pitch)
        printf("%s: pitch %llu\n", label, (unsigned long long)p.pitch);
    else
        SAME("  pitch", p.pitch, set->pitch);
}

/* A copy's parameters read back, against the pointers and arrays it was made with. */
static void show_copy(const char *label, cudaGraphNode_t n, const void *src, const void *dst, cudaArray_t sa, cudaArray_t da, size_t spitch, size_t dpitch) {
    struct cudaMemcpy3DParms p;
    memset(&p, 0x5a, sizeof p);
    cudaError_t r = cudaGraphMemcpyNodeGetParams(n, &p);
    printf("%s get: %s\n", label, cudaGetErrorName(r));
    if (r != cudaSuccess) return;
    printf("%s: kind %d, extent (%llu,%llu,%llu), srcPos (%llu,%llu,%llu), dstPos (%llu,%llu,%llu)\n", label,
           (int)p.kind, (unsigned long long)p.extent.width, (unsigned long long)p.extent.height,
           (unsigned long long)p.extent.depth, (unsigned long long)p.srcPos.x, (unsigned long long)p.srcPos.y,
           (unsigned long long)p.srcPos.z, (unsigned long long)p.dstPos.x, (unsigned long long)p.dstPos.y,
           (unsigned long long)p.dstPos.z);
    printf("%s: srcArray %s, srcPtr %s, dstArray %s, dstPtr %s\n", label,
           p.srcArray == sa ? "same as set" : "different", p.srcPtr.ptr == src ? "same as set" : "different",
           p.dstArray == da ? "same as set" : "different", p.dstPtr.ptr == dst ? "same as set" : "different");
    printf("%s: src pitch %s xsize %llu ysize %llu, dst pitch %s xsize %llu ysize %llu\n", label,
           p.srcPtr.pitch == spitch ? "same as set" : "different", (unsigned long long)p.srcPtr.xsize,
           (unsigned long long)p.srcPtr.ysize, p.dstPtr.pitch == dpitch ? "same as set" : "different",
           (unsigned long long)p.dstPtr.xsize, (unsigned long long)p.dstPtr.ysize);
}

static int all_u16(const unsigned short *p, size_t n, unsigned short v) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != v) return 0;
    return 1;
}

int main(void) {
    OK(cudaFree(0));
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    cudaEvent_t ev_pre, ev_pre2, ev_done, ev_done2;
    OK(cudaEventCreate(&ev_pre));
    OK(cudaEventCreate(&ev_pre2));
    OK(cudaEventCreate(&ev_done));
    OK(cudaEventCreate(&ev_done2));

    unsigned char *d8 = NULL;
    unsigned short *d16 = NULL;
    int *d32 = NULL, *dc = NULL, *p2d = NULL;
    size_t pitch = 0;
    OK(cudaMalloc((void **)&d8, N));
    OK(cudaMalloc((void **)&d16, N * 2));
    OK(cudaMalloc((void **)&d32, N * 4));
    OK(cudaMalloc((void **)&dc, N * 4));
    OK(cudaMallocPitch((void **)&p2d, &pitch, W * 4, H));
    cudaArray_t arr = NULL;
    struct cudaChannelFormatDesc desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindSigned);
    OK(cudaMallocArray(&arr, &desc, W, H, 0));

    /* Pinned host memory for the copies' host ends. */
    unsigned char *h8 = NULL;
    unsigned short *h16 = NULL;
    int *h32 = NULL, *h32b = NULL, *h2d = NULL, *harr = NULL, *hc = NULL, *halloc = NULL;
    OK(cudaMallocHost((void **)&h8, N));
    OK(cudaMallocHost((void **)&h16, N * 2));
    OK(cudaMallocHost((void **)&h32, N * 4));
    OK(cudaMallocHost((void **)&h32b, N * 4));
    OK(cudaMallocHost((void **)&h2d, W * H * 4));
    OK(cudaMallocHost((void **)&harr, W * H * 4));
    OK(cudaMallocHost((void **)&hc, N * 4));
    OK(cudaMallocHost((void **)&halloc, N * 4));

    /* ---- one graph with every kind of node ---- */
    cudaGraph_t g = gn_graph();
    cudaGraphNode_t ewait, ms8, ms16, ms32, ms2d, cp8, cp16, cp32, cp2d, cptoarr, cpfromarr, host, child, alloc,
        msalloc, cpalloc, freen, join, erec;
    SHOW("add event wait", cudaGraphAddEventWaitNode(&ewait, g, NULL, 0, ev_pre));
    struct cudaMemsetParams m8 = gn_mset(d8, 0, 0xab, 1, N, 1);
    struct cudaMemsetParams m16 = gn_mset(d16, 0, 0xbeef, 2, N, 1);
    struct cudaMemsetParams m32 = gn_mset(d32, 0, 0x01020304, 4, N, 1);
    struct cudaMemsetParams m2d = gn_mset(p2d, pitch, 7, 4, W, H);
    SHOW("add memset 1", cudaGraphAddMemsetNode(&ms8, g, NULL, 0, &m8));
    SHOW("add memset 2", cudaGraphAddMemsetNode(&ms16, g, NULL, 0, &m16));
    SHOW("add memset 4", cudaGraphAddMemsetNode(&ms32, g, &ewait, 1, &m32));
    SHOW("add memset 2D", cudaGraphAddMemsetNode(&ms2d, g, NULL, 0, &m2d));
    SHOW("add copy 1D bytes", cudaGraphAddMemcpyNode1D(&cp8, g, &ms8, 1, h8, d8, N, cudaMemcpyDeviceToHost));
    SHOW("add copy 1D shorts", cudaGraphAddMemcpyNode1D(&cp16, g, &ms16, 1, h16, d16, N * 2, cudaMemcpyDefault));
    SHOW("add copy 1D ints", cudaGraphAddMemcpyNode1D(&cp32, g, &ms32, 1, h32, d32, N * 4, cudaMemcpyDeviceToHost));
    struct cudaMemcpy3DParms c2d = gn_copy_ptr(h2d, W * 4, p2d, pitch, W * 4, H, cudaMemcpyDeviceToHost);
    SHOW("add copy 3D", cudaGraphAddMemcpyNode(&cp2d, g, &ms2d, 1, &c2d));
    struct cudaMemcpy3DParms ctoarr;
    memset(&ctoarr, 0, sizeof ctoarr);
    ctoarr.srcPtr = make_cudaPitchedPtr(p2d, pitch, W, H);
    ctoarr.dstArray = arr;
    ctoarr.extent = make_cudaExtent(W, H, 1);
    ctoarr.kind = cudaMemcpyDeviceToDevice;
    SHOW("add copy to array", cudaGraphAddMemcpyNode(&cptoarr, g, &ms2d, 1, &ctoarr));
    struct cudaMemcpy3DParms cfromarr;
    memset(&cfromarr, 0, sizeof cfromarr);
    cfromarr.srcArray = arr;
    cfromarr.srcPos = make_cudaPos(1, 1, 0);
    cfromarr.dstPtr = make_cudaPitchedPtr(harr, W * 4, W, H);
    cfromarr.extent = make_cudaExtent(W - 1, H - 1, 1);
    cfromarr.kind = cudaMemcpyDeviceToHost;
    SHOW("add copy from array", cudaGraphAddMemcpyNode(&cpfromarr, g, &cptoarr, 1, &cfromarr));
    int one = 1, ten = 10;
    struct cudaHostNodeParams hp = {host_fn, &one};
    SHOW("add host", cudaGraphAddHostNode(&host, g, &cp32, 1, &hp));

    cudaGraph_t cg = gn_graph();
    cudaGraphNode_t cms, ccp;
    struct cudaMemsetParams mc = gn_mset(dc, 0, 5, 4, N, 1);
    OK(cudaGraphAddMemsetNode(&cms, cg, NULL, 0, &mc));
    OK(cudaGraphAddMemcpyNode1D(&ccp, cg, &cms, 1, hc, dc, N * 4, cudaMemcpyDeviceToHost));
    SHOW("add child graph", cudaGraphAddChildGraphNode(&child, g, NULL, 0, cg));

    struct cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = N * 4;
    SHOW("add mem alloc", cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
    CHECK(ap.dptr != NULL);
    void *aptr = ap.dptr;
    struct cudaMemsetParams malloc_ms = gn_mset(aptr, 0, 42, 4, N, 1);
    SHOW("add memset of the allocation", cudaGraphAddMemsetNode(&msalloc, g, &alloc, 1, &malloc_ms));
    SHOW("add copy of the allocation", cudaGraphAddMemcpyNode1D(&cpalloc, g, &msalloc, 1, halloc, aptr, N * 4, cudaMemcpyDeviceToHost));
    SHOW("add mem free", cudaGraphAddMemFreeNode(&freen, g, &cpalloc, 1, aptr));
    cudaGraphNode_t leaves[] = {cp8, cp16, host, cp2d, cpfromarr, child, freen};
    SHOW("add empty", cudaGraphAddEmptyNode(&join, g, leaves, sizeof leaves / sizeof leaves[0]));
    SHOW("add event record", cudaGraphAddEventRecordNode(&erec, g, &join, 1, ev_done));
    SHOWU("nodes", gn_count(g));

    /* Node types, as the driver reports them. */
    printf("types: wait %d memset %d copy %d host %d child %d alloc %d free %d empty %d record %d\n", gn_type(ewait),
           gn_type(ms8), gn_type(cp2d), gn_type(host), gn_type(child), gn_type(alloc), gn_type(freen),
           gn_type(join), gn_type(erec));

    cudaGraphExec_t e = gn_instantiate(g);
    for (int run = 1; run <= 3; run++) {
        memset(h8, 0, N);
        memset(h16, 0, N * 2);
        memset(h32, 0, N * 4);
        memset(h2d, 0, W * H * 4);
        memset(harr, 0, W * H * 4);
        memset(hc, 0, N * 4);
        memset(halloc, 0, N * 4);
        OK(cudaEventRecord(ev_pre, s));
        gn_launch(e, s);
        CHECK(ct_all_bytes(h8, N, 0xab));
        CHECK(all_u16(h16, N, 0xbeef));
        CHECK(ct_all_int(h32, N, 0x01020304));
        CHECK(ct_all_int(h2d, W * H, 7));
        CHECK(ct_all_int(hc, N, 5));
        CHECK(ct_all_int(halloc, N, 42));
        CHECK(host_calls == run);
        SHOW("event record node done", cudaEventQuery(ev_done));
    }
    printf("run 3: h8[63]=0x%x h16[63]=0x%x h32[63]=0x%x h2d[63]=%d hc[63]=%d halloc[63]=%d host calls %d\n", h8[63],
           h16[63], h32[63], h2d[63], hc[63], halloc[63], host_calls);
    /* The array copy: rows 1..3, columns 1..15 of the array, to the start of each row. */
    printf("from array: harr[0]=%d harr[14]=%d harr[15]=%d harr[%d]=%d\n", harr[0], harr[14], harr[15], 2 * W + 3,
           harr[2 * W + 3]);
    CHECK(harr[0] == 7 && harr[14] == 7 && harr[15] == 0);

    /* ---- parameters read back ---- */
    show_memset("memset 1", ms8, &m8, 1);
    show_memset("memset 2", ms16, &m16, 1);
    show_memset("memset 4", ms32, &m32, 1);
    show_memset("memset 2D", ms2d, &m2d, 0);
    show_copy("copy 1D bytes", cp8, d8, h8, NULL, NULL, N, N);
    show_copy("copy 1D default", cp16, d16, h16, NULL, NULL, N * 2, N * 2);
    show_copy("copy 3D", cp2d, p2d, h2d, NULL, NULL, pitch, W * 4);
    show_copy("copy to array", cptoarr, p2d, NULL, NULL, arr, pitch, 0);
    show_copy("copy from array", cpfromarr, NULL, harr, arr, NULL, 0, W * 4);
    struct cudaHostNodeParams hb;
    memset(&hb, 0, sizeof hb);
    SHOW("host get", cudaGraphHostNodeGetParams(host, &hb));
    SAME("host fn", hb.fn, hp.fn);
    SAME("host userData", hb.userData, hp.userData);
    cudaGraph_t cgb = NULL;
    SHOW("child get graph", cudaGraphChildGraphNodeGetGraph(child, &cgb));
    SAME("child graph", cgb, cg);
    if (cgb) SHOWU("child graph nodes", gn_count(cgb));
    cudaEvent_t evb = NULL;
    SHOW("event record get", cudaGraphEventRecordNodeGetEvent(erec, &evb));
    SAME("event record event", evb, ev_done);
    evb = NULL;
    SHOW("event wait get", cudaGraphEventWaitNodeGetEvent(ewait, &evb));
    SAME("event wait event", evb, ev_pre);
    struct cudaMemAllocNodeParams apb;
    memset(&apb, 0x5a, sizeof apb);
    SHOW("mem alloc get", cudaGraphMemAllocNodeGetParams(alloc, &apb));
    printf("mem alloc: allocType %d handleTypes %d location (%d,%d) maxSize %llu usage %d accessDescCount %llu bytesize %llu\n",
           (int)apb.poolProps.allocType, (int)apb.poolProps.handleTypes, (int)apb.poolProps.location.type,
           apb.poolProps.location.id, (unsigned long long)apb.poolProps.maxSize, apb.poolProps.usage,
           (unsigned long long)apb.accessDescCount, (unsigned long long)apb.bytesize);
    SAME("mem alloc dptr", apb.dptr, aptr);
    void *fb = NULL;
    SHOW("mem free get", cudaGraphMemFreeNodeGetParams(freen, &fb));
    SAME("mem free dptr", fb, aptr);

    /* ---- parameters set in the executable graph: a relaunch shows them. (A graph with
     * allocation nodes has one executable graph at a time: this one goes first.) ---- */
    struct cudaMemsetParams m32c = gn_mset(d32, 0, 0x11, 4, N, 1);
    SHOW("exec memset", cudaGraphExecMemsetNodeSetParams(e, ms32, &m32c));
    struct cudaMemsetParams m16c = gn_mset(d16, 0, 0x2222, 2, N / 4, 1);
    SHOW("exec memset 2", cudaGraphExecMemsetNodeSetParams(e, ms16, &m16c));
    SHOW("exec copy 1D", cudaGraphExecMemcpyNodeSetParams1D(e, cp32, h32b, d32, N * 4, cudaMemcpyDeviceToHost));
    struct cudaMemcpy3DParms c2dc = gn_copy_ptr(h2d, W * 4, p2d, pitch, W * 4, 2, cudaMemcpyDeviceToHost);
    SHOW("exec copy 3D", cudaGraphExecMemcpyNodeSetParams(e, cp2d, &c2dc));
    struct cudaHostNodeParams hp3 = {host_fn2, &one};
    SHOW("exec host", cudaGraphExecHostNodeSetParams(e, host, &hp3));
    cudaGraph_t cg2 = gn_graph();
    cudaGraphNode_t cms2, ccp2;
    struct cudaMemsetParams mc2 = gn_mset(dc, 0, 6, 4, N, 1);
    OK(cudaGraphAddMemsetNode(&cms2, cg2, NULL, 0, &mc2));
    OK(cudaGraphAddMemcpyNode1D(&ccp2, cg2, &cms2, 1, hc, dc, N * 4, cudaMemcpyDeviceToHost));
    SHOW("exec child graph", cudaGraphExecChildGraphNodeSetParams(e, child, cg2));
    SHOW("exec event record", cudaGraphExecEventRecordNodeSetEvent(e, erec, ev_done2));
    SHOW("exec event wait", cudaGraphExecEventWaitNodeSetEvent(e, ewait, ev_pre2));
    memset(h32b, 0, N * 4);
    memset(h16, 0, N * 2);
    memset(h2d, 0, W * H * 4);
    memset(hc, 0, N * 4);
    int before = host_calls, before2 = host_calls2;
    OK(cudaEventRecord(ev_pre2, s));
    gn_launch(e, s);
    printf("relaunch: h32b[63]=0x%x h16[15]=0x%x h16[16]=0x%x h2d[%d]=%d h2d[%d]=%d hc[0]=%d host calls +%d +%d\n",
           h32b[63], h16[15], h16[16], W, h2d[W], 2 * W, h2d[2 * W], hc[0], host_calls - before, host_calls2 - before2);
    CHECK(h32b[63] == 0x11 && hc[0] == 6 && host_calls2 - before2 == 1);
    SHOW("event record node done, exec event", cudaEventQuery(ev_done2));
    gn_exec_destroy(e);
    gn_destroy(cg2);

    /* ---- parameters set in the graph: a new instantiation shows them ---- */
    struct cudaMemsetParams m8b = gn_mset(d8, 0, 0xcd, 1, N / 2, 1);
    SHOW("memset set", cudaGraphMemsetNodeSetParams(ms8, &m8b));
    show_memset("memset 1 after set", ms8, &m8b, 1);
    SHOW("copy set 1D", cudaGraphMemcpyNodeSetParams1D(cp32, h32b, d32, N * 2, cudaMemcpyDeviceToHost));
    show_copy("copy after set 1D", cp32, d32, h32b, NULL, NULL, N * 2, N * 2);
    struct cudaMemcpy3DParms c2db = gn_copy_ptr(h2d, W * 4, p2d, pitch, W * 2, H - 1, cudaMemcpyDefault);
    SHOW("copy set 3D", cudaGraphMemcpyNodeSetParams(cp2d, &c2db));
    show_copy("copy 3D after set", cp2d, p2d, h2d, NULL, NULL, pitch, W * 4);
    struct cudaHostNodeParams hp2 = {host_fn2, &ten};
    SHOW("host set", cudaGraphHostNodeSetParams(host, &hp2));
    memset(&hb, 0, sizeof hb);
    OK(cudaGraphHostNodeGetParams(host, &hb));
    SAME("host fn after set", hb.fn, hp2.fn);
    SHOW("event record set", cudaGraphEventRecordNodeSetEvent(erec, ev_done2));
    OK(cudaGraphEventRecordNodeGetEvent(erec, &evb));
    SAME("event record after set", evb, ev_done2);
    SHOW("event wait set", cudaGraphEventWaitNodeSetEvent(ewait, ev_pre2));
    OK(cudaGraphEventWaitNodeGetEvent(ewait, &evb));
    SAME("event wait after set", evb, ev_pre2);
    int before2b = host_calls2;
    cudaGraphExec_t e2 = gn_instantiate(g);
    memset(h8, 0, N);
    memset(h32b, 0, N * 4);
    memset(h2d, 0, W * H * 4);
    OK(cudaEventRecord(ev_pre2, s));
    gn_launch(e2, s);
    printf("new instantiation: h8[0]=0x%x h8[63]=0x%x h32b[31]=0x%x h32b[32]=%d h2d[7]=%d h2d[8]=%d h2d[%d]=%d host_fn2 calls +%d\n",
           h8[0], h8[63], h32b[31], h32b[32], h2d[7], h2d[8], 3 * W, h2d[3 * W], host_calls2 - before2b);
    CHECK(h32b[31] == 0x01020304 && h32b[32] == 0 && h2d[7] == 7 && h2d[8] == 0 && host_calls2 - before2b == 10);
    SHOW("event record node done, new event", cudaEventQuery(ev_done2));
    gn_exec_destroy(e2);

    /* ---- the same kinds of nodes through cudaGraphAddNode ---- */
    cudaGraph_t g3 = gn_graph();
    cudaGraphNode_t n_ms, n_cp, n_host, n_child, n_empty, n_rec, n_wait, n_alloc, n_free, n_cond;
    struct cudaGraphNodeParams np;
#if CUDART_VERSION >= 13000
#define ADD_NODE(pn, gr, deps, n, p) cudaGraphAddNode((pn), (gr), (deps), NULL, (n), (p))
#else
#define ADD_NODE(pn, gr, deps, n, p) cudaGraphAddNode((pn), (gr), (deps), (n), (p))
#endif
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeWaitEvent;
    np.eventWait.event = ev_pre;
    SHOW("AddNode event wait", ADD_NODE(&n_wait, g3, NULL, 0, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemset;
    np.memset.dst = d32;
    np.memset.value = 0x33;
    np.memset.elementSize = 4;
    np.memset.width = N;
    np.memset.height = 1;
    SHOW("AddNode memset", ADD_NODE(&n_ms, g3, &n_wait, 1, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemcpy;
    np.memcpy.copyParams = gn_copy_ptr(h32, N * 4, d32, N * 4, N * 4, 1, cudaMemcpyDeviceToHost);
    SHOW("AddNode memcpy", ADD_NODE(&n_cp, g3, &n_ms, 1, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeHost;
    np.host.fn = host_fn;
    np.host.userData = &ten;
    SHOW("AddNode host", ADD_NODE(&n_host, g3, &n_cp, 1, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeGraph;
    np.graph.graph = cg;
    SHOW("AddNode child graph", ADD_NODE(&n_child, g3, NULL, 0, &np));
    printf("AddNode child graph: graph %s\n", np.graph.graph == cg ? "same as set" : "different");
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemAlloc;
    np.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
    np.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
    np.alloc.bytesize = N * 4;
    SHOW("AddNode mem alloc", ADD_NODE(&n_alloc, g3, NULL, 0, &np));
    printf("AddNode mem alloc: dptr set %d\n", np.alloc.dptr != NULL);
    void *aptr3 = np.alloc.dptr;
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemFree;
    np.free.dptr = aptr3;
    SHOW("AddNode mem free", ADD_NODE(&n_free, g3, &n_alloc, 1, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeEmpty;
    cudaGraphNode_t joins[] = {n_host, n_child, n_free};
    SHOW("AddNode empty", ADD_NODE(&n_empty, g3, joins, 3, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeEventRecord;
    np.eventRecord.event = ev_done;
    SHOW("AddNode event record", ADD_NODE(&n_rec, g3, &n_empty, 1, &np));
#if CUDART_VERSION >= 13000
    {
        cudaGraphNode_t n_e2;
        cudaGraphEdgeData ed;
        memset(&ed, 0, sizeof ed);
        memset(&np, 0, sizeof np);
        np.type = cudaGraphNodeTypeEmpty;
        SHOW("AddNode with edge data", cudaGraphAddNode(&n_e2, g3, &n_rec, &ed, 1, &np));
        ed.type = cudaGraphDependencyTypeProgrammatic;
        SHOW("AddNode programmatic edge between non-kernels", cudaGraphAddNode(&n_e2, g3, &n_rec, &ed, 1, &np));
        SHOW_LAST("programmatic edge");
    }
#else
    {
        cudaGraphNode_t n_e2;
        cudaGraphEdgeData ed;
        memset(&ed, 0, sizeof ed);
        memset(&np, 0, sizeof np);
        np.type = cudaGraphNodeTypeEmpty;
        SHOW("AddNode with edge data", cudaGraphAddNode_v2(&n_e2, g3, &n_rec, &ed, 1, &np));
        ed.type = cudaGraphDependencyTypeProgrammatic;
        SHOW("AddNode programmatic edge between non-kernels", cudaGraphAddNode_v2(&n_e2, g3, &n_rec, &ed, 1, &np));
        SHOW_LAST("programmatic edge");
    }
#endif
    /* A conditional IF node, true by default at each launch, whose body is a memset. */
    cudaGraphConditionalHandle ch = gn_cond(g3, 1, cudaGraphCondAssignDefault);
    np = gn_conditional(ch, cudaGraphCondTypeIf, 1);
    SHOW("AddNode conditional", ADD_NODE(&n_cond, g3, NULL, 0, &np));
    CHECK(np.conditional.phGraph_out != NULL);
    cudaGraphNode_t body_ms;
    if (np.conditional.phGraph_out) {
        cudaGraph_t body = np.conditional.phGraph_out[0];
        struct cudaMemsetParams mb = gn_mset(d8, 0, 0x77, 1, N, 1);
        SHOW("memset in the IF body", cudaGraphAddMemsetNode(&body_ms, body, NULL, 0, &mb));
        SHOWU("IF body nodes", gn_count(body));
    }
    printf("AddNode types: memset %d memcpy %d host %d child %d alloc %d free %d empty %d record %d wait %d cond %d\n",
           gn_type(n_ms), gn_type(n_cp), gn_type(n_host), gn_type(n_child), gn_type(n_alloc), gn_type(n_free),
           gn_type(n_empty), gn_type(n_rec), gn_type(n_wait), gn_type(n_cond));

    /* The typed getters on nodes made this way. */
    struct cudaMemsetParams msb;
    memset(&msb, 0, sizeof msb);
    SHOW("typed get of an AddNode memset", cudaGraphMemsetNodeGetParams(n_ms, &msb));
    printf("  value 0x%x width %llu dst %s\n", msb.value, (unsigned long long)msb.width, msb.dst == d32 ? "same as set" : "different");
    show_copy("typed get of an AddNode memcpy", n_cp, d32, h32, NULL, NULL, N * 4, N * 4);
    memset(&apb, 0, sizeof apb);
    SHOW("typed get of an AddNode mem alloc", cudaGraphMemAllocNodeGetParams(n_alloc, &apb));
    SAME("  dptr", apb.dptr, aptr3);

    cudaGraphExec_t e3 = gn_instantiate(g3);
    memset(h32, 0, N * 4);
    OK(cudaMemset(d8, 0, N));
    before = host_calls;
    OK(cudaEventRecord(ev_pre, s));
    gn_launch(e3, s);
    OK(cudaMemcpy(h8, d8, N, cudaMemcpyDeviceToHost));
    printf("AddNode graph: h32[0]=0x%x host calls +%d IF body ran %d\n", h32[0], host_calls - before, h8[0] == 0x77);
    CHECK(h32[0] == 0x33 && host_calls - before == 10 && h8[0] == 0x77);

    /* cudaGraphNodeSetParams on each kind. */
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemset;
    np.memset.dst = d32;
    np.memset.value = 0x44;
    np.memset.elementSize = 4;
    np.memset.width = N;
    np.memset.height = 1;
    SHOW("NodeSetParams memset", cudaGraphNodeSetParams(n_ms, &np));
    OK(cudaGraphMemsetNodeGetParams(n_ms, &msb));
    printf("  value after 0x%x\n", msb.value);
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemcpy;
    np.memcpy.copyParams = gn_copy_ptr(h32b, N * 4, d32, N * 4, N * 4, 1, cudaMemcpyDeviceToHost);
    SHOW("NodeSetParams memcpy", cudaGraphNodeSetParams(n_cp, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeHost;
    np.host.fn = host_fn2;
    np.host.userData = &one;
    SHOW("NodeSetParams host", cudaGraphNodeSetParams(n_host, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeEventRecord;
    np.eventRecord.event = ev_done2;
    SHOW("NodeSetParams event record", cudaGraphNodeSetParams(n_rec, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeWaitEvent;
    np.eventWait.event = ev_pre2;
    SHOW("NodeSetParams event wait", cudaGraphNodeSetParams(n_wait, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeGraph;
    np.graph.graph = cg;
    SHOW("NodeSetParams child graph", cudaGraphNodeSetParams(n_child, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemAlloc;
    np.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
    np.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
    np.alloc.bytesize = N * 8;
    SHOW("NodeSetParams mem alloc", cudaGraphNodeSetParams(n_alloc, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemFree;
    np.free.dptr = aptr3;
    SHOW("NodeSetParams mem free", cudaGraphNodeSetParams(n_free, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeEmpty;
    SHOW("NodeSetParams empty", cudaGraphNodeSetParams(n_empty, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeHost;
    np.host.fn = host_fn;
    np.host.userData = &one;
    SHOW("NodeSetParams host params on a memset node", cudaGraphNodeSetParams(n_ms, &np));
    SHOW_LAST("wrong type");

    /* cudaGraphExecNodeSetParams on each kind, then a relaunch. */
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemset;
    np.memset.dst = d32;
    np.memset.value = 0x55;
    np.memset.elementSize = 4;
    np.memset.width = N;
    np.memset.height = 1;
    SHOW("ExecNodeSetParams memset", cudaGraphExecNodeSetParams(e3, n_ms, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemcpy;
    np.memcpy.copyParams = gn_copy_ptr(h32b, N * 4, d32, N * 4, N * 4, 1, cudaMemcpyDeviceToHost);
    SHOW("ExecNodeSetParams memcpy", cudaGraphExecNodeSetParams(e3, n_cp, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeHost;
    np.host.fn = host_fn2;
    np.host.userData = &ten;
    SHOW("ExecNodeSetParams host", cudaGraphExecNodeSetParams(e3, n_host, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeEventRecord;
    np.eventRecord.event = ev_done2;
    SHOW("ExecNodeSetParams event record", cudaGraphExecNodeSetParams(e3, n_rec, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeWaitEvent;
    np.eventWait.event = ev_pre2;
    SHOW("ExecNodeSetParams event wait", cudaGraphExecNodeSetParams(e3, n_wait, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeGraph;
    np.graph.graph = cg;
    SHOW("ExecNodeSetParams child graph", cudaGraphExecNodeSetParams(e3, n_child, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeEmpty;
    SHOW("ExecNodeSetParams empty", cudaGraphExecNodeSetParams(e3, n_empty, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemFree;
    np.free.dptr = aptr3;
    SHOW("ExecNodeSetParams mem free", cudaGraphExecNodeSetParams(e3, n_free, &np));
    np = gn_conditional(ch, cudaGraphCondTypeIf, 1);
    SHOW("ExecNodeSetParams conditional", cudaGraphExecNodeSetParams(e3, n_cond, &np));
    memset(h32b, 0, N * 4);
    before2 = host_calls2;
    OK(cudaEventRecord(ev_pre2, s));
    gn_launch(e3, s);
    printf("AddNode graph relaunched: h32b[0]=0x%x host_fn2 calls +%d\n", h32b[0], host_calls2 - before2);
    CHECK(h32b[0] == 0x55 && host_calls2 - before2 == 10);
    gn_exec_destroy(e3);
    gn_destroy(g3);

    gn_destroy(cg);
    gn_destroy(g);
    OK(cudaFreeArray(arr));
    ct_free_device(d8, d16, d32, dc, p2d, NULL);
    ct_free_host(h8, h16, h32, h32b, h2d, harr, hc, halloc, NULL);
    OK(cudaStreamDestroy(s));
    DONE();
}
