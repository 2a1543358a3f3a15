//! Stream management exports. Runtime streams are driver streams (`cudaStream_t` is
//! `CUstream`); 0 is the legacy default stream, or the per-thread one in `_ptsz` exports.
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_int, c_uint, c_void};
use std::ptr::null_mut;

use crate::driver::types::{CUresult, CUstream};
use crate::driver::MISSING_ENTRY_POINT;
use crate::runtime::boundary::{cu, out, run, Res};
use crate::runtime::error;
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

/// Stream creation as NVIDIA's runtime does it: the context, then the driver judges the out
/// pointer and the flags (so a faulted context reports its fault first).
fn create(pStream: *mut cudaStream_t, flags: c_uint, priority: Option<c_int>) -> Res {
    let f = rt::ctx()?;
    // SAFETY: the caller's out pointer, checked by the driver.
    cu(unsafe {
        match priority {
            None => f.cuStreamCreate(pStream, flags),
            Some(p) => f.cuStreamCreateWithPriority(pStream, flags, p),
        }
    })
}

/// Create an asynchronous stream.
#[export(family = Stream, sem = Create(Stream, pStream))]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamCreate(pStream: *mut cudaStream_t) -> cudaError_t {
    run(|| create(pStream, cudaStreamDefault, None))
}

/// Create an asynchronous stream.
#[export(family = Stream, sem = Create(Stream, pStream), flags = Stream)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamCreateWithFlags(pStream: *mut cudaStream_t, flags: c_uint) -> cudaError_t {
    run(|| create(pStream, flags, None))
}

/// Create an asynchronous stream with the specified priority.
#[export(family = Stream, sem = Create(Stream, pStream), flags = Stream)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamCreateWithPriority(
    pStream: *mut cudaStream_t,
    flags: c_uint,
    priority: c_int,
) -> cudaError_t {
    run(|| create(pStream, flags, Some(priority)))
}

/// Destroys and cleans up an asynchronous stream.
#[export(family = Stream, sem = Destroy(Stream, stream))]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamDestroy(stream: cudaStream_t) -> cudaError_t {
    // As NVIDIA's runtime: the driver judges the handle, the special ones included (it refuses
    // them with an invalid handle, or reports a fault of the context first).
    run(|| cu(rt::ctx()?.cuStreamDestroy(stream)))
}

passthrough! {
    cudaStreamSynchronize(stream: cudaStream_t)
        = ctx.cuStreamSynchronize(stream) [family = Stream, per_thread = ptsz, sem = Sync]
        "Waits for stream tasks to complete.";
    cudaStreamQuery(stream: cudaStream_t)
        = ctx.cuStreamQuery(stream) [family = Stream, per_thread = ptsz]
        "Queries an asynchronous stream for completion status.";
    cudaStreamGetFlags(hStream: cudaStream_t, flags: *mut c_uint)
        = ctx.cuStreamGetFlags(hStream, out(flags)?) [family = Stream, per_thread = ptsz]
        "Query the flags of a stream.";
    cudaStreamGetPriority(hStream: cudaStream_t, priority: *mut c_int)
        = ctx.cuStreamGetPriority(hStream, out(priority)?) [family = Stream, per_thread = ptsz]
        "Query the priority of a stream.";
    cudaStreamWaitEvent(stream: cudaStream_t, event: cudaEvent_t, flags: c_uint)
        = ctx.cuStreamWaitEvent(stream, event, flags) [family = Stream, per_thread = ptsz, flags = Wait]
        "Make a compute stream wait on an event.";
    cudaLaunchHostFunc(stream: cudaStream_t, r#fn: cudaHostFn_t, userData: *mut c_void)
        = ctx.cuLaunchHostFunc(stream, r#fn, userData) [family = Launch, per_thread = ptsz]
        "Enqueues a host function call in a stream.";
    #[cfg(not(feature = "abi12"))]
    cudaLaunchHostFunc_v2(stream: cudaStream_t, r#fn: cudaHostFn_t, userData: *mut c_void, syncMode: c_uint)
        = ctx.cuLaunchHostFunc_v2(stream, r#fn, userData, syncMode) [family = Launch, per_thread = ptsz, since = 13.5]
        "Enqueues a host function call in a stream, with a synchronisation mode.";
    cudaStreamGetId(hStream: cudaStream_t, streamId: *mut std::ffi::c_ulonglong)
        = ctx.cuStreamGetId(hStream, out(streamId)?) [family = Stream, per_thread = ptsz] "Query the Id of a stream.";
    cudaStreamCopyAttributes(dst: cudaStream_t, src: cudaStream_t)
        = ctx.cuStreamCopyAttributes(dst, src) [family = Stream, per_thread = ptsz]
        "Copies attributes from source stream to destination stream.";
}

/// Attach memory to a stream asynchronously.
#[export(family = Stream, per_thread = ptsz, flags = Attach)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamAttachMemAsync(
    stream: cudaStream_t,
    devPtr: *mut c_void,
    length: usize,
    flags: c_uint,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuStreamAttachMemAsync(stream, devPtr as u64, length, flags)))
}

/// Returns numerical values that correspond to the least and greatest stream priorities.
#[export(family = Stream)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetStreamPriorityRange(
    leastPriority: *mut c_int,
    greatestPriority: *mut c_int,
) -> cudaError_t {
    run(|| {
        let (mut l, mut g) = (0, 0);
        cu(rt::ctx()?.cuCtxGetStreamPriorityRange(&mut l, &mut g))?;
        if let Some(p) = leastPriority.as_mut() {
            *p = l;
        }
        if let Some(p) = greatestPriority.as_mut() {
            *p = g;
        }
        Ok(())
    })
}

