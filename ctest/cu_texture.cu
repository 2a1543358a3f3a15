/* ctest: gpu cu */
/* Texture objects sampled by kernels: 1D/2D/3D arrays, layered and cubemap (layered) arrays,
 * mipmapped arrays, linear and pitch-2D memory; float, half, int, uchar4 read as elements and
 * as normalized floats (with and without sRGB); every address mode with point and linear
 * filtering, normalized and unnormalized coordinates, at coordinates inside, on texel edges,
 * between texels and outside; border colours; mipmap levels, filters, bias and clamps;
 * resource views of layers and levels; gathers. Every value read is printed exactly (%a), so
 * both runtimes must hand the kernels the same texture. */
#include "ctest.h"
#include "texture_util.h"

#include <cuda_fp16.h>

enum Kind { K1D, K2D, K3D, K1DL, K2DL, KCUBE, KCUBEL, K1DLOD, K2DLOD, KFETCH, KGATHER0, KGATHER1 };

template <typename T>
__device__ T sample(int kind, cudaTextureObject_t t, float4 c) {
    switch (kind) {
    case K1D: return tex1D<T>(t, c.x);
    case K2D: return tex2D<T>(t, c.x, c.y);
    case K3D: return tex3D<T>(t, c.x, c.y, c.z);
    case K1DL: return tex1DLayered<T>(t, c.x, (int)c.w);
    case K2DL: return tex2DLayered<T>(t, c.x, c.y, (int)c.w);
    case KCUBE: return texCubemap<T>(t, c.x, c.y, c.z);
    case KCUBEL: return texCubemapLayered<T>(t, c.x, c.y, c.z, (int)c.w);
    case K1DLOD: return tex1DLod<T>(t, c.x, c.w);
    case K2DLOD: return tex2DLod<T>(t, c.x, c.y, c.w);
    case KFETCH: return tex1Dfetch<T>(t, (int)c.x);
    default: return T();
    }
}

template <typename T>
__global__ void sample_kernel(int kind, cudaTextureObject_t t, const float4 *c, T *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = sample<T>(kind, t, c[i]);
}

/* Gathers return four texels of one component. */
__global__ void gather_kernel(int comp, cudaTextureObject_t t, const float4 *c, float4 *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = comp ? tex2Dgather<float4>(t, c[i].x, c[i].y, 1) : tex2Dgather<float4>(t, c[i].x, c[i].y, 0);
}

static void print_value(float v) { printf("%a", v); }
static void print_value(int v) { printf("%d", v); }
static void print_value(float4 v) { printf("(%a,%a,%a,%a)", v.x, v.y, v.z, v.w); }
static void print_value(uchar4 v) { printf("(%d,%d,%d,%d)", v.x, v.y, v.z, v.w); }
static void print_value(int4 v) { printf("(%d,%d,%d,%d)", v.x, v.y, v.z, v.w); }

static float4 *d_coords;
static void *d_out;

/* Samples texture `t` at the `n` coordinates `c` (x, y, z, layer or level) and prints every
 * value read. */
template <typename T>
static void run(const char *label, int kind, cudaTextureObject_t t, const float4 *c, int n) {
    T h[64];
    OK(cudaMemcpy(d_coords, c, n * sizeof(float4), cudaMemcpyHostToDevice));
    OK(cudaMemset(d_out, 0, 64 * sizeof(T)));
    if (kind == KGATHER0 || kind == KGATHER1)
        gather_kernel<<<1, 64>>>(kind == KGATHER1, t, d_coords, (float4 *)d_out, n);
    else
        sample_kernel<T><<<1, 64>>>(kind, t, d_coords, (T *)d_out, n);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("%s: kernel %s\n", label, cudaGetErrorName(e));
        return;
    }
    OK(cudaMemcpy(h, d_out, n * sizeof(T), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        printf("%s (%g,%g,%g,%g) = ", label, c[i].x, c[i].y, c[i].z, c[i].w);
        print_value(h[i]);
        printf("\n");
    }
}

static cudaTextureObject_t make(const char *label, const struct cudaResourceDesc &r, const struct cudaTextureDesc &t,
                                const struct cudaResourceViewDesc *v = NULL) {
    cudaTextureObject_t o = 0;
    cudaError_t e = cudaCreateTextureObject(&o, &r, &t, v);
    if (e != cudaSuccess) {
        printf("%s: create %s\n", label, cudaGetErrorName(e));
        cudaGetLastError();
        return 0;
    }
    return o;
}

