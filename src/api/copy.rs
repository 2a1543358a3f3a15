//! Copies and memsets on linear memory, `cudaMalloc3D`, and the conversion of the runtime's
//! copy descriptions into the driver's, for the array copies (`array.rs`) to share:
//!
//! - [`direction`]: a `cudaMemcpyKind` to the driver memory types of the pointer ends;
//! - [`End`]: one end of a copy in the driver's terms (host, device, unified or array);
//! - [`memcpy2d_params`] / [`run2d`]: a 2D copy (widths and x offsets in bytes);
//! - [`memcpy3d_params`] / [`run3d`]: `cudaMemcpy3DParms` to `CUDA_MEMCPY3D` (widths and
//!   x positions in elements of the array taking part, bytes otherwise);
//! - [`array_element_size`]: bytes per element of a CUDA array.
//!
//! An empty copy (a size of zero) succeeds before any other check, whatever the kind,
//! devices, pointers or pitches: the `*_params` functions return an all-zero description
//! and the `run*` functions make no driver call for it.
//!
//! Pitches of pointer ends are checked by the runtime only where rows follow each other
//! (more than one row, or more than one slice): narrower than the row or wider than the
//! device's maximum pitch is `cudaErrorInvalidPitchValue`, and so are fewer rows per slice
//! than the copy's height where there is more than one slice. Otherwise the driver checks
//! them (pitch at least x + width, rows per slice at least y + height: `cudaErrorInvalidValue`).
#![allow(non_snake_case)]

use std::ffi::{c_int, c_void};
use std::ptr::null_mut;

use crate::api::array::element_bytes;
use crate::boundary::{cu, out, run, Res};
use crate::driver::types::*;
use crate::driver::Fns;
use crate::error::cudaError;
use crate::rt;
use crate::types::*;

const CU_DEVICE_ATTRIBUTE_MAX_PITCH: CUdevice_attribute = 11;
/// Pitches up to this never exceed a device's maximum pitch, so no attribute query is needed.
const PITCH_ALWAYS_OK: usize = 1 << 21;
/// The element size `cudaMalloc3D` passes to `cuMemAllocPitch` (as `cudaMallocPitch` does).
const MALLOC3D_ELEMENT_SIZE: std::ffi::c_uint = 16;

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

/// One end of a copy in the driver's terms. `x` is in bytes; `pitch` and `height` (rows
/// per slice) describe a pointer end and are unused for an array end.
#[derive(Copy, Clone, Debug)]
pub(crate) struct End {
    pub mem: CUmemorytype,
    /// Host or device (or unified) address of a pointer end.
    pub addr: usize,
    pub array: CUarray,
    pub pitch: usize,
    pub height: usize,
    pub x: usize,
    pub y: usize,
    pub z: usize,
}

impl End {
    /// A pointer end of memory type `mem` (from [`direction`]).
    pub(crate) fn ptr(mem: CUmemorytype, p: *const c_void, pitch: usize, height: usize) -> End {
        End { mem, addr: p as usize, array: null_mut(), pitch, height, x: 0, y: 0, z: 0 }
    }

    /// An array end (whatever the kind says, an array is device memory).
    pub(crate) fn array(a: CUarray) -> End {
        End {
            mem: CU_MEMORYTYPE_ARRAY,
            addr: 0,
            array: a,
            pitch: 0,
            height: 0,
            x: 0,
            y: 0,
            z: 0,
        }
    }

    /// The same end at offset (`x` bytes, `y` rows, `z` slices).
    pub(crate) fn at(self, x: usize, y: usize, z: usize) -> End {
        End { x, y, z, ..self }
    }

    fn is_ptr(&self) -> bool {
        self.mem != CU_MEMORYTYPE_ARRAY
    }

    fn host(&self) -> usize {
        if self.mem == CU_MEMORYTYPE_HOST {
            self.addr
        } else {
            0
        }
    }

    fn device(&self) -> CUdeviceptr {
        if self.mem == CU_MEMORYTYPE_HOST || self.mem == CU_MEMORYTYPE_ARRAY {
            0
        } else {
            self.addr as CUdeviceptr
        }
    }
}

