//! Copy and memset types (NVIDIA's `driver_types.h`): positions, extents, pitched pointers
//! and the 3D copy parameter blocks.

use std::ffi::{c_int, c_void};

use super::cudaArray_t;

/// CUDA Pitched memory pointer
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaPitchedPtr {
    /// Pointer to allocated memory
    pub ptr: *mut c_void,
    /// Pitch of allocated memory in bytes
    pub pitch: usize,
    /// Logical width of allocation in elements
    pub xsize: usize,
    /// Logical height of allocation in elements
    pub ysize: usize,
}

/// CUDA extent
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct cudaExtent {
    /// Width in elements when referring to array memory, in bytes when referring to linear memory
    pub width: usize,
    /// Height in elements
    pub height: usize,
    /// Depth in elements
    pub depth: usize,
}

/// CUDA 3D position
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct cudaPos {
    /// x
    pub x: usize,
    /// y
    pub y: usize,
    /// z
    pub z: usize,
}

/// CUDA 3D memory copying parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaMemcpy3DParms {
    /// Source memory address
    pub srcArray: cudaArray_t,
    /// Source position offset
    pub srcPos: cudaPos,
    /// Pitched source memory address
    pub srcPtr: cudaPitchedPtr,
    /// Destination memory address
    pub dstArray: cudaArray_t,
    /// Destination position offset
    pub dstPos: cudaPos,
    /// Pitched destination memory address
    pub dstPtr: cudaPitchedPtr,
    /// Requested memory copy size
    pub extent: cudaExtent,
    /// Type of transfer
    pub kind: super::raw::cudaMemcpyKind,
}

/// CUDA 3D cross-device memory copying parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaMemcpy3DPeerParms {
    /// Source memory address
    pub srcArray: cudaArray_t,
    /// Source position offset
    pub srcPos: cudaPos,
    /// Pitched source memory address
    pub srcPtr: cudaPitchedPtr,
    /// Source device
    pub srcDevice: c_int,
    /// Destination memory address
    pub dstArray: cudaArray_t,
    /// Destination position offset
    pub dstPos: cudaPos,
    /// Pitched destination memory address
    pub dstPtr: cudaPitchedPtr,
    /// Destination device
    pub dstDevice: c_int,
    /// Requested memory copy size
    pub extent: cudaExtent,
}
