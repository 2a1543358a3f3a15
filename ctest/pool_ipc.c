/* Memory pools between processes. The test forks before any CUDA call; the parent creates a
 * pool with POSIX file descriptor handles, exports it (cudaMemPoolExportToShareableHandle),
 * allocates from it, fills the allocation, exports the pointer (cudaMemPoolExportPointer) and
 * sends the descriptor (SCM_RIGHTS over a socketpair) and the export data to the child; the
 * child imports the pool (cudaMemPoolImportFromShareableHandle) and the pointer
 * (cudaMemPoolImportPointer), reads the parent's bytes, writes its own, and frees the import;
 * then the parent reads the child's bytes. Around that: what an imported pool refuses, and
 * the errors of the export and import calls (pools without handle types, other handle types,
 * flags, bad descriptors, bad export data, pointers that are not from a shareable pool). The
 * two processes print in turn (each waits for the other's message), so the output is in one
 * order. */
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "pool_util.h"

#define SZ (1 << 20)

struct to_child {
    int ok; /* the descriptor and data are there */
    struct cudaMemPoolPtrExportData data;
};

struct to_parent {
    int done;
};

/* Sends buf and, when fd >= 0, the descriptor with it. */
static int send_msg(int sock, int fd, const void *buf, size_t len) {
    struct msghdr m;
    memset(&m, 0, sizeof m);
    struct iovec io;
    io.iov_base = (void *)buf;
    io.iov_len = len;
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    union {
        char b[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } c;
    if (fd >= 0) {
        memset(&c, 0, sizeof c);
        m.msg_control = c.b;
        m.msg_controllen = sizeof c.b;
        struct cmsghdr *h = CMSG_FIRSTHDR(&m);
        h->cmsg_level = SOL_SOCKET;
        h->cmsg_type = SCM_RIGHTS;
        h->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(h), &fd, sizeof(int));
    }
    return sendmsg(sock, &m, 0) == (ssize_t)len ? 0 : -1;
}

/* Receives len bytes into buf and a descriptor if one came with them (else -1). */
static int recv_msg(int sock, int *fd, void *buf, size_t len) {
    struct msghdr m;
    memset(&m, 0, sizeof m);
    struct iovec io;
    io.iov_base = buf;
    io.iov_len = len;
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    union {
        char b[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } c;
    memset(&c, 0, sizeof c);
    m.msg_control = c.b;
    m.msg_controllen = sizeof c.b;
    *fd = -1;
    if (recvmsg(sock, &m, MSG_WAITALL) != (ssize_t)len) return -1;
    for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h))
        if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS) memcpy(fd, CMSG_DATA(h), sizeof(int));
    return 0;
}

static void check_bytes(const char *label, const unsigned char *h, size_t from, size_t to, int v) {
    size_t bad = 0;
    for (size_t i = from; i < to; i++) bad += h[i] != (unsigned char)v;
    printf("%s: %s\n", label, bad ? "wrong" : "ok");
    CHECK(bad == 0);
}

