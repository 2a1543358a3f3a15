//! Texture and surface objects: the descriptors they were created with, checked against the
//! documented rules and an H100's limits, and handed back as given, as the driver does, but
//! for the border colour, which the driver does not give back (zero here), and the view of an
//! object made without one (success, nothing written). Nothing samples them (the stand-in
//! has no kernels). Objects are numbered from 1 and numbers are never reused; a context's
//! objects go with it.
//!
//! Checked (`CUDA_ERROR_INVALID_VALUE` unless said otherwise): null pointers; a current
//! context; the resource type; an array or mipmapped array handle the stand-in made
//! (`CUDA_ERROR_INVALID_HANDLE`); linear and pitch-2D memory not null, aligned to the texture
//! alignment (512 bytes), of a valid format, within the 1D linear width
//! (`linear_max_width`) and the 2D linear width, height and pitch, the pitch a multiple of
//! the texture pitch alignment (32 bytes); address and filter modes and flag bits cuda.h
//! defines; seamless cubemap filtering only on a cubemap array; a resource view of an array
//! or mipmapped array of a format and inside it (see `check_view`; a view of linear or
//! pitch-2D memory is ignored, as the driver does); resource flags zero; surfaces only on
//! arrays. The H100 takes what is not checked here (empty linear memory, pitch-2D memory of
//! width or height 0 or a pitch narrower than a row, unnormalized coordinates on a mipmapped
//! array, surfaces of arrays without the load/store flag; destroying an object that is not
//! one succeeds); the codes of the rest are the H100's where tests on it showed them, else
//! guesses that those tests pin.

use std::collections::HashMap;
use std::ffi::{c_int, c_uint};

use parking_lot::Mutex;

use crate::array::{element, CUBEMAP, LAYERED};
use crate::attrs::device_attribute;
use crate::state::*;
use crate::types::*;
use crate::{export, nonnull};

struct Tex {
    dev: c_int,
    res: CUDA_RESOURCE_DESC,
    tex: CUDA_TEXTURE_DESC,
    view: Option<CUDA_RESOURCE_VIEW_DESC>,
}

struct Surf {
    dev: c_int,
    res: CUDA_RESOURCE_DESC,
}

// SAFETY: the descriptors' handles are values the stand-in looks up, never dereferenced.
unsafe impl Send for Tex {}
unsafe impl Send for Surf {}

#[derive(Default)]
struct Objects {
    next: u64,
    tex: HashMap<u64, Tex>,
    surf: HashMap<u64, Surf>,
}

static OBJECTS: Mutex<Option<Objects>> = Mutex::new(None);

fn objects<T>(f: impl FnOnce(&mut Objects) -> T) -> T {
    f(OBJECTS.lock().get_or_insert_with(Objects::default))
}

/// Forgets the objects of a device's context (when it is destroyed).
pub fn context_destroyed(dev: c_int) {
    objects(|o| {
        o.tex.retain(|_, t| t.dev != dev);
        o.surf.retain(|_, s| s.dev != dev);
    });
}

fn invalid<T>() -> Res<T> {
    Err(CUDA_ERROR_INVALID_VALUE)
}

fn attr(a: CUdevice_attribute, dev: c_int) -> usize {
    device_attribute(a, dev).unwrap_or(0).max(0) as usize
}

/// Checks a resource descriptor; the array's flags for an array resource, else 0.
fn check_resource(s: &State, r: &CUDA_RESOURCE_DESC, dev: c_int) -> Res<u32> {
    if r.flags != 0 {
        return invalid();
    }
    let align = attr(14, dev);
    // SAFETY: the union member `resType` names.
    unsafe {
        match r.resType {
            CU_RESOURCE_TYPE_ARRAY => {
                let a = s.arrays.get(&(r.res.hArray as usize)).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
                Ok(a.desc.flags)
            }
            CU_RESOURCE_TYPE_MIPMAPPED_ARRAY => {
                let m = s.mipmaps.get(&(r.res.hMipmappedArray as usize)).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
                Ok(m.desc.flags)
            }
            CU_RESOURCE_TYPE_LINEAR => {
                let l = r.res.linear;
                let (eb, block) = element(l.format, l.numChannels).ok_or(CUDA_ERROR_INVALID_VALUE)?;
                let ok = block == 1
                    && l.devPtr != 0
                    && l.devPtr as usize % align == 0
                    && l.sizeInBytes / eb <= linear_max_width(eb);
                if ok {
                    Ok(0)
                } else {
                    invalid()
                }
            }
            CU_RESOURCE_TYPE_PITCH2D => {
                let p = r.res.pitch2D;
                let (_, block) = element(p.format, p.numChannels).ok_or(CUDA_ERROR_INVALID_VALUE)?;
                let ok = block == 1
                    && p.devPtr != 0
                    && p.devPtr as usize % align == 0
                    && p.width <= attr(70, dev)
                    && p.height <= attr(71, dev)
                    && p.pitchInBytes <= attr(72, dev)
                    && p.pitchInBytes % attr(51, dev) == 0;
                if ok {
                    Ok(0)
                } else {
                    invalid()
                }
            }
            _ => invalid(),
        }
    }
}

