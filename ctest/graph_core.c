/* The graph core: graphs of empty nodes (the driver's cuGraphAddEmptyNode) and of captured
 * memsets and copies; topology queries and the count-query convention, adding and removing
 * dependencies, clone and find-in-clone, destroying nodes, node types, instantiation with
 * each flag and with parameters, upload and launch on each kind of stream, enabling nodes,
 * executable graph update and its result, DOT output, user objects and their destructors,
 * graph memory attributes, conditional handles, and which calls make a context current. */
#include "ctest.h"
#include "graph_util.h"
#include <pthread.h>
#include <unistd.h>

#define N 1024

/* Per-thread-stream exports, called by name as a program built with
 * --default-stream per-thread does. */
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                                cudaGraphInstantiateParams *instantiateParams);

typedef int (*ctx_get_t)(void **);
static ctx_get_t cu_ctx_get;

static volatile int dtor_calls;
static void dtor(void *p) {
    (void)p;
    __sync_fetch_and_add(&dtor_calls, 1);
}

/* Waits (up to 5 s) for the destructor count to reach `want`; user object destructors run
 * on a driver thread. Prints the count. */
static void wait_dtors(const char *label, int want) {
    for (int i = 0; i < 500 && dtor_calls < want; i++) usleep(10000);
    printf("%s: destructor calls = %d\n", label, dtor_calls);
}

/* A graph captured from stream `s`: memsets of `a` and `b` (in that order, one after the
 * other) to `va` and `vb`; with `extra`, a third memset of `b`. */
static cudaGraph_t capture_memsets(cudaStream_t s, unsigned char *a, int va, unsigned char *b, int vb, int extra) {
    cudaGraph_t g = NULL;
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaMemsetAsync(a, va, N, s));
    OK(cudaMemsetAsync(b, vb, N, s));
    if (extra) OK(cudaMemsetAsync(b, vb, N / 2, s));
    OK(cudaStreamEndCapture(s, &g));
    return g;
}

struct fresh {
    int which;
    cudaGraph_t g;
    cudaGraphExec_t e;
    cudaGraphNode_t node;
};

/* In a thread of its own (no context current): one call, then whether a context is current. */
static void *fresh_thread(void *arg) {
    struct fresh *f = (struct fresh *)arg;
    cudaError_t r = cudaSuccess;
    const char *what = "";
    cudaUserObject_t o = NULL;
    cudaGraphConditionalHandle h = 0;
    unsigned long long v = 0;
    unsigned int en = 9;
    cudaGraph_t g = NULL;
    switch (f->which) {
    case 0:
        what = "cudaUserObjectCreate";
        r = cudaUserObjectCreate(&o, NULL, dtor, 1, cudaUserObjectNoDestructorSync);
        break;
    case 1:
        what = "cudaDeviceGetGraphMemAttribute";
        r = cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &v);
        break;
    case 2:
        what = "cudaGraphNodeGetEnabled";
        r = cudaGraphNodeGetEnabled(f->e, f->node, &en);
        break;
    case 3:
        what = "cudaGraphConditionalHandleCreate";
        r = cudaGraphConditionalHandleCreate(&h, f->g, 0, 0);
        break;
    case 4:
        what = "cudaGraphCreate";
        r = cudaGraphCreate(&g, 0);
        break;
    case 5:
        what = "cudaDeviceGraphMemTrim";
        r = cudaDeviceGraphMemTrim(0);
        break;
    }
    void *ctx = (void *)1;
    int cr = cu_ctx_get ? cu_ctx_get(&ctx) : -1;
    printf("fresh thread %s: %s, context current after: %d (%d)\n", what, cudaGetErrorName(r), ctx != NULL, cr);
    if (f->which == 2) SHOWU("fresh thread isEnabled", en);
    if (o) cudaUserObjectRelease(o, 1);
    if (g) cudaGraphDestroy(g);
    return NULL;
}

static void in_fresh_thread(int which, cudaGraph_t g, cudaGraphExec_t e, cudaGraphNode_t node) {
    struct fresh f = {which, g, e, node};
    pthread_t t;
    pthread_create(&t, NULL, fresh_thread, &f);
    pthread_join(t, NULL);
}

