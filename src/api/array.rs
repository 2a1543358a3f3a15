//! CUDA arrays and mipmapped arrays: allocation, queries and the 2D copies to, from and
//! between arrays. Runtime array handles are driver handles (`cudaArray_t` is a `CUarray`,
//! `cudaMipmappedArray_t` a `CUmipmappedArray`).
#![allow(non_snake_case)]

use std::ffi::{c_int, c_uint, c_void};
use std::ptr::null_mut;

use crate::api::copy::{direction, memcpy2d_params, narrower, row_pitch, run2d, End};
use crate::boundary::{cu, out, run, Res};
use crate::driver::types::*;
use crate::error::cudaError;
use crate::rt;
use crate::types::*;

// ---- channel descriptors <-> driver formats ----------------------------------------------

const SIGNED: c_int = cudaChannelFormatKind::cudaChannelFormatKindSigned as c_int;
const UNSIGNED: c_int = cudaChannelFormatKind::cudaChannelFormatKindUnsigned as c_int;
const FLOAT: c_int = cudaChannelFormatKind::cudaChannelFormatKindFloat as c_int;
const NONE: c_int = cudaChannelFormatKind::cudaChannelFormatKindNone as c_int;
const NV12: c_int = cudaChannelFormatKind::cudaChannelFormatKindNV12 as c_int;

/// Kinds whose channels are given by x, y, z, w: (kind, bits per channel, driver format).
const PER_CHANNEL: &[(c_int, c_int, CUarray_format)] = &[
    (SIGNED, 8, 0x08),    // CU_AD_FORMAT_SIGNED_INT8
    (SIGNED, 16, 0x09),   // CU_AD_FORMAT_SIGNED_INT16
    (SIGNED, 32, 0x0a),   // CU_AD_FORMAT_SIGNED_INT32
    (UNSIGNED, 8, 0x01),  // CU_AD_FORMAT_UNSIGNED_INT8
    (UNSIGNED, 16, 0x02), // CU_AD_FORMAT_UNSIGNED_INT16
    (UNSIGNED, 32, 0x03), // CU_AD_FORMAT_UNSIGNED_INT32
    (FLOAT, 16, 0x10),    // CU_AD_FORMAT_HALF
    (FLOAT, 32, 0x20),    // CU_AD_FORMAT_FLOAT
];

/// Kinds with one fixed shape (as `channel_descriptor.h` makes them): (kind, x y z w, driver
/// format). The driver's channel count is the number of non-zero sizes.
const FIXED: &[(c_int, [c_int; 4], CUarray_format)] = &[
    (NV12, [8, 8, 8, 0], 0xb0),
    (5, [8, 0, 0, 0], 0xc0),    // UnsignedNormalized8X1: CU_AD_FORMAT_UNORM_INT8X1
    (6, [8, 8, 0, 0], 0xc1),    // UnsignedNormalized8X2
    (7, [8, 8, 8, 8], 0xc2),    // UnsignedNormalized8X4
    (8, [16, 0, 0, 0], 0xc3),   // UnsignedNormalized16X1
    (9, [16, 16, 0, 0], 0xc4),  // UnsignedNormalized16X2
    (10, [16, 16, 16, 16], 0xc5), // UnsignedNormalized16X4
    (11, [8, 0, 0, 0], 0xc6),   // SignedNormalized8X1: CU_AD_FORMAT_SNORM_INT8X1
    (12, [8, 8, 0, 0], 0xc7),   // SignedNormalized8X2
    (13, [8, 8, 8, 8], 0xc8),   // SignedNormalized8X4
    (14, [16, 0, 0, 0], 0xc9),  // SignedNormalized16X1
    (15, [16, 16, 0, 0], 0xca), // SignedNormalized16X2
    (16, [16, 16, 16, 16], 0xcb), // SignedNormalized16X4
    (17, [8, 8, 8, 8], 0x91),   // UnsignedBlockCompressed1: CU_AD_FORMAT_BC1_UNORM
    (18, [8, 8, 8, 8], 0x92),   // UnsignedBlockCompressed1SRGB
    (19, [8, 8, 8, 8], 0x93),   // UnsignedBlockCompressed2
    (20, [8, 8, 8, 8], 0x94),   // UnsignedBlockCompressed2SRGB
    (21, [8, 8, 8, 8], 0x95),   // UnsignedBlockCompressed3
    (22, [8, 8, 8, 8], 0x96),   // UnsignedBlockCompressed3SRGB
    (23, [8, 0, 0, 0], 0x97),   // UnsignedBlockCompressed4: CU_AD_FORMAT_BC4_UNORM
    (24, [8, 0, 0, 0], 0x98),   // SignedBlockCompressed4
    (25, [8, 8, 0, 0], 0x99),   // UnsignedBlockCompressed5
    (26, [8, 8, 0, 0], 0x9a),   // SignedBlockCompressed5
    (27, [16, 16, 16, 0], 0x9b), // UnsignedBlockCompressed6H: CU_AD_FORMAT_BC6H_UF16
    (28, [16, 16, 16, 0], 0x9c), // SignedBlockCompressed6H
    (29, [8, 8, 8, 8], 0x9d),   // UnsignedBlockCompressed7
    (30, [8, 8, 8, 8], 0x9e),   // UnsignedBlockCompressed7SRGB
    (31, [10, 10, 10, 2], 0x50), // UnsignedNormalized1010102: CU_AD_FORMAT_UNORM_INT_101010_2
];

