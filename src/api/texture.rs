//! Texture and surface objects. Runtime texture and surface objects are the driver's
//! (`cudaTextureObject_t` is a `CUtexObject`); the runtime's descriptors become the driver's:
//! a linear or pitch-2D resource's channel descriptor its (format, channels), the texture
//! descriptor's read mode, normalized coordinates, sRGB, trilinear and cubemap switches its
//! `CU_TRSF_*` flags. Which read modes and filters a format allows is checked here, as
//! NVIDIA's runtime does; everything else is the driver's to judge. The getters translate
//! back, the read mode from the resource's format and `CU_TRSF_READ_AS_INTEGER`.
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_int, c_uint};
use std::ptr::null_mut;

use crate::api::array::descriptor;
use crate::driver::types::*;
use crate::driver::Fns;
use crate::engine::formats::{from_cu_format, to_cu_format};
use crate::runtime::boundary::{cu, not_null, out, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

// ---- formats ---------------------------------------------------------------------------

/// How a driver format reads: what read modes and filters a texture of it allows.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Reads {
    /// Normalized formats (UNORM/SNORM 8 and 16 bits, block-compressed but BC6H): always as
    /// normalized floats.
    Normalized,
    /// 8- and 16-bit integers: as integers (point filtering only) or as normalized floats.
    SmallInt,
    /// 32-bit integers: as integers, point filtering only.
    Int32,
    /// NV12: no texture.
    Nv12,
    /// Floats, halves, BC6H, UNORM 10-10-10-2: as they are.
    Float,
}

fn reads(fmt: CUarray_format) -> Reads {
    match fmt {
        // UNORM/SNORM INT8/INT16 X1/X2/X4.
        0xc0..=0xcb => Reads::Normalized,
        // UNORM 10-10-10-2 reads as element type only, as NVIDIA's runtime has it (measured on
        // the H100: normalized float is cudaErrorInvalidNormSetting, element type succeeds).
        0x50 => Reads::Float,
        // BC6H (0x9b, 0x9c) holds half floats.
        0x9b | 0x9c => Reads::Float,
        0x91..=0x9e => Reads::Normalized,
        0x01 | 0x02 | 0x08 | 0x09 => Reads::SmallInt,
        0x03 | 0x0a => Reads::Int32,
        0xb0 => Reads::Nv12,
        _ => Reads::Float,
    }
}

const ELEMENT_TYPE: c_int = cudaTextureReadMode::cudaReadModeElementType as c_int;
const NORMALIZED_FLOAT: c_int = cudaTextureReadMode::cudaReadModeNormalizedFloat as c_int;
const LINEAR_FILTER: c_int = cudaTextureFilterMode::cudaFilterModeLinear as c_int;

// ---- resource descriptors --------------------------------------------------------------

/// The driver format of an array, from its descriptor (an invalid handle is the driver's
/// error).
fn array_format(a: CUarray) -> Res<CUarray_format> {
    Ok(descriptor(a)?.Format)
}

/// The format of a mipmapped array: its level 0's.
fn mipmap_format(m: CUmipmappedArray, f: &Fns) -> Res<CUarray_format> {
    let mut a: CUarray = null_mut();
    // SAFETY: valid out pointer; the handle is the driver's to check.
    cu(unsafe { f.cuMipmappedArrayGetLevel(&mut a, m, 0) })?;
    array_format(a)
}

