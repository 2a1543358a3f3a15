//! CUDA arrays and mipmapped arrays: allocation, queries and the 2D copies to, from and
//! between arrays. Runtime array handles are driver handles (`cudaArray_t` is a `CUarray`,
//! `cudaMipmappedArray_t` a `CUmipmappedArray`).
#![allow(non_snake_case)]

use cudart_rs_macros::export;
use std::ffi::{c_int, c_uint, c_void};
use std::ptr::null_mut;

use crate::driver::types::*;
use crate::driver::Fns;
use crate::engine::copy3d::{array_state, memcpy3d_init, run3d, set_ptr, ArrayState};
use crate::engine::formats::{from_cu_format, to_cu_format};
use crate::runtime::boundary::{cu, not_null, out, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

pub(crate) fn descriptor(a: CUarray) -> Res<CUDA_ARRAY3D_DESCRIPTOR> {
    let f = rt::ctx()?;
    let mut d = CUDA_ARRAY3D_DESCRIPTOR::default();
    // SAFETY: valid out pointer; the handle is the caller's.
    cu(unsafe { f.cuArray3DGetDescriptor(&mut d, a) })?;
    Ok(d)
}

// ---- allocation -------------------------------------------------------------------------

/// The shapes NVIDIA's runtime refuses before it looks at the channel descriptor
/// (`cudaErrorInvalidValue`): no width; a height of 0 under several slices of an array that
/// is not layered; a layered array of no layers; a cubemap that is not square or not of six
/// faces (a multiple of six for a layered cubemap).
fn check_shape(w: usize, h: usize, d: usize, flags: c_uint) -> Res {
    let layered = flags & cudaArrayLayered != 0;
    let cubemap = flags & cudaArrayCubemap != 0;
    let bad = w == 0
        || (h == 0 && d != 0 && !layered)
        || (layered && d == 0)
        || (cubemap && !layered && (w != h || d != 6))
        || (cubemap && layered && (w != h || d % 6 != 0));
    if bad {
        Err(cudaError::cudaErrorInvalidValue)
    } else {
        Ok(())
    }
}

/// The descriptor of a new array or mipmapped array, as NVIDIA's runtime makes it: the
/// out pointer and the channel descriptor given (`cudaErrorInvalidValue`, before the
/// context), the context, the out pointer cleared, the shape ([`check_shape`]), then the
/// channel descriptor (`cudaErrorInvalidChannelDescriptor`). The extent goes to the driver
/// as 32-bit values, as NVIDIA's runtime passes it.
fn new_array_desc<T>(
    out_ptr: *mut *mut T,
    desc: *const cudaChannelFormatDesc,
    w: usize,
    h: usize,
    d: usize,
    flags: c_uint,
) -> Res<(&'static mut *mut T, &'static Fns, CUDA_ARRAY3D_DESCRIPTOR)> {
    let o = out(out_ptr)?;
    // SAFETY: the caller's pointer; null is rejected.
    let desc = unsafe { desc.as_ref() }.ok_or(cudaError::cudaErrorInvalidValue)?;
    let f = rt::ctx()?;
    *o = null_mut();
    check_shape(w, h, d, flags)?;
    let (Format, NumChannels) = to_cu_format(desc)?;
    let ad = CUDA_ARRAY3D_DESCRIPTOR {
        Width: w as u32 as usize,
        Height: h as u32 as usize,
        Depth: d as u32 as usize,
        Format,
        NumChannels,
        Flags: flags,
    };
    Ok((o, f, ad))
}

fn create_array(
    array: *mut cudaArray_t,
    desc: *const cudaChannelFormatDesc,
    w: usize,
    h: usize,
    d: usize,
    flags: c_uint,
) -> Res {
    let (o, f, ad) = new_array_desc(array, desc, w, h, d, flags)?;
    let mut a: CUarray = null_mut();
    // SAFETY: valid descriptor and out pointer.
    cu(unsafe { f.cuArray3DCreate(&mut a, &ad) })?;
    *o = a as cudaArray_t;
    Ok(())
}

/// Allocate an array on the device.
#[export(family = Array, sem = MallocArray, flags = Array)]
#[no_mangle]
pub unsafe extern "C" fn cudaMallocArray(
    array: *mut cudaArray_t,
    desc: *const cudaChannelFormatDesc,
    width: usize,
    height: usize,
    flags: c_uint,
) -> cudaError_t {
    run(|| create_array(array, desc, width, height, 0, flags))
}

/// Allocate an array on the device.
#[export(family = Array, sem = Malloc3DArray, flags = Array)]
#[no_mangle]
pub unsafe extern "C" fn cudaMalloc3DArray(
    array: *mut cudaArray_t,
    desc: *const cudaChannelFormatDesc,
    extent: cudaExtent,
    flags: c_uint,
) -> cudaError_t {
    run(|| create_array(array, desc, extent.width, extent.height, extent.depth, flags))
}

/// Allocate a mipmapped array on the device.
#[export(family = Array, sem = MallocMipmapped, flags = Array)]
#[no_mangle]
pub unsafe extern "C" fn cudaMallocMipmappedArray(
    mipmappedArray: *mut cudaMipmappedArray_t,
    desc: *const cudaChannelFormatDesc,
    extent: cudaExtent,
    numLevels: c_uint,
    flags: c_uint,
) -> cudaError_t {
    run(|| {
        let (o, f, ad) = new_array_desc(mipmappedArray, desc, extent.width, extent.height, extent.depth, flags)?;
        let mut h: CUmipmappedArray = null_mut();
        // SAFETY: valid descriptor and out pointer; the driver clamps the level count.
        cu(unsafe { f.cuMipmappedArrayCreate(&mut h, &ad, numLevels) })?;
        *o = h as cudaMipmappedArray_t;
        Ok(())
    })
}

/// Frees an array on the device.
#[export(family = Array, sem = Destroy(Array, array))]
#[no_mangle]
pub unsafe extern "C" fn cudaFreeArray(array: cudaArray_t) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        if array.is_null() {
            return Ok(());
        }
        // SAFETY: the caller's handle.
        cu(unsafe { f.cuArrayDestroy(array as CUarray) })
    })
}

