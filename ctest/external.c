/* ctest: gpu
 * External memory for real, without another API: an allocation of the driver's virtual memory
 * management (cuMemCreate with a POSIX file descriptor handle type, through dlsym of the
 * driver) exported as a file descriptor and imported with cudaImportExternalMemory (type
 * OpaqueFd); buffers and a mipmapped array mapped onto it, written and read through them and
 * through the original mapping. The import, mapping and destroy errors. External semaphores
 * need Vulkan or NvSci to make one, so only their error paths: invalid types, null
 * descriptors, invalid file descriptors, empty sets, null handles (the 12 ABI's original
 * symbols too). cudaDeviceGetNvSciSyncAttributes (no NvSci on Linux x86).
 */
#define _GNU_SOURCE
#include "ctest.h"
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

typedef int drv_result;
typedef unsigned long long drv_ptr;
typedef unsigned long long drv_handle;
typedef struct {
    int type; /* CU_MEM_LOCATION_TYPE_DEVICE = 1 */
    int id;
} drv_location;
typedef struct {
    int type;                 /* CU_MEM_ALLOCATION_TYPE_PINNED = 1 */
    int requestedHandleTypes; /* CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR = 1 */
    drv_location location;
    void *win32HandleMetaData;
    struct {
        unsigned char compressionType;
        unsigned char gpuDirectRDMACapable;
        unsigned short usage;
        unsigned char reserved[4];
    } allocFlags;
} drv_alloc_prop;
typedef struct {
    drv_location location;
    int flags; /* CU_MEM_ACCESS_FLAGS_PROT_READWRITE = 3 */
} drv_access;

static drv_result (*cuMemGetAllocationGranularity_)(size_t *, const drv_alloc_prop *, int);
static drv_result (*cuMemCreate_)(drv_handle *, size_t, const drv_alloc_prop *, unsigned long long);
static drv_result (*cuMemRelease_)(drv_handle);
static drv_result (*cuMemAddressReserve_)(drv_ptr *, size_t, size_t, drv_ptr, unsigned long long);
static drv_result (*cuMemAddressFree_)(drv_ptr, size_t);
static drv_result (*cuMemMap_)(drv_ptr, size_t, size_t, drv_handle, unsigned long long);
static drv_result (*cuMemUnmap_)(drv_ptr, size_t);
static drv_result (*cuMemSetAccess_)(drv_ptr, size_t, const drv_access *, size_t);
static drv_result (*cuMemExportToShareableHandle_)(void *, drv_handle, int, unsigned long long);

static cudaExternalMemory_t late; /* an import kept for the calls made last */
static size_t size;      /* of the allocation: one granule */
static drv_handle alloc; /* the allocation */
static drv_ptr va;       /* its mapping in this process */

static int export_fd(void) {
    int fd = -1;
    drv_result r = cuMemExportToShareableHandle_(&fd, alloc, 1, 0);
    return r == 0 ? fd : -1;
}

static struct cudaExternalMemoryHandleDesc mem_desc(int type, int fd, unsigned long long sz) {
    struct cudaExternalMemoryHandleDesc d;
    memset(&d, 0, sizeof d);
    d.type = (enum cudaExternalMemoryHandleType)type;
    d.handle.fd = fd;
    d.size = sz;
    return d;
}

/* Imports with a descriptor that should fail; returns the result (a file descriptor stays ours
 * unless the import succeeded). */
static cudaError_t import_fails(const char *label, struct cudaExternalMemoryHandleDesc d) {
    cudaExternalMemory_t m = NULL;
    cudaError_t r = SHOW(label, cudaImportExternalMemory(&m, &d));
    SHOW_LAST(label);
    if (r == cudaSuccess && m) OK(cudaDestroyExternalMemory(m));
    return r;
}

