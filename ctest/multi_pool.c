/* ctest: gpu gpu2
 * Memory pools between every ordered pair (a, b) of the machine's devices: a pool of device a
 * (made while b is current) and b's access to it (cudaMemPoolGetAccess before, and after each
 * cudaMemPoolSetAccess of read-write, read-only and none), copies by b's stream from and to
 * the pool's memory while b may read and write, or only read; a pool allocation of a freed on
 * a stream of b, an allocation from a's pool ordered on b's stream, cudaMallocAsync on b's
 * stream while a is current (which device's pool it comes from), cudaDeviceSetMemPool of a's
 * pool for b; a's default pool opened to b and closed again. What a kernel on b sees of the
 * pool under each access is ctest/cu_multi.cu's. */
#include "pool_util.h"

#define SZ (256 * 1024)

static void get(const char *label, cudaMemPool_t pool, int dev) {
    enum cudaMemAccessFlags f = (enum cudaMemAccessFlags)0x55;
    struct cudaMemLocation l = loc(cudaMemLocationTypeDevice, dev);
    cudaError_t e = cudaMemPoolGetAccess(&f, pool, &l);
    printf("  %s: %s", label, cudaGetErrorName(e));
    if (e == cudaSuccess)
        printf(", %s\n", access_flag_name((int)f));
    else
        printf(", last %s\n", cudaGetErrorName(cudaGetLastError()));
}

static cudaError_t set(const char *label, cudaMemPool_t pool, int dev, int flags) {
    struct cudaMemAccessDesc d;
    d.location = loc(cudaMemLocationTypeDevice, dev);
    d.flags = (enum cudaMemAccessFlags)flags;
    cudaError_t e = cudaMemPoolSetAccess(pool, &d, 1);
    printf("  %s: %s", label, cudaGetErrorName(e));
    if (e != cudaSuccess) printf(", last %s", cudaGetErrorName(cudaGetLastError()));
    printf("\n");
    return e;
}


static unsigned char h[SZ];

/* Whether n bytes at device pointer p (read with device `dev` current) are all v. */
static const char *all(int dev, const void *p, size_t n, int v) {
    int cur;
    OK(cudaGetDevice(&cur));
    OK(cudaSetDevice(dev));
    memset(h, 0xee, n);
    OK(cudaMemcpy(h, p, n, cudaMemcpyDeviceToHost));
    OK(cudaSetDevice(cur));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += h[i] != (unsigned char)v;
    return bad ? "bytes WRONG" : "bytes ok";
}

static int device_of(const void *p) {
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) return -99;
    return a.device;
}

