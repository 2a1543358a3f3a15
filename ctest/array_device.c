/* Arrays with device memory on the other side: host -> array (2D copy) -> pitched device
 * buffer (cudaMemcpy3D) -> host, and device -> array -> device with the 2D array copies. */
#include "array_util.h"

#define W 8
#define H 4
#define D 3

int main(void) {
    struct cudaChannelFormatDesc f = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t a = NULL;
    OK(cudaMallocArray(&a, &f, W, H, 0));
    float in[H][W], out[H][W];
    for (int i = 0; i < W * H; i++)
        (&in[0][0])[i] = 0.5f * (float)i;

    /* host -> array -> pitched device memory (cudaMemcpy3D) -> host */
    OK(SHOW("2DToArray", cudaMemcpy2DToArray(a, 0, 0, in, sizeof in[0], sizeof in[0], H, cudaMemcpyHostToDevice)));
    void *dev = NULL;
    size_t pitch = 0;
    OK(cudaMallocPitch(&dev, &pitch, sizeof in[0], H));
    struct cudaMemcpy3DParms p = {.srcArray = a,
                                  .dstPtr = make_cudaPitchedPtr(dev, pitch, W, H),
                                  .extent = make_cudaExtent(W, H, 1),
                                  .kind = cudaMemcpyDeviceToDevice};
    OK(SHOW("cudaMemcpy3D array -> pitched", cudaMemcpy3D(&p)));
    memset(out, 0, sizeof out);
    OK(cudaMemcpy2D(out, sizeof out[0], dev, pitch, sizeof out[0], H, cudaMemcpyDeviceToHost));
    CHECK(memcmp(in, out, sizeof in) == 0);
    printf("array -> pitched equal: %d\n", memcmp(in, out, sizeof in) == 0);

    /* pitched device memory -> array (2D copy, device to device) -> host */
    cudaArray_t b = NULL;
    OK(cudaMallocArray(&b, &f, W, H, 0));
    OK(SHOW("2DToArray from device", cudaMemcpy2DToArray(b, 0, 0, dev, pitch, sizeof in[0], H, cudaMemcpyDeviceToDevice)));
    memset(out, 0, sizeof out);
    OK(cudaMemcpy2DFromArray(out, sizeof out[0], b, 0, 0, sizeof out[0], H, cudaMemcpyDeviceToHost));
    CHECK(memcmp(in, out, sizeof in) == 0);
    OK(SHOW("2DToArray from device, default", cudaMemcpy2DToArray(b, 0, 0, dev, pitch, sizeof in[0], H, cudaMemcpyDefault)));
    /* array -> device memory (2D copy) -> host */
    void *dev2 = NULL;
    OK(cudaMalloc(&dev2, sizeof in));
    OK(SHOW("2DFromArray to device", cudaMemcpy2DFromArray(dev2, sizeof in[0], b, 0, 0, sizeof in[0], H, cudaMemcpyDeviceToDevice)));
    memset(out, 0, sizeof out);
    OK(cudaMemcpy(out, dev2, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(memcmp(in, out, sizeof in) == 0);
    SHOW("2DFromArray to device, pitch too small", cudaMemcpy2DFromArray(dev2, 4, b, 0, 0, 8, H, cudaMemcpyDeviceToDevice));
    SHOW_LAST("device pitch too small");

    /* a 3D array written and read back through cudaMemcpy3D */
    cudaArray_t c = NULL;
    OK(SHOW("cudaMalloc3DArray", cudaMalloc3DArray(&c, &f, make_cudaExtent(W, H, D), 0)));
    float vol[D][H][W], vol2[D][H][W];
    for (int i = 0; i < W * H * D; i++)
        (&vol[0][0][0])[i] = (float)i;
    p = (struct cudaMemcpy3DParms){.srcPtr = make_cudaPitchedPtr(vol, sizeof vol[0][0], W, H),
                                   .dstArray = c,
                                   .extent = make_cudaExtent(W, H, D),
                                   .kind = cudaMemcpyHostToDevice};
    OK(SHOW("cudaMemcpy3D host -> 3D array", cudaMemcpy3D(&p)));
    memset(vol2, 0, sizeof vol2);
    p = (struct cudaMemcpy3DParms){.srcArray = c,
                                   .dstPtr = make_cudaPitchedPtr(vol2, sizeof vol2[0][0], W, H),
                                   .extent = make_cudaExtent(W, H, D),
                                   .kind = cudaMemcpyDeviceToHost};
    OK(SHOW("cudaMemcpy3D 3D array -> host", cudaMemcpy3D(&p)));
    CHECK(memcmp(vol, vol2, sizeof vol) == 0);
    /* a 2D copy reaches only the first slice of a 3D array */
    memset(out, 0, sizeof out);
    SHOW("2DFromArray of 3D array", cudaMemcpy2DFromArray(out, sizeof out[0], c, 0, 0, sizeof out[0], H, cudaMemcpyDeviceToHost));
    printf("3D first slice equal: %d\n", memcmp(out, vol[0], sizeof out) == 0);

    OK(cudaFreeArray(c));
    ct_free_device(dev, dev2, NULL);
    ct_free_arrays(a, b, NULL);
    DONE();
}
