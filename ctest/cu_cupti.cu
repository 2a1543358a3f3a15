/* ctest: gpu cu cupti */
// What NVIDIA's tools see of the runtime through CUPTI: the runtime API callbacks (names,
// callback ids, entry and exit, results, context and correlation ids as first-seen ordinals,
// never pointers or times) and the activity records, each resolved to the call that made it,
// for a small workload (memory, copies, memsets, launches, events, a captured graph, symbols,
// errors), then callbacks enabled for one function, all off, and unsubscribed.
#include <cuda_runtime.h>
#include <cupti.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__global__ void k_add(int *p, int v) { p[threadIdx.x] += v; }
__device__ int dev_sym[4];
static int host_not_a_symbol;

static int use_cupti, use_driver;
static CUpti_SubscriberHandle sub;

static void mark(const char *l) {
    printf("== %s\n", l);
    fflush(stdout);
}

#define CU(x)                                                                                      \
    do {                                                                                           \
        CUptiResult r_ = (x);                                                                      \
        if (r_ != CUPTI_SUCCESS) {                                                                 \
            const char *s_ = "?";                                                                  \
            cuptiGetResultString(r_, &s_);                                                         \
            printf("CUPTI %s: %d %s\n", #x, (int)r_, s_);                                          \
        }                                                                                          \
    } while (0)

// Correlation ids and other unstable ids as first-seen ordinals.
struct ord {
    uint64_t key[8192];
    int n;
};
static int ordinal(struct ord *o, uint64_t k) {
    for (int i = 0; i < o->n; i++)
        if (o->key[i] == k) return i + 1;
    if (o->n < 8192) o->key[o->n++] = k;
    return o->n;
}
static struct ord corr_o, uid_o, stream_o, ctx_o;

// What each correlation id belongs to (from the callbacks).
struct corrname {
    uint32_t corr;
    int dom;
    char name[64];
};
static struct corrname corrs[8192];
static int ncorrs;
static void corr_note(uint32_t c, int dom, const char *name) {
    for (int i = 0; i < ncorrs; i++)
        if (corrs[i].corr == c && corrs[i].dom == dom) return;
    if (ncorrs < 8192) {
        corrs[ncorrs].corr = c;
        corrs[ncorrs].dom = dom;
        snprintf(corrs[ncorrs].name, 64, "%s", name ? name : "?");
        ncorrs++;
    }
}
static const char *corr_what(uint32_t c, char *buf, size_t len) {
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < ncorrs; i++)
        if (corrs[i].corr == c)
            o += snprintf(buf + o, len - o, "%s%s %s", o ? ", " : "", corrs[i].dom == CUPTI_CB_DOMAIN_RUNTIME_API ? "rt" : "drv",
                          corrs[i].name);
    if (!o) snprintf(buf, len, "no callback");
    return buf;
}

static __thread int depth;
static uint64_t cdata_seq;

