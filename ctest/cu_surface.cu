/* ctest: gpu cu */
/* Surface objects written and read by kernels: 1D, 2D, 3D, 1D and 2D layered, cubemap and
 * cubemap layered arrays, a mipmap level; float, int and uchar4 elements; the zero and clamp
 * boundary modes of writes and reads outside the array; a surface and a texture on one
 * array; the trap boundary mode last (it faults the context). What the kernels wrote is read
 * back with copies and printed, what they read is printed exactly. */
#include "ctest.h"
#include "texture_util.h"
#include "clang_surface.h" /* clang builds (the 12 ABI): the surface functions */

/* 2D: element (x, y) = base + 100*y + x, for x from -1 to w: the inside ones (`outside` 0),
 * or the two outside (`outside` 1, dropped or clamped by `mode`). */
__global__ void write2d(cudaSurfaceObject_t s, int w, int h, float base, enum cudaSurfaceBoundaryMode mode, int outside) {
    int x = (int)threadIdx.x - 1, y = blockIdx.x;
    if (x > w || y >= h || (x < 0 || x >= w) != (outside != 0)) return;
    surf2Dwrite(base + 100 * y + x, s, x * (int)sizeof(float), y, mode);
}

/* Both: the outside ones second, so a clamped write lands after the edge element's own. */
static void write2d_both(cudaSurfaceObject_t s, int w, int h, float base, enum cudaSurfaceBoundaryMode mode) {
    write2d<<<h, w + 2>>>(s, w, h, base, mode, 0);
    write2d<<<h, w + 2>>>(s, w, h, base, mode, 1);
}

__global__ void read2d(cudaSurfaceObject_t s, const int2 *c, float *out, int n, enum cudaSurfaceBoundaryMode mode) {
    int i = threadIdx.x;
    if (i < n) out[i] = surf2Dread<float>(s, c[i].x * (int)sizeof(float), c[i].y, mode);
}

__global__ void write2d_uchar4(cudaSurfaceObject_t s, int w, int h) {
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h) surf2Dwrite(make_uchar4(x, y, x + y, 255 - x), s, x * 4, y);
}

__global__ void write2d_int(cudaSurfaceObject_t s, int w, int h) {
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h) surf2Dwrite(-(x * 1000 + y), s, x * 4, y);
}

__global__ void write1d(cudaSurfaceObject_t s, int w) {
    int x = threadIdx.x;
    if (x < w) surf1Dwrite((float)(x * x), s, x * 4);
}

__global__ void write3d(cudaSurfaceObject_t s, int w, int h, int d) {
    int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
    if (x < w && y < h && z < d) surf3Dwrite((float)(z * 100 + y * 10 + x), s, x * 4, y, z);
}

__global__ void write1d_layered(cudaSurfaceObject_t s, int w, int layers) {
    int x = threadIdx.x, l = blockIdx.x;
    if (x < w && l < layers) surf1DLayeredwrite((float)(l * 10 + x), s, x * 4, l);
}

__global__ void write2d_layered(cudaSurfaceObject_t s, int w, int h, int layers) {
    int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
    if (x < w && y < h && l < layers) surf2DLayeredwrite((float)(l * 100 + y * 10 + x), s, x * 4, y, l);
}

__global__ void write_cubemap(cudaSurfaceObject_t s, int w) {
    int x = threadIdx.x, y = threadIdx.y, f = blockIdx.x;
    if (x < w && y < w && f < 6) surfCubemapwrite((float)(f * 100 + y * 10 + x), s, x * 4, y, f);
}

__global__ void write_cubemap_layered(cudaSurfaceObject_t s, int w, int layerFaces) {
    int x = threadIdx.x, y = threadIdx.y, lf = blockIdx.x;
    if (x < w && y < w && lf < layerFaces) surfCubemapLayeredwrite((float)(lf * 100 + y * 10 + x), s, x * 4, y, lf);
}

