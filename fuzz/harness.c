/*
 * fuzz/harness.c: a libFuzzer target over the runtime on the stand-in driver. Each input is a
 * sequence of up to 64 calls (one byte picks the call, the next bytes its arguments): memory
 * of every kind, copies and memsets of every shape, host registration, streams, events,
 * stream capture, graphs and their nodes, executable graphs, memory pools and stream-ordered
 * allocation. Arguments are drawn from the objects the input made so far, from values that
 * sit on the edges (0, 1, a page, huge, SIZE_MAX) and from handles and device pointers that
 * are wrong (freed, made up): the runtime and the driver must refuse those cleanly.
 *
 * What is the caller's own fault is not generated (it crashes under NVIDIA's runtime as
 * under ours): a host pointer that is not host memory of the stated size. Without checked
 * mode every host end of a copy, memset or registration is one of the input's host buffers,
 * within it. With CUDART_RS_CHECKED=1 (fuzz/run.sh --checked) host ends may also be made-up,
 * unmapped, read-only or past a buffer's end: checked mode must refuse them, never crash.
 *
 * Everything an input made is released at its end, so that one input does not leave state
 * the next sees (and so that what is left is a leak).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cuda_runtime_api.h>

#define MAXOBJ 8
#define HOSTBUF 65536
#define PAGE 4096

static int checked;
/* Host memory the inputs use: two read-write buffers, one read-only page, then an unmapped
 * page right after the first buffer (a guard). */
static unsigned char *hbuf[2], *ro;

typedef struct {
    const uint8_t *p;
    size_t n;
} input;

static unsigned u8(input *in) {
    if (!in->n) return 0;
    in->n--;
    return *in->p++;
}
static unsigned u16(input *in) { return u8(in) | u8(in) << 8; }

/* Objects made by the current input (NULL: none in that slot). */
static void *dev[MAXOBJ], *pinned[MAXOBJ], *asyncp[MAXOBJ];
static size_t dev_size[MAXOBJ];
static cudaStream_t streams[MAXOBJ];
static cudaEvent_t events[MAXOBJ];
static cudaGraph_t graphs[MAXOBJ];
static cudaGraphNode_t nodes[MAXOBJ];
static cudaGraphExec_t execs[MAXOBJ];
static cudaMemPool_t pools[MAXOBJ];
static void *registered;
/* What was freed or destroyed (still passed around: must be refused). */
static void *stale_ptr;

static const size_t sizes[] = {0, 1, 3, 16, 64, 512, 4096, 65536, 1 << 20, (size_t)1 << 40, SIZE_MAX, 4095};

static size_t size(input *in) { return sizes[u8(in) % (sizeof sizes / sizeof sizes[0])]; }

/* A size for a host end: within the smallest host memory an end may be (a page-locked
 * allocation of a page), unless checked mode may see it run past. */
static size_t hsize(input *in) {
    size_t s = size(in);
    return (!checked && s > PAGE) ? PAGE : s;
}

static int slot(input *in) { return (int)(u8(in) % MAXOBJ); }

/* A device-side pointer: a live allocation (at an offset), pinned memory, NULL, or wrong. */
static void *dptr(input *in) {
    unsigned k = u8(in), o = u8(in);
    switch (k % 8) {
    case 0: return NULL;
    case 1: return stale_ptr;
    /* A made-up address may be taken for host memory (cudaMemcpyDefault): checked mode only. */
    case 2: return checked ? (void *)(uintptr_t)0x10 : NULL;
    case 3: return pinned[o % MAXOBJ];
    case 4: return asyncp[o % MAXOBJ];
    default: {
        int i = (int)(o % MAXOBJ);
        return dev[i] ? (char *)dev[i] + (o & 0x40 ? 64 : 0) : NULL;
    }
    }
}

/* A host-side pointer: one of the host buffers; in checked mode also what is not there. */
static void *hptr(input *in) {
    unsigned k = u8(in);
    if (checked) {
        switch (k % 8) {
        case 0: return (void *)(uintptr_t)0x1000;
        case 1: return ro;
        case 2: return hbuf[0] + HOSTBUF - 8; /* runs into the guard page */
        case 3: return (void *)(uintptr_t)0x8000000000000000ull;
        }
    }
    return hbuf[k & 1] + (k & 0x10 ? 16 : 0);
}

