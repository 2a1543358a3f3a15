//! Copies and memsets of every shape (1D, 2D, 3D, peer, to and from arrays), their per-thread
//! stream forms, done at call time or, on a capturing stream, captured as graph nodes (checked
//! as the copy would be); what a memcpy or memset node of a graph does when it runs.

use std::ffi::c_void;

use crate::dag::Params;
use crate::mem::MAX_PITCH;
use crate::state::*;
use crate::types::*;
use crate::{export_pt, nonnull};

/// One side of a 3D copy, as `CUDA_MEMCPY3D` describes it.
#[derive(Copy, Clone, Debug)]
pub struct End {
    pub mt: CUmemorytype,
    pub host: usize,
    pub dev: usize,
    pub array: usize,
    pub x: usize,
    pub y: usize,
    pub z: usize,
    pub pitch: usize,
    pub height: usize,
}

/// A resolved side: address of the first byte, row pitch, rows per slice.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub start: usize,
    pub pitch: usize,
    pub height: usize,
}

/// The byte span a linear region covers, from its first byte: `None` on overflow.
pub fn span(pitch: usize, height: usize, w: usize, h: usize, d: usize) -> Option<usize> {
    let rows = (d - 1).checked_mul(height)?.checked_add(h - 1)?;
    rows.checked_mul(pitch)?.checked_add(w)
}

/// Offset of (x, y, z) in a linear region.
pub fn offset(pitch: usize, height: usize, x: usize, y: usize, z: usize) -> Option<usize> {
    z.checked_mul(height)?.checked_add(y)?.checked_mul(pitch)?.checked_add(x)
}

impl State {
    /// Resolves and bounds-checks one side of a copy of `w` bytes x `h` rows x `d` slices
    /// (all non-zero).
    pub fn resolve(&self, e: &End, w: usize, h: usize, d: usize) -> Res<Resolved> {
        let inval = CUDA_ERROR_INVALID_VALUE;
        match e.mt {
            CU_MEMORYTYPE_ARRAY => {
                let a = self.arrays.get(&e.array).ok_or(inval)?;
                let fits = |o: usize, n: usize, lim: usize| o.checked_add(n).is_some_and(|v| v <= lim);
                if !fits(e.x, w, a.row_bytes) || !fits(e.y, h, a.rows) || !fits(e.z, d, a.slices) {
                    return Err(inval);
                }
                // Offsets and widths are in bytes: they need not be whole elements.
                let off = offset(a.row_bytes, a.rows, e.x, e.y, e.z).ok_or(inval)?;
                Ok(Resolved { start: a.data + off, pitch: a.row_bytes, height: a.rows })
            }
            CU_MEMORYTYPE_HOST | CU_MEMORYTYPE_DEVICE | CU_MEMORYTYPE_UNIFIED => {
                let base = if e.mt == CU_MEMORYTYPE_HOST { e.host } else { e.dev };
                // A pitch, where given, covers the x offset and the width; several rows need
                // one, no wider than the device's maximum (a single row does not use it: the
                // H100's driver copies one row of a 3D copy whatever its pitch, 2^40 too).
                // Likewise the rows per slice cover y and the height; several slices need them.
                let multi_row = h > 1 || d > 1;
                let row_end = e.x.checked_add(w).ok_or(inval)?;
                if base == 0
                    || (e.pitch > MAX_PITCH && multi_row)
                    || (e.pitch == 0 && multi_row)
                    || (e.pitch != 0 && e.pitch < row_end)
                {
                    return Err(inval);
                }
                let pitch = if e.pitch == 0 { row_end } else { e.pitch };
                let rows_end = e.y.checked_add(h).ok_or(inval)?;
                if (e.height == 0 && d > 1) || (e.height != 0 && e.height < rows_end) {
                    return Err(inval);
                }
                let height = if e.height == 0 { rows_end } else { e.height };
                // The driver adds the offset of (x, y, z) to the base modulo 2^64 (an offset
                // that wraps to 0 copies from the base) and bounds the bytes copied by the
                // allocation the base lies in (measured on the H200: ctest/driver_refusals.c).
                let off = e.z.wrapping_mul(height).wrapping_add(e.y).wrapping_mul(pitch).wrapping_add(e.x);
                let start = base.wrapping_add(off);
                let len = span(pitch, height, w, h, d).ok_or(inval)?;
                start.checked_add(len).ok_or(inval)?;
                // Device memory must be a live allocation; host or unified pointers may be
                // any host memory, but not a stale pointer into the stand-in's own range.
                // (Registered memory is the caller's: a host copy may run past the registration.)
                match self.find(base) {
                    // Memory of a host pool is host memory (the devices get no access).
                    Some((_, a)) if a.kind == Kind::PoolHost && e.mt == CU_MEMORYTYPE_DEVICE => return Err(inval),
                    Some((_, a)) if a.kind == Kind::Registered && e.mt != CU_MEMORYTYPE_DEVICE => {}
                    Some((b, a)) => {
                        if start < b || start + len > b + a.size {
                            return Err(inval);
                        }
                    }
                    None if e.mt == CU_MEMORYTYPE_DEVICE || self.stale(base) => return Err(inval),
                    // Host memory that runs into the stand-in's own allocations.
                    None => match self.find(start) {
                        Some((_, a)) if a.kind != Kind::Registered => {
                            self.check_range(start, len)?;
                        }
                        Some(_) => {}
                        None if self.stale(start) => return Err(inval),
                        None => {}
                    },
                }
                Ok(Resolved { start, pitch, height })
            }
            _ => Err(inval),
        }
    }