static void buffers(cudaExternalMemory_t m) {
    struct cudaExternalMemoryBufferDesc b;
    memset(&b, 0, sizeof b);
    b.size = size;
    void *p = NULL;
    OK(SHOW("GetMappedBuffer(whole)", cudaExternalMemoryGetMappedBuffer(&p, m, &b)));
    if (!p) return;
    /* Through the imported buffer, read through the original mapping, and back. */
    size_t n = 1 << 16;
    unsigned char *host = malloc(n), *back = malloc(n);
    for (size_t i = 0; i < n; i++) host[i] = (unsigned char)(i * 31 + 7);
    OK(SHOW("cudaMemcpy into the imported buffer", cudaMemcpy(p, host, n, cudaMemcpyHostToDevice)));
    memset(back, 0, n);
    OK(SHOW("cudaMemcpy from the original mapping", cudaMemcpy(back, (void *)(uintptr_t)va, n, cudaMemcpyDeviceToHost)));
    int same = memcmp(back, host, n) == 0;
    printf("the original allocation holds what the buffer got: %d\n", same);
    CHECK(same);
    OK(SHOW("cudaMemset through the original mapping", cudaMemset((void *)(uintptr_t)(va + n), 0xc3, n)));
    memset(back, 0, n);
    OK(cudaMemcpy(back, (char *)p + n, n, cudaMemcpyDeviceToHost));
    same = back[0] == 0xc3 && back[n - 1] == 0xc3;
    printf("the buffer sees the original's writes: %d\n", same);
    CHECK(same);

    /* A second buffer at an offset: the same bytes. */
    void *q = NULL;
    b.offset = n;
    b.size = n;
    OK(SHOW("GetMappedBuffer(offset 64 KiB)", cudaExternalMemoryGetMappedBuffer(&q, m, &b)));
    if (q) {
        memset(back, 0, n);
        OK(cudaMemcpy(back, q, n, cudaMemcpyDeviceToHost));
        same = back[0] == 0xc3 && back[n - 1] == 0xc3;
        printf("the offset buffer sees the same bytes: %d\n", same);
        CHECK(same);
        struct cudaPointerAttributes a;
        memset(&a, 0, sizeof a);
        OK(SHOW("cudaPointerGetAttributes(offset buffer)", cudaPointerGetAttributes(&a, q)));
        SHOWI("offset buffer memory type", a.type);
        SHOWI("offset buffer device", a.device);
        OK(SHOW("cudaFree(offset buffer)", cudaFree(q)));
    }

    /* Errors of a valid memory object. */
    b.offset = 0;
    b.size = size;
    SHOW_AND_LAST("GetMappedBuffer(NULL desc)", cudaExternalMemoryGetMappedBuffer(&q, m, NULL), "GetMappedBuffer(NULL desc)");
    b.size = 0;
    q = NULL;
    SHOW_AND_LAST("GetMappedBuffer(size 0)", cudaExternalMemoryGetMappedBuffer(&q, m, &b), "GetMappedBuffer(size 0)");
    if (q) OK(cudaFree(q));
    b.size = size;
    b.offset = n;
    q = NULL;
    SHOW_AND_LAST("GetMappedBuffer(past the end)", cudaExternalMemoryGetMappedBuffer(&q, m, &b), "GetMappedBuffer(past the end)");
    if (q) OK(cudaFree(q));
    b.offset = 1;
    b.size = n;
    q = NULL;
    SHOW_AND_LAST("GetMappedBuffer(offset 1)", cudaExternalMemoryGetMappedBuffer(&q, m, &b), "GetMappedBuffer(offset 1)");
    if (q) OK(cudaFree(q));
    b.offset = 0;
    b.flags = 1;
    q = NULL;
    SHOW_AND_LAST("GetMappedBuffer(flags 1)", cudaExternalMemoryGetMappedBuffer(&q, m, &b), "GetMappedBuffer(flags 1)");
    if (q) OK(cudaFree(q));
    b.flags = 0;
#if CUDART_VERSION >= 13000
    b.reserved[0] = 1;
    q = NULL;
    SHOW_AND_LAST("GetMappedBuffer(reserved word set)", cudaExternalMemoryGetMappedBuffer(&q, m, &b), "GetMappedBuffer(reserved word set)");
    if (q) OK(cudaFree(q));
    b.reserved[0] = 0;
#endif
    OK(SHOW("cudaFree(imported buffer)", cudaFree(p)));
    free(host);
    free(back);
}

