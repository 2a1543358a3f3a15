/*
 * graph_node_util.h: what the graph node tests need besides the node functions they test:
 * making, instantiating, launching and destroying graphs, a node's type, the number of nodes,
 * conditional handles, memset and copy node parameters. Each of these must succeed (OK/CHECK), so that the tests print only
 * what the node functions do.
 */
#ifndef CUDART_RS_GRAPH_NODE_UTIL_H
#define CUDART_RS_GRAPH_NODE_UTIL_H

#include "ctest.h"

static cudaGraph_t gn_graph(void) {
    cudaGraph_t g = NULL;
    OK(cudaGraphCreate(&g, 0));
    CHECK(g != NULL);
    return g;
}

static void gn_destroy(cudaGraph_t g) { OK(cudaGraphDestroy(g)); }

static cudaGraphExec_t gn_instantiate(cudaGraph_t g) {
    cudaGraphExec_t e = NULL;
    OK(cudaGraphInstantiate(&e, g, 0));
    CHECK(e != NULL);
    return e;
}

static void gn_exec_destroy(cudaGraphExec_t e) { OK(cudaGraphExecDestroy(e)); }

/* Launches `e` on `s` and waits for it. */
static void gn_launch(cudaGraphExec_t e, cudaStream_t s) {
    OK(cudaGraphLaunch(e, s));
    OK(cudaStreamSynchronize(s));
}

/* The node's type, -1 when it cannot be read. */
static int gn_type(cudaGraphNode_t n) {
    enum cudaGraphNodeType t;
    return cudaGraphNodeGetType(n, &t) == cudaSuccess ? (int)t : -1;
}

static size_t gn_count(cudaGraph_t g) {
    size_t n = 0;
    OK(cudaGraphGetNodes(g, NULL, &n));
    return n;
}

static cudaGraphConditionalHandle gn_cond(cudaGraph_t g, unsigned dflt, unsigned flags) {
    cudaGraphConditionalHandle h = 0;
    OK(cudaGraphConditionalHandleCreate(&h, g, dflt, flags));
    return h;
}

/* A conditional node's parameters (the rest zero). */
static inline struct cudaGraphNodeParams gn_conditional(cudaGraphConditionalHandle h,
                                                        enum cudaGraphConditionalNodeType type, unsigned size) {
    struct cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = type;
    p.conditional.size = size;
    return p;
}

/* A memset node's parameters (the rest zero). */
static inline struct cudaMemsetParams gn_mset(void *dst, size_t pitch, unsigned value, unsigned elem, size_t width,
                                              size_t height) {
    struct cudaMemsetParams p;
    memset(&p, 0, sizeof p);
    p.dst = dst;
    p.pitch = pitch;
    p.value = value;
    p.elementSize = elem;
    p.width = width;
    p.height = height;
    return p;
}

/* A copy node's parameters between two pitched pointers, `rows` rows of `wbytes` bytes (the
 * rest zero). */
static inline struct cudaMemcpy3DParms gn_copy_ptr(void *dst, size_t dpitch, const void *src, size_t spitch,
                                                   size_t wbytes, size_t rows, enum cudaMemcpyKind kind) {
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr((void *)src, spitch, wbytes, rows);
    p.dstPtr = make_cudaPitchedPtr(dst, dpitch, wbytes, rows);
    p.extent = make_cudaExtent(wbytes, rows, 1);
    p.kind = kind;
    return p;
}

/* "same as set" when a value read back is the one set, "different" otherwise. */
#define SAME(label, got, set) printf("%s: %s\n", (label), (got) == (set) ? "same as set" : "different")

#endif