    /// A 3D copy, done now. Zero extents copy nothing.
    pub fn copy3d(&self, src: &End, dst: &End, w: usize, h: usize, d: usize) -> Res {
        if w == 0 || h == 0 || d == 0 {
            return Ok(());
        }
        let s = self.resolve(src, w, h, d)?;
        let t = self.resolve(dst, w, h, d)?;
        for j in 0..d {
            for i in 0..h {
                let so = (j * s.height + i) * s.pitch;
                let to = (j * t.height + i) * t.pitch;
                // SAFETY: both rows were checked against the registry (device memory, arrays)
                // or are the caller's host memory; `copy` allows overlap.
                unsafe { std::ptr::copy((s.start + so) as *const u8, (t.start + to) as *mut u8, w) };
            }
        }
        Ok(())
    }

    /// Checks a 3D copy as `copy3d` would, copying nothing.
    pub fn check_copy3d(&self, src: &End, dst: &End, w: usize, h: usize, d: usize) -> Res {
        if w == 0 || h == 0 || d == 0 {
            return Ok(());
        }
        self.resolve(src, w, h, d)?;
        self.resolve(dst, w, h, d).map(|_| ())
    }
}

/// The two ends of a `CUDA_MEMCPY3D`; for arrays the pitch is the array's own, so the width
/// stands in for the check in `resolve`.
fn ends(c: &CUDA_MEMCPY3D) -> (End, End) {
    let fix = |mut e: End| {
        if e.mt == CU_MEMORYTYPE_ARRAY {
            e.pitch = c.WidthInBytes;
        }
        e
    };
    (
        fix(End {
            mt: c.srcMemoryType,
            host: c.srcHost as usize,
            dev: c.srcDevice as usize,
            array: c.srcArray as usize,
            x: c.srcXInBytes,
            y: c.srcY,
            z: c.srcZ,
            pitch: c.srcPitch,
            height: c.srcHeight,
        }),
        fix(End {
            mt: c.dstMemoryType,
            host: c.dstHost as usize,
            dev: c.dstDevice as usize,
            array: c.dstArray as usize,
            x: c.dstXInBytes,
            y: c.dstY,
            z: c.dstZ,
            pitch: c.dstPitch,
            height: c.dstHeight,
        }),
    )
}

/// An all-zero `CUDA_MEMCPY3D` (every pointer null).
pub fn zero_copy() -> CUDA_MEMCPY3D {
    // SAFETY: integers and raw pointers, for which all-zero is valid.
    unsafe { std::mem::zeroed() }
}