static struct cudaExternalMemoryMipmappedArrayDesc mm_desc(struct cudaChannelFormatDesc f, size_t w, size_t h, unsigned levels) {
    struct cudaExternalMemoryMipmappedArrayDesc d;
    memset(&d, 0, sizeof d);
    d.formatDesc = f;
    d.extent = make_cudaExtent(w, h, 0);
    d.numLevels = levels;
    return d;
}

static void mipmapped(cudaExternalMemory_t m) {
    struct cudaChannelFormatDesc f = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    struct cudaExternalMemoryMipmappedArrayDesc d = mm_desc(f, 64, 32, 3);
    cudaMipmappedArray_t mm = NULL;
    OK(SHOW("GetMappedMipmappedArray(64x32 rgba8, 3 levels)", cudaExternalMemoryGetMappedMipmappedArray(&mm, m, &d)));
    if (mm) {
        for (unsigned l = 0; l < 4; l++) {
            cudaArray_t a = NULL;
            char label[64];
            snprintf(label, sizeof label, "level %u", l);
            cudaError_t r = SHOW(label, cudaGetMipmappedArrayLevel(&a, mm, l));
            if (r != cudaSuccess) {
                SHOW_LAST(label);
                continue;
            }
            struct cudaChannelFormatDesc df;
            struct cudaExtent e;
            unsigned int flags = 0;
            OK(cudaArrayGetInfo(&df, &e, &flags, a));
            printf("%s: %zu x %zu x %zu, desc %d %d %d %d kind %d, flags 0x%x\n", label, e.width, e.height, e.depth,
                   df.x, df.y, df.z, df.w, (int)df.f, flags);
            size_t row = e.width * 4;
            unsigned char host[64 * 32 * 4], back[64 * 32 * 4];
            for (size_t i = 0; i < row * e.height; i++) host[i] = (unsigned char)(i * 3 + l);
            OK(cudaMemcpy2DToArray(a, 0, 0, host, row, row, e.height, cudaMemcpyHostToDevice));
            memset(back, 0, sizeof back);
            OK(cudaMemcpy2DFromArray(back, row, a, 0, 0, row, e.height, cudaMemcpyDeviceToHost));
            int same = memcmp(back, host, row * e.height) == 0;
            printf("%s reads back: %d\n", label, same);
            CHECK(same);
        }
        OK(SHOW("cudaFreeMipmappedArray(imported)", cudaFreeMipmappedArray(mm)));
    }
    cudaMipmappedArray_t x = NULL;
    struct cudaExternalMemoryMipmappedArrayDesc bad = mm_desc(cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned), 64, 32, 1);
    SHOW_AND_LAST("GetMappedMipmappedArray(3-channel desc)", cudaExternalMemoryGetMappedMipmappedArray(&x, m, &bad), "GetMappedMipmappedArray(3-channel desc)");
    if (x) OK(cudaFreeMipmappedArray(x));
    /* Not 0 levels: NVIDIA's runtime aborts on it (the driver overruns its heap). */
    x = NULL;
    bad = mm_desc(f, 0, 0, 1);
    SHOW_AND_LAST("GetMappedMipmappedArray(0 x 0)", cudaExternalMemoryGetMappedMipmappedArray(&x, m, &bad), "GetMappedMipmappedArray(0 x 0)");
    if (x) OK(cudaFreeMipmappedArray(x));
    x = NULL;
    bad = mm_desc(f, 8192, 8192, 1); /* 256 MiB: more than the object holds */
    SHOW_AND_LAST("GetMappedMipmappedArray(larger than the object)", cudaExternalMemoryGetMappedMipmappedArray(&x, m, &bad), "GetMappedMipmappedArray(larger than the object)");
    if (x) OK(cudaFreeMipmappedArray(x));
    x = NULL;
    bad = mm_desc(f, 64, 32, 1);
    bad.flags = 0x1000;
    SHOW_AND_LAST("GetMappedMipmappedArray(flags 0x1000)", cudaExternalMemoryGetMappedMipmappedArray(&x, m, &bad), "GetMappedMipmappedArray(flags 0x1000)");
    if (x) OK(cudaFreeMipmappedArray(x));
    x = NULL;
    bad.flags = cudaArraySurfaceLoadStore;
    SHOW_AND_LAST("GetMappedMipmappedArray(SurfaceLoadStore)", cudaExternalMemoryGetMappedMipmappedArray(&x, m, &bad), "GetMappedMipmappedArray(SurfaceLoadStore)");
    if (x) OK(cudaFreeMipmappedArray(x));
    x = NULL;
    bad.flags = 0;
    bad.offset = 4096;
    SHOW_AND_LAST("GetMappedMipmappedArray(offset 4096)", cudaExternalMemoryGetMappedMipmappedArray(&x, m, &bad), "GetMappedMipmappedArray(offset 4096)");
    if (x) OK(cudaFreeMipmappedArray(x));
    bad.offset = 0;
    SHOW_AND_LAST("GetMappedMipmappedArray(NULL desc)", cudaExternalMemoryGetMappedMipmappedArray(&x, m, NULL), "GetMappedMipmappedArray(NULL desc)");
}

