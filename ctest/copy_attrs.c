/* ctest: gpu abi13
 * CUDA 13.5's single copies with attributes (cudaMemcpyWithAttributesAsync,
 * cudaMemcpy3DWithAttributesAsync and their _ptsz forms), cudaMemGetLocationInfo on managed,
 * device, pinned and pageable memory, and cudaLaunchHostFunc_v2 with each sync mode: data
 * read back, host functions counted, and NULL pointers, zero sizes, bad access orders, flags,
 * granularities and streams. */
#include "ctest.h"

cudaError_t cudaMemcpyWithAttributesAsync_ptsz(void *dst, const void *src, size_t size,
                                               struct cudaMemcpyAttributes *attr, cudaStream_t stream);
cudaError_t cudaMemcpy3DWithAttributesAsync_ptsz(struct cudaMemcpy3DBatchOp *op, unsigned long long flags,
                                                 cudaStream_t stream);
cudaError_t cudaLaunchHostFunc_v2_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData, unsigned int syncMode);

#define N 4096

static struct cudaMemcpyAttributes attrs(enum cudaMemcpySrcAccessOrder order) {
    struct cudaMemcpyAttributes a;
    memset(&a, 0, sizeof a);
    a.srcAccessOrder = order;
    return a;
}

static volatile int host_calls;
static void CUDART_CB host_fn(void *p) {
    __sync_fetch_and_add(&host_calls, 1);
    if (p) *(int *)p += 1;
}

static void show_locs(const char *label, cudaError_t e, const struct cudaMemLocation *l, int n) {
    printf("%s: %s", label, cudaGetErrorName(e));
    if (e == cudaSuccess)
        for (int i = 0; i < n; i++) printf(" [%d %d]", (int)l[i].type, l[i].id);
    printf("\n");
}

