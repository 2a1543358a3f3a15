/* The argument checks the runtime makes itself, before the driver sees a graph or capture
 * call (read from NVIDIA's runtime): required out pointers of capture status, node type and
 * enabled state, and both handles of cudaGraphExecUpdate. They fail the same way whether or
 * not the driver supports graphs. */
#include "ctest.h"

int main(void) {
    cudaStream_t s = NULL;
    OK(cudaStreamCreate(&s));

    SHOW("cudaStreamIsCapturing(NULL status)", cudaStreamIsCapturing(s, NULL));
    SHOW_LAST("after IsCapturing");
    SHOW("cudaStreamIsCapturing(0, NULL status)", cudaStreamIsCapturing(0, NULL));
#if CUDART_VERSION >= 13000
    unsigned long long id = 7;
    SHOW("cudaStreamGetCaptureInfo(NULL status)", cudaStreamGetCaptureInfo(s, NULL, &id, NULL, NULL, NULL, NULL));
#else
    unsigned long long id = 7;
    SHOW("cudaStreamGetCaptureInfo(NULL status)", cudaStreamGetCaptureInfo(s, NULL, &id, NULL, NULL, NULL));
    SHOW("cudaStreamGetCaptureInfo_v3(NULL status)", cudaStreamGetCaptureInfo_v3(s, NULL, &id, NULL, NULL, NULL, NULL));
#endif
    SHOWU("id untouched", id);
    SHOW_LAST("after GetCaptureInfo");

    SHOW("cudaGraphNodeGetType(NULL node, NULL type)", cudaGraphNodeGetType(NULL, NULL));
    SHOW_LAST("after GetType");
    SHOW("cudaGraphNodeGetEnabled(NULL, NULL, NULL)", cudaGraphNodeGetEnabled(NULL, NULL, NULL));
    SHOW_LAST("after GetEnabled");

    cudaGraphExecUpdateResultInfo info;
    memset(&info, 0x55, sizeof info);
    SHOW("cudaGraphExecUpdate(NULL, NULL)", cudaGraphExecUpdate(NULL, NULL, &info));
    SHOW("cudaGraphExecUpdate(NULL exec)", cudaGraphExecUpdate(NULL, (cudaGraph_t)(size_t)0x10, &info));
    SHOW("cudaGraphExecUpdate(NULL graph)", cudaGraphExecUpdate((cudaGraphExec_t)(size_t)0x10, NULL, &info));
    SHOW("cudaGraphExecUpdate(NULL, NULL, NULL info)", cudaGraphExecUpdate(NULL, NULL, NULL));
    printf("result info untouched: %d\n", (int)info.result == 0x55555555);
    CHECK((int)info.result == 0x55555555);
    SHOW_LAST("after ExecUpdate");

    OK(cudaStreamDestroy(s));
    DONE();
}
