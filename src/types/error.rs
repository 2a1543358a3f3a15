//! The runtime's error codes (`enum cudaError`), their names and descriptions: each code's name
//! is its variant's, its description its documentation (the header's, cbindgen copies it), as
//! NVIDIA's runtime has them (`#[derive(Described)]` makes the table). (The mapping from driver
//! results is the runtime core's: `crate::runtime::error`.)
#![allow(non_camel_case_types, clippy::enum_variant_names)]

use std::ffi::{c_char, c_int, CStr};

use cudart_rs_macros::Described;

/// CUDA error types.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Described)]
pub enum cudaError {
    /// no error
    cudaSuccess = 0,
    /// invalid argument
    cudaErrorInvalidValue = 1,
    /// out of memory
    cudaErrorMemoryAllocation = 2,
    /// initialization error
    cudaErrorInitializationError = 3,
    /// driver shutting down
    cudaErrorCudartUnloading = 4,
    /// profiler disabled while using external profiling tool
    cudaErrorProfilerDisabled = 5,
    /// profiler not initialized: call cudaProfilerInitialize()
    cudaErrorProfilerNotInitialized = 6,
    /// profiler already started
    cudaErrorProfilerAlreadyStarted = 7,
    /// profiler already stopped
    cudaErrorProfilerAlreadyStopped = 8,
    /// invalid configuration argument
    cudaErrorInvalidConfiguration = 9,
    /// Driver is newer than runtime and returned parameters the runtime cannot process
    #[cfg(not(feature = "abi12"))]
    cudaErrorVersionTranslation = 10,
    /// invalid pitch argument
    cudaErrorInvalidPitchValue = 12,
    /// invalid device symbol
    cudaErrorInvalidSymbol = 13,
    /// invalid host pointer
    cudaErrorInvalidHostPointer = 16,
    /// invalid device pointer
    cudaErrorInvalidDevicePointer = 17,
    /// invalid texture reference
    cudaErrorInvalidTexture = 18,
    /// texture is not bound to a pointer
    cudaErrorInvalidTextureBinding = 19,
    /// invalid channel descriptor
    cudaErrorInvalidChannelDescriptor = 20,
    /// invalid copy direction for memcpy
    cudaErrorInvalidMemcpyDirection = 21,
    /// invalid address of constant
    cudaErrorAddressOfConstant = 22,
    /// fetch from texture failed
    cudaErrorTextureFetchFailed = 23,
    /// cannot fetch from a texture that is not bound
    cudaErrorTextureNotBound = 24,
    /// incorrect use of __syncthreads()
    cudaErrorSynchronizationError = 25,
    /// linear filtering not supported for non-float type
    cudaErrorInvalidFilterSetting = 26,
    /// read as normalized float not supported for data type
    cudaErrorInvalidNormSetting = 27,
    /// device emulation mode and device execution mode cannot be mixed
    cudaErrorMixedDeviceExecution = 28,
    /// feature not yet implemented
    cudaErrorNotYetImplemented = 31,
    /// memory size or pointer value too large to fit in 32 bit
    cudaErrorMemoryValueTooLarge = 32,
    /// CUDA driver is a stub library
    cudaErrorStubLibrary = 34,
    /// CUDA driver version is insufficient for CUDA runtime version
    cudaErrorInsufficientDriver = 35,
    /// API call is not supported in the installed CUDA driver
    cudaErrorCallRequiresNewerDriver = 36,
    /// invalid surface reference
    cudaErrorInvalidSurface = 37,
    /// duplicate global variable looked up by string name
    cudaErrorDuplicateVariableName = 43,
    /// duplicate texture looked up by string name
    cudaErrorDuplicateTextureName = 44,
    /// duplicate surface looked up by string name
    cudaErrorDuplicateSurfaceName = 45,
    /// CUDA-capable device(s) is/are busy or unavailable
    cudaErrorDevicesUnavailable = 46,
    /// incompatible driver context
    cudaErrorIncompatibleDriverContext = 49,
    /// __global__ function call is not configured
    cudaErrorMissingConfiguration = 52,
    /// unspecified launch failure in prior launch
    cudaErrorPriorLaunchFailure = 53,
    /// launch would exceed maximum depth of nested launches
    cudaErrorLaunchMaxDepthExceeded = 65,
    /// launch failed because kernel uses unsupported, file-scoped textures (texture objects are supported)
    cudaErrorLaunchFileScopedTex = 66,
    /// launch failed because kernel uses unsupported, file-scoped surfaces (surface objects are supported)
    cudaErrorLaunchFileScopedSurf = 67,
    /// cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth
    cudaErrorSyncDepthExceeded = 68,
    /// launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount
    cudaErrorLaunchPendingCountExceeded = 69,
    /// invalid device function
    cudaErrorInvalidDeviceFunction = 98,
    /// no CUDA-capable device is detected
    cudaErrorNoDevice = 100,
    /// invalid device ordinal
    cudaErrorInvalidDevice = 101,
    /// device doesn't have valid Grid license
    cudaErrorDeviceNotLicensed = 102,
    /// integrity checks failed
    cudaErrorSoftwareValidityNotEstablished = 103,
    /// startup failure in cuda runtime
    cudaErrorStartupFailure = 127,
    /// device kernel image is invalid
    cudaErrorInvalidKernelImage = 200,
    /// invalid device context
    cudaErrorDeviceUninitialized = 201,
    /// mapping of buffer object failed
    cudaErrorMapBufferObjectFailed = 205,
    /// unmapping of buffer object failed
    cudaErrorUnmapBufferObjectFailed = 206,
    /// array is mapped
    cudaErrorArrayIsMapped = 207,
    /// resource already mapped
    cudaErrorAlreadyMapped = 208,
    /// no kernel image is available for execution on the device
    cudaErrorNoKernelImageForDevice = 209,
    /// resource already acquired
    cudaErrorAlreadyAcquired = 210,
    /// resource not mapped
    cudaErrorNotMapped = 211,
    /// resource not mapped as array
    cudaErrorNotMappedAsArray = 212,
    /// resource not mapped as pointer
    cudaErrorNotMappedAsPointer = 213,
    /// uncorrectable ECC error encountered
    cudaErrorECCUncorrectable = 214,
    /// limit is not supported on this architecture
    cudaErrorUnsupportedLimit = 215,
    /// exclusive-thread device already in use by a different thread
    cudaErrorDeviceAlreadyInUse = 216,
    /// peer access is not supported between these two devices
    cudaErrorPeerAccessUnsupported = 217,
    /// a PTX JIT compilation failed
    cudaErrorInvalidPtx = 218,
    /// invalid OpenGL or DirectX context
    cudaErrorInvalidGraphicsContext = 219,
    /// uncorrectable NVLink error detected during the execution
    cudaErrorNvlinkUncorrectable = 220,
    /// PTX JIT compiler library not found
    cudaErrorJitCompilerNotFound = 221,
    /// the provided PTX was compiled with an unsupported toolchain.
    cudaErrorUnsupportedPtxVersion = 222,
    /// PTX JIT compilation was disabled
    cudaErrorJitCompilationDisabled = 223,
    /// the provided execution affinity is not supported
    cudaErrorUnsupportedExecAffinity = 224,
    /// the provided PTX contains unsupported call to cudaDeviceSynchronize
    cudaErrorUnsupportedDevSideSync = 225,
    /// Invalid access of peer GPU memory over nvlink or a hardware error
    cudaErrorContained = 226,
    /// Loader version is insufficient for fatbin
    #[cfg(not(feature = "abi12"))]
    cudaErrorInsufficientLoaderVersion = 227,
    /// device kernel image is invalid
    cudaErrorInvalidSource = 300,
    /// file not found
    cudaErrorFileNotFound = 301,
    /// shared object symbol not found
    cudaErrorSharedObjectSymbolNotFound = 302,
    /// shared object initialization failed
    cudaErrorSharedObjectInitFailed = 303,
    /// OS call failed or operation not supported on this OS
    cudaErrorOperatingSystem = 304,
    /// invalid resource handle
    cudaErrorInvalidResourceHandle = 400,
    /// the operation cannot be performed in the present state
    cudaErrorIllegalState = 401,
    /// attempted introspection would be semantically lossy
    cudaErrorLossyQuery = 402,
    /// named symbol not found
    cudaErrorSymbolNotFound = 500,
    /// device not ready
    cudaErrorNotReady = 600,
    /// an illegal memory access was encountered
    cudaErrorIllegalAddress = 700,
    /// too many resources requested for launch
    cudaErrorLaunchOutOfResources = 701,
    /// the launch timed out and was terminated
    cudaErrorLaunchTimeout = 702,
    /// launch uses incompatible texturing mode
    cudaErrorLaunchIncompatibleTexturing = 703,
    /// peer access is already enabled
    cudaErrorPeerAccessAlreadyEnabled = 704,
    /// peer access has not been enabled
    cudaErrorPeerAccessNotEnabled = 705,
    /// cannot set while device is active in this process
    cudaErrorSetOnActiveProcess = 708,
    /// context is destroyed
    cudaErrorContextIsDestroyed = 709,
    /// device-side assert triggered
    cudaErrorAssert = 710,
    /// peer mapping resources exhausted
    cudaErrorTooManyPeers = 711,
    /// part or all of the requested memory range is already mapped
    cudaErrorHostMemoryAlreadyRegistered = 712,
    /// pointer does not correspond to a registered memory region
    cudaErrorHostMemoryNotRegistered = 713,
    /// hardware stack error
    cudaErrorHardwareStackError = 714,
    /// an illegal instruction was encountered
    cudaErrorIllegalInstruction = 715,
    /// misaligned address
    cudaErrorMisalignedAddress = 716,
    /// operation not supported on global/shared address space
    cudaErrorInvalidAddressSpace = 717,
    /// invalid program counter
    cudaErrorInvalidPc = 718,
    /// unspecified launch failure
    cudaErrorLaunchFailure = 719,
    /// too many blocks in cooperative launch
    cudaErrorCooperativeLaunchTooLarge = 720,
    /// tensor memory not completely freed
    cudaErrorTensorMemoryLeak = 721,
    /// operation not permitted
    cudaErrorNotPermitted = 800,
    /// operation not supported
    cudaErrorNotSupported = 801,
    /// system not yet initialized
    cudaErrorSystemNotReady = 802,
    /// system has unsupported display driver / cuda driver combination
    cudaErrorSystemDriverMismatch = 803,
    /// forward compatibility was attempted on non supported HW
    cudaErrorCompatNotSupportedOnDevice = 804,
    /// MPS client failed to connect to the MPS control daemon or the MPS server
    cudaErrorMpsConnectionFailed = 805,
    /// the remote procedural call between the MPS server and the MPS client failed
    cudaErrorMpsRpcFailure = 806,
    /// MPS server is not ready to accept new MPS client requests
    cudaErrorMpsServerNotReady = 807,
    /// the hardware resources required to create MPS client have been exhausted
    cudaErrorMpsMaxClientsReached = 808,
    /// the hardware resources required to support device connections have been exhausted
    cudaErrorMpsMaxConnectionsReached = 809,
    /// the MPS client has been terminated by the server
    cudaErrorMpsClientTerminated = 810,
    /// is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it
    cudaErrorCdpNotSupported = 811,
    /// unsupported interaction between different versions of CUDA Dynamic Parallelism
    cudaErrorCdpVersionMismatch = 812,
    /// operation not permitted when stream is capturing
    cudaErrorStreamCaptureUnsupported = 900,
    /// operation failed due to a previous error during capture
    cudaErrorStreamCaptureInvalidated = 901,
    /// operation would result in a merge of separate capture sequences
    cudaErrorStreamCaptureMerge = 902,
    /// capture was not ended in the same stream as it began
    cudaErrorStreamCaptureUnmatched = 903,
    /// capturing stream has unjoined work
    cudaErrorStreamCaptureUnjoined = 904,
    /// dependency created on uncaptured work in another stream
    cudaErrorStreamCaptureIsolation = 905,
    /// operation would make the legacy stream depend on a capturing blocking stream
    cudaErrorStreamCaptureImplicit = 906,
    /// operation not permitted on an event last recorded in a capturing stream
    cudaErrorCapturedEvent = 907,
    /// attempt to terminate a thread-local capture sequence from another thread
    cudaErrorStreamCaptureWrongThread = 908,
    /// wait operation timed out
    cudaErrorTimeout = 909,
    /// the graph update was not performed because it included changes which violated constraints specific to instantiated graph update
    cudaErrorGraphExecUpdateFailure = 910,
    /// an async error has occured in external entity outside of CUDA
    cudaErrorExternalDevice = 911,
    /// a kernel launch error has occurred due to cluster misconfiguration
    cudaErrorInvalidClusterSize = 912,
    /// the function handle is not loaded when calling an API that requires a loaded function
    cudaErrorFunctionNotLoaded = 913,
    /// one or more resources passed in are not valid resource types for the operation
    cudaErrorInvalidResourceType = 914,
    /// one or more resources are insufficient or non-applicable for the operation
    cudaErrorInvalidResourceConfiguration = 915,
    /// API call not permitted since the green context associated with the stream has been
    /// destroyed
    #[cfg(not(feature = "abi12"))]
    cudaErrorStreamDetached = 917,
    /// recapturing to the source graph failed and had to be terminated
    #[cfg(not(feature = "abi12"))]
    cudaErrorGraphRecaptureFailure = 918,
    /// GPU fabric is not ready within the probe wait budget; application may retry
    #[cfg(not(feature = "abi12"))]
    #[described(string = "GPU fabric is not ready within the probe wait budget; application may retry \
                          (see CUDA_FABRIC_INIT_TIMEOUT_MS)")]
    cudaErrorFabricNotReady = 919,
    /// unknown error
    cudaErrorUnknown = 999,
    /// Pseudo code; NVIDIA's runtime never returns it and has no name or string for it.
    #[described(none)]
    cudaErrorApiFailureBase = 10000,
}

