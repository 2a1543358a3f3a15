/* ctest: gpu cu */
/* Device symbols: cudaGetSymbolAddress/Size, cudaMemcpyToSymbol/FromSymbol (+Async) at
 * offsets, with every kind, past the end, and with addresses that are not symbols. */
#include "ctest.h"

__device__ int g_arr[16];
__device__ double g_one;
__constant__ float c_tab[8];
#ifndef CT_CLANG_CUDA
__managed__ int m_val[4] = {1, 2, 3, 4};
#endif

__global__ void read_arr(int *out) { out[threadIdx.x] = g_arr[threadIdx.x] * 2; }
__global__ void write_arr(int v) { g_arr[threadIdx.x] = v + threadIdx.x; }
__global__ void read_const(float *out) { out[threadIdx.x] = c_tab[threadIdx.x]; }

static int not_a_symbol[4];

int main(void) {
    size_t size = 12345;
    SHOW("cudaGetSymbolSize g_arr", cudaGetSymbolSize(&size, g_arr));
    SHOWU("size g_arr", size);
    OK(cudaGetSymbolSize(&size, g_one));
    SHOWU("size g_one", size);
    OK(cudaGetSymbolSize(&size, c_tab));
    SHOWU("size c_tab", size);
#ifndef CT_CLANG_CUDA
    OK(cudaGetSymbolSize(&size, m_val));
    SHOWU("size m_val", size);
#endif
    size = 12345;
    SHOW("cudaGetSymbolSize not a symbol", cudaGetSymbolSize(&size, not_a_symbol));
    SHOWU("size unchanged", size);
    SHOW_LAST("not a symbol");
    SHOW("cudaGetSymbolSize NULL symbol", cudaGetSymbolSize(&size, NULL));
    /* No NULL out pointers for a symbol that exists: NVIDIA's runtime writes through them
     * unchecked (a crash), so there is no behaviour to pin. */

    void *p = (void *)0x1234, *p2 = NULL;
    SHOW("cudaGetSymbolAddress g_arr", cudaGetSymbolAddress(&p, g_arr));
    CHECK(p != NULL && p != (void *)0x1234);
    OK(cudaGetSymbolAddress(&p2, g_arr));
    CHECK(p == p2);
    void *q = (void *)0x1234;
    SHOW("cudaGetSymbolAddress not a symbol", cudaGetSymbolAddress(&q, not_a_symbol));
    CHECK(q == (void *)0x1234);
#ifndef CT_CLANG_CUDA
    void *mp = NULL;
    SHOW("cudaGetSymbolAddress m_val", cudaGetSymbolAddress(&mp, m_val));
    CHECK(mp == (void *)m_val);
#endif
    struct cudaPointerAttributes pa;
    if (cudaPointerGetAttributes(&pa, p) == cudaSuccess) SHOWI("g_arr address type", pa.type);
    cudaGetLastError();

    /* To and from symbol at offsets. */
    int h[16];
    for (int i = 0; i < 16; i++) h[i] = i * 10;
    SHOW("to g_arr", cudaMemcpyToSymbol(g_arr, h, sizeof h));
    int seven = 777;
    SHOW("to g_arr offset 28", cudaMemcpyToSymbol(g_arr, &seven, sizeof seven, 7 * sizeof(int)));
    int back[16];
    memset(back, 0, sizeof back);
    SHOW("from g_arr", cudaMemcpyFromSymbol(back, g_arr, sizeof back));
    SHOWI("back[7]", back[7]);
    SHOWI("back[15]", back[15]);
    int two[2] = {0, 0};
    SHOW("from g_arr offset 56", cudaMemcpyFromSymbol(two, g_arr, sizeof two, 14 * sizeof(int)));
    SHOWI("two[0]", two[0]);
    SHOWI("two[1]", two[1]);

    /* A kernel sees the copied values and writes back. */
    int *d = NULL;
    OK(cudaMalloc((void **)&d, sizeof h));
    read_arr<<<1, 16>>>(d);
    OK(cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost));
    SHOWI("kernel read g_arr[7]*2", back[7]);
    write_arr<<<1, 16>>>(50);
    OK(cudaMemcpyFromSymbol(back, g_arr, sizeof back));
    SHOWI("kernel wrote g_arr[3]", back[3]);

    /* Bounds. */
    SHOW("to past end", cudaMemcpyToSymbol(g_arr, h, sizeof h, 4));
    SHOW_LAST("to past end");
    SHOW("from past end", cudaMemcpyFromSymbol(back, g_arr, 4, sizeof h));
    SHOW("to exactly to end", cudaMemcpyToSymbol(g_arr, h, 4, sizeof h - 4));
    SHOW("to zero bytes at end", cudaMemcpyToSymbol(g_arr, h, 0, sizeof h));
    /* A copy of no bytes succeeds before anything is looked at: range, kind, symbol. */
    SHOW("to zero bytes past end", cudaMemcpyToSymbol(g_arr, h, 0, sizeof h + 4));
    SHOW("from zero bytes, bad kind", cudaMemcpyFromSymbol(back, g_arr, 0, 0, cudaMemcpyHostToDevice));
    SHOW("to zero bytes, not a symbol", cudaMemcpyToSymbol(not_a_symbol, h, 0));
    SHOW("to huge offset", cudaMemcpyToSymbol(g_arr, h, 4, (size_t)-2));

    /* Kinds. */
    SHOW("to kind DeviceToHost", cudaMemcpyToSymbol(g_arr, h, 4, 0, cudaMemcpyDeviceToHost));
    SHOW_LAST("to kind DeviceToHost");
    SHOW("to kind HostToHost", cudaMemcpyToSymbol(g_arr, h, 4, 0, cudaMemcpyHostToHost));
    SHOW("to kind 7", cudaMemcpyToSymbol(g_arr, h, 4, 0, (enum cudaMemcpyKind)7));
    SHOW("from kind HostToDevice", cudaMemcpyFromSymbol(back, g_arr, 4, 0, cudaMemcpyHostToDevice));
    SHOW("from kind HostToHost", cudaMemcpyFromSymbol(back, g_arr, 4, 0, cudaMemcpyHostToHost));
    SHOW("to kind Default from host", cudaMemcpyToSymbol(g_arr, h, sizeof h, 0, cudaMemcpyDefault));
    OK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    SHOW("to kind DeviceToDevice", cudaMemcpyToSymbol(g_arr, d, 8, 8, cudaMemcpyDeviceToDevice));
    SHOW("from kind DeviceToDevice", cudaMemcpyFromSymbol(d, g_arr, 8, 12, cudaMemcpyDeviceToDevice));
    OK(cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost));
    SHOWI("d2d back[0]", back[0]);
    SHOWI("d2d back[1]", back[1]);
    SHOWI("d2d back[2]", back[2]);
    SHOW("from kind Default to host", cudaMemcpyFromSymbol(back, g_arr, sizeof back, 0, cudaMemcpyDefault));
    SHOWI("default back[2]", back[2]);
    SHOWI("default back[3]", back[3]);

    /* Not symbols. */
    SHOW("to not a symbol", cudaMemcpyToSymbol(not_a_symbol, h, 4));
    SHOW_LAST("to not a symbol");
    SHOW("from not a symbol", cudaMemcpyFromSymbol(back, not_a_symbol, 4));
    SHOW("to device pointer", cudaMemcpyToSymbol(d, h, 4));
    SHOW("to NULL", cudaMemcpyToSymbol(NULL, h, 4));
    SHOW("to not a symbol, bad kind", cudaMemcpyToSymbol(not_a_symbol, h, 4, 0, cudaMemcpyDeviceToHost));
    SHOW("to past end, bad kind", cudaMemcpyToSymbol(g_arr, h, 4, sizeof h, cudaMemcpyDeviceToHost));

    /* __constant__ and a kernel that reads it. */
    float ct[8] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f};
    SHOW("to c_tab", cudaMemcpyToSymbol(c_tab, ct, sizeof ct));
    float half = -1.0f;
    OK(cudaMemcpyToSymbol(c_tab, &half, sizeof half, 4 * sizeof(float)));
    float *fd = NULL;
    OK(cudaMalloc((void **)&fd, sizeof ct));
    read_const<<<1, 8>>>(fd);
    float fb[8];
    OK(cudaMemcpy(fb, fd, sizeof fb, cudaMemcpyDeviceToHost));
    SHOWI("c_tab[3]*2", (int)(fb[3] * 2));
    SHOWI("c_tab[4]*2", (int)(fb[4] * 2));
    float fc = 0;
    OK(cudaMemcpyFromSymbol(&fc, c_tab, sizeof fc, 7 * sizeof(float)));
    SHOWI("from c_tab[7]*2", (int)(fc * 2));

    /* Async forms on a stream and on the null stream. */
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    int *pin = NULL;
    OK(cudaMallocHost((void **)&pin, 16 * sizeof(int)));
    for (int i = 0; i < 16; i++) pin[i] = 900 + i;
    SHOW("to async", cudaMemcpyToSymbolAsync(g_arr, pin, 16 * sizeof(int), 0, cudaMemcpyHostToDevice, s));
    SHOW("from async", cudaMemcpyFromSymbolAsync(pin, g_arr, 4 * sizeof(int), 8 * sizeof(int), cudaMemcpyDeviceToHost, s));
    OK(cudaStreamSynchronize(s));
    SHOWI("async pin[0]", pin[0]);
    SHOWI("async pin[3]", pin[3]);
    SHOW("to async null stream", cudaMemcpyToSymbolAsync(g_arr, pin, 4, 0, cudaMemcpyHostToDevice, 0));
    SHOW("from async past end", cudaMemcpyFromSymbolAsync(pin, g_arr, 8, sizeof h - 4, cudaMemcpyDeviceToHost, s));
    SHOW("to async bad kind", cudaMemcpyToSymbolAsync(g_arr, pin, 4, 0, cudaMemcpyDeviceToHost, s));
    SHOW("from async not a symbol", cudaMemcpyFromSymbolAsync(pin, not_a_symbol, 4, 0, cudaMemcpyDeviceToHost, s));
    OK(cudaDeviceSynchronize());

    /* __managed__ through the symbol calls and through the host. */
#ifndef CT_CLANG_CUDA
    int mv[4] = {0, 0, 0, 0};
    SHOW("from m_val", cudaMemcpyFromSymbol(mv, m_val, sizeof mv));
    SHOWI("m_val[3]", mv[3]);
    int nine = 9;
    SHOW("to m_val offset 4", cudaMemcpyToSymbol(m_val, &nine, sizeof nine, sizeof(int)));
    OK(cudaDeviceSynchronize());
    SHOWI("host m_val[1]", m_val[1]);
#else
    printf("__managed__ variable: not in this build (clang)\n");
#endif

    OK(cudaStreamDestroy(s));
    OK(cudaFreeHost(pin));
    ct_free_device(fd, d, NULL);
    DONE();
}
