/*
 * difftest: a seeded random differential tester of the CUDA runtime's memory management.
 *
 *   difftest SEED NCALLS [faults=auto|on|off]
 *
 * Runs NCALLS runtime calls chosen from SEED alone (a splitmix64 generator, never rand()),
 * with good and bad arguments mixed, and prints one line per call:
 *
 *   INDEX FUNCTION(ARGUMENTS) = ERROR; peek ERROR[; what came back][; sum OBJECT CHECKSUM]
 *
 * Arguments are printed by what they are, never as addresses: `dev#3+16` (16 bytes into the
 * fourth device allocation), `pinned#1`, `managed#0`, `pageable#2+7` (the program's own
 * memory: four mappings, each followed by an inaccessible page), `registered#2` (the same
 * buffer while a cudaHostRegister covers that byte), `freed-dev#1`, `NULL`, `array#0`,
 * `stream#2`, `stream:null`, `stream:legacy`,
 * `stream:per-thread`; sizes and pitches as numbers, kinds and flags by name. Then the
 * returned error's name and cudaPeekAtLastError's. A call that moves data (or fails to) is
 * followed by a checksum (FNV-1a) of its whole destination object read back; every 25 calls
 * a line starting with `=` gives the checksums of every live object. The program keeps a
 * model of what each object must hold (every object is filled with a known pattern when it is
 * made, and every successful copy and memset is applied to the model); a checksum that
 * differs from the model's is followed by `(model XXXXXXXX)`, and the model then takes what
 * was read, so that each such mark is a new difference.
 *
 * The sequence depends only on the seed and on what earlier lines printed, so two runtimes
 * that behave alike print the same lines, and the first differing line is where they part.
 *
 * Inputs that would crash NVIDIA's runtime are never made: a pointer the call treats as host
 * memory is always real host memory with room for the whole access, under every reading of
 * pitches and rows per slice a runtime might make (pageable, pinned, managed or NULL; never
 * device memory or a freed pointer); a freed pointer is only passed where the runtime or
 * driver looks it up (frees, queries, the device end of an explicit copy kind), and only
 * until the next allocation could reuse its address; destroyed streams and freed arrays are
 * never passed again. Device memory is overrun only by a 1D range (which the driver checks
 * whole) or by rows no allocation can hold, never into a neighbour row by row, and a unified
 * (cudaMemcpyDefault) device address is never outside its allocation (the driver takes it
 * for host memory). Nor are the other inputs ctest/README.md lists as killing NVIDIA's
 * runtime made: cudaStreamAttachMemAsync of managed memory with no flags, and one-row 2D
 * array copies with a pitch of 0 and a device-side kind.
 *
 * Reading back: device and managed memory through the driver API (cuMemcpyDtoH after
 * cuCtxSynchronize, from libcuda.so.1 or $CUDART_RS_DRIVER), so that reading changes nothing
 * the runtime records; host memory directly; CUDA arrays through the runtime
 * (cudaMemcpy3D to host), skipped while the context is known to be broken.
 *
 * Faults (faults=on, or faults=auto and SEED % 4 == 3): at a random point the program makes
 * a context current (cudaFree(NULL), printed as a call), loads a tiny PTX module through the
 * driver API and launches a kernel that writes to an unmapped address or executes `trap`
 * (ctest/fault.h, as ctest/sticky_fault.c does);
 * the next call is always one that waits for that kernel (so that which call reports the
 * fault does not depend on timing), and later, with some probability, cudaDeviceReset and
 * more calls follow. Where the driver cannot load the module (the stand-in driver), the fault
 * line says so and the sequence goes on without it.
 *
 * Built against NVIDIA's header or ours (CUDART_VERSION >= 13000 for the 13 ABI: cudaMemAdvise
 * and cudaMemPrefetchAsync take a cudaMemLocation; the 12 ABI has the device-ordinal forms and
 * the _v2 ones). scripts/test/difftest.sh builds it and compares runtimes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "../fault.h"

/* scripts/test/difftest.sh says which ABI it means to build: the header must be that one. */
#if defined(DIFFTEST_ABI) && DIFFTEST_ABI != CUDART_VERSION / 1000
#error "the CUDA header found is not of the ABI asked for (DIFFTEST_ABI)"
#endif

/* ------------------------------------------------------------------ per-thread variants */
/* The per-thread-default-stream exports both runtimes have; NVIDIA's header declares them
 * only under --default-stream per-thread, so they are declared here. */
extern cudaError_t cudaMemcpy_ptds(void *, const void *, size_t, enum cudaMemcpyKind);
extern cudaError_t cudaMemcpyAsync_ptsz(void *, const void *, size_t, enum cudaMemcpyKind, cudaStream_t);
extern cudaError_t cudaMemcpy2D_ptds(void *, size_t, const void *, size_t, size_t, size_t, enum cudaMemcpyKind);
extern cudaError_t cudaMemcpy2DAsync_ptsz(void *, size_t, const void *, size_t, size_t, size_t, enum cudaMemcpyKind, cudaStream_t);
extern cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *);
extern cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *, cudaStream_t);
extern cudaError_t cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *);
extern cudaError_t cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *, cudaStream_t);
extern cudaError_t cudaMemset_ptds(void *, int, size_t);
extern cudaError_t cudaMemsetAsync_ptsz(void *, int, size_t, cudaStream_t);
extern cudaError_t cudaMemset2D_ptds(void *, size_t, int, size_t, size_t);
extern cudaError_t cudaMemset2DAsync_ptsz(void *, size_t, int, size_t, size_t, cudaStream_t);
extern cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr, int, struct cudaExtent);
extern cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr, int, struct cudaExtent, cudaStream_t);
extern cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t, size_t, size_t, const void *, size_t, size_t, size_t, enum cudaMemcpyKind);
extern cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t, size_t, size_t, const void *, size_t, size_t, size_t, enum cudaMemcpyKind, cudaStream_t);
extern cudaError_t cudaMemcpy2DFromArray_ptds(void *, size_t, cudaArray_const_t, size_t, size_t, size_t, size_t, enum cudaMemcpyKind);
extern cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *, size_t, cudaArray_const_t, size_t, size_t, size_t, size_t, enum cudaMemcpyKind, cudaStream_t);
extern cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t, size_t, size_t, cudaArray_const_t, size_t, size_t, size_t, size_t, enum cudaMemcpyKind);
extern cudaError_t cudaMemcpyToArray_ptds(cudaArray_t, size_t, size_t, const void *, size_t, enum cudaMemcpyKind);
extern cudaError_t cudaMemcpyFromArray_ptds(void *, cudaArray_const_t, size_t, size_t, size_t, enum cudaMemcpyKind);
extern cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t, size_t, size_t, cudaArray_const_t, size_t, size_t, size_t, enum cudaMemcpyKind);
extern cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t, size_t, size_t, const void *, size_t, enum cudaMemcpyKind, cudaStream_t);
extern cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *, cudaArray_const_t, size_t, size_t, size_t, enum cudaMemcpyKind, cudaStream_t);
extern cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t, void *, size_t, unsigned int);
extern cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t);
#if CUDART_VERSION >= 13000
extern cudaError_t cudaMemPrefetchAsync_ptsz(const void *, size_t, struct cudaMemLocation, unsigned int, cudaStream_t);
#else
extern cudaError_t cudaMemPrefetchAsync_ptsz(const void *, size_t, int, cudaStream_t);
extern cudaError_t cudaMemPrefetchAsync_v2_ptsz(const void *, size_t, struct cudaMemLocation, unsigned int, cudaStream_t);
#endif

/* ------------------------------------------------------------------------------- random */

static uint64_t rng;

static uint64_t rnd(void) {
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* A number in [0, n). */
static size_t below(size_t n) { return n ? (size_t)(rnd() % n) : 0; }
/* True with `pct` percent probability. */
static int chance(int pct) { return (int)below(100) < pct; }
/* One of the values of a literal list. */
#define ONE_OF(...) one_of_((const long long[]){__VA_ARGS__}, sizeof((const long long[]){__VA_ARGS__}) / sizeof(long long))
static long long one_of_(const long long *v, size_t n) { return v[below(n)]; }

static const size_t HUGE_SIZES[] = {SIZE_MAX, (size_t)1 << 40, (size_t)1 << 62, SIZE_MAX / 2 + 1};
static size_t huge_size(void) { return HUGE_SIZES[below(4)]; }

static size_t min_z(size_t a, size_t b) { return a < b ? a : b; }
static size_t max_z(size_t a, size_t b) { return a > b ? a : b; }
/* Saturating a * b + c. */
static size_t mad_sat(size_t a, size_t b, size_t c) {
    if (a && b > SIZE_MAX / a) return SIZE_MAX;
    size_t m = a * b;
    return m > SIZE_MAX - c ? SIZE_MAX : m + c;
}

/* ------------------------------------------------------------------------------ output */

static char line[8192];
static size_t line_len;

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (line_len < sizeof line) {
        int n = vsnprintf(line + line_len, sizeof line - line_len, fmt, ap);
        if (n > 0) line_len = min_z(sizeof line - 1, line_len + (size_t)n);
    }
    va_end(ap);
}

static const char *ename(cudaError_t e) {
    const char *n = cudaGetErrorName(e);
    return n ? n : "(null)";
}

/* Prints the call about to be made (flushed, so that a crash inside it shows which call it
 * was), then makes it. */
static int call_index;
static void begin(const char *fn) {
    printf("%d %s(%.*s)", call_index, fn, (int)line_len, line);
    fflush(stdout);
    line_len = 0;
    line[0] = 0;
}
/* Ends the call's line: its result, the peeked last error, and what `out` gathered since. */
static void end(cudaError_t e, cudaError_t peek) {
    printf(" = %s; peek %s%.*s\n", ename(e), ename(peek), (int)line_len, line);
    fflush(stdout);
    line_len = 0;
    line[0] = 0;
}
#define CALL(name, expr)                                                                 \
    do {                                                                                 \
        begin(name);                                                                     \
        ret = (expr);                                                                    \
        peek = cudaPeekAtLastError();                                                    \
        if (sticky(ret) || sticky(peek)) faulted = 1;                                    \
    } while (0)
/* The errors of a context that a fault killed. */
static int sticky(cudaError_t e) {
    return e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure || e == cudaErrorHardwareStackError ||
           e == cudaErrorIllegalInstruction || e == cudaErrorMisalignedAddress || e == cudaErrorInvalidAddressSpace ||
           e == cudaErrorInvalidPc;
}

/* ------------------------------------------------------------------------------ driver */

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
static struct {
    int ok;
    CUresult (*ctxGetCurrent)(void **);
    CUresult (*ctxSynchronize)(void);
    CUresult (*memcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*memcpyHtoD)(CUdeviceptr, const void *, size_t);
} drv;

static void load_driver(void) {
    const char *path = getenv("CUDART_RS_DRIVER");
    void *lib = dlopen(path && *path ? path : "libcuda.so.1", RTLD_NOW);
    if (!lib) return;
    typedef CUresult (*gpa_t)(const char *, void **, int, unsigned long long, int *);
    gpa_t gpa = (gpa_t)dlsym(lib, "cuGetProcAddress_v2");
    if (!gpa) return;
#define GET(field, sym, ver)                                                             \
    do {                                                                                 \
        void *p_ = NULL;                                                                 \
        int st_ = 0;                                                                     \
        if (gpa(sym, &p_, ver, 1 /* legacy stream */, &st_) != 0 || !p_) return;         \
        memcpy(&drv.field, &p_, sizeof p_);                                              \
    } while (0)
    GET(ctxGetCurrent, "cuCtxGetCurrent", 4000);
    GET(ctxSynchronize, "cuCtxSynchronize", 2000);
    GET(memcpyDtoH, "cuMemcpyDtoH", 7000);
    GET(memcpyHtoD, "cuMemcpyHtoD", 7000);
#undef GET
    drv.ok = 1;
}

/* ------------------------------------------------------------------------------ objects */

enum kind { K_PAGEABLE, K_PINNED, K_MANAGED, K_DEV, K_ARRAY, K_STREAM };
static const char *kind_name[] = {"pageable", "pinned", "managed", "dev", "array", "stream"};

typedef struct {
    int kind, id;
    int alive;  /* usable */
    int fresh;  /* freed, and no allocation since that could reuse its address */
    unsigned char *p; /* base of linear memory */
    size_t size;      /* bytes (arrays: every element's bytes, row-major) */
    size_t pitch, w, h, d; /* cudaMallocPitch/cudaMalloc3D memory: its pitch and extent */
    unsigned flags;
    unsigned char *model; /* what the object must hold, or NULL */
    int known;            /* the model is exact */
    /* arrays: extent in elements (h, d at least 1), element size; made with no height (1D) */
    cudaArray_t arr;
    size_t aw, ah, ad, esz;
    int oned;
    /* streams */
    cudaStream_t st;
} obj_t;

#define MAX_OBJ 512
static obj_t objs[MAX_OBJ];
static int nobj;
static int next_id[6];

enum { CAP_DEV = 10, CAP_PINNED = 5, CAP_MANAGED = 4, CAP_ARRAY = 6, CAP_STREAM = 4 };
#define MODEL_MAX ((size_t)16 << 20)

typedef struct {
    int buf;
    size_t off, len;
    unsigned flags;
} reg_t;
#define MAX_REG 64
static reg_t regs[MAX_REG];
static int nreg;

static int faulted;     /* a fault was injected or reported, and no cudaDeviceReset has succeeded since */
static long mismatches; /* checksums that differ from the model */
static int verify_all;  /* DIFFTEST_VERIFY=1 */

static unsigned char pattern(int kind, int id, size_t i) {
    return (unsigned char)(i * 131u + (i >> 9) * 7u + (unsigned)id * 71u + (unsigned)kind * 29u + 1u);
}

static int count_alive(int kind) {
    int n = 0;
    for (int k = 0; k < nobj; k++) n += objs[k].kind == kind && objs[k].alive;
    return n;
}

static obj_t *new_obj(int kind) {
    if (nobj == MAX_OBJ) {
        /* Reuse the slot of a long-dead object. */
        for (int k = 0; k < nobj; k++)
            if (!objs[k].alive && !objs[k].fresh && objs[k].kind != K_PAGEABLE) {
                free(objs[k].model);
                memset(&objs[k], 0, sizeof objs[k]);
                objs[k].kind = kind;
                objs[k].id = next_id[kind]++;
                return &objs[k];
            }
        fprintf(stderr, "difftest: too many objects\n");
        exit(3);
    }
    obj_t *o = &objs[nobj++];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->id = next_id[kind]++;
    return o;
}

/* Every freed pointer may now be the address of something new: no longer passed. */
static void stale_freed(void) {
    for (int k = 0; k < nobj; k++) objs[k].fresh = 0;
}

static void kill_obj(obj_t *o, int freed) {
    o->alive = 0;
    o->fresh = freed && o->kind != K_ARRAY && o->kind != K_STREAM;
    free(o->model);
    o->model = NULL;
    o->known = 0;
}

