//! Device resources, green contexts and execution contexts (CUDA 13.5's `driver_types.h`).
//! A `cudaDevResource` has the driver's `CUdevResource` layout and a resource descriptor is
//! the driver's; an execution context is the driver context it names (a green context's is
//! the context `cuCtxFromGreenCtx` gives).

#![cfg_attr(feature = "abi12", allow(unused_imports))]

use std::ffi::{c_int, c_uchar, c_uint};

/// Opaque resource descriptor: the driver's `CUdevResourceDesc`.
#[cfg(not(feature = "abi12"))]
pub struct CUdevResourceDesc_st {
    _private: [u8; 0],
}
/// An opaque descriptor handle. The descriptor encapsulates multiple created and configured
/// resources. Created via ::cudaDevResourceGenerateDesc.
#[cfg(not(feature = "abi12"))]
pub type cudaDevResourceDesc_t = *mut CUdevResourceDesc_st;

/// Opaque execution context.
#[cfg(not(feature = "abi12"))]
pub struct cudaExecutionContext_st {
    _private: [u8; 0],
}
/// An opaque handle to a CUDA execution context (::cudaGreenCtxCreate,
/// ::cudaDeviceGetExecutionCtx).
#[cfg(not(feature = "abi12"))]
pub type cudaExecutionContext_t = *mut cudaExecutionContext_st;

/// Flags of an SM resource group (::cudaDevSmResourceGroupParams).
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaDevSmResourceGroup_flags {
    cudaDevSmResourceGroupDefault = 0,
    /// Treats constraints as a hint, ignoring them if necessary to reach the requested smCount.
    cudaDevSmResourceGroupBackfill = 0x1,
    /// The SMs must be located on a specific locality domain, specified by localityDomainId.
    cudaDevSmResourceGroupLocalityDomainId = 0x2,
    /// Allows selection of SMs in the locality domain beyond its multiprocessor count.
    cudaDevSmResourceGroupLocalityDomainSupplementalSms = 0x4,
}

/// Selects SMs from the union of all available locality domains in the input SM resource.
/// (The header's `(~0u)` is cbindgen.toml's, an unsigned int as NVIDIA's.)
/// cbindgen:ignore
#[cfg(not(feature = "abi12"))]
pub const cudaDevSmResourceGroupLocalityDomainIdAny: c_uint = 0xffff_ffff;

/// Flags of ::cudaDevSmResourceSplitByCount.
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaDevSmResourceSplitByCount_flags {
    cudaDevSmResourceSplitIgnoreSmCoscheduling = 0x1,
    cudaDevSmResourceSplitMaxPotentialClusterSize = 0x2,
}

/// Type of a device resource.
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaDevResourceType {
    cudaDevResourceTypeInvalid = 0,
    /// Streaming multiprocessors related information
    cudaDevResourceTypeSm = 1,
    /// Workqueue configuration related information
    cudaDevResourceTypeWorkqueueConfig = 1000,
    /// Pre-existing workqueue related information
    cudaDevResourceTypeWorkqueue = 10000,
}

/// An SM resource.
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct cudaDevSmResource {
    /// The amount of streaming multiprocessors available in this resource.
    pub smCount: c_uint,
    /// The minimum number of streaming multiprocessors required to partition this resource.
    pub minSmPartitionSize: c_uint,
    /// The number of streaming multiprocessors in this resource that are guaranteed to be
    /// co-scheduled on the same GPU processing cluster.
    pub smCoscheduledAlignment: c_uint,
    /// The flags set on this SM resource (::cudaDevSmResourceGroup_flags).
    pub flags: c_uint,
    /// Locality domain that the SM must be located on.
    pub localityDomainId: c_uint,
}

/// Sharing scope of workqueue resources.
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaDevWorkqueueConfigScope {
    /// Use all shared workqueue resources on the device. Default driver behaviour.
    cudaDevWorkqueueConfigScopeDeviceCtx = 0,
    /// When possible, use non-overlapping workqueue resources with other balanced green contexts.
    cudaDevWorkqueueConfigScopeGreenCtxBalanced = 1,
}

/// A workqueue configuration resource.
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaDevWorkqueueConfigResource {
    /// The device on which the workqueue resources are available
    pub device: c_int,
    /// The expected maximum number of concurrent stream-ordered workloads
    pub wqConcurrencyLimit: c_uint,
    /// The sharing scope for the workqueue resources
    pub sharingScope: raw::cudaDevWorkqueueConfigScope,
}

/// A pre-existing workqueue resource.
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaDevWorkqueueResource {
    /// Reserved for future use
    pub reserved: [c_uchar; 40],
}

/// How one group of ::cudaDevSmResourceSplit is made.
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct cudaDevSmResourceGroupParams_st {
    /// The amount of SMs available in this resource.
    pub smCount: c_uint,
    /// The amount of co-scheduled SMs grouped together for locality purposes.
    pub coscheduledSmCount: c_uint,
    /// When possible, combine co-scheduled groups together into larger groups of this size.
    pub preferredCoscheduledSmCount: c_uint,
    /// Combination of ::cudaDevSmResourceGroup_flags values.
    pub flags: c_uint,
    /// Locality domain that the SM must be located on.
    pub localityDomainId: c_uint,
    pub reserved: [c_uint; 11],
}
/// How one group of ::cudaDevSmResourceSplit is made.
#[cfg(not(feature = "abi12"))]
pub type cudaDevSmResourceGroupParams = cudaDevSmResourceGroupParams_st;

/// A device resource. NVIDIA's union member is anonymous (`resource.sm`), which cbindgen
/// cannot write: the header's definition is cbindgen.toml's (its trailer); here the union is
/// `u`.
/// cbindgen:no-export
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaDevResource_st {
    /// Type of resource, dictates which union field was last set
    pub r#type: raw::cudaDevResourceType,
    pub _internal_padding: [c_uchar; 92],
    /// The resource (an anonymous union in C).
    pub u: cudaDevResourceUnion,
    /// The next resource of a list.
    pub nextResource: *mut cudaDevResource_st,
}
/// A device resource.
/// cbindgen:no-export
#[cfg(not(feature = "abi12"))]
pub type cudaDevResource = cudaDevResource_st;

/// The anonymous union of ::cudaDevResource.
/// cbindgen:no-export
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone)]
pub union cudaDevResourceUnion {
    pub sm: cudaDevSmResource,
    pub wqConfig: cudaDevWorkqueueConfigResource,
    pub wq: cudaDevWorkqueueResource,
    pub _oversize: [c_uchar; 40],
}

#[cfg(not(feature = "abi12"))]
const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<cudaDevSmResource>() == 20);
    assert!(size_of::<cudaDevSmResourceGroupParams>() == 64);
    assert!(size_of::<cudaDevResourceUnion>() == 40);
    assert!(offset_of!(cudaDevResource, u) == 96 && offset_of!(cudaDevResource, nextResource) == 136);
    assert!(size_of::<cudaDevResource>() == 144);
};

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    #[cfg(not(feature = "abi12"))]
    super::super::raw_enum!(cudaDevResourceType, cudaDevWorkqueueConfigScope);
}
