/* Page-locked host memory: cudaMallocHost, cudaHostAlloc, cudaFreeHost, cudaHostRegister,
 * cudaHostUnregister, cudaHostGetDevicePointer, cudaHostGetFlags. */
#include "ctest.h"

#define PAGE 4096

static void flags_of(const char *label, unsigned int flags) {
    void *h = NULL;
    char l[96];
    snprintf(l, sizeof l, "cudaHostAlloc(flags=%u)", flags);
    OK(SHOW(l, cudaHostAlloc(&h, 8192, flags)));
    CHECK(h != NULL);
    if (!h) return;
    memset(h, 0x5a, 8192);
    CHECK(((unsigned char *)h)[8191] == 0x5a);
    unsigned int got = 0xdead;
    OK(SHOW("  cudaHostGetFlags", cudaHostGetFlags(&got, h)));
    printf("  %s flags = %u\n", label, got);
    void *d = NULL;
    SHOW("  cudaHostGetDevicePointer", cudaHostGetDevicePointer(&d, h, 0));
    printf("  devicePointer == host: %d\n", (int)(d == h));
    /* An interior pointer is inside the allocation too. */
    got = 0xdead;
    SHOW("  cudaHostGetFlags(h + 100)", cudaHostGetFlags(&got, (char *)h + 100));
    printf("  interior flags = %u\n", got);
    d = NULL;
    SHOW("  cudaHostGetDevicePointer(h + 100)", cudaHostGetDevicePointer(&d, (char *)h + 100, 0));
    printf("  interior devicePointer == host + 100: %d\n", (int)(d == (char *)h + 100));
    OK(SHOW("  cudaFreeHost", cudaFreeHost(h)));
}