static void params(CUpti_CallbackDomain dom, CUpti_CallbackId id, const CUpti_CallbackData *d) {
    if (dom != CUPTI_CB_DOMAIN_RUNTIME_API || !d->functionParams) return;
    switch (id) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020: {
        const cudaMalloc_v3020_params *p = (const cudaMalloc_v3020_params *)d->functionParams;
        printf(" size=%zu", p->size);
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020: {
        const cudaMemcpy_v3020_params *p = (const cudaMemcpy_v3020_params *)d->functionParams;
        printf(" count=%zu kind=%d", p->count, (int)p->kind);
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020: {
        const cudaMemset_v3020_params *p = (const cudaMemset_v3020_params *)d->functionParams;
        printf(" value=%d count=%zu", p->value, p->count);
        break;
    }
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000: {
        const cudaLaunchKernel_v7000_params *p = (const cudaLaunchKernel_v7000_params *)d->functionParams;
        printf(" grid=%u block=%u shared=%zu stream=%s", p->gridDim.x, p->blockDim.x, p->sharedMem, p->stream ? "set" : "null");
        break;
    }
    default:
        break;
    }
}

static void CUPTIAPI on_callback(void *ud, CUpti_CallbackDomain dom, CUpti_CallbackId id, const void *cbd) {
    (void)ud;
    if (dom != CUPTI_CB_DOMAIN_RUNTIME_API && dom != CUPTI_CB_DOMAIN_DRIVER_API) {
        printf("callback domain %d id %u\n", (int)dom, id);
        return;
    }
    const CUpti_CallbackData *d = (const CUpti_CallbackData *)cbd;
    const char *cname = "?";
    cuptiGetCallbackName(dom, id, &cname);
    int enter = d->callbackSite == CUPTI_API_ENTER;
    if (!enter && depth > 0) depth--;
    corr_note(d->correlationId, dom, d->functionName);
    printf("%*s%s %s %s (%s, cbid %u) corr #%d ctx %s uid #%d", depth * 2, "", dom == CUPTI_CB_DOMAIN_RUNTIME_API ? "rt" : "drv",
           enter ? "enter" : "exit ", d->functionName ? d->functionName : "(null)", cname, id, ordinal(&corr_o, d->correlationId),
           d->context ? "yes" : "null", d->contextUid ? ordinal(&uid_o, d->contextUid) : 0);
    if (d->symbolName) printf(" symbol %s", d->symbolName);
    if (enter) {
        if (d->correlationData) *d->correlationData = ++cdata_seq;
        params(dom, id, d);
        depth++;
    } else {
        if (d->functionReturnValue) printf(" -> %d", dom == CUPTI_CB_DOMAIN_RUNTIME_API ? (int)*(cudaError_t *)d->functionReturnValue
                                                                                          : (int)*(CUresult *)d->functionReturnValue);
        else printf(" -> (no return value)");
        printf(" cdata %s", d->correlationData ? "kept" : "null");
        if (d->correlationData && *d->correlationData == 0) printf(" (zero)");
    }
    printf("\n");
}

// Activity records, kept to print at the end.
struct rec {
    int kind;
    uint32_t cbid, corr, ret, stream, ctx;
    char name[96];
    uint64_t bytes;
    int copykind;
    uint32_t value;
};
static struct rec recs[16384];
static int nrecs;

static void CUPTIAPI buf_req(uint8_t **b, size_t *size, size_t *max) {
    *size = 4 << 20;
    *b = (uint8_t *)aligned_alloc(8, *size);
    *max = 0;
}
static void CUPTIAPI buf_done(CUcontext ctx, uint32_t stream, uint8_t *b, size_t size, size_t valid) {
    (void)ctx; (void)stream; (void)size;
    CUpti_Activity *r = NULL;
    while (cuptiActivityGetNextRecord(b, valid, &r) == CUPTI_SUCCESS) {
        if (nrecs >= 16384) break;
        struct rec *o = &recs[nrecs++];
        memset(o, 0, sizeof *o);
        o->kind = r->kind;
        switch (r->kind) {
        case CUPTI_ACTIVITY_KIND_RUNTIME:
        case CUPTI_ACTIVITY_KIND_DRIVER: {
            CUpti_ActivityAPI *a = (CUpti_ActivityAPI *)r;
            o->cbid = a->cbid; o->corr = a->correlationId; o->ret = a->returnValue;
            const char *n = "?";
            cuptiGetCallbackName(r->kind == CUPTI_ACTIVITY_KIND_RUNTIME ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API, a->cbid, &n);
            snprintf(o->name, sizeof o->name, "%s", n);
            break;
        }
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
            CUpti_ActivityKernel10 *k = (CUpti_ActivityKernel10 *)r;
            o->corr = k->correlationId; o->stream = k->streamId; o->ctx = k->contextId;
            snprintf(o->name, sizeof o->name, "%s", k->name ? k->name : "?");
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
            CUpti_ActivityMemcpy6 *m = (CUpti_ActivityMemcpy6 *)r;
            o->corr = m->correlationId; o->stream = m->streamId; o->ctx = m->contextId; o->bytes = m->bytes; o->copykind = m->copyKind;
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
            CUpti_ActivityMemset4 *m = (CUpti_ActivityMemset4 *)r;
            o->corr = m->correlationId; o->stream = m->streamId; o->ctx = m->contextId; o->bytes = m->bytes; o->value = m->value;
            break;
        }
        default:
            break;
        }
    }
    size_t dropped = 0;
    cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped);
    if (dropped) printf("activity: %zu records dropped\n", dropped);
    free(b);
}

