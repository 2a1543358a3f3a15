//! Memory management types (`driver_types.h`): copy kinds, memory types, unified memory
//! advice, range attributes and locations, pointer attributes, and the allocation flags.

use std::ffi::{c_int, c_uint, c_void};

/// CUDA memory copy types.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaMemcpyKind {
    /// Host -> Host
    cudaMemcpyHostToHost = 0,
    /// Host -> Device
    cudaMemcpyHostToDevice = 1,
    /// Device -> Host
    cudaMemcpyDeviceToHost = 2,
    /// Device -> Device
    cudaMemcpyDeviceToDevice = 3,
    /// Direction of the transfer is inferred from the pointer values. Requires unified
    /// virtual addressing
    cudaMemcpyDefault = 4,
}

/// CUDA memory types.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaMemoryType {
    /// Unregistered memory
    cudaMemoryTypeUnregistered = 0,
    /// Host memory
    cudaMemoryTypeHost = 1,
    /// Device memory
    cudaMemoryTypeDevice = 2,
    /// Managed memory
    cudaMemoryTypeManaged = 3,
}

/// CUDA Memory Advise values.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaMemoryAdvise {
    /// Data will mostly be read and only occassionally be written to
    cudaMemAdviseSetReadMostly = 1,
    /// Undo the effect of ::cudaMemAdviseSetReadMostly
    cudaMemAdviseUnsetReadMostly = 2,
    /// Set the preferred location for the data as the specified device
    cudaMemAdviseSetPreferredLocation = 3,
    /// Clear the preferred location for the data
    cudaMemAdviseUnsetPreferredLocation = 4,
    /// Data will be accessed by the specified device, so prevent page faults as much as possible
    cudaMemAdviseSetAccessedBy = 5,
    /// Let the Unified Memory subsystem decide on the page faulting policy for the specified device
    cudaMemAdviseUnsetAccessedBy = 6,
}

/// CUDA range attributes.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaMemRangeAttribute {
    /// Whether the range will mostly be read and only occassionally be written to
    cudaMemRangeAttributeReadMostly = 1,
    /// The preferred location of the range
    cudaMemRangeAttributePreferredLocation = 2,
    /// Memory range has ::cudaMemAdviseSetAccessedBy set for specified device
    cudaMemRangeAttributeAccessedBy = 3,
    /// The last location to which the range was prefetched
    cudaMemRangeAttributeLastPrefetchLocation = 4,
    /// The preferred location type of the range
    cudaMemRangeAttributePreferredLocationType = 5,
    /// The preferred location id of the range
    cudaMemRangeAttributePreferredLocationId = 6,
    /// The last location type to which the range was prefetched
    cudaMemRangeAttributeLastPrefetchLocationType = 7,
    /// The last location id to which the range was prefetched
    cudaMemRangeAttributeLastPrefetchLocationId = 8,
}

/// Specifies the type of location (the header's definition is cbindgen.toml's, with
/// ::cudaMemLocation's).
/// cbindgen:no-export
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaMemLocationType {
    /// Invalid location
    cudaMemLocationTypeInvalid = 0,
    /// Location is a device location, thus id is a device ordinal
    cudaMemLocationTypeDevice = 1,
    /// Location is host, id is ignored
    cudaMemLocationTypeHost = 2,
    /// Location is a host NUMA node, thus id is a host NUMA node id
    cudaMemLocationTypeHostNuma = 3,
    /// Location is the host NUMA node closest to the current thread's CPU, id is ignored
    cudaMemLocationTypeHostNumaCurrent = 4,
    /// Location is not visible but device is accessible, id is always cudaInvalidDeviceId
    #[cfg(not(feature = "abi12"))]
    cudaMemLocationTypeInvisible = 5,
    /// Location is a device locality domain (deviceId and localityDomainId in localized)
    #[cfg(not(feature = "abi12"))]
    cudaMemLocationTypeDeviceLocalityDomain = 6,
}

