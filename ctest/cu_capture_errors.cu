/* ctest: gpu cu */
/* What a stream capture forbids, in each capture mode (global, thread-local, relaxed): each
 * call is made while a created (blocking) stream captures, then the capture's status and the
 * end of the capture show whether it was invalidated. Then the same across two threads, with
 * each thread's own mode (cudaThreadExchangeStreamCaptureMode), and the errors of a capture's
 * structure: unjoined and unmatched streams, merged captures, isolation, the wrong thread. */
#include "ctest.h"
#include "graph_util.h"
#include <pthread.h>

#define N 4096

__device__ int g_sym[64];

__global__ void bump(int *p) { p[threadIdx.x] += 1; }

static cudaStream_t s, s2, nb;
static int *d, *dsrc;
static unsigned char host[N];
static cudaEvent_t ev_in, ev_out;
static const char *mode_name[] = {"global", "thread-local", "relaxed"};

/* What the rules allocate while a capture runs is freed after it ends. */
static void *leak_dev[8], *leak_host[8];
static int nleak_dev, nleak_host;
static void keep_dev(cudaError_t e, void *p) {
    if (e == cudaSuccess && p) leak_dev[nleak_dev++] = p;
}
static void keep_host(cudaError_t e, void *p) {
    if (e == cudaSuccess && p) leak_host[nleak_host++] = p;
}
static void *victim_dev, *victim_host;

struct rule {
    const char *name;
    cudaError_t (*call)(void);
};