static void memory(void) {
    int fd = export_fd();
    printf("allocation exported as a file descriptor: %d\n", fd >= 0);
    CHECK(fd >= 0);
    if (fd < 0) return;
    struct cudaExternalMemoryHandleDesc d = mem_desc(cudaExternalMemoryHandleTypeOpaqueFd, fd, size);
    cudaExternalMemory_t m = NULL;
    cudaError_t r = SHOW("cudaImportExternalMemory(OpaqueFd)", cudaImportExternalMemory(&m, &d));
    if (r != cudaSuccess) {
        SHOW_LAST("cudaImportExternalMemory(OpaqueFd)");
        close(fd);
        return;
    }
    buffers(m);
    mipmapped(m);
    OK(SHOW("cudaDestroyExternalMemory", cudaDestroyExternalMemory(m)));

    /* Two imports of the same allocation at once; a dedicated one; a size over the
     * allocation's; 13: a reserved word set. (A failed import leaves the descriptor ours.) */
    int fd1 = export_fd(), fd2 = export_fd();
    cudaExternalMemory_t m1 = NULL, m2 = NULL;
    d = mem_desc(cudaExternalMemoryHandleTypeOpaqueFd, fd1, size);
    if (SHOW("import again", cudaImportExternalMemory(&m1, &d)) != cudaSuccess) close(fd1);
    d = mem_desc(cudaExternalMemoryHandleTypeOpaqueFd, fd2, size);
    d.flags = cudaExternalMemoryDedicated;
    if (SHOW("import again (Dedicated)", cudaImportExternalMemory(&m2, &d)) != cudaSuccess) close(fd2);
    if (m1 && m2) {
        struct cudaExternalMemoryBufferDesc b;
        memset(&b, 0, sizeof b);
        b.size = 4096;
        void *p1 = NULL, *p2 = NULL;
        OK(cudaExternalMemoryGetMappedBuffer(&p1, m1, &b));
        OK(cudaExternalMemoryGetMappedBuffer(&p2, m2, &b));
        if (p1 && p2) {
            unsigned char v = 0;
            OK(cudaMemset(p1, 0x66, 4096));
            OK(cudaMemcpy(&v, p2, 1, cudaMemcpyDeviceToHost));
            printf("two imports share the bytes: %d\n", v == 0x66);
            CHECK(v == 0x66);
        }
        if (p1) OK(cudaFree(p1));
        if (p2) OK(cudaFree(p2));
    }
    late = m1;
    if (m2) OK(cudaDestroyExternalMemory(m2));
    fd = export_fd();
    if (import_fails("import(size twice the allocation's)", mem_desc(cudaExternalMemoryHandleTypeOpaqueFd, fd, size * 2)) != cudaSuccess)
        close(fd);
#if CUDART_VERSION >= 13000
    fd = export_fd();
    d = mem_desc(cudaExternalMemoryHandleTypeOpaqueFd, fd, size);
    d.reserved[3] = 1;
    m = NULL;
    r = SHOW("import(reserved word set)", cudaImportExternalMemory(&m, &d));
    SHOW_LAST("import(reserved word set)");
    if (r == cudaSuccess && m) OK(cudaDestroyExternalMemory(m));
    else close(fd);
#endif
    fd = export_fd();
    d = mem_desc(cudaExternalMemoryHandleTypeOpaqueFd, fd, size);
    d.flags = 2;
    m = NULL;
    r = SHOW("import(flags 2)", cudaImportExternalMemory(&m, &d));
    SHOW_LAST("import(flags 2)");
    if (r == cudaSuccess && m) OK(cudaDestroyExternalMemory(m));
    else close(fd);
}

