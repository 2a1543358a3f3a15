//! What the runtime remembers of destroyed green contexts: the error a call on the stream of
//! one reports depends on when the device's primary context was first retained.
#![cfg_attr(feature = "abi12", allow(dead_code))]

use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::driver::types::{CUcontext, CUdevice};
use crate::runtime::rt;
use crate::types::cudaError;

/// Per device: a green context of it was destroyed while this runtime had not yet retained
/// the device's primary context (see [`destroyed_green_answer`]; set by
/// `cudaExecutionCtxDestroy`, `crate::api::green`).
static GONE_BEFORE_PRIMARY: [AtomicBool; rt::MAX_DEVICES] = [const { AtomicBool::new(false) }; rt::MAX_DEVICES];

/// What a call reports where the driver answers `CUDA_ERROR_CONTEXT_IS_DESTROYED`, the
/// driver's answer for any call on a stream of a destroyed green context. NVIDIA's 13.5
/// runtime reports it as it is when it had retained the device's primary context before the
/// green context was destroyed (whether or not a context was current then), and
/// `cudaErrorInvalidResourceHandle` when it retained the primary context only afterwards (its
/// way of retaining it then makes the driver answer CUDA_ERROR_INVALID_HANDLE; calls made
/// with the driver alone always get CONTEXT_IS_DESTROYED). Measured on the H100: query,
/// synchronize, flags, priority, id, device, capture, memsets, copies and destruction on such
/// a stream (the tests green_destroy_order and green_ctx). The primary context
/// must be the one current, as every such call makes it; `None` leaves the driver's answer.
#[cold]
pub(crate) fn destroyed_green_answer() -> Option<cudaError> {
    let f = rt::fns().ok()?;
    let mut cur: CUcontext = null_mut();
    // SAFETY: valid out pointer.
    if unsafe { f.cuCtxGetCurrent(&mut cur) } != 0 {
        return None;
    }
    let dev = rt::primary_device_of(cur)?;
    GONE_BEFORE_PRIMARY[dev as usize].load(Ordering::Relaxed).then_some(cudaError::cudaErrorInvalidResourceHandle)
}

/// Notes that a green context of `dev` was destroyed while this runtime had not yet retained
/// the device's primary context.
pub(crate) fn destroyed_before_primary(dev: CUdevice) {
    GONE_BEFORE_PRIMARY[dev as usize].store(true, Ordering::Relaxed);
    crate::runtime::error::on_context_destroyed(destroyed_green_answer);
}
