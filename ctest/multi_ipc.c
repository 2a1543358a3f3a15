/* ctest: gpu gpu2
 * IPC between devices. The parent makes, on every device d: device memory with an IPC memory
 * handle, an interprocess event (recorded) with its handle, and a pool with POSIX file
 * descriptor handles, exported, with an allocation whose pointer is exported. In the parent,
 * with another device current, it opens its own handles (what the runtime answers). Then,
 * for every device j, a process of its own (this program again, started fresh) works on
 * device j: it opens the memory handle of every other device's memory (without and with
 * cudaIpcMemLazyEnablePeerAccess), reads it and writes its own slice, opens the event (waits
 * for it on a stream of j, queries it, records it on a stream of j), imports the pool (its
 * access before and after cudaMemPoolSetAccess for j) and the pointer, reads it and writes
 * its slice. The parent then reads every device's memory back: the children's slices. */
#include <fcntl.h>

#include "pool_util.h"

#define MAXD 16
#define SZ (1 << 20)
#define SLICE (SZ / MAXD)

struct exported {
    cudaIpcMemHandle_t mem;
    cudaIpcEventHandle_t event;
    struct cudaMemPoolPtrExportData ptr;
};


static unsigned char h[SZ];

/* Whether n bytes at p (a pointer of this process, read with the current device) are v. */
static const char *all(const void *p, size_t n, int v) {
    memset(h, 0xee, n);
    cudaError_t e = cudaMemcpy(h, p, n, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) return cudaGetErrorName(e);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += h[i] != (unsigned char)v;
    return bad ? "bytes WRONG" : "bytes ok";
}

static void get(const char *label, cudaMemPool_t pool, int dev) {
    enum cudaMemAccessFlags f = (enum cudaMemAccessFlags)0x55;
    struct cudaMemLocation l = loc(cudaMemLocationTypeDevice, dev);
    cudaError_t e = cudaMemPoolGetAccess(&f, pool, &l);
    printf("  %s: %s%s%s\n", label, cudaGetErrorName(e), e == cudaSuccess ? ", " : "", e == cudaSuccess ? access_flag_name((int)f) : "");
    if (e != cudaSuccess) SHOW_LAST("  after it");
}