const TRSF_ALL: c_uint = CU_TRSF_READ_AS_INTEGER
    | CU_TRSF_NORMALIZED_COORDINATES
    | CU_TRSF_SRGB
    | CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION
    | CU_TRSF_SEAMLESS_CUBEMAP;

fn check_texture(t: &CUDA_TEXTURE_DESC, array_flags: u32) -> Res {
    let modes_ok = t.addressMode.iter().all(|m| (0..=3).contains(m))
        && (0..=1).contains(&t.filterMode)
        && (0..=1).contains(&t.mipmapFilterMode);
    if !modes_ok || t.flags & !TRSF_ALL != 0 {
        return invalid();
    }
    if t.flags & CU_TRSF_SEAMLESS_CUBEMAP != 0 && array_flags & CUBEMAP == 0 {
        return invalid();
    }
    Ok(())
}

/// Checks a resource view against its array or mipmapped array, as cuda.h documents views: a
/// format (not none), level and layer ranges in order and no further than one past the
/// resource's (as the H100 takes them; an array's levels 0), the resource's extent, or four times its width and
/// height for a block-compressed view of 32-bit unsigned integers (2 channels for BC1 and BC4,
/// 4 for the others).
fn check_view(s: &State, r: &CUDA_RESOURCE_DESC, v: &CUDA_RESOURCE_VIEW_DESC) -> Res {
    // SAFETY: the union member `resType` names.
    let (d, levels) = unsafe {
        match r.resType {
            CU_RESOURCE_TYPE_ARRAY => (s.arrays[&(r.res.hArray as usize)].desc, 1),
            CU_RESOURCE_TYPE_MIPMAPPED_ARRAY => {
                let m = &s.mipmaps[&(r.res.hMipmappedArray as usize)];
                (m.desc, m.levels.len() as u32)
            }
            _ => return invalid(),
        }
    };
    // (The last level of a mipmapped array and the last layer may be one past the resource's,
    // as on the H100; an array's levels are 0.)
    let last_level = if r.resType == CU_RESOURCE_TYPE_ARRAY { 0 } else { levels };
    if v.firstMipmapLevel > v.lastMipmapLevel || v.lastMipmapLevel > last_level {
        return invalid();
    }
    let layered = d.flags & (LAYERED | CUBEMAP) != 0;
    let layers = if layered { d.depth as u32 } else { 1 };
    if v.firstLayer > v.lastLayer || v.lastLayer > layers {
        return invalid();
    }
    let extent = match v.format {
        0x01..=0x18 => (d.width, d.height),
        0x19..=0x22 => {
            let channels = if matches!(v.format, 0x19 | 0x1c | 0x1d) { 2 } else { 4 };
            if d.format != 0x03 || d.channels != channels {
                return invalid();
            }
            (d.width * 4, d.height * 4)
        }
        _ => return invalid(),
    };
    if (v.width, v.height, v.depth) != (extent.0, extent.1, d.depth) {
        return invalid();
    }
    Ok(())
}

/// The most elements of `eb` bytes a 1D linear texture holds: 2^30, and no more than 4 GiB
/// (an H100's `cuDeviceGetTexture1DLinearMaxWidth`).
fn linear_max_width(eb: usize) -> usize {
    (1 << 30).min((1usize << 32) / eb)
}

fn new_id(o: &mut Objects) -> u64 {
    o.next += 1;
    o.next
}

