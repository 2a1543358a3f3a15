//! `cuda-standin`: a host-memory stand-in for NVIDIA's driver library `libcuda.so.1`.
//!
//! This is a test double. It lets the cudart-rs runtime and its C test suite run on machines
//! without a GPU: point `CUDART_RS_DRIVER` at `libcuda_standin.so` and the runtime loads it
//! instead of the real driver. It is never shipped and never used for timing.
//!
//! What it models:
//! - `cuGetProcAddress_v2`/`cuGetProcAddress`, `cuDriverGetVersion` (13000, or
//!   `CUDART_STANDIN_DRIVER_VERSION`), `cuInit`, error names and strings;
//! - 1 to 4 devices (`CUDART_STANDIN_DEVICES`, read once by `cuInit`), each reporting the
//!   attributes of an H100 (compute capability 9.0, 132 SMs), 16 GiB of memory;
//! - primary contexts (retain/release/reset/flags/state) and a thread-local context stack;
//! - "device" memory that is ordinary host memory: device pointers are real host addresses,
//!   kept in a registry of allocations (device, pinned host, registered host, managed) that
//!   every call checks before it touches memory, so a bad pointer gives an error, not a crash.
//!   Allocations come from one reserved address range and addresses are never reused, so a
//!   freed pointer stays recognisably invalid even where a copy would accept host memory;
//! - synchronous copies and memsets (1D, 2D, 3D, peer, to and from arrays), done at call time
//!   (`copy.rs`), bounded as the driver bounds them; host registration with the driver's
//!   refusals (`hostreg.rs`);
//! - streams and events as validated handles (`stream.rs`); work is never pending, so queries
//!   succeed and host functions and stream callbacks run at once; events record the host
//!   clock; stream ids and devices; the per-thread default stream in the `_ptsz`/`_ptds`
//!   forms (`ptsz.rs`);
//! - stream capture (`capture.rs`): work on a capturing stream becomes graph nodes; forks and
//!   joins through events, capture modes and the thread's mode, the potentially unsafe calls
//!   they forbid, the legacy stream's implicit synchronisation, invalidation, capture info and
//!   dependency updates, capture into an existing graph;
//! - graphs (`graph.rs`, `graph_node.rs`, `exec.rs`, `dot.rs`, `userobj.rs`): every node kind
//!   but kernels, topology queries, clones, instantiation, launch as host-side execution of
//!   the nodes in order, updates, user objects, conditional nodes (their bodies run as the
//!   default value says), graph memory;
//! - memory pools (`pool.rs`): default and created pools per location, current pools,
//!   attributes, access, trimming, stream-ordered allocation and free with the pools' reuse
//!   rules, pools shared between processes through a memory file;
//! - context limits and cache/shared memory configurations (back to their defaults when the
//!   context is destroyed), PCI bus ids, peer attributes and atomic capabilities (none),
//!   GPUDirect RDMA flushes, async notification registrations (never notified);
//! - unified-memory advice and prefetch locations per 4 KiB page, range and pointer attributes;
//! - CUDA arrays (1D/2D/3D, layered, cubemap, NV12 planes, sparse and deferred-mapping
//!   properties) and mipmapped arrays, with contents in row-major host memory.
//! - stream attributes as stored values, entry point versions, no export tables, a profiler
//!   with nothing to start (`launch.rs`);
//! - texture and surface objects as the descriptors they were created with (`texture.rs`).
//!
//! What it does not model: kernels and modules (loads report `CUDA_ERROR_NO_BINARY_FOR_GPU`,
//! everything else about them `CUDA_ERROR_INVALID_HANDLE`, so no kernel node can be made),
//! asynchrony, stream ordering beyond what the pools' reuse rules need, real timing, batched
//! copies and prefetches, external resources and graphics interop (and so external semaphore
//! nodes that name a semaphore), peer topology beyond "every pair can", and any error the real
//! driver reports only from the hardware. Where the real driver's choice of error code is
//! undocumented the stand-in makes a reasoned guess; tests that pin down such codes belong on
//! a real GPU.
//!
//! Every export catches panics (they become `CUDA_ERROR_UNKNOWN`) and all shared state sits
//! behind one mutex, so it is safe to call from many threads at once.

#![allow(non_snake_case, clippy::missing_safety_doc, clippy::too_many_arguments, clippy::manual_is_multiple_of)]

/// The driver's types, shared with the runtime (`src/driver/types.rs`).
#[path = "../../src/driver/types.rs"]
pub mod types;

/// The opaque handle structs the shared driver types refer to.
mod handles {
    macro_rules! opaque {
        ($($name:ident),*) => {$(
            #[repr(C)]
            pub struct $name {
                _private: [u8; 0],
            }
        )*};
    }
    opaque!(
        CUstream_st,
        CUevent_st,
        CUfunc_st,
        CUgraphDeviceUpdatableNode_st,
        CUmemPoolHandle_st,
        CUexternalMemory_st,
        CUexternalSemaphore_st,
        CUgraph_st,
        CUgraphNode_st,
        CUgraphExec_st,
        CUuserObject_st,
        CUlib_st,
        CUkern_st,
        CUlogsCallbackEntry_st
    );
}
mod backing;
mod ids;
mod dag;
mod mempool;
mod state;
mod context;
mod mem;
mod copy;
mod hostreg;
mod array;
mod attrs;
mod graph;
mod pool;
mod interop;
mod devctl;
mod launch;
mod library;
mod texture;
mod capture;
mod stream;
mod graph_node;
mod exec;
mod dot;
mod userobj;
mod ptsz;

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};

use state::*;
use types::*;

/// Defines C exports whose bodies evaluate to `Res`; panics become `CUDA_ERROR_UNKNOWN`.
macro_rules! export {
    ($( fn $name:ident ( $($a:ident : $t:ty),* $(,)? ) $body:block )*) => {$(
        #[no_mangle]
        pub unsafe extern "C" fn $name($($a: $t),*) -> CUresult {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| -> crate::state::Res { $body }));
            match r {
                Ok(Ok(())) => CUDA_SUCCESS,
                Ok(Err(e)) => e,
                Err(_) => CUDA_ERROR_UNKNOWN,
            }
        }
    )*};
}
pub(crate) use export;

