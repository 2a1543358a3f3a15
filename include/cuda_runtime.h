/*
 * cudart-rs: cuda_runtime.h, the header host programs include: the whole runtime API
 * (cuda_runtime_api.h and the types, vector types, channel descriptors and make_ functions it
 * goes with) and, in C++, the overloads and templates NVIDIA's cuda_runtime.h gives host code:
 * typed pointers for the allocation calls, function pointers for launches, attributes and
 * occupancy, variables for the symbol calls, default arguments.
 *
 * Written for cudart-rs (the declarations it builds on are generated from the Rust sources).
 * Differences from NVIDIA's, both ways compatible with programs written for it:
 * - NVIDIA's header offers the templates that take a function (cudaFuncGetAttributes,
 *   cudaFuncSetAttribute, cudaFuncGetName, cudaGetKernel, ...) and a variable
 *   (cudaMemcpyToSymbol, cudaGetSymbolAddress, ...) to CUDA compilers only; this one to every
 *   C++ compiler, so that a host file can name a kernel's host stub or a __device__
 *   variable's host shadow (defined in a file nvcc compiled). The variable forms take an
 *   lvalue of a type that is not a pointer: a pointer passed to them is the symbol's address,
 *   as with NVIDIA's header under g++ (the C function takes it).
 * - The occupancy templates take function pointers as well as cudaKernel_t handles.
 */
#ifndef CUDART_RS_CUDA_RUNTIME_H
#define CUDART_RS_CUDA_RUNTIME_H
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#endif

#include "crt/host_defines.h"
#include "builtin_types.h"
#include "library_types.h"
#include "channel_descriptor.h"
#include "cuda_runtime_api.h"
#include "driver_functions.h"
#include "vector_functions.h"

#if defined(__cplusplus)

#if __cplusplus >= 201103L
#include <type_traits>
#include <utility>
#endif

namespace cudart_rs_detail {
/* The dynamic shared memory of every block size: one amount (cudaOccupancyMaxPotentialBlockSize). */
class SameSharedMem {
    size_t bytes;

public:
    explicit SameSharedMem(size_t b) : bytes(b) {}
    size_t operator()(int) const { return bytes; }
};
} // namespace cudart_rs_detail

/* ---- launches ------------------------------------------------------------------------- */

/** cudaLaunchKernel of a kernel's host stub (or any function pointer). */
template<class T>
static inline cudaError_t cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                           size_t sharedMem = 0, cudaStream_t stream = 0)
{
    return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}

/** cudaLaunchCooperativeKernel of a kernel's host stub. */
template<class T>
static inline cudaError_t cudaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                                      size_t sharedMem = 0, cudaStream_t stream = 0)
{
    return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}

#if __cplusplus >= 201103L
namespace cudart_rs_detail {
/* Launches with the addresses of the arguments, each already of its parameter's type. */
template<class... P>
static inline cudaError_t launch_ex(const cudaLaunchConfig_t *config, const void *kernel, P &...params)
{
    void *args[sizeof...(P) + 1] = {(void *)&params..., 0};
    return ::cudaLaunchKernelExC(config, kernel, args);
}
template<class... P>
static inline cudaError_t launch_converted(const cudaLaunchConfig_t *config, const void *kernel, P... params)
{
    return launch_ex(config, kernel, params...);
}
} // namespace cudart_rs_detail

/** cudaLaunchKernelEx of a kernel's host stub with its arguments, each converted to its
 *  parameter's type. */
template<class... Params, class... Args>
static inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, void (*kernel)(Params...),
                                             Args &&...args)
{
    static_assert(sizeof...(Params) == sizeof...(Args), "cudaLaunchKernelEx: not the kernel's number of arguments");
    return cudart_rs_detail::launch_converted<Params...>(config, (const void *)kernel,
                                                         std::forward<Args>(args)...);
}

/** cudaLaunchKernelEx of a cudaKernel_t with its arguments, as they are. */
template<class... Args>
static inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, const cudaKernel_t kernel,
                                             Args &&...args)
{
    return cudart_rs_detail::launch_ex(config, (const void *)kernel, args...);
}
#endif

/* ---- events, graphs ------------------------------------------------------------------- */

/** cudaEventCreateWithFlags. */
static inline cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags)
{
    return ::cudaEventCreateWithFlags(event, flags);
}

