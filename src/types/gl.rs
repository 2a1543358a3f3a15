//! OpenGL interoperability types (NVIDIA's `cuda_gl_interop.h`). They go to
//! `include/cuda_gl_interop.h`, generated from this file and `src/api/gl.rs` alone (build.rs),
//! which takes `GLuint` and `GLenum` from the system's `<GL/gl.h>`, as NVIDIA's does.

use std::ffi::c_uint;

/// OpenGL's `GLuint` (`<GL/gl.h>`).
/// cbindgen:ignore
pub type GLuint = c_uint;
/// OpenGL's `GLenum` (`<GL/gl.h>`).
/// cbindgen:ignore
pub type GLenum = c_uint;

/// CUDA devices corresponding to the current OpenGL context
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGLDeviceList {
    /// The CUDA devices for all GPUs used by the current OpenGL context
    cudaGLDeviceListAll = 1,
    /// The CUDA devices for the GPUs used by the current OpenGL context in its currently rendering frame
    cudaGLDeviceListCurrentFrame = 2,
    /// The CUDA devices for the GPUs to be used by the current OpenGL context in the next frame
    cudaGLDeviceListNextFrame = 3,
}

/// CUDA GL Map Flags
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGLMapFlags {
    /// Default; Assume resource can be read/written
    cudaGLMapFlagsNone = 0,
    /// CUDA kernels will not write to this resource
    cudaGLMapFlagsReadOnly = 1,
    /// CUDA kernels will only write to and will not read from this resource
    cudaGLMapFlagsWriteDiscard = 2,
}

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(cudaGLDeviceList);
}