/// Checks the pitch of a pointer end of a copy of several rows against the row width:
/// `cudaErrorInvalidPitchValue` if it is narrower than the row or wider than the device's
/// maximum pitch. Nothing to check for an array end or a single row.
fn check_pitch(f: &Fns, e: &End, width_bytes: usize, rows: usize) -> Res {
    if !e.is_ptr() || rows <= 1 {
        return Ok(());
    }
    if e.pitch < width_bytes {
        return Err(cudaError::cudaErrorInvalidPitchValue);
    }
    if e.pitch > PITCH_ALWAYS_OK {
        let dev = rt::current_device()?;
        let mut max: c_int = 0;
        // SAFETY: valid out pointer.
        cu(unsafe { f.cuDeviceGetAttribute(&mut max, CU_DEVICE_ATTRIBUTE_MAX_PITCH, dev) })?;
        if max > 0 && e.pitch > max as usize {
            return Err(cudaError::cudaErrorInvalidPitchValue);
        }
    }
    Ok(())
}

/// A 2D copy of `height` rows of `width` bytes from `src` to `dst` (pointer ends made with
/// [`End::ptr`]; array ends with [`End::array`] and their offset in bytes and rows set with
/// [`End::at`]). An empty copy gives the all-zero description; [`run2d`] does nothing for
/// it. No checks: the callers make theirs first.
pub(crate) fn memcpy2d_params(dst: End, src: End, width: usize, height: usize) -> CUDA_MEMCPY2D {
    if width == 0 || height == 0 {
        return CUDA_MEMCPY2D::default();
    }
    CUDA_MEMCPY2D {
        srcXInBytes: src.x,
        srcY: src.y,
        srcMemoryType: src.mem,
        srcHost: src.host() as *const c_void,
        srcDevice: src.device(),
        srcArray: src.array,
        srcPitch: src.pitch,
        dstXInBytes: dst.x,
        dstY: dst.y,
        dstMemoryType: dst.mem,
        dstHost: dst.host() as *mut c_void,
        dstDevice: dst.device(),
        dstArray: dst.array,
        dstPitch: dst.pitch,
        WidthInBytes: width,
        Height: height,
    }
}

/// Runs a 2D copy: synchronously without a stream, else on `stream`. Nothing for an empty one;
/// one whose rows follow each other is the linear copy it is ([`crate::linear`]).
pub(crate) fn run2d(f: &Fns, c: &CUDA_MEMCPY2D, stream: Option<cudaStream_t>) -> Res {
    if c.WidthInBytes == 0 || c.Height == 0 {
        return Ok(());
    }
    if let Some(r) = crate::linear::copy2d(f, c, stream) {
        return r;
    }
    // SAFETY: a complete description; the driver checks the addresses.
    cu(unsafe {
        match stream {
            None => f.cuMemcpy2DUnaligned(c),
            Some(s) => f.cuMemcpy2DAsync(c, s),
        }
    })
}

/// Bytes per element of a CUDA array: a whole 4x4 block for the block-compressed formats,
/// else what the format table of the array exports says ([`element_bytes`]); the planar and
/// YUV formats, which that table does not size, count one byte per channel (two for the 16-bit
/// ones).
pub(crate) fn array_element_size(f: &Fns, a: CUarray) -> Res<usize> {
    let mut d = CUDA_ARRAY3D_DESCRIPTOR::default();
    // SAFETY: valid out pointer; the driver checks the handle.
    cu(unsafe { f.cuArray3DGetDescriptor(&mut d, a) })?;
    let channels = d.NumChannels.max(1) as usize;
    Ok(match d.Format {
        // Block-compressed formats: one 4x4 block is 8 bytes (BC1, BC4) or 16.
        0x91 | 0x92 | 0x97 | 0x98 => 8,
        0x93..=0x96 | 0x99..=0x9e => 16,
        fmt => match element_bytes(fmt, d.NumChannels.max(1)) {
            Some(n) => n,
            // 16-bit YUV formats.
            None if matches!(fmt, 0x9f | 0xa1 | 0xa3 | 0xa4 | 0xa6 | 0xa7 | 0xb3 | 0xb5) => 2 * channels,
            None => channels,
        },
    })
}

