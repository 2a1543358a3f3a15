//! Interprocess communication exports: memory and event handles are the driver's
//! `CUipcMemHandle`/`CUipcEventHandle` bytes, so a handle made by either runtime (or the
//! driver API) opens in a process that uses the other.
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_uint, c_void};
use std::ptr::null_mut;

use crate::driver::types::{CUipcEventHandle, CUipcMemHandle};
use crate::runtime::boundary::{cu, out, run};
use crate::runtime::rt;
use crate::types::*;

/// Gets an interprocess handle for a previously allocated event.
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaIpcGetEventHandle(handle: *mut cudaIpcEventHandle_t, event: cudaEvent_t) -> cudaError_t {
    run(|| {
        let handle = out(handle)?;
        cu(rt::ctx()?.cuIpcGetEventHandle(handle as *mut cudaIpcEventHandle_t as *mut CUipcEventHandle, event))
    })
}

/// Opens an interprocess event handle for use in the current process.
#[export(family = Memory, sem = Create(Event, event))]
#[no_mangle]
pub unsafe extern "C" fn cudaIpcOpenEventHandle(event: *mut cudaEvent_t, handle: cudaIpcEventHandle_t) -> cudaError_t {
    run(|| {
        let event = out(event)?;
        let mut e = null_mut();
        // SAFETY: the same 64 bytes.
        let h = std::mem::transmute::<cudaIpcEventHandle_t, CUipcEventHandle>(handle);
        cu(rt::ctx()?.cuIpcOpenEventHandle(&mut e, h))?;
        *event = e;
        Ok(())
    })
}

/// Gets an interprocess memory handle for an existing device memory allocation.
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaIpcGetMemHandle(handle: *mut cudaIpcMemHandle_t, devPtr: *mut c_void) -> cudaError_t {
    run(|| {
        let handle = out(handle)?;
        cu(rt::ctx()?.cuIpcGetMemHandle(handle as *mut cudaIpcMemHandle_t as *mut CUipcMemHandle, devPtr as u64))
    })
}

/// Opens an interprocess memory handle exported from another process and returns a device pointer usable in the local process.
#[export(family = Memory, flags = Ipc)]
#[no_mangle]
pub unsafe extern "C" fn cudaIpcOpenMemHandle(
    devPtr: *mut *mut c_void,
    handle: cudaIpcMemHandle_t,
    flags: c_uint,
) -> cudaError_t {
    run(|| {
        let devPtr = out(devPtr)?;
        let mut p = 0;
        // SAFETY: the same 64 bytes.
        let h = std::mem::transmute::<cudaIpcMemHandle_t, CUipcMemHandle>(handle);
        cu(rt::ctx()?.cuIpcOpenMemHandle(&mut p, h, flags))?;
        *devPtr = p as *mut c_void;
        Ok(())
    })
}

passthrough! {
    cudaIpcCloseMemHandle(devPtr: *mut c_void)
        = ctx.cuIpcCloseMemHandle(devPtr as u64) [family = Memory]
        "Attempts to close memory mapped with cudaIpcOpenMemHandle.";
}
