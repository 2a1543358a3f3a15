//! The runtime's error codes (`enum cudaError`), their names and descriptions. Names and
//! strings are NVIDIA's, read off its runtime. (The mapping from driver results is the
//! runtime core's: `crate::runtime::error`.)
#![allow(non_camel_case_types, clippy::enum_variant_names)]

use std::ffi::{c_char, c_int, CStr};

/// CUDA error types.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
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
    cudaErrorFabricNotReady = 919,
    /// unknown error
    cudaErrorUnknown = 999,
    /// Pseudo code; NVIDIA's runtime never returns it and has no name or string for it.
    cudaErrorApiFailureBase = 10000,
}

/// CUDA error types.
pub type cudaError_t = cudaError;

/// Every code with its name and NVIDIA's description, in ascending order.
static TABLE: &[(cudaError, &CStr, &CStr)] = &[
    (cudaError::cudaSuccess, c"cudaSuccess", c"no error"),
    (cudaError::cudaErrorInvalidValue, c"cudaErrorInvalidValue", c"invalid argument"),
    (cudaError::cudaErrorMemoryAllocation, c"cudaErrorMemoryAllocation", c"out of memory"),
    (cudaError::cudaErrorInitializationError, c"cudaErrorInitializationError", c"initialization error"),
    (cudaError::cudaErrorCudartUnloading, c"cudaErrorCudartUnloading", c"driver shutting down"),
    (cudaError::cudaErrorProfilerDisabled, c"cudaErrorProfilerDisabled", c"profiler disabled while using external profiling tool"),
    (cudaError::cudaErrorProfilerNotInitialized, c"cudaErrorProfilerNotInitialized", c"profiler not initialized: call cudaProfilerInitialize()"),
    (cudaError::cudaErrorProfilerAlreadyStarted, c"cudaErrorProfilerAlreadyStarted", c"profiler already started"),
    (cudaError::cudaErrorProfilerAlreadyStopped, c"cudaErrorProfilerAlreadyStopped", c"profiler already stopped"),
    (cudaError::cudaErrorInvalidConfiguration, c"cudaErrorInvalidConfiguration", c"invalid configuration argument"),
    #[cfg(not(feature = "abi12"))]
    (cudaError::cudaErrorVersionTranslation, c"cudaErrorVersionTranslation", c"Driver is newer than runtime and returned parameters the runtime cannot process"),
    (cudaError::cudaErrorInvalidPitchValue, c"cudaErrorInvalidPitchValue", c"invalid pitch argument"),
    (cudaError::cudaErrorInvalidSymbol, c"cudaErrorInvalidSymbol", c"invalid device symbol"),
    (cudaError::cudaErrorInvalidHostPointer, c"cudaErrorInvalidHostPointer", c"invalid host pointer"),
    (cudaError::cudaErrorInvalidDevicePointer, c"cudaErrorInvalidDevicePointer", c"invalid device pointer"),
    (cudaError::cudaErrorInvalidTexture, c"cudaErrorInvalidTexture", c"invalid texture reference"),
    (cudaError::cudaErrorInvalidTextureBinding, c"cudaErrorInvalidTextureBinding", c"texture is not bound to a pointer"),
    (cudaError::cudaErrorInvalidChannelDescriptor, c"cudaErrorInvalidChannelDescriptor", c"invalid channel descriptor"),
    (cudaError::cudaErrorInvalidMemcpyDirection, c"cudaErrorInvalidMemcpyDirection", c"invalid copy direction for memcpy"),
    (cudaError::cudaErrorAddressOfConstant, c"cudaErrorAddressOfConstant", c"invalid address of constant"),
    (cudaError::cudaErrorTextureFetchFailed, c"cudaErrorTextureFetchFailed", c"fetch from texture failed"),
    (cudaError::cudaErrorTextureNotBound, c"cudaErrorTextureNotBound", c"cannot fetch from a texture that is not bound"),
    (cudaError::cudaErrorSynchronizationError, c"cudaErrorSynchronizationError", c"incorrect use of __syncthreads()"),
    (cudaError::cudaErrorInvalidFilterSetting, c"cudaErrorInvalidFilterSetting", c"linear filtering not supported for non-float type"),
    (cudaError::cudaErrorInvalidNormSetting, c"cudaErrorInvalidNormSetting", c"read as normalized float not supported for data type"),
    (cudaError::cudaErrorMixedDeviceExecution, c"cudaErrorMixedDeviceExecution", c"device emulation mode and device execution mode cannot be mixed"),
    (cudaError::cudaErrorNotYetImplemented, c"cudaErrorNotYetImplemented", c"feature not yet implemented"),
    (cudaError::cudaErrorMemoryValueTooLarge, c"cudaErrorMemoryValueTooLarge", c"memory size or pointer value too large to fit in 32 bit"),
    (cudaError::cudaErrorStubLibrary, c"cudaErrorStubLibrary", c"CUDA driver is a stub library"),
    (cudaError::cudaErrorInsufficientDriver, c"cudaErrorInsufficientDriver", c"CUDA driver version is insufficient for CUDA runtime version"),
    (cudaError::cudaErrorCallRequiresNewerDriver, c"cudaErrorCallRequiresNewerDriver", c"API call is not supported in the installed CUDA driver"),
    (cudaError::cudaErrorInvalidSurface, c"cudaErrorInvalidSurface", c"invalid surface reference"),
    (cudaError::cudaErrorDuplicateVariableName, c"cudaErrorDuplicateVariableName", c"duplicate global variable looked up by string name"),
    (cudaError::cudaErrorDuplicateTextureName, c"cudaErrorDuplicateTextureName", c"duplicate texture looked up by string name"),
    (cudaError::cudaErrorDuplicateSurfaceName, c"cudaErrorDuplicateSurfaceName", c"duplicate surface looked up by string name"),
    (cudaError::cudaErrorDevicesUnavailable, c"cudaErrorDevicesUnavailable", c"CUDA-capable device(s) is/are busy or unavailable"),
    (cudaError::cudaErrorIncompatibleDriverContext, c"cudaErrorIncompatibleDriverContext", c"incompatible driver context"),
    (cudaError::cudaErrorMissingConfiguration, c"cudaErrorMissingConfiguration", c"__global__ function call is not configured"),
    (cudaError::cudaErrorPriorLaunchFailure, c"cudaErrorPriorLaunchFailure", c"unspecified launch failure in prior launch"),
    (cudaError::cudaErrorLaunchMaxDepthExceeded, c"cudaErrorLaunchMaxDepthExceeded", c"launch would exceed maximum depth of nested launches"),
    (cudaError::cudaErrorLaunchFileScopedTex, c"cudaErrorLaunchFileScopedTex", c"launch failed because kernel uses unsupported, file-scoped textures (texture objects are supported)"),
    (cudaError::cudaErrorLaunchFileScopedSurf, c"cudaErrorLaunchFileScopedSurf", c"launch failed because kernel uses unsupported, file-scoped surfaces (surface objects are supported)"),
    (cudaError::cudaErrorSyncDepthExceeded, c"cudaErrorSyncDepthExceeded", c"cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth"),
    (cudaError::cudaErrorLaunchPendingCountExceeded, c"cudaErrorLaunchPendingCountExceeded", c"launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount"),
    (cudaError::cudaErrorInvalidDeviceFunction, c"cudaErrorInvalidDeviceFunction", c"invalid device function"),
    (cudaError::cudaErrorNoDevice, c"cudaErrorNoDevice", c"no CUDA-capable device is detected"),
    (cudaError::cudaErrorInvalidDevice, c"cudaErrorInvalidDevice", c"invalid device ordinal"),
    (cudaError::cudaErrorDeviceNotLicensed, c"cudaErrorDeviceNotLicensed", c"device doesn't have valid Grid license"),
    (cudaError::cudaErrorSoftwareValidityNotEstablished, c"cudaErrorSoftwareValidityNotEstablished", c"integrity checks failed"),
    (cudaError::cudaErrorStartupFailure, c"cudaErrorStartupFailure", c"startup failure in cuda runtime"),
    (cudaError::cudaErrorInvalidKernelImage, c"cudaErrorInvalidKernelImage", c"device kernel image is invalid"),
    (cudaError::cudaErrorDeviceUninitialized, c"cudaErrorDeviceUninitialized", c"invalid device context"),
    (cudaError::cudaErrorMapBufferObjectFailed, c"cudaErrorMapBufferObjectFailed", c"mapping of buffer object failed"),
    (cudaError::cudaErrorUnmapBufferObjectFailed, c"cudaErrorUnmapBufferObjectFailed", c"unmapping of buffer object failed"),
    (cudaError::cudaErrorArrayIsMapped, c"cudaErrorArrayIsMapped", c"array is mapped"),
    (cudaError::cudaErrorAlreadyMapped, c"cudaErrorAlreadyMapped", c"resource already mapped"),
    (cudaError::cudaErrorNoKernelImageForDevice, c"cudaErrorNoKernelImageForDevice", c"no kernel image is available for execution on the device"),
    (cudaError::cudaErrorAlreadyAcquired, c"cudaErrorAlreadyAcquired", c"resource already acquired"),
    (cudaError::cudaErrorNotMapped, c"cudaErrorNotMapped", c"resource not mapped"),
    (cudaError::cudaErrorNotMappedAsArray, c"cudaErrorNotMappedAsArray", c"resource not mapped as array"),
    (cudaError::cudaErrorNotMappedAsPointer, c"cudaErrorNotMappedAsPointer", c"resource not mapped as pointer"),
    (cudaError::cudaErrorECCUncorrectable, c"cudaErrorECCUncorrectable", c"uncorrectable ECC error encountered"),
    (cudaError::cudaErrorUnsupportedLimit, c"cudaErrorUnsupportedLimit", c"limit is not supported on this architecture"),
    (cudaError::cudaErrorDeviceAlreadyInUse, c"cudaErrorDeviceAlreadyInUse", c"exclusive-thread device already in use by a different thread"),
    (cudaError::cudaErrorPeerAccessUnsupported, c"cudaErrorPeerAccessUnsupported", c"peer access is not supported between these two devices"),
    (cudaError::cudaErrorInvalidPtx, c"cudaErrorInvalidPtx", c"a PTX JIT compilation failed"),
    (cudaError::cudaErrorInvalidGraphicsContext, c"cudaErrorInvalidGraphicsContext", c"invalid OpenGL or DirectX context"),
    (cudaError::cudaErrorNvlinkUncorrectable, c"cudaErrorNvlinkUncorrectable", c"uncorrectable NVLink error detected during the execution"),
    (cudaError::cudaErrorJitCompilerNotFound, c"cudaErrorJitCompilerNotFound", c"PTX JIT compiler library not found"),
    (cudaError::cudaErrorUnsupportedPtxVersion, c"cudaErrorUnsupportedPtxVersion", c"the provided PTX was compiled with an unsupported toolchain."),
    (cudaError::cudaErrorJitCompilationDisabled, c"cudaErrorJitCompilationDisabled", c"PTX JIT compilation was disabled"),
    (cudaError::cudaErrorUnsupportedExecAffinity, c"cudaErrorUnsupportedExecAffinity", c"the provided execution affinity is not supported"),
    (cudaError::cudaErrorUnsupportedDevSideSync, c"cudaErrorUnsupportedDevSideSync", c"the provided PTX contains unsupported call to cudaDeviceSynchronize"),
    (cudaError::cudaErrorContained, c"cudaErrorContained", c"Invalid access of peer GPU memory over nvlink or a hardware error"),
    #[cfg(not(feature = "abi12"))]
    (cudaError::cudaErrorInsufficientLoaderVersion, c"cudaErrorInsufficientLoaderVersion", c"Loader version is insufficient for fatbin"),
    (cudaError::cudaErrorInvalidSource, c"cudaErrorInvalidSource", c"device kernel image is invalid"),
    (cudaError::cudaErrorFileNotFound, c"cudaErrorFileNotFound", c"file not found"),
    (cudaError::cudaErrorSharedObjectSymbolNotFound, c"cudaErrorSharedObjectSymbolNotFound", c"shared object symbol not found"),
    (cudaError::cudaErrorSharedObjectInitFailed, c"cudaErrorSharedObjectInitFailed", c"shared object initialization failed"),
    (cudaError::cudaErrorOperatingSystem, c"cudaErrorOperatingSystem", c"OS call failed or operation not supported on this OS"),
    (cudaError::cudaErrorInvalidResourceHandle, c"cudaErrorInvalidResourceHandle", c"invalid resource handle"),
    (cudaError::cudaErrorIllegalState, c"cudaErrorIllegalState", c"the operation cannot be performed in the present state"),
    (cudaError::cudaErrorLossyQuery, c"cudaErrorLossyQuery", c"attempted introspection would be semantically lossy"),
    (cudaError::cudaErrorSymbolNotFound, c"cudaErrorSymbolNotFound", c"named symbol not found"),
    (cudaError::cudaErrorNotReady, c"cudaErrorNotReady", c"device not ready"),
    (cudaError::cudaErrorIllegalAddress, c"cudaErrorIllegalAddress", c"an illegal memory access was encountered"),
    (cudaError::cudaErrorLaunchOutOfResources, c"cudaErrorLaunchOutOfResources", c"too many resources requested for launch"),
    (cudaError::cudaErrorLaunchTimeout, c"cudaErrorLaunchTimeout", c"the launch timed out and was terminated"),
    (cudaError::cudaErrorLaunchIncompatibleTexturing, c"cudaErrorLaunchIncompatibleTexturing", c"launch uses incompatible texturing mode"),
    (cudaError::cudaErrorPeerAccessAlreadyEnabled, c"cudaErrorPeerAccessAlreadyEnabled", c"peer access is already enabled"),
    (cudaError::cudaErrorPeerAccessNotEnabled, c"cudaErrorPeerAccessNotEnabled", c"peer access has not been enabled"),
    (cudaError::cudaErrorSetOnActiveProcess, c"cudaErrorSetOnActiveProcess", c"cannot set while device is active in this process"),
    (cudaError::cudaErrorContextIsDestroyed, c"cudaErrorContextIsDestroyed", c"context is destroyed"),
    (cudaError::cudaErrorAssert, c"cudaErrorAssert", c"device-side assert triggered"),
    (cudaError::cudaErrorTooManyPeers, c"cudaErrorTooManyPeers", c"peer mapping resources exhausted"),
    (cudaError::cudaErrorHostMemoryAlreadyRegistered, c"cudaErrorHostMemoryAlreadyRegistered", c"part or all of the requested memory range is already mapped"),
    (cudaError::cudaErrorHostMemoryNotRegistered, c"cudaErrorHostMemoryNotRegistered", c"pointer does not correspond to a registered memory region"),
    (cudaError::cudaErrorHardwareStackError, c"cudaErrorHardwareStackError", c"hardware stack error"),
    (cudaError::cudaErrorIllegalInstruction, c"cudaErrorIllegalInstruction", c"an illegal instruction was encountered"),
    (cudaError::cudaErrorMisalignedAddress, c"cudaErrorMisalignedAddress", c"misaligned address"),
    (cudaError::cudaErrorInvalidAddressSpace, c"cudaErrorInvalidAddressSpace", c"operation not supported on global/shared address space"),
    (cudaError::cudaErrorInvalidPc, c"cudaErrorInvalidPc", c"invalid program counter"),
    (cudaError::cudaErrorLaunchFailure, c"cudaErrorLaunchFailure", c"unspecified launch failure"),
    (cudaError::cudaErrorCooperativeLaunchTooLarge, c"cudaErrorCooperativeLaunchTooLarge", c"too many blocks in cooperative launch"),
    (cudaError::cudaErrorTensorMemoryLeak, c"cudaErrorTensorMemoryLeak", c"tensor memory not completely freed"),
    (cudaError::cudaErrorNotPermitted, c"cudaErrorNotPermitted", c"operation not permitted"),
    (cudaError::cudaErrorNotSupported, c"cudaErrorNotSupported", c"operation not supported"),
    (cudaError::cudaErrorSystemNotReady, c"cudaErrorSystemNotReady", c"system not yet initialized"),
    (cudaError::cudaErrorSystemDriverMismatch, c"cudaErrorSystemDriverMismatch", c"system has unsupported display driver / cuda driver combination"),
    (cudaError::cudaErrorCompatNotSupportedOnDevice, c"cudaErrorCompatNotSupportedOnDevice", c"forward compatibility was attempted on non supported HW"),
    (cudaError::cudaErrorMpsConnectionFailed, c"cudaErrorMpsConnectionFailed", c"MPS client failed to connect to the MPS control daemon or the MPS server"),
    (cudaError::cudaErrorMpsRpcFailure, c"cudaErrorMpsRpcFailure", c"the remote procedural call between the MPS server and the MPS client failed"),
    (cudaError::cudaErrorMpsServerNotReady, c"cudaErrorMpsServerNotReady", c"MPS server is not ready to accept new MPS client requests"),
    (cudaError::cudaErrorMpsMaxClientsReached, c"cudaErrorMpsMaxClientsReached", c"the hardware resources required to create MPS client have been exhausted"),
    (cudaError::cudaErrorMpsMaxConnectionsReached, c"cudaErrorMpsMaxConnectionsReached", c"the hardware resources required to support device connections have been exhausted"),
    (cudaError::cudaErrorMpsClientTerminated, c"cudaErrorMpsClientTerminated", c"the MPS client has been terminated by the server"),
    (cudaError::cudaErrorCdpNotSupported, c"cudaErrorCdpNotSupported", c"is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it"),
    (cudaError::cudaErrorCdpVersionMismatch, c"cudaErrorCdpVersionMismatch", c"unsupported interaction between different versions of CUDA Dynamic Parallelism"),
    (cudaError::cudaErrorStreamCaptureUnsupported, c"cudaErrorStreamCaptureUnsupported", c"operation not permitted when stream is capturing"),
    (cudaError::cudaErrorStreamCaptureInvalidated, c"cudaErrorStreamCaptureInvalidated", c"operation failed due to a previous error during capture"),
    (cudaError::cudaErrorStreamCaptureMerge, c"cudaErrorStreamCaptureMerge", c"operation would result in a merge of separate capture sequences"),
    (cudaError::cudaErrorStreamCaptureUnmatched, c"cudaErrorStreamCaptureUnmatched", c"capture was not ended in the same stream as it began"),
    (cudaError::cudaErrorStreamCaptureUnjoined, c"cudaErrorStreamCaptureUnjoined", c"capturing stream has unjoined work"),
    (cudaError::cudaErrorStreamCaptureIsolation, c"cudaErrorStreamCaptureIsolation", c"dependency created on uncaptured work in another stream"),
    (cudaError::cudaErrorStreamCaptureImplicit, c"cudaErrorStreamCaptureImplicit", c"operation would make the legacy stream depend on a capturing blocking stream"),
    (cudaError::cudaErrorCapturedEvent, c"cudaErrorCapturedEvent", c"operation not permitted on an event last recorded in a capturing stream"),
    (cudaError::cudaErrorStreamCaptureWrongThread, c"cudaErrorStreamCaptureWrongThread", c"attempt to terminate a thread-local capture sequence from another thread"),
    (cudaError::cudaErrorTimeout, c"cudaErrorTimeout", c"wait operation timed out"),
    (cudaError::cudaErrorGraphExecUpdateFailure, c"cudaErrorGraphExecUpdateFailure", c"the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"),
    (cudaError::cudaErrorExternalDevice, c"cudaErrorExternalDevice", c"an async error has occured in external entity outside of CUDA"),
    (cudaError::cudaErrorInvalidClusterSize, c"cudaErrorInvalidClusterSize", c"a kernel launch error has occurred due to cluster misconfiguration"),
    (cudaError::cudaErrorFunctionNotLoaded, c"cudaErrorFunctionNotLoaded", c"the function handle is not loaded when calling an API that requires a loaded function"),
    (cudaError::cudaErrorInvalidResourceType, c"cudaErrorInvalidResourceType", c"one or more resources passed in are not valid resource types for the operation"),
    (cudaError::cudaErrorInvalidResourceConfiguration, c"cudaErrorInvalidResourceConfiguration", c"one or more resources are insufficient or non-applicable for the operation"),
    #[cfg(not(feature = "abi12"))]
    (cudaError::cudaErrorStreamDetached, c"cudaErrorStreamDetached", c"API call not permitted since the green context associated with the stream has been destroyed"),
    #[cfg(not(feature = "abi12"))]
    (cudaError::cudaErrorGraphRecaptureFailure, c"cudaErrorGraphRecaptureFailure", c"recapturing to the source graph failed and had to be terminated"),
    #[cfg(not(feature = "abi12"))]
    (cudaError::cudaErrorFabricNotReady, c"cudaErrorFabricNotReady", c"GPU fabric is not ready within the probe wait budget; application may retry (see CUDA_FABRIC_INIT_TIMEOUT_MS)"),
    (cudaError::cudaErrorUnknown, c"cudaErrorUnknown", c"unknown error"),
];

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
