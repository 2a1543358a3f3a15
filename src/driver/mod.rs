//! Loading `libcuda.so.1` and resolving its entry points.
//!
//! One list, [`driver_api!`] below, names every driver function the runtime calls, with the
//! CUDA version whose signature we use. Each is resolved once through `cuGetProcAddress` with
//! that explicit version, twice over: a table for the legacy default stream and one for the
//! per-thread default stream (`_ptds`/`_ptsz` variants). Calls go through a method of the same
//! name on [`Fns`]; an entry point the driver lacks returns [`MISSING_ENTRY_POINT`].

pub mod env;
pub mod types;

/// The opaque handle structs `types` refers to: the runtime header's, since runtime streams,
/// events, functions, graphs, pools, libraries... are driver ones.
mod handles {
    pub use crate::types::{
        CUevent_st, CUexternalMemory_st, CUexternalSemaphore_st, CUfunc_st, CUgraphDeviceUpdatableNode_st,
        CUgraphExec_st, CUgraphNode_st, CUgraph_st, CUkern_st, CUlib_st, CUmemPoolHandle_st, CUstream_st,
        CUuserObject_st,
    };

    #[cfg(not(feature = "abi12"))]
    pub use crate::types::CUlogsCallbackEntry_st;
    /// The 12 ABI's runtime has no error log callbacks, so no handle struct of its own.
    /// cbindgen:ignore
    #[cfg(feature = "abi12")]
    pub struct CUlogsCallbackEntry_st {
        _private: [u8; 0],
    }
}

use std::ffi::{c_char, c_int, c_uint, c_void, CString};
use std::sync::OnceLock;

use crate::types::cudaError;

/// Our own result for a driver entry point the loaded driver does not provide.
pub(crate) const MISSING_ENTRY_POINT: CUresult = -0x7ffe;
use types::*;

/// The runtime's structs that have the driver's layout (see the graph and external semaphore
/// entries below).
use crate::types::{
    cudaEglStreamConnection as EglStreamConnection, cudaExternalSemaphoreSignalParams as SemaphoreSignalParams,
    cudaExternalSemaphoreWaitParams as SemaphoreWaitParams, cudaGraphEdgeData as GraphEdgeData,
    cudaGraphExecUpdateResultInfo as GraphExecUpdateResultInfo, cudaGraphInstantiateParams as GraphInstantiateParams,
};

/// The environment variable that names another driver library to load instead of
/// `libcuda.so.1` (for example the test stand-in).
pub const DRIVER_ENV: &str = "CUDART_RS_DRIVER";

/// The oldest driver this build's ABI runs on, as `cuDriverGetVersion` reports it.
#[cfg(not(feature = "abi12"))]
pub const MIN_DRIVER_VERSION: c_int = 13000;
#[cfg(feature = "abi12")]
pub const MIN_DRIVER_VERSION: c_int = 12000;

macro_rules! driver_api {
    // The symbol of an entry: its own name, or the one after `=`.
    (@sym $name:ident) => { stringify!($name) };
    (@sym $name:ident $sym:ident) => { stringify!($sym) };
    ($( $name:ident $(= $sym:ident)? @ $ver:literal ( $($arg:ident : $ty:ty),* $(,)? ); )*) => {
        /// One resolved table of driver entry points.
        #[allow(non_snake_case)]
        pub struct Fns {
            $( pub $name: Option<unsafe extern "C" fn($($ty),*) -> CUresult>, )*
        }

        #[allow(non_snake_case, clippy::too_many_arguments, clippy::missing_safety_doc)]
        impl Fns {
            fn resolve(get: &dyn Fn(&str, c_int) -> *mut c_void) -> Fns {
                Fns {
                    $( $name: {
                        let p = get(driver_api!(@sym $name $($sym)?), $ver);
                        // SAFETY: the driver returned the entry point of this name for this
                        // version, whose C signature is the one the list gives.
                        unsafe {
                            std::mem::transmute::<*mut c_void, Option<unsafe extern "C" fn($($ty),*) -> CUresult>>(p)
                        }
                    }, )*
                }
            }

            $(
                #[inline(always)]
                pub unsafe fn $name(&self, $($arg: $ty),*) -> CUresult {
                    match self.$name {
                        Some(f) => f($($arg),*),
                        None => MISSING_ENTRY_POINT,
                    }
                }
            )*
        }

        /// Every entry point the runtime resolves: (symbol, CUDA version of its signature).
        pub const ENTRY_POINTS: &[(&str, c_int)] = &[ $( (driver_api!(@sym $name $($sym)?), $ver), )* ];
    };
}