/** The CUDA 11 form of cudaGraphInstantiate: no error node or log is written. */
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                                               cudaGraphNode_t *pErrorNode, char *pLogBuffer,
                                               size_t bufferSize)
{
    (void)pErrorNode;
    (void)pLogBuffer;
    (void)bufferSize;
    return ::cudaGraphInstantiate(pGraphExec, graph, 0);
}

/** The CUDA 11 form of cudaGraphExecUpdate: the error node and result apart. */
static inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                              cudaGraphNode_t *hErrorNode_out,
                                              enum cudaGraphExecUpdateResult *updateResult_out)
{
    cudaGraphExecUpdateResultInfo info;
    info.result = cudaGraphExecUpdateError;
    info.errorNode = 0;
    info.errorFromNode = 0;
    cudaError_t r = ::cudaGraphExecUpdate(hGraphExec, hGraph, &info);
    if (hErrorNode_out) {
        *hErrorNode_out = info.errorNode;
    }
    if (updateResult_out) {
        *updateResult_out = info.result;
    }
    return r;
}

#if __cplusplus >= 201103L
/** A user object owning objectToWrap, which `delete` destroys. */
template<class T>
static inline cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out, T *objectToWrap,
                                               unsigned int initialRefcount, unsigned int flags)
{
    return ::cudaUserObjectCreate(object_out, objectToWrap,
                                  [](void *p) { delete static_cast<T *>(p); }, initialRefcount, flags);
}

template<class T>
static inline cudaError_t cudaUserObjectCreate(cudaUserObject_t *object_out, T *objectToWrap,
                                               unsigned int initialRefcount, cudaUserObjectFlags flags)
{
    return cudaUserObjectCreate(object_out, objectToWrap, initialRefcount, (unsigned int)flags);
}
#endif

/* ---- memory ----------------------------------------------------------------------------- */

/** cudaHostAlloc. */
static inline cudaError_t cudaMallocHost(void **ptr, size_t size, unsigned int flags)
{
    return ::cudaHostAlloc(ptr, size, flags);
}

template<class T>
static inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags)
{
    return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}

template<class T>
static inline cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags)
{
    return ::cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}

template<class T>
static inline cudaError_t cudaMallocManaged(T **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal)
{
    return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}

template<class T>
static inline cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, T *devPtr, size_t length = 0,
                                                   unsigned int flags = cudaMemAttachSingle)
{
    return ::cudaStreamAttachMemAsync(stream, (void *)devPtr, length, flags);
}

template<class T>
static inline cudaError_t cudaMalloc(T **devPtr, size_t size)
{
    return ::cudaMalloc((void **)(void *)devPtr, size);
}

template<class T>
static inline cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0)
{
    return cudaMallocHost((void **)(void *)ptr, size, flags);
}

template<class T>
static inline cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height)
{
    return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}

/** cudaMallocFromPoolAsync. */
static inline cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    return ::cudaMallocFromPoolAsync(ptr, size, memPool, stream);
}

template<class T>
static inline cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}

template<class T>
static inline cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaStream_t stream)
{
    return ::cudaMallocAsync((void **)(void *)ptr, size, stream);
}

template<class T>
static inline cudaError_t cudaMallocFromPoolAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}

#if defined(CUDART_RS_ABI12)
/** CUDA 12's cudaMemPrefetchAsync to a memory location (cudaMemPrefetchAsync_v2). */
template<class T>
static inline cudaError_t cudaMemPrefetchAsync(T *devPtr, size_t count, struct cudaMemLocation location,
                                               unsigned int flags, cudaStream_t stream = 0)
{
    return ::cudaMemPrefetchAsync_v2((const void *)devPtr, count, location, flags, stream);
}

template<class T, class U>
static inline cudaError_t cudaMemcpyBatchAsync(T **dsts, U **srcs, size_t *sizes, size_t count,
                                               struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                               size_t numAttrs, size_t *failIdx, cudaStream_t hStream)
{
    return ::cudaMemcpyBatchAsync((void **)dsts, (void **)srcs, sizes, count, attrs, attrsIdxs, numAttrs,
                                  failIdx, hStream);
}

