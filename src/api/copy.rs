//! Copies and memsets on linear memory, `cudaMalloc3D`, and `cudaMemcpy3DParms` to the
//! driver's `CUDA_MEMCPY3D` ([`memcpy3d_params`], which the copy nodes of graphs share); the
//! conversions and the 3D copy under them are the engine's (`crate::engine::copy3d`).
//!
//! The checks are NVIDIA's runtime's, in its order (`cudaMemcpy3D` measured on the H100 by
//! the differential tester, `ctest/difftest`, and read from `libcudart.so.13`): where the
//! runtime checks nothing the driver is asked, so that the driver's own errors, a fault of
//! the context included, come back as they do from NVIDIA's runtime. In particular the
//! runtime checks the pitches of a pointer end only where rows follow each other (more than
//! one row or slice), against the copy's width *in elements* (`extent.width`, not bytes), and
//! never against the device's maximum pitch; a single row's pitch goes to the driver as it is.
#![allow(non_snake_case)]

use cudart_rs_macros::export;
use std::ffi::{c_int, c_void};
use std::ptr::null_mut;

use crate::driver::types::*;
use crate::driver::Fns;
use crate::engine::copy3d::{array_state, direction, memcpy3d_init, run3d, set_ptr, ArrayState};
use crate::runtime::boundary::{cu, not_null, out, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

/// The runtime's checks of a pointer end of a 3D copy: a pointer given
/// (`cudaErrorInvalidValue`); where rows follow each other (more than one row or slice) a
/// pitch of at least `extent.width` (elements, not bytes) and, with several slices, at least
/// `extent.height` rows per slice (counted in blocks of `block_h` rows):
/// `cudaErrorInvalidPitchValue`.
fn check_ptr_end(p: &cudaPitchedPtr, e: &cudaExtent, block_h: usize) -> Res {
    not_null(p.ptr, cudaError::cudaErrorInvalidValue)?;
    if (e.height > 1 || e.depth > 1) && e.width > p.pitch {
        return Err(cudaError::cudaErrorInvalidPitchValue);
    }
    if e.depth > 1 && e.height > p.ysize.wrapping_mul(block_h) {
        return Err(cudaError::cudaErrorInvalidPitchValue);
    }
    Ok(())
}

/// `cudaMemcpy3DParms` to the driver's `CUDA_MEMCPY3D`, as NVIDIA's runtime converts it:
/// - an empty extent gives [`memcpy3d_init`]'s copy of nothing between device ends, which
///   still goes to the driver (so a faulted context reports its fault);
/// - the kind (`cudaErrorInvalidMemcpyDirection`);
/// - the arrays' descriptors, source then destination (the driver's errors);
/// - the source end: an array with no pointer, and not at an end the kind puts on the host
///   (`cudaErrorInvalidValue`); else a pointer end ([`check_ptr_end`]);
/// - the destination end: an array with no pointer (whatever the kind says of that end;
///   `cudaErrorInvalidValue`), else a pointer end ([`check_ptr_end`]);
/// - arrays at both ends of the same element size (`cudaErrorInvalidValue`).
///
/// `extent.width` and `srcPos.x`/`dstPos.x` are in elements of the array taking part (bytes
/// if none) and are made bytes (wrapping, as NVIDIA's runtime computes them); pointer ends of
/// a copy with an array are positioned in the array's elements too.
pub(crate) fn memcpy3d_params(f: &Fns, p: &cudaMemcpy3DParms) -> Res<CUDA_MEMCPY3D> {
    memcpy3d_kind(f, p, p.kind)
}

/// [`memcpy3d_params`] with the kind given apart (the peer copies' is `DeviceToDevice`).
fn memcpy3d_kind(f: &Fns, p: &cudaMemcpy3DParms, kind: raw::cudaMemcpyKind) -> Res<CUDA_MEMCPY3D> {
    let mut c = memcpy3d_init(CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_DEVICE);
    let e = &p.extent;
    if e.width == 0 || e.height == 0 || e.depth == 0 {
        return Ok(c);
    }
    let (smem, dmem) = direction(kind)?;
    c.srcMemoryType = smem;
    c.dstMemoryType = dmem;
    let sa = if p.srcArray.is_null() { None } else { Some(array_state(f, p.srcArray as CUarray)?) };
    let da = if p.dstArray.is_null() { None } else { Some(array_state(f, p.dstArray as CUarray)?) };
    let block = |a: &Option<ArrayState>| a.map_or((1, 1), |a| (a.block_w, a.block_h));
    let (sblock, dblock) = (block(&sa), block(&da));
    let cblock = if sa.is_some() { sblock } else { dblock };

    let mut selem = 0;
    if let Some(a) = sa {
        if !p.srcPtr.ptr.is_null() || smem == CU_MEMORYTYPE_HOST {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        c.srcArray = a.array;
        selem = a.elem;
    } else {
        check_ptr_end(&p.srcPtr, e, cblock.1)?;
        let mut host = 0;
        set_ptr(smem, p.srcPtr.ptr, &mut host, &mut c.srcDevice);
        c.srcHost = host as *const c_void;
        c.srcPitch = p.srcPtr.pitch;
        c.srcHeight = p.srcPtr.ysize;
    }
    let mut delem = 0;
    if let Some(a) = da {
        if !p.dstPtr.ptr.is_null() {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        c.dstArray = a.array;
        delem = a.elem;
    } else {
        check_ptr_end(&p.dstPtr, e, cblock.1)?;
        let mut host = 0;
        set_ptr(dmem, p.dstPtr.ptr, &mut host, &mut c.dstDevice);
        c.dstHost = host as *mut c_void;
        c.dstPitch = p.dstPtr.pitch;
        c.dstHeight = p.dstPtr.ysize;
    }
    if selem != 0 && delem != 0 && selem != delem {
        return Err(cudaError::cudaErrorInvalidValue);
    }
    let elem = if delem != 0 {
        delem
    } else if selem != 0 {
        selem
    } else {
        1
    };
    let up = |n: usize, b: usize| n.wrapping_add(b - 1) / b;
    c.WidthInBytes = up(e.width, cblock.0).wrapping_mul(elem);
    c.Height = up(e.height, cblock.1);
    c.Depth = e.depth;
    c.srcXInBytes = (p.srcPos.x / sblock.0).wrapping_mul(elem);
    c.srcY = p.srcPos.y / sblock.1;
    c.srcZ = p.srcPos.z;
    c.dstXInBytes = (p.dstPos.x / dblock.0).wrapping_mul(elem);
    c.dstY = p.dstPos.y / dblock.1;
    c.dstZ = p.dstPos.z;
    Ok(c)
}

/// `cudaMemcpy3D`/`cudaMemcpy3DAsync`: the context first, then a parameter block given
/// (`cudaErrorInvalidValue`), then [`memcpy3d_params`].
fn memcpy3d(p: *const cudaMemcpy3DParms, stream: Option<cudaStream_t>) -> Res {
    let f = rt::ctx()?;
    // SAFETY: the caller's parameter block; null is rejected.
    let p = unsafe { p.as_ref() }.ok_or(cudaError::cudaErrorInvalidValue)?;
    let c = memcpy3d_params(f, p)?;
    run3d(f, &c, stream)
}

/// `cudaMemcpy3DPeer`/`cudaMemcpy3DPeerAsync`, as NVIDIA's runtime does them: the context, a
/// parameter block given, both device ordinals (`cudaErrorInvalidDevice`, the source's
/// first, whatever the extent), then the copy converted as a `cudaMemcpy3D` of kind
/// `cudaMemcpyDeviceToDevice` (so pointer ends are device memory to the driver), each end in
/// the primary context of its device. An empty extent goes to the driver too.
fn memcpy3d_peer(p: *const cudaMemcpy3DPeerParms, stream: Option<cudaStream_t>) -> Res {
    let f = rt::ctx()?;
    // SAFETY: the caller's parameter block; null is rejected.
    let p = unsafe { p.as_ref() }.ok_or(cudaError::cudaErrorInvalidValue)?;
    rt::check_device(p.srcDevice)?;
    rt::check_device(p.dstDevice)?;
    let q = cudaMemcpy3DParms {
        srcArray: p.srcArray,
        srcPos: p.srcPos,
        srcPtr: p.srcPtr,
        dstArray: p.dstArray,
        dstPos: p.dstPos,
        dstPtr: p.dstPtr,
        extent: p.extent,
        kind: raw::cudaMemcpyKind(cudaMemcpyKind::cudaMemcpyDeviceToDevice as c_int),
    };
    let c = memcpy3d_kind(f, &q, q.kind)?;
    let sctx = rt::primary(p.srcDevice)?;
    let dctx = rt::primary(p.dstDevice)?;
    let cp = CUDA_MEMCPY3D_PEER {
        srcXInBytes: c.srcXInBytes,
        srcY: c.srcY,
        srcZ: c.srcZ,
        srcLOD: c.srcLOD,
        srcMemoryType: c.srcMemoryType,
        srcHost: c.srcHost,
        srcDevice: c.srcDevice,
        srcArray: c.srcArray,
        srcContext: sctx,
        srcPitch: c.srcPitch,
        srcHeight: c.srcHeight,
        dstXInBytes: c.dstXInBytes,
        dstY: c.dstY,
        dstZ: c.dstZ,
        dstLOD: c.dstLOD,
        dstMemoryType: c.dstMemoryType,
        dstHost: c.dstHost,
        dstDevice: c.dstDevice,
        dstArray: c.dstArray,
        dstContext: dctx,
        dstPitch: c.dstPitch,
        dstHeight: c.dstHeight,
        WidthInBytes: c.WidthInBytes,
        Height: c.Height,
        Depth: c.Depth,
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
/// through the staging pipeline ([`crate::engine::pageable`]); explicit kinds use the driver's typed
/// copies, host-to-host and default the unified one.
fn memcpy1d(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: raw::cudaMemcpyKind,
    stream: Option<cudaStream_t>,
) -> Res {
    let f = rt::ctx()?;
    if count == 0 {
        return Ok(());
    }
    let (s, d) = direction(kind)?;
    if let Some(r) = crate::engine::pageable::memcpy(f, dst, src, count, s, d, stream) {
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

/// `cudaMemcpy2D`/`cudaMemcpy2DAsync`, as NVIDIA's runtime does them: an empty copy does
/// nothing (whatever the kind and pitches); with several rows each pitch must cover the row
/// (`cudaErrorInvalidPitchValue`, before the kind); the kind; then
/// the driver gets both pitches as they are (with one row it judges them itself: a pitch of
/// 0 passes, one narrower than the row does not); rows that follow each other at both ends
/// are one linear copy ([`crate::engine::linear`]).
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
    if height > 1 && (width > dpitch || width > spitch) {
        return Err(cudaError::cudaErrorInvalidPitchValue);
    }
    let (s, d) = direction(kind)?;
    let mut c = CUDA_MEMCPY2D { srcMemoryType: s, dstMemoryType: d, ..Default::default() };
    let (mut sh, mut dh) = (0usize, 0usize);
    set_ptr(s, src, &mut sh, &mut c.srcDevice);
    set_ptr(d, dst, &mut dh, &mut c.dstDevice);
    c.srcHost = sh as *const c_void;
    c.dstHost = dh as *mut c_void;
    c.srcPitch = spitch;
    c.dstPitch = dpitch;
    c.WidthInBytes = width;
    c.Height = height;
    if let Some(r) = crate::engine::linear::copy2d(f, &c, stream) {
        return r;
    }
    // SAFETY: a complete description; the driver checks the addresses.
    cu(unsafe {
        match stream {
            None => f.cuMemcpy2DUnaligned(&c),
            Some(h) => f.cuMemcpy2DAsync(&c, h),
        }
    })
}

/// `cudaMemcpyPeer`/`cudaMemcpyPeerAsync`: a copy of zero bytes does nothing (whatever the
/// devices and pointers); device ordinals to primary contexts.
fn memcpy_peer(
    dst: *mut c_void,
    dstDevice: c_int,
    src: *const c_void,
    srcDevice: c_int,
    count: usize,
    stream: Option<cudaStream_t>,
) -> Res {
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

/// `cudaMemset`/`cudaMemsetAsync`: nothing for zero bytes, else the driver's 1D memset.
fn memset1d(devPtr: *mut c_void, value: c_int, count: usize, stream: Option<cudaStream_t>) -> Res {
    let f = rt::ctx()?;
    if count == 0 {
        return Ok(());
    }
    let (p, v) = (devPtr as CUdeviceptr, value as u8);
    // SAFETY: plain driver memsets; the driver checks the addresses.
    cu(unsafe {
        match stream {
            None => f.cuMemsetD8(p, v, count),
            Some(h) => f.cuMemsetD8Async(p, v, count, h),
        }
    })
}

/// Sets `height` rows of `width` bytes, `pitch` apart, to the low byte of `value`: nothing
/// for an empty region, else the driver's 2D memset with the pitch as it is (the driver
/// judges it, one row too), as NVIDIA's runtime does; rows that follow each other are one
/// linear memset ([`crate::engine::linear`]).
fn memset_rows(
    f: &Fns,
    ptr: CUdeviceptr,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    stream: Option<cudaStream_t>,
) -> Res {
    if width == 0 || height == 0 {
        return Ok(());
    }
    let v = value as u8;
    if let Some(r) = crate::engine::linear::memset2d(f, ptr, pitch, v, width, height, stream) {
        return r;
    }
    // SAFETY: plain driver memsets; the driver checks the addresses.
    cu(unsafe {
        match stream {
            None => f.cuMemsetD2D8(ptr, pitch, v, width, height),
            Some(h) => f.cuMemsetD2D8Async(ptr, pitch, v, width, height, h),
        }
    })
}

/// `cudaMemset2D`/`cudaMemset2DAsync`.
fn memset2d(
    devPtr: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    stream: Option<cudaStream_t>,
) -> Res {
    let f = rt::ctx()?;
    memset_rows(f, devPtr as CUdeviceptr, pitch, value, width, height, stream)
}

/// `cudaMemset3D`/`cudaMemset3DAsync`: `extent.depth` slices of `extent.height` rows of
/// `extent.width` bytes; slices are `pitch * ysize` bytes apart. As NVIDIA's runtime does
/// (measured on the H100, `ctest/memset_3d_rules.c`): an empty extent does nothing; the
/// pitch must cover the row when more than one row is set in all, and `ysize` must be at
/// least `height`, even for one slice (`cudaErrorInvalidValue`); `xsize` is not checked.
/// Slices that follow each other row for row (`ysize == height`) are set as one 2D block
/// (one 1D range where the rows follow each other too), others one by one.
fn memset3d(p: cudaPitchedPtr, value: c_int, extent: cudaExtent, stream: Option<cudaStream_t>) -> Res {
    let f = rt::ctx()?;
    let (w, h, d) = (extent.width, extent.height, extent.depth);
    if w == 0 || h == 0 || d == 0 {
        return Ok(());
    }
    if ((h > 1 || d > 1) && w > p.pitch) || h > p.ysize {
        return Err(cudaError::cudaErrorInvalidValue);
    }
    let base = p.ptr as CUdeviceptr;
    if w >= p.xsize && h == p.ysize && w == p.pitch {
        let n = w.wrapping_mul(h).wrapping_mul(d);
        // SAFETY: plain driver memsets; the driver checks the addresses.
        return cu(unsafe {
            match stream {
                None => f.cuMemsetD8(base, value as u8, n),
                Some(s) => f.cuMemsetD8Async(base, value as u8, n, s),
            }
        });
    }
    if h == p.ysize {
        return memset_rows(f, base, p.pitch, value, w, h.wrapping_mul(d), stream);
    }
    let slice = p.pitch.wrapping_mul(p.ysize) as u64;
    for z in 0..d as u64 {
        memset_rows(f, base.wrapping_add(z.wrapping_mul(slice)), p.pitch, value, w, h, stream)?;
    }
    Ok(())
}

/// Copies data between host and device.
#[export(family = Copy, per_thread = ptds, sem = Copy(Linear))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| memcpy1d(dst, src, count, kind, None))
}

/// Copies data between host and device.
#[export(family = Copy, per_thread = ptsz, sem = Copy(Linear))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyAsync(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: raw::cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| memcpy1d(dst, src, count, kind, Some(stream)))
}

/// Copies data between host and device.
#[export(family = Copy, per_thread = ptds, sem = Copy(TwoD))]
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
    run(|| memcpy2d(dst, dpitch, src, spitch, width, height, kind, None))
}

/// Copies data between host and device.
#[export(family = Copy, per_thread = ptsz, sem = Copy(TwoD))]
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
    run(|| memcpy2d(dst, dpitch, src, spitch, width, height, kind, Some(stream)))
}

/// Copies data between 3D objects.
#[export(family = Copy, per_thread = ptds, sem = Copy(ThreeD))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy3D(p: *const cudaMemcpy3DParms) -> cudaError_t {
    run(|| memcpy3d(p, None))
}

/// Copies data between 3D objects.
#[export(family = Copy, per_thread = ptsz, sem = Copy(ThreeD))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy3DAsync(p: *const cudaMemcpy3DParms, stream: cudaStream_t) -> cudaError_t {
    run(|| memcpy3d(p, Some(stream)))
}

/// Copies memory between two devices.
#[export(family = Copy, sem = Copy(Peer))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyPeer(
    dst: *mut c_void,
    dstDevice: c_int,
    src: *const c_void,
    srcDevice: c_int,
    count: usize,
) -> cudaError_t {
    run(|| memcpy_peer(dst, dstDevice, src, srcDevice, count, None))
}