/// The driver formats of block-compressed kinds (elements are 4x4 blocks).
const BLOCK_COMPRESSED: std::ops::RangeInclusive<CUarray_format> = 0x91..=0x9e;

fn channels(xyzw: &[c_int; 4]) -> c_uint {
    xyzw.iter().filter(|&&c| c != 0).count() as c_uint
}

/// A channel descriptor as the driver's (format, number of channels), or
/// `cudaErrorInvalidChannelDescriptor`.
pub(crate) fn to_cu_format(d: &cudaChannelFormatDesc) -> Res<(CUarray_format, c_uint)> {
    let bad = cudaError::cudaErrorInvalidChannelDescriptor;
    let (x, y, z, w, f) = (d.x, d.y, d.z, d.w, d.f.0);
    if let Some(&(_, _, fmt)) = PER_CHANNEL.iter().find(|e| e.0 == f && e.1 == x) {
        let n = match (y, z, w) {
            (0, 0, 0) => 1,
            (y, 0, 0) if y == x => 2,
            (y, z, w) if y == x && z == x && w == x => 4,
            _ => return Err(bad),
        };
        return Ok((fmt, n));
    }
    match FIXED.iter().find(|e| e.0 == f) {
        Some(&(_, xyzw, fmt)) if xyzw == [x, y, z, w] => Ok((fmt, channels(&xyzw))),
        _ => Err(bad),
    }
}

/// The channel descriptor of a driver (format, number of channels).
pub(crate) fn from_cu_format(fmt: CUarray_format, n: c_uint) -> cudaChannelFormatDesc {
    let desc = |c: [c_int; 4], f: c_int| cudaChannelFormatDesc {
        x: c[0],
        y: c[1],
        z: c[2],
        w: c[3],
        f: raw::cudaChannelFormatKind(f),
    };
    if let Some(&(kind, bits, _)) = PER_CHANNEL.iter().find(|e| e.2 == fmt) {
        let b = |i: c_uint| if n > i { bits } else { 0 };
        return desc([b(0), b(1), b(2), b(3)], kind);
    }
    match FIXED.iter().find(|e| e.2 == fmt) {
        Some(&(kind, xyzw, _)) => desc(xyzw, kind),
        None => desc([0; 4], NONE),
    }
}

/// Bytes per element of a driver format, for the copies that count bytes along a row.
pub(crate) fn element_bytes(fmt: CUarray_format, n: c_uint) -> Option<usize> {
    if let Some(&(_, bits, _)) = PER_CHANNEL.iter().find(|e| e.2 == fmt) {
        return Some(bits as usize / 8 * n as usize);
    }
    if fmt == 0xb0 || BLOCK_COMPRESSED.contains(&fmt) {
        return None;
    }
    let (_, xyzw, _) = FIXED.iter().find(|e| e.2 == fmt)?;
    Some(xyzw.iter().sum::<c_int>() as usize / 8)
}

