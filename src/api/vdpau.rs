//! VDPAU interoperability (NVIDIA's `cuda_vdpau_interop.h`, declared by our
//! `include/cuda_vdpau_interop.h`, generated from this file alone): VDPAU surfaces registered
//! as driver graphics resources (`cudaVDPAU.h`). `VdpDevice`, `VdpVideoSurface` and
//! `VdpOutputSurface` are `uint32_t` handles; `VdpGetProcAddress` is VDPAU's function type,
//! passed on as a pointer.
#![allow(non_snake_case)]

use std::ffi::{c_int, c_uint, c_void};

use crate::boundary::{cu, out, run};
use crate::driver::types::*;
use crate::error::cudaError;
use crate::rt;
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
/// passed.
/// cbindgen:ignore
pub type VdpGetProcAddress = c_void;

/// Gets the CUDA device associated with a VdpDevice.
#[no_mangle]
pub unsafe extern "C" fn cudaVDPAUGetDevice(device: *mut c_int, vdpDevice: VdpDevice, vdpGetProcAddress: *mut VdpGetProcAddress) -> cudaError_t {
    run("cudaVDPAUGetDevice", || {
        let device = out(device)?;
        let mut d: CUdevice = 0;
        cu(rt::fns()?.cuVDPAUGetDevice(&mut d, vdpDevice, vdpGetProcAddress))?;
        *device = d;
        Ok(())
    })
}

/// Sets a CUDA device to use VDPAU interoperability: `device` becomes the thread's device with
/// its primary context initialized, which must not be active yet
/// (`cudaErrorSetOnActiveProcess` otherwise, as NVIDIA documents). The primary context is an
/// ordinary one: surfaces are registered in it with the driver's `cuGraphicsVDPAURegister*`.
#[no_mangle]
pub unsafe extern "C" fn cudaVDPAUSetVDPAUDevice(device: c_int, vdpDevice: VdpDevice, vdpGetProcAddress: *mut VdpGetProcAddress) -> cudaError_t {
    let _ = (vdpDevice, vdpGetProcAddress);
    run("cudaVDPAUSetVDPAUDevice", || {
        let dev = rt::check_device(device)?;
        let (mut flags, mut active): (c_uint, c_int) = (0, 0);
        cu(rt::fns()?.cuDevicePrimaryCtxGetState(dev, &mut flags, &mut active))?;
        if active != 0 {
            return Err(cudaError::cudaErrorSetOnActiveProcess);
        }
        rt::set_device(device)
    })
}

/// Register a VdpVideoSurface object.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsVDPAURegisterVideoSurface(
    resource: *mut cudaGraphicsResource_t,
    vdpSurface: VdpVideoSurface,
    flags: c_uint,
) -> cudaError_t {
    run("cudaGraphicsVDPAURegisterVideoSurface", || {
        cu(rt::ctx()?.cuGraphicsVDPAURegisterVideoSurface(resource as *mut CUgraphicsResource, vdpSurface, flags))
    })
}

/// Register a VdpOutputSurface object.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsVDPAURegisterOutputSurface(
    resource: *mut cudaGraphicsResource_t,
    vdpSurface: VdpOutputSurface,
    flags: c_uint,
) -> cudaError_t {
    run("cudaGraphicsVDPAURegisterOutputSurface", || {
        cu(rt::ctx()?.cuGraphicsVDPAURegisterOutputSurface(resource as *mut CUgraphicsResource, vdpSurface, flags))
    })
}