/// The ends and size of a 3D copy, in bytes, before they go into a driver struct.
struct Copy3D {
    src: End,
    dst: End,
    width: usize,
    height: usize,
    depth: usize,
}

/// One end of a 3D copy as the runtime gives it: exactly one of `array` and `ptr.ptr` set,
/// and an array only where the kind puts that end on the device (or lets the addresses
/// say: `cudaMemcpyDefault`, the peer copies); else `cudaErrorInvalidValue`.
fn end3d(array: cudaArray_t, ptr: &cudaPitchedPtr, mem: CUmemorytype) -> Res<End> {
    match (array.is_null(), ptr.ptr.is_null()) {
        (false, true) if mem != CU_MEMORYTYPE_HOST => Ok(End::array(array as CUarray)),
        (true, false) => Ok(End::ptr(mem, ptr.ptr, ptr.pitch, ptr.ysize)),
        _ => Err(cudaError::cudaErrorInvalidValue),
    }
}

/// The runtime's checks of a pointer end of a 3D copy of `width` bytes x `height` rows x
/// `depth` slices: the pitch where there are several rows ([`check_pitch`]) and the rows
/// per slice (`ysize`) where there are several slices, at least `height`
/// (`cudaErrorInvalidPitchValue`).
fn check_end3d(f: &Fns, e: &End, width: usize, height: usize, depth: usize) -> Res {
    check_pitch(f, e, width, height.saturating_mul(depth))?;
    if e.is_ptr() && depth > 1 && e.height < height {
        return Err(cudaError::cudaErrorInvalidPitchValue);
    }
    Ok(())
}

/// The shared part of [`memcpy3d_params`] and the peer copies (no kind: pointer ends are
/// unified addresses): positions and the width in elements of the array taking part (bytes
/// if none) to bytes, with the checks [`memcpy3d_params`] lists. `None` for an empty extent
/// (checked first).
fn copy3d(
    f: &Fns,
    src: (cudaArray_t, &cudaPos, &cudaPitchedPtr),
    dst: (cudaArray_t, &cudaPos, &cudaPitchedPtr),
    extent: &cudaExtent,
    kind: Option<raw::cudaMemcpyKind>,
) -> Res<Option<Copy3D>> {
    if extent.width == 0 || extent.height == 0 || extent.depth == 0 {
        return Ok(None);
    }
    let (smem, dmem) = match kind {
        Some(k) => direction(k)?,
        None => (CU_MEMORYTYPE_UNIFIED, CU_MEMORYTYPE_UNIFIED),
    };
    let s = end3d(src.0, src.2, smem)?;
    let d = end3d(dst.0, dst.2, dmem)?;
    let ses = if s.is_ptr() { None } else { Some(array_element_size(f, s.array)?) };
    let des = if d.is_ptr() { None } else { Some(array_element_size(f, d.array)?) };
    let elem = match (ses, des) {
        (Some(a), Some(b)) if a != b => return Err(cudaError::cudaErrorInvalidValue),
        (Some(a), _) | (None, Some(a)) => a,
        (None, None) => 1,
    };
    // Widths and x positions are in the copy's elements at both ends: a pointer end's
    // position is scaled by the array's element size too, as NVIDIA's runtime does
    // (measured on the H100, ctest/array_3d.c).
    let bytes = |n: usize| n.checked_mul(elem).ok_or(cudaError::cudaErrorInvalidValue);
    let width = bytes(extent.width)?;
    let s = s.at(bytes(src.1.x)?, src.1.y, src.1.z);
    let d = d.at(bytes(dst.1.x)?, dst.1.y, dst.1.z);
    check_end3d(f, &s, width, extent.height, extent.depth)?;
    check_end3d(f, &d, width, extent.height, extent.depth)?;
    Ok(Some(Copy3D { src: s, dst: d, width, height: extent.height, depth: extent.depth }))
}

