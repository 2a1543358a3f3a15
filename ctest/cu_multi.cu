/* ctest: gpu gpu2 cu */
/* Kernels on several devices, for every ordered pair (a, b) of the machine's devices:
 * - peer access: a kernel on a reads b's memory and writes it, with access enabled;
 * - memory pools: a kernel on b reads and writes a pool of a after cudaMemPoolSetAccess gave b
 *   read-write access, reads it with read-only access; and, each in a process of its own, for
 *   the pairs (0, 1) and (N-1, 0): a kernel on b writing with read-only access, reading with
 *   no access, and reading a's cudaMalloc memory without peer access (what the runtime
 *   reports after the fault, on b and on a);
 * - events between devices: a kernel on a that takes a while and then writes a flag, an event
 *   recorded after it, a stream of b waiting for the event and a kernel on b reading the flag;
 * - graphs with nodes on both devices: kernel nodes added with each device current and a copy
 *   between them, launched on a stream of either device; a capture that forks from a stream
 *   of a to a stream of b and joins back;
 * - managed memory read and written by kernels on each device after prefetches;
 * - threads choosing devices and launching kernels there. */
#include <pthread.h>

#include "pool_util.h"

#define MAXD 16
#define SZ (1 << 20)
#define HALF (SZ / 2)

__global__ void fill(unsigned char *p, size_t n, unsigned char v) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = v;
}

__global__ void copy_k(unsigned char *dst, const unsigned char *src, size_t n) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) dst[i] = src[i];
}

__global__ void spin_then_write(int *flag, int v, long long cycles) {
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
    *(volatile int *)flag = v;
}

__global__ void read_flag(const int *flag, int *out) { *out = *(const volatile int *)flag; }

__global__ void sum_k(const unsigned char *p, size_t n, unsigned long long *out) {
    unsigned long long s = 0;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) s += p[i];
    atomicAdd(out, s);
}

static int ndev;
static unsigned char *buf[MAXD];
static cudaStream_t st[MAXD];
static unsigned char h[SZ];


/* Whether n bytes at p (read with device dev current) are all v. */
static const char *all(int dev, const void *p, size_t n, int v) {
    int cur = 0;
    OK(cudaGetDevice(&cur));
    OK(cudaSetDevice(dev));
    memset(h, 0xee, n);
    cudaError_t e = cudaMemcpy(h, p, n, cudaMemcpyDeviceToHost);
    OK(cudaSetDevice(cur));
    if (e != cudaSuccess) return cudaGetErrorName(e);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += h[i] != (unsigned char)v;
    CHECK(bad == 0);
    return bad ? "bytes WRONG" : "bytes ok";
}

/* A kernel launch and the synchronisation of its stream, as one result. */
static cudaError_t ran(cudaStream_t s) {
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    return cudaStreamSynchronize(s);
}

static cudaError_t set_access(cudaMemPool_t pool, int dev, cudaMemAccessFlags f, const char *label) {
    struct cudaMemAccessDesc d;
    d.location = loc(cudaMemLocationTypeDevice, dev);
    d.flags = f;
    return SHOW_CALL(label, cudaMemPoolSetAccess(pool, &d, 1));
}

/* ---------------------------------------------------------------- peer access */

static void peer_kernels(int a, int b) {
    printf("kernels on %d, memory of %d, peer access enabled:\n", a, b);
    if (!ct_peers(a, b)) {
        printf("  no peer access possible between them\n");
        return;
    }
    OK(cudaSetDevice(b));
    OK(cudaMemsetAsync(buf[b], 0x20 + b, SZ, st[b]));
    OK(cudaStreamSynchronize(st[b]));
    OK(cudaSetDevice(a));
    SHOW_CALL("cudaDeviceEnablePeerAccess", cudaDeviceEnablePeerAccess(b, 0));
    OK(cudaMemsetAsync(buf[a], 0, SZ, st[a]));
    copy_k<<<64, 256, 0, st[a]>>>(buf[a], buf[b], SZ);
    SHOW_CALL("kernel on a reads b's memory", ran(st[a]));
    printf("    %s\n", all(a, buf[a], SZ, 0x20 + b));
    fill<<<64, 256, 0, st[a]>>>(buf[b], HALF, (unsigned char)(0x90 + a));
    SHOW_CALL("kernel on a writes b's memory", ran(st[a]));
    printf("    %s\n", all(b, buf[b], HALF, 0x90 + a));
    SHOW_CALL("cudaDeviceDisablePeerAccess", cudaDeviceDisablePeerAccess(b));
}