__global__ void sample2d(cudaTextureObject_t t, const int2 *c, float *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex2D<float>(t, c[i].x + 0.5f, c[i].y + 0.5f);
}

__global__ void sample2d_lod(cudaTextureObject_t t, float *out, float lod) {
    int i = threadIdx.x;
    out[i] = tex2DLod<float>(t, (i % 4 + 0.5f) / 4, (i / 4 + 0.5f) / 4, lod);
}

__global__ void trap_write(cudaSurfaceObject_t s) { surf2Dwrite(1.0f, s, 64 * 4, 0, cudaBoundaryModeTrap); }

static cudaSurfaceObject_t surface(const char *label, cudaArray_t a) {
    cudaSurfaceObject_t s = 0;
    struct cudaResourceDesc r = tu_array_res(a);
    cudaError_t e = cudaCreateSurfaceObject(&s, &r);
    printf("%s surface: %s\n", label, cudaGetErrorName(e));
    if (e != cudaSuccess) cudaGetLastError();
    return s;
}

static void sync(const char *label) {
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) printf("%s: kernel %s\n", label, cudaGetErrorName(e));
}

/* Prints `n` floats, `per` to a line. */
static void print_floats(const char *label, const float *v, int n, int per) {
    for (int i = 0; i < n; i += per) {
        printf("%s [%d]:", label, i);
        for (int j = i; j < i + per && j < n; j++) printf(" %a", v[j]);
        printf("\n");
    }
}

/* Reads a 3D (or layered, cubemap) float array of w x h x d back. */
static void read3d(cudaArray_t a, float *v, int w, int h, int d) {
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcArray = a;
    p.dstPtr = make_cudaPitchedPtr(v, w * sizeof(float), w, h);
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyDeviceToHost;
    OK(cudaMemcpy3D(&p));
}