/// Frees a mipmapped array on the device.
#[export(family = Array, sem = Destroy(Mipmapped, mipmappedArray))]
#[no_mangle]
pub unsafe extern "C" fn cudaFreeMipmappedArray(mipmappedArray: cudaMipmappedArray_t) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        if mipmappedArray.is_null() {
            return Ok(());
        }
        // SAFETY: the caller's handle.
        cu(unsafe { f.cuMipmappedArrayDestroy(mipmappedArray as CUmipmappedArray) })
    })
}

/// Gets a mipmap level of a CUDA mipmapped array.
#[export(family = Array)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetMipmappedArrayLevel(
    levelArray: *mut cudaArray_t,
    mipmappedArray: cudaMipmappedArray_const_t,
    level: c_uint,
) -> cudaError_t {
    run(|| {
        let la = out(levelArray)?;
        not_null(mipmappedArray, cudaError::cudaErrorInvalidResourceHandle)?;
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
#[export(family = Array)]
#[no_mangle]
pub unsafe extern "C" fn cudaArrayGetInfo(
    desc: *mut cudaChannelFormatDesc,
    extent: *mut cudaExtent,
    flags: *mut c_uint,
    array: cudaArray_t,
) -> cudaError_t {
    // As NVIDIA's runtime: the outputs given are cleared first, and the driver is asked for
    // the descriptor without making a context current (the handle, a null one too, is its
    // to judge).
    run(|| {
        // SAFETY: the caller's out pointers; each may be null.
        unsafe {
            if let Some(desc) = desc.as_mut() {
                *desc = cudaChannelFormatDesc { x: 0, y: 0, z: 0, w: 0, f: raw::cudaChannelFormatKind(0) };
            }
            if let Some(e) = extent.as_mut() {
                *e = cudaExtent { width: 0, height: 0, depth: 0 };
            }
            if let Some(fl) = flags.as_mut() {
                *fl = 0;
            }
        }
        let f = rt::fns()?;
        let mut d = CUDA_ARRAY3D_DESCRIPTOR::default();
        // SAFETY: valid out pointer; the handle is the caller's.
        cu(unsafe { f.cuArray3DGetDescriptor(&mut d, array as CUarray) })?;
        // SAFETY: as above.
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
#[export(family = Array)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetChannelDesc(desc: *mut cudaChannelFormatDesc, array: cudaArray_const_t) -> cudaError_t {
    // As NVIDIA's runtime: the out pointer given, the context, then the driver judges the
    // handle (a null one too).
    run(|| {
        let desc = out(desc)?;
        let d = descriptor(array as CUarray)?;
        *desc = from_cu_format(d.Format, d.NumChannels);
        Ok(())
    })
}

/// Returns a channel descriptor using the specified format.
#[export(family = Array)]
#[no_mangle]
pub extern "C" fn cudaCreateChannelDesc(
    x: c_int,
    y: c_int,
    z: c_int,
    w: c_int,
    f: raw::cudaChannelFormatKind,
) -> cudaChannelFormatDesc {
    cudaChannelFormatDesc { x, y, z, w, f }
}

/// Gets a CUDA array plane from a CUDA array.
#[export(family = Array)]
#[no_mangle]
pub unsafe extern "C" fn cudaArrayGetPlane(
    pPlaneArray: *mut cudaArray_t,
    hArray: cudaArray_t,
    planeIdx: c_uint,
) -> cudaError_t {
    run(|| {
        let p = out(pPlaneArray)?;
        not_null(hArray, cudaError::cudaErrorInvalidResourceHandle)?;
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

/// What the four layout and requirement queries do: the out pointer, then the handle (NULL is
/// `cudaErrorInvalidValue`), the driver's answer (`query`, given the current context's driver
/// calls and a valid out pointer; the handle is the caller's), converted (`convert`) into the
/// caller's out pointer.
fn array_query<H, D: Default, R: 'static>(
    o: *mut R,
    handle: *mut H,
    query: impl FnOnce(&Fns, &mut D) -> CUresult,
    convert: fn(&D) -> R,
) -> Res {
    let o = out(o)?;
    not_null(handle, cudaError::cudaErrorInvalidValue)?;
    let f = rt::ctx()?;
    let mut d = D::default();
    cu(query(f, &mut d))?;
    *o = convert(&d);
    Ok(())
}

/// Returns the layout properties of a sparse CUDA array.
#[export(family = Array)]
#[no_mangle]
pub unsafe extern "C" fn cudaArrayGetSparseProperties(
    sparseProperties: *mut cudaArraySparseProperties,
    array: cudaArray_t,
) -> cudaError_t {
    // SAFETY: a valid out pointer; the handle is the caller's.
    let query = |f: &Fns, s: &mut _| unsafe { f.cuArrayGetSparseProperties(s, array as CUarray) };
    run(|| array_query(sparseProperties, array, query, sparse_out))
}

/// Returns the layout properties of a sparse CUDA mipmapped array.
#[export(family = Array)]
#[no_mangle]
pub unsafe extern "C" fn cudaMipmappedArrayGetSparseProperties(
    sparseProperties: *mut cudaArraySparseProperties,
    mipmap: cudaMipmappedArray_t,
) -> cudaError_t {
    // SAFETY: a valid out pointer; the handle is the caller's.
    let query = |f: &Fns, s: &mut _| unsafe { f.cuMipmappedArrayGetSparseProperties(s, mipmap as CUmipmappedArray) };
    run(|| array_query(sparseProperties, mipmap, query, sparse_out))
}

// The device ordinal of the requirement queries goes to the driver as it is: NVIDIA's runtime
// does not check it.

/// Returns the memory requirements of a CUDA array.
#[export(family = Array)]
#[no_mangle]
pub unsafe extern "C" fn cudaArrayGetMemoryRequirements(
    memoryRequirements: *mut cudaArrayMemoryRequirements,
    array: cudaArray_t,
    device: c_int,
) -> cudaError_t {
    // SAFETY: a valid out pointer; the handle is the caller's.
    let query = |f: &Fns, r: &mut _| unsafe { f.cuArrayGetMemoryRequirements(r, array as CUarray, device as CUdevice) };
    run(|| array_query(memoryRequirements, array, query, requirements_out))
}

/// Returns the memory requirements of a CUDA mipmapped array.
#[export(family = Array)]
#[no_mangle]
pub unsafe extern "C" fn cudaMipmappedArrayGetMemoryRequirements(
    memoryRequirements: *mut cudaArrayMemoryRequirements,
    mipmap: cudaMipmappedArray_t,
    device: c_int,
) -> cudaError_t {
    // SAFETY: a valid out pointer; the handle is the caller's.
    let query = |f: &Fns, r: &mut _| unsafe {
        f.cuMipmappedArrayGetMemoryRequirements(r, mipmap as CUmipmappedArray, device as CUdevice)
    };
    run(|| array_query(memoryRequirements, mipmap, query, requirements_out))
}

// ---- 2D copies to, from and between arrays ----------------------------------------------
//
// As NVIDIA's runtime does them (measured on the H100 with the differential tester,
// `ctest/difftest`, and read from `libcudart.so.13`): the context first, then an empty copy
// succeeds; with several rows a pitch narrower than the row is `cudaErrorInvalidPitchValue`;
// the kind must name the pointer's side and the device at the array's
// (`cudaErrorInvalidMemcpyDirection`); then the array's descriptor is read (the driver's
// error for a bad handle) and the copy goes to the driver as one `cuMemcpy3D`, the pointer's
// pitch as it is (one row's too: the driver judges it).

/// The driver memory type NVIDIA's runtime gives the pointer end of a copy to (`to`) or
/// from an array: host where the kind puts the pointer on the host and the array on the
/// device, device for `cudaMemcpyDeviceToDevice`, unified for `cudaMemcpyDefault`; `None`
/// for any other value.
fn pointer_side(kind: raw::cudaMemcpyKind, to: bool) -> Option<CUmemorytype> {
    use cudaMemcpyKind::*;
    let host_kind = if to { cudaMemcpyHostToDevice } else { cudaMemcpyDeviceToHost };
    if kind == host_kind {
        Some(CU_MEMORYTYPE_HOST)
    } else if kind == cudaMemcpyDeviceToDevice {
        Some(CU_MEMORYTYPE_DEVICE)
    } else if kind == cudaMemcpyDefault {
        Some(CU_MEMORYTYPE_UNIFIED)
    } else {
        None
    }
}

/// A copy between a pointer (`mem` of memory type `t`, rows `pitch` apart) and an array at
/// (`x` bytes, `y` rows): to the array when `to`, else from it.
#[allow(clippy::too_many_arguments)]
fn array_copy(
    to: bool,
    a: CUarray,
    x: usize,
    y: usize,
    mem: *const c_void,
    t: CUmemorytype,
    pitch: usize,
    width: usize,
    height: usize,
) -> CUDA_MEMCPY3D {
    let (mut host, mut dev) = (0usize, 0);
    set_ptr(t, mem, &mut host, &mut dev);
    let mut c = if to { memcpy3d_init(CU_MEMORYTYPE_ARRAY, t) } else { memcpy3d_init(t, CU_MEMORYTYPE_ARRAY) };
    if to {
        (c.dstArray, c.dstXInBytes, c.dstY) = (a, x, y);
        (c.srcHost, c.srcDevice, c.srcPitch) = (host as *const c_void, dev, pitch);
    } else {
        (c.srcArray, c.srcXInBytes, c.srcY) = (a, x, y);
        (c.dstHost, c.dstDevice, c.dstPitch) = (host as *mut c_void, dev, pitch);
    }
    c.WidthInBytes = width;
    c.Height = height;
    c
}

/// `cudaMemcpy2DToArray` (`to`) and `cudaMemcpy2DFromArray` and their `Async` forms.
#[allow(clippy::too_many_arguments)]
fn copy2d(
    to: bool,
    a: cudaArray_const_t,
    x: usize,
    y: usize,
    mem: *const c_void,
    pitch: usize,
    width: usize,
    height: usize,
    kind: raw::cudaMemcpyKind,
    stream: Option<cudaStream_t>,
) -> Res {
    let f = rt::ctx()?;
    if width == 0 || height == 0 {
        return Ok(());
    }
    if height > 1 && width > pitch {
        return Err(cudaError::cudaErrorInvalidPitchValue);
    }
    let t = pointer_side(kind, to).ok_or(cudaError::cudaErrorInvalidMemcpyDirection)?;
    let s = array_state(f, a as CUarray)?;
    // A device or unified end is positioned at (0 % pitch, 0 / pitch) by NVIDIA's runtime,
    // which dies of a division by zero for a pitch of 0: here it is simply (0, 0).
    run3d(f, &array_copy(to, s.array, x, y, mem, t, pitch, width, height), stream)
}

/// Copies data between host and device.
#[export(family = Copy, per_thread = ptds, sem = Copy(ToArray2D))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2DToArray(
    dst: cudaArray_t,
    wOffset: usize,
    hOffset: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| copy2d(true, dst, wOffset, hOffset, src, spitch, width, height, kind, None))
}

/// Copies data between host and device.
#[export(family = Copy, per_thread = ptsz, sem = Copy(ToArray2D))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2DToArrayAsync(
    dst: cudaArray_t,
    wOffset: usize,
    hOffset: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: raw::cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| copy2d(true, dst, wOffset, hOffset, src, spitch, width, height, kind, Some(stream)))
}

/// Copies data between host and device.
#[export(family = Copy, per_thread = ptds, sem = Copy(FromArray2D))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2DFromArray(
    dst: *mut c_void,
    dpitch: usize,
    src: cudaArray_const_t,
    wOffset: usize,
    hOffset: usize,
    width: usize,
    height: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| copy2d(false, src, wOffset, hOffset, dst, dpitch, width, height, kind, None))
}

/// Copies data between host and device.
#[export(family = Copy, per_thread = ptsz, sem = Copy(FromArray2D))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2DFromArrayAsync(
    dst: *mut c_void,
    dpitch: usize,
    src: cudaArray_const_t,
    wOffset: usize,
    hOffset: usize,
    width: usize,
    height: usize,
    kind: raw::cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| copy2d(false, src, wOffset, hOffset, dst, dpitch, width, height, kind, Some(stream)))
}