/// A runtime stream callback on its way through the driver's: the function, its data, and
/// the stream as the caller named it (what the callback is given).
struct Callback {
    f: unsafe extern "C" fn(cudaStream_t, cudaError_t, *mut c_void),
    data: *mut c_void,
    stream: cudaStream_t,
}

/// The driver's callback: runs the runtime's with the stream it was added to and the
/// stream's status as a runtime error.
unsafe extern "C" fn run_callback(_hStream: CUstream, status: CUresult, data: *mut c_void) {
    // SAFETY: `data` is the box `cudaStreamAddCallback` gave the driver, which calls each
    // callback exactly once.
    let cb = Box::from_raw(data as *mut Callback);
    (cb.f)(cb.stream, error::from_cu(status), cb.data);
}

// Bridged onto cuStreamAddCallback, not cuLaunchHostFunc: a callback also runs after a
// device error, with that error as its status.
/// Add a callback to a compute stream.
#[export(family = Stream, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamAddCallback(
    stream: cudaStream_t,
    callback: cudaStreamCallback_t,
    userData: *mut c_void,
    flags: c_uint,
) -> cudaError_t {
    run(|| {
        let f = callback.ok_or(cudaError::cudaErrorInvalidValue)?;
        let fns = rt::ctx()?;
        let cb = Box::into_raw(Box::new(Callback { f, data: userData, stream }));
        let r = fns.cuStreamAddCallback(stream, Some(run_callback), cb as *mut c_void, flags);
        if r != 0 {
            // SAFETY: the driver refused it, so it will never call back with it.
            drop(Box::from_raw(cb));
        }
        cu(r)
    })
}

/// Query the device of a stream.
#[export(family = Stream, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetDevice(hStream: cudaStream_t, device: *mut c_int) -> cudaError_t {
    run(|| {
        let device = out(device)?;
        let f = rt::ctx()?;
        let r = f.cuStreamGetDevice(hStream, device);
        if r != MISSING_ENTRY_POINT {
            return cu(r);
        }
        // Drivers before CUDA 12.8: the device of the stream's context.
        let mut c = null_mut();
        cu(f.cuStreamGetCtx(hStream, &mut c))?;
        cu(f.cuCtxPushCurrent(c))?;
        let r = f.cuCtxGetDevice(device);
        f.cuCtxPopCurrent(&mut c);
        cu(r)
    })
}
// ---- stream attributes -----------------------------------------------------------------
//
// A stream attribute is a launch attribute (same ids and value union as the driver's). As in
// NVIDIA's runtimes only the five attributes valid for streams are accepted: access policy
// window, synchronization policy, priority, memory synchronization domain map and domain;
// any other id is `cudaErrorInvalidValue` (for a get, once the driver has answered). Only
// the attribute's own member of the value union is read or written.

/// The stream attributes, and the bytes of the value union each one uses (the access policy
/// window's without its tail padding).
fn stream_attr_size(attr: c_int) -> Option<usize> {
    use std::mem::{offset_of, size_of};
    Some(match attr {
        1 => offset_of!(cudaAccessPolicyWindow, missProp) + size_of::<c_int>(),
        3 | 8 | 10 => size_of::<c_int>(),
        9 => size_of::<cudaLaunchMemSyncDomainMap>(),
        _ => return None,
    })
}

/// Queries stream attribute.
#[export(family = Stream, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetAttribute(
    hStream: cudaStream_t,
    attr: raw::cudaLaunchAttributeID,
    value_out: *mut cudaLaunchAttributeValue,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let mut v: cudaLaunchAttributeValue = std::mem::zeroed();
        // SAFETY: a value union of the driver's layout.
        cu(f.cuStreamGetAttribute(hStream, attr.0, &mut v as *mut _ as *mut c_void))?;
        let n = stream_attr_size(attr.0).ok_or(cudaError::cudaErrorInvalidValue)?;
        let out = out(value_out)?;
        // SAFETY: `n` bytes of the attribute's member, within both unions.
        std::ptr::copy_nonoverlapping(&v as *const _ as *const u8, out as *mut _ as *mut u8, n);
        Ok(())
    })
}

/// Sets stream attribute.
#[export(family = Stream, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamSetAttribute(
    hStream: cudaStream_t,
    attr: raw::cudaLaunchAttributeID,
    value: *const cudaLaunchAttributeValue,
) -> cudaError_t {
    run(|| {
        let n = stream_attr_size(attr.0).ok_or(cudaError::cudaErrorInvalidValue)?;
        let value = value.as_ref().ok_or(cudaError::cudaErrorInvalidValue)?;
        let mut v: cudaLaunchAttributeValue = std::mem::zeroed();
        // SAFETY: `n` bytes of the attribute's member, within both unions.
        std::ptr::copy_nonoverlapping(value as *const _ as *const u8, &mut v as *mut _ as *mut u8, n);
        let f = rt::ctx()?;
        // SAFETY: a value union of the driver's layout.
        cu(f.cuStreamSetAttribute(hStream, attr.0, &v as *const _ as *const c_void))
    })
}
