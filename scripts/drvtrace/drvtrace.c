/* drvtrace: a libcuda.so.1 stand-in that logs every driver call a runtime makes and forwards
 * it to the real driver (DRVTRACE_REAL, default the system's libcuda.so.1). Every exported
 * symbol of the real driver is exported here as a thunk (drvtrace_thunks.S, generated), and
 * every entry point handed out by cuGetProcAddress is wrapped in a thunk made at run time, so
 * calls through function pointers are logged too. Log: DRVTRACE_OUT (default stderr), one line
 * per call with the six integer argument registers, and one line per return with the result.
 * x86-64 SysV only. Build with scripts/drvtrace/build.sh. A development tool, to learn what a
 * runtime asks of the driver for a given call; never shipped.
 *
 * How a call is logged: each thunk loads its entry's address into r11 and jumps to
 * dt_common_entry, which saves the argument registers, logs, swaps the caller's return
 * address for dt_common_exit (keeping the original on a per-thread stack) and jumps to the
 * real function with every register and stack argument as the caller left them; the
 * function then returns into dt_common_exit, which logs the result and returns to the
 * caller. Private tables handed out by cuGetExportTable are not wrapped: their UUIDs are
 * logged. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

struct entry {
    const char *name;
    void *real;
    unsigned long long calls;
};

extern void dt_common_entry(void);
extern void dt_common_exit(void);

static void *real_lib;
static FILE *out;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init(void) {
    const char *r = getenv("DRVTRACE_REAL");
    real_lib = dlopen(r ? r : "/usr/lib/x86_64-linux-gnu/libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!real_lib) {
        fprintf(stderr, "drvtrace: cannot load the real driver: %s\n", dlerror());
        abort();
    }
    const char *o = getenv("DRVTRACE_OUT");
    out = o ? fopen(o, "a") : stderr;
    if (!out) out = stderr;
    setvbuf(out, NULL, _IOLBF, 0);
}

struct frame {
    struct entry *e;
    uint64_t ra;
};
static __thread struct frame stack[512];
static __thread int depth;

/* regs: [rax, r11, r9, r8, rcx, rdx, rsi, rdi, rbp, return address, stack args...] */
void *dt_enter(struct entry *e, uint64_t *regs) {
    pthread_once(&once, init);
    if (!e->real) e->real = dlsym(real_lib, e->name);
    __atomic_add_fetch(&e->calls, 1, __ATOMIC_RELAXED);
    long tid = syscall(SYS_gettid);
    fprintf(out, "[%ld]%*s %s(%#lx, %#lx, %#lx, %#lx, %#lx, %#lx)\n", tid, depth * 2, "", e->name, regs[7], regs[6],
            regs[5], regs[4], regs[3], regs[2]);
    if (!strncmp(e->name, "cuGetProcAddress", 16) && regs[7])
        fprintf(out, "[%ld]%*s   symbol \"%s\" version %ld flags %#lx\n", tid, depth * 2, "", (const char *)regs[7],
                (long)regs[5], regs[4]);
    if (!strcmp(e->name, "cuGetExportTable") && regs[6]) {
        const unsigned char *u = (const unsigned char *)regs[6];
        fprintf(out, "[%ld]%*s   uuid ", tid, depth * 2, "");
        for (int i = 0; i < 16; i++) fprintf(out, "%02x", u[i]);
        fprintf(out, "\n");
    }
    if (depth < 512) {
        stack[depth].e = e;
        stack[depth].ra = regs[9];
        depth++;
        regs[9] = (uint64_t)dt_common_exit;
    }
    return e->real;
}

uint64_t dt_exit(uint64_t rax) {
    depth--;
    long tid = syscall(SYS_gettid);
    fprintf(out, "[%ld]%*s -> %s = %d\n", tid, depth * 2, "", stack[depth].e->name, (int)rax);
    return stack[depth].ra;
}

/* Thunks made at run time for entry points handed out by cuGetProcAddress. */
static struct entry dyn[8192];
static int ndyn;
static unsigned char *code;

static void *thunk_for(const char *name, void *real) {
    pthread_mutex_lock(&mu);
    for (int i = 0; i < ndyn; i++)
        if (dyn[i].real == real) {
            pthread_mutex_unlock(&mu);
            return code + 32 * i;
        }
    if (!code) code = mmap(NULL, 32 * 8192, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (ndyn >= 8192 || code == MAP_FAILED) {
        pthread_mutex_unlock(&mu);
        return real;
    }
    int i = ndyn++;
    dyn[i].name = strdup(name);
    dyn[i].real = real;
    unsigned char *p = code + 32 * i;
    uint64_t e = (uint64_t)&dyn[i], t = (uint64_t)dt_common_entry;
    p[0] = 0x49; p[1] = 0xbb; memcpy(p + 2, &e, 8);           /* mov r11, imm64 */
    p[10] = 0xff; p[11] = 0x25; memset(p + 12, 0, 4);         /* jmp [rip+0] */
    memcpy(p + 16, &t, 8);
    pthread_mutex_unlock(&mu);
    return p;
}

typedef int (*gpa2_t)(const char *, void **, int, uint64_t, int *);
typedef int (*gpa1_t)(const char *, void **, int, uint64_t);
int cuGetProcAddress_v2(const char *sym, void **pfn, int ver, uint64_t flags, int *status);
int cuGetProcAddress(const char *sym, void **pfn, int ver, uint64_t flags);

static void wrap(const char *sym, void **pfn, int ver) {
    if (!pfn || !*pfn || !sym) return;
    if (!strcmp(sym, "cuGetProcAddress"))
        *pfn = ver >= 12000 ? (void *)cuGetProcAddress_v2 : (void *)cuGetProcAddress;
    else
        *pfn = thunk_for(sym, *pfn);
}

int cuGetProcAddress_v2(const char *sym, void **pfn, int ver, uint64_t flags, int *status) {
    pthread_once(&once, init);
    static gpa2_t real;
    if (!real) real = (gpa2_t)dlsym(real_lib, "cuGetProcAddress_v2");
    int r = real(sym, pfn, ver, flags, status);
    fprintf(out, "[%ld] cuGetProcAddress_v2 \"%s\" version %d flags %#lx -> %d status %d\n", (long)syscall(SYS_gettid),
            sym ? sym : "(null)", ver, (unsigned long)flags, r, status ? *status : -1);
    if (r == 0) wrap(sym, pfn, ver);
    return r;
}

int cuGetProcAddress(const char *sym, void **pfn, int ver, uint64_t flags) {
    pthread_once(&once, init);
    static gpa1_t real;
    if (!real) real = (gpa1_t)dlsym(real_lib, "cuGetProcAddress");
    int r = real(sym, pfn, ver, flags);
    fprintf(out, "[%ld] cuGetProcAddress \"%s\" version %d flags %#lx -> %d\n", (long)syscall(SYS_gettid),
            sym ? sym : "(null)", ver, (unsigned long)flags, r);
    if (r == 0) wrap(sym, pfn, ver);
    return r;
}

void dt_summary(void) __attribute__((destructor));
void dt_summary(void) {
    if (!out) return;
    fprintf(out, "drvtrace: end\n");
}
