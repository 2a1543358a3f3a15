/* Stream callbacks and host functions (in order, after the stream's earlier work, with the
 * stream as given and the status) on a non-blocking stream, the null stream, the legacy and
 * per-thread handles and through the per-thread-stream exports; cudaStreamGetDevice and
 * cudaStreamGetId on each kind of stream; cudaEventRecordWithFlags with each flag; CUDA 12's
 * cudaEventElapsedTime_v2. */
#include "ctest.h"
#include <pthread.h>
#include <stdint.h>

/* What a program built with --default-stream per-thread calls. */
cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                       unsigned int flags);
cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData);
cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId);
cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device);
cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags);
cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream);
cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                 cudaStream_t stream);

#define N 4096

struct entry {
    int tag;
    int is_callback;
    cudaStream_t stream;
    cudaError_t status;
    int saw;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct entry entries[64];
static int nentries;
static unsigned char *host; /* pinned; the stream's earlier work writes it */
static cudaStream_t nb;

static void record(int tag, int is_callback, cudaStream_t s, cudaError_t status) {
    pthread_mutex_lock(&mu);
    if (nentries < 64) {
        struct entry *e = &entries[nentries++];
        e->tag = tag;
        e->is_callback = is_callback;
        e->stream = s;
        e->status = status;
        e->saw = host[0] + host[N - 1];
    }
    pthread_mutex_unlock(&mu);
}

static void CUDART_CB callback(cudaStream_t s, cudaError_t status, void *user) { record((int)(intptr_t)user, 1, s, status); }
static void CUDART_CB host_fn(void *user) { record((int)(intptr_t)user, 0, NULL, cudaSuccess); }

static const char *stream_name(cudaStream_t s) {
    if (s == NULL) return "null";
    if (s == cudaStreamLegacy) return "legacy";
    if (s == cudaStreamPerThread) return "per-thread";
    if (s == nb) return "nb";
    return "other";
}

/* Work on `s` (a memset and a copy into the pinned buffer), then a callback, a host
 * function and a callback; prints what ran, in order, with what each saw. */
static void run_on(const char *label, cudaStream_t s, int ptsz, void *dev) {
    nentries = 0;
    memset(host, 0, N);
    int base = 10;
    if (ptsz) {
        OK(cudaMemsetAsync_ptsz(dev, 3, N, s));
        OK(cudaMemcpyAsync_ptsz(host, dev, N, cudaMemcpyDeviceToHost, s));
        OK(cudaStreamAddCallback_ptsz(s, callback, (void *)(intptr_t)(base + 1), 0));
        OK(cudaLaunchHostFunc_ptsz(s, host_fn, (void *)(intptr_t)(base + 2)));
        OK(cudaStreamAddCallback_ptsz(s, callback, (void *)(intptr_t)(base + 3), 0));
    } else {
        OK(cudaMemsetAsync(dev, 3, N, s));
        OK(cudaMemcpyAsync(host, dev, N, cudaMemcpyDeviceToHost, s));
        OK(cudaStreamAddCallback(s, callback, (void *)(intptr_t)(base + 1), 0));
        OK(cudaLaunchHostFunc(s, host_fn, (void *)(intptr_t)(base + 2)));
        OK(cudaStreamAddCallback(s, callback, (void *)(intptr_t)(base + 3), 0));
    }
    OK(cudaStreamSynchronize(ptsz && s == NULL ? cudaStreamPerThread : s));
    OK(cudaDeviceSynchronize());
    printf("%s: %d ran\n", label, nentries);
    CHECK(nentries == 3);
    for (int i = 0; i < nentries; i++) {
        struct entry *e = &entries[i];
        if (e->is_callback)
            printf("%s: callback %d stream=%s status=%s saw=%d\n", label, e->tag, stream_name(e->stream),
                   cudaGetErrorName(e->status), e->saw);
        else
            printf("%s: host function %d saw=%d\n", label, e->tag, e->saw);
        CHECK(e->tag == base + 1 + i);
        CHECK(e->saw == 6);
    }
}

static unsigned long long id_of(cudaStream_t s) {
    unsigned long long id = 0;
    OK(cudaStreamGetId(s, &id));
    return id;
}

static void *other_thread_ids(void *arg) {
    unsigned long long *out = arg;
    out[0] = id_of(cudaStreamPerThread);
    OK(cudaStreamGetId_ptsz(NULL, &out[1]));
    out[2] = id_of(cudaStreamLegacy);
    return NULL;
}

/* cudaStreamGetDevice of s (which must succeed) and the device it gave. */
static void show_stream_device(const char *label, cudaStream_t s, const char *device_label) {
    int d = -1;
    OK(SHOW(label, cudaStreamGetDevice(s, &d)));
    SHOWI(device_label, d);
}

int main(void) {
    void *dev = NULL;
    OK(cudaMalloc(&dev, N));
    OK(cudaMallocHost((void **)&host, N));
    cudaStream_t s2 = NULL;
    OK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    OK(cudaStreamCreate(&s2));

    run_on("nb", nb, 0, dev);
    run_on("null", NULL, 0, dev);
    run_on("legacy", cudaStreamLegacy, 0, dev);
    run_on("per-thread", cudaStreamPerThread, 0, dev);
    run_on("null (ptsz)", NULL, 1, dev);
    run_on("nb (ptsz)", nb, 1, dev);

    SHOW("cudaStreamAddCallback(NULL callback)", cudaStreamAddCallback(nb, NULL, NULL, 0));
    SHOW("cudaStreamAddCallback(flags 1)", cudaStreamAddCallback(nb, callback, (void *)(intptr_t)99, 1));
    SHOW("cudaLaunchHostFunc(NULL fn)", cudaLaunchHostFunc(nb, NULL, NULL));
    SHOW_LAST("after bad callbacks");
    OK(cudaStreamSynchronize(nb));

    /* The device of each kind of stream. */
    show_stream_device("cudaStreamGetDevice(nb)", nb, "device of nb");
    show_stream_device("cudaStreamGetDevice(null)", NULL, "device of null");
    show_stream_device("cudaStreamGetDevice(legacy)", cudaStreamLegacy, "device of legacy");
    show_stream_device("cudaStreamGetDevice(per-thread)", cudaStreamPerThread, "device of per-thread");
    int d = -1;
    OK(SHOW("cudaStreamGetDevice_ptsz(null)", cudaStreamGetDevice_ptsz(NULL, &d)));
    SHOWI("device of null (ptsz)", d);
    /* No NULL out pointer: NVIDIA's runtime writes through it unchecked (SIGSEGV). */

    /* Stream ids: distinct per stream, stable, the null stream is the legacy or the
     * per-thread one, the per-thread stream is each thread's own. */
    unsigned long long id_nb = id_of(nb), id_s2 = id_of(s2), id_null = id_of(NULL), id_legacy = id_of(cudaStreamLegacy),
                       id_pt = id_of(cudaStreamPerThread), id_null_ptsz = 0;
    OK(SHOW("cudaStreamGetId_ptsz(null)", cudaStreamGetId_ptsz(NULL, &id_null_ptsz)));
    SHOWI("id of nb stable", id_of(nb) == id_nb);
    SHOWI("ids of nb and s2 differ", id_nb != id_s2);
    SHOWI("id of null is legacy's", id_null == id_legacy);
    SHOWI("id of per-thread differs from legacy's", id_pt != id_legacy);
    SHOWI("id of per-thread differs from nb's", id_pt != id_nb);
    SHOWI("id of null (ptsz) is per-thread's", id_null_ptsz == id_pt);
    unsigned long long other[3] = {0, 0, 0};
    pthread_t th;
    pthread_create(&th, NULL, other_thread_ids, other);
    pthread_join(th, NULL);
    SHOWI("another thread's per-thread id differs", other[0] != id_pt);
    SHOWI("another thread's null (ptsz) is its per-thread", other[1] == other[0]);
    SHOWI("another thread's legacy id is the same", other[2] == id_legacy);
    SHOW_LAST("after bad cudaStreamGetId");

    /* cudaEventRecordWithFlags. */
    cudaEvent_t ev = NULL, ev2 = NULL;
    OK(cudaEventCreate(&ev));
    OK(cudaEventCreate(&ev2));
    OK(SHOW("cudaEventRecordWithFlags(Default)", cudaEventRecordWithFlags(ev, nb, cudaEventRecordDefault)));
    SHOW("cudaEventRecordWithFlags(External)", cudaEventRecordWithFlags(ev2, nb, cudaEventRecordExternal));
    SHOW("cudaEventSynchronize after External", cudaEventSynchronize(ev2));
    SHOW("cudaEventQuery after External", cudaEventQuery(ev2));
    OK(SHOW("cudaEventRecordWithFlags(null stream)", cudaEventRecordWithFlags(ev, NULL, 0)));
    OK(SHOW("cudaEventRecordWithFlags_ptsz(null stream)", cudaEventRecordWithFlags_ptsz(ev, NULL, 0)));
    OK(SHOW("cudaEventRecordWithFlags(per-thread)", cudaEventRecordWithFlags(ev, cudaStreamPerThread, 0)));
    SHOW("cudaEventRecordWithFlags(flags 2)", cudaEventRecordWithFlags(ev, nb, 2));
    SHOW("cudaEventRecordWithFlags(flags 0xff)", cudaEventRecordWithFlags(ev, nb, 0xff));
    SHOW("cudaEventRecordWithFlags(NULL event)", cudaEventRecordWithFlags(NULL, nb, 0));
    SHOW_LAST("after bad cudaEventRecordWithFlags");
    OK(cudaEventSynchronize(ev));
    float ms = -1.0f;
    SHOW("cudaEventElapsedTime after RecordWithFlags", cudaEventElapsedTime(&ms, ev2, ev));

#if CUDART_VERSION < 13000
    cudaEvent_t un = NULL, nt = NULL;
    OK(cudaEventCreate(&un));
    OK(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));
    OK(cudaEventRecord(nt, nb));
    OK(cudaEventRecord(ev, nb));
    OK(cudaEventRecord(ev2, nb));
    OK(cudaEventSynchronize(ev2));
    ms = -1.0f;
    OK(SHOW("cudaEventElapsedTime_v2", cudaEventElapsedTime_v2(&ms, ev, ev2)));
    CHECK(ms >= 0.0f);
    SHOW("cudaEventElapsedTime_v2(unrecorded)", cudaEventElapsedTime_v2(&ms, un, ev2));
    SHOW("cudaEventElapsedTime_v2(NULL ms)", cudaEventElapsedTime_v2(NULL, ev, ev2));
    SHOW("cudaEventElapsedTime_v2(timing disabled)", cudaEventElapsedTime_v2(&ms, ev, nt));
    SHOW_LAST("after bad cudaEventElapsedTime_v2");
    ct_destroy_events(un, nt, NULL);
#endif

    ct_destroy_events(ev, ev2, NULL);
    ct_destroy_streams(nb, s2, NULL);
    OK(cudaFreeHost(host));
    OK(cudaFree(dev));
    DONE();
}
