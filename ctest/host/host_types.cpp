/* The types of the host header set in C++: every vector type's size and alignment, dim3's
 * constructors and its conversion to and from uint3, the make_ functions, the library types,
 * the texture and surface constants, driver_functions.h's make_ functions, CUDART_VERSION. */
#include <cuda_runtime.h>
#include <cstddef>

#include "host.h"

#define LAYOUT(T) printf("%s: size %zu align %zu\n", #T, sizeof(T), alignof(T))

int main()
{
    LAYOUT(char1); LAYOUT(char2); LAYOUT(char3); LAYOUT(char4);
    LAYOUT(uchar1); LAYOUT(uchar2); LAYOUT(uchar3); LAYOUT(uchar4);
    LAYOUT(short1); LAYOUT(short2); LAYOUT(short3); LAYOUT(short4);
    LAYOUT(ushort1); LAYOUT(ushort2); LAYOUT(ushort3); LAYOUT(ushort4);
    LAYOUT(int1); LAYOUT(int2); LAYOUT(int3); LAYOUT(int4);
    LAYOUT(uint1); LAYOUT(uint2); LAYOUT(uint3); LAYOUT(uint4);
    LAYOUT(long1); LAYOUT(long2); LAYOUT(long3);
    LAYOUT(ulong1); LAYOUT(ulong2); LAYOUT(ulong3);
    LAYOUT(float1); LAYOUT(float2); LAYOUT(float3); LAYOUT(float4);
    LAYOUT(longlong1); LAYOUT(longlong2); LAYOUT(longlong3);
    LAYOUT(ulonglong1); LAYOUT(ulonglong2); LAYOUT(ulonglong3);
    LAYOUT(double1); LAYOUT(double2); LAYOUT(double3);
#if CUDART_VERSION >= 13000
    LAYOUT(long4_16a); LAYOUT(long4_32a); LAYOUT(ulong4_16a); LAYOUT(ulong4_32a);
    LAYOUT(longlong4_16a); LAYOUT(longlong4_32a); LAYOUT(ulonglong4_16a); LAYOUT(ulonglong4_32a);
    LAYOUT(double4_16a); LAYOUT(double4_32a);
#else
    LAYOUT(long4); LAYOUT(ulong4); LAYOUT(longlong4); LAYOUT(ulonglong4); LAYOUT(double4);
#endif
    LAYOUT(dim3);
    printf("offsets: float4.w %zu double2.y %zu dim3.z %zu\n", offsetof(float4, w), offsetof(double2, y),
           offsetof(dim3, z));

    // dim3: unset dimensions are 1; from and to uint3; constexpr.
    dim3 a, b(4), c(4, 2), d(4, 2, 3);
    printf("dim3(): %u %u %u, dim3(4): %u %u %u, dim3(4,2): %u %u %u, dim3(4,2,3): %u %u %u\n", a.x, a.y, a.z,
           b.x, b.y, b.z, c.x, c.y, c.z, d.x, d.y, d.z);
    uint3 u = make_uint3(7, 8, 9);
    dim3 e(u);
    uint3 back = d;
    printf("dim3(uint3 7,8,9): %u %u %u; uint3(dim3 4,2,3): %u %u %u\n", e.x, e.y, e.z, back.x, back.y, back.z);
    constexpr dim3 grid(16, 8);
    static_assert(grid.x == 16 && grid.y == 8 && grid.z == 1, "constexpr dim3");
    dim3 g = 32; // converting constructor, as in kernel<<<32, 256>>>
    printf("dim3 g = 32: %u %u %u\n", g.x, g.y, g.z);

    // make_ functions of every kind.
    char4 c4 = make_char4(-1, 2, -3, 4);
    uchar3 uc3 = make_uchar3(250, 251, 252);
    short2 s2 = make_short2(-300, 300);
    int4 i4 = make_int4(-1, -2, -3, -4);
    uint1 u1 = make_uint1(4000000000u);
    long2 l2 = make_long2(-5000000000L, 5000000000L);
    ulonglong2 ull2 = make_ulonglong2(18446744073709551615ull, 1);
    float4 f4 = make_float4(0.5f, 1.5f, 2.5f, 3.5f);
    double3 d3 = make_double3(1e300, -2.25, 0.125);
    printf("char4 %d %d %d %d, uchar3 %u %u %u, short2 %d %d\n", c4.x, c4.y, c4.z, c4.w, uc3.x, uc3.y, uc3.z,
           s2.x, s2.y);
    printf("int4 %d %d %d %d, uint1 %u, long2 %ld %ld, ulonglong2 %llu %llu\n", i4.x, i4.y, i4.z, i4.w, u1.x,
           l2.x, l2.y, ull2.x, ull2.y);
    printf("float4 %g %g %g %g, double3 %g %g %g\n", f4.x, f4.y, f4.z, f4.w, d3.x, d3.y, d3.z);
#if CUDART_VERSION >= 13000
    double4_32a d4 = make_double4_32a(1, 2, 3, 4);
    long4_16a l4 = make_long4_16a(-1, -2, -3, -4);
    printf("double4_32a %g %g %g %g, long4_16a %ld %ld %ld %ld\n", d4.x, d4.y, d4.z, d4.w, l4.x, l4.y, l4.z, l4.w);
#endif

    // driver_functions.h
    int buf[4];
    cudaPitchedPtr pp = make_cudaPitchedPtr(buf, 64, 16, 4);
    cudaExtent ex = make_cudaExtent(640, 480, 3);
    cudaPos pos = make_cudaPos(1, 2, 3);
    CHECK("make_cudaPitchedPtr", pp.ptr == buf && pp.pitch == 64 && pp.xsize == 16 && pp.ysize == 4);
    printf("make_cudaExtent %zu %zu %zu, make_cudaPos %zu %zu %zu\n", ex.width, ex.height, ex.depth, pos.x, pos.y,
           pos.z);

    // library_types.h, device_types.h, texture and surface constants.
    printf("CUDA_R_32F %d CUDA_C_64F %d CUDA_R_16BF %d CUDA_R_8F_E4M3 %d CUDA_R_4F_E2M1 %d, PATCH_LEVEL %d\n",
           (int)CUDA_R_32F, (int)CUDA_C_64F, (int)CUDA_R_16BF, (int)CUDA_R_8F_E4M3, (int)CUDA_R_4F_E2M1,
           (int)PATCH_LEVEL);
    printf("sizeof(cudaDataType) %zu, cudaRoundMinInf %d\n", sizeof(cudaDataType), (int)cudaRoundMinInf);
    printf("cudaTextureType2DLayered %d cudaSurfaceTypeCubemap %d sizeof(cudaTextureDesc) %zu\n",
           cudaTextureType2DLayered, cudaSurfaceTypeCubemap, sizeof(cudaTextureDesc));
    printf("cudaStreamPerThread %p cudaStreamLegacy %p\n", (void *)cudaStreamPerThread, (void *)cudaStreamLegacy);
    printf("CUDART_VERSION %d\n", CUDART_VERSION);
    int v = 0;
    SHOW("cudaRuntimeGetVersion", cudaRuntimeGetVersion(&v));
    SHOWI("runtime version", v);
    return 0;
}
