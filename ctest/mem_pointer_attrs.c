/* cudaPointerGetAttributes on every kind of memory, field by field. */
#include "ctest.h"

#define PAGE 4096

/* Prints the attributes of p; pointers only as comparisons with p and NULL. */
static void show(const char *label, const void *p) {
    struct cudaPointerAttributes a;
    if (!ct_pointer_attributes(label, p, &a)) return;
    printf("  type = %s\n", ct_memory_type_name((int)a.type));
    printf("  device = %d\n", a.device);
    printf("  devicePointer == p: %d, NULL: %d\n", (int)(a.devicePointer == p), (int)(a.devicePointer == NULL));
    printf("  hostPointer == p: %d, NULL: %d\n", (int)(a.hostPointer == p), (int)(a.hostPointer == NULL));
}

int main(void) {
    int dev = -1;
    OK(cudaGetDevice(&dev));
    SHOWI("current device", dev);

    void *d = NULL;
    OK(cudaMalloc(&d, 1 << 16));
    show("cudaMalloc", d);
    show("cudaMalloc + 100", (char *)d + 100);

    void *pd = NULL;
    size_t pitch = 0;
    OK(cudaMallocPitch(&pd, &pitch, 100, 10));
    show("cudaMallocPitch", pd);

    void *h = NULL;
    OK(cudaMallocHost(&h, PAGE));
    show("cudaMallocHost", h);

    void *hm = NULL;
    OK(cudaHostAlloc(&hm, PAGE, cudaHostAllocMapped | cudaHostAllocPortable));
    show("cudaHostAlloc(Mapped|Portable)", hm);
    void *hmd = NULL;
    OK(cudaHostGetDevicePointer(&hmd, hm, 0));
    printf("cudaHostGetDevicePointer == host: %d\n", (int)(hmd == hm));

    void *wc = NULL;
    OK(cudaHostAlloc(&wc, PAGE, cudaHostAllocWriteCombined));
    show("cudaHostAlloc(WriteCombined)", wc);

    void *m = NULL;
    OK(cudaMallocManaged(&m, PAGE, cudaMemAttachGlobal));
    show("cudaMallocManaged(Global)", m);
    void *mh = NULL;
    OK(cudaMallocManaged(&mh, PAGE, cudaMemAttachHost));
    show("cudaMallocManaged(Host)", mh);

    unsigned char *reg = aligned_alloc(PAGE, 4 * PAGE);
    CHECK(reg != NULL);
    OK(SHOW("cudaHostRegister(Mapped)", cudaHostRegister(reg, 4 * PAGE, cudaHostRegisterMapped)));
    show("registered", reg);
    show("registered + PAGE", reg + PAGE);
    void *regd = NULL;
    OK(cudaHostGetDevicePointer(&regd, reg, 0));
    show("registered, device alias", regd);
    OK(cudaHostUnregister(reg));
    show("after unregister", reg);

    int local = 0;
    show("stack", &local);
    void *heap = malloc(100);
    show("malloc", heap);
    free(heap);
    show("NULL", NULL);
    show("0x1000", (void *)0x1000);

    OK(cudaFree(d));
    show("freed cudaMalloc", d);

    SHOW("cudaPointerGetAttributes(NULL attrs)", cudaPointerGetAttributes(NULL, pd));
    SHOW_LAST("NULL attrs");

    OK(cudaFree(pd));
    ct_free_host(h, hm, wc, NULL);
    ct_free_device(m, mh, NULL);
    show("freed managed", m);
    free(reg);
    SHOW("cudaGetLastError", cudaGetLastError());
    DONE();
}
