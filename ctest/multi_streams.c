/* ctest: gpu2
 * Streams and events of several devices, and threads choosing devices:
 * - for every ordered pair (a, b): an event of device a recorded on a stream of device a with
 *   device b current, recorded on a stream of device b (and on the null stream of b), waited
 *   on by a stream of b and by b's null stream, queried and synchronised from b;
 *   cudaEventElapsedTime between events of the two devices; a stream of a synchronised,
 *   queried and asked its device with b current; a copy of a's memory to the host on a stream
 *   of a while b is current;
 * - 16 threads, each choosing device t % N with cudaSetDevice, then (t + 1) % N: what
 *   cudaGetDevice says, where their allocations and streams are, copies in their streams; a
 *   thread that never chose a device works on device 0 whatever the others chose. */
#include <pthread.h>
#include <stdarg.h>

#include "ctest.h"

#define MAXD 16
#define THREADS 16
#define SZ 4096

static int ndev;


static void pair(int a, int b) {
    cudaStream_t sa, sb;
    cudaEvent_t ea, ea_timed, eb_timed, eb;
    void *da = NULL;
    unsigned char h[SZ];
    printf("%d and %d:\n", a, b);
    OK(cudaSetDevice(a));
    OK(cudaStreamCreateWithFlags(&sa, cudaStreamNonBlocking));
    OK(cudaEventCreateWithFlags(&ea, cudaEventDisableTiming));
    OK(cudaEventCreate(&ea_timed));
    OK(cudaMalloc(&da, SZ));
    OK(cudaMemsetAsync(da, 0x40 + a, SZ, sa));
    OK(cudaSetDevice(b));
    OK(cudaStreamCreateWithFlags(&sb, cudaStreamNonBlocking));
    OK(cudaEventCreate(&eb_timed));
    OK(cudaEventCreateWithFlags(&eb, cudaEventDisableTiming));

    /* Current device b from here. */
    SHOW_CALL("record a's event on a's stream", cudaEventRecord(ea, sa));
    SHOW_CALL("record a's timed event on a's stream", cudaEventRecord(ea_timed, sa));
    SHOW_CALL("record a's event on b's stream", cudaEventRecord(ea, sb));
    SHOW_CALL("record a's event on the null stream (b current)", cudaEventRecord(ea, 0));
    SHOW_CALL("record a's event with flags on b's stream", cudaEventRecordWithFlags(ea, sb, 0));
    SHOW_CALL("b's stream waits for a's event", cudaStreamWaitEvent(sb, ea, 0));
    SHOW_CALL("the null stream (b current) waits for a's event", cudaStreamWaitEvent(0, ea, 0));
    SHOW_CALL("record b's timed event on b's stream", cudaEventRecord(eb_timed, sb));
    SHOW_CALL("record b's event on a's stream", cudaEventRecord(eb, sa));
    SHOW_CALL("a's stream waits for b's event", cudaStreamWaitEvent(sa, eb, 0));
    SHOW_CALL("cudaEventSynchronize(a's event)", cudaEventSynchronize(ea));
    SHOW_CALL("cudaEventQuery(a's event)", cudaEventQuery(ea));
    SHOW_CALL("cudaEventSynchronize(b's timed event)", cudaEventSynchronize(eb_timed));
    /* a's timed event waits only for a's memset: complete once synchronized (asked before, it
       may or may not be, on either runtime). */
    SHOW_CALL("cudaEventSynchronize(a's timed event)", cudaEventSynchronize(ea_timed));
    float ms = -1;
    SHOW_CALL("cudaEventElapsedTime(a's timed, b's timed)", cudaEventElapsedTime(&ms, ea_timed, eb_timed));
    SHOW_CALL("cudaEventElapsedTime(b's timed, a's timed)", cudaEventElapsedTime(&ms, eb_timed, ea_timed));
    SHOW_CALL("cudaEventElapsedTime(a's timed, a's timed)", cudaEventElapsedTime(&ms, ea_timed, ea_timed));
    int dev = -1;
    SHOW_CALL("cudaStreamGetDevice(a's stream)", cudaStreamGetDevice(sa, &dev));
    printf("    = %d\n", dev);
    dev = -1;
    SHOW_CALL("cudaStreamGetDevice(null stream)", cudaStreamGetDevice(0, &dev));
    printf("    = %d\n", dev);
    SHOW_CALL("cudaStreamSynchronize(a's stream)", cudaStreamSynchronize(sa));
    SHOW_CALL("cudaStreamQuery(a's stream, synchronized)", cudaStreamQuery(sa));
    memset(h, 0, SZ);
    SHOW_CALL("cudaMemcpyAsync of a's memory to the host on a's stream", cudaMemcpyAsync(h, da, SZ, cudaMemcpyDeviceToHost, sa));
    SHOW_CALL("cudaStreamSynchronize(a's stream)", cudaStreamSynchronize(sa));
    int ok = 1;
    for (int i = 0; i < SZ; i++) ok &= h[i] == 0x40 + a;
    CHECK(ok);
    printf("  bytes %s\n", ok ? "ok" : "WRONG");
    SHOW_CALL("cudaMemsetAsync of a's memory on a's stream", cudaMemsetAsync(da, 0x60, SZ, sa));
    /* a's stream does not block (cudaStreamNonBlocking): the copy on b's null stream must not
       start before the memset ends. */
    SHOW_CALL("cudaStreamSynchronize(a's stream)", cudaStreamSynchronize(sa));
    SHOW_CALL("cudaMemcpy of a's memory to the host (b current)", cudaMemcpy(h, da, SZ, cudaMemcpyDefault));
    ok = 1;
    for (int i = 0; i < SZ; i++) ok &= h[i] == 0x60;
    CHECK(ok);
    printf("  bytes %s\n", ok ? "ok" : "WRONG");
    /* A stream and an event of a destroyed with b current. */
    SHOW_CALL("cudaEventDestroy(a's event)", cudaEventDestroy(ea));
    SHOW_CALL("cudaStreamDestroy(a's stream)", cudaStreamDestroy(sa));
    ct_destroy_events(ea_timed, eb_timed, eb, NULL);
    OK(cudaStreamDestroy(sb));
    OK(cudaFree(da));
    OK(cudaDeviceSynchronize());
    OK(cudaSetDevice(a));
    OK(cudaDeviceSynchronize());
    SHOW_LAST("  at the end");
}

