//! Driver API types, as `cuda.h` declares them. Internal: none of these appear in the
//! runtime header (the module is skipped by cbindgen). The stand-in driver (`standin/`)
//! shares this file; each crate provides the opaque handle structs in `super::handles`.
#![allow(non_camel_case_types, non_snake_case, dead_code)]

use std::ffi::{c_int, c_uint, c_void};

pub type CUresult = c_int;
pub type CUdevice = c_int;
pub type CUdeviceptr = u64;
pub type CUdevice_attribute = c_int;
pub type CUpointer_attribute = c_int;
pub type CUmem_advise = c_int;
pub type CUmem_range_attribute = c_int;
pub type CUmemorytype = c_int;
pub type CUarray_format = c_int;
pub type CUmemLocationType = c_int;
pub type CUfunction_attribute = c_int;
pub type CUfunc_cache = c_int;
pub type CUjit_option = c_int;
pub type CUlibraryOption = c_int;

macro_rules! opaque {
    ($($name:ident = $st:ident;)*) => {$(
        #[repr(C)]
        pub struct $st { _private: [u8; 0] }
        pub type $name = *mut $st;
    )*};
}
opaque! {
    CUcontext = CUctx_st;
    CUarray = CUarray_st;
    CUmipmappedArray = CUmipmappedArray_st;
    CUmodule = CUmod_st;
    CUgreenCtx = CUgreenCtx_st;
}

pub use super::handles::{
    CUevent_st, CUexternalMemory_st, CUexternalSemaphore_st, CUfunc_st, CUgraphDeviceUpdatableNode_st, CUgraphExec_st,
    CUgraphNode_st, CUgraph_st, CUkern_st, CUlib_st, CUlogsCallbackEntry_st, CUmemPoolHandle_st, CUstream_st,
    CUuserObject_st,
};
pub type CUstream = *mut CUstream_st;
pub type CUevent = *mut CUevent_st;
pub type CUfunction = *mut CUfunc_st;
pub type CUlibrary = *mut CUlib_st;
pub type CUkernel = *mut CUkern_st;
pub type CUgraph = *mut CUgraph_st;
pub type CUgraphNode = *mut CUgraphNode_st;
pub type CUgraphExec = *mut CUgraphExec_st;
pub type CUuserObject = *mut CUuserObject_st;
pub type CUgraphDeviceNode = *mut CUgraphDeviceUpdatableNode_st;
pub type CUlogsCallbackHandle = *mut CUlogsCallbackEntry_st;
pub type CUmemoryPool = *mut CUmemPoolHandle_st;
/// `cuda.h`'s struct is `CUextMemory_st`; the runtime's handle is the same pointer.
pub type CUexternalMemory = *mut CUexternalMemory_st;
/// `cuda.h`'s struct is `CUextSemaphore_st`; the runtime's handle is the same pointer.
pub type CUexternalSemaphore = *mut CUexternalSemaphore_st;

pub type CUhostFn = Option<unsafe extern "C" fn(userData: *mut c_void)>;
/// `CUgraphRecaptureCallback`: called by the driver for each node whose parameters differ
/// while a stream recaptures into an existing graph.
pub type CUgraphRecaptureCallback = Option<
    unsafe extern "C" fn(
        data: *mut c_void,
        node: CUgraphNode,
        originalParams: *const CUgraphNodeParams,
        recaptureParams: *const CUgraphNodeParams,
        status: c_int,
    ) -> CUresult,
>;

pub const CUDA_SUCCESS: CUresult = 0;
pub const CUDA_ERROR_INVALID_VALUE: CUresult = 1;
pub const CUDA_ERROR_OUT_OF_MEMORY: CUresult = 2;
pub const CUDA_ERROR_NOT_INITIALIZED: CUresult = 3;
pub const CUDA_ERROR_DEINITIALIZED: CUresult = 4;
pub const CUDA_ERROR_STUB_LIBRARY: CUresult = 34;
pub const CUDA_ERROR_NO_DEVICE: CUresult = 100;
pub const CUDA_ERROR_INVALID_DEVICE: CUresult = 101;
pub const CUDA_ERROR_INVALID_CONTEXT: CUresult = 201;
pub const CUDA_ERROR_INVALID_HANDLE: CUresult = 400;
pub const CUDA_ERROR_NOT_FOUND: CUresult = 500;
pub const CUDA_ERROR_NOT_READY: CUresult = 600;
pub const CUDA_ERROR_CONTEXT_IS_DESTROYED: CUresult = 709;
pub const CUDA_ERROR_NOT_SUPPORTED: CUresult = 801;
pub const CUDA_ERROR_UNKNOWN: CUresult = 999;