/// Location is unspecified. This is used when creating a managed memory pool to indicate no
/// preferred location for the pool
#[cfg(not(feature = "abi12"))]
pub const cudaMemLocationTypeNone: cudaMemLocationType = cudaMemLocationType::cudaMemLocationTypeInvalid;

/// Specifies a memory location.
///
/// The type is held as an integer: C may pass any value. CUDA 13.5's `id` is one member of an
/// anonymous union (with `localized`, a device and locality domain id), which cbindgen
/// cannot write: the header's definition is cbindgen.toml's (after the includes, with
/// ::cudaMemLocationType's).
/// cbindgen:no-export
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct cudaMemLocation {
    /// Specifies the location type, which modifies the meaning of id.
    pub r#type: raw::cudaMemLocationType,
    /// identifier for a given this location's ::CUmemLocationType.
    pub id: c_int,
}

/// CUDA pointer attributes
///
/// CUDA 13.5's has an anonymous union, which cbindgen cannot write: the header's definition is
/// cbindgen.toml's (its trailer).
/// cbindgen:no-export
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaPointerAttributes {
    /// The type of memory - ::cudaMemoryTypeUnregistered, ::cudaMemoryTypeHost,
    /// ::cudaMemoryTypeDevice or ::cudaMemoryTypeManaged.
    pub r#type: cudaMemoryType,
    /// The device against which the memory was allocated or registered.
    pub device: c_int,
    /// The address which may be dereferenced on the current device to access the memory or
    /// NULL if no such address exists.
    pub devicePointer: *mut c_void,
    /// The address which may be dereferenced on the host to access the memory or NULL if no
    /// such address exists.
    pub hostPointer: *mut c_void,
    /// The locality domain ordinal of the memory, -1 when it is not localized to one (CUDA
    /// 13.5: `int localityDomainOrdinal` in an anonymous union with `long unused`).
    #[cfg(not(feature = "abi12"))]
    pub localityDomainOrdinal: c_int,
    /// The rest of the union's `long`.
    #[cfg(not(feature = "abi12"))]
    pub unused_high: c_int,
    /// Must be zero
    #[cfg(not(feature = "abi12"))]
    pub reserved: [std::ffi::c_long; 7],
}

/// Default page-locked allocation flag
pub const cudaHostAllocDefault: c_uint = 0x00;
/// Pinned memory accessible by all CUDA contexts
pub const cudaHostAllocPortable: c_uint = 0x01;
/// Map allocation into device space
pub const cudaHostAllocMapped: c_uint = 0x02;
/// Write-combined memory
pub const cudaHostAllocWriteCombined: c_uint = 0x04;

/// Default host memory registration flag
pub const cudaHostRegisterDefault: c_uint = 0x00;
/// Pinned memory accessible by all CUDA contexts
pub const cudaHostRegisterPortable: c_uint = 0x01;
/// Map registered memory into device space
pub const cudaHostRegisterMapped: c_uint = 0x02;
/// Memory-mapped I/O space
pub const cudaHostRegisterIoMemory: c_uint = 0x04;
/// Memory-mapped read-only
pub const cudaHostRegisterReadOnly: c_uint = 0x08;

/// Memory can be accessed by any stream on any device
pub const cudaMemAttachGlobal: c_uint = 0x01;
/// Memory cannot be accessed by any stream on any device
pub const cudaMemAttachHost: c_uint = 0x02;
/// Memory can only be accessed by a single stream on the associated device
pub const cudaMemAttachSingle: c_uint = 0x04;

/// Device id that represents the CPU
pub const cudaCpuDeviceId: c_int = -1;
/// Device id that represents an invalid device
pub const cudaInvalidDeviceId: c_int = -2;
/// Tell the CUDA runtime that DeviceFlags is being set in cudaInitDevice call
pub const cudaInitDeviceFlagsAreValid: c_uint = 0x01;

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(
        cudaMemcpyKind,
        cudaMemoryType,
        cudaMemoryAdvise,
        cudaMemRangeAttribute,
        cudaMemLocationType,
    );
}