struct job {
    int index;
    char text[512];
    int failures;
};

static void say(struct job *j, const char *fmt, ...) {
    size_t l = strlen(j->text);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->text + l, sizeof j->text - l, fmt, ap);
    va_end(ap);
}

/* One device's work on this thread: an allocation, a stream, a copy round trip. */
static void work_on(struct job *j, int want) {
    int d = -1;
    if (cudaGetDevice(&d) != cudaSuccess || d != want) j->failures++;
    say(j, " cudaGetDevice %d", d);
    void *p = NULL;
    cudaStream_t s = NULL;
    unsigned char h[SZ], back[SZ];
    for (int i = 0; i < SZ; i++) h[i] = (unsigned char)(i + j->index + want);
    if (cudaMalloc(&p, SZ) != cudaSuccess || cudaStreamCreate(&s) != cudaSuccess) {
        j->failures++;
        return;
    }
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) j->failures++;
    say(j, ", memory on %d", a.device);
    int sd = -1;
    if (cudaStreamGetDevice(s, &sd) != cudaSuccess) j->failures++;
    say(j, ", stream on %d", sd);
    if (cudaMemcpyAsync(p, h, SZ, cudaMemcpyHostToDevice, s) != cudaSuccess ||
        cudaMemcpyAsync(back, p, SZ, cudaMemcpyDeviceToHost, s) != cudaSuccess || cudaStreamSynchronize(s) != cudaSuccess)
        j->failures++;
    int same = memcmp(h, back, SZ) == 0;
    say(j, ", round trip %s", same ? "ok" : "WRONG");
    if (!same) j->failures++;
    if (cudaStreamDestroy(s) != cudaSuccess || cudaFree(p) != cudaSuccess) j->failures++;
    if (a.device != want || sd != want) j->failures++;
}

static pthread_barrier_t together;

static void *thread_main(void *arg) {
    struct job *j = arg;
    int first = j->index % ndev, second = (j->index + 1) % ndev;
    pthread_barrier_wait(&together);
    if (cudaSetDevice(first) != cudaSuccess) j->failures++;
    say(j, "set %d:", first);
    work_on(j, first);
    pthread_barrier_wait(&together);
    if (cudaSetDevice(second) != cudaSuccess) j->failures++;
    say(j, "; set %d:", second);
    work_on(j, second);
    if (cudaDeviceSynchronize() != cudaSuccess) j->failures++;
    return NULL;
}

static void *unset_thread(void *arg) {
    struct job *j = arg;
    say(j, "never set:");
    work_on(j, 0);
    return NULL;
}

int main(void) {
    int n = ct_devices_or_skip();
    if (n > MAXD) n = MAXD;
    ndev = n;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (a != b) pair(a, b);

    /* Threads. */
    pthread_t t[THREADS];
    struct job jobs[THREADS];
    pthread_barrier_init(&together, NULL, THREADS);
    for (int i = 0; i < THREADS; i++) {
        memset(&jobs[i], 0, sizeof jobs[i]);
        jobs[i].index = i;
        CHECK(pthread_create(&t[i], NULL, thread_main, &jobs[i]) == 0);
    }
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&together);
    for (int i = 0; i < THREADS; i++) {
        printf("thread %d: %s\n", i, jobs[i].text);
        CHECK(jobs[i].failures == 0);
    }
    /* The main thread chose the last device; a new thread that chooses none is on 0. */
    OK(cudaSetDevice(n - 1));
    struct job unset;
    memset(&unset, 0, sizeof unset);
    pthread_t u;
    CHECK(pthread_create(&u, NULL, unset_thread, &unset) == 0);
    pthread_join(u, NULL);
    printf("thread: %s\n", unset.text);
    CHECK(unset.failures == 0);
    int d = -1;
    OK(cudaGetDevice(&d));
    SHOWI("main thread's device after", d);
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
