//! Event management exports. `cudaEvent_t` is the driver's `CUevent`.
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::c_uint;
use std::ptr::null_mut;

use crate::runtime::boundary::{cu, out, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

fn create(event: *mut cudaEvent_t, flags: c_uint) -> Res {
    let e = out(event)?;
    let known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
    if flags & !known != 0 || (flags & cudaEventInterprocess != 0 && flags & cudaEventDisableTiming == 0) {
        return Err(cudaError::cudaErrorInvalidValue);
    }
    let f = rt::ctx()?;
    let mut h = null_mut();
    // SAFETY: valid out pointer.
    cu(unsafe { f.cuEventCreate(&mut h, flags) })?;
    *e = h;
    Ok(())
}

/// Creates an event object.
#[export(family = Event, sem = Create(Event, event))]
#[no_mangle]
pub unsafe extern "C" fn cudaEventCreate(event: *mut cudaEvent_t) -> cudaError_t {
    run(|| create(event, cudaEventDefault))
}

/// Creates an event object with the specified flags.
#[export(family = Event, sem = Create(Event, event), flags = Event)]
#[no_mangle]
pub unsafe extern "C" fn cudaEventCreateWithFlags(event: *mut cudaEvent_t, flags: c_uint) -> cudaError_t {
    run(|| create(event, flags))
}

passthrough! {
    cudaEventRecord(event: cudaEvent_t, stream: cudaStream_t)
        = ctx.cuEventRecord(event, stream) [family = Event, per_thread = ptsz] "Records an event.";
    cudaEventQuery(event: cudaEvent_t) = ctx.cuEventQuery(event) [family = Event] "Queries an event's status.";
    cudaEventSynchronize(event: cudaEvent_t)
        = ctx.cuEventSynchronize(event) [family = Event, sem = Sync] "Waits for an event to complete.";
    cudaEventDestroy(event: cudaEvent_t)
        = ctx.cuEventDestroy(event) [family = Event, sem = Destroy(Event, event)] "Destroys an event object.";
    cudaEventRecordWithFlags(event: cudaEvent_t, stream: cudaStream_t, flags: c_uint)
        = ctx.cuEventRecordWithFlags(event, stream, flags) [family = Event, per_thread = ptsz, flags = Record]
        "Records an event.";
    #[cfg(feature = "abi12")]
    cudaEventElapsedTime_v2(ms: *mut f32, start: cudaEvent_t, end: cudaEvent_t)
        = ctx.cuEventElapsedTime_v2(out(ms)?, start, end) [family = Event] "Computes the elapsed time between events.";
}

// CUDA 13's cudaEventElapsedTime is CUDA 12's cudaEventElapsedTime_v2: both are the
// driver's CUDA 12.8 cuEventElapsedTime; CUDA 12's plain one is the driver's first.
/// Computes the elapsed time between events.
#[export(family = Event)]
#[no_mangle]
pub unsafe extern "C" fn cudaEventElapsedTime(ms: *mut f32, start: cudaEvent_t, end: cudaEvent_t) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        #[cfg(not(feature = "abi12"))]
        return cu(f.cuEventElapsedTime_v2(out(ms)?, start, end));
        #[cfg(feature = "abi12")]
        return cu(f.cuEventElapsedTime(out(ms)?, start, end));
    })
}