static void memory_errors(void) {
    cudaExternalMemory_t m = NULL;
    SHOW_AND_LAST("cudaImportExternalMemory(NULL desc)", cudaImportExternalMemory(&m, NULL), "cudaImportExternalMemory(NULL desc)");
    import_fails("import(type 0)", mem_desc(0, -1, 1 << 20));
    import_fails("import(type 99)", mem_desc(99, -1, 1 << 20));
    import_fails("import(OpaqueFd, fd -1)", mem_desc(cudaExternalMemoryHandleTypeOpaqueFd, -1, 1 << 20));
    import_fails("import(OpaqueFd, fd -1, size 0)", mem_desc(cudaExternalMemoryHandleTypeOpaqueFd, -1, 0));
    import_fails("import(OpaqueWin32, no handle)", mem_desc(cudaExternalMemoryHandleTypeOpaqueWin32, 0, 1 << 20));
    import_fails("import(OpaqueWin32Kmt, no handle)", mem_desc(cudaExternalMemoryHandleTypeOpaqueWin32Kmt, 0, 1 << 20));
    import_fails("import(D3D12Heap)", mem_desc(cudaExternalMemoryHandleTypeD3D12Heap, 0, 1 << 20));
    struct cudaExternalMemoryHandleDesc d = mem_desc(cudaExternalMemoryHandleTypeD3D12Resource, 0, 1 << 20);
    d.flags = cudaExternalMemoryDedicated;
    import_fails("import(D3D12Resource)", d);
    d.type = cudaExternalMemoryHandleTypeD3D11Resource;
    import_fails("import(D3D11Resource)", d);
    d.type = cudaExternalMemoryHandleTypeD3D11ResourceKmt;
    import_fails("import(D3D11ResourceKmt)", d);
    import_fails("import(NvSciBuf, no object)", mem_desc(cudaExternalMemoryHandleTypeNvSciBuf, 0, 1 << 20));
    /* A descriptor of something that is not a memory object. */
    int fd = open("/dev/null", O_RDWR);
    CHECK(fd >= 0);
    if (import_fails("import(OpaqueFd, /dev/null)", mem_desc(cudaExternalMemoryHandleTypeOpaqueFd, fd, 1 << 20)) != cudaSuccess)
        close(fd);
}

static struct cudaExternalSemaphoreHandleDesc sem_desc(int type, int fd) {
    struct cudaExternalSemaphoreHandleDesc d;
    memset(&d, 0, sizeof d);
    d.type = (enum cudaExternalSemaphoreHandleType)type;
    d.handle.fd = fd;
    return d;
}

static cudaError_t sem_import_fails(const char *label, struct cudaExternalSemaphoreHandleDesc d) {
    cudaExternalSemaphore_t s = NULL;
    cudaError_t r = SHOW(label, cudaImportExternalSemaphore(&s, &d));
    SHOW_LAST(label);
    if (r == cudaSuccess && s) OK(cudaDestroyExternalSemaphore(s));
    return r;
}

typedef cudaError_t (*sem_op)(const cudaExternalSemaphore_t *, const void *, unsigned int, cudaStream_t);

/* An exported symbol by name (the per-thread forms and the CUDA 12 ABI's original forms, which
 * the headers map other names to). */
static sem_op sym(const char *name) { return (sem_op)dlsym(RTLD_DEFAULT, name); }

