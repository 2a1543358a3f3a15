/* cudaMemPoolSetAccess and cudaMemPoolGetAccess: the access of device 0 and of the host to a
 * pool of device 0 and to the default pool; each access flag; invalid flags, location types
 * and devices; counts of 0, above the 32 descriptors the runtime copies on the stack, and
 * too large to copy; a NULL pool; with a second device, its access to device 0's pool and
 * the data read through it. The last error after each failure. */
#include "pool_util.h"

static const char *flag_name(int f) {
    switch (f) {
    case cudaMemAccessFlagsProtNone: return "cudaMemAccessFlagsProtNone";
    case cudaMemAccessFlagsProtRead: return "cudaMemAccessFlagsProtRead";
    case cudaMemAccessFlagsProtReadWrite: return "cudaMemAccessFlagsProtReadWrite";
    default: return "other";
    }
}

/* Prints the access of a location to a pool. */
static void get(const char *label, cudaMemPool_t pool, struct cudaMemLocation l) {
    enum cudaMemAccessFlags f = (enum cudaMemAccessFlags)0x55;
    cudaError_t e = cudaMemPoolGetAccess(&f, pool, &l);
    if (e == cudaSuccess) {
        printf("%s: %s, %s\n", label, cudaGetErrorName(e), flag_name((int)f));
    } else {
        printf("%s: %s, flags %s\n", label, cudaGetErrorName(e), f == (enum cudaMemAccessFlags)0x55 ? "untouched" : "written");
        SHOW_LAST(label);
    }
}

/* Sets one descriptor; prints the result (and the last error after a failure). */
static cudaError_t set1(const char *label, cudaMemPool_t pool, struct cudaMemLocation l, int flags) {
    struct cudaMemAccessDesc d;
    d.location = l;
    d.flags = (enum cudaMemAccessFlags)flags;
    cudaError_t e = SHOW(label, cudaMemPoolSetAccess(pool, &d, 1));
    if (e != cudaSuccess) SHOW_LAST(label);
    return e;
}