static void print_records(void) {
    printf("== activity records (%d)\n", nrecs);
    char buf[512];
    for (int i = 0; i < nrecs; i++) {
        struct rec *o = &recs[i];
        switch (o->kind) {
        case CUPTI_ACTIVITY_KIND_RUNTIME:
        case CUPTI_ACTIVITY_KIND_DRIVER:
            printf("%s %s cbid %u corr #%d (%s) ret %u\n", o->kind == CUPTI_ACTIVITY_KIND_RUNTIME ? "RUNTIME" : "DRIVER", o->name, o->cbid,
                   ordinal(&corr_o, o->corr), corr_what(o->corr, buf, sizeof buf), o->ret);
            break;
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
            printf("KERNEL %s corr #%d (%s) stream #%d ctx #%d\n", o->name, ordinal(&corr_o, o->corr), corr_what(o->corr, buf, sizeof buf),
                   ordinal(&stream_o, o->stream), ordinal(&ctx_o, o->ctx));
            break;
        case CUPTI_ACTIVITY_KIND_MEMCPY:
            printf("MEMCPY kind %d bytes %lu corr #%d (%s) stream #%d\n", o->copykind, (unsigned long)o->bytes, ordinal(&corr_o, o->corr),
                   corr_what(o->corr, buf, sizeof buf), ordinal(&stream_o, o->stream));
            break;
        case CUPTI_ACTIVITY_KIND_MEMSET:
            printf("MEMSET value %u bytes %lu corr #%d (%s) stream #%d\n", o->value, (unsigned long)o->bytes, ordinal(&corr_o, o->corr),
                   corr_what(o->corr, buf, sizeof buf), ordinal(&stream_o, o->stream));
            break;
        default:
            printf("record kind %d\n", o->kind);
        }
    }
}

