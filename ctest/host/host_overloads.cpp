/* cuda_runtime.h's C++ overloads of the memory, stream, event and graph calls, and the default
 * arguments of cuda_runtime_api.h: typed pointers (cudaMalloc(float **), cudaMallocHost,
 * cudaHostAlloc, cudaMallocManaged, cudaMallocPitch, cudaMallocAsync, ...), cudaEventCreate
 * with flags, calls without their stream (the default stream), the CUDA 11 forms of
 * cudaGraphInstantiate and cudaGraphExecUpdate, a user object that deletes a C++ object. */
#include <cuda_runtime.h>
#include <cstring>
#include <unistd.h>

#include "host.h"

struct Tracked {
    static int alive;
    Tracked() { alive++; }
    ~Tracked() { alive--; }
};
int Tracked::alive = 0;

int main()
{
    float *d = nullptr;
    SHOW("cudaMalloc(float **)", cudaMalloc(&d, 256 * sizeof(float)));
    int *h = nullptr, *hp = nullptr;
    SHOW("cudaMallocHost(int **, size)", cudaMallocHost(&h, 256 * sizeof(int)));
    SHOW("cudaMallocHost(int **, size, flags)", cudaMallocHost(&hp, 64, cudaHostAllocPortable));
    double *ha = nullptr, *dev_of_ha = nullptr;
    SHOW("cudaHostAlloc(double **)", cudaHostAlloc(&ha, 64 * sizeof(double), cudaHostAllocMapped));
    SHOW("cudaHostGetDevicePointer(double **)", cudaHostGetDevicePointer(&dev_of_ha, ha, 0));
    if (ha) {
        CHECK("mapped host memory has a device pointer", dev_of_ha != nullptr);
    }
    unsigned *m = nullptr;
    SHOW("cudaMallocManaged(unsigned **) (default flags)", cudaMallocManaged(&m, 1024));
    if (m) {
        cudaPointerAttributes at;
        SHOW("cudaPointerGetAttributes(managed)", cudaPointerGetAttributes(&at, m));
        SHOWI("managed type", at.type);
    }
    char *pitched = nullptr;
    size_t pitch = 0;
    SHOW("cudaMallocPitch(char **)", cudaMallocPitch(&pitched, &pitch, 100, 4));
    if (pitched) {
        CHECK("pitch >= width", pitch >= 100);
    }

    if (!d || !h) {
        printf("no device or pinned memory: the rest is not tried\n");
        return 0;
    }

    // Copies and memsets without a stream: the default stream.
    for (int i = 0; i < 256; i++) {
        h[i] = i * 3;
    }
    cudaStream_t s = nullptr;
    SHOW("cudaStreamCreate", cudaStreamCreate(&s));
    cudaEvent_t e1 = nullptr, e2 = nullptr;
    SHOW("cudaEventCreate(event, flags)", cudaEventCreate(&e1, cudaEventDisableTiming));
    SHOW("cudaEventCreate(event)", cudaEventCreate(&e2));
    SHOW("cudaMemcpyAsync without a stream", cudaMemcpyAsync(d, h, 256 * sizeof(int), cudaMemcpyHostToDevice));
    SHOW("cudaEventRecord without a stream", cudaEventRecord(e1));
    SHOW("cudaStreamWaitEvent without flags", cudaStreamWaitEvent(s, e1));
    SHOW("cudaMemsetAsync without a stream", cudaMemsetAsync(d + 128, 0, 128 * sizeof(int)));
    SHOW("cudaEventRecordWithFlags without a stream", cudaEventRecordWithFlags(e2));
    SHOW("cudaEventSynchronize", cudaEventSynchronize(e2));
    int back[256];
    SHOW("cudaMemcpy back", cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost));
    int good = 1;
    for (int i = 0; i < 256; i++) {
        good &= back[i] == (i < 128 ? i * 3 : 0);
    }
    CHECK("copy then memset on the default stream", good);

    // Managed memory attached to a stream, with the defaults (whole range, single).
    if (m) {
        SHOW("cudaStreamAttachMemAsync(stream, unsigned *)", cudaStreamAttachMemAsync(s, m));
        SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
    }

    // Stream-ordered allocation, typed, with and without a pool.
    long *pa = nullptr, *pb = nullptr, *pc = nullptr;
    cudaMemPool_t pool = nullptr;
    SHOW("cudaDeviceGetDefaultMemPool", cudaDeviceGetDefaultMemPool(&pool, 0));
    SHOW("cudaMallocAsync(long **, size, stream)", cudaMallocAsync(&pa, 4096, s));
    SHOW("cudaMallocAsync(long **, size, pool, stream)", cudaMallocAsync(&pb, 4096, pool, s));
    SHOW("cudaMallocFromPoolAsync(long **)", cudaMallocFromPoolAsync(&pc, 4096, pool, s));
    void *pv = nullptr;
    SHOW("cudaMallocAsync(void **, size, pool, stream)", cudaMallocAsync(&pv, 4096, pool, s));
    SHOW("cudaFreeAsync", cudaFreeAsync(pa, s));
    SHOW("cudaFreeAsync", cudaFreeAsync(pb, s));
    SHOW("cudaFreeAsync", cudaFreeAsync(pc, s));
    SHOW("cudaFreeAsync", cudaFreeAsync(pv, s));
    SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));

    // A graph of one memset, by capture; the CUDA 11 forms of instantiate and update.
    cudaGraph_t g = nullptr, g2 = nullptr;
    SHOW("cudaStreamBeginCapture", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    SHOW("cudaMemsetAsync (captured)", cudaMemsetAsync(d, 1, 64, s));
    SHOW("cudaStreamEndCapture", cudaStreamEndCapture(s, &g));
    cudaGraphExec_t exec = nullptr;
    cudaGraphNode_t err_node = nullptr;
    char log[64] = "";
    SHOW("cudaGraphInstantiate(exec, graph, node, log, size)", cudaGraphInstantiate(&exec, g, &err_node, log, sizeof log));
    SHOW("cudaStreamBeginCapture", cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    SHOW("cudaMemsetAsync (captured)", cudaMemsetAsync(d, 2, 64, s));
    SHOW("cudaStreamEndCapture", cudaStreamEndCapture(s, &g2));
    cudaGraphExecUpdateResult result = cudaGraphExecUpdateError;
    cudaGraphNode_t bad_node = nullptr;
#if HOST_OURS
    // The CUDA 11 form (NVIDIA's header offers it to CUDA compilers only; ours to C++).
    SHOW("cudaGraphExecUpdate(exec, graph, node, result)", cudaGraphExecUpdate(exec, g2, &bad_node, &result));
#else
    cudaGraphExecUpdateResultInfo info;
    info.errorNode = nullptr;
    info.result = cudaGraphExecUpdateError;
    cudaError_t ur = cudaGraphExecUpdate(exec, g2, &info);
    bad_node = info.errorNode;
    result = info.result;
    SHOW("cudaGraphExecUpdate(exec, graph, node, result)", ur);
#endif
    if (bad_node == nullptr && result != cudaGraphExecUpdateError) {
        SHOWI("update result", result);
    }
    SHOW("cudaGraphLaunch", cudaGraphLaunch(exec, s));
    SHOW("cudaStreamSynchronize", cudaStreamSynchronize(s));
    unsigned char bytes[4] = {0, 0, 0, 0};
    SHOW("cudaMemcpy", cudaMemcpy(bytes, d, 4, cudaMemcpyDeviceToHost));
    printf("bytes after the updated graph: %u %u %u %u\n", bytes[0], bytes[1], bytes[2], bytes[3]);

    // A user object that owns a C++ object: deleted when the last reference goes.
    cudaUserObject_t obj = nullptr;
#if HOST_OURS
    // The template that deletes the object (NVIDIA's header: CUDA compilers only).
    SHOW("cudaUserObjectCreate(object, T *, refs, flags)",
         cudaUserObjectCreate(&obj, new Tracked, 1, cudaUserObjectNoDestructorSync));
#else
    SHOW("cudaUserObjectCreate(object, T *, refs, flags)",
         cudaUserObjectCreate(&obj, new Tracked, [](void *p) { delete static_cast<Tracked *>(p); }, 1,
                              cudaUserObjectNoDestructorSync));
#endif
    SHOWI("objects alive", Tracked::alive);
    SHOW("cudaUserObjectRetain (default count)", cudaUserObjectRetain(obj));
    SHOW("cudaUserObjectRelease (default count)", cudaUserObjectRelease(obj));
    SHOW("cudaUserObjectRelease (default count)", cudaUserObjectRelease(obj));
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    // The destructor runs on a thread of the driver's, soon after the last release.
    for (int i = 0; i < 1000 && Tracked::alive; i++) {
        usleep(1000);
    }
    SHOWI("objects alive after the last release", Tracked::alive);

    SHOW("cudaGraphExecDestroy", cudaGraphExecDestroy(exec));
    SHOW("cudaGraphDestroy", cudaGraphDestroy(g));
    SHOW("cudaGraphDestroy", cudaGraphDestroy(g2));
    SHOW("cudaEventDestroy", cudaEventDestroy(e1));
    SHOW("cudaEventDestroy", cudaEventDestroy(e2));
    SHOW("cudaStreamDestroy", cudaStreamDestroy(s));
    SHOW("cudaFree", cudaFree(d));
    SHOW("cudaFree", cudaFree(m));
    SHOW("cudaFree", cudaFree(pitched));
    SHOW("cudaFreeHost", cudaFreeHost(h));
    SHOW("cudaFreeHost", cudaFreeHost(hp));
    SHOW("cudaFreeHost", cudaFreeHost(ha));
    SHOW("cudaGetLastError", cudaGetLastError());
    return 0;
}