static const char *AM[] = {"wrap", "clamp", "mirror", "border"};
static const char *FM[] = {"point", "linear"};

int main(void) {
    OK(cudaMalloc((void **)&d_coords, 64 * sizeof(float4)));
    OK(cudaMalloc(&d_out, 64 * sizeof(float4)));
    char label[128];

    /* ---- 2D float array 4x4: value y*10 + x; every address mode, filter, coordinate mode ---- */
    struct cudaChannelFormatDesc f1 = tu_desc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t a2 = NULL;
    OK(cudaMallocArray(&a2, &f1, 4, 4, 0));
    float v2[16];
    for (int i = 0; i < 16; i++) v2[i] = (float)((i / 4) * 10 + i % 4);
    OK(cudaMemcpy2DToArray(a2, 0, 0, v2, 4 * sizeof(float), 4 * sizeof(float), 4, cudaMemcpyHostToDevice));
    const float4 pts[] = {{0.5f, 0.5f, 0, 0},  {1.25f, 2.75f, 0, 0}, {3.5f, 3.5f, 0, 0},  {1.0f, 1.0f, 0, 0},
                          {2.0f, 0.5f, 0, 0},  {-0.5f, 1.5f, 0, 0},  {4.5f, 1.5f, 0, 0},  {5.75f, -1.25f, 0, 0},
                          {-3.5f, 2.5f, 0, 0}, {9.5f, 9.5f, 0, 0},   {0.0f, 0.0f, 0, 0},  {3.99f, 0.01f, 0, 0}};
    const int npts = sizeof pts / sizeof pts[0];
    for (int norm = 0; norm < 2; norm++) {
        float4 c[16];
        for (int i = 0; i < npts; i++) c[i] = norm ? make_float4(pts[i].x / 4, pts[i].y / 4, 0, 0) : pts[i];
        for (int am = 0; am < 4; am++)
            for (int fm = 0; fm < 2; fm++) {
                struct cudaTextureDesc t = tu_tex(am, fm, cudaReadModeElementType, norm);
                t.borderColor[0] = -7.5f;
                snprintf(label, sizeof label, "2D float %s %s %s", AM[am], FM[fm], norm ? "normalized" : "unnormalized");
                cudaTextureObject_t o = make(label, tu_array_res(a2), t);
                if (!o) continue;
                run<float>(label, K2D, o, c, npts);
                OK(cudaDestroyTextureObject(o));
            }
    }
    /* Address modes differing per dimension. */
    {
        struct cudaTextureDesc t = tu_tex(cudaAddressModeWrap, cudaFilterModeLinear, cudaReadModeElementType, 1);
        t.addressMode[1] = cudaAddressModeBorder;
        t.borderColor[0] = 100.0f;
        cudaTextureObject_t o = make("2D float wrap x border y", tu_array_res(a2), t);
        const float4 c[] = {{1.1f, 0.3f, 0, 0}, {-0.2f, 1.2f, 0, 0}, {0.5f, -0.1f, 0, 0}, {1.9f, 0.99f, 0, 0}};
        if (o) run<float>("2D float wrap x border y", K2D, o, c, 4);
        if (o) OK(cudaDestroyTextureObject(o));
    }
    /* Gathers need an array made for them. */
    {
        cudaArray_t g = NULL;
        OK(cudaMallocArray(&g, &f1, 4, 4, cudaArrayTextureGather));
        OK(cudaMemcpy2DToArray(g, 0, 0, v2, 16, 16, 4, cudaMemcpyHostToDevice));
        struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
        cudaTextureObject_t o = make("gather", tu_array_res(g), t);
        const float4 c[] = {{1.0f, 1.0f, 0, 0}, {2.5f, 0.5f, 0, 0}, {0.0f, 4.0f, 0, 0}};
        if (o) run<float4>("gather comp 0", KGATHER0, o, c, 3);
        if (o) OK(cudaDestroyTextureObject(o));
        OK(cudaFreeArray(g));
    }

    /* ---- uchar4: as normalized floats (with and without sRGB) and as elements ---- */
    {
        struct cudaChannelFormatDesc u8x4 = tu_desc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
        cudaArray_t a = NULL;
        OK(cudaMallocArray(&a, &u8x4, 4, 2, 0));
        uchar4 px[8];
        for (int i = 0; i < 8; i++) px[i] = make_uchar4(i * 30, 255 - i * 30, (i * 77) & 255, 128 + i);
        OK(cudaMemcpy2DToArray(a, 0, 0, px, 16, 16, 2, cudaMemcpyHostToDevice));
        const float4 c[] = {{0.5f, 0.5f, 0, 0}, {1.0f, 0.5f, 0, 0}, {2.25f, 1.0f, 0, 0}, {3.5f, 1.5f, 0, 0}, {-1.0f, 0.5f, 0, 0}};
        for (int srgb = 0; srgb < 2; srgb++)
            for (int fm = 0; fm < 2; fm++) {
                struct cudaTextureDesc t = tu_tex(cudaAddressModeBorder, fm, cudaReadModeNormalizedFloat, 0);
                t.sRGB = srgb;
                t.borderColor[0] = 0.125f;
                t.borderColor[1] = 0.25f;
                t.borderColor[2] = 0.5f;
                t.borderColor[3] = 1.0f;
                snprintf(label, sizeof label, "uchar4 normalized %s%s", FM[fm], srgb ? " sRGB" : "");
                cudaTextureObject_t o = make(label, tu_array_res(a), t);
                if (o) run<float4>(label, K2D, o, c, 5);
                if (o) OK(cudaDestroyTextureObject(o));
            }
        struct cudaTextureDesc t = tu_tex(cudaAddressModeBorder, cudaFilterModePoint, cudaReadModeElementType, 0);
        t.borderColor[0] = 9.0f;
        cudaTextureObject_t o = make("uchar4 element", tu_array_res(a), t);
        if (o) run<uchar4>("uchar4 element", K2D, o, c, 5);
        if (o) OK(cudaDestroyTextureObject(o));
        OK(cudaFreeArray(a));
    }

    /* ---- int: as elements, border and clamp ---- */
    {
        struct cudaChannelFormatDesc i1 = tu_desc(32, 0, 0, 0, cudaChannelFormatKindSigned);
        cudaArray_t a = NULL;
        OK(cudaMallocArray(&a, &i1, 4, 4, 0));
        int v[16];
        for (int i = 0; i < 16; i++) v[i] = -1000 + i * 137;
        OK(cudaMemcpy2DToArray(a, 0, 0, v, 16, 16, 4, cudaMemcpyHostToDevice));
        const float4 c[] = {{0.5f, 0.5f, 0, 0}, {3.9f, 3.9f, 0, 0}, {-0.5f, 2.5f, 0, 0}, {2.5f, 7.0f, 0, 0}};
        for (int am = 0; am < 4; am++) {
            struct cudaTextureDesc t = tu_tex(am, cudaFilterModePoint, cudaReadModeElementType, 0);
            snprintf(label, sizeof label, "int %s", AM[am]);
            cudaTextureObject_t o = make(label, tu_array_res(a), t);
            if (o) run<int>(label, K2D, o, c, 4);
            if (o) OK(cudaDestroyTextureObject(o));
        }
        OK(cudaFreeArray(a));
    }

    /* ---- half: point and linear ---- */
    {
        struct cudaChannelFormatDesc h1 = tu_desc(16, 0, 0, 0, cudaChannelFormatKindFloat);
        cudaArray_t a = NULL;
        OK(cudaMallocArray(&a, &h1, 4, 1, 0));
        __half hv[4] = {__float2half(0.5f), __float2half(-2.0f), __float2half(1000.0f), __float2half(0.1f)};
        OK(cudaMemcpy2DToArray(a, 0, 0, hv, 8, 8, 1, cudaMemcpyHostToDevice));
        const float4 c[] = {{0.5f, 0.5f, 0, 0}, {1.0f, 0.5f, 0, 0}, {1.75f, 0.5f, 0, 0}, {3.2f, 0.5f, 0, 0}};
        for (int fm = 0; fm < 2; fm++) {
            struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, fm, cudaReadModeElementType, 0);
            snprintf(label, sizeof label, "half %s", FM[fm]);
            cudaTextureObject_t o = make(label, tu_array_res(a), t);
            if (o) run<float>(label, K2D, o, c, 4);
            if (o) OK(cudaDestroyTextureObject(o));
        }
        OK(cudaFreeArray(a));
    }

    /* ---- 1D array and 3D array ---- */
    {
        cudaArray_t a = NULL;
        OK(cudaMallocArray(&a, &f1, 8, 0, 0));
        float v[8] = {1, 2, 4, 8, 16, 32, 64, 128};
        OK(cudaMemcpy2DToArray(a, 0, 0, v, 32, 32, 1, cudaMemcpyHostToDevice));
        const float4 c[] = {{0.5f, 0, 0, 0}, {1.0f, 0, 0, 0}, {7.9f, 0, 0, 0}, {-0.3f, 0, 0, 0}, {8.6f, 0, 0, 0}};
        for (int am = 0; am < 4; am++) {
            struct cudaTextureDesc t = tu_tex(am, cudaFilterModeLinear, cudaReadModeElementType, 1);
            t.borderColor[0] = 0.75f;
            float4 cn[5];
            for (int i = 0; i < 5; i++) cn[i] = make_float4(c[i].x / 8, 0, 0, 0);
            snprintf(label, sizeof label, "1D %s linear normalized", AM[am]);
            cudaTextureObject_t o = make(label, tu_array_res(a), t);
            if (o) run<float>(label, K1D, o, cn, 5);
            if (o) OK(cudaDestroyTextureObject(o));
        }
        OK(cudaFreeArray(a));

        OK(cudaMalloc3DArray(&a, &f1, make_cudaExtent(4, 4, 4), 0));
        float v3[64];
        for (int i = 0; i < 64; i++) v3[i] = (float)i;
        struct cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(v3, 16, 4, 4);
        p.dstArray = a;
        p.extent = make_cudaExtent(4, 4, 4);
        p.kind = cudaMemcpyHostToDevice;
        OK(cudaMemcpy3D(&p));
        const float4 c3[] = {{0.5f, 0.5f, 0.5f, 0}, {1.5f, 2.5f, 3.5f, 0}, {2.0f, 2.0f, 2.0f, 0}, {1.2f, 0.7f, 3.3f, 0}, {4.5f, 0.5f, -1.0f, 0}};
        for (int fm = 0; fm < 2; fm++) {
            struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, fm, cudaReadModeElementType, 0);
            snprintf(label, sizeof label, "3D %s", FM[fm]);
            cudaTextureObject_t o = make(label, tu_array_res(a), t);
            if (o) run<float>(label, K3D, o, c3, 5);
            if (o) OK(cudaDestroyTextureObject(o));
        }
        OK(cudaFreeArray(a));
    }

    /* ---- layered arrays, with a view of layers 1-2 ---- */
    {
        cudaArray_t a = NULL;
        OK(cudaMalloc3DArray(&a, &f1, make_cudaExtent(2, 2, 3), cudaArrayLayered));
        float v[12];
        for (int i = 0; i < 12; i++) v[i] = (float)(100 * (i / 4) + i % 4);
        struct cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(v, 8, 2, 2);
        p.dstArray = a;
        p.extent = make_cudaExtent(2, 2, 3);
        p.kind = cudaMemcpyHostToDevice;
        OK(cudaMemcpy3D(&p));
        const float4 c[] = {{0.5f, 0.5f, 0, 0}, {1.0f, 1.0f, 0, 1}, {1.5f, 0.5f, 0, 2}, {0.5f, 1.5f, 0, 3}, {0.5f, 0.5f, 0, -1}};
        struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);
        cudaTextureObject_t o = make("2D layered", tu_array_res(a), t);
        if (o) run<float>("2D layered", K2DL, o, c, 5);
        if (o) OK(cudaDestroyTextureObject(o));
        struct cudaResourceViewDesc lv;
        memset(&lv, 0, sizeof lv);
        lv.format = cudaResViewFormatFloat1;
        lv.width = 2;
        lv.height = 2;
        lv.depth = 3;
        lv.firstLayer = 1;
        lv.lastLayer = 2;
        o = make("2D layered view 1-2", tu_array_res(a), t, &lv);
        if (o) run<float>("2D layered view 1-2", K2DL, o, c, 5);
        if (o) OK(cudaDestroyTextureObject(o));
        OK(cudaFreeArray(a));

        OK(cudaMalloc3DArray(&a, &f1, make_cudaExtent(4, 0, 2), cudaArrayLayered));
        float w[8] = {1, 2, 3, 4, -1, -2, -3, -4};
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(w, 16, 4, 1);
        p.dstArray = a;
        p.extent = make_cudaExtent(4, 1, 2);
        p.kind = cudaMemcpyHostToDevice;
        OK(cudaMemcpy3D(&p));
        const float4 c1[] = {{0.5f, 0, 0, 0}, {2.0f, 0, 0, 1}, {3.9f, 0, 0, 1}};
        o = make("1D layered", tu_array_res(a), t);
        if (o) run<float>("1D layered", K1DL, o, c1, 3);
        if (o) OK(cudaDestroyTextureObject(o));
        OK(cudaFreeArray(a));
    }

    /* ---- cubemaps: face f texel (x, y) = f*100 + y*10 + x ---- */
    {
        cudaArray_t a = NULL;
        OK(cudaMalloc3DArray(&a, &f1, make_cudaExtent(4, 4, 6), cudaArrayCubemap));
        float v[96];
        for (int i = 0; i < 96; i++) v[i] = (float)((i / 16) * 100 + ((i % 16) / 4) * 10 + i % 4);
        struct cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(v, 16, 4, 4);
        p.dstArray = a;
        p.extent = make_cudaExtent(4, 4, 6);
        p.kind = cudaMemcpyHostToDevice;
        OK(cudaMemcpy3D(&p));
        const float4 c[] = {{1, 0, 0, 0},        {-1, 0, 0, 0},        {0, 1, 0, 0},      {0, -1, 0, 0},
                            {0, 0, 1, 0},        {0, 0, -1, 0},        {1, 0.5f, -0.5f, 0}, {1, 0.99f, 0.99f, 0},
                            {0.3f, -1, 0.2f, 0}, {0.7f, 0.7f, 0.7f, 0}};
        for (int seamless = 0; seamless < 2; seamless++)
            for (int fm = 0; fm < 2; fm++) {
                struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, fm, cudaReadModeElementType, 1);
                t.seamlessCubemap = seamless;
                snprintf(label, sizeof label, "cubemap %s%s", FM[fm], seamless ? " seamless" : "");
                cudaTextureObject_t o = make(label, tu_array_res(a), t);
                if (o) run<float>(label, KCUBE, o, c, 10);
                if (o) OK(cudaDestroyTextureObject(o));
            }
        OK(cudaFreeArray(a));

        OK(cudaMalloc3DArray(&a, &f1, make_cudaExtent(2, 2, 12), cudaArrayCubemap | cudaArrayLayered));
        float w[48];
        for (int i = 0; i < 48; i++) w[i] = (float)i;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(w, 8, 2, 2);
        p.dstArray = a;
        p.extent = make_cudaExtent(2, 2, 12);
        p.kind = cudaMemcpyHostToDevice;
        OK(cudaMemcpy3D(&p));
        const float4 cl[] = {{1, 0, 0, 0}, {1, 0, 0, 1}, {0, 0, -1, 1}, {0, -1, 0, 0}};
        struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 1);
        cudaTextureObject_t o = make("cubemap layered", tu_array_res(a), t);
        if (o) run<float>("cubemap layered", KCUBEL, o, cl, 4);
        if (o) OK(cudaDestroyTextureObject(o));
        OK(cudaFreeArray(a));
    }

    /* ---- mipmapped arrays: level l texel (x, y) = 1000*l + 10*y + x ---- */
    {
        cudaMipmappedArray_t m = NULL;
        OK(cudaMallocMipmappedArray(&m, &f1, make_cudaExtent(8, 8, 0), 4, 0));
        for (int l = 0; l < 4; l++) {
            cudaArray_t lv = NULL;
            OK(cudaGetMipmappedArrayLevel(&lv, m, l));
            int n = 8 >> l;
            float v[64];
            for (int i = 0; i < n * n; i++) v[i] = (float)(1000 * l + 10 * (i / n) + i % n);
            OK(cudaMemcpy2DToArray(lv, 0, 0, v, n * 4, n * 4, n, cudaMemcpyHostToDevice));
        }
        const float4 c[] = {{0.3f, 0.6f, 0, 0},   {0.3f, 0.6f, 0, 0.5f}, {0.3f, 0.6f, 0, 1},  {0.3f, 0.6f, 0, 1.25f},
                            {0.3f, 0.6f, 0, 2},   {0.3f, 0.6f, 0, 3},    {0.3f, 0.6f, 0, 10}, {0.3f, 0.6f, 0, -1},
                            {0.0625f, 0.0625f, 0, 0}, {0.5f, 0.5f, 0, 1.5f}};
        for (int mf = 0; mf < 2; mf++)
            for (int fm = 0; fm < 2; fm++) {
                struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, fm, cudaReadModeElementType, 1);
                t.mipmapFilterMode = (enum cudaTextureFilterMode)mf;
                t.maxMipmapLevelClamp = 3.0f;
                snprintf(label, sizeof label, "mipmap %s, mip %s", FM[fm], FM[mf]);
                cudaTextureObject_t o = make(label, tu_mipmap_res(m), t);
                if (o) run<float>(label, K2DLOD, o, c, 10);
                if (o) OK(cudaDestroyTextureObject(o));
            }
        /* Bias and clamps. */
        struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 1);
        t.mipmapFilterMode = cudaFilterModePoint;
        t.mipmapLevelBias = 1.0f;
        t.maxMipmapLevelClamp = 3.0f;
        cudaTextureObject_t o = make("mipmap bias 1", tu_mipmap_res(m), t);
        if (o) run<float>("mipmap bias 1", K2DLOD, o, c, 10);
        if (o) OK(cudaDestroyTextureObject(o));
        t.mipmapLevelBias = 0.0f;
        t.minMipmapLevelClamp = 1.0f;
        t.maxMipmapLevelClamp = 2.0f;
        o = make("mipmap clamp 1-2", tu_mipmap_res(m), t);
        if (o) run<float>("mipmap clamp 1-2", K2DLOD, o, c, 10);
        if (o) OK(cudaDestroyTextureObject(o));
        /* A view from level 1: its level 0 is the array's level 1. */
        struct cudaResourceViewDesc v;
        memset(&v, 0, sizeof v);
        v.format = cudaResViewFormatFloat1;
        v.width = 8;
        v.height = 8;
        v.firstMipmapLevel = 1;
        v.lastMipmapLevel = 3;
        t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 1);
        t.maxMipmapLevelClamp = 3.0f;
        o = make("mipmap view 1-3", tu_mipmap_res(m), t, &v);
        if (o) run<float>("mipmap view 1-3", K2DLOD, o, c, 10);
        if (o) OK(cudaDestroyTextureObject(o));
        OK(cudaFreeMipmappedArray(m));

        OK(cudaMallocMipmappedArray(&m, &f1, make_cudaExtent(8, 0, 0), 3, 0));
        for (int l = 0; l < 3; l++) {
            cudaArray_t lv = NULL;
            OK(cudaGetMipmappedArrayLevel(&lv, m, l));
            int n = 8 >> l;
            float w[8];
            for (int i = 0; i < n; i++) w[i] = (float)(100 * l + i);
            OK(cudaMemcpy2DToArray(lv, 0, 0, w, n * 4, n * 4, 1, cudaMemcpyHostToDevice));
        }
        const float4 c1[] = {{0.4f, 0, 0, 0}, {0.4f, 0, 0, 1}, {0.4f, 0, 0, 1.5f}, {0.4f, 0, 0, 2}};
        t = tu_tex(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 1);
        t.mipmapFilterMode = cudaFilterModeLinear;
        t.maxMipmapLevelClamp = 2.0f;
        o = make("1D mipmap", tu_mipmap_res(m), t);
        if (o) run<float>("1D mipmap", K1DLOD, o, c1, 4);
        if (o) OK(cudaDestroyTextureObject(o));
        OK(cudaFreeMipmappedArray(m));
    }

    /* ---- linear memory: fetched by index, out of range reads 0 ---- */
    {
        float *d = NULL;
        OK(cudaMalloc((void **)&d, 64 * sizeof(float)));
        float v[64];
        for (int i = 0; i < 64; i++) v[i] = i * 0.5f - 3.0f;
        OK(cudaMemcpy(d, v, sizeof v, cudaMemcpyHostToDevice));
        const float4 c[] = {{0, 0, 0, 0}, {5, 0, 0, 0}, {63, 0, 0, 0}, {64, 0, 0, 0}, {1000, 0, 0, 0}, {-1, 0, 0, 0}};
        struct cudaTextureDesc t = tu_tex(cudaAddressModeBorder, cudaFilterModePoint, cudaReadModeElementType, 0);
        t.borderColor[0] = 42.0f;
        cudaTextureObject_t o = make("linear float", tu_linear_res(d, f1, sizeof v), t);
        if (o) run<float>("linear float", KFETCH, o, c, 6);
        if (o) OK(cudaDestroyTextureObject(o));
        /* Only the first 16 elements. */
        o = make("linear float 16", tu_linear_res(d, f1, 16 * sizeof(float)), t);
        const float4 c16[] = {{15, 0, 0, 0}, {16, 0, 0, 0}};
        if (o) run<float>("linear float 16", KFETCH, o, c16, 2);
        if (o) OK(cudaDestroyTextureObject(o));
        /* The same bytes as uchar4, normalized and as elements. */
        unsigned char b[64];
        for (int i = 0; i < 64; i++) b[i] = (unsigned char)(i * 4 + 1);
        OK(cudaMemcpy(d, b, sizeof b, cudaMemcpyHostToDevice));
        struct cudaChannelFormatDesc u8x4 = tu_desc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
        const float4 cb[] = {{0, 0, 0, 0}, {3, 0, 0, 0}, {15, 0, 0, 0}, {16, 0, 0, 0}};
        t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0);
        o = make("linear uchar4 normalized", tu_linear_res(d, u8x4, 64), t);
        if (o) run<float4>("linear uchar4 normalized", KFETCH, o, cb, 4);
        if (o) OK(cudaDestroyTextureObject(o));
        t.sRGB = 1;
        o = make("linear uchar4 normalized sRGB", tu_linear_res(d, u8x4, 64), t);
        if (o) run<float4>("linear uchar4 normalized sRGB", KFETCH, o, cb, 4);
        if (o) OK(cudaDestroyTextureObject(o));
        t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
        o = make("linear uchar4 element", tu_linear_res(d, u8x4, 64), t);
        if (o) run<uchar4>("linear uchar4 element", KFETCH, o, cb, 4);
        if (o) OK(cudaDestroyTextureObject(o));
        struct cudaChannelFormatDesc i4 = tu_desc(32, 32, 32, 32, cudaChannelFormatKindSigned);
        o = make("linear int4", tu_linear_res(d, i4, 64), t);
        const float4 ci[] = {{0, 0, 0, 0}, {3, 0, 0, 0}, {4, 0, 0, 0}};
        if (o) run<int4>("linear int4", KFETCH, o, ci, 3);
        if (o) OK(cudaDestroyTextureObject(o));
        OK(cudaFree(d));
    }

    /* ---- pitch-2D memory ---- */
    {
        float *p = NULL;
        size_t pitch = 0;
        OK(cudaMallocPitch((void **)&p, &pitch, 4 * sizeof(float), 4));
        OK(cudaMemcpy2D(p, pitch, v2, 16, 16, 4, cudaMemcpyHostToDevice));
        for (int am = 0; am < 4; am++)
            for (int fm = 0; fm < 2; fm++) {
                struct cudaTextureDesc t = tu_tex(am, fm, cudaReadModeElementType, 1);
                t.borderColor[0] = 0.5f;
                float4 c[16];
                for (int i = 0; i < npts; i++) c[i] = make_float4(pts[i].x / 4, pts[i].y / 4, 0, 0);
                snprintf(label, sizeof label, "pitch2D %s %s normalized", AM[am], FM[fm]);
                cudaTextureObject_t o = make(label, tu_pitch_res(p, f1, 4, 4, pitch), t);
                if (o) run<float>(label, K2D, o, c, npts);
                if (o) OK(cudaDestroyTextureObject(o));
            }
        struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 0);
        cudaTextureObject_t o = make("pitch2D 3x3 of 4x4", tu_pitch_res(p, f1, 3, 3, pitch), t);
        if (o) run<float>("pitch2D 3x3 of 4x4", K2D, o, pts, npts);
        if (o) OK(cudaDestroyTextureObject(o));
        OK(cudaFree(p));
    }

    OK(cudaFreeArray(a2));
    ct_free_device(d_coords, d_out, NULL);
    DONE();
}