/// `cudaMemcpy3DParms` to the driver's `CUDA_MEMCPY3D`, with NVIDIA's checks in this order:
/// an empty extent succeeds (the all-zero struct, which [`run3d`] skips) whatever the rest
/// says; a valid kind (`cudaErrorInvalidMemcpyDirection`); exactly one of array and pointer
/// per end, and no array at an end the kind puts on the host (`cudaErrorInvalidValue`);
/// equal element sizes when both ends are arrays (`cudaErrorInvalidValue`); pitches and
/// rows per slice of pointer ends ([`check_end3d`]: `cudaErrorInvalidPitchValue`).
/// `extent.width` and `srcPos.x`/`dstPos.x` of both ends are in elements of the array
/// taking part (bytes if none).
pub(crate) fn memcpy3d_params(f: &Fns, p: &cudaMemcpy3DParms) -> Res<CUDA_MEMCPY3D> {
    let Some(c) = copy3d(
        f,
        (p.srcArray, &p.srcPos, &p.srcPtr),
        (p.dstArray, &p.dstPos, &p.dstPtr),
        &p.extent,
        Some(p.kind),
    )?
    else {
        return Ok(CUDA_MEMCPY3D::default());
    };
    let (s, d) = (c.src, c.dst);
    Ok(CUDA_MEMCPY3D {
        srcXInBytes: s.x,
        srcY: s.y,
        srcZ: s.z,
        srcLOD: 0,
        srcMemoryType: s.mem,
        srcHost: s.host() as *const c_void,
        srcDevice: s.device(),
        srcArray: s.array,
        reserved0: null_mut(),
        srcPitch: s.pitch,
        srcHeight: s.height,
        dstXInBytes: d.x,
        dstY: d.y,
        dstZ: d.z,
        dstLOD: 0,
        dstMemoryType: d.mem,
        dstHost: d.host() as *mut c_void,
        dstDevice: d.device(),
        dstArray: d.array,
        reserved1: null_mut(),
        dstPitch: d.pitch,
        dstHeight: d.height,
        WidthInBytes: c.width,
        Height: c.height,
        Depth: c.depth,
    })
}