/// Reads the caller's channel descriptor (null: `cudaErrorInvalidValue`).
fn read_desc(desc: *const cudaChannelFormatDesc) -> Res<(CUarray_format, c_uint)> {
    // SAFETY: the caller's pointer; null is rejected. The kind is read as an integer.
    let d = unsafe { desc.as_ref() }.ok_or(cudaError::cudaErrorInvalidValue)?;
    to_cu_format(d)
}

/// A caller's array handle; null is `cudaErrorInvalidResourceHandle`, as NVIDIA's runtime
/// returns for queries of and copies to or from a null array (the sparse and memory
/// requirement queries return `cudaErrorInvalidValue` and check for null themselves).
fn array_handle(a: *const cudaArray) -> Res<CUarray> {
    if a.is_null() {
        return Err(cudaError::cudaErrorInvalidResourceHandle);
    }
    Ok(a as CUarray)
}

fn descriptor(a: CUarray) -> Res<CUDA_ARRAY3D_DESCRIPTOR> {
    let f = rt::ctx()?;
    let mut d = CUDA_ARRAY3D_DESCRIPTOR::default();
    // SAFETY: valid out pointer; the handle is the caller's.
    cu(unsafe { f.cuArray3DGetDescriptor(&mut d, a) })?;
    Ok(d)
}

// ---- allocation -------------------------------------------------------------------------

fn create_array(array: *mut cudaArray_t, desc: *const cudaChannelFormatDesc, w: usize, h: usize, d: usize, flags: c_uint) -> Res {
    let array = out(array)?;
    let (Format, NumChannels) = read_desc(desc)?;
    let f = rt::ctx()?;
    let ad = CUDA_ARRAY3D_DESCRIPTOR { Width: w, Height: h, Depth: d, Format, NumChannels, Flags: flags };
    let mut a: CUarray = null_mut();
    // SAFETY: valid descriptor and out pointer.
    cu(unsafe { f.cuArray3DCreate(&mut a, &ad) })?;
    *array = a as cudaArray_t;
    Ok(())
}

/// Allocate an array on the device.
#[no_mangle]
pub unsafe extern "C" fn cudaMallocArray(array: *mut cudaArray_t, desc: *const cudaChannelFormatDesc, width: usize, height: usize, flags: c_uint) -> cudaError_t {
    run("cudaMallocArray", || create_array(array, desc, width, height, 0, flags))
}

/// Allocate an array on the device.
#[no_mangle]
pub unsafe extern "C" fn cudaMalloc3DArray(array: *mut cudaArray_t, desc: *const cudaChannelFormatDesc, extent: cudaExtent, flags: c_uint) -> cudaError_t {
    run("cudaMalloc3DArray", || create_array(array, desc, extent.width, extent.height, extent.depth, flags))
}

/// Allocate a mipmapped array on the device.
#[no_mangle]
pub unsafe extern "C" fn cudaMallocMipmappedArray(mipmappedArray: *mut cudaMipmappedArray_t, desc: *const cudaChannelFormatDesc, extent: cudaExtent, numLevels: c_uint, flags: c_uint) -> cudaError_t {
    run("cudaMallocMipmappedArray", || {
        let m = out(mipmappedArray)?;
        let (Format, NumChannels) = read_desc(desc)?;
        let f = rt::ctx()?;
        let ad = CUDA_ARRAY3D_DESCRIPTOR {
            Width: extent.width,
            Height: extent.height,
            Depth: extent.depth,
            Format,
            NumChannels,
            Flags: flags,
        };
        let mut h: CUmipmappedArray = null_mut();
        // SAFETY: valid descriptor and out pointer; the driver clamps the level count.
        cu(unsafe { f.cuMipmappedArrayCreate(&mut h, &ad, numLevels) })?;
        *m = h as cudaMipmappedArray_t;
        Ok(())
    })
}