int main(void) {
    /* cudaMallocHost */
    void *h = (void *)1;
    OK(SHOW("cudaMallocHost(4096)", cudaMallocHost(&h, 4096)));
    CHECK(h != NULL && h != (void *)1);
    if (h && h != (void *)1) {
        memset(h, 0xab, 4096);
        CHECK(((unsigned char *)h)[4095] == 0xab);
    }
    unsigned int fl = 0xdead;
    OK(SHOW("cudaHostGetFlags(cudaMallocHost)", cudaHostGetFlags(&fl, h)));
    SHOWU("cudaMallocHost flags", fl);
    OK(SHOW("cudaFreeHost", cudaFreeHost(h)));
    SHOW("cudaFreeHost again", cudaFreeHost(h));
    SHOW_LAST("double cudaFreeHost");
    h = (void *)1;
    SHOW("cudaMallocHost(0)", cudaMallocHost(&h, 0));
    printf("size 0 gives NULL: %d\n", (int)(h == NULL));
    SHOW("cudaMallocHost(NULL, 16)", cudaMallocHost(NULL, 16));
    SHOW_LAST("cudaMallocHost(NULL)");
    SHOW("cudaMallocHost(1<<62)", cudaMallocHost(&h, (size_t)1 << 62));
    SHOW_LAST("huge cudaMallocHost");
    SHOW("cudaFreeHost(NULL)", cudaFreeHost(NULL));
    SHOW_LAST("cudaFreeHost(NULL)");
    void *heap = malloc(64);
    SHOW("cudaFreeHost(malloc pointer)", cudaFreeHost(heap));
    SHOW_LAST("cudaFreeHost(malloc)");
    free(heap);
    void *dev = NULL;
    OK(cudaMalloc(&dev, 4096));
    SHOW("cudaFreeHost(device pointer)", cudaFreeHost(dev));
    SHOW_LAST("cudaFreeHost(device)");
    OK(cudaFree(dev));

    /* cudaHostAlloc with every flag combination. */
    flags_of("Default", cudaHostAllocDefault);
    flags_of("Portable", cudaHostAllocPortable);
    flags_of("Mapped", cudaHostAllocMapped);
    flags_of("WriteCombined", cudaHostAllocWriteCombined);
    flags_of("Portable|Mapped", cudaHostAllocPortable | cudaHostAllocMapped);
    flags_of("all", cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined);
    h = (void *)1;
    SHOW("cudaHostAlloc(0)", cudaHostAlloc(&h, 0, cudaHostAllocMapped));
    printf("size 0 gives NULL: %d\n", (int)(h == NULL));
    SHOW("cudaHostAlloc(flags=8)", cudaHostAlloc(&h, 64, 8));
    SHOW_LAST("cudaHostAlloc(flags=8)");
    SHOW("cudaHostAlloc(flags=0x80000000)", cudaHostAlloc(&h, 64, 0x80000000u));
    SHOW_LAST("cudaHostAlloc(flags=0x80000000)");
    SHOW("cudaHostAlloc(size 0, flags=8)", cudaHostAlloc(&h, 0, 8));
    SHOW("cudaHostAlloc(NULL)", cudaHostAlloc(NULL, 64, 0));
    SHOW_LAST("cudaHostAlloc(NULL)");
    SHOW("cudaHostAlloc(1<<62)", cudaHostAlloc(&h, (size_t)1 << 62, 0));
    SHOW_LAST("huge cudaHostAlloc");

    /* Queries on memory that is not page-locked. */
    char local[256];
    SHOW("cudaHostGetFlags(stack)", cudaHostGetFlags(&fl, local));
    SHOW_LAST("cudaHostGetFlags(stack)");
    SHOW("cudaHostGetFlags(NULL host)", cudaHostGetFlags(&fl, NULL));
    SHOW("cudaHostGetFlags(NULL flags)", cudaHostGetFlags(NULL, local));
    SHOW_LAST("cudaHostGetFlags(NULL flags)");
    void *d = (void *)1;
    SHOW("cudaHostGetDevicePointer(stack)", cudaHostGetDevicePointer(&d, local, 0));
    SHOW_LAST("cudaHostGetDevicePointer(stack)");
    SHOW("cudaHostGetDevicePointer(NULL host)", cudaHostGetDevicePointer(&d, NULL, 0));
    SHOW_LAST("cudaHostGetDevicePointer(NULL host)");
    void *m = NULL;
    OK(cudaHostAlloc(&m, 4096, cudaHostAllocMapped));
    SHOW("cudaHostGetDevicePointer(flags=1)", cudaHostGetDevicePointer(&d, m, 1));
    SHOW_LAST("cudaHostGetDevicePointer(flags=1)");
    SHOW("cudaHostGetDevicePointer(NULL out)", cudaHostGetDevicePointer(NULL, m, 0));
    SHOW_LAST("cudaHostGetDevicePointer(NULL out)");
    OK(cudaFreeHost(m));

    /* cudaHostRegister / cudaHostUnregister on page-aligned malloc'd memory. */
    unsigned char *buf = aligned_alloc(PAGE, 16 * PAGE);
    CHECK(buf != NULL);
    if (!buf) DONE();
    memset(buf, 0x11, 16 * PAGE);
    OK(SHOW("cudaHostRegister(Default)", cudaHostRegister(buf, 16 * PAGE, cudaHostRegisterDefault)));
    fl = 0xdead;
    SHOW("cudaHostGetFlags(registered)", cudaHostGetFlags(&fl, buf));
    SHOWU("registered Default flags", fl);
    d = NULL;
    SHOW("cudaHostGetDevicePointer(registered)", cudaHostGetDevicePointer(&d, buf, 0));
    printf("devicePointer non-NULL: %d\n", (int)(d != NULL));
    CHECK(buf[16 * PAGE - 1] == 0x11);
    SHOW("cudaHostRegister again", cudaHostRegister(buf, 16 * PAGE, 0));
    SHOW_LAST("register twice");
    SHOW("cudaHostRegister(overlapping)", cudaHostRegister(buf + 4 * PAGE, 4 * PAGE, 0));
    SHOW_LAST("register overlapping");
    SHOW("cudaHostUnregister(buf + PAGE)", cudaHostUnregister(buf + PAGE));
    SHOW_LAST("unregister interior");
    OK(SHOW("cudaHostUnregister(buf)", cudaHostUnregister(buf)));
    SHOW("cudaHostUnregister(buf) again", cudaHostUnregister(buf));
    SHOW_LAST("unregister twice");
    SHOW("cudaHostGetFlags(after unregister)", cudaHostGetFlags(&fl, buf));
    SHOW_LAST("flags after unregister");

    OK(SHOW("cudaHostRegister(Portable|Mapped)",
            cudaHostRegister(buf, 16 * PAGE, cudaHostRegisterPortable | cudaHostRegisterMapped)));
    fl = 0xdead;
    SHOW("cudaHostGetFlags(Portable|Mapped)", cudaHostGetFlags(&fl, buf));
    SHOWU("registered Portable|Mapped flags", fl);
    d = NULL;
    OK(SHOW("cudaHostGetDevicePointer(mapped registered)", cudaHostGetDevicePointer(&d, buf, 0)));
    printf("devicePointer non-NULL: %d\n", (int)(d != NULL));
    OK(SHOW("cudaHostUnregister", cudaHostUnregister(buf)));

    /* Two registrations of disjoint halves. */
    OK(SHOW("cudaHostRegister(first half)", cudaHostRegister(buf, 8 * PAGE, 0)));
    OK(SHOW("cudaHostRegister(second half)", cudaHostRegister(buf + 8 * PAGE, 8 * PAGE, 0)));
    OK(SHOW("cudaHostUnregister(second half)", cudaHostUnregister(buf + 8 * PAGE)));
    OK(SHOW("cudaHostUnregister(first half)", cudaHostUnregister(buf)));

    /* An unaligned range is accepted (the driver rounds to pages). */
    SHOW("cudaHostRegister(unaligned)", cudaHostRegister(buf + 100, 1000, 0));
    SHOW("cudaHostUnregister(unaligned)", cudaHostUnregister(buf + 100));
    SHOW_LAST("unaligned");

    /* Flag and argument checks. */
    SHOW("cudaHostRegister(NULL)", cudaHostRegister(NULL, PAGE, 0));
    SHOW_LAST("cudaHostRegister(NULL)");
    SHOW("cudaHostRegister(size 0)", cudaHostRegister(buf, 0, 0));
    SHOW_LAST("cudaHostRegister(size 0)");
    SHOW("cudaHostRegister(flags=0x10)", cudaHostRegister(buf, PAGE, 0x10));
    SHOW_LAST("cudaHostRegister(flags=0x10)");
    SHOW("cudaHostRegister(flags=~0)", cudaHostRegister(buf, PAGE, ~0u));
    SHOW_LAST("cudaHostRegister(flags=~0)");
    OK(SHOW("cudaHostRegister(one page)", cudaHostRegister(buf, PAGE, 0)));
    OK(SHOW("cudaHostUnregister(one page)", cudaHostUnregister(buf)));
    void *pinned = NULL;
    OK(cudaMallocHost(&pinned, PAGE));
    SHOW("cudaHostRegister(cudaMallocHost memory)", cudaHostRegister(pinned, PAGE, 0));
    SHOW_LAST("register pinned");
    SHOW("cudaHostUnregister(cudaMallocHost memory)", cudaHostUnregister(pinned));
    SHOW_LAST("unregister pinned");
    OK(cudaFreeHost(pinned));
    SHOW("cudaHostUnregister(NULL)", cudaHostUnregister(NULL));
    SHOW_LAST("cudaHostUnregister(NULL)");
    SHOW("cudaHostUnregister(never registered)", cudaHostUnregister(buf));
    SHOW_LAST("unregister never registered");
    free(buf);
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