static const struct rule rules[] = {
    {"cudaMalloc", [] { void *p = NULL; cudaError_t e = cudaMalloc(&p, 256); keep_dev(e, p); return e; }},
    {"cudaMalloc(0)", [] { void *p = NULL; return cudaMalloc(&p, 0); }},
    {"cudaMallocPitch", [] { void *p = NULL; size_t pitch; cudaError_t e = cudaMallocPitch(&p, &pitch, 64, 4); keep_dev(e, p); return e; }},
    {"cudaMallocManaged", [] { void *p = NULL; cudaError_t e = cudaMallocManaged(&p, 256, cudaMemAttachGlobal); keep_dev(e, p); return e; }},
    {"cudaMallocHost", [] { void *p = NULL; cudaError_t e = cudaMallocHost(&p, 256); keep_host(e, p); return e; }},
    {"cudaFree(allocated before)", [] { cudaError_t e = cudaFree(victim_dev); if (e == cudaSuccess) victim_dev = NULL; return e; }},
    {"cudaFree(NULL)", [] { return cudaFree(NULL); }},
    {"cudaFreeHost(allocated before)", [] { cudaError_t e = cudaFreeHost(victim_host); if (e == cudaSuccess) victim_host = NULL; return e; }},
    {"cudaStreamSynchronize(capturing)", [] { return cudaStreamSynchronize(s); }},
    {"cudaStreamQuery(capturing)", [] { return cudaStreamQuery(s); }},
    {"cudaStreamSynchronize(other created stream)", [] { return cudaStreamSynchronize(s2); }},
    {"cudaStreamQuery(non-blocking stream)", [] { return cudaStreamQuery(nb); }},
    {"cudaDeviceSynchronize", [] { return cudaDeviceSynchronize(); }},
    {"cudaEventQuery(captured event)", [] { return cudaEventQuery(ev_in); }},
    {"cudaEventSynchronize(captured event)", [] { return cudaEventSynchronize(ev_in); }},
    {"cudaEventQuery(event recorded outside)", [] { return cudaEventQuery(ev_out); }},
    {"cudaEventSynchronize(event recorded outside)", [] { return cudaEventSynchronize(ev_out); }},
    {"cudaStreamWaitEvent(capturing, event recorded outside)", [] { return cudaStreamWaitEvent(s, ev_out, 0); }},
    {"cudaStreamWaitEvent(non-blocking, captured event)", [] { return cudaStreamWaitEvent(nb, ev_in, 0); }},
    {"cudaEventRecord(captured event, non-blocking)", [] { return cudaEventRecord(ev_in, nb); }},
    {"cudaMemcpy H2D (legacy stream)", [] { return cudaMemcpy(d, host, 64, cudaMemcpyHostToDevice); }},
    {"cudaMemcpy D2D (legacy stream)", [] { return cudaMemcpy(d, dsrc, 64, cudaMemcpyDeviceToDevice); }},
    {"cudaMemcpy D2H (legacy stream)", [] { return cudaMemcpy(host, d, 64, cudaMemcpyDeviceToHost); }},
    {"cudaMemset (legacy stream)", [] { return cudaMemset(d, 0, 64); }},
    {"cudaMemcpy of 0 bytes (legacy stream)", [] { return cudaMemcpy(d, host, 0, cudaMemcpyHostToDevice); }},
    {"cudaMemset of 0 bytes (legacy stream)", [] { return cudaMemset(d, 0, 0); }},
    {"cudaMemcpy2D (legacy stream)", [] { return cudaMemcpy2D(d, 64, dsrc, 64, 64, 2, cudaMemcpyDeviceToDevice); }},
    {"cudaMemcpyToSymbol (legacy stream)", [] { return cudaMemcpyToSymbol(g_sym, host, 64); }},
    {"cudaMemcpyAsync(stream 0)", [] { return cudaMemcpyAsync(d, dsrc, 64, cudaMemcpyDeviceToDevice, 0); }},
    {"cudaMemsetAsync(cudaStreamLegacy)", [] { return cudaMemsetAsync(d, 0, 64, cudaStreamLegacy); }},
    {"kernel on stream 0", [] { bump<<<1, 1>>>(d); return cudaGetLastError(); }},
    {"cudaEventRecord(stream 0)", [] { return cudaEventRecord(ev_out, 0); }},
    {"cudaStreamQuery(0)", [] { return cudaStreamQuery(0); }},
    {"cudaStreamSynchronize(0)", [] { return cudaStreamSynchronize(0); }},
    {"cudaStreamIsCapturing(0)", [] { enum cudaStreamCaptureStatus c; return cudaStreamIsCapturing(0, &c); }},
    {"cudaMemcpyAsync(cudaStreamPerThread)", [] { return cudaMemcpyAsync(d, dsrc, 64, cudaMemcpyDeviceToDevice, cudaStreamPerThread); }},
    {"cudaMemcpyAsync(non-blocking stream)", [] { return cudaMemcpyAsync(d, dsrc, 64, cudaMemcpyDeviceToDevice, nb); }},
    {"pageable D2H on a non-blocking stream", [] { return cudaMemcpyAsync(host, d, 64, cudaMemcpyDeviceToHost, nb); }},
    {"cudaStreamBeginCapture(capturing)", [] { return cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal); }},
    {"cudaMemcpyAsync(capturing, pageable H2D)", [] { return cudaMemcpyAsync(d, host, 64, cudaMemcpyHostToDevice, s); }},
};

/* Ends the capture on `st`: result, whether a graph came back and its node count. */
static void end(const char *label, cudaStream_t st) {
    cudaGraph_t g = (cudaGraph_t)(size_t)0x5a5a;
    char l[256];
    snprintf(l, sizeof l, "%s: end", label);
    cudaError_t e = SHOW(l, cudaStreamEndCapture(st, &g));
    snprintf(l, sizeof l, "%s: after end", label);
    SHOW_LAST(l);
    if (e == cudaSuccess && g) {
        size_t n = 0;
        cudaGraphGetNodes(g, NULL, &n);
        printf("%s: graph nodes %llu\n", label, (unsigned long long)n);
        cudaGraphDestroy(g);
    } else {
        printf("%s: graph NULL %d\n", label, g == NULL);
    }
}

static void show_status(const char *label, cudaStream_t st) {
    enum cudaStreamCaptureStatus cs = (enum cudaStreamCaptureStatus)77;
    cudaError_t e = cudaStreamIsCapturing(st, &cs);
    printf("%s: %s status %d\n", label, cudaGetErrorName(e), (int)cs);
}