/// Frees an array on the device.
#[no_mangle]
pub unsafe extern "C" fn cudaFreeArray(array: cudaArray_t) -> cudaError_t {
    run("cudaFreeArray", || {
        let f = rt::ctx()?;
        if array.is_null() {
            return Ok(());
        }
        // SAFETY: the caller's handle.
        cu(unsafe { f.cuArrayDestroy(array as CUarray) })
    })
}

/// Frees a mipmapped array on the device.
#[no_mangle]
pub unsafe extern "C" fn cudaFreeMipmappedArray(mipmappedArray: cudaMipmappedArray_t) -> cudaError_t {
    run("cudaFreeMipmappedArray", || {
        let f = rt::ctx()?;
        if mipmappedArray.is_null() {
            return Ok(());
        }
        // SAFETY: the caller's handle.
        cu(unsafe { f.cuMipmappedArrayDestroy(mipmappedArray as CUmipmappedArray) })
    })
}

/// Gets a mipmap level of a CUDA mipmapped array.
#[no_mangle]
pub unsafe extern "C" fn cudaGetMipmappedArrayLevel(levelArray: *mut cudaArray_t, mipmappedArray: cudaMipmappedArray_const_t, level: c_uint) -> cudaError_t {
    run("cudaGetMipmappedArrayLevel", || {
        let la = out(levelArray)?;
        if mipmappedArray.is_null() {
            return Err(cudaError::cudaErrorInvalidResourceHandle);
        }
        let f = rt::ctx()?;
        let mut a: CUarray = null_mut();
        // SAFETY: valid out pointer; the caller's handle.
        cu(unsafe { f.cuMipmappedArrayGetLevel(&mut a, mipmappedArray as CUmipmappedArray, level) })?;
        *la = a as cudaArray_t;
        Ok(())
    })
}

// ---- queries ----------------------------------------------------------------------------

/// Gets info about the specified cudaArray.
#[no_mangle]
pub unsafe extern "C" fn cudaArrayGetInfo(desc: *mut cudaChannelFormatDesc, extent: *mut cudaExtent, flags: *mut c_uint, array: cudaArray_t) -> cudaError_t {
    run("cudaArrayGetInfo", || {
        let d = descriptor(array_handle(array)?)?;
        // SAFETY: the caller's out pointers; each may be null.
        unsafe {
            if let Some(desc) = desc.as_mut() {
                *desc = from_cu_format(d.Format, d.NumChannels);
            }
            if let Some(e) = extent.as_mut() {
                *e = cudaExtent { width: d.Width, height: d.Height, depth: d.Depth };
            }
            if let Some(fl) = flags.as_mut() {
                *fl = d.Flags;
            }
        }
        Ok(())
    })
}

/// Get the channel descriptor of an array.
#[no_mangle]
pub unsafe extern "C" fn cudaGetChannelDesc(desc: *mut cudaChannelFormatDesc, array: cudaArray_const_t) -> cudaError_t {
    run("cudaGetChannelDesc", || {
        let desc = out(desc)?;
        let d = descriptor(array_handle(array)?)?;
        *desc = from_cu_format(d.Format, d.NumChannels);
        Ok(())
    })
}

/// Returns a channel descriptor using the specified format.
#[no_mangle]
pub extern "C" fn cudaCreateChannelDesc(x: c_int, y: c_int, z: c_int, w: c_int, f: raw::cudaChannelFormatKind) -> cudaChannelFormatDesc {
    cudaChannelFormatDesc { x, y, z, w, f }
}

/// Gets a CUDA array plane from a CUDA array.
#[no_mangle]
pub unsafe extern "C" fn cudaArrayGetPlane(pPlaneArray: *mut cudaArray_t, hArray: cudaArray_t, planeIdx: c_uint) -> cudaError_t {
    run("cudaArrayGetPlane", || {
        let p = out(pPlaneArray)?;
        if hArray.is_null() {
            return Err(cudaError::cudaErrorInvalidResourceHandle);
        }
        let a = hArray as CUarray;
        let f = rt::ctx()?;
        let mut plane: CUarray = null_mut();
        // SAFETY: valid out pointer; the caller's handle.
        cu(unsafe { f.cuArrayGetPlane(&mut plane, a, planeIdx) })?;
        *p = plane as cudaArray_t;
        Ok(())
    })
}