pub const CU_STREAM_LEGACY: CUstream = 1 as CUstream;
pub const CU_STREAM_PER_THREAD: CUstream = 2 as CUstream;
pub const CU_GET_PROC_ADDRESS_DEFAULT: u64 = 0;
pub const CU_GET_PROC_ADDRESS_LEGACY_STREAM: u64 = 1;
pub const CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM: u64 = 2;

pub const CU_MEMORYTYPE_HOST: CUmemorytype = 1;
pub const CU_MEMORYTYPE_DEVICE: CUmemorytype = 2;
pub const CU_MEMORYTYPE_ARRAY: CUmemorytype = 3;
pub const CU_MEMORYTYPE_UNIFIED: CUmemorytype = 4;

pub const CU_POINTER_ATTRIBUTE_CONTEXT: CUpointer_attribute = 1;
pub const CU_POINTER_ATTRIBUTE_MEMORY_TYPE: CUpointer_attribute = 2;
pub const CU_POINTER_ATTRIBUTE_DEVICE_POINTER: CUpointer_attribute = 3;
pub const CU_POINTER_ATTRIBUTE_HOST_POINTER: CUpointer_attribute = 4;
pub const CU_POINTER_ATTRIBUTE_IS_MANAGED: CUpointer_attribute = 8;
pub const CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: CUpointer_attribute = 9;
pub const CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: CUpointer_attribute = 11;
pub const CU_POINTER_ATTRIBUTE_RANGE_SIZE: CUpointer_attribute = 12;
pub const CU_POINTER_ATTRIBUTE_MAPPED: CUpointer_attribute = 13;

pub const CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: CUdevice_attribute = 41;
pub const CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: CUdevice_attribute = 83;
pub const CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS: CUdevice_attribute = 89;

pub const CU_MEM_LOCATION_TYPE_INVALID: CUmemLocationType = 0;
pub const CU_MEM_LOCATION_TYPE_DEVICE: CUmemLocationType = 1;
pub const CU_MEM_LOCATION_TYPE_HOST: CUmemLocationType = 2;
pub const CU_MEM_LOCATION_TYPE_HOST_NUMA: CUmemLocationType = 3;
pub const CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT: CUmemLocationType = 4;

pub const CU_CTX_MAP_HOST: c_uint = 0x08;

#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CUmemLocation {
    pub type_: CUmemLocationType,
    pub id: c_int,
}

