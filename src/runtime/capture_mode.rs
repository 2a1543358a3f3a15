//! [`relaxed`]: the runtime's own lazy work (loading a module on first use, the observer's
//! queries) done with the thread's stream capture mode relaxed, so that it never counts as
//! the program's call during a capture.

use std::ffi::c_int;

use crate::driver::types::CUDA_SUCCESS;
use crate::driver::Fns;
use crate::types::cudaStreamCaptureMode;

/// `CU_STREAM_CAPTURE_MODE_RELAXED`.
const MODE_RELAXED: c_int = cudaStreamCaptureMode::cudaStreamCaptureModeRelaxed as c_int;

/// Runs `body` with this thread's capture mode relaxed, and restores the mode after: for the
/// runtime's own lazy work (loading a module on first use), which NVIDIA's runtime does at
/// other times and which must not count as the program's call during a capture.
pub(crate) fn relaxed<R>(f: &Fns, body: impl FnOnce() -> R) -> R {
    let mut mode = MODE_RELAXED;
    // SAFETY: valid pointer to a mode value.
    let swapped = unsafe { f.cuThreadExchangeStreamCaptureMode(&mut mode) } == CUDA_SUCCESS;
    let r = body();
    if swapped {
        // SAFETY: as above; puts the thread's own mode back.
        unsafe { f.cuThreadExchangeStreamCaptureMode(&mut mode) };
    }
    r
}