static uint32_t fnv(const unsigned char *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

/* Reads an object back into buf (o->size bytes). Returns 0, or prints why not into `out` and
 * returns -1. */
static int read_back(obj_t *o, unsigned char *buf) {
    /* A copy that returned cudaSuccess can still fault the context when it runs (a runaway
     * size): from then on the context counts as faulted, as after a reported sticky error. */
    if (drv.ok) {
        CUresult r = drv.ctxSynchronize();
        if (r == 700 || r == 702 || (r >= 714 && r <= 719)) faulted = 1;
    }
    switch (o->kind) {
    case K_PINNED:
        /* After a fault, which of the copies queued before it reached pinned memory depends
         * on timing (the same program differs from run to run under NVIDIA's runtime). */
        if (faulted) {
            out(" not read (context faulted)");
            return -1;
        }
        /* fall through */
    case K_PAGEABLE:
        memcpy(buf, o->p, o->size);
        return 0;
    case K_DEV:
    case K_MANAGED: {
        if (!drv.ok) {
            out(" unreadable (no driver)");
            return -1;
        }
        CUresult r = drv.memcpyDtoH(buf, (CUdeviceptr)(uintptr_t)o->p, o->size);
        if (r) {
            out(" unreadable (driver error %d)", r);
            return -1;
        }
        return 0;
    }
    case K_ARRAY: {
        if (faulted) {
            out(" not read (context faulted)");
            return -1;
        }
        struct cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcArray = o->arr;
        p.dstPtr.ptr = buf;
        p.dstPtr.pitch = o->aw * o->esz;
        p.dstPtr.xsize = o->aw * o->esz;
        p.dstPtr.ysize = o->ah;
        p.extent.width = o->aw;
        p.extent.height = o->ah;
        p.extent.depth = o->ad;
        p.kind = cudaMemcpyDeviceToHost;
        cudaError_t e = cudaMemcpy3D(&p);
        if (e) {
            out(" unreadable (cudaMemcpy3D: %s)", ename(e));
            return -1;
        }
        return 0;
    }
    }
    return -1;
}

static void obj_name(char *b, size_t n, const obj_t *o) {
    if (o->kind == K_STREAM) {
        snprintf(b, n, "stream#%d", o->id);
        return;
    }
    snprintf(b, n, "%s%s#%d", o->alive ? "" : "freed-", kind_name[o->kind], o->id);
}

/* Appends " sum NAME XXXXXXXX" for an object read back (and the model's checksum where it
 * differs). */
static void sum_of(obj_t *o) {
    char nm[48];
    obj_name(nm, sizeof nm, o);
    out(" %s", nm);
    if (!o->model && o->size > MODEL_MAX) {
        out(" too big to read");
        return;
    }
    unsigned char *buf = malloc(o->size ? o->size : 1);
    if (!buf) {
        out(" no memory to read");
        return;
    }
    if (read_back(o, buf) == 0) {
        uint32_t got = fnv(buf, o->size);
        out(" %08x", got);
        if (o->model && o->known) {
            uint32_t want = fnv(o->model, o->size);
            if (want != got) {
                out(" (model %08x)", want);
                mismatches++;
                if (verify_all)
                    for (size_t i = 0; i < o->size; i++)
                        if (buf[i] != o->model[i]) {
                            fprintf(stderr, "!! %d: byte %zu is %u, the model says %u\n", call_index, i, buf[i], o->model[i]);
                            break;
                        }
            }
        }
        /* From here on the model follows what the object holds, so that each "(model ...)"
         * marks a new difference (and a model that had lost track has it again). */
        if (o->model) {
            memcpy(o->model, buf, o->size);
            o->known = 1;
        }
    }
    free(buf);
}

static void sum_after(obj_t *o) {
    if (!o || !o->alive) return;
    out("; sum");
    sum_of(o);
}

/* The line of checksums of every live object. */
static void all_sums(void) {
    line_len = 0;
    line[0] = 0;
    int first = 1;
    for (int k = 0; k < nobj; k++) {
        obj_t *o = &objs[k];
        if (!o->alive || o->kind == K_STREAM) continue;
        if (!first) out(",");
        first = 0;
        sum_of(o);
    }
    printf("= sums after %d:%.*s\n", call_index, (int)line_len, line);
    fflush(stdout);
    line_len = 0;
    line[0] = 0;
}

/* DIFFTEST_VERIFY=1 (for working on this program): after every call, every object with an
 * exact model is read back and compared, and the first difference is printed. */
static void verify(void) {
    for (int k = 0; k < nobj; k++) {
        obj_t *o = &objs[k];
        if (!o->alive || !o->model || !o->known || o->kind == K_ARRAY) continue;
        unsigned char *buf = malloc(o->size ? o->size : 1);
        size_t save = line_len;
        if (buf && read_back(o, buf) == 0) {
            for (size_t i = 0; i < o->size; i++)
                if (buf[i] != o->model[i]) {
                    char nm[48];
                    obj_name(nm, sizeof nm, o);
                    printf("!! after %d: %s byte %zu is %u, the model says %u\n", call_index, nm, i, buf[i], o->model[i]);
                    o->known = 0;
                    break;
                }
        }
        line_len = save;
        free(buf);
    }
}

/* Fills a new object with its pattern and gives it a model. Linear memory: device and
 * managed through the driver, host memory directly; arrays through the runtime. */
static void init_obj(obj_t *o) {
    if (o->size > MODEL_MAX) return;
    o->model = malloc(o->size ? o->size : 1);
    if (!o->model) return;
    for (size_t i = 0; i < o->size; i++) o->model[i] = pattern(o->kind, o->id, i);
    o->known = 0;
    switch (o->kind) {
    case K_PAGEABLE:
    case K_PINNED:
        memcpy(o->p, o->model, o->size);
        o->known = 1;
        break;
    case K_DEV:
    case K_MANAGED:
        if (drv.ok && drv.memcpyHtoD((CUdeviceptr)(uintptr_t)o->p, o->model, o->size) == 0) o->known = 1;
        else out("; fill failed");
        break;
    case K_ARRAY: {
        if (faulted) break;
        struct cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr.ptr = o->model;
        p.srcPtr.pitch = o->aw * o->esz;
        p.srcPtr.xsize = o->aw * o->esz;
        p.srcPtr.ysize = o->ah;
        p.dstArray = o->arr;
        p.extent.width = o->aw;
        p.extent.height = o->ah;
        p.extent.depth = o->ad;
        p.kind = cudaMemcpyHostToDevice;
        cudaError_t e = cudaMemcpy3D(&p);
        if (e == cudaSuccess) o->known = 1;
        else out("; fill failed (%s)", ename(e));
        break;
    }
    }
    /* A copy from pageable memory returns once the bytes are staged: the fill must have
     * landed before a stream that does not wait for the legacy one reads the object (else the
     * next call may read what the allocation held before; seen on the H100). */
    if (drv.ok && o->kind != K_PAGEABLE && o->kind != K_PINNED) drv.ctxSynchronize();
}

/* ------------------------------------------------------------------------- pointers */

typedef struct {
    obj_t *o; /* NULL: the null pointer */
    size_t off;
    char name[96];
} ref_t;

static void *ref_ptr(const ref_t *r) { return r->o ? r->o->p + r->off : NULL; }

/* The registration covering byte `off` of pageable buffer `buf`, or -1. */
static int reg_at(int buf, size_t off) {
    for (int k = 0; k < nreg; k++)
        if (regs[k].buf == buf && off >= regs[k].off && off < regs[k].off + regs[k].len) return k;
    return -1;
}
static int readonly_registered(int buf) {
    for (int k = 0; k < nreg; k++)
        if (regs[k].buf == buf && (regs[k].flags & cudaHostRegisterReadOnly)) return 1;
    return 0;
}

static void ref_set(ref_t *r, obj_t *o, size_t off) {
    r->o = o;
    r->off = off;
    if (!o) {
        snprintf(r->name, sizeof r->name, "NULL");
        return;
    }
    char base[48];
    if (o->kind == K_PAGEABLE && reg_at(o->id, off) >= 0) snprintf(base, sizeof base, "registered#%d", o->id);
    else obj_name(base, sizeof base, o);
    if (off) snprintf(r->name, sizeof r->name, "%s+%zu", base, off);
    else snprintf(r->name, sizeof r->name, "%s", base);
}

/* Pointer classes a call may be given. */
enum { CL_NULL, CL_DEV, CL_FREED, CL_PINNED, CL_MANAGED, CL_PAGEABLE, CL_N };

static int has_class(int cl) {
    for (int k = 0; k < nobj; k++) {
        obj_t *o = &objs[k];
        switch (cl) {
        case CL_DEV: if (o->kind == K_DEV && o->alive) return 1; break;
        case CL_FREED: if (!o->alive && o->fresh) return 1; break;
        case CL_PINNED: if (o->kind == K_PINNED && o->alive) return 1; break;
        case CL_MANAGED: if (o->kind == K_MANAGED && o->alive) return 1; break;
        case CL_PAGEABLE: if (o->kind == K_PAGEABLE) return 1; break;
        }
    }
    return cl == CL_NULL;
}

static obj_t *pick_of_class(int cl) {
    int cand[MAX_OBJ], n = 0;
    for (int k = 0; k < nobj; k++) {
        obj_t *o = &objs[k];
        int ok = 0;
        switch (cl) {
        case CL_DEV: ok = o->kind == K_DEV && o->alive; break;
        case CL_FREED: ok = !o->alive && o->fresh; break;
        case CL_PINNED: ok = o->kind == K_PINNED && o->alive; break;
        case CL_MANAGED: ok = o->kind == K_MANAGED && o->alive; break;
        case CL_PAGEABLE: ok = o->kind == K_PAGEABLE; break;
        }
        if (ok) cand[n++] = k;
    }
    return n ? &objs[cand[below(n)]] : NULL;
}

/* An object of a class chosen by weight (NULL for the null pointer). */
static obj_t *pick_obj(const int w[CL_N]) {
    int total = 0;
    for (int c = 0; c < CL_N; c++) total += has_class(c) ? w[c] : 0;
    if (total <= 0) return NULL;
    int r = (int)below((size_t)total);
    for (int c = 0; c < CL_N; c++) {
        if (!has_class(c)) continue;
        if (r < w[c]) return c == CL_NULL ? NULL : pick_of_class(c);
        r -= w[c];
    }
    return NULL;
}

static size_t pick_off(const obj_t *o) {
    size_t n = o ? o->size : 0;
    if (!o || n == 0) return 0;
    int r = (int)below(100);
    if (r < 60) return 0;
    if (r < 75) return min_z(n, 1 + below(63));
    if (r < 92) return below(n + 1);
    return min_z(n, (n / 2) & ~(size_t)255);
}

/* Roles of a pointer in a call. */
enum { R_HOST, R_DEV, R_UNI };
/*                           NULL DEV FREED PINNED MANAGED PAGEABLE */
static const int W_HOST[CL_N] = {3, 0, 0, 25, 12, 50};
static const int W_DEV[CL_N] = {3, 60, 6, 8, 14, 4};
static const int W_UNI[CL_N] = {3, 40, 0, 15, 15, 22};
static const int *weights_for(int role) { return role == R_HOST ? W_HOST : role == R_DEV ? W_DEV : W_UNI; }

static ref_t pick_ref(int role) {
    ref_t r;
    obj_t *o = pick_obj(weights_for(role));
    ref_set(&r, o, pick_off(o));
    return r;
}

/* An access from a pointer: at most `span` bytes from it (under every reading of pitches a
 * runtime might make), its first row starting at most `first` bytes from it; `rows` rows (all
 * slices') of `w` bytes with the row pitch `pitch` as given; `oned` for a plain 1D range. */
typedef struct {
    size_t span, first, w, rows, pitch;
    int oned;
} acc_t;
static acc_t acc1(size_t n) {
    acc_t a = {n, 0, n, n ? 1 : 0, n, 1};
    return a;
}

/* Whether a pointer in `role` may be given an access without a risk of a crash or of
 * touching memory outside the program's objects:
 * - host memory (pageable, pinned, managed) only with room for the whole access;
 * - device memory never where the call treats it as host memory, nor as a unified address
 *   outside its allocation (which the driver takes for host memory); past its end only by a
 *   1D range (which the driver checks whole), else only where every row but the first
 *   starts beyond the maximum pitch or every row is wider than any allocation (refused);
 * - a freed pointer only as freed device memory the call treats as device memory;
 * - NULL anywhere (the runtime or driver checks for it). */
static int safe_ref(const ref_t *r, int role, acc_t a, int written) {
    if (!a.span || !a.rows || !a.w) return 1;
    if (!r->o) return 1;
    const obj_t *o = r->o;
    if (!o->alive) return o->fresh && o->kind == K_DEV && role == R_DEV;
    size_t room = r->off <= o->size ? o->size - r->off : 0;
    switch (o->kind) {
    case K_DEV:
        if (role == R_HOST) return 0;
        /* A unified address outside every allocation is host memory to the driver, which
         * reads or writes it (NVIDIA's runtime dies of SIGSEGV: cudaMemcpy(managed#1,
         * dev#0+1, 1, Default) with dev#0 of one byte). */
        if (role == R_UNI && r->off >= o->size && a.w < ((size_t)1 << 40)) return 0;
        if (a.oned || a.span <= room || a.w >= ((size_t)1 << 40)) return 1;
        return a.rows > 1 && a.pitch >= ((size_t)1 << 32) && a.first <= room && a.w <= room - a.first;
    case K_PAGEABLE:
        if (written && readonly_registered(o->id)) return 0;
        /* fall through */
    case K_PINNED:
    case K_MANAGED: return a.span <= room;
    }
    return 0;
}

/* Whether two accesses overlap (same object, intersecting byte ranges). */
static int overlap(const ref_t *a, size_t alo, size_t ahi, const ref_t *b, size_t blo, size_t bhi) {
    if (!a->o || !b->o || a->o != b->o || ahi <= alo || bhi <= blo) return 0;
    size_t a0 = a->off + alo, a1 = a->off + ahi, b0 = b->off + blo, b1 = b->off + bhi;
    if (a1 < a0) a1 = SIZE_MAX; /* saturated */
    if (b1 < b0) b1 = SIZE_MAX;
    return a0 < b1 && b0 < a1;
}

/* A length for an access at r: mostly fitting the room left, sometimes 0, 1, past the end
 * or huge (`past`: only where the object is device memory, which the driver checks). */
static size_t pick_len(size_t room, int past) {
    int r = (int)below(100);
    if (r < 6) return 0;
    if (r < 12) return 1;
    if (r < 22) return 1 + below(min_z(64, max_z(room, 1)));
    if (r < 45) return room;
    if (r < 82) return room ? 1 + below(room) : 0;
    if (past && r < 92) return room + 1 + below(64);
    if (past) return huge_size();
    return room ? 1 + below(room) : 0;
}

/* ------------------------------------------------------------------------------ model */

/* A model end: an object, a byte offset into it, a row pitch and a slice pitch. */
typedef struct {
    obj_t *o;
    size_t base, pitch, slice;
} mend_t;

static void mark_unknown(obj_t *o) {
    if (o) o->known = 0;
}

/* Applies a successful copy of `depth` slices x `h` rows x `w` bytes to the model. */
static void model_copy(mend_t d, mend_t s, size_t w, size_t h, size_t depth) {
    obj_t *D = d.o, *S = s.o;
    if (!D || !D->alive || !D->model || !w || !h || !depth) return;
    if (!S || !S->alive || !S->model || !S->known) {
        mark_unknown(D);
        return;
    }
    unsigned char *tmp = NULL;
    for (size_t z = 0; z < depth; z++)
        for (size_t y = 0; y < h; y++) {
            size_t so = mad_sat(z, s.slice, mad_sat(y, s.pitch, s.base));
            size_t dof = mad_sat(z, d.slice, mad_sat(y, d.pitch, d.base));
            if (so >= S->size || w > S->size - so || dof >= D->size) {
                /* Bytes from outside the source: unknown. */
                mark_unknown(D);
                free(tmp);
                return;
            }
            size_t n = min_z(w, D->size - dof);
            if (S == D) {
                tmp = realloc(tmp, n);
                memcpy(tmp, S->model + so, n);
                memcpy(D->model + dof, tmp, n);
            } else {
                memcpy(D->model + dof, S->model + so, n);
            }
        }
    free(tmp);
}

static void model_set(mend_t d, int value, size_t w, size_t h, size_t depth) {
    obj_t *D = d.o;
    if (!D || !D->alive || !D->model || !w || !h || !depth) return;
    for (size_t z = 0; z < depth; z++)
        for (size_t y = 0; y < h; y++) {
            size_t dof = mad_sat(z, d.slice, mad_sat(y, d.pitch, d.base));
            if (dof >= D->size) continue;
            memset(D->model + dof, value & 0xff, min_z(w, D->size - dof));
        }
}

static mend_t mend_ref(const ref_t *r, size_t pitch, size_t slice) {
    mend_t m = {r->o, r->off, pitch, slice};
    return m;
}

/* ------------------------------------------------------------------------------ names */

static const char *kind_str(int k) {
    static char b[8][24];
    static int i;
    switch (k) {
    case cudaMemcpyHostToHost: return "HostToHost";
    case cudaMemcpyHostToDevice: return "HostToDevice";
    case cudaMemcpyDeviceToHost: return "DeviceToHost";
    case cudaMemcpyDeviceToDevice: return "DeviceToDevice";
    case cudaMemcpyDefault: return "Default";
    }
    i = (i + 1) % 8;
    snprintf(b[i], sizeof b[i], "kind(%d)", k);
    return b[i];
}

/* Flag names: bit names joined by '|', unknown bits in hex, "0" for none. */
static const char *flag_str(unsigned f, const char *const *names, int nnames) {
    static char b[8][96];
    static int i;
    i = (i + 1) % 8;
    char *s = b[i];
    s[0] = 0;
    if (!f) {
        snprintf(s, sizeof b[i], "0");
        return s;
    }
    unsigned rest = f;
    for (int k = 0; k < nnames; k++)
        if (names[k] && (f & (1u << k))) {
            size_t l = strlen(s);
            snprintf(s + l, sizeof b[i] - l, "%s%s", l ? "|" : "", names[k]);
            rest &= ~(1u << k);
        }
    if (rest) {
        size_t l = strlen(s);
        snprintf(s + l, sizeof b[i] - l, "%s0x%x", l ? "|" : "", rest);
    }
    return s;
}
static const char *const HOSTALLOC_FLAGS[] = {"Portable", "Mapped", "WriteCombined"};
static const char *const REGISTER_FLAGS[] = {"Portable", "Mapped", "IoMemory", "ReadOnly"};
static const char *const ATTACH_FLAGS[] = {"Global", "Host", "Single"};
static const char *const STREAM_FLAGS[] = {"NonBlocking"};
static const char *const ARRAY_FLAGS[] = {"Layered", "SurfaceLoadStore", "Cubemap", "TextureGather"};

/* How a returned pointer relates to the one passed: "=p", "NULL" or "other". */
static const char *rel(const void *got, const void *p) { return got == p ? "=p" : got == NULL ? "NULL" : "other"; }

/* ------------------------------------------------------------------------------ streams */

typedef struct {
    cudaStream_t s;
    char name[24];
} sref_t;

static sref_t pick_stream(void) {
    sref_t r;
    int k = (int)below(100);
    obj_t *o = NULL;
    if (k >= 45) {
        int cand[MAX_OBJ], n = 0;
        for (int j = 0; j < nobj; j++)
            if (objs[j].kind == K_STREAM && objs[j].alive) cand[n++] = j;
        if (n) o = &objs[cand[below(n)]];
    }
    if (o) {
        r.s = o->st;
        snprintf(r.name, sizeof r.name, "stream#%d", o->id);
    } else if (k < 22 || k >= 45) {
        r.s = 0;
        snprintf(r.name, sizeof r.name, "stream:null");
    } else if (k < 32) {
        r.s = cudaStreamLegacy;
        snprintf(r.name, sizeof r.name, "stream:legacy");
    } else {
        r.s = cudaStreamPerThread;
        snprintf(r.name, sizeof r.name, "stream:per-thread");
    }
    return r;
}

/* ------------------------------------------------------------------------------ kinds */

static int pick_kind(void) {
    int r = (int)below(100);
    if (r < 4) return (int)ONE_OF(5, -1, 1000);
    if (r < 12) return cudaMemcpyHostToHost;
    if (r < 34) return cudaMemcpyHostToDevice;
    if (r < 56) return cudaMemcpyDeviceToHost;
    if (r < 78) return cudaMemcpyDeviceToDevice;
    return cudaMemcpyDefault;
}
static int valid_kind(int k) { return k >= 0 && k <= 4; }
/* The roles of the source and the destination under a kind (an invalid kind is treated as
 * cudaMemcpyDefault, in case a runtime does not refuse it). */
static void roles(int kind, int *src, int *dst) {
    switch (kind) {
    case cudaMemcpyHostToHost: *src = R_HOST; *dst = R_HOST; return;
    case cudaMemcpyHostToDevice: *src = R_HOST; *dst = R_DEV; return;
    case cudaMemcpyDeviceToHost: *src = R_DEV; *dst = R_HOST; return;
    case cudaMemcpyDeviceToDevice: *src = R_DEV; *dst = R_DEV; return;
    default: *src = R_UNI; *dst = R_UNI; return;
    }
}

/* Bytes touched from the pointer by h rows of w bytes with `pitch` (0 when nothing is). */
static size_t span2d(size_t pitch, size_t w, size_t h) {
    if (!w || !h) return 0;
    return mad_sat(h - 1, pitch, w);
}
/* The access of a 2D copy or memset end: one row touches w bytes whatever the pitch; rows
 * are pitch apart, or w apart where a runtime took a narrower pitch for w. */
static acc_t acc2d(size_t pitch, size_t w, size_t h) {
    acc_t a = {0, 0, w, h, pitch, 0};
    if (!w || !h) {
        a.rows = 0;
        return a;
    }
    a.span = h == 1 ? w : max_z(span2d(pitch, w, h), span2d(max_z(pitch, w), w, h));
    return a;
}

static size_t pick_w(void) {
    int r = (int)below(100);
    if (r < 5) return 0;
    if (r < 12) return 1;
    if (r < 60) return 1 + below(64);
    if (r < 88) return 1 + below(512);
    return 1 + below(4096);
}
static size_t pick_h(void) {
    int r = (int)below(100);
    if (r < 5) return 0;
    if (r < 35) return 1;
    if (r < 75) return 2 + below(6);
    return 2 + below(64);
}
static size_t pick_pitch(const obj_t *o, size_t w) {
    int r = (int)below(100);
    if (o && o->pitch && r < 45) return o->pitch;
    if (r < 60) return w;
    if (r < 78) return w + 1 + below(64);
    if (r < 84) return w ? w - 1 : 0;
    if (r < 88) return 0;
    if (r < 92) return (size_t)1 << 33;
    return 1 + below(1024);
}
/* Moves r's offset so that `span` bytes fit, where they can and mostly. */
static void fit(ref_t *r, size_t span) {
    obj_t *o = r->o;
    if (!o || !o->alive || span > o->size || chance(15)) return;
    size_t room = o->size - span;
    size_t off = chance(50) ? 0 : chance(50) ? min_z(room, 1 + below(31)) : below(room + 1);
    ref_set(r, o, off);
}

/* ------------------------------------------------------------------------------ ops */

static cudaError_t ret, peek;

#define TRIES 40
static int pt(void) { return chance(12); }

static void fallback(void) {
    CALL("cudaPeekAtLastError", cudaPeekAtLastError());
    end(ret, peek);
}

static size_t pick_alloc_size(int huge_pct, size_t cap) {
    int r = (int)below(100);
    if (r < huge_pct) return huge_size();
    r = (int)below(100);
    size_t s;
    if (r < 3) s = 0;
    else if (r < 7) s = 1;
    else if (r < 22) s = 1 + below(200);
    else if (r < 47) s = 256 + below(4096 - 256 + 1);
    else if (r < 75) s = 4097 + below(65536 - 4097 + 1);
    else if (r < 94) s = 65537 + below((1 << 20) - 65537 + 1);
    else s = (1 << 20) + below(2 << 20);
    return min_z(s, cap);
}

/* A successful allocation: the new object (NULL when the runtime returned NULL). */
static obj_t *allocated(int kind, void *p, size_t size) {
    stale_freed();
    if (!p) {
        out("; -> NULL");
        return NULL;
    }
    obj_t *o = new_obj(kind);
    o->p = p;
    o->size = size;
    o->alive = 1;
    char nm[48];
    obj_name(nm, sizeof nm, o);
    out("; -> %s", nm);
    return o;
}

static void op_malloc(void) {
    size_t size = pick_alloc_size(6, SIZE_MAX);
    void *p = NULL;
    int null_out = chance(3);
    out("%s, %zu", null_out ? "NULL" : "&p", size);
    CALL("cudaMalloc", cudaMalloc(null_out ? NULL : &p, size));
    obj_t *o = NULL;
    if (ret == cudaSuccess && !null_out) o = allocated(K_DEV, p, size);
    if (o) init_obj(o);
    end(ret, peek);
}

static void op_malloc_pitch(void) {
    size_t w = (size_t)ONE_OF(0, 1, 7, 64, 100, 512, 513, 1000, 2048);
    size_t h = (size_t)ONE_OF(0, 1, 2, 5, 16, 64);
    if (chance(5)) w = (size_t)1 << 40;
    if (chance(4)) h = (size_t)1 << 50;
    int null_p = chance(3), null_pitch = chance(3);
    void *p = NULL;
    size_t pitch = 0;
    out("%s, %s, %zu, %zu", null_p ? "NULL" : "&p", null_pitch ? "NULL" : "&pitch", w, h);
    CALL("cudaMallocPitch", cudaMallocPitch(null_p ? NULL : &p, null_pitch ? NULL : &pitch, w, h));
    if (ret == cudaSuccess) {
        out("; pitch %zu", pitch);
        if (!null_p && !null_pitch) {
            obj_t *o = allocated(K_DEV, p, mad_sat(pitch, h, 0));
            if (o) {
                o->pitch = pitch;
                o->w = w;
                o->h = h;
                o->d = 1;
                init_obj(o);
            }
        }
    }
    end(ret, peek);
}

static void op_malloc3d(void) {
    struct cudaExtent e;
    e.width = (size_t)ONE_OF(0, 1, 7, 64, 100, 512, 513, 1000);
    e.height = (size_t)ONE_OF(0, 1, 2, 5, 16);
    e.depth = (size_t)ONE_OF(0, 1, 2, 3, 8);
    if (chance(5)) e.width = e.height = e.depth = (size_t)1 << 20;
    int null_out = chance(3);
    struct cudaPitchedPtr pp;
    memset(&pp, 0, sizeof pp);
    out("%s, {%zu, %zu, %zu}", null_out ? "NULL" : "&pp", e.width, e.height, e.depth);
    CALL("cudaMalloc3D", cudaMalloc3D(null_out ? NULL : &pp, e));
    if (ret == cudaSuccess && !null_out) {
        out("; pitch %zu xsize %zu ysize %zu", pp.pitch, pp.xsize, pp.ysize);
        obj_t *o = allocated(K_DEV, pp.ptr, mad_sat(mad_sat(pp.pitch, pp.ysize, 0), e.depth, 0));
        if (o) {
            o->pitch = pp.pitch;
            o->w = e.width;
            o->h = pp.ysize;
            o->d = e.depth;
            init_obj(o);
        }
    }
    end(ret, peek);
}

static void op_malloc_managed(void) {
    size_t size = chance(3) ? (chance(50) ? SIZE_MAX : (size_t)1 << 62) : pick_alloc_size(0, 1 << 20);
    unsigned fl = chance(80) ? (chance(70) ? cudaMemAttachGlobal : cudaMemAttachHost) : (unsigned)ONE_OF(0, 4, 3, 8);
    int null_out = chance(3);
    void *p = NULL;
    out("%s, %zu, %s", null_out ? "NULL" : "&p", size, flag_str(fl, ATTACH_FLAGS, 3));
    CALL("cudaMallocManaged", cudaMallocManaged(null_out ? NULL : &p, size, fl));
    if (ret == cudaSuccess && !null_out) {
        obj_t *o = allocated(K_MANAGED, p, size);
        if (o) {
            o->flags = fl;
            init_obj(o);
        }
    }
    end(ret, peek);
}

static void op_malloc_host(int hostalloc) {
    size_t size = chance(3) ? (chance(50) ? SIZE_MAX : (size_t)1 << 62) : pick_alloc_size(0, 1 << 20);
    unsigned fl = 0;
    if (hostalloc) fl = chance(90) ? (unsigned)below(8) : (unsigned)ONE_OF(8, 0x80000000u, 0x10);
    int null_out = chance(3);
    void *p = NULL;
    if (hostalloc) {
        out("%s, %zu, %s", null_out ? "NULL" : "&p", size, flag_str(fl, HOSTALLOC_FLAGS, 3));
        CALL("cudaHostAlloc", cudaHostAlloc(null_out ? NULL : &p, size, fl));
    } else {
        out("%s, %zu", null_out ? "NULL" : "&p", size);
        CALL("cudaMallocHost", cudaMallocHost(null_out ? NULL : &p, size));
    }
    if (ret == cudaSuccess && !null_out) {
        obj_t *o = allocated(K_PINNED, p, size);
        if (o) {
            o->flags = fl;
            init_obj(o);
        }
    }
    end(ret, peek);
}

/* A successful free of `r`: its object is gone where r is its base. */
static void freed(ref_t *r) {
    if (r->o && r->o->alive && r->o->kind != K_PAGEABLE) kill_obj(r->o, 1);
}

static void op_free(void) {
    /*                 NULL DEV FREED PINNED MANAGED PAGEABLE */
    static const int w[CL_N] = {8, 45, 8, 5, 14, 3};
    ref_t r;
    obj_t *o = pick_obj(w);
    ref_set(&r, o, o && chance(12) ? pick_off(o) : 0);
    out("%s", r.name);
    CALL("cudaFree", cudaFree(ref_ptr(&r)));
    if (ret == cudaSuccess) freed(&r);
    end(ret, peek);
}

static void op_free_host(void) {
    static const int w[CL_N] = {8, 8, 8, 55, 5, 5};
    ref_t r;
    obj_t *o = pick_obj(w);
    ref_set(&r, o, o && chance(8) ? pick_off(o) : 0);
    out("%s", r.name);
    CALL("cudaFreeHost", cudaFreeHost(ref_ptr(&r)));
    if (ret == cudaSuccess) freed(&r);
    end(ret, peek);
}

static void op_host_register(void) {
    ref_t r;
    int k = (int)below(100);
    obj_t *o;
    if (k < 70) {
        o = pick_of_class(CL_PAGEABLE);
        size_t off = chance(55) ? 0 : chance(50) ? 1 + below(4095) : (below(o->size / 4096 + 1) * 4096);
        ref_set(&r, o, min_z(off, o->size));
    } else if (k < 82 && has_class(CL_PINNED)) {
        ref_set(&r, pick_of_class(CL_PINNED), 0);
    } else {
        ref_set(&r, NULL, 0);
    }
    size_t room = r.o ? r.o->size - r.off : 4096;
    size_t size;
    int s = (int)below(100);
    if (s < 5) size = 0;
    else if (s < 9) size = huge_size();
    else if (s < 14 && r.o && r.o->kind == K_PAGEABLE) size = room + 1 + below(8192); /* into the guard page */
    else size = chance(40) ? room : 1 + below(max_z(room, 1));
    if (r.o && r.o->kind != K_PAGEABLE && size > room && size < ((size_t)1 << 40)) size = room;
    unsigned fl;
    int f = (int)below(100);
    if (f < 35) fl = 0;
    else if (f < 86) fl = 1 + (unsigned)below(3);
    else if (f < 89) fl = cudaHostRegisterReadOnly;
    else if (f < 93) fl = cudaHostRegisterIoMemory;
    else fl = (unsigned)ONE_OF(0x10, 0xffffffffu, 0x20);
    out("%s, %zu, %s", r.name, size, flag_str(fl, REGISTER_FLAGS, 4));
    CALL("cudaHostRegister", cudaHostRegister(ref_ptr(&r), size, fl));
    /* A range of 1 TiB or more covers whatever the process mapped above the buffer, so
     * whether the driver meets a registered range (cudaErrorHostMemoryAlreadyRegistered) or
     * fails to pin first (cudaErrorMemoryAllocation) depends on the address-space layout,
     * which differs between the two runtimes' processes: either is printed as one. */
    if (size >= ((size_t)1 << 40) && (ret == cudaErrorHostMemoryAlreadyRegistered || ret == cudaErrorMemoryAllocation)) {
        out(" (layout-dependent error; last error cleared)");
        ret = peek = cudaErrorMemoryAllocation;
        (void)cudaGetLastError();
    }
    if (ret == cudaSuccess) {
        stale_freed();
        if (r.o && r.o->kind == K_PAGEABLE && nreg < MAX_REG) {
            regs[nreg].buf = r.o->id;
            regs[nreg].off = r.off;
            regs[nreg].len = min_z(size, r.o->size - r.off);
            regs[nreg].flags = fl;
            nreg++;
        }
    }
    end(ret, peek);
}

static void op_host_unregister(void) {
    ref_t r;
    int k = (int)below(100);
    if (k < 55 && nreg) {
        reg_t *g = &regs[below((size_t)nreg)];
        obj_t *o = NULL;
        for (int j = 0; j < nobj; j++)
            if (objs[j].kind == K_PAGEABLE && objs[j].id == g->buf) o = &objs[j];
        size_t off = g->off;
        if (chance(15) && g->len > 1) off += 1 + below(g->len - 1);
        ref_set(&r, o, off);
    } else if (k < 70) {
        obj_t *o = pick_of_class(CL_PAGEABLE);
        ref_set(&r, o, pick_off(o));
    } else {
        static const int w[CL_N] = {10, 6, 4, 10, 6, 0};
        obj_t *o = pick_obj(w);
        ref_set(&r, o, 0);
    }
    out("%s", r.name);
    CALL("cudaHostUnregister", cudaHostUnregister(ref_ptr(&r)));
    if (ret == cudaSuccess && r.o && r.o->kind == K_PAGEABLE) {
        int hit = -1;
        for (int j = 0; j < nreg; j++)
            if (regs[j].buf == r.o->id && regs[j].off == r.off) hit = j;
        if (hit < 0) hit = reg_at(r.o->id, r.off);
        if (hit >= 0) regs[hit] = regs[--nreg];
    }
    end(ret, peek);
}

/* A pointer for the host-memory queries: registered ranges, pinned, and everything else. */
static ref_t pick_query_ref(void) {
    ref_t r;
    if (nreg && chance(25)) {
        reg_t *g = &regs[below((size_t)nreg)];
        for (int j = 0; j < nobj; j++)
            if (objs[j].kind == K_PAGEABLE && objs[j].id == g->buf) {
                ref_set(&r, &objs[j], g->off + (chance(70) ? 0 : below(g->len)));
                return r;
            }
    }
    static const int w[CL_N] = {6, 12, 8, 40, 12, 15};
    obj_t *o = pick_obj(w);
    ref_set(&r, o, o && chance(25) ? pick_off(o) : 0);
    return r;
}

static void op_host_get_device_pointer(void) {
    ref_t r = pick_query_ref();
    unsigned fl = chance(88) ? 0 : (unsigned)ONE_OF(1, 2);
    int null_out = chance(4);
    void *d = (void *)(uintptr_t)0x5a5a;
    out("%s, %s, %u", null_out ? "NULL" : "&d", r.name, fl);
    CALL("cudaHostGetDevicePointer", cudaHostGetDevicePointer(null_out ? NULL : &d, ref_ptr(&r), fl));
    if (ret == cudaSuccess && !null_out) out("; d %s", rel(d, ref_ptr(&r)));
    end(ret, peek);
}

static void op_host_get_flags(void) {
    ref_t r = pick_query_ref();
    int null_out = chance(4);
    unsigned fl = 0xdead;
    out("%s, %s", null_out ? "NULL" : "&flags", r.name);
    CALL("cudaHostGetFlags", cudaHostGetFlags(null_out ? NULL : &fl, ref_ptr(&r)));
    if (ret == cudaSuccess && !null_out) out("; flags %s", flag_str(fl, HOSTALLOC_FLAGS, 3));
    end(ret, peek);
}

static void op_mem_get_info(void) {
    size_t fr = 0, to = 0;
    int nf = chance(10), nt = chance(10);
    out("%s, %s", nf ? "NULL" : "&free", nt ? "NULL" : "&total");
    CALL("cudaMemGetInfo", cudaMemGetInfo(nf ? NULL : &fr, nt ? NULL : &to));
    end(ret, peek);
}

static const char *memtype(int t) {
    static char b[24];
    switch (t) {
    case cudaMemoryTypeUnregistered: return "Unregistered";
    case cudaMemoryTypeHost: return "Host";
    case cudaMemoryTypeDevice: return "Device";
    case cudaMemoryTypeManaged: return "Managed";
    }
    snprintf(b, sizeof b, "type(%d)", t);
    return b;
}

static void op_pointer_attributes(void) {
    ref_t r = pick_query_ref();
    int null_out = chance(3);
    struct cudaPointerAttributes a;
    memset(&a, 0x7f, sizeof a);
    out("%s, %s", null_out ? "NULL" : "&attr", r.name);
    CALL("cudaPointerGetAttributes", cudaPointerGetAttributes(null_out ? NULL : &a, ref_ptr(&r)));
    if (ret == cudaSuccess && !null_out)
        out("; type %s device %d devicePointer %s hostPointer %s", memtype((int)a.type), a.device,
            rel(a.devicePointer, ref_ptr(&r)), rel(a.hostPointer, ref_ptr(&r)));
    end(ret, peek);
}

/* ---- copies */

static void op_memcpy(int async) {
    int kind = 0, sr, dr;
    ref_t s, d;
    size_t n = 0;
    int t;
    for (t = 0; t < TRIES; t++) {
        kind = pick_kind();
        roles(kind, &sr, &dr);
        s = pick_ref(sr);
        d = pick_ref(dr);
        size_t sroom = s.o && s.o->alive ? s.o->size - min_z(s.off, s.o->size) : 4096;
        size_t droom = d.o && d.o->alive ? d.o->size - min_z(d.off, d.o->size) : 4096;
        n = pick_len(min_z(sroom, droom), 1);
        if (safe_ref(&s, sr, acc1(n), 0) && safe_ref(&d, dr, acc1(n), 1) && !overlap(&s, 0, n, &d, 0, n)) break;
    }
    if (t == TRIES) {
        fallback();
        return;
    }
    int p = pt();
    if (async) {
        sref_t st = pick_stream();
        out("%s, %s, %zu, %s, %s", d.name, s.name, n, kind_str(kind), st.name);
        if (p) CALL("cudaMemcpyAsync_ptsz", cudaMemcpyAsync_ptsz(ref_ptr(&d), ref_ptr(&s), n, (enum cudaMemcpyKind)kind, st.s));
        else CALL("cudaMemcpyAsync", cudaMemcpyAsync(ref_ptr(&d), ref_ptr(&s), n, (enum cudaMemcpyKind)kind, st.s));
    } else {
        out("%s, %s, %zu, %s", d.name, s.name, n, kind_str(kind));
        if (p) CALL("cudaMemcpy_ptds", cudaMemcpy_ptds(ref_ptr(&d), ref_ptr(&s), n, (enum cudaMemcpyKind)kind));
        else CALL("cudaMemcpy", cudaMemcpy(ref_ptr(&d), ref_ptr(&s), n, (enum cudaMemcpyKind)kind));
    }
    if (n) {
        if (ret == cudaSuccess) model_copy(mend_ref(&d, 0, 0), mend_ref(&s, 0, 0), n, 1, 1);
        sum_after(d.o);
    }
    end(ret, peek);
}

static void op_memcpy2d(int async) {
    int kind = 0, sr, dr, t;
    ref_t s, d;
    size_t w = 0, h = 0, sp = 0, dp = 0, ss = 0, ds = 0;
    for (t = 0; t < TRIES; t++) {
        kind = pick_kind();
        roles(kind, &sr, &dr);
        s = pick_ref(sr);
        d = pick_ref(dr);
        w = pick_w();
        h = pick_h();
        sp = pick_pitch(s.o, w);
        dp = pick_pitch(d.o, w);
        acc_t sa = acc2d(sp, w, h), da = acc2d(dp, w, h);
        ss = sa.span;
        ds = da.span;
        fit(&s, ss);
        fit(&d, ds);
        if (safe_ref(&s, sr, sa, 0) && safe_ref(&d, dr, da, 1) && !overlap(&s, 0, ss, &d, 0, ds)) break;
    }
    if (t == TRIES) {
        fallback();
        return;
    }
    int p = pt();
    if (async) {
        sref_t st = pick_stream();
        out("%s, %zu, %s, %zu, %zu, %zu, %s, %s", d.name, dp, s.name, sp, w, h, kind_str(kind), st.name);
        if (p) CALL("cudaMemcpy2DAsync_ptsz", cudaMemcpy2DAsync_ptsz(ref_ptr(&d), dp, ref_ptr(&s), sp, w, h, (enum cudaMemcpyKind)kind, st.s));
        else CALL("cudaMemcpy2DAsync", cudaMemcpy2DAsync(ref_ptr(&d), dp, ref_ptr(&s), sp, w, h, (enum cudaMemcpyKind)kind, st.s));
    } else {
        out("%s, %zu, %s, %zu, %zu, %zu, %s", d.name, dp, s.name, sp, w, h, kind_str(kind));
        if (p) CALL("cudaMemcpy2D_ptds", cudaMemcpy2D_ptds(ref_ptr(&d), dp, ref_ptr(&s), sp, w, h, (enum cudaMemcpyKind)kind));
        else CALL("cudaMemcpy2D", cudaMemcpy2D(ref_ptr(&d), dp, ref_ptr(&s), sp, w, h, (enum cudaMemcpyKind)kind));
    }
    if (w && h) {
        if (ret == cudaSuccess) model_copy(mend_ref(&d, dp, 0), mend_ref(&s, sp, 0), w, h, 1);
        sum_after(d.o);
    }
    end(ret, peek);
}

/* One end of a 3D copy: an array, a pitched pointer, both or neither. */
typedef struct {
    ref_t r;      /* the pointer (r.o NULL with has_ptr: a null pointer) */
    int has_ptr;
    obj_t *a;     /* the array, or NULL */
    struct cudaPitchedPtr pp;
    struct cudaPos pos;
    char desc[160];
} end3_t;

static obj_t *pick_array(void) {
    int cand[MAX_OBJ], n = 0;
    for (int k = 0; k < nobj; k++)
        if (objs[k].kind == K_ARRAY && objs[k].alive) cand[n++] = k;
    return n ? &objs[cand[below(n)]] : NULL;
}

static size_t pick_pos(size_t limit) {
    int r = (int)below(100);
    if (r < 60 || !limit) return 0;
    if (r < 90) return below(limit);
    return limit + below(3);
}

/* Generates an end of a 3D copy of extent (w elements, h, d) in `role`; esz is the size of
 * the copy's elements (1 without arrays). */
static void gen_end3(end3_t *e, int role, int want_array, size_t w, size_t h, size_t dep) {
    memset(e, 0, sizeof *e);
    if (want_array) {
        e->a = pick_array();
        if (e->a) {
            e->pos.x = pick_pos(e->a->aw > w ? e->a->aw - w : 0);
            e->pos.y = pick_pos(e->a->ah > h ? e->a->ah - h : 0);
            e->pos.z = pick_pos(e->a->ad > dep ? e->a->ad - dep : 0);
        }
        return;
    }
    e->has_ptr = 1;
    e->r = pick_ref(role);
    obj_t *o = e->r.o;
    size_t pitch = pick_pitch(o, w), ysize;
    int k = (int)below(100);
    if (o && o->pitch && o->h && k < 50) ysize = o->h;
    else if (k < 75) ysize = h;
    else if (k < 85) ysize = h + below(4);
    else if (k < 92) ysize = h ? h - 1 : 0;
    else ysize = 0;
    e->pp.pitch = pitch;
    e->pp.xsize = chance(80) ? w : below(2 * w + 1);
    e->pp.ysize = ysize;
    if (chance(25)) {
        e->pos.x = below(8);
        e->pos.y = below(3);
        e->pos.z = chance(30) ? below(2) : 0;
    }
}

/* The access of a 3D copy or memset end (x position in bytes) of w bytes x h rows x d
 * slices: the last row starts at ((z + d - 1) * ysize + y + h - 1) * pitch + x, taking the
 * pitch and rows per slice as given, or at least w and h (as a runtime might). */
static acc_t acc3d(const end3_t *e, size_t xbytes, size_t wbytes, size_t h, size_t d) {
    acc_t a = {0, 0, wbytes, h * d, e->pp.pitch, 0};
    if (!wbytes || !h || !d) {
        a.rows = 0;
        return a;
    }
    if (h > SIZE_MAX / d) a.rows = SIZE_MAX;
    for (int k = 0; k < 4; k++) {
        size_t pitch = k & 1 ? max_z(e->pp.pitch, wbytes) : e->pp.pitch;
        size_t ys = k & 2 ? max_z(e->pp.ysize, h) : e->pp.ysize;
        size_t first = mad_sat(mad_sat(e->pos.z, ys, e->pos.y), pitch, xbytes);
        size_t last = mad_sat(mad_sat(e->pos.z + d - 1, ys, e->pos.y + h - 1), pitch, xbytes);
        a.first = max_z(a.first, first);
        a.span = max_z(a.span, mad_sat(1, last, wbytes));
    }
    return a;
}

static void end3_desc(end3_t *e, const char *side) {
    char *b = e->desc;
    size_t n = sizeof e->desc, l = 0;
    l += (size_t)snprintf(b + l, n - l, "%sArray ", side);
    if (e->a) {
        char nm[48];
        obj_name(nm, sizeof nm, e->a);
        l += (size_t)snprintf(b + l, n - l, "%s", nm);
    } else {
        l += (size_t)snprintf(b + l, n - l, "NULL");
    }
    l += (size_t)snprintf(b + l, n - l, " %sPos {%zu, %zu, %zu}", side, e->pos.x, e->pos.y, e->pos.z);
    if (e->has_ptr)
        snprintf(b + l, n - l, " %sPtr {%s, %zu, %zu, %zu}", side, e->r.name, e->pp.pitch, e->pp.xsize, e->pp.ysize);
    else
        snprintf(b + l, n - l, " %sPtr {NULL, 0, 0, 0}", side);
}

/* The model end of a 3D copy end (x in bytes). */
static mend_t mend3(const end3_t *e, size_t xbytes) {
    mend_t m = {0, 0, 0, 0};
    if (e->a) {
        size_t row = e->a->aw * e->a->esz;
        m.o = e->a;
        m.pitch = row;
        m.slice = row * e->a->ah;
        m.base = e->pos.z * m.slice + e->pos.y * row + xbytes;
        return m;
    }
    if (!e->has_ptr) return m;
    m.o = e->r.o;
    m.pitch = e->pp.pitch;
    m.slice = mad_sat(e->pp.pitch, e->pp.ysize, 0);
    m.base = mad_sat(e->pos.z, m.slice, mad_sat(e->pos.y, e->pp.pitch, e->r.off + xbytes));
    return m;
}

/* cudaMemcpy3D(Async) and cudaMemcpy3DPeer(Async). */
static void op_memcpy3d(int async, int peer) {
    int kind = cudaMemcpyDefault, sr = R_UNI, dr = R_UNI, t;
    end3_t S, D;
    struct cudaExtent ext = {0, 0, 0};
    size_t esz = 1;
    int shape = 0; /* 0 normal, 1 both array and ptr at one end, 2 neither at one end, 3 NULL parms */
    for (t = 0; t < TRIES; t++) {
        if (!peer) {
            kind = pick_kind();
            roles(kind, &sr, &dr);
        }
        int r = (int)below(100);
        shape = r < 3 ? 3 : r < 6 ? 1 : r < 9 ? 2 : 0;
        int sa = chance(30) && count_alive(K_ARRAY) > 0, da = chance(30) && count_alive(K_ARRAY) > 0;
        ext.width = pick_w();
        ext.height = pick_h() % 9;
        ext.depth = (size_t)ONE_OF(0, 1, 1, 1, 2, 3, 4);
        int huge_w = chance(6);
        if (huge_w) ext.width = huge_size();
        gen_end3(&S, sr, sa, ext.width, ext.height, ext.depth);
        gen_end3(&D, dr, da, ext.width, ext.height, ext.depth);
        if ((sa && !S.a) || (da && !D.a)) continue;
        if ((S.a || D.a) && chance(70)) {
            /* Mostly an extent and positions inside the arrays. */
            obj_t *A = S.a ? S.a : D.a, *B = D.a ? D.a : S.a;
            ext.width = 1 + below(min_z(A->aw, B->aw));
            ext.height = 1 + below(min_z(A->ah, B->ah));
            ext.depth = 1 + below(min_z(A->ad, B->ad));
            huge_w = 0;
            end3_t *ends[2] = {&S, &D};
            for (int k = 0; k < 2; k++)
                if (ends[k]->a) {
                    obj_t *a = ends[k]->a;
                    ends[k]->pos.x = pick_pos(a->aw - ext.width);
                    ends[k]->pos.y = pick_pos(a->ah - ext.height);
                    ends[k]->pos.z = pick_pos(a->ad - ext.depth);
                }
        }
        if (sa && da && !chance(80) && S.a == D.a) continue;
        if (shape == 1) {
            /* an array and a pointer at one end */
            /* (the pointer is the program's own memory, in case a runtime used it) */
            end3_t *e = chance(50) ? &S : &D;
            if (!e->a) e->a = pick_array();
            if (!e->has_ptr) {
                e->has_ptr = 1;
                ref_set(&e->r, pick_of_class(CL_PAGEABLE), 0);
                e->pp.pitch = 64;
                e->pp.xsize = 64;
                e->pp.ysize = 4;
            }
        } else if (shape == 2) {
            end3_t *e = chance(50) ? &S : &D;
            e->a = NULL;
            e->has_ptr = 0;
        }
        esz = S.a ? S.a->esz : D.a ? D.a->esz : 1;
        size_t wb = huge_w ? ext.width : mad_sat(ext.width, esz, 0);
        acc_t sac = acc3d(&S, mad_sat(S.pos.x, esz, 0), wb, ext.height, ext.depth);
        acc_t dac = acc3d(&D, mad_sat(D.pos.x, esz, 0), wb, ext.height, ext.depth);
        if (S.has_ptr && !S.a) fit(&S.r, sac.span);
        if (D.has_ptr && !D.a) fit(&D.r, dac.span);
        /* A pointer given next to an array is the program's pageable memory (above). */
        if (!S.has_ptr || S.a) sac.span = 0;
        if (!D.has_ptr || D.a) dac.span = 0;
        size_t ssp = sac.span, dsp = dac.span;
        if (!safe_ref(&S.r, sr, sac, 0) || !safe_ref(&D.r, dr, dac, 1)) continue;
        if (S.has_ptr && D.has_ptr && overlap(&S.r, 0, ssp, &D.r, 0, dsp)) continue;
        /* With both arrays the same, the boxes must not meet. */
        if (S.a && S.a == D.a) continue;
        break;
    }
    if (t == TRIES) {
        fallback();
        return;
    }
    end3_desc(&S, "src");
    end3_desc(&D, "dst");
    int sdev = 0, ddev = 0;
    if (peer) {
        if (chance(12)) sdev = (int)ONE_OF(-1, 1, 99);
        if (chance(12)) ddev = (int)ONE_OF(-1, 1, 99);
    }
    int p = pt();
    sref_t st = {0, ""};
    if (async) st = pick_stream();
    if (shape == 3) {
        out("NULL");
    } else if (peer) {
        out("{%s, %d, %s, %d, extent {%zu, %zu, %zu}}", S.desc, sdev, D.desc, ddev, ext.width, ext.height, ext.depth);
    } else {
        out("{%s, %s, extent {%zu, %zu, %zu}, %s}", S.desc, D.desc, ext.width, ext.height, ext.depth, kind_str(kind));
    }
    if (async) out(", %s", st.name);
    if (peer) {
        struct cudaMemcpy3DPeerParms q;
        memset(&q, 0, sizeof q);
        q.srcArray = S.a ? S.a->arr : NULL;
        q.srcPos = S.pos;
        q.srcPtr = S.pp;
        q.srcPtr.ptr = S.has_ptr ? ref_ptr(&S.r) : NULL;
        q.srcDevice = sdev;
        q.dstArray = D.a ? D.a->arr : NULL;
        q.dstPos = D.pos;
        q.dstPtr = D.pp;
        q.dstPtr.ptr = D.has_ptr ? ref_ptr(&D.r) : NULL;
        q.dstDevice = ddev;
        q.extent = ext;
        const struct cudaMemcpy3DPeerParms *qp = shape == 3 ? NULL : &q;
        if (async && p) CALL("cudaMemcpy3DPeerAsync_ptsz", cudaMemcpy3DPeerAsync_ptsz(qp, st.s));
        else if (async) CALL("cudaMemcpy3DPeerAsync", cudaMemcpy3DPeerAsync(qp, st.s));
        else if (p) CALL("cudaMemcpy3DPeer_ptds", cudaMemcpy3DPeer_ptds(qp));
        else CALL("cudaMemcpy3DPeer", cudaMemcpy3DPeer(qp));
    } else {
        struct cudaMemcpy3DParms q;
        memset(&q, 0, sizeof q);
        q.srcArray = S.a ? S.a->arr : NULL;
        q.srcPos = S.pos;
        q.srcPtr = S.pp;
        q.srcPtr.ptr = S.has_ptr ? ref_ptr(&S.r) : NULL;
        q.dstArray = D.a ? D.a->arr : NULL;
        q.dstPos = D.pos;
        q.dstPtr = D.pp;
        q.dstPtr.ptr = D.has_ptr ? ref_ptr(&D.r) : NULL;
        q.extent = ext;
        q.kind = (enum cudaMemcpyKind)kind;
        const struct cudaMemcpy3DParms *qp = shape == 3 ? NULL : &q;
        if (async && p) CALL("cudaMemcpy3DAsync_ptsz", cudaMemcpy3DAsync_ptsz(qp, st.s));
        else if (async) CALL("cudaMemcpy3DAsync", cudaMemcpy3DAsync(qp, st.s));
        else if (p) CALL("cudaMemcpy3D_ptds", cudaMemcpy3D_ptds(qp));
        else CALL("cudaMemcpy3D", cudaMemcpy3D(qp));
    }
    if (shape != 3 && ext.width && ext.height && ext.depth) {
        mend_t ms = mend3(&S, mad_sat(S.pos.x, esz, 0)), md = mend3(&D, mad_sat(D.pos.x, esz, 0));
        /* With a 1D layered array at the other end, the driver takes a pointer end's slices
         * (the array's layers) `height` rows apart, whatever its rows per slice say
         * (measured on the H100: a layer per 55-byte row from {dev#3, 55, 55, 7}). */
        if (!S.a && D.a && D.a->oned) ms.slice = mad_sat(S.pp.pitch, ext.height, 0);
        if (!D.a && S.a && S.a->oned) md.slice = mad_sat(D.pp.pitch, ext.height, 0);
        /* Where a pointer end with no pitch starts past its first row, or one with no rows
         * per slice past its first slice, the model does not know where the driver starts:
         * the destination is not modelled. */
        int unknown = (!S.a && ((S.pp.pitch == 0 && (S.pos.y || S.pos.z)) || (S.pp.ysize == 0 && S.pos.z))) ||
                      (!D.a && ((D.pp.pitch == 0 && (D.pos.y || D.pos.z)) || (D.pp.ysize == 0 && D.pos.z)));
        if (ret == cudaSuccess && (peer || valid_kind(kind))) {
            if (unknown) mark_unknown(md.o);
            else model_copy(md, ms, mad_sat(ext.width, esz, 0), ext.height, ext.depth);
        }
        sum_after(md.o);
    }
    end(ret, peek);
}

static void op_memcpy_peer(int async) {
    ref_t s, d;
    size_t n = 0;
    int t;
    for (t = 0; t < TRIES; t++) {
        s = pick_ref(R_DEV);
        d = pick_ref(R_DEV);
        size_t sroom = s.o && s.o->alive ? s.o->size - min_z(s.off, s.o->size) : 4096;
        size_t droom = d.o && d.o->alive ? d.o->size - min_z(d.off, d.o->size) : 4096;
        n = pick_len(min_z(sroom, droom), 1);
        if (safe_ref(&s, R_DEV, acc1(n), 0) && safe_ref(&d, R_DEV, acc1(n), 1) && !overlap(&s, 0, n, &d, 0, n)) break;
    }
    if (t == TRIES) {
        fallback();
        return;
    }
    int sdev = chance(88) ? 0 : (int)ONE_OF(-1, 1, 99);
    int ddev = chance(88) ? 0 : (int)ONE_OF(-1, 1, 99);
    if (async) {
        sref_t st = pick_stream();
        out("%s, %d, %s, %d, %zu, %s", d.name, ddev, s.name, sdev, n, st.name);
        CALL("cudaMemcpyPeerAsync", cudaMemcpyPeerAsync(ref_ptr(&d), ddev, ref_ptr(&s), sdev, n, st.s));
    } else {
        out("%s, %d, %s, %d, %zu", d.name, ddev, s.name, sdev, n);
        CALL("cudaMemcpyPeer", cudaMemcpyPeer(ref_ptr(&d), ddev, ref_ptr(&s), sdev, n));
    }
    if (n) {
        if (ret == cudaSuccess) model_copy(mend_ref(&d, 0, 0), mend_ref(&s, 0, 0), n, 1, 1);
        sum_after(d.o);
    }
    end(ret, peek);
}

/* ---- memsets */

static int pick_value(void) {
    int r = (int)below(100);
    if (r < 70) return (int)below(256);
    return (int)ONE_OF(-1, 256 + 7, 0x12345678, -200, 0x100);
}

static void op_memset(int async) {
    ref_t d;
    size_t n = 0;
    int t;
    for (t = 0; t < TRIES; t++) {
        d = pick_ref(R_DEV);
        size_t room = d.o && d.o->alive ? d.o->size - min_z(d.off, d.o->size) : 4096;
        n = pick_len(room, 1);
        if (safe_ref(&d, R_DEV, acc1(n), 1)) break;
    }
    if (t == TRIES) {
        fallback();
        return;
    }
    int v = pick_value(), p = pt();
    if (async) {
        sref_t st = pick_stream();
        out("%s, %d, %zu, %s", d.name, v, n, st.name);
        if (p) CALL("cudaMemsetAsync_ptsz", cudaMemsetAsync_ptsz(ref_ptr(&d), v, n, st.s));
        else CALL("cudaMemsetAsync", cudaMemsetAsync(ref_ptr(&d), v, n, st.s));
    } else {
        out("%s, %d, %zu", d.name, v, n);
        if (p) CALL("cudaMemset_ptds", cudaMemset_ptds(ref_ptr(&d), v, n));
        else CALL("cudaMemset", cudaMemset(ref_ptr(&d), v, n));
    }
    if (n) {
        if (ret == cudaSuccess) model_set(mend_ref(&d, 0, 0), v, n, 1, 1);
        sum_after(d.o);
    }
    end(ret, peek);
}

static void op_memset2d(int async) {
    ref_t d;
    size_t w = 0, h = 0, pitch = 0, sp = 0;
    int t;
    for (t = 0; t < TRIES; t++) {
        d = pick_ref(R_DEV);
        w = pick_w();
        h = pick_h();
        pitch = pick_pitch(d.o, w);
        acc_t a = acc2d(pitch, w, h);
        sp = a.span;
        fit(&d, sp);
        if (safe_ref(&d, R_DEV, a, 1)) break;
    }
    if (t == TRIES) {
        fallback();
        return;
    }
    int v = pick_value(), p = pt();
    if (async) {
        sref_t st = pick_stream();
        out("%s, %zu, %d, %zu, %zu, %s", d.name, pitch, v, w, h, st.name);
        if (p) CALL("cudaMemset2DAsync_ptsz", cudaMemset2DAsync_ptsz(ref_ptr(&d), pitch, v, w, h, st.s));
        else CALL("cudaMemset2DAsync", cudaMemset2DAsync(ref_ptr(&d), pitch, v, w, h, st.s));
    } else {
        out("%s, %zu, %d, %zu, %zu", d.name, pitch, v, w, h);
        if (p) CALL("cudaMemset2D_ptds", cudaMemset2D_ptds(ref_ptr(&d), pitch, v, w, h));
        else CALL("cudaMemset2D", cudaMemset2D(ref_ptr(&d), pitch, v, w, h));
    }
    if (w && h) {
        if (ret == cudaSuccess) model_set(mend_ref(&d, h == 1 ? 0 : pitch, 0), v, w, h, 1);
        sum_after(d.o);
    }
    end(ret, peek);
}

static void op_memset3d(int async) {
    end3_t e;
    struct cudaExtent ext = {0, 0, 0};
    size_t sp = 0;
    int t;
    for (t = 0; t < TRIES; t++) {
        ext.width = pick_w();
        ext.height = pick_h() % 9;
        ext.depth = (size_t)ONE_OF(0, 1, 1, 2, 3, 4);
        gen_end3(&e, R_DEV, 0, ext.width, ext.height, ext.depth);
        e.pos.x = e.pos.y = e.pos.z = 0;
        acc_t a = acc3d(&e, 0, ext.width, ext.height, ext.depth);
        sp = a.span;
        fit(&e.r, sp);
        if (safe_ref(&e.r, R_DEV, a, 1)) break;
    }
    if (t == TRIES) {
        fallback();
        return;
    }
    int v = pick_value(), p = pt();
    struct cudaPitchedPtr pp = e.pp;
    pp.ptr = ref_ptr(&e.r);
    out("{%s, %zu, %zu, %zu}, %d, {%zu, %zu, %zu}", e.r.name, pp.pitch, pp.xsize, pp.ysize, v, ext.width, ext.height, ext.depth);
    if (async) {
        sref_t st = pick_stream();
        out(", %s", st.name);
        if (p) CALL("cudaMemset3DAsync_ptsz", cudaMemset3DAsync_ptsz(pp, v, ext, st.s));
        else CALL("cudaMemset3DAsync", cudaMemset3DAsync(pp, v, ext, st.s));
    } else {
        if (p) CALL("cudaMemset3D_ptds", cudaMemset3D_ptds(pp, v, ext));
        else CALL("cudaMemset3D", cudaMemset3D(pp, v, ext));
    }
    if (ext.width && ext.height && ext.depth) {
        if (ret == cudaSuccess) {
            mend_t m = mend_ref(&e.r, pp.pitch, mad_sat(pp.pitch, pp.ysize, 0));
            if (ext.height == 1 && ext.depth == 1) m.pitch = 0;
            model_set(m, v, ext.width, ext.height, ext.depth);
        } else if (ret == cudaErrorInvalidValue && ext.depth > 1 && pp.ysize != ext.height) {
            /* Slices that do not follow each other are set one by one: those before the one
             * the driver refuses are set. */
            mark_unknown(e.r.o);
        }
        sum_after(e.r.o);
    }
    end(ret, peek);
}

/* ---- unified memory */

static ref_t pick_um_ref(size_t *count) {
    ref_t r;
    static const int w[CL_N] = {5, 8, 5, 5, 60, 8};
    obj_t *o = pick_obj(w);
    /* Freed host memory is unmapped: not given to calls that may migrate pages. */
    if (o && !o->alive && o->kind == K_PINNED) o = NULL;
    size_t off = 0;
    if (o && chance(20)) off = chance(50) ? below(o->size + 1) : min_z(o->size, 4096 * below(4));
    ref_set(&r, o, off);
    size_t room = o ? (o->size > off ? o->size - off : 0) : 4096;
    int past = !o || o->kind == K_MANAGED || o->kind == K_DEV || !o->alive;
    *count = pick_len(room, past);
    return r;
}

static const char *advice_str(int a) {
    static char b[24];
    static const char *n[] = {NULL, "SetReadMostly", "UnsetReadMostly", "SetPreferredLocation", "UnsetPreferredLocation", "SetAccessedBy", "UnsetAccessedBy"};
    if (a >= 1 && a <= 6) return n[a];
    snprintf(b, sizeof b, "advice(%d)", a);
    return b;
}
static int pick_advice(void) { return chance(92) ? 1 + (int)below(6) : (int)ONE_OF(0, 7, 99, -1); }

#if CUDART_VERSION < 13000
/* A device ordinal as CUDA 12 takes them: 0, cudaCpuDeviceId, or an invalid one. */
static int pick_device_ordinal(void) {
    int r = (int)below(100);
    if (r < 55) return 0;
    if (r < 80) return cudaCpuDeviceId;
    return (int)ONE_OF(cudaInvalidDeviceId, 1, 99, -3);
}
#endif

static struct cudaMemLocation pick_location(char *name, size_t n) {
    struct cudaMemLocation l;
    memset(&l, 0, sizeof l);
    int r = (int)below(100);
    if (r < 50) {
        l.type = cudaMemLocationTypeDevice;
        l.id = 0;
    } else if (r < 75) {
        l.type = cudaMemLocationTypeHost;
        l.id = 0;
    } else if (r < 80) {
        l.type = cudaMemLocationTypeDevice;
        l.id = (int)ONE_OF(1, 99, -1);
    } else if (r < 85) {
        l.type = cudaMemLocationTypeHostNuma;
        l.id = (int)ONE_OF(0, 0, 7);
    } else if (r < 89) {
        l.type = cudaMemLocationTypeHostNumaCurrent;
        l.id = 0;
    } else if (r < 93) {
        l.type = cudaMemLocationTypeHost;
        l.id = 5;
    } else {
        l.type = (enum cudaMemLocationType)ONE_OF(0, 99, -1);
        l.id = 0;
    }
    switch ((int)l.type) {
    case cudaMemLocationTypeDevice: snprintf(name, n, "{Device, %d}", l.id); break;
    case cudaMemLocationTypeHost: snprintf(name, n, "{Host, %d}", l.id); break;
    case cudaMemLocationTypeHostNuma: snprintf(name, n, "{HostNuma, %d}", l.id); break;
    case cudaMemLocationTypeHostNumaCurrent: snprintf(name, n, "{HostNumaCurrent, %d}", l.id); break;
    default: snprintf(name, n, "{type(%d), %d}", (int)l.type, l.id); break;
    }
    return l;
}

static void op_mem_advise(int v2) {
    size_t n;
    ref_t r = pick_um_ref(&n);
    int a = pick_advice();
    char ln[48];
#if CUDART_VERSION >= 13000
    (void)v2;
    struct cudaMemLocation l = pick_location(ln, sizeof ln);
    out("%s, %zu, %s, %s", r.name, n, advice_str(a), ln);
    CALL("cudaMemAdvise", cudaMemAdvise(ref_ptr(&r), n, (enum cudaMemoryAdvise)a, l));
#else
    if (v2) {
        struct cudaMemLocation l = pick_location(ln, sizeof ln);
        out("%s, %zu, %s, %s", r.name, n, advice_str(a), ln);
        CALL("cudaMemAdvise_v2", cudaMemAdvise_v2(ref_ptr(&r), n, (enum cudaMemoryAdvise)a, l));
    } else {
        int dev = pick_device_ordinal();
        out("%s, %zu, %s, %d", r.name, n, advice_str(a), dev);
        CALL("cudaMemAdvise", cudaMemAdvise(ref_ptr(&r), n, (enum cudaMemoryAdvise)a, dev));
    }
#endif
    end(ret, peek);
}

static void op_mem_prefetch(int v2) {
    size_t n;
    ref_t r = pick_um_ref(&n);
    sref_t st = pick_stream();
    int p = pt();
    char ln[48];
#if CUDART_VERSION >= 13000
    (void)v2;
    struct cudaMemLocation l = pick_location(ln, sizeof ln);
    unsigned fl = chance(92) ? 0 : (unsigned)ONE_OF(1, 2, 0x80);
    out("%s, %zu, %s, %u, %s", r.name, n, ln, fl, st.name);
    if (p) CALL("cudaMemPrefetchAsync_ptsz", cudaMemPrefetchAsync_ptsz(ref_ptr(&r), n, l, fl, st.s));
    else CALL("cudaMemPrefetchAsync", cudaMemPrefetchAsync(ref_ptr(&r), n, l, fl, st.s));
#else
    if (v2) {
        struct cudaMemLocation l = pick_location(ln, sizeof ln);
        unsigned fl = chance(92) ? 0 : (unsigned)ONE_OF(1, 2, 0x80);
        out("%s, %zu, %s, %u, %s", r.name, n, ln, fl, st.name);
        if (p) CALL("cudaMemPrefetchAsync_v2_ptsz", cudaMemPrefetchAsync_v2_ptsz(ref_ptr(&r), n, l, fl, st.s));
        else CALL("cudaMemPrefetchAsync_v2", cudaMemPrefetchAsync_v2(ref_ptr(&r), n, l, fl, st.s));
    } else {
        int dev = pick_device_ordinal();
        out("%s, %zu, %d, %s", r.name, n, dev, st.name);
        if (p) CALL("cudaMemPrefetchAsync_ptsz", cudaMemPrefetchAsync_ptsz(ref_ptr(&r), n, dev, st.s));
        else CALL("cudaMemPrefetchAsync", cudaMemPrefetchAsync(ref_ptr(&r), n, dev, st.s));
    }
#endif
    end(ret, peek);
}

static const char *range_attr_str(int a) {
    static char b[8][32];
    static int i;
    static const char *n[] = {NULL, "ReadMostly", "PreferredLocation", "AccessedBy", "LastPrefetchLocation",
                              "PreferredLocationType", "PreferredLocationId", "LastPrefetchLocationType", "LastPrefetchLocationId"};
    if (a >= 1 && a <= 8) return n[a];
    i = (i + 1) % 8;
    snprintf(b[i], sizeof b[i], "attribute(%d)", a);
    return b[i];
}
static int pick_range_attr(void) { return chance(93) ? 1 + (int)below(8) : (int)ONE_OF(0, 9, 99); }
static size_t pick_range_size(int a) {
    int r = (int)below(100);
    if (a == 3) return r < 80 ? 4 * (1 + below(4)) : (size_t)ONE_OF(0, 2, 6, 3);
    return r < 85 ? 4 : (size_t)ONE_OF(0, 3, 8, 2, 16);
}
static void print_ints(const int *v, size_t bytes) {
    out(" {");
    for (size_t k = 0; k < bytes / 4; k++) out("%s%d", k ? ", " : "", v[k]);
    out("}");
}

static void op_range_attribute(void) {
    size_t n;
    ref_t r = pick_um_ref(&n);
    int a = pick_range_attr();
    size_t ds = pick_range_size(a);
    int data[16];
    for (int k = 0; k < 16; k++) data[k] = 0x7a7a7a7a;
    int null_data = chance(3);
    out("%s, %zu, %s, %s, %zu", null_data ? "NULL" : "&data", ds, range_attr_str(a), r.name, n);
    CALL("cudaMemRangeGetAttribute", cudaMemRangeGetAttribute(null_data ? NULL : data, ds, (enum cudaMemRangeAttribute)a, ref_ptr(&r), n));
    if (ret == cudaSuccess && !null_data) {
        out(";");
        print_ints(data, ds);
    }
    end(ret, peek);
}

static void op_range_attributes(void) {
    size_t n;
    ref_t r = pick_um_ref(&n);
    size_t num = chance(8) ? 0 : 1 + below(4);
    int vals[4][16];
    void *datas[4];
    size_t sizes[4];
    enum cudaMemRangeAttribute attrs[4];
    for (size_t k = 0; k < 4; k++) {
        int a = pick_range_attr();
        attrs[k] = (enum cudaMemRangeAttribute)a;
        sizes[k] = pick_range_size(a);
        for (int j = 0; j < 16; j++) vals[k][j] = 0x7a7a7a7a;
        datas[k] = vals[k];
    }
    int nd = chance(3), ns = chance(3), na = chance(3);
    out("%s, %s, {", nd ? "NULL" : "data", ns ? "NULL" : "sizes");
    for (size_t k = 0; k < num; k++) out("%s%s/%zu", k ? ", " : "", range_attr_str((int)attrs[k]), sizes[k]);
    out("}%s, %zu, %s, %zu", na ? " (NULL)" : "", num, r.name, n);
    CALL("cudaMemRangeGetAttributes", cudaMemRangeGetAttributes(nd ? NULL : datas, ns ? NULL : sizes, na ? NULL : attrs, num, ref_ptr(&r), n));
    if (ret == cudaSuccess && !nd) {
        out(";");
        for (size_t k = 0; k < num; k++) print_ints(vals[k], min_z(sizes[k], 64));
    }
    end(ret, peek);
}

/* ---- arrays */

typedef struct {
    int x, y, z, w, f;
    int valid;
} fmt_t;
static const fmt_t FORMATS[] = {
    {8, 0, 0, 0, cudaChannelFormatKindUnsigned, 1},    {16, 0, 0, 0, cudaChannelFormatKindSigned, 1},
    {32, 0, 0, 0, cudaChannelFormatKindFloat, 1},      {8, 8, 8, 8, cudaChannelFormatKindUnsigned, 1},
    {32, 32, 0, 0, cudaChannelFormatKindFloat, 1},     {32, 32, 32, 32, cudaChannelFormatKindFloat, 1},
    {16, 16, 0, 0, cudaChannelFormatKindUnsigned, 1},  {24, 0, 0, 0, cudaChannelFormatKindUnsigned, 0},
    {8, 16, 0, 0, cudaChannelFormatKindUnsigned, 0},   {0, 0, 0, 0, cudaChannelFormatKindUnsigned, 0},
    {8, 0, 0, 0, cudaChannelFormatKindFloat, 0},       {8, 0, 0, 0, 99, 0},
};
static const fmt_t *pick_format(void) {
    size_t n = sizeof FORMATS / sizeof FORMATS[0];
    return chance(88) ? &FORMATS[below(7)] : &FORMATS[7 + below(n - 7)];
}

static void new_array(cudaArray_t a, const fmt_t *f, size_t w, size_t h, size_t d, unsigned flags) {
    stale_freed();
    obj_t *o = new_obj(K_ARRAY);
    o->alive = 1;
    o->arr = a;
    o->esz = (size_t)(f->x + f->y + f->z + f->w) / 8;
    o->aw = w;
    o->ah = h ? h : 1;
    o->ad = d ? d : 1;
    o->oned = !h;
    o->flags = flags;
    o->size = o->aw * o->ah * o->ad * o->esz;
    char nm[48];
    obj_name(nm, sizeof nm, o);
    out("; -> %s", nm);
    if (!o->esz || !w) return;
    init_obj(o);
}

static void op_malloc_array(int three) {
    const fmt_t *f = pick_format();
    struct cudaChannelFormatDesc desc;
    memset(&desc, 0, sizeof desc);
    desc.x = f->x;
    desc.y = f->y;
    desc.z = f->z;
    desc.w = f->w;
    desc.f = (enum cudaChannelFormatKind)f->f;
    int null_out = chance(3), null_desc = chance(2);
    cudaArray_t a = NULL;
    size_t w = (size_t)ONE_OF(0, 1, 5, 16, 33, 64), h = (size_t)ONE_OF(0, 1, 3, 16, 40), d = 0;
    unsigned fl;
    if (three) {
        d = (size_t)ONE_OF(0, 1, 2, 6, 8);
        int r = (int)below(100);
        if (r < 60) fl = 0;
        else if (r < 72) fl = cudaArrayLayered;
        else if (r < 80) fl = cudaArraySurfaceLoadStore;
        else if (r < 88) {
            fl = cudaArrayCubemap;
            h = w;
            d = chance(80) ? 6 : d;
        } else if (r < 92) fl = cudaArrayTextureGather;
        else fl = (unsigned)ONE_OF(cudaArrayLayered | cudaArrayCubemap, 0x1000, 0x200);
        out("%s, %s {%d, %d, %d, %d, %d}, {%zu, %zu, %zu}, %s", null_out ? "NULL" : "&a", null_desc ? "NULL" : "&desc",
            f->x, f->y, f->z, f->w, f->f, w, h, d, flag_str(fl, ARRAY_FLAGS, 4));
        struct cudaExtent e = {w, h, d};
        CALL("cudaMalloc3DArray", cudaMalloc3DArray(null_out ? NULL : &a, null_desc ? NULL : &desc, e, fl));
    } else {
        int r = (int)below(100);
        fl = r < 75 ? 0 : r < 87 ? cudaArraySurfaceLoadStore : r < 92 ? cudaArrayTextureGather : (unsigned)ONE_OF(cudaArrayLayered, 0x1000);
        out("%s, %s {%d, %d, %d, %d, %d}, %zu, %zu, %s", null_out ? "NULL" : "&a", null_desc ? "NULL" : "&desc",
            f->x, f->y, f->z, f->w, f->f, w, h, flag_str(fl, ARRAY_FLAGS, 4));
        CALL("cudaMallocArray", cudaMallocArray(null_out ? NULL : &a, null_desc ? NULL : &desc, w, h, fl));
    }
    if (ret == cudaSuccess && !null_out && a) new_array(a, f, w, h, d, fl);
    end(ret, peek);
}

static obj_t *pick_array_or_null(void) { return chance(90) ? pick_array() : NULL; }

static void op_free_array(void) {
    obj_t *a = pick_array_or_null();
    char nm[48] = "NULL";
    if (a) obj_name(nm, sizeof nm, a);
    out("%s", nm);
    CALL("cudaFreeArray", cudaFreeArray(a ? a->arr : NULL));
    if (ret == cudaSuccess && a) kill_obj(a, 0);
    end(ret, peek);
}

static void op_array_get_info(void) {
    obj_t *a = pick_array_or_null();
    char nm[48] = "NULL";
    if (a) obj_name(nm, sizeof nm, a);
    int nd = chance(5), ne = chance(5), nf = chance(5);
    struct cudaChannelFormatDesc desc;
    struct cudaExtent e;
    unsigned fl = 0xdead;
    memset(&desc, 0x7f, sizeof desc);
    memset(&e, 0x7f, sizeof e);
    out("%s, %s, %s, %s", nd ? "NULL" : "&desc", ne ? "NULL" : "&extent", nf ? "NULL" : "&flags", nm);
    CALL("cudaArrayGetInfo", cudaArrayGetInfo(nd ? NULL : &desc, ne ? NULL : &e, nf ? NULL : &fl, a ? a->arr : NULL));
    if (ret == cudaSuccess) {
        if (!nd) out("; desc {%d, %d, %d, %d, %d}", desc.x, desc.y, desc.z, desc.w, (int)desc.f);
        if (!ne) out("; extent {%zu, %zu, %zu}", e.width, e.height, e.depth);
        if (!nf) out("; flags %s", flag_str(fl, ARRAY_FLAGS, 4));
    }
    end(ret, peek);
}

static void op_get_channel_desc(void) {
    obj_t *a = pick_array_or_null();
    char nm[48] = "NULL";
    if (a) obj_name(nm, sizeof nm, a);
    int nd = chance(5);
    struct cudaChannelFormatDesc desc;
    memset(&desc, 0x7f, sizeof desc);
    out("%s, %s", nd ? "NULL" : "&desc", nm);
    CALL("cudaGetChannelDesc", cudaGetChannelDesc(nd ? NULL : &desc, a ? a->arr : NULL));
    if (ret == cudaSuccess && !nd) out("; desc {%d, %d, %d, %d, %d}", desc.x, desc.y, desc.z, desc.w, (int)desc.f);
    end(ret, peek);
}

/* A 2D region of an array: byte x offset, row, byte width and rows, mostly inside. */
static void pick_array_region(const obj_t *a, size_t *x, size_t *y, size_t *wb, size_t *h) {
    size_t row = a ? a->aw * a->esz : 64, rows = a ? a->ah * a->ad : 4, e = a ? a->esz : 1;
    size_t we = a ? a->aw : 64;
    size_t cw = chance(8) ? 0 : 1 + below(we);
    *wb = cw * e;
    if (chance(5) && *wb) *wb += 1; /* not a whole element */
    if (chance(4)) *wb = row + e;    /* wider than a row */
    *x = chance(60) ? 0 : below(we - min_z(cw, we) + 1) * e;
    if (chance(4)) *x += 1;
    if (chance(3)) *x = row;
    *h = chance(8) ? 0 : chance(30) ? 1 : 1 + below(rows);
    *y = chance(60) ? 0 : below(rows - min_z(*h, rows) + 1);
    if (chance(4)) *y = rows;
}

/* The model end of a 2D region of an array at byte x, row y. */
static mend_t mend_array(obj_t *a, size_t x, size_t y) {
    mend_t m = {a, 0, 0, 0};
    if (!a) return m;
    m.pitch = a->aw * a->esz;
    m.base = mad_sat(y, m.pitch, x);
    return m;
}

static void arr_name(char *b, size_t n, const obj_t *a) {
    if (a) obj_name(b, n, a);
    else snprintf(b, n, "NULL");
}

/* cudaMemcpy2DToArray(Async) (to=1) and cudaMemcpy2DFromArray(Async) (to=0). */
static void op_2d_array(int to, int async) {
    int kind = 0, sr, dr, t;
    obj_t *a = NULL;
    ref_t r;
    size_t x = 0, y = 0, wb = 0, h = 0, pitch = 0, sp = 0;
    for (t = 0; t < TRIES; t++) {
        int k = (int)below(100);
        kind = k < 60 ? (to ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost) : k < 75 ? cudaMemcpyDefault : k < 88 ? cudaMemcpyDeviceToDevice : pick_kind();
        roles(kind, &sr, &dr);
        a = pick_array_or_null();
        pick_array_region(a, &x, &y, &wb, &h);
        int role = to ? sr : dr;
        r = pick_ref(role);
        pitch = pick_pitch(r.o, wb);
        /* NVIDIA's runtime positions a device or unified end of one row at (0 % pitch,
         * 0 / pitch) and dies of SIGFPE for a pitch of 0:
         * cudaMemcpy2DToArray(array#0, 0, 0, managed#1, 0, 5, 1, DeviceToDevice). */
        if (!pitch && h == 1 && wb && (kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault)) pitch = wb;
        acc_t ac = acc2d(pitch, wb, h);
        sp = ac.span;
        fit(&r, sp);
        if (safe_ref(&r, role, ac, !to)) break;
    }
    if (t == TRIES) {
        fallback();
        return;
    }
    char an[48];
    arr_name(an, sizeof an, a);
    int p = pt();
    sref_t st = {0, ""};
    if (async) st = pick_stream();
    if (to) {
        out("%s, %zu, %zu, %s, %zu, %zu, %zu, %s", an, x, y, r.name, pitch, wb, h, kind_str(kind));
        if (async) out(", %s", st.name);
        if (async && p) CALL("cudaMemcpy2DToArrayAsync_ptsz", cudaMemcpy2DToArrayAsync_ptsz(a ? a->arr : NULL, x, y, ref_ptr(&r), pitch, wb, h, (enum cudaMemcpyKind)kind, st.s));
        else if (async) CALL("cudaMemcpy2DToArrayAsync", cudaMemcpy2DToArrayAsync(a ? a->arr : NULL, x, y, ref_ptr(&r), pitch, wb, h, (enum cudaMemcpyKind)kind, st.s));
        else if (p) CALL("cudaMemcpy2DToArray_ptds", cudaMemcpy2DToArray_ptds(a ? a->arr : NULL, x, y, ref_ptr(&r), pitch, wb, h, (enum cudaMemcpyKind)kind));
        else CALL("cudaMemcpy2DToArray", cudaMemcpy2DToArray(a ? a->arr : NULL, x, y, ref_ptr(&r), pitch, wb, h, (enum cudaMemcpyKind)kind));
        if (wb && h) {
            if (ret == cudaSuccess) model_copy(mend_array(a, x, y), mend_ref(&r, h == 1 ? 0 : pitch, 0), wb, h, 1);
            sum_after(a);
        }
    } else {
        out("%s, %zu, %s, %zu, %zu, %zu, %zu, %s", r.name, pitch, an, x, y, wb, h, kind_str(kind));
        if (async) out(", %s", st.name);
        if (async && p) CALL("cudaMemcpy2DFromArrayAsync_ptsz", cudaMemcpy2DFromArrayAsync_ptsz(ref_ptr(&r), pitch, a ? a->arr : NULL, x, y, wb, h, (enum cudaMemcpyKind)kind, st.s));
        else if (async) CALL("cudaMemcpy2DFromArrayAsync", cudaMemcpy2DFromArrayAsync(ref_ptr(&r), pitch, a ? a->arr : NULL, x, y, wb, h, (enum cudaMemcpyKind)kind, st.s));
        else if (p) CALL("cudaMemcpy2DFromArray_ptds", cudaMemcpy2DFromArray_ptds(ref_ptr(&r), pitch, a ? a->arr : NULL, x, y, wb, h, (enum cudaMemcpyKind)kind));
        else CALL("cudaMemcpy2DFromArray", cudaMemcpy2DFromArray(ref_ptr(&r), pitch, a ? a->arr : NULL, x, y, wb, h, (enum cudaMemcpyKind)kind));
        if (wb && h) {
            if (ret == cudaSuccess) model_copy(mend_ref(&r, h == 1 ? 0 : pitch, 0), mend_array(a, x, y), wb, h, 1);
            /* One row to a pointer with a pitch of 2^32 or more: the H100's driver writes
             * something else than the row (not understood), so the model does not claim it. */
            if (ret == cudaSuccess && h == 1 && pitch >= ((size_t)1 << 32)) mark_unknown(r.o);
            sum_after(r.o);
        }
    }
    end(ret, peek);
}

static void op_2d_array_to_array(void) {
    obj_t *s = pick_array_or_null(), *d = pick_array_or_null();
    if (s && s == d) d = pick_array_or_null();
    size_t sx, sy, dx, dy, wb, h, wb2, h2;
    pick_array_region(s, &sx, &sy, &wb, &h);
    pick_array_region(d, &dx, &dy, &wb2, &h2);
    if (chance(50)) {
        wb = min_z(wb, wb2);
        h = min_z(h, h2);
    }
    if (s && s == d) {
        /* The same array at both ends: regions that do not meet (or a refused call). */
        sy = 0;
        dy = h;
    }
    int kind = chance(80) ? cudaMemcpyDeviceToDevice : chance(50) ? cudaMemcpyDefault : pick_kind();
    char sn[48], dn[48];
    arr_name(sn, sizeof sn, s);
    arr_name(dn, sizeof dn, d);
    int p = pt();
    out("%s, %zu, %zu, %s, %zu, %zu, %zu, %zu, %s", dn, dx, dy, sn, sx, sy, wb, h, kind_str(kind));
    if (p) CALL("cudaMemcpy2DArrayToArray_ptds", cudaMemcpy2DArrayToArray_ptds(d ? d->arr : NULL, dx, dy, s ? s->arr : NULL, sx, sy, wb, h, (enum cudaMemcpyKind)kind));
    else CALL("cudaMemcpy2DArrayToArray", cudaMemcpy2DArrayToArray(d ? d->arr : NULL, dx, dy, s ? s->arr : NULL, sx, sy, wb, h, (enum cudaMemcpyKind)kind));
    if (wb && h) {
        if (ret == cudaSuccess && valid_kind(kind)) model_copy(mend_array(d, dx, dy), mend_array(s, sx, sy), wb, h, 1);
        sum_after(d);
    }
    end(ret, peek);
}

/* The driver copies NVIDIA's runtime makes of a deprecated linear copy of `count` bytes
 * from (x bytes, row y) of an array of `row` bytes a row (src/api/array.rs does the same):
 * from x > 0, the rest of that row if the count reaches its end; then the whole rows the rest
 * holds; then what is left as one row, at the position reached. Each is `h` rows of `w`
 * bytes at (x, y) of the array and `off` bytes from the pointer, whose rows are `row` bytes
 * apart. The runtime checks no bounds: the driver refuses the first copy that leaves the
 * array or the pointer's object, after those before it were made. Sizes wrap as theirs. */
typedef struct {
    size_t x, y, w, h, off;
} lstep_t;

static int linear_steps(size_t row, size_t x, size_t y, size_t count, lstep_t st[3]) {
    int n = 0;
    size_t copied = 0;
    if (!row) return 0;
    size_t rest = row - x;
    if (x > 0 && count >= rest) {
        lstep_t a = {x, y, rest, 1, 0};
        st[n++] = a;
        copied = rest;
        y++;
        x = 0;
    }
    if (count - copied >= row) {
        size_t rows = (count - copied) / row;
        lstep_t a = {x, y, row, rows, copied};
        st[n++] = a;
        copied += rows * row;
        y += rows;
        x = 0;
    }
    if (count - copied > 0) {
        lstep_t a = {x, y, count - copied, 1, copied};
        st[n++] = a;
    }
    return n;
}

/* Whether the driver makes a step: inside the array's first slice (rows `a->ah`, one for a
 * 1D array) and inside the pointer's object (NULL and anything outside are refused). An
 * empty step (the rest of a row that ends where the copy starts) copies nothing. */
static int step_ok(const obj_t *a, const lstep_t *st, const obj_t *m, size_t moff) {
    size_t row = a->aw * a->esz;
    if (!st->w || !st->h) return 1;
    if (!m || !m->alive) return 0;
    if (st->x > row || st->w > row - st->x || st->y > a->ah || st->h > a->ah - st->y) return 0;
    size_t start = moff + st->off, span = mad_sat(st->h - 1, row, st->w);
    return start >= moff && start <= m->size && span <= m->size - start;
}

/* Applies to the model the steps the driver makes of a linear copy between the array `a`
 * and `m` (`moff` bytes in), to the array when `to`. */
static void model_linear(int to, obj_t *a, size_t x, size_t y, obj_t *m, size_t moff, size_t count) {
    lstep_t st[3];
    size_t row = a->aw * a->esz;
    int n = linear_steps(row, x, y, count, st);
    for (int k = 0; k < n; k++) {
        if (!step_ok(a, &st[k], m, moff)) return;
        if (!st[k].w || !st[k].h) continue;
        mend_t me = {m, moff + st[k].off, row, 0};
        if (to) model_copy(mend_array(a, st[k].x, st[k].y), me, st[k].w, st[k].h, 1);
        else model_copy(me, mend_array(a, st[k].x, st[k].y), st[k].w, st[k].h, 1);
    }
}

/* Whether a deprecated linear copy that returned `ret` made its driver copies: the kind
 * names the pointer's side and the device at the array's (both device for ArrayToArray,
 * `which` 2), and the result is success or the driver's refusal of one of them. */
static int linear_copied(cudaError_t e, int kind, int which) {
    if (e != cudaSuccess && e != cudaErrorInvalidValue) return 0;
    if (kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault) return 1;
    return which == 0 ? kind == cudaMemcpyHostToDevice : which == 1 ? kind == cudaMemcpyDeviceToHost : 0;
}

/* Whether the model knows which of a refused linear copy's driver copies were made: the
 * pointer is memory of the side the kind names (host memory for HostToDevice and
 * DeviceToHost; device memory for DeviceToDevice; device or managed memory for Default).
 * Else a refusal may come from any of them (the memory type), and the pointer's or array's
 * object is not modelled. */
static int linear_known(const obj_t *m, int kind) {
    if (!m) return 1;
    int host = m->kind == K_PAGEABLE || m->kind == K_PINNED;
    if (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToHost) return host;
    if (kind == cudaMemcpyDeviceToDevice) return m->kind == K_DEV;
    return m->kind == K_DEV || m->kind == K_MANAGED;
}

/* The model after cudaMemcpyToArray (`to`) or FromArray of `n` bytes returned `e`. */
static void apply_linear(int to, cudaError_t e, int kind, obj_t *a, size_t x, size_t y, const ref_t *r, size_t n) {
    if (!a || !linear_copied(e, kind, to ? 0 : 1)) return;
    if (e != cudaSuccess && !linear_known(r->o, kind)) {
        mark_unknown(to ? a : r->o);
        return;
    }
    model_linear(to, a, x, y, r->o, r->off, n);
}

/* cudaMemcpyArrayToArray: the source's bytes to a device buffer as cudaMemcpyFromArray
 * copies them, then, if all of them were, to the destination as cudaMemcpyToArray does. */
static void model_array_to_array(obj_t *b, size_t bx, size_t by, obj_t *a, size_t x, size_t y, size_t n) {
    lstep_t st[3];
    size_t row = a->aw * a->esz;
    int k, ns = linear_steps(row, x, y, n, st);
    if (n > a->size || !a->model || !a->known) {
        mark_unknown(b);
        return;
    }
    obj_t tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.kind = K_DEV;
    tmp.alive = 1;
    tmp.size = n;
    tmp.known = 1;
    tmp.model = malloc(n ? n : 1);
    if (!tmp.model) {
        mark_unknown(b);
        return;
    }
    for (k = 0; k < ns && step_ok(a, &st[k], &tmp, 0); k++) {
        if (!st[k].w || !st[k].h) continue;
        mend_t me = {&tmp, st[k].off, row, 0};
        model_copy(me, mend_array(a, st[k].x, st[k].y), st[k].w, st[k].h, 1);
    }
    if (k == ns) model_linear(1, b, bx, by, &tmp, 0, n);
    free(tmp.model);
}

/* The deprecated linear copies: cudaMemcpyToArray (which 0), FromArray (1), ArrayToArray (2),
 * the first two also Async. `count` bytes fill the array's rows from (x bytes, row y) on,
 * in the driver copies [linear_steps] describes. */
static void op_linear_array(int which, int async) {
    int kind = 0, sr, dr, t;
    obj_t *a = NULL, *b = NULL;
    ref_t r;
    size_t x = 0, y = 0, bx = 0, by = 0, n = 0;
    memset(&r, 0, sizeof r);
    for (t = 0; t < TRIES; t++) {
        int k = (int)below(100);
        if (which == 2) kind = k < 80 ? cudaMemcpyDeviceToDevice : pick_kind();
        else kind = k < 60 ? (which == 0 ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost) : k < 75 ? cudaMemcpyDefault : pick_kind();
        roles(kind, &sr, &dr);
        a = pick_array_or_null();
        size_t wb, h;
        pick_array_region(a, &x, &y, &wb, &h);
        size_t room = a ? (a->size > mad_sat(y, a->aw * a->esz, x) ? a->size - mad_sat(y, a->aw * a->esz, x) : 0) : 256;
        n = pick_len(room, 1);
        if (which == 2) {
            b = pick_array_or_null();
            pick_array_region(b, &bx, &by, &wb, &h);
            if (a && a == b) continue;
            break;
        }
        int role = which == 0 ? sr : dr;
        r = pick_ref(role);
        fit(&r, n);
        if (safe_ref(&r, role, acc1(n), which == 1)) break;
    }
    if (t == TRIES) {
        fallback();
        return;
    }
    char an[48], bn[48];
    arr_name(an, sizeof an, a);
    arr_name(bn, sizeof bn, b);
    int p = pt();
    sref_t st = {0, ""};
    if (async) st = pick_stream();
    if (which == 0 && async) {
        out("%s, %zu, %zu, %s, %zu, %s, %s", an, x, y, r.name, n, kind_str(kind), st.name);
        if (p) CALL("cudaMemcpyToArrayAsync_ptsz", cudaMemcpyToArrayAsync_ptsz(a ? a->arr : NULL, x, y, ref_ptr(&r), n, (enum cudaMemcpyKind)kind, st.s));
        else CALL("cudaMemcpyToArrayAsync", cudaMemcpyToArrayAsync(a ? a->arr : NULL, x, y, ref_ptr(&r), n, (enum cudaMemcpyKind)kind, st.s));
        if (n) {
            apply_linear(1, ret, kind, a, x, y, &r, n);
            sum_after(a);
        }
    } else if (which == 1 && async) {
        out("%s, %s, %zu, %zu, %zu, %s, %s", r.name, an, x, y, n, kind_str(kind), st.name);
        if (p) CALL("cudaMemcpyFromArrayAsync_ptsz", cudaMemcpyFromArrayAsync_ptsz(ref_ptr(&r), a ? a->arr : NULL, x, y, n, (enum cudaMemcpyKind)kind, st.s));
        else CALL("cudaMemcpyFromArrayAsync", cudaMemcpyFromArrayAsync(ref_ptr(&r), a ? a->arr : NULL, x, y, n, (enum cudaMemcpyKind)kind, st.s));
        if (n) {
            apply_linear(0, ret, kind, a, x, y, &r, n);
            sum_after(r.o);
        }
    } else if (which == 0) {
        out("%s, %zu, %zu, %s, %zu, %s", an, x, y, r.name, n, kind_str(kind));
        if (p) CALL("cudaMemcpyToArray_ptds", cudaMemcpyToArray_ptds(a ? a->arr : NULL, x, y, ref_ptr(&r), n, (enum cudaMemcpyKind)kind));
        else CALL("cudaMemcpyToArray", cudaMemcpyToArray(a ? a->arr : NULL, x, y, ref_ptr(&r), n, (enum cudaMemcpyKind)kind));
        if (n) {
            apply_linear(1, ret, kind, a, x, y, &r, n);
            sum_after(a);
        }
    } else if (which == 1) {
        out("%s, %s, %zu, %zu, %zu, %s", r.name, an, x, y, n, kind_str(kind));
        if (p) CALL("cudaMemcpyFromArray_ptds", cudaMemcpyFromArray_ptds(ref_ptr(&r), a ? a->arr : NULL, x, y, n, (enum cudaMemcpyKind)kind));
        else CALL("cudaMemcpyFromArray", cudaMemcpyFromArray(ref_ptr(&r), a ? a->arr : NULL, x, y, n, (enum cudaMemcpyKind)kind));
        if (n) {
            apply_linear(0, ret, kind, a, x, y, &r, n);
            sum_after(r.o);
        }
    } else {
        /* ArrayToArray: a is the source, b the destination. */
        out("%s, %zu, %zu, %s, %zu, %zu, %zu, %s", bn, bx, by, an, x, y, n, kind_str(kind));
        if (p) CALL("cudaMemcpyArrayToArray_ptds", cudaMemcpyArrayToArray_ptds(b ? b->arr : NULL, bx, by, a ? a->arr : NULL, x, y, n, (enum cudaMemcpyKind)kind));
        else CALL("cudaMemcpyArrayToArray", cudaMemcpyArrayToArray(b ? b->arr : NULL, bx, by, a ? a->arr : NULL, x, y, n, (enum cudaMemcpyKind)kind));
        if (n) {
            if (linear_copied(ret, kind, 2) && a && b) model_array_to_array(b, bx, by, a, x, y, n);
            /* NVIDIA's runtime copies through a device buffer it allocates, and keeps when a
             * copy fails: freed addresses may be live again. */
            if (valid_kind(kind)) stale_freed();
            sum_after(b);
        }
    }
    end(ret, peek);
}

/* ---- streams, synchronisation, errors */

static void op_stream_create(void) {
    int with_flags = chance(70), null_out = chance(3);
    unsigned fl = chance(90) ? (unsigned)below(2) : (unsigned)ONE_OF(2, 0xff);
    cudaStream_t s = NULL;
    if (with_flags) {
        out("%s, %s", null_out ? "NULL" : "&s", flag_str(fl, STREAM_FLAGS, 1));
        CALL("cudaStreamCreateWithFlags", cudaStreamCreateWithFlags(null_out ? NULL : &s, fl));
    } else {
        fl = 0;
        out("%s", null_out ? "NULL" : "&s");
        CALL("cudaStreamCreate", cudaStreamCreate(null_out ? NULL : &s));
    }
    if (ret == cudaSuccess && !null_out) {
        stale_freed();
        obj_t *o = new_obj(K_STREAM);
        o->alive = 1;
        o->st = s;
        o->flags = fl;
        out("; -> stream#%d", o->id);
    }
    end(ret, peek);
}

static void op_stream_destroy(void) {
    obj_t *o = NULL;
    if (chance(90)) {
        int cand[MAX_OBJ], n = 0;
        for (int j = 0; j < nobj; j++)
            if (objs[j].kind == K_STREAM && objs[j].alive) cand[n++] = j;
        if (n) o = &objs[cand[below(n)]];
    }
    /* The special handles: refused, as ctest/stream_event.c shows. */
    cudaStream_t special = 0;
    if (o) {
        out("stream#%d", o->id);
    } else {
        int k = (int)below(3);
        special = k == 0 ? (cudaStream_t)0 : k == 1 ? cudaStreamLegacy : cudaStreamPerThread;
        out("%s", k == 0 ? "stream:null" : k == 1 ? "stream:legacy" : "stream:per-thread");
    }
    CALL("cudaStreamDestroy", cudaStreamDestroy(o ? o->st : special));
    /* Destroyed (or refused): never used again either way. */
    if (o) kill_obj(o, 0);
    end(ret, peek);
}

static void op_stream_attach(void) {
    sref_t st = pick_stream();
    static const int w[CL_N] = {5, 8, 5, 5, 60, 8};
    obj_t *o = pick_obj(w);
    if (o && !o->alive && o->kind == K_PINNED) o = NULL;
    ref_t r;
    ref_set(&r, o, o && chance(15) ? pick_off(o) : 0);
    size_t len = chance(60) ? 0 : o && chance(60) ? o->size - min_z(r.off, o->size) : (size_t)ONE_OF(1, 4096, 100);
    unsigned fl = chance(85) ? (unsigned)ONE_OF(cudaMemAttachGlobal, cudaMemAttachHost, cudaMemAttachSingle) : (unsigned)ONE_OF(0, 3, 8);
    /* No flags at all on managed memory kill NVIDIA's runtime (SIGSEGV in the driver:
     * cudaStreamAttachMemAsync(stream:null, managed#0, 0, 0)): another invalid value there. */
    if (fl == 0 && o && o->alive && o->kind == K_MANAGED) fl = 3;
    out("%s, %s, %zu, %s", st.name, r.name, len, flag_str(fl, ATTACH_FLAGS, 3));
    if (pt()) CALL("cudaStreamAttachMemAsync_ptsz", cudaStreamAttachMemAsync_ptsz(st.s, ref_ptr(&r), len, fl));
    else CALL("cudaStreamAttachMemAsync", cudaStreamAttachMemAsync(st.s, ref_ptr(&r), len, fl));
    end(ret, peek);
}

static void op_stream_sync(void) {
    sref_t st = pick_stream();
    out("%s", st.name);
    if (pt()) CALL("cudaStreamSynchronize_ptsz", cudaStreamSynchronize_ptsz(st.s));
    else CALL("cudaStreamSynchronize", cudaStreamSynchronize(st.s));
    end(ret, peek);
}

static void op_device_sync(void) {
    CALL("cudaDeviceSynchronize", cudaDeviceSynchronize());
    end(ret, peek);
}

static void op_get_last(void) {
    CALL("cudaGetLastError", cudaGetLastError());
    end(ret, peek);
}

static void op_peek(void) {
    CALL("cudaPeekAtLastError", cudaPeekAtLastError());
    end(ret, peek);
}

static void op_device_reset(void) {
    CALL("cudaDeviceReset", cudaDeviceReset());
    if (ret == cudaSuccess) {
        /* Everything the context held is gone; the program's pageable memory stays. */
        for (int k = 0; k < nobj; k++)
            if (objs[k].kind != K_PAGEABLE && objs[k].alive) kill_obj(&objs[k], 0);
        stale_freed();
        nreg = 0;
        faulted = 0;
    }
    end(ret, peek);
}

/* ---- faults */

/* Makes a context current (a printed cudaFree(NULL)), then launches a kernel that faults
 * (ctest/fault.h). Returns whether a kernel was launched. */
static int inject_fault(void) {
    out("NULL");
    CALL("cudaFree", cudaFree(NULL));
    out("; fault follows");
    end(ret, peek);
    int trap = chance(50);
    printf("-- fault after %d: %s: ", call_index, trap ? "trap" : "store to an unmapped address");
    if (!ft_init()) {
        printf("no driver API, skipped\n");
        return 0;
    }
    int r = ft_launch(trap ? FT_TRAP : FT_ILLEGAL_ADDRESS);
    if (r) {
        printf("driver result %d, skipped\n", r);
        return 0;
    }
    printf("launched\n");
    fflush(stdout);
    faulted = 1;
    stale_freed();
    return 1;
}

/* A call that waits for the faulting kernel (launched on the legacy default stream). */
static void op_sync_after_fault(void) {
    int r = (int)below(100);
    if (r < 40) {
        op_device_sync();
    } else if (r < 60) {
        out("stream:null");
        CALL("cudaStreamSynchronize", cudaStreamSynchronize(0));
        end(ret, peek);
    } else if (r < 75) {
        out("stream:legacy");
        CALL("cudaStreamSynchronize", cudaStreamSynchronize(cudaStreamLegacy));
        end(ret, peek);
    } else {
        obj_t *o = pick_of_class(CL_DEV);
        obj_t *h = pick_of_class(CL_PAGEABLE);
        if (!o) {
            op_device_sync();
            return;
        }
        ref_t s, d;
        ref_set(&s, o, 0);
        ref_set(&d, h, 0);
        size_t n = min_z(o->size, h->size);
        out("%s, %s, %zu, %s", d.name, s.name, n, kind_str(cudaMemcpyDeviceToHost));
        CALL("cudaMemcpy", cudaMemcpy(ref_ptr(&d), ref_ptr(&s), n, cudaMemcpyDeviceToHost));
        if (n) {
            if (ret == cudaSuccess) model_copy(mend_ref(&d, 0, 0), mend_ref(&s, 0, 0), n, 1, 1);
            sum_after(d.o);
        }
        end(ret, peek);
    }
}

/* ------------------------------------------------------------------------------ main */

enum {
    OP_MALLOC, OP_MALLOC_PITCH, OP_MALLOC_3D, OP_MALLOC_MANAGED, OP_MALLOC_HOST, OP_HOST_ALLOC,
    OP_FREE, OP_FREE_HOST, OP_HOST_REGISTER, OP_HOST_UNREGISTER, OP_HOST_GET_DEVPTR,
    OP_HOST_GET_FLAGS, OP_MEM_GET_INFO, OP_PTR_ATTRS, OP_MEMCPY, OP_MEMCPY_ASYNC, OP_MEMCPY2D,
    OP_MEMCPY2D_ASYNC, OP_MEMCPY3D, OP_MEMCPY3D_ASYNC, OP_PEER, OP_PEER_ASYNC, OP_PEER3D,
    OP_PEER3D_ASYNC, OP_MEMSET, OP_MEMSET_ASYNC, OP_MEMSET2D, OP_MEMSET2D_ASYNC, OP_MEMSET3D,
    OP_MEMSET3D_ASYNC, OP_ADVISE, OP_ADVISE_V2, OP_PREFETCH, OP_PREFETCH_V2, OP_RANGE_ATTR,
    OP_RANGE_ATTRS, OP_MALLOC_ARRAY, OP_MALLOC_3D_ARRAY, OP_FREE_ARRAY, OP_ARRAY_INFO,
    OP_TO_ARRAY, OP_TO_ARRAY_ASYNC, OP_FROM_ARRAY, OP_FROM_ARRAY_ASYNC, OP_ARRAY_TO_ARRAY,
    OP_TO_ARRAY_LINEAR, OP_FROM_ARRAY_LINEAR, OP_ARRAY_TO_ARRAY_LINEAR, OP_TO_ARRAY_LINEAR_ASYNC,
    OP_FROM_ARRAY_LINEAR_ASYNC, OP_CHANNEL_DESC, OP_STREAM_CREATE, OP_STREAM_DESTROY,
    OP_STREAM_ATTACH, OP_STREAM_SYNC, OP_DEVICE_SYNC, OP_GET_LAST, OP_PEEK, OP_COUNT
};

static int op_weight(int op) {
    switch (op) {
    case OP_MALLOC: return count_alive(K_DEV) < CAP_DEV ? 6 : 0;
    case OP_MALLOC_PITCH: return count_alive(K_DEV) < CAP_DEV ? 3 : 0;
    case OP_MALLOC_3D: return count_alive(K_DEV) < CAP_DEV ? 3 : 0;
    case OP_MALLOC_MANAGED: return count_alive(K_MANAGED) < CAP_MANAGED ? 3 : 0;
    case OP_MALLOC_HOST: return count_alive(K_PINNED) < CAP_PINNED ? 2 : 0;
    case OP_HOST_ALLOC: return count_alive(K_PINNED) < CAP_PINNED ? 2 : 0;
    case OP_FREE: return count_alive(K_DEV) + count_alive(K_MANAGED) >= CAP_DEV ? 10 : 5;
    case OP_FREE_HOST: return count_alive(K_PINNED) >= CAP_PINNED ? 5 : 3;
    case OP_HOST_REGISTER: return nreg < 8 ? 3 : 0;
    case OP_HOST_UNREGISTER: return 3;
    case OP_HOST_GET_DEVPTR: return 2;
    case OP_HOST_GET_FLAGS: return 2;
    case OP_MEM_GET_INFO: return 1;
    case OP_PTR_ATTRS: return 3;
    case OP_MEMCPY: return 10;
    case OP_MEMCPY_ASYNC: return 6;
    case OP_MEMCPY2D: return 5;
    case OP_MEMCPY2D_ASYNC: return 3;
    case OP_MEMCPY3D: return 4;
    case OP_MEMCPY3D_ASYNC: return 3;
    case OP_PEER: return 2;
    case OP_PEER_ASYNC: return 2;
    case OP_PEER3D: return 2;
    case OP_PEER3D_ASYNC: return 1;
    case OP_MEMSET: return 5;
    case OP_MEMSET_ASYNC: return 3;
    case OP_MEMSET2D: return 3;
    case OP_MEMSET2D_ASYNC: return 2;
    case OP_MEMSET3D: return 3;
    case OP_MEMSET3D_ASYNC: return 2;
#if CUDART_VERSION >= 13000
    case OP_ADVISE: return 4;
    case OP_ADVISE_V2: return 0;
    case OP_PREFETCH: return 4;
    case OP_PREFETCH_V2: return 0;
#else
    case OP_ADVISE: return 3;
    case OP_ADVISE_V2: return 2;
    case OP_PREFETCH: return 3;
    case OP_PREFETCH_V2: return 2;
#endif
    case OP_RANGE_ATTR: return 3;
    case OP_RANGE_ATTRS: return 2;
    case OP_MALLOC_ARRAY: return count_alive(K_ARRAY) < CAP_ARRAY ? 2 : 0;
    case OP_MALLOC_3D_ARRAY: return count_alive(K_ARRAY) < CAP_ARRAY ? 2 : 0;
    case OP_FREE_ARRAY: return count_alive(K_ARRAY) >= CAP_ARRAY ? 4 : 1;
    case OP_ARRAY_INFO: return 2;
    case OP_TO_ARRAY: return 3;
    case OP_TO_ARRAY_ASYNC: return 1;
    case OP_FROM_ARRAY: return 3;
    case OP_FROM_ARRAY_ASYNC: return 1;
    case OP_ARRAY_TO_ARRAY: return 2;
    case OP_TO_ARRAY_LINEAR: return 1;
    case OP_FROM_ARRAY_LINEAR: return 1;
    case OP_ARRAY_TO_ARRAY_LINEAR: return 1;
    case OP_TO_ARRAY_LINEAR_ASYNC: return 1;
    case OP_FROM_ARRAY_LINEAR_ASYNC: return 1;
    case OP_CHANNEL_DESC: return 1;
    case OP_STREAM_ATTACH: return 1;
    case OP_STREAM_CREATE: return count_alive(K_STREAM) < CAP_STREAM ? 2 : 0;
    case OP_STREAM_DESTROY: return count_alive(K_STREAM) ? 1 : 0;
    case OP_STREAM_SYNC: return 3;
    case OP_DEVICE_SYNC: return 2;
    case OP_GET_LAST: return 3;
    case OP_PEEK: return 1;
    }
    return 0;
}

static void run_op(int op) {
    switch (op) {
    case OP_MALLOC: op_malloc(); break;
    case OP_MALLOC_PITCH: op_malloc_pitch(); break;
    case OP_MALLOC_3D: op_malloc3d(); break;
    case OP_MALLOC_MANAGED: op_malloc_managed(); break;
    case OP_MALLOC_HOST: op_malloc_host(0); break;
    case OP_HOST_ALLOC: op_malloc_host(1); break;
    case OP_FREE: op_free(); break;
    case OP_FREE_HOST: op_free_host(); break;
    case OP_HOST_REGISTER: op_host_register(); break;
    case OP_HOST_UNREGISTER: op_host_unregister(); break;
    case OP_HOST_GET_DEVPTR: op_host_get_device_pointer(); break;
    case OP_HOST_GET_FLAGS: op_host_get_flags(); break;
    case OP_MEM_GET_INFO: op_mem_get_info(); break;
    case OP_PTR_ATTRS: op_pointer_attributes(); break;
    case OP_MEMCPY: op_memcpy(0); break;
    case OP_MEMCPY_ASYNC: op_memcpy(1); break;
    case OP_MEMCPY2D: op_memcpy2d(0); break;
    case OP_MEMCPY2D_ASYNC: op_memcpy2d(1); break;
    case OP_MEMCPY3D: op_memcpy3d(0, 0); break;
    case OP_MEMCPY3D_ASYNC: op_memcpy3d(1, 0); break;
    case OP_PEER: op_memcpy_peer(0); break;
    case OP_PEER_ASYNC: op_memcpy_peer(1); break;
    case OP_PEER3D: op_memcpy3d(0, 1); break;
    case OP_PEER3D_ASYNC: op_memcpy3d(1, 1); break;
    case OP_MEMSET: op_memset(0); break;
    case OP_MEMSET_ASYNC: op_memset(1); break;
    case OP_MEMSET2D: op_memset2d(0); break;
    case OP_MEMSET2D_ASYNC: op_memset2d(1); break;
    case OP_MEMSET3D: op_memset3d(0); break;
    case OP_MEMSET3D_ASYNC: op_memset3d(1); break;
    case OP_ADVISE: op_mem_advise(0); break;
    case OP_ADVISE_V2: op_mem_advise(1); break;
    case OP_PREFETCH: op_mem_prefetch(0); break;
    case OP_PREFETCH_V2: op_mem_prefetch(1); break;
    case OP_RANGE_ATTR: op_range_attribute(); break;
    case OP_RANGE_ATTRS: op_range_attributes(); break;
    case OP_MALLOC_ARRAY: op_malloc_array(0); break;
    case OP_MALLOC_3D_ARRAY: op_malloc_array(1); break;
    case OP_FREE_ARRAY: op_free_array(); break;
    case OP_ARRAY_INFO: op_array_get_info(); break;
    case OP_TO_ARRAY: op_2d_array(1, 0); break;
    case OP_TO_ARRAY_ASYNC: op_2d_array(1, 1); break;
    case OP_FROM_ARRAY: op_2d_array(0, 0); break;
    case OP_FROM_ARRAY_ASYNC: op_2d_array(0, 1); break;
    case OP_ARRAY_TO_ARRAY: op_2d_array_to_array(); break;
    case OP_TO_ARRAY_LINEAR: op_linear_array(0, 0); break;
    case OP_FROM_ARRAY_LINEAR: op_linear_array(1, 0); break;
    case OP_ARRAY_TO_ARRAY_LINEAR: op_linear_array(2, 0); break;
    case OP_TO_ARRAY_LINEAR_ASYNC: op_linear_array(0, 1); break;
    case OP_FROM_ARRAY_LINEAR_ASYNC: op_linear_array(1, 1); break;
    case OP_CHANNEL_DESC: op_get_channel_desc(); break;
    case OP_STREAM_ATTACH: op_stream_attach(); break;
    case OP_STREAM_CREATE: op_stream_create(); break;
    case OP_STREAM_DESTROY: op_stream_destroy(); break;
    case OP_STREAM_SYNC: op_stream_sync(); break;
    case OP_DEVICE_SYNC: op_device_sync(); break;
    case OP_GET_LAST: op_get_last(); break;
    case OP_PEEK: op_peek(); break;
    }
}

static int pick_op(void) {
    int w[OP_COUNT], total = 0;
    for (int k = 0; k < OP_COUNT; k++) total += (w[k] = op_weight(k));
    int r = (int)below((size_t)total);
    for (int k = 0; k < OP_COUNT; k++) {
        if (r < w[k]) return k;
        r -= w[k];
    }
    return OP_PEEK;
}

/* The program's own host memory: page-aligned mappings, each followed by an inaccessible
 * guard page, so that nothing past a buffer's end is ever silently someone else's memory. */
static void make_pageable(void) {
    static const size_t sizes[] = {1 << 20, (64 << 10) + 100, 256 << 10, 4096 + 1};
    long page = sysconf(_SC_PAGESIZE);
    for (int k = 0; k < 4; k++) {
        size_t len = (sizes[k] + (size_t)page - 1) / (size_t)page * (size_t)page;
        unsigned char *m = mmap(NULL, len + (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) {
            perror("mmap");
            exit(3);
        }
        mprotect(m + len, (size_t)page, PROT_NONE);
        obj_t *o = new_obj(K_PAGEABLE);
        o->p = m;
        o->size = sizes[k];
        o->alive = 1;
        init_obj(o);
    }
}

static void usage(void) {
    fprintf(stderr, "usage: difftest SEED NCALLS [faults=auto|on|off]\n");
    exit(2);
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) usage();
    char *e1, *e2;
    unsigned long long seed = strtoull(argv[1], &e1, 10);
    long ncalls = strtol(argv[2], &e2, 10);
    if (*e1 || *e2 || ncalls < 0) usage();
    int faults = (seed % 4) == 3;
    if (argc == 4) {
        if (!strcmp(argv[3], "faults=on")) faults = 1;
        else if (!strcmp(argv[3], "faults=off")) faults = 0;
        else if (strcmp(argv[3], "faults=auto")) usage();
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    rng = seed * 0x2545F4914F6CDD1Dull + 0x1234567ull;

    verify_all = getenv("DIFFTEST_VERIFY") && *getenv("DIFFTEST_VERIFY") == '1';
    load_driver();
    make_pageable();

    int abi = CUDART_VERSION >= 13000 ? 13 : 12;
    printf("# difftest seed %llu calls %ld abi %d faults %s\n", seed, ncalls, abi, faults ? "on" : "off");

    long fault_at = -1, reset_at = -1;
    if (faults && ncalls > 4) {
        fault_at = ncalls / 5 + (long)below((size_t)(ncalls * 2 / 5 + 1));
        if (chance(60)) reset_at = fault_at + 2 + (long)below((size_t)(ncalls / 4 + 1));
    }
    int sync_next = 0;
    for (long i = 0; i < ncalls; i++) {
        call_index = (int)i;
        if (i == fault_at && i + 1 < ncalls) {
            sync_next = inject_fault();
            continue;
        }
        if (sync_next) {
            sync_next = 0;
            op_sync_after_fault();
        } else if (i == reset_at || (!faults && below(400) == 0)) {
            op_device_reset();
        } else {
            run_op(pick_op());
        }
        if (verify_all) verify();
        if (i % 25 == 24) all_sums();
    }
    printf("end after %ld calls, %ld checksums differ from the model\n", ncalls, mismatches);
    return 0;
}