/* ---------------------------------------------------------------- pools */

static void pool_kernels(int a, int b) {
    printf("kernels on %d, a pool of %d:\n", b, a);
    if (!ct_peers(a, b)) {
        printf("  no peer access possible between them\n");
        return;
    }
    cudaMemPool_t pool = NULL;
    struct cudaMemPoolProps props = pool_props(cudaMemLocationTypeDevice, a);
    OK(cudaSetDevice(a));
    OK(cudaMemPoolCreate(&pool, &props));
    unsigned char *p = NULL;
    OK(cudaMallocFromPoolAsync((void **)&p, SZ, pool, st[a]));
    OK(cudaMemsetAsync(p, 0x30 + a, SZ, st[a]));
    OK(cudaStreamSynchronize(st[a]));
    OK(cudaSetDevice(b));

    /* Kernels only where b was given access (else they would fault: the fault scenarios'
     * business). */
    if (set_access(pool, b, cudaMemAccessFlagsProtReadWrite, "b read-write") == cudaSuccess) {
        OK(cudaMemsetAsync(buf[b], 0, SZ, st[b]));
        copy_k<<<64, 256, 0, st[b]>>>(buf[b], p, SZ);
        SHOW_CALL("kernel on b reads the pool", ran(st[b]));
        printf("    %s\n", all(b, buf[b], SZ, 0x30 + a));
        fill<<<64, 256, 0, st[b]>>>(p, HALF, (unsigned char)(0x50 + b));
        SHOW_CALL("kernel on b writes the pool", ran(st[b]));
        printf("    %s\n", all(a, p, HALF, 0x50 + b));
        /* Read-only, or read-write still where the driver refuses read-only. */
        set_access(pool, b, cudaMemAccessFlagsProtRead, "b read-only");
        OK(cudaMemsetAsync(buf[b], 0, SZ, st[b]));
        copy_k<<<64, 256, 0, st[b]>>>(buf[b], p + HALF, HALF);
        SHOW_CALL("kernel on b reads the pool", ran(st[b]));
        printf("    %s\n", all(b, buf[b], HALF, 0x30 + a));
    }

    set_access(pool, b, cudaMemAccessFlagsProtNone, "b none");
    OK(cudaSetDevice(a));
    OK(cudaFreeAsync(p, st[a]));
    OK(cudaStreamSynchronize(st[a]));
    OK(cudaMemPoolDestroy(pool));
}