export! {
    fn cuTexObjectCreate(pTexObject: *mut CUtexObject, pResDesc: *const CUDA_RESOURCE_DESC, pTexDesc: *const CUDA_TEXTURE_DESC, pResViewDesc: *const CUDA_RESOURCE_VIEW_DESC) {
        nonnull(pTexObject)?;
        nonnull(pResDesc)?;
        nonnull(pTexDesc)?;
        let (res, tex) = (*pResDesc, *pTexDesc);
        let view = pResViewDesc.as_ref().copied();
        let dev = with(|s| {
            let dev = s.cur()?;
            let array_flags = check_resource(s, &res, dev)?;
            check_texture(&tex, array_flags)?;
            // A view of linear or pitch-2D memory is taken and ignored, as the driver does.
            match &view {
                Some(v) if matches!(res.resType, CU_RESOURCE_TYPE_ARRAY | CU_RESOURCE_TYPE_MIPMAPPED_ARRAY) => check_view(s, &res, v)?,
                _ => {}
            }
            Ok(dev)
        })?;
        let view = view.filter(|_| matches!(res.resType, CU_RESOURCE_TYPE_ARRAY | CU_RESOURCE_TYPE_MIPMAPPED_ARRAY));
        let id = objects(|o| {
            let id = new_id(o);
            o.tex.insert(id, Tex { dev, res, tex, view });
            id
        });
        *pTexObject = id;
        Ok(())
    }

    fn cuTexObjectDestroy(texObject: CUtexObject) {
        // An object that is not one (0, one destroyed) is no error, as on the H100.
        with(|s| s.cur().map(|_| ()))?;
        objects(|o| o.tex.remove(&texObject));
        Ok(())
    }

    fn cuTexObjectGetResourceDesc(pResDesc: *mut CUDA_RESOURCE_DESC, texObject: CUtexObject) {
        nonnull(pResDesc)?;
        with(|s| s.cur().map(|_| ()))?;
        let mut r = objects(|o| o.tex.get(&texObject).map(|t| t.res)).ok_or(CUDA_ERROR_INVALID_VALUE)?;
        // As the H100's driver: pitch-2D memory of height 0 comes back as linear memory of
        // one row's pitch (ctest/texture_desc.c).
        if r.resType == CU_RESOURCE_TYPE_PITCH2D && r.res.pitch2D.height == 0 {
            let p = r.res.pitch2D;
            r.resType = CU_RESOURCE_TYPE_LINEAR;
            r.res = CUDA_RESOURCE_DESC_res { reserved: [0; 32] };
            r.res.linear = CUDA_RESOURCE_DESC_linear { devPtr: p.devPtr, format: p.format, numChannels: p.numChannels, sizeInBytes: p.pitchInBytes };
        }
        *pResDesc = r;
        Ok(())
    }

    fn cuTexObjectGetTextureDesc(pTexDesc: *mut CUDA_TEXTURE_DESC, texObject: CUtexObject) {
        nonnull(pTexDesc)?;
        with(|s| s.cur().map(|_| ()))?;
        let mut t = objects(|o| o.tex.get(&texObject).map(|t| t.tex)).ok_or(CUDA_ERROR_INVALID_VALUE)?;
        // The driver does not give the border colour back.
        t.borderColor = [0.0; 4];
        *pTexDesc = t;
        Ok(())
    }

    fn cuTexObjectGetResourceViewDesc(pResViewDesc: *mut CUDA_RESOURCE_VIEW_DESC, texObject: CUtexObject) {
        nonnull(pResViewDesc)?;
        with(|s| s.cur().map(|_| ()))?;
        // An object made without a view has none to give: success, nothing written (as the
        // driver).
        if let Some(v) = objects(|o| o.tex.get(&texObject).map(|t| t.view)).ok_or(CUDA_ERROR_INVALID_VALUE)? {
            *pResViewDesc = v;
        }
        Ok(())
    }

    fn cuSurfObjectCreate(pSurfObject: *mut CUsurfObject, pResDesc: *const CUDA_RESOURCE_DESC) {
        nonnull(pSurfObject)?;
        nonnull(pResDesc)?;
        let res = *pResDesc;
        let dev = with(|s| {
            let dev = s.cur()?;
            if res.resType != CU_RESOURCE_TYPE_ARRAY {
                return invalid();
            }
            // (An array without the surface load/store flag is taken, as on the H100.)
            check_resource(s, &res, dev)?;
            Ok(dev)
        })?;
        let id = objects(|o| {
            let id = new_id(o);
            o.surf.insert(id, Surf { dev, res });
            id
        });
        *pSurfObject = id;
        Ok(())
    }

    fn cuSurfObjectDestroy(surfObject: CUsurfObject) {
        with(|s| s.cur().map(|_| ()))?;
        objects(|o| o.surf.remove(&surfObject));
        Ok(())
    }

    fn cuSurfObjectGetResourceDesc(pResDesc: *mut CUDA_RESOURCE_DESC, surfObject: CUsurfObject) {
        nonnull(pResDesc)?;
        with(|s| s.cur().map(|_| ()))?;
        *pResDesc = objects(|o| o.surf.get(&surfObject).map(|t| t.res)).ok_or(CUDA_ERROR_INVALID_VALUE)?;
        Ok(())
    }

    fn cuDeviceGetTexture1DLinearMaxWidth(maxWidthInElements: *mut usize, format: CUarray_format, numChannels: c_uint, dev: CUdevice) {
        nonnull(maxWidthInElements)?;
        with(|s| {
            s.check_dev(dev)?;
            match element(format, numChannels) {
                Some((eb, _)) => {
                    *maxWidthInElements = linear_max_width(eb);
                    Ok(())
                }
                _ => invalid(),
            }
        })
    }
}