/// Runs a 3D copy: synchronously without a stream, else on `stream`. Nothing for an empty one;
/// one of whole, gapless slices is the linear copy it is ([`crate::linear`]).
pub(crate) fn run3d(f: &Fns, c: &CUDA_MEMCPY3D, stream: Option<cudaStream_t>) -> Res {
    if c.WidthInBytes == 0 || c.Height == 0 || c.Depth == 0 {
        return Ok(());
    }
    if let Some(r) = crate::linear::copy3d(f, c, stream) {
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

/// `cudaMemcpy3D`/`cudaMemcpy3DAsync`.
fn memcpy3d(p: *const cudaMemcpy3DParms, stream: Option<cudaStream_t>) -> Res {
    // SAFETY: the caller's parameter block; null is rejected.
    let p = unsafe { p.as_ref() }.ok_or(cudaError::cudaErrorInvalidValue)?;
    let f = rt::ctx()?;
    let c = memcpy3d_params(f, p)?;
    run3d(f, &c, stream)
}

/// `cudaMemcpy3DPeer`/`cudaMemcpy3DPeerAsync`: pointer ends are unified addresses, each
/// end in the primary context of its device. An empty extent succeeds before the devices
/// are checked.
fn memcpy3d_peer(p: *const cudaMemcpy3DPeerParms, stream: Option<cudaStream_t>) -> Res {
    // SAFETY: the caller's parameter block; null is rejected.
    let p = unsafe { p.as_ref() }.ok_or(cudaError::cudaErrorInvalidValue)?;
    let f = rt::ctx()?;
    let e = &p.extent;
    if e.width == 0 || e.height == 0 || e.depth == 0 {
        return Ok(());
    }
    let sctx = rt::primary(p.srcDevice)?;
    let dctx = rt::primary(p.dstDevice)?;
    let Some(c) = copy3d(
        f,
        (p.srcArray, &p.srcPos, &p.srcPtr),
        (p.dstArray, &p.dstPos, &p.dstPtr),
        &p.extent,
        None,
    )?
    else {
        return Ok(());
    };
    let (s, d) = (c.src, c.dst);
    let cp = CUDA_MEMCPY3D_PEER {
        srcXInBytes: s.x,
        srcY: s.y,
        srcZ: s.z,
        srcLOD: 0,
        srcMemoryType: s.mem,
        srcHost: s.host() as *const c_void,
        srcDevice: s.device(),
        srcArray: s.array,
        srcContext: sctx,
        srcPitch: s.pitch,
        srcHeight: s.height,
        dstXInBytes: d.x,
        dstY: d.y,
        dstZ: d.z,
        dstLOD: 0,
        dstMemoryType: d.mem,
        dstHost: d.host() as *mut c_void,
        dstDevice: d.device(),
        dstArray: d.array,
        dstContext: dctx,
        dstPitch: d.pitch,
        dstHeight: d.height,
        WidthInBytes: c.width,
        Height: c.height,
        Depth: c.depth,
    };
    // SAFETY: a complete description; the driver checks the addresses.
    cu(unsafe {
        match stream {
            None => f.cuMemcpy3DPeer(&cp),
            Some(st) => f.cuMemcpy3DPeerAsync(&cp, st),
        }
    })
}

/// `cudaMemcpy`/`cudaMemcpyAsync`: a copy of zero bytes does nothing (whatever the kind and
/// pointers); then the kind is checked; a large copy between pageable and device memory goes
/// through the staging pipeline ([`crate::pageable`]); explicit kinds use the driver's typed
/// copies, host-to-host and default the unified one.
fn memcpy1d(dst: *mut c_void, src: *const c_void, count: usize, kind: raw::cudaMemcpyKind, stream: Option<cudaStream_t>) -> Res {
    let f = rt::ctx()?;
    if count == 0 {
        return Ok(());
    }
    let (s, d) = direction(kind)?;
    if let Some(r) = crate::pageable::memcpy(f, dst, src, count, s, d, stream) {
        return r;
    }
    let (dd, sd) = (dst as CUdeviceptr, src as CUdeviceptr);
    // SAFETY: plain driver copies; the driver checks the addresses.
    cu(unsafe {
        match (s, d, stream) {
            (CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_DEVICE, None) => f.cuMemcpyHtoD(dd, src, count),
            (CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_DEVICE, Some(h)) => f.cuMemcpyHtoDAsync(dd, src, count, h),
            (CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_HOST, None) => f.cuMemcpyDtoH(dst, sd, count),
            (CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_HOST, Some(h)) => f.cuMemcpyDtoHAsync(dst, sd, count, h),
            (CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_DEVICE, None) => f.cuMemcpyDtoD(dd, sd, count),
            (CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_DEVICE, Some(h)) => f.cuMemcpyDtoDAsync(dd, sd, count, h),
            (_, _, None) => f.cuMemcpy(dd, sd, count),
            (_, _, Some(h)) => f.cuMemcpyAsync(dd, sd, count, h),
        }
    })
}

/// The pitch of a single row that NVIDIA's runtime refuses (`cudaErrorInvalidValue`): one
/// given (not 0) and narrower than the row. A pitch of 0 says nothing and is accepted.
#[inline]
pub(crate) fn narrower(pitch: usize, width: usize) -> bool {
    pitch != 0 && pitch < width
}

/// The pitch a pointer end of a 2D copy gives the driver: its own with several rows; with
/// one row, where the pitch is not used (and may be 0), the row width.
#[inline]
pub(crate) fn row_pitch(pitch: usize, width: usize, height: usize) -> usize {
    if height == 1 {
        width
    } else {
        pitch
    }
}

/// `cudaMemcpy2D`/`cudaMemcpy2DAsync`: an empty copy does nothing (whatever the kind and
/// pitches); with several rows, the pitches ([`check_pitch`], before the kind); the kind;
/// with one row the pitches are not used, but one that is given must still cover the row
/// ([`narrower`]), and the driver gets the row width as both pitches (so a pitch of 0 or
/// any larger one works).
#[allow(clippy::too_many_arguments)]
fn memcpy2d(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: raw::cudaMemcpyKind,
    stream: Option<cudaStream_t>,
) -> Res {
    let f = rt::ctx()?;
    if width == 0 || height == 0 {
        return Ok(());
    }
    if height > 1 {
        check_pitch(f, &End::ptr(CU_MEMORYTYPE_DEVICE, dst, dpitch, height), width, height)?;
        check_pitch(f, &End::ptr(CU_MEMORYTYPE_DEVICE, src, spitch, height), width, height)?;
    }
    let (s, d) = direction(kind)?;
    if height == 1 && (narrower(dpitch, width) || narrower(spitch, width)) {
        return Err(cudaError::cudaErrorInvalidValue);
    }
    let (dp, sp) = (row_pitch(dpitch, width, height), row_pitch(spitch, width, height));
    let c = memcpy2d_params(End::ptr(d, dst, dp, height), End::ptr(s, src, sp, height), width, height);
    run2d(f, &c, stream)
}

/// `cudaMemcpyPeer`/`cudaMemcpyPeerAsync`: a copy of zero bytes does nothing (whatever the
/// devices and pointers); device ordinals to primary contexts.
fn memcpy_peer(dst: *mut c_void, dstDevice: c_int, src: *const c_void, srcDevice: c_int, count: usize, stream: Option<cudaStream_t>) -> Res {
    let f = rt::ctx()?;
    if count == 0 {
        return Ok(());
    }
    let dctx = rt::primary(dstDevice)?;
    let sctx = rt::primary(srcDevice)?;
    let (dd, sd) = (dst as CUdeviceptr, src as CUdeviceptr);
    // SAFETY: plain driver copies; the driver checks the addresses.
    cu(unsafe {
        match stream {
            None => f.cuMemcpyPeer(dd, dctx, sd, sctx, count),
            Some(h) => f.cuMemcpyPeerAsync(dd, dctx, sd, sctx, count, h),
        }
    })
}

/// Sets `height` rows of `width` bytes, `pitch` apart, to the low byte of `value`.
/// One row ignores the pitch; more need a pitch of at least `width` (`cudaErrorInvalidValue`);
/// rows that follow each other are one linear memset ([`crate::linear`]).
fn memset_rows(f: &Fns, ptr: CUdeviceptr, pitch: usize, value: c_int, width: usize, height: usize, stream: Option<cudaStream_t>) -> Res {
    let v = value as u8;
    if let Some(r) = crate::linear::memset2d(f, ptr, pitch, v, width, height, stream) {
        return r;
    }
    // SAFETY: plain driver memsets; the driver checks the addresses.
    cu(unsafe {
        match (height, stream) {
            (1, None) => f.cuMemsetD8(ptr, v, width),
            (1, Some(h)) => f.cuMemsetD8Async(ptr, v, width, h),
            _ if pitch < width => return Err(cudaError::cudaErrorInvalidValue),
            (_, None) => f.cuMemsetD2D8(ptr, pitch, v, width, height),
            (_, Some(h)) => f.cuMemsetD2D8Async(ptr, pitch, v, width, height, h),
        }
    })
}

/// `cudaMemset`/`cudaMemsetAsync`.
fn memset1d(devPtr: *mut c_void, value: c_int, count: usize, stream: Option<cudaStream_t>) -> Res {
    let f = rt::ctx()?;
    if count == 0 {
        return Ok(());
    }
    memset_rows(f, devPtr as CUdeviceptr, count, value, count, 1, stream)
}

/// `cudaMemset2D`/`cudaMemset2DAsync`.
fn memset2d(devPtr: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize, stream: Option<cudaStream_t>) -> Res {
    let f = rt::ctx()?;
    if width == 0 || height == 0 {
        return Ok(());
    }
    memset_rows(f, devPtr as CUdeviceptr, pitch, value, width, height, stream)
}

/// `cudaMemset3D`/`cudaMemset3DAsync`: `extent.depth` slices of `extent.height` rows of
/// `extent.width` bytes; slices are `pitch * ysize` bytes apart. As NVIDIA's runtime does
/// (measured on the H100, `ctest/memset_3d_rules.c`): an empty extent does nothing;
/// `ysize < height` is `cudaErrorInvalidValue`, even for one slice; the pitch must cover the
/// row only when more than one row is set in all (`cudaErrorInvalidValue`); `xsize` is not
/// checked. Slices that follow each other row for row (`ysize == height`) are set as one
/// 2D block, others one by one.
fn memset3d(p: cudaPitchedPtr, value: c_int, extent: cudaExtent, stream: Option<cudaStream_t>) -> Res {
    let f = rt::ctx()?;
    let (w, h, d) = (extent.width, extent.height, extent.depth);
    if w == 0 || h == 0 || d == 0 {
        return Ok(());
    }
    if p.ysize < h || (h.saturating_mul(d) > 1 && p.pitch < w) {
        return Err(cudaError::cudaErrorInvalidValue);
    }
    let base = p.ptr as CUdeviceptr;
    if d == 1 || p.ysize == h {
        let rows = h.checked_mul(d).ok_or(cudaError::cudaErrorInvalidValue)?;
        return memset_rows(f, base, p.pitch, value, w, rows, stream);
    }
    let slice = p.pitch.checked_mul(p.ysize).ok_or(cudaError::cudaErrorInvalidValue)? as u64;
    for z in 0..d as u64 {
        let at = z.checked_mul(slice).and_then(|o| base.checked_add(o)).ok_or(cudaError::cudaErrorInvalidValue)?;
        memset_rows(f, at, p.pitch, value, w, h, stream)?;
    }
    Ok(())
}

/// Copies data between host and device.
// also: cudaMemcpy_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy(dst: *mut c_void, src: *const c_void, count: usize, kind: raw::cudaMemcpyKind) -> cudaError_t {
    run("cudaMemcpy", || memcpy1d(dst, src, count, kind, None))
}

/// Copies data between host and device.
// also: cudaMemcpyAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyAsync(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: raw::cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    run("cudaMemcpyAsync", || memcpy1d(dst, src, count, kind, Some(stream)))
}

