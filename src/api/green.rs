//! Device resources, green contexts and execution contexts (CUDA 13.5's runtime calls; the
//! driver calls behind them are CUDA 12.4's and later, so they work on a 13.0 driver).
//!
//! An execution context is a driver context: the device's primary context
//! (`cudaDeviceGetExecutionCtx`) or the context of a green context (`cuCtxFromGreenCtx`).
//! The green contexts this runtime made are remembered, so that the calls which the driver
//! offers per green context (resources, ids, streams, events, destruction) get the green
//! context, as NVIDIA's runtime passes it; everything else is asked of the context.
//! A `cudaDevResource` and a resource descriptor are the driver's, passed through untouched.
#![allow(non_snake_case)]
#![cfg_attr(feature = "abi12", allow(unused_imports, dead_code))]

use cudart_rs_macros::export;
use std::ffi::{c_int, c_uint, c_ulonglong};
use std::ptr::null_mut;

use parking_lot::Mutex;

use crate::driver::types::{CUcontext, CUdevice, CUgreenCtx, CUresult, CUstream};
use crate::driver::Fns;
use crate::runtime::boundary::{cu, not_null, out, run, Res};
use crate::runtime::green as rt_green;
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

/// `CU_GREEN_CTX_DEFAULT_STREAM`: NVIDIA's runtime creates every green context with it.
const CU_GREEN_CTX_DEFAULT_STREAM: c_uint = 0x1;

/// The green contexts made by [`cudaGreenCtxCreate`] and not destroyed: (context, green
/// context, device). Few, and touched only by the calls of this file.
static GREEN: Mutex<Vec<(usize, usize, CUdevice)>> = Mutex::new(Vec::new());

/// The green context behind an execution context, if this runtime made it.
fn green_of(ctx: cudaExecutionContext_t) -> Option<CUgreenCtx> {
    GREEN.lock().iter().find(|e| e.0 == ctx as usize).map(|e| e.1 as CUgreenCtx)
}

/// An execution context argument: NULL is `cudaErrorInvalidValue`, as NVIDIA's runtime
/// answers before asking the driver.
fn exec_ctx(ctx: cudaExecutionContext_t) -> Res<CUcontext> {
    not_null(ctx, cudaError::cudaErrorInvalidValue)?;
    Ok(ctx as CUcontext)
}

/// One driver call about an execution context: of the green context behind it (`green`) when
/// this runtime made one, else of the context itself (`plain`), as NVIDIA's runtime asks.
fn per_kind(
    ctx: cudaExecutionContext_t,
    green: impl FnOnce(&Fns, CUgreenCtx) -> CUresult,
    plain: impl FnOnce(&Fns, CUcontext) -> CUresult,
) -> Res {
    let c = exec_ctx(ctx)?;
    let f = rt::fns()?;
    cu(match green_of(ctx) {
        Some(g) => green(f, g),
        None => plain(f, c),
    })
}

