/* ctest: gpu cu */
/* Graph nodes with kernels and device symbols. One graph with every kind of node (kernels by
 * host stub with kernelParams and with `extra`, copies 3D/1D/to and from __device__ and
 * __constant__ symbols, memsets of element sizes 1, 2 and 4 and 2D, host, child graph, event
 * record and wait, a memory allocation used by a kernel and freed, empty) launched three times
 * and checked; each node's parameters read back, set in the graph (a new instantiation shows
 * them) and in the executable graph (a relaunch shows them); kernel node attributes; kernel
 * and symbol errors; the generic cudaGraphAddNode/NodeSetParams/ExecNodeSetParams with
 * kernels, copies, memsets, allocations and frees; conditional IF (with else) and WHILE nodes
 * whose condition a kernel sets. ctest/graph_nodes.c covers the nodes without kernels in both
 * ABIs in more detail. */
#include "ctest.h"
#include "graph_node_util.h"

#ifndef CU_LAUNCH_PARAM_END
#define CU_LAUNCH_PARAM_END ((void *)0x00)
#define CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)
#endif

/* cudaGraphAddNode without edge data: CUDA 13's form; in CUDA 12 the plain form has no edge
 * data and _v2 has (NULL here): ADD_NODE_V2 is _v2 there, so that both are run. */
#if CUDART_VERSION >= 13000
#define ADD_NODE(pn, g, deps, n, np) cudaGraphAddNode((pn), (g), (deps), NULL, (n), (np))
#define ADD_NODE_V2(pn, g, deps, n, np) cudaGraphAddNode((pn), (g), (deps), NULL, (n), (np))
#else
#define ADD_NODE(pn, g, deps, n, np) cudaGraphAddNode((pn), (g), (deps), (n), (np))
#define ADD_NODE_V2(pn, g, deps, n, np) cudaGraphAddNode_v2((pn), (g), (deps), NULL, (n), (np))
#endif

enum { N = 64, W = 16, H = 4 };

__device__ int d_sym[8];
__constant__ int c_sym[8];

__global__ void add_k(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += v;
}

/* out[i] = c_sym[i] * 100 + d_sym[i]; then d_sym[i] += 1. */
__global__ void combine(int *out) {
    int i = threadIdx.x;
    out[i] = c_sym[i] * 100 + d_sym[i];
    d_sym[i] += 1;
}

__global__ void set_cond(cudaGraphConditionalHandle h, unsigned v) { cudaGraphSetConditional(h, v); }

/* state[0]: iterations left, state[1]: iterations done. */
__global__ void loop_start(cudaGraphConditionalHandle h, int *state, int n) {
    state[0] = n;
    state[1] = 0;
    cudaGraphSetConditional(h, n > 0);
}

__global__ void loop_body(cudaGraphConditionalHandle h, int *state) {
    state[0] -= 1;
    state[1] += 1;
    cudaGraphSetConditional(h, state[0] > 0);
}

__global__ void noop(void) {}

static int host_calls, host_calls2;
static void CUDART_CB host_fn(void *p) { host_calls += *(int *)p; }
static void CUDART_CB host_fn2(void *p) { host_calls2 += *(int *)p; }

static int not_a_symbol[8];

static cudaKernelNodeParams kparams(const void *func, unsigned grid, unsigned block, void **args, void **extra) {
    cudaKernelNodeParams p;
    memset(&p, 0, sizeof p);
    p.func = (void *)func;
    p.gridDim = dim3(grid);
    p.blockDim = dim3(block);
    p.kernelParams = args;
    p.extra = extra;
    return p;
}

/* A kernel node's parameters read back. */
static void show_kernel(const char *label, cudaGraphNode_t n, const void *func, void **args, void **extra) {
    cudaKernelNodeParams p;
    memset(&p, 0x5a, sizeof p);
    cudaError_t r = cudaGraphKernelNodeGetParams(n, &p);
    printf("%s get: %s\n", label, cudaGetErrorName(r));
    if (r != cudaSuccess) return;
    printf("%s: func %s, grid (%u,%u,%u), block (%u,%u,%u), shared %u\n", label,
           p.func == func ? "same as set" : "different", p.gridDim.x, p.gridDim.y, p.gridDim.z, p.blockDim.x,
           p.blockDim.y, p.blockDim.z, p.sharedMemBytes);
    printf("%s: kernelParams %s, extra %s\n", label,
           p.kernelParams == NULL ? "NULL" : p.kernelParams == args ? "same as set" : "different",
           p.extra == NULL ? "NULL" : p.extra == extra ? "same as set" : "different");
}

/* A copy's parameters read back, against the pointers it was made with. */
static void show_copy(const char *label, cudaGraphNode_t n, const void *src, const void *dst) {
    cudaMemcpy3DParms p;
    memset(&p, 0x5a, sizeof p);
    cudaError_t r = cudaGraphMemcpyNodeGetParams(n, &p);
    printf("%s get: %s\n", label, cudaGetErrorName(r));
    if (r != cudaSuccess) return;
    printf("%s: kind %d, extent (%llu,%llu,%llu), srcPos.x %llu, dstPos.x %llu, src %s, dst %s\n", label, (int)p.kind,
           (unsigned long long)p.extent.width, (unsigned long long)p.extent.height,
           (unsigned long long)p.extent.depth, (unsigned long long)p.srcPos.x, (unsigned long long)p.dstPos.x,
           p.srcPtr.ptr == src ? "same as set" : "different", p.dstPtr.ptr == dst ? "same as set" : "different");
    printf("%s: src pitch %llu xsize %llu ysize %llu, dst pitch %llu xsize %llu ysize %llu\n", label,
           (unsigned long long)p.srcPtr.pitch, (unsigned long long)p.srcPtr.xsize, (unsigned long long)p.srcPtr.ysize,
           (unsigned long long)p.dstPtr.pitch, (unsigned long long)p.dstPtr.xsize, (unsigned long long)p.dstPtr.ysize);
}