#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct CUuuid {
    pub bytes: [u8; 16],
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_MEMCPY2D {
    pub srcXInBytes: usize,
    pub srcY: usize,
    pub srcMemoryType: CUmemorytype,
    pub srcHost: *const c_void,
    pub srcDevice: CUdeviceptr,
    pub srcArray: CUarray,
    pub srcPitch: usize,
    pub dstXInBytes: usize,
    pub dstY: usize,
    pub dstMemoryType: CUmemorytype,
    pub dstHost: *mut c_void,
    pub dstDevice: CUdeviceptr,
    pub dstArray: CUarray,
    pub dstPitch: usize,
    pub WidthInBytes: usize,
    pub Height: usize,
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_MEMCPY3D {
    pub srcXInBytes: usize,
    pub srcY: usize,
    pub srcZ: usize,
    pub srcLOD: usize,
    pub srcMemoryType: CUmemorytype,
    pub srcHost: *const c_void,
    pub srcDevice: CUdeviceptr,
    pub srcArray: CUarray,
    pub reserved0: *mut c_void,
    pub srcPitch: usize,
    pub srcHeight: usize,
    pub dstXInBytes: usize,
    pub dstY: usize,
    pub dstZ: usize,
    pub dstLOD: usize,
    pub dstMemoryType: CUmemorytype,
    pub dstHost: *mut c_void,
    pub dstDevice: CUdeviceptr,
    pub dstArray: CUarray,
    pub reserved1: *mut c_void,
    pub dstPitch: usize,
    pub dstHeight: usize,
    pub WidthInBytes: usize,
    pub Height: usize,
    pub Depth: usize,
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_MEMCPY3D_PEER {
    pub srcXInBytes: usize,
    pub srcY: usize,
    pub srcZ: usize,
    pub srcLOD: usize,
    pub srcMemoryType: CUmemorytype,
    pub srcHost: *const c_void,
    pub srcDevice: CUdeviceptr,
    pub srcArray: CUarray,
    pub srcContext: CUcontext,
    pub srcPitch: usize,
    pub srcHeight: usize,
    pub dstXInBytes: usize,
    pub dstY: usize,
    pub dstZ: usize,
    pub dstLOD: usize,
    pub dstMemoryType: CUmemorytype,
    pub dstHost: *mut c_void,
    pub dstDevice: CUdeviceptr,
    pub dstArray: CUarray,
    pub dstContext: CUcontext,
    pub dstPitch: usize,
    pub dstHeight: usize,
    pub WidthInBytes: usize,
    pub Height: usize,
    pub Depth: usize,
}

macro_rules! zeroed_default {
    ($($t:ty),*) => {$(
        impl Default for $t {
            fn default() -> Self {
                // SAFETY: plain C struct of integers and raw pointers; all-zero is valid.
                unsafe { std::mem::zeroed() }
            }
        }
    )*};
}
zeroed_default!(
    CUDA_MEMCPY2D,
    CUDA_MEMCPY3D,
    CUDA_MEMCPY3D_PEER,
    CUDA_ARRAY_DESCRIPTOR,
    CUDA_ARRAY3D_DESCRIPTOR,
    CUDA_ARRAY_SPARSE_PROPERTIES,
    CUDA_ARRAY_MEMORY_REQUIREMENTS,
    CUlaunchConfig
);

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_ARRAY_DESCRIPTOR {
    pub Width: usize,
    pub Height: usize,
    pub Format: CUarray_format,
    pub NumChannels: c_uint,
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_ARRAY3D_DESCRIPTOR {
    pub Width: usize,
    pub Height: usize,
    pub Depth: usize,
    pub Format: CUarray_format,
    pub NumChannels: c_uint,
    pub Flags: c_uint,
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_ARRAY_SPARSE_PROPERTIES {
    pub tileExtent_width: c_uint,
    pub tileExtent_height: c_uint,
    pub tileExtent_depth: c_uint,
    pub miptailFirstLevel: c_uint,
    pub miptailSize: u64,
    pub flags: c_uint,
    pub reserved: [c_uint; 4],
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_ARRAY_MEMORY_REQUIREMENTS {
    pub size: usize,
    pub alignment: usize,
    pub reserved: [c_uint; 4],
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUlaunchConfig {
    pub gridDimX: c_uint,
    pub gridDimY: c_uint,
    pub gridDimZ: c_uint,
    pub blockDimX: c_uint,
    pub blockDimY: c_uint,
    pub blockDimZ: c_uint,
    pub sharedMemBytes: c_uint,
    pub hStream: CUstream,
    pub attrs: *mut c_void,
    pub numAttrs: c_uint,
}

// Device, IPC, stream and event extras.

pub type CUlimit = c_int;
pub type CUsharedconfig = c_int;
pub type CUdevice_P2PAttribute = c_int;
pub type CUatomicOperation = c_int;
pub type CUflushGPUDirectRDMAWritesTarget = c_int;
pub type CUflushGPUDirectRDMAWritesScope = c_int;

pub const CUDA_ERROR_UNSUPPORTED_LIMIT: CUresult = 215;

opaque! {
    CUasyncCallbackHandle = CUasyncCallbackEntry_st;
}

/// `CUasyncNotificationInfo`: its layout is the runtime's `cudaAsyncNotificationInfo_t`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUasyncNotificationInfo {
    pub type_: c_int,
    pub bytesOverBudget: u64,
}

pub type CUasyncCallback = Option<
    unsafe extern "C" fn(info: *mut CUasyncNotificationInfo, userData: *mut c_void, callback: CUasyncCallbackHandle),
>;

pub type CUstreamCallback = Option<unsafe extern "C" fn(hStream: CUstream, status: CUresult, userData: *mut c_void)>;

pub const CU_IPC_HANDLE_SIZE: usize = 64;

#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CUipcEventHandle {
    pub reserved: [u8; CU_IPC_HANDLE_SIZE],
}

#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CUipcMemHandle {
    pub reserved: [u8; CU_IPC_HANDLE_SIZE],
}

// ---- Memory pools, stream-ordered allocation, batched memory operations ----------------

pub type CUmemPool_attribute = c_int;
pub type CUmemAccess_flags = c_int;
pub type CUmemAllocationType = c_int;
pub type CUmemAllocationHandleType = c_int;
pub type CUmemcpySrcAccessOrder = c_int;
pub type CUmemcpy3DOperandType = c_int;

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUmemPoolProps {
    pub allocType: CUmemAllocationType,
    pub handleTypes: CUmemAllocationHandleType,
    pub location: CUmemLocation,
    pub win32SecurityAttributes: *mut c_void,
    pub maxSize: usize,
    pub usage: u16,
    pub reserved: [u8; 54],
}

#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CUmemAccessDesc {
    pub location: CUmemLocation,
    pub flags: CUmemAccess_flags,
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUmemPoolPtrExportData {
    pub reserved: [u8; 64],
}

#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct CUmemcpyAttributes {
    pub srcAccessOrder: CUmemcpySrcAccessOrder,
    pub srcLocHint: CUmemLocation,
    pub dstLocHint: CUmemLocation,
    pub flags: c_uint,
}

#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct CUoffset3D {
    pub x: usize,
    pub y: usize,
    pub z: usize,
}

#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct CUextent3D {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
}

