/* Calls NVIDIA's runtime makes without making a context current, before any context exists
 * and after cudaDeviceReset (which leaves the reset primary context current): the range
 * attribute queries get the driver's answer for no context (cudaErrorDeviceUninitialized)
 * and for a reset one (cudaErrorContextIsDestroyed); the pointer attributes and the array
 * queries need none. Calls that need a context make the primary context current again.
 * (Differential tester, ctest/difftest, on the H100.) The range attribute query comes first:
 * nothing may make a context current before it. */
#include "ctest.h"


static void range_queries(const char *when, void *p) {
    int v = 0x7a7a;
    char label[96];
    snprintf(label, sizeof label, "%s: cudaMemRangeGetAttribute", when);
    SHOW_CLEARED(label, cudaMemRangeGetAttribute(&v, sizeof v, cudaMemRangeAttributeReadMostly, p, 4096));
    void *data[1] = {&v};
    size_t sizes[1] = {sizeof v};
    enum cudaMemRangeAttribute attrs[1] = {cudaMemRangeAttributeReadMostly};
    snprintf(label, sizeof label, "%s: cudaMemRangeGetAttributes", when);
    SHOW_CLEARED(label, cudaMemRangeGetAttributes(data, sizes, attrs, 1, p, 4096));
}

int main(void) {
    static char host[4096];
    range_queries("no context", host);
    range_queries("no context, NULL", NULL);
    struct cudaPointerAttributes pa;
    memset(&pa, 0x7f, sizeof pa);
    SHOW_CLEARED("no context: cudaPointerGetAttributes pageable", cudaPointerGetAttributes(&pa, host));
    SHOWI("type", pa.type);
    struct cudaChannelFormatDesc d;
    struct cudaExtent e;
    unsigned int fl = 7;
    SHOW_CLEARED("no context: cudaArrayGetInfo NULL", cudaArrayGetInfo(&d, &e, &fl, NULL));

    void *m = NULL;
    OK(cudaMallocManaged(&m, 4096, cudaMemAttachGlobal));
    range_queries("managed", m);
    SHOW_CLEARED("cudaDeviceReset", cudaDeviceReset());
    range_queries("after reset", host);
    memset(&pa, 0x7f, sizeof pa);
    SHOW_CLEARED("after reset: cudaPointerGetAttributes pageable", cudaPointerGetAttributes(&pa, host));
    SHOWI("type", pa.type);
    SHOW_CLEARED("after reset: cudaArrayGetInfo NULL", cudaArrayGetInfo(&d, &e, &fl, NULL));
    int dev = -1;
    SHOW_CLEARED("after reset: cudaGetDevice", cudaGetDevice(&dev));
    SHOWI("device", dev);
    /* A call that needs a context makes the primary context current again. */
    OK(cudaMallocManaged(&m, 4096, cudaMemAttachGlobal));
    range_queries("managed again", m);
    OK(cudaFree(m));
    SHOW_CLEARED("cudaDeviceReset again", cudaDeviceReset());
    SHOW_CLEARED("after second reset: cudaDeviceSynchronize", cudaDeviceSynchronize());
    range_queries("after second reset and a sync", host);
    DONE();
}