int main(void) {
    cudaStream_t s = NULL;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    unsigned char *d1 = NULL, *d2 = NULL, *pin = NULL;
    unsigned char host[N], stack_src[N];
    OK(cudaMalloc((void **)&d1, N));
    OK(cudaMalloc((void **)&d2, N));
    OK(cudaMallocHost((void **)&pin, N));

    /* 1D copies with attributes. */
    struct cudaMemcpyAttributes a = attrs(cudaMemcpySrcAccessOrderStream);
    memset(stack_src, 0x11, N);
    struct cudaMemcpyAttributes ad = attrs(cudaMemcpySrcAccessOrderDuringApiCall);
    /* A driver without the copy calls (any 13.0 driver) answers
     * cudaErrorCallRequiresNewerDriver; the bytes are checked where the copies ran. */
    cudaError_t first = cudaMemcpyWithAttributesAsync(d1, stack_src, N, &ad, s);
    int copies = first == cudaSuccess;
    printf("H2D from the stack, during API call: %s\n", cudaGetErrorName(first));
    memset(stack_src, 0, N);
    SHOW("D2D, stream order", cudaMemcpyWithAttributesAsync(d2, d1, N, &a, s));
    SHOW("D2H to pinned, stream order", cudaMemcpyWithAttributesAsync(pin, d2, N, &a, s));
    OK(cudaStreamSynchronize(s));
    SHOWI("pinned holds the stack's bytes", ct_all_bytes(pin, N, 0x11));
    if (copies) CHECK(ct_all_bytes(pin, N, 0x11));
    struct cudaMemcpyAttributes aany = attrs(cudaMemcpySrcAccessOrderAny);
    memset(pin, 0x22, N);
    SHOW("H2D pinned, any order", cudaMemcpyWithAttributesAsync(d1, pin, N, &aany, s));
    SHOW("D2H pageable, stream order", cudaMemcpyWithAttributesAsync(host, d1, N, &a, s));
    OK(cudaStreamSynchronize(s));
    SHOWI("pageable holds the pinned bytes", ct_all_bytes(host, N, 0x22));
    if (copies) CHECK(ct_all_bytes(host, N, 0x22));
    struct cudaMemcpyAttributes ahint = attrs(cudaMemcpySrcAccessOrderStream);
    ahint.srcLocHint.type = cudaMemLocationTypeDevice;
    ahint.dstLocHint.type = cudaMemLocationTypeHost;
    ahint.flags = cudaMemcpyFlagPreferOverlapWithCompute;
    SHOW("D2D with hints and overlap flag", cudaMemcpyWithAttributesAsync(d2, d1, N, &ahint, s));

    struct cudaMemcpyAttributes bad = attrs(cudaMemcpySrcAccessOrderInvalid);
    SHOW("access order invalid", cudaMemcpyWithAttributesAsync(d2, d1, N, &bad, s));
    bad = attrs((enum cudaMemcpySrcAccessOrder)9);
    SHOW("access order 9", cudaMemcpyWithAttributesAsync(d2, d1, N, &bad, s));
    bad = attrs(cudaMemcpySrcAccessOrderStream);
    bad.flags = 0x100;
    SHOW("attribute flags 0x100", cudaMemcpyWithAttributesAsync(d2, d1, N, &bad, s));
    bad = attrs(cudaMemcpySrcAccessOrderStream);
    bad.srcLocHint.type = (enum cudaMemLocationType)77;
    SHOW("source hint type 77", cudaMemcpyWithAttributesAsync(d2, d1, N, &bad, s));
    SHOW("NULL attributes", cudaMemcpyWithAttributesAsync(d2, d1, N, NULL, s));
    SHOW("size 0", cudaMemcpyWithAttributesAsync(d2, d1, 0, &a, s));
    SHOW("NULL dst", cudaMemcpyWithAttributesAsync(NULL, d1, N, &a, s));
    SHOW("NULL src", cudaMemcpyWithAttributesAsync(d2, NULL, N, &a, s));
    SHOW_LAST("1D errors");
    SHOW("legacy stream", cudaMemcpyWithAttributesAsync(d2, d1, N, &a, 0));
    SHOW_LAST("legacy stream");
    SHOW("per-thread stream", cudaMemcpyWithAttributesAsync(d2, d1, N, &a, cudaStreamPerThread));
    SHOW("NULL stream (_ptsz)", cudaMemcpyWithAttributesAsync_ptsz(d2, d1, N, &a, 0));
    SHOW("created stream (_ptsz)", cudaMemcpyWithAttributesAsync_ptsz(d2, d1, N, &a, s));
    SHOW_LAST("streams");
    OK(cudaDeviceSynchronize());

    /* 3D copies with attributes: a 64 x 8 x 2 box between pitched device memory and host. */
    const size_t W = 64, H = 8, D = 2;
    struct cudaPitchedPtr pd;
    memset(&pd, 0, sizeof pd);
    OK(cudaMalloc3D(&pd, make_cudaExtent(W, H, D)));
    OK(cudaMemset3D(pd, 0x44, make_cudaExtent(W, H, D)));
    struct cudaMemcpy3DBatchOp op;
    memset(&op, 0, sizeof op);
    op.src.type = cudaMemcpyOperandTypePointer;
    op.src.op.ptr.ptr = pd.ptr;
    op.src.op.ptr.rowLength = pd.pitch;
    op.src.op.ptr.layerHeight = H;
    op.dst.type = cudaMemcpyOperandTypePointer;
    op.dst.op.ptr.ptr = host;
    op.dst.op.ptr.rowLength = W;
    op.dst.op.ptr.layerHeight = H;
    op.extent = make_cudaExtent(W, H, D);
    op.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    memset(host, 0, sizeof host);
    SHOW("3D device to host", cudaMemcpy3DWithAttributesAsync(&op, 0, s));
    OK(cudaStreamSynchronize(s));
    SHOWI("3D box read back", ct_all_bytes(host, W * H * D, 0x44));
    if (copies) CHECK(ct_all_bytes(host, W * H * D, 0x44));
    SHOW("3D (_ptsz) on per-thread", cudaMemcpy3DWithAttributesAsync_ptsz(&op, 0, 0));
    OK(cudaStreamSynchronize(cudaStreamPerThread));
    SHOW("3D flags 1", cudaMemcpy3DWithAttributesAsync(&op, 1, s));
    SHOW("3D NULL op", cudaMemcpy3DWithAttributesAsync(NULL, 0, s));
    SHOW("3D legacy stream", cudaMemcpy3DWithAttributesAsync(&op, 0, 0));
    struct cudaMemcpy3DBatchOp bop = op;
    bop.extent.depth = 0;
    SHOW("3D depth 0", cudaMemcpy3DWithAttributesAsync(&bop, 0, s));
    bop = op;
    bop.srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
    SHOW("3D access order invalid", cudaMemcpy3DWithAttributesAsync(&bop, 0, s));
    bop = op;
    bop.src.type = (enum cudaMemcpy3DOperandType)5;
    SHOW("3D operand type 5", cudaMemcpy3DWithAttributesAsync(&bop, 0, s));
    bop = op;
    bop.dst.op.ptr.rowLength = W - 1;
    SHOW("3D row length below width", cudaMemcpy3DWithAttributesAsync(&bop, 0, s));
    SHOW_LAST("3D errors");
    OK(cudaDeviceSynchronize());

    /* Memory location information. */
    int cma = 0;
    OK(cudaDeviceGetAttribute(&cma, cudaDevAttrConcurrentManagedAccess, 0));
    SHOWI("concurrent managed access", cma);
    const size_t M = 8 << 20;
    unsigned char *m = NULL;
    OK(cudaMallocManaged((void **)&m, M, cudaMemAttachGlobal));
    struct cudaMemLocation locs[8];
    memset(locs, 0xab, sizeof locs);
    show_locs("untouched managed, 2 MiB regions", cudaMemGetLocationInfo(m, M, 2 << 20, 0, locs), locs, 4);
    if (m) memset(m, 1, M);
    show_locs("managed after host writes", cudaMemGetLocationInfo(m, M, 2 << 20, 0, locs), locs, 4);
    struct cudaMemLocation devloc;
    memset(&devloc, 0, sizeof devloc);
    devloc.type = cudaMemLocationTypeDevice;
    OK(cudaMemPrefetchAsync(m, M / 2, devloc, 0, s));
    OK(cudaStreamSynchronize(s));
    show_locs("first half prefetched to device", cudaMemGetLocationInfo(m, M, 2 << 20, 64 << 10, locs), locs, 4);
    show_locs("one 8 MiB region", cudaMemGetLocationInfo(m, M, M, 0, locs), locs, 1);
    show_locs("8 regions of 1 MiB", cudaMemGetLocationInfo(m, M, 1 << 20, 0, locs), locs, 8);
    show_locs("size not a multiple (3 regions)", cudaMemGetLocationInfo(m, 5 << 20, 2 << 20, 0, locs), locs, 3);
    show_locs("summary 0", cudaMemGetLocationInfo(m, M, 0, 0, locs), locs, 0);
    show_locs("summary above size", cudaMemGetLocationInfo(m, 1 << 20, 2 << 20, 0, locs), locs, 0);
    show_locs("sampling above summary", cudaMemGetLocationInfo(m, M, 1 << 20, 2 << 20, locs), locs, 0);
    show_locs("size 0", cudaMemGetLocationInfo(m, 0, 1 << 20, 0, locs), locs, 0);
    show_locs("NULL out", cudaMemGetLocationInfo(m, M, M, 0, NULL), locs, 0);
    show_locs("NULL pointer", cudaMemGetLocationInfo(NULL, M, M, 0, locs), locs, 0);
    show_locs("device memory", cudaMemGetLocationInfo(d1, N, N, 0, locs), locs, 1);
    show_locs("pinned memory", cudaMemGetLocationInfo(pin, N, N, 0, locs), locs, 1);
    unsigned char *pg = (unsigned char *)aligned_alloc(1 << 21, 4 << 20);
    memset(pg, 3, 4 << 20);
    show_locs("pageable memory", cudaMemGetLocationInfo(pg, 4 << 20, 2 << 20, 0, locs), locs, 2);
    show_locs("past the managed allocation", cudaMemGetLocationInfo(m + M - 4096, 1 << 20, 1 << 20, 0, locs), locs, 1);
    SHOW_LAST("location info");

    /* Host functions, v2. */
    int count = 0;
    host_calls = 0;
    SHOW("host func blocking", cudaLaunchHostFunc_v2(s, host_fn, &count, cudaHostTaskBlocking));
    SHOW("host func spin wait", cudaLaunchHostFunc_v2(s, host_fn, &count, cudaHostTaskSpinWait));
    SHOW("host func legacy stream", cudaLaunchHostFunc_v2(0, host_fn, &count, cudaHostTaskBlocking));
    SHOW("host func per-thread", cudaLaunchHostFunc_v2(cudaStreamPerThread, host_fn, &count, cudaHostTaskSpinWait));
    SHOW("host func (_ptsz) NULL stream", cudaLaunchHostFunc_v2_ptsz(0, host_fn, &count, cudaHostTaskBlocking));
    SHOW("host func (_ptsz) created stream", cudaLaunchHostFunc_v2_ptsz(s, host_fn, NULL, cudaHostTaskBlocking));
    SHOW("host func sync mode 2", cudaLaunchHostFunc_v2(s, host_fn, &count, 2));
    SHOW("host func sync mode 0x100", cudaLaunchHostFunc_v2(s, host_fn, &count, 0x100));
    SHOW("host func NULL fn", cudaLaunchHostFunc_v2(s, NULL, &count, cudaHostTaskBlocking));
    SHOW_LAST("host funcs");
    OK(cudaDeviceSynchronize());
    OK(cudaStreamSynchronize(cudaStreamPerThread));
    SHOWI("host funcs run", host_calls);
    SHOWI("counter", count);

    /* In a capture: the host node's sync mode. */
    cudaGraph_t g = NULL;
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    SHOW("host func spin wait while capturing", cudaLaunchHostFunc_v2(s, host_fn, &count, cudaHostTaskSpinWait));
    OK(cudaStreamEndCapture(s, &g));
    cudaGraphNode_t hn[2];
    size_t nh = 2;
    OK(cudaGraphGetNodes(g, hn, &nh));
    SHOWU("captured nodes", nh);
    struct cudaGraphNodeParams np;
    memset(&np, 0, sizeof np);
    if (nh == 1) {
        SHOW("captured host node params", cudaGraphNodeGetParams(hn[0], &np));
        printf("captured host node: type %d, fn %s, syncMode %u\n", (int)np.type,
               np.host.fn == host_fn ? "as given" : "other", np.host.syncMode);
    }
    cudaGraphExec_t x = NULL;
    OK(cudaGraphInstantiate(&x, g, 0));
    host_calls = 0;
    OK(cudaGraphLaunch(x, s));
    OK(cudaStreamSynchronize(s));
    SHOWI("captured host func runs", host_calls);
    OK(cudaGraphExecDestroy(x));
    OK(cudaGraphDestroy(g));

    free(pg);
    OK(cudaFree(m));
    OK(cudaFree(pd.ptr));
    ct_free_device(d1, d2, NULL);
    OK(cudaFreeHost(pin));
    OK(cudaStreamDestroy(s));
    DONE();
}