/// Defines an export and its per-thread-stream form (`_ptsz`, `_ptds`: the null stream is the
/// thread's own): the body sees `$pt` false in the first, true in the second.
macro_rules! export_pt {
    ($( fn $name:ident / $pt_name:ident ( $($a:ident : $t:ty),* $(,)? ) |$pt:ident| $body:block )*) => {
        $crate::export! {$(
            fn $name($($a: $t),*) { let $pt = false; $body }
            fn $pt_name($($a: $t),*) { let $pt = true; $body }
        )*}
    };
}
pub(crate) use export_pt;

pub const CUDA_ERROR_INVALID_IMAGE: CUresult = 200;
pub const CUDA_ERROR_NO_BINARY_FOR_GPU: CUresult = 209;
pub const CUDA_ERROR_PEER_ACCESS_UNSUPPORTED: CUresult = 217;
pub const CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED: CUresult = 704;
pub const CUDA_ERROR_PEER_ACCESS_NOT_ENABLED: CUresult = 705;
pub const CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED: CUresult = 712;
pub const CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED: CUresult = 713;
pub const CUDA_ERROR_OPERATING_SYSTEM: CUresult = 304;
pub const CUDA_ERROR_ILLEGAL_STATE: CUresult = 401;
pub const CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED: CUresult = 900;
pub const CUDA_ERROR_STREAM_CAPTURE_INVALIDATED: CUresult = 901;
pub const CUDA_ERROR_STREAM_CAPTURE_MERGE: CUresult = 902;
pub const CUDA_ERROR_STREAM_CAPTURE_UNMATCHED: CUresult = 903;
pub const CUDA_ERROR_STREAM_CAPTURE_UNJOINED: CUresult = 904;
pub const CUDA_ERROR_STREAM_CAPTURE_ISOLATION: CUresult = 905;
pub const CUDA_ERROR_STREAM_CAPTURE_IMPLICIT: CUresult = 906;
pub const CUDA_ERROR_CAPTURED_EVENT: CUresult = 907;
pub const CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD: CUresult = 908;
pub const CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE: CUresult = 910;