// Each entry: the method's name, which is the entry point's symbol (`= SYMBOL` after it where the
// runtime uses two versions of one symbol: `cuMemAdvise_v1 = cuMemAdvise @ 8000`), the CUDA version
// whose signature it has, and that signature.
driver_api! {
    cuInit @ 2000 (flags: c_uint);
    cuDriverGetVersion @ 2020 (driverVersion: *mut c_int);
    cuGetErrorName @ 6000 (error: CUresult, pStr: *mut *const c_char);
    cuGetErrorString @ 6000 (error: CUresult, pStr: *mut *const c_char);

    cuDeviceGet @ 2000 (device: *mut CUdevice, ordinal: c_int);
    cuDeviceGetCount @ 2000 (count: *mut c_int);
    cuDeviceGetAttribute @ 2000 (pi: *mut c_int, attrib: CUdevice_attribute, dev: CUdevice);
    cuDeviceGetName @ 2000 (name: *mut c_char, len: c_int, dev: CUdevice);
    cuDeviceTotalMem @ 3020 (bytes: *mut usize, dev: CUdevice);
    cuDeviceGetUuid @ 11040 (uuid: *mut CUuuid, dev: CUdevice);
    cuDeviceCanAccessPeer @ 4000 (canAccessPeer: *mut c_int, dev: CUdevice, peerDev: CUdevice);
    cuDevicePrimaryCtxRetain @ 7000 (pctx: *mut CUcontext, dev: CUdevice);
    cuDevicePrimaryCtxRelease @ 11000 (dev: CUdevice);
    cuDevicePrimaryCtxReset @ 11000 (dev: CUdevice);
    cuDevicePrimaryCtxSetFlags @ 11000 (dev: CUdevice, flags: c_uint);
    cuDevicePrimaryCtxGetState @ 7000 (dev: CUdevice, flags: *mut c_uint, active: *mut c_int);

    cuCtxGetCurrent @ 4000 (pctx: *mut CUcontext);
    cuCtxSetCurrent @ 4000 (ctx: CUcontext);
    cuCtxGetDevice @ 2000 (device: *mut CUdevice);
    cuCtxSynchronize @ 2000 ();
    cuCtxGetFlags @ 7000 (flags: *mut c_uint);
    cuCtxPushCurrent @ 4000 (ctx: CUcontext);
    cuCtxPopCurrent @ 4000 (pctx: *mut CUcontext);
    cuCtxEnablePeerAccess @ 4000 (peerContext: CUcontext, flags: c_uint);
    cuCtxDisablePeerAccess @ 4000 (peerContext: CUcontext);
    cuCtxGetStreamPriorityRange @ 5050 (leastPriority: *mut c_int, greatestPriority: *mut c_int);

    cuStreamCreate @ 2000 (phStream: *mut CUstream, flags: c_uint);
    cuStreamCreateWithPriority @ 5050 (phStream: *mut CUstream, flags: c_uint, priority: c_int);
    cuStreamDestroy @ 4000 (hStream: CUstream);
    cuStreamSynchronize @ 7000 (hStream: CUstream);
    cuStreamQuery @ 7000 (hStream: CUstream);
    cuStreamAttachMemAsync @ 7000 (hStream: CUstream, dptr: CUdeviceptr, length: usize, flags: c_uint);
    cuStreamGetFlags @ 7000 (hStream: CUstream, flags: *mut c_uint);
    cuStreamGetPriority @ 7000 (hStream: CUstream, priority: *mut c_int);
    cuStreamWaitEvent @ 7000 (hStream: CUstream, hEvent: CUevent, flags: c_uint);
    cuLaunchHostFunc @ 10000 (hStream: CUstream, func: CUhostFn, userData: *mut c_void);

    cuEventCreate @ 2000 (phEvent: *mut CUevent, flags: c_uint);
    cuEventRecord @ 7000 (hEvent: CUevent, hStream: CUstream);
    cuEventRecordWithFlags @ 11010 (hEvent: CUevent, hStream: CUstream, flags: c_uint);
    cuEventQuery @ 2000 (hEvent: CUevent);
    cuEventSynchronize @ 2000 (hEvent: CUevent);
    cuEventElapsedTime @ 2000 (pMilliseconds: *mut f32, hStart: CUevent, hEnd: CUevent);
    cuEventDestroy @ 4000 (hEvent: CUevent);

    cuMemAlloc @ 3020 (dptr: *mut CUdeviceptr, bytesize: usize);
    cuMemFree @ 3020 (dptr: CUdeviceptr);
    cuMemAllocPitch @ 3020 (dptr: *mut CUdeviceptr, pPitch: *mut usize, widthInBytes: usize, height: usize,
        elementSizeBytes: c_uint);
    cuMemAllocManaged @ 6000 (dptr: *mut CUdeviceptr, bytesize: usize, flags: c_uint);
    cuMemAllocHost @ 3020 (pp: *mut *mut c_void, bytesize: usize);
    cuMemHostAlloc @ 2020 (pp: *mut *mut c_void, bytesize: usize, flags: c_uint);
    cuMemFreeHost @ 2000 (p: *mut c_void);
    cuMemHostRegister @ 6050 (p: *mut c_void, bytesize: usize, flags: c_uint);
    cuMemHostUnregister @ 4000 (p: *mut c_void);
    cuMemHostGetDevicePointer @ 3020 (pdptr: *mut CUdeviceptr, p: *mut c_void, flags: c_uint);
    cuMemHostGetFlags @ 2030 (pFlags: *mut c_uint, p: *mut c_void);
    cuMemGetInfo @ 3020 (free: *mut usize, total: *mut usize);
    cuMemGetAddressRange @ 3020 (pbase: *mut CUdeviceptr, psize: *mut usize, dptr: CUdeviceptr);

    cuMemcpy @ 7000 (dst: CUdeviceptr, src: CUdeviceptr, byteCount: usize);
    cuMemcpyAsync @ 7000 (dst: CUdeviceptr, src: CUdeviceptr, byteCount: usize, hStream: CUstream);
    cuMemcpyHtoD @ 7000 (dstDevice: CUdeviceptr, srcHost: *const c_void, byteCount: usize);
    cuMemcpyDtoH @ 7000 (dstHost: *mut c_void, srcDevice: CUdeviceptr, byteCount: usize);
    cuMemcpyDtoD @ 7000 (dstDevice: CUdeviceptr, srcDevice: CUdeviceptr, byteCount: usize);
    cuMemcpyHtoDAsync @ 7000 (dstDevice: CUdeviceptr, srcHost: *const c_void, byteCount: usize, hStream: CUstream);
    cuMemcpyDtoHAsync @ 7000 (dstHost: *mut c_void, srcDevice: CUdeviceptr, byteCount: usize, hStream: CUstream);
    cuMemcpyDtoDAsync @ 7000 (dstDevice: CUdeviceptr, srcDevice: CUdeviceptr, byteCount: usize, hStream: CUstream);
    cuMemcpy2D @ 7000 (pCopy: *const CUDA_MEMCPY2D);
    cuMemcpy2DUnaligned @ 7000 (pCopy: *const CUDA_MEMCPY2D);
    cuMemcpy2DAsync @ 7000 (pCopy: *const CUDA_MEMCPY2D, hStream: CUstream);
    cuMemcpy3D @ 7000 (pCopy: *const CUDA_MEMCPY3D);
    cuMemcpy3DAsync @ 7000 (pCopy: *const CUDA_MEMCPY3D, hStream: CUstream);
    cuMemcpyPeer @ 7000 (dstDevice: CUdeviceptr, dstContext: CUcontext, srcDevice: CUdeviceptr, srcContext: CUcontext,
        byteCount: usize);
    cuMemcpyPeerAsync @ 7000 (dstDevice: CUdeviceptr, dstContext: CUcontext, srcDevice: CUdeviceptr,
        srcContext: CUcontext, byteCount: usize, hStream: CUstream);
    cuMemcpy3DPeer @ 7000 (pCopy: *const CUDA_MEMCPY3D_PEER);
    cuMemcpy3DPeerAsync @ 7000 (pCopy: *const CUDA_MEMCPY3D_PEER, hStream: CUstream);
    cuMemsetD8 @ 7000 (dstDevice: CUdeviceptr, uc: u8, n: usize);
    cuMemsetD8Async @ 7000 (dstDevice: CUdeviceptr, uc: u8, n: usize, hStream: CUstream);
    cuMemsetD2D8 @ 7000 (dstDevice: CUdeviceptr, dstPitch: usize, uc: u8, width: usize, height: usize);
    cuMemsetD2D8Async @ 7000 (dstDevice: CUdeviceptr, dstPitch: usize, uc: u8, width: usize, height: usize,
        hStream: CUstream);

    // Unified memory: the CUDA 8 forms take a device ordinal, the 12.2 forms a CUmemLocation.
    cuMemAdvise_v1 = cuMemAdvise @ 8000 (devPtr: CUdeviceptr, count: usize, advice: CUmem_advise, device: CUdevice);
    cuMemAdvise_v2 = cuMemAdvise @ 12020 (devPtr: CUdeviceptr, count: usize, advice: CUmem_advise,
        location: CUmemLocation);
    cuMemPrefetchAsync_v1 = cuMemPrefetchAsync @ 8000 (devPtr: CUdeviceptr, count: usize, dstDevice: CUdevice,
        hStream: CUstream);
    cuMemPrefetchAsync_v2 = cuMemPrefetchAsync @ 12020 (devPtr: CUdeviceptr, count: usize, location: CUmemLocation,
        flags: c_uint, hStream: CUstream);
    cuMemRangeGetAttribute @ 8000 (data: *mut c_void, dataSize: usize, attribute: CUmem_range_attribute,
        devPtr: CUdeviceptr, count: usize);
    cuMemRangeGetAttributes @ 8000 (data: *mut *mut c_void, dataSizes: *mut usize,
        attributes: *mut CUmem_range_attribute, numAttributes: usize, devPtr: CUdeviceptr, count: usize);
    cuPointerGetAttribute @ 4000 (data: *mut c_void, attribute: CUpointer_attribute, ptr: CUdeviceptr);
    cuPointerGetAttributes @ 7000 (numAttributes: c_uint, attributes: *mut CUpointer_attribute, data: *mut *mut c_void,
        ptr: CUdeviceptr);
    cuPointerSetAttribute @ 6000 (value: *const c_void, attribute: CUpointer_attribute, ptr: CUdeviceptr);

    cuArrayCreate @ 3020 (pHandle: *mut CUarray, pAllocateArray: *const CUDA_ARRAY_DESCRIPTOR);
    cuArray3DCreate @ 3020 (pHandle: *mut CUarray, pAllocateArray: *const CUDA_ARRAY3D_DESCRIPTOR);
    cuArrayDestroy @ 2000 (hArray: CUarray);
    cuArrayGetDescriptor @ 3020 (pArrayDescriptor: *mut CUDA_ARRAY_DESCRIPTOR, hArray: CUarray);
    cuArray3DGetDescriptor @ 3020 (pArrayDescriptor: *mut CUDA_ARRAY3D_DESCRIPTOR, hArray: CUarray);
    cuArrayGetPlane @ 11020 (pPlaneArray: *mut CUarray, hArray: CUarray, planeIdx: c_uint);
    cuArrayGetSparseProperties @ 11010 (sparseProperties: *mut CUDA_ARRAY_SPARSE_PROPERTIES, array: CUarray);
    cuArrayGetMemoryRequirements @ 11060 (memoryRequirements: *mut CUDA_ARRAY_MEMORY_REQUIREMENTS, array: CUarray,
        device: CUdevice);
    cuMipmappedArrayCreate @ 5000 (pHandle: *mut CUmipmappedArray, pMipmappedArrayDesc: *const CUDA_ARRAY3D_DESCRIPTOR,
        numMipmapLevels: c_uint);
    cuMipmappedArrayDestroy @ 5000 (hMipmappedArray: CUmipmappedArray);
    cuMipmappedArrayGetLevel @ 5000 (pLevelArray: *mut CUarray, hMipmappedArray: CUmipmappedArray, level: c_uint);
    cuMipmappedArrayGetSparseProperties @ 11010 (sparseProperties: *mut CUDA_ARRAY_SPARSE_PROPERTIES,
        mipmap: CUmipmappedArray);
    cuMipmappedArrayGetMemoryRequirements @ 11060 (memoryRequirements: *mut CUDA_ARRAY_MEMORY_REQUIREMENTS,
        mipmap: CUmipmappedArray, device: CUdevice);

    cuLibraryLoadData @ 12000 (library: *mut CUlibrary, code: *const c_void, jitOptions: *mut CUjit_option,
        jitOptionsValues: *mut *mut c_void, numJitOptions: c_uint, libraryOptions: *mut CUlibraryOption,
        libraryOptionValues: *mut *mut c_void, numLibraryOptions: c_uint);
    cuLibraryUnload @ 12000 (library: CUlibrary);
    cuLibraryGetKernel @ 12000 (pKernel: *mut CUkernel, library: CUlibrary, name: *const c_char);
    cuLibraryGetGlobal @ 12000 (dptr: *mut CUdeviceptr, bytes: *mut usize, library: CUlibrary, name: *const c_char);
    cuLibraryGetManaged @ 12000 (dptr: *mut CUdeviceptr, bytes: *mut usize, library: CUlibrary, name: *const c_char);
    cuLibraryGetModule @ 12000 (pMod: *mut CUmodule, library: CUlibrary);
    cuKernelGetFunction @ 12000 (pFunc: *mut CUfunction, kernel: CUkernel);
    cuKernelGetAttribute @ 12000 (pi: *mut c_int, attrib: CUfunction_attribute, kernel: CUkernel, dev: CUdevice);
    cuKernelSetAttribute @ 12000 (attrib: CUfunction_attribute, val: c_int, kernel: CUkernel, dev: CUdevice);
    cuModuleLoadData @ 2000 (module: *mut CUmodule, image: *const c_void);
    cuModuleLoadFatBinary @ 2000 (module: *mut CUmodule, fatCubin: *const c_void);
    cuModuleUnload @ 2000 (hmod: CUmodule);
    cuModuleGetFunction @ 2000 (hfunc: *mut CUfunction, hmod: CUmodule, name: *const c_char);
    cuModuleGetGlobal @ 3020 (dptr: *mut CUdeviceptr, bytes: *mut usize, hmod: CUmodule, name: *const c_char);
    cuLaunchKernel @ 7000 (f: CUfunction, gridDimX: c_uint, gridDimY: c_uint, gridDimZ: c_uint, blockDimX: c_uint,
        blockDimY: c_uint, blockDimZ: c_uint, sharedMemBytes: c_uint, hStream: CUstream, kernelParams: *mut *mut c_void,
        extra: *mut *mut c_void);
    cuLaunchCooperativeKernel @ 9000 (f: CUfunction, gridDimX: c_uint, gridDimY: c_uint, gridDimZ: c_uint,
        blockDimX: c_uint, blockDimY: c_uint, blockDimZ: c_uint, sharedMemBytes: c_uint, hStream: CUstream,
        kernelParams: *mut *mut c_void);
    cuLaunchKernelEx @ 11060 (config: *const CUlaunchConfig, f: CUfunction, kernelParams: *mut *mut c_void,
        extra: *mut *mut c_void);
    cuFuncGetAttribute @ 2020 (pi: *mut c_int, attrib: CUfunction_attribute, hfunc: CUfunction);
    cuFuncSetAttribute @ 9000 (hfunc: CUfunction, attrib: CUfunction_attribute, value: c_int);
    cuFuncSetCacheConfig @ 3000 (hfunc: CUfunction, config: CUfunc_cache);
    cuOccupancyMaxActiveBlocksPerMultiprocessor @ 6050 (numBlocks: *mut c_int, func: CUfunction, blockSize: c_int,
        dynamicSMemSize: usize);

    // Stream capture and the graph core (api/capture.rs, api/graph.rs). Where CUDA 12.3 added
    // edge data, both signatures are listed: the CUDA 12 ABI's older runtime forms call the
    // older driver forms, as NVIDIA's 12.9 runtime does. Enums are passed as their integer
    // values; edge data, instantiate parameters and update results are the runtime's structs,
    // whose layout is the driver's (CUgraphEdgeData, CUDA_GRAPH_INSTANTIATE_PARAMS,
    // CUgraphExecUpdateResultInfo).
    cuStreamBeginCapture @ 10010 (hStream: CUstream, mode: c_int);
    cuStreamBeginCaptureToGraph @ 12030 (hStream: CUstream, hGraph: CUgraph, dependencies: *const CUgraphNode,
        dependencyData: *const GraphEdgeData, numDependencies: usize, mode: c_int);
    cuStreamEndCapture @ 10000 (hStream: CUstream, phGraph: *mut CUgraph);
    cuStreamIsCapturing @ 10000 (hStream: CUstream, captureStatus: *mut c_int);
    cuStreamGetCaptureInfo_v2 = cuStreamGetCaptureInfo @ 11030 (hStream: CUstream, captureStatus_out: *mut c_int,
        id_out: *mut u64, graph_out: *mut CUgraph, dependencies_out: *mut *const CUgraphNode,
        numDependencies_out: *mut usize);
    cuStreamGetCaptureInfo_v3 = cuStreamGetCaptureInfo @ 12030 (hStream: CUstream, captureStatus_out: *mut c_int,
        id_out: *mut u64, graph_out: *mut CUgraph, dependencies_out: *mut *const CUgraphNode,
        edgeData_out: *mut *const GraphEdgeData, numDependencies_out: *mut usize);
    cuStreamUpdateCaptureDependencies_v1 = cuStreamUpdateCaptureDependencies @ 11030 (hStream: CUstream,
        dependencies: *mut CUgraphNode, numDependencies: usize, flags: c_uint);
    cuStreamUpdateCaptureDependencies_v2 = cuStreamUpdateCaptureDependencies @ 12030 (hStream: CUstream,
        dependencies: *mut CUgraphNode, dependencyData: *const GraphEdgeData, numDependencies: usize, flags: c_uint);
    cuThreadExchangeStreamCaptureMode @ 10010 (mode: *mut c_int);
    cuGraphCreate @ 10000 (phGraph: *mut CUgraph, flags: c_uint);
    cuGraphDestroy @ 10000 (hGraph: CUgraph);
    cuGraphClone @ 10000 (phGraphClone: *mut CUgraph, originalGraph: CUgraph);
    cuGraphNodeFindInClone @ 10000 (phNode: *mut CUgraphNode, hOriginalNode: CUgraphNode, hClonedGraph: CUgraph);
    cuGraphGetNodes @ 10000 (hGraph: CUgraph, nodes: *mut CUgraphNode, numNodes: *mut usize);
    cuGraphGetRootNodes @ 10000 (hGraph: CUgraph, rootNodes: *mut CUgraphNode, numRootNodes: *mut usize);
    cuGraphGetEdges_v1 = cuGraphGetEdges @ 10000 (hGraph: CUgraph, from: *mut CUgraphNode, to: *mut CUgraphNode,
        numEdges: *mut usize);
    cuGraphGetEdges_v2 = cuGraphGetEdges @ 12030 (hGraph: CUgraph, from: *mut CUgraphNode, to: *mut CUgraphNode,
        edgeData: *mut GraphEdgeData, numEdges: *mut usize);
    cuGraphNodeGetDependencies_v1 = cuGraphNodeGetDependencies @ 10000 (hNode: CUgraphNode,
        dependencies: *mut CUgraphNode, numDependencies: *mut usize);
    cuGraphNodeGetDependencies_v2 = cuGraphNodeGetDependencies @ 12030 (hNode: CUgraphNode,
        dependencies: *mut CUgraphNode, edgeData: *mut GraphEdgeData, numDependencies: *mut usize);
    cuGraphNodeGetDependentNodes_v1 = cuGraphNodeGetDependentNodes @ 10000 (hNode: CUgraphNode,
        dependentNodes: *mut CUgraphNode, numDependentNodes: *mut usize);
    cuGraphNodeGetDependentNodes_v2 = cuGraphNodeGetDependentNodes @ 12030 (hNode: CUgraphNode,
        dependentNodes: *mut CUgraphNode, edgeData: *mut GraphEdgeData, numDependentNodes: *mut usize);
    cuGraphAddDependencies_v1 = cuGraphAddDependencies @ 10000 (hGraph: CUgraph, from: *const CUgraphNode,
        to: *const CUgraphNode, numDependencies: usize);
    cuGraphAddDependencies_v2 = cuGraphAddDependencies @ 12030 (hGraph: CUgraph, from: *const CUgraphNode,
        to: *const CUgraphNode, edgeData: *const GraphEdgeData, numDependencies: usize);
    cuGraphRemoveDependencies_v1 = cuGraphRemoveDependencies @ 10000 (hGraph: CUgraph, from: *const CUgraphNode,
        to: *const CUgraphNode, numDependencies: usize);
    cuGraphRemoveDependencies_v2 = cuGraphRemoveDependencies @ 12030 (hGraph: CUgraph, from: *const CUgraphNode,
        to: *const CUgraphNode, edgeData: *const GraphEdgeData, numDependencies: usize);
    cuGraphDestroyNode @ 10000 (hNode: CUgraphNode);
    cuGraphNodeGetType @ 10000 (hNode: CUgraphNode, type_: *mut c_int);
    cuGraphNodeGetEnabled @ 11060 (hGraphExec: CUgraphExec, hNode: CUgraphNode, isEnabled: *mut c_uint);
    cuGraphNodeSetEnabled @ 11060 (hGraphExec: CUgraphExec, hNode: CUgraphNode, isEnabled: c_uint);
    cuGraphDebugDotPrint @ 11030 (hGraph: CUgraph, path: *const c_char, flags: c_uint);
    cuGraphInstantiateWithFlags @ 11040 (phGraphExec: *mut CUgraphExec, hGraph: CUgraph, flags: u64);
    cuGraphInstantiateWithParams @ 12000 (phGraphExec: *mut CUgraphExec, hGraph: CUgraph,
        instantiateParams: *mut GraphInstantiateParams);
    cuGraphUpload @ 11010 (hGraphExec: CUgraphExec, hStream: CUstream);
    cuGraphLaunch @ 10000 (hGraphExec: CUgraphExec, hStream: CUstream);
    cuGraphExecDestroy @ 10000 (hGraphExec: CUgraphExec);
    cuGraphExecUpdate @ 12000 (hGraphExec: CUgraphExec, hGraph: CUgraph, resultInfo: *mut GraphExecUpdateResultInfo);
    cuGraphExecGetFlags @ 12000 (hGraphExec: CUgraphExec, flags: *mut u64);
    cuDeviceGetGraphMemAttribute @ 11040 (device: CUdevice, attr: c_int, value: *mut c_void);
    cuDeviceSetGraphMemAttribute @ 11040 (device: CUdevice, attr: c_int, value: *mut c_void);
    cuDeviceGraphMemTrim @ 11040 (device: CUdevice);
    cuUserObjectCreate @ 11030 (object_out: *mut CUuserObject, ptr: *mut c_void, destroy: CUhostFn,
        initialRefcount: c_uint, flags: c_uint);
    cuUserObjectRetain @ 11030 (object: CUuserObject, count: c_uint);
    cuUserObjectRelease @ 11030 (object: CUuserObject, count: c_uint);
    cuGraphRetainUserObject @ 11030 (graph: CUgraph, object: CUuserObject, count: c_uint, flags: c_uint);
    cuGraphReleaseUserObject @ 11030 (graph: CUgraph, object: CUuserObject, count: c_uint);
    cuGraphConditionalHandleCreate @ 12030 (pHandle_out: *mut u64, hGraph: CUgraph, ctx: CUcontext,
        defaultLaunchValue: c_uint, flags: c_uint);
    // Device, IPC, stream and event extras: limits and configurations of the current
    // context, PCI ids, peer and atomic capabilities, GPUDirect RDMA, async notifications,
    // IPC handles, stream callbacks, ids and devices, the CUDA 12.8 elapsed time.
    cuDeviceGetByPCIBusId @ 4010 (dev: *mut CUdevice, pciBusId: *const c_char);
    cuDeviceGetPCIBusId @ 4010 (pciBusId: *mut c_char, len: c_int, dev: CUdevice);
    cuDeviceGetP2PAttribute @ 8000 (value: *mut c_int, attrib: CUdevice_P2PAttribute, srcDevice: CUdevice,
        dstDevice: CUdevice);
    cuDeviceGetP2PAtomicCapabilities @ 13000 (capabilities: *mut c_uint, operations: *const CUatomicOperation,
        count: c_uint, srcDevice: CUdevice, dstDevice: CUdevice);
    cuDeviceGetHostAtomicCapabilities @ 13000 (capabilities: *mut c_uint, operations: *const CUatomicOperation,
        count: c_uint, dev: CUdevice);
    cuFlushGPUDirectRDMAWrites @ 11030 (target: CUflushGPUDirectRDMAWritesTarget,
        scope: CUflushGPUDirectRDMAWritesScope);
    cuDeviceRegisterAsyncNotification @ 12040 (device: CUdevice, callbackFunc: CUasyncCallback, userData: *mut c_void,
        callback: *mut CUasyncCallbackHandle);
    cuDeviceUnregisterAsyncNotification @ 12040 (device: CUdevice, callback: CUasyncCallbackHandle);
    cuCtxGetLimit @ 3010 (pvalue: *mut usize, limit: CUlimit);
    cuCtxSetLimit @ 3010 (limit: CUlimit, value: usize);
    cuCtxGetCacheConfig @ 3020 (pconfig: *mut CUfunc_cache);
    cuCtxSetCacheConfig @ 3020 (config: CUfunc_cache);
    cuCtxGetSharedMemConfig @ 4020 (pConfig: *mut CUsharedconfig);
    cuCtxSetSharedMemConfig @ 4020 (config: CUsharedconfig);
    cuCtxResetPersistingL2Cache @ 11000 ();
    cuIpcGetEventHandle @ 4010 (pHandle: *mut CUipcEventHandle, event: CUevent);
    cuIpcOpenEventHandle @ 4010 (phEvent: *mut CUevent, handle: CUipcEventHandle);
    cuIpcGetMemHandle @ 4010 (pHandle: *mut CUipcMemHandle, dptr: CUdeviceptr);
    cuIpcOpenMemHandle @ 11000 (pdptr: *mut CUdeviceptr, handle: CUipcMemHandle, Flags: c_uint);
    cuIpcCloseMemHandle @ 4010 (dptr: CUdeviceptr);
    cuStreamAddCallback @ 7000 (hStream: CUstream, callback: CUstreamCallback, userData: *mut c_void, flags: c_uint);
    cuStreamGetId @ 12000 (hStream: CUstream, streamId: *mut u64);
    cuStreamGetDevice @ 12080 (hStream: CUstream, device: *mut CUdevice);
    cuStreamGetCtx @ 9020 (hStream: CUstream, pctx: *mut CUcontext);
    cuEventElapsedTime_v2 = cuEventElapsedTime @ 12080 (pMilliseconds: *mut f32, hStart: CUevent, hEnd: CUevent);

    // Memory pools and stream-ordered allocation (src/api/pool.rs).
    cuMemAllocAsync @ 11020 (dptr: *mut CUdeviceptr, bytesize: usize, hStream: CUstream);
    cuMemAllocFromPoolAsync @ 11020 (dptr: *mut CUdeviceptr, bytesize: usize, pool: CUmemoryPool, hStream: CUstream);
    cuMemFreeAsync @ 11020 (dptr: CUdeviceptr, hStream: CUstream);
    cuMemPoolTrimTo @ 11020 (pool: CUmemoryPool, minBytesToKeep: usize);
    cuMemPoolSetAttribute @ 11020 (pool: CUmemoryPool, attr: CUmemPool_attribute, value: *mut c_void);
    cuMemPoolGetAttribute @ 11020 (pool: CUmemoryPool, attr: CUmemPool_attribute, value: *mut c_void);
    cuMemPoolSetAccess @ 11020 (pool: CUmemoryPool, map: *const CUmemAccessDesc, count: usize);
    cuMemPoolGetAccess @ 11020 (flags: *mut CUmemAccess_flags, memPool: CUmemoryPool, location: *mut CUmemLocation);
    cuMemPoolCreate @ 11020 (pool: *mut CUmemoryPool, poolProps: *const CUmemPoolProps);
    cuMemPoolDestroy @ 11020 (pool: CUmemoryPool);
    cuMemPoolExportToShareableHandle @ 11020 (handle_out: *mut c_void, pool: CUmemoryPool,
        handleType: CUmemAllocationHandleType, flags: u64);
    cuMemPoolImportFromShareableHandle @ 11020 (pool_out: *mut CUmemoryPool, handle: *mut c_void,
        handleType: CUmemAllocationHandleType, flags: u64);
    cuMemPoolExportPointer @ 11020 (shareData_out: *mut CUmemPoolPtrExportData, ptr: CUdeviceptr);
    cuMemPoolImportPointer @ 11020 (ptr_out: *mut CUdeviceptr, pool: CUmemoryPool,
        shareData: *mut CUmemPoolPtrExportData);
    cuDeviceGetDefaultMemPool @ 11020 (pool_out: *mut CUmemoryPool, dev: CUdevice);
    cuDeviceGetMemPool @ 11020 (pool: *mut CUmemoryPool, dev: CUdevice);
    cuDeviceSetMemPool @ 11020 (dev: CUdevice, pool: CUmemoryPool);
    cuMemGetDefaultMemPool @ 13000 (pool_out: *mut CUmemoryPool, location: *mut CUmemLocation,
        type_: CUmemAllocationType);
    cuMemGetMemPool @ 13000 (pool: *mut CUmemoryPool, location: *mut CUmemLocation, type_: CUmemAllocationType);
    cuMemSetMemPool @ 13000 (location: *mut CUmemLocation, type_: CUmemAllocationType, pool: CUmemoryPool);

    // Batched copies, prefetches and discards (src/api/batch.rs): the 12.8 forms report the
    // index of a failing operation, the 13.0 forms do not.
    cuMemcpyBatchAsync_v1 = cuMemcpyBatchAsync @ 12080 (dsts: *mut CUdeviceptr, srcs: *mut CUdeviceptr,
        sizes: *mut usize, count: usize, attrs: *mut CUmemcpyAttributes, attrsIdxs: *mut usize, numAttrs: usize,
        failIdx: *mut usize, hStream: CUstream);
    cuMemcpyBatchAsync_v2 = cuMemcpyBatchAsync @ 13000 (dsts: *mut CUdeviceptr, srcs: *mut CUdeviceptr,
        sizes: *mut usize, count: usize, attrs: *mut CUmemcpyAttributes, attrsIdxs: *mut usize, numAttrs: usize,
        hStream: CUstream);
    cuMemcpy3DBatchAsync_v1 = cuMemcpy3DBatchAsync @ 12080 (numOps: usize, opList: *mut CUDA_MEMCPY3D_BATCH_OP,
        failIdx: *mut usize, flags: u64, hStream: CUstream);
    cuMemcpy3DBatchAsync_v2 = cuMemcpy3DBatchAsync @ 13000 (numOps: usize, opList: *mut CUDA_MEMCPY3D_BATCH_OP,
        flags: u64, hStream: CUstream);
    cuMemPrefetchBatchAsync @ 13000 (dptrs: *mut CUdeviceptr, sizes: *mut usize, count: usize,
        prefetchLocs: *mut CUmemLocation, prefetchLocIdxs: *mut usize, numPrefetchLocs: usize, flags: u64,
        hStream: CUstream);
    cuMemDiscardBatchAsync @ 13000 (dptrs: *mut CUdeviceptr, sizes: *mut usize, count: usize, flags: u64,
        hStream: CUstream);
    cuMemDiscardAndPrefetchBatchAsync @ 13000 (dptrs: *mut CUdeviceptr, sizes: *mut usize, count: usize,
        prefetchLocs: *mut CUmemLocation, prefetchLocIdxs: *mut usize, numPrefetchLocs: usize, flags: u64,
        hStream: CUstream);
    // External memory and semaphores, graphics interoperability (api/external.rs,
    // api/interop.rs, api/gl.rs, api/egl.rs, api/vdpau.rs). Semaphore signal and wait
    // parameters and EGL stream connections are the runtime's types, whose layout is the
    // driver's; GL names are unsigned integers, EGL handles pointers, VDPAU handles uint32_t.
    cuImportExternalMemory @ 10000 (extMem_out: *mut CUexternalMemory,
        memHandleDesc: *const CUDA_EXTERNAL_MEMORY_HANDLE_DESC);
    cuExternalMemoryGetMappedBuffer @ 10000 (devPtr: *mut CUdeviceptr, extMem: CUexternalMemory,
        bufferDesc: *const CUDA_EXTERNAL_MEMORY_BUFFER_DESC);
    cuExternalMemoryGetMappedMipmappedArray @ 10000 (mipmap: *mut CUmipmappedArray, extMem: CUexternalMemory,
        mipmapDesc: *const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC);
    cuDestroyExternalMemory @ 10000 (extMem: CUexternalMemory);
    cuImportExternalSemaphore @ 10000 (extSem_out: *mut CUexternalSemaphore,
        semHandleDesc: *const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC);
    cuSignalExternalSemaphoresAsync @ 10000 (extSemArray: *const CUexternalSemaphore,
        paramsArray: *const SemaphoreSignalParams, numExtSems: c_uint, stream: CUstream);
    cuWaitExternalSemaphoresAsync @ 10000 (extSemArray: *const CUexternalSemaphore,
        paramsArray: *const SemaphoreWaitParams, numExtSems: c_uint, stream: CUstream);
    cuDestroyExternalSemaphore @ 10000 (extSem: CUexternalSemaphore);
    cuDeviceGetNvSciSyncAttributes @ 10020 (nvSciSyncAttrList: *mut c_void, dev: CUdevice, flags: c_int);
    cuGraphicsUnregisterResource @ 3000 (resource: CUgraphicsResource);
    cuGraphicsSubResourceGetMappedArray @ 3000 (pArray: *mut CUarray, resource: CUgraphicsResource, arrayIndex: c_uint,
        mipLevel: c_uint);
    cuGraphicsResourceGetMappedMipmappedArray @ 5000 (pMipmappedArray: *mut CUmipmappedArray,
        resource: CUgraphicsResource);
    cuGraphicsResourceGetMappedPointer @ 3020 (pDevPtr: *mut CUdeviceptr, pSize: *mut usize,
        resource: CUgraphicsResource);
    cuGraphicsResourceSetMapFlags @ 6050 (resource: CUgraphicsResource, flags: c_uint);
    cuGraphicsMapResources @ 7000 (count: c_uint, resources: *mut CUgraphicsResource, hStream: CUstream);
    cuGraphicsUnmapResources @ 7000 (count: c_uint, resources: *mut CUgraphicsResource, hStream: CUstream);
    cuGraphicsGLRegisterBuffer @ 3000 (pCudaResource: *mut CUgraphicsResource, buffer: c_uint, flags: c_uint);
    cuGraphicsGLRegisterImage @ 3000 (pCudaResource: *mut CUgraphicsResource, image: c_uint, target: c_uint,
        flags: c_uint);
    cuGLGetDevices @ 6050 (pCudaDeviceCount: *mut c_uint, pCudaDevices: *mut CUdevice, cudaDeviceCount: c_uint,
        deviceList: c_int);
    cuGLInit @ 2000 ();
    cuGLRegisterBufferObject @ 2000 (buffer: c_uint);
    cuGLMapBufferObject @ 7000 (dptr: *mut CUdeviceptr, size: *mut usize, buffer: c_uint);
    cuGLMapBufferObjectAsync @ 7000 (dptr: *mut CUdeviceptr, size: *mut usize, buffer: c_uint, hStream: CUstream);
    cuGLUnmapBufferObject @ 2000 (buffer: c_uint);
    cuGLUnmapBufferObjectAsync @ 2030 (buffer: c_uint, hStream: CUstream);
    cuGLUnregisterBufferObject @ 2000 (buffer: c_uint);
    cuGLSetBufferObjectMapFlags @ 2030 (buffer: c_uint, flags: c_uint);
    cuGraphicsEGLRegisterImage @ 7000 (pCudaResource: *mut CUgraphicsResource, image: *mut c_void, flags: c_uint);
    cuEGLStreamConsumerConnect @ 7000 (conn: *mut EglStreamConnection, stream: *mut c_void);
    cuEGLStreamConsumerConnectWithFlags @ 8000 (conn: *mut EglStreamConnection, stream: *mut c_void, flags: c_uint);
    cuEGLStreamConsumerDisconnect @ 7000 (conn: *mut EglStreamConnection);
    cuEGLStreamConsumerAcquireFrame @ 7000 (conn: *mut EglStreamConnection, pCudaResource: *mut CUgraphicsResource,
        pStream: *mut CUstream, timeout: c_uint);
    cuEGLStreamConsumerReleaseFrame @ 7000 (conn: *mut EglStreamConnection, pCudaResource: CUgraphicsResource,
        pStream: *mut CUstream);
    cuEGLStreamProducerConnect @ 7000 (conn: *mut EglStreamConnection, stream: *mut c_void, width: i32, height: i32);
    cuEGLStreamProducerDisconnect @ 7000 (conn: *mut EglStreamConnection);
    cuEGLStreamProducerPresentFrame @ 7000 (conn: *mut EglStreamConnection, eglframe: CUeglFrame,
        pStream: *mut CUstream);
    cuEGLStreamProducerReturnFrame @ 7000 (conn: *mut EglStreamConnection, eglframe: *mut CUeglFrame,
        pStream: *mut CUstream);
    cuGraphicsResourceGetMappedEglFrame @ 7000 (eglFrame: *mut CUeglFrame, resource: CUgraphicsResource, index: c_uint,
        mipLevel: c_uint);
    cuEventCreateFromEGLSync @ 9000 (phEvent: *mut CUevent, eglSync: *mut c_void, flags: c_uint);
    cuVDPAUGetDevice @ 3010 (pDevice: *mut CUdevice, vdpDevice: u32, vdpGetProcAddress: *mut c_void);
    cuVDPAUCtxCreate @ 3020 (pCtx: *mut CUcontext, flags: c_uint, device: CUdevice, vdpDevice: u32,
        vdpGetProcAddress: *mut c_void);
    cuGraphicsVDPAURegisterVideoSurface @ 3010 (pCudaResource: *mut CUgraphicsResource, vdpSurface: u32, flags: c_uint);
    cuGraphicsVDPAURegisterOutputSurface @ 3010 (pCudaResource: *mut CUgraphicsResource, vdpSurface: u32,
        flags: c_uint);
    // Launch, function, occupancy, stream attribute, entry point, profiler and log exports:
    // the versions NVIDIA's runtimes ask for.
    cuLaunchCooperativeKernelMultiDevice @ 9000 (launchParamsList: *mut CUDA_LAUNCH_PARAMS, numDevices: c_uint,
        flags: c_uint);
    cuStreamGetCtx_v2 = cuStreamGetCtx @ 12050 (hStream: CUstream, pCtx: *mut CUcontext, pGreenCtx: *mut CUgreenCtx);
    cuKernelGetParamInfo @ 12040 (kernel: CUkernel, paramIndex: usize, paramOffset: *mut usize, paramSize: *mut usize);
    cuKernelSetCacheConfig @ 12000 (kernel: CUkernel, config: CUfunc_cache, dev: CUdevice);
    cuFuncSetSharedMemConfig @ 4020 (hfunc: CUfunction, config: c_int);
    cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags @ 7000 (numBlocks: *mut c_int, func: CUfunction,
        blockSize: c_int, dynamicSMemSize: usize, flags: c_uint);
    cuOccupancyAvailableDynamicSMemPerBlock @ 10020 (dynamicSmemSize: *mut usize, func: CUfunction, numBlocks: c_int,
        blockSize: c_int);
    cuOccupancyMaxPotentialClusterSize @ 11070 (clusterSize: *mut c_int, func: CUfunction,
        config: *const CUlaunchConfig);
    cuOccupancyMaxActiveClusters @ 11070 (numClusters: *mut c_int, func: CUfunction, config: *const CUlaunchConfig);
    cuStreamGetAttribute @ 11000 (hStream: CUstream, attr: CUlaunchAttributeID, value_out: *mut c_void);
    cuStreamSetAttribute @ 11000 (hStream: CUstream, attr: CUlaunchAttributeID, value: *const c_void);
    cuStreamCopyAttributes @ 11000 (dst: CUstream, src: CUstream);
    cuGetProcAddress @ 12000 (symbol: *const c_char, pfn: *mut *mut c_void, cudaVersion: c_int, flags: u64,
        symbolStatus: *mut c_int);
    cuGetExportTable @ 3000 (ppExportTable: *mut *const c_void, pExportTableId: *const CUuuid);
    cuProfilerStart @ 4000 ();
    cuProfilerStop @ 4000 ();
    cuLogsRegisterCallback @ 12090 (callbackFunc: CUlogsCallback, userData: *mut c_void,
        callback_out: *mut CUlogsCallbackHandle);
    cuLogsUnregisterCallback @ 12090 (callback: CUlogsCallbackHandle);
    cuLogsCurrent @ 12090 (iterator_out: *mut CUlogIterator, flags: c_uint);
    cuLogsDumpToFile @ 12090 (iterator: *mut CUlogIterator, pathToFile: *const c_char, flags: c_uint);
    cuLogsDumpToMemory @ 12090 (iterator: *mut CUlogIterator, buffer: *mut c_char, size: *mut usize, flags: c_uint);

    // Texture and surface objects (src/api/texture.rs) and library management
    // (src/api/library.rs).
    cuTexObjectCreate @ 5000 (pTexObject: *mut CUtexObject, pResDesc: *const CUDA_RESOURCE_DESC,
        pTexDesc: *const CUDA_TEXTURE_DESC, pResViewDesc: *const CUDA_RESOURCE_VIEW_DESC);
    cuTexObjectDestroy @ 5000 (texObject: CUtexObject);
    cuTexObjectGetResourceDesc @ 5000 (pResDesc: *mut CUDA_RESOURCE_DESC, texObject: CUtexObject);
    cuTexObjectGetTextureDesc @ 5000 (pTexDesc: *mut CUDA_TEXTURE_DESC, texObject: CUtexObject);
    cuTexObjectGetResourceViewDesc @ 5000 (pResViewDesc: *mut CUDA_RESOURCE_VIEW_DESC, texObject: CUtexObject);
    cuSurfObjectCreate @ 5000 (pSurfObject: *mut CUsurfObject, pResDesc: *const CUDA_RESOURCE_DESC);
    cuSurfObjectDestroy @ 5000 (surfObject: CUsurfObject);
    cuSurfObjectGetResourceDesc @ 5000 (pResDesc: *mut CUDA_RESOURCE_DESC, surfObject: CUsurfObject);
    cuDeviceGetTexture1DLinearMaxWidth @ 11010 (maxWidthInElements: *mut usize, format: CUarray_format,
        numChannels: c_uint, dev: CUdevice);
    cuLibraryLoadFromFile @ 12000 (library: *mut CUlibrary, fileName: *const c_char, jitOptions: *mut CUjit_option,
        jitOptionsValues: *mut *mut c_void, numJitOptions: c_uint, libraryOptions: *mut CUlibraryOption,
        libraryOptionValues: *mut *mut c_void, numLibraryOptions: c_uint);
    cuLibraryGetKernelCount @ 12040 (count: *mut c_uint, lib: CUlibrary);
    cuLibraryEnumerateKernels @ 12040 (kernels: *mut CUkernel, numKernels: c_uint, lib: CUlibrary);
    cuLibraryGetUnifiedFunction @ 12000 (fptr: *mut *mut c_void, library: CUlibrary, symbol: *const c_char);
    cuKernelGetName @ 12030 (name: *mut *const c_char, hfunc: CUkernel);

    // Graph nodes, by type (api/graph_node.rs). The external semaphore node parameters have
    // the runtime's layout, field for field, and are passed as they are (`*const c_void`).
    cuGraphAddKernelNode @ 12000 (phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode,
        numDependencies: usize, nodeParams: *const CUDA_KERNEL_NODE_PARAMS);
    cuGraphKernelNodeGetParams @ 12000 (hNode: CUgraphNode, nodeParams: *mut CUDA_KERNEL_NODE_PARAMS);
    cuGraphKernelNodeSetParams @ 12000 (hNode: CUgraphNode, nodeParams: *const CUDA_KERNEL_NODE_PARAMS);
    cuGraphExecKernelNodeSetParams @ 12000 (hGraphExec: CUgraphExec, hNode: CUgraphNode,
        nodeParams: *const CUDA_KERNEL_NODE_PARAMS);
    cuGraphKernelNodeCopyAttributes @ 11000 (dst: CUgraphNode, src: CUgraphNode);
    cuGraphKernelNodeGetAttribute @ 11000 (hNode: CUgraphNode, attr: CUkernelNodeAttrID, value_out: *mut c_void);
    cuGraphKernelNodeSetAttribute @ 11000 (hNode: CUgraphNode, attr: CUkernelNodeAttrID, value: *const c_void);
    cuGraphAddMemcpyNode @ 10000 (phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode,
        numDependencies: usize, copyParams: *const CUDA_MEMCPY3D, ctx: CUcontext);
    cuGraphMemcpyNodeGetParams @ 10000 (hNode: CUgraphNode, nodeParams: *mut CUDA_MEMCPY3D);
    cuGraphMemcpyNodeSetParams @ 10000 (hNode: CUgraphNode, nodeParams: *const CUDA_MEMCPY3D);
    cuGraphExecMemcpyNodeSetParams @ 10020 (hGraphExec: CUgraphExec, hNode: CUgraphNode,
        copyParams: *const CUDA_MEMCPY3D, ctx: CUcontext);
    cuGraphAddMemsetNode @ 10000 (phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode,
        numDependencies: usize, memsetParams: *const CUDA_MEMSET_NODE_PARAMS, ctx: CUcontext);
    cuGraphMemsetNodeGetParams @ 10000 (hNode: CUgraphNode, nodeParams: *mut CUDA_MEMSET_NODE_PARAMS);
    cuGraphMemsetNodeSetParams @ 10000 (hNode: CUgraphNode, nodeParams: *const CUDA_MEMSET_NODE_PARAMS);
    cuGraphExecMemsetNodeSetParams @ 10020 (hGraphExec: CUgraphExec, hNode: CUgraphNode,
        memsetParams: *const CUDA_MEMSET_NODE_PARAMS, ctx: CUcontext);
    cuGraphAddHostNode @ 10000 (phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode,
        numDependencies: usize, nodeParams: *const CUDA_HOST_NODE_PARAMS);
    cuGraphHostNodeGetParams @ 10000 (hNode: CUgraphNode, nodeParams: *mut CUDA_HOST_NODE_PARAMS);
    cuGraphHostNodeSetParams @ 10000 (hNode: CUgraphNode, nodeParams: *const CUDA_HOST_NODE_PARAMS);
    cuGraphExecHostNodeSetParams @ 10020 (hGraphExec: CUgraphExec, hNode: CUgraphNode,
        nodeParams: *const CUDA_HOST_NODE_PARAMS);
    cuGraphAddChildGraphNode @ 10000 (phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode,
        numDependencies: usize, childGraph: CUgraph);
    cuGraphChildGraphNodeGetGraph @ 10000 (hNode: CUgraphNode, phGraph: *mut CUgraph);
    cuGraphExecChildGraphNodeSetParams @ 11010 (hGraphExec: CUgraphExec, hNode: CUgraphNode, childGraph: CUgraph);
    cuGraphAddEmptyNode @ 10000 (phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode,
        numDependencies: usize);
    cuGraphAddEventRecordNode @ 11010 (phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode,
        numDependencies: usize, event: CUevent);
    cuGraphEventRecordNodeGetEvent @ 11010 (hNode: CUgraphNode, event_out: *mut CUevent);
    cuGraphEventRecordNodeSetEvent @ 11010 (hNode: CUgraphNode, event: CUevent);
    cuGraphExecEventRecordNodeSetEvent @ 11010 (hGraphExec: CUgraphExec, hNode: CUgraphNode, event: CUevent);
    cuGraphAddEventWaitNode @ 11010 (phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode,
        numDependencies: usize, event: CUevent);
    cuGraphEventWaitNodeGetEvent @ 11010 (hNode: CUgraphNode, event_out: *mut CUevent);
    cuGraphEventWaitNodeSetEvent @ 11010 (hNode: CUgraphNode, event: CUevent);
    cuGraphExecEventWaitNodeSetEvent @ 11010 (hGraphExec: CUgraphExec, hNode: CUgraphNode, event: CUevent);
    cuGraphAddExternalSemaphoresSignalNode @ 11020 (phGraphNode: *mut CUgraphNode, hGraph: CUgraph,
        dependencies: *const CUgraphNode, numDependencies: usize, nodeParams: *const c_void);
    cuGraphExternalSemaphoresSignalNodeGetParams @ 11020 (hNode: CUgraphNode, params_out: *mut c_void);
    cuGraphExternalSemaphoresSignalNodeSetParams @ 11020 (hNode: CUgraphNode, nodeParams: *const c_void);
    cuGraphExecExternalSemaphoresSignalNodeSetParams @ 11020 (hGraphExec: CUgraphExec, hNode: CUgraphNode,
        nodeParams: *const c_void);
    cuGraphAddExternalSemaphoresWaitNode @ 11020 (phGraphNode: *mut CUgraphNode, hGraph: CUgraph,
        dependencies: *const CUgraphNode, numDependencies: usize, nodeParams: *const c_void);
    cuGraphExternalSemaphoresWaitNodeGetParams @ 11020 (hNode: CUgraphNode, params_out: *mut c_void);
    cuGraphExternalSemaphoresWaitNodeSetParams @ 11020 (hNode: CUgraphNode, nodeParams: *const c_void);
    cuGraphExecExternalSemaphoresWaitNodeSetParams @ 11020 (hGraphExec: CUgraphExec, hNode: CUgraphNode,
        nodeParams: *const c_void);
    cuGraphAddMemAllocNode @ 11040 (phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode,
        numDependencies: usize, nodeParams: *mut CUDA_MEM_ALLOC_NODE_PARAMS);
    cuGraphMemAllocNodeGetParams @ 11040 (hNode: CUgraphNode, params_out: *mut CUDA_MEM_ALLOC_NODE_PARAMS);
    cuGraphAddMemFreeNode @ 11040 (phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode,
        numDependencies: usize, dptr: CUdeviceptr);
    cuGraphMemFreeNodeGetParams @ 11040 (hNode: CUgraphNode, dptr_out: *mut CUdeviceptr);
    cuGraphAddNode_v1 = cuGraphAddNode @ 12020 (phGraphNode: *mut CUgraphNode, hGraph: CUgraph,
        dependencies: *const CUgraphNode, numDependencies: usize, nodeParams: *mut CUgraphNodeParams);
    cuGraphAddNode_v2 = cuGraphAddNode @ 12030 (phGraphNode: *mut CUgraphNode, hGraph: CUgraph,
        dependencies: *const CUgraphNode, dependencyData: *const c_void, numDependencies: usize,
        nodeParams: *mut CUgraphNodeParams);
    cuGraphNodeSetParams @ 12020 (hNode: CUgraphNode, nodeParams: *mut CUgraphNodeParams);
    cuGraphExecNodeSetParams @ 12020 (hGraphExec: CUgraphExec, hNode: CUgraphNode, nodeParams: *mut CUgraphNodeParams);

    // The driver calls of CUDA 13.5's new runtime calls; entry points newer than the driver are missing, and the
    // runtime then reports cudaErrorCallRequiresNewerDriver as NVIDIA's 13.5 runtime does.
    cuGraphGetId @ 13010 (hGraph: CUgraph, graphId: *mut c_uint);
    cuGraphExecGetId @ 13010 (hGraphExec: CUgraphExec, graphId: *mut c_uint);
    cuGraphNodeGetContainingGraph @ 13010 (hNode: CUgraphNode, phGraph: *mut CUgraph);
    cuGraphNodeGetLocalId @ 13010 (hNode: CUgraphNode, nodeId: *mut c_uint);
    cuGraphNodeGetToolsId @ 13010 (hNode: CUgraphNode, toolsNodeId: *mut u64);
    cuMemcpyWithAttributesAsync @ 13020 (dst: CUdeviceptr, src: CUdeviceptr, size: usize, attr: *mut CUmemcpyAttributes,
        hStream: CUstream);
    cuMemcpy3DWithAttributesAsync @ 13020 (op: *mut CUDA_MEMCPY3D_BATCH_OP, flags: u64, hStream: CUstream);
    cuMemGetLocationInfo @ 13040 (ptr: CUdeviceptr, size: usize, summaryGranularity: usize, samplingGranularity: usize,
        location_out: *mut CUmemLocation);
    cuKernelGetParamCount @ 13020 (kernel: CUkernel, paramCount: *mut usize);
    cuLaunchHostFunc_v2 = cuLaunchHostFunc @ 13010 (hStream: CUstream, fn_: CUhostFn, userData: *mut c_void,
        syncMode: c_uint);
    cuGraphNodeGetParams @ 13020 (hNode: CUgraphNode, nodeParams: *mut CUgraphNodeParams);
    cuStreamBeginRecaptureToGraph @ 13030 (hStream: CUstream, mode: c_int, hGraph: CUgraph,
        callbackFunc: CUgraphRecaptureCallback, userData: *mut c_void);
    cuDevSmResourceSplit @ 13010 (result: *mut c_void, nbGroups: c_uint, input: *const c_void, remainder: *mut c_void,
        flags: c_uint, groupParams: *mut c_void);

    // Device resources and green contexts (CUDA 12.4 and later drivers); `CUdevResource` is
    // the runtime's `cudaDevResource`, passed through untouched.
    cuDeviceGetDevResource @ 12040 (device: CUdevice, resource: *mut c_void, type_: c_int);
    cuDevSmResourceSplitByCount @ 12040 (result: *mut c_void, nbGroups: *mut c_uint, input: *const c_void,
        remaining: *mut c_void, useFlags: c_uint, minCount: c_uint);
    cuDevResourceGenerateDesc @ 12040 (phDesc: *mut *mut c_void, resources: *mut c_void, nbResources: c_uint);
    cuGreenCtxCreate @ 12040 (phCtx: *mut CUgreenCtx, desc: *mut c_void, dev: CUdevice, flags: c_uint);
    cuCtxFromGreenCtx @ 12040 (pContext: *mut CUcontext, hCtx: CUgreenCtx);
    cuGreenCtxDestroy @ 12040 (hCtx: CUgreenCtx);
    cuCtxGetDevResource @ 12040 (hCtx: CUcontext, resource: *mut c_void, type_: c_int);
    cuGreenCtxGetDevResource @ 12040 (hCtx: CUgreenCtx, resource: *mut c_void, type_: c_int);
    cuCtxGetId @ 12000 (ctx: CUcontext, ctxId: *mut u64);
    cuGreenCtxGetId @ 12090 (greenCtx: CUgreenCtx, greenCtxId: *mut u64);
    cuGreenCtxStreamCreate @ 12050 (phStream: *mut CUstream, greenCtx: CUgreenCtx, flags: c_uint, priority: c_int);
    cuCtxRecordEvent @ 12050 (hCtx: CUcontext, hEvent: CUevent);
    cuCtxWaitEvent @ 12050 (hCtx: CUcontext, hEvent: CUevent);
    cuGreenCtxRecordEvent @ 12040 (hCtx: CUgreenCtx, hEvent: CUevent);
    cuGreenCtxWaitEvent @ 12040 (hCtx: CUgreenCtx, hEvent: CUevent);
    cuCtxSynchronize_v2 = cuCtxSynchronize @ 13000 (ctx: CUcontext);
    cuCtxGetDevice_v2 = cuCtxGetDevice @ 13000 (device: *mut CUdevice, ctx: CUcontext);
}

