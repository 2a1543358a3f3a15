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
 *   procs exit N            makes N queries, leaks 1 KiB, prints `exiting PID` and leaves
 *                           through _exit (no exit handler runs)
 *   procs execs N KIB       makes N queries, prints `before PID`, then execs `procs leak KIB`
 *                           (the same process, another program image)
 *   procs sleep MS          makes a query, prints `pid PID`, sleeps MS ms (through signals
 *                           that do not end it), makes another, prints `done`
 *   procs threadfork R K T  T threads copy, allocate and query until told to stop; meanwhile
 *                           the main thread forks R children one after another, each of
 *                           which makes exactly K calls of cudaGetErrorName and K of
 *                           cudaRuntimeGetVersion (no device needed), prints `child PID`
 *                           and exits. Prints `parent PID CALLS`: the calls its threads made
 *   procs forkinit T        T threads make their first runtime calls (cudaGetDeviceCount)
 *                           while the main thread forks at once: the child asks for the
 *                           device count and the runtime version and prints `child PID RES`
 *                           (it must not hang in the runtime's initialisation)
 *   procs chdir DIR KIB     changes its folder to DIR, then does what `procs leak KIB` does
 *   procs dispositions      makes a runtime call, then prints `SIGNAL handler|ignored|default`
 *                           for SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE, and `mask M`
 *
 * Every process prints its lines itself (flushed at once), so the order between processes is
 * not fixed. The exit status is 0 when every call that must succeed did.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cuda_runtime_api.h>

#include "../nvcc_registration.h"

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

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static atomic_int stop;
static atomic_long thread_calls;

/* A thread of `threadfork`: copies, allocations and queries until told to stop. */
static void *busy(void *arg) {
    (void)arg;
    char host[256];
    memset(host, 1, sizeof host);
    long n = 0;
    while (!atomic_load(&stop)) {
        void *p = NULL;
        int dev = 0;
        n += 4;
        if (cudaMalloc(&p, 256) != cudaSuccess || cudaMemcpy(p, host, sizeof host, cudaMemcpyHostToDevice) != cudaSuccess ||
            cudaFree(p) != cudaSuccess || cudaGetDevice(&dev) != cudaSuccess)
            printf("FAIL a call in a thread of %d\n", (int)getpid());
    }
    atomic_fetch_add(&thread_calls, n);
    return NULL;
}

static void *first_calls(void *arg) {
    (void)arg;
    int n = 0;
    cudaGetDeviceCount(&n);
    return NULL;
}

static const char *disposition(int sig) {
    struct sigaction sa;
    sigaction(sig, NULL, &sa);
    return sa.sa_handler == SIG_IGN ? "ignored" : sa.sa_handler == SIG_DFL ? "default" : "handler";
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
    if (argc >= 3 && !strcmp(argv[1], "exit")) {
        int dev = 0, bad = 0;
        for (long i = 0; i < atol(argv[2]); i++)
            bad |= cudaGetDevice(&dev) != cudaSuccess;
        void *p = NULL;
        bad |= cudaMalloc(&p, 1024) != cudaSuccess;
        printf("exiting %d\n", (int)getpid());
        fflush(stdout);
        _exit(bad);
    }
    if (argc >= 4 && !strcmp(argv[1], "execs")) {
        int dev = 0;
        for (long i = 0; i < atol(argv[2]); i++)
            if (cudaGetDevice(&dev) != cudaSuccess)
                return 1;
        printf("before %d\n", (int)getpid());
        fflush(stdout);
        char *args[] = {argv[0], "leak", argv[3], NULL};
        execv("/proc/self/exe", args);
        perror("execv");
        return 127;
    }
    if (argc >= 3 && !strcmp(argv[1], "sleep")) {
        int dev = 0;
        int bad = cudaGetDevice(&dev) != cudaSuccess;
        printf("pid %d\n", (int)getpid());
        double until = now_ms() + atof(argv[2]);
        while (now_ms() < until)
            usleep(10000);
        bad |= cudaGetDevice(&dev) != cudaSuccess;
        printf("done\n");
        return bad;
    }
    if (argc >= 5 && !strcmp(argv[1], "threadfork")) {
        int rounds = atoi(argv[2]), k = atoi(argv[3]), nt = atoi(argv[4]), bad = 0;
        pthread_t t[64];
        nt = nt < 1 ? 1 : nt > 64 ? 64 : nt;
        for (int i = 0; i < nt; i++)
            pthread_create(&t[i], NULL, busy, NULL);
        usleep(20000);
        for (int r = 0; r < rounds; r++) {
            pid_t c = fork();
            if (c == 0) {
                int e = 0, v = 0;
                for (int i = 0; i < k; i++) {
                    e |= strcmp(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue") != 0;
                    e |= cudaRuntimeGetVersion(&v) != cudaSuccess;
                }
                printf("child %d\n", (int)getpid());
                exit(e);
            }
            bad |= wait_for(c);
        }
        atomic_store(&stop, 1);
        for (int i = 0; i < nt; i++)
            pthread_join(t[i], NULL);
        printf("parent %d %ld\n", (int)getpid(), atomic_load(&thread_calls));
        return bad;
    }
    if (argc >= 3 && !strcmp(argv[1], "forkinit")) {
        int nt = atoi(argv[2]);
        pthread_t t[64];
        nt = nt < 1 ? 1 : nt > 64 ? 64 : nt;
        for (int i = 0; i < nt; i++)
            pthread_create(&t[i], NULL, first_calls, NULL);
        pid_t c = fork();
        if (c == 0) {
            int n = 0, v = 0;
            cudaError_t e = cudaGetDeviceCount(&n);
            cudaRuntimeGetVersion(&v);
            printf("child %d %s\n", (int)getpid(), cudaGetErrorName(e));
            exit(0);
        }
        for (int i = 0; i < nt; i++)
            pthread_join(t[i], NULL);
        return wait_for(c);
    }
    if (argc >= 4 && !strcmp(argv[1], "chdir")) {
        int dev = 0;
        if (cudaGetDevice(&dev) != cudaSuccess || chdir(argv[2]) != 0) {
            perror("chdir");
            return 1;
        }
        return leak(atol(argv[3]), 0);
    }
    if (argc >= 2 && !strcmp(argv[1], "dispositions")) {
        int dev = 0;
        cudaGetDevice(&dev);
        int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
        const char *names[] = {"SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGPIPE"};
        for (int i = 0; i < 5; i++)
            printf("%s %s\n", names[i], disposition(sigs[i]));
        sigset_t m;
        pthread_sigmask(SIG_SETMASK, NULL, &m);
        unsigned long bits = 0;
        for (int s = 1; s < 64; s++)
            if (sigismember(&m, s))
                bits |= 1ul << (s - 1);
        printf("mask %#lx\n", bits);
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
    fprintf(stderr, "usage: procs leak KIB [CALLS] | fork KA KC KP | none | register | secure | exit N | execs N KIB | sleep MS"
                    " | threadfork R K T | forkinit T | chdir DIR KIB | dispositions\n");
    return 2;
}
