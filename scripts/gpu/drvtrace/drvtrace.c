/* drvtrace: a libcuda.so.1 stand-in that logs every driver call a runtime makes and forwards
 * it to the real driver (DRVTRACE_REAL, default the system's libcuda.so.1). Every exported
 * symbol of the real driver is exported here as a thunk (drvtrace_thunks.S, generated), and
 * every entry point handed out by cuGetProcAddress is wrapped in a thunk made at run time, so
 * calls through function pointers are logged too. Log: DRVTRACE_OUT (default stderr), one line
 * per call with the six integer argument registers, and one line per return with the result
 * (with DRVTRACE_TIME set, also how long the call took, in microseconds).
 * x86-64 SysV only. Build with scripts/gpu/drvtrace/build.sh. A development tool, to learn what a
 * runtime asks of the driver for a given call; never shipped.
 *
 * How a call is logged: each thunk loads its entry's address into r11 and jumps to
 * dt_common_entry, which saves the argument registers, logs, swaps the caller's return
 * address for dt_common_exit (keeping the original on a per-thread stack) and jumps to the
 * real function with every register and stack argument as the caller left them; the
 * function then returns into dt_common_exit, which logs the result and returns to the
 * caller.
 *
 * Private tables (cuGetExportTable): every request is logged with the UUID, the caller's
 * library and the table returned (its size word and each slot, with the library it lies in
 * and whether it is code or data). Tables named in DRVTRACE_WRAP (comma-separated UUID
 * prefixes in the printed form, or "all"; default the tools tables a094798c and 42d85a81)
 * are handed out as copies whose code slots are logging thunks: each call through them is
 * logged with its argument registers, a dump of the memory the pointer arguments point to
 * (strings and library addresses named), what changed there by the exit, and the result.
 * Data slots are passed through. A slot that returns a buffer through (void **, size_t *)
 * arguments is watched: every later change to its contents is logged, from any thread, at
 * the next driver call. drvtrace_mark(label), found with dlsym, logs a label and the
 * watched buffers' non-zero words. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct entry {
    const char *name;
    void *real;
    unsigned long long calls;
    int table; /* a private table's slot: decoded in full */
};

extern void dt_common_entry(void);
extern void dt_common_exit(void);

static void *real_lib;
static FILE *out;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static long decode_max = -1, decoded; /* DRVTRACE_DECODE_MAX: table calls decoded in full */
static int timed;                      /* DRVTRACE_TIME: each return says how long the call took */

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
    const char *m = getenv("DRVTRACE_DECODE_MAX");
    if (m) decode_max = atol(m);
    timed = getenv("DRVTRACE_TIME") != NULL;
}

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

struct frame {
    struct entry *e;
    uint64_t ra;
    uint64_t args[6];
    uint64_t t0; /* when the real function was entered (DRVTRACE_TIME) */
};
static __thread struct frame stack[512];
static __thread int depth;

static void table_enter(struct entry *e, uint64_t *regs, long tid, int d);
static void table_exit(struct frame *f, uint64_t rax, long tid, int d);
static void watch_check(long tid);

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
    watch_check(tid);
    if (e->table) table_enter(e, regs, tid, depth);
    if (depth < 512) {
        stack[depth].e = e;
        stack[depth].ra = regs[9];
        for (int i = 0; i < 6; i++) stack[depth].args[i] = regs[7 - i];
        regs[9] = (uint64_t)dt_common_exit;
        stack[depth].t0 = timed ? now_ns() : 0;
        depth++;
    }
    return e->real;
}

uint64_t dt_exit(uint64_t rax) {
    uint64_t t1 = timed ? now_ns() : 0;
    depth--;
    long tid = syscall(SYS_gettid);
    if (timed)
        fprintf(out, "[%ld]%*s -> %s = %d (%#lx) in %.1f us\n", tid, depth * 2, "", stack[depth].e->name, (int)rax, rax,
                (double)(t1 - stack[depth].t0) / 1e3);
    else
        fprintf(out, "[%ld]%*s -> %s = %d (%#lx)\n", tid, depth * 2, "", stack[depth].e->name, (int)rax, rax);
    if (stack[depth].e->table) table_exit(&stack[depth], rax, tid, depth);
    return stack[depth].ra;
}

