/* ctest: gpu abi13 timeout=90
 * Each function CUDA 13.5 added to libcudart.so.13, called with NULL pointers, NULL handles
 * and zeros, each in a process of its own, before and after the runtime has initialised: the
 * result, the last error after it, or the signal that ended the process. The three
 * cudaSubgrid* exports, which no header declares, are found with dlsym and called with zeros.
 * Also the runtime's and the driver's versions. */
#include "ctest.h"
#include <dlfcn.h>
#include <signal.h>

cudaError_t cudaStreamGetDevResource_ptsz(cudaStream_t, cudaDevResource *, enum cudaDevResourceType);
cudaError_t cudaStreamBeginRecaptureToGraph_ptsz(cudaStream_t, enum cudaStreamCaptureMode, cudaGraph_t,
                                                 struct cudaGraphRecaptureCallbackData *);
cudaError_t cudaMemcpyWithAttributesAsync_ptsz(void *, const void *, size_t, struct cudaMemcpyAttributes *, cudaStream_t);
cudaError_t cudaMemcpy3DWithAttributesAsync_ptsz(struct cudaMemcpy3DBatchOp *, unsigned long long, cudaStream_t);
cudaError_t cudaLaunchHostFunc_v2_ptsz(cudaStream_t, cudaHostFn_t, void *, unsigned int);

typedef cudaError_t (*zero_fn)(void *, void *, void *, void *, void *, void *);

static int initialised;

static cudaError_t subgrid(const char *name) {
    zero_fn f = (zero_fn)dlsym(RTLD_DEFAULT, name);
    if (!f) {
        printf("%s: not exported\n", name);
        exit(0);
    }
    return f(NULL, NULL, NULL, NULL, NULL, NULL);
}

static void host_fn(void *p) { (void)p; }

static cudaError_t call(int i) {
    cudaDevResource r;
    memset(&r, 0, sizeof r);
    unsigned int n = 0;
    switch (i) {
    case 0: return cudaGreenCtxCreate(NULL, NULL, 0, 0);
    case 1: return cudaDeviceGetDevResource(0, NULL, cudaDevResourceTypeSm);
    case 2: return cudaDevSmResourceSplit(NULL, 0, NULL, NULL, 0, NULL);
    case 3: return cudaDevSmResourceSplitByCount(NULL, NULL, NULL, NULL, 0, 0);
    case 4: return cudaDevResourceGenerateDesc(NULL, NULL, 0);
    case 5: return cudaStreamGetDevResource(NULL, NULL, cudaDevResourceTypeSm);
    case 6: return cudaStreamGetDevResource_ptsz(NULL, NULL, cudaDevResourceTypeSm);
    case 7: return cudaDeviceGetExecutionCtx(NULL, 0);
    case 8: return cudaExecutionCtxDestroy(NULL);
    case 9: return cudaExecutionCtxGetDevResource(NULL, NULL, cudaDevResourceTypeSm);
    case 10: return cudaExecutionCtxGetDevice(NULL, NULL);
    case 11: return cudaExecutionCtxGetId(NULL, NULL);
    case 12: return cudaExecutionCtxRecordEvent(NULL, NULL);
    case 13: return cudaExecutionCtxStreamCreate(NULL, NULL, 0, 0);
    case 14: return cudaExecutionCtxSynchronize(NULL);
    case 15: return cudaExecutionCtxWaitEvent(NULL, NULL);
    case 16: return cudaGraphConditionalHandleCreate_v2(NULL, NULL, NULL, 0, 0);
    case 17: return cudaGraphExecGetId(NULL, NULL);
    case 18: return cudaGraphGetId(NULL, NULL);
    case 19: return cudaGraphNodeGetContainingGraph(NULL, NULL);
    case 20: return cudaGraphNodeGetLocalId(NULL, NULL);
    case 21: return cudaGraphNodeGetParams(NULL, NULL);
    case 22: return cudaGraphNodeGetToolsId(NULL, NULL);
    case 23: return cudaStreamBeginRecaptureToGraph(NULL, cudaStreamCaptureModeGlobal, NULL, NULL);
    case 24: return cudaStreamBeginRecaptureToGraph_ptsz(NULL, cudaStreamCaptureModeGlobal, NULL, NULL);
    case 25: return cudaMemcpyWithAttributesAsync(NULL, NULL, 0, NULL, NULL);
    case 26: return cudaMemcpyWithAttributesAsync_ptsz(NULL, NULL, 0, NULL, NULL);
    case 27: return cudaMemcpy3DWithAttributesAsync(NULL, 0, NULL);
    case 28: return cudaMemcpy3DWithAttributesAsync_ptsz(NULL, 0, NULL);
    case 29: return cudaMemGetLocationInfo(NULL, 0, 0, 0, NULL);
    case 30: return cudaLaunchHostFunc_v2(NULL, NULL, NULL, 0);
    case 31: return cudaLaunchHostFunc_v2_ptsz(NULL, NULL, NULL, 0);
    case 32: return cudaFuncGetParamCount(NULL, NULL);
    case 33: return subgrid("cudaSubgridCreate");
    case 34: return subgrid("cudaSubgridWorkerGridCreate");
    case 35: return subgrid("cudaSubgridWorksetCreate");
    /* The same with their output pointers given (where there is one). */
    case 36: return cudaDeviceGetDevResource(0, &r, cudaDevResourceTypeSm);
    case 37: return cudaDevSmResourceSplitByCount(NULL, &n, &r, NULL, 0, 0);
    case 38: return cudaStreamGetDevResource(NULL, &r, cudaDevResourceTypeSm);
    case 39: {
        cudaExecutionContext_t c = NULL;
        return cudaDeviceGetExecutionCtx(&c, 0);
    }
    case 40: {
        unsigned id = 0;
        return cudaGraphGetId(NULL, &id);
    }
    case 41: {
        size_t c = 0;
        return cudaFuncGetParamCount((const void *)host_fn, &c);
    }
    case 42: return cudaLaunchHostFunc_v2(NULL, host_fn, NULL, 0);
    case 43: return cudaMemGetLocationInfo(&r, sizeof r, sizeof r, 0, (struct cudaMemLocation *)&r);
    }
    return cudaErrorUnknown;
}

