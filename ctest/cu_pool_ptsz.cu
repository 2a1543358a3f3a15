/* ctest: gpu cu nvcc-flags=--default-stream per-thread */
/* cu_pool_overload.cu built with `nvcc --default-stream per-thread`: the stream-ordered
 * allocations and frees go to cudaMallocAsync_ptsz, cudaMallocFromPoolAsync_ptsz and
 * cudaFreeAsync_ptsz, and the null stream is the thread's own stream. */
#include "cu_pool_overload.cu"