/// The loaded driver: both tables and the library that backs them.
pub struct Driver {
    /// Entry points with legacy default-stream semantics.
    pub legacy: Fns,
    /// The per-thread default-stream variants (`_ptds`, `_ptsz`).
    pub ptds: Fns,
    /// `cuDriverGetVersion`.
    pub version: c_int,
    _lib: libloading::Library,
}

type GetProcAddressV2 = unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_int, u64, *mut c_int) -> CUresult;
type DriverGetVersion = unsafe extern "C" fn(*mut c_int) -> CUresult;

static DRIVER: OnceLock<Result<Driver, cudaError>> = OnceLock::new();

/// `cuGetExportTable`.
pub type GetExportTable = unsafe extern "C" fn(*mut *const c_void, *const CUuuid) -> CUresult;

/// Told the driver's `cuGetExportTable` once the driver is loaded and `cuInit` succeeded: the
/// tools' tables are looked for there, as NVIDIA's runtime asks for them on its first call.
/// Set when the library is loaded, by the observation layer (`crate::observe::tools::attach`),
/// which this layer does not name.
static ON_LOAD: OnceLock<fn(GetExportTable)> = OnceLock::new();

/// Sets what is told of the loaded driver's export tables (once; before the driver loads).
pub fn on_load(f: fn(GetExportTable)) {
    let _ = ON_LOAD.set(f);
}