/// Copies memory between two devices asynchronously.
#[export(family = Copy, sem = Copy(Peer))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyPeerAsync(
    dst: *mut c_void,
    dstDevice: c_int,
    src: *const c_void,
    srcDevice: c_int,
    count: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| memcpy_peer(dst, dstDevice, src, srcDevice, count, Some(stream)))
}

/// Copies memory between devices.
#[export(family = Copy, per_thread = ptds, sem = Copy(ThreeDPeer))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy3DPeer(p: *const cudaMemcpy3DPeerParms) -> cudaError_t {
    run(|| memcpy3d_peer(p, None))
}

/// Copies memory between devices asynchronously.
#[export(family = Copy, per_thread = ptsz, sem = Copy(ThreeDPeer))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy3DPeerAsync(p: *const cudaMemcpy3DPeerParms, stream: cudaStream_t) -> cudaError_t {
    run(|| memcpy3d_peer(p, Some(stream)))
}

/// Initializes or sets device memory to a value.
#[export(family = Memset, per_thread = ptds, sem = Memset(Linear))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemset(devPtr: *mut c_void, value: c_int, count: usize) -> cudaError_t {
    run(|| memset1d(devPtr, value, count, None))
}

/// Initializes or sets device memory to a value.
#[export(family = Memset, per_thread = ptsz, sem = Memset(Linear))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemsetAsync(
    devPtr: *mut c_void,
    value: c_int,
    count: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| memset1d(devPtr, value, count, Some(stream)))
}

