//! OpenGL interoperability (NVIDIA's `cuda_gl_interop.h`, declared by our
//! `include/cuda_gl_interop.h`, generated from this file and `src/types/gl.rs`). Buffers and
//! textures are registered as driver graphics resources (`cuGraphicsGLRegister*`); the
//! deprecated buffer-object functions forward to the driver's deprecated counterparts, which
//! it still provides. The GL context must be current on the calling thread, as with NVIDIA's.
#![allow(non_snake_case)]

use std::ffi::{c_int, c_uint, c_void};

use crate::boundary::{cu, out, run};
use crate::driver::types::*;
use crate::rt;
use crate::types::*;

/// Gets the CUDA devices associated with the current OpenGL context.
#[no_mangle]
pub unsafe extern "C" fn cudaGLGetDevices(
    pCudaDeviceCount: *mut c_uint,
    pCudaDevices: *mut c_int,
    cudaDeviceCount: c_uint,
    deviceList: raw::cudaGLDeviceList,
) -> cudaError_t {
    run("cudaGLGetDevices", || {
        cu(rt::fns()?.cuGLGetDevices(pCudaDeviceCount, pCudaDevices, cudaDeviceCount, deviceList.0))
    })
}

/// Register an OpenGL texture or renderbuffer object.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsGLRegisterImage(
    resource: *mut cudaGraphicsResource_t,
    image: GLuint,
    target: GLenum,
    flags: c_uint,
) -> cudaError_t {
    run("cudaGraphicsGLRegisterImage", || {
        cu(rt::ctx()?.cuGraphicsGLRegisterImage(resource as *mut CUgraphicsResource, image, target, flags))
    })
}

/// Registers an OpenGL buffer object.
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsGLRegisterBuffer(resource: *mut cudaGraphicsResource_t, buffer: GLuint, flags: c_uint) -> cudaError_t {
    run("cudaGraphicsGLRegisterBuffer", || {
        cu(rt::ctx()?.cuGraphicsGLRegisterBuffer(resource as *mut CUgraphicsResource, buffer, flags))
    })
}

/// Sets a CUDA device to use OpenGL interoperability. Deprecated since CUDA 5.0: no device
/// needs to be associated with the GL context any more; `device` becomes the thread's device
/// and its primary context is initialized, which must not be active yet
/// (`cudaErrorSetOnActiveProcess`).
#[no_mangle]
pub unsafe extern "C" fn cudaGLSetGLDevice(device: c_int) -> cudaError_t {
    run("cudaGLSetGLDevice", || {
        crate::api::interop::inactive_device(device)?;
        rt::set_device(device)
    })
}

/// Registers a buffer object for access by CUDA.
#[no_mangle]
pub unsafe extern "C" fn cudaGLRegisterBufferObject(bufObj: GLuint) -> cudaError_t {
    run("cudaGLRegisterBufferObject", || cu(rt::ctx()?.cuGLRegisterBufferObject(bufObj)))
}

/// Maps a buffer object for access by CUDA.
#[no_mangle]
pub unsafe extern "C" fn cudaGLMapBufferObject(devPtr: *mut *mut c_void, bufObj: GLuint) -> cudaError_t {
    run("cudaGLMapBufferObject", || {
        let o = out(devPtr)?;
        let f = rt::ctx()?;
        let (mut p, mut size): (CUdeviceptr, usize) = (0, 0);
        cu(f.cuGLMapBufferObject(&mut p, &mut size, bufObj))?;
        *o = p as *mut c_void;
        Ok(())
    })
}

/// Unmaps a buffer object for access by CUDA.
#[no_mangle]
pub unsafe extern "C" fn cudaGLUnmapBufferObject(bufObj: GLuint) -> cudaError_t {
    run("cudaGLUnmapBufferObject", || cu(rt::ctx()?.cuGLUnmapBufferObject(bufObj)))
}

/// Unregisters a buffer object for access by CUDA.
#[no_mangle]
pub unsafe extern "C" fn cudaGLUnregisterBufferObject(bufObj: GLuint) -> cudaError_t {
    run("cudaGLUnregisterBufferObject", || cu(rt::ctx()?.cuGLUnregisterBufferObject(bufObj)))
}

/// Set usage flags for mapping an OpenGL buffer.
#[no_mangle]
pub unsafe extern "C" fn cudaGLSetBufferObjectMapFlags(bufObj: GLuint, flags: c_uint) -> cudaError_t {
    run("cudaGLSetBufferObjectMapFlags", || cu(rt::ctx()?.cuGLSetBufferObjectMapFlags(bufObj, flags)))
}

/// Maps a buffer object for access by CUDA.
#[no_mangle]
pub unsafe extern "C" fn cudaGLMapBufferObjectAsync(devPtr: *mut *mut c_void, bufObj: GLuint, stream: cudaStream_t) -> cudaError_t {
    run("cudaGLMapBufferObjectAsync", || {
        let o = out(devPtr)?;
        let f = rt::ctx()?;
        let (mut p, mut size): (CUdeviceptr, usize) = (0, 0);
        cu(f.cuGLMapBufferObjectAsync(&mut p, &mut size, bufObj, stream))?;
        *o = p as *mut c_void;
        Ok(())
    })
}

/// Unmaps a buffer object for access by CUDA.
#[no_mangle]
pub unsafe extern "C" fn cudaGLUnmapBufferObjectAsync(bufObj: GLuint, stream: cudaStream_t) -> cudaError_t {
    run("cudaGLUnmapBufferObjectAsync", || cu(rt::ctx()?.cuGLUnmapBufferObjectAsync(bufObj, stream)))
}