static void pair(int a, int b) {
    printf("pool of %d, device %d:\n", a, b);
    cudaStream_t sa, sb;
    void *db = NULL;
    OK(cudaSetDevice(a));
    OK(cudaStreamCreateWithFlags(&sa, cudaStreamNonBlocking));
    OK(cudaSetDevice(b));
    OK(cudaStreamCreateWithFlags(&sb, cudaStreamNonBlocking));
    OK(cudaMalloc(&db, SZ));

    /* Made while b is current. */
    cudaMemPool_t pool = NULL;
    struct cudaMemPoolProps props = pool_props(cudaMemLocationTypeDevice, a);
    if (SHOW_CALL("cudaMemPoolCreate (b current)", cudaMemPoolCreate(&pool, &props)) != cudaSuccess) return;
    get("a's access", pool, a);
    get("b's access", pool, b);
    void *p = NULL;
    OK(cudaMallocFromPoolAsync(&p, SZ, pool, sa));
    OK(cudaMemsetAsync(p, 0x30 + a, SZ, sa));
    OK(cudaStreamSynchronize(sa));
    printf("  allocation's device: %d\n", device_of(p));

    /* b's stream touches the pool's memory only where b was given access (it could fault
     * otherwise, and a fault ends what this process can do). */
    cudaError_t e, rw = set("b read-write", pool, b, cudaMemAccessFlagsProtReadWrite);
    get("then b's access", pool, b);
    get("and a's", pool, a);
    if (rw == cudaSuccess) {
        OK(cudaMemsetAsync(db, 0, SZ, sb));
        e = SHOW_CALL("copy of the pool's memory into b's, b's stream", cudaMemcpyAsync(db, p, SZ, cudaMemcpyDeviceToDevice, sb));
        OK(cudaStreamSynchronize(sb));
        printf("    %s\n", all(b, db, SZ, e == cudaSuccess ? 0x30 + a : 0));
        OK(cudaMemsetAsync(db, 0x50 + b, SZ / 2, sb));
        e = SHOW_CALL("copy of b's memory into the pool's, b's stream", cudaMemcpyAsync(p, db, SZ / 2, cudaMemcpyDeviceToDevice, sb));
        OK(cudaStreamSynchronize(sb));
        printf("    %s\n", all(a, p, SZ / 2, e == cudaSuccess ? 0x50 + b : 0x30 + a));
        e = SHOW_CALL("cudaMemsetAsync of the pool's memory on b's stream", cudaMemsetAsync(p, 0x30 + a, SZ / 2, sb));
        OK(cudaStreamSynchronize(sb));
        printf("    %s\n", all(a, p, SZ, 0x30 + a));
    }

    /* Read-only (where the driver refuses it, b keeps what it had). */
    cudaError_t ro = set("b read-only", pool, b, cudaMemAccessFlagsProtRead);
    get("then b's access", pool, b);
    if (ro == cudaSuccess || rw == cudaSuccess) {
        OK(cudaMemsetAsync(db, 0, SZ, sb));
        e = SHOW_CALL("copy of the pool's memory into b's, b's stream", cudaMemcpyAsync(db, p, SZ, cudaMemcpyDeviceToDevice, sb));
        OK(cudaStreamSynchronize(sb));
        printf("    %s\n", all(b, db, SZ, e == cudaSuccess ? 0x30 + a : 0));
    }

    set("b none", pool, b, cudaMemAccessFlagsProtNone);
    get("then b's access", pool, b);
    set("a none (its own pool)", pool, a, cudaMemAccessFlagsProtNone);
    get("then a's access", pool, a);
    set("a read-only (its own pool)", pool, a, cudaMemAccessFlagsProtRead);
    get("then a's access", pool, a);

    /* Frees and allocations on the other device's streams. */
    SHOW_CALL("cudaFreeAsync of the pool's memory on b's stream", cudaFreeAsync(p, sb));
    OK(cudaStreamSynchronize(sb));
    void *q = NULL;
    e = SHOW_CALL("cudaMallocFromPoolAsync from a's pool on b's stream", cudaMallocFromPoolAsync(&q, SZ, pool, sb));
    if (e == cudaSuccess) {
        printf("    device %d\n", device_of(q));
        SHOW_CALL("cudaFreeAsync of it on a's stream", cudaFreeAsync(q, sa));
        OK(cudaStreamSynchronize(sa));
    }
    OK(cudaStreamSynchronize(sb));
    OK(cudaSetDevice(a));
    q = NULL;
    e = SHOW_CALL("cudaMallocAsync on b's stream (a current)", cudaMallocAsync(&q, SZ, sb));
    if (e == cudaSuccess) {
        printf("    device %d\n", device_of(q));
        SHOW_CALL("cudaFreeAsync of it on a's stream", cudaFreeAsync(q, sa));
        OK(cudaStreamSynchronize(sa));
    }
    OK(cudaStreamSynchronize(sb));
    cudaMemPool_t cur = NULL, dflt = NULL;
    SHOW_CALL("cudaDeviceSetMemPool(b, a's pool)", cudaDeviceSetMemPool(b, pool));
    OK(cudaDeviceGetMemPool(&cur, b));
    OK(cudaDeviceGetDefaultMemPool(&dflt, b));
    printf("  b's current pool is its default: %d\n", (int)(cur == dflt));

    /* a's default pool, opened to b and closed again. */
    OK(cudaDeviceGetDefaultMemPool(&dflt, a));
    get("a's default pool, b's access", dflt, b);
    rw = set("a's default pool, b read-write", dflt, b, cudaMemAccessFlagsProtReadWrite);
    get("then b's access", dflt, b);
    void *r = NULL;
    OK(cudaSetDevice(b));
    e = SHOW_CALL("cudaMallocAsync on a's stream (b current)", cudaMallocAsync(&r, SZ, sa));
    if (e == cudaSuccess) {
        printf("    device %d\n", device_of(r));
        OK(cudaMemsetAsync(r, 0x70 + a, SZ, sa));
        OK(cudaStreamSynchronize(sa));
        if (rw == cudaSuccess) {
            OK(cudaMemsetAsync(db, 0, SZ, sb));
            e = SHOW_CALL("copy of it into b's memory, b's stream", cudaMemcpyAsync(db, r, SZ, cudaMemcpyDeviceToDevice, sb));
            OK(cudaStreamSynchronize(sb));
            printf("    %s\n", all(b, db, SZ, e == cudaSuccess ? 0x70 + a : 0));
        }
        OK(cudaFreeAsync(r, sa));
        OK(cudaStreamSynchronize(sa));
    }
    set("a's default pool, b none", dflt, b, cudaMemAccessFlagsProtNone);
    get("then b's access", dflt, b);

    set("b read-write before the pool is destroyed", pool, b, cudaMemAccessFlagsProtReadWrite);
    SHOW_CALL("cudaMemPoolDestroy (b current)", cudaMemPoolDestroy(pool));
    OK(cudaFree(db));
    OK(cudaStreamDestroy(sb));
    OK(cudaSetDevice(a));
    OK(cudaStreamDestroy(sa));
    SHOW_LAST("  at the end");
}

int main(void) {
    int n = ct_devices_or_skip();
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (a != b) pair(a, b);
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