/// The driver's resource descriptor for the runtime's, and the resource's format. As in
/// NVIDIA's runtime the flags (CUDA 13) are not passed on (they must be zero), and an array's
/// handle is checked by reading its format.
fn to_cu_resource(r: &cudaResourceDesc, f: &Fns) -> Res<(CUDA_RESOURCE_DESC, CUarray_format)> {
    let mut d = CUDA_RESOURCE_DESC::default();
    let format;
    // SAFETY: the union member `resType` names (any bit pattern is a valid value of each).
    unsafe {
        match r.resType.0 {
            0 => {
                let a = r.res.array.array as CUarray;
                format = array_format(a)?;
                d.resType = CU_RESOURCE_TYPE_ARRAY;
                d.res.hArray = a;
            }
            1 => {
                let m = r.res.mipmap.mipmap as CUmipmappedArray;
                format = mipmap_format(m, f)?;
                d.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
                d.res.hMipmappedArray = m;
            }
            2 => {
                let l = &r.res.linear;
                let (fmt, n) = to_cu_format(&l.desc)?;
                format = fmt;
                d.resType = CU_RESOURCE_TYPE_LINEAR;
                d.res.linear = CUDA_RESOURCE_DESC_linear {
                    devPtr: l.devPtr as CUdeviceptr,
                    format: fmt,
                    numChannels: n,
                    sizeInBytes: l.sizeInBytes,
                };
            }
            3 => {
                let p = &r.res.pitch2D;
                let (fmt, n) = to_cu_format(&p.desc)?;
                format = fmt;
                d.resType = CU_RESOURCE_TYPE_PITCH2D;
                d.res.pitch2D = CUDA_RESOURCE_DESC_pitch2D {
                    devPtr: p.devPtr as CUdeviceptr,
                    format: fmt,
                    numChannels: n,
                    width: p.width,
                    height: p.height,
                    pitchInBytes: p.pitchInBytes,
                };
            }
            _ => return Err(cudaError::cudaErrorInvalidValue),
        }
    }
    Ok((d, format))
}

/// The runtime's resource descriptor for the driver's, and the resource's format.
fn from_cu_resource(d: &CUDA_RESOURCE_DESC, f: &Fns) -> Res<(cudaResourceDesc, CUarray_format)> {
    // SAFETY: pointers, integers and enums' integer views: all zero is a valid value.
    let mut r: cudaResourceDesc = unsafe { std::mem::zeroed() };
    r.resType = raw::cudaResourceType(d.resType);
    let format;
    // SAFETY: the union member `resType` names.
    unsafe {
        match d.resType {
            CU_RESOURCE_TYPE_ARRAY => {
                format = array_format(d.res.hArray)?;
                r.res.array = cudaResourceDescArray { array: d.res.hArray as cudaArray_t };
            }
            CU_RESOURCE_TYPE_MIPMAPPED_ARRAY => {
                format = mipmap_format(d.res.hMipmappedArray, f)?;
                r.res.mipmap = cudaResourceDescMipmap { mipmap: d.res.hMipmappedArray as cudaMipmappedArray_t };
            }
            CU_RESOURCE_TYPE_LINEAR => {
                let l = &d.res.linear;
                format = l.format;
                r.res.linear = cudaResourceDescLinear {
                    devPtr: l.devPtr as usize as *mut _,
                    desc: from_cu_format(l.format, l.numChannels),
                    sizeInBytes: l.sizeInBytes,
                };
            }
            CU_RESOURCE_TYPE_PITCH2D => {
                let p = &d.res.pitch2D;
                format = p.format;
                r.res.pitch2D = cudaResourceDescPitch2D {
                    devPtr: p.devPtr as usize as *mut _,
                    desc: from_cu_format(p.format, p.numChannels),
                    width: p.width,
                    height: p.height,
                    pitchInBytes: p.pitchInBytes,
                };
            }
            _ => return Err(cudaError::cudaErrorInvalidValue),
        }
    }
    Ok((r, format))
}

// ---- texture descriptors ---------------------------------------------------------------

