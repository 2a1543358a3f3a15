// Built by scripts/test/abi/check.py (nvcc-link check) with `nvcc -cudart shared` and linked
// against our libcudart.so.13 only: every runtime symbol that nvcc-generated host code and
// ordinary API use need must resolve there.
#include <cstdio>

__device__ int dev_value;
__constant__ float const_table[4];
__managed__ int managed_value;

__global__ void add_kernel(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = dev_value + managed_value + (int)const_table[i & 3];
}

int main()
{
    int *d = nullptr;
    const int n = 64;
    int host[n];
    int one = 1;
    float table[4] = {0, 1, 2, 3};
    if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
        return 1;
    cudaMemcpyToSymbol(dev_value, &one, sizeof one);
    cudaMemcpyToSymbolAsync(const_table, table, sizeof table, 0, cudaMemcpyHostToDevice, 0);
    managed_value = 2;
    add_kernel<<<(n + 31) / 32, 32>>>(d, n);
    cudaError_t err = cudaGetLastError();
    cudaDeviceSynchronize();
    cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost);
    cudaMemcpyFromSymbol(&one, dev_value, sizeof one);
    void *sym = nullptr;
    cudaGetSymbolAddress(&sym, dev_value);
    cudaFree(d);
    std::printf("%s %d\n", cudaGetErrorString(err), host[0]);
    return 0;
}