/* A fault on device b, in a process of its own: "fault:KIND:A:B". */
static int fault_scenario(const char *arg) {
    char kind[32];
    int a = -1, b = -1;
    if (sscanf(arg, "fault:%31[^:]:%d:%d", kind, &a, &b) != 3) return 2;
    printf("fault scenario %s, memory of %d, kernel on %d:\n", kind, a, b);
    unsigned char *p = NULL, *q = NULL;
    cudaMemPool_t pool = NULL;
    cudaStream_t sa, sb;
    OK(cudaSetDevice(a));
    OK(cudaStreamCreateWithFlags(&sa, cudaStreamNonBlocking));
    if (strcmp(kind, "peer-read-without-access") == 0) {
        OK(cudaMalloc((void **)&p, SZ));
        OK(cudaMemset(p, 0x31, SZ));
    } else {
        struct cudaMemPoolProps props = pool_props(cudaMemLocationTypeDevice, a);
        OK(cudaMemPoolCreate(&pool, &props));
        OK(cudaMallocFromPoolAsync((void **)&p, SZ, pool, sa));
        OK(cudaMemsetAsync(p, 0x31, SZ, sa));
        OK(cudaStreamSynchronize(sa));
    }
    OK(cudaSetDevice(b));
    OK(cudaStreamCreateWithFlags(&sb, cudaStreamNonBlocking));
    OK(cudaMalloc((void **)&q, SZ));
    if (strcmp(kind, "write-read-only") == 0) {
        set_access(pool, b, cudaMemAccessFlagsProtRead, "b read-only");
        fill<<<64, 256, 0, sb>>>(p, SZ, 0x77);
    } else {
        if (pool) set_access(pool, b, cudaMemAccessFlagsProtNone, "b none");
        copy_k<<<64, 256, 0, sb>>>(q, p, SZ);
    }
    SHOW_CALL("the launch", cudaPeekAtLastError());
    SHOW_CALL("cudaStreamSynchronize of b's stream", cudaStreamSynchronize(sb));
    SHOW_CALL("cudaDeviceSynchronize on b", cudaDeviceSynchronize());
    void *r = NULL;
    SHOW_CALL("cudaMalloc on b", cudaMalloc(&r, 64));
    OK(cudaSetDevice(a));
    SHOW_CALL("cudaMemsetAsync on a", cudaMemsetAsync(p, 0x32, SZ, sa));
    SHOW_CALL("cudaStreamSynchronize of a's stream", cudaStreamSynchronize(sa));
    SHOW_CALL("cudaDeviceSynchronize on a", cudaDeviceSynchronize());
    fflush(stdout);
    return ct_failed ? 1 : 0;
}

/* ---------------------------------------------------------------- events */

static void event_order(int a, int b) {
    printf("flag written by a kernel on %d after a while, read on %d after an event:\n", a, b);
    if (!ct_peers(a, b)) {
        printf("  no peer access possible between them\n");
        return;
    }
    int *flag = NULL, *out = NULL, got = -1;
    cudaEvent_t ea;
    OK(cudaSetDevice(a));
    OK(cudaMalloc((void **)&flag, sizeof(int)));
    OK(cudaMemset(flag, 0, sizeof(int)));
    OK(cudaEventCreateWithFlags(&ea, cudaEventDisableTiming));
    OK(cudaSetDevice(b));
    OK(cudaDeviceEnablePeerAccess(a, 0));
    OK(cudaMalloc((void **)&out, sizeof(int)));
    OK(cudaSetDevice(a));
    spin_then_write<<<1, 1, 0, st[a]>>>(flag, 1234 + a, 20000000LL);
    SHOW_CALL("record on a's stream", cudaEventRecord(ea, st[a]));
    OK(cudaSetDevice(b));
    SHOW_CALL("b's stream waits", cudaStreamWaitEvent(st[b], ea, 0));
    read_flag<<<1, 1, 0, st[b]>>>(flag, out);
    SHOW_CALL("kernel on b", cudaGetLastError());
    OK(cudaMemcpyAsync(&got, out, sizeof got, cudaMemcpyDeviceToHost, st[b]));
    OK(cudaStreamSynchronize(st[b]));
    printf("    b read %d\n", got);
    CHECK(got == 1234 + a);
    OK(cudaFree(out));
    OK(cudaDeviceDisablePeerAccess(a));
    OK(cudaSetDevice(a));
    OK(cudaDeviceSynchronize());
    OK(cudaEventDestroy(ea));
    OK(cudaFree(flag));
}

/* ---------------------------------------------------------------- graphs */

static const char *type_name(cudaGraphNodeType t) {
    switch (t) {
    case cudaGraphNodeTypeKernel: return "kernel";
    case cudaGraphNodeTypeMemcpy: return "memcpy";
    case cudaGraphNodeTypeMemset: return "memset";
    case cudaGraphNodeTypeEmpty: return "empty";
    case cudaGraphNodeTypeWaitEvent: return "wait";
    case cudaGraphNodeTypeEventRecord: return "record";
    default: return "other";
    }
}

