/* Launches, attributes, occupancy and symbols from host code: a kernel of a PTX library
 * (cudaLibraryLoadData, cudaLibraryGetKernel) launched through cuda_runtime.h's templates
 * (cudaLaunchKernel of a T *, cudaLaunchKernelEx with its arguments typed), its attributes and
 * occupancy (cudaFuncGetAttributes, cudaOccupancyMaxPotentialBlockSize, ...); a function that
 * is no kernel given to the same templates (the runtime's error); a host variable that is no
 * symbol given to the symbol calls. Our header takes a function pointer and a variable as
 * they are; NVIDIA's, compiled by a host compiler, takes their address as const void *. */
#include <cuda_runtime.h>
#include <cstring>

#include "host.h"

static const char ptx[] =
    ".version 7.0\n"
    ".target sm_52\n"
    ".address_size 64\n"
    ".visible .entry fill(.param .u64 out, .param .u32 n, .param .f32 v)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .u32 %r<6>;\n"
    "  .reg .u64 %rd<5>;\n"
    "  .reg .f32 %f<3>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  ld.param.f32 %f1, [v];\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %ntid.x;\n"
    "  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.u32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.u32 %p1, %r5, %r1;\n"
    "  @%p1 bra DONE;\n"
    "  cvt.rn.f32.u32 %f2, %r5;\n"
    "  add.f32 %f2, %f2, %f1;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r5, 4;\n"
    "  add.u64 %rd4, %rd2, %rd3;\n"
    "  st.global.f32 [%rd4], %f2;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

/* A host function, not a kernel: every call that takes a kernel refuses it. */
static void not_a_kernel(float *, int) {}

static int not_a_symbol = 5;

#if HOST_OURS
#define FN(f) (f)
#define SYM(v) (v)
#else
#define FN(f) ((const void *)(f))
#define SYM(v) ((const void *)&(v))
#endif

static size_t smem_of_block(int block) { return (size_t)block * 8; }

