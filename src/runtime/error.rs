//! From driver results to the runtime's errors: [`cu`] (what every driver call's result goes
//! through), the code NVIDIA's runtime reports for each driver result, and which errors leave
//! a context unusable.

use crate::driver::types::CUresult;
use crate::types::cudaError;

/// What an export's body returns: `Ok` or the runtime error to report.
pub type Res<T = ()> = Result<T, cudaError>;

/// Converts a driver result.
#[inline(always)]
pub fn cu(r: CUresult) -> Res {
    if r == 0 {
        Ok(())
    } else {
        Err(cu_error(r))
    }
}

/// The runtime error of a failed driver call: out of line, so that the mapping never weighs
/// on the success path of the function it is called from.
#[cold]
#[inline(never)]
fn cu_error(r: CUresult) -> cudaError {
    if r == 709 {
        if let Some(e) = CONTEXT_DESTROYED.get().and_then(|answer| answer()) {
            return e;
        }
    }
    from_cu(r)
}

/// What a call reports where the driver answers `CUDA_ERROR_CONTEXT_IS_DESTROYED`, when the
/// runtime has more to say than the driver (`crate::runtime::green` sets it once a green
/// context was destroyed before its device's primary context was retained).
static CONTEXT_DESTROYED: std::sync::OnceLock<fn() -> Option<cudaError>> = std::sync::OnceLock::new();

/// Sets what answers for `CUDA_ERROR_CONTEXT_IS_DESTROYED` (once).
pub(crate) fn on_context_destroyed(answer: fn() -> Option<cudaError>) {
    let _ = CONTEXT_DESTROYED.set(answer);
}

/// Maps a driver result to the runtime error NVIDIA's runtime reports for it.
pub fn from_cu(r: CUresult) -> cudaError {
    use cudaError::*;
    match r {
        crate::driver::MISSING_ENTRY_POINT => cudaErrorCallRequiresNewerDriver,
        // Driver codes whose runtime counterpart has another number or meaning.
        3 => cudaErrorInitializationError,      // CUDA_ERROR_NOT_INITIALIZED
        4 => cudaErrorCudartUnloading,          // CUDA_ERROR_DEINITIALIZED
        200 => cudaErrorInvalidKernelImage,     // CUDA_ERROR_INVALID_IMAGE
        201 => cudaErrorDeviceUninitialized,    // CUDA_ERROR_INVALID_CONTEXT
        202 => cudaErrorInvalidValue,           // CUDA_ERROR_CONTEXT_ALREADY_CURRENT (deprecated)
        209 => cudaErrorNoKernelImageForDevice, // CUDA_ERROR_NO_BINARY_FOR_GPU
        500 => cudaErrorSymbolNotFound,         // CUDA_ERROR_NOT_FOUND
        701 => cudaErrorLaunchOutOfResources,
        // Everything else keeps its number where the runtime defines it.
        _ => cudaError::from_raw(r).unwrap_or(cudaErrorUnknown),
    }
}

/// Errors that leave the context unusable: the driver reports them from every later call
/// on that context (the thread's last-error slot treats them like any other error).
pub fn is_sticky(e: cudaError) -> bool {
    use cudaError::*;
    matches!(
        e,
        cudaErrorIllegalAddress
            | cudaErrorLaunchFailure
            | cudaErrorAssert
            | cudaErrorHardwareStackError
            | cudaErrorIllegalInstruction
            | cudaErrorMisalignedAddress
            | cudaErrorInvalidAddressSpace
            | cudaErrorInvalidPc
            | cudaErrorECCUncorrectable
            | cudaErrorLaunchTimeout
            | cudaErrorContained
            | cudaErrorTensorMemoryLeak
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn driver_mapping() {
        assert_eq!(from_cu(0), cudaError::cudaSuccess);
        assert_eq!(from_cu(2), cudaError::cudaErrorMemoryAllocation);
        assert_eq!(from_cu(400), cudaError::cudaErrorInvalidResourceHandle);
        assert_eq!(from_cu(201), cudaError::cudaErrorDeviceUninitialized);
        assert_eq!(from_cu(123_456), cudaError::cudaErrorUnknown);
    }
}
