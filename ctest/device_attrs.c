/* Device attributes, flags and peer queries. */
#include "ctest.h"

int main(void) {
    int v = -1;
    OK(SHOW("cudaDeviceGetAttribute(WarpSize)", cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0)));
    SHOWI("warp size", v);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrUnifiedAddressing, 0));
    SHOWI("unified addressing", v);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrManagedMemory, 0));
    SHOWI("managed memory", v);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrConcurrentManagedAccess, 0));
    SHOWI("concurrent managed access", v);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrCanMapHostMemory, 0));
    SHOWI("can map host memory", v);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0));
    SHOWI("max threads per block", v);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    SHOWI("cc major", v);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrTexturePitchAlignment, 0));
    SHOWI("texture pitch alignment", v);
    v = -7;
    SHOW("cudaDeviceGetAttribute(NULL)", cudaDeviceGetAttribute(NULL, cudaDevAttrWarpSize, 0));
    SHOW("cudaDeviceGetAttribute(bad attr 0)", cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)0, 0));
    SHOW("cudaDeviceGetAttribute(bad attr 100000)", cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)100000, 0));
    SHOW("cudaDeviceGetAttribute(bad device)", cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1000));
    SHOW("cudaDeviceGetAttribute(device -1)", cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, -1));
    SHOW_LAST("after bad attribute queries");

    int can = -1;
    OK(SHOW("cudaDeviceCanAccessPeer(0,0)", cudaDeviceCanAccessPeer(&can, 0, 0)));
    SHOWI("can access self", can);
    SHOW("cudaDeviceCanAccessPeer(NULL)", cudaDeviceCanAccessPeer(NULL, 0, 0));
    SHOW("cudaDeviceCanAccessPeer(0,1000)", cudaDeviceCanAccessPeer(&can, 0, 1000));
    SHOW("cudaDeviceEnablePeerAccess(0)", cudaDeviceEnablePeerAccess(0, 0));
    SHOW("cudaDeviceEnablePeerAccess(1000)", cudaDeviceEnablePeerAccess(1000, 0));
    SHOW("cudaDeviceDisablePeerAccess(0)", cudaDeviceDisablePeerAccess(0));
    SHOW("cudaDeviceDisablePeerAccess(1000)", cudaDeviceDisablePeerAccess(1000));
    SHOW_LAST("after peer calls");

    unsigned int flags = 12345;
    OK(SHOW("cudaGetDeviceFlags", cudaGetDeviceFlags(&flags)));
    SHOWU("device flags", flags);
    SHOW("cudaGetDeviceFlags(NULL)", cudaGetDeviceFlags(NULL));
    SHOW("cudaSetDeviceFlags(BlockingSync)", cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    OK(cudaGetDeviceFlags(&flags));
    SHOWU("device flags after BlockingSync", flags);
    SHOW("cudaSetDeviceFlags(Spin|Yield)", cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield));
    SHOW("cudaSetDeviceFlags(0x100)", cudaSetDeviceFlags(0x100));
    SHOW_LAST("after bad flags");

    int least = 99, greatest = 99;
    OK(SHOW("cudaDeviceGetStreamPriorityRange", cudaDeviceGetStreamPriorityRange(&least, &greatest)));
    SHOWI("least priority", least);
    SHOWI("greatest priority", greatest);
    SHOW("cudaDeviceGetStreamPriorityRange(NULL, NULL)", cudaDeviceGetStreamPriorityRange(NULL, NULL));

    OK(SHOW("cudaDeviceReset", cudaDeviceReset()));
    OK(SHOW("cudaDeviceSynchronize after reset", cudaDeviceSynchronize()));
    OK(cudaGetDeviceFlags(&flags));
    SHOWU("device flags after reset", flags);
    DONE();
}