/* Back to a clean state between cases: no stream left capturing, nothing pending. */
static void settle(void) {
    cudaStream_t all[] = {s, s2, nb};
    for (int i = 0; i < 3; i++) {
        enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
        if (cudaStreamIsCapturing(all[i], &cs) == cudaSuccess && cs != cudaStreamCaptureStatusNone) {
            cudaGraph_t g = NULL;
            printf("settle: stream %d still capturing (status %d), ended: %s\n", i, (int)cs,
                   cudaGetErrorName(cudaStreamEndCapture(all[i], &g)));
            if (g) cudaGraphDestroy(g);
        }
    }
    cudaDeviceSynchronize();
    cudaGetLastError();
    for (int i = 0; i < nleak_dev; i++) cudaFree(leak_dev[i]);
    for (int i = 0; i < nleak_host; i++) cudaFreeHost(leak_host[i]);
    nleak_dev = nleak_host = 0;
    if (!victim_dev) cudaMalloc(&victim_dev, 256);
    if (!victim_host) cudaMallocHost(&victim_host, 256);
    cudaGetLastError();
}

static void run_rule(int mode, const struct rule *r) {
    char label[256];
    snprintf(label, sizeof label, "%s | %s", mode_name[mode], r->name);
    OK(cudaStreamBeginCapture(s, (enum cudaStreamCaptureMode)mode));
    OK(cudaMemsetAsync(d, 0, 64, s));
    OK(cudaEventRecord(ev_in, s));
    SHOW(label, r->call());
    char l[300];
    snprintf(l, sizeof l, "%s: after call", label);
    SHOW_LAST(l);
    snprintf(l, sizeof l, "%s: capture", label);
    show_status(l, s);
    end(label, s);
    settle();
}

/* ---- across threads ---- */

struct cross {
    int thread_mode, op;
    cudaError_t rc;
    enum cudaStreamCaptureMode prev;
    cudaGraph_t g;
};

static void *cross_thread(void *arg) {
    struct cross *c = (struct cross *)arg;
    enum cudaStreamCaptureMode m = (enum cudaStreamCaptureMode)c->thread_mode;
    cudaThreadExchangeStreamCaptureMode(&m);
    c->prev = m;
    void *p = NULL;
    switch (c->op) {
    case 0:
        c->rc = cudaMalloc(&p, 256);
        keep_dev(c->rc, p);
        break;
    case 1:
        c->rc = cudaMemcpy(d, host, 64, cudaMemcpyHostToDevice);
        break;
    case 2:
        c->rc = cudaStreamEndCapture(s, &c->g);
        break;
    case 3:
        c->rc = cudaMemsetAsync(d, 1, 64, s);
        break;
    }
    m = c->prev;
    cudaThreadExchangeStreamCaptureMode(&m);
    return NULL;
}

/* A capture of its own on s2, in another thread that stays alive until told to end it. */
struct other {
    int mode, had_graph;
    cudaError_t begin, end;
    pthread_barrier_t began, may_end;
};

static void *other_capture(void *arg) {
    struct other *o = (struct other *)arg;
    o->begin = cudaStreamBeginCapture(s2, (enum cudaStreamCaptureMode)o->mode);
    if (o->begin == cudaSuccess) cudaMemsetAsync(dsrc, 1, 64, s2);
    pthread_barrier_wait(&o->began);
    pthread_barrier_wait(&o->may_end);
    cudaGraph_t g = NULL;
    o->end = cudaStreamEndCapture(s2, &g);
    o->had_graph = g != NULL;
    if (g) cudaGraphDestroy(g);
    return NULL;
}

static struct cross in_thread(int thread_mode, int op) {
    struct cross c = {thread_mode, op, cudaSuccess, (enum cudaStreamCaptureMode)77, NULL};
    pthread_t t;
    pthread_create(&t, NULL, cross_thread, &c);
    pthread_join(t, NULL);
    return c;
}