int main()
{
    cudaLibrary_t lib = nullptr;
    cudaKernel_t kern = nullptr;
    cudaError_t r = cudaLibraryLoadData(&lib, ptx, nullptr, nullptr, 0, nullptr, nullptr, 0);
    SHOW("cudaLibraryLoadData", r);
    if (r == cudaSuccess) {
        SHOW("cudaLibraryGetKernel", cudaLibraryGetKernel(&kern, lib, "fill"));
    }
    if (kern) {
        const int n = 1000;
        float *d = nullptr;
        SHOW("cudaMalloc(float **)", cudaMalloc(&d, n * sizeof(float)));
        unsigned nn = n;
        float v = 0.5f;
        void *args[] = {&d, &nn, &v};
        SHOW("cudaLaunchKernel(cudaKernel_t, ...) (default shared memory and stream)",
             cudaLaunchKernel(kern, dim3((n + 255) / 256), dim3(256), args));
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3((n + 127) / 128);
        cfg.blockDim = 128;
        // The arguments as they are: an int and a double where the kernel takes u32 and f32
        // would not do for a cudaKernel_t, so they are given in the kernel's types.
        float *dd = d + 0;
        SHOW("cudaLaunchKernelEx(config, cudaKernel_t, args...)", cudaLaunchKernelEx(&cfg, kern, dd, nn, 1.5f));
        SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
        float out[1000];
        SHOW("cudaMemcpy", cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
        int good = 1;
        for (int i = 0; i < n; i++) {
            good &= out[i] == (float)i + 1.5f;
        }
        CHECK("the kernel wrote i + 1.5", good);
        printf("out[0] %g out[999] %g\n", out[0], out[999]);

        struct cudaFuncAttributes fa;
        SHOW("cudaFuncGetAttributes(attr, cudaKernel_t)", cudaFuncGetAttributes(&fa, kern));
        printf("maxThreadsPerBlock %d numRegs>0 %d ptxVersion %d\n", fa.maxThreadsPerBlock, fa.numRegs > 0,
               fa.ptxVersion);
        SHOW("cudaFuncSetAttribute(cudaKernel_t, ...)",
             cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024));
        int blocks = -1, min_grid = -1, block = -1, sms = 0;
        SHOW("cudaDeviceGetAttribute(multiprocessors)", cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        SHOW("cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, kernel, 256, 0)",
             cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kern, 256, 0));
        SHOWI("blocks per multiprocessor", blocks);
        SHOW("cudaOccupancyMaxPotentialBlockSize(grid, block, kernel)",
             cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kern));
        printf("block %d, grid/multiprocessors %d\n", block, sms ? min_grid / sms : -1);
        SHOW("cudaOccupancyMaxPotentialBlockSize(grid, block, kernel, 4096, 512)",
             cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, kern, 4096, 512));
        printf("block %d, grid/multiprocessors %d\n", block, sms ? min_grid / sms : -1);
        SHOW("cudaOccupancyMaxPotentialBlockSizeVariableSMem(grid, block, kernel, f)",
             cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &block, kern, smem_of_block));
        printf("block %d, grid/multiprocessors %d\n", block, sms ? min_grid / sms : -1);
        size_t avail = 0;
        SHOW("cudaOccupancyAvailableDynamicSMemPerBlock(size, kernel, 2, 256)",
             cudaOccupancyAvailableDynamicSMemPerBlock(&avail, kern, 2, 256));
        CHECK("some dynamic shared memory is available", avail > 0);
        SHOW("cudaFree", cudaFree(d));
        SHOW("cudaLibraryUnload", cudaLibraryUnload(lib));
    }

    // What is not a kernel, through every template that takes one.
    float *p = nullptr;
    int n = 4;
    void *args[] = {&p, &n};
    SHOW("cudaLaunchKernel(not a kernel)", cudaLaunchKernel(not_a_kernel, dim3(1), dim3(32), args));
    SHOW("cudaLaunchCooperativeKernel(not a kernel)", cudaLaunchCooperativeKernel(not_a_kernel, 1, 32, args));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = 1;
    cfg.blockDim = 32;
    SHOW("cudaLaunchKernelEx(config, not a kernel, typed args)", cudaLaunchKernelEx(&cfg, not_a_kernel, p, 4));
    struct cudaFuncAttributes fa;
    SHOW("cudaFuncGetAttributes(not a kernel)", cudaFuncGetAttributes(&fa, FN(not_a_kernel)));
    SHOW("cudaFuncSetAttribute(not a kernel)",
         cudaFuncSetAttribute(FN(not_a_kernel), cudaFuncAttributeMaxDynamicSharedMemorySize, 0));
    SHOW("cudaFuncSetCacheConfig(not a kernel)", cudaFuncSetCacheConfig(FN(not_a_kernel), cudaFuncCachePreferL1));
    int blocks = -1;
    SHOW("cudaOccupancyMaxActiveBlocksPerMultiprocessor(not a kernel)",
         cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, FN(not_a_kernel), 32, 0));
    int min_grid = -7, block = -7;
    SHOW("cudaOccupancyMaxPotentialBlockSize(not a kernel)",
         cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, FN(not_a_kernel)));
    printf("left as they were: %d %d\n", min_grid, block);

    // A host variable that is no registered symbol.
    int value = 7;
    void *addr = nullptr;
    size_t size = 0;
    SHOW("cudaMemcpyToSymbol(not a symbol)", cudaMemcpyToSymbol(SYM(not_a_symbol), &value, sizeof value));
    SHOW("cudaMemcpyFromSymbol(not a symbol)", cudaMemcpyFromSymbol(&value, SYM(not_a_symbol), sizeof value));
    SHOW("cudaGetSymbolAddress(not a symbol)", cudaGetSymbolAddress(&addr, SYM(not_a_symbol)));
    SHOW("cudaGetSymbolSize(not a symbol)", cudaGetSymbolSize(&size, SYM(not_a_symbol)));
    // A pointer is taken as the symbol's address, as the C function takes it, with both headers.
    const void *sym_ptr = &not_a_symbol;
    SHOW("cudaMemcpyToSymbol(pointer)", cudaMemcpyToSymbol(sym_ptr, &value, sizeof value));
    SHOW("cudaGetLastError", cudaGetLastError());
    return 0;
}