/** Every copy of the batch with the same attributes. */
template<class T, class U>
static inline cudaError_t cudaMemcpyBatchAsync(T **dsts, U **srcs, size_t *sizes, size_t count,
                                               struct cudaMemcpyAttributes attr, size_t *failIdx,
                                               cudaStream_t hStream)
{
    size_t first = 0;
    return ::cudaMemcpyBatchAsync((void **)dsts, (void **)srcs, sizes, count, &attr, &first, 1, failIdx, hStream);
}
#else
template<class T>
static inline cudaError_t cudaMemPrefetchBatchAsync(T **dptrs, size_t *sizes, size_t count,
                                                    struct cudaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                                    size_t numPrefetchLocs, unsigned long long flags,
                                                    cudaStream_t stream)
{
    return ::cudaMemPrefetchBatchAsync((void **)dptrs, sizes, count, prefetchLocs, prefetchLocIdxs,
                                       numPrefetchLocs, flags, stream);
}

/** Every range of the batch to the same location. */
template<class T>
static inline cudaError_t cudaMemPrefetchBatchAsync(T **dptrs, size_t *sizes, size_t count,
                                                    struct cudaMemLocation prefetchLoc, unsigned long long flags,
                                                    cudaStream_t stream)
{
    size_t first = 0;
    return ::cudaMemPrefetchBatchAsync((void **)dptrs, sizes, count, &prefetchLoc, &first, 1, flags, stream);
}

template<class T>
static inline cudaError_t cudaMemDiscardAndPrefetchBatchAsync(T **dptrs, size_t *sizes, size_t count,
                                                              struct cudaMemLocation *prefetchLocs,
                                                              size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                              unsigned long long flags, cudaStream_t stream)
{
    return ::cudaMemDiscardAndPrefetchBatchAsync((void **)dptrs, sizes, count, prefetchLocs, prefetchLocIdxs,
                                                 numPrefetchLocs, flags, stream);
}

/** Every range of the batch to the same location. */
template<class T>
static inline cudaError_t cudaMemDiscardAndPrefetchBatchAsync(T **dptrs, size_t *sizes, size_t count,
                                                              struct cudaMemLocation prefetchLoc,
                                                              unsigned long long flags, cudaStream_t stream)
{
    size_t first = 0;
    return ::cudaMemDiscardAndPrefetchBatchAsync((void **)dptrs, sizes, count, &prefetchLoc, &first, 1, flags,
                                                 stream);
}

template<class T, class U>
static inline cudaError_t cudaMemcpyBatchAsync(T *const *dsts, U *const *srcs, const size_t *sizes, size_t count,
                                               struct cudaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                               size_t numAttrs, cudaStream_t hStream)
{
    return ::cudaMemcpyBatchAsync((void *const *)dsts, (const void *const *)srcs, sizes, count, attrs, attrsIdxs,
                                  numAttrs, hStream);
}

/** Every copy of the batch with the same attributes. */
template<class T, class U>
static inline cudaError_t cudaMemcpyBatchAsync(T *const *dsts, U *const *srcs, const size_t *sizes, size_t count,
                                               struct cudaMemcpyAttributes attr, cudaStream_t hStream)
{
    size_t first = 0;
    return ::cudaMemcpyBatchAsync((void *const *)dsts, (const void *const *)srcs, sizes, count, &attr, &first, 1,
                                  hStream);
}

/** A copy with attributes (cudaMemcpyWithAttributesAsync). */
template<class T, class U>
static inline cudaError_t cudaMemcpyAsync(T dst, U src, const size_t size, struct cudaMemcpyAttributes *attr,
                                          cudaStream_t hStream)
{
    return ::cudaMemcpyWithAttributesAsync((void *)dst, (const void *)src, size, attr, hStream);
}
#endif

/* ---- symbols: a variable (the host shadow of a __device__, __constant__ or __managed__
 *      variable), not a pointer (pointers are taken by the C functions as the symbol). -- */

#if __cplusplus >= 201103L
#define CUDART_RS_SYMBOL(T) class T, typename std::enable_if<!std::is_pointer<T>::value, int>::type = 0

template<CUDART_RS_SYMBOL(T)>
static inline cudaError_t cudaMemcpyToSymbol(T &symbol, const void *src, size_t count, size_t offset = 0,
                                             enum cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}

template<CUDART_RS_SYMBOL(T)>
static inline cudaError_t cudaMemcpyToSymbolAsync(T &symbol, const void *src, size_t count, size_t offset = 0,
                                                  enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                                  cudaStream_t stream = 0)
{
    return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}

template<CUDART_RS_SYMBOL(T)>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, T &symbol, size_t count, size_t offset = 0,
                                               enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}