/// The driver, loaded and resolved on first use. Fails with
/// `cudaErrorInsufficientDriver` when there is no driver or it is older than this ABI needs.
#[inline]
pub fn get() -> Result<&'static Driver, cudaError> {
    match DRIVER.get() {
        Some(Ok(d)) => Ok(d),
        Some(Err(e)) => Err(*e),
        None => get_first(),
    }
}

/// The first [`get`]: loads the driver under [`initialising`] (out of line, so that `get`
/// stays a load and a branch where it is inlined).
#[cold]
#[inline(never)]
fn get_first() -> Result<&'static Driver, cudaError> {
    match initialising(|| DRIVER.get_or_init(load)) {
        Ok(d) => Ok(d),
        Err(e) => Err(*e),
    }
}

/// Held while the driver's one-time initialisation runs (loading it, here; `cuInit` and the
/// device count, in the runtime): a fork waits for it, so that a forked child never inherits
/// an initialisation half done by a thread it does not have (it would wait for it forever).
static INITIALISING: std::sync::Mutex<()> = std::sync::Mutex::new(());
/// The thread in the initialisation (a fork it makes itself, the driver starting a helper,
/// does not wait for itself).
static INIT_THREAD: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

thread_local! {
    static FORK_HELD: std::cell::RefCell<Option<std::sync::MutexGuard<'static, ()>>> = const { std::cell::RefCell::new(None) };
}

