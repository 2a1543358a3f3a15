//! External memory and semaphore types (NVIDIA's `driver_types.h`).

use std::ffi::{c_int, c_uint, c_ulonglong, c_void};

use super::{cudaChannelFormatDesc, cudaExtent};

/// Opaque external memory: a driver `CUexternalMemory` (whose struct `cuda.h` calls
/// `CUextMemory_st`; the runtime header's name is this one).
pub struct CUexternalMemory_st {
    _private: [u8; 0],
}
/// Opaque external semaphore: a driver `CUexternalSemaphore` (`cuda.h`: `CUextSemaphore_st`).
pub struct CUexternalSemaphore_st {
    _private: [u8; 0],
}

/// CUDA external memory
pub type cudaExternalMemory_t = *mut CUexternalMemory_st;
/// CUDA external semaphore
pub type cudaExternalSemaphore_t = *mut CUexternalSemaphore_st;

/// External memory handle types
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaExternalMemoryHandleType {
    /// Handle is an opaque file descriptor
    cudaExternalMemoryHandleTypeOpaqueFd = 1,
    /// Handle is an opaque shared NT handle
    cudaExternalMemoryHandleTypeOpaqueWin32 = 2,
    /// Handle is an opaque, globally shared handle
    cudaExternalMemoryHandleTypeOpaqueWin32Kmt = 3,
    /// Handle is a D3D12 heap object
    cudaExternalMemoryHandleTypeD3D12Heap = 4,
    /// Handle is a D3D12 committed resource
    cudaExternalMemoryHandleTypeD3D12Resource = 5,
    /// Handle is a shared NT handle to a D3D11 resource
    cudaExternalMemoryHandleTypeD3D11Resource = 6,
    /// Handle is a globally shared handle to a D3D11 resource
    cudaExternalMemoryHandleTypeD3D11ResourceKmt = 7,
    /// Handle is an NvSciBuf object
    cudaExternalMemoryHandleTypeNvSciBuf = 8,
}

/// Indicates that the external memory object is a dedicated resource
pub const cudaExternalMemoryDedicated: c_uint = 0x1;
/// When the flags parameter of ::cudaExternalSemaphoreSignalParams contains this flag, it
/// indicates that signaling an external semaphore object should skip performing appropriate
/// memory synchronization operations over all the external memory objects that are imported
/// as ::cudaExternalMemoryHandleTypeNvSciBuf.
pub const cudaExternalSemaphoreSignalSkipNvSciBufMemSync: c_uint = 0x01;
/// When the flags parameter of ::cudaExternalSemaphoreWaitParams contains this flag, it
/// indicates that waiting an external semaphore object should skip performing appropriate
/// memory synchronization operations over all the external memory objects that are imported
/// as ::cudaExternalMemoryHandleTypeNvSciBuf.
pub const cudaExternalSemaphoreWaitSkipNvSciBufMemSync: c_uint = 0x02;
/// When flags of ::cudaDeviceGetNvSciSyncAttributes is set to this, it indicates that
/// application need signaler specific NvSciSyncAttr to be filled by
/// ::cudaDeviceGetNvSciSyncAttributes.
pub const cudaNvSciSyncAttrSignal: c_uint = 0x1;
/// When flags of ::cudaDeviceGetNvSciSyncAttributes is set to this, it indicates that
/// application need waiter specific NvSciSyncAttr to be filled by
/// ::cudaDeviceGetNvSciSyncAttributes.
pub const cudaNvSciSyncAttrWait: c_uint = 0x2;

/// Win32 handle referencing the memory object (NVIDIA's field has an unnamed type). Exactly
/// one of 'handle' and 'name' must be non-NULL.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaExternalMemoryHandleDescWin32 {
    /// Valid NT handle. Must be NULL if 'name' is non-NULL
    pub handle: *mut c_void,
    /// Name of a valid memory object. Must be NULL if 'handle' is non-NULL.
    pub name: *const c_void,
}