/// The driver's texture descriptor for the runtime's, on a resource of format `fmt`: the
/// switches become flags, the read mode `CU_TRSF_READ_AS_INTEGER` where the format has a
/// choice. Read modes and filters the format does not allow are refused
/// (`cudaErrorInvalidNormSetting`, `cudaErrorInvalidFilterSetting`); NV12 cannot be a texture.
fn to_cu_texture(t: &cudaTextureDesc, fmt: CUarray_format) -> Res<CUDA_TEXTURE_DESC> {
    let mut flags = 0;
    let set = |on: c_int, flag: c_uint| if on != 0 { flag } else { 0 };
    flags |= set(t.sRGB, CU_TRSF_SRGB);
    flags |= set(t.normalizedCoords, CU_TRSF_NORMALIZED_COORDINATES);
    flags |= set(t.disableTrilinearOptimization, CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION);
    flags |= set(t.seamlessCubemap, CU_TRSF_SEAMLESS_CUBEMAP);
    let (read, filter) = (t.readMode.0, t.filterMode.0);
    match reads(fmt) {
        Reads::Normalized if read != NORMALIZED_FLOAT => return Err(cudaError::cudaErrorInvalidNormSetting),
        Reads::SmallInt if read == ELEMENT_TYPE => {
            if filter == LINEAR_FILTER {
                return Err(cudaError::cudaErrorInvalidFilterSetting);
            }
            flags |= CU_TRSF_READ_AS_INTEGER;
        }
        Reads::Nv12 => return Err(cudaError::cudaErrorInvalidValue),
        Reads::Int32 if filter == LINEAR_FILTER => return Err(cudaError::cudaErrorInvalidFilterSetting),
        Reads::Int32 | Reads::Float if read == NORMALIZED_FLOAT => return Err(cudaError::cudaErrorInvalidNormSetting),
        _ => {}
    }
    Ok(CUDA_TEXTURE_DESC {
        addressMode: [t.addressMode[0].0, t.addressMode[1].0, t.addressMode[2].0],
        filterMode: filter,
        flags,
        maxAnisotropy: t.maxAnisotropy,
        mipmapFilterMode: t.mipmapFilterMode.0,
        mipmapLevelBias: t.mipmapLevelBias,
        minMipmapLevelClamp: t.minMipmapLevelClamp,
        maxMipmapLevelClamp: t.maxMipmapLevelClamp,
        borderColor: t.borderColor,
        reserved: [0; 12],
    })
}

/// The runtime's texture descriptor for the driver's, on a resource of format `fmt`.
fn from_cu_texture(d: &CUDA_TEXTURE_DESC, fmt: CUarray_format) -> cudaTextureDesc {
    let flag = |f: c_uint| (d.flags & f != 0) as c_int;
    let read = match reads(fmt) {
        Reads::Normalized => NORMALIZED_FLOAT,
        Reads::SmallInt if d.flags & CU_TRSF_READ_AS_INTEGER == 0 => NORMALIZED_FLOAT,
        _ => ELEMENT_TYPE,
    };
    let mode = raw::cudaTextureAddressMode;
    cudaTextureDesc {
        addressMode: [mode(d.addressMode[0]), mode(d.addressMode[1]), mode(d.addressMode[2])],
        filterMode: raw::cudaTextureFilterMode(d.filterMode),
        readMode: raw::cudaTextureReadMode(read),
        sRGB: flag(CU_TRSF_SRGB),
        borderColor: d.borderColor,
        normalizedCoords: flag(CU_TRSF_NORMALIZED_COORDINATES),
        maxAnisotropy: d.maxAnisotropy,
        mipmapFilterMode: raw::cudaTextureFilterMode(d.mipmapFilterMode),
        mipmapLevelBias: d.mipmapLevelBias,
        minMipmapLevelClamp: d.minMipmapLevelClamp,
        maxMipmapLevelClamp: d.maxMipmapLevelClamp,
        disableTrilinearOptimization: flag(CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION),
        seamlessCubemap: flag(CU_TRSF_SEAMLESS_CUBEMAP),
    }
}

// ---- resource view descriptors ---------------------------------------------------------
// The view formats have the driver's values; the reserved words are not passed on.

fn to_cu_view(v: &cudaResourceViewDesc) -> CUDA_RESOURCE_VIEW_DESC {
    CUDA_RESOURCE_VIEW_DESC {
        format: v.format.0,
        width: v.width,
        height: v.height,
        depth: v.depth,
        firstMipmapLevel: v.firstMipmapLevel,
        lastMipmapLevel: v.lastMipmapLevel,
        firstLayer: v.firstLayer,
        lastLayer: v.lastLayer,
        reserved: [0; 16],
    }
}