static void show_memset(const char *label, cudaGraphNode_t n) {
    cudaMemsetParams p;
    memset(&p, 0x5a, sizeof p);
    cudaError_t r = cudaGraphMemsetNodeGetParams(n, &p);
    printf("%s get: %s\n", label, cudaGetErrorName(r));
    if (r == cudaSuccess)
        printf("%s: value 0x%x, elementSize %u, width %llu, height %llu\n", label, p.value, p.elementSize,
               (unsigned long long)p.width, (unsigned long long)p.height);
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
    void *sym_addr = NULL, *csym_addr = NULL;
    OK(cudaGetSymbolAddress(&sym_addr, d_sym));
    OK(cudaGetSymbolAddress(&csym_addr, c_sym));

    int *d_a, *d_out, *d_c, *p2d;
    unsigned char *d_b8;
    unsigned short *d_b16;
    size_t pitch = 0;
    OK(cudaMalloc((void **)&d_a, N * 4));
    OK(cudaMalloc((void **)&d_out, 8 * 4));
    OK(cudaMalloc((void **)&d_c, N * 4));
    OK(cudaMalloc((void **)&d_b8, N));
    OK(cudaMalloc((void **)&d_b16, N * 2));
    OK(cudaMallocPitch((void **)&p2d, &pitch, W * 4, H));
    int *h_a, *h_a2, *h_sym, *h_csym, *h_back, *h_back2, *h_out, *h_out2, *h_c, *h_alloc, *h2d;
    OK(cudaMallocHost((void **)&h_a, N * 4));
    OK(cudaMallocHost((void **)&h_a2, N * 4));
    OK(cudaMallocHost((void **)&h_sym, 8 * 4));
    OK(cudaMallocHost((void **)&h_csym, 8 * 4));
    OK(cudaMallocHost((void **)&h_back, 8 * 4));
    OK(cudaMallocHost((void **)&h_back2, 8 * 4));
    OK(cudaMallocHost((void **)&h_out, 8 * 4));
    OK(cudaMallocHost((void **)&h_out2, 8 * 4));
    OK(cudaMallocHost((void **)&h_c, N * 4));
    OK(cudaMallocHost((void **)&h_alloc, N * 4));
    OK(cudaMallocHost((void **)&h2d, W * H * 4));
    for (int i = 0; i < 8; i++) {
        h_sym[i] = i;
        h_csym[i] = i + 1;
    }

    /* ---- one graph with every kind of node ---- */
    cudaGraph_t g = gn_graph();
    cudaGraphNode_t ewait, ms32, k1, k2, cp_a, tosym, tosymc, kc, fromsym, cp_out, ms8, ms16, ms2d, cp_2d, host, child,
        cp_c, alloc, ms_alloc, k_alloc, cp_alloc, freen, join, erec;
    SHOW("add event wait", cudaGraphAddEventWaitNode(&ewait, g, NULL, 0, ev_pre));
    cudaMemsetParams m32 = gn_mset(d_a, 0, 0, 4, N, 1);
    SHOW("add memset 4", cudaGraphAddMemsetNode(&ms32, g, &ewait, 1, &m32));
    int n = N, v1 = 5;
    void *args1[] = {&d_a, &n, &v1};
    cudaKernelNodeParams kp1 = kparams((const void *)add_k, N / 32, 32, args1, NULL);
    SHOW("add kernel (kernelParams)", cudaGraphAddKernelNode(&k1, g, &ms32, 1, &kp1));
    struct {
        int *p;
        int n;
        int v;
    } xargs = {d_a, N, 7};
    size_t xsize = sizeof xargs;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &xargs, CU_LAUNCH_PARAM_BUFFER_SIZE, &xsize, CU_LAUNCH_PARAM_END};
    cudaKernelNodeParams kp2 = kparams((const void *)add_k, N / 32, 32, NULL, extra);
    SHOW("add kernel (extra)", cudaGraphAddKernelNode(&k2, g, &k1, 1, &kp2));
    SHOW("add copy 1D", cudaGraphAddMemcpyNode1D(&cp_a, g, &k2, 1, h_a, d_a, N * 4, cudaMemcpyDeviceToHost));
    SHOW("add copy to __device__", cudaGraphAddMemcpyNodeToSymbol(&tosym, g, NULL, 0, d_sym, h_sym, 8 * 4, 0, cudaMemcpyHostToDevice));
    SHOW("add copy to __constant__", cudaGraphAddMemcpyNodeToSymbol(&tosymc, g, NULL, 0, c_sym, h_csym, 8 * 4, 0, cudaMemcpyDefault));
    void *argsc[] = {&d_out};
    cudaKernelNodeParams kpc = kparams((const void *)combine, 1, 8, argsc, NULL);
    cudaGraphNode_t syms[] = {tosym, tosymc};
    SHOW("add kernel reading symbols", cudaGraphAddKernelNode(&kc, g, syms, 2, &kpc));
    SHOW("add copy from __device__", cudaGraphAddMemcpyNodeFromSymbol(&fromsym, g, &kc, 1, h_back, d_sym, 8 * 4, 0, cudaMemcpyDeviceToHost));
    cudaMemcpy3DParms cpo = gn_copy_ptr(h_out, 8 * 4, d_out, 8 * 4, 8 * 4, 1, cudaMemcpyDeviceToHost);
    SHOW("add copy 3D", cudaGraphAddMemcpyNode(&cp_out, g, &kc, 1, &cpo));
    cudaMemsetParams m8 = gn_mset(d_b8, 0, 0xab, 1, N, 1), m16 = gn_mset(d_b16, 0, 0xbeef, 2, N, 1);
    cudaMemsetParams m2d = gn_mset(p2d, pitch, 9, 4, W, H);
    SHOW("add memset 1", cudaGraphAddMemsetNode(&ms8, g, NULL, 0, &m8));
    SHOW("add memset 2", cudaGraphAddMemsetNode(&ms16, g, NULL, 0, &m16));
    SHOW("add memset 2D", cudaGraphAddMemsetNode(&ms2d, g, NULL, 0, &m2d));
    cudaMemcpy3DParms c2d = gn_copy_ptr(h2d, W * 4, p2d, pitch, W * 4, H, cudaMemcpyDeviceToHost);
    SHOW("add copy 3D pitched", cudaGraphAddMemcpyNode(&cp_2d, g, &ms2d, 1, &c2d));
    int one = 1, ten = 10;
    cudaHostNodeParams hp = {host_fn, &one};
    SHOW("add host", cudaGraphAddHostNode(&host, g, &cp_a, 1, &hp));

    cudaGraph_t cg = gn_graph(), cg2 = gn_graph();
    cudaGraphNode_t cms, ck, cms2, ck2;
    cudaMemsetParams mc = gn_mset(d_c, 0, 0, 4, N, 1);
    int v3 = 3, v4 = 4;
    void *argsc3[] = {&d_c, &n, &v3}, *argsc4[] = {&d_c, &n, &v4};
    cudaKernelNodeParams kp3 = kparams((const void *)add_k, N / 32, 32, argsc3, NULL);
    cudaKernelNodeParams kp4 = kparams((const void *)add_k, N / 32, 32, argsc4, NULL);
    OK(cudaGraphAddMemsetNode(&cms, cg, NULL, 0, &mc));
    OK(cudaGraphAddKernelNode(&ck, cg, &cms, 1, &kp3));
    OK(cudaGraphAddMemsetNode(&cms2, cg2, NULL, 0, &mc));
    OK(cudaGraphAddKernelNode(&ck2, cg2, &cms2, 1, &kp4));
    SHOW("add child graph", cudaGraphAddChildGraphNode(&child, g, NULL, 0, cg));
    SHOW("add copy of the child's result", cudaGraphAddMemcpyNode1D(&cp_c, g, &child, 1, h_c, d_c, N * 4, cudaMemcpyDeviceToHost));

    cudaMemAllocNodeParams ap;
    memset(&ap, 0, sizeof ap);
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = N * 4;
    SHOW("add mem alloc", cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
    void *aptr = ap.dptr;
    cudaMemsetParams ma = gn_mset(aptr, 0, 0, 4, N, 1);
    SHOW("add memset of the allocation", cudaGraphAddMemsetNode(&ms_alloc, g, &alloc, 1, &ma));
    int v11 = 11;
    void *argsa[] = {&aptr, &n, &v11};
    cudaKernelNodeParams kpa = kparams((const void *)add_k, N / 32, 32, argsa, NULL);
    SHOW("add kernel on the allocation", cudaGraphAddKernelNode(&k_alloc, g, &ms_alloc, 1, &kpa));
    SHOW("add copy of the allocation", cudaGraphAddMemcpyNode1D(&cp_alloc, g, &k_alloc, 1, h_alloc, aptr, N * 4, cudaMemcpyDeviceToHost));
    SHOW("add mem free", cudaGraphAddMemFreeNode(&freen, g, &cp_alloc, 1, aptr));
    cudaGraphNode_t leaves[] = {host, fromsym, cp_out, ms8, ms16, cp_2d, cp_c, freen};
    SHOW("add empty", cudaGraphAddEmptyNode(&join, g, leaves, sizeof leaves / sizeof leaves[0]));
    SHOW("add event record", cudaGraphAddEventRecordNode(&erec, g, &join, 1, ev_done));
    SHOWU("nodes", gn_count(g));
    printf("types: kernel %d copy %d memset %d host %d child %d empty %d wait %d record %d alloc %d free %d\n",
           gn_type(k1), gn_type(tosym), gn_type(ms8), gn_type(host), gn_type(child), gn_type(join), gn_type(ewait),
           gn_type(erec), gn_type(alloc), gn_type(freen));

    cudaGraphExec_t e = gn_instantiate(g);
    for (int run = 1; run <= 3; run++) {
        memset(h_a, 0, N * 4);
        memset(h_back, 0, 8 * 4);
        memset(h_out, 0, 8 * 4);
        memset(h_c, 0, N * 4);
        memset(h_alloc, 0, N * 4);
        memset(h2d, 0, W * H * 4);
        OK(cudaEventRecord(ev_pre, s));
        gn_launch(e, s);
        CHECK(ct_all_int(h_a, N, 12));
        CHECK(ct_all_int(h_c, N, 3));
        CHECK(ct_all_int(h_alloc, N, 11));
        CHECK(ct_all_int(h2d, W * H, 9));
        CHECK(host_calls == run);
        int good = 1;
        for (int i = 0; i < 8; i++) good &= h_back[i] == i + 1 && h_out[i] == (i + 1) * 100 + i;
        CHECK(good);
        SHOW("event record node done", cudaEventQuery(ev_done));
    }
    unsigned char b8[N];
    unsigned short b16[N];
    OK(cudaMemcpy(b8, d_b8, N, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(b16, d_b16, N * 2, cudaMemcpyDeviceToHost));
    printf("run 3: h_a[63]=%d h_back[7]=%d h_out[7]=%d h_c[63]=%d h_alloc[63]=%d h2d[63]=%d b8[63]=0x%x b16[63]=0x%x host calls %d\n",
           h_a[63], h_back[7], h_out[7], h_c[63], h_alloc[63], h2d[63], b8[63], b16[63], host_calls);
    CHECK(b8[63] == 0xab && b16[63] == 0xbeef);

    /* ---- parameters read back ---- */
    show_kernel("kernel (kernelParams)", k1, (const void *)add_k, args1, NULL);
    show_kernel("kernel (extra)", k2, (const void *)add_k, NULL, extra);
    show_copy("copy 1D", cp_a, d_a, h_a);
    show_copy("copy to __device__", tosym, h_sym, sym_addr);
    show_copy("copy to __constant__", tosymc, h_csym, csym_addr);
    show_copy("copy from __device__", fromsym, sym_addr, h_back);
    show_copy("copy 3D", cp_out, d_out, h_out);
    show_memset("memset 4", ms32);
    show_memset("memset 1", ms8);
    show_memset("memset 2", ms16);
    show_memset("memset 2D", ms2d);
    cudaHostNodeParams hb;
    memset(&hb, 0, sizeof hb);
    SHOW("host get", cudaGraphHostNodeGetParams(host, &hb));
    SAME("host fn", (void *)hb.fn, (void *)hp.fn);
    SAME("host userData", hb.userData, hp.userData);
    cudaGraph_t cgb = NULL;
    SHOW("child get graph", cudaGraphChildGraphNodeGetGraph(child, &cgb));
    if (cgb) SHOWU("child graph nodes", gn_count(cgb));
    cudaEvent_t evb = NULL;
    SHOW("event record get", cudaGraphEventRecordNodeGetEvent(erec, &evb));
    SAME("event record event", evb, ev_done);
    SHOW("event wait get", cudaGraphEventWaitNodeGetEvent(ewait, &evb));
    SAME("event wait event", evb, ev_pre);
    cudaMemAllocNodeParams apb;
    memset(&apb, 0, sizeof apb);
    SHOW("mem alloc get", cudaGraphMemAllocNodeGetParams(alloc, &apb));
    printf("mem alloc: bytesize %llu, location (%d,%d)\n", (unsigned long long)apb.bytesize,
           (int)apb.poolProps.location.type, apb.poolProps.location.id);
    SAME("mem alloc dptr", apb.dptr, aptr);
    void *fb = NULL;
    SHOW("mem free get", cudaGraphMemFreeNodeGetParams(freen, &fb));
    SAME("mem free dptr", fb, aptr);

    /* ---- parameters set in the executable graph: a relaunch shows them. (A graph with
     * allocation nodes has one executable graph at a time: this one goes first.) ---- */
    int v70 = 70;
    void *args70[] = {&d_a, &n, &v70};
    cudaKernelNodeParams kp70 = kparams((const void *)add_k, N / 32, 32, args70, NULL);
    SHOW("exec kernel (extra node, now kernelParams)", cudaGraphExecKernelNodeSetParams(e, k2, &kp70));
    cudaMemsetParams m16b = gn_mset(d_b16, 0, 0x1234, 2, N / 2, 1);
    SHOW("exec memset", cudaGraphExecMemsetNodeSetParams(e, ms16, &m16b));
    int h_sym3v[8];
    for (int i = 0; i < 8; i++) h_sym3v[i] = 200 + i;
    memcpy(h_sym, h_sym3v, sizeof h_sym3v);
    SHOW("exec copy to symbol, offset 8", cudaGraphExecMemcpyNodeSetParamsToSymbol(e, tosym, d_sym, h_sym, 6 * 4, 8, cudaMemcpyHostToDevice));
    SHOW("exec copy from symbol", cudaGraphExecMemcpyNodeSetParamsFromSymbol(e, fromsym, h_back2, d_sym, 8 * 4, 0, cudaMemcpyDefault));
    SHOW("exec copy 1D", cudaGraphExecMemcpyNodeSetParams1D(e, cp_a, h_a2, d_a, N * 4, cudaMemcpyDeviceToHost));
    cudaMemcpy3DParms cpo2 = gn_copy_ptr(h_out2, 8 * 4, d_out, 8 * 4, 4 * 4, 1, cudaMemcpyDeviceToHost);
    SHOW("exec copy 3D", cudaGraphExecMemcpyNodeSetParams(e, cp_out, &cpo2));
    cudaHostNodeParams hp2 = {host_fn2, &ten};
    SHOW("exec host", cudaGraphExecHostNodeSetParams(e, host, &hp2));
    SHOW("exec child graph", cudaGraphExecChildGraphNodeSetParams(e, child, cg2));
    SHOW("exec event record", cudaGraphExecEventRecordNodeSetEvent(e, erec, ev_done2));
    SHOW("exec event wait", cudaGraphExecEventWaitNodeSetEvent(e, ewait, ev_pre2));
    memset(h_a2, 0, N * 4);
    memset(h_back2, 0, 8 * 4);
    memset(h_out2, 0, 8 * 4);
    memset(h_c, 0, N * 4);
    OK(cudaEventRecord(ev_pre2, s));
    gn_launch(e, s);
    OK(cudaMemcpy(b16, d_b16, N * 2, cudaMemcpyDeviceToHost));
    /* d_sym[0..1] keep what the last launch left (i + 1), d_sym[2..7] get 200..205; the
     * kernel then adds 1 to each. */
    printf("relaunch: h_a2[0]=%d h_back2[0]=%d h_back2[1]=%d h_back2[2]=%d h_back2[7]=%d h_out2[3]=%d h_c[0]=%d b16[31]=0x%x b16[32]=0x%x host_fn2 calls %d\n",
           h_a2[0], h_back2[0], h_back2[1], h_back2[2], h_back2[7], h_out2[3], h_c[0], b16[31], b16[32], host_calls2);
    /* NVIDIA's runtime refuses the from-symbol update of the executable graph
     * (cudaErrorInvalidValue, above), so h_back2 keeps the zeros it was given. */
    CHECK(h_a2[0] == 75 && h_back2[0] == 0 && h_back2[7] == 0 && h_out2[3] == 601 && h_c[0] == 4 && host_calls2 == 10);
    CHECK(b16[31] == 0x1234 && b16[32] == 0xbeef);
    SHOW("event record node done, exec event", cudaEventQuery(ev_done2));

    /* ---- kernel node attributes (on a graph of their own) ---- */
    cudaGraph_t ga = gn_graph();
    cudaGraphNode_t ka1, ka2;
    cudaKernelNodeParams kpn = kparams((const void *)noop, 2, 32, NULL, NULL);
    OK(cudaGraphAddKernelNode(&ka1, ga, NULL, 0, &kpn));
    OK(cudaGraphAddKernelNode(&ka2, ga, NULL, 0, &kpn));
    cudaLaunchAttributeValue av;
    memset(&av, 0, sizeof av);
    SHOW("get priority", cudaGraphKernelNodeGetAttribute(ka1, cudaLaunchAttributePriority, &av));
    SHOWI("priority", av.priority);
    int least = 0, greatest = 0;
    OK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    memset(&av, 0, sizeof av);
    av.priority = greatest;
    SHOW("set priority greatest", cudaGraphKernelNodeSetAttribute(ka1, cudaLaunchAttributePriority, &av));
    memset(&av, 0, sizeof av);
    OK(cudaGraphKernelNodeGetAttribute(ka1, cudaLaunchAttributePriority, &av));
    printf("priority after set is greatest: %d\n", av.priority == greatest);
    /* Which node is the destination: NVIDIA's 12.9 header names the first parameter hSrc,
     * 13.0's hDst. */
    SHOW("copy attributes (ka2, ka1)", cudaGraphKernelNodeCopyAttributes(ka2, ka1));
    memset(&av, 0, sizeof av);
    OK(cudaGraphKernelNodeGetAttribute(ka2, cudaLaunchAttributePriority, &av));
    printf("ka2 priority is greatest after copy: %d\n", av.priority == greatest);
    memset(&av, 0, sizeof av);
    av.cooperative = 1;
    SHOW("set cooperative", cudaGraphKernelNodeSetAttribute(ka1, cudaLaunchAttributeCooperative, &av));
    memset(&av, 0, sizeof av);
    SHOW("get cooperative", cudaGraphKernelNodeGetAttribute(ka1, cudaLaunchAttributeCooperative, &av));
    SHOWI("cooperative", av.cooperative);
    memset(&av, 0, sizeof av);
    av.accessPolicyWindow.base_ptr = d_a;
    av.accessPolicyWindow.num_bytes = N * 4;
    av.accessPolicyWindow.hitRatio = 0.5f;
    av.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    av.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    SHOW("set access policy window", cudaGraphKernelNodeSetAttribute(ka1, cudaLaunchAttributeAccessPolicyWindow, &av));
    memset(&av, 0, sizeof av);
    SHOW("get access policy window", cudaGraphKernelNodeGetAttribute(ka1, cudaLaunchAttributeAccessPolicyWindow, &av));
    printf("window: base %s, bytes %llu, hitRatio*100 %d, hitProp %d, missProp %d\n",
           av.accessPolicyWindow.base_ptr == d_a ? "same as set" : "different",
           (unsigned long long)av.accessPolicyWindow.num_bytes, (int)(av.accessPolicyWindow.hitRatio * 100),
           (int)av.accessPolicyWindow.hitProp, (int)av.accessPolicyWindow.missProp);
    memset(&av, 0, sizeof av);
    SHOW("get cluster dimension", cudaGraphKernelNodeGetAttribute(ka1, cudaLaunchAttributeClusterDimension, &av));
    printf("cluster (%u,%u,%u)\n", av.clusterDim.x, av.clusterDim.y, av.clusterDim.z);
    memset(&av, 0, sizeof av);
    av.clusterDim.x = 2;
    av.clusterDim.y = 1;
    av.clusterDim.z = 1;
    SHOW("set cluster dimension 2", cudaGraphKernelNodeSetAttribute(ka1, cudaLaunchAttributeClusterDimension, &av));
    memset(&av, 0, sizeof av);
    SHOW("get mem sync domain", cudaGraphKernelNodeGetAttribute(ka1, cudaLaunchAttributeMemSyncDomain, &av));
    SHOWI("mem sync domain", av.memSyncDomain);
    SHOW("get attribute 99", cudaGraphKernelNodeGetAttribute(ka1, (cudaLaunchAttributeID)99, &av));
    SHOW_LAST("attribute 99");
    SHOW("get priority of a memset node", cudaGraphKernelNodeGetAttribute(ms8, cudaLaunchAttributePriority, &av));
    SHOW_LAST("memset node");
    SHOW("set priority of a memset node", cudaGraphKernelNodeSetAttribute(ms8, cudaLaunchAttributePriority, &av));
    SHOW("copy attributes to a memset node", cudaGraphKernelNodeCopyAttributes(ms8, ka1));
    SHOW("get priority of a NULL node", cudaGraphKernelNodeGetAttribute(NULL, cudaLaunchAttributePriority, &av));
    gn_destroy(ga);

    /* ---- kernels the runtime does not know, other kernel errors ---- */
    cudaGraph_t ge = gn_graph();
    cudaGraphNode_t kn = NULL;
    cudaKernelNodeParams bad = kparams(NULL, 1, 1, NULL, NULL);
    SHOW("add kernel NULL func", cudaGraphAddKernelNode(&kn, ge, NULL, 0, &bad));
    SHOW_LAST("NULL func");
    bad = kparams((const void *)main, 1, 1, NULL, NULL);
    SHOW("add kernel unregistered func", cudaGraphAddKernelNode(&kn, ge, NULL, 0, &bad));
    SHOW_LAST("unregistered func");
    cudaKernelNodeParams knp = kparams((const void *)noop, 1, 1, NULL, NULL);
    SHOW("add kernel noop", cudaGraphAddKernelNode(&kn, ge, NULL, 0, &knp));
    show_kernel("noop", kn, (const void *)noop, NULL, NULL);
    SHOW("set kernel unregistered func", cudaGraphKernelNodeSetParams(kn, &bad));
    show_kernel("noop after failed set", kn, (const void *)noop, NULL, NULL);
    cudaKernel_t kh = NULL;
    OK(cudaGetKernel(&kh, (const void *)noop));
    cudaKernelNodeParams khp = kparams((const void *)kh, 1, 1, NULL, NULL);
    cudaGraphNode_t kn2 = NULL;
    SHOW("add kernel by cudaKernel_t", cudaGraphAddKernelNode(&kn2, ge, NULL, 0, &khp));
    cudaKernelNodeParams kb;
    memset(&kb, 0, sizeof kb);
    OK(cudaGraphKernelNodeGetParams(kn2, &kb));
    printf("by cudaKernel_t, read back: the stub %d, the kernel handle %d\n", kb.func == (void *)noop, kb.func == (void *)kh);
    cudaKernelNodeParams big = kparams((const void *)noop, 1, 2048, NULL, NULL);
    SHOW("add kernel 2048 threads", cudaGraphAddKernelNode(&kn2, ge, NULL, 0, &big));
    SHOW_LAST("2048 threads");
    big = kparams((const void *)noop, 0, 1, NULL, NULL);
    SHOW("add kernel grid 0", cudaGraphAddKernelNode(&kn2, ge, NULL, 0, &big));
    big = kparams((const void *)noop, 1, 1, NULL, NULL);
    big.sharedMemBytes = 1 << 20;
    SHOW("add kernel 1 MiB shared", cudaGraphAddKernelNode(&kn2, ge, NULL, 0, &big));
    SHOW("kernel get on a memset node", cudaGraphKernelNodeGetParams(ms8, &kb));
    SHOW_LAST("kernel get on a memset node");
    SHOW("kernel set on a memset node", cudaGraphKernelNodeSetParams(ms8, &knp));
    SHOW("exec kernel set, other function", cudaGraphExecKernelNodeSetParams(e, k1, &knp));
    SHOW_LAST("other function");
    SHOW("exec kernel set unregistered", cudaGraphExecKernelNodeSetParams(e, k1, &bad));
    SHOW("exec kernel set on a node not in the graph", cudaGraphExecKernelNodeSetParams(e, kn, &knp));
    gn_destroy(ge);

    /* ---- symbol errors ---- */
    cudaGraph_t gs = gn_graph();
    cudaGraphNode_t sn = NULL;
    SHOW("to symbol not a symbol", cudaGraphAddMemcpyNodeToSymbol(&sn, gs, NULL, 0, not_a_symbol, h_sym, 4, 0, cudaMemcpyHostToDevice));
    SHOW_LAST("not a symbol");
    SHOW("to symbol past end", cudaGraphAddMemcpyNodeToSymbol(&sn, gs, NULL, 0, d_sym, h_sym, 8 * 4, 4, cudaMemcpyHostToDevice));
    SHOW("to symbol kind DeviceToHost", cudaGraphAddMemcpyNodeToSymbol(&sn, gs, NULL, 0, d_sym, h_sym, 4, 0, cudaMemcpyDeviceToHost));
    SHOW("to symbol kind 7", cudaGraphAddMemcpyNodeToSymbol(&sn, gs, NULL, 0, d_sym, h_sym, 4, 0, (cudaMemcpyKind)7));
    SHOW("to symbol 0 bytes", cudaGraphAddMemcpyNodeToSymbol(&sn, gs, NULL, 0, d_sym, h_sym, 0, 0, cudaMemcpyHostToDevice));
    SHOW("from symbol not a symbol", cudaGraphAddMemcpyNodeFromSymbol(&sn, gs, NULL, 0, h_back, not_a_symbol, 4, 0, cudaMemcpyDeviceToHost));
    SHOW("from symbol kind HostToDevice", cudaGraphAddMemcpyNodeFromSymbol(&sn, gs, NULL, 0, h_back, d_sym, 4, 0, cudaMemcpyHostToDevice));
    SHOW("from symbol past end", cudaGraphAddMemcpyNodeFromSymbol(&sn, gs, NULL, 0, h_back, c_sym, 4, 8 * 4, cudaMemcpyDeviceToHost));
    SHOW("from __constant__ to device", cudaGraphAddMemcpyNodeFromSymbol(&sn, gs, NULL, 0, d_out, c_sym, 8 * 4, 0, cudaMemcpyDeviceToDevice));
    show_copy("from __constant__ to device", sn, csym_addr, d_out);
    SHOW("set to symbol not a symbol", cudaGraphMemcpyNodeSetParamsToSymbol(sn, not_a_symbol, h_sym, 4, 0, cudaMemcpyHostToDevice));
    SHOW("set from symbol bad kind", cudaGraphMemcpyNodeSetParamsFromSymbol(sn, h_back, d_sym, 4, 0, cudaMemcpyHostToHost));
    SHOW("exec set to symbol not a symbol", cudaGraphExecMemcpyNodeSetParamsToSymbol(e, tosym, not_a_symbol, h_sym, 4, 0, cudaMemcpyHostToDevice));
    SHOW("exec set from symbol past end", cudaGraphExecMemcpyNodeSetParamsFromSymbol(e, fromsym, h_back, d_sym, 8, 8 * 4, cudaMemcpyDeviceToHost));
    gn_destroy(gs);
    gn_exec_destroy(e);

    /* ---- parameters set in the graph: a new instantiation shows them ---- */
    int v50 = 50;
    void *args50[] = {&d_a, &n, &v50};
    cudaKernelNodeParams kp50 = kparams((const void *)add_k, N / 32, 32, args50, NULL);
    SHOW("kernel set", cudaGraphKernelNodeSetParams(k1, &kp50));
    show_kernel("kernel after set", k1, (const void *)add_k, args50, NULL);
    cudaMemsetParams m32b = gn_mset(d_a, 0, 1, 4, N, 1);
    SHOW("memset set", cudaGraphMemsetNodeSetParams(ms32, &m32b));
    int *h_sym2 = h_back2; /* reused below as a destination too */
    int h_sym2v[8];
    for (int i = 0; i < 8; i++) h_sym2v[i] = 100 + i;
    memcpy(h_sym2, h_sym2v, sizeof h_sym2v);
    SHOW("copy set to symbol", cudaGraphMemcpyNodeSetParamsToSymbol(tosym, d_sym, h_sym2, 8 * 4, 0, cudaMemcpyHostToDevice));
    show_copy("copy to symbol after set", tosym, h_sym2, sym_addr);
    SHOW("copy set from symbol, offset 16", cudaGraphMemcpyNodeSetParamsFromSymbol(fromsym, h_back, d_sym, 4 * 4, 16, cudaMemcpyDeviceToHost));
    show_copy("copy from symbol after set", fromsym, (char *)sym_addr + 16, h_back);
    SHOW("copy set 1D", cudaGraphMemcpyNodeSetParams1D(cp_a, h_a2, d_a, N * 4, cudaMemcpyDefault));
    show_copy("copy 1D after set", cp_a, d_a, h_a2);
    SHOW("copy set 3D", cudaGraphMemcpyNodeSetParams(cp_out, &cpo2));
    cudaGraphExec_t e2 = gn_instantiate(g);
    memset(h_a2, 0, N * 4);
    memset(h_back, 0, 8 * 4);
    memset(h_out2, 0, 8 * 4);
    OK(cudaEventRecord(ev_pre, s));
    gn_launch(e2, s);
    printf("new instantiation: h_a2[0]=%d h_back[0]=%d h_back[3]=%d h_back[4]=%d h_out2[3]=%d h_out2[4]=%d\n", h_a2[0],
           h_back[0], h_back[3], h_back[4], h_out2[3], h_out2[4]);
    CHECK(h_a2[0] == 1 + 50 + 7 && h_back[0] == 105 && h_back[3] == 108 && h_out2[3] == 503 && h_out2[4] == 0);
    gn_exec_destroy(e2);

    /* ---- cudaGraphAddNode, NodeSetParams and ExecNodeSetParams ---- */
    cudaGraph_t g3 = gn_graph();
    cudaGraphNode_t n_alloc, n_ms, n_k, n_cp, n_free;
    cudaGraphNodeParams np = {};
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemAlloc;
    np.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
    np.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
    np.alloc.bytesize = N * 4;
    SHOW("AddNode mem alloc", ADD_NODE(&n_alloc, g3, NULL, 0, &np));
    void *aptr3 = np.alloc.dptr;
    CHECK(aptr3 != NULL);
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemset;
    np.memset.dst = aptr3;
    np.memset.value = 2;
    np.memset.elementSize = 4;
    np.memset.width = N;
    np.memset.height = 1;
    SHOW("AddNode memset", ADD_NODE_V2(&n_ms, g3, &n_alloc, 1, &np));
    int v6 = 6;
    void *args6[] = {&aptr3, &n, &v6};
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeKernel;
    np.kernel.func = (void *)add_k;
    np.kernel.gridDim = dim3(N / 32);
    np.kernel.blockDim = dim3(32);
    np.kernel.kernelParams = args6;
    SHOW("AddNode kernel", ADD_NODE(&n_k, g3, &n_ms, 1, &np));
    show_kernel("AddNode kernel", n_k, (const void *)add_k, args6, NULL);
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemcpy;
    np.memcpy.copyParams = gn_copy_ptr(h_a, N * 4, aptr3, N * 4, N * 4, 1, cudaMemcpyDeviceToHost);
    SHOW("AddNode memcpy", ADD_NODE_V2(&n_cp, g3, &n_k, 1, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemFree;
    np.free.dptr = aptr3;
    SHOW("AddNode mem free", ADD_NODE(&n_free, g3, &n_cp, 1, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeKernel;
    np.kernel.func = (void *)main;
    np.kernel.gridDim = dim3(1);
    np.kernel.blockDim = dim3(1);
    cudaGraphNode_t n_bad = NULL;
    SHOW("AddNode kernel unregistered", ADD_NODE_V2(&n_bad, g3, NULL, 0, &np));
    np.kernel.func = NULL;
    SHOW("AddNode kernel NULL func", ADD_NODE(&n_bad, g3, NULL, 0, &np));
    memset(&np, 0, sizeof np);
    np.type = (cudaGraphNodeType)12;
    SHOW("AddNode type 12", ADD_NODE_V2(&n_bad, g3, NULL, 0, &np));
    np.type = cudaGraphNodeTypeCount;
    SHOW("AddNode type Count", ADD_NODE(&n_bad, g3, NULL, 0, &np));
    SHOW_LAST("type Count");
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeEmpty;
    np.reserved0[0] = 1;
    SHOW("AddNode reserved0 set", ADD_NODE_V2(&n_bad, g3, NULL, 0, &np));
    np.reserved0[0] = 0;
    np.reserved2 = 1;
    SHOW("AddNode reserved2 set", ADD_NODE(&n_bad, g3, NULL, 0, &np));
    cudaGraphExec_t e3 = gn_instantiate(g3);
    memset(h_a, 0, N * 4);
    gn_launch(e3, s);
    printf("AddNode graph: h_a[0]=%d h_a[63]=%d\n", h_a[0], h_a[63]);
    CHECK(ct_all_int(h_a, N, 8));
    int v9 = 9;
    void *args9[] = {&aptr3, &n, &v9};
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeKernel;
    np.kernel.func = (void *)add_k;
    np.kernel.gridDim = dim3(N / 32);
    np.kernel.blockDim = dim3(32);
    np.kernel.kernelParams = args9;
    SHOW("NodeSetParams kernel", cudaGraphNodeSetParams(n_k, &np));
    show_kernel("NodeSetParams kernel", n_k, (const void *)add_k, args9, NULL);
    SHOW("ExecNodeSetParams kernel", cudaGraphExecNodeSetParams(e3, n_k, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemset;
    np.memset.dst = aptr3;
    np.memset.value = 1;
    np.memset.elementSize = 4;
    np.memset.width = N;
    np.memset.height = 1;
    SHOW("ExecNodeSetParams memset", cudaGraphExecNodeSetParams(e3, n_ms, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemcpy;
    np.memcpy.copyParams = gn_copy_ptr(h_a2, N * 4, aptr3, N * 4, N * 4, 1, cudaMemcpyDefault);
    SHOW("ExecNodeSetParams memcpy", cudaGraphExecNodeSetParams(e3, n_cp, &np));
    np.memcpy.flags = 1;
    SHOW("ExecNodeSetParams memcpy flags 1", cudaGraphExecNodeSetParams(e3, n_cp, &np));
    memset(&np, 0, sizeof np);
    np.type = cudaGraphNodeTypeMemAlloc;
    np.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
    np.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
    np.alloc.bytesize = N * 4;
    SHOW("ExecNodeSetParams mem alloc", cudaGraphExecNodeSetParams(e3, n_alloc, &np));
    memset(h_a2, 0, N * 4);
    gn_launch(e3, s);
    printf("AddNode graph relaunched: h_a2[0]=%d h_a2[63]=%d\n", h_a2[0], h_a2[63]);
    /* The copy node kept its destination: setting another one failed above. */
    CHECK(ct_all_int(h_a2, N, 0));
    gn_exec_destroy(e3);
    gn_destroy(g3);

    /* ---- conditional nodes ---- */
    int *d_if, *d_state;
    OK(cudaMalloc((void **)&d_if, 4));
    OK(cudaMalloc((void **)&d_state, 8));
    cudaGraph_t gc = gn_graph();
    cudaGraphConditionalHandle hif = gn_cond(gc, 0, 0);
    unsigned flag = 1;
    void *argsif[] = {&hif, &flag};
    cudaKernelNodeParams kpif = kparams((const void *)set_cond, 1, 1, argsif, NULL);
    cudaGraphNode_t k_if, n_if;
    OK(cudaGraphAddKernelNode(&k_if, gc, NULL, 0, &kpif));
    np = gn_conditional(hif, cudaGraphCondTypeIf, 2);
    SHOW("AddNode IF/else", ADD_NODE_V2(&n_if, gc, &k_if, 1, &np));
    CHECK(np.conditional.phGraph_out != NULL);
    if (np.conditional.phGraph_out) {
        int one_i = 1, v100 = 100, v1000 = 1000;
        void *a_then[] = {&d_if, &one_i, &v100}, *a_else[] = {&d_if, &one_i, &v1000};
        cudaKernelNodeParams kthen = kparams((const void *)add_k, 1, 1, a_then, NULL);
        cudaKernelNodeParams kelse = kparams((const void *)add_k, 1, 1, a_else, NULL);
        cudaGraphNode_t bt, be;
        SHOW("kernel in the IF body", cudaGraphAddKernelNode(&bt, np.conditional.phGraph_out[0], NULL, 0, &kthen));
        SHOW("kernel in the else body", cudaGraphAddKernelNode(&be, np.conditional.phGraph_out[1], NULL, 0, &kelse));
        printf("IF type %d, body nodes %llu %llu\n", gn_type(n_if), (unsigned long long)gn_count(np.conditional.phGraph_out[0]),
               (unsigned long long)gn_count(np.conditional.phGraph_out[1]));
    }
    cudaGraphExec_t ec = gn_instantiate(gc);
    OK(cudaMemset(d_if, 0, 4));
    gn_launch(ec, s);
    int r_if = 0;
    OK(cudaMemcpy(&r_if, d_if, 4, cudaMemcpyDeviceToHost));
    SHOWI("IF with condition 1", r_if);
    CHECK(r_if == 100);
    flag = 0;
    SHOW("exec kernel set condition 0", cudaGraphExecKernelNodeSetParams(ec, k_if, &kpif));
    gn_launch(ec, s);
    OK(cudaMemcpy(&r_if, d_if, 4, cudaMemcpyDeviceToHost));
    SHOWI("IF with condition 0 (else)", r_if);
    CHECK(r_if == 1100);
    gn_exec_destroy(ec);
    gn_destroy(gc);

    cudaGraph_t gw = gn_graph();
    cudaGraphConditionalHandle hw = gn_cond(gw, 0, 0);
    int loops = 5;
    void *argsw[] = {&hw, &d_state, &loops};
    cudaKernelNodeParams kpw = kparams((const void *)loop_start, 1, 1, argsw, NULL);
    cudaGraphNode_t k_w, n_w;
    OK(cudaGraphAddKernelNode(&k_w, gw, NULL, 0, &kpw));
    np = gn_conditional(hw, cudaGraphCondTypeWhile, 1);
    SHOW("AddNode WHILE", ADD_NODE(&n_w, gw, &k_w, 1, &np));
    if (np.conditional.phGraph_out) {
        void *argsb[] = {&hw, &d_state};
        cudaKernelNodeParams kpb = kparams((const void *)loop_body, 1, 1, argsb, NULL);
        cudaGraphNode_t bw;
        SHOW("kernel in the WHILE body", cudaGraphAddKernelNode(&bw, np.conditional.phGraph_out[0], NULL, 0, &kpb));
    }
    cudaGraphExec_t ew = gn_instantiate(gw);
    int st[2] = {0, 0};
    gn_launch(ew, s);
    OK(cudaMemcpy(st, d_state, 8, cudaMemcpyDeviceToHost));
    printf("WHILE 5: left %d, iterations %d\n", st[0], st[1]);
    CHECK(st[1] == 5);
    loops = 3;
    SHOW("exec kernel set 3 iterations", cudaGraphExecKernelNodeSetParams(ew, k_w, &kpw));
    gn_launch(ew, s);
    OK(cudaMemcpy(st, d_state, 8, cudaMemcpyDeviceToHost));
    printf("WHILE 3: left %d, iterations %d\n", st[0], st[1]);
    CHECK(st[1] == 3);
    loops = 0;
    SHOW("exec kernel set 0 iterations", cudaGraphExecKernelNodeSetParams(ew, k_w, &kpw));
    gn_launch(ew, s);
    OK(cudaMemcpy(st, d_state, 8, cudaMemcpyDeviceToHost));
    printf("WHILE 0: left %d, iterations %d\n", st[0], st[1]);
    CHECK(st[1] == 0);
    np = gn_conditional(hw, cudaGraphCondTypeWhile, 2);
    cudaGraphNode_t n_w2 = NULL;
    SHOW("AddNode WHILE size 2", ADD_NODE_V2(&n_w2, gw, NULL, 0, &np));
    SHOW_LAST("WHILE size 2");
    gn_exec_destroy(ew);
    gn_destroy(gw);

    gn_destroy(cg);
    gn_destroy(cg2);
    gn_destroy(g);
    ct_free_device(d_if, d_state, d_a, d_out, d_c, d_b8, d_b16, p2d, NULL);
    OK(cudaStreamDestroy(s));
    DONE();
}