/// Copies data between host and device.
// also: cudaMemcpy2D_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2D(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run("cudaMemcpy2D", || memcpy2d(dst, dpitch, src, spitch, width, height, kind, None))
}

/// Copies data between host and device.
// also: cudaMemcpy2DAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2DAsync(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: raw::cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    run("cudaMemcpy2DAsync", || memcpy2d(dst, dpitch, src, spitch, width, height, kind, Some(stream)))
}

/// Copies data between 3D objects.
// also: cudaMemcpy3D_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy3D(p: *const cudaMemcpy3DParms) -> cudaError_t {
    run("cudaMemcpy3D", || memcpy3d(p, None))
}

/// Copies data between 3D objects.
// also: cudaMemcpy3DAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy3DAsync(p: *const cudaMemcpy3DParms, stream: cudaStream_t) -> cudaError_t {
    run("cudaMemcpy3DAsync", || memcpy3d(p, Some(stream)))
}

/// Copies memory between two devices.
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyPeer(
    dst: *mut c_void,
    dstDevice: c_int,
    src: *const c_void,
    srcDevice: c_int,
    count: usize,
) -> cudaError_t {
    run("cudaMemcpyPeer", || memcpy_peer(dst, dstDevice, src, srcDevice, count, None))
}

/// Copies memory between two devices asynchronously.
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyPeerAsync(
    dst: *mut c_void,
    dstDevice: c_int,
    src: *const c_void,
    srcDevice: c_int,
    count: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    run("cudaMemcpyPeerAsync", || memcpy_peer(dst, dstDevice, src, srcDevice, count, Some(stream)))
}

