/* Graph node functions refusing what NVIDIA's runtime refuses, without kernels: NULL
 * parameters, outputs, graphs, nodes and dependencies; a node of another type given to every
 * typed getter and setter, in the graph and in an executable graph; memset and copy
 * parameters; external semaphore nodes with arrays that cannot be right (a real external
 * semaphore needs another API); memory allocation and free node parameters; the generic
 * cudaGraphAddNode with types and reserved fields it refuses; the thread's last error after
 * failing calls. Calls that could make a runtime write through a NULL output are made last,
 * under a SIGSEGV guard that prints "crashed" instead of dying. */
#include "ctest.h"
#include "graph_node_util.h"

#include <setjmp.h>
#include <signal.h>

#if CUDART_VERSION >= 13000
#define ADD_NODE(pn, gr, deps, n, p) cudaGraphAddNode((pn), (gr), (deps), NULL, (n), (p))
#else
#define ADD_NODE(pn, gr, deps, n, p) cudaGraphAddNode((pn), (gr), (deps), (n), (p))
#endif

static sigjmp_buf gn_jmp;
static void gn_segv(int sig) {
    (void)sig;
    siglongjmp(gn_jmp, 1);
}

/* SHOW, or "crashed" when the call dies of SIGSEGV. */
#define GUARDED(label, call)                                                                   \
    do {                                                                                       \
        struct sigaction gn_sa, gn_old;                                                        \
        memset(&gn_sa, 0, sizeof gn_sa);                                                       \
        gn_sa.sa_handler = gn_segv;                                                            \
        sigaction(SIGSEGV, &gn_sa, &gn_old);                                                   \
        if (sigsetjmp(gn_jmp, 1) == 0)                                                         \
            SHOW(label, call);                                                                 \
        else                                                                                   \
            printf("%s: crashed\n", label);                                                    \
        sigaction(SIGSEGV, &gn_old, NULL);                                                     \
    } while (0)

static void host_fn(void *p) { (void)p; }

static struct cudaMemAllocNodeParams alloc_params(size_t bytes) {
    struct cudaMemAllocNodeParams p;
    memset(&p, 0, sizeof p);
    p.poolProps.allocType = cudaMemAllocationTypePinned;
    p.poolProps.location.type = cudaMemLocationTypeDevice;
    p.poolProps.location.id = 0;
    p.bytesize = bytes;
    return p;
}