/// CUDA error types.
pub type cudaError_t = cudaError;

/// Every code with its name and NVIDIA's description, in ascending order.
const TABLE: &[(cudaError, &CStr, &CStr)] = cudaError::TABLE;

const UNRECOGNIZED: &CStr = c"unrecognized error code";

fn lookup(code: c_int) -> Option<&'static (cudaError, &'static CStr, &'static CStr)> {
    TABLE.binary_search_by_key(&code, |e| e.0 as c_int).ok().map(|i| &TABLE[i])
}

impl cudaError {
    /// The code with this numeric value, if the runtime defines one.
    pub fn from_raw(code: c_int) -> Option<cudaError> {
        lookup(code).map(|e| e.0)
    }
}

/// `cudaGetErrorName` for any integer.
pub fn name(code: c_int) -> *const c_char {
    lookup(code).map_or(UNRECOGNIZED, |e| e.1).as_ptr()
}

/// `cudaGetErrorString` for any integer.
pub fn string(code: c_int) -> *const c_char {
    lookup(code).map_or(UNRECOGNIZED, |e| e.2).as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_complete() {
        assert!(TABLE.windows(2).all(|w| (w[0].0 as c_int) < (w[1].0 as c_int)));
        #[cfg(not(feature = "abi12"))]
        assert_eq!(TABLE.len(), 138);
        #[cfg(feature = "abi12")]
        assert_eq!(TABLE.len(), 133);
    }

    #[test]
    fn names_and_strings() {
        let s = |p: *const c_char| unsafe { CStr::from_ptr(p) }.to_str().unwrap();
        assert_eq!(s(name(0)), "cudaSuccess");
        assert_eq!(s(string(1)), "invalid argument");
        assert_eq!(s(name(-1)), "unrecognized error code");
        assert_eq!(s(string(10_000)), "unrecognized error code");
    }
}
