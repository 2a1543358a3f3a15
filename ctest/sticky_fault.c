/* ctest: gpu
 * After a kernel faults the context (an illegal address, then a trap): what each runtime call
 * returns, what it leaves as the thread's last error (cudaPeekAtLastError after each call),
 * what cudaGetLastError returns when called again and again, what another thread sees, and
 * how cudaDeviceReset recovers. Calls with good and bad arguments, so the order of the
 * context's fault and the argument checks shows. */
#include "ctest.h"
#include "fault.h"
#include <pthread.h>

/* A call, its result and the last error it left. */
#define P(label, call) show_and_peek((label), (call))
static void show_and_peek(const char *label, cudaError_t e) {
    printf("%-44s -> %-32s peek %s\n", label, cudaGetErrorName(e), cudaGetErrorName(cudaPeekAtLastError()));
}

/* cudaGetLastError twice: what it returns, and whether it cleared the slot. */
#define GET2(label)                                                                           \
    do {                                                                                      \
        cudaError_t g1 = cudaGetLastError();                                                  \
        cudaError_t g2 = cudaGetLastError();                                                  \
        printf("%-44s -> get %s, get %s\n", (label), cudaGetErrorName(g1), cudaGetErrorName(g2)); \
    } while (0)

struct res {
    void *dev, *dev_pitched, *pinned, *managed, *host, *registered;
    size_t pitch;
    cudaStream_t stream;
    cudaEvent_t event;
    cudaArray_t array;
};

static void make(struct res *r) {
    memset(r, 0, sizeof *r);
    OK(cudaMalloc(&r->dev, 4096));
    OK(cudaMallocPitch(&r->dev_pitched, &r->pitch, 64, 4));
    OK(cudaMallocHost(&r->pinned, 4096));
    OK(cudaMallocManaged(&r->managed, 4096, cudaMemAttachGlobal));
    r->host = malloc(8192);
    memset(r->host, 1, 8192);
    r->registered = aligned_alloc(4096, 8192);
    OK(cudaHostRegister(r->registered, 8192, cudaHostRegisterDefault));
    OK(cudaStreamCreateWithFlags(&r->stream, cudaStreamNonBlocking));
    OK(cudaEventCreate(&r->event));
    struct cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    OK(cudaMallocArray(&r->array, &cd, 16, 4, 0));
}

static void *other_thread(void *arg) {
    (void)arg;
    P("other thread: cudaPeekAtLastError", cudaPeekAtLastError());
    void *p = NULL;
    P("other thread: cudaMalloc 64", cudaMalloc(&p, 64));
    P("other thread: cudaMalloc 0", cudaMalloc(&p, 0));
    GET2("other thread: cudaGetLastError x2");
    P("other thread: cudaDeviceSynchronize", cudaDeviceSynchronize());
    GET2("other thread: cudaGetLastError x2");
    return NULL;
}