/// `CUmemcpy3DOperand::op::ptr` (an unnamed struct in `cuda.h`).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUmemcpy3DOperandPtr {
    pub ptr: CUdeviceptr,
    pub rowLength: usize,
    pub layerHeight: usize,
    pub locHint: CUmemLocation,
}

/// `CUmemcpy3DOperand::op::array` (an unnamed struct in `cuda.h`).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUmemcpy3DOperandArray {
    pub array: CUarray,
    pub offset: CUoffset3D,
}

/// `CUmemcpy3DOperand::op` (an unnamed union in `cuda.h`).
#[repr(C)]
#[derive(Copy, Clone)]
pub union CUmemcpy3DOperandOp {
    pub ptr: CUmemcpy3DOperandPtr,
    pub array: CUmemcpy3DOperandArray,
}

#[repr(C)]
#[derive(Copy, Clone)]
pub struct CUmemcpy3DOperand {
    pub type_: CUmemcpy3DOperandType,
    pub op: CUmemcpy3DOperandOp,
}

#[repr(C)]
#[derive(Copy, Clone)]
pub struct CUDA_MEMCPY3D_BATCH_OP {
    pub src: CUmemcpy3DOperand,
    pub dst: CUmemcpy3DOperand,
    pub extent: CUextent3D,
    pub srcAccessOrder: CUmemcpySrcAccessOrder,
    pub flags: c_uint,
}

const _: () = {
    use std::mem::size_of;
    assert!(size_of::<CUmemPoolProps>() == 88);
    assert!(size_of::<CUmemAccessDesc>() == 12);
    assert!(size_of::<CUmemPoolPtrExportData>() == 64);
    assert!(size_of::<CUmemcpyAttributes>() == 24);
    assert!(size_of::<CUmemcpy3DOperand>() == 40);
    assert!(size_of::<CUDA_MEMCPY3D_BATCH_OP>() == 112);
};
// Launch, occupancy, stream attributes, entry points and logs.

/// `CUlaunchAttributeID`. A launch attribute and its value (`CUlaunchAttribute`,
/// `CUlaunchAttributeValue`) have the runtime's layout and ids: the runtime's are passed on as
/// they are.
pub type CUlaunchAttributeID = c_int;
/// `CUlogIterator`.
pub type CUlogIterator = c_uint;
/// `CUlogLevel`.
pub type CUlogLevel = c_int;
/// `CUlogsCallback`: the runtime's `cudaLogsCallback_t` has the same parameters.
pub type CUlogsCallback = Option<
    unsafe extern "C" fn(data: *mut c_void, logLevel: CUlogLevel, message: *mut std::ffi::c_char, length: usize),
>;

