//! Launch types (NVIDIA's `vector_types.h` and `driver_types.h`).

use std::ffi::{c_int, c_uint};

/// Three unsigned integers (`vector_types.h`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct uint3 {
    pub x: c_uint,
    pub y: c_uint,
    pub z: c_uint,
}

/// Grid and block dimensions of a launch (`vector_types.h`).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct dim3 {
    pub x: c_uint,
    pub y: c_uint,
    pub z: c_uint,
}

impl Default for dim3 {
    fn default() -> Self {
        dim3 { x: 1, y: 1, z: 1 }
    }
}

/// Opaque kernel: a driver `CUkernel`.
pub struct CUkern_st {
    _private: [u8; 0],
}

/// CUDA kernel.
pub type cudaKernel_t = *mut CUkern_st;

/// CUDA function attributes.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaFuncAttributes {
    /// The size in bytes of statically-allocated shared memory per block required by this
    /// function. This does not include dynamically-allocated shared memory requested by the
    /// user at runtime.
    pub sharedSizeBytes: usize,
    /// The size in bytes of user-allocated constant memory required by this function.
    pub constSizeBytes: usize,
    /// The size in bytes of local memory used by each thread of this function.
    pub localSizeBytes: usize,
    /// The maximum number of threads per block, beyond which a launch of the function would
    /// fail.
    pub maxThreadsPerBlock: c_int,
    /// The number of registers used by each thread of this function.
    pub numRegs: c_int,
    /// The PTX virtual architecture version for which the function was compiled.
    pub ptxVersion: c_int,
    /// The binary architecture version for which the function was compiled.
    pub binaryVersion: c_int,
    /// The attribute to indicate whether the function has been compiled with user specified
    /// option "-Xptxas --dlcm=ca" set.
    pub cacheModeCA: c_int,
    /// The maximum size in bytes of dynamic shared memory per block for this function.
    pub maxDynamicSharedSizeBytes: c_int,
    /// On devices where the L1 cache and shared memory use the same hardware resources, this
    /// sets the shared memory carveout preference, in percent of the maximum shared memory.
    pub preferredShmemCarveout: c_int,
    /// If this attribute is set, the kernel must launch with a valid cluster dimension
    /// specified.
    pub clusterDimMustBeSet: c_int,
    /// The required cluster width in blocks.
    pub requiredClusterWidth: c_int,
    /// The required cluster height in blocks.
    pub requiredClusterHeight: c_int,
    /// The required cluster depth in blocks.
    pub requiredClusterDepth: c_int,
    /// The block scheduling policy of a function.
    pub clusterSchedulingPolicyPreference: c_int,
    /// Whether the function can be launched with non-portable cluster size.
    pub nonPortableClusterSizeAllowed: c_int,
    /// Reserved for future use.
    pub reserved: [c_int; 16],
}

/// CUDA function attributes that can be set using cudaFuncSetAttribute.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaFuncAttribute {
    /// Maximum dynamic shared memory size
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    /// Preferred shared memory-L1 cache split
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
    /// Indicator to enforce valid cluster dimension specification on kernel launch
    cudaFuncAttributeClusterDimMustBeSet = 10,
    /// Required cluster width
    cudaFuncAttributeRequiredClusterWidth = 11,
    /// Required cluster height
    cudaFuncAttributeRequiredClusterHeight = 12,
    /// Required cluster depth
    cudaFuncAttributeRequiredClusterDepth = 13,
    /// Whether non-portable cluster scheduling policy is supported
    cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
    /// Required cluster scheduling policy preference
    cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
    cudaFuncAttributeMax = 16,
}

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(cudaFuncAttribute);
}