/// Initializes or sets device memory to a value.
#[export(family = Memset, per_thread = ptds, sem = Memset(TwoD))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemset2D(
    devPtr: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
) -> cudaError_t {
    run(|| memset2d(devPtr, pitch, value, width, height, None))
}

/// Initializes or sets device memory to a value.
#[export(family = Memset, per_thread = ptsz, sem = Memset(TwoD))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemset2DAsync(
    devPtr: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| memset2d(devPtr, pitch, value, width, height, Some(stream)))
}

/// Initializes or sets device memory to a value.
#[export(family = Memset, per_thread = ptds, sem = Memset(ThreeD))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemset3D(pitchedDevPtr: cudaPitchedPtr, value: c_int, extent: cudaExtent) -> cudaError_t {
    run(|| memset3d(pitchedDevPtr, value, extent, None))
}

/// Initializes or sets device memory to a value.
#[export(family = Memset, per_thread = ptsz, sem = Memset(ThreeD))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemset3DAsync(
    pitchedDevPtr: cudaPitchedPtr,
    value: c_int,
    extent: cudaExtent,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| memset3d(pitchedDevPtr, value, extent, Some(stream)))
}

/// Allocates logical 1D, 2D, or 3D memory objects on the device.
#[export(family = Memory, sem = Malloc3D)]
#[no_mangle]
pub unsafe extern "C" fn cudaMalloc3D(pitchedDevPtr: *mut cudaPitchedPtr, extent: cudaExtent) -> cudaError_t {
    run(|| {
        let o = out(pitchedDevPtr)?;
        let f = rt::ctx()?;
        let (w, h, d) = (extent.width, extent.height, extent.depth);
        let mut r = cudaPitchedPtr { ptr: null_mut(), pitch: 0, xsize: w, ysize: h };
        if w != 0 && h != 0 && d != 0 {
            let rows = h.checked_mul(d).ok_or(cudaError::cudaErrorMemoryAllocation)?;
            let mut p: CUdeviceptr = 0;
            // SAFETY: valid out pointers.
            cu(f.cuMemAllocPitch(&mut p, &mut r.pitch, w, rows, crate::api::memory::PITCH_ELEMENT_SIZE))?;
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
// definitions only, and the two never clash. Their declarations say NVIDIA's library lacks them
// (`nvidia = false`): `scripts/test/abi/check.py` allows exactly those exports it lacks, and
// calls them through ctypes.

/// Returns a cudaPitchedPtr based on the specified input parameters.
/// cbindgen:ignore
#[export(family = Memory, nvidia = false)]
#[no_mangle]
pub extern "C" fn make_cudaPitchedPtr(d: *mut c_void, p: usize, xsz: usize, ysz: usize) -> cudaPitchedPtr {
    cudaPitchedPtr { ptr: d, pitch: p, xsize: xsz, ysize: ysz }
}

/// Returns a cudaPos based on the specified input parameters.
/// cbindgen:ignore
#[export(family = Memory, nvidia = false)]
#[no_mangle]
pub extern "C" fn make_cudaPos(x: usize, y: usize, z: usize) -> cudaPos {
    cudaPos { x, y, z }
}

/// Returns a cudaExtent based on the specified input parameters.
/// cbindgen:ignore
#[export(family = Memory, nvidia = false)]
#[no_mangle]
pub extern "C" fn make_cudaExtent(w: usize, h: usize, d: usize) -> cudaExtent {
    cudaExtent { width: w, height: h, depth: d }
}
