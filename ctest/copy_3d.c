/* cudaMalloc3D and cudaMemcpy3D: pitched host and device volumes with positions in both
 * ends, cudaMemcpyDefault, copies to, from and between CUDA arrays (extent and x positions
 * in array elements), empty extents, and every documented failure. */
#include "ctest.h"

#define W 24 /* bytes per row */
#define H 5  /* rows per slice */
#define D 3  /* slices */

static unsigned char pat(size_t x, size_t y, size_t z) { return (unsigned char)(x + 29 * y + 71 * z + 3); }

int main(void) {
    /* cudaMalloc3D: what it returns besides the pointer. */
    struct cudaPitchedPtr dv, dv2;
    memset(&dv, 0, sizeof dv);
    memset(&dv2, 0, sizeof dv2);
    OK(SHOW("cudaMalloc3D", cudaMalloc3D(&dv, make_cudaExtent(W, H, D))));
    OK(SHOW("cudaMalloc3D 2", cudaMalloc3D(&dv2, make_cudaExtent(W, H, D))));
    SHOWU("pitch", dv.pitch);
    SHOWU("xsize", dv.xsize);
    SHOWU("ysize", dv.ysize);
    CHECK(dv.pitch >= W && dv.xsize == W && dv.ysize == H && dv.ptr != NULL);
    if (!dv.ptr || !dv2.ptr) DONE();
    {
        struct cudaPitchedPtr z;
        memset(&z, 0x5a, sizeof z);
        SHOW("cudaMalloc3D NULL", cudaMalloc3D(NULL, make_cudaExtent(W, H, D)));
        SHOW_LAST("cudaMalloc3D NULL");
        SHOW("cudaMalloc3D width 0", cudaMalloc3D(&z, make_cudaExtent(0, H, D)));
        printf("width 0: ptr %s, pitch %llu, xsize %llu, ysize %llu\n", z.ptr ? "set" : "NULL",
               (unsigned long long)z.pitch, (unsigned long long)z.xsize, (unsigned long long)z.ysize);
        if (z.ptr) cudaFree(z.ptr);
        struct cudaPitchedPtr one;
        SHOW("cudaMalloc3D 1x1x1", cudaMalloc3D(&one, make_cudaExtent(1, 1, 1)));
        SHOWU("1x1x1 pitch", one.pitch);
        cudaFree(one.ptr);
        SHOW("cudaMalloc3D huge", cudaMalloc3D(&z, make_cudaExtent((size_t)1 << 20, (size_t)1 << 20, (size_t)1 << 20)));
        SHOW_LAST("cudaMalloc3D huge");
    }

    /* Host volume with pitch 32 and 6 rows per slice. */
    enum { HP = 32, HH = 6 };
    static unsigned char h[HP * HH * D], back[HP * HH * D];
    for (size_t z = 0; z < D; z++)
        for (size_t y = 0; y < HH; y++)
            for (size_t x = 0; x < HP; x++) h[(z * HH + y) * HP + x] = pat(x, y, z);

    struct cudaMemcpy3DParms p;
    /* Whole volume host -> device -> device -> host. */
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(h, HP, W, HH);
    p.dstPtr = dv;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyHostToDevice;
    SHOW("3D H2D", cudaMemcpy3D(&p));
    memset(&p, 0, sizeof p);
    p.srcPtr = dv;
    p.dstPtr = dv2;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyDeviceToDevice;
    SHOW("3D D2D", cudaMemcpy3D(&p));
    memset(back, 0xcc, sizeof back);
    memset(&p, 0, sizeof p);
    p.srcPtr = dv2;
    p.dstPtr = make_cudaPitchedPtr(back, HP, W, HH);
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyDeviceToHost;
    SHOW("3D D2H", cudaMemcpy3D(&p));
    {
        int ok = 1;
        for (size_t z = 0; z < D; z++)
            for (size_t y = 0; y < HH; y++)
                for (size_t x = 0; x < HP; x++) {
                    unsigned char want = (x < W && y < H) ? pat(x, y, z) : 0xcc;
                    ok &= back[(z * HH + y) * HP + x] == want;
                }
        CHECK(ok);
        printf("3D round trip: %s\n", ok ? "ok" : "wrong");
    }

    /* A 7x2x2 box from host (3,1,1) to device (10,2,0), read back whole with Default. */
    OK(cudaMemset3D(dv, 0, make_cudaExtent(W, H, D)));
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(h, HP, W, HH);
    p.srcPos = make_cudaPos(3, 1, 1);
    p.dstPtr = dv;
    p.dstPos = make_cudaPos(10, 2, 0);
    p.extent = make_cudaExtent(7, 2, 2);
    p.kind = cudaMemcpyHostToDevice;
    SHOW("3D H2D box", cudaMemcpy3D(&p));
    memset(back, 0xcc, sizeof back);
    memset(&p, 0, sizeof p);
    p.srcPtr = dv;
    p.dstPtr = make_cudaPitchedPtr(back, W, W, H);
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyDefault;
    SHOW("3D Default D2H whole", cudaMemcpy3D(&p));
    {
        int ok = 1;
        for (size_t z = 0; z < D; z++)
            for (size_t y = 0; y < H; y++)
                for (size_t x = 0; x < W; x++) {
                    int in = x >= 10 && x < 17 && y >= 2 && y < 4 && z < 2;
                    unsigned char want = in ? pat(x - 10 + 3, y - 2 + 1, z + 1) : 0;
                    ok &= back[(z * H + y) * W + x] == want;
                }
        CHECK(ok);
        printf("3D box at positions: %s\n", ok ? "ok" : "wrong");
    }

    /* Host to host with Default and with HostToHost. */
    {
        static unsigned char hh[W * H * D];
        memset(hh, 0, sizeof hh);
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(h, HP, W, HH);
        p.dstPtr = make_cudaPitchedPtr(hh, W, W, H);
        p.extent = make_cudaExtent(W, H, D);
        p.kind = cudaMemcpyHostToHost;
        SHOW("3D H2H", cudaMemcpy3D(&p));
        int ok = 1;
        for (size_t z = 0; z < D; z++)
            for (size_t y = 0; y < H; y++)
                for (size_t x = 0; x < W; x++) ok &= hh[(z * H + y) * W + x] == pat(x, y, z);
        CHECK(ok);
        printf("3D H2H: %s\n", ok ? "ok" : "wrong");
    }

    /* CUDA arrays of float (4 bytes): extent and x positions in elements. */
    {
        struct cudaChannelFormatDesc f32 = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
        struct cudaChannelFormatDesc u16 = cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
        cudaArray_t a = NULL, a2 = NULL, b16 = NULL;
        OK(SHOW("cudaMalloc3DArray a", cudaMalloc3DArray(&a, &f32, make_cudaExtent(6, H, D), 0)));
        OK(SHOW("cudaMalloc3DArray a2", cudaMalloc3DArray(&a2, &f32, make_cudaExtent(6, H, D), 0)));
        OK(SHOW("cudaMalloc3DArray b16", cudaMalloc3DArray(&b16, &u16, make_cudaExtent(6, H, D), 0)));
        /* Host (pitch 32 = 8 floats, 6 rows) -> array, 6x5x3 floats. */
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(h, HP, W, HH);
        p.dstArray = a;
        p.extent = make_cudaExtent(6, H, D);
        p.kind = cudaMemcpyHostToDevice;
        SHOW("3D H2A", cudaMemcpy3D(&p));
        /* Array -> array, 2x2x2 floats from (1,1,1) to (3,0,0). */
        memset(&p, 0, sizeof p);
        p.srcArray = a;
        p.srcPos = make_cudaPos(1, 1, 1);
        p.dstArray = a2;
        p.dstPos = make_cudaPos(3, 0, 0);
        p.extent = make_cudaExtent(2, 2, 2);
        p.kind = cudaMemcpyDeviceToDevice;
        SHOW("3D A2A box", cudaMemcpy3D(&p));
        /* Array a -> device, the kind saying the source is on the host: refused, an array
         * is device memory (dv2 already holds the same data, from the D2D copy above). */
        memset(&p, 0, sizeof p);
        p.srcArray = a;
        p.dstPtr = dv2;
        p.extent = make_cudaExtent(6, H, D);
        p.kind = cudaMemcpyHostToDevice;
        SHOW("3D A2D", cudaMemcpy3D(&p));
        memset(back, 0xcc, sizeof back);
        OK(cudaMemcpy2D(back, W, dv2.ptr, dv2.pitch, W, H * D, cudaMemcpyDeviceToHost));
        {
            int ok = 1;
            for (size_t z = 0; z < D; z++)
                for (size_t y = 0; y < H; y++)
                    for (size_t x = 0; x < W; x++) ok &= back[(z * H + y) * W + x] == pat(x, y, z);
            CHECK(ok);
            printf("3D through array: %s\n", ok ? "ok" : "wrong");
        }
        /* Array a2 -> host: the 2x2x2 box at (3,0,0) holds a's (1,1,1) box. */
        memset(back, 0xcc, sizeof back);
        memset(&p, 0, sizeof p);
        p.srcArray = a2;
        p.srcPos = make_cudaPos(3, 0, 0);
        p.dstPtr = make_cudaPitchedPtr(back, 8, 8, 2);
        p.extent = make_cudaExtent(2, 2, 2);
        p.kind = cudaMemcpyDeviceToHost;
        SHOW("3D A2H box", cudaMemcpy3D(&p));
        {
            int ok = 1;
            for (size_t z = 0; z < 2; z++)
                for (size_t y = 0; y < 2; y++)
                    for (size_t x = 0; x < 8; x++) ok &= back[(z * 2 + y) * 8 + x] == pat(x + 4, y + 1, z + 1);
            CHECK(ok);
            printf("3D array box: %s\n", ok ? "ok" : "wrong");
        }
        /* Array to array with different element sizes. */
        memset(&p, 0, sizeof p);
        p.srcArray = a;
        p.dstArray = b16;
        p.extent = make_cudaExtent(2, 2, 1);
        p.kind = cudaMemcpyDeviceToDevice;
        SHOW("3D A2A element sizes differ", cudaMemcpy3D(&p));
        SHOW_LAST("element sizes differ");
        /* Both an array and a pointer as source, and as destination. */
        memset(&p, 0, sizeof p);
        p.srcArray = a;
        p.srcPtr = dv;
        p.dstPtr = dv2;
        p.extent = make_cudaExtent(2, 2, 1);
        p.kind = cudaMemcpyDeviceToDevice;
        SHOW("3D src array and ptr", cudaMemcpy3D(&p));
        SHOW_LAST("src array and ptr");
        memset(&p, 0, sizeof p);
        p.srcPtr = dv;
        p.dstArray = a2;
        p.dstPtr = dv2;
        p.extent = make_cudaExtent(2, 2, 1);
        p.kind = cudaMemcpyDeviceToDevice;
        SHOW("3D dst array and ptr", cudaMemcpy3D(&p));
        SHOW_LAST("dst array and ptr");
        ct_free_arrays(a, a2, b16, NULL);
    }

    /* Neither array nor pointer. */
    memset(&p, 0, sizeof p);
    p.dstPtr = dv2;
    p.extent = make_cudaExtent(2, 2, 1);
    p.kind = cudaMemcpyDeviceToDevice;
    SHOW("3D no source", cudaMemcpy3D(&p));
    SHOW_LAST("no source");
    memset(&p, 0, sizeof p);
    p.srcPtr = dv;
    p.extent = make_cudaExtent(2, 2, 1);
    p.kind = cudaMemcpyDeviceToDevice;
    SHOW("3D no destination", cudaMemcpy3D(&p));
    SHOW_LAST("no destination");
    memset(&p, 0, sizeof p);
    SHOW("3D all zero", cudaMemcpy3D(&p));
    SHOW_LAST("all zero");

    /* NULL parameters. */
    SHOW("3D NULL", cudaMemcpy3D(NULL));
    SHOW_LAST("3D NULL");

    /* Empty extents. */
    memset(&p, 0, sizeof p);
    p.srcPtr = dv;
    p.dstPtr = dv2;
    p.kind = cudaMemcpyDeviceToDevice;
    p.extent = make_cudaExtent(0, H, D);
    SHOW("3D width 0", cudaMemcpy3D(&p));
    p.extent = make_cudaExtent(W, 0, D);
    SHOW("3D height 0", cudaMemcpy3D(&p));
    p.extent = make_cudaExtent(W, H, 0);
    SHOW("3D depth 0", cudaMemcpy3D(&p));
    p.kind = (enum cudaMemcpyKind)9;
    SHOW("3D depth 0 kind 9", cudaMemcpy3D(&p));
    SHOW_LAST("empty extents");

    /* Invalid kinds. */
    p.extent = make_cudaExtent(W, H, D);
    p.kind = (enum cudaMemcpyKind)5;
    SHOW("3D kind 5", cudaMemcpy3D(&p));
    SHOW_LAST("3D kind 5");
    p.kind = (enum cudaMemcpyKind)-1;
    SHOW("3D kind -1", cudaMemcpy3D(&p));
    SHOW_LAST("3D kind -1");

    /* Pitches narrower than the row. */
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(h, 8, 8, HH);
    p.dstPtr = dv;
    p.extent = make_cudaExtent(W, H, 1);
    p.kind = cudaMemcpyHostToDevice;
    SHOW("3D src pitch < width", cudaMemcpy3D(&p));
    SHOW_LAST("src pitch < width");
    memset(&p, 0, sizeof p);
    p.srcPtr = dv;
    p.dstPtr = make_cudaPitchedPtr(back, 8, 8, HH);
    p.extent = make_cudaExtent(W, H, 2);
    p.kind = cudaMemcpyDeviceToHost;
    SHOW("3D dst pitch < width", cudaMemcpy3D(&p));
    SHOW_LAST("dst pitch < width");

    /* Rows that fit the pitch only without the x position (24 bytes from x 20, pitch 32). */
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(h, HP, W, HH);
    p.srcPos = make_cudaPos(20, 0, 0);
    p.dstPtr = dv;
    p.extent = make_cudaExtent(W, H, 1);
    p.kind = cudaMemcpyHostToDevice;
    SHOW("3D src x + width > pitch", cudaMemcpy3D(&p));
    SHOW_LAST("src x + width > pitch");
    /* Slices taller than the source's rows per slice (ysize 2 < height 5, depth 2). */
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(h, HP, W, 2);
    p.dstPtr = dv;
    p.extent = make_cudaExtent(W, H, 2);
    p.kind = cudaMemcpyHostToDevice;
    SHOW("3D src ysize < height", cudaMemcpy3D(&p));
    SHOW_LAST("src ysize < height");

    /* A freed destination. */
    OK(cudaFree(dv2.ptr));
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(h, HP, W, HH);
    p.dstPtr = dv2;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyHostToDevice;
    SHOW("3D H2D freed dst", cudaMemcpy3D(&p));
    SHOW_LAST("freed dst");

    OK(cudaFree(dv.ptr));
    DONE();
}
