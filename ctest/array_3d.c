/* The array cases of cudaMemcpy3D, cudaMemcpy3DAsync, cudaMemcpy3DPeer and
 * cudaMemcpy3DPeerAsync: array to array with positions in elements, arrays and pitched
 * pointers with cudaMemcpyDefault, layers of a layered array, and the errors. */
#include "array_util.h"

#define W 6
#define H 5
#define D 4

static float vol[D][H][W], back[D][H][W];

/* Reads the whole 3D array `a` to `back` with cudaMemcpy3D (array -> host). */
static cudaError_t read_back(cudaArray_t a, size_t depth) {
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    memset(back, 0, sizeof back);
    p.srcArray = a;
    p.dstPtr = make_cudaPitchedPtr(back, sizeof back[0][0], W, H);
    p.extent = make_cudaExtent(W, H, depth);
    p.kind = cudaMemcpyDeviceToHost;
    return cudaMemcpy3D(&p);
}

int main(void) {
    struct cudaChannelFormatDesc f = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    struct cudaChannelFormatDesc u8 = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
    for (int i = 0; i < W * H * D; i++) (&vol[0][0][0])[i] = (float)(i + 1);
    cudaArray_t a = NULL, b = NULL, small = NULL, layered = NULL;
    OK(cudaMalloc3DArray(&a, &f, make_cudaExtent(W, H, D), 0));
    OK(cudaMalloc3DArray(&b, &f, make_cudaExtent(W, H, D), 0));
    OK(cudaMalloc3DArray(&small, &u8, make_cudaExtent(W, H, D), 0));
    OK(SHOW("layered array", cudaMalloc3DArray(&layered, &f, make_cudaExtent(W, H, D), cudaArrayLayered)));

    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(vol, sizeof vol[0][0], W, H);
    p.dstArray = a;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyDefault;
    OK(SHOW("host -> array, Default", cudaMemcpy3D(&p)));
    OK(read_back(a, D));
    CHECK(memcmp(vol, back, sizeof vol) == 0);
    printf("host -> array -> host equal: %d\n", memcmp(vol, back, sizeof vol) == 0);

    /* array -> array, a box at (1,2,1) of a to (0,0,0) of b; positions in elements */
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    float zero[D][H][W];
    memset(zero, 0, sizeof zero);
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(zero, sizeof zero[0][0], W, H);
    p.dstArray = b;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyHostToDevice;
    OK(cudaMemcpy3D(&p));
    memset(&p, 0, sizeof p);
    p.srcArray = a;
    p.srcPos = make_cudaPos(1, 2, 1);
    p.dstArray = b;
    p.dstPos = make_cudaPos(0, 0, 0);
    p.extent = make_cudaExtent(W - 1, H - 2, D - 1);
    p.kind = cudaMemcpyDeviceToDevice;
    OK(SHOW("array -> array async, positions", cudaMemcpy3DAsync(&p, s)));
    OK(cudaStreamSynchronize(s));
    OK(read_back(b, D));
    int bad = 0;
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int inside = x < W - 1 && y < H - 2 && z < D - 1;
                float want = inside ? vol[z + 1][y + 2][x + 1] : 0.0f;
                bad += back[z][y][x] != want;
            }
    CHECK(bad == 0);
    SHOWI("array -> array wrong elements", bad);

    /* array -> pitched device memory at dstPos.x = 16: where the rows land in the pitched
     * buffer, found by searching it, and the way back from srcPos.x = 16 */
    struct cudaPitchedPtr dev;
    OK(cudaMalloc3D(&dev, make_cudaExtent(W * sizeof(float) + 64, H, D)));
    static unsigned char raw[D][H][512];
    CHECK(dev.pitch <= sizeof raw[0][0]);
    OK(cudaMemset(dev.ptr, 0, dev.pitch * H * D));
    memset(&p, 0, sizeof p);
    p.srcArray = a;
    p.dstPtr = dev;
    p.dstPos = make_cudaPos(16, 0, 0);
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyDefault;
    OK(SHOW("array -> pitched at dstPos.x 16, Default", cudaMemcpy3D(&p)));
    memset(raw, 0, sizeof raw);
    OK(cudaMemcpy2D(raw, sizeof raw[0][0], dev.ptr, dev.pitch, dev.pitch, H * D, cudaMemcpyDeviceToHost));
    long at = -1;
    for (size_t x = 0; x + sizeof vol[0][0] <= dev.pitch && at < 0; x++)
        if (memcmp(&raw[0][0][x], vol[0][0], sizeof vol[0][0]) == 0) at = (long)x;
    SHOWI("first row found at byte", at);
    int rows_ok = at >= 0;
    for (int z = 0; z < D && rows_ok; z++)
        for (int y = 0; y < H && rows_ok; y++)
            rows_ok = memcmp(&raw[z][y][at], vol[z][y], sizeof vol[z][y]) == 0;
    printf("every row at that byte: %d\n", rows_ok);
    CHECK(rows_ok);
    memset(&p, 0, sizeof p);
    p.srcPtr = dev;
    p.srcPos = make_cudaPos(16, 0, 0);
    p.dstArray = b;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyDefault;
    OK(SHOW("pitched at srcPos.x 16 -> array, Default", cudaMemcpy3D(&p)));
    OK(read_back(b, D));
    printf("round trip through srcPos/dstPos 16 equal: %d\n", memcmp(vol, back, sizeof vol) == 0);
    CHECK(memcmp(vol, back, sizeof vol) == 0);

    /* peer forms on one device */
    struct cudaMemcpy3DPeerParms q;
    memset(&q, 0, sizeof q);
    q.srcArray = a;
    q.srcDevice = 0;
    q.dstArray = b;
    q.dstDevice = 0;
    q.extent = make_cudaExtent(W, H, D);
    OK(SHOW("3DPeer array -> array", cudaMemcpy3DPeer(&q)));
    OK(read_back(b, D));
    CHECK(memcmp(vol, back, sizeof vol) == 0);
    memset(&q, 0, sizeof q);
    q.srcArray = b;
    q.srcDevice = 0;
    q.dstPtr = dev;
    q.dstDevice = 0;
    q.extent = make_cudaExtent(W, H, D);
    OK(SHOW("3DPeerAsync array -> pitched", cudaMemcpy3DPeerAsync(&q, s)));
    OK(cudaStreamSynchronize(s));
    memset(&q, 0, sizeof q);
    q.srcArray = b;
    q.dstArray = a;
    q.srcDevice = 0;
    q.dstDevice = 7;
    q.extent = make_cudaExtent(W, H, D);
    SHOW("3DPeer bad device", cudaMemcpy3DPeer(&q));
    SHOW_LAST("3DPeer bad device");

    /* one layer of a layered array: z is the layer */
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(vol[2], sizeof vol[0][0], W, H);
    p.dstArray = layered;
    p.dstPos = make_cudaPos(0, 0, 3);
    p.extent = make_cudaExtent(W, H, 1);
    p.kind = cudaMemcpyHostToDevice;
    OK(SHOW("host -> layer 3", cudaMemcpy3D(&p)));
    memset(&p, 0, sizeof p);
    memset(back, 0, sizeof back);
    p.srcArray = layered;
    p.srcPos = make_cudaPos(0, 0, 3);
    p.dstPtr = make_cudaPitchedPtr(back, sizeof back[0][0], W, H);
    p.extent = make_cudaExtent(W, H, 1);
    p.kind = cudaMemcpyDeviceToHost;
    OK(SHOW("layer 3 -> host", cudaMemcpy3D(&p)));
    CHECK(memcmp(vol[2], back[0], sizeof vol[2]) == 0);

    /* errors */
    memset(&p, 0, sizeof p);
    p.srcArray = a;
    p.dstArray = small;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyDeviceToDevice;
    SHOW("element size mismatch", cudaMemcpy3D(&p));
    SHOW_LAST("element size mismatch");
    p.dstArray = b;
    p.srcPtr = make_cudaPitchedPtr(vol, sizeof vol[0][0], W, H);
    SHOW("srcArray and srcPtr both set", cudaMemcpy3D(&p));
    SHOW_LAST("both set");
    memset(&p, 0, sizeof p);
    p.dstArray = b;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyDeviceToDevice;
    SHOW("neither srcArray nor srcPtr", cudaMemcpy3D(&p));
    SHOW_LAST("neither");
    memset(&p, 0, sizeof p);
    p.srcArray = a;
    p.srcPos = make_cudaPos(1, 0, 0);
    p.dstArray = b;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyDeviceToDevice;
    SHOW("box past the array", cudaMemcpy3D(&p));
    SHOW_LAST("past the array");
    p.srcPos = make_cudaPos(0, 0, 0);
    p.extent = make_cudaExtent(W, H, D + 1);
    SHOW("depth past the array", cudaMemcpy3D(&p));
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyHostToDevice;
    SHOW("array -> array, kind HostToDevice", cudaMemcpy3D(&p));
    SHOW_LAST("array kind HostToDevice");

    OK(cudaStreamDestroy(s));
    OK(cudaFree(dev.ptr));
    ct_free_arrays(a, b, small, layered, NULL);
    DONE();
}