/// `CUjit_option` values for host variables.
pub const CU_JIT_GLOBAL_SYMBOL_NAMES: CUjit_option = 17;
pub const CU_JIT_GLOBAL_SYMBOL_ADDRESSES: CUjit_option = 18;
pub const CU_JIT_GLOBAL_SYMBOL_COUNT: CUjit_option = 19;
/// `CUjitInputType`.
pub type CUjitInputType = c_int;
pub const CU_JIT_INPUT_CUBIN: CUjitInputType = 0;
pub const CU_JIT_INPUT_PTX: CUjitInputType = 1;
pub const CU_JIT_INPUT_FATBINARY: CUjitInputType = 2;

opaque! {
    CUlinkState = CUlinkState_st;
}

/// `CUlibraryOption`: the host table of a unified function and data window.
pub const CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE: CUlibraryOption = 0;

/// One launch of `cuLaunchCooperativeKernelMultiDevice`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_LAUNCH_PARAMS {
    pub function: CUfunction,
    pub gridDimX: c_uint,
    pub gridDimY: c_uint,
    pub gridDimZ: c_uint,
    pub blockDimX: c_uint,
    pub blockDimY: c_uint,
    pub blockDimZ: c_uint,
    pub sharedMemBytes: c_uint,
    pub hStream: CUstream,
    pub kernelParams: *mut *mut c_void,
}

const _: () = assert!(std::mem::size_of::<CUDA_LAUNCH_PARAMS>() == 56);

// ---- Texture and surface objects (src/api/texture.rs) ----------------------------------

pub type CUtexObject = u64;
pub type CUsurfObject = u64;
pub type CUresourcetype = c_int;
pub const CU_RESOURCE_TYPE_ARRAY: CUresourcetype = 0;
pub const CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: CUresourcetype = 1;
pub const CU_RESOURCE_TYPE_LINEAR: CUresourcetype = 2;
pub const CU_RESOURCE_TYPE_PITCH2D: CUresourcetype = 3;

/// `CUDA_TEXTURE_DESC::flags`.
pub const CU_TRSF_READ_AS_INTEGER: c_uint = 0x01;
pub const CU_TRSF_NORMALIZED_COORDINATES: c_uint = 0x02;
pub const CU_TRSF_SRGB: c_uint = 0x10;
pub const CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION: c_uint = 0x20;
pub const CU_TRSF_SEAMLESS_CUBEMAP: c_uint = 0x40;

/// The `linear` member of `CUDA_RESOURCE_DESC::res`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_RESOURCE_DESC_linear {
    pub devPtr: CUdeviceptr,
    pub format: CUarray_format,
    pub numChannels: c_uint,
    pub sizeInBytes: usize,
}

/// The `pitch2D` member of `CUDA_RESOURCE_DESC::res`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_RESOURCE_DESC_pitch2D {
    pub devPtr: CUdeviceptr,
    pub format: CUarray_format,
    pub numChannels: c_uint,
    pub width: usize,
    pub height: usize,
    pub pitchInBytes: usize,
}

/// `CUDA_RESOURCE_DESC::res`, by `resType`.
#[repr(C)]
#[derive(Copy, Clone)]
pub union CUDA_RESOURCE_DESC_res {
    pub hArray: CUarray,
    pub hMipmappedArray: CUmipmappedArray,
    pub linear: CUDA_RESOURCE_DESC_linear,
    pub pitch2D: CUDA_RESOURCE_DESC_pitch2D,
    pub reserved: [c_int; 32],
}

#[repr(C)]
#[derive(Copy, Clone)]
pub struct CUDA_RESOURCE_DESC {
    pub resType: CUresourcetype,
    pub res: CUDA_RESOURCE_DESC_res,
    pub flags: c_uint,
}

impl Default for CUDA_RESOURCE_DESC {
    fn default() -> Self {
        CUDA_RESOURCE_DESC { resType: 0, res: CUDA_RESOURCE_DESC_res { reserved: [0; 32] }, flags: 0 }
    }
}

#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct CUDA_TEXTURE_DESC {
    pub addressMode: [c_int; 3],
    pub filterMode: c_int,
    pub flags: c_uint,
    pub maxAnisotropy: c_uint,
    pub mipmapFilterMode: c_int,
    pub mipmapLevelBias: f32,
    pub minMipmapLevelClamp: f32,
    pub maxMipmapLevelClamp: f32,
    pub borderColor: [f32; 4],
    pub reserved: [c_int; 12],
}

