//! Driver entry point, error log and miscellaneous types (NVIDIA's `driver_types.h` and
//! `cuda_runtime_api.h`).

use std::ffi::c_uint;
#[cfg(not(feature = "abi12"))]
use std::ffi::{c_char, c_void};

/// Flags to specify search options to be used with ::cudaGetDriverEntryPoint. For more
/// details see ::cuGetProcAddress
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGetDriverEntryPointFlags {
    /// Default search mode for driver symbols.
    cudaEnableDefault = 0x0,
    /// Search for legacy versions of driver symbols.
    cudaEnableLegacyStream = 0x1,
    /// Search for per-thread versions of driver symbols.
    cudaEnablePerThreadDefaultStream = 0x2,
}

/// Enum for status from obtaining driver entry points, used with ::cudaApiGetDriverEntryPoint
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaDriverEntryPointQueryResult {
    /// Search for symbol found a match
    cudaDriverEntryPointSuccess = 0,
    /// Search for symbol was not found
    cudaDriverEntryPointSymbolNotFound = 1,
    /// Search for symbol was found but version wasn't great enough
    cudaDriverEntryPointVersionNotSufficent = 2,
}

/// Severity level of a log message.
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CUDAlogLevel_enum {
    cudaLogLevelError = 0,
    cudaLogLevelWarning = 1,
}

/// Severity level of a log message.
#[cfg(not(feature = "abi12"))]
pub type cudaLogLevel = CUDAlogLevel_enum;

/// Opaque log callback registration: a driver `CUlogsCallbackHandle`.
#[cfg(not(feature = "abi12"))]
pub struct CUlogsCallbackEntry_st {
    _private: [u8; 0],
}

/// Handle of a registered log callback.
#[cfg(not(feature = "abi12"))]
pub type cudaLogsCallbackHandle = *mut CUlogsCallbackEntry_st;

/// Position in the error log.
#[cfg(not(feature = "abi12"))]
pub type cudaLogIterator = c_uint;

/// Type of public error reporting callback functions.
#[cfg(not(feature = "abi12"))]
pub type cudaLogsCallback_t =
    Option<unsafe extern "C" fn(data: *mut c_void, logLevel: cudaLogLevel, message: *mut c_char, length: usize)>;

/// CUDA device NUMA config
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaDeviceNumaConfig {
    /// The GPU is not a NUMA node
    cudaDeviceNumaConfigNone = 0,
    /// The GPU is a NUMA node, cudaDevAttrNumaId contains its NUMA ID
    cudaDeviceNumaConfigNumaNode = 1,
}

/// Default peer addressing enable flag
pub const cudaPeerAccessDefault: c_uint = 0x00;
/// Default behavior
pub const cudaOccupancyDefault: c_uint = 0x00;
/// Assume global caching is enabled and cannot be automatically turned off
pub const cudaOccupancyDisableCachingOverride: c_uint = 0x01;

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(cudaGetDriverEntryPointFlags, cudaDriverEntryPointQueryResult, cudaDeviceNumaConfig);
    #[cfg(not(feature = "abi12"))]
    super::super::raw_enum!(CUDAlogLevel_enum);
    /// cbindgen:ignore
    #[cfg(not(feature = "abi12"))]
    pub type cudaLogLevel = CUDAlogLevel_enum;
}