/// A 2D copy as the 3D copy it is.
fn from_2d(c: &CUDA_MEMCPY2D) -> CUDA_MEMCPY3D {
    CUDA_MEMCPY3D {
        srcXInBytes: c.srcXInBytes,
        srcY: c.srcY,
        srcMemoryType: c.srcMemoryType,
        srcHost: c.srcHost,
        srcDevice: c.srcDevice,
        srcArray: c.srcArray,
        srcPitch: c.srcPitch,
        dstXInBytes: c.dstXInBytes,
        dstY: c.dstY,
        dstMemoryType: c.dstMemoryType,
        dstHost: c.dstHost,
        dstDevice: c.dstDevice,
        dstArray: c.dstArray,
        dstPitch: c.dstPitch,
        WidthInBytes: c.WidthInBytes,
        Height: c.Height,
        Depth: 1,
        ..zero_copy()
    }
}

/// A copy of `n` bytes between two pointers: `dev_*`, the side must be device memory (else
/// any memory, as unified addressing has it).
fn linear(dst: usize, dev_dst: bool, src: usize, dev_src: bool, n: usize) -> CUDA_MEMCPY3D {
    let mt = |dev| if dev { CU_MEMORYTYPE_DEVICE } else { CU_MEMORYTYPE_UNIFIED };
    CUDA_MEMCPY3D {
        srcMemoryType: mt(dev_src),
        srcDevice: src as CUdeviceptr,
        dstMemoryType: mt(dev_dst),
        dstDevice: dst as CUdeviceptr,
        WidthInBytes: n,
        Height: 1,
        Depth: 1,
        ..zero_copy()
    }
}

impl State {
    /// Checks copy `c` as it would be done (a copy of nothing passes).
    pub fn check_copy(&self, c: &CUDA_MEMCPY3D) -> Res {
        if c.srcLOD != 0 || c.dstLOD != 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let (a, b) = ends(c);
        self.check_copy3d(&a, &b, c.WidthInBytes, c.Height, c.Depth)
    }

    /// Does copy `c` now.
    pub fn do_copy(&self, c: &CUDA_MEMCPY3D) -> Res {
        if c.srcLOD != 0 || c.dstLOD != 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let (a, b) = ends(c);
        self.copy3d(&a, &b, c.WidthInBytes, c.Height, c.Depth)
    }

    /// A copy on stream `k`: done now (`now`), or the node of the capture the stream takes
    /// part in (`node`, checked as the copy would be).
    pub fn copy_on(&mut self, k: SKey, now: impl FnOnce(&State) -> Res, node: impl FnOnce() -> CUDA_MEMCPY3D) -> Res {
        match self.gate(k)? {
            None => now(self),
            Some(id) => {
                let c = node();
                if let Err(e) = self.check_copy(&c) {
                    return Err(self.failed_in(Some(id), e));
                }
                self.capture_node(k, Params::Memcpy(c));
                Ok(())
            }
        }
    }

    /// A 1D copy between two UVA pointers, done now; `dev_*`: the side must be device memory.
    fn copy1d(&self, dst: usize, dev_dst: bool, src: usize, dev_src: bool, n: usize) -> Res {
        let side = |p: usize, dev: bool| End {
            mt: if dev { CU_MEMORYTYPE_DEVICE } else { CU_MEMORYTYPE_UNIFIED },
            host: 0,
            dev: p,
            array: 0,
            x: 0,
            y: 0,
            z: 0,
            pitch: n,
            height: 1,
        };
        self.copy3d(&side(src, dev_src), &side(dst, dev_dst), n, 1, 1)
    }

    /// Checks memset `m` (elements of 1, 2 or 4 bytes) as it would be done.
    pub fn check_memset(&self, m: &CUDA_MEMSET_NODE_PARAMS) -> Res {
        let inval = CUDA_ERROR_INVALID_VALUE;
        let elem = m.elementSize as usize;
        if !matches!(elem, 1 | 2 | 4) || m.dst % elem as u64 != 0 {
            return Err(inval);
        }
        if m.width == 0 || m.height == 0 {
            return Ok(());
        }
        let w = m.width.checked_mul(elem).ok_or(inval)?;
        if m.height > 1 && (m.pitch < w || m.pitch > MAX_PITCH) {
            return Err(inval);
        }
        let len = span(m.pitch, m.height, w, m.height, 1).ok_or(inval)?;
        let (_, a) = self.check_range(m.dst as usize, len)?;
        // Host memory of a pool is not the devices'.
        if a.kind == Kind::PoolHost {
            return Err(inval);
        }
        Ok(())
    }