/* Thunks made at run time for entry points handed out by cuGetProcAddress. */
static struct entry dyn[8192];
static int ndyn;
static unsigned char *code;

static void *thunk_for(const char *name, void *real, int table) {
    pthread_mutex_lock(&mu);
    for (int i = 0; i < ndyn; i++)
        if (table ? !strcmp(dyn[i].name, name) : dyn[i].real == real) {
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
    dyn[i].table = table;
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
int cuGetExportTable(const void **pp, const void *uuid);

static void wrap(const char *sym, void **pfn, int ver) {
    if (!pfn || !*pfn || !sym) return;
    if (!strcmp(sym, "cuGetProcAddress"))
        *pfn = ver >= 12000 ? (void *)cuGetProcAddress_v2 : (void *)cuGetProcAddress;
    else if (!strcmp(sym, "cuGetExportTable"))
        *pfn = (void *)cuGetExportTable;
    else
        *pfn = thunk_for(sym, *pfn, 0);
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

/* ---- Private tables (cuGetExportTable) ---------------------------------------------------- */

/* Memory that may be unreadable is read through a pipe: write() fails with EFAULT on it. */
static int rpipe[2] = {-1, -1};
static pthread_mutex_t rmu = PTHREAD_MUTEX_INITIALIZER;

static int safe_read(void *dst, uint64_t src, size_t n) {
    if (src < 0x10000 || src >= 0x800000000000ULL || n > 65536) return 0;
    pthread_mutex_lock(&rmu);
    if (rpipe[0] < 0 && pipe2(rpipe, O_NONBLOCK | O_CLOEXEC)) {
        pthread_mutex_unlock(&rmu);
        return 0;
    }
    size_t done = 0;
    while (done < n) {
        size_t k = n - done > 4096 ? 4096 : n - done;
        ssize_t w = write(rpipe[1], (const char *)src + done, k);
        if (w <= 0) break;
        ssize_t r = read(rpipe[0], (char *)dst + done, (size_t)w);
        if (r != w) break;
        done += (size_t)w;
    }
    pthread_mutex_unlock(&rmu);
    return done == n;
}

struct region {
    uint64_t lo, hi;
    char perm[5];
};
static struct region regions[16384];
static int nregions;
static pthread_mutex_t mmu = PTHREAD_MUTEX_INITIALIZER;

static void maps_load(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return;
    char line[512];
    nregions = 0;
    while (nregions < 16384 && fgets(line, sizeof line, f)) {
        struct region *r = &regions[nregions];
        if (sscanf(line, "%lx-%lx %4s", &r->lo, &r->hi, r->perm) == 3) nregions++;
    }
    fclose(f);
}

/* perm of the mapping holding a ("" when none): "r-xp" and the like. */
static void perm_of(uint64_t a, char perm[5]) {
    perm[0] = 0;
    if (a < 0x10000 || a >= 0x800000000000ULL) return;
    static struct timespec last;
    pthread_mutex_lock(&mmu);
    for (int pass = 0; pass < 2 && !perm[0]; pass++) {
        if (pass) {
            /* An address in no known mapping: read the maps again, at most every 20 ms (numbers
             * that look like addresses are common in what is dumped). */
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (nregions && (now.tv_sec - last.tv_sec) * 1000000000L + (now.tv_nsec - last.tv_nsec) < 20000000L) break;
            last = now;
            maps_load();
        }
        for (int i = 0; i < nregions; i++)
            if (a >= regions[i].lo && a < regions[i].hi) {
                memcpy(perm, regions[i].perm, 5);
                break;
            }
    }
    pthread_mutex_unlock(&mmu);
}

static int is_exec(uint64_t a) {
    char p[5];
    perm_of(a, p);
    return p[0] && p[2] == 'x';
}

/* What a word is: a library address (library+offset <symbol>), a string, a pointer to other
 * memory (its first words), or a number. */
static void describe(uint64_t a, char *buf, size_t len) {
    char perm[5];
    buf[0] = 0;
    if (a == 0) return;
    perm_of(a, perm);
    if (!perm[0]) {
        if (a < 0x100000000ULL) snprintf(buf, len, "= %lu", a);
        else snprintf(buf, len, "(u32 %u, %u)", (unsigned)a, (unsigned)(a >> 32));
        return;
    }
    size_t o = 0;
    Dl_info di;
    if (dladdr((void *)a, &di) && di.dli_fname) {
        const char *b = strrchr(di.dli_fname, '/');
        o += snprintf(buf + o, len - o, "%s %s+%#lx", perm, b ? b + 1 : di.dli_fname, a - (uint64_t)di.dli_fbase);
        if (di.dli_sname && o < len)
            o += snprintf(buf + o, len - o, " <%s+%#lx>", di.dli_sname, a - (uint64_t)di.dli_saddr);
    } else {
        o += snprintf(buf + o, len - o, "%s anon", perm);
    }
    if (o >= len || perm[0] != 'r' || perm[2] == 'x') return;
    unsigned char s[72];
    int n = safe_read(s, a, 72) ? 72 : safe_read(s, a, 16) ? 16 : 0;
    int k = 0;
    while (k < n && s[k] >= 0x20 && s[k] < 0x7f) k++;
    if (k >= 3 && (k < n || n == 72)) {
        o += snprintf(buf + o, len - o, " \"%.*s\"%s", k, s, k < n ? "" : "...");
        return;
    }
    if (n >= 16) {
        uint64_t w[4] = {0};
        memcpy(w, s, n >= 32 ? 32 : 16);
        snprintf(buf + o, len - o, " -> [%#lx %#lx %#lx %#lx]", w[0], w[1], w[2], w[3]);
    }
}

/* Prints nw words at a (as many as can be read); returns how many were read into w. */
static int dump_words(long tid, int d, const char *what, uint64_t a, uint64_t *w, int nw) {
    int n = nw;
    while (n > 0 && !safe_read(w, a, (size_t)n * 8)) n = n > 8 ? n - 8 : n - 1;
    char buf[512];
    for (int i = 0; i < n; i++) {
        describe(w[i], buf, sizeof buf);
        fprintf(out, "[%ld]%*s     %s+%#04x: %016lx %s\n", tid, d * 2, "", what, i * 8, w[i], buf);
    }
    return n;
}

static void read_str(uint64_t a, char *s, size_t len) {
    s[0] = 0;
    size_t k = len;
    while (k >= 8 && !safe_read(s, a, k)) k /= 2;
    if (k < 8) {
        s[0] = 0;
        return;
    }
    s[k - 1] = 0;
    for (size_t i = 0; s[i]; i++)
        if (s[i] < 0x20 || s[i] >= 0x7f) {
            s[i] = 0;
            break;
        }
}

/* A pointer argument whose second word names a "cuda..." function is read as a
 * CUpti_CallbackData (cupti_callbacks.h): site, functionName, functionParams,
 * functionReturnValue, symbolName, context, contextUid, correlationData, correlationId. */
static void decode_cbdata(long tid, int d, int argi, const uint64_t *w, int n) {
    if (n < 9) return;
    char fn[64], sym[96];
    read_str(w[1], fn, sizeof fn);
    if (strncmp(fn, "cu", 2) && strncmp(fn, "__cu", 4)) return;
    read_str(w[4], sym, sizeof sym);
    int ret = 0, retok = w[3] && safe_read(&ret, w[3], 4);
    uint64_t cd = 0;
    int cdok = w[7] && safe_read(&cd, w[7], 8);
    fprintf(out,
            "[%ld]%*s   arg%d as CUpti_CallbackData: site %u, functionName \"%s\", functionParams %#lx, "
            "functionReturnValue %#lx (%s%d), symbolName %s%s%s, context %#lx, contextUid %u, correlationData %#lx "
            "(%s%#lx), correlationId %u\n",
            tid, d * 2, "", argi, (unsigned)w[0], fn, w[2], w[3], retok ? "*=" : "unreadable ", retok ? ret : 0,
            w[4] ? "\"" : "", w[4] ? sym : "null", w[4] ? "\"" : "", w[5], (unsigned)w[6], w[7],
            cdok ? "*=" : "unreadable ", cd, (unsigned)w[8]);
    uint64_t p[8];
    if (w[2]) dump_words(tid, d, "functionParams", w[2], p, 8);
}

#define SNAPW 16
static __thread uint64_t snap[64][6][SNAPW];
static __thread int snapn[64][6];

static void table_enter(struct entry *e, uint64_t *regs, long tid, int d) {
    (void)e;
    char buf[512];
    describe(regs[9], buf, sizeof buf);
    fprintf(out, "[%ld]%*s   caller %s; stack args %#lx %#lx\n", tid, d * 2, "", buf, regs[10], regs[11]);
    long n = __atomic_add_fetch(&decoded, 1, __ATOMIC_RELAXED);
    int full = decode_max < 0 || n <= decode_max;
    for (int i = 0; i < 6; i++) {
        uint64_t a = regs[7 - i];
        describe(a, buf, sizeof buf);
        fprintf(out, "[%ld]%*s   arg%d = %#lx %s\n", tid, d * 2, "", i, a, buf);
        if (d < 64) snapn[d][i] = 0;
        if (!full) continue;
        char perm[5];
        perm_of(a, perm);
        if (!perm[0] || perm[0] != 'r' || perm[2] == 'x') continue;
        int dup = 0;
        for (int j = 0; j < i; j++) dup |= regs[7 - j] == a;
        if (dup) continue;
        char what[8];
        snprintf(what, sizeof what, "arg%d", i);
        uint64_t w[SNAPW];
        int k = dump_words(tid, d, what, a, w, i < 3 ? 16 : 6);
        decode_cbdata(tid, d, i, w, k);
        if (d < 64) {
            memcpy(snap[d][i], w, (size_t)k * 8);
            snapn[d][i] = k;
        }
    }
}

static void watch_add(const char *name, uint64_t addr, uint64_t size, long tid);

static void table_exit(struct frame *f, uint64_t rax, long tid, int d) {
    char buf[512];
    if (d < 64)
        for (int i = 0; i < 6; i++) {
            int k = snapn[d][i];
            if (!k) continue;
            uint64_t w[SNAPW];
            if (!safe_read(w, f->args[i], (size_t)k * 8)) continue;
            for (int j = 0; j < k; j++)
                if (w[j] != snap[d][i][j]) {
                    describe(w[j], buf, sizeof buf);
                    fprintf(out, "[%ld]%*s   changed arg%d+%#04x: %#lx -> %#lx %s\n", tid, d * 2, "", i, j * 8,
                            snap[d][i][j], w[j], buf);
                }
        }
    (void)rax;
    /* (void **ptr, size_t *size) getters: watch what they hand out. */
    uint64_t p = 0, sz = 0;
    if (safe_read(&p, f->args[0], 8) && safe_read(&sz, f->args[1], 8) && sz > 0 && sz <= 16384) {
        char perm[5];
        perm_of(p, perm);
        if (perm[0] == 'r' && perm[2] != 'x') watch_add(f->e->name, p, sz, tid);
    }
}

struct watch {
    char name[64];
    uint64_t addr, size, len;
    unsigned char *last;
};
static struct watch watches[32];
static int nwatch;
static pthread_mutex_t wmu = PTHREAD_MUTEX_INITIALIZER;

static void watch_dump(struct watch *w, long tid) {
    fprintf(out, "[%ld] watch %s at %#lx (size word %lu, %lu bytes read): non-zero u32 words:", tid, w->name,
            w->addr, w->size, w->len);
    int shown = 0;
    for (uint64_t o = 0; o + 4 <= w->len; o += 4) {
        uint32_t v;
        memcpy(&v, w->last + o, 4);
        if (!v) continue;
        if (shown++ < 1200) fprintf(out, " [%lu]=%#x", o / 4, v);
    }
    fprintf(out, "%s (%d)\n", shown > 1200 ? " ..." : "", shown);
}

static void watch_add(const char *name, uint64_t addr, uint64_t size, long tid) {
    pthread_mutex_lock(&wmu);
    for (int i = 0; i < nwatch; i++)
        if (watches[i].addr == addr) {
            pthread_mutex_unlock(&wmu);
            return;
        }
    if (nwatch < 32) {
        struct watch *w = &watches[nwatch];
        snprintf(w->name, sizeof w->name, "%s", name);
        w->addr = addr;
        w->size = size;
        /* The size may count bytes or elements: read 4 times as much where it can be read. */
        uint64_t len = size * 4 > 65536 ? 65536 : size * 4;
        w->last = malloc(len);
        if (!safe_read(w->last, addr, len)) {
            len = size;
            if (!safe_read(w->last, addr, len)) len = 0;
        }
        w->len = len;
        if (len) {
            nwatch++;
            watch_dump(w, tid);
        }
    }
    pthread_mutex_unlock(&wmu);
}

static void watch_check(long tid) {
    if (!__atomic_load_n(&nwatch, __ATOMIC_RELAXED)) return;
    pthread_mutex_lock(&wmu);
    for (int i = 0; i < nwatch; i++) {
        struct watch *w = &watches[i];
        const unsigned char *cur = (const unsigned char *)w->addr;
        if (!memcmp(cur, w->last, w->len)) continue;
        int lines = 0;
        for (uint64_t o = 0; o + 4 <= w->len; o += 4) {
            uint32_t a, b;
            memcpy(&a, w->last + o, 4);
            memcpy(&b, cur + o, 4);
            if (a == b) continue;
            if (lines++ < 600)
                fprintf(out, "[%ld] watch %s +%#lx (u32 [%lu]%s): %#x -> %#x\n", tid, w->name, o, o / 4,
                        o >= w->size ? ", beyond the size word" : "", a, b);
        }
        if (lines > 600) fprintf(out, "[%ld] watch %s: %d more words changed\n", tid, w->name, lines - 600);
        memcpy(w->last, cur, w->len);
    }
    pthread_mutex_unlock(&wmu);
}

/* Logs a label and the watched buffers (for a program to mark its phases). */
void drvtrace_mark(const char *label) {
    pthread_once(&once, init);
    long tid = syscall(SYS_gettid);
    fprintf(out, "[%ld] === mark: %s\n", tid, label ? label : "");
    watch_check(tid);
    pthread_mutex_lock(&wmu);
    for (int i = 0; i < nwatch; i++) watch_dump(&watches[i], tid);
    pthread_mutex_unlock(&wmu);
}

struct seen {
    uint64_t orig, copy;
};
static struct seen seen[256];
static int nseen;

static int wrap_wanted(const char *u) {
    const char *w = getenv("DRVTRACE_WRAP");
    if (!w) w = "a094798c,42d85a81";
    if (!strcmp(w, "all")) return 1;
    char list[512];
    snprintf(list, sizeof list, "%s", w);
    for (char *t = strtok(list, ","); t; t = strtok(NULL, ","))
        if (*t && !strncasecmp(u, t, strlen(t))) return 1;
    return 0;
}

static const void *table_seen(const char *u, const void *t, long tid) {
    uint64_t tab = (uint64_t)t;
    pthread_mutex_lock(&mu);
    for (int i = 0; i < nseen; i++)
        if (seen[i].orig == tab) {
            pthread_mutex_unlock(&mu);
            fprintf(out, "[%ld]   table %#lx seen before%s\n", tid, tab, seen[i].copy != tab ? ", its copy handed out" : "");
            return (const void *)seen[i].copy;
        }
    pthread_mutex_unlock(&mu);
    char buf[512];
    describe(tab, buf, sizeof buf);
    fprintf(out, "[%ld]   table %#lx %s\n", tid, tab, buf);
    static uint64_t w[520]; /* one table at a time (tmu) */
    static pthread_mutex_t tmu = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&tmu);
    int n = 520;
    while (n > 64 && !safe_read(w, tab, (size_t)n * 8)) n -= 64;
    while (n > 0 && !safe_read(w, tab, (size_t)n * 8)) n--;
    if (!n) {
        pthread_mutex_unlock(&tmu);
        fprintf(out, "[%ld]   table not readable\n", tid);
        return t;
    }
    int hdr = w[0] % 8 == 0 && w[0] >= 16 && w[0] <= 4096 && !is_exec(w[0]);
    int slots = 0;
    if (hdr) slots = (int)(w[0] / 8);
    else
        while (slots < n && is_exec(w[slots])) slots++;
    if (slots > n) slots = n;
    int show = hdr ? slots : (slots + 4 < n ? slots + 4 : n);
    if (show < 8 && n >= 8) show = 8;
    fprintf(out, "[%ld]   %s, %d slots\n", tid, hdr ? "size word" : "no size word", slots);
    for (int i = 0; i < show; i++) {
        describe(w[i], buf, sizeof buf);
        fprintf(out, "[%ld]   [%d] %#lx %s%s\n", tid, i, w[i], buf, i >= slots ? " (past the slots)" : "");
    }
    uint64_t copy = tab;
    if (wrap_wanted(u)) {
        int ncopy = hdr ? (slots + 8 < n ? slots + 8 : n) : n;
        uint64_t *c = mmap(NULL, 520 * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (c != MAP_FAILED) {
            memcpy(c, w, (size_t)ncopy * 8);
            int wrapped = 0;
            for (int i = hdr ? 1 : 0; i < slots; i++) {
                if (!is_exec(w[i])) continue;
                char name[64];
                snprintf(name, sizeof name, "tbl_%.8s[%d]", u, i);
                void *th = thunk_for(name, (void *)w[i], 1);
                if (th != (void *)w[i]) {
                    c[i] = (uint64_t)th;
                    wrapped++;
                }
            }
            copy = (uint64_t)c;
            fprintf(out, "[%ld]   handed out a copy (%d words) with %d code slots logged\n", tid, ncopy, wrapped);
        }
    }
    pthread_mutex_lock(&mu);
    if (nseen < 256) seen[nseen++] = (struct seen){tab, copy};
    pthread_mutex_unlock(&mu);
    pthread_mutex_unlock(&tmu);
    return (const void *)copy;
}

typedef int (*get_t)(const void **, const void *);

int cuGetExportTable(const void **pp, const void *uuid) {
    pthread_once(&once, init);
    static get_t real;
    if (!real) real = (get_t)dlsym(real_lib, "cuGetExportTable");
    uint64_t ra = (uint64_t)__builtin_return_address(0);
    long tid = syscall(SYS_gettid);
    watch_check(tid);
    int r = real(pp, uuid);
    char u[40] = "(null)", buf[512];
    if (uuid) {
        const unsigned char *b = uuid;
        snprintf(u, sizeof u, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
                 b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    }
    describe(ra, buf, sizeof buf);
    fprintf(out, "[%ld] cuGetExportTable {%s} from %s -> %d\n", tid, u, buf, r);
    if (r == 0 && pp && *pp) *pp = table_seen(u, *pp, tid);
    return r;
}

void dt_summary(void) __attribute__((destructor));
void dt_summary(void) {
    if (!out) return;
    drvtrace_mark("exit");
    fprintf(out, "drvtrace: end\n");
}