static void show_nodes(cudaGraph_t g) {
    cudaGraphNode_t nodes[16];
    size_t n = 16;
    OK(cudaGraphGetNodes(g, nodes, &n));
    int counts[16] = {0};
    for (size_t i = 0; i < n && i < 16; i++) {
        cudaGraphNodeType t;
        OK(cudaGraphNodeGetType(nodes[i], &t));
        if ((int)t >= 0 && (int)t < 16) counts[(int)t]++;
    }
    printf("    %zu nodes:", n);
    for (int t = 0; t < 16; t++)
        if (counts[t]) printf(" %d %s", counts[t], type_name((cudaGraphNodeType)t));
    printf("\n");
}

static cudaGraphNode_t kernel_node(cudaGraph_t g, const cudaGraphNode_t *deps, size_t ndeps, unsigned char *p, size_t n,
                                   unsigned char v) {
    cudaGraphNode_t node = NULL;
    void *args[3] = {&p, &n, &v};
    cudaKernelNodeParams kp;
    memset(&kp, 0, sizeof kp);
    kp.func = (void *)fill;
    kp.gridDim = dim3(64);
    kp.blockDim = dim3(256);
    kp.kernelParams = args;
    OK(cudaGraphAddKernelNode(&node, g, deps, ndeps, &kp));
    return node;
}

