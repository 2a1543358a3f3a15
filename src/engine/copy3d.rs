//! The conversions of the runtime's copy descriptions into the driver's, and the 3D copy
//! itself, shared by the copies (`api::copy`), the array copies (`api::array`) and the copy
//! nodes of graphs (`api::graph_params`):
//!
//! - [`direction`]: a `cudaMemcpyKind` to the driver memory types of the pointer ends;
//! - [`ArrayState`] / [`array_state`]: what a copy needs to know of a CUDA array (its
//!   element size, block extent and row width in bytes), read from the driver;
//! - [`memcpy3d_init`] / [`set_ptr`]: the `CUDA_MEMCPY3D` every copy starts from, its ends;
//! - [`run3d`]: the copy, as one linear copy where its rows and slices follow each other.

use std::ffi::c_void;

use crate::driver::types::*;
use crate::driver::Fns;
use crate::engine::formats::element_bytes;
use crate::runtime::boundary::{cu, Res};
use crate::types::cudaError;
use crate::types::*;

/// The driver memory types of the source and destination pointers of a copy of `kind`:
/// host for the host side, device for the device side, unified (direction inferred from
/// the addresses) for `cudaMemcpyDefault`. `cudaErrorInvalidMemcpyDirection` for a value
/// that is none of the five kinds.
#[inline]
pub(crate) fn direction(kind: raw::cudaMemcpyKind) -> Res<(CUmemorytype, CUmemorytype)> {
    use cudaMemcpyKind::*;
    const H: CUmemorytype = CU_MEMORYTYPE_HOST;
    const D: CUmemorytype = CU_MEMORYTYPE_DEVICE;
    if kind == cudaMemcpyHostToHost {
        Ok((H, H))
    } else if kind == cudaMemcpyHostToDevice {
        Ok((H, D))
    } else if kind == cudaMemcpyDeviceToHost {
        Ok((D, H))
    } else if kind == cudaMemcpyDeviceToDevice {
        Ok((D, D))
    } else if kind == cudaMemcpyDefault {
        Ok((CU_MEMORYTYPE_UNIFIED, CU_MEMORYTYPE_UNIFIED))
    } else {
        Err(cudaError::cudaErrorInvalidMemcpyDirection)
    }
}

/// What NVIDIA's runtime knows of a CUDA array when it copies to or from it.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ArrayState {
    pub array: CUarray,
    /// Bytes per element (per 4x4 block of a block-compressed format).
    pub elem: usize,
    /// Elements per block across and down (4 x 4 for block-compressed formats, else 1 x 1).
    pub block_w: usize,
    pub block_h: usize,
    /// Bytes in one row of blocks.
    pub width_bytes: usize,
}

/// Reads an array's descriptor from the driver (its error for a bad handle, NULL included,
/// and a fault of the context): the element size and block extent of its format, and its
/// row width in bytes. The planar and YUV formats, which the format table does not size,
/// count one byte per channel (two for the 16-bit ones).
pub(crate) fn array_state(f: &Fns, a: CUarray) -> Res<ArrayState> {
    let mut d = CUDA_ARRAY3D_DESCRIPTOR::default();
    // SAFETY: valid out pointer; the driver checks the handle.
    cu(unsafe { f.cuArray3DGetDescriptor(&mut d, a) })?;
    let channels = d.NumChannels.max(1) as usize;
    let (elem, block) = match d.Format {
        // Block-compressed formats: one 4x4 block is 8 bytes (BC1, BC4) or 16.
        0x91 | 0x92 | 0x97 | 0x98 => (8, 4),
        0x93..=0x96 | 0x99..=0x9e => (16, 4),
        fmt => (
            match element_bytes(fmt, d.NumChannels.max(1)) {
                Some(n) => n,
                // 16-bit YUV formats.
                None if matches!(fmt, 0x9f | 0xa1 | 0xa3 | 0xa4 | 0xa6 | 0xa7 | 0xb3 | 0xb5) => 2 * channels,
                None => channels,
            },
            1,
        ),
    };
    let blocks = |n: usize| n.div_ceil(block);
    Ok(ArrayState { array: a, elem, block_w: block, block_h: block, width_bytes: blocks(d.Width).wrapping_mul(elem) })
}

/// Bytes per element of a CUDA array (see [`array_state`]).
pub(crate) fn array_element_size(f: &Fns, a: CUarray) -> Res<usize> {
    Ok(array_state(f, a)?.elem)
}

/// The `CUDA_MEMCPY3D` NVIDIA's runtime starts every copy from: everything zero but the two
/// memory types, one row and one slice.
pub(crate) fn memcpy3d_init(dst: CUmemorytype, src: CUmemorytype) -> CUDA_MEMCPY3D {
    CUDA_MEMCPY3D { srcMemoryType: src, dstMemoryType: dst, Height: 1, Depth: 1, ..Default::default() }
}

/// Sets a pointer end of a copy: the host address for a host end, else the device (or
/// unified) one.
pub(crate) fn set_ptr(mem: CUmemorytype, p: *const c_void, host: &mut usize, dev: &mut CUdeviceptr) {
    if mem == CU_MEMORYTYPE_HOST {
        *host = p as usize;
    } else {
        *dev = p as usize as CUdeviceptr;
    }
}

/// Runs a 3D copy: synchronously without a stream, else on `stream`. An empty copy goes to
/// the driver too, as with NVIDIA's runtime; one of whole, gapless slices is the linear copy
/// it is ([`crate::engine::linear`]).
pub(crate) fn run3d(f: &Fns, c: &CUDA_MEMCPY3D, stream: Option<cudaStream_t>) -> Res {
    if let Some(r) = crate::engine::linear::copy3d(f, c, stream) {
        return r;
    }
    // SAFETY: a complete description; the driver checks the addresses.
    cu(unsafe {
        match stream {
            None => f.cuMemcpy3D(c),
            Some(s) => f.cuMemcpy3DAsync(c, s),
        }
    })
}
