/* What the graph and capture tests share: a graph's topology printed as node types and edges
 * between node indices (the order cudaGraphGetNodes gives), never as handles; the driver's
 * cuGraphAddEmptyNode, for building graphs without the runtime's node functions; reading a
 * DOT file back in a form that is the same on every run. */
#ifndef CUDART_RS_GRAPH_UTIL_H
#define CUDART_RS_GRAPH_UTIL_H

#include "ctest.h"
#include <dlfcn.h>

#define GU_MAX 128

/* The CUDA 13 forms of the edge queries (the CUDA 12 ABI's plain names have no edge data). */
#if CUDART_VERSION >= 13000
#define GU_GET_EDGES(g, f, t, n) cudaGraphGetEdges((g), (f), (t), NULL, (n))
#define GU_GET_DEPS(x, d, n) cudaGraphNodeGetDependencies((x), (d), NULL, (n))
#define GU_GET_DEPENDENTS(x, d, n) cudaGraphNodeGetDependentNodes((x), (d), NULL, (n))
#define GU_ADD_DEPS(g, f, t, n) cudaGraphAddDependencies((g), (f), (t), NULL, (n))
#define GU_REMOVE_DEPS(g, f, t, n) cudaGraphRemoveDependencies((g), (f), (t), NULL, (n))
#else
#define GU_GET_EDGES(g, f, t, n) cudaGraphGetEdges((g), (f), (t), (n))
#define GU_GET_DEPS(x, d, n) cudaGraphNodeGetDependencies((x), (d), (n))
#define GU_GET_DEPENDENTS(x, d, n) cudaGraphNodeGetDependentNodes((x), (d), (n))
#define GU_ADD_DEPS(g, f, t, n) cudaGraphAddDependencies((g), (f), (t), (n))
#define GU_REMOVE_DEPS(g, f, t, n) cudaGraphRemoveDependencies((g), (f), (t), (n))
#endif

/* The index of `x` in `nodes`, or -1. */
static int gu_index(const cudaGraphNode_t *nodes, size_t n, cudaGraphNode_t x) {
    for (size_t i = 0; i < n; i++)
        if (nodes[i] == x) return (int)i;
    return -1;
}

/* The nodes of `g` (at most GU_MAX) in `out`; the count, or 0 if the query failed. */
static size_t gu_nodes(cudaGraph_t g, cudaGraphNode_t *out) {
    size_t n = 0;
    if (cudaGraphGetNodes(g, NULL, &n) != cudaSuccess || n > GU_MAX) return 0;
    if (n && cudaGraphGetNodes(g, out, &n) != cudaSuccess) return 0;
    return n;
}

/* The number of nodes of type `t` in `g`. */
static int gu_count_type(cudaGraph_t g, int t) {
    cudaGraphNode_t nodes[GU_MAX];
    size_t n = gu_nodes(g, nodes);
    int c = 0;
    for (size_t i = 0; i < n; i++) {
        enum cudaGraphNodeType ty;
        if (cudaGraphNodeGetType(nodes[i], &ty) == cudaSuccess && (int)ty == t) c++;
    }
    return c;
}

static int gu_cmp_pair(const void *a, const void *b) {
    const int *x = (const int *)a, *y = (const int *)b;
    return x[0] != y[0] ? x[0] - y[0] : x[1] - y[1];
}

/* Prints `label`'s graph: node count, the type of each node in order, the root nodes and the
 * edges as sorted index pairs. */