#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CUDA_RESOURCE_VIEW_DESC {
    pub format: c_int,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub firstMipmapLevel: c_uint,
    pub lastMipmapLevel: c_uint,
    pub firstLayer: c_uint,
    pub lastLayer: c_uint,
    pub reserved: [c_uint; 16],
}

const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<CUDA_RESOURCE_DESC>() == 144 && offset_of!(CUDA_RESOURCE_DESC, flags) == 136);
    assert!(size_of::<CUDA_TEXTURE_DESC>() == 104 && offset_of!(CUDA_TEXTURE_DESC, borderColor) == 40);
    assert!(size_of::<CUDA_RESOURCE_VIEW_DESC>() == 112);
};

// ---- graph nodes ----------------------------------------------------------------------

pub type CUgraphNodeType = c_int;
pub type CUgraphConditionalHandle = u64;
pub type CUkernelNodeAttrID = c_int;

/// `CUDA_KERNEL_NODE_PARAMS_v2` (and `_v3`, the same fields): the kernel is `func`, or
/// `kern` in context `ctx` (NULL: the current one) when `func` is NULL.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_KERNEL_NODE_PARAMS {
    pub func: CUfunction,
    pub gridDimX: c_uint,
    pub gridDimY: c_uint,
    pub gridDimZ: c_uint,
    pub blockDimX: c_uint,
    pub blockDimY: c_uint,
    pub blockDimZ: c_uint,
    pub sharedMemBytes: c_uint,
    pub kernelParams: *mut *mut c_void,
    pub extra: *mut *mut c_void,
    pub kern: CUkernel,
    pub ctx: CUcontext,
}

/// `CUDA_MEMSET_NODE_PARAMS` (`_v1`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct CUDA_MEMSET_NODE_PARAMS {
    pub dst: CUdeviceptr,
    pub pitch: usize,
    pub value: c_uint,
    pub elementSize: c_uint,
    pub width: usize,
    pub height: usize,
}

/// `CUDA_MEMSET_NODE_PARAMS_v2`: with the context the node runs in.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_MEMSET_NODE_PARAMS_v2 {
    pub dst: CUdeviceptr,
    pub pitch: usize,
    pub value: c_uint,
    pub elementSize: c_uint,
    pub width: usize,
    pub height: usize,
    pub ctx: CUcontext,
}

/// `CUDA_HOST_NODE_PARAMS`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_HOST_NODE_PARAMS {
    pub fn_: CUhostFn,
    pub userData: *mut c_void,
}

/// `CUDA_MEMCPY_NODE_PARAMS`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_MEMCPY_NODE_PARAMS {
    pub flags: c_int,
    pub reserved: c_int,
    pub copyCtx: CUcontext,
    pub copyParams: CUDA_MEMCPY3D,
}

/// `CUDA_CONDITIONAL_NODE_PARAMS`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_CONDITIONAL_NODE_PARAMS {
    pub handle: CUgraphConditionalHandle,
    pub type_: c_int,
    pub size: c_uint,
    pub phGraph_out: *mut CUgraph,
    pub ctx: CUcontext,
}

/// `CUDA_MEM_ALLOC_NODE_PARAMS` (`_v1`; `_v2` has the same fields).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_MEM_ALLOC_NODE_PARAMS {
    pub poolProps: CUmemPoolProps,
    pub accessDescs: *const CUmemAccessDesc,
    pub accessDescCount: usize,
    pub bytesize: usize,
    pub dptr: CUdeviceptr,
}

/// The union of `CUgraphNodeParams`, with the members the runtime converts; the others are
/// the same bytes as the runtime's (`reserved1`).
#[repr(C)]
#[derive(Copy, Clone)]
pub union CUgraphNodeParamsUnion {
    pub reserved1: [i64; 29],
    pub kernel: CUDA_KERNEL_NODE_PARAMS,
    pub memcpy: CUDA_MEMCPY_NODE_PARAMS,
    pub memset: CUDA_MEMSET_NODE_PARAMS_v2,
    pub host: CUDA_HOST_NODE_PARAMS,
    pub alloc: CUDA_MEM_ALLOC_NODE_PARAMS,
    pub conditional: CUDA_CONDITIONAL_NODE_PARAMS,
}