/// The handle of a ::cudaExternalMemoryHandleDesc, by its type (NVIDIA's field has an unnamed
/// type).
#[repr(C)]
#[derive(Copy, Clone)]
pub union cudaExternalMemoryHandleDescHandle {
    /// File descriptor referencing the memory object. Valid when type is
    /// ::cudaExternalMemoryHandleTypeOpaqueFd
    pub fd: c_int,
    /// Win32 handle referencing the semaphore object.
    pub win32: cudaExternalMemoryHandleDescWin32,
    /// A handle representing NvSciBuf Object. Valid when type is
    /// ::cudaExternalMemoryHandleTypeNvSciBuf
    pub nvSciBufObject: *const c_void,
}

/// External memory handle descriptor
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaExternalMemoryHandleDesc {
    /// Type of the handle
    pub r#type: raw::cudaExternalMemoryHandleType,
    pub handle: cudaExternalMemoryHandleDescHandle,
    /// Size of the memory allocation
    pub size: c_ulonglong,
    /// Flags must either be zero or ::cudaExternalMemoryDedicated
    pub flags: c_uint,
    /// Must be zero
    #[cfg(not(feature = "abi12"))]
    pub reserved: [c_uint; 16],
}

/// External memory buffer descriptor
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaExternalMemoryBufferDesc {
    /// Offset into the memory object where the buffer's base is
    pub offset: c_ulonglong,
    /// Size of the buffer
    pub size: c_ulonglong,
    /// Flags reserved for future use. Must be zero.
    pub flags: c_uint,
    /// Must be zero
    #[cfg(not(feature = "abi12"))]
    pub reserved: [c_uint; 16],
}

/// External memory mipmap descriptor
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaExternalMemoryMipmappedArrayDesc {
    /// Offset into the memory object where the base level of the mipmap chain is.
    pub offset: c_ulonglong,
    /// Format of base level of the mipmap chain
    pub formatDesc: cudaChannelFormatDesc,
    /// Dimensions of base level of the mipmap chain
    pub extent: cudaExtent,
    /// Flags associated with CUDA mipmapped arrays. See ::cudaMallocMipmappedArray
    pub flags: c_uint,
    /// Total number of levels in the mipmap chain
    pub numLevels: c_uint,
    /// Must be zero
    #[cfg(not(feature = "abi12"))]
    pub reserved: [c_uint; 16],
}

/// External semaphore handle types
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaExternalSemaphoreHandleType {
    /// Handle is an opaque file descriptor
    cudaExternalSemaphoreHandleTypeOpaqueFd = 1,
    /// Handle is an opaque shared NT handle
    cudaExternalSemaphoreHandleTypeOpaqueWin32 = 2,
    /// Handle is an opaque, globally shared handle
    cudaExternalSemaphoreHandleTypeOpaqueWin32Kmt = 3,
    /// Handle is a shared NT handle referencing a D3D12 fence object
    cudaExternalSemaphoreHandleTypeD3D12Fence = 4,
    /// Handle is a shared NT handle referencing a D3D11 fence object
    cudaExternalSemaphoreHandleTypeD3D11Fence = 5,
    /// Opaque handle to NvSciSync Object
    cudaExternalSemaphoreHandleTypeNvSciSync = 6,
    /// Handle is a shared NT handle referencing a D3D11 keyed mutex object
    cudaExternalSemaphoreHandleTypeKeyedMutex = 7,
    /// Handle is a shared KMT handle referencing a D3D11 keyed mutex object
    cudaExternalSemaphoreHandleTypeKeyedMutexKmt = 8,
    /// Handle is an opaque handle file descriptor referencing a timeline semaphore
    cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd = 9,
    /// Handle is an opaque handle file descriptor referencing a timeline semaphore
    cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32 = 10,
}

/// Win32 handle referencing the semaphore object (NVIDIA's field has an unnamed type).
/// Exactly one of 'handle' and 'name' must be non-NULL.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaExternalSemaphoreHandleDescWin32 {
    /// Valid NT handle. Must be NULL if 'name' is non-NULL
    pub handle: *mut c_void,
    /// Name of a valid synchronization primitive. Must be NULL if 'handle' is non-NULL.
    pub name: *const c_void,
}