/// Whether a kind may copy between two arrays (`cudaMemcpyDeviceToDevice` or
/// `cudaMemcpyDefault`).
fn device_to_device(kind: raw::cudaMemcpyKind) -> bool {
    kind == cudaMemcpyKind::cudaMemcpyDeviceToDevice || kind == cudaMemcpyKind::cudaMemcpyDefault
}

// As NVIDIA's runtime: the context, an empty copy, the kind, the source array's descriptor
// (so a null or bad source is the driver's invalid handle); the destination goes to the
// driver as it is (a null one is its invalid value). Always synchronous.
/// Copies data between host and device.
#[export(family = Copy, per_thread = ptds, sem = Copy(ArrayToArray2D))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy2DArrayToArray(
    dst: cudaArray_t,
    wOffsetDst: usize,
    hOffsetDst: usize,
    src: cudaArray_const_t,
    wOffsetSrc: usize,
    hOffsetSrc: usize,
    width: usize,
    height: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        if width == 0 || height == 0 {
            return Ok(());
        }
        if !device_to_device(kind) {
            return Err(cudaError::cudaErrorInvalidMemcpyDirection);
        }
        let s = array_state(f, src as CUarray)?;
        let mut c = memcpy3d_init(CU_MEMORYTYPE_ARRAY, CU_MEMORYTYPE_ARRAY);
        (c.dstArray, c.dstXInBytes, c.dstY) = (dst as CUarray, wOffsetDst, hOffsetDst);
        (c.srcArray, c.srcXInBytes, c.srcY) = (s.array, wOffsetSrc, hOffsetSrc);
        c.WidthInBytes = width;
        c.Height = height;
        run3d(f, &c, None)
    })
}