static cudaStream_t stream(input *in) {
    unsigned k = u8(in);
    switch (k % 6) {
    case 0: return 0;
    case 1: return cudaStreamLegacy;
    case 2: return cudaStreamPerThread;
    default: return streams[k % MAXOBJ];
    }
}

static enum cudaMemcpyKind kind(input *in) { return (enum cudaMemcpyKind)(u8(in) % 6); }

static void host_fn(void *p) { (void)p; }

static void release_all(void) {
    cudaGetLastError();
    /* A capture left open ends (its graph is then ours to destroy). */
    for (int i = 0; i < MAXOBJ; i++) {
        enum cudaStreamCaptureStatus st;
        if (streams[i] && cudaStreamIsCapturing(streams[i], &st) == cudaSuccess && st != cudaStreamCaptureStatusNone) {
            cudaGraph_t g = NULL;
            if (cudaStreamEndCapture(streams[i], &g) == cudaSuccess && g) cudaGraphDestroy(g);
        }
    }
    enum cudaStreamCaptureStatus st;
    if (cudaStreamIsCapturing(cudaStreamPerThread, &st) == cudaSuccess && st != cudaStreamCaptureStatusNone) {
        cudaGraph_t g = NULL;
        if (cudaStreamEndCapture(cudaStreamPerThread, &g) == cudaSuccess && g) cudaGraphDestroy(g);
    }
    enum cudaStreamCaptureMode m = cudaStreamCaptureModeGlobal;
    cudaThreadExchangeStreamCaptureMode(&m);
    for (int i = 0; i < MAXOBJ; i++) {
        if (execs[i]) cudaGraphExecDestroy(execs[i]);
        if (graphs[i]) cudaGraphDestroy(graphs[i]);
        if (asyncp[i]) cudaFree(asyncp[i]);
        if (dev[i]) cudaFree(dev[i]);
        if (pinned[i]) cudaFreeHost(pinned[i]);
        if (events[i]) cudaEventDestroy(events[i]);
        if (streams[i]) cudaStreamDestroy(streams[i]);
        if (pools[i]) cudaMemPoolDestroy(pools[i]);
        execs[i] = NULL, graphs[i] = NULL, nodes[i] = NULL, asyncp[i] = NULL, dev[i] = NULL, pinned[i] = NULL;
        events[i] = NULL, streams[i] = NULL, pools[i] = NULL, dev_size[i] = 0;
    }
    if (registered) cudaHostUnregister(registered);
    registered = NULL;
    cudaDeviceSynchronize();
    cudaGetLastError();
}

