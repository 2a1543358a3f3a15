/*
 * procs.c: processes for the observation modes' process-tree checks (scripts/test/observe/procs.py):
 * which process reports, and that every report survives when several processes share a
 * report path.
 *
 *   procs leak KIB [CALLS]  makes CALLS queries (cudaGetDevice), copies 1 KiB to the device and
 *                           back, leaks KIB KiB of device memory; prints `leaked PID BYTES`
 *   procs fork KA KC KP     child A, forked first, leaks KA KiB; then the parent makes two
 *                           calls (cudaGetErrorName, cudaRuntimeGetVersion) and forks child D,
 *                           which makes two queries of its own (cudaGetErrorString,
 *                           cudaDriverGetVersion), child B, which makes no call (and exits
 *                           through exit(), so its atexit handlers run), and child C, which
 *                           execs `procs leak KC`; the parent waits for each, then leaks KP
 *                           KiB. Prints `leaked PID BYTES` for each process that leaks,
 *                           `queried PID` for D and `silent PID` for B
 *   procs none              makes no runtime call at all
 *   procs register          registers a fat binary with a kernel and unregisters it, as
 *                           nvcc's constructors and destructors do when a library of kernels
 *                           is loaded and unloaded, and makes no other call
 *   procs secure            prints `AT_SECURE=N` (secure-execution mode, as the kernel
 *                           told the process) and what cudaGetDeviceCount returned, then
 *                           leaks 1 KiB if it can
 *
 * Every process prints its lines itself (flushed at once), so the order between processes is
 * not fixed. The exit status is 0 when every call that must succeed did.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda_runtime_api.h>

extern void **__cudaRegisterFatBinary(void *fatCubin);
extern void __cudaRegisterFatBinaryEnd(void **fatCubinHandle);
extern void __cudaUnregisterFatBinary(void **fatCubinHandle);
extern void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                                   const char *deviceName, int thread_limit, void *tid, void *bid,
                                   void *bDim, void *gDim, int *wSize);

static const char ptx[] = ".version 7.0\n.target sm_50\n.address_size 64\n.visible .entry procs_nothing()\n{\n  ret;\n}\n";
static void procs_nothing_stub(void) {}

static int leak(long kib, long calls) {
    int dev = -1, bad = 0;
    for (long i = 0; i < calls; i++)
        bad |= cudaGetDevice(&dev) != cudaSuccess;
    char host[1024];
    memset(host, 7, sizeof host);
    void *p = NULL;
    cudaError_t e = cudaMalloc(&p, (size_t)kib * 1024);
    if (e != cudaSuccess) {
        printf("FAIL cudaMalloc in %d: %s\n", (int)getpid(), cudaGetErrorName(e));
        return 1;
    }
    bad |= cudaMemcpy(p, host, sizeof host, cudaMemcpyHostToDevice) != cudaSuccess;
    memset(host, 0, sizeof host);
    bad |= cudaMemcpy(host, p, sizeof host, cudaMemcpyDeviceToHost) != cudaSuccess;
    bad |= host[1023] != 7;
    printf("leaked %d %ld\n", (int)getpid(), kib * 1024);
    fflush(stdout);
    if (bad)
        printf("FAIL a call in %d\n", (int)getpid());
    return bad;
}

static int wait_for(pid_t pid) {
    int st = 0;
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        printf("FAIL child %d: status %#x\n", (int)pid, st);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc >= 3 && !strcmp(argv[1], "leak"))
        return leak(atol(argv[2]), argc > 3 ? atol(argv[3]) : 0);
    if (argc >= 2 && !strcmp(argv[1], "none"))
        return 0;
    if (argc >= 2 && !strcmp(argv[1], "register")) {
        void **bin = __cudaRegisterFatBinary((void *)ptx);
        __cudaRegisterFunction(bin, (const char *)procs_nothing_stub, (char *)"procs_nothing", "procs_nothing", -1, NULL, NULL,
                               NULL, NULL, NULL);
        __cudaRegisterFatBinaryEnd(bin);
        __cudaUnregisterFatBinary(bin);
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "secure")) {
        int n = 0;
        printf("AT_SECURE=%lu\n", getauxval(AT_SECURE));
        cudaError_t e = cudaGetDeviceCount(&n);
        printf("cudaGetDeviceCount: %s\n", cudaGetErrorName(e));
        if (e == cudaSuccess) {
            void *p = NULL;
            printf("cudaMalloc: %s\n", cudaGetErrorName(cudaMalloc(&p, 1024)));
        }
        return 0;
    }
    if (argc >= 5 && !strcmp(argv[1], "fork")) {
        int bad = 0;
        /* A child forked before the process's first runtime call: it may use CUDA. */
        pid_t a = fork();
        if (a == 0)
            exit(leak(atol(argv[2]), 0));
        bad |= wait_for(a);
        /* Calls before the next forks: the children inherit their figures, which are not
           theirs. (The first runtime call initialises the driver, as NVIDIA's runtime does:
           these children use only calls that need no device.) */
        if (strcmp(cudaGetErrorName(cudaSuccess), "cudaSuccess") != 0)
            bad = 1;
        int v = 0;
        bad |= cudaRuntimeGetVersion(&v) != cudaSuccess;
        pid_t d = fork();
        if (d == 0) {
            int w = 0;
            int e = strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") != 0 || cudaDriverGetVersion(&w) != cudaSuccess;
            printf("queried %d\n", (int)getpid());
            exit(e);
        }
        bad |= wait_for(d);
        pid_t b = fork();
        if (b == 0) {
            printf("silent %d\n", (int)getpid());
            exit(0);
        }
        bad |= wait_for(b);
        pid_t c = fork();
        if (c == 0) {
            char *args[] = {argv[0], "leak", argv[3], NULL};
            execv("/proc/self/exe", args);
            perror("execv");
            _exit(127);
        }
        bad |= wait_for(c);
        return bad | leak(atol(argv[4]), 0);
    }
    fprintf(stderr, "usage: procs leak KIB [CALLS] | fork KA KC KP | none | register | secure\n");
    return 2;
}