static void graphs(int a, int b) {
    printf("graph with nodes on %d and %d:\n", a, b);
    if (!ct_peers(a, b)) {
        printf("  no peer access possible between them\n");
        return;
    }
    OK(cudaSetDevice(a));
    OK(cudaDeviceEnablePeerAccess(b, 0));
    OK(cudaSetDevice(b));
    OK(cudaDeviceEnablePeerAccess(a, 0));

    cudaGraph_t g = NULL;
    OK(cudaSetDevice(a));
    OK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t ka = kernel_node(g, NULL, 0, buf[a], SZ, (unsigned char)(0x11 + a));
    OK(cudaSetDevice(b));
    cudaGraphNode_t kb = kernel_node(g, NULL, 0, buf[b], SZ, (unsigned char)(0x22 + b));
    cudaGraphNode_t both[2] = {ka, kb}, cp = NULL;
    SHOW_CALL("copy node from a's memory to b's (b current)",
         cudaGraphAddMemcpyNode1D(&cp, g, both, 2, buf[b], buf[a], HALF, cudaMemcpyDefault));
    OK(cudaSetDevice(a));
    kernel_node(g, &cp, 1, buf[a], HALF, 0x33);
    show_nodes(g);
    cudaGraphExec_t x = NULL;
    if (SHOW_CALL("cudaGraphInstantiate (a current)", cudaGraphInstantiate(&x, g, 0)) == cudaSuccess) {
        for (int k = 0; k < 2; k++) {
            int on = k ? a : b;
            OK(cudaSetDevice(on));
            OK(cudaMemsetAsync(buf[on], 0, SZ, st[on]));
            OK(cudaStreamSynchronize(st[on]));
            SHOW_CALL(k ? "cudaGraphLaunch on a's stream" : "cudaGraphLaunch on b's stream", cudaGraphLaunch(x, st[on]));
            SHOW_CALL("cudaStreamSynchronize", cudaStreamSynchronize(st[on]));
            printf("    b's first half %s\n", all(b, buf[b], HALF, 0x11 + a));
            printf("    b's second half %s\n", all(b, buf[b] + HALF, HALF, 0x22 + b));
            printf("    a's first half %s\n", all(a, buf[a], HALF, 0x33));
            printf("    a's second half %s\n", all(a, buf[a] + HALF, HALF, 0x11 + a));
        }
        OK(cudaGraphExecDestroy(x));
    }
    OK(cudaGraphDestroy(g));

    /* Captured: fork from a's stream to b's, join back. */
    cudaEvent_t ea, eb;
    OK(cudaSetDevice(a));
    OK(cudaEventCreateWithFlags(&ea, cudaEventDisableTiming));
    OK(cudaSetDevice(b));
    OK(cudaEventCreateWithFlags(&eb, cudaEventDisableTiming));
    OK(cudaSetDevice(a));
    g = NULL;
    SHOW_CALL("cudaStreamBeginCapture on a's stream", cudaStreamBeginCapture(st[a], cudaStreamCaptureModeGlobal));
    fill<<<64, 256, 0, st[a]>>>(buf[a], SZ, (unsigned char)(0x44 + a));
    SHOW_CALL("record on a's stream", cudaEventRecord(ea, st[a]));
    OK(cudaSetDevice(b));
    SHOW_CALL("b's stream waits (joins the capture)", cudaStreamWaitEvent(st[b], ea, 0));
    cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    OK(cudaStreamIsCapturing(st[b], &cs));
    printf("    b's stream capturing: %d\n", (int)cs);
    fill<<<64, 256, 0, st[b]>>>(buf[b] + HALF, HALF, (unsigned char)(0x55 + b));
    SHOW_CALL("copy from a's memory on b's stream", cudaMemcpyAsync(buf[b], buf[a], HALF, cudaMemcpyDefault, st[b]));
    SHOW_CALL("record on b's stream", cudaEventRecord(eb, st[b]));
    OK(cudaSetDevice(a));
    SHOW_CALL("a's stream waits (join)", cudaStreamWaitEvent(st[a], eb, 0));
    if (SHOW_CALL("cudaStreamEndCapture", cudaStreamEndCapture(st[a], &g)) == cudaSuccess && g) {
        show_nodes(g);
        x = NULL;
        if (SHOW_CALL("cudaGraphInstantiate", cudaGraphInstantiate(&x, g, 0)) == cudaSuccess) {
            OK(cudaMemsetAsync(buf[a], 0, SZ, st[a]));
            OK(cudaSetDevice(b));
            OK(cudaMemsetAsync(buf[b], 0, SZ, st[b]));
            OK(cudaStreamSynchronize(st[b]));
            OK(cudaSetDevice(a));
            SHOW_CALL("cudaGraphLaunch on a's stream", cudaGraphLaunch(x, st[a]));
            SHOW_CALL("cudaStreamSynchronize", cudaStreamSynchronize(st[a]));
            printf("    a %s\n", all(a, buf[a], SZ, 0x44 + a));
            printf("    b's first half %s\n", all(b, buf[b], HALF, 0x44 + a));
            printf("    b's second half %s\n", all(b, buf[b] + HALF, HALF, 0x55 + b));
            OK(cudaGraphExecDestroy(x));
        }
        OK(cudaGraphDestroy(g));
    }
    OK(cudaEventDestroy(ea));
    OK(cudaSetDevice(b));
    OK(cudaEventDestroy(eb));
    OK(cudaDeviceDisablePeerAccess(a));
    OK(cudaSetDevice(a));
    OK(cudaDeviceDisablePeerAccess(b));
    SHOW_LAST("  at the end");
}

/* ---------------------------------------------------------------- managed memory */

static void managed(void) {
    unsigned char *m = NULL;
    unsigned long long *sum = NULL;
    OK(cudaSetDevice(0));
    OK(cudaMallocManaged((void **)&m, SZ, cudaMemAttachGlobal));
    OK(cudaMallocManaged((void **)&sum, sizeof *sum, cudaMemAttachGlobal));
    unsigned long long want = 0;
    for (size_t i = 0; i < SZ; i++) {
        m[i] = (unsigned char)(i * 5 + 1);
        want += m[i];
    }
    size_t slice = SZ / MAXD;
    for (int d = 0; d < ndev; d++) {
        OK(cudaSetDevice(d));
#if CUDART_VERSION >= 13000
        struct cudaMemLocation l;
        l.type = cudaMemLocationTypeDevice;
        l.id = d;
        cudaError_t e = cudaMemPrefetchAsync(m, SZ, l, 0, st[d]);
#else
        cudaError_t e = cudaMemPrefetchAsync(m, SZ, d, st[d]);
#endif
        printf("managed memory, prefetched to %d: %s\n", d, cudaGetErrorName(e));
        *sum = 0;
        sum_k<<<64, 256, 0, st[d]>>>(m, SZ, sum);
        SHOW_CALL("sum on the device", ran(st[d]));
        printf("    sum %s\n", *sum == want ? "right" : "WRONG");
        CHECK(*sum == want);
        fill<<<4, 256, 0, st[d]>>>(m + (size_t)d * slice, slice, (unsigned char)(0xa0 + d));
        SHOW_CALL("kernel writes its slice", ran(st[d]));
        want = 0;
        for (size_t i = 0; i < SZ; i++) want += m[i];
    }
    int ok = 1;
    for (int d = 0; d < ndev; d++)
        for (size_t i = 0; i < slice; i++) ok &= m[(size_t)d * slice + i] == (unsigned char)(0xa0 + d);
    CHECK(ok);
    printf("managed memory: the host reads every device's slice: %s\n", ok ? "ok" : "WRONG");
    ct_free_device(m, sum, NULL);
}