// ---- the deprecated linear copies to and from arrays ------------------------------------
//
// As NVIDIA's runtime does them: the context first; a copy of zero bytes succeeds; then the
// kind: the pointer's side as for the 2D copies ([`pointer_side`]), the two kinds that name
// the array's side as the host are `cudaErrorInvalidMemcpyDirection`, and any other value
// copies nothing and succeeds; then the array's descriptor (the driver's error for a bad
// handle). The bytes fill the array's rows from (`x` bytes, `y` rows) on, in up to three
// driver copies, each a `cuMemcpy3D` whose pointer end has the array's row width as its
// pitch: from x > 0, the rest of that row, if the count reaches the row's end; then the
// whole rows the rest holds; then what is left, as one row at the position reached (x
// itself if the first copy was not made). The runtime checks no bounds: the driver refuses
// the copy that leaves the array, after those before it were made.

/// Copies `count` bytes between `mem` (memory type `t`) and the array `a` from (`x`, `y`)
/// on, to the array when `to`.
#[allow(clippy::too_many_arguments)]
fn linear(
    f: &Fns,
    to: bool,
    a: &ArrayState,
    x: usize,
    y: usize,
    mem: *const c_void,
    t: CUmemorytype,
    count: usize,
    stream: Option<cudaStream_t>,
) -> Res {
    let w = a.width_bytes;
    if w == 0 {
        return Err(cudaError::cudaErrorInvalidValue);
    }
    let at = |off: usize| (mem as *const u8).wrapping_add(off) as *const c_void;
    let (mut x, mut y, mut copied) = (x, y, 0usize);
    let rest = w.wrapping_sub(x);
    if x > 0 && count >= rest {
        run3d(f, &array_copy(to, a.array, x, y, at(0), t, w, rest, 1), stream)?;
        copied = rest;
        y = y.wrapping_add(1);
        x = 0;
    }
    let left = count.wrapping_sub(copied);
    if left >= w {
        let rows = left / w;
        run3d(f, &array_copy(to, a.array, x, y, at(copied), t, w, w, rows), stream)?;
        copied = copied.wrapping_add(rows.wrapping_mul(w));
        y = y.wrapping_add(rows);
        x = 0;
    }
    let left = count.wrapping_sub(copied);
    if left > 0 {
        run3d(f, &array_copy(to, a.array, x, y, at(copied), t, w, left, 1), stream)?;
    }
    Ok(())
}