static void semaphores(void) {
    cudaExternalSemaphore_t s = NULL;
    SHOW_AND_LAST("cudaImportExternalSemaphore(NULL desc)", cudaImportExternalSemaphore(&s, NULL), "cudaImportExternalSemaphore(NULL desc)");
    sem_import_fails("semaphore(type 0)", sem_desc(0, -1));
    sem_import_fails("semaphore(type 99)", sem_desc(99, -1));
    sem_import_fails("semaphore(OpaqueFd, fd -1)", sem_desc(cudaExternalSemaphoreHandleTypeOpaqueFd, -1));
    sem_import_fails("semaphore(TimelineSemaphoreFd, fd -1)", sem_desc(cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd, -1));
    sem_import_fails("semaphore(OpaqueWin32)", sem_desc(cudaExternalSemaphoreHandleTypeOpaqueWin32, 0));
    sem_import_fails("semaphore(OpaqueWin32Kmt)", sem_desc(cudaExternalSemaphoreHandleTypeOpaqueWin32Kmt, 0));
    sem_import_fails("semaphore(D3D12Fence)", sem_desc(cudaExternalSemaphoreHandleTypeD3D12Fence, 0));
    sem_import_fails("semaphore(D3D11Fence)", sem_desc(cudaExternalSemaphoreHandleTypeD3D11Fence, 0));
    sem_import_fails("semaphore(NvSciSync, no object)", sem_desc(cudaExternalSemaphoreHandleTypeNvSciSync, 0));
    sem_import_fails("semaphore(KeyedMutex)", sem_desc(cudaExternalSemaphoreHandleTypeKeyedMutex, 0));
    sem_import_fails("semaphore(KeyedMutexKmt)", sem_desc(cudaExternalSemaphoreHandleTypeKeyedMutexKmt, 0));
    sem_import_fails("semaphore(TimelineSemaphoreWin32)", sem_desc(cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32, 0));
    struct cudaExternalSemaphoreHandleDesc d = sem_desc(cudaExternalSemaphoreHandleTypeOpaqueFd, -1);
    d.flags = 1;
    sem_import_fails("semaphore(OpaqueFd, fd -1, flags 1)", d);
    int fd = open("/dev/null", O_RDWR);
    CHECK(fd >= 0);
    int owned = sem_import_fails("semaphore(OpaqueFd, /dev/null)", sem_desc(cudaExternalSemaphoreHandleTypeOpaqueFd, fd)) == cudaSuccess;
    if (!owned) {
        owned = sem_import_fails("semaphore(TimelineSemaphoreFd, /dev/null)",
                                 sem_desc(cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd, fd)) == cudaSuccess;
    }
    if (!owned) close(fd);

    /* Empty sets: nothing to signal or wait on. */
    cudaStream_t st = NULL;
    OK(cudaStreamCreate(&st));
    SHOW_AND_LAST("Signal(0 semaphores)", cudaSignalExternalSemaphoresAsync(NULL, NULL, 0, 0), "Signal(0 semaphores)");
    SHOW_AND_LAST("Wait(0 semaphores)", cudaWaitExternalSemaphoresAsync(NULL, NULL, 0, 0), "Wait(0 semaphores)");
    SHOW_AND_LAST("Signal(0 semaphores, stream)", cudaSignalExternalSemaphoresAsync(NULL, NULL, 0, st), "Signal(0 semaphores, stream)");
    SHOW_AND_LAST("Wait(0 semaphores, per-thread stream)", cudaWaitExternalSemaphoresAsync(NULL, NULL, 0, cudaStreamPerThread), "Wait(0 semaphores, per-thread stream)");
#if CUDART_VERSION >= 13000
    const char *names[] = {"cudaSignalExternalSemaphoresAsync_ptsz", "cudaWaitExternalSemaphoresAsync_ptsz"};
#else
    const char *names[] = {"cudaSignalExternalSemaphoresAsync_ptsz", "cudaWaitExternalSemaphoresAsync_ptsz",
                           "cudaSignalExternalSemaphoresAsync_v2_ptsz", "cudaWaitExternalSemaphoresAsync_v2_ptsz",
                           "cudaSignalExternalSemaphoresAsync", "cudaWaitExternalSemaphoresAsync"};
#endif
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        sem_op f = sym(names[i]);
        printf("%s exported: %d\n", names[i], f != NULL);
        CHECK(f != NULL);
        if (!f) continue;
        char label[96];
        snprintf(label, sizeof label, "%s(0 semaphores)", names[i]);
        SHOW(label, f(NULL, NULL, 0, 0));
        SHOW_LAST(label);
    }

    /* (No null semaphore in a set: NVIDIA's runtime crashes on it; ours returns
     * an error.) */
    OK(cudaStreamSynchronize(st));
    OK(cudaStreamDestroy(st));
}

