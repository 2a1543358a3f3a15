/* ctest: gpu cu abi13 */
/* What CUDA 13.5 declares anew in the types of 13.0's functions, through those functions:
 * the members that took reserved space (cudaFuncAttributes' deviceNodeUpdateStatus and
 * sharedMemoryMode, cudaPointerAttributes' localityDomainOrdinal, cudaMemPoolProps'
 * reserved1, the graph node parameters' ctx, the kernel node's functionType, the host node's
 * syncMode) and the new enum constants (errors, device attributes, limits, pool attributes,
 * launch attributes, node types, channel kinds, function attributes). Each is given to or read
 * from the call it belongs to, and the outcome printed. */
#include "ctest.h"

#include <stdlib.h>
#include <string.h>

__global__ void kset(int *p, int v) { *p = v; }

static unsigned long long word(const void *p) {
    unsigned long long w;
    memcpy(&w, p, sizeof w);
    return w;
}

static void pointer(const char *label, const void *p) {
    struct cudaPointerAttributes a;
    memset(&a, 0xab, sizeof a);
    cudaError_t e = cudaPointerGetAttributes(&a, p);
    /* (NVIDIA's 13.5 runtime leaves what it had on its stack in the rest of the union and in
     * reserved: not printed.) */
    printf("%s: %s, type %d, localityDomainOrdinal %d\n", label, cudaGetErrorName(e), (int)a.type,
           a.localityDomainOrdinal);
    cudaGetLastError();
}

static void func_attrs(const char *label) {
    struct cudaFuncAttributes a;
    memset(&a, 0xab, sizeof a);
    cudaError_t e = cudaFuncGetAttributes(&a, (const void *)kset);
    printf("%s: %s, deviceNodeUpdateStatus %#x, sharedMemoryMode %#x, maxDynamicSharedSizeBytes %#x, reserved[0] %#x, "
           "reserved[13] %#x, numRegs>0 %d\n",
           label, cudaGetErrorName(e), (unsigned)a.deviceNodeUpdateStatus, (unsigned)a.sharedMemoryMode,
           (unsigned)a.maxDynamicSharedSizeBytes, (unsigned)a.reserved[0], (unsigned)a.reserved[13], a.numRegs > 0);
    cudaGetLastError();
}

/* A kernel node through cudaGraphAddNode; when it is made, the graph runs and the value the
 * kernel wrote is read back. */
static void kernel_node(const char *label, int *d, int v, enum cudaKernelFunctionType ft, void *fn,
                        cudaExecutionContext_t ctx) {
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    /* (Its union has members with constructors in C++: no default constructor.) */
    struct cudaGraphNodeParams &p = *(struct cudaGraphNodeParams *)calloc(1, sizeof(struct cudaGraphNodeParams));
    p.type = cudaGraphNodeTypeKernel;
    void *args[] = {&d, &v};
    p.kernel.func = fn;
    p.kernel.functionType = ft;
    p.kernel.ctx = ctx;
    p.kernel.gridDim = dim3(1, 1, 1);
    p.kernel.blockDim = dim3(1, 1, 1);
    p.kernel.kernelParams = args;
    cudaGraphNode_t n = NULL;
    cudaError_t e = cudaGraphAddNode(&n, g, NULL, NULL, 0, &p);
    printf("%s: %s", label, cudaGetErrorName(e));
    cudaGetLastError();
    if (e == cudaSuccess) {
        cudaGraphExec_t x;
        OK(cudaMemset(d, 0, sizeof(int)));
        cudaError_t ie = cudaGraphInstantiate(&x, g, 0);
        printf(", instantiate %s", cudaGetErrorName(ie));
        if (ie == cudaSuccess) {
            OK(cudaGraphLaunch(x, 0));
            OK(cudaStreamSynchronize(0));
            int h = 0;
            OK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
            printf(", kernel wrote %d", h);
            OK(cudaGraphExecDestroy(x));
        }
        cudaGetLastError();
    }
    printf("\n");
    OK(cudaGraphDestroy(g));
    free(&p);
}