/// `cudaMemcpyToArray` (`to`), `cudaMemcpyFromArray` and their `Async` forms.
#[allow(clippy::too_many_arguments)]
fn linear_copy(
    to: bool,
    a: cudaArray_const_t,
    x: usize,
    y: usize,
    mem: *const c_void,
    count: usize,
    kind: raw::cudaMemcpyKind,
    stream: Option<cudaStream_t>,
) -> Res {
    let f = rt::ctx()?;
    if count == 0 {
        return Ok(());
    }
    let Some(t) = pointer_side(kind, to) else {
        let array_on_host =
            if to { cudaMemcpyKind::cudaMemcpyDeviceToHost } else { cudaMemcpyKind::cudaMemcpyHostToDevice };
        if kind == cudaMemcpyKind::cudaMemcpyHostToHost || kind == array_on_host {
            return Err(cudaError::cudaErrorInvalidMemcpyDirection);
        }
        return Ok(());
    };
    let s = array_state(f, a as CUarray)?;
    linear(f, to, &s, x, y, mem, t, count, stream)
}

/// Copies data between host and device.
#[export(family = Copy, per_thread = ptds, sem = Copy(ToArray))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyToArray(
    dst: cudaArray_t,
    wOffset: usize,
    hOffset: usize,
    src: *const c_void,
    count: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| linear_copy(true, dst, wOffset, hOffset, src, count, kind, None))
}

