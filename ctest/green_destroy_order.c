/* ctest: gpu abi13
 * Which context a call makes current, and what calls on a destroyed green context's stream
 * report, by the order of events: each scenario in a fresh process (the driver is asked which
 * context is current after every call: none, the green one, another). Green contexts made,
 * destroyed before or after the device's primary context was first used (cudaFree(0), a
 * zero-size memset or copy, a stream query), and the stream used afterwards. NVIDIA's 13.5
 * runtime reports cudaErrorContextIsDestroyed for such a stream when the primary context was
 * in use before the green context was destroyed, cudaErrorInvalidResourceHandle when it was
 * first used afterwards. */
#include <dlfcn.h>

#include "ctest.h"

typedef int (*ctx_fn)(void **);
static void *green;
static char scen;

static ctx_fn driver_fn(const char *name) {
    void *d = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    return d ? (ctx_fn)dlsym(d, name) : NULL;
}

/* Which context the driver has current: none, the green one, another (the primary one). */
static const char *current(void) {
    static ctx_fn get;
    if (!get) get = driver_fn("cuCtxGetCurrent");
    void *c = (void *)1;
    if (!get || get(&c) != 0) return "unknown";
    return c == NULL ? "none" : c == green ? "green" : "other";
}

#define P(label, call)                                                                      \
    do {                                                                                    \
        cudaError_t e_ = (call);                                                            \
        printf("%c %s: %s, current %s\n", scen, label, cudaGetErrorName(e_), current());    \
    } while (0)

/* A green context of 8 SMs and a stream on it. */
static cudaStream_t make_green(void) {
    cudaDevResource dev, groups[2], rem;
    unsigned n = 2;
    memset(&dev, 0, sizeof dev);
    OK(cudaDeviceGetDevResource(0, &dev, cudaDevResourceTypeSm));
    OK(cudaDevSmResourceSplitByCount(groups, &n, &dev, &rem, 0, 8));
    cudaDevResourceDesc_t desc = NULL;
    OK(cudaDevResourceGenerateDesc(&desc, &groups[0], 1));
    cudaExecutionContext_t g = NULL;
    OK(cudaGreenCtxCreate(&g, desc, 0, 0));
    green = g;
    cudaStream_t s = NULL;
    OK(cudaExecutionCtxStreamCreate(&s, g, cudaStreamDefault, 0));
    printf("%c green made, current %s\n", scen, current());
    return s;
}

static void no_context_current(void) {
    ctx_fn set = driver_fn("cuCtxSetCurrent");
    CHECK(set != NULL && set(NULL) == 0);
}

static void scenario(char c) {
    scen = c;
    cudaStream_t s;
    switch (c) {
    case 'A': /* zero-size memsets, no green context destroyed */
        s = make_green();
        P("memsetAsync 0 on live green stream", cudaMemsetAsync(NULL, 0, 0, s));
        P("memsetAsync 0 on null stream", cudaMemsetAsync(NULL, 0, 0, 0));
        break;
    case 'B':
        s = make_green();
        P("memsetAsync 0 on null stream", cudaMemsetAsync(NULL, 0, 0, 0));
        break;
    case 'C': /* destroyed before the primary context is used */
        s = make_green();
        P("destroy", cudaExecutionCtxDestroy(green));
        P("query dead stream", cudaStreamQuery(s));
        P("memsetAsync 0 on null stream", cudaMemsetAsync(NULL, 0, 0, 0));
        P("query dead stream again", cudaStreamQuery(s));
        break;
    case 'D':
        s = make_green();
        P("destroy", cudaExecutionCtxDestroy(green));
        P("memsetAsync 0 on dead stream", cudaMemsetAsync(NULL, 0, 0, s));
        P("query dead stream", cudaStreamQuery(s));
        break;
    case 'E': { /* no green context at all */
        cudaDevResource d;
        P("dev resource", cudaDeviceGetDevResource(0, &d, cudaDevResourceTypeSm));
        P("memset 0", cudaMemset(NULL, 0, 0));
        break;
    }
    case 'F':
        P("stream query null", cudaStreamQuery(0));
        break;
    case 'G':
        s = make_green();
        P("query live green stream", cudaStreamQuery(s));
        P("memsetAsync 0 on null stream", cudaMemsetAsync(NULL, 0, 0, 0));
        break;
    case 'H':
        s = make_green();
        P("destroy", cudaExecutionCtxDestroy(green));
        P("memset2D 0 on dead stream", cudaMemset2DAsync(NULL, 0, 0, 0, 0, s));
        P("memcpyAsync 0 on dead stream", cudaMemcpyAsync(NULL, NULL, 0, cudaMemcpyDefault, s));
        P("query dead stream", cudaStreamQuery(s));
        break;
    case 'I':
        s = make_green();
        P("destroy", cudaExecutionCtxDestroy(green));
        P("memsetAsync 64 NULL on dead stream", cudaMemsetAsync(NULL, 0, 64, s));
        P("query dead stream", cudaStreamQuery(s));
        break;
    case 'J': /* primary context used first, none current at the destruction */
        P("cudaFree 0", cudaFree(0));
        no_context_current();
        s = make_green();
        P("destroy", cudaExecutionCtxDestroy(green));
        P("query dead stream", cudaStreamQuery(s));
        P("query dead stream again", cudaStreamQuery(s));
        break;
    case 'K':
        s = make_green();
        P("cudaFree 0", cudaFree(0));
        no_context_current();
        P("destroy", cudaExecutionCtxDestroy(green));
        P("query dead stream", cudaStreamQuery(s));
        P("query dead stream again", cudaStreamQuery(s));
        break;
    case 'L': /* primary context used between the destruction and the query */
        s = make_green();
        P("destroy", cudaExecutionCtxDestroy(green));
        P("cudaFree 0", cudaFree(0));
        P("query dead stream", cudaStreamQuery(s));
        break;
    case 'M':
        s = make_green();
        P("cudaFree 0", cudaFree(0));
        P("destroy", cudaExecutionCtxDestroy(green));
        P("query dead stream", cudaStreamQuery(s));
        break;
    }
}

int main(int argc, char **argv) {
    if (argc > 1) {
        scenario(argv[1][0]);
        fflush(stdout);
        return ct_failed ? 1 : 0;
    }
    for (const char *p = "ABCDEFGHIJKLM"; *p; p++) {
        char a[2] = {*p, 0};
        ct_failed |= ct_in_fresh_process(a);
    }
    DONE();
}
