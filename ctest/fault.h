/*
 * fault.h: faults the current context on purpose, for the tests of what the runtime reports
 * after a sticky error. A tiny PTX kernel, loaded and launched through the driver API in the
 * context the runtime made current, either stores to an unmapped address (the context then
 * reports cudaErrorIllegalAddress) or executes `trap` (cudaErrorLaunchFailure).
 *
 *   int ft_init(void);             1 when the driver can load kernels (0 on the stand-in)
 *   int ft_launch(int kind);       launches FT_ILLEGAL_ADDRESS or FT_TRAP in the current
 *                                  context (loads the module there first); the driver's result
 *
 * Only the launch goes through the driver; everything the test observes is a runtime call.
 */
#ifndef CUDART_RS_FAULT_H
#define CUDART_RS_FAULT_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

typedef int ft_CUresult;
typedef struct ft_CUctx_st *ft_CUcontext;
typedef struct ft_CUmod_st *ft_CUmodule;
typedef struct ft_CUfunc_st *ft_CUfunction;

enum { FT_ILLEGAL_ADDRESS = 0, FT_TRAP = 1 };

static const char ft_ptx[] =
    ".version 7.0\n"
    ".target sm_52\n"
    ".address_size 64\n"
    ".visible .entry ft_store(.param .u64 p)\n"
    "{\n"
    "  .reg .u64 %rd<2>;\n"
    "  .reg .u32 %r<2>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mov.u32 %r1, 7;\n"
    "  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry ft_trap()\n"
    "{\n"
    "  trap;\n"
    "  ret;\n"
    "}\n";

static ft_CUresult (*ft_cuCtxGetCurrent)(ft_CUcontext *);
static ft_CUresult (*ft_cuModuleLoadData)(ft_CUmodule *, const void *);
static ft_CUresult (*ft_cuModuleGetFunction)(ft_CUfunction *, ft_CUmodule, const char *);
static ft_CUresult (*ft_cuLaunchKernel)(ft_CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                                        unsigned, unsigned, void *, void **, void **);

static int ft_init(void) {
    const char *path = getenv("CUDART_RS_DRIVER");
    void *lib = dlopen(path ? path : "libcuda.so.1", RTLD_NOW);
    if (!lib) return 0;
    ft_cuCtxGetCurrent = (ft_CUresult(*)(ft_CUcontext *))dlsym(lib, "cuCtxGetCurrent");
    ft_cuModuleLoadData = (ft_CUresult(*)(ft_CUmodule *, const void *))dlsym(lib, "cuModuleLoadData");
    ft_cuModuleGetFunction =
        (ft_CUresult(*)(ft_CUfunction *, ft_CUmodule, const char *))dlsym(lib, "cuModuleGetFunction");
    ft_cuLaunchKernel = (ft_CUresult(*)(ft_CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                                        unsigned, unsigned, void *, void **, void **))dlsym(lib, "cuLaunchKernel");
    return ft_cuCtxGetCurrent && ft_cuModuleLoadData && ft_cuModuleGetFunction && ft_cuLaunchKernel;
}

/* Launches the faulting kernel in the context current on this thread (a runtime call must
 * have made one current). Returns the driver's result of the first call that failed. */
static ft_CUresult ft_launch(int kind) {
    ft_CUcontext ctx = NULL;
    ft_CUresult r = ft_cuCtxGetCurrent(&ctx);
    if (r || !ctx) return r ? r : 201;
    ft_CUmodule mod = NULL;
    if ((r = ft_cuModuleLoadData(&mod, ft_ptx))) return r;
    ft_CUfunction f = NULL;
    if ((r = ft_cuModuleGetFunction(&f, mod, kind == FT_TRAP ? "ft_trap" : "ft_store"))) return r;
    /* An address no allocation is ever given: the first page. */
    uint64_t bad = 0x100;
    void *args[] = {&bad};
    return ft_cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, kind == FT_TRAP ? NULL : args, NULL);
}

#endif
