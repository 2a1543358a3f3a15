/* ctest: gpu
 * Which memory calls make the device's primary context current on a thread that has none:
 * each call runs first thing in a fresh process (zero sizes, a NULL pointer, a host-to-host
 * copy), and the driver is asked afterwards whether a context is current. A runtime that
 * makes one current where NVIDIA's does not changes what later calls answer (a destroyed
 * green context's stream, a context the program manages itself). */
#include <dlfcn.h>

#include "ctest.h"

static const char *const names[] = {
    "cudaMemset 0 bytes",
    "cudaMemsetAsync 0 bytes",
    "cudaMemset2D width 0",
    "cudaMemset2D height 0",
    "cudaMemset3D empty extent",
    "cudaMemset2DAsync width 0",
    "cudaMemcpy host to host 0 bytes",
    "cudaMemcpy device to device 0 bytes",
    "cudaMemcpyAsync default 0 bytes",
    "cudaMemcpy2D width 0",
    "cudaMemcpy3D empty extent",
    "cudaMemcpyPeer 0 bytes",
    "cudaMemset NULL 1 byte",
    "cudaMemcpy host to host 8 bytes",
};
#define N_CALLS ((int)(sizeof names / sizeof names[0]))

static cudaError_t call(int i) {
    static char a[16], b[16];
    struct cudaPitchedPtr pp = {0};
    struct cudaExtent none = {0, 0, 0};
    struct cudaMemcpy3DParms p3;
    memset(&p3, 0, sizeof p3);
    p3.kind = cudaMemcpyDefault;
    switch (i) {
    case 0: return cudaMemset(NULL, 0, 0);
    case 1: return cudaMemsetAsync(NULL, 0, 0, 0);
    case 2: return cudaMemset2D(NULL, 0, 0, 0, 4);
    case 3: return cudaMemset2D(NULL, 0, 0, 4, 0);
    case 4: return cudaMemset3D(pp, 0, none);
    case 5: return cudaMemset2DAsync(NULL, 0, 0, 0, 4, 0);
    case 6: return cudaMemcpy(a, b, 0, cudaMemcpyHostToHost);
    case 7: return cudaMemcpy(NULL, NULL, 0, cudaMemcpyDeviceToDevice);
    case 8: return cudaMemcpyAsync(NULL, NULL, 0, cudaMemcpyDefault, 0);
    case 9: return cudaMemcpy2D(NULL, 0, NULL, 0, 0, 4, cudaMemcpyDefault);
    case 10: return cudaMemcpy3D(&p3);
    case 11: return cudaMemcpyPeer(NULL, 0, NULL, 0, 0);
    case 12: return cudaMemset(NULL, 0, 1);
    case 13: return cudaMemcpy(a, b, 8, cudaMemcpyHostToHost);
    }
    return cudaErrorUnknown;
}

static void scenario(int i) {
    cudaError_t e = call(i);
    typedef int (*get_current_fn)(void **);
    void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    get_current_fn get_current = drv ? (get_current_fn)dlsym(drv, "cuCtxGetCurrent") : NULL;
    void *cur = (void *)1;
    int r = get_current ? get_current(&cur) : -1;
    printf("%s: %s, context current after: %s\n", names[i], cudaGetErrorName(e),
           r != 0 ? "cannot tell" : cur == NULL ? "none" : "one");
    SHOW_LAST(names[i]);
    /* The process goes on working either way. */
    void *p = NULL;
    SHOW("cudaMalloc after it", cudaMalloc(&p, 64));
    if (p) OK(cudaFree(p));
}

int main(int argc, char **argv) {
    if (argc > 1) {
        scenario(atoi(argv[1]));
        fflush(stdout);
        return ct_failed ? 1 : 0;
    }
    for (int i = 0; i < N_CALLS; i++) {
        char arg[8];
        snprintf(arg, sizeof arg, "%d", i);
        ct_failed |= ct_in_fresh_process(arg);
    }
    DONE();
}