/// Writes `v` through `p`, or fails with `CUDA_ERROR_INVALID_VALUE` if `p` is null.
pub(crate) unsafe fn put<T>(p: *mut T, v: T) -> Res {
    if p.is_null() {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    p.write_unaligned(v);
    Ok(())
}

pub(crate) fn nonnull<T>(p: *const T) -> Res {
    if p.is_null() {
        Err(CUDA_ERROR_INVALID_VALUE)
    } else {
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Entry point lookup
// ---------------------------------------------------------------------------------------------

pub(crate) const CU_GET_PROC_ADDRESS_SUCCESS: c_int = 0;
pub(crate) const CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND: c_int = 1;

/// Entry points with a form per CUDA version: (name, version it is asked at) to the form.
fn versioned(name: &str, version: c_int) -> Option<*mut c_void> {
    let edge_data = version >= 12030;
    Some(match name {
        "cuMemAdvise" if version >= 12020 => mem::cuMemAdvise_v2 as *mut c_void,
        "cuMemAdvise" => mem::cuMemAdvise as *mut c_void,
        "cuMemPrefetchAsync" if version >= 12020 => mem::cuMemPrefetchAsync_v2 as *mut c_void,
        "cuMemPrefetchAsync" => mem::cuMemPrefetchAsync as *mut c_void,
        "cuStreamGetCaptureInfo" if edge_data => capture::cuStreamGetCaptureInfo_v3 as *mut c_void,
        "cuStreamGetCaptureInfo" if version >= 11030 => capture::cuStreamGetCaptureInfo_v2 as *mut c_void,
        "cuStreamGetCaptureInfo" => capture::cuStreamGetCaptureInfo as *mut c_void,
        "cuStreamUpdateCaptureDependencies" if edge_data => {
            capture::cuStreamUpdateCaptureDependencies_v2 as *mut c_void
        }
        "cuStreamUpdateCaptureDependencies" => capture::cuStreamUpdateCaptureDependencies as *mut c_void,
        "cuGraphGetEdges" if edge_data => graph::cuGraphGetEdges_v2 as *mut c_void,
        "cuGraphGetEdges" => graph::cuGraphGetEdges as *mut c_void,
        "cuGraphNodeGetDependencies" if edge_data => graph::cuGraphNodeGetDependencies_v2 as *mut c_void,
        "cuGraphNodeGetDependencies" => graph::cuGraphNodeGetDependencies as *mut c_void,
        "cuGraphNodeGetDependentNodes" if edge_data => graph::cuGraphNodeGetDependentNodes_v2 as *mut c_void,
        "cuGraphNodeGetDependentNodes" => graph::cuGraphNodeGetDependentNodes as *mut c_void,
        "cuGraphAddDependencies" if edge_data => graph::cuGraphAddDependencies_v2 as *mut c_void,
        "cuGraphAddDependencies" => graph::cuGraphAddDependencies as *mut c_void,
        "cuGraphRemoveDependencies" if edge_data => graph::cuGraphRemoveDependencies_v2 as *mut c_void,
        "cuGraphRemoveDependencies" => graph::cuGraphRemoveDependencies as *mut c_void,
        "cuGraphAddNode" if edge_data => graph_node::cuGraphAddNode_v2 as *mut c_void,
        "cuGraphAddNode" => graph_node::cuGraphAddNode as *mut c_void,
        _ => return None,
    })
}

/// The names [`versioned`] knows.
#[cfg(test)]
const VERSIONED: &[&str] = &[
    "cuMemAdvise",
    "cuMemPrefetchAsync",
    "cuStreamGetCaptureInfo",
    "cuStreamUpdateCaptureDependencies",
    "cuGraphGetEdges",
    "cuGraphNodeGetDependencies",
    "cuGraphNodeGetDependentNodes",
    "cuGraphAddDependencies",
    "cuGraphRemoveDependencies",
    "cuGraphAddNode",
];

/// What an entry point the stand-in does not model does, whatever its signature: it reads no
/// argument (under the x86-64 and AArch64 C calling conventions the caller's arguments are
/// then simply unused) and writes nothing.
pub(crate) unsafe extern "C" fn unsupported() -> CUresult {
    CUDA_ERROR_NOT_SUPPORTED
}

macro_rules! table {
    ($($sym:literal => $f:expr,)*) => {
        fn lookup(name: &str, version: c_int) -> Option<*mut c_void> {
            if let Some(f) = versioned(name, version) {
                return Some(f);
            }
            Some(match name {
                n if pool::is_entry(n) || interop::is_entry(n) || devctl::is_green_entry(n) => {
                    unsupported as *mut c_void
                }
                $( $sym => $f as *mut c_void, )*
                _ => return None,
            })
        }
        /// Every symbol `cuGetProcAddress` knows.
        #[cfg(test)]
        pub(crate) fn symbols() -> Vec<&'static str> {
            let mut v = vec![$($sym,)*];
            v.extend_from_slice(VERSIONED);
            v
        }
    };
}

table! {
    "cuGetProcAddress" => cuGetProcAddress_v2,
    "cuInit" => cuInit,
    "cuDriverGetVersion" => cuDriverGetVersion,
    "cuGetErrorName" => cuGetErrorName,
    "cuGetErrorString" => cuGetErrorString,
    "cuDeviceGet" => cuDeviceGet,
    "cuDeviceGetCount" => cuDeviceGetCount,
    "cuDeviceGetAttribute" => attrs::cuDeviceGetAttribute,
    "cuDeviceGetName" => cuDeviceGetName,
    "cuDeviceTotalMem" => cuDeviceTotalMem,
    "cuDeviceGetUuid" => cuDeviceGetUuid,
    "cuDeviceCanAccessPeer" => cuDeviceCanAccessPeer,
    "cuDevicePrimaryCtxRetain" => context::cuDevicePrimaryCtxRetain,
    "cuDevicePrimaryCtxRelease" => context::cuDevicePrimaryCtxRelease,
    "cuDevicePrimaryCtxReset" => context::cuDevicePrimaryCtxReset,
    "cuDevicePrimaryCtxSetFlags" => context::cuDevicePrimaryCtxSetFlags,
    "cuDevicePrimaryCtxGetState" => context::cuDevicePrimaryCtxGetState,
    "cuCtxGetCurrent" => context::cuCtxGetCurrent,
    "cuCtxSetCurrent" => context::cuCtxSetCurrent,
    "cuCtxGetDevice" => context::cuCtxGetDevice,
    "cuCtxSynchronize" => context::cuCtxSynchronize,
    "cuCtxGetFlags" => context::cuCtxGetFlags,
    "cuCtxPushCurrent" => context::cuCtxPushCurrent,
    "cuCtxPopCurrent" => context::cuCtxPopCurrent,
    "cuCtxEnablePeerAccess" => context::cuCtxEnablePeerAccess,
    "cuCtxDisablePeerAccess" => context::cuCtxDisablePeerAccess,
    "cuCtxGetStreamPriorityRange" => context::cuCtxGetStreamPriorityRange,
    "cuStreamCreate" => stream::cuStreamCreate,
    "cuStreamCreateWithPriority" => stream::cuStreamCreateWithPriority,
    "cuStreamDestroy" => stream::cuStreamDestroy,
    "cuStreamSynchronize" => stream::cuStreamSynchronize,
    "cuStreamQuery" => stream::cuStreamQuery,
    "cuStreamAttachMemAsync" => mem::cuStreamAttachMemAsync,
    "cuStreamGetFlags" => stream::cuStreamGetFlags,
    "cuStreamGetPriority" => stream::cuStreamGetPriority,
    "cuStreamWaitEvent" => stream::cuStreamWaitEvent,
    "cuLaunchHostFunc" => stream::cuLaunchHostFunc,
    "cuEventCreate" => stream::cuEventCreate,
    "cuEventRecord" => stream::cuEventRecord,
    "cuEventRecordWithFlags" => stream::cuEventRecordWithFlags,
    "cuEventQuery" => stream::cuEventQuery,
    "cuEventSynchronize" => stream::cuEventSynchronize,
    "cuEventElapsedTime" => stream::cuEventElapsedTime,
    "cuEventDestroy" => stream::cuEventDestroy,
    "cuMemAlloc" => mem::cuMemAlloc,
    "cuMemFree" => mem::cuMemFree,
    "cuMemAllocPitch" => mem::cuMemAllocPitch,
    "cuMemAllocManaged" => mem::cuMemAllocManaged,
    "cuMemAllocHost" => mem::cuMemAllocHost,
    "cuMemHostAlloc" => mem::cuMemHostAlloc,
    "cuMemFreeHost" => mem::cuMemFreeHost,
    "cuMemHostRegister" => hostreg::cuMemHostRegister,
    "cuMemHostUnregister" => hostreg::cuMemHostUnregister,
    "cuMemHostGetDevicePointer" => hostreg::cuMemHostGetDevicePointer,
    "cuMemHostGetFlags" => hostreg::cuMemHostGetFlags,
    "cuMemGetInfo" => mem::cuMemGetInfo,
    "cuMemGetAddressRange" => mem::cuMemGetAddressRange,
    "cuMemcpy" => copy::cuMemcpy,
    "cuMemcpyAsync" => copy::cuMemcpyAsync,
    "cuMemcpyHtoD" => copy::cuMemcpyHtoD,
    "cuMemcpyDtoH" => copy::cuMemcpyDtoH,
    "cuMemcpyDtoD" => copy::cuMemcpyDtoD,
    "cuMemcpyHtoDAsync" => copy::cuMemcpyHtoDAsync,
    "cuMemcpyDtoHAsync" => copy::cuMemcpyDtoHAsync,
    "cuMemcpyDtoDAsync" => copy::cuMemcpyDtoDAsync,
    "cuMemcpy2D" => copy::cuMemcpy2D,
    "cuMemcpy2DUnaligned" => copy::cuMemcpy2DUnaligned,
    "cuMemcpy2DAsync" => copy::cuMemcpy2DAsync,
    "cuMemcpy3D" => copy::cuMemcpy3D,
    "cuMemcpy3DAsync" => copy::cuMemcpy3DAsync,
    "cuMemcpyPeer" => copy::cuMemcpyPeer,
    "cuMemcpyPeerAsync" => copy::cuMemcpyPeerAsync,
    "cuMemcpy3DPeer" => copy::cuMemcpy3DPeer,
    "cuMemcpy3DPeerAsync" => copy::cuMemcpy3DPeerAsync,
    "cuMemsetD8" => copy::cuMemsetD8,
    "cuMemsetD8Async" => copy::cuMemsetD8Async,
    "cuMemsetD2D8" => copy::cuMemsetD2D8,
    "cuMemsetD2D8Async" => copy::cuMemsetD2D8Async,
    "cuMemRangeGetAttribute" => mem::cuMemRangeGetAttribute,
    "cuMemRangeGetAttributes" => mem::cuMemRangeGetAttributes,
    "cuPointerGetAttribute" => mem::cuPointerGetAttribute,
    "cuPointerGetAttributes" => mem::cuPointerGetAttributes,
    "cuPointerSetAttribute" => mem::cuPointerSetAttribute,
    "cuArrayCreate" => array::cuArrayCreate,
    "cuArray3DCreate" => array::cuArray3DCreate,
    "cuArrayDestroy" => array::cuArrayDestroy,
    "cuArrayGetDescriptor" => array::cuArrayGetDescriptor,
    "cuArray3DGetDescriptor" => array::cuArray3DGetDescriptor,
    "cuArrayGetPlane" => array::cuArrayGetPlane,
    "cuArrayGetSparseProperties" => array::cuArrayGetSparseProperties,
    "cuArrayGetMemoryRequirements" => array::cuArrayGetMemoryRequirements,
    "cuMipmappedArrayCreate" => array::cuMipmappedArrayCreate,
    "cuMipmappedArrayDestroy" => array::cuMipmappedArrayDestroy,
    "cuMipmappedArrayGetLevel" => array::cuMipmappedArrayGetLevel,
    "cuMipmappedArrayGetSparseProperties" => array::cuMipmappedArrayGetSparseProperties,
    "cuMipmappedArrayGetMemoryRequirements" => array::cuMipmappedArrayGetMemoryRequirements,
    "cuLibraryLoadData" => cuLibraryLoadData,
    "cuLibraryUnload" => cuLibraryUnload,
    "cuLibraryGetKernel" => cuLibraryGetKernel,
    "cuLibraryGetGlobal" => cuLibraryGetGlobal,
    "cuLibraryGetManaged" => cuLibraryGetManaged,
    "cuKernelGetFunction" => cuKernelGetFunction,
    "cuLibraryGetModule" => cuLibraryGetModule,
    "cuKernelGetAttribute" => cuKernelGetAttribute,
    "cuKernelSetAttribute" => cuKernelSetAttribute,
    "cuModuleLoadData" => cuModuleLoadData,
    "cuModuleLoadFatBinary" => cuModuleLoadFatBinary,
    "cuModuleUnload" => cuModuleUnload,
    "cuModuleGetFunction" => cuModuleGetFunction,
    "cuModuleGetGlobal" => cuModuleGetGlobal,
    "cuLaunchKernel" => cuLaunchKernel,
    "cuLaunchKernelEx" => cuLaunchKernelEx,
    "cuLaunchCooperativeKernel" => cuLaunchCooperativeKernel,
    "cuFuncGetAttribute" => cuFuncGetAttribute,
    "cuFuncSetAttribute" => cuFuncSetAttribute,
    "cuFuncSetCacheConfig" => cuFuncSetCacheConfig,
    "cuOccupancyMaxActiveBlocksPerMultiprocessor" => cuOccupancyMaxActiveBlocksPerMultiprocessor,
    "cuStreamIsCapturing" => capture::cuStreamIsCapturing,
    "cuStreamBeginCapture" => capture::cuStreamBeginCapture,
    "cuStreamBeginCaptureToGraph" => capture::cuStreamBeginCaptureToGraph,
    "cuStreamEndCapture" => capture::cuStreamEndCapture,
    "cuThreadExchangeStreamCaptureMode" => capture::cuThreadExchangeStreamCaptureMode,
    "cuGraphCreate" => graph::cuGraphCreate,
    "cuGraphDestroy" => graph::cuGraphDestroy,
    "cuGraphClone" => graph::cuGraphClone,
    "cuGraphNodeFindInClone" => graph::cuGraphNodeFindInClone,
    "cuGraphGetNodes" => graph::cuGraphGetNodes,
    "cuGraphGetRootNodes" => graph::cuGraphGetRootNodes,
    "cuGraphDestroyNode" => graph::cuGraphDestroyNode,
    "cuGraphNodeGetType" => graph::cuGraphNodeGetType,
    "cuGraphConditionalHandleCreate" => graph::cuGraphConditionalHandleCreate,
    "cuDeviceGetGraphMemAttribute" => graph::cuDeviceGetGraphMemAttribute,
    "cuDeviceSetGraphMemAttribute" => graph::cuDeviceSetGraphMemAttribute,
    "cuDeviceGraphMemTrim" => graph::cuDeviceGraphMemTrim,
    "cuGraphDebugDotPrint" => dot::cuGraphDebugDotPrint,
    "cuGraphInstantiateWithFlags" => exec::cuGraphInstantiateWithFlags,
    "cuGraphInstantiateWithParams" => exec::cuGraphInstantiateWithParams,
    "cuGraphUpload" => exec::cuGraphUpload,
    "cuGraphLaunch" => exec::cuGraphLaunch,
    "cuGraphExecDestroy" => exec::cuGraphExecDestroy,
    "cuGraphExecUpdate" => exec::cuGraphExecUpdate,
    "cuGraphExecGetFlags" => exec::cuGraphExecGetFlags,
    "cuGraphNodeGetEnabled" => exec::cuGraphNodeGetEnabled,
    "cuGraphNodeSetEnabled" => exec::cuGraphNodeSetEnabled,
    "cuGraphExecKernelNodeSetParams" => exec::cuGraphExecKernelNodeSetParams,
    "cuGraphExecMemcpyNodeSetParams" => exec::cuGraphExecMemcpyNodeSetParams,
    "cuGraphExecMemsetNodeSetParams" => exec::cuGraphExecMemsetNodeSetParams,
    "cuGraphExecHostNodeSetParams" => exec::cuGraphExecHostNodeSetParams,
    "cuGraphExecChildGraphNodeSetParams" => exec::cuGraphExecChildGraphNodeSetParams,
    "cuGraphExecEventRecordNodeSetEvent" => exec::cuGraphExecEventRecordNodeSetEvent,
    "cuGraphExecEventWaitNodeSetEvent" => exec::cuGraphExecEventWaitNodeSetEvent,
    "cuGraphExecExternalSemaphoresSignalNodeSetParams" => exec::cuGraphExecExternalSemaphoresSignalNodeSetParams,
    "cuGraphExecExternalSemaphoresWaitNodeSetParams" => exec::cuGraphExecExternalSemaphoresWaitNodeSetParams,
    "cuGraphExecNodeSetParams" => exec::cuGraphExecNodeSetParams,
    "cuGraphAddKernelNode" => graph_node::cuGraphAddKernelNode,
    "cuGraphKernelNodeGetParams" => graph_node::cuGraphKernelNodeGetParams,
    "cuGraphKernelNodeSetParams" => graph_node::cuGraphKernelNodeSetParams,
    "cuGraphKernelNodeCopyAttributes" => graph_node::cuGraphKernelNodeCopyAttributes,
    "cuGraphKernelNodeGetAttribute" => graph_node::cuGraphKernelNodeGetAttribute,
    "cuGraphKernelNodeSetAttribute" => graph_node::cuGraphKernelNodeSetAttribute,
    "cuGraphAddMemcpyNode" => graph_node::cuGraphAddMemcpyNode,
    "cuGraphMemcpyNodeGetParams" => graph_node::cuGraphMemcpyNodeGetParams,
    "cuGraphMemcpyNodeSetParams" => graph_node::cuGraphMemcpyNodeSetParams,
    "cuGraphAddMemsetNode" => graph_node::cuGraphAddMemsetNode,
    "cuGraphMemsetNodeGetParams" => graph_node::cuGraphMemsetNodeGetParams,
    "cuGraphMemsetNodeSetParams" => graph_node::cuGraphMemsetNodeSetParams,
    "cuGraphAddHostNode" => graph_node::cuGraphAddHostNode,
    "cuGraphHostNodeGetParams" => graph_node::cuGraphHostNodeGetParams,
    "cuGraphHostNodeSetParams" => graph_node::cuGraphHostNodeSetParams,
    "cuGraphAddChildGraphNode" => graph_node::cuGraphAddChildGraphNode,
    "cuGraphChildGraphNodeGetGraph" => graph_node::cuGraphChildGraphNodeGetGraph,
    "cuGraphAddEmptyNode" => graph_node::cuGraphAddEmptyNode,
    "cuGraphAddEventRecordNode" => graph_node::cuGraphAddEventRecordNode,
    "cuGraphEventRecordNodeGetEvent" => graph_node::cuGraphEventRecordNodeGetEvent,
    "cuGraphEventRecordNodeSetEvent" => graph_node::cuGraphEventRecordNodeSetEvent,
    "cuGraphAddEventWaitNode" => graph_node::cuGraphAddEventWaitNode,
    "cuGraphEventWaitNodeGetEvent" => graph_node::cuGraphEventWaitNodeGetEvent,
    "cuGraphEventWaitNodeSetEvent" => graph_node::cuGraphEventWaitNodeSetEvent,
    "cuGraphAddExternalSemaphoresSignalNode" => graph_node::cuGraphAddExternalSemaphoresSignalNode,
    "cuGraphExternalSemaphoresSignalNodeGetParams" => graph_node::cuGraphExternalSemaphoresSignalNodeGetParams,
    "cuGraphExternalSemaphoresSignalNodeSetParams" => graph_node::cuGraphExternalSemaphoresSignalNodeSetParams,
    "cuGraphAddExternalSemaphoresWaitNode" => graph_node::cuGraphAddExternalSemaphoresWaitNode,
    "cuGraphExternalSemaphoresWaitNodeGetParams" => graph_node::cuGraphExternalSemaphoresWaitNodeGetParams,
    "cuGraphExternalSemaphoresWaitNodeSetParams" => graph_node::cuGraphExternalSemaphoresWaitNodeSetParams,
    "cuGraphAddMemAllocNode" => graph_node::cuGraphAddMemAllocNode,
    "cuGraphMemAllocNodeGetParams" => graph_node::cuGraphMemAllocNodeGetParams,
    "cuGraphAddMemFreeNode" => graph_node::cuGraphAddMemFreeNode,
    "cuGraphMemFreeNodeGetParams" => graph_node::cuGraphMemFreeNodeGetParams,
    "cuGraphNodeSetParams" => graph_node::cuGraphNodeSetParams,
    "cuDeviceGetDefaultMemPool" => pool::cuDeviceGetDefaultMemPool,
    "cuDeviceGetMemPool" => pool::cuDeviceGetMemPool,
    "cuDeviceSetMemPool" => pool::cuDeviceSetMemPool,
    "cuMemGetDefaultMemPool" => pool::cuMemGetDefaultMemPool,
    "cuMemGetMemPool" => pool::cuMemGetMemPool,
    "cuMemSetMemPool" => pool::cuMemSetMemPool,
    "cuMemAllocAsync" => pool::cuMemAllocAsync,
    "cuMemAllocFromPoolAsync" => pool::cuMemAllocFromPoolAsync,
    "cuMemFreeAsync" => pool::cuMemFreeAsync,
    "cuMemPoolCreate" => pool::cuMemPoolCreate,
    "cuMemPoolDestroy" => pool::cuMemPoolDestroy,
    "cuMemPoolSetAttribute" => pool::cuMemPoolSetAttribute,
    "cuMemPoolGetAttribute" => pool::cuMemPoolGetAttribute,
    "cuMemPoolSetAccess" => pool::cuMemPoolSetAccess,
    "cuMemPoolGetAccess" => pool::cuMemPoolGetAccess,
    "cuMemPoolTrimTo" => pool::cuMemPoolTrimTo,
    "cuMemPoolExportToShareableHandle" => pool::cuMemPoolExportToShareableHandle,
    "cuMemPoolImportFromShareableHandle" => pool::cuMemPoolImportFromShareableHandle,
    "cuMemPoolExportPointer" => pool::cuMemPoolExportPointer,
    "cuMemPoolImportPointer" => pool::cuMemPoolImportPointer,
    "cuUserObjectCreate" => userobj::cuUserObjectCreate,
    "cuUserObjectRetain" => userobj::cuUserObjectRetain,
    "cuUserObjectRelease" => userobj::cuUserObjectRelease,
    "cuGraphRetainUserObject" => userobj::cuGraphRetainUserObject,
    "cuGraphReleaseUserObject" => userobj::cuGraphReleaseUserObject,
    "cuCtxGetLimit" => devctl::cuCtxGetLimit,
    "cuCtxSetLimit" => devctl::cuCtxSetLimit,
    "cuCtxGetCacheConfig" => devctl::cuCtxGetCacheConfig,
    "cuCtxSetCacheConfig" => devctl::cuCtxSetCacheConfig,
    "cuCtxGetSharedMemConfig" => devctl::cuCtxGetSharedMemConfig,
    "cuCtxSetSharedMemConfig" => devctl::cuCtxSetSharedMemConfig,
    "cuCtxResetPersistingL2Cache" => devctl::cuCtxResetPersistingL2Cache,
    "cuDeviceGetPCIBusId" => devctl::cuDeviceGetPCIBusId,
    "cuDeviceGetByPCIBusId" => devctl::cuDeviceGetByPCIBusId,
    "cuDeviceGetP2PAttribute" => devctl::cuDeviceGetP2PAttribute,
    "cuDeviceGetP2PAtomicCapabilities" => devctl::cuDeviceGetP2PAtomicCapabilities,
    "cuDeviceGetHostAtomicCapabilities" => devctl::cuDeviceGetHostAtomicCapabilities,
    "cuFlushGPUDirectRDMAWrites" => devctl::cuFlushGPUDirectRDMAWrites,
    "cuDeviceRegisterAsyncNotification" => devctl::cuDeviceRegisterAsyncNotification,
    "cuDeviceUnregisterAsyncNotification" => devctl::cuDeviceUnregisterAsyncNotification,
    "cuStreamGetId" => devctl::cuStreamGetId,
    "cuStreamGetDevice" => devctl::cuStreamGetDevice,
    "cuStreamGetCtx" => devctl::cuStreamGetCtx,
    "cuStreamAddCallback" => devctl::cuStreamAddCallback,
    "cuIpcGetEventHandle" => devctl::cuIpcGetEventHandle,
    "cuIpcOpenEventHandle" => devctl::cuIpcOpenEventHandle,
    "cuIpcGetMemHandle" => devctl::cuIpcGetMemHandle,
    "cuIpcOpenMemHandle" => devctl::cuIpcOpenMemHandle,
    "cuIpcCloseMemHandle" => devctl::cuIpcCloseMemHandle,
    "cuStreamGetAttribute" => launch::cuStreamGetAttribute,
    "cuStreamSetAttribute" => launch::cuStreamSetAttribute,
    "cuStreamCopyAttributes" => launch::cuStreamCopyAttributes,
    "cuGetExportTable" => launch::cuGetExportTable,
    "cuProfilerStart" => launch::cuProfilerStart,
    "cuProfilerStop" => launch::cuProfilerStop,
    "cuLaunchCooperativeKernelMultiDevice" => launch::cuLaunchCooperativeKernelMultiDevice,
    "cuLinkCreate" => launch::cuLinkCreate,
    "cuLinkAddData" => launch::cuLinkAddData,
    "cuLinkComplete" => launch::cuLinkComplete,
    "cuLinkDestroy" => launch::cuLinkDestroy,
    "cuKernelGetParamInfo" => launch::cuKernelGetParamInfo,
    "cuKernelSetCacheConfig" => launch::cuKernelSetCacheConfig,
    "cuFuncSetSharedMemConfig" => launch::cuFuncSetSharedMemConfig,
    "cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags" => launch::cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags,
    "cuOccupancyAvailableDynamicSMemPerBlock" => launch::cuOccupancyAvailableDynamicSMemPerBlock,
    "cuOccupancyMaxPotentialClusterSize" => launch::cuOccupancyMaxPotentialClusterSize,
    "cuOccupancyMaxActiveClusters" => launch::cuOccupancyMaxActiveClusters,
    "cuLogsRegisterCallback" => launch::cuLogsRegisterCallback,
    "cuLogsUnregisterCallback" => launch::cuLogsUnregisterCallback,
    "cuLogsCurrent" => launch::cuLogsCurrent,
    "cuLogsDumpToFile" => launch::cuLogsDumpToFile,
    "cuLogsDumpToMemory" => launch::cuLogsDumpToMemory,
    "cuLibraryLoadFromFile" => library::cuLibraryLoadFromFile,
    "cuLibraryGetKernelCount" => library::cuLibraryGetKernelCount,
    "cuLibraryEnumerateKernels" => library::cuLibraryEnumerateKernels,
    "cuLibraryGetUnifiedFunction" => library::cuLibraryGetUnifiedFunction,
    "cuKernelGetName" => library::cuKernelGetName,
    "cuTexObjectCreate" => texture::cuTexObjectCreate,
    "cuTexObjectDestroy" => texture::cuTexObjectDestroy,
    "cuTexObjectGetResourceDesc" => texture::cuTexObjectGetResourceDesc,
    "cuTexObjectGetTextureDesc" => texture::cuTexObjectGetTextureDesc,
    "cuTexObjectGetResourceViewDesc" => texture::cuTexObjectGetResourceViewDesc,
    "cuSurfObjectCreate" => texture::cuSurfObjectCreate,
    "cuSurfObjectDestroy" => texture::cuSurfObjectDestroy,
    "cuSurfObjectGetResourceDesc" => texture::cuSurfObjectGetResourceDesc,
    "cuDeviceGetTexture1DLinearMaxWidth" => texture::cuDeviceGetTexture1DLinearMaxWidth,
}

export! {
    fn cuGetProcAddress_v2(symbol: *const c_char, pfn: *mut *mut c_void, cudaVersion: c_int, flags: u64, symbolStatus: *mut c_int) {
        nonnull(pfn)?;
        nonnull(symbol)?;
        // Flags: any of legacy (1) and per-thread (2); with both, the legacy search.
        if flags & !3 != 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let name = CStr::from_ptr(symbol).to_str().unwrap_or("");
        let (f, status) = launch::proc_address(name, cudaVersion, flags, lookup, ptsz::entry)?;
        *pfn = f;
        if !symbolStatus.is_null() {
            *symbolStatus = status;
        }
        Ok(())
    }

    fn cuGetProcAddress(symbol: *const c_char, pfn: *mut *mut c_void, cudaVersion: c_int, flags: u64) {
        match cuGetProcAddress_v2(symbol, pfn, cudaVersion, flags, std::ptr::null_mut()) {
            CUDA_SUCCESS => Ok(()),
            e => Err(e),
        }
    }

    fn cuDriverGetVersion(driverVersion: *mut c_int) {
        let v = std::env::var("CUDART_STANDIN_DRIVER_VERSION")
            .ok()
            .and_then(|v| v.trim().parse::<c_int>().ok())
            .unwrap_or(13000);
        put(driverVersion, v)
    }

    fn cuInit(flags: c_uint) {
        if flags != 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        state::init();
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Error names and strings
// ---------------------------------------------------------------------------------------------

/// Every `CUresult` of CUDA 13's `cuda.h`, with its name.
static ERROR_NAMES: &[(CUresult, &str)] = &include!("errnames.rs");

fn error_string(e: CUresult) -> Option<&'static str> {
    Some(match e {
        0 => "no error\0",
        1 => "invalid argument\0",
        2 => "out of memory\0",
        3 => "initialization error\0",
        4 => "driver shutting down\0",
        34 => "CUDA driver is a stub library\0",
        100 => "no CUDA-capable device is detected\0",
        101 => "invalid device ordinal\0",
        200 => "device kernel image is invalid\0",
        201 => "invalid device context\0",
        209 => "no kernel image is available for execution on the device\0",
        217 => "peer access is not supported between these two devices\0",
        400 => "invalid resource handle\0",
        500 => "named symbol not found\0",
        600 => "device not ready\0",
        700 => "an illegal memory access was encountered\0",
        704 => "peer access is already enabled\0",
        705 => "peer access has not been enabled\0",
        708 => "cannot set while device is active in this process\0",
        709 => "context is destroyed\0",
        712 => "part or all of the requested memory range is already mapped\0",
        713 => "pointer does not correspond to a registered memory region\0",
        801 => "operation not supported\0",
        999 => "unknown error\0",
        _ => {
            return ERROR_NAMES.iter().find(|(c, _)| *c == e).map(|(_, n)| *n);
        }
    })
}

export! {
    fn cuGetErrorName(error: CUresult, pStr: *mut *const c_char) {
        nonnull(pStr)?;
        match ERROR_NAMES.iter().find(|(c, _)| *c == error) {
            Some((_, n)) => {
                *pStr = n.as_ptr() as *const c_char;
                Ok(())
            }
            None => {
                *pStr = std::ptr::null();
                Err(CUDA_ERROR_INVALID_VALUE)
            }
        }
    }

    fn cuGetErrorString(error: CUresult, pStr: *mut *const c_char) {
        nonnull(pStr)?;
        match error_string(error) {
            Some(s) => {
                *pStr = s.as_ptr() as *const c_char;
                Ok(())
            }
            None => {
                *pStr = std::ptr::null();
                Err(CUDA_ERROR_INVALID_VALUE)
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Devices
// ---------------------------------------------------------------------------------------------

pub const DEVICE_NAME: &str = "cudart-rs host stand-in";

export! {
    fn cuDeviceGet(device: *mut CUdevice, ordinal: c_int) {
        nonnull(device)?;
        with(|s| {
            s.check_dev(ordinal)?;
            *device = ordinal;
            Ok(())
        })
    }

    fn cuDeviceGetCount(count: *mut c_int) {
        nonnull(count)?;
        with(|s| {
            *count = s.ndev;
            Ok(())
        })
    }

    fn cuDeviceGetName(name: *mut c_char, len: c_int, dev: CUdevice) {
        if name.is_null() || len <= 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        with(|s| {
            s.check_dev(dev)?;
            let bytes = DEVICE_NAME.as_bytes();
            let n = bytes.len().min(len as usize - 1);
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), name as *mut u8, n);
            *name.add(n) = 0;
            Ok(())
        })
    }

    fn cuDeviceTotalMem(bytes: *mut usize, dev: CUdevice) {
        nonnull(bytes)?;
        with(|s| {
            s.check_dev(dev)?;
            *bytes = TOTAL_MEM;
            Ok(())
        })
    }

    fn cuDeviceGetUuid(uuid: *mut CUuuid, dev: CUdevice) {
        nonnull(uuid)?;
        with(|s| {
            s.check_dev(dev)?;
            let mut b = *b"cudart-rs-stand0";
            b[15] = b'0' + dev as u8;
            (*uuid).bytes = b;
            Ok(())
        })
    }

    fn cuDeviceCanAccessPeer(canAccessPeer: *mut c_int, dev: CUdevice, peerDev: CUdevice) {
        nonnull(canAccessPeer)?;
        with(|s| {
            s.check_dev(dev)?;
            s.check_dev(peerDev)?;
            *canAccessPeer = (dev != peerDev) as c_int;
            Ok(())
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Modules, libraries and kernels: GPU-only, so nothing loads.
// ---------------------------------------------------------------------------------------------

fn no_binary(out: *const c_void, image: *const c_void) -> Res {
    nonnull(out)?;
    nonnull(image)?;
    with(|_| Err(CUDA_ERROR_NO_BINARY_FOR_GPU))
}

fn bad_handle(out: *const c_void) -> Res {
    nonnull(out)?;
    with(|_| Err(CUDA_ERROR_INVALID_HANDLE))
}

/// A non-null stand-in for "no out pointer to check".
const NO_OUT: *const c_void = std::ptr::dangling::<c_void>();

export! {
    fn cuLibraryLoadData(library: *mut CUlibrary, code: *const c_void, jitOptions: *mut CUjit_option, jitOptionsValues: *mut *mut c_void, numJitOptions: c_uint, libraryOptions: *mut CUlibraryOption, libraryOptionValues: *mut *mut c_void, numLibraryOptions: c_uint) {
        let _ = (jitOptions, jitOptionsValues, numJitOptions, libraryOptions, libraryOptionValues, numLibraryOptions);
        no_binary(library as *const c_void, code)
    }
    fn cuLibraryUnload(library: CUlibrary) { let _ = library; bad_handle(NO_OUT) }
    fn cuLibraryGetKernel(pKernel: *mut CUkernel, library: CUlibrary, name: *const c_char) {
        let _ = (library, name);
        bad_handle(pKernel as *const c_void)
    }
    fn cuLibraryGetGlobal(dptr: *mut CUdeviceptr, bytes: *mut usize, library: CUlibrary, name: *const c_char) {
        let _ = (dptr, bytes, library, name);
        bad_handle(NO_OUT)
    }
    fn cuLibraryGetManaged(dptr: *mut CUdeviceptr, bytes: *mut usize, library: CUlibrary, name: *const c_char) {
        let _ = (dptr, bytes, library, name);
        bad_handle(NO_OUT)
    }
    fn cuKernelGetFunction(pFunc: *mut CUfunction, kernel: CUkernel) {
        let _ = kernel;
        bad_handle(pFunc as *const c_void)
    }
    fn cuLibraryGetModule(pMod: *mut CUmodule, library: CUlibrary) {
        let _ = library;
        bad_handle(pMod as *const c_void)
    }
    fn cuKernelGetAttribute(pi: *mut c_int, attrib: CUfunction_attribute, kernel: CUkernel, dev: CUdevice) {
        let _ = (attrib, kernel, dev);
        bad_handle(pi as *const c_void)
    }
    fn cuKernelSetAttribute(attrib: CUfunction_attribute, val: c_int, kernel: CUkernel, dev: CUdevice) {
        let _ = (attrib, val, kernel, dev);
        bad_handle(NO_OUT)
    }
    fn cuModuleLoadData(module: *mut CUmodule, image: *const c_void) {
        with(|s| s.cur().map(|_| ()))?;
        no_binary(module as *const c_void, image)
    }
    fn cuModuleLoadFatBinary(module: *mut CUmodule, fatCubin: *const c_void) {
        with(|s| s.cur().map(|_| ()))?;
        no_binary(module as *const c_void, fatCubin)
    }
    fn cuModuleUnload(hmod: CUmodule) { let _ = hmod; bad_handle(NO_OUT) }
    fn cuModuleGetFunction(hfunc: *mut CUfunction, hmod: CUmodule, name: *const c_char) {
        let _ = (hmod, name);
        bad_handle(hfunc as *const c_void)
    }
    fn cuModuleGetGlobal(dptr: *mut CUdeviceptr, bytes: *mut usize, hmod: CUmodule, name: *const c_char) {
        let _ = (dptr, bytes, hmod, name);
        bad_handle(NO_OUT)
    }
    fn cuLaunchKernel(f: CUfunction, gridDimX: c_uint, gridDimY: c_uint, gridDimZ: c_uint, blockDimX: c_uint, blockDimY: c_uint, blockDimZ: c_uint, sharedMemBytes: c_uint, hStream: CUstream, kernelParams: *mut *mut c_void, extra: *mut *mut c_void) {
        let _ = (f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams, extra);
        with(|s| s.cur().map(|_| ()))?;
        bad_handle(NO_OUT)
    }
    fn cuLaunchCooperativeKernel(f: CUfunction, gridDimX: c_uint, gridDimY: c_uint, gridDimZ: c_uint, blockDimX: c_uint, blockDimY: c_uint, blockDimZ: c_uint, sharedMemBytes: c_uint, hStream: CUstream, kernelParams: *mut *mut c_void) {
        let _ = (f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams);
        with(|s| s.cur().map(|_| ()))?;
        bad_handle(NO_OUT)
    }
    fn cuLaunchKernelEx(config: *const CUlaunchConfig, f: CUfunction, kernelParams: *mut *mut c_void, extra: *mut *mut c_void) {
        let _ = (f, kernelParams, extra);
        nonnull(config)?;
        with(|s| s.cur().map(|_| ()))?;
        bad_handle(NO_OUT)
    }
    fn cuFuncGetAttribute(pi: *mut c_int, attrib: CUfunction_attribute, hfunc: CUfunction) {
        let _ = (attrib, hfunc);
        bad_handle(pi as *const c_void)
    }
    fn cuFuncSetAttribute(hfunc: CUfunction, attrib: CUfunction_attribute, value: c_int) {
        let _ = (hfunc, attrib, value);
        bad_handle(NO_OUT)
    }
    fn cuFuncSetCacheConfig(hfunc: CUfunction, config: CUfunc_cache) {
        let _ = (hfunc, config);
        bad_handle(NO_OUT)
    }
    fn cuOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks: *mut c_int, func: CUfunction, blockSize: c_int, dynamicSMemSize: usize) {
        let _ = (func, blockSize, dynamicSMemSize);
        bad_handle(numBlocks as *const c_void)
    }
}

#[cfg(test)]
mod tests;
