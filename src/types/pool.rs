//! Memory pool and stream-ordered allocation types (NVIDIA's `driver_types.h`).

use std::ffi::{c_char, c_uchar, c_uint, c_ushort, c_void};

use super::cudaMemLocation;

/// Opaque memory pool: a driver `CUmemoryPool`.
pub struct CUmemPoolHandle_st {
    _private: [u8; 0],
}

/// CUDA memory pool
pub type cudaMemPool_t = *mut CUmemPoolHandle_st;

/// CUDA memory pool attributes
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaMemPoolAttr {
    /// (value type = int) Allow cuMemAllocAsync to use memory asynchronously freed in another
    /// streams as long as a stream ordering dependency of the allocating stream on the free
    /// action exists. Cuda events and null stream interactions can create the required stream
    /// ordered dependencies. (default enabled)
    cudaMemPoolReuseFollowEventDependencies = 0x1,
    /// (value type = int) Allow reuse of already completed frees when there is no dependency
    /// between the free and allocation. (default enabled)
    cudaMemPoolReuseAllowOpportunistic = 0x2,
    /// (value type = int) Allow cuMemAllocAsync to insert new stream dependencies in order to
    /// establish the stream ordering required to reuse a piece of memory released by
    /// cuFreeAsync (default enabled).
    cudaMemPoolReuseAllowInternalDependencies = 0x3,
    /// (value type = cuuint64_t) Amount of reserved memory in bytes to hold onto before trying
    /// to release memory back to the OS. When more than the release threshold bytes of memory
    /// are held by the memory pool, the allocator will try to release memory back to the OS on
    /// the next call to stream, event or context synchronize. (default 0)
    cudaMemPoolAttrReleaseThreshold = 0x4,
    /// (value type = cuuint64_t) Amount of backing memory currently allocated for the mempool.
    cudaMemPoolAttrReservedMemCurrent = 0x5,
    /// (value type = cuuint64_t) High watermark of backing memory allocated for the mempool
    /// since the last time it was reset. High watermark can only be reset to zero.
    cudaMemPoolAttrReservedMemHigh = 0x6,
    /// (value type = cuuint64_t) Amount of memory from the pool that is currently in use by the
    /// application.
    cudaMemPoolAttrUsedMemCurrent = 0x7,
    /// (value type = cuuint64_t) High watermark of the amount of memory from the pool that was
    /// in use by the application since the last time it was reset. High watermark can only be
    /// reset to zero.
    cudaMemPoolAttrUsedMemHigh = 0x8,
    /// (value type = cudaMemAllocationType) The allocation type of the pool
    #[cfg(not(feature = "abi12"))]
    cudaMemPoolAttrAllocationType = 0x9,
    /// (value type = cudaMemAllocationHandleType) The handle types the pool exports
    #[cfg(not(feature = "abi12"))]
    cudaMemPoolAttrExportHandleTypes = 0xA,
    /// (value type = int) The location id of the pool
    #[cfg(not(feature = "abi12"))]
    cudaMemPoolAttrLocationId = 0xB,
    /// (value type = cudaMemLocationType) The location type of the pool
    #[cfg(not(feature = "abi12"))]
    cudaMemPoolAttrLocationType = 0xC,
    /// (value type = cuuint64_t) The maximum size of the pool
    #[cfg(not(feature = "abi12"))]
    cudaMemPoolAttrMaxPoolSize = 0xD,
    /// (value type = int) Whether the pool has hardware decompression enabled
    #[cfg(not(feature = "abi12"))]
    cudaMemPoolAttrHwDecompressEnabled = 0xE,
    /// (value type = int) The locality domain id of the pool
    #[cfg(not(feature = "abi12"))]
    cudaMemPoolAttrLocalityDomainId = 0xF,
}

/// Specifies the memory protection flags for mapping.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaMemAccessFlags {
    /// Default, make the address range not accessible
    cudaMemAccessFlagsProtNone = 0,
    /// Make the address range read accessible
    cudaMemAccessFlagsProtRead = 1,
    /// Make the address range read-write accessible
    cudaMemAccessFlagsProtReadWrite = 3,
}