/// Copies memory between devices.
// also: cudaMemcpy3DPeer_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy3DPeer(p: *const cudaMemcpy3DPeerParms) -> cudaError_t {
    run("cudaMemcpy3DPeer", || memcpy3d_peer(p, None))
}

/// Copies memory between devices asynchronously.
// also: cudaMemcpy3DPeerAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy3DPeerAsync(p: *const cudaMemcpy3DPeerParms, stream: cudaStream_t) -> cudaError_t {
    run("cudaMemcpy3DPeerAsync", || memcpy3d_peer(p, Some(stream)))
}

/// Initializes or sets device memory to a value.
// also: cudaMemset_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemset(devPtr: *mut c_void, value: c_int, count: usize) -> cudaError_t {
    run("cudaMemset", || memset1d(devPtr, value, count, None))
}

/// Initializes or sets device memory to a value.
// also: cudaMemsetAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemsetAsync(devPtr: *mut c_void, value: c_int, count: usize, stream: cudaStream_t) -> cudaError_t {
    run("cudaMemsetAsync", || memset1d(devPtr, value, count, Some(stream)))
}

/// Initializes or sets device memory to a value.
// also: cudaMemset2D_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemset2D(devPtr: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize) -> cudaError_t {
    run("cudaMemset2D", || memset2d(devPtr, pitch, value, width, height, None))
}