/// The handle of a ::cudaExternalSemaphoreHandleDesc, by its type (NVIDIA's field has an
/// unnamed type).
#[repr(C)]
#[derive(Copy, Clone)]
pub union cudaExternalSemaphoreHandleDescHandle {
    /// File descriptor referencing the semaphore object. Valid when type is one of the
    /// following: ::cudaExternalSemaphoreHandleTypeOpaqueFd,
    /// ::cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd
    pub fd: c_int,
    /// Win32 handle referencing the semaphore object.
    pub win32: cudaExternalSemaphoreHandleDescWin32,
    /// Valid NvSciSyncObj. Must be non NULL
    pub nvSciSyncObj: *const c_void,
}

/// External semaphore handle descriptor
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaExternalSemaphoreHandleDesc {
    /// Type of the handle
    pub r#type: raw::cudaExternalSemaphoreHandleType,
    pub handle: cudaExternalSemaphoreHandleDescHandle,
    /// Flags reserved for the future. Must be zero.
    pub flags: c_uint,
    /// Must be zero
    #[cfg(not(feature = "abi12"))]
    pub reserved: [c_uint; 16],
}

/// Parameters for fence objects (NVIDIA's field has an unnamed type).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct cudaExternalSemaphoreSignalParamsFence {
    /// Value of fence to be signaled
    pub value: c_ulonglong,
}

/// NvSciSync fence (NVIDIA's field has an unnamed type).
#[repr(C)]
#[derive(Copy, Clone)]
pub union cudaExternalSemaphoreSignalParamsNvSciSync {
    /// Pointer to NvSciSyncFence. Valid if ::cudaExternalSemaphoreHandleType is of type
    /// ::cudaExternalSemaphoreHandleTypeNvSciSync.
    pub fence: *mut c_void,
    pub reserved: c_ulonglong,
}

/// Parameters for keyed mutex objects (NVIDIA's field has an unnamed type).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct cudaExternalSemaphoreSignalParamsKeyedMutex {
    /// Value of key to release the mutex with
    pub key: c_ulonglong,
}

/// The parameters of a ::cudaExternalSemaphoreSignalParams (NVIDIA's field has an unnamed
/// type).
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaExternalSemaphoreSignalParamsParams {
    /// Parameters for fence objects
    pub fence: cudaExternalSemaphoreSignalParamsFence,
    pub nvSciSync: cudaExternalSemaphoreSignalParamsNvSciSync,
    /// Parameters for keyed mutex objects
    pub keyedMutex: cudaExternalSemaphoreSignalParamsKeyedMutex,
    pub reserved: [c_uint; 12],
}

/// External semaphore signal parameters, compatible with driver type
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaExternalSemaphoreSignalParams {
    pub params: cudaExternalSemaphoreSignalParamsParams,
    /// Only when ::cudaExternalSemaphoreSignalParams is used to signal a
    /// ::cudaExternalSemaphore_t of type ::cudaExternalSemaphoreHandleTypeNvSciSync, the valid
    /// flag is ::cudaExternalSemaphoreSignalSkipNvSciBufMemSync. For all other types of
    /// ::cudaExternalSemaphore_t, flags must be zero.
    pub flags: c_uint,
    pub reserved: [c_uint; 16],
}

/// Parameters for fence objects (NVIDIA's field has an unnamed type).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct cudaExternalSemaphoreWaitParamsFence {
    /// Value of fence to be waited on
    pub value: c_ulonglong,
}

/// NvSciSync fence (NVIDIA's field has an unnamed type).
#[repr(C)]
#[derive(Copy, Clone)]
pub union cudaExternalSemaphoreWaitParamsNvSciSync {
    /// Pointer to NvSciSyncFence. Valid if ::cudaExternalSemaphoreHandleType is of type
    /// ::cudaExternalSemaphoreHandleTypeNvSciSync.
    pub fence: *mut c_void,
    pub reserved: c_ulonglong,
}

/// Parameters for keyed mutex objects (NVIDIA's field has an unnamed type).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct cudaExternalSemaphoreWaitParamsKeyedMutex {
    /// Value of key to acquire the mutex with
    pub key: c_ulonglong,
    /// Timeout in milliseconds to wait to acquire the mutex
    pub timeoutMs: c_uint,
}