/// Copies data between host and device.
#[export(family = Copy, per_thread = ptsz, sem = Copy(ToArray))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyToArrayAsync(
    dst: cudaArray_t,
    wOffset: usize,
    hOffset: usize,
    src: *const c_void,
    count: usize,
    kind: raw::cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| linear_copy(true, dst, wOffset, hOffset, src, count, kind, Some(stream)))
}

/// Copies data between host and device.
#[export(family = Copy, per_thread = ptds, sem = Copy(FromArray))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyFromArray(
    dst: *mut c_void,
    src: cudaArray_const_t,
    wOffset: usize,
    hOffset: usize,
    count: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| linear_copy(false, src, wOffset, hOffset, dst, count, kind, None))
}

/// Copies data between host and device.
#[export(family = Copy, per_thread = ptsz, sem = Copy(FromArray))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyFromArrayAsync(
    dst: *mut c_void,
    src: cudaArray_const_t,
    wOffset: usize,
    hOffset: usize,
    count: usize,
    kind: raw::cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| linear_copy(false, src, wOffset, hOffset, dst, count, kind, Some(stream)))
}

/// Copies data between host and device.
#[export(family = Copy, per_thread = ptds, sem = Copy(ArrayToArray))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyArrayToArray(
    dst: cudaArray_t,
    wOffsetDst: usize,
    hOffsetDst: usize,
    src: cudaArray_const_t,
    wOffsetSrc: usize,
    hOffsetSrc: usize,
    count: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        if count == 0 {
            return Ok(());
        }
        if !device_to_device(kind) {
            return Err(cudaError::cudaErrorInvalidMemcpyDirection);
        }
        // As NVIDIA's runtime does, the bytes go through a device buffer of `count` bytes:
        // allocated as cudaMalloc does (so a capture in progress refuses it, as it refuses
        // cudaMalloc), filled from the source as cudaMemcpyFromArray does, copied to the
        // destination as cudaMemcpyToArray does, and freed. (NVIDIA's runtime leaves the
        // buffer allocated when a copy fails; this one frees it.)
        let mut tmp: CUdeviceptr = 0;
        cu(f.cuMemAlloc(&mut tmp, count))?;
        let buf = tmp as usize as *const c_void;
        let dd = raw::cudaMemcpyKind(cudaMemcpyKind::cudaMemcpyDeviceToDevice as c_int);
        let copied = linear_copy(false, src, wOffsetSrc, hOffsetSrc, buf, count, dd, None)
            .and_then(|()| linear_copy(true, dst, wOffsetDst, hOffsetDst, buf, count, dd, None));
        let freed = cu(f.cuMemFree(tmp));
        copied.and(freed)
    })
}
