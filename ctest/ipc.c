/* ctest: gpu
 * IPC between two processes: the parent allocates and writes device memory and sends an
 * IPC memory handle and an interprocess event's handle through a pipe; the child (forked
 * before any CUDA call, so it starts with no CUDA state) opens both, reads the parent's
 * bytes, writes its own and records the event; the parent waits on the event and reads the
 * child's bytes. The child's output comes back through a pipe and is printed after the
 * parent's. Then the errors, in one process: a handle opened by the process that made it,
 * closing what was not opened, an event made without cudaEventInterprocess, NULLs. */
#include "ctest.h"
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define N (1 << 20)

struct handles {
    cudaIpcMemHandle_t mem;
    cudaIpcEventHandle_t event;
};

/* All n bytes at p read from fd (or, writing, written to it): 0, or -1 at an error or the end. */
static int transfer_all(int fd, char *c, size_t n, int writing) {
    while (n > 0) {
        ssize_t r = writing ? write(fd, c, n) : read(fd, c, n);
        if (r <= 0) return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}
static int read_all(int fd, void *p, size_t n) { return transfer_all(fd, p, n, 0); }
static int write_all(int fd, const void *p, size_t n) { return transfer_all(fd, (char *)p, n, 1); }

static unsigned char pattern(size_t i) { return (unsigned char)(i * 7 + 1); }

/* The child: its stdout is the pipe back to the parent. */
static int child(int from_parent, int to_parent) {
    struct handles h;
    char c = 0;
    CHECK(read_all(from_parent, &h, sizeof h) == 0);
    void *p = NULL, *p2 = NULL;
    OK(SHOW("child cudaIpcOpenMemHandle", cudaIpcOpenMemHandle(&p, h.mem, cudaIpcMemLazyEnablePeerAccess)));
    OK(SHOW("child cudaIpcOpenMemHandle again", cudaIpcOpenMemHandle(&p2, h.mem, cudaIpcMemLazyEnablePeerAccess)));
    SHOWI("child second open gives the same pointer", p2 == p);
    if (p2) OK(SHOW("child cudaIpcCloseMemHandle (second open)", cudaIpcCloseMemHandle(p2)));
    cudaEvent_t e = NULL;
    OK(SHOW("child cudaIpcOpenEventHandle", cudaIpcOpenEventHandle(&e, h.event)));
    float ms = 0;
    SHOW("child cudaEventElapsedTime(imported event)", cudaEventElapsedTime(&ms, e, e));
    SHOW_LAST("child after elapsed time on the imported event");
    if (p) {
        unsigned char *buf = malloc(N);
        OK(SHOW("child cudaMemcpy from the parent's memory", cudaMemcpy(buf, p, N, cudaMemcpyDeviceToHost)));
        int same = 1;
        for (size_t i = 0; i < N; i++) same &= buf[i] == pattern(i);
        SHOWI("child read the parent's bytes", same);
        CHECK(same);
        free(buf);
        cudaStream_t s = NULL;
        OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        OK(SHOW("child cudaMemsetAsync on the parent's memory", cudaMemsetAsync(p, 0x5c, N, s)));
        if (e) OK(SHOW("child cudaEventRecord(imported event)", cudaEventRecord(e, s)));
        OK(cudaStreamSynchronize(s));
        OK(cudaStreamDestroy(s));
    }
    /* Recorded (or failed): the parent waits for this either way. */
    CHECK(write_all(to_parent, "r", 1) == 0);
    CHECK(read_all(from_parent, &c, 1) == 0);
    if (e) OK(SHOW("child cudaEventDestroy(imported event)", cudaEventDestroy(e)));
    if (p) {
        OK(SHOW("child cudaIpcCloseMemHandle", cudaIpcCloseMemHandle(p)));
        SHOW("child cudaIpcCloseMemHandle again", cudaIpcCloseMemHandle(p));
        SHOW_LAST("child after closing twice");
    }
    fflush(stdout);
    return ct_failed ? 1 : 0;
}

int main(void) {
    int to_child[2], to_parent[2], output[2];
    CHECK(pipe(to_child) == 0 && pipe(to_parent) == 0 && pipe(output) == 0);
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(to_child[1]);
        close(to_parent[0]);
        close(output[0]);
        dup2(output[1], 1);
        close(output[1]);
        _exit(child(to_child[0], to_parent[1]));
    }
    close(to_child[0]);
    close(to_parent[1]);
    close(output[1]);

    unsigned char *buf = malloc(N);
    for (size_t i = 0; i < N; i++) buf[i] = pattern(i);
    void *d = NULL;
    OK(cudaMalloc(&d, N));
    OK(cudaMemcpy(d, buf, N, cudaMemcpyHostToDevice));
    struct handles h, again;
    memset(&h, 0, sizeof h);
    OK(SHOW("cudaIpcGetMemHandle", cudaIpcGetMemHandle(&h.mem, d)));
    OK(SHOW("cudaIpcGetMemHandle again", cudaIpcGetMemHandle(&again.mem, d)));
    SHOWI("same memory handle twice", memcmp(&h.mem, &again.mem, sizeof h.mem) == 0);
    cudaEvent_t ev = NULL;
    OK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming | cudaEventInterprocess));
    OK(SHOW("cudaIpcGetEventHandle", cudaIpcGetEventHandle(&h.event, ev)));
    CHECK(write_all(to_child[1], &h, sizeof h) == 0);

    char c = 0;
    CHECK(read_all(to_parent[0], &c, 1) == 0 && c == 'r');
    OK(SHOW("cudaEventSynchronize(exported event)", cudaEventSynchronize(ev)));
    cudaStream_t s = NULL;
    OK(cudaStreamCreate(&s));
    OK(SHOW("cudaStreamWaitEvent(exported event)", cudaStreamWaitEvent(s, ev, 0)));
    OK(cudaMemcpyAsync(buf, d, N, cudaMemcpyDeviceToHost, s));
    OK(cudaStreamSynchronize(s));
    int same = 1;
    for (size_t i = 0; i < N; i++) same &= buf[i] == 0x5c;
    SHOWI("parent sees the child's bytes", same);
    CHECK(same);
    CHECK(write_all(to_child[1], "d", 1) == 0);

    /* The child's lines, then how it ended. */
    char out[8192];
    size_t len = 0;
    ssize_t r;
    while (len < sizeof out - 1 && (r = read(output[0], out + len, sizeof out - 1 - len)) > 0) len += (size_t)r;
    out[len] = 0;
    int status = -1;
    CHECK(waitpid(pid, &status, 0) == pid);
    fputs(out, stdout);
    SHOWI("child exited normally", WIFEXITED(status));
    SHOWI("child exit status", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    /* Errors in one process. */
    void *p = NULL;
    SHOW("cudaIpcOpenMemHandle(own handle)", cudaIpcOpenMemHandle(&p, h.mem, cudaIpcMemLazyEnablePeerAccess));
    SHOW_LAST("after opening an own handle");
    SHOW("cudaIpcOpenMemHandle(NULL)", cudaIpcOpenMemHandle(NULL, h.mem, cudaIpcMemLazyEnablePeerAccess));
    SHOW("cudaIpcOpenMemHandle(own handle, flags 0)", cudaIpcOpenMemHandle(&p, h.mem, 0));
    SHOW("cudaIpcOpenMemHandle(own handle, flags 2)", cudaIpcOpenMemHandle(&p, h.mem, 2));
    cudaIpcMemHandle_t zero;
    memset(&zero, 0, sizeof zero);
    SHOW("cudaIpcOpenMemHandle(zeroed handle)", cudaIpcOpenMemHandle(&p, zero, cudaIpcMemLazyEnablePeerAccess));
    SHOW_LAST("after bad opens");
    SHOW("cudaIpcCloseMemHandle(own allocation)", cudaIpcCloseMemHandle(d));
    SHOW("cudaIpcCloseMemHandle(NULL)", cudaIpcCloseMemHandle(NULL));
    SHOW_LAST("after bad closes");

    cudaIpcMemHandle_t mh;
    /* No NULL handle out pointers: NVIDIA's runtime writes through them unchecked (SIGSEGV). */
    SHOW("cudaIpcGetMemHandle(NULL pointer)", cudaIpcGetMemHandle(&mh, NULL));
    SHOW("cudaIpcGetMemHandle(inside the allocation)", cudaIpcGetMemHandle(&mh, (char *)d + 4096));
    SHOW("cudaIpcGetMemHandle(host memory)", cudaIpcGetMemHandle(&mh, buf));
    void *m = NULL;
    OK(cudaMallocManaged(&m, 4096, cudaMemAttachGlobal));
    SHOW("cudaIpcGetMemHandle(managed memory)", cudaIpcGetMemHandle(&mh, m));
    OK(cudaFree(m));
    SHOW_LAST("after bad cudaIpcGetMemHandle");

    cudaEvent_t plain = NULL, timing_off = NULL, opened = NULL;
    cudaIpcEventHandle_t eh;
    OK(cudaEventCreate(&plain));
    OK(cudaEventCreateWithFlags(&timing_off, cudaEventDisableTiming));
    SHOW("cudaIpcGetEventHandle(event without Interprocess)", cudaIpcGetEventHandle(&eh, plain));
    SHOW("cudaIpcGetEventHandle(DisableTiming only)", cudaIpcGetEventHandle(&eh, timing_off));
    SHOW_LAST("after bad cudaIpcGetEventHandle");
    if (SHOW("cudaIpcOpenEventHandle(own handle)", cudaIpcOpenEventHandle(&opened, h.event)) == cudaSuccess)
        OK(cudaEventDestroy(opened));
    SHOW_LAST("after opening an own event handle");
    cudaIpcEventHandle_t zero_ev;
    memset(&zero_ev, 0, sizeof zero_ev);
    SHOW("cudaIpcOpenEventHandle(zeroed handle)", cudaIpcOpenEventHandle(&opened, zero_ev));
    SHOW_LAST("after bad cudaIpcOpenEventHandle");

    ct_destroy_events(plain, timing_off, ev, NULL);
    OK(cudaStreamDestroy(s));
    OK(cudaFree(d));
    free(buf);
    DONE();
}