fn sparse_out(s: &CUDA_ARRAY_SPARSE_PROPERTIES) -> cudaArraySparseProperties {
    cudaArraySparseProperties {
        tileExtent: cudaArraySparsePropertiesTileExtent {
            width: s.tileExtent_width,
            height: s.tileExtent_height,
            depth: s.tileExtent_depth,
        },
        miptailFirstLevel: s.miptailFirstLevel,
        miptailSize: s.miptailSize,
        flags: s.flags,
        reserved: [0; 4],
    }
}

fn requirements_out(r: &CUDA_ARRAY_MEMORY_REQUIREMENTS) -> cudaArrayMemoryRequirements {
    cudaArrayMemoryRequirements { size: r.size, alignment: r.alignment, reserved: [0; 4] }
}

/// Returns the layout properties of a sparse CUDA array.
#[no_mangle]
pub unsafe extern "C" fn cudaArrayGetSparseProperties(sparseProperties: *mut cudaArraySparseProperties, array: cudaArray_t) -> cudaError_t {
    run("cudaArrayGetSparseProperties", || {
        let o = out(sparseProperties)?;
        if array.is_null() {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let f = rt::ctx()?;
        let mut s = CUDA_ARRAY_SPARSE_PROPERTIES::default();
        // SAFETY: valid out pointer; the caller's handle.
        cu(unsafe { f.cuArrayGetSparseProperties(&mut s, array as CUarray) })?;
        *o = sparse_out(&s);
        Ok(())
    })
}

/// Returns the layout properties of a sparse CUDA mipmapped array.
#[no_mangle]
pub unsafe extern "C" fn cudaMipmappedArrayGetSparseProperties(sparseProperties: *mut cudaArraySparseProperties, mipmap: cudaMipmappedArray_t) -> cudaError_t {
    run("cudaMipmappedArrayGetSparseProperties", || {
        let o = out(sparseProperties)?;
        if mipmap.is_null() {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let f = rt::ctx()?;
        let mut s = CUDA_ARRAY_SPARSE_PROPERTIES::default();
        // SAFETY: valid out pointer; the caller's handle.
        cu(unsafe { f.cuMipmappedArrayGetSparseProperties(&mut s, mipmap as CUmipmappedArray) })?;
        *o = sparse_out(&s);
        Ok(())
    })
}

/// Returns the memory requirements of a CUDA array.
#[no_mangle]
pub unsafe extern "C" fn cudaArrayGetMemoryRequirements(memoryRequirements: *mut cudaArrayMemoryRequirements, array: cudaArray_t, device: c_int) -> cudaError_t {
    run("cudaArrayGetMemoryRequirements", || {
        let o = out(memoryRequirements)?;
        if array.is_null() {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let f = rt::ctx()?;
        let mut r = CUDA_ARRAY_MEMORY_REQUIREMENTS::default();
        // The device ordinal goes to the driver as it is: NVIDIA's runtime does not check it.
        // SAFETY: valid out pointer; the caller's handle.
        cu(unsafe { f.cuArrayGetMemoryRequirements(&mut r, array as CUarray, device as CUdevice) })?;
        *o = requirements_out(&r);
        Ok(())
    })
}

/// Returns the memory requirements of a CUDA mipmapped array.
#[no_mangle]
pub unsafe extern "C" fn cudaMipmappedArrayGetMemoryRequirements(memoryRequirements: *mut cudaArrayMemoryRequirements, mipmap: cudaMipmappedArray_t, device: c_int) -> cudaError_t {
    run("cudaMipmappedArrayGetMemoryRequirements", || {
        let o = out(memoryRequirements)?;
        if mipmap.is_null() {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let f = rt::ctx()?;
        let mut r = CUDA_ARRAY_MEMORY_REQUIREMENTS::default();
        // The device ordinal goes to the driver as it is: NVIDIA's runtime does not check it.
        // SAFETY: valid out pointer; the caller's handle.
        cu(unsafe { f.cuMipmappedArrayGetMemoryRequirements(&mut r, mipmap as CUmipmappedArray, device as CUdevice) })?;
        *o = requirements_out(&r);
        Ok(())
    })
}

// ---- 2D copies to, from and between arrays ----------------------------------------------

/// Copies `height` rows of `width` bytes between two ends (their offsets set with
/// [`End::at`]), on `stream` or synchronously.
fn copy2d(dst: End, src: End, width: usize, height: usize, stream: Option<cudaStream_t>) -> Res {
    run2d(rt::ctx()?, &memcpy2d_params(dst, src, width, height), stream)
}

/// Checks what every 2D array copy checks before it reaches the driver. An empty copy
/// (`Ok(None)`) succeeds before anything else is looked at, as with NVIDIA's runtime. A
/// pitch narrower than the row is `cudaErrorInvalidPitchValue` when several rows are
/// copied; for one row the pitch is not used, and only one given (not 0) but narrower than
/// the row is refused, with `cudaErrorInvalidValue` ([`narrower`]). Then the kind: its
/// sides must name the device wherever the copy has an array end (`cudaMemcpyDefault`
/// names both), else `cudaErrorInvalidMemcpyDirection`. Gives the driver memory types of
/// (source, destination).
fn check2d(kind: raw::cudaMemcpyKind, pitch: Option<usize>, width: usize, height: usize, src_array: bool, dst_array: bool) -> Res<Option<(CUmemorytype, CUmemorytype)>> {
    if width == 0 || height == 0 {
        return Ok(None);
    }
    match pitch {
        Some(p) if height > 1 && p < width => return Err(cudaError::cudaErrorInvalidPitchValue),
        Some(p) if height == 1 && narrower(p, width) => return Err(cudaError::cudaErrorInvalidValue),
        _ => {}
    }
    let (s, d) = direction(kind)?;
    let host = |t: CUmemorytype| t == CU_MEMORYTYPE_HOST;
    if (src_array && host(s)) || (dst_array && host(d)) {
        return Err(cudaError::cudaErrorInvalidMemcpyDirection);
    }
    Ok(Some((s, d)))
}

#[allow(clippy::too_many_arguments)]
fn to_array(dst: cudaArray_t, wOffset: usize, hOffset: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: raw::cudaMemcpyKind, stream: Option<cudaStream_t>) -> Res {
    let Some((s, _)) = check2d(kind, Some(spitch), width, height, false, true)? else {
        return Ok(());
    };
    let a = array_handle(dst)?;
    copy2d(End::array(a).at(wOffset, hOffset, 0), End::ptr(s, src, row_pitch(spitch, width, height), 0), width, height, stream)
}

#[allow(clippy::too_many_arguments)]
fn from_array(dst: *mut c_void, dpitch: usize, src: cudaArray_const_t, wOffset: usize, hOffset: usize, width: usize, height: usize, kind: raw::cudaMemcpyKind, stream: Option<cudaStream_t>) -> Res {
    let Some((_, d)) = check2d(kind, Some(dpitch), width, height, true, false)? else {
        return Ok(());
    };
    let a = array_handle(src)?;
    copy2d(End::ptr(d, dst, row_pitch(dpitch, width, height), 0), End::array(a).at(wOffset, hOffset, 0), width, height, stream)
}

/// Copies data between host and device.
// also: cudaMemcpy2DToArray_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2DToArray(dst: cudaArray_t, wOffset: usize, hOffset: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: raw::cudaMemcpyKind) -> cudaError_t {
    run("cudaMemcpy2DToArray", || to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, None))
}

/// Copies data between host and device.
// also: cudaMemcpy2DToArrayAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2DToArrayAsync(dst: cudaArray_t, wOffset: usize, hOffset: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: raw::cudaMemcpyKind, stream: cudaStream_t) -> cudaError_t {
    run("cudaMemcpy2DToArrayAsync", || to_array(dst, wOffset, hOffset, src, spitch, width, height, kind, Some(stream)))
}

/// Copies data between host and device.
// also: cudaMemcpy2DFromArray_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2DFromArray(dst: *mut c_void, dpitch: usize, src: cudaArray_const_t, wOffset: usize, hOffset: usize, width: usize, height: usize, kind: raw::cudaMemcpyKind) -> cudaError_t {
    run("cudaMemcpy2DFromArray", || from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, None))
}

