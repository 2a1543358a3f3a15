//! Memory pools, stream-ordered allocation and batched memory operations: not modelled.
//! Reserved memory, allocation granularity, release thresholds and reuse between streams
//! cannot be imitated honestly in host memory, so every such entry point answers
//! `CUDA_ERROR_NOT_SUPPORTED` (tests of pools need a real GPU).

/// The pool, stream-ordered allocation and batch entry points the runtime resolves.
const ENTRY_POINTS: &[&str] = &[
    "cuDeviceGetDefaultMemPool",
    "cuDeviceGetMemPool",
    "cuDeviceSetMemPool",
    "cuMemGetDefaultMemPool",
    "cuMemGetMemPool",
    "cuMemSetMemPool",
    "cuMemAllocAsync",
    "cuMemAllocFromPoolAsync",
    "cuMemFreeAsync",
    "cuMemPoolCreate",
    "cuMemPoolDestroy",
    "cuMemPoolSetAttribute",
    "cuMemPoolGetAttribute",
    "cuMemPoolSetAccess",
    "cuMemPoolGetAccess",
    "cuMemPoolTrimTo",
    "cuMemPoolExportToShareableHandle",
    "cuMemPoolImportFromShareableHandle",
    "cuMemPoolExportPointer",
    "cuMemPoolImportPointer",
    "cuMemcpyBatchAsync",
    "cuMemcpy3DBatchAsync",
    "cuMemPrefetchBatchAsync",
    "cuMemDiscardBatchAsync",
    "cuMemDiscardAndPrefetchBatchAsync",
];

/// Whether `name` is one of [`ENTRY_POINTS`]; they share the graph entry points' one
/// implementation, `graph::unsupported`.
pub(crate) fn is_entry(name: &str) -> bool {
    ENTRY_POINTS.contains(&name)
}