fn from_cu_view(d: &CUDA_RESOURCE_VIEW_DESC) -> cudaResourceViewDesc {
    cudaResourceViewDesc {
        format: raw::cudaResourceViewFormat(d.format),
        width: d.width,
        height: d.height,
        depth: d.depth,
        firstMipmapLevel: d.firstMipmapLevel,
        lastMipmapLevel: d.lastMipmapLevel,
        firstLayer: d.firstLayer,
        lastLayer: d.lastLayer,
        #[cfg(not(feature = "abi12"))]
        reserved: [0; 16],
    }
}

// ---- texture objects -------------------------------------------------------------------

/// The driver's resource descriptor of a texture object, as the runtime's.
fn texture_resource(f: &Fns, tex: CUtexObject) -> Res<(cudaResourceDesc, CUarray_format)> {
    let mut d = CUDA_RESOURCE_DESC::default();
    // SAFETY: valid out pointer; the object is the driver's to check.
    cu(unsafe { f.cuTexObjectGetResourceDesc(&mut d, tex) })?;
    from_cu_resource(&d, f)
}

/// Creates a texture object.
#[export(family = Texture)]
#[no_mangle]
pub unsafe extern "C" fn cudaCreateTextureObject(
    pTexObject: *mut cudaTextureObject_t,
    pResDesc: *const cudaResourceDesc,
    pTexDesc: *const cudaTextureDesc,
    pResViewDesc: *const cudaResourceViewDesc,
) -> cudaError_t {
    run(|| {
        // SAFETY: the caller's descriptors; null ones are refused, a null texture descriptor
        // as NVIDIA's runtime refuses it (cudaErrorInvalidResourceHandle, before the resource
        // is looked at).
        let r = pResDesc.as_ref().ok_or(cudaError::cudaErrorInvalidValue)?;
        let t = pTexDesc.as_ref().ok_or(cudaError::cudaErrorInvalidResourceHandle)?;
        let f = rt::ctx()?;
        let (rd, fmt) = to_cu_resource(r, f)?;
        let td = to_cu_texture(t, fmt)?;
        // SAFETY: the caller's view descriptor, if any.
        let vd = pResViewDesc.as_ref().map(to_cu_view);
        // SAFETY: descriptors that live across the call; the driver judges their contents and
        // the out pointer (a null one is its cudaErrorInvalidValue, after the descriptors').
        cu(f.cuTexObjectCreate(pTexObject, &rd, &td, vd.as_ref().map_or(std::ptr::null(), |v| v as *const _)))
    })
}

passthrough! {
    cudaDestroyTextureObject(texObject: cudaTextureObject_t)
        = ctx.cuTexObjectDestroy(texObject) [family = Texture] "Destroys a texture object.";
}

/// Returns a texture object's resource descriptor.
#[export(family = Texture)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetTextureObjectResourceDesc(
    pResDesc: *mut cudaResourceDesc,
    texObject: cudaTextureObject_t,
) -> cudaError_t {
    run(|| {
        let o = out(pResDesc)?;
        let f = rt::ctx()?;
        *o = texture_resource(f, texObject)?.0;
        Ok(())
    })
}

/// Returns a texture object's texture descriptor.
#[export(family = Texture)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetTextureObjectTextureDesc(
    pTexDesc: *mut cudaTextureDesc,
    texObject: cudaTextureObject_t,
) -> cudaError_t {
    run(|| {
        // A null out pointer is NVIDIA's cudaErrorInvalidResourceHandle, before the object is
        // looked at.
        let o = pTexDesc.as_mut().ok_or(cudaError::cudaErrorInvalidResourceHandle)?;
        let f = rt::ctx()?;
        let (_, fmt) = texture_resource(f, texObject)?;
        let mut d = CUDA_TEXTURE_DESC::default();
        // SAFETY: valid out pointer; the object is the driver's to check.
        cu(f.cuTexObjectGetTextureDesc(&mut d, texObject))?;
        *o = from_cu_texture(&d, fmt);
        Ok(())
    })
}