/// Copies data between host and device.
// also: cudaMemcpy2DFromArrayAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2DFromArrayAsync(dst: *mut c_void, dpitch: usize, src: cudaArray_const_t, wOffset: usize, hOffset: usize, width: usize, height: usize, kind: raw::cudaMemcpyKind, stream: cudaStream_t) -> cudaError_t {
    run("cudaMemcpy2DFromArrayAsync", || from_array(dst, dpitch, src, wOffset, hOffset, width, height, kind, Some(stream)))
}

/// Copies data between host and device.
// also: cudaMemcpy2DArrayToArray_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2DArrayToArray(dst: cudaArray_t, wOffsetDst: usize, hOffsetDst: usize, src: cudaArray_const_t, wOffsetSrc: usize, hOffsetSrc: usize, width: usize, height: usize, kind: raw::cudaMemcpyKind) -> cudaError_t {
    run("cudaMemcpy2DArrayToArray", || {
        if check2d(kind, None, width, height, true, true)?.is_none() {
            return Ok(());
        }
        // NVIDIA's runtime: a null destination is an invalid value, a null source an invalid
        // handle.
        if dst.is_null() {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let (d, s) = (array_handle(dst)?, array_handle(src)?);
        copy2d(End::array(d).at(wOffsetDst, hOffsetDst, 0), End::array(s).at(wOffsetSrc, hOffsetSrc, 0), width, height, None)
    })
}