static void gu_show(const char *label, cudaGraph_t g) {
    cudaGraphNode_t nodes[GU_MAX], from[GU_MAX], to[GU_MAX], roots[GU_MAX];
    size_t n = 0, m = 0, r = 0;
    cudaError_t e = cudaGraphGetNodes(g, NULL, &n);
    if (e != cudaSuccess || n > GU_MAX) {
        printf("%s: cudaGraphGetNodes: %s (%llu)\n", label, cudaGetErrorName(e), (unsigned long long)n);
        return;
    }
    if (n) cudaGraphGetNodes(g, nodes, &n);
    printf("%s: nodes = %llu, types =", label, (unsigned long long)n);
    for (size_t i = 0; i < n; i++) {
        enum cudaGraphNodeType t = (enum cudaGraphNodeType)-1;
        cudaError_t te = cudaGraphNodeGetType(nodes[i], &t);
        if (te == cudaSuccess)
            printf(" %d", (int)t);
        else
            printf(" %s", cudaGetErrorName(te));
    }
    printf("\n");
    e = cudaGraphGetRootNodes(g, NULL, &r);
    if (e == cudaSuccess && r <= GU_MAX && r) e = cudaGraphGetRootNodes(g, roots, &r);
    printf("%s: roots (%s) =", label, cudaGetErrorName(e));
    for (size_t i = 0; e == cudaSuccess && i < r; i++) printf(" %d", gu_index(nodes, n, roots[i]));
    printf("\n");
    e = GU_GET_EDGES(g, NULL, NULL, &m);
    if (e == cudaSuccess && m <= GU_MAX && m) e = GU_GET_EDGES(g, from, to, &m);
    printf("%s: edges (%s) = %llu:", label, cudaGetErrorName(e), (unsigned long long)m);
    if (e == cudaSuccess && m <= GU_MAX) {
        int pairs[GU_MAX][2];
        for (size_t i = 0; i < m; i++) {
            pairs[i][0] = gu_index(nodes, n, from[i]);
            pairs[i][1] = gu_index(nodes, n, to[i]);
        }
        qsort(pairs, m, sizeof pairs[0], gu_cmp_pair);
        for (size_t i = 0; i < m; i++) printf(" %d->%d", pairs[i][0], pairs[i][1]);
    }
    printf("\n");
}

/* The driver's cuGraphAddEmptyNode (the runtime's graph handles are the driver's). */
typedef int (*gu_add_empty_t)(cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t);
static gu_add_empty_t gu_add_empty_fn;

static int gu_driver(void) {
    const char *path = getenv("CUDART_RS_DRIVER");
    void *lib = dlopen(path ? path : "libcuda.so.1", RTLD_NOW);
    if (!lib) return 0;
    gu_add_empty_fn = (gu_add_empty_t)dlsym(lib, "cuGraphAddEmptyNode");
    return gu_add_empty_fn != NULL;
}

/* An empty node in `g` after `deps`; NULL (and a FAIL line) if the driver refuses. */
static cudaGraphNode_t gu_empty(cudaGraph_t g, const cudaGraphNode_t *deps, size_t n) {
    cudaGraphNode_t x = NULL;
    int r = gu_add_empty_fn ? gu_add_empty_fn(&x, g, deps, n) : -1;
    if (r != 0) {
        printf("FAIL cuGraphAddEmptyNode -> %d\n", r);
        ct_failed++;
        return NULL;
    }
    return x;
}

/* A runtime export looked up by name: NULL where the runtime under test lacks it (the line
 * that says so then differs from NVIDIA's output, which is the point). */
static void *gu_runtime_fn(const char *name) {
    void *self = dlopen(NULL, RTLD_NOW);
    return self ? dlsym(self, name) : NULL;
}

/* Prints the DOT file at `path` line by line, with what differs from run to run (addresses,
 * long numbers) replaced by '#', and how many lines it has and how many are edges. */
static void gu_show_dot(const char *label, const char *path, int content) {
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("%s: no file\n", label);
        return;
    }
    char line[4096];
    int lines = 0, edges = 0;
    while (fgets(line, sizeof line, f)) {
        lines++;
        if (strstr(line, "->")) edges++;
        if (!content) continue;
        char clean[4096];
        size_t o = 0;
        for (size_t i = 0; line[i] && line[i] != '\n' && o + 2 < sizeof clean;) {
            if (line[i] == '0' && line[i + 1] == 'x') {
                clean[o++] = '#';
                i += 2;
                while ((line[i] >= '0' && line[i] <= '9') || (line[i] >= 'a' && line[i] <= 'f') ||
                       (line[i] >= 'A' && line[i] <= 'F'))
                    i++;
                continue;
            }
            if (line[i] >= '0' && line[i] <= '9') {
                size_t j = i;
                while (line[j] >= '0' && line[j] <= '9') j++;
                if (j - i >= 7) {
                    clean[o++] = '#';
                    i = j;
                    continue;
                }
            }
            clean[o++] = line[i++];
        }
        clean[o] = 0;
        printf("%s| %s\n", label, clean);
    }
    fclose(f);
    printf("%s: %d lines, %d edge lines\n", label, lines, edges);
}

#endif
