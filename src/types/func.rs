//! Function cache and shared memory configurations and the UUID type (NVIDIA's
//! `driver_types.h`), for `cudaFuncSetCacheConfig`, `cudaFuncSetSharedMemConfig` and
//! `cudaGetExportTable`. The device management exports use the same three types.

use std::ffi::c_char;

/// CUDA function cache configurations
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaFuncCache {
    /// Default function cache configuration, no preference
    cudaFuncCachePreferNone = 0,
    /// Prefer larger shared memory and smaller L1 cache
    cudaFuncCachePreferShared = 1,
    /// Prefer larger L1 cache and smaller shared memory
    cudaFuncCachePreferL1 = 2,
    /// Prefer equal size L1 cache and shared memory
    cudaFuncCachePreferEqual = 3,
}

/// CUDA shared memory configuration
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaSharedMemConfig {
    cudaSharedMemBankSizeDefault = 0,
    cudaSharedMemBankSizeFourByte = 1,
    cudaSharedMemBankSizeEightByte = 2,
}

/// CUDA definition of UUID: the driver's `CUuuid`, declared in the header as NVIDIA's headers
/// declare it, under the `CU_UUID_HAS_BEEN_DEFINED` guard `cuda.h` shares (cbindgen.toml).
/// cbindgen:ignore
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CUuuid {
    pub bytes: [c_char; 16],
}

/// CUDA UUID types
pub type cudaUUID_t = CUuuid;

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(cudaFuncCache, cudaSharedMemConfig);
}