/* ---------------------------------------------------------------- threads */

struct job {
    int index;
    cudaError_t set, launch, sync;
    int device, ok;
};

static void *thread_main(void *arg) {
    struct job *j = (struct job *)arg;
    int d = j->index % ndev;
    j->set = cudaSetDevice(d);
    cudaGetDevice(&j->device);
    unsigned char *p = NULL, back[4096];
    cudaStream_t s;
    cudaMalloc((void **)&p, sizeof back);
    cudaStreamCreate(&s);
    fill<<<4, 256, 0, s>>>(p, sizeof back, (unsigned char)(j->index + 1));
    j->launch = cudaGetLastError();
    cudaMemcpyAsync(back, p, sizeof back, cudaMemcpyDeviceToHost, s);
    j->sync = cudaStreamSynchronize(s);
    j->ok = 1;
    for (size_t i = 0; i < sizeof back; i++) j->ok &= back[i] == (unsigned char)(j->index + 1);
    cudaStreamDestroy(s);
    cudaFree(p);
    return NULL;
}

static void threads(void) {
    pthread_t t[16];
    struct job jobs[16];
    for (int i = 0; i < 16; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].index = i;
        CHECK(pthread_create(&t[i], NULL, thread_main, &jobs[i]) == 0);
    }
    for (int i = 0; i < 16; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < 16; i++) {
        printf("thread %d: cudaSetDevice(%d) %s, on %d, launch %s, sync %s, bytes %s\n", i, i % ndev,
               cudaGetErrorName(jobs[i].set), jobs[i].device, cudaGetErrorName(jobs[i].launch),
               cudaGetErrorName(jobs[i].sync), jobs[i].ok ? "ok" : "WRONG");
        CHECK(jobs[i].ok && jobs[i].device == i % ndev);
    }
}

int main(int argc, char **argv) {
    if (argc > 1) return fault_scenario(argv[1]);
    int n = ct_devices_or_skip();
    if (n > MAXD) n = MAXD;
    ndev = n;
    for (int d = 0; d < n; d++) {
        OK(cudaSetDevice(d));
        OK(cudaMalloc((void **)&buf[d], SZ));
        OK(cudaStreamCreateWithFlags(&st[d], cudaStreamNonBlocking));
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (a != b) peer_kernels(a, b);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (a != b) pool_kernels(a, b);
    const int fa[2] = {0, n - 1}, fb[2] = {1, 0};
    const char *const kinds[3] = {"write-read-only", "read-no-access", "peer-read-without-access"};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 2; i++) {
            char arg[64];
            snprintf(arg, sizeof arg, "fault:%s:%d:%d", kinds[k], fa[i], fb[i]);
            ct_failed |= ct_in_fresh_process(arg);
        }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (a != b) event_order(a, b);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (a != b) graphs(a, b);
    managed();
    threads();
    for (int d = 0; d < n; d++) {
        OK(cudaSetDevice(d));
        OK(cudaStreamDestroy(st[d]));
        OK(cudaFree(buf[d]));
    }
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