static void nvsci(void) {
    SHOW_AND_LAST("NvSciSyncAttributes(NULL, 0, Signal)", cudaDeviceGetNvSciSyncAttributes(NULL, 0, cudaNvSciSyncAttrSignal), "NvSciSyncAttributes(NULL, 0, Signal)");
    SHOW_AND_LAST("NvSciSyncAttributes(NULL, 0, Wait)", cudaDeviceGetNvSciSyncAttributes(NULL, 0, cudaNvSciSyncAttrWait), "NvSciSyncAttributes(NULL, 0, Wait)");
    SHOW_AND_LAST("NvSciSyncAttributes(NULL, 0, both)", cudaDeviceGetNvSciSyncAttributes(NULL, 0, 3), "NvSciSyncAttributes(NULL, 0, both)");
    SHOW_AND_LAST("NvSciSyncAttributes(NULL, 0, 0)", cudaDeviceGetNvSciSyncAttributes(NULL, 0, 0), "NvSciSyncAttributes(NULL, 0, 0)");
    SHOW_AND_LAST("NvSciSyncAttributes(NULL, 0, 4)", cudaDeviceGetNvSciSyncAttributes(NULL, 0, 4), "NvSciSyncAttributes(NULL, 0, 4)");
    SHOW_AND_LAST("NvSciSyncAttributes(NULL, -1, Signal)", cudaDeviceGetNvSciSyncAttributes(NULL, -1, 1), "NvSciSyncAttributes(NULL, -1, Signal)");
    int n = 0;
    OK(cudaGetDeviceCount(&n));
    SHOW_AND_LAST("NvSciSyncAttributes(NULL, count, Signal)", cudaDeviceGetNvSciSyncAttributes(NULL, n, 1), "NvSciSyncAttributes(NULL, count, Signal)");
}

static int load_driver(void) {
    const char *path = getenv("CUDART_RS_DRIVER");
    void *lib = dlopen(path ? path : "libcuda.so.1", RTLD_NOW);
    if (!lib) return 0;
    *(void **)&cuMemGetAllocationGranularity_ = dlsym(lib, "cuMemGetAllocationGranularity");
    *(void **)&cuMemCreate_ = dlsym(lib, "cuMemCreate");
    *(void **)&cuMemRelease_ = dlsym(lib, "cuMemRelease");
    *(void **)&cuMemAddressReserve_ = dlsym(lib, "cuMemAddressReserve");
    *(void **)&cuMemAddressFree_ = dlsym(lib, "cuMemAddressFree");
    *(void **)&cuMemMap_ = dlsym(lib, "cuMemMap");
    *(void **)&cuMemUnmap_ = dlsym(lib, "cuMemUnmap");
    *(void **)&cuMemSetAccess_ = dlsym(lib, "cuMemSetAccess");
    *(void **)&cuMemExportToShareableHandle_ = dlsym(lib, "cuMemExportToShareableHandle");
    return cuMemGetAllocationGranularity_ && cuMemCreate_ && cuMemRelease_ && cuMemAddressReserve_ &&
           cuMemAddressFree_ && cuMemMap_ && cuMemUnmap_ && cuMemSetAccess_ && cuMemExportToShareableHandle_;
}