static int child(int sock) {
    struct to_child in;
    int fd = -1;
    if (recv_msg(sock, &fd, &in, sizeof in)) {
        printf("FAIL child: no message\n");
        return 1;
    }
    printf("child: descriptor received: %d\n", fd >= 0);
    if (in.ok && fd >= 0) {
        cudaMemPool_t ipool = NULL;
        cudaMemPool_t bad = NULL;
        SHOW("child: import with descriptor -1", cudaMemPoolImportFromShareableHandle(&bad, (void *)(intptr_t)-1,
                                                                                      cudaMemHandleTypePosixFileDescriptor, 0));
        SHOW_LAST("child: import -1");
        SHOW("child: import with handle type none",
             cudaMemPoolImportFromShareableHandle(&bad, (void *)(intptr_t)fd, cudaMemHandleTypeNone, 0));
        SHOW_LAST("child: import type none");
        SHOW("child: import with flags 1",
             cudaMemPoolImportFromShareableHandle(&bad, (void *)(intptr_t)fd, cudaMemHandleTypePosixFileDescriptor, 1));
        SHOW_LAST("child: import flags 1");
        cudaError_t e = SHOW("child: cudaMemPoolImportFromShareableHandle",
                             cudaMemPoolImportFromShareableHandle(&ipool, (void *)(intptr_t)fd,
                                                                  cudaMemHandleTypePosixFileDescriptor, 0));
        if (e == cudaSuccess) {
            void *q = NULL;
            struct cudaMemPoolPtrExportData zero;
            memset(&zero, 0, sizeof zero);
            SHOW("child: import pointer from zeroed data", cudaMemPoolImportPointer(&q, ipool, &zero));
            SHOW_LAST("child: zeroed data");
            SHOW("child: import pointer into a NULL pool", cudaMemPoolImportPointer(&q, NULL, &in.data));
            SHOW_LAST("child: NULL pool");
            q = NULL;
            e = SHOW("child: cudaMemPoolImportPointer", cudaMemPoolImportPointer(&q, ipool, &in.data));
            if (e == cudaSuccess) {
                unsigned char *h = malloc(SZ);
                OK(cudaMemcpy(h, q, SZ, cudaMemcpyDeviceToHost));
                check_bytes("child: the parent's bytes", h, 0, SZ, 0x11);
                OK(SHOW("child: cudaMemset(first half)", cudaMemset(q, 0x22, SZ / 2)));
                OK(cudaDeviceSynchronize());
                OK(cudaMemcpy(h, q, SZ, cudaMemcpyDeviceToHost));
                check_bytes("child: own bytes", h, 0, SZ / 2, 0x22);
                free(h);
                struct cudaPointerAttributes a;
                memset(&a, 0, sizeof a);
                SHOW("child: cudaPointerGetAttributes(imported)", cudaPointerGetAttributes(&a, q));
                printf("child:   type %d, device %d, devicePointer == p: %d\n", (int)a.type, a.device,
                       (int)(a.devicePointer == q));
                void *r = (void *)0x1;
                SHOW("child: cudaMallocFromPoolAsync(imported pool)", cudaMallocFromPoolAsync(&r, 4096, ipool, 0));
                SHOW_LAST("child: allocate from imported");
                SHOW("child: cudaDeviceSetMemPool(imported pool)", cudaDeviceSetMemPool(0, ipool));
                SHOW_LAST("child: set imported");
                int fd2 = -1;
                if (SHOW("child: export the imported pool again",
                         cudaMemPoolExportToShareableHandle(&fd2, ipool, cudaMemHandleTypePosixFileDescriptor, 0)) ==
                    cudaSuccess)
                    close(fd2);
                else
                    SHOW_LAST("child: re-export");
                SHOWU("child: imported pool's used memory", pool_u64(ipool, cudaMemPoolAttrUsedMemCurrent));
                OK(SHOW("child: cudaFree(imported pointer)", cudaFree(q)));
            }
            OK(SHOW("child: cudaMemPoolDestroy(imported pool)", cudaMemPoolDestroy(ipool)));
        }
        close(fd);
    }
    printf("child: last error %s\n", cudaGetErrorName(cudaGetLastError()));
    fflush(stdout);
    struct to_parent out = {1};
    if (send_msg(sock, -1, &out, sizeof out)) printf("FAIL child: cannot answer\n");
    return ct_failed;
}