/// The parameters of a ::cudaExternalSemaphoreWaitParams (NVIDIA's field has an unnamed type).
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaExternalSemaphoreWaitParamsParams {
    /// Parameters for fence objects
    pub fence: cudaExternalSemaphoreWaitParamsFence,
    pub nvSciSync: cudaExternalSemaphoreWaitParamsNvSciSync,
    /// Parameters for keyed mutex objects
    pub keyedMutex: cudaExternalSemaphoreWaitParamsKeyedMutex,
    pub reserved: [c_uint; 10],
}

/// External semaphore wait parameters, compatible with driver type
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaExternalSemaphoreWaitParams {
    pub params: cudaExternalSemaphoreWaitParamsParams,
    /// Only when ::cudaExternalSemaphoreSignalParams is used to signal a
    /// ::cudaExternalSemaphore_t of type ::cudaExternalSemaphoreHandleTypeNvSciSync, the valid
    /// flag is ::cudaExternalSemaphoreSignalSkipNvSciBufMemSync. For all other types of
    /// ::cudaExternalSemaphore_t, flags must be zero.
    pub flags: c_uint,
    pub reserved: [c_uint; 16],
}

/// The parameters of a ::cudaExternalSemaphoreSignalParams_v1 (NVIDIA's field has an unnamed
/// type).
#[cfg(feature = "abi12")]
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaExternalSemaphoreSignalParams_v1Params {
    /// Parameters for fence objects
    pub fence: cudaExternalSemaphoreSignalParamsFence,
    pub nvSciSync: cudaExternalSemaphoreSignalParamsNvSciSync,
    /// Parameters for keyed mutex objects
    pub keyedMutex: cudaExternalSemaphoreSignalParamsKeyedMutex,
}

/// External semaphore signal parameters(deprecated)
#[cfg(feature = "abi12")]
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaExternalSemaphoreSignalParams_v1 {
    pub params: cudaExternalSemaphoreSignalParams_v1Params,
    /// Only when ::cudaExternalSemaphoreSignalParams is used to signal a
    /// ::cudaExternalSemaphore_t of type ::cudaExternalSemaphoreHandleTypeNvSciSync, the valid
    /// flag is ::cudaExternalSemaphoreSignalSkipNvSciBufMemSync. For all other types of
    /// ::cudaExternalSemaphore_t, flags must be zero.
    pub flags: c_uint,
}

/// The parameters of a ::cudaExternalSemaphoreWaitParams_v1 (NVIDIA's field has an unnamed
/// type).
#[cfg(feature = "abi12")]
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaExternalSemaphoreWaitParams_v1Params {
    /// Parameters for fence objects
    pub fence: cudaExternalSemaphoreWaitParamsFence,
    pub nvSciSync: cudaExternalSemaphoreWaitParamsNvSciSync,
    /// Parameters for keyed mutex objects
    pub keyedMutex: cudaExternalSemaphoreWaitParamsKeyedMutex,
}

/// External semaphore wait parameters(deprecated)
#[cfg(feature = "abi12")]
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaExternalSemaphoreWaitParams_v1 {
    pub params: cudaExternalSemaphoreWaitParams_v1Params,
    /// Only when ::cudaExternalSemaphoreSignalParams is used to signal a
    /// ::cudaExternalSemaphore_t of type ::cudaExternalSemaphoreHandleTypeNvSciSync, the valid
    /// flag is ::cudaExternalSemaphoreSignalSkipNvSciBufMemSync. For all other types of
    /// ::cudaExternalSemaphore_t, flags must be zero.
    pub flags: c_uint,
}

const _: () = {
    use std::mem::size_of;
    assert!(size_of::<cudaExternalSemaphoreSignalParams>() == 144);
    assert!(size_of::<cudaExternalSemaphoreWaitParams>() == 144);
    #[cfg(not(feature = "abi12"))]
    assert!(size_of::<cudaExternalMemoryHandleDesc>() == 104);
    #[cfg(feature = "abi12")]
    assert!(size_of::<cudaExternalMemoryHandleDesc>() == 40);
};

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(cudaExternalMemoryHandleType, cudaExternalSemaphoreHandleType);
}