template<CUDART_RS_SYMBOL(T)>
static inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, T &symbol, size_t count, size_t offset = 0,
                                                    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                    cudaStream_t stream = 0)
{
    return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}

template<CUDART_RS_SYMBOL(T)>
static inline cudaError_t cudaGetSymbolAddress(void **devPtr, T &symbol)
{
    return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}

template<CUDART_RS_SYMBOL(T)>
static inline cudaError_t cudaGetSymbolSize(size_t *size, T &symbol)
{
    return ::cudaGetSymbolSize(size, (const void *)&symbol);
}

template<CUDART_RS_SYMBOL(T)>
static inline cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                         const cudaGraphNode_t *pDependencies,
                                                         size_t numDependencies, T &symbol, const void *src,
                                                         size_t count, size_t offset, enum cudaMemcpyKind kind)
{
    return ::cudaGraphAddMemcpyNodeToSymbol(pGraphNode, graph, pDependencies, numDependencies,
                                            (const void *)&symbol, src, count, offset, kind);
}

template<CUDART_RS_SYMBOL(T)>
static inline cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                                           const cudaGraphNode_t *pDependencies,
                                                           size_t numDependencies, void *dst, T &symbol,
                                                           size_t count, size_t offset, enum cudaMemcpyKind kind)
{
    return ::cudaGraphAddMemcpyNodeFromSymbol(pGraphNode, graph, pDependencies, numDependencies, dst,
                                              (const void *)&symbol, count, offset, kind);
}

template<CUDART_RS_SYMBOL(T)>
static inline cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, T &symbol, const void *src,
                                                               size_t count, size_t offset,
                                                               enum cudaMemcpyKind kind)
{
    return ::cudaGraphMemcpyNodeSetParamsToSymbol(node, (const void *)&symbol, src, count, offset, kind);
}

template<CUDART_RS_SYMBOL(T)>
static inline cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void *dst, T &symbol,
                                                                 size_t count, size_t offset,
                                                                 enum cudaMemcpyKind kind)
{
    return ::cudaGraphMemcpyNodeSetParamsFromSymbol(node, dst, (const void *)&symbol, count, offset, kind);
}

template<CUDART_RS_SYMBOL(T)>
static inline cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                                   T &symbol, const void *src, size_t count,
                                                                   size_t offset, enum cudaMemcpyKind kind)
{
    return ::cudaGraphExecMemcpyNodeSetParamsToSymbol(hGraphExec, node, (const void *)&symbol, src, count, offset,
                                                      kind);
}

template<CUDART_RS_SYMBOL(T)>
static inline cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec,
                                                                     cudaGraphNode_t node, void *dst, T &symbol,
                                                                     size_t count, size_t offset,
                                                                     enum cudaMemcpyKind kind)
{
    return ::cudaGraphExecMemcpyNodeSetParamsFromSymbol(hGraphExec, node, dst, (const void *)&symbol, count,
                                                        offset, kind);
}
#undef CUDART_RS_SYMBOL
#endif

/* ---- functions: a kernel's host stub, or a cudaKernel_t ------------------------------------ */

template<class T>
static inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry)
{
    return ::cudaFuncGetAttributes(attr, (const void *)entry);
}

template<class T>
static inline cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value)
{
    return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}

template<class T>
static inline cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig)
{
    return ::cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}

template<class T>
static inline cudaError_t cudaFuncSetSharedMemConfig(T *func, enum cudaSharedMemConfig config)
{
    return ::cudaFuncSetSharedMemConfig((const void *)func, config);
}

template<class T>
static inline cudaError_t cudaFuncGetName(const char **name, const T *func)
{
    return ::cudaFuncGetName(name, (const void *)func);
}

template<class T>
static inline cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const T *entryFuncAddr)
{
    return ::cudaGetKernel(kernelPtr, (const void *)entryFuncAddr);
}

template<class T>
static inline cudaError_t cudaLibraryGetGlobal(T **dptr, size_t *bytes, cudaLibrary_t library, const char *name)
{
    return ::cudaLibraryGetGlobal((void **)(void *)dptr, bytes, library, name);
}

template<class T>
static inline cudaError_t cudaLibraryGetManaged(T **dptr, size_t *bytes, cudaLibrary_t library, const char *name)
{
    return ::cudaLibraryGetManaged((void **)(void *)dptr, bytes, library, name);
}

