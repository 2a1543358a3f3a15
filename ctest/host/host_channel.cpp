/* Channel descriptors: cudaCreateChannelDesc<T>() of every scalar and vector type and of the
 * channel format kinds, the Half and NV12 ones, then a CUDA array made with one and read back
 * (cudaMallocArray with its default height and flags, cudaGetChannelDesc, cudaArrayGetInfo). */
#include <cuda_runtime.h>

#include "host.h"

static void show(const char *what, cudaChannelFormatDesc d)
{
    printf("%s: %d %d %d %d kind %d\n", what, d.x, d.y, d.z, d.w, (int)d.f);
}

#define DESC(T) show(#T, cudaCreateChannelDesc<T>())
#define KIND(K) show(#K, cudaCreateChannelDesc<cudaChannelFormatKind##K>())

struct NotAChannel {
    int a, b;
};

int main()
{
    DESC(char); DESC(signed char); DESC(unsigned char);
    DESC(char1); DESC(char2); DESC(char4); DESC(uchar1); DESC(uchar2); DESC(uchar4);
    DESC(short); DESC(unsigned short); DESC(short1); DESC(short2); DESC(short4);
    DESC(ushort1); DESC(ushort2); DESC(ushort4);
    DESC(int); DESC(unsigned int); DESC(int1); DESC(int2); DESC(int4); DESC(uint1); DESC(uint2); DESC(uint4);
    DESC(long); DESC(unsigned long); DESC(long1); DESC(ulong2);
    DESC(float); DESC(float1); DESC(float2); DESC(float4);
    DESC(char3); DESC(float3); DESC(double); DESC(double2); DESC(long long); DESC(NotAChannel);
    show("Half", cudaCreateChannelDescHalf());
    show("Half1", cudaCreateChannelDescHalf1());
    show("Half2", cudaCreateChannelDescHalf2());
    show("Half4", cudaCreateChannelDescHalf4());
    show("NV12", cudaCreateChannelDescNV12());
    KIND(SignedNormalized8X1); KIND(SignedNormalized8X2); KIND(SignedNormalized8X4);
    KIND(UnsignedNormalized8X1); KIND(UnsignedNormalized8X2); KIND(UnsignedNormalized8X4);
    KIND(SignedNormalized16X1); KIND(SignedNormalized16X2); KIND(SignedNormalized16X4);
    KIND(UnsignedNormalized16X1); KIND(UnsignedNormalized16X2); KIND(UnsignedNormalized16X4);
    KIND(NV12); KIND(UnsignedNormalized1010102);
    KIND(UnsignedBlockCompressed1); KIND(UnsignedBlockCompressed1SRGB);
    KIND(UnsignedBlockCompressed2); KIND(UnsignedBlockCompressed2SRGB);
    KIND(UnsignedBlockCompressed3); KIND(UnsignedBlockCompressed3SRGB);
    KIND(UnsignedBlockCompressed4); KIND(SignedBlockCompressed4);
    KIND(UnsignedBlockCompressed5); KIND(SignedBlockCompressed5);
    KIND(UnsignedBlockCompressed6H); KIND(SignedBlockCompressed6H);
    KIND(UnsignedBlockCompressed7); KIND(UnsignedBlockCompressed7SRGB);
    KIND(Signed); KIND(Float); KIND(None);
#if CUDART_VERSION >= 13000
    KIND(Unsigned8Packed422); KIND(Unsigned8Packed444);
    KIND(Unsigned8SemiPlanar420); KIND(Unsigned16SemiPlanar420);
    KIND(Unsigned8SemiPlanar422); KIND(Unsigned16SemiPlanar422);
    KIND(Unsigned8SemiPlanar444); KIND(Unsigned16SemiPlanar444);
    KIND(Unsigned8Planar420); KIND(Unsigned16Planar420);
    KIND(Unsigned8Planar422); KIND(Unsigned16Planar422);
    KIND(Unsigned8Planar444); KIND(Unsigned16Planar444);
#endif

    // An array of float4 elements made from the template's descriptor, 1D (default height and
    // flags), and one of uchar4 elements, 2D; their descriptors read back.
    cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
    cudaArray_t a1 = nullptr, a2 = nullptr;
    SHOW("cudaMallocArray float4 x 64", cudaMallocArray(&a1, &f4, 64));
    cudaChannelFormatDesc u4 = cudaCreateChannelDesc<uchar4>();
    SHOW("cudaMallocArray uchar4 32 x 8", cudaMallocArray(&a2, &u4, 32, 8));
    cudaChannelFormatDesc back;
    cudaExtent ext;
    unsigned int flags = 99;
    if (a1) {
        SHOW("cudaGetChannelDesc", cudaGetChannelDesc(&back, a1));
        show("read back (float4)", back);
        SHOW("cudaArrayGetInfo", cudaArrayGetInfo(&back, &ext, &flags, a1));
        printf("extent %zu %zu %zu flags %u\n", ext.width, ext.height, ext.depth, flags);
    }
    if (a2) {
        SHOW("cudaArrayGetInfo 2D", cudaArrayGetInfo(&back, &ext, &flags, a2));
        show("read back (uchar4)", back);
        printf("extent %zu %zu %zu\n", ext.width, ext.height, ext.depth);
        // A row of uchar4 through the array and back.
        uchar4 row[32], got[32];
        for (int i = 0; i < 32; i++) {
            row[i] = make_uchar4((unsigned char)i, (unsigned char)(2 * i), (unsigned char)(3 * i), 255);
        }
        SHOW("cudaMemcpy2DToArray", cudaMemcpy2DToArray(a2, 0, 3, row, sizeof row, sizeof row, 1, cudaMemcpyHostToDevice));
        SHOW("cudaMemcpy2DFromArray", cudaMemcpy2DFromArray(got, sizeof got, a2, 0, 3, sizeof got, 1, cudaMemcpyDeviceToHost));
        int same = 1;
        for (int i = 0; i < 32; i++) {
            same &= got[i].x == row[i].x && got[i].y == row[i].y && got[i].z == row[i].z && got[i].w == 255;
        }
        CHECK("uchar4 row through the array", same);
    }
    SHOW("cudaFreeArray", cudaFreeArray(a1));
    SHOW("cudaFreeArray 2D", cudaFreeArray(a2));
    return 0;
}