/* Every probe on a faulted context, good and bad arguments. */
static void probe(struct res *r, const char *when) {
    printf("== %s\n", when);
    void *p = NULL;
    size_t pitch = 0;
    char buf[64];
    memset(buf, 2, sizeof buf);
    P("cudaPeekAtLastError", cudaPeekAtLastError());
    GET2("cudaGetLastError x2");
    P("cudaDeviceSynchronize", cudaDeviceSynchronize());
    GET2("cudaGetLastError x2 after sync");

    /* Argument errors the runtime finds by itself. */
    P("cudaMemcpy kind 99", cudaMemcpy(r->dev, buf, 64, (enum cudaMemcpyKind)99));
    P("cudaMemcpy count 0", cudaMemcpy(r->dev, buf, 0, cudaMemcpyHostToDevice));
    P("cudaMalloc NULL out", cudaMalloc(NULL, 64));
    P("cudaMallocPitch 0 x 0", cudaMallocPitch(&p, &pitch, 0, 0));
    GET2("cudaGetLastError x2");
    P("cudaMallocPitch 0 x 0 (slot clean)", cudaMallocPitch(&p, &pitch, 0, 0));
    P("cudaMalloc 0", cudaMalloc(&p, 0));
    P("cudaMemcpy2D 1 row, pitches 0", cudaMemcpy2D(r->pinned, 0, buf, 0, 1, 1, cudaMemcpyDefault));
    P("cudaMemset count 0", cudaMemset(r->dev, 0, 0));
    P("cudaHostRegister NULL", cudaHostRegister(NULL, 4096, 0));
    P("cudaHostRegister flags 0x100", cudaHostRegister(r->host, 4096, 0x100));
    P("cudaHostUnregister NULL", cudaHostUnregister(NULL));
    P("cudaFree NULL", cudaFree(NULL));
    P("cudaFreeHost NULL", cudaFreeHost(NULL));
    P("cudaSetDevice 99", cudaSetDevice(99));
    cudaStream_t bad_s = NULL;
    cudaEvent_t bad_e = NULL;
    P("cudaStreamCreateWithFlags flags 8", cudaStreamCreateWithFlags(&bad_s, 8));
    P("cudaEventCreateWithFlags flags 0x40", cudaEventCreateWithFlags(&bad_e, 0x40));
    GET2("cudaGetLastError x2");

    /* Calls with good arguments. */
    int v = 0, n = 0;
    P("cudaGetDeviceCount", cudaGetDeviceCount(&n));
    P("cudaGetDevice", cudaGetDevice(&v));
    P("cudaSetDevice 0", cudaSetDevice(0));
    P("cudaDeviceGetAttribute", cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0));
    size_t fr = 0, tot = 0;
    P("cudaMemGetInfo", cudaMemGetInfo(&fr, &tot));
    P("cudaMalloc 64", cudaMalloc(&p, 64));
    P("cudaMallocPitch 64 x 4", cudaMallocPitch(&p, &pitch, 64, 4));
    P("cudaMallocHost 64", cudaMallocHost(&p, 64));
    P("cudaHostAlloc 64", cudaHostAlloc(&p, 64, cudaHostAllocDefault));
    P("cudaMallocManaged 64", cudaMallocManaged(&p, 64, cudaMemAttachGlobal));
    P("cudaMemcpy H2D", cudaMemcpy(r->dev, buf, 64, cudaMemcpyHostToDevice));
    P("cudaMemcpy D2H", cudaMemcpy(buf, r->dev, 64, cudaMemcpyDeviceToHost));
    P("cudaMemcpy H2H", cudaMemcpy(buf, r->host, 64, cudaMemcpyHostToHost));
    P("cudaMemcpy Default pinned->pageable", cudaMemcpy(buf, r->pinned, 64, cudaMemcpyDefault));
    P("cudaMemcpyAsync H2D", cudaMemcpyAsync(r->dev, buf, 64, cudaMemcpyHostToDevice, r->stream));
    P("cudaMemcpy2D D2D", cudaMemcpy2D(r->dev_pitched, r->pitch, r->dev, 64, 64, 4, cudaMemcpyDeviceToDevice));
    P("cudaMemset", cudaMemset(r->dev, 0, 64));
    P("cudaMemsetAsync", cudaMemsetAsync(r->dev, 0, 64, r->stream));
    P("cudaMemset2D", cudaMemset2D(r->dev_pitched, r->pitch, 0, 64, 4));
    GET2("cudaGetLastError x2");
    P("cudaMemcpy2DToArray", cudaMemcpy2DToArray(r->array, 0, 0, buf, 64, 64, 1, cudaMemcpyHostToDevice));
    struct cudaPointerAttributes pa;
    P("cudaPointerGetAttributes device", cudaPointerGetAttributes(&pa, r->dev));
    P("cudaPointerGetAttributes pageable", cudaPointerGetAttributes(&pa, r->host));
    unsigned fl = 0;
    P("cudaHostGetFlags pinned", cudaHostGetFlags(&fl, r->pinned));
    P("cudaHostGetDevicePointer pinned", cudaHostGetDevicePointer(&p, r->pinned, 0));
#if CUDART_VERSION >= 13000
    struct cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
    P("cudaMemAdvise", cudaMemAdvise(r->managed, 4096, cudaMemAdviseSetReadMostly, loc));
    P("cudaMemPrefetchAsync", cudaMemPrefetchAsync(r->managed, 4096, loc, 0, r->stream));
#else
    P("cudaMemAdvise", cudaMemAdvise(r->managed, 4096, cudaMemAdviseSetReadMostly, 0));
    P("cudaMemPrefetchAsync", cudaMemPrefetchAsync(r->managed, 4096, 0, r->stream));