/// `CUgraphNodeParams`.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct CUgraphNodeParams {
    pub type_: CUgraphNodeType,
    pub reserved0: [c_int; 3],
    pub u: CUgraphNodeParamsUnion,
    pub reserved2: i64,
}

zeroed_default!(
    CUDA_KERNEL_NODE_PARAMS,
    CUDA_MEMSET_NODE_PARAMS_v2,
    CUDA_HOST_NODE_PARAMS,
    CUDA_MEM_ALLOC_NODE_PARAMS,
    CUgraphNodeParams
);

const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<CUDA_KERNEL_NODE_PARAMS>() == 72);
    assert!(size_of::<CUDA_MEMSET_NODE_PARAMS>() == 40);
    assert!(size_of::<CUDA_MEMSET_NODE_PARAMS_v2>() == 48);
    assert!(size_of::<CUDA_MEMCPY_NODE_PARAMS>() == 16 + size_of::<CUDA_MEMCPY3D>());
    assert!(size_of::<CUDA_CONDITIONAL_NODE_PARAMS>() == 32);
    assert!(size_of::<CUDA_MEM_ALLOC_NODE_PARAMS>() == 120);
    assert!(size_of::<CUgraphNodeParamsUnion>() == 232);
    assert!(size_of::<CUgraphNodeParams>() == 256);
    assert!(offset_of!(CUgraphNodeParams, u) == 16 && offset_of!(CUgraphNodeParams, reserved2) == 248);
};

// ---- External memory and semaphores, graphics interoperability ---------------------------

opaque! {
    CUgraphicsResource = CUgraphicsResource_st;
    CUeglStreamConnection = CUeglStreamConnection_st;
}

/// The handle union of `CUDA_EXTERNAL_MEMORY_HANDLE_DESC` and
/// `CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC` (an unnamed union in `cuda.h`): a file descriptor, a
/// Win32 handle and name, or an NvSci object.
#[repr(C)]
#[derive(Copy, Clone)]
pub union CUexternalHandle {
    pub fd: c_int,
    pub win32: [*const c_void; 2],
    pub nvSciObject: *const c_void,
}

#[repr(C)]
#[derive(Copy, Clone)]
pub struct CUDA_EXTERNAL_MEMORY_HANDLE_DESC {
    pub type_: c_int,
    pub handle: CUexternalHandle,
    pub size: u64,
    pub flags: c_uint,
    pub reserved: [c_uint; 16],
}

#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct CUDA_EXTERNAL_MEMORY_BUFFER_DESC {
    pub offset: u64,
    pub size: u64,
    pub flags: c_uint,
    pub reserved: [c_uint; 16],
}

#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC {
    pub offset: u64,
    pub arrayDesc: CUDA_ARRAY3D_DESCRIPTOR,
    pub numLevels: c_uint,
    pub reserved: [c_uint; 16],
}

#[repr(C)]
#[derive(Copy, Clone)]
pub struct CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC {
    pub type_: c_int,
    pub handle: CUexternalHandle,
    pub flags: c_uint,
    pub reserved: [c_uint; 16],
}

/// `CUeglFrame`: the first plane's geometry and format, the planes as arrays or pointers.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUeglFrame {
    /// `frame.pArray` (`CUarray`) or `frame.pPitch` (`void *`), by `frameType`.
    pub frame: [*mut c_void; 3],
    pub width: c_uint,
    pub height: c_uint,
    pub depth: c_uint,
    pub pitch: c_uint,
    pub planeCount: c_uint,
    pub numChannels: c_uint,
    pub frameType: c_int,
    pub eglColorFormat: c_int,
    pub cuFormat: CUarray_format,
}

zeroed_default!(
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC,
    CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC,
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC,
    CUeglFrame
);

pub const CU_EGL_FRAME_TYPE_ARRAY: c_int = 0;
pub const CU_EGL_FRAME_TYPE_PITCH: c_int = 1;

const _: () = {
    use std::mem::size_of;
    assert!(size_of::<CUDA_EXTERNAL_MEMORY_HANDLE_DESC>() == 104);
    assert!(size_of::<CUDA_EXTERNAL_MEMORY_BUFFER_DESC>() == 88);
    assert!(size_of::<CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC>() == 120);
    assert!(size_of::<CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC>() == 96);
    assert!(size_of::<CUeglFrame>() == 64);
};
