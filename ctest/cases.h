/*
 * cases.h: a table of cases that may kill the process that runs them (a crash in the driver,
 * a call that never returns), run one after another in a child process. When a case kills
 * its child, the parent prints how ("  killed by SIGSEGV", "  did not return within 10 s") and
 * starts a new child at the next case, so one CUDA initialisation serves every case up to the
 * first that dies. The parent makes no CUDA call (a forked child of a process that used CUDA
 * cannot use it).
 *
 *   static void my_case(void) { CT_R("cudaHostRegister", cudaHostRegister(p, n, 0)); }
 *   static const ct_case cases[] = {{"register ...", my_case, 0}, ...};
 *   ct_run_cases(cases, sizeof cases / sizeof cases[0]);
 *
 * Each case prints "name:" and then its own lines, indented; a case should leave nothing
 * behind that a later case could see (what it registers it unregisters). The thread's last
 * error is cleared after each case.
 *
 * Checked mode (CUDART_RS_CHECKED=1, cudart-rs only): a call written CT_G (guarded) must then
 * return cudaErrorInvalidValue, and no case may kill its process; either is a FAIL line. A
 * case marked CT_HANGS (it never returns under NVIDIA's runtime) runs only in checked mode.
 */
#ifndef CUDART_RS_CASES_H
#define CUDART_RS_CASES_H

#include <signal.h>
#include <sys/mman.h>
#include "ctest.h"

enum { CT_HANGS = 1 };

typedef struct {
    const char *name;
    void (*run)(void);
    int flags;
} ct_case;

/* Seconds a case may take before it counts as not returning. */
#define CT_CASE_SECONDS 10

static int ct_checked(void) {
    const char *v = getenv("CUDART_RS_CHECKED");
    return v && strcmp(v, "1") == 0;
}

/* "  label: cudaErrorName"; the result. */
#define CT_R(label, call) ct_result((label), (call), 0)
/* The same for a call checked mode must refuse (cudaErrorInvalidValue). */
#define CT_G(label, call) ct_result((label), (call), 1)
static inline cudaError_t ct_result(const char *label, cudaError_t e, int guarded) {
    printf("  %s: %s\n", label, cudaGetErrorName(e));
    if (guarded && ct_checked() && e != cudaErrorInvalidValue) {
        printf("FAIL %s: checked mode must refuse it with cudaErrorInvalidValue\n", label);
        ct_failed++;
    }
    return e;
}

static inline const char *ct_signal_name(int s) {
    switch (s) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGTRAP: return "SIGTRAP";
    default: return "another signal";
    }
}

/* Runs every case in order; returns the number of FAIL lines printed. */
static inline int ct_run_cases(const ct_case *cases, int n) {
    /* The case in progress, shared with the child. */
    volatile int *at = (volatile int *)mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (at == (volatile int *)MAP_FAILED) {
        printf("FAIL mmap\n");
        return ++ct_failed;
    }
    const int checked = ct_checked();
    int from = 0;
    while (from < n) {
        *at = from;
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            printf("FAIL fork\n");
            ct_failed++;
            break;
        }
        if (pid == 0) {
            /* A crash is a crash, also where a sanitizer would report it instead. */
            signal(SIGSEGV, SIG_DFL);
            signal(SIGBUS, SIG_DFL);
            signal(SIGFPE, SIG_DFL);
            signal(SIGILL, SIG_DFL);
            signal(SIGALRM, SIG_DFL);
            for (int i = from; i < n; i++) {
                *at = i;
                printf("%s:\n", cases[i].name);
                if ((cases[i].flags & CT_HANGS) && !checked) {
                    printf("  not run: never returns under NVIDIA's runtime\n");
                    continue;
                }
                alarm(CT_CASE_SECONDS);
                cases[i].run();
                alarm(0);
                cudaGetLastError();
            }
            *at = n;
            fflush(stdout);
            /* exit, not _exit: what the runtime reports at exit (checked mode's misuses) is
             * part of what the cases show. */
            exit(ct_failed ? 1 : 0);
        }
        int st = 0;
        while (waitpid(pid, &st, 0) < 0) {
        }
        int i = *at;
        if (i >= n) {
            if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) ct_failed++;
            break;
        }
        if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
            printf("  did not return within %d s\n", CT_CASE_SECONDS);
        else if (WIFSIGNALED(st))
            printf("  killed by %s\n", ct_signal_name(WTERMSIG(st)));
        else
            printf("  the process exited with status %d\n", WEXITSTATUS(st));
        if (checked) {
            printf("FAIL %s: the case ended its process in checked mode\n", cases[i].name);
            ct_failed++;
        }
        from = i + 1;
    }
    munmap((void *)at, sizeof(int));
    return ct_failed;
}

/* Page-aligned host memory of its own mapping (munmap to release). */
static inline void *ct_pages(size_t n, int prot) {
    void *p = mmap(NULL, n, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* An address where nothing is mapped: a page mapped, then unmapped. */
static inline void *ct_unmapped_page(void) {
    void *p = ct_pages(4096, PROT_READ | PROT_WRITE);
    if (p) munmap(p, 4096);
    return p;
}

#endif