int main(void) {
    CHECK(gu_driver());
    OK(cudaStreamCreate(&s));
    OK(cudaStreamCreate(&s2));
    OK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    OK(cudaMalloc((void **)&d, N));
    OK(cudaMalloc((void **)&dsrc, N));
    OK(cudaEventCreate(&ev_in));
    OK(cudaEventCreate(&ev_out));
    OK(cudaEventRecord(ev_out, s2));
    OK(cudaStreamSynchronize(s2));
    bump<<<1, 1>>>(d); /* the module is loaded before any capture */
    OK(cudaDeviceSynchronize());
    settle();

    /* ---- each call during a capture, in each mode ---- */
    for (int mode = 0; mode < 3; mode++)
        for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) run_rule(mode, &rules[i]);

    /* ---- the capturing thread's own mode ---- */
    for (int cm = 0; cm < 3; cm++)
        for (int tm = 0; tm < 3; tm++) {
            char label[128];
            snprintf(label, sizeof label, "own thread %s during a %s capture: cudaMalloc", mode_name[tm], mode_name[cm]);
            OK(cudaStreamBeginCapture(s, (enum cudaStreamCaptureMode)cm));
            OK(cudaMemsetAsync(d, 0, 64, s));
            enum cudaStreamCaptureMode m = (enum cudaStreamCaptureMode)tm;
            OK(cudaThreadExchangeStreamCaptureMode(&m));
            void *p = NULL;
            cudaError_t e = SHOW(label, cudaMalloc(&p, 256));
            keep_dev(e, p);
            OK(cudaThreadExchangeStreamCaptureMode(&m));
            printf("%s: mode restored to %d\n", label, (int)m);
            show_status(label, s);
            end(label, s);
            settle();
        }

    /* ---- another thread's calls during a capture ---- */
    static const char *ops[] = {"cudaMalloc", "cudaMemcpy on the legacy stream"};
    for (int cm = 0; cm < 3; cm++)
        for (int tm = 0; tm < 3; tm++)
            for (int op = 0; op < 2; op++) {
                char label[160];
                snprintf(label, sizeof label, "%s capture, other thread %s: %s", mode_name[cm], mode_name[tm], ops[op]);
                OK(cudaStreamBeginCapture(s, (enum cudaStreamCaptureMode)cm));
                OK(cudaMemsetAsync(d, 0, 64, s));
                struct cross c = in_thread(tm, op);
                printf("%s: %s (thread's previous mode %d)\n", label, cudaGetErrorName(c.rc), (int)c.prev);
                show_status(label, s);
                end(label, s);
                settle();
            }

    /* ---- ending a capture from another thread; capturing from another thread ---- */
    for (int cm = 0; cm < 3; cm++) {
        char label[128];
        snprintf(label, sizeof label, "%s capture ended by another thread", mode_name[cm]);
        OK(cudaStreamBeginCapture(s, (enum cudaStreamCaptureMode)cm));
        OK(cudaMemsetAsync(d, 0, 64, s));
        struct cross c = in_thread(0, 2);
        printf("%s: %s, graph %d\n", label, cudaGetErrorName(c.rc), c.g != NULL);
        if (c.g) {
            size_t n = 0;
            cudaGraphGetNodes(c.g, NULL, &n);
            printf("%s: graph nodes %llu\n", label, (unsigned long long)n);
            cudaGraphDestroy(c.g);
        }
        show_status(label, s);
        end(label, s);
        settle();

        snprintf(label, sizeof label, "%s capture, work from another thread", mode_name[cm]);
        OK(cudaStreamBeginCapture(s, (enum cudaStreamCaptureMode)cm));
        c = in_thread(0, 3);
        printf("%s: %s\n", label, cudaGetErrorName(c.rc));
        show_status(label, s);
        end(label, s);
        settle();
    }

    /* ---- two captures in two threads: this thread's unsafe call while the other captures ---- */
    for (int om = 0; om < 3; om++)
        for (int cm = 0; cm < 3; cm++) {
            char label[160];
            snprintf(label, sizeof label, "two captures (this thread %s, other thread %s)", mode_name[cm], mode_name[om]);
            struct other o;
            o.mode = om;
            pthread_barrier_init(&o.began, NULL, 2);
            pthread_barrier_init(&o.may_end, NULL, 2);
            pthread_t t;
            pthread_create(&t, NULL, other_capture, &o);
            pthread_barrier_wait(&o.began);
            printf("%s: other thread began: %s\n", label, cudaGetErrorName(o.begin));
            OK(cudaStreamBeginCapture(s, (enum cudaStreamCaptureMode)cm));
            OK(cudaMemsetAsync(d, 0, 64, s));
            void *p = NULL;
            cudaError_t e = SHOW(label, cudaMalloc(&p, 256));
            keep_dev(e, p);
            show_status(label, s);
            show_status(label, s2);
            end(label, s);
            pthread_barrier_wait(&o.may_end);
            pthread_join(t, NULL);
            printf("%s: other thread's end: %s, graph %d\n", label, cudaGetErrorName(o.end), o.had_graph);
            pthread_barrier_destroy(&o.began);
            pthread_barrier_destroy(&o.may_end);
            settle();
        }

    /* ---- the thread's mode is its own ---- */
    {
        enum cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
        OK(cudaThreadExchangeStreamCaptureMode(&m));
        struct cross c = in_thread(cudaStreamCaptureModeThreadLocal, 1);
        printf("another thread's previous mode while this one is relaxed: %d\n", (int)c.prev);
        OK(cudaThreadExchangeStreamCaptureMode(&m));
        printf("this thread's mode was: %d\n", (int)m);
        settle();
    }

    /* ---- the structure of a capture ---- */
    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaMemsetAsync(d, 0, 64, s));
    OK(cudaEventRecord(ev_in, s));
    OK(SHOW("unjoined: fork", cudaStreamWaitEvent(s2, ev_in, 0)));
    OK(cudaMemsetAsync(dsrc, 0, 64, s2));
    end("unjoined", s);
    show_status("unjoined: origin after end", s);
    show_status("unjoined: forked after end", s2);
    {
        cudaGraph_t g = NULL;
        SHOW("unjoined: end of the forked stream", cudaStreamEndCapture(s2, &g));
        if (g) cudaGraphDestroy(g);
    }
    settle();

    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaMemsetAsync(d, 0, 64, s));
    OK(cudaEventRecord(ev_in, s));
    OK(cudaStreamWaitEvent(s2, ev_in, 0));
    OK(cudaMemsetAsync(dsrc, 0, 64, s2));
    end("unmatched (ending the forked stream)", s2);
    show_status("unmatched: origin", s);
    show_status("unmatched: forked", s2);
    {
        cudaEvent_t j = NULL;
        OK(cudaEventCreate(&j));
        SHOW("unmatched: record on the forked stream", cudaEventRecord(j, s2));
        SHOW("unmatched: join", cudaStreamWaitEvent(s, j, 0));
        end("unmatched: origin", s);
        cudaEventDestroy(j);
    }
    settle();

    OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    OK(cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal));
    OK(cudaMemsetAsync(d, 0, 64, s));
    OK(cudaMemsetAsync(dsrc, 0, 64, s2));
    OK(cudaEventRecord(ev_in, s));
    SHOW("merge: one capture waits on the other's event", cudaStreamWaitEvent(s2, ev_in, 0));
    SHOW_LAST("merge");
    show_status("merge: first", s);
    show_status("merge: second", s2);
    end("merge: second", s2);
    end("merge: first", s);
    settle();

    OK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
    OK(cudaMemsetAsync(d, 0, 64, nb));
    OK(cudaEventRecord(ev_in, nb));
    SHOW("isolation: legacy stream waits on a captured event", cudaStreamWaitEvent(0, ev_in, 0));
    SHOW_LAST("isolation: legacy");
    show_status("isolation: capture", nb);
    end("isolation: legacy", nb);
    settle();

    OK(cudaStreamBeginCapture(nb, cudaStreamCaptureModeGlobal));
    OK(cudaMemsetAsync(d, 0, 64, nb));
    SHOW("capture: external wait on an event recorded outside", cudaStreamWaitEvent(nb, ev_out, cudaEventWaitExternal));
    show_status("capture: after external wait", nb);
    end("capture: external wait", nb);
    settle();

    OK(cudaDeviceSynchronize());
    if (victim_dev) cudaFree(victim_dev);
    if (victim_host) cudaFreeHost(victim_host);
    cudaFree(d);
    cudaFree(dsrc);
    cudaEventDestroy(ev_in);
    cudaEventDestroy(ev_out);
    cudaStreamDestroy(s);
    cudaStreamDestroy(s2);
    cudaStreamDestroy(nb);
    DONE();
}