/// The fork handlers are registered when the library is loaded (registered on first use, a
/// fork during their registration would leave the child a `Once` it waits for forever).
#[used]
#[link_section = ".init_array"]
static FORK_HANDLERS: extern "C" fn() = {
    extern "C" fn register() {
        // SAFETY: registering plain C functions to run around a fork.
        unsafe { libc::pthread_atfork(Some(fork_prepare), Some(fork_done), Some(fork_done)) };
    }
    register
};

/// Runs a step of the one-time initialisation under [`INITIALISING`].
pub fn initialising<T>(f: impl FnOnce() -> T) -> T {
    let _g = INITIALISING.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: plain system call.
    INIT_THREAD.store(unsafe { libc::gettid() }, std::sync::atomic::Ordering::Relaxed);
    let r = f();
    INIT_THREAD.store(0, std::sync::atomic::Ordering::Relaxed);
    r
}

extern "C" fn fork_prepare() {
    // SAFETY: plain system call.
    if INIT_THREAD.load(std::sync::atomic::Ordering::Relaxed) == unsafe { libc::gettid() } {
        return;
    }
    let g = INITIALISING.lock().unwrap_or_else(|e| e.into_inner());
    FORK_HELD.with(|h| *h.borrow_mut() = Some(g));
}

extern "C" fn fork_done() {
    drop(FORK_HELD.with(|h| h.borrow_mut().take()));
}