#endif
    int rm = -1;
    P("cudaMemRangeGetAttribute", cudaMemRangeGetAttribute(&rm, sizeof rm, cudaMemRangeAttributeReadMostly, r->managed, 4096));
    cudaStream_t s2 = NULL;
    P("cudaStreamCreate", cudaStreamCreate(&s2));
    P("cudaStreamQuery", cudaStreamQuery(r->stream));
    P("cudaStreamSynchronize", cudaStreamSynchronize(r->stream));
    P("cudaStreamQuery null", cudaStreamQuery(0));
    cudaEvent_t e2 = NULL;
    P("cudaEventCreate", cudaEventCreate(&e2));
    P("cudaEventRecord", cudaEventRecord(r->event, r->stream));
    P("cudaEventQuery", cudaEventQuery(r->event));
    P("cudaEventSynchronize", cudaEventSynchronize(r->event));
    P("cudaStreamWaitEvent", cudaStreamWaitEvent(r->stream, r->event, 0));
    GET2("cudaGetLastError x2");

    pthread_t t;
    pthread_create(&t, NULL, other_thread, NULL);
    pthread_join(t, NULL);

    /* Frees of what was made before the fault. */
    P("cudaFree device", cudaFree(r->dev));
    P("cudaFree pitched", cudaFree(r->dev_pitched));
    P("cudaFree managed", cudaFree(r->managed));
    P("cudaFreeHost pinned", cudaFreeHost(r->pinned));
    P("cudaHostUnregister registered", cudaHostUnregister(r->registered));
    P("cudaHostUnregister never registered", cudaHostUnregister(r->host));
    P("cudaHostRegister pageable", cudaHostRegister(r->host, 4096, 0));
    P("cudaFreeArray", cudaFreeArray(r->array));
    P("cudaEventDestroy", cudaEventDestroy(r->event));
    P("cudaStreamDestroy", cudaStreamDestroy(r->stream));
    GET2("cudaGetLastError x2");
    P("cudaPeekAtLastError", cudaPeekAtLastError());
}

/* After cudaDeviceReset: the slot and a few calls. */
static void after_reset(const char *when) {
    printf("== %s\n", when);
    P("cudaPeekAtLastError", cudaPeekAtLastError());
    GET2("cudaGetLastError x2");
    void *p = NULL;
    P("cudaMalloc 64", cudaMalloc(&p, 64));
    char buf[64] = {0};
    P("cudaMemcpy H2D", cudaMemcpy(p, buf, 64, cudaMemcpyHostToDevice));
    P("cudaDeviceSynchronize", cudaDeviceSynchronize());
    P("cudaFree", cudaFree(p));
    GET2("cudaGetLastError x2");
}

static void fault(int kind, const char *name) {
    OK(cudaFree(NULL)); /* a context current on this thread */
    int r = ft_launch(kind);
    printf("launch %s: driver result %d\n", name, r);
    P("cudaPeekAtLastError after launch", cudaPeekAtLastError());
    P("cudaDeviceSynchronize", cudaDeviceSynchronize());
}


static void illegal_address(void) {
    struct res r;
    make(&r);
    fault(FT_ILLEGAL_ADDRESS, "illegal address");
    probe(&r, "after an illegal address");
    P("cudaDeviceReset", cudaDeviceReset());
    after_reset("after cudaDeviceReset");
    after_reset("after cudaDeviceReset, again");
}

static void trap(void) {
    struct res r;
    make(&r);
    fault(FT_TRAP, "trap");
    P("cudaStreamQuery after trap", cudaStreamQuery(0));
    GET2("cudaGetLastError x2");
    P("cudaEventRecord", cudaEventRecord(r.event, 0));
    void *p = NULL;
    P("cudaMalloc 64", cudaMalloc(&p, 64));
    P("cudaFree NULL", cudaFree(NULL));
    GET2("cudaGetLastError x2");
    P("cudaDeviceReset", cudaDeviceReset());
    after_reset("after cudaDeviceReset");
}

/* A reset with nothing wrong leaves the slot as it was. */
static void reset_with_error_pending(void) {
    void *p = NULL;
    P("cudaMalloc NULL out", cudaMalloc(NULL, 64));
    P("cudaDeviceReset with an error pending", cudaDeviceReset());
    GET2("cudaGetLastError x2");
    P("cudaMalloc 64", cudaMalloc(&p, 64));
    P("cudaFree", cudaFree(p));
}

int main(void) {
    if (!ft_init()) {
        printf("no driver that loads kernels\n");
        DONE();
    }
    ct_failed += ct_in_child(illegal_address);
    ct_failed += ct_in_child(trap);
    ct_failed += ct_in_child(reset_with_error_pending);
    DONE();
}
