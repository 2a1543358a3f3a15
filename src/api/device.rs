//! Version, error, device and context management exports.
#![allow(non_snake_case)]

use std::ffi::{c_char, c_int, c_uint};

use crate::boundary::{self, cu, out, run};
use crate::driver;
use crate::error;
use crate::rt;
use crate::types::*;

/// Returns the CUDA Runtime version.
#[no_mangle]
pub unsafe extern "C" fn cudaRuntimeGetVersion(runtimeVersion: *mut c_int) -> cudaError_t {
    boundary::run_uninitialised("cudaRuntimeGetVersion", || {
        *out(runtimeVersion)? = crate::CUDART_VERSION;
        Ok(())
    })
}

/// Returns the latest version of CUDA supported by the driver (0 if there is no driver).
#[no_mangle]
pub unsafe extern "C" fn cudaDriverGetVersion(driverVersion: *mut c_int) -> cudaError_t {
    boundary::run_uninitialised("cudaDriverGetVersion", || {
        let v = out(driverVersion)?;
        *v = driver::version_or_zero();
        Ok(())
    })
}

/// Returns the string representation of an error code enum name.
#[no_mangle]
pub extern "C" fn cudaGetErrorName(error: raw::cudaError_t) -> *const c_char {
    error::name(error.0)
}

/// Returns the description string for an error code.
#[no_mangle]
pub extern "C" fn cudaGetErrorString(error: raw::cudaError_t) -> *const c_char {
    error::string(error.0)
}

// Without a usable driver, NVIDIA's runtime reports the initialisation error here every
// time (it never clears), whatever came before.
/// Returns the last error from a runtime call, and resets it to cudaSuccess.
#[no_mangle]
pub extern "C" fn cudaGetLastError() -> cudaError_t {
    rt::driver().map_or_else(|e| e, |_| boundary::take_last())
}

/// Returns the last error from a runtime call, without resetting it.
#[no_mangle]
pub extern "C" fn cudaPeekAtLastError() -> cudaError_t {
    rt::driver().map_or_else(|e| e, |_| boundary::peek_last())
}

/// Returns the number of compute-capable devices.
#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceCount(count: *mut c_int) -> cudaError_t {
    run("cudaGetDeviceCount", || {
        let count = out(count)?;
        *count = 0;
        *count = rt::device_count()?;
        Ok(())
    })
}

/// Set device to be used for GPU executions.
#[no_mangle]
pub unsafe extern "C" fn cudaSetDevice(device: c_int) -> cudaError_t {
    run("cudaSetDevice", || rt::set_device(device))
}

/// Returns which device is currently being used.
#[no_mangle]
pub unsafe extern "C" fn cudaGetDevice(device: *mut c_int) -> cudaError_t {
    run("cudaGetDevice", || {
        let device = out(device)?;
        *device = rt::current_device()?;
        Ok(())
    })
}

/// Wait for compute device to finish.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceSynchronize() -> cudaError_t {
    run("cudaDeviceSynchronize", || cu(rt::ctx()?.cuCtxSynchronize()))
}

/// Destroy all allocations and reset all state on the current device in the current process.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceReset() -> cudaError_t {
    run("cudaDeviceReset", || rt::reset_primary(rt::current_device()?))
}

/// Sets flags to be used for device executions.
#[no_mangle]
pub unsafe extern "C" fn cudaSetDeviceFlags(flags: c_uint) -> cudaError_t {
    run("cudaSetDeviceFlags", || {
        let sched = flags & cudaDeviceScheduleMask;
        if flags & !cudaDeviceMask != 0 || sched.count_ones() > 1 {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let dev = rt::current_device()?;
        cu(rt::fns()?.cuDevicePrimaryCtxSetFlags(dev, flags & !cudaDeviceMapHost))?;
        rt::set_device(dev)
    })
}

/// Gets the flags for the current device.
#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceFlags(flags: *mut c_uint) -> cudaError_t {
    run("cudaGetDeviceFlags", || {
        let flags = out(flags)?;
        let f = rt::fns()?;
        let dev = rt::current_device()?;
        let (mut fl, mut active) = (0, 0);
        cu(f.cuDevicePrimaryCtxGetState(dev, &mut fl, &mut active))?;
        *flags = fl | cudaDeviceMapHost;
        Ok(())
    })
}

/// Returns information about the device.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetAttribute(
    value: *mut c_int,
    attr: raw::cudaDeviceAttr,
    device: c_int,
) -> cudaError_t {
    run("cudaDeviceGetAttribute", || {
        let value = out(value)?;
        let dev = rt::check_device(device)?;
        cu(rt::fns()?.cuDeviceGetAttribute(value, attr.0, dev))
    })
}

/// Queries if a device may directly access a peer device's memory.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceCanAccessPeer(
    canAccessPeer: *mut c_int,
    device: c_int,
    peerDevice: c_int,
) -> cudaError_t {
    run("cudaDeviceCanAccessPeer", || {
        let can = out(canAccessPeer)?;
        let dev = rt::check_device(device)?;
        let peer = rt::check_device(peerDevice)?;
        if dev == peer {
            *can = 0;
            return Ok(());
        }
        cu(rt::fns()?.cuDeviceCanAccessPeer(can, dev, peer))
    })
}

/// Enables direct access to memory allocations on a peer device.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceEnablePeerAccess(peerDevice: c_int, flags: c_uint) -> cudaError_t {
    run("cudaDeviceEnablePeerAccess", || {
        let peer = peer_context(peerDevice, cudaError::cudaErrorPeerAccessUnsupported)?;
        if flags != 0 {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        cu(rt::ctx()?.cuCtxEnablePeerAccess(peer, 0))
    })
}

/// Disables direct access to memory allocations on a peer device.
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceDisablePeerAccess(peerDevice: c_int) -> cudaError_t {
    run("cudaDeviceDisablePeerAccess", || {
        let peer = peer_context(peerDevice, cudaError::cudaErrorPeerAccessNotEnabled)?;
        cu(rt::ctx()?.cuCtxDisablePeerAccess(peer))
    })
}

/// The primary context of a peer device; `same` is NVIDIA's error when it is the current one.
fn peer_context(peer: c_int, same: cudaError) -> boundary::Res<crate::driver::types::CUcontext> {
    let peer = rt::check_device(peer)?;
    if peer == rt::current_device()? {
        return Err(same);
    }
    rt::primary(peer)
}