/* One call of the sequence. */
static void step(input *in) {
    unsigned op = u8(in);
    int i = slot(in);
    switch (op % 40) {
    case 0:
        if (!dev[i]) {
            size_t n = size(in);
            if (cudaMalloc(&dev[i], n) == cudaSuccess) dev_size[i] = n;
        }
        break;
    case 1:
        if (dev[i]) cudaFree(dev[i]), stale_ptr = dev[i], dev[i] = NULL;
        else cudaFree(dptr(in));
        break;
    case 2:
        if (!pinned[i]) cudaMallocHost(&pinned[i], 4096);
        else cudaFreeHost(pinned[i]), stale_ptr = pinned[i], pinned[i] = NULL;
        break;
    case 3: {
        enum cudaMemcpyKind k = kind(in);
        size_t n = hsize(in);
        int to_host = u8(in) & 1;
        if (to_host) cudaMemcpy(hptr(in), dptr(in), n, k);
        else cudaMemcpy(dptr(in), hptr(in), n, k);
        break;
    }
    case 4: cudaMemcpy(dptr(in), dptr(in), size(in), cudaMemcpyDeviceToDevice); break;
    case 5: cudaMemcpyAsync(dptr(in), dptr(in), size(in), kind(in), stream(in)); break;
    case 6: cudaMemset(dptr(in), (int)u8(in), size(in)); break;
    case 7: cudaMemsetAsync(dptr(in), (int)u8(in), size(in), stream(in)); break;
    case 8: {
        size_t w = hsize(in) % 1024, h = u8(in) % 8, sp = size(in), dp = size(in);
        if (!checked) w = h = 0 < w ? (w < 64 ? w : 64) : 0, sp = 64, dp = dp % 4096;
        cudaMemcpy2D(hptr(in), sp, dptr(in), dp, w, h, kind(in));
        break;
    }
    case 9: cudaMemset2D(dptr(in), size(in), (int)u8(in), size(in) % 4096, u8(in) % 16); break;
    case 10: {
        struct cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(dptr(in), size(in), 64, u8(in) % 8);
        p.dstPtr = make_cudaPitchedPtr(dptr(in), size(in), 64, u8(in) % 8);
        p.srcPos = make_cudaPos(u8(in), u8(in) % 4, u8(in) % 4);
        p.extent = make_cudaExtent(u8(in) % 128, u8(in) % 4, u8(in) % 4);
        p.kind = cudaMemcpyDeviceToDevice;
        cudaMemcpy3D(&p);
        break;
    }
    case 11:
        cudaMemset3D(make_cudaPitchedPtr(dptr(in), size(in), 64, size(in)), (int)u8(in),
                     make_cudaExtent(u8(in) % 128, u8(in) % 4, checked && (u8(in) & 1) ? SIZE_MAX : u8(in) % 4));
        break;
    case 12:
        if (!streams[i]) cudaStreamCreateWithFlags(&streams[i], u8(in) % 3);
        else cudaStreamDestroy(streams[i]), streams[i] = NULL;
        break;
    case 13: cudaStreamSynchronize(stream(in)); break;
    case 14: cudaStreamQuery(stream(in)); break;
    case 15:
        if (!events[i]) cudaEventCreateWithFlags(&events[i], u8(in) % 4);
        else cudaEventDestroy(events[i]), events[i] = NULL;
        break;
    case 16: cudaEventRecordWithFlags(events[i], stream(in), u8(in) % 2); break;
    case 17: cudaStreamWaitEvent(stream(in), events[i], u8(in) % 2); break;
    case 18: cudaEventSynchronize(events[i]); cudaEventQuery(events[i]); break;
    case 19: cudaStreamBeginCapture(stream(in), (enum cudaStreamCaptureMode)(u8(in) % 4)); break;
    case 20: {
        cudaGraph_t g = NULL;
        cudaStreamEndCapture(stream(in), &g);
        if (g && !graphs[i]) graphs[i] = g;
        else if (g) cudaGraphDestroy(g);
        break;
    }
    case 21: {
        enum cudaStreamCaptureStatus st;
        unsigned long long id;
        cudaGraph_t g;
        const cudaGraphNode_t *deps;
        size_t nd;
#if CUDART_VERSION >= 13000
        cudaStreamGetCaptureInfo(stream(in), &st, &id, &g, &deps, NULL, &nd);
#else
        cudaStreamGetCaptureInfo(stream(in), &st, &id, &g, &deps, &nd);
#endif
        break;
    }
    case 22: {
        enum cudaStreamCaptureMode m = (enum cudaStreamCaptureMode)(u8(in) % 3);
        cudaThreadExchangeStreamCaptureMode(&m);
        break;
    }
    case 23:
        if (!graphs[i]) cudaGraphCreate(&graphs[i], 0);
        else if (u8(in) & 1) {
            cudaGraph_t c = NULL;
            cudaGraphClone(&c, graphs[i]);
            if (c) cudaGraphDestroy(c);
        } else
            cudaGraphDestroy(graphs[i]), graphs[i] = NULL, nodes[i] = NULL;
        break;
    case 24: {
        struct cudaMemsetParams m;
        memset(&m, 0, sizeof m);
        m.dst = dptr(in);
        m.value = u8(in);
        m.elementSize = u8(in) % 5;
        m.width = size(in) % 1024;
        m.height = u8(in) % 4;
        m.pitch = size(in);
        cudaGraphNode_t dep = nodes[slot(in)];
        cudaGraphAddMemsetNode(&nodes[i], graphs[slot(in)], dep ? &dep : NULL, dep ? 1 : 0, &m);
        break;
    }
    case 25:
        cudaGraphAddMemcpyNode1D(&nodes[i], graphs[slot(in)], NULL, 0, dptr(in), dptr(in), size(in), cudaMemcpyDeviceToDevice);
        break;
    case 26: {
        struct cudaHostNodeParams hp = {host_fn, NULL};
        cudaGraphNode_t dep = nodes[slot(in)];
        cudaGraphAddHostNode(&nodes[i], graphs[slot(in)], dep ? &dep : NULL, dep ? 1 : 0, &hp);
        break;
    }
    case 27: cudaGraphAddEmptyNode(&nodes[i], graphs[slot(in)], &nodes[slot(in)], u8(in) % 2); break;
    case 28:
        if (u8(in) & 1) cudaGraphAddEventRecordNode(&nodes[i], graphs[slot(in)], NULL, 0, events[slot(in)]);
        else cudaGraphAddEventWaitNode(&nodes[i], graphs[slot(in)], NULL, 0, events[slot(in)]);
        break;
    case 29: cudaGraphAddChildGraphNode(&nodes[i], graphs[slot(in)], NULL, 0, graphs[slot(in)]); break;
    case 30: {
        struct cudaMemAllocNodeParams a;
        memset(&a, 0, sizeof a);
        a.poolProps.allocType = (enum cudaMemAllocationType)(u8(in) % 3);
        a.poolProps.location.type = (enum cudaMemLocationType)(u8(in) % 3);
        a.bytesize = size(in) % (1 << 21);
        if (cudaGraphAddMemAllocNode(&nodes[i], graphs[slot(in)], NULL, 0, &a) == cudaSuccess && u8(in) & 1) {
            cudaGraphNode_t fn;
            cudaGraphAddMemFreeNode(&fn, graphs[slot(in)], &nodes[i], 1, a.dptr);
        }
        break;
    }
    case 31: {
        cudaGraphNode_t a = nodes[slot(in)], b = nodes[slot(in)];
        if (u8(in) & 1) cudaGraphRemoveDependencies(graphs[i], &a, &b, NULL, 1);
        else cudaGraphAddDependencies(graphs[i], &a, &b, NULL, 1);
        break;
    }
    case 32:
        if (!execs[i]) cudaGraphInstantiate(&execs[i], graphs[slot(in)], u8(in) % 4);
        else cudaGraphExecDestroy(execs[i]), execs[i] = NULL;
        break;
    case 33: cudaGraphLaunch(execs[i], stream(in)); break;
    case 34: {
        cudaGraphExecUpdateResultInfo info;
        cudaGraphExecUpdate(execs[i], graphs[slot(in)], &info);
        break;
    }
    case 35:
        if (!asyncp[i]) cudaMallocAsync(&asyncp[i], size(in), stream(in));
        else cudaFreeAsync(asyncp[i], stream(in)), stale_ptr = asyncp[i], asyncp[i] = NULL;
        break;
    case 36:
        if (!pools[i]) {
            struct cudaMemPoolProps p;
            memset(&p, 0, sizeof p);
            p.allocType = cudaMemAllocationTypePinned;
            p.location.type = (enum cudaMemLocationType)(u8(in) % 3);
            cudaMemPoolCreate(&pools[i], &p);
        } else if (u8(in) & 1) {
            unsigned long long v = size(in);
            cudaMemPoolSetAttribute(pools[i], (enum cudaMemPoolAttr)(u8(in) % 10), &v);
            cudaMemPoolTrimTo(pools[i], size(in));
        } else
            cudaMemPoolDestroy(pools[i]), pools[i] = NULL;
        break;
    case 37:
        if (!asyncp[i] && pools[slot(in)]) cudaMallocFromPoolAsync(&asyncp[i], size(in), pools[slot(in)], stream(in));
        break;
    case 38:
        if (!registered) {
            void *p = hptr(in);
            if (cudaHostRegister(p, hsize(in), u8(in) % 16) == cudaSuccess) registered = p;
        } else
            cudaHostUnregister(registered), registered = NULL;
        break;
    case 39: {
        void *d = NULL;
        size_t pitch = 0;
        if (cudaMallocPitch(&d, &pitch, size(in), u8(in) % 4) == cudaSuccess) cudaFree(d);
        struct cudaPointerAttributes at;
        cudaPointerGetAttributes(&at, dptr(in));
        break;
    }
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    const char *c = getenv("CUDART_RS_CHECKED");
    checked = c && strcmp(c, "1") == 0;
    /* Buffer 0 with an unmapped page after it; buffer 1; a read-only page. */
    unsigned char *m = mmap(NULL, HOSTBUF + PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    hbuf[0] = m;
    munmap(m + HOSTBUF, PAGE);
    hbuf[1] = mmap(NULL, HOSTBUF, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cudaFree(0);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    input in = {data, size};
    for (int n = 0; n < 64 && in.n; n++) step(&in);
    release_all();
    return 0;
}
