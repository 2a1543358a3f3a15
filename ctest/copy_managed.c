/* Copies and memsets with managed and registered host memory: cudaMemcpyDefault and the
 * explicit kinds, data checked through host access. */
#include "ctest.h"

#define N 128

int main(void) {
    unsigned char *m = NULL, *d = NULL;
    OK(SHOW("cudaMallocManaged", cudaMallocManaged((void **)&m, N, cudaMemAttachGlobal)));
    OK(cudaMalloc((void **)&d, N));
    if (!m || !d) DONE();
    static unsigned char reg[4096] __attribute__((aligned(4096)));
    unsigned char h[N];
    for (int i = 0; i < N; i++) h[i] = (unsigned char)(i ^ 0x5a);

    /* Host -> managed -> device -> managed, then read on the host. */
    SHOW("Default H->managed", cudaMemcpy(m, h, N, cudaMemcpyDefault));
    OK(cudaDeviceSynchronize());
    CHECK(memcmp(m, h, N) == 0);
    SHOW("Default managed->device", cudaMemcpy(d, m, N, cudaMemcpyDefault));
    SHOW("memset managed", cudaMemset(m, 0, N));
    OK(cudaDeviceSynchronize());
    {
        int zero = 1;
        for (int i = 0; i < N; i++) zero &= m[i] == 0;
        CHECK(zero);
        printf("managed after memset: %s\n", zero ? "zero" : "not zero");
    }
    SHOW("D2D device->managed", cudaMemcpy(m, d, N, cudaMemcpyDeviceToDevice));
    OK(cudaDeviceSynchronize());
    CHECK(memcmp(m, h, N) == 0);
    printf("managed round trip: %s\n", memcmp(m, h, N) == 0 ? "same" : "different");

    /* Registered host memory. */
    OK(SHOW("cudaHostRegister", cudaHostRegister(reg, sizeof reg, cudaHostRegisterDefault)));
    SHOW("D2H into registered", cudaMemcpy(reg + 100, d, N, cudaMemcpyDeviceToHost));
    CHECK(memcmp(reg + 100, h, N) == 0);
    SHOW("Default registered->device", cudaMemcpy(d, reg + 100, 64, cudaMemcpyDefault));
    SHOW("memsetAsync device", cudaMemsetAsync(d + 64, 0x7e, 64, 0));
    SHOW("Default device->registered", cudaMemcpy(reg, d, N, cudaMemcpyDefault));
    {
        int ok = memcmp(reg, h, 64) == 0;
        for (int i = 64; i < N; i++) ok &= reg[i] == 0x7e;
        CHECK(ok);
        printf("registered: %s\n", ok ? "ok" : "wrong");
    }
    OK(cudaHostUnregister(reg));
    ct_free_device(m, d, NULL);
    DONE();
}