/// Returns a texture object's resource view descriptor.
#[export(family = Texture)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetTextureObjectResourceViewDesc(
    pResViewDesc: *mut cudaResourceViewDesc,
    texObject: cudaTextureObject_t,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        texture_resource(f, texObject)?;
        let mut d = CUDA_RESOURCE_VIEW_DESC::default();
        // SAFETY: valid out pointer; the object is the driver's to check (for one created
        // without a view it succeeds and gives nothing back: all zero here).
        cu(f.cuTexObjectGetResourceViewDesc(&mut d, texObject))?;
        // As NVIDIA's runtime, a null out pointer is no error: the view is read and dropped.
        if let Some(o) = pResViewDesc.as_mut() {
            *o = from_cu_view(&d);
        }
        Ok(())
    })
}

// ---- surface objects -------------------------------------------------------------------

/// Creates a surface object.
#[export(family = Texture)]
#[no_mangle]
pub unsafe extern "C" fn cudaCreateSurfaceObject(
    pSurfObject: *mut cudaSurfaceObject_t,
    pResDesc: *const cudaResourceDesc,
) -> cudaError_t {
    run(|| {
        // A null out pointer is refused before anything else, as NVIDIA's runtime does (the
        // driver is not asked).
        not_null(pSurfObject, cudaError::cudaErrorInvalidValue)?;
        // SAFETY: the caller's descriptor; null is refused.
        let r = pResDesc.as_ref().ok_or(cudaError::cudaErrorInvalidValue)?;
        let f = rt::ctx()?;
        // Only arrays can be surfaces: the driver refuses any other resource.
        let (rd, _) = to_cu_resource(r, f)?;
        // SAFETY: a descriptor that lives across the call, a non-null out pointer.
        cu(f.cuSurfObjectCreate(pSurfObject, &rd))
    })
}

passthrough! {
    cudaDestroySurfaceObject(surfObject: cudaSurfaceObject_t)
        = ctx.cuSurfObjectDestroy(surfObject) [family = Texture] "Destroys a surface object.";
}

/// Returns a surface object's resource descriptor.
#[export(family = Texture)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetSurfaceObjectResourceDesc(
    pResDesc: *mut cudaResourceDesc,
    surfObject: cudaSurfaceObject_t,
) -> cudaError_t {
    run(|| {
        let o = out(pResDesc)?;
        let f = rt::ctx()?;
        let mut d = CUDA_RESOURCE_DESC::default();
        // SAFETY: valid out pointer; the object is the driver's to check.
        cu(f.cuSurfObjectGetResourceDesc(&mut d, surfObject))?;
        *o = from_cu_resource(&d, f)?.0;
        Ok(())
    })
}

// ---- limits ----------------------------------------------------------------------------