#define RT(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        printf("-- %s = %s\n", #x, cudaGetErrorName(e_));                                          \
    } while (0)

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    use_cupti = 1;
    use_driver = 0;
    mark("start");
    if (use_cupti) {
        uint32_t v = 0;
        CU(cuptiGetVersion(&v));
        printf("CUPTI version %u\n", v);
        CU(cuptiActivityRegisterCallbacks(buf_req, buf_done));
        CU(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME));
        if (use_driver) CU(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER));
        CU(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
        CU(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY));
        CU(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET));
        mark("activity enabled");
        CU(cuptiSubscribe(&sub, (CUpti_CallbackFunc)on_callback, NULL));
        mark("subscribed");
        CU(cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API));
        if (use_driver) CU(cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_DRIVER_API));
        mark("runtime domain enabled");
    }
    int n = 0, rtv = 0;
    RT(cudaRuntimeGetVersion(&rtv));
    RT(cudaGetDeviceCount(&n));
    RT(cudaSetDevice(0));
    RT(cudaFree(0));
    mark("context up");
    int *d = NULL, *h = NULL;
    RT(cudaMalloc((void **)&d, 4096));
    RT(cudaMallocHost((void **)&h, 4096));
    RT(cudaMemset(d, 0, 4096));
    RT(cudaMemcpy(d, h, 4096, cudaMemcpyHostToDevice));
    RT(cudaMemcpy(h, d, 4096, cudaMemcpyDeviceToHost));
    cudaStream_t s = NULL;
    RT(cudaStreamCreate(&s));
    RT(cudaMemcpyAsync(d, h, 1024, cudaMemcpyHostToDevice, s));
    RT(cudaMemsetAsync(d, 1, 1024, s));
    k_add<<<1, 32, 0, s>>>(d, 5);
    RT(cudaGetLastError());
    int v = 7;
    void *args[] = {&d, &v};
    RT(cudaLaunchKernel((const void *)k_add, dim3(1), dim3(32), args, 0, NULL));
    cudaEvent_t e = NULL;
    RT(cudaEventCreate(&e));
    RT(cudaEventRecord(e, s));
    RT(cudaEventSynchronize(e));
    RT(cudaStreamSynchronize(s));
    RT(cudaDeviceSynchronize());
    mark("graph");
    cudaGraph_t g = NULL;
    cudaGraphExec_t ge = NULL;
    RT(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    k_add<<<1, 32, 0, s>>>(d, 1);
    RT(cudaMemsetAsync(d, 2, 64, s));
    RT(cudaStreamEndCapture(s, &g));
    RT(cudaGraphInstantiate(&ge, g, 0));
    RT(cudaGraphLaunch(ge, s));
    RT(cudaStreamSynchronize(s));
    RT(cudaGraphExecDestroy(ge));
    RT(cudaGraphDestroy(g));
    mark("symbols and errors");
    int four[4] = {1, 2, 3, 4};
    RT(cudaMemcpyToSymbol(dev_sym, four, sizeof four));
    void *sp = NULL;
    RT(cudaGetSymbolAddress(&sp, dev_sym));
    RT(cudaGetSymbolAddress(&sp, (const void *)&host_not_a_symbol));
    RT(cudaGetLastError());
    void *huge = NULL;
    RT(cudaMalloc(&huge, (size_t)1 << 60));
    RT(cudaGetLastError());
    RT(cudaSetDevice(999));
    RT(cudaGetLastError());
    RT(cudaEventDestroy(e));
    RT(cudaStreamDestroy(s));
    RT(cudaFreeHost(h));
    RT(cudaFree(d));
    if (use_cupti) {
        mark("selective: cudaMalloc only");
        CU(cuptiEnableDomain(0, sub, CUPTI_CB_DOMAIN_RUNTIME_API));
        if (use_driver) CU(cuptiEnableDomain(0, sub, CUPTI_CB_DOMAIN_DRIVER_API));
        CU(cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020));
        mark("cudaMalloc enabled");
        RT(cudaMalloc((void **)&d, 256));
        RT(cudaFree(d));
        CU(cuptiEnableCallback(0, sub, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020));
        mark("all callbacks off");
        RT(cudaMalloc((void **)&d, 256));
        RT(cudaFree(d));
        CU(cuptiUnsubscribe(sub));
        mark("unsubscribed");
        RT(cudaMalloc((void **)&d, 256));
        RT(cudaFree(d));
        RT(cudaDeviceSynchronize());
        CU(cuptiActivityFlushAll(1));
        mark("flushed");
        print_records();
    }
    // Which libraries this process had (for the log; paths only).
    FILE *m = fopen("/proc/self/maps", "r");
    char line[1024], seen[8][512];
    int ns = 0, ncudart = 0;
    while (m && fgets(line, sizeof line, m)) {
        char *p = strchr(line, '/');
        if (!p || !(strstr(p, "libcudart") || strstr(p, "libcuda.so") || strstr(p, "libcupti"))) continue;
        p[strcspn(p, "\n")] = 0;
        int dup = 0;
        for (int i = 0; i < ns; i++) dup |= !strcmp(seen[i], p);
        if (!dup && ns < 8) {
            snprintf(seen[ns++], 512, "%s", p);
            if (strstr(p, "libcudart")) ncudart++; /* NVIDIA's or ours: named differently */
            else printf("info: mapped %s\n", p);
        }
    }
    if (m) fclose(m);
    printf("info: libcudart copies mapped = %d\n", ncudart);
    mark("end");
    return 0;
}
