//! Graphics interoperability types of the runtime header (NVIDIA's `driver_types.h`). The
//! OpenGL, EGL and VDPAU types live in `gl.rs` and `egl.rs`, which go to headers of their own
//! (`cuda_gl_interop.h`, `cuda_egl_interop.h`; see build.rs).

/// CUDA graphics interop resource: a driver `CUgraphicsResource`.
pub struct cudaGraphicsResource {
    _private: [u8; 0],
}

/// CUDA graphics resource types
pub type cudaGraphicsResource_t = *mut cudaGraphicsResource;

/// CUDA graphics interop register flags
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphicsRegisterFlags {
    /// Default
    cudaGraphicsRegisterFlagsNone = 0,
    /// CUDA will not write to this resource
    cudaGraphicsRegisterFlagsReadOnly = 1,
    /// CUDA will only write to and will not read from this resource
    cudaGraphicsRegisterFlagsWriteDiscard = 2,
    /// CUDA will bind this resource to a surface reference
    cudaGraphicsRegisterFlagsSurfaceLoadStore = 4,
    /// CUDA will perform texture gather operations on this resource
    cudaGraphicsRegisterFlagsTextureGather = 8,
}

/// CUDA graphics interop map flags
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphicsMapFlags {
    /// Default; Assume resource can be read/written
    cudaGraphicsMapFlagsNone = 0,
    /// CUDA will not write to this resource
    cudaGraphicsMapFlagsReadOnly = 1,
    /// CUDA will only write to and will not read from this resource
    cudaGraphicsMapFlagsWriteDiscard = 2,
}

/// CUDA graphics interop array indices for cube maps
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphicsCubeFace {
    /// Positive X face of cubemap
    cudaGraphicsCubeFacePositiveX = 0x00,
    /// Negative X face of cubemap
    cudaGraphicsCubeFaceNegativeX = 0x01,
    /// Positive Y face of cubemap
    cudaGraphicsCubeFacePositiveY = 0x02,
    /// Negative Y face of cubemap
    cudaGraphicsCubeFaceNegativeY = 0x03,
    /// Positive Z face of cubemap
    cudaGraphicsCubeFacePositiveZ = 0x04,
    /// Negative Z face of cubemap
    cudaGraphicsCubeFaceNegativeZ = 0x05,
}