/// Returns the maximum number of elements allocatable in a 1D linear texture for a given
/// element size.
#[export(family = Texture)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetTexture1DLinearMaxWidth(
    maxWidthInElements: *mut usize,
    fmtDesc: *const cudaChannelFormatDesc,
    device: c_int,
) -> cudaError_t {
    run(|| {
        let o = out(maxWidthInElements)?;
        // SAFETY: the caller's descriptor; null is refused.
        let d = fmtDesc.as_ref().ok_or(cudaError::cudaErrorInvalidValue)?;
        let (fmt, n) = to_cu_format(d)?;
        let dev = rt::check_device(device)?;
        let f = rt::fns()?;
        let mut w = 0usize;
        // SAFETY: valid out pointer, checked device.
        cu(f.cuDeviceGetTexture1DLinearMaxWidth(&mut w, fmt, n, dev))?;
        *o = w;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tex(read: c_int, filter: c_int) -> cudaTextureDesc {
        cudaTextureDesc {
            addressMode: [raw::cudaTextureAddressMode(0); 3],
            filterMode: raw::cudaTextureFilterMode(filter),
            readMode: raw::cudaTextureReadMode(read),
            sRGB: 0,
            borderColor: [0.0; 4],
            normalizedCoords: 0,
            maxAnisotropy: 0,
            mipmapFilterMode: raw::cudaTextureFilterMode(0),
            mipmapLevelBias: 0.0,
            minMipmapLevelClamp: 0.0,
            maxMipmapLevelClamp: 0.0,
            disableTrilinearOptimization: 0,
            seamlessCubemap: 0,
        }
    }

    #[test]
    fn read_modes_and_filters_by_format() {
        use cudaError::*;
        let e = |r, fl, fmt| to_cu_texture(&tex(r, fl), fmt).map(|d| d.flags).err();
        let flags = |r, fl, fmt| to_cu_texture(&tex(r, fl), fmt).unwrap().flags;
        // 8-bit unsigned: as integers (point only) or normalized.
        assert_eq!(flags(ELEMENT_TYPE, 0, 0x01), CU_TRSF_READ_AS_INTEGER);
        assert_eq!(e(ELEMENT_TYPE, LINEAR_FILTER, 0x01), Some(cudaErrorInvalidFilterSetting));
        assert_eq!(flags(NORMALIZED_FLOAT, LINEAR_FILTER, 0x01), 0);
        // 32-bit integers: element type, point filtering.
        assert_eq!(flags(ELEMENT_TYPE, 0, 0x03), 0);
        assert_eq!(e(ELEMENT_TYPE, LINEAR_FILTER, 0x0a), Some(cudaErrorInvalidFilterSetting));
        assert_eq!(e(NORMALIZED_FLOAT, 0, 0x03), Some(cudaErrorInvalidNormSetting));
        // Floats: element type, any filter.
        assert_eq!(flags(ELEMENT_TYPE, LINEAR_FILTER, 0x20), 0);
        assert_eq!(e(NORMALIZED_FLOAT, 0, 0x10), Some(cudaErrorInvalidNormSetting));
        // Normalized formats: normalized only.
        assert_eq!(e(ELEMENT_TYPE, 0, 0xc2), Some(cudaErrorInvalidNormSetting));
        assert_eq!(flags(NORMALIZED_FLOAT, LINEAR_FILTER, 0x91), 0);
        assert_eq!(e(NORMALIZED_FLOAT, 0, 0x9b), Some(cudaErrorInvalidNormSetting));
        assert_eq!(e(NORMALIZED_FLOAT, 0, 0xb0), Some(cudaErrorInvalidValue));
        // UNORM 10-10-10-2: element type only.
        assert_eq!(flags(ELEMENT_TYPE, 0, 0x50), 0);
        assert_eq!(e(NORMALIZED_FLOAT, LINEAR_FILTER, 0x50), Some(cudaErrorInvalidNormSetting));
    }

    #[test]
    fn switches_become_flags_and_back() {
        let mut t = tex(ELEMENT_TYPE, 0);
        t.sRGB = 5;
        t.normalizedCoords = 1;
        t.disableTrilinearOptimization = 1;
        t.seamlessCubemap = 1;
        t.borderColor = [0.5, 1.0, 2.0, -1.0];
        let d = to_cu_texture(&t, 0x02).unwrap();
        assert_eq!(d.flags, 0x01 | 0x02 | 0x10 | 0x20 | 0x40);
        let back = from_cu_texture(&d, 0x02);
        assert_eq!((back.sRGB, back.normalizedCoords, back.readMode.0), (1, 1, ELEMENT_TYPE));
        assert_eq!(back.borderColor, t.borderColor);
        assert_eq!(from_cu_texture(&CUDA_TEXTURE_DESC::default(), 0x02).readMode.0, NORMALIZED_FLOAT);
        assert_eq!(from_cu_texture(&CUDA_TEXTURE_DESC::default(), 0xc0).readMode.0, NORMALIZED_FLOAT);
        assert_eq!(from_cu_texture(&CUDA_TEXTURE_DESC::default(), 0x20).readMode.0, ELEMENT_TYPE);
    }
}
