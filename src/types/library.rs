//! Library management types (NVIDIA's `driver_types.h`): library handles, JIT options and
//! library load options.

use std::ffi::c_void;

/// Opaque library: a driver `CUlibrary`.
pub struct CUlib_st {
    _private: [u8; 0],
}

/// CUDA library
pub type cudaLibrary_t = *mut CUlib_st;

/// Online compiler and linker options
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaJitOption {
    /// Max number of registers that a thread may use. Option type: unsigned int. Applies to:
    /// compiler only
    cudaJitMaxRegisters = 0,
    /// IN: Specifies minimum number of threads per block to target compilation for. OUT:
    /// Returns the number of threads the compiler actually targeted. Option type: unsigned
    /// int. Applies to: compiler only
    cudaJitThreadsPerBlock = 1,
    /// Overwrites the option value with the total wall clock time, in milliseconds, spent in
    /// the compiler and linker. Option type: float. Applies to: compiler and linker
    cudaJitWallTime = 2,
    /// Pointer to a buffer in which to print any log messages that are informational in nature
    /// (the buffer size is specified via option ::cudaJitInfoLogBufferSizeBytes). Option type:
    /// char *. Applies to: compiler and linker
    cudaJitInfoLogBuffer = 3,
    /// IN: Log buffer size in bytes. Log messages will be capped at this size (including null
    /// terminator). OUT: Amount of log buffer filled with messages. Option type: unsigned int.
    /// Applies to: compiler and linker
    cudaJitInfoLogBufferSizeBytes = 4,
    /// Pointer to a buffer in which to print any log messages that reflect errors (the buffer
    /// size is specified via option ::cudaJitErrorLogBufferSizeBytes). Option type: char *.
    /// Applies to: compiler and linker
    cudaJitErrorLogBuffer = 5,
    /// IN: Log buffer size in bytes. Log messages will be capped at this size (including null
    /// terminator). OUT: Amount of log buffer filled with messages. Option type: unsigned int.
    /// Applies to: compiler and linker
    cudaJitErrorLogBufferSizeBytes = 6,
    /// Level of optimizations to apply to generated code (0 - 4), with 4 being the default and
    /// highest level of optimizations. Option type: unsigned int. Applies to: compiler only
    cudaJitOptimizationLevel = 7,
    /// Specifies choice of fallback strategy if matching cubin is not found. Choice is based on
    /// supplied ::cudaJit_Fallback. Option type: unsigned int for enumerated type
    /// ::cudaJit_Fallback. Applies to: compiler only
    cudaJitFallbackStrategy = 10,
    /// Specifies whether to create debug information in output (-g) (0: false, default).
    /// Option type: int. Applies to: compiler and linker
    cudaJitGenerateDebugInfo = 11,
    /// Generate verbose log messages (0: false, default). Option type: int. Applies to:
    /// compiler and linker
    cudaJitLogVerbose = 12,
    /// Generate line number information (-lineinfo) (0: false, default). Option type: int.
    /// Applies to: compiler only
    cudaJitGenerateLineInfo = 13,
    /// Specifies whether to enable caching explicitly (-dlcm). Choice is based on supplied
    /// ::cudaJit_CacheMode. Option type: unsigned int for enumerated type ::cudaJit_CacheMode.
    /// Applies to: compiler only
    cudaJitCacheMode = 14,
    /// Generate position independent code (0: false). Option type: int. Applies to: compiler
    /// only
    cudaJitPositionIndependentCode = 30,
    /// This option hints to the JIT compiler the minimum number of CTAs from the kernel's grid
    /// to be mapped to a SM. Option type: unsigned int. Applies to: compiler only
    cudaJitMinCtaPerSm = 31,
    /// Maximum number threads in a thread block, computed as the product of the maximum extent
    /// specifed for each dimension of the block. Option type: int. Applies to: compiler only
    cudaJitMaxThreadsPerBlock = 32,
    /// This option lets the values specified using ::cudaJitMaxRegisters,
    /// ::cudaJitThreadsPerBlock, ::cudaJitMaxThreadsPerBlock and ::cudaJitMinCtaPerSm take
    /// precedence over any PTX directives. (0: Disable, default; 1: Enable) Option type: int.
    /// Applies to: compiler only
    cudaJitOverrideDirectiveValues = 33,
}

/// Library options to be specified with ::cudaLibraryLoadData() or ::cudaLibraryLoadFromFile()
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaLibraryOption {
    cudaLibraryHostUniversalFunctionAndDataTable = 0,
    /// Specifes that the argument code passed to ::cudaLibraryLoadData() will be preserved.
    /// Specifying this option will let the driver know that code can be accessed at any point
    /// until ::cudaLibraryUnload().
    cudaLibraryBinaryIsPreserved = 1,
}

/// The value of library option ::cudaLibraryHostUniversalFunctionAndDataTable.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudalibraryHostUniversalFunctionAndDataTable {
    pub functionTable: *mut c_void,
    pub functionWindowSize: usize,
    pub dataTable: *mut c_void,
    pub dataWindowSize: usize,
}

/// Caching modes for dlcm
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaJit_CacheMode {
    /// Compile with no -dlcm flag specified
    cudaJitCacheOptionNone = 0,
    /// Compile with L1 cache disabled
    cudaJitCacheOptionCG = 1,
    /// Compile with L1 cache enabled
    cudaJitCacheOptionCA = 2,
}

/// Cubin matching fallback strategies
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaJit_Fallback {
    /// Prefer to compile ptx if exact binary match not found
    cudaPreferPtx = 0,
    /// Prefer to fall back to compatible binary code if exact match not found
    cudaPreferBinary = 1,
}

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(cudaJitOption, cudaLibraryOption, cudaJit_CacheMode, cudaJit_Fallback);
}