// ---- the deprecated linear copies to and from arrays ------------------------------------

/// (bytes in one row, rows) of an array; a 1D array has one row.
fn row_bytes(a: CUarray) -> Res<(usize, usize)> {
    let d = descriptor(a)?;
    let row = element_bytes(d.Format, d.NumChannels)
        .and_then(|e| e.checked_mul(d.Width))
        .ok_or(cudaError::cudaErrorInvalidValue)?;
    Ok((row, d.Height.max(1)))
}

/// Checks that `count` bytes from (`x` bytes, `y` rows) on stay inside an array of `rows`
/// rows of `row` bytes: a linear copy either fits whole or copies nothing
/// (`cudaErrorInvalidValue`).
fn check_linear(row: usize, rows: usize, x: usize, y: usize, count: usize) -> Res {
    let fits = x <= row
        && y.checked_mul(row)
            .and_then(|v| v.checked_add(x))
            .and_then(|v| v.checked_add(count))
            .is_some_and(|end| end <= row.saturating_mul(rows));
    if fits {
        Ok(())
    } else {
        Err(cudaError::cudaErrorInvalidValue)
    }
}

/// The driver memory type of the linear end of `cudaMemcpyToArray` and friends: the source
/// (`to`) or destination side of the kind. NVIDIA's runtime copies nothing, and succeeds, for a
/// value that is no `cudaMemcpyKind` (`None`).
fn linear_side(kind: raw::cudaMemcpyKind, to: bool) -> Option<CUmemorytype> {
    direction(kind).ok().map(|(s, d)| if to { s } else { d })
}

/// Copies `count` bytes between linear memory and an array, filling the array's rows from
/// (`x` bytes, `y` rows) on: the rest of the first row, then whole rows, then the start of one
/// more row. `to` tells the direction.
#[allow(clippy::too_many_arguments)]
fn linear(to: bool, a: CUarray, x: usize, y: usize, mem: *const c_void, t: CUmemorytype, count: usize, stream: Option<cudaStream_t>) -> Res {
    let (row, rows) = row_bytes(a)?;
    check_linear(row, rows, x, y, count)?;
    let step = |off: usize, ax: usize, ay: usize, w: usize, h: usize| -> Res {
        let m = End::ptr(t, (mem as *const u8).wrapping_add(off) as *const c_void, w.max(row), 0);
        let arr = End::array(a).at(ax, ay, 0);
        if to {
            copy2d(arr, m, w, h, stream)
        } else {
            copy2d(m, arr, w, h, stream)
        }
    };
    let first = count.min(row - x);
    if first > 0 {
        step(0, x, y, first, 1)?;
    }
    let mut done = first;
    // In range: checked above.
    let mut ay = y + 1;
    if count > done && row > 0 {
        let rows = (count - done) / row;
        if rows > 0 {
            step(done, 0, ay, row, rows)?;
            done += rows * row;
            ay += rows;
        }
        if count > done {
            step(done, 0, ay, count - done, 1)?;
        }
    }
    Ok(())
}