/* Zeroes a 2D float array of w x h. */
static void clear2d(cudaArray_t a, int w, int h) {
    float z[64];
    memset(z, 0, sizeof z);
    OK(cudaMemcpy2DToArray(a, 0, 0, z, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
}

int main(void) {
    struct cudaChannelFormatDesc f1 = tu_desc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    int2 *d_c = NULL;
    float *d_out = NULL;
    OK(cudaMalloc((void **)&d_c, 64 * sizeof(int2)));
    OK(cudaMalloc((void **)&d_out, 64 * sizeof(float)));
    float v[128];
    char label[96];

    /* ---- 2D float: writes with the zero and the clamp boundary mode; reads ---- */
    cudaArray_t a = NULL;
    OK(cudaMallocArray(&a, &f1, 8, 4, cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t s = surface("2D float", a);
    const char *modes[] = {"zero", "clamp"};
    for (int mode = 0; mode < 2; mode++) {
        clear2d(a, 8, 4);
        write2d_both(s, 8, 4, 0.5f, (enum cudaSurfaceBoundaryMode)mode);
        snprintf(label, sizeof label, "2D float write %s", modes[mode]);
        sync(label);
        OK(cudaMemcpy2DFromArray(v, 32, a, 0, 0, 32, 4, cudaMemcpyDeviceToHost));
        print_floats(label, v, 32, 8);
    }
    const int2 rc[] = {{0, 0}, {7, 3}, {3, 2}, {8, 0}, {-1, 1}, {100, 100}, {2, 4}, {2, -3}};
    OK(cudaMemcpy(d_c, rc, sizeof rc, cudaMemcpyHostToDevice));
    for (int mode = 0; mode < 2; mode++) {
        OK(cudaMemset(d_out, 0xff, 64 * sizeof(float)));
        read2d<<<1, 8>>>(s, d_c, d_out, 8, (enum cudaSurfaceBoundaryMode)mode);
        snprintf(label, sizeof label, "2D float read %s", modes[mode]);
        sync(label);
        OK(cudaMemcpy(v, d_out, 8 * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < 8; i++) printf("%s (%d,%d) = %a\n", label, rc[i].x, rc[i].y, v[i]);
    }
    /* A texture on the same array sees what the surface wrote. */
    {
        struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 0);
        struct cudaResourceDesc r = tu_array_res(a);
        cudaTextureObject_t o = 0;
        SHOW("texture on the surface's array", cudaCreateTextureObject(&o, &r, &t, NULL));
        if (o) {
            sample2d<<<1, 8>>>(o, d_c, d_out, 8);
            sync("texture on the surface's array");
            OK(cudaMemcpy(v, d_out, 8 * sizeof(float), cudaMemcpyDeviceToHost));
            for (int i = 0; i < 8; i++) printf("texture (%d,%d) = %a\n", rc[i].x, rc[i].y, v[i]);
            OK(cudaDestroyTextureObject(o));
        }
    }

    /* ---- 2D uchar4 and int ---- */
    {
        struct cudaChannelFormatDesc u8x4 = tu_desc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
        cudaArray_t b = NULL;
        OK(cudaMallocArray(&b, &u8x4, 4, 3, cudaArraySurfaceLoadStore));
        cudaSurfaceObject_t sb = surface("2D uchar4", b);
        write2d_uchar4<<<3, 4>>>(sb, 4, 3);
        sync("2D uchar4");
        unsigned char px[48];
        OK(cudaMemcpy2DFromArray(px, 16, b, 0, 0, 16, 3, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 12; i++) printf("2D uchar4 [%d] = (%d,%d,%d,%d)\n", i, px[4 * i], px[4 * i + 1], px[4 * i + 2], px[4 * i + 3]);
        OK(cudaDestroySurfaceObject(sb));
        OK(cudaFreeArray(b));

        struct cudaChannelFormatDesc i1 = tu_desc(32, 0, 0, 0, cudaChannelFormatKindSigned);
        OK(cudaMallocArray(&b, &i1, 4, 2, cudaArraySurfaceLoadStore));
        sb = surface("2D int", b);
        write2d_int<<<2, 4>>>(sb, 4, 2);
        sync("2D int");
        int iv[8];
        OK(cudaMemcpy2DFromArray(iv, 16, b, 0, 0, 16, 2, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 8; i++) printf("2D int [%d] = %d\n", i, iv[i]);
        OK(cudaDestroySurfaceObject(sb));
        OK(cudaFreeArray(b));
    }

    /* ---- 1D, 3D, layered ---- */
    {
        cudaArray_t b = NULL;
        OK(cudaMallocArray(&b, &f1, 16, 0, cudaArraySurfaceLoadStore));
        cudaSurfaceObject_t sb = surface("1D", b);
        write1d<<<1, 16>>>(sb, 16);
        sync("1D");
        OK(cudaMemcpy2DFromArray(v, 64, b, 0, 0, 64, 1, cudaMemcpyDeviceToHost));
        print_floats("1D", v, 16, 8);
        OK(cudaDestroySurfaceObject(sb));
        OK(cudaFreeArray(b));

        OK(cudaMalloc3DArray(&b, &f1, make_cudaExtent(4, 3, 2), cudaArraySurfaceLoadStore));
        sb = surface("3D", b);
        write3d<<<2, dim3(4, 3)>>>(sb, 4, 3, 2);
        sync("3D");
        read3d(b, v, 4, 3, 2);
        print_floats("3D", v, 24, 4);
        OK(cudaDestroySurfaceObject(sb));
        OK(cudaFreeArray(b));

        OK(cudaMalloc3DArray(&b, &f1, make_cudaExtent(4, 0, 3), cudaArraySurfaceLoadStore | cudaArrayLayered));
        sb = surface("1D layered", b);
        write1d_layered<<<3, 4>>>(sb, 4, 3);
        sync("1D layered");
        read3d(b, v, 4, 1, 3);
        print_floats("1D layered", v, 12, 4);
        OK(cudaDestroySurfaceObject(sb));
        OK(cudaFreeArray(b));

        OK(cudaMalloc3DArray(&b, &f1, make_cudaExtent(2, 2, 3), cudaArraySurfaceLoadStore | cudaArrayLayered));
        sb = surface("2D layered", b);
        write2d_layered<<<3, dim3(2, 2)>>>(sb, 2, 2, 3);
        sync("2D layered");
        read3d(b, v, 2, 2, 3);
        print_floats("2D layered", v, 12, 4);
        OK(cudaDestroySurfaceObject(sb));
        OK(cudaFreeArray(b));
    }

    /* ---- cubemaps ---- */
    {
        cudaArray_t b = NULL;
        OK(cudaMalloc3DArray(&b, &f1, make_cudaExtent(2, 2, 6), cudaArraySurfaceLoadStore | cudaArrayCubemap));
        cudaSurfaceObject_t sb = surface("cubemap", b);
        write_cubemap<<<6, dim3(2, 2)>>>(sb, 2);
        sync("cubemap");
        read3d(b, v, 2, 2, 6);
        print_floats("cubemap", v, 24, 4);
        OK(cudaDestroySurfaceObject(sb));
        OK(cudaFreeArray(b));

        OK(cudaMalloc3DArray(&b, &f1, make_cudaExtent(2, 2, 12),
                             cudaArraySurfaceLoadStore | cudaArrayCubemap | cudaArrayLayered));
        sb = surface("cubemap layered", b);
        write_cubemap_layered<<<12, dim3(2, 2)>>>(sb, 2, 12);
        sync("cubemap layered");
        read3d(b, v, 2, 2, 12);
        print_floats("cubemap layered", v, 48, 4);
        OK(cudaDestroySurfaceObject(sb));
        OK(cudaFreeArray(b));
    }

    /* ---- a mipmap level written through a surface, read through the mipmapped texture ---- */
    {
        cudaMipmappedArray_t m = NULL;
        OK(cudaMallocMipmappedArray(&m, &f1, make_cudaExtent(8, 8, 0), 2, cudaArraySurfaceLoadStore));
        cudaArray_t l0 = NULL, l1 = NULL;
        OK(cudaGetMipmappedArrayLevel(&l0, m, 0));
        OK(cudaGetMipmappedArrayLevel(&l1, m, 1));
        cudaSurfaceObject_t s0 = surface("mipmap level 0", l0), s1 = surface("mipmap level 1", l1);
        write2d_both(s0, 8, 8, 0.0f, cudaBoundaryModeZero);
        write2d_both(s1, 4, 4, 5000.0f, cudaBoundaryModeZero);
        sync("mipmap levels");
        struct cudaTextureDesc t = tu_tex(cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeElementType, 1);
        t.maxMipmapLevelClamp = 1.0f;
        struct cudaResourceDesc r = tu_mipmap_res(m);
        cudaTextureObject_t o = 0;
        SHOW("mipmap texture", cudaCreateTextureObject(&o, &r, &t, NULL));
        if (o) {
            for (int l = 0; l < 2; l++) {
                sample2d_lod<<<1, 16>>>(o, d_out, (float)l);
                snprintf(label, sizeof label, "mipmap lod %d", l);
                sync(label);
                OK(cudaMemcpy(v, d_out, 16 * sizeof(float), cudaMemcpyDeviceToHost));
                print_floats(label, v, 16, 4);
            }
            OK(cudaDestroyTextureObject(o));
        }
        OK(cudaDestroySurfaceObject(s0));
        OK(cudaDestroySurfaceObject(s1));
        OK(cudaFreeMipmappedArray(m));
    }

    /* ---- last: the trap boundary mode faults the context ---- */
    trap_write<<<1, 1>>>(s);
    SHOW("trap write launch", cudaGetLastError());
    SHOW("trap write sync", cudaDeviceSynchronize());
    SHOW_LAST("trap write");
    DONE();
}