/* One node of another type through cudaGraphAddNode: the error, and for a graph that takes
 * it, whether it instantiates and runs. */
static void other_node(const char *label, struct cudaGraphNodeParams *p) {
    cudaGraph_t g;
    OK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t n = NULL;
    cudaError_t e = cudaGraphAddNode(&n, g, NULL, NULL, 0, p);
    printf("%s: %s", label, cudaGetErrorName(e));
    cudaGetLastError();
    if (e == cudaSuccess) {
        cudaGraphExec_t x;
        cudaError_t ie = cudaGraphInstantiate(&x, g, 0);
        printf(", instantiate %s", cudaGetErrorName(ie));
        if (ie == cudaSuccess) {
            printf(", launch %s", cudaGetErrorName(cudaGraphLaunch(x, 0)));
            printf(", sync %s", cudaGetErrorName(cudaStreamSynchronize(0)));
            OK(cudaGraphExecDestroy(x));
        }
        cudaGetLastError();
    }
    printf("\n");
    OK(cudaGraphDestroy(g));
}

static volatile int host_ran;
static void CUDART_CB host_fn(void *u) { host_ran += *(int *)u; }

int main(void) {
    /* The new error codes: names and strings. */
    const int errs[] = {10, 227, 917, 918, 919};
    for (unsigned i = 0; i < sizeof errs / sizeof errs[0]; i++)
        printf("error %d: %s, \"%s\"\n", errs[i], cudaGetErrorName((cudaError_t)errs[i]),
               cudaGetErrorString((cudaError_t)errs[i]));

    OK(cudaSetDevice(0));
    OK(cudaFree(0));
    int *d = NULL;
    OK(cudaMalloc(&d, 4096));

    /* Device attributes and the new limit. */
    for (int a = 146; a <= 162; a++) {
        int v = -7;
        cudaError_t e = cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)a, 0);
        printf("device attribute %d: %s, %d\n", a, cudaGetErrorName(e), e == cudaSuccess ? v : -7);
        cudaGetLastError();
    }
    size_t lim = 77;
    SHOW("cudaDeviceGetLimit(cudaLimitPerBlockMemorySize)", cudaDeviceGetLimit(&lim, cudaLimitPerBlockMemorySize));
    SHOWU("  value", lim);
    SHOW("cudaDeviceSetLimit(cudaLimitPerBlockMemorySize, 0)", cudaDeviceSetLimit(cudaLimitPerBlockMemorySize, 0));
    SHOW_LAST("limits");

    /* Function attributes: the two new members, the new attribute, the new policy. */
    func_attrs("cudaFuncGetAttributes");
    /* What the driver says of attributes 16 and 17 (13.5's device node update and shared
     * memory mode) of the kernel's function. */
    typedef int (*get_attr_fn)(int *, int, void *);
    void *ga = NULL;
    enum cudaDriverEntryPointQueryResult st;
    OK(cudaGetDriverEntryPointByVersion("cuFuncGetAttribute", &ga, 12000, cudaEnableDefault, &st));
    cudaFunction_t kf = NULL;
    OK(cudaGetFuncBySymbol(&kf, (const void *)kset));
    for (int at = 15; at <= 18; at++) {
        int v = 0x5a5a;
        int r = ga ? ((get_attr_fn)ga)(&v, at, (void *)kf) : -1;
        printf("driver: cuFuncGetAttribute(%d): %d, %#x\n", at, r, (unsigned)v);
    }
    for (int m = 0; m <= 5; m++) {
        char l[96];
        snprintf(l, sizeof l, "cudaFuncSetAttribute(cudaFuncAttributeSharedMemoryMode, %d)", m);
        SHOW(l, cudaFuncSetAttribute((const void *)kset, cudaFuncAttributeSharedMemoryMode, m));
        cudaGetLastError();
    }
    func_attrs("cudaFuncGetAttributes after");
    SHOW("cudaFuncSetAttribute(cudaFuncAttributeClusterSchedulingPolicyPreference, RubinDsmemLocality)",
         cudaFuncSetAttribute((const void *)kset, cudaFuncAttributeClusterSchedulingPolicyPreference,
                              cudaClusterSchedulingPolicyRubinDsmemLocality));
    SHOW("cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize, 64 KiB)",
         cudaFuncSetAttribute((const void *)kset, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
    func_attrs("cudaFuncGetAttributes, 64 KiB allowed");
    SHOW_LAST("function attributes");

    /* Pointer attributes of each kind of memory. */
    void *pinned = NULL, *managed = NULL;
    OK(cudaMallocHost(&pinned, 4096));
    OK(cudaMallocManaged(&managed, 4096, cudaMemAttachGlobal));
    void *plain = malloc(64);
    pointer("device memory", d);
    pointer("pinned memory", pinned);
    pointer("managed memory", managed);
    pointer("malloc'd memory", plain);
    pointer("NULL", NULL);

    /* Pools: the new attributes, reserved1, the new location types. */
    cudaMemPool_t pool;
    OK(cudaDeviceGetDefaultMemPool(&pool, 0));
    for (int a = 1; a <= 0x10; a++) {
        unsigned long long v = 0x5a5a5a5a5a5a5a5aull;
        cudaError_t e = cudaMemPoolGetAttribute(pool, (enum cudaMemPoolAttr)a, &v);
        /* Attributes 5-8 are byte counts that change from run to run: only whether they were read. */
        if (a >= 5 && a <= 8)
            printf("pool attribute %#x: %s, read %d\n", a, cudaGetErrorName(e), v != 0x5a5a5a5a5a5a5a5aull);
        else
            printf("pool attribute %#x: %s, %#llx\n", a, cudaGetErrorName(e), v);
        cudaGetLastError();
    }
    for (int a = 0x9; a <= 0xf; a++) {
        unsigned long long v = 0;
        char l[64];
        snprintf(l, sizeof l, "cudaMemPoolSetAttribute(%#x, 0)", a);
        SHOW(l, cudaMemPoolSetAttribute(pool, (enum cudaMemPoolAttr)a, &v));
        cudaGetLastError();
    }
    struct cudaMemPoolProps pp;
    memset(&pp, 0, sizeof pp);
    pp.allocType = cudaMemAllocationTypePinned;
    pp.location.type = cudaMemLocationTypeDevice;
    pp.location.id = 0;
    cudaMemPool_t mine = NULL;
    const unsigned char r1[] = {0, 1, 0xff};
    for (unsigned i = 0; i < sizeof r1; i++) {
        pp.reserved1 = r1[i];
        char l[64];
        snprintf(l, sizeof l, "cudaMemPoolCreate(reserved1 %d)", r1[i]);
        cudaError_t e = SHOW(l, cudaMemPoolCreate(&mine, &pp));
        if (e == cudaSuccess) OK(cudaMemPoolDestroy(mine));
        cudaGetLastError();
    }
    pp.reserved1 = 0;
    pp.location.type = cudaMemLocationTypeDeviceLocalityDomain;
    pp.location.localized.deviceId = 0;
    pp.location.localized.localityDomainId = 0;
    cudaError_t pe = SHOW("cudaMemPoolCreate(location DeviceLocalityDomain 0/0)", cudaMemPoolCreate(&mine, &pp));
    if (pe == cudaSuccess) OK(cudaMemPoolDestroy(mine));
    cudaGetLastError();
    pp.location.type = cudaMemLocationTypeInvisible;
    pp.location.id = 0;
    pe = SHOW("cudaMemPoolCreate(location Invisible)", cudaMemPoolCreate(&mine, &pp));
    if (pe == cudaSuccess) OK(cudaMemPoolDestroy(mine));
    cudaGetLastError();
    struct cudaMemLocation loc;
    loc.type = cudaMemLocationTypeDeviceLocalityDomain;
    loc.id = 0;
    SHOW("cudaMemPrefetchAsync(managed, location DeviceLocalityDomain)", cudaMemPrefetchAsync(managed, 4096, loc, 0, 0));
    cudaGetLastError();
    OK(cudaDeviceSynchronize());

    /* Launch attributes 17 and 18, on a launch and on a stream. */
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    int v = 5;
    void *args[] = {&d, &v};
    for (int id = 17; id <= 18; id++) {
        for (int val = 0; val <= 3; val++) {
            cudaLaunchConfig_t cfg;
            memset(&cfg, 0, sizeof cfg);
            cfg.gridDim = dim3(1, 1, 1);
            cfg.blockDim = dim3(1, 1, 1);
            cfg.stream = s;
            cudaLaunchAttribute at;
            memset(&at, 0, sizeof at);
            at.id = (cudaLaunchAttributeID)id;
            if (id == 17) at.val.portableClusterSizeMode = (cudaLaunchAttributePortableClusterMode)val;
            else at.val.sharedMemoryMode = (cudaSharedMemoryMode)val;
            cfg.attrs = &at;
            cfg.numAttrs = 1;
            char l[96];
            snprintf(l, sizeof l, "cudaLaunchKernelExC(attribute %d = %d)", id, val);
            SHOW(l, cudaLaunchKernelExC(&cfg, (const void *)kset, args));
            cudaGetLastError();
        }
        cudaLaunchAttributeValue av;
        memset(&av, 0, sizeof av);
        char l[96];
        snprintf(l, sizeof l, "cudaStreamSetAttribute(%d, 0)", id);
        SHOW(l, cudaStreamSetAttribute(s, (cudaLaunchAttributeID)id, &av));
        cudaGetLastError();
        memset(&av, 0x11, sizeof av);
        snprintf(l, sizeof l, "cudaStreamGetAttribute(%d)", id);
        SHOW(l, cudaStreamGetAttribute(s, (cudaLaunchAttributeID)id, &av));
        printf("  value word %#llx\n", word(&av));
        cudaGetLastError();
    }
    OK(cudaStreamSynchronize(s));

    /* Kernel nodes: each kind of function, with and without an execution context. */
    cudaExecutionContext_t primary = NULL;
    OK(cudaDeviceGetExecutionCtx(&primary, 0));
    cudaKernel_t kern = NULL;
    OK(cudaGetKernel(&kern, (const void *)kset));
    cudaFunction_t fn = NULL;
    OK(cudaGetFuncBySymbol(&fn, (const void *)kset));
    kernel_node("kernel node, unspecified", d, 11, cudaKernelFunctionTypeUnspecified, (void *)kset, NULL);
    kernel_node("kernel node, device entry", d, 12, cudaKernelFunctionTypeDeviceEntry, (void *)kset, NULL);
    kernel_node("kernel node, cudaKernel_t", d, 13, cudaKernelFunctionTypeKernel, (void *)kern, NULL);
    kernel_node("kernel node, cudaFunction_t", d, 14, cudaKernelFunctionTypeFunction, (void *)fn, NULL);
    kernel_node("kernel node, function type 9", d, 15, (enum cudaKernelFunctionType)9, (void *)kset, NULL);
    kernel_node("kernel node, unspecified, the primary context", d, 16, cudaKernelFunctionTypeUnspecified, (void *)kset, primary);
    kernel_node("kernel node, cudaKernel_t, the primary context", d, 17, cudaKernelFunctionTypeKernel, (void *)kern, primary);

    /* Other nodes with the primary context named. */
    struct cudaGraphNodeParams &p = *(struct cudaGraphNodeParams *)calloc(1, sizeof(struct cudaGraphNodeParams));
    int *h = (int *)pinned;
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemset;
    p.memset.dst = d;
    p.memset.value = 0x21;
    p.memset.elementSize = 4;
    p.memset.width = 4;
    p.memset.height = 1;
    p.memset.ctx = primary;
    other_node("memset node, the primary context", &p);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemcpy;
    p.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(d, 16, 16, 1);
    p.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(h, 16, 16, 1);
    p.memcpy.copyParams.extent = make_cudaExtent(16, 1, 1);
    p.memcpy.copyParams.kind = cudaMemcpyDeviceToHost;
    p.memcpy.ctx = primary;
    h[0] = 0;
    other_node("memcpy node, the primary context", &p);
    printf("  copied %#x\n", h[0]);
    p.memcpy.ctx = NULL;
    p.memcpy.reserved = 1;
    other_node("memcpy node, reserved 1", &p);
    int one = 1;
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeHost;
    p.host.fn = host_fn;
    p.host.userData = &one;
    host_ran = 0;
    other_node("host node", &p);
    p.host.syncMode = cudaHostTaskSpinWait;
    other_node("host node, spin wait", &p);
    p.host.syncMode = 7;
    other_node("host node, sync mode 7", &p);
    p.host.syncMode = 0;
    p.host.ctx = primary;
    other_node("host node, the primary context", &p);
    printf("  host function ran %d times\n", host_ran);
    cudaEvent_t ev;
    OK(cudaEventCreate(&ev));
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeEventRecord;
    p.eventRecord.event = ev;
    p.eventRecord.ctx = primary;
    other_node("event record node, the primary context", &p);
    cudaGraph_t child;
    OK(cudaGraphCreate(&child, 0));
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeGraph;
    p.graph.graph = child;
    p.graph.ownership = cudaGraphChildGraphOwnershipInvalid;
    other_node("child graph node, ownership Invalid", &p);
    cudaGraph_t cg;
    OK(cudaGraphCreate(&cg, 0));
    cudaGraphConditionalHandle ch;
    OK(cudaGraphConditionalHandleCreate(&ch, cg, 0, 0));
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeConditional;
    p.conditional.handle = ch;
    p.conditional.type = cudaGraphCondTypeIf;
    p.conditional.size = 1;
    p.conditional.ctx = primary;
    cudaGraphNode_t cn;
    SHOW("conditional node, the primary context", cudaGraphAddNode(&cn, cg, NULL, NULL, 0, &p));
    cudaGetLastError();
    OK(cudaGraphDestroy(cg));
    memset(&p, 0, sizeof p);
    void *dsts[] = {h}, *srcs[] = {d};
    size_t sizes[] = {4};
    struct cudaMemcpyAttributes ma;
    memset(&ma, 0, sizeof ma);
    ma.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    size_t idx[] = {0};
    p.type = cudaGraphNodeTypeMemcpyBatch;
    p.memcpyBatch.count = 1;
    p.memcpyBatch.dsts = dsts;
    p.memcpyBatch.srcs = srcs;
    p.memcpyBatch.sizes = sizes;
    p.memcpyBatch.attrs = &ma;
    p.memcpyBatch.attrsIdxs = idx;
    p.memcpyBatch.numAttrs = 1;
    other_node("memcpy batch node", &p);
    const int types[] = {0x0c, 0x0f, 0x10, 0x11, 0x12};
    for (unsigned i = 0; i < sizeof types / sizeof types[0]; i++) {
        memset(&p, 0, sizeof p);
        p.type = (enum cudaGraphNodeType)types[i];
        char l[64];
        snprintf(l, sizeof l, "node type %#x", types[i]);
        other_node(l, &p);
    }
    cudaGraph_t dg;
    OK(cudaGraphCreate(&dg, 0));
    SHOW("cudaGraphDebugDotPrint(MemcpyBatchNodeParams)",
         cudaGraphDebugDotPrint(dg, "/dev/null", cudaGraphDebugDotFlagsMemcpyBatchNodeParams));
    OK(cudaGraphDestroy(dg));

    /* Arrays of the new channel kinds. */
    for (int k = 31; k <= 46; k++) {
        struct cudaChannelFormatDesc cd = cudaCreateChannelDesc(8, 8, 8, 0, (enum cudaChannelFormatKind)k);
        cudaArray_t arr = NULL;
        char l[64];
        snprintf(l, sizeof l, "cudaMallocArray(kind %d)", k);
        cudaError_t e = SHOW(l, cudaMallocArray(&arr, &cd, 64, 64, 0));
        if (e == cudaSuccess) OK(cudaFreeArray(arr));
        cudaGetLastError();
    }

    free(&p);
    OK(cudaEventDestroy(ev));
    OK(cudaStreamDestroy(s));
    OK(cudaFree(managed));
    OK(cudaFreeHost(pinned));
    OK(cudaFree(d));
    free(plain);
    DONE();
}