static const char *const names[] = {
    "cudaGreenCtxCreate", "cudaDeviceGetDevResource", "cudaDevSmResourceSplit",
    "cudaDevSmResourceSplitByCount", "cudaDevResourceGenerateDesc", "cudaStreamGetDevResource",
    "cudaStreamGetDevResource_ptsz", "cudaDeviceGetExecutionCtx", "cudaExecutionCtxDestroy",
    "cudaExecutionCtxGetDevResource", "cudaExecutionCtxGetDevice", "cudaExecutionCtxGetId",
    "cudaExecutionCtxRecordEvent", "cudaExecutionCtxStreamCreate", "cudaExecutionCtxSynchronize",
    "cudaExecutionCtxWaitEvent", "cudaGraphConditionalHandleCreate_v2", "cudaGraphExecGetId",
    "cudaGraphGetId", "cudaGraphNodeGetContainingGraph", "cudaGraphNodeGetLocalId",
    "cudaGraphNodeGetParams", "cudaGraphNodeGetToolsId", "cudaStreamBeginRecaptureToGraph",
    "cudaStreamBeginRecaptureToGraph_ptsz", "cudaMemcpyWithAttributesAsync",
    "cudaMemcpyWithAttributesAsync_ptsz", "cudaMemcpy3DWithAttributesAsync",
    "cudaMemcpy3DWithAttributesAsync_ptsz", "cudaMemGetLocationInfo", "cudaLaunchHostFunc_v2",
    "cudaLaunchHostFunc_v2_ptsz", "cudaFuncGetParamCount", "cudaSubgridCreate",
    "cudaSubgridWorkerGridCreate", "cudaSubgridWorksetCreate",
    "cudaDeviceGetDevResource(out given)", "cudaDevSmResourceSplitByCount(count of a zeroed resource)",
    "cudaStreamGetDevResource(out given)", "cudaDeviceGetExecutionCtx(out given)",
    "cudaGraphGetId(out given)", "cudaFuncGetParamCount(a host function)",
    "cudaLaunchHostFunc_v2(legacy stream, fn)", "cudaMemGetLocationInfo(stack memory)",
};
#define NCALLS ((int)(sizeof names / sizeof *names))

static int which;
static void one(void) {
    if (initialised) cudaFree(NULL);
    cudaError_t e = call(which);
    cudaError_t last = cudaGetLastError();
    printf("%s %s: %s, last %s\n", initialised ? "init" : "fresh", names[which], cudaGetErrorName(e),
           cudaGetErrorName(last));
    if (which == 42 && e == cudaSuccess) cudaDeviceSynchronize();
}

int main(void) {
    for (int pass = 0; pass < 2; pass++) {
        initialised = pass;
        for (which = 0; which < NCALLS; which++) {
            fflush(stdout);
            pid_t pid = fork();
            if (pid == 0) {
                one();
                fflush(stdout);
                _exit(0);
            }
            int st = 0;
            waitpid(pid, &st, 0);
            if (WIFSIGNALED(st)) printf("%s %s: killed by signal %d\n", pass ? "init" : "fresh", names[which], WTERMSIG(st));
            else if (WEXITSTATUS(st) != 0) printf("%s %s: exit %d\n", pass ? "init" : "fresh", names[which], WEXITSTATUS(st));
        }
    }
    int rv = 0, dv = 0;
    OK(cudaRuntimeGetVersion(&rv));
    SHOWI("runtime version", rv);
    OK(cudaDriverGetVersion(&dv));
    SHOWI("driver version", dv);
    DONE();
}