/// Initializes or sets device memory to a value.
// also: cudaMemset2DAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemset2DAsync(
    devPtr: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    run("cudaMemset2DAsync", || memset2d(devPtr, pitch, value, width, height, Some(stream)))
}

/// Initializes or sets device memory to a value.
// also: cudaMemset3D_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemset3D(pitchedDevPtr: cudaPitchedPtr, value: c_int, extent: cudaExtent) -> cudaError_t {
    run("cudaMemset3D", || memset3d(pitchedDevPtr, value, extent, None))
}

/// Initializes or sets device memory to a value.
// also: cudaMemset3DAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemset3DAsync(
    pitchedDevPtr: cudaPitchedPtr,
    value: c_int,
    extent: cudaExtent,
    stream: cudaStream_t,
) -> cudaError_t {
    run("cudaMemset3DAsync", || memset3d(pitchedDevPtr, value, extent, Some(stream)))
}

/// Allocates logical 1D, 2D, or 3D memory objects on the device.
#[no_mangle]
pub unsafe extern "C" fn cudaMalloc3D(pitchedDevPtr: *mut cudaPitchedPtr, extent: cudaExtent) -> cudaError_t {
    run("cudaMalloc3D", || {
        let o = out(pitchedDevPtr)?;
        let f = rt::ctx()?;
        let (w, h, d) = (extent.width, extent.height, extent.depth);
        let mut r = cudaPitchedPtr { ptr: null_mut(), pitch: 0, xsize: w, ysize: h };
        if w != 0 && h != 0 && d != 0 {
            let rows = h.checked_mul(d).ok_or(cudaError::cudaErrorMemoryAllocation)?;
            let mut p: CUdeviceptr = 0;
            // SAFETY: valid out pointers.
            cu(f.cuMemAllocPitch(&mut p, &mut r.pitch, w, rows, MALLOC3D_ELEMENT_SIZE))?;
            r.ptr = p as *mut c_void;
        }
        *o = r;
        Ok(())
    })
}

// make_cudaPitchedPtr, make_cudaPos and make_cudaExtent: NVIDIA defines them static inline in
// driver_functions.h and its library exports none of them; our header defines them static
// inline as well (cbindgen.toml's trailer). The library exports them too, at the version
// node, so that programs that bind the library without a C compiler (ctypes, cffi, dlsym)
// can call every function of the memory management section. They are not declared in the
// header (`cbindgen:ignore`): a C program that includes it sees the static inline
// definitions only, and the two never clash. `scripts/abi/check.py` allows exactly these
// three exports that NVIDIA's library lacks, and calls them through ctypes.

/// Returns a cudaPitchedPtr based on the specified input parameters.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn make_cudaPitchedPtr(d: *mut c_void, p: usize, xsz: usize, ysz: usize) -> cudaPitchedPtr {
    cudaPitchedPtr { ptr: d, pitch: p, xsize: xsz, ysize: ysz }
}

/// Returns a cudaPos based on the specified input parameters.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn make_cudaPos(x: usize, y: usize, z: usize) -> cudaPos {
    cudaPos { x, y, z }
}

/// Returns a cudaExtent based on the specified input parameters.
/// cbindgen:ignore
#[no_mangle]
pub extern "C" fn make_cudaExtent(w: usize, h: usize, d: usize) -> cudaExtent {
    cudaExtent { width: w, height: h, depth: d }
}