    /// Does memset `m` now.
    pub fn do_memset(&self, m: &CUDA_MEMSET_NODE_PARAMS) -> Res {
        self.check_memset(m)?;
        let elem = m.elementSize as usize;
        for i in 0..m.height {
            let row = m.dst as usize + i * m.pitch;
            // SAFETY: the whole region lies inside one registered allocation, aligned to the
            // element size (checked above).
            unsafe {
                match elem {
                    1 => std::ptr::write_bytes(row as *mut u8, m.value as u8, m.width),
                    2 => std::slice::from_raw_parts_mut(row as *mut u16, m.width).fill(m.value as u16),
                    _ => std::slice::from_raw_parts_mut(row as *mut u32, m.width).fill(m.value),
                }
            }
        }
        Ok(())
    }

    /// A memset of bytes, done now (the common case, checked as `check_memset` would).
    fn memset_bytes(&self, dst: usize, pitch: usize, v: u8, w: usize, h: usize) -> Res {
        if h > 1 && (pitch < w || pitch > MAX_PITCH) {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let len = span(pitch, h, w, h, 1).ok_or(CUDA_ERROR_INVALID_VALUE)?;
        if self.check_range(dst, len)?.1.kind == Kind::PoolHost {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        for i in 0..h {
            // SAFETY: the whole region lies inside one registered allocation.
            unsafe { std::ptr::write_bytes((dst + i * pitch) as *mut u8, v, w) };
        }
        Ok(())
    }
}

fn copy1(dst: usize, dev_dst: bool, src: usize, dev_src: bool, n: usize, stream: CUstream, pt: bool) -> Res {
    with(|s| {
        let k = s.skey(stream as usize, pt)?;
        if n == 0 {
            return Ok(());
        }
        s.copy_on(k, |s| s.copy1d(dst, dev_dst, src, dev_src, n), || linear(dst, dev_dst, src, dev_src, n))
    })
}

/// The two ends of a 2D copy.
fn ends2d(c: &CUDA_MEMCPY2D) -> (End, End) {
    let fix = |mut e: End| {
        if e.mt == CU_MEMORYTYPE_ARRAY {
            e.pitch = c.WidthInBytes;
        }
        e
    };
    let src = End {
        mt: c.srcMemoryType,
        host: c.srcHost as usize,
        dev: c.srcDevice as usize,
        array: c.srcArray as usize,
        x: c.srcXInBytes,
        y: c.srcY,
        z: 0,
        pitch: c.srcPitch,
        height: 0,
    };
    let dst = End {
        mt: c.dstMemoryType,
        host: c.dstHost as usize,
        dev: c.dstDevice as usize,
        array: c.dstArray as usize,
        x: c.dstXInBytes,
        y: c.dstY,
        z: 0,
        pitch: c.dstPitch,
        height: 0,
    };
    (fix(src), fix(dst))
}

unsafe fn memcpy2d(c: *const CUDA_MEMCPY2D, stream: CUstream, pt: bool) -> Res {
    nonnull(c)?;
    let c = &*c;
    with(|s| {
        let k = s.skey(stream as usize, pt)?;
        let now = |s: &State| {
            let (a, b) = ends2d(c);
            s.copy3d(&a, &b, c.WidthInBytes, c.Height, 1)
        };
        s.copy_on(k, now, || from_2d(c))
    })
}

unsafe fn memcpy3d(c: *const CUDA_MEMCPY3D, stream: CUstream, pt: bool) -> Res {
    nonnull(c)?;
    let c = *c;
    with(|s| {
        let k = s.skey(stream as usize, pt)?;
        s.copy_on(k, |s| s.do_copy(&c), || c)
    })
}

unsafe fn memcpy3d_peer(c: *const CUDA_MEMCPY3D_PEER, stream: CUstream, pt: bool) -> Res {
    nonnull(c)?;
    let c = &*c;
    let t = CUDA_MEMCPY3D {
        srcXInBytes: c.srcXInBytes,
        srcY: c.srcY,
        srcZ: c.srcZ,
        srcLOD: c.srcLOD,
        srcMemoryType: c.srcMemoryType,
        srcHost: c.srcHost,
        srcDevice: c.srcDevice,
        srcArray: c.srcArray,
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
        dstPitch: c.dstPitch,
        dstHeight: c.dstHeight,
        WidthInBytes: c.WidthInBytes,
        Height: c.Height,
        Depth: c.Depth,
        ..zero_copy()
    };
    with(|s| {
        let k = s.skey(stream as usize, pt)?;
        s.live_ctx(c.srcContext as usize)?;
        s.live_ctx(c.dstContext as usize)?;
        s.copy_on(k, |s| s.do_copy(&t), || t)
    })
}

fn copy_peer(
    dst: CUdeviceptr,
    dctx: CUcontext,
    src: CUdeviceptr,
    sctx: CUcontext,
    n: usize,
    stream: CUstream,
    pt: bool,
) -> Res {
    with(|s| {
        let k = s.skey(stream as usize, pt)?;
        s.live_ctx(dctx as usize)?;
        s.live_ctx(sctx as usize)?;
        if n == 0 {
            return Ok(());
        }
        let (d, sr) = (dst as usize, src as usize);
        s.copy_on(k, |s| s.copy1d(d, true, sr, true, n), || linear(d, true, sr, true, n))
    })
}

fn memset2d(dst: CUdeviceptr, pitch: usize, v: u8, w: usize, h: usize, stream: CUstream, pt: bool) -> Res {
    with(|s| {
        let k = s.skey(stream as usize, pt)?;
        if w == 0 || h == 0 {
            return Ok(());
        }
        match s.gate(k)? {
            None => s.memset_bytes(dst as usize, pitch, v, w, h),
            Some(id) => {
                let m = CUDA_MEMSET_NODE_PARAMS { dst, pitch, value: v as u32, elementSize: 1, width: w, height: h };
                if let Err(e) = s.check_memset(&m) {
                    return Err(s.failed_in(Some(id), e));
                }
                s.capture_node(k, Params::Memset(m));
                Ok(())
            }
        }
    })
}

const NULL_STREAM: CUstream = std::ptr::null_mut();

export_pt! {
    fn cuMemcpy / cuMemcpy_ptds(dst: CUdeviceptr, src: CUdeviceptr, byteCount: usize) |pt| {
        copy1(dst as usize, false, src as usize, false, byteCount, NULL_STREAM, pt)
    }
    fn cuMemcpyAsync / cuMemcpyAsync_ptsz(dst: CUdeviceptr, src: CUdeviceptr, byteCount: usize, hStream: CUstream) |pt| {
        copy1(dst as usize, false, src as usize, false, byteCount, hStream, pt)
    }
    fn cuMemcpyHtoD / cuMemcpyHtoD_ptds(dstDevice: CUdeviceptr, srcHost: *const c_void, byteCount: usize) |pt| {
        copy1(dstDevice as usize, true, srcHost as usize, false, byteCount, NULL_STREAM, pt)
    }
    fn cuMemcpyDtoH / cuMemcpyDtoH_ptds(dstHost: *mut c_void, srcDevice: CUdeviceptr, byteCount: usize) |pt| {
        copy1(dstHost as usize, false, srcDevice as usize, true, byteCount, NULL_STREAM, pt)
    }
    fn cuMemcpyDtoD / cuMemcpyDtoD_ptds(dstDevice: CUdeviceptr, srcDevice: CUdeviceptr, byteCount: usize) |pt| {
        copy1(dstDevice as usize, true, srcDevice as usize, true, byteCount, NULL_STREAM, pt)
    }
    fn cuMemcpyHtoDAsync / cuMemcpyHtoDAsync_ptsz(dstDevice: CUdeviceptr, srcHost: *const c_void, byteCount: usize, hStream: CUstream) |pt| {
        copy1(dstDevice as usize, true, srcHost as usize, false, byteCount, hStream, pt)
    }
    fn cuMemcpyDtoHAsync / cuMemcpyDtoHAsync_ptsz(dstHost: *mut c_void, srcDevice: CUdeviceptr, byteCount: usize, hStream: CUstream) |pt| {
        copy1(dstHost as usize, false, srcDevice as usize, true, byteCount, hStream, pt)
    }
    fn cuMemcpyDtoDAsync / cuMemcpyDtoDAsync_ptsz(dstDevice: CUdeviceptr, srcDevice: CUdeviceptr, byteCount: usize, hStream: CUstream) |pt| {
        copy1(dstDevice as usize, true, srcDevice as usize, true, byteCount, hStream, pt)
    }
    fn cuMemcpy2D / cuMemcpy2D_ptds(pCopy: *const CUDA_MEMCPY2D) |pt| { memcpy2d(pCopy, NULL_STREAM, pt) }
    fn cuMemcpy2DUnaligned / cuMemcpy2DUnaligned_ptds(pCopy: *const CUDA_MEMCPY2D) |pt| { memcpy2d(pCopy, NULL_STREAM, pt) }
    fn cuMemcpy2DAsync / cuMemcpy2DAsync_ptsz(pCopy: *const CUDA_MEMCPY2D, hStream: CUstream) |pt| { memcpy2d(pCopy, hStream, pt) }
    fn cuMemcpy3D / cuMemcpy3D_ptds(pCopy: *const CUDA_MEMCPY3D) |pt| { memcpy3d(pCopy, NULL_STREAM, pt) }
    fn cuMemcpy3DAsync / cuMemcpy3DAsync_ptsz(pCopy: *const CUDA_MEMCPY3D, hStream: CUstream) |pt| { memcpy3d(pCopy, hStream, pt) }
    fn cuMemcpyPeer / cuMemcpyPeer_ptds(dstDevice: CUdeviceptr, dstContext: CUcontext, srcDevice: CUdeviceptr, srcContext: CUcontext, byteCount: usize) |pt| {
        copy_peer(dstDevice, dstContext, srcDevice, srcContext, byteCount, NULL_STREAM, pt)
    }
    fn cuMemcpyPeerAsync / cuMemcpyPeerAsync_ptsz(dstDevice: CUdeviceptr, dstContext: CUcontext, srcDevice: CUdeviceptr, srcContext: CUcontext, byteCount: usize, hStream: CUstream) |pt| {
        copy_peer(dstDevice, dstContext, srcDevice, srcContext, byteCount, hStream, pt)
    }
    fn cuMemcpy3DPeer / cuMemcpy3DPeer_ptds(pCopy: *const CUDA_MEMCPY3D_PEER) |pt| { memcpy3d_peer(pCopy, NULL_STREAM, pt) }
    fn cuMemcpy3DPeerAsync / cuMemcpy3DPeerAsync_ptsz(pCopy: *const CUDA_MEMCPY3D_PEER, hStream: CUstream) |pt| { memcpy3d_peer(pCopy, hStream, pt) }
    fn cuMemsetD8 / cuMemsetD8_ptds(dstDevice: CUdeviceptr, uc: u8, n: usize) |pt| {
        memset2d(dstDevice, 0, uc, n, 1, NULL_STREAM, pt)
    }
    fn cuMemsetD8Async / cuMemsetD8Async_ptsz(dstDevice: CUdeviceptr, uc: u8, n: usize, hStream: CUstream) |pt| {
        memset2d(dstDevice, 0, uc, n, 1, hStream, pt)
    }
    fn cuMemsetD2D8 / cuMemsetD2D8_ptds(dstDevice: CUdeviceptr, dstPitch: usize, uc: u8, width: usize, height: usize) |pt| {
        memset2d(dstDevice, dstPitch, uc, width, height, NULL_STREAM, pt)
    }
    fn cuMemsetD2D8Async / cuMemsetD2D8Async_ptsz(dstDevice: CUdeviceptr, dstPitch: usize, uc: u8, width: usize, height: usize, hStream: CUstream) |pt| {
        memset2d(dstDevice, dstPitch, uc, width, height, hStream, pt)
    }
}