/// Copies data between host and device.
// also: cudaMemcpyToArray_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyToArray(dst: cudaArray_t, wOffset: usize, hOffset: usize, src: *const c_void, count: usize, kind: raw::cudaMemcpyKind) -> cudaError_t {
    run("cudaMemcpyToArray", || {
        let a = array_handle(dst)?;
        let Some(t) = linear_side(kind, true) else { return Ok(()) };
        linear(true, a, wOffset, hOffset, src, t, count, None)
    })
}

/// Copies data between host and device.
// also: cudaMemcpyToArrayAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyToArrayAsync(dst: cudaArray_t, wOffset: usize, hOffset: usize, src: *const c_void, count: usize, kind: raw::cudaMemcpyKind, stream: cudaStream_t) -> cudaError_t {
    run("cudaMemcpyToArrayAsync", || {
        let a = array_handle(dst)?;
        let Some(t) = linear_side(kind, true) else { return Ok(()) };
        linear(true, a, wOffset, hOffset, src, t, count, Some(stream))
    })
}

/// Copies data between host and device.
// also: cudaMemcpyFromArray_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyFromArray(dst: *mut c_void, src: cudaArray_const_t, wOffset: usize, hOffset: usize, count: usize, kind: raw::cudaMemcpyKind) -> cudaError_t {
    run("cudaMemcpyFromArray", || {
        let a = array_handle(src)?;
        let Some(t) = linear_side(kind, false) else { return Ok(()) };
        linear(false, a, wOffset, hOffset, dst, t, count, None)
    })
}

/// Copies data between host and device.
// also: cudaMemcpyFromArrayAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyFromArrayAsync(dst: *mut c_void, src: cudaArray_const_t, wOffset: usize, hOffset: usize, count: usize, kind: raw::cudaMemcpyKind, stream: cudaStream_t) -> cudaError_t {
    run("cudaMemcpyFromArrayAsync", || {
        let a = array_handle(src)?;
        let Some(t) = linear_side(kind, false) else { return Ok(()) };
        linear(false, a, wOffset, hOffset, dst, t, count, Some(stream))
    })
}

/// Copies data between host and device.
// also: cudaMemcpyArrayToArray_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyArrayToArray(dst: cudaArray_t, wOffsetDst: usize, hOffsetDst: usize, src: cudaArray_const_t, wOffsetSrc: usize, hOffsetSrc: usize, count: usize, kind: raw::cudaMemcpyKind) -> cudaError_t {
    run("cudaMemcpyArrayToArray", || {
        direction(kind)?;
        let (d, s) = (array_handle(dst)?, array_handle(src)?);
        let ((drow, drows), (srow, srows)) = (row_bytes(d)?, row_bytes(s)?);
        check_linear(drow, drows, wOffsetDst, hOffsetDst, count)?;
        check_linear(srow, srows, wOffsetSrc, hOffsetSrc, count)?;
        let (mut dx, mut dy, mut sx, mut sy) = (wOffsetDst, hOffsetDst, wOffsetSrc, hOffsetSrc);
        let mut left = count;
        while left > 0 {
            let next = |y: usize| y.checked_add(1).ok_or(cudaError::cudaErrorInvalidValue);
            if dx == drow {
                (dx, dy) = (0, next(dy)?);
            }
            if sx == srow {
                (sx, sy) = (0, next(sy)?);
            }
            let n = left.min(drow - dx).min(srow - sx);
            if n == 0 {
                return Err(cudaError::cudaErrorInvalidValue);
            }
            copy2d(End::array(d).at(dx, dy, 0), End::array(s).at(sx, sy, 0), n, 1, None)?;
            dx += n;
            sx += n;
            left -= n;
        }
        Ok(())
    })
}