int main(void) {
    int count = 0;
    OK(cudaGetDeviceCount(&count));
    cudaMemPool_t dflt = NULL, pool = NULL;
    OK(cudaDeviceGetDefaultMemPool(&dflt, 0));
    struct cudaMemPoolProps props = pool_props(cudaMemLocationTypeDevice, 0);
    OK(cudaMemPoolCreate(&pool, &props));

    const struct cudaMemLocation dev0 = loc(cudaMemLocationTypeDevice, 0);
    const struct cudaMemLocation host = loc(cudaMemLocationTypeHost, 0);
    get("created pool, device 0", pool, dev0);
    get("created pool, host", pool, host);
    get("created pool, host NUMA node 0", pool, loc(cudaMemLocationTypeHostNuma, 0));
    get("created pool, host NUMA current", pool, loc(cudaMemLocationTypeHostNumaCurrent, 0));
    get("created pool, device -1", pool, loc(cudaMemLocationTypeDevice, -1));
    get("created pool, device count", pool, loc(cudaMemLocationTypeDevice, count));
    get("created pool, invalid location type", pool, loc(cudaMemLocationTypeInvalid, 0));
    get("created pool, location type 99", pool, loc((enum cudaMemLocationType)99, 0));
    get("default pool, device 0", dflt, dev0);
    get("default pool, host", dflt, host);
    get("NULL pool, device 0", NULL, dev0);

    /* Device 0's own access. */
    set1("device 0 read-write", pool, dev0, cudaMemAccessFlagsProtReadWrite);
    get("  then", pool, dev0);
    set1("device 0 read-only", pool, dev0, cudaMemAccessFlagsProtRead);
    get("  then", pool, dev0);
    set1("device 0 none", pool, dev0, cudaMemAccessFlagsProtNone);
    get("  then", pool, dev0);
    set1("device 0 flags 2", pool, dev0, 2);
    set1("device 0 flags 7", pool, dev0, 7);
    set1("device 0 flags -1", pool, dev0, -1);
    get("  then", pool, dev0);

    /* The host's access to device memory, other locations. */
    set1("host read-write", pool, host, cudaMemAccessFlagsProtReadWrite);
    get("  then", pool, host);
    set1("host none", pool, host, cudaMemAccessFlagsProtNone);
    set1("host NUMA node 0 read-write", pool, loc(cudaMemLocationTypeHostNuma, 0), cudaMemAccessFlagsProtReadWrite);
    set1("device -1 read-write", pool, loc(cudaMemLocationTypeDevice, -1), cudaMemAccessFlagsProtReadWrite);
    set1("device count read-write", pool, loc(cudaMemLocationTypeDevice, count), cudaMemAccessFlagsProtReadWrite);
    set1("device 1000 read-write", pool, loc(cudaMemLocationTypeDevice, 1000), cudaMemAccessFlagsProtReadWrite);
    set1("invalid location type", pool, loc(cudaMemLocationTypeInvalid, 0), cudaMemAccessFlagsProtReadWrite);
    set1("location type 99", pool, loc((enum cudaMemLocationType)99, 0), cudaMemAccessFlagsProtReadWrite);
    set1("NULL pool", NULL, dev0, cudaMemAccessFlagsProtReadWrite);
    set1("default pool, device 0 read-write", dflt, dev0, cudaMemAccessFlagsProtReadWrite);

    /* Counts: 0 (NULL and not), 40 descriptors (past the 32 copied on the stack), one bad
     * descriptor after good ones, and a count no copy can hold (NVIDIA's runtime copies the
     * list before it calls the driver). */
    struct cudaMemAccessDesc many[40];
    for (int i = 0; i < 40; i++) {
        many[i].location = dev0;
        many[i].flags = cudaMemAccessFlagsProtReadWrite;
    }
    SHOW("count 0, NULL list", cudaMemPoolSetAccess(pool, NULL, 0));
    SHOW("count 0, a list", cudaMemPoolSetAccess(pool, many, 0));
    SHOW("count 1", cudaMemPoolSetAccess(pool, many, 1));
    SHOW("count 32", cudaMemPoolSetAccess(pool, many, 32));
    SHOW("count 33", cudaMemPoolSetAccess(pool, many, 33));
    SHOW("count 40", cudaMemPoolSetAccess(pool, many, 40));
    many[35].location = loc(cudaMemLocationTypeDevice, 1000);
    if (SHOW("count 40, the 36th for device 1000", cudaMemPoolSetAccess(pool, many, 40)) != cudaSuccess)
        SHOW_LAST("36th bad");
    many[35].location = dev0;
    many[2].flags = (enum cudaMemAccessFlags)2;
    if (SHOW("count 3, the third with flags 2", cudaMemPoolSetAccess(pool, many, 3)) != cudaSuccess)
        SHOW_LAST("third bad");
    many[2].flags = cudaMemAccessFlagsProtReadWrite;
    SHOW("count SIZE_MAX", cudaMemPoolSetAccess(pool, many, SIZE_MAX));
    SHOW_LAST("count SIZE_MAX");
    SHOW("count SIZE_MAX / 8", cudaMemPoolSetAccess(pool, many, SIZE_MAX / 8));
    SHOW_LAST("count SIZE_MAX / 8");
    get("created pool, device 0, after all that", pool, dev0);

    /* A second device, where there is one: its access to device 0's pool. */
    if (count >= 2) {
        int can = 0;
        OK(cudaDeviceCanAccessPeer(&can, 1, 0));
        const struct cudaMemLocation dev1 = loc(cudaMemLocationTypeDevice, 1);
        get("second device: device 1 before", pool, dev1);
        cudaError_t e = set1("second device: device 1 read-write", pool, dev1, cudaMemAccessFlagsProtReadWrite);
        get("second device: device 1 after", pool, dev1);
        if (e == cudaSuccess && can) {
            cudaStream_t s;
            void *p = NULL, *q = NULL;
            OK(cudaStreamCreate(&s));
            OK(cudaMallocFromPoolAsync(&p, 4096, pool, s));
            OK(cudaMemsetAsync(p, 0x6b, 4096, s));
            OK(cudaStreamSynchronize(s));
            OK(cudaSetDevice(1));
            OK(cudaMalloc(&q, 4096));
            SHOW("second device: copy from device 0's pool on device 1", cudaMemcpy(q, p, 4096, cudaMemcpyDeviceToDevice));
            unsigned char h[4096];
            OK(cudaMemcpy(h, q, 4096, cudaMemcpyDeviceToHost));
            int ok = 1;
            for (int i = 0; i < 4096; i++) ok &= h[i] == 0x6b;
            printf("second device: bytes %s\n", ok ? "ok" : "wrong");
            CHECK(ok);
            OK(cudaFree(q));
            OK(cudaSetDevice(0));
            OK(cudaFreeAsync(p, s));
            OK(cudaStreamSynchronize(s));
            OK(cudaStreamDestroy(s));
        }
        set1("second device: device 1 none", pool, dev1, cudaMemAccessFlagsProtNone);
        get("second device: device 1 at the end", pool, dev1);
    }

    /* A NULL location to the query: the 13 runtime hands it to the driver (12.9's reads it first). */
#if CUDART_VERSION >= 13000
    enum cudaMemAccessFlags f = (enum cudaMemAccessFlags)0x55;
    SHOW("get with a NULL location", cudaMemPoolGetAccess(&f, pool, NULL));
    SHOW_LAST("NULL location");
#endif
    OK(cudaMemPoolDestroy(pool));
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