int main(void) {
    CHECK(gu_driver());
    if (ct_failed) DONE();
    {
        const char *path = getenv("CUDART_RS_DRIVER");
        void *lib = dlopen(path ? path : "libcuda.so.1", RTLD_NOW);
        cu_ctx_get = lib ? (ctx_get_t)dlsym(lib, "cuCtxGetCurrent") : NULL;
    }

    /* Threads that call one graph function first: which of them make a context current.
     * (Before any other runtime call on the main thread, too.) */
    in_fresh_thread(0, NULL, NULL, NULL);
    in_fresh_thread(1, NULL, NULL, NULL);
    in_fresh_thread(5, NULL, NULL, NULL);
    in_fresh_thread(4, NULL, NULL, NULL);
    wait_dtors("object of the first fresh thread released", 1);

    /* ---- creation ---- */
    cudaGraph_t g = NULL, g2 = NULL, bad = NULL;
    OK(SHOW("cudaGraphCreate", cudaGraphCreate(&g, 0)));
    CHECK(g != NULL);
    SHOW("cudaGraphCreate(flags 1)", cudaGraphCreate(&bad, 1));
    SHOW_LAST("after flags 1");
    SHOW("cudaGraphCreate(NULL)", cudaGraphCreate(NULL, 0));
    SHOW_LAST("after NULL graph out");
    SHOW("cudaGraphDestroy(NULL)", cudaGraphDestroy(NULL));
    SHOW_LAST("after destroying NULL");
    OK(cudaGraphCreate(&g2, 0));
    gu_show("empty graph", g);

    /* ---- topology: A -> B, A -> C, B -> D, C -> D, and E alone ---- */
    cudaGraphNode_t A = gu_empty(g, NULL, 0);
    cudaGraphNode_t B = gu_empty(g, &A, 1);
    cudaGraphNode_t C = gu_empty(g, &A, 1);
    cudaGraphNode_t bc[2] = {B, C};
    cudaGraphNode_t D = gu_empty(g, bc, 2);
    cudaGraphNode_t E = gu_empty(g, NULL, 0);
    cudaGraphNode_t mine[5] = {A, B, C, D, E};
    cudaGraphNode_t other = gu_empty(g2, NULL, 0);
    if (ct_failed) DONE();
    gu_show("diamond", g);

    cudaGraphNode_t got[8];
    size_t n = 0;
    OK(SHOW("cudaGraphGetNodes(count)", cudaGraphGetNodes(g, NULL, &n)));
    SHOWU("count", n);
    for (int i = 0; i < 8; i++) got[i] = (cudaGraphNode_t)(size_t)0x5a5a;
    n = 8;
    OK(SHOW("cudaGraphGetNodes(8)", cudaGraphGetNodes(g, got, &n)));
    SHOWU("numNodes after asking 8", n);
    {
        int nulls = 0, order = 1;
        for (int i = 0; i < 8; i++) nulls += got[i] == NULL;
        for (int i = 0; i < 5; i++) order &= gu_index(mine, 5, got[i]) == i;
        SHOWI("NULL entries of 8", nulls);
        SHOWI("nodes in creation order", order);
    }
    n = 2;
    for (int i = 0; i < 8; i++) got[i] = NULL;
    OK(SHOW("cudaGraphGetNodes(2)", cudaGraphGetNodes(g, got, &n)));
    SHOWU("numNodes after asking 2", n);
    printf("first two: %d %d, third untouched: %d\n", gu_index(mine, 5, got[0]), gu_index(mine, 5, got[1]), got[2] == NULL);
    n = 0;
    SHOW("cudaGraphGetNodes(array, 0)", cudaGraphGetNodes(g, got, &n));
    SHOWU("numNodes after asking 0", n);
    SHOW("cudaGraphGetNodes(NULL count)", cudaGraphGetNodes(g, got, NULL));
    SHOW_LAST("after NULL count");
    n = 9;
    SHOW("cudaGraphGetNodes(NULL graph)", cudaGraphGetNodes(NULL, NULL, &n));
    SHOW_LAST("after NULL graph");
    n = 1;
    SHOW("cudaGraphGetRootNodes(1)", cudaGraphGetRootNodes(g, got, &n));
    printf("root asked 1: n=%llu first=%d\n", (unsigned long long)n, gu_index(mine, 5, got[0]));
    SHOW("cudaGraphGetRootNodes(NULL count)", cudaGraphGetRootNodes(g, NULL, NULL));

    cudaGraphNode_t from[8], to[8];
    size_t m = 0;
    OK(SHOW("cudaGraphGetEdges(count)", GU_GET_EDGES(g, NULL, NULL, &m)));
    SHOWU("edges", m);
    m = 2;
    SHOW("cudaGraphGetEdges(2)", GU_GET_EDGES(g, from, to, &m));
    SHOWU("edges after asking 2", m);
    m = 4;
    SHOW("cudaGraphGetEdges(from only)", GU_GET_EDGES(g, from, NULL, &m));
    SHOW("cudaGraphGetEdges(NULL count)", GU_GET_EDGES(g, from, to, NULL));
    SHOW_LAST("after edge errors");
#if CUDART_VERSION >= 13000
    {
        cudaGraphEdgeData ed[8];
        memset(ed, 0x77, sizeof ed);
        m = 8;
        OK(SHOW("cudaGraphGetEdges(edge data)", cudaGraphGetEdges(g, from, to, ed, &m)));
        for (size_t i = 0; i < m; i++)
            printf("edge %d->%d data: from_port %d to_port %d type %d reserved0 %d\n", gu_index(mine, 5, from[i]),
                   gu_index(mine, 5, to[i]), ed[i].from_port, ed[i].to_port, ed[i].type, ed[i].reserved[0]);
        m = 8;
        SHOW("cudaGraphGetEdges(edge data, no nodes)", cudaGraphGetEdges(g, NULL, NULL, ed, &m));
        SHOWU("count", m);
    }
#else
    {
        cudaGraphEdgeData ed[8];
        memset(ed, 0x77, sizeof ed);
        m = 8;
        OK(SHOW("cudaGraphGetEdges_v2(edge data)", cudaGraphGetEdges_v2(g, from, to, ed, &m)));
        for (size_t i = 0; i < m; i++)
            printf("edge %d->%d data: from_port %d to_port %d type %d reserved0 %d\n", gu_index(mine, 5, from[i]),
                   gu_index(mine, 5, to[i]), ed[i].from_port, ed[i].to_port, ed[i].type, ed[i].reserved[0]);
        m = 0;
        OK(SHOW("cudaGraphGetEdges_v2(count)", cudaGraphGetEdges_v2(g, NULL, NULL, NULL, &m)));
        SHOWU("count", m);
    }
#endif

    n = 0;
    OK(SHOW("cudaGraphNodeGetDependencies(D, count)", GU_GET_DEPS(D, NULL, &n)));
    SHOWU("dependencies of D", n);
    n = 8;
    OK(SHOW("cudaGraphNodeGetDependencies(D)", GU_GET_DEPS(D, got, &n)));
    printf("dependencies of D: %d %d (n=%llu)\n", gu_index(mine, 5, got[0]), gu_index(mine, 5, got[1]), (unsigned long long)n);
    n = 8;
    OK(SHOW("cudaGraphNodeGetDependentNodes(A)", GU_GET_DEPENDENTS(A, got, &n)));
    printf("dependents of A: %d %d (n=%llu)\n", gu_index(mine, 5, got[0]), gu_index(mine, 5, got[1]), (unsigned long long)n);
    n = 8;
    OK(SHOW("cudaGraphNodeGetDependentNodes(E)", GU_GET_DEPENDENTS(E, got, &n)));
    SHOWU("dependents of E", n);
    SHOW("cudaGraphNodeGetDependencies(NULL count)", GU_GET_DEPS(D, got, NULL));
    n = 8;
    SHOW("cudaGraphNodeGetDependencies(NULL node)", GU_GET_DEPS(NULL, got, &n));
    SHOW_LAST("after dependency errors");
#if CUDART_VERSION < 13000
    {
        cudaGraphEdgeData ed[4];
        n = 4;
        OK(SHOW("cudaGraphNodeGetDependencies_v2(D)", cudaGraphNodeGetDependencies_v2(D, got, ed, &n)));
        SHOWU("n", n);
        n = 4;
        OK(SHOW("cudaGraphNodeGetDependentNodes_v2(A)", cudaGraphNodeGetDependentNodes_v2(A, got, ed, &n)));
        SHOWU("n", n);
    }
#endif

    /* ---- adding and removing dependencies ---- */
    OK(SHOW("add E->D", GU_ADD_DEPS(g, &E, &D, 1)));
    gu_show("after E->D", g);
    SHOW("add A->B again", GU_ADD_DEPS(g, &A, &B, 1));
    SHOW_LAST("after duplicate edge");
    SHOW("add A->A", GU_ADD_DEPS(g, &A, &A, 1));
    SHOW_LAST("after self edge");
    SHOW("add none (NULL arrays, 0)", GU_ADD_DEPS(g, NULL, NULL, 0));
    SHOW("add NULL from", GU_ADD_DEPS(g, NULL, &D, 1));
    SHOW("add from another graph", GU_ADD_DEPS(g, &other, &D, 1));
    SHOW("add to NULL graph", GU_ADD_DEPS(NULL, &E, &B, 1));
    SHOW_LAST("after add errors");
    GU_REMOVE_DEPS(g, &A, &A, 1); /* in case the self edge was taken */
    cudaGetLastError();
#if CUDART_VERSION >= 13000
    {
        cudaGraphEdgeData ed;
        memset(&ed, 0, sizeof ed);
        ed.type = cudaGraphDependencyTypeProgrammatic;
        ed.from_port = cudaGraphKernelNodePortProgrammatic;
        SHOW("add E->B programmatic (empty nodes)", cudaGraphAddDependencies(g, &E, &B, &ed, 1));
        SHOW_LAST("after programmatic edge");
        memset(&ed, 0, sizeof ed);
        ed.reserved[0] = 1;
        SHOW("add E->B reserved byte set", cudaGraphAddDependencies(g, &E, &B, &ed, 1));
        memset(&ed, 0, sizeof ed);
        OK(SHOW("add E->B default edge data", cudaGraphAddDependencies(g, &E, &B, &ed, 1)));
        SHOW("remove E->B with other edge data", cudaGraphRemoveDependencies(g, &E, &B, &(cudaGraphEdgeData){.to_port = 1}, 1));
        SHOW("remove E->B", cudaGraphRemoveDependencies(g, &E, &B, &ed, 1));
    }
#else
    {
        cudaGraphEdgeData ed;
        memset(&ed, 0, sizeof ed);
        OK(SHOW("add_v2 E->B default edge data", cudaGraphAddDependencies_v2(g, &E, &B, &ed, 1)));
        ed.type = cudaGraphDependencyTypeProgrammatic;
        SHOW("add_v2 E->C programmatic (empty nodes)", cudaGraphAddDependencies_v2(g, &E, &C, &ed, 1));
        memset(&ed, 0, sizeof ed);
        OK(SHOW("remove_v2 E->B", cudaGraphRemoveDependencies_v2(g, &E, &B, &ed, 1)));
    }
#endif
    OK(SHOW("remove E->D", GU_REMOVE_DEPS(g, &E, &D, 1)));
    SHOW("remove E->D again", GU_REMOVE_DEPS(g, &E, &D, 1));
    SHOW("remove none", GU_REMOVE_DEPS(g, NULL, NULL, 0));
    SHOW_LAST("after remove errors");
    gu_show("back to the diamond", g);

    /* A cycle: added, then refused at instantiation. */
    SHOW("add D->A (cycle)", GU_ADD_DEPS(g, &D, &A, 1));
    {
        cudaGraphExec_t ce = NULL;
        SHOW("instantiate with a cycle", cudaGraphInstantiate(&ce, g, 0));
        SHOW_LAST("after cycle");
        cudaGraphInstantiateParams ip;
        memset(&ip, 0, sizeof ip);
        ip.result_out = (enum cudaGraphInstantiateResult)77;
        ip.errNode_out = (cudaGraphNode_t)(size_t)0x5a5a;
        SHOW("instantiate with params, cycle", cudaGraphInstantiateWithParams(&ce, g, &ip));
        printf("cycle: result_out %d, errNode is one of ours: %d, NULL: %d\n", (int)ip.result_out,
               gu_index(mine, 5, ip.errNode_out) >= 0, ip.errNode_out == NULL);
        if (ce) cudaGraphExecDestroy(ce);
    }
    GU_REMOVE_DEPS(g, &D, &A, 1);
    cudaGetLastError();

    /* ---- clone ---- */
    cudaGraph_t c = NULL, c2 = NULL;
    OK(SHOW("cudaGraphClone", cudaGraphClone(&c, g)));
    gu_show("clone", c);
    cudaGraphNode_t x = NULL;
    OK(SHOW("cudaGraphNodeFindInClone(B)", cudaGraphNodeFindInClone(&x, B, c)));
    {
        cudaGraphNode_t cn[GU_MAX];
        size_t cnt = gu_nodes(c, cn);
        printf("clone of B: index %d, differs from B: %d\n", gu_index(cn, cnt, x), x != B);
        enum cudaGraphNodeType t;
        OK(cudaGraphNodeGetType(x, &t));
        SHOWI("type of B's clone", t);
    }
    SHOW("cudaGraphNodeFindInClone(B, original graph)", cudaGraphNodeFindInClone(&x, B, g));
    SHOW("cudaGraphNodeFindInClone(other graph's node)", cudaGraphNodeFindInClone(&x, other, c));
    SHOW("cudaGraphNodeFindInClone(NULL out)", cudaGraphNodeFindInClone(NULL, B, c));
    SHOW("cudaGraphNodeFindInClone(NULL node)", cudaGraphNodeFindInClone(&x, NULL, c));
    SHOW("cudaGraphNodeFindInClone(NULL clone)", cudaGraphNodeFindInClone(&x, B, NULL));
    SHOW_LAST("after find errors");
    cudaGraphNode_t F = gu_empty(g, &D, 1);
    SHOW("cudaGraphNodeFindInClone(node added after cloning)", cudaGraphNodeFindInClone(&x, F, c));
    SHOW("cudaGraphClone(NULL out)", cudaGraphClone(NULL, g));
    SHOW("cudaGraphClone(NULL graph)", cudaGraphClone(&c2, NULL));
    SHOW_LAST("after clone errors");
    OK(SHOW("clone of a clone", cudaGraphClone(&c2, c)));
    /* NVIDIA: cudaErrorInvalidValue (x is what the failed finds above left in it). */
    SHOW("cudaGraphNodeFindInClone(B's clone, clone of clone)", cudaGraphNodeFindInClone(&x, x, c2));
    {
        cudaGraphNode_t bc = NULL, y = NULL;
        OK(cudaGraphNodeFindInClone(&bc, B, c));
        SHOW("cudaGraphNodeFindInClone(B's clone found again, clone of clone)", cudaGraphNodeFindInClone(&y, bc, c2));
        SHOW_LAST("after clone of clone");
    }
    OK(cudaGraphDestroy(c2));

    /* ---- destroying nodes, node types ---- */
    OK(SHOW("cudaGraphDestroyNode(C)", cudaGraphDestroyNode(C)));
    gu_show("without C", g);
    OK(SHOW("cudaGraphDestroyNode(F)", cudaGraphDestroyNode(F)));
    SHOW("cudaGraphDestroyNode(NULL)", cudaGraphDestroyNode(NULL));
    SHOW_LAST("after destroying NULL node");
    gu_show("clone still whole", c);
    {
        enum cudaGraphNodeType t = (enum cudaGraphNodeType)99;
        OK(SHOW("cudaGraphNodeGetType(A)", cudaGraphNodeGetType(A, &t)));
        SHOWI("type of A", t);
        SHOW("cudaGraphNodeGetType(NULL out)", cudaGraphNodeGetType(A, NULL));
        SHOW_LAST("after NULL type out");
        t = (enum cudaGraphNodeType)99;
        SHOW("cudaGraphNodeGetType(NULL node)", cudaGraphNodeGetType(NULL, &t));
        SHOWI("type after NULL node", t);
        SHOW_LAST("after NULL node type");
    }

    /* ---- instantiation flags ---- */
    cudaStream_t s = NULL, nbs = NULL;
    OK(cudaStreamCreate(&s));
    OK(cudaStreamCreateWithFlags(&nbs, cudaStreamNonBlocking));
    {
        static const unsigned long long flags[] = {0, 1, 2, 4, 8, 1 | 8, 1 | 4, 16, 0x100, 1ull << 40};
        for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
            char label[96];
            cudaGraphExec_t e = NULL;
            snprintf(label, sizeof label, "cudaGraphInstantiateWithFlags(0x%llx)", flags[i]);
            cudaError_t r = SHOW(label, cudaGraphInstantiateWithFlags(&e, g, flags[i]));
            if (r != cudaSuccess) {
                SHOW_LAST(label);
                continue;
            }
            unsigned long long f = 99;
            OK(SHOW("cudaGraphExecGetFlags", cudaGraphExecGetFlags(e, &f)));
            SHOWU("flags", f);
            OK(SHOW("launch", cudaGraphLaunch(e, s)));
            OK(cudaStreamSynchronize(s));
            OK(cudaGraphExecDestroy(e));
        }
        cudaGraphExec_t e = NULL;
        OK(SHOW("cudaGraphInstantiate(0)", cudaGraphInstantiate(&e, g, 0)));
        SHOW("cudaGraphInstantiate(Upload flag)", cudaGraphInstantiate(&e, g, cudaGraphInstantiateFlagUpload));
        SHOW("cudaGraphInstantiate(NULL out)", cudaGraphInstantiate(NULL, g, 0));
        SHOW("cudaGraphInstantiate(NULL graph)", cudaGraphInstantiate(&e, NULL, 0));
        SHOW_LAST("after instantiate errors");
        cudaGraphExec_t e2 = NULL;
        OK(SHOW("second instantiation of one graph", cudaGraphInstantiate(&e2, g, 0)));
        if (e2) cudaGraphExecDestroy(e2);
        SHOW("cudaGraphExecGetFlags(NULL out)", cudaGraphExecGetFlags(e, NULL));
        unsigned long long f = 0;
        SHOW("cudaGraphExecGetFlags(NULL exec)", cudaGraphExecGetFlags(NULL, &f));
        SHOW_LAST("after get flags errors");

        /* Upload and launch on each kind of stream. */
        cudaStream_t kinds[] = {s, nbs, 0, cudaStreamLegacy, cudaStreamPerThread};
        const char *names[] = {"created", "non-blocking", "0", "cudaStreamLegacy", "cudaStreamPerThread"};
        for (int i = 0; i < 5; i++) {
            char label[96];
            snprintf(label, sizeof label, "cudaGraphUpload(%s)", names[i]);
            SHOW(label, cudaGraphUpload(e, kinds[i]));
            snprintf(label, sizeof label, "cudaGraphLaunch(%s)", names[i]);
            SHOW(label, cudaGraphLaunch(e, kinds[i]));
        }
        OK(SHOW("cudaGraphUpload_ptsz(0)", cudaGraphUpload_ptsz(e, 0)));
        OK(SHOW("cudaGraphLaunch_ptsz(0)", cudaGraphLaunch_ptsz(e, 0)));
        OK(cudaDeviceSynchronize());
        SHOW("cudaGraphLaunch(NULL exec)", cudaGraphLaunch(NULL, s));
        SHOW("cudaGraphUpload(NULL exec)", cudaGraphUpload(NULL, s));
        SHOW_LAST("after NULL exec");
        SHOW("cudaGraphExecDestroy(NULL)", cudaGraphExecDestroy(NULL));
        SHOW_LAST("after destroying NULL exec");
        OK(SHOW("cudaGraphExecDestroy", cudaGraphExecDestroy(e)));
    }

    /* Instantiation with parameters. */
    {
        cudaGraphInstantiateParams ip;
        cudaGraphExec_t e = NULL;
        unsigned long long f = 99;
        memset(&ip, 0, sizeof ip);
        ip.result_out = (enum cudaGraphInstantiateResult)77;
        ip.errNode_out = (cudaGraphNode_t)(size_t)0x5a5a;
        OK(SHOW("cudaGraphInstantiateWithParams(0)", cudaGraphInstantiateWithParams(&e, g, &ip)));
        printf("params(0): result_out %d, errNode_out NULL %d\n", (int)ip.result_out, ip.errNode_out == NULL);
        OK(cudaGraphExecGetFlags(e, &f));
        SHOWU("flags", f);
        OK(cudaGraphExecDestroy(e));

        memset(&ip, 0, sizeof ip);
        ip.flags = cudaGraphInstantiateFlagUpload;
        ip.uploadStream = s;
        ip.result_out = (enum cudaGraphInstantiateResult)77;
        OK(SHOW("cudaGraphInstantiateWithParams(Upload, s)", cudaGraphInstantiateWithParams(&e, g, &ip)));
        printf("params(Upload): result_out %d\n", (int)ip.result_out);
        OK(cudaGraphExecGetFlags(e, &f));
        SHOWU("flags", f);
        OK(cudaStreamSynchronize(s));
        OK(cudaGraphExecDestroy(e));

        memset(&ip, 0, sizeof ip);
        ip.flags = cudaGraphInstantiateFlagUpload;
        ip.result_out = (enum cudaGraphInstantiateResult)77;
        OK(SHOW("cudaGraphInstantiateWithParams_ptsz(Upload, 0)", cudaGraphInstantiateWithParams_ptsz(&e, g, &ip)));
        printf("params_ptsz(Upload): result_out %d\n", (int)ip.result_out);
        OK(cudaStreamSynchronize(cudaStreamPerThread));
        OK(cudaGraphExecDestroy(e));

        memset(&ip, 0, sizeof ip);
        ip.flags = cudaGraphInstantiateFlagDeviceLaunch;
        ip.result_out = (enum cudaGraphInstantiateResult)77;
        ip.errNode_out = (cudaGraphNode_t)(size_t)0x5a5a;
        e = NULL;
        SHOW("cudaGraphInstantiateWithParams(DeviceLaunch, empty nodes)", cudaGraphInstantiateWithParams(&e, g, &ip));
        printf("params(DeviceLaunch): result_out %d, errNode one of ours %d, NULL %d\n", (int)ip.result_out,
               gu_index(mine, 5, ip.errNode_out) >= 0, ip.errNode_out == NULL);
        SHOW_LAST("after device launch instantiation");
        if (e) cudaGraphExecDestroy(e);

        memset(&ip, 0, sizeof ip);
        ip.flags = 0x100;
        ip.result_out = (enum cudaGraphInstantiateResult)77;
        e = NULL;
        SHOW("cudaGraphInstantiateWithParams(0x100)", cudaGraphInstantiateWithParams(&e, g, &ip));
        printf("params(0x100): result_out %d\n", (int)ip.result_out);
        if (e) cudaGraphExecDestroy(e);
        SHOW("cudaGraphInstantiateWithParams(NULL params)", cudaGraphInstantiateWithParams(&e, g, NULL));
        SHOW_LAST("after params errors");
    }

    /* ---- enabling nodes, on memset nodes of a captured graph ---- */
    unsigned char *da = NULL, *db = NULL, ha[N], hb[N];
    OK(cudaMalloc((void **)&da, N));
    OK(cudaMalloc((void **)&db, N));
    cudaGraph_t gm = capture_memsets(s, da, 1, db, 2, 0);
    gu_show("memsets", gm);
    cudaGraphNode_t mn[GU_MAX];
    size_t mcount = gu_nodes(gm, mn);
    CHECK(mcount == 2);
    cudaGraphExec_t em = NULL;
    OK(cudaGraphInstantiate(&em, gm, 0));
    if (mcount != 2 || !em) DONE();
    {
        unsigned int en = 9;
        OK(SHOW("cudaGraphNodeGetEnabled", cudaGraphNodeGetEnabled(em, mn[0], &en)));
        SHOWU("enabled", en);
        OK(SHOW("cudaGraphNodeSetEnabled(0)", cudaGraphNodeSetEnabled(em, mn[0], 0)));
        OK(cudaGraphNodeGetEnabled(em, mn[0], &en));
        SHOWU("enabled after disabling", en);
        OK(cudaMemset(da, 0, N));
        OK(cudaMemset(db, 0, N));
        OK(cudaGraphLaunch(em, s));
        OK(cudaStreamSynchronize(s));
        OK(cudaMemcpy(ha, da, N, cudaMemcpyDeviceToHost));
        OK(cudaMemcpy(hb, db, N, cudaMemcpyDeviceToHost));
        printf("disabled node: a all 0 %d, b all 2 %d\n", ct_all_bytes(ha, N, 0), ct_all_bytes(hb, N, 2));
        CHECK(ct_all_bytes(ha, N, 0) && ct_all_bytes(hb, N, 2));
        SHOW("cudaGraphNodeSetEnabled(5)", cudaGraphNodeSetEnabled(em, mn[0], 5));
        en = 9;
        SHOW("cudaGraphNodeGetEnabled after 5", cudaGraphNodeGetEnabled(em, mn[0], &en));
        SHOWU("enabled after setting 5", en);
        OK(SHOW("cudaGraphNodeSetEnabled(1)", cudaGraphNodeSetEnabled(em, mn[0], 1)));
        OK(cudaGraphLaunch(em, s));
        OK(cudaStreamSynchronize(s));
        OK(cudaMemcpy(ha, da, N, cudaMemcpyDeviceToHost));
        printf("enabled again: a all 1 %d\n", ct_all_bytes(ha, N, 1));
        CHECK(ct_all_bytes(ha, N, 1));
        SHOW("cudaGraphNodeGetEnabled(NULL out)", cudaGraphNodeGetEnabled(em, mn[0], NULL));
        SHOW_LAST("after NULL enabled out");
        en = 9;
        SHOW("cudaGraphNodeGetEnabled(node of the graph, not the exec)", cudaGraphNodeGetEnabled(em, A, &en));
        SHOWU("enabled", en);
        SHOW("cudaGraphNodeSetEnabled(node of another graph)", cudaGraphNodeSetEnabled(em, A, 0));
        SHOW("cudaGraphNodeSetEnabled(NULL exec)", cudaGraphNodeSetEnabled(NULL, mn[0], 0));
        SHOW("cudaGraphNodeGetEnabled(NULL node)", cudaGraphNodeGetEnabled(em, NULL, &en));
        SHOW_LAST("after enable errors");
        cudaGraphExec_t ee = NULL;
        OK(cudaGraphInstantiate(&ee, g, 0));
        SHOW("cudaGraphNodeSetEnabled(empty node)", cudaGraphNodeSetEnabled(ee, A, 0));
        en = 9;
        SHOW("cudaGraphNodeGetEnabled(empty node)", cudaGraphNodeGetEnabled(ee, A, &en));
        SHOWU("enabled", en);
        SHOW_LAST("after empty node enabling");
        OK(cudaGraphExecDestroy(ee));
        in_fresh_thread(2, NULL, em, mn[0]);
    }

    /* ---- executable graph update ---- */
    {
        cudaGraphExecUpdateResultInfo info;
        cudaGraph_t gu = capture_memsets(s, da, 3, db, 4, 0);
        memset(&info, 0x55, sizeof info);
        OK(SHOW("cudaGraphExecUpdate(same topology)", cudaGraphExecUpdate(em, gu, &info)));
        printf("update ok: result %d, errorNode NULL %d, errorFromNode NULL %d\n", (int)info.result,
               info.errorNode == NULL, info.errorFromNode == NULL);
        OK(cudaGraphLaunch(em, s));
        OK(cudaStreamSynchronize(s));
        OK(cudaMemcpy(ha, da, N, cudaMemcpyDeviceToHost));
        OK(cudaMemcpy(hb, db, N, cudaMemcpyDeviceToHost));
        printf("after update: a all 3 %d, b all 4 %d\n", ct_all_bytes(ha, N, 3), ct_all_bytes(hb, N, 4));
        CHECK(ct_all_bytes(ha, N, 3) && ct_all_bytes(hb, N, 4));
        OK(SHOW("cudaGraphExecUpdate(NULL result info)", cudaGraphExecUpdate(em, gu, NULL)));

        cudaGraph_t g3 = capture_memsets(s, da, 5, db, 6, 1);
        memset(&info, 0x55, sizeof info);
        SHOW("cudaGraphExecUpdate(one more node)", cudaGraphExecUpdate(em, g3, &info));
        printf("topology: result %d, errorNode NULL %d, errorFromNode NULL %d\n", (int)info.result,
               info.errorNode == NULL, info.errorFromNode == NULL);
        SHOW_LAST("after topology change");
        SHOW("cudaGraphExecUpdate(one more node, NULL info)", cudaGraphExecUpdate(em, g3, NULL));
        SHOW_LAST("after topology change without info");

        /* Same shape, another kind of node: a memset then a copy. */
        cudaGraph_t g4 = NULL;
        OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
        OK(cudaMemsetAsync(da, 7, N, s));
        OK(cudaMemcpyAsync(db, da, N, cudaMemcpyDeviceToDevice, s));
        OK(cudaStreamEndCapture(s, &g4));
        gu_show("memset then copy", g4);
        memset(&info, 0x55, sizeof info);
        SHOW("cudaGraphExecUpdate(node type changed)", cudaGraphExecUpdate(em, g4, &info));
        {
            cudaGraphNode_t n4[GU_MAX];
            size_t c4 = gu_nodes(g4, n4);
            printf("type change: result %d, errorNode index in new graph %d, errorFromNode NULL %d\n", (int)info.result,
                   gu_index(n4, c4, info.errorNode), info.errorFromNode == NULL);
        }
        SHOW_LAST("after type change");

        /* A failed update leaves the executable graph as it was. */
        OK(cudaMemset(da, 0, N));
        OK(cudaGraphLaunch(em, s));
        OK(cudaStreamSynchronize(s));
        OK(cudaMemcpy(ha, da, N, cudaMemcpyDeviceToHost));
        printf("after failed updates: a all 3 %d\n", ct_all_bytes(ha, N, 3));

        memset(&info, 0x55, sizeof info);
        SHOW("cudaGraphExecUpdate(NULL exec)", cudaGraphExecUpdate(NULL, gu, &info));
        printf("NULL exec: info untouched %d\n", info.errorNode == (cudaGraphNode_t)(size_t)0x5555555555555555ull);
        SHOW("cudaGraphExecUpdate(NULL graph)", cudaGraphExecUpdate(em, NULL, &info));
        printf("NULL graph: info untouched %d\n", info.errorNode == (cudaGraphNode_t)(size_t)0x5555555555555555ull);
        SHOW_LAST("after NULL update arguments");
        memset(&info, 0x55, sizeof info);
        SHOW("cudaGraphExecUpdate(graph of empty nodes)", cudaGraphExecUpdate(em, g, &info));
        printf("empty nodes: result %d, errorNode NULL %d\n", (int)info.result, info.errorNode == NULL);
        SHOW_LAST("after update from empty nodes");
        ct_destroy_graphs(gu, g3, g4, NULL);
    }

    /* ---- DOT output ---- */
    {
        char path[128];
        snprintf(path, sizeof path, "/tmp/cudart-rs-graph-core-%d.dot", (int)getpid());
        OK(SHOW("cudaGraphDebugDotPrint(diamond, 0)", cudaGraphDebugDotPrint(g, path, 0)));
        gu_show_dot("dot diamond", path, 1);
        OK(SHOW("cudaGraphDebugDotPrint(memsets, 0)", cudaGraphDebugDotPrint(gm, path, 0)));
        gu_show_dot("dot memsets", path, 1);
        OK(SHOW("cudaGraphDebugDotPrint(memsets, MemsetNodeParams)",
                cudaGraphDebugDotPrint(gm, path, cudaGraphDebugDotFlagsMemsetNodeParams)));
        gu_show_dot("dot memset params", path, 1);
        OK(SHOW("cudaGraphDebugDotPrint(memsets, Verbose)", cudaGraphDebugDotPrint(gm, path, cudaGraphDebugDotFlagsVerbose)));
        gu_show_dot("dot verbose", path, 0);
        OK(SHOW("cudaGraphDebugDotPrint(memsets, 1<<1)", cudaGraphDebugDotPrint(gm, path, 1 << 1)));
        gu_show_dot("dot flag 1<<1", path, 1);
        SHOW("cudaGraphDebugDotPrint(all flags)", cudaGraphDebugDotPrint(gm, path, 0xffffffffu));
        unlink(path);
        SHOW("cudaGraphDebugDotPrint(NULL path)", cudaGraphDebugDotPrint(g, NULL, 0));
        SHOW("cudaGraphDebugDotPrint(NULL graph)", cudaGraphDebugDotPrint(NULL, path, 0));
        SHOW("cudaGraphDebugDotPrint(unwritable path)", cudaGraphDebugDotPrint(g, "/nonexistent-dir/x.dot", 0));
        SHOW_LAST("after dot errors");
    }

    /* ---- user objects ---- */
    {
        cudaUserObject_t o = NULL, o2 = NULL, tmp = NULL;
        dtor_calls = 0;
        OK(SHOW("cudaUserObjectCreate", cudaUserObjectCreate(&o, NULL, dtor, 1, cudaUserObjectNoDestructorSync)));
        SHOW("cudaUserObjectCreate(flags 0)", cudaUserObjectCreate(&tmp, NULL, dtor, 1, 0));
        SHOW("cudaUserObjectCreate(flags 3)", cudaUserObjectCreate(&tmp, NULL, dtor, 1, 3));
        SHOW("cudaUserObjectCreate(refcount 0)", cudaUserObjectCreate(&tmp, NULL, dtor, 0, cudaUserObjectNoDestructorSync));
        SHOW("cudaUserObjectCreate(no destructor)", cudaUserObjectCreate(&tmp, NULL, NULL, 1, cudaUserObjectNoDestructorSync));
        SHOW("cudaUserObjectCreate(NULL out)", cudaUserObjectCreate(NULL, NULL, dtor, 1, cudaUserObjectNoDestructorSync));
        SHOW_LAST("after create errors");
        OK(SHOW("cudaUserObjectRetain(2)", cudaUserObjectRetain(o, 2)));
        SHOW("cudaUserObjectRetain(0)", cudaUserObjectRetain(o, 0));
        SHOW("cudaUserObjectRetain(NULL)", cudaUserObjectRetain(NULL, 1));
        SHOW("cudaUserObjectRelease(0)", cudaUserObjectRelease(o, 0));
        SHOW("cudaUserObjectRelease(NULL)", cudaUserObjectRelease(NULL, 1));
        SHOW_LAST("after retain errors");
        OK(SHOW("cudaUserObjectRelease(1)", cudaUserObjectRelease(o, 1)));
        wait_dtors("two references left", 0);

        cudaGraph_t go = NULL;
        OK(cudaGraphCreate(&go, 0));
        gu_empty(go, NULL, 0);
        OK(SHOW("cudaGraphRetainUserObject(1)", cudaGraphRetainUserObject(go, o, 1, 0)));
        OK(SHOW("cudaGraphRetainUserObject(move 1)", cudaGraphRetainUserObject(go, o, 1, cudaGraphUserObjectMove)));
        SHOW("cudaGraphRetainUserObject(flags 2)", cudaGraphRetainUserObject(go, o, 1, 2));
        SHOW("cudaGraphRetainUserObject(count 0)", cudaGraphRetainUserObject(go, o, 0, 0));
        SHOW("cudaGraphRetainUserObject(NULL graph)", cudaGraphRetainUserObject(NULL, o, 1, 0));
        SHOW("cudaGraphRetainUserObject(NULL object)", cudaGraphRetainUserObject(go, NULL, 1, 0));
        SHOW_LAST("after graph retain errors");
        OK(SHOW("cudaUserObjectRelease(caller's last)", cudaUserObjectRelease(o, 1)));
        wait_dtors("only the graph holds it", 0);
        OK(SHOW("cudaGraphReleaseUserObject(1)", cudaGraphReleaseUserObject(go, o, 1)));
        cudaGraphExec_t eo = NULL;
        OK(cudaGraphInstantiate(&eo, go, 0));
        OK(cudaGraphLaunch(eo, s));
        OK(SHOW("cudaGraphDestroy(graph with a user object)", cudaGraphDestroy(go)));
        OK(cudaStreamSynchronize(s));
        wait_dtors("the executable graph holds it", 0);
        OK(SHOW("cudaGraphExecDestroy(holder)", cudaGraphExecDestroy(eo)));
        OK(cudaDeviceSynchronize());
        wait_dtors("all references gone", 1);

        OK(cudaUserObjectCreate(&o2, NULL, dtor, 1, cudaUserObjectNoDestructorSync));
        OK(SHOW("cudaUserObjectRelease(only reference)", cudaUserObjectRelease(o2, 1)));
        wait_dtors("second object released", 2);
        in_fresh_thread(0, NULL, NULL, NULL);
        wait_dtors("object of the fresh thread released", 3);
    }

    /* ---- graph memory attributes ---- */
    {
        static const char *names[] = {"UsedMemCurrent", "UsedMemHigh", "ReservedMemCurrent", "ReservedMemHigh"};
        for (int a = 0; a < 4; a++) {
            unsigned long long v = 12345;
            char label[96];
            snprintf(label, sizeof label, "cudaDeviceGetGraphMemAttribute(%s)", names[a]);
            SHOW(label, cudaDeviceGetGraphMemAttribute(0, (enum cudaGraphMemAttributeType)a, &v));
            SHOWU(names[a], v);
        }
        unsigned long long zero = 0, five = 5, v = 0;
        SHOW("set UsedMemHigh 0", cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
        SHOW("set ReservedMemHigh 0", cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero));
        SHOW("set UsedMemHigh 5", cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &five));
        SHOW("set UsedMemCurrent 0", cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero));
        SHOW("set ReservedMemCurrent 0", cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &zero));
        SHOW_LAST("after set errors");
        SHOW("get attribute 99", cudaDeviceGetGraphMemAttribute(0, (enum cudaGraphMemAttributeType)99, &v));
        SHOW("get device 99", cudaDeviceGetGraphMemAttribute(99, cudaGraphMemAttrUsedMemCurrent, &v));
        SHOW("get device -1", cudaDeviceGetGraphMemAttribute(-1, cudaGraphMemAttrUsedMemCurrent, &v));
        SHOW("get NULL value", cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, NULL));
        SHOW("set NULL value", cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, NULL));
        SHOW("set device 99", cudaDeviceSetGraphMemAttribute(99, cudaGraphMemAttrUsedMemHigh, &zero));
        SHOW_LAST("after get errors");
        OK(SHOW("cudaDeviceGraphMemTrim(0)", cudaDeviceGraphMemTrim(0)));
        SHOW("cudaDeviceGraphMemTrim(99)", cudaDeviceGraphMemTrim(99));
        SHOW("cudaDeviceGraphMemTrim(-1)", cudaDeviceGraphMemTrim(-1));
        SHOW_LAST("after trim errors");
    }

    /* ---- conditional handles ---- */
    {
        cudaGraph_t gc = NULL;
        cudaGraphConditionalHandle h = 0;
        OK(cudaGraphCreate(&gc, 0));
        gu_empty(gc, NULL, 0);
        OK(SHOW("cudaGraphConditionalHandleCreate", cudaGraphConditionalHandleCreate(&h, gc, 1, cudaGraphCondAssignDefault)));
        OK(SHOW("cudaGraphConditionalHandleCreate(flags 0)", cudaGraphConditionalHandleCreate(&h, gc, 0, 0)));
        SHOW("cudaGraphConditionalHandleCreate(flags 2)", cudaGraphConditionalHandleCreate(&h, gc, 0, 2));
        SHOW("cudaGraphConditionalHandleCreate(NULL out)", cudaGraphConditionalHandleCreate(NULL, gc, 0, 0));
        SHOW("cudaGraphConditionalHandleCreate(NULL graph)", cudaGraphConditionalHandleCreate(&h, NULL, 0, 0));
        SHOW_LAST("after handle errors");
        cudaGraphInstantiateParams ip;
        cudaGraphExec_t ec = NULL;
        memset(&ip, 0, sizeof ip);
        ip.result_out = (enum cudaGraphInstantiateResult)77;
        SHOW("instantiate with unused handles", cudaGraphInstantiateWithParams(&ec, gc, &ip));
        printf("unused handles: result_out %d\n", (int)ip.result_out);
        SHOW_LAST("after unused handles");
        if (ec) cudaGraphExecDestroy(ec);
        in_fresh_thread(3, gc, NULL, NULL);
        OK(cudaGraphDestroy(gc));
    }

    OK(cudaGraphExecDestroy(em));
    OK(cudaGraphDestroy(gm));
    OK(SHOW("cudaGraphDestroy(clone)", cudaGraphDestroy(c)));
    OK(SHOW("cudaGraphDestroy", cudaGraphDestroy(g)));
    OK(cudaGraphDestroy(g2));
    ct_free_device(da, db, NULL);
    ct_destroy_streams(s, nbs, NULL);
    DONE();
}