template<class T>
static inline cudaError_t cudaLibraryGetUnifiedFunction(T **fptr, cudaLibrary_t library, const char *symbol)
{
    return ::cudaLibraryGetUnifiedFunction((void **)(void *)fptr, library, symbol);
}

/* ---- occupancy -------------------------------------------------------------------------- */

template<class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func, int blockSize,
                                                                        size_t dynamicSMemSize)
{
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize,
                                                                    dynamicSMemSize, cudaOccupancyDefault);
}

template<class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, T func,
                                                                                 int blockSize,
                                                                                 size_t dynamicSMemSize,
                                                                                 unsigned int flags)
{
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize,
                                                                    dynamicSMemSize, flags);
}

/**
 * The block size that keeps the most threads resident on a multiprocessor, and the smallest
 * grid that fills the device with it: every block size from the largest the device and the
 * function allow down to one warp, in steps of a warp (the largest wins a tie), each with
 * the dynamic shared memory blockSizeToDynamicSMemSize(blockSize) gives.
 */
template<class UnaryFunction, class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0,
    unsigned int flags = 0)
{
    if (!minGridSize || !blockSize || !func) {
        return cudaErrorInvalidValue;
    }
    int device, smThreads, warp, devBlock, sms;
    cudaError_t r = ::cudaGetDevice(&device);
    if (r == cudaSuccess) r = ::cudaDeviceGetAttribute(&smThreads, cudaDevAttrMaxThreadsPerMultiProcessor, device);
    if (r == cudaSuccess) r = ::cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
    if (r == cudaSuccess) r = ::cudaDeviceGetAttribute(&devBlock, cudaDevAttrMaxThreadsPerBlock, device);
    if (r == cudaSuccess) r = ::cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    struct cudaFuncAttributes attr;
    if (r == cudaSuccess) r = ::cudaFuncGetAttributes(&attr, (const void *)func);
    if (r != cudaSuccess) {
        return r;
    }
    int limit = blockSizeLimit == 0 ? devBlock : blockSizeLimit;
    if (devBlock < limit) limit = devBlock;
    if (attr.maxThreadsPerBlock < limit) limit = attr.maxThreadsPerBlock;
    int bestSize = 0, bestBlocks = 0, bestThreads = 0;
    for (int rounded = (limit + warp - 1) / warp * warp; rounded > 0; rounded -= warp) {
        int size = rounded < limit ? rounded : limit;
        int blocks = 0;
        r = ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            &blocks, (const void *)func, size, (size_t)blockSizeToDynamicSMemSize(size), flags);
        if (r != cudaSuccess) {
            return r;
        }
        if (size * blocks > bestThreads) {
            bestSize = size;
            bestBlocks = blocks;
            bestThreads = size * blocks;
        }
        if (bestThreads == smThreads) {
            break;
        }
    }
    *minGridSize = bestBlocks * sms;
    *blockSize = bestSize;
    return cudaSuccess;
}

template<class UnaryFunction, class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *minGridSize, int *blockSize, T func,
                                                                         UnaryFunction blockSizeToDynamicSMemSize,
                                                                         int blockSizeLimit = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(minGridSize, blockSize, func,
                                                                   blockSizeToDynamicSMemSize, blockSizeLimit,
                                                                   cudaOccupancyDefault);
}

template<class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                             size_t dynamicSMemSize = 0, int blockSizeLimit = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, func, cudart_rs_detail::SameSharedMem(dynamicSMemSize), blockSizeLimit,
        cudaOccupancyDefault);
}

template<class T>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, T func,
                                                                      size_t dynamicSMemSize = 0,
                                                                      int blockSizeLimit = 0, unsigned int flags = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, func, cudart_rs_detail::SameSharedMem(dynamicSMemSize), blockSizeLimit, flags);
}

template<class T>
static inline cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, T *func, int numBlocks,
                                                                    int blockSize)
{
    return ::cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, (const void *)func, numBlocks, blockSize);
}

template<class T>
static inline cudaError_t cudaOccupancyMaxPotentialClusterSize(int *clusterSize, T *func,
                                                               const cudaLaunchConfig_t *config)
{
    return ::cudaOccupancyMaxPotentialClusterSize(clusterSize, (const void *)func, config);
}

template<class T>
static inline cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, T *func, const cudaLaunchConfig_t *config)
{
    return ::cudaOccupancyMaxActiveClusters(numClusters, (const void *)func, config);
}

#endif /* __cplusplus */

#endif