/* The child for device j: argv "child:J:N:FD0,FD1,...:HEX" (HEX: N struct exported). */
static int child(const char *arg) {
    int j = -1, n = 0, off = 0;
    if (sscanf(arg, "child:%d:%d:%n", &j, &n, &off) != 2 || n < 2 || n > MAXD) return 2;
    const char *s = arg + off;
    int fds[MAXD];
    for (int d = 0; d < n; d++) {
        fds[d] = (int)strtol(s, (char **)&s, 10);
        s++; /* ',' or ':' */
    }
    struct exported ex[MAXD];
    if (ct_unhex(ex, sizeof(struct exported) * (size_t)n, s)) return 2;

    OK(cudaSetDevice(j));
    cudaStream_t sj;
    OK(cudaStreamCreateWithFlags(&sj, cudaStreamNonBlocking));
    for (int d = 0; d < n; d++) {
        if (d == j) continue;
        printf("process on device %d, device %d's exports:\n", j, d);
        void *p = NULL;
        /* Not touched: without peer access a copy from it could fault this process. */
        if (SHOW_CALL("cudaIpcOpenMemHandle, flags 0", cudaIpcOpenMemHandle(&p, ex[d].mem, 0)) == cudaSuccess)
            SHOW_CALL("cudaIpcCloseMemHandle", cudaIpcCloseMemHandle(p));
        p = NULL;
        if (SHOW_CALL("cudaIpcOpenMemHandle, lazy peer access", cudaIpcOpenMemHandle(&p, ex[d].mem, cudaIpcMemLazyEnablePeerAccess)) ==
            cudaSuccess) {
            struct cudaPointerAttributes a;
            memset(&a, 0, sizeof a);
            SHOW_CALL("cudaPointerGetAttributes", cudaPointerGetAttributes(&a, p));
            printf("    type %d, device %d\n", (int)a.type, a.device);
            printf("    read: %s\n", all(p, SZ, 0x10 + d));
            SHOW_CALL("cudaMemsetAsync of its slice on a stream of this device",
                 cudaMemsetAsync((char *)p + (size_t)j * SLICE, 0x80 + j, SLICE, sj));
            OK(cudaStreamSynchronize(sj));
            SHOW_CALL("cudaIpcCloseMemHandle", cudaIpcCloseMemHandle(p));
        }
        cudaEvent_t e = NULL;
        if (SHOW_CALL("cudaIpcOpenEventHandle", cudaIpcOpenEventHandle(&e, ex[d].event)) == cudaSuccess) {
            SHOW_CALL("cudaStreamWaitEvent on a stream of this device", cudaStreamWaitEvent(sj, e, 0));
            OK(cudaStreamSynchronize(sj));
            SHOW_CALL("cudaEventQuery", cudaEventQuery(e));
            SHOW_CALL("cudaEventSynchronize", cudaEventSynchronize(e));
            SHOW_CALL("cudaEventRecord on a stream of this device", cudaEventRecord(e, sj));
            OK(cudaStreamSynchronize(sj));
            SHOW_CALL("cudaEventDestroy", cudaEventDestroy(e));
        }
        cudaMemPool_t pool = NULL;
        if (SHOW_CALL("cudaMemPoolImportFromShareableHandle",
                 cudaMemPoolImportFromShareableHandle(&pool, (void *)(intptr_t)fds[d], cudaMemHandleTypePosixFileDescriptor, 0)) ==
            cudaSuccess) {
            get("pool's device's access", pool, d);
            get("this device's access", pool, j);
            struct cudaMemAccessDesc acc;
            acc.location = loc(cudaMemLocationTypeDevice, j);
            acc.flags = cudaMemAccessFlagsProtReadWrite;
            cudaError_t rw = SHOW_CALL("cudaMemPoolSetAccess, this device read-write", cudaMemPoolSetAccess(pool, &acc, 1));
            get("then this device's access", pool, j);
            void *q = NULL;
            if (SHOW_CALL("cudaMemPoolImportPointer", cudaMemPoolImportPointer(&q, pool, &ex[d].ptr)) == cudaSuccess) {
                struct cudaPointerAttributes a;
                memset(&a, 0, sizeof a);
                SHOW_CALL("cudaPointerGetAttributes", cudaPointerGetAttributes(&a, q));
                printf("    type %d, device %d\n", (int)a.type, a.device);
                /* Touched only with access (without, it could fault this process). */
                if (rw == cudaSuccess) {
                    printf("    read: %s\n", all(q, SZ, 0x20 + d));
                    SHOW_CALL("cudaMemsetAsync of its slice", cudaMemsetAsync((char *)q + (size_t)j * SLICE, 0xc0 + j, SLICE, sj));
                    OK(cudaStreamSynchronize(sj));
                }
                SHOW_CALL("cudaFreeAsync of the imported pointer", cudaFreeAsync(q, sj));
                OK(cudaStreamSynchronize(sj));
            }
            SHOW_CALL("cudaMemPoolDestroy of the imported pool", cudaMemPoolDestroy(pool));
        }
    }
    OK(cudaStreamDestroy(sj));
    SHOW_LAST("process on device");
    fflush(stdout);
    return ct_failed ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc > 1) return child(argv[1]);
    int n = ct_devices_or_skip();
    if (n > MAXD) n = MAXD;
    void *mem[MAXD], *pp[MAXD];
    cudaEvent_t ev[MAXD];
    cudaStream_t st[MAXD];
    cudaMemPool_t pool[MAXD];
    int fds[MAXD];
    struct exported ex[MAXD];
    memset(ex, 0, sizeof ex);
    for (int d = 0; d < n; d++) {
        OK(cudaSetDevice(d));
        OK(cudaStreamCreateWithFlags(&st[d], cudaStreamNonBlocking));
        OK(cudaMalloc(&mem[d], SZ));
        OK(cudaMemsetAsync(mem[d], 0x10 + d, SZ, st[d]));
        OK(cudaIpcGetMemHandle(&ex[d].mem, mem[d]));
        OK(cudaEventCreateWithFlags(&ev[d], cudaEventDisableTiming | cudaEventInterprocess));
        OK(cudaEventRecord(ev[d], st[d]));
        OK(cudaIpcGetEventHandle(&ex[d].event, ev[d]));
        struct cudaMemPoolProps props = pool_props(cudaMemLocationTypeDevice, d);
        props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
        OK(cudaMemPoolCreate(&pool[d], &props));
        int fd = -1;
        OK(cudaMemPoolExportToShareableHandle(&fd, pool[d], cudaMemHandleTypePosixFileDescriptor, 0));
        fds[d] = fd >= 0 ? dup(fd) : -1; /* without close-on-exec, for the children */
        if (fd >= 0) close(fd);
        OK(cudaMallocFromPoolAsync(&pp[d], SZ, pool[d], st[d]));
        OK(cudaMemsetAsync(pp[d], 0x20 + d, SZ, st[d]));
        OK(cudaMemPoolExportPointer(&ex[d].ptr, pp[d]));
        OK(cudaStreamSynchronize(st[d]));
    }

    /* This process's own exports, opened with another device current. */
    for (int d = 0; d < n; d++) {
        int other = (d + 1) % n;
        OK(cudaSetDevice(other));
        printf("this process, device %d current, device %d's exports:\n", other, d);
        void *p = NULL;
        if (SHOW_CALL("cudaIpcOpenMemHandle", cudaIpcOpenMemHandle(&p, ex[d].mem, cudaIpcMemLazyEnablePeerAccess)) == cudaSuccess)
            SHOW_CALL("cudaIpcCloseMemHandle", cudaIpcCloseMemHandle(p));
        cudaEvent_t e = NULL;
        if (SHOW_CALL("cudaIpcOpenEventHandle", cudaIpcOpenEventHandle(&e, ex[d].event)) == cudaSuccess) {
            SHOW_CALL("cudaEventQuery", cudaEventQuery(e));
            SHOW_CALL("cudaEventDestroy", cudaEventDestroy(e));
        }
        SHOW_CALL("cudaEventRecord of the event on a stream of the current device", cudaEventRecord(ev[d], st[other]));
        OK(cudaStreamSynchronize(st[other]));
        void *q = NULL;
        if (SHOW_CALL("cudaMemPoolImportPointer into its own pool", cudaMemPoolImportPointer(&q, pool[d], &ex[d].ptr)) == cudaSuccess)
            printf("    the exported pointer: %d\n", (int)(q == pp[d]));
    }

    /* A process for each device. */
    size_t len = 64 + (size_t)n * (12 + 2 * sizeof(struct exported));
    char *arg = malloc(len);
    for (int j = 0; j < n; j++) {
        int o = snprintf(arg, len, "child:%d:%d:", j, n);
        for (int d = 0; d < n; d++) o += snprintf(arg + o, len - (size_t)o, "%d%c", fds[d], d + 1 < n ? ',' : ':');
        ct_hex(arg + o, ex, sizeof(struct exported) * (size_t)n);
        ct_failed |= ct_in_fresh_process(arg);
    }
    free(arg);

    /* What the children wrote. */
    for (int d = 0; d < n; d++) {
        OK(cudaSetDevice(d));
        for (int which = 0; which < 2; which++) {
            void *p = which ? pp[d] : mem[d];
            memset(h, 0xee, SZ);
            OK(cudaMemcpy(h, p, SZ, cudaMemcpyDeviceToHost));
            /* Each slice's bytes: the process on device j wrote slice j (0x80 + j in the memory,
             * 0xc0 + j in the pool allocation) where it could. */
            printf("device %d's %s after the children:", d, which ? "pool allocation" : "memory");
            for (int j = 0; j < n; j++) {
                const unsigned char *sl = h + (size_t)j * SLICE;
                size_t same = 1;
                while (same < SLICE && sl[same] == sl[0]) same++;
                if (same == SLICE)
                    printf(" 0x%02x", sl[0]);
                else
                    printf(" mixed");
            }
            printf("\n");
        }
    }
    for (int d = 0; d < n; d++) {
        OK(cudaSetDevice(d));
        OK(cudaFreeAsync(pp[d], st[d]));
        OK(cudaStreamSynchronize(st[d]));
        OK(cudaMemPoolDestroy(pool[d]));
        OK(cudaEventDestroy(ev[d]));
        OK(cudaStreamDestroy(st[d]));
        OK(cudaFree(mem[d]));
        if (fds[d] >= 0) close(fds[d]);
    }
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
