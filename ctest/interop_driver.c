/* ctest: gpu
 * Runtime and driver calls mixed: a context the program creates and makes current with the
 * driver API is the one runtime calls use; runtime streams are driver streams and back. */
#include "ctest.h"
#include <dlfcn.h>
#include <stdint.h>

typedef int CUresult;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;

#define SYM(lib, name) dlsym(lib, name)

int main(void) {
    const char *path = getenv("CUDART_RS_DRIVER");
    void *lib = dlopen(path ? path : "libcuda.so.1", RTLD_NOW);
    CHECK(lib != NULL);
    if (!lib) DONE();
    CUresult (*cuInit)(unsigned) = (CUresult(*)(unsigned))SYM(lib, "cuInit");
    CUresult (*cuDeviceGet)(int *, int) = (CUresult(*)(int *, int))SYM(lib, "cuDeviceGet");
    CUresult (*cuCtxCreate)(CUcontext *, unsigned, int) = (CUresult(*)(CUcontext *, unsigned, int))SYM(lib, "cuCtxCreate_v2");
    CUresult (*cuCtxDestroy)(CUcontext) = (CUresult(*)(CUcontext))SYM(lib, "cuCtxDestroy_v2");
    CUresult (*cuCtxGetCurrent)(CUcontext *) = (CUresult(*)(CUcontext *))SYM(lib, "cuCtxGetCurrent");
    CUresult (*cuCtxSetCurrent)(CUcontext) = (CUresult(*)(CUcontext))SYM(lib, "cuCtxSetCurrent");
    CUresult (*cuPointerGetAttribute)(void *, int, unsigned long long) =
        (CUresult(*)(void *, int, unsigned long long))SYM(lib, "cuPointerGetAttribute");
    CUresult (*cuStreamCreate)(CUstream *, unsigned) = (CUresult(*)(CUstream *, unsigned))SYM(lib, "cuStreamCreate");
    CUresult (*cuStreamSynchronize)(CUstream) = (CUresult(*)(CUstream))SYM(lib, "cuStreamSynchronize");
    CUresult (*cuStreamDestroy)(CUstream) = (CUresult(*)(CUstream))SYM(lib, "cuStreamDestroy_v2");
    CHECK(cuInit && cuDeviceGet && cuCtxCreate && cuCtxDestroy && cuCtxGetCurrent && cuCtxSetCurrent &&
          cuPointerGetAttribute && cuStreamCreate && cuStreamSynchronize && cuStreamDestroy);
    if (ct_failed) DONE();

    /* The runtime's own context first: the primary context of device 0. */
    void *a = NULL;
    OK(SHOW("cudaMalloc in the primary context", cudaMalloc(&a, 256)));
    CUcontext primary = NULL, mine = NULL, cur = NULL, owner = NULL;
    SHOWI("cuCtxGetCurrent after runtime call", cuCtxGetCurrent(&primary));
    CHECK(primary != NULL);

    /* A context of the program's own, current: runtime calls use it. */
    int dev = -1;
    SHOWI("cuInit", cuInit(0));
    SHOWI("cuDeviceGet", cuDeviceGet(&dev, 0));
    SHOWI("cuCtxCreate", cuCtxCreate(&mine, 0, dev));
    CHECK(mine != NULL && mine != primary);
    void *b = NULL;
    OK(SHOW("cudaMalloc in the program's context", cudaMalloc(&b, 256)));
    SHOWI("cuPointerGetAttribute(CONTEXT)", cuPointerGetAttribute(&owner, 1 /* CONTEXT */, (uintptr_t)b));
    printf("allocation belongs to the program's context: %d\n", owner == mine);
    CHECK(owner == mine);
    cuCtxGetCurrent(&cur);
    printf("the program's context is still current: %d\n", cur == mine);
    CHECK(cur == mine);
    int d = -1;
    OK(SHOW("cudaGetDevice", cudaGetDevice(&d)));
    SHOWI("device", d);

    /* Streams cross over. */
    cudaStream_t rs = NULL;
    OK(SHOW("cudaStreamCreate", cudaStreamCreate(&rs)));
    SHOWI("cuStreamSynchronize(runtime stream)", cuStreamSynchronize((CUstream)rs));
    CUstream ds = NULL;
    SHOWI("cuStreamCreate", cuStreamCreate(&ds, 0));
    OK(SHOW("cudaMemsetAsync on a driver stream", cudaMemsetAsync(b, 7, 256, (cudaStream_t)ds)));
    OK(SHOW("cudaStreamSynchronize(driver stream)", cudaStreamSynchronize((cudaStream_t)ds)));
    unsigned char back[256];
    OK(cudaMemcpy(back, b, 256, cudaMemcpyDeviceToHost));
    CHECK(back[0] == 7 && back[255] == 7);
    OK(cudaStreamDestroy(rs));
    SHOWI("cuStreamDestroy", cuStreamDestroy(ds));
    OK(SHOW("cudaFree in the program's context", cudaFree(b)));

    /* Back to no context: the runtime returns to the primary context. */
    SHOWI("cuCtxDestroy", cuCtxDestroy(mine));
    cuCtxSetCurrent(NULL);
    OK(SHOW("cudaFree in the primary context", cudaFree(a)));
    cuCtxGetCurrent(&cur);
    printf("primary context current again: %d\n", cur == primary);
    CHECK(cur == primary);
    DONE();
}
