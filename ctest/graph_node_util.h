/*
 * graph_node_util.h: what the graph node tests need besides the node functions they test: making,
 * instantiating, launching and destroying graphs, a node's type, conditional handles. These
 * go through the driver (the same handles as the runtime's), so that the tests print only
 * what the node functions do; each must succeed (CHECK).
 *
 *   int gu_init(void);                           1 when the driver's graph calls were found
 *   cudaGraph_t gu_graph(void);                  an empty graph
 *   void gu_destroy(cudaGraph_t g);
 *   cudaGraphExec_t gu_instantiate(cudaGraph_t g);
 *   cudaError_t gu_instantiate_result(cudaGraphExec_t *e, cudaGraph_t g);   the driver's result
 *                                                as 0 (success) or cudaErrorUnknown
 *   void gu_exec_destroy(cudaGraphExec_t e);
 *   void gu_launch(cudaGraphExec_t e, cudaStream_t s);   launches and synchronizes s
 *   int gu_type(cudaGraphNode_t n);               the node's type, -1 on failure
 *   size_t gu_count(cudaGraph_t g);               number of nodes
 *   cudaGraphConditionalHandle gu_cond(cudaGraph_t g, unsigned dflt, unsigned flags);
 */
#ifndef CUDART_RS_GRAPH_NODE_UTIL_H
#define CUDART_RS_GRAPH_NODE_UTIL_H

#include <dlfcn.h>
#include <stdlib.h>

typedef int gu_CUresult;

static struct {
    gu_CUresult (*create)(cudaGraph_t *, unsigned);
    gu_CUresult (*destroy)(cudaGraph_t);
    gu_CUresult (*instantiate)(cudaGraphExec_t *, cudaGraph_t, unsigned long long);
    gu_CUresult (*exec_destroy)(cudaGraphExec_t);
    gu_CUresult (*launch)(cudaGraphExec_t, cudaStream_t);
    gu_CUresult (*node_type)(cudaGraphNode_t, int *);
    gu_CUresult (*get_nodes)(cudaGraph_t, cudaGraphNode_t *, size_t *);
    gu_CUresult (*ctx_current)(void **);
    gu_CUresult (*cond_create)(cudaGraphConditionalHandle *, cudaGraph_t, void *, unsigned, unsigned);
} gu;

static int gu_init(void) {
    const char *path = getenv("CUDART_RS_DRIVER");
    void *lib = dlopen(path ? path : "libcuda.so.1", RTLD_NOW);
    if (!lib) return 0;
    *(void **)&gu.create = dlsym(lib, "cuGraphCreate");
    *(void **)&gu.destroy = dlsym(lib, "cuGraphDestroy");
    *(void **)&gu.instantiate = dlsym(lib, "cuGraphInstantiateWithFlags");
    *(void **)&gu.exec_destroy = dlsym(lib, "cuGraphExecDestroy");
    *(void **)&gu.launch = dlsym(lib, "cuGraphLaunch");
    *(void **)&gu.node_type = dlsym(lib, "cuGraphNodeGetType");
    *(void **)&gu.get_nodes = dlsym(lib, "cuGraphGetNodes");
    *(void **)&gu.ctx_current = dlsym(lib, "cuCtxGetCurrent");
    *(void **)&gu.cond_create = dlsym(lib, "cuGraphConditionalHandleCreate");
    return gu.create && gu.destroy && gu.instantiate && gu.exec_destroy && gu.launch && gu.node_type &&
           gu.get_nodes && gu.ctx_current && gu.cond_create;
}

static cudaGraph_t gu_graph(void) {
    cudaGraph_t g = NULL;
    CHECK(gu.create(&g, 0) == 0 && g != NULL);
    return g;
}

static void gu_destroy(cudaGraph_t g) { CHECK(gu.destroy(g) == 0); }

static cudaError_t gu_instantiate_result(cudaGraphExec_t *e, cudaGraph_t g) {
    return gu.instantiate(e, g, 0) == 0 ? cudaSuccess : cudaErrorUnknown;
}

static cudaGraphExec_t gu_instantiate(cudaGraph_t g) {
    cudaGraphExec_t e = NULL;
    gu_CUresult r = gu.instantiate(&e, g, 0);
    if (r != 0) printf("FAIL graph instantiation: driver error %d\n", r);
    CHECK(r == 0 && e != NULL);
    return e;
}

static void gu_exec_destroy(cudaGraphExec_t e) { CHECK(gu.exec_destroy(e) == 0); }

static void gu_launch(cudaGraphExec_t e, cudaStream_t s) {
    gu_CUresult r = gu.launch(e, s);
    if (r != 0) printf("FAIL graph launch: driver error %d\n", r);
    CHECK(r == 0);
    OK(cudaStreamSynchronize(s));
}

static int gu_type(cudaGraphNode_t n) {
    int t = -1;
    return gu.node_type(n, &t) == 0 ? t : -1;
}

static size_t gu_count(cudaGraph_t g) {
    size_t n = 0;
    CHECK(gu.get_nodes(g, NULL, &n) == 0);
    return n;
}

static cudaGraphConditionalHandle gu_cond(cudaGraph_t g, unsigned dflt, unsigned flags) {
    void *ctx = NULL;
    cudaGraphConditionalHandle h = 0;
    CHECK(gu.ctx_current(&ctx) == 0 && ctx != NULL);
    CHECK(gu.cond_create(&h, g, ctx, dflt, flags) == 0);
    return h;
}

/* "same as set" when a value read back is the one set, "different" otherwise. */
#define SAME(label, got, set) printf("%s: %s\n", (label), (got) == (set) ? "same as set" : "different")

#endif