/// Memory access descriptor
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct cudaMemAccessDesc {
    /// Location on which the request is to change it's accessibility
    pub location: cudaMemLocation,
    /// ::CUmemProt accessibility flags to set on the request
    pub flags: raw::cudaMemAccessFlags,
}

/// Defines the allocation types available
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaMemAllocationType {
    cudaMemAllocationTypeInvalid = 0x0,
    /// This allocation type is 'pinned', i.e. cannot migrate from its current location while
    /// the application is actively using it
    cudaMemAllocationTypePinned = 0x1,
    /// This allocation type is managed memory
    #[cfg(not(feature = "abi12"))]
    cudaMemAllocationTypeManaged = 0x2,
    cudaMemAllocationTypeMax = 0x7FFFFFFF,
}

/// Flags for specifying particular handle types
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaMemAllocationHandleType {
    /// Does not allow any export mechanism. >
    cudaMemHandleTypeNone = 0x0,
    /// Allows a file descriptor to be used for exporting. Permitted only on POSIX systems. (int)
    cudaMemHandleTypePosixFileDescriptor = 0x1,
    /// Allows a Win32 NT handle to be used for exporting. (HANDLE)
    cudaMemHandleTypeWin32 = 0x2,
    /// Allows a Win32 KMT handle to be used for exporting. (D3DKMT_HANDLE)
    cudaMemHandleTypeWin32Kmt = 0x4,
    /// Allows a fabric handle to be used for exporting. (cudaMemFabricHandle_t)
    cudaMemHandleTypeFabric = 0x8,
}

/// This flag, if set, indicates that the memory will be used as a buffer for hardware
/// accelerated decompression.
pub const cudaMemPoolCreateUsageHwDecompress: c_uint = 0x2;

/// Specifies the properties of allocations made from the pool.
///
/// The enum fields are held as integers: C may pass any value (`handleTypes` is a mask).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaMemPoolProps {
    /// Allocation type. Currently must be specified as cudaMemAllocationTypePinned
    pub allocType: raw::cudaMemAllocationType,
    /// Handle types that will be supported by allocations from the pool.
    pub handleTypes: raw::cudaMemAllocationHandleType,
    /// Location allocations should reside.
    pub location: cudaMemLocation,
    /// Windows-specific LPSECURITYATTRIBUTES required when ::cudaMemHandleTypeWin32 is
    /// specified. This security attribute defines the scope of which exported allocations may
    /// be tranferred to other processes. In all other cases, this field is required to be zero.
    pub win32SecurityAttributes: *mut c_void,
    /// Maximum pool size. When set to 0, defaults to a system dependent value.
    pub maxSize: usize,
    /// Bitmask indicating intended usage for the pool.
    pub usage: c_ushort,
    /// reserved for future use, must be 0
    #[cfg(feature = "abi12")]
    pub reserved: [c_uchar; 54],
    /// reserved for future use, must be 0
    #[cfg(not(feature = "abi12"))]
    pub reserved: [c_uchar; 53],
    /// reserved for future use
    #[cfg(not(feature = "abi12"))]
    pub reserved1: c_uchar,
}

/// Opaque data for exporting a pool allocation
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct cudaMemPoolPtrExportData {
    pub reserved: [c_uchar; 64],
}

/// CUDA Mem Fabric Handle
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct cudaMemFabricHandle_st {
    /// `CUDA_IPC_HANDLE_SIZE` bytes
    pub reserved: [c_char; 64],
}

/// CUDA Mem Fabric Handle
pub type cudaMemFabricHandle_t = cudaMemFabricHandle_st;

const _: () = {
    use std::mem::size_of;
    assert!(size_of::<cudaMemPoolProps>() == 88);
    assert!(size_of::<cudaMemAccessDesc>() == 12);
};

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(cudaMemPoolAttr, cudaMemAccessFlags, cudaMemAllocationType, cudaMemAllocationHandleType);
}
