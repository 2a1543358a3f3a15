//! OpenGL interoperability (NVIDIA's `cuda_gl_interop.h`, declared by our
//! `include/cuda_gl_interop.h`, generated from this file and `src/types/gl.rs`). Buffers and
//! textures are registered as driver graphics resources (`cuGraphicsGLRegister*`); the
//! deprecated buffer-object functions forward to the driver's deprecated counterparts, which
//! it still provides, as NVIDIA's runtime calls them (maps and unmaps through the
//! asynchronous forms, registration after `cuGLInit`). The GL context must be current on the
//! calling thread, as with NVIDIA's.
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_int, c_uint, c_void};

use crate::driver::types::*;
use crate::driver::Fns;
use crate::runtime::boundary::{cu, out, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

/// Gets the CUDA devices associated with the current OpenGL context.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGLGetDevices(
    pCudaDeviceCount: *mut c_uint,
    pCudaDevices: *mut c_int,
    cudaDeviceCount: c_uint,
    deviceList: raw::cudaGLDeviceList,
) -> cudaError_t {
    run(|| {
        // As NVIDIA's runtime: the list is checked first; the driver is asked with room for
        // every device, and the count is all it found, however few the caller has room for.
        if !(1..=3).contains(&deviceList.0) {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let mut devices: [CUdevice; 32] = [0; 32];
        let mut n: c_uint = 0;
        cu(rt::fns()?.cuGLGetDevices(&mut n, devices.as_mut_ptr(), devices.len() as c_uint, deviceList.0))?;
        *out(pCudaDeviceCount)? = n;
        if !pCudaDevices.is_null() {
            let copied = n.min(cudaDeviceCount).min(devices.len() as c_uint) as usize;
            // SAFETY: the caller's array has room for `cudaDeviceCount` devices.
            std::ptr::copy_nonoverlapping(devices.as_ptr(), pCudaDevices, copied);
        }
        Ok(())
    })
}

/// Register an OpenGL texture or renderbuffer object.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsGLRegisterImage(
    resource: *mut cudaGraphicsResource_t,
    image: GLuint,
    target: GLenum,
    flags: c_uint,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphicsGLRegisterImage(resource as *mut CUgraphicsResource, image, target, flags)))
}

/// Registers an OpenGL buffer object.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsGLRegisterBuffer(
    resource: *mut cudaGraphicsResource_t,
    buffer: GLuint,
    flags: c_uint,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphicsGLRegisterBuffer(resource as *mut CUgraphicsResource, buffer, flags)))
}

/// Sets a CUDA device to use OpenGL interoperability. Deprecated since CUDA 5.0: no device
/// needs to be associated with the GL context any more; `device` becomes the thread's device
/// and its primary context is initialized, which must not be active yet
/// (`cudaErrorSetOnActiveProcess`).
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGLSetGLDevice(device: c_int) -> cudaError_t {
    run(|| {
        crate::api::interop::inactive_device(device)?;
        rt::set_device(device)
    })
}

/// A buffer object's registration call, after the driver's GL interoperability is
/// initialised, as NVIDIA's runtime does.
unsafe fn after_gl_init(call: impl FnOnce(&Fns) -> CUresult) -> Res {
    let f = rt::ctx()?;
    cu(f.cuGLInit())?;
    cu(call(f))
}

/// Registers a buffer object for access by CUDA.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGLRegisterBufferObject(bufObj: GLuint) -> cudaError_t {
    run(|| after_gl_init(|f| f.cuGLRegisterBufferObject(bufObj)))
}

/// Maps a buffer object for access by CUDA.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGLMapBufferObject(devPtr: *mut *mut c_void, bufObj: GLuint) -> cudaError_t {
    run(|| map_buffer_object(devPtr, bufObj, std::ptr::null_mut()))
}

/// Maps a buffer object on `stream`, as NVIDIA's runtime does for both forms: the caller's
/// pointer goes to the driver as it is (null is no error: the mapping is made and its address
/// dropped).
unsafe fn map_buffer_object(devPtr: *mut *mut c_void, bufObj: GLuint, stream: cudaStream_t) -> Res {
    let f = rt::ctx()?;
    let mut size: usize = 0;
    cu(f.cuGLMapBufferObjectAsync(devPtr as *mut CUdeviceptr, &mut size, bufObj, stream))
}

passthrough! {
    cudaGLUnmapBufferObject(bufObj: GLuint)
        = ctx.cuGLUnmapBufferObjectAsync(bufObj, std::ptr::null_mut()) [family = Interop]
        "Unmaps a buffer object for access by CUDA.";
    cudaGLSetBufferObjectMapFlags(bufObj: GLuint, flags: c_uint)
        = ctx.cuGLSetBufferObjectMapFlags(bufObj, flags) [family = Interop]
        "Set usage flags for mapping an OpenGL buffer.";
    cudaGLUnmapBufferObjectAsync(bufObj: GLuint, stream: cudaStream_t)
        = ctx.cuGLUnmapBufferObjectAsync(bufObj, stream) [family = Interop]
        "Unmaps a buffer object for access by CUDA.";
}

/// Unregisters a buffer object for access by CUDA.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGLUnregisterBufferObject(bufObj: GLuint) -> cudaError_t {
    run(|| after_gl_init(|f| f.cuGLUnregisterBufferObject(bufObj)))
}

/// Maps a buffer object for access by CUDA.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGLMapBufferObjectAsync(
    devPtr: *mut *mut c_void,
    bufObj: GLuint,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| map_buffer_object(devPtr, bufObj, stream))
}