int main(void) {
    OK(SHOW("cudaFree(NULL)", cudaFree(NULL)));
    int have = load_driver();
    CHECK(have);
    if (have) {
        drv_alloc_prop prop;
        memset(&prop, 0, sizeof prop);
        prop.type = 1;
        prop.requestedHandleTypes = 1;
        prop.location.type = 1;
        prop.location.id = 0;
        size_t gran = 0;
        SHOWI("cuMemGetAllocationGranularity", cuMemGetAllocationGranularity_(&gran, &prop, 0));
        size = gran < (1 << 21) ? (1 << 21) : gran;
        SHOWI("cuMemCreate(POSIX file descriptor)", cuMemCreate_(&alloc, size, &prop, 0));
        SHOWI("cuMemAddressReserve", cuMemAddressReserve_(&va, size, 0, 0, 0));
        SHOWI("cuMemMap", cuMemMap_(va, size, 0, alloc, 0));
        drv_access acc = {{1, 0}, 3};
        SHOWI("cuMemSetAccess", cuMemSetAccess_(va, size, &acc, 1));
        memory();
        SHOWI("cuMemUnmap", cuMemUnmap_(va, size));
        SHOWI("cuMemAddressFree", cuMemAddressFree_(va, size));
        SHOWI("cuMemRelease", cuMemRelease_(alloc));
    }
    memory_errors();
    semaphores();
    nvsci();

    /* Null handles and out pointers, and a NvSci attribute list that is no list, last:
     * NVIDIA's runtime may hand them to the driver. */
    struct cudaExternalMemoryHandleDesc d = mem_desc(cudaExternalMemoryHandleTypeOpaqueFd, -1, 1 << 20);
    SHOW_AND_LAST("cudaImportExternalMemory(NULL out)", cudaImportExternalMemory(NULL, &d), "cudaImportExternalMemory(NULL out)");
    struct cudaExternalSemaphoreHandleDesc sd = sem_desc(cudaExternalSemaphoreHandleTypeOpaqueFd, -1);
    SHOW_AND_LAST("cudaImportExternalSemaphore(NULL out)", cudaImportExternalSemaphore(NULL, &sd), "cudaImportExternalSemaphore(NULL out)");
    struct cudaExternalMemoryBufferDesc b;
    memset(&b, 0, sizeof b);
    b.size = 4096;
    void *p = NULL;
    SHOW_AND_LAST("GetMappedBuffer(NULL memory)", cudaExternalMemoryGetMappedBuffer(&p, NULL, &b), "GetMappedBuffer(NULL memory)");
    struct cudaExternalMemoryMipmappedArrayDesc md = mm_desc(cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned), 16, 16, 1);
    cudaMipmappedArray_t mm = NULL;
    SHOW_AND_LAST("GetMappedMipmappedArray(NULL memory)", cudaExternalMemoryGetMappedMipmappedArray(&mm, NULL, &md), "GetMappedMipmappedArray(NULL memory)");
    if (late) {
        b.size = 4096;
        SHOW_AND_LAST("GetMappedBuffer(NULL devPtr)", cudaExternalMemoryGetMappedBuffer(NULL, late, &b), "GetMappedBuffer(NULL devPtr)");
        md = mm_desc(cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned), 16, 16, 1);
        SHOW_AND_LAST("GetMappedMipmappedArray(NULL out)", cudaExternalMemoryGetMappedMipmappedArray(NULL, late, &md), "GetMappedMipmappedArray(NULL out)");
        OK(SHOW("cudaDestroyExternalMemory(kept import)", cudaDestroyExternalMemory(late)));
    }
    SHOW_AND_LAST("cudaDestroyExternalMemory(NULL)", cudaDestroyExternalMemory(NULL), "cudaDestroyExternalMemory(NULL)");
    SHOW_AND_LAST("cudaDestroyExternalSemaphore(NULL)", cudaDestroyExternalSemaphore(NULL), "cudaDestroyExternalSemaphore(NULL)");
    cudaExternalSemaphore_t none[1] = {NULL};
    SHOW_AND_LAST("Signal(NULL params)", cudaSignalExternalSemaphoresAsync(none, NULL, 1, 0), "Signal(NULL params)");
    SHOW_AND_LAST("Wait(NULL params)", cudaWaitExternalSemaphoresAsync(none, NULL, 1, 0), "Wait(NULL params)");
    unsigned char list[256];
    memset(list, 0, sizeof list);
    SHOW_AND_LAST("NvSciSyncAttributes(not a list, 0, Signal)", cudaDeviceGetNvSciSyncAttributes(list, 0, 1), "NvSciSyncAttributes(not a list, 0, Signal)");
    DONE();
}
