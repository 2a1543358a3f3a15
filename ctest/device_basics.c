/* Versions, device count and selection, last-error rules, error names. */
#include "ctest.h"

int main(void) {
    int v = -1;
    OK(SHOW("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&v)));
    SHOWI("runtime version", v);
    SHOW("cudaRuntimeGetVersion(NULL)", cudaRuntimeGetVersion(NULL));
    SHOW_LAST("after NULL version");
    SHOW_LAST("again");

    int d = -1;
    SHOW("cudaDriverGetVersion", cudaDriverGetVersion(&d));
    CHECK(d >= 12000);
    SHOW("cudaDriverGetVersion(NULL)", cudaDriverGetVersion(NULL));

    int n = -1;
    OK(SHOW("cudaGetDeviceCount", cudaGetDeviceCount(&n)));
    CHECK(n >= 1);
    SHOW("cudaGetDeviceCount(NULL)", cudaGetDeviceCount(NULL));

    int dev = -1;
    OK(SHOW("cudaGetDevice", cudaGetDevice(&dev)));
    SHOWI("device", dev);
    SHOW("cudaSetDevice(0)", cudaSetDevice(0));
    SHOW("cudaSetDevice(-1)", cudaSetDevice(-1));
    SHOW("cudaPeekAtLastError", cudaPeekAtLastError());
    SHOW("cudaGetLastError", cudaGetLastError());
    SHOW("cudaGetLastError again", cudaGetLastError());
    SHOW("cudaSetDevice(n)", cudaSetDevice(n));
    SHOW("cudaSetDevice(1000)", cudaSetDevice(1000));
    SHOW_LAST("bad device");
    OK(cudaGetDevice(&dev));
    SHOWI("device after bad set", dev);

    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());

    printf("name 0: %s\n", cudaGetErrorName(cudaSuccess));
    printf("name 1: %s\n", cudaGetErrorName(cudaErrorInvalidValue));
    printf("string 2: %s\n", cudaGetErrorString(cudaErrorMemoryAllocation));
    printf("name 999: %s\n", cudaGetErrorName(cudaErrorUnknown));
    printf("name 12345: %s\n", cudaGetErrorName((cudaError_t)12345));
    printf("string -1: %s\n", cudaGetErrorString((cudaError_t)-1));
    DONE();
}