int main(void) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
        printf("FAIL socketpair\n");
        return 1;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        printf("FAIL fork\n");
        return 1;
    }
    if (pid == 0) {
        close(sv[0]);
        int r = child(sv[1]);
        fflush(stdout);
        _exit(r ? 1 : 0);
    }
    close(sv[1]);
    int sock = sv[0];

    int types = -1;
    OK(cudaDeviceGetAttribute(&types, cudaDevAttrMemoryPoolSupportedHandleTypes, 0));
    SHOWI("cudaDevAttrMemoryPoolSupportedHandleTypes", types);
    cudaStream_t s;
    OK(cudaStreamCreate(&s));

    /* What cannot be exported. */
    struct cudaMemPoolProps plain_props = pool_props(cudaMemLocationTypeDevice, 0);
    cudaMemPool_t plain = NULL, dflt = NULL;
    OK(cudaMemPoolCreate(&plain, &plain_props));
    OK(cudaDeviceGetDefaultMemPool(&dflt, 0));
    int fd = -1;
    SHOW("export a pool without handle types", cudaMemPoolExportToShareableHandle(&fd, plain, cudaMemHandleTypePosixFileDescriptor, 0));
    SHOW_LAST("no handle types");
    SHOW("export the default pool", cudaMemPoolExportToShareableHandle(&fd, dflt, cudaMemHandleTypePosixFileDescriptor, 0));
    SHOW_LAST("default pool");
    SHOW("export a NULL pool", cudaMemPoolExportToShareableHandle(&fd, NULL, cudaMemHandleTypePosixFileDescriptor, 0));
    SHOW_LAST("NULL pool");

    struct cudaMemPoolProps props = pool_props(cudaMemLocationTypeDevice, 0);
    props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
    cudaMemPool_t pool = NULL;
    cudaError_t created = SHOW("cudaMemPoolCreate(POSIX fd handles)", cudaMemPoolCreate(&pool, &props));
    struct to_child msg;
    memset(&msg, 0, sizeof msg);
    void *p = NULL;
    if (created == cudaSuccess) {
        SHOW("export as a Win32 handle", cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypeWin32, 0));
        SHOW_LAST("Win32");
        SHOW("export as a fabric handle", cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypeFabric, 0));
        SHOW_LAST("fabric");
        SHOW("export with handle type none", cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypeNone, 0));
        SHOW_LAST("none");
        SHOW("export with flags 1", cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 1));
        SHOW_LAST("flags 1");
        fd = -1;
        cudaError_t e = SHOW("cudaMemPoolExportToShareableHandle(POSIX fd)",
                             cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));
        printf("  descriptor valid: %d\n", fd >= 0);

        OK(SHOW("cudaMallocFromPoolAsync(shareable pool)", cudaMallocFromPoolAsync(&p, SZ, pool, s)));
        OK(cudaMemsetAsync(p, 0x11, SZ, s));
        OK(cudaStreamSynchronize(s));

        /* What cannot be exported as a pointer. */
        struct cudaMemPoolPtrExportData junk;
        void *m = NULL, *np = NULL;
        OK(cudaMalloc(&m, 4096));
        SHOW("export a cudaMalloc pointer", cudaMemPoolExportPointer(&junk, m));
        SHOW_LAST("cudaMalloc pointer");
        OK(cudaFree(m));
        OK(cudaMallocFromPoolAsync(&np, 4096, plain, s));
        OK(cudaStreamSynchronize(s));
        SHOW("export a pointer of a pool without handle types", cudaMemPoolExportPointer(&junk, np));
        SHOW_LAST("pointer of a plain pool");
        OK(cudaFreeAsync(np, s));
        SHOW("export a pointer inside the allocation", cudaMemPoolExportPointer(&junk, (char *)p + 4096));
        SHOW_LAST("inside");
        SHOW("export NULL", cudaMemPoolExportPointer(&junk, NULL));
        SHOW_LAST("NULL pointer");

        cudaError_t pe = SHOW("cudaMemPoolExportPointer", cudaMemPoolExportPointer(&msg.data, p));
        msg.ok = e == cudaSuccess && pe == cudaSuccess && fd >= 0;
    }
    fflush(stdout);
    if (send_msg(sock, msg.ok ? fd : -1, &msg, sizeof msg)) printf("FAIL parent: cannot send\n");
    struct to_parent back;
    int none = -1;
    if (recv_msg(sock, &none, &back, sizeof back) || !back.done) printf("FAIL parent: no answer\n");
    int status = -1;
    waitpid(pid, &status, 0);
    printf("child exited with status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    if (p) {
        unsigned char *h = malloc(SZ);
        OK(cudaMemcpy(h, p, SZ, cudaMemcpyDeviceToHost));
        if (msg.ok) check_bytes("parent: the child's bytes", h, 0, SZ / 2, 0x22);
        check_bytes("parent: its own bytes", h, SZ / 2, SZ, 0x11);
        free(h);
        OK(cudaFreeAsync(p, s));
        OK(cudaStreamSynchronize(s));
    }
    if (fd >= 0) close(fd);
    if (pool) OK(cudaMemPoolDestroy(pool));
    OK(cudaMemPoolDestroy(plain));
    OK(cudaStreamDestroy(s));

    /* Last, as the driver alone judges them: NULL out-pointers. */
    struct cudaMemPoolProps lp = pool_props(cudaMemLocationTypeDevice, 0);
    lp.handleTypes = cudaMemHandleTypePosixFileDescriptor;
    cudaMemPool_t last = NULL;
    if (cudaMemPoolCreate(&last, &lp) == cudaSuccess) {
        SHOW("export into NULL", cudaMemPoolExportToShareableHandle(NULL, last, cudaMemHandleTypePosixFileDescriptor, 0));
        SHOW_LAST("export into NULL");
        OK(cudaMemPoolDestroy(last));
    }
    SHOW("export pointer data into NULL", cudaMemPoolExportPointer(NULL, NULL));
    SHOW_LAST("export data into NULL");
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
