/* The host header set in C: cuda_runtime.h and the headers programs include on their own
 * (vector_types.h, vector_functions.h, driver_functions.h, builtin_types.h, library_types.h,
 * channel_descriptor.h, which is C++ only and empty in C, host_defines.h), the vector types
 * and dim3 as C structs, the make_ functions, the C channel descriptor call, the runtime's
 * version and an array made with a descriptor. */
#include <vector_types.h>
#include <vector_functions.h>
#include <driver_functions.h>
#include <builtin_types.h>
#include <library_types.h>
#include <channel_descriptor.h>
#include <host_defines.h>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdalign.h>

#include "host.h"

#define LAYOUT(T) printf("%s: size %zu align %zu\n", #T, sizeof(T), alignof(T))

static __host__ int twice(int x) { return 2 * x; }

int main(void)
{
    LAYOUT(char2); LAYOUT(uchar4); LAYOUT(short3); LAYOUT(int2); LAYOUT(uint4); LAYOUT(long2);
    LAYOUT(float2); LAYOUT(float3); LAYOUT(float4); LAYOUT(longlong2); LAYOUT(double2); LAYOUT(dim3);
    dim3 d = {4, 2, 1};
    printf("dim3 %u %u %u\n", d.x, d.y, d.z);
    float2 f2 = make_float2(1.25f, -2.5f);
    int3 i3 = make_int3(1, -2, 3);
    ulonglong2 u4 = make_ulonglong2(1, 18446744073709551615ull);
    printf("float2 %g %g, int3 %d %d %d, ulonglong2 %llu %llu\n", f2.x, f2.y, i3.x, i3.y, i3.z, u4.x, u4.y);
    struct cudaExtent e = make_cudaExtent(8, 4, 2);
    printf("extent %zu %zu %zu, twice %d\n", e.width, e.height, e.depth, twice(21));
    struct cudaChannelFormatDesc desc = cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindFloat);
    printf("desc %d %d %d %d %d\n", desc.x, desc.y, desc.z, desc.w, (int)desc.f);
    printf("CUDA_R_64F %d MINOR_VERSION %d cudaRoundZero %d\n", (int)CUDA_R_64F, (int)MINOR_VERSION, (int)cudaRoundZero);
    cudaArray_t a = NULL;
    SHOW("cudaMallocArray", cudaMallocArray(&a, &desc, 16, 0, 0));
    struct cudaChannelFormatDesc back;
    SHOW("cudaGetChannelDesc", cudaGetChannelDesc(&back, a));
    printf("back %d %d %d %d %d\n", back.x, back.y, back.z, back.w, (int)back.f);
    SHOW("cudaFreeArray", cudaFreeArray(a));
    int v = 0;
    SHOW("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&v));
    SHOWI("version", v);
    printf("CUDART_VERSION %d\n", CUDART_VERSION);
    return 0;
}