/// The driver version, or 0 when no driver can be loaded.
pub fn version_or_zero() -> c_int {
    get().map_or(0, |d| d.version)
}

fn load() -> Result<Driver, cudaError> {
    // In secure-execution mode the variable is ignored and the loader's own (secure) search
    // finds `libcuda.so.1`.
    load_from(&crate::driver::env::path_var(DRIVER_ENV).unwrap_or_else(|| "libcuda.so.1".into()))
}

fn load_from(path: &std::ffi::OsStr) -> Result<Driver, cudaError> {
    // SAFETY: loading the CUDA driver runs its initialisers, which is what it is for.
    let lib = match unsafe { libloading::Library::new(path) } {
        Ok(l) => l,
        Err(e) => {
            tracing::warn!("cannot load the CUDA driver {:?}: {e}", path);
            return Err(cudaError::cudaErrorInsufficientDriver);
        }
    };
    // SAFETY: symbols of the driver's documented C API, with their documented signatures.
    let (get_proc, get_version) = unsafe {
        let gp = lib.get::<GetProcAddressV2>(b"cuGetProcAddress_v2\0").map(|s| *s);
        let gv = lib.get::<DriverGetVersion>(b"cuDriverGetVersion\0").map(|s| *s);
        match (gp, gv) {
            (Ok(gp), Ok(gv)) => (gp, gv),
            _ => return Err(cudaError::cudaErrorInsufficientDriver),
        }
    };
    let mut version = 0;
    // SAFETY: valid out pointer.
    if unsafe { get_version(&mut version) } != CUDA_SUCCESS || version < MIN_DRIVER_VERSION {
        tracing::warn!("CUDA driver version {version} is older than {MIN_DRIVER_VERSION}");
        return Err(cudaError::cudaErrorInsufficientDriver);
    }
    let resolver = |flags: u64| {
        move |sym: &str, ver: c_int| -> *mut c_void {
            // An entry point newer than the driver is missing: asked for it, the driver would
            // answer with its newest older version of the name (cuLaunchHostFunc at 13010
            // gives a 13.0 driver's three-argument one).
            if ver > version {
                return std::ptr::null_mut();
            }
            let name = CString::new(sym).expect("entry point names have no NUL");
            let mut p: *mut c_void = std::ptr::null_mut();
            let mut status: c_int = 0;
            // SAFETY: valid C string and out pointers.
            let r = unsafe { get_proc(name.as_ptr(), &mut p, ver, flags, &mut status) };
            if r != CUDA_SUCCESS {
                tracing::debug!("driver has no {sym} for CUDA {ver} (flags {flags}): {r}");
                return std::ptr::null_mut();
            }
            p
        }
    };
    let legacy = Fns::resolve(&resolver(CU_GET_PROC_ADDRESS_LEGACY_STREAM));
    let ptds = Fns::resolve(&resolver(CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM));
    // The tools' tables, as NVIDIA's runtime asks for them on its first call: after cuInit (a
    // tool the driver injects at cuInit must find them not yet asked for). A failing cuInit
    // is left for the runtime's initialisation to report.
    if let Some(get) = legacy.cuGetExportTable {
        // SAFETY: the driver's cuInit.
        if unsafe { legacy.cuInit(0) } == CUDA_SUCCESS {
            if let Some(attach) = ON_LOAD.get() {
                attach(get);
            }
        }
    }
    Ok(Driver { legacy, ptds, version, _lib: lib })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_driver_is_insufficient_driver() {
        let r = load_from(std::ffi::OsStr::new("/nonexistent/libcuda.so.1"));
        assert_eq!(r.err(), Some(cudaError::cudaErrorInsufficientDriver));
    }

    #[test]
    fn a_library_without_the_driver_api_is_insufficient_driver() {
        // Any shared library that is not a CUDA driver: libc's math library.
        let r = load_from(std::ffi::OsStr::new("libm.so.6"));
        assert_eq!(r.err(), Some(cudaError::cudaErrorInsufficientDriver));
    }

    #[test]
    fn entry_points_are_listed_once() {
        let mut seen = std::collections::HashSet::new();
        for (sym, ver) in ENTRY_POINTS {
            assert!(seen.insert((*sym, *ver)), "{sym} @ {ver} listed twice");
        }
    }
}
