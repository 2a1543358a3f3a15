//! VDPAU interoperability (NVIDIA's `cuda_vdpau_interop.h`, declared by our
//! `include/cuda_vdpau_interop.h`, generated from this file alone): VDPAU surfaces registered
//! as driver graphics resources (`cudaVDPAU.h`). `VdpDevice`, `VdpVideoSurface` and
//! `VdpOutputSurface` are `uint32_t` handles; `VdpGetProcAddress` is VDPAU's function type,
//! passed on as a pointer.
#![allow(non_snake_case)]

use cudart_rs_macros::export;
use std::ffi::{c_int, c_uint};

use crate::driver::types::*;
use crate::runtime::boundary::{cu, run};
use crate::runtime::rt;
use crate::types::*;

/// VDPAU's `VdpDevice` (`<vdpau/vdpau.h>`).
/// cbindgen:ignore
pub type VdpDevice = u32;
/// VDPAU's `VdpVideoSurface` (`<vdpau/vdpau.h>`).
/// cbindgen:ignore
pub type VdpVideoSurface = u32;
/// VDPAU's `VdpOutputSurface` (`<vdpau/vdpau.h>`).
/// cbindgen:ignore
pub type VdpOutputSurface = u32;
/// VDPAU's `VdpGetProcAddress`, a function type (`<vdpau/vdpau.h>`); only pointers to it are
/// passed, which the driver takes as `void *`. Opaque: the trace shows such a pointer's address.
/// cbindgen:ignore
pub struct VdpGetProcAddress {
    _private: [u8; 0],
}

/// Gets the CUDA device associated with a VdpDevice.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaVDPAUGetDevice(
    device: *mut c_int,
    vdpDevice: VdpDevice,
    vdpGetProcAddress: *mut VdpGetProcAddress,
) -> cudaError_t {
    run(|| {
        // The caller's pointer goes to the driver as it is, as NVIDIA's runtime passes it (a
        // null one is the driver's to judge; runtime ordinals are the driver's).
        cu(rt::fns()?.cuVDPAUGetDevice(device as *mut CUdevice, vdpDevice, vdpGetProcAddress.cast()))
    })
}

/// Sets a CUDA device to use VDPAU interoperability. The device's primary context must not be
/// active yet (`cudaErrorSetOnActiveProcess`); the driver's VDPAU context for `vdpDevice` is
/// created on `device` with the flags set for the primary context (`cudaSetDeviceFlags`) and
/// made current on the calling thread, whose runtime calls then use it (a primary context
/// cannot be told the VDPAU device).
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaVDPAUSetVDPAUDevice(
    device: c_int,
    vdpDevice: VdpDevice,
    vdpGetProcAddress: *mut VdpGetProcAddress,
) -> cudaError_t {
    run(|| {
        let (dev, flags) = crate::api::interop::inactive_device(device)?;
        let mut ctx: CUcontext = std::ptr::null_mut();
        cu(rt::fns()?.cuVDPAUCtxCreate(&mut ctx, flags, dev, vdpDevice, vdpGetProcAddress.cast()))
    })
}

/// Register a VdpVideoSurface object.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsVDPAURegisterVideoSurface(
    resource: *mut cudaGraphicsResource_t,
    vdpSurface: VdpVideoSurface,
    flags: c_uint,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphicsVDPAURegisterVideoSurface(resource as *mut CUgraphicsResource, vdpSurface, flags)))
}

/// Register a VdpOutputSurface object.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsVDPAURegisterOutputSurface(
    resource: *mut cudaGraphicsResource_t,
    vdpSurface: VdpOutputSurface,
    flags: c_uint,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphicsVDPAURegisterOutputSurface(resource as *mut CUgraphicsResource, vdpSurface, flags)))
}