/// The resources of a device (`type` is checked by the driver).
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetDevResource(
    device: c_int,
    resource: *mut cudaDevResource,
    r#type: raw::cudaDevResourceType,
) -> cudaError_t {
    run(|| {
        let dev = rt::check_device(device)?;
        cu(rt::fns()?.cuDeviceGetDevResource(dev, resource.cast(), r#type.0))
    })
}

/// Splits an SM resource into groups of at least `minCount` SMs each.
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaDevSmResourceSplitByCount(
    result: *mut cudaDevResource,
    nbGroups: *mut c_uint,
    input: *const cudaDevResource,
    remaining: *mut cudaDevResource,
    useFlags: c_uint,
    minCount: c_uint,
) -> cudaError_t {
    run(|| {
        cu(rt::fns()?.cuDevSmResourceSplitByCount(
            result.cast(),
            nbGroups,
            input.cast(),
            remaining.cast(),
            useFlags,
            minCount,
        ))
    })
}

/// Splits an SM resource into groups described one by one (a CUDA 13.1 driver call: older
/// drivers get `cudaErrorCallRequiresNewerDriver`, whatever the arguments).
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaDevSmResourceSplit(
    result: *mut cudaDevResource,
    nbGroups: c_uint,
    input: *const cudaDevResource,
    remainder: *mut cudaDevResource,
    flags: c_uint,
    groupParams: *mut cudaDevSmResourceGroupParams,
) -> cudaError_t {
    run(|| {
        cu(rt::fns()?.cuDevSmResourceSplit(
            result.cast(),
            nbGroups,
            input.cast(),
            remainder.cast(),
            flags,
            groupParams.cast(),
        ))
    })
}

/// A descriptor of resources, for [`cudaGreenCtxCreate`]. No resources at all is
/// `cudaErrorInvalidValue` (the 13.0 driver crashes on it).
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaDevResourceGenerateDesc(
    phDesc: *mut cudaDevResourceDesc_t,
    resources: *mut cudaDevResource,
    nbResources: c_uint,
) -> cudaError_t {
    run(|| {
        if nbResources == 0 {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        cu(rt::fns()?.cuDevResourceGenerateDesc(phDesc.cast(), resources.cast(), nbResources))
    })
}

/// Creates a green context on the resources of `desc`; its handle is its driver context.
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaGreenCtxCreate(
    phCtx: *mut cudaExecutionContext_t,
    desc: cudaDevResourceDesc_t,
    device: c_int,
    flags: c_uint,
) -> cudaError_t {
    run(|| {
        let o = out(phCtx)?;
        not_null(desc, cudaError::cudaErrorInvalidValue)?;
        let dev = rt::check_device(device)?;
        if flags != 0 {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let f = rt::fns()?;
        let mut g: CUgreenCtx = null_mut();
        cu(f.cuGreenCtxCreate(&mut g, desc.cast(), dev, CU_GREEN_CTX_DEFAULT_STREAM))?;
        let mut c: CUcontext = null_mut();
        if let Err(e) = cu(f.cuCtxFromGreenCtx(&mut c, g)) {
            f.cuGreenCtxDestroy(g);
            return Err(e);
        }
        GREEN.lock().push((c as usize, g as usize, dev));
        *o = c as cudaExecutionContext_t;
        Ok(())
    })
}

/// The execution context of a device: its primary context.
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetExecutionCtx(ctx: *mut cudaExecutionContext_t, device: c_int) -> cudaError_t {
    run(|| {
        let o = out(ctx)?;
        *o = rt::primary(device)? as cudaExecutionContext_t;
        Ok(())
    })
}

/// Destroys a green context (its streams stay, detached). Only green contexts this runtime
/// made can be destroyed.
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaExecutionCtxDestroy(ctx: cudaExecutionContext_t) -> cudaError_t {
    run(|| {
        exec_ctx(ctx)?;
        let found = GREEN.lock().iter().find(|e| e.0 == ctx as usize).map(|e| (e.1 as CUgreenCtx, e.2));
        let (g, dev) = found.ok_or(cudaError::cudaErrorInvalidValue)?;
        let f = rt::fns()?;
        cu(f.cuGreenCtxDestroy(g))?;
        if !rt::primary_retained(dev) {
            rt_green::destroyed_before_primary(dev);
        }
        GREEN.lock().retain(|e| e.0 != ctx as usize);
        // A green context the program made current (driver API) is not left current once
        // destroyed: the next call that needs a context makes the device's primary one current.
        let mut cur: CUcontext = null_mut();
        if f.cuCtxGetCurrent(&mut cur) == 0 && cur == ctx as CUcontext {
            f.cuCtxSetCurrent(null_mut());
        }
        Ok(())
    })
}

/// The resources of an execution context.
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaExecutionCtxGetDevResource(
    ctx: cudaExecutionContext_t,
    resource: *mut cudaDevResource,
    r#type: raw::cudaDevResourceType,
) -> cudaError_t {
    run(|| {
        per_kind(
            ctx,
            |f, g| f.cuGreenCtxGetDevResource(g, resource.cast(), r#type.0),
            |f, c| f.cuCtxGetDevResource(c, resource.cast(), r#type.0),
        )
    })
}

/// The device of an execution context.
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaExecutionCtxGetDevice(device: *mut c_int, ctx: cudaExecutionContext_t) -> cudaError_t {
    run(|| {
        let d = out(device)?;
        let c = exec_ctx(ctx)?;
        cu(rt::fns()?.cuCtxGetDevice_v2(d, c))
    })
}

/// The id of an execution context, unique in the process.
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaExecutionCtxGetId(ctx: cudaExecutionContext_t, ctxId: *mut c_ulonglong) -> cudaError_t {
    run(|| per_kind(ctx, |f, g| f.cuGreenCtxGetId(g, ctxId), |f, c| f.cuCtxGetId(c, ctxId)))
}

/// Records, in `event`, all the work submitted to an execution context so far.
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaExecutionCtxRecordEvent(ctx: cudaExecutionContext_t, event: cudaEvent_t) -> cudaError_t {
    run(|| per_kind(ctx, |f, g| f.cuGreenCtxRecordEvent(g, event.cast()), |f, c| f.cuCtxRecordEvent(c, event.cast())))
}

/// Makes all future work submitted to an execution context wait for `event`.
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaExecutionCtxWaitEvent(ctx: cudaExecutionContext_t, event: cudaEvent_t) -> cudaError_t {
    run(|| per_kind(ctx, |f, g| f.cuGreenCtxWaitEvent(g, event.cast()), |f, c| f.cuCtxWaitEvent(c, event.cast())))
}

/// Waits for all the work of an execution context.
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaExecutionCtxSynchronize(ctx: cudaExecutionContext_t) -> cudaError_t {
    run(|| {
        let c = exec_ctx(ctx)?;
        cu(rt::fns()?.cuCtxSynchronize_v2(c))
    })
}

/// Creates a stream in an execution context. A green context's streams never synchronize
/// with the legacy stream (the driver requires it; NVIDIA's runtime adds the flag).
#[cfg(not(feature = "abi12"))]
#[export(family = Stream, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaExecutionCtxStreamCreate(
    phStream: *mut cudaStream_t,
    ctx: cudaExecutionContext_t,
    flags: c_uint,
    priority: c_int,
) -> cudaError_t {
    run(|| {
        let s = phStream.cast::<CUstream>();
        per_kind(
            ctx,
            |f, g| f.cuGreenCtxStreamCreate(s, g, flags | cudaStreamNonBlocking, priority),
            |f, c| {
                let r = f.cuCtxPushCurrent(c);
                if r != 0 {
                    return r;
                }
                let r = f.cuStreamCreateWithPriority(s, flags, priority);
                let mut popped: CUcontext = null_mut();
                f.cuCtxPopCurrent(&mut popped);
                r
            },
        )
    })
}

/// The resources of the context a stream belongs to (its green context's, if it has one).
#[cfg(not(feature = "abi12"))]
#[export(family = Stream, per_thread = ptsz, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetDevResource(
    hStream: cudaStream_t,
    resource: *mut cudaDevResource,
    r#type: raw::cudaDevResourceType,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let (mut c, mut g): (CUcontext, CUgreenCtx) = (null_mut(), null_mut());
        cu(f.cuStreamGetCtx_v2(hStream.cast(), &mut c, &mut g))?;
        if g.is_null() {
            cu(f.cuCtxGetDevResource(c, resource.cast(), r#type.0))
        } else {
            cu(f.cuGreenCtxGetDevResource(g, resource.cast(), r#type.0))
        }
    })
}