int main(void) {
    OK(cudaFree(0));
    int ndev = 0;
    OK(cudaGetDeviceCount(&ndev));
    cudaEvent_t ev;
    OK(cudaEventCreate(&ev));
    char *d = NULL, *d2 = NULL, *hp = NULL;
    OK(cudaMalloc((void **)&d, 4096));
    OK(cudaMalloc((void **)&d2, 4096));
    OK(cudaMallocHost((void **)&hp, 4096));
    char *pageable = (char *)malloc(4096);
    cudaArray_t arr = NULL;
    struct cudaChannelFormatDesc desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    OK(cudaMallocArray(&arr, &desc, 16, 4, 0));

    /* A graph with one node of each kind. */
    cudaGraph_t g = gn_graph(), other = gn_graph(), cg = gn_graph();
    cudaGraphNode_t en, msn, cpn, hn, chn, ern, ewn, aln, frn, other_n, cg_n, n = NULL;
    struct cudaMemsetParams ms = gn_mset(d, 0, 1, 1, 256, 1);
    struct cudaMemcpy3DParms cp = gn_copy_ptr(d2, 256, d, 256, 256, 1, cudaMemcpyDeviceToDevice);
    struct cudaHostNodeParams hpar = {host_fn, NULL};
    OK(cudaGraphAddEmptyNode(&en, g, NULL, 0));
    OK(cudaGraphAddMemsetNode(&msn, g, NULL, 0, &ms));
    OK(cudaGraphAddMemcpyNode(&cpn, g, &msn, 1, &cp));
    OK(cudaGraphAddHostNode(&hn, g, NULL, 0, &hpar));
    OK(cudaGraphAddMemsetNode(&cg_n, cg, NULL, 0, &ms));
    OK(cudaGraphAddChildGraphNode(&chn, g, NULL, 0, cg));
    OK(cudaGraphAddEventRecordNode(&ern, g, NULL, 0, ev));
    OK(cudaGraphAddEventWaitNode(&ewn, g, NULL, 0, ev));
    struct cudaMemAllocNodeParams ap = alloc_params(4096);
    OK(cudaGraphAddMemAllocNode(&aln, g, NULL, 0, &ap));
    OK(cudaGraphAddMemFreeNode(&frn, g, &aln, 1, ap.dptr));
    OK(cudaGraphAddEmptyNode(&other_n, other, NULL, 0));
    cudaGraphExec_t e = gn_instantiate(g);

    /* ---- handles and dependencies ---- */
    SHOW("empty node, NULL graph", cudaGraphAddEmptyNode(&n, NULL, NULL, 0));
    SHOW_LAST("NULL graph");
    SHOW("empty node, NULL out", cudaGraphAddEmptyNode(NULL, g, NULL, 0));
    SHOW("empty node, NULL dependencies with a count", cudaGraphAddEmptyNode(&n, g, NULL, 1));
    SHOW_LAST("NULL dependencies");
    SHOW("empty node, dependencies with count 0", cudaGraphAddEmptyNode(&n, g, &en, 0));
    SHOW("empty node, dependency in another graph", cudaGraphAddEmptyNode(&n, g, &other_n, 1));
    cudaGraphNode_t twice[2] = {en, en};
    SHOW("empty node, the same dependency twice", cudaGraphAddEmptyNode(&n, g, twice, 2));
    cudaGraphNode_t null_dep = NULL;
    SHOW("empty node, a NULL dependency", cudaGraphAddEmptyNode(&n, g, &null_dep, 1));
    SHOW("memset node, NULL graph", cudaGraphAddMemsetNode(&n, NULL, NULL, 0, &ms));
    SHOW("memset node, NULL dependencies with a count", cudaGraphAddMemsetNode(&n, g, NULL, 2, &ms));
    SHOW("copy node, NULL graph", cudaGraphAddMemcpyNode(&n, NULL, NULL, 0, &cp));
    SHOW("copy 1D node, NULL out", cudaGraphAddMemcpyNode1D(NULL, g, NULL, 0, d2, d, 16, cudaMemcpyDeviceToDevice));
    SHOW("host node, NULL graph", cudaGraphAddHostNode(&n, NULL, NULL, 0, &hpar));
    SHOW("child node, NULL graph", cudaGraphAddChildGraphNode(&n, NULL, NULL, 0, cg));
    SHOW("child node, NULL child", cudaGraphAddChildGraphNode(&n, g, NULL, 0, NULL));
    SHOW_LAST("NULL child");
    SHOW("child node, the graph itself", cudaGraphAddChildGraphNode(&n, g, NULL, 0, g));
    SHOW("event record node, NULL event", cudaGraphAddEventRecordNode(&n, g, NULL, 0, NULL));
    SHOW_LAST("NULL event");
    SHOW("event wait node, NULL event", cudaGraphAddEventWaitNode(&n, g, NULL, 0, NULL));
    SHOW("mem free node, NULL graph", cudaGraphAddMemFreeNode(&n, NULL, NULL, 0, ap.dptr));

    /* ---- NULL nodes ---- */
    struct cudaMemsetParams msb;
    struct cudaMemcpy3DParms cpb;
    struct cudaHostNodeParams hb;
    struct cudaMemAllocNodeParams apb;
    struct cudaExternalSemaphoreSignalNodeParams ssb;
    struct cudaExternalSemaphoreWaitNodeParams swb;
    struct cudaKernelNodeParams kb;
    cudaGraph_t gb = NULL;
    cudaEvent_t evb = NULL;
    void *pb = NULL;
    SHOW("memset get, NULL node", cudaGraphMemsetNodeGetParams(NULL, &msb));
    SHOW_LAST("NULL node");
    SHOW("copy get, NULL node", cudaGraphMemcpyNodeGetParams(NULL, &cpb));
    SHOW("host get, NULL node", cudaGraphHostNodeGetParams(NULL, &hb));
    SHOW("kernel get, NULL node", cudaGraphKernelNodeGetParams(NULL, &kb));
    SHOW("child get, NULL node", cudaGraphChildGraphNodeGetGraph(NULL, &gb));
    SHOW("event record get, NULL node", cudaGraphEventRecordNodeGetEvent(NULL, &evb));
    SHOW("event wait get, NULL node", cudaGraphEventWaitNodeGetEvent(NULL, &evb));
    SHOW("mem alloc get, NULL node", cudaGraphMemAllocNodeGetParams(NULL, &apb));
    SHOW("mem free get, NULL node", cudaGraphMemFreeNodeGetParams(NULL, &pb));
    SHOW("signal get, NULL node", cudaGraphExternalSemaphoresSignalNodeGetParams(NULL, &ssb));
    SHOW("wait get, NULL node", cudaGraphExternalSemaphoresWaitNodeGetParams(NULL, &swb));
    SHOW("memset set, NULL node", cudaGraphMemsetNodeSetParams(NULL, &ms));
    SHOW("copy set, NULL node", cudaGraphMemcpyNodeSetParams(NULL, &cp));
    SHOW("copy set 1D, NULL node", cudaGraphMemcpyNodeSetParams1D(NULL, d2, d, 16, cudaMemcpyDeviceToDevice));
    SHOW("host set, NULL node", cudaGraphHostNodeSetParams(NULL, &hpar));
    SHOW("event record set, NULL node", cudaGraphEventRecordNodeSetEvent(NULL, ev));
    SHOW("event wait set, NULL node", cudaGraphEventWaitNodeSetEvent(NULL, ev));
    SHOW("exec memset set, NULL exec", cudaGraphExecMemsetNodeSetParams(NULL, msn, &ms));
    SHOW_LAST("NULL exec");
    SHOW("exec memset set, NULL node", cudaGraphExecMemsetNodeSetParams(e, NULL, &ms));
    SHOW("exec copy set, NULL exec", cudaGraphExecMemcpyNodeSetParams(NULL, cpn, &cp));
    SHOW("exec host set, NULL exec", cudaGraphExecHostNodeSetParams(NULL, hn, &hpar));
    SHOW("exec child set, NULL exec", cudaGraphExecChildGraphNodeSetParams(NULL, chn, cg));
    SHOW("exec child set, NULL child", cudaGraphExecChildGraphNodeSetParams(e, chn, NULL));
    SHOW("exec event record set, NULL exec", cudaGraphExecEventRecordNodeSetEvent(NULL, ern, ev));
    SHOW("exec event record set, NULL event", cudaGraphExecEventRecordNodeSetEvent(e, ern, NULL));
    SHOW("exec event wait set, NULL event", cudaGraphExecEventWaitNodeSetEvent(e, ewn, NULL));
    SHOW("event record set, NULL event", cudaGraphEventRecordNodeSetEvent(ern, NULL));
    SHOW("event wait set, NULL event", cudaGraphEventWaitNodeSetEvent(ewn, NULL));

    /* ---- a node of another type ---- */
    SHOW("memset get on a host node", cudaGraphMemsetNodeGetParams(hn, &msb));
    SHOW_LAST("memset get on a host node");
    SHOW("copy get on a memset node", cudaGraphMemcpyNodeGetParams(msn, &cpb));
    SHOW("host get on a memset node", cudaGraphHostNodeGetParams(msn, &hb));
    SHOW("kernel get on a memset node", cudaGraphKernelNodeGetParams(msn, &kb));
    SHOW("child get on a memset node", cudaGraphChildGraphNodeGetGraph(msn, &gb));
    SHOW("event record get on an event wait node", cudaGraphEventRecordNodeGetEvent(ewn, &evb));
    SHOW("event wait get on an event record node", cudaGraphEventWaitNodeGetEvent(ern, &evb));
    SHOW("mem alloc get on a mem free node", cudaGraphMemAllocNodeGetParams(frn, &apb));
    SHOW("mem free get on a mem alloc node", cudaGraphMemFreeNodeGetParams(aln, &pb));
    SHOW("signal get on a memset node", cudaGraphExternalSemaphoresSignalNodeGetParams(msn, &ssb));
    SHOW("wait get on a memset node", cudaGraphExternalSemaphoresWaitNodeGetParams(msn, &swb));
    SHOW("memset set on a host node", cudaGraphMemsetNodeSetParams(hn, &ms));
    SHOW("copy set on a memset node", cudaGraphMemcpyNodeSetParams(msn, &cp));
    SHOW("copy set 1D on a memset node", cudaGraphMemcpyNodeSetParams1D(msn, d2, d, 16, cudaMemcpyDeviceToDevice));
    SHOW("host set on a memset node", cudaGraphHostNodeSetParams(msn, &hpar));
    SHOW("event record set on an event wait node", cudaGraphEventRecordNodeSetEvent(ewn, ev));
    SHOW("event wait set on an event record node", cudaGraphEventWaitNodeSetEvent(ern, ev));
    memset(&kb, 0, sizeof kb);
    kb.gridDim.x = kb.gridDim.y = kb.gridDim.z = 1;
    kb.blockDim = kb.gridDim;
    SHOW("kernel set NULL func on a memset node", cudaGraphKernelNodeSetParams(msn, &kb));
    SHOW_LAST("kernel set NULL func");
    struct cudaExternalSemaphoreSignalNodeParams ss0;
    struct cudaExternalSemaphoreWaitNodeParams sw0;
    memset(&ss0, 0, sizeof ss0);
    memset(&sw0, 0, sizeof sw0);
    SHOW("signal set on a memset node", cudaGraphExternalSemaphoresSignalNodeSetParams(msn, &ss0));
    SHOW("wait set on a memset node", cudaGraphExternalSemaphoresWaitNodeSetParams(msn, &sw0));
    SHOW("exec memset set on a host node", cudaGraphExecMemsetNodeSetParams(e, hn, &ms));
    SHOW_LAST("exec memset set on a host node");
    SHOW("exec copy set on a memset node", cudaGraphExecMemcpyNodeSetParams(e, msn, &cp));
    SHOW("exec copy set 1D on a memset node", cudaGraphExecMemcpyNodeSetParams1D(e, msn, d2, d, 16, cudaMemcpyDeviceToDevice));
    SHOW("exec host set on a memset node", cudaGraphExecHostNodeSetParams(e, msn, &hpar));
    SHOW("exec child set on a memset node", cudaGraphExecChildGraphNodeSetParams(e, msn, cg));
    SHOW("exec event record set on an event wait node", cudaGraphExecEventRecordNodeSetEvent(e, ewn, ev));
    SHOW("exec event wait set on an event record node", cudaGraphExecEventWaitNodeSetEvent(e, ern, ev));
    SHOW("exec signal set on a memset node", cudaGraphExecExternalSemaphoresSignalNodeSetParams(e, msn, &ss0));
    SHOW("exec wait set on a memset node", cudaGraphExecExternalSemaphoresWaitNodeSetParams(e, msn, &sw0));
    SHOW("exec memset set, node of another graph", cudaGraphExecMemsetNodeSetParams(e, other_n, &ms));
    SHOW("exec child set, child of another shape", cudaGraphExecChildGraphNodeSetParams(e, chn, other));
    SHOW("exec child set, the same child", cudaGraphExecChildGraphNodeSetParams(e, chn, cg));

    /* ---- memset parameters ---- */
    struct cudaMemsetParams m;
    m = gn_mset(d, 0, 1, 0, 16, 1);
    SHOW("memset element size 0", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    SHOW_LAST("element size 0");
    m = gn_mset(d, 0, 1, 3, 16, 1);
    SHOW("memset element size 3", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(d, 0, 1, 8, 16, 1);
    SHOW("memset element size 8", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(d, 0, 1, 1, 0, 1);
    SHOW("memset width 0", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(d, 0, 1, 1, 16, 0);
    SHOW("memset height 0", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(d, 0, 1, 4, 16, 1);
    SHOW("memset 1 row, pitch 0", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(d, 8, 1, 4, 16, 1);
    if (SHOW("memset 1 row, pitch narrower than the row", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m)) == cudaSuccess &&
        cudaGraphMemsetNodeGetParams(n, &msb) == cudaSuccess)
        SHOWU("  pitch read back", msb.pitch);
    m = gn_mset(d, 0, 1, 4, 16, 2);
    SHOW("memset 2 rows, pitch 0", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(d, 32, 1, 4, 16, 2);
    SHOW("memset 2 rows, pitch narrower than the row", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(d, 64, 1, 4, 16, 2);
    SHOW("memset 2 rows, pitch the row", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(d, 66, 1, 4, 16, 2);
    SHOW("memset 2 rows, pitch not a multiple of the element", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(d + 1, 0, 1, 4, 16, 1);
    SHOW("memset misaligned for 4-byte elements", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(d + 2, 0, 1, 2, 16, 1);
    SHOW("memset 2-byte elements at 2", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(d, 0, 0x1ff, 1, 16, 1);
    if (SHOW("memset value 0x1ff in bytes", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m)) == cudaSuccess &&
        cudaGraphMemsetNodeGetParams(n, &msb) == cudaSuccess)
        printf("  value read back 0x%x\n", msb.value);
    m = gn_mset(NULL, 0, 1, 1, 16, 1);
    SHOW("memset NULL dst", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(hp, 0, 1, 1, 16, 1);
    SHOW("memset pinned host dst", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(pageable, 0, 1, 1, 16, 1);
    SHOW("memset pageable host dst", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(d, 0, 1, 1, 8192, 1);
    SHOW("memset past the allocation", cudaGraphAddMemsetNode(&n, g, NULL, 0, &m));
    m = gn_mset(d, 0, 1, 3, 16, 1);
    SHOW("memset set element size 3", cudaGraphMemsetNodeSetParams(msn, &m));
    SHOW("exec memset set element size 3", cudaGraphExecMemsetNodeSetParams(e, msn, &m));
    m = gn_mset(d2, 0, 1, 1, 256, 1);
    SHOW("exec memset set, another allocation", cudaGraphExecMemsetNodeSetParams(e, msn, &m));
    m = gn_mset(d, 0, 1, 4, 64, 1);
    SHOW("exec memset set, element size 4", cudaGraphExecMemsetNodeSetParams(e, msn, &m));

    /* ---- copy parameters ---- */
    struct cudaMemcpy3DParms c;
    c = gn_copy_ptr(d2, 256, d, 256, 256, 1, (enum cudaMemcpyKind)7);
    SHOW("copy kind 7", cudaGraphAddMemcpyNode(&n, g, NULL, 0, &c));
    SHOW_LAST("copy kind 7");
    c = gn_copy_ptr(d2, 256, d, 256, 256, 1, cudaMemcpyDeviceToDevice);
    c.srcArray = arr;
    SHOW("copy source array and pointer", cudaGraphAddMemcpyNode(&n, g, NULL, 0, &c));
    c = gn_copy_ptr(d2, 256, NULL, 256, 256, 1, cudaMemcpyDeviceToDevice);
    SHOW("copy no source", cudaGraphAddMemcpyNode(&n, g, NULL, 0, &c));
    c = gn_copy_ptr(d2, 256, d, 256, 256, 1, cudaMemcpyDeviceToDevice);
    c.extent = make_cudaExtent(0, 1, 1);
    SHOW("copy extent width 0", cudaGraphAddMemcpyNode(&n, g, NULL, 0, &c));
    c.extent = make_cudaExtent(16, 1, 0);
    SHOW("copy extent depth 0", cudaGraphAddMemcpyNode(&n, g, NULL, 0, &c));
    c = gn_copy_ptr(d2, 16, d, 16, 32, 2, cudaMemcpyDeviceToDevice);
    SHOW("copy 2 rows, pitch narrower than the row", cudaGraphAddMemcpyNode(&n, g, NULL, 0, &c));
    SHOW_LAST("pitch narrower");
    c = gn_copy_ptr(d2, 32, d, 32, 32, 2, cudaMemcpyDeviceToDevice);
    c.extent.depth = 2;
    c.srcPtr.ysize = 1;
    SHOW("copy 2 slices, source ysize below the height", cudaGraphAddMemcpyNode(&n, g, NULL, 0, &c));
    memset(&c, 0, sizeof c);
    c.srcArray = arr;
    c.dstPtr = make_cudaPitchedPtr(hp, 64, 16, 4);
    c.extent = make_cudaExtent(16, 4, 1);
    c.kind = cudaMemcpyHostToDevice;
    SHOW("copy array as the host end", cudaGraphAddMemcpyNode(&n, g, NULL, 0, &c));
    c.kind = cudaMemcpyDeviceToHost;
    c.srcPos = make_cudaPos(4, 0, 0);
    SHOW("copy array past its width", cudaGraphAddMemcpyNode(&n, g, NULL, 0, &c));
    c = gn_copy_ptr(pageable, 256, d, 256, 256, 1, cudaMemcpyDeviceToHost);
    SHOW("copy to pageable host memory", cudaGraphAddMemcpyNode(&n, g, NULL, 0, &c));
    c = gn_copy_ptr(hp, 256, pageable, 256, 256, 1, cudaMemcpyHostToHost);
    SHOW("copy host to host", cudaGraphAddMemcpyNode(&n, g, NULL, 0, &c));
    SHOW("copy 1D 0 bytes", cudaGraphAddMemcpyNode1D(&n, g, NULL, 0, d2, d, 0, cudaMemcpyDeviceToDevice));
    SHOW("copy 1D kind 5", cudaGraphAddMemcpyNode1D(&n, g, NULL, 0, d2, d, 16, (enum cudaMemcpyKind)5));
    SHOW("copy 1D NULL dst", cudaGraphAddMemcpyNode1D(&n, g, NULL, 0, NULL, d, 16, cudaMemcpyDeviceToDevice));
    SHOW("copy 1D past the allocation", cudaGraphAddMemcpyNode1D(&n, g, NULL, 0, d2, d, 8192, cudaMemcpyDeviceToDevice));
    SHOW("copy 1D device to host, host pointer as source", cudaGraphAddMemcpyNode1D(&n, g, NULL, 0, hp, hp + 1024, 16, cudaMemcpyDeviceToHost));
    SHOW("copy 1D default, host to host", cudaGraphAddMemcpyNode1D(&n, g, NULL, 0, hp, hp + 1024, 16, cudaMemcpyDefault));
    SHOW("copy set kind 7", cudaGraphMemcpyNodeSetParams1D(cpn, d2, d, 16, (enum cudaMemcpyKind)7));
    SHOW("copy set, now device to host", cudaGraphMemcpyNodeSetParams1D(cpn, hp, d, 16, cudaMemcpyDeviceToHost));
    SHOW("exec copy set, other direction", cudaGraphExecMemcpyNodeSetParams1D(e, cpn, hp, d, 256, cudaMemcpyDeviceToHost));
    SHOW_LAST("exec copy other direction");
    SHOW("exec copy set, other size", cudaGraphExecMemcpyNodeSetParams1D(e, cpn, d2, d, 128, cudaMemcpyDeviceToDevice));
    SHOW("exec copy set, same shape", cudaGraphExecMemcpyNodeSetParams1D(e, cpn, d, d2, 256, cudaMemcpyDeviceToDevice));
    c = gn_copy_ptr(d2, 256, d, 256, 256, 1, (enum cudaMemcpyKind)7);
    SHOW("exec copy set kind 7", cudaGraphExecMemcpyNodeSetParams(e, cpn, &c));

    /* ---- memory allocation and free nodes ---- */
    struct cudaMemAllocNodeParams a;
    a = alloc_params(0);
    SHOW("alloc 0 bytes", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    SHOW_LAST("alloc 0 bytes");
    a = alloc_params(4096);
    a.poolProps.allocType = cudaMemAllocationTypeInvalid;
    SHOW("alloc type invalid", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    a = alloc_params(4096);
    a.poolProps.allocType = (enum cudaMemAllocationType)2;
    SHOW("alloc type 2 (managed in 13)", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    a = alloc_params(4096);
    a.poolProps.handleTypes = cudaMemHandleTypePosixFileDescriptor;
    SHOW("alloc posix fd handle type", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    a = alloc_params(4096);
    a.poolProps.location.type = cudaMemLocationTypeInvalid;
    SHOW("alloc location invalid", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    a = alloc_params(4096);
    a.poolProps.location.id = ndev;
    SHOW("alloc location past the last device", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    a = alloc_params(4096);
    a.poolProps.location.id = -1;
    SHOW("alloc location device -1", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    a = alloc_params(4096);
    a.poolProps.location.type = cudaMemLocationTypeHost;
    SHOW("alloc location host", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    a = alloc_params(4096);
    a.poolProps.win32SecurityAttributes = &a;
    SHOW("alloc win32 security attributes", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    a = alloc_params(4096);
    a.poolProps.maxSize = 1 << 20;
    SHOW("alloc maxSize 1 MiB", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    a = alloc_params(4096);
    a.poolProps.reserved[0] = 1;
    SHOW("alloc reserved byte set", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    a = alloc_params(4096);
    a.accessDescCount = 1;
    /* (No access descriptor count with a NULL array: NVIDIA's runtime crashes on it.) */
    struct cudaMemAccessDesc ad[2];
    memset(ad, 0, sizeof ad);
    ad[0].location.type = cudaMemLocationTypeDevice;
    ad[0].location.id = 0;
    ad[0].flags = cudaMemAccessFlagsProtReadWrite;
    a.accessDescs = ad;
    SHOW("alloc read-write access for its own device", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    ad[0].flags = cudaMemAccessFlagsProtRead;
    SHOW("alloc read-only access for its own device", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    ad[0].flags = cudaMemAccessFlagsProtReadWrite;
    ad[0].location.id = ndev;
    SHOW("alloc access for a device past the last", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    ad[0].location.id = 0;
    ad[1] = ad[0];
    a.accessDescCount = (size_t)ndev + 1;
    SHOW("alloc more access descriptors than devices", cudaGraphAddMemAllocNode(&n, g, NULL, 0, &a));
    a = alloc_params(4096);
    SHOW("alloc, NULL graph", cudaGraphAddMemAllocNode(&n, NULL, NULL, 0, &a));
    SHOW("free NULL", cudaGraphAddMemFreeNode(&n, g, NULL, 0, NULL));
    SHOW_LAST("free NULL");
    SHOW("free a cudaMalloc pointer", cudaGraphAddMemFreeNode(&n, g, NULL, 0, d));
    SHOW("free the graph's allocation again", cudaGraphAddMemFreeNode(&n, g, &frn, 1, ap.dptr));
    SHOW("free inside the graph's allocation", cudaGraphAddMemFreeNode(&n, g, &aln, 1, (char *)ap.dptr + 16));
    /* A graph with an allocation node cannot be cloned into a child graph node. */
    cudaGraph_t ag = gn_graph();
    cudaGraphNode_t agn;
    a = alloc_params(4096);
    OK(cudaGraphAddMemAllocNode(&agn, ag, NULL, 0, &a));
    SHOW("child graph with an allocation", cudaGraphAddChildGraphNode(&n, g, NULL, 0, ag));
    SHOW_LAST("child graph with an allocation");

    /* ---- cudaGraphAddNode, NodeSetParams, ExecNodeSetParams ---- */
    struct cudaGraphNodeParams np;
    memset(&np, 0, sizeof np);
    np.type = (enum cudaGraphNodeType)-1;
    SHOW("AddNode type -1", ADD_NODE(&n, g, NULL, 0, &np));
    SHOW_LAST("type -1");
    np.type = (enum cudaGraphNodeType)12;
    SHOW("AddNode type 12", ADD_NODE(&n, g, NULL, 0, &np));
    np.type = (enum cudaGraphNodeType)14;
    SHOW("AddNode type 14", ADD_NODE(&n, g, NULL, 0, &np));
    np.type = cudaGraphNodeTypeEmpty;
    SHOW("AddNode empty", ADD_NODE(&n, g, NULL, 0, &np));
    np.reserved0[1] = 1;
    SHOW("AddNode empty, reserved0 set", ADD_NODE(&n, g, NULL, 0, &np));
    np.reserved0[1] = 0;
    np.reserved2 = 1;
    SHOW("AddNode empty, reserved2 set", ADD_NODE(&n, g, NULL, 0, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeHost;
    np.host.fn = host_fn;
    np.reserved1[10] = 1;
    SHOW("AddNode host, padding after the parameters set", ADD_NODE(&n, g, NULL, 0, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeHost;
    SHOW("AddNode host, NULL fn", ADD_NODE(&n, g, NULL, 0, &np));
    struct cudaHostNodeParams no_fn = {NULL, NULL};
    SHOW("host node, NULL fn", cudaGraphAddHostNode(&n, g, NULL, 0, &no_fn));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeKernel;
    np.kernel.gridDim.x = np.kernel.gridDim.y = np.kernel.gridDim.z = 1;
    np.kernel.blockDim = np.kernel.gridDim;
    SHOW("AddNode kernel, NULL func", ADD_NODE(&n, g, NULL, 0, &np));
    SHOW_LAST("AddNode kernel NULL func");
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemset;
    np.memset.dst = d;
    np.memset.elementSize = 3;
    np.memset.width = 16;
    np.memset.height = 1;
    SHOW("AddNode memset element size 3", ADD_NODE(&n, g, NULL, 0, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemcpy;
    np.memcpy.copyParams = gn_copy_ptr(d2, 256, d, 256, 256, 1, cudaMemcpyDeviceToDevice);
    np.memcpy.flags = 1;
    SHOW("AddNode memcpy flags 1", ADD_NODE(&n, g, NULL, 0, &np));
    np.memcpy.flags = 0;
#if CUDART_VERSION >= 13050
    /* CUDA 13.5: one reserved word, then the context (cu_decl135.cu). */
    np.memcpy.reserved = 1;
    SHOW("AddNode memcpy reserved[0] set", ADD_NODE(&n, g, NULL, 0, &np));
    np.memcpy.reserved = 0;
#else
    np.memcpy.reserved[0] = 1;
    SHOW("AddNode memcpy reserved[0] set", ADD_NODE(&n, g, NULL, 0, &np));
    np.memcpy.reserved[0] = 0;
    np.memcpy.reserved[2] = 1;
    SHOW("AddNode memcpy reserved[2] set", ADD_NODE(&n, g, NULL, 0, &np));
    np.memcpy.reserved[2] = 0;
#endif
    np.memcpy.copyParams.kind = (enum cudaMemcpyKind)7;
    SHOW("AddNode memcpy kind 7", ADD_NODE(&n, g, NULL, 0, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeGraph;
    np.graph.graph = cg;
    np.graph.ownership = (enum cudaGraphChildGraphNodeOwnership)5;
    SHOW("AddNode child graph, ownership 5", ADD_NODE(&n, g, NULL, 0, &np));
    np = gn_conditional(gn_cond(g, 0, 0), cudaGraphCondTypeIf, 3);
    SHOW("AddNode IF size 3", ADD_NODE(&n, g, NULL, 0, &np));
    np.conditional.size = 0;
    SHOW("AddNode IF size 0", ADD_NODE(&n, g, NULL, 0, &np));
    np.conditional.type = (enum cudaGraphConditionalNodeType)7;
    np.conditional.size = 1;
    SHOW("AddNode conditional type 7", ADD_NODE(&n, g, NULL, 0, &np));
    np.conditional.type = cudaGraphCondTypeSwitch;
    np.conditional.size = 3;
    SHOW("AddNode SWITCH size 3", ADD_NODE(&n, g, NULL, 0, &np));
    printf("  SWITCH bodies given %d\n", np.conditional.phGraph_out != NULL);
    np = gn_conditional(gn_cond(other, 0, 0), cudaGraphCondTypeIf, 1);
    SHOW("AddNode IF, handle of another graph", ADD_NODE(&n, g, NULL, 0, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeEventRecord;
    SHOW("AddNode event record, NULL event", ADD_NODE(&n, g, NULL, 0, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemFree;
    SHOW("AddNode mem free, NULL", ADD_NODE(&n, g, NULL, 0, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemset;
    np.memset.dst = d;
    np.memset.value = 2;
    np.memset.elementSize = 1;
    np.memset.width = 256;
    np.memset.height = 1;
    SHOW("NodeSetParams memset params on a host node", cudaGraphNodeSetParams(hn, &np));
    SHOW_LAST("NodeSetParams wrong type");
    SHOW("NodeSetParams, NULL node", cudaGraphNodeSetParams(NULL, &np));
    SHOW("NodeSetParams memset", cudaGraphNodeSetParams(msn, &np));
    np.memset.elementSize = 5;
    SHOW("NodeSetParams memset element size 5", cudaGraphNodeSetParams(msn, &np));
    np.memset.elementSize = 1;
    SHOW("ExecNodeSetParams memset", cudaGraphExecNodeSetParams(e, msn, &np));
    SHOW("ExecNodeSetParams memset params on a host node", cudaGraphExecNodeSetParams(e, hn, &np));
    SHOW("ExecNodeSetParams, NULL exec", cudaGraphExecNodeSetParams(NULL, msn, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemAlloc;
    a = alloc_params(4096);
    memcpy(&np.alloc, &a, sizeof a);
    SHOW("NodeSetParams mem alloc", cudaGraphNodeSetParams(aln, &np));
    SHOW("ExecNodeSetParams mem alloc", cudaGraphExecNodeSetParams(e, aln, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemFree;
    np.free.dptr = ap.dptr;
    SHOW("NodeSetParams mem free", cudaGraphNodeSetParams(frn, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeGraph;
    np.graph.graph = cg;
    SHOW("NodeSetParams child graph", cudaGraphNodeSetParams(chn, &np));
    SHOW("ExecNodeSetParams child graph", cudaGraphExecNodeSetParams(e, chn, &np));

    /* ---- external semaphores (a NULL handle, last but one: if a driver dereferences it,
     * nothing else is lost) ---- */
    struct cudaExternalSemaphoreSignalNodeParams ss;
    struct cudaExternalSemaphoreWaitNodeParams sw;
    memset(&ss, 0, sizeof ss);
    memset(&sw, 0, sizeof sw);
    cudaGraphNode_t sn = NULL, wn = NULL;
    SHOW("signal node, no semaphores", cudaGraphAddExternalSemaphoresSignalNode(&sn, g, NULL, 0, &ss));
    SHOW("wait node, no semaphores", cudaGraphAddExternalSemaphoresWaitNode(&wn, g, NULL, 0, &sw));
    if (sn) {
        memset(&ssb, 0x5a, sizeof ssb);
        SHOW("signal get", cudaGraphExternalSemaphoresSignalNodeGetParams(sn, &ssb));
        printf("  numExtSems %u, extSemArray NULL %d, paramsArray NULL %d\n", ssb.numExtSems, ssb.extSemArray == NULL,
               ssb.paramsArray == NULL);
    }
    if (wn) {
        memset(&swb, 0x5a, sizeof swb);
        SHOW("wait get", cudaGraphExternalSemaphoresWaitNodeGetParams(wn, &swb));
        printf("  numExtSems %u, extSemArray NULL %d, paramsArray NULL %d\n", swb.numExtSems, swb.extSemArray == NULL,
               swb.paramsArray == NULL);
    }
    ss.numExtSems = 1;
    sw.numExtSems = 1;
    /* (No set of one semaphore with a NULL semaphore or parameter array: NVIDIA's runtime
     * crashes on them; ours returns cudaErrorInvalidValue.) */
    struct cudaExternalSemaphoreSignalParams sp;
    struct cudaExternalSemaphoreWaitParams wp;
    memset(&sp, 0, sizeof sp);
    memset(&wp, 0, sizeof wp);
    cudaExternalSemaphore_t null_sem = NULL;
    ss.extSemArray = &null_sem;
    sw.extSemArray = &null_sem;
    ss.paramsArray = &sp;
    sw.paramsArray = &wp;
    GUARDED("signal node, a NULL semaphore", cudaGraphAddExternalSemaphoresSignalNode(&n, g, NULL, 0, &ss));
    SHOW_LAST("a NULL semaphore");
    GUARDED("wait node, a NULL semaphore", cudaGraphAddExternalSemaphoresWaitNode(&n, g, NULL, 0, &sw));
    if (sn) {
        GUARDED("signal set, a NULL semaphore", cudaGraphExternalSemaphoresSignalNodeSetParams(sn, &ss));
        memset(&ss0, 0, sizeof ss0);
        GUARDED("signal set, no semaphores", cudaGraphExternalSemaphoresSignalNodeSetParams(sn, &ss0));
    }
    if (wn) {
        GUARDED("wait set, a NULL semaphore", cudaGraphExternalSemaphoresWaitNodeSetParams(wn, &sw));
        memset(&sw0, 0, sizeof sw0);
        GUARDED("wait set, no semaphores", cudaGraphExternalSemaphoresWaitNodeSetParams(wn, &sw0));
    }

    /* ---- NULL parameters and outputs, last: a runtime that writes or reads through them
     * unchecked crashes here ---- */
    GUARDED("memset node, NULL params", cudaGraphAddMemsetNode(&n, g, NULL, 0, NULL));
    SHOW_LAST("memset node NULL params");
    GUARDED("copy node, NULL params", cudaGraphAddMemcpyNode(&n, g, NULL, 0, NULL));
    GUARDED("host node, NULL params", cudaGraphAddHostNode(&n, g, NULL, 0, NULL));
    GUARDED("kernel node, NULL params", cudaGraphAddKernelNode(&n, g, NULL, 0, NULL));
    GUARDED("signal node, NULL params", cudaGraphAddExternalSemaphoresSignalNode(&n, g, NULL, 0, NULL));
    GUARDED("wait node, NULL params", cudaGraphAddExternalSemaphoresWaitNode(&n, g, NULL, 0, NULL));
    GUARDED("alloc node, NULL params", cudaGraphAddMemAllocNode(&n, g, NULL, 0, NULL));
    GUARDED("AddNode, NULL params", ADD_NODE(&n, g, NULL, 0, NULL));
    GUARDED("memset set, NULL params", cudaGraphMemsetNodeSetParams(msn, NULL));
    GUARDED("copy set, NULL params", cudaGraphMemcpyNodeSetParams(cpn, NULL));
    GUARDED("host set, NULL params", cudaGraphHostNodeSetParams(hn, NULL));
    GUARDED("kernel set, NULL params", cudaGraphKernelNodeSetParams(msn, NULL));
    GUARDED("signal set, NULL params", cudaGraphExternalSemaphoresSignalNodeSetParams(msn, NULL));
    GUARDED("wait set, NULL params", cudaGraphExternalSemaphoresWaitNodeSetParams(msn, NULL));
    GUARDED("NodeSetParams, NULL params", cudaGraphNodeSetParams(msn, NULL));
    GUARDED("exec memset set, NULL params", cudaGraphExecMemsetNodeSetParams(e, msn, NULL));
    GUARDED("exec copy set, NULL params", cudaGraphExecMemcpyNodeSetParams(e, cpn, NULL));
    GUARDED("exec host set, NULL params", cudaGraphExecHostNodeSetParams(e, hn, NULL));
    /* (No cudaGraphExecKernelNodeSetParams with NULL params: NVIDIA's runtime crashes.) */
    GUARDED("exec signal set, NULL params", cudaGraphExecExternalSemaphoresSignalNodeSetParams(e, msn, NULL));
    GUARDED("exec wait set, NULL params", cudaGraphExecExternalSemaphoresWaitNodeSetParams(e, msn, NULL));
    GUARDED("ExecNodeSetParams, NULL params", cudaGraphExecNodeSetParams(e, msn, NULL));
    GUARDED("memset get, NULL out", cudaGraphMemsetNodeGetParams(msn, NULL));
    SHOW_LAST("memset get NULL out");
    GUARDED("copy get, NULL out", cudaGraphMemcpyNodeGetParams(cpn, NULL));
    GUARDED("host get, NULL out", cudaGraphHostNodeGetParams(hn, NULL));
    GUARDED("kernel get on a memset node, NULL out", cudaGraphKernelNodeGetParams(msn, NULL));
    GUARDED("child get, NULL out", cudaGraphChildGraphNodeGetGraph(chn, NULL));
    GUARDED("event record get, NULL out", cudaGraphEventRecordNodeGetEvent(ern, NULL));
    GUARDED("event wait get, NULL out", cudaGraphEventWaitNodeGetEvent(ewn, NULL));
    GUARDED("mem alloc get, NULL out", cudaGraphMemAllocNodeGetParams(aln, NULL));
    GUARDED("mem free get, NULL out", cudaGraphMemFreeNodeGetParams(frn, NULL));
    if (sn) GUARDED("signal get, NULL out", cudaGraphExternalSemaphoresSignalNodeGetParams(sn, NULL));
    if (wn) GUARDED("wait get, NULL out", cudaGraphExternalSemaphoresWaitNodeGetParams(wn, NULL));

    gn_exec_destroy(e);
    gn_destroy(ag);
    gn_destroy(g);
    gn_destroy(other);
    gn_destroy(cg);
    OK(cudaFreeArray(arr));
    ct_free_device(d, d2, NULL);
    OK(cudaFreeHost(hp));
    free(pageable);
    OK(cudaEventDestroy(ev));
    DONE();
}
