//! CUDA arrays and mipmapped arrays, with contents in row-major host memory.

use std::ffi::{c_int, c_uint};

use crate::state::*;
use crate::types::*;
use crate::{export, nonnull};

pub const LAYERED: u32 = 0x01;
pub const SURFACE_LDST: u32 = 0x02;
pub const CUBEMAP: u32 = 0x04;
pub const TEXTURE_GATHER: u32 = 0x08;
pub const DEPTH_TEXTURE: u32 = 0x10;
pub const COLOR_ATTACHMENT: u32 = 0x20;
pub const SPARSE: u32 = 0x40;
pub const DEFERRED_MAPPING: u32 = 0x80;
pub const NV12: CUarray_format = 0xb0;

/// 64 KiB: the tile and alignment granularity of sparse and deferred-mapping arrays.
const TILE: usize = 64 << 10;

/// Storage of one element: (bytes per element or block, block edge in texels).
/// `None` for an unknown format or a channel count the format does not allow.
pub fn element(format: CUarray_format, channels: u32) -> Option<(usize, usize)> {
    let per_channel = |b: usize| matches!(channels, 1 | 2 | 4).then_some((b * channels as usize, 1));
    match format {
        0x01 | 0x08 => per_channel(1),
        0x02 | 0x09 | 0x10 => per_channel(2),
        0x03 | 0x0a | 0x20 => per_channel(4),
        // UNORM/SNORM INTn X1/X2/X4: the channel count is part of the format.
        0xc0..=0xcb => {
            let k = (format - 0xc0) as usize;
            let n = [1, 2, 4][k % 3];
            let b = if (k / 3) % 2 == 0 { 1 } else { 2 };
            (channels as usize == n).then_some((b * n, 1))
        }
        // Block-compressed: 4x4 texel blocks of 8 (BC1, BC4) or 16 bytes.
        0x91 | 0x92 | 0x97 | 0x98 => (1..=4).contains(&channels).then_some((8, 4)),
        0x93..=0x96 | 0x99..=0x9e => (1..=4).contains(&channels).then_some((16, 4)),
        0x50 => (1..=4).contains(&channels).then_some((4, 1)),
        // NV12: 8-bit luma samples, a half-size interleaved chroma plane after them.
        NV12 => (1..=4).contains(&channels).then_some((1, 1)),
        _ => None,
    }
}

/// Checks a descriptor against the documented extent rules and H100 limits. As on an H100:
/// no NV12 arrays, no depth-texture or color-attachment arrays, block-compressed formats
/// need at least two dimensions; flag bits above 0x80 are not checked (0x100, video
/// encode/decode, and unknown bits are kept as given).
pub fn check_desc(d: &Desc) -> Res {
    let inval = Err(CUDA_ERROR_INVALID_VALUE);
    if d.flags & (DEPTH_TEXTURE | COLOR_ATTACHMENT) != 0 || d.width == 0 || d.format == NV12 {
        return inval;
    }
    match element(d.format, d.channels) {
        None => return inval,
        Some((_, block)) if block > 1 && d.height == 0 => return inval,
        _ => {}
    }
    let (w, h, z, f) = (d.width, d.height, d.depth, d.flags);
    let surf = f & SURFACE_LDST != 0;
    let le = |v: usize, m: usize| v <= m;
    if f & SPARSE != 0 && f & DEFERRED_MAPPING != 0 {
        return inval;
    }
    if f & TEXTURE_GATHER != 0 && (h == 0 || z != 0 || f & (LAYERED | CUBEMAP) != 0 || w > 32768 || h > 32768) {
        return inval;
    }
    if f & SPARSE != 0 && h == 0 {
        return inval;
    }
    if d.format == NV12 && (h == 0 || z != 0 || f & (LAYERED | CUBEMAP) != 0 || w % 2 != 0 || h % 2 != 0) {
        return inval;
    }
    let ok = if f & CUBEMAP != 0 {
        let layers_ok = if f & LAYERED != 0 { z > 0 && z % 6 == 0 && le(z, 2046) } else { z == 6 };
        w == h && layers_ok && le(w, 32768)
    } else if f & LAYERED != 0 {
        if z == 0 {
            false
        } else if h == 0 {
            le(w, 32768) && le(z, 2048)
        } else {
            le(w, 32768) && le(h, 32768) && le(z, 2048)
        }
    } else if h == 0 && z == 0 {
        le(w, if surf { 32768 } else { 131072 })
    } else if z == 0 {
        le(w, 131072) && le(h, 65536)
    } else if h == 0 {
        false
    } else {
        (le(w, 16384) && le(h, 16384) && le(z, 16384)) || (!surf && le(w, 8192) && le(h, 8192) && le(z, 32768))
    };
    if ok {
        Ok(())
    } else {
        inval
    }
}

/// (row bytes, rows, slices) of an array.
pub fn layout(d: &Desc) -> (usize, usize, usize) {
    let (eb, block) = element(d.format, d.channels).unwrap_or((1, 1));
    let row = d.width.div_ceil(block) * eb;
    let rows = d.height.max(1).div_ceil(block);
    let rows = if d.format == NV12 { rows + rows / 2 } else { rows };
    (row, rows, d.depth.max(1))
}

impl State {
    /// Creates an array (checked descriptor) owned by `owner` on device `dev`.
    pub fn new_array(&mut self, desc: Desc, dev: c_int, owner: Owner) -> Res<usize> {
        let (row_bytes, rows, slices) = layout(&desc);
        let bytes = row_bytes.checked_mul(rows).and_then(|v| v.checked_mul(slices)).ok_or(CUDA_ERROR_OUT_OF_MEMORY)?;
        if bytes > TOTAL_MEM - self.used[dev as usize] {
            return Err(CUDA_ERROR_OUT_OF_MEMORY);
        }
        let buf = Buf::new(bytes, true).ok_or(CUDA_ERROR_OUT_OF_MEMORY)?;
        self.used[dev as usize] += bytes;
        let h = new_handle();
        let data = buf.ptr as usize;
        let mut planes = Vec::new();
        if desc.format == NV12 {
            // Plane 0: full-size 8-bit luma; plane 1: half-size 2-channel 8-bit chroma.
            let y = Desc { width: desc.width, height: desc.height, depth: 0, format: 0x01, channels: 1, flags: 0 };
            let uv =
                Desc { width: desc.width / 2, height: desc.height / 2, depth: 0, format: 0x01, channels: 2, flags: 0 };
            let mut off = 0;
            for pd in [y, uv] {
                let (r, n, sl) = layout(&pd);
                let ph = new_handle();
                self.arrays.insert(
                    ph,
                    Array {
                        desc: pd,
                        dev,
                        owner: Owner::Plane(h),
                        row_bytes: r,
                        rows: n,
                        slices: sl,
                        data: data + off,
                        buf: None,
                        planes: Vec::new(),
                    },
                );
                off += r * n * sl;
                planes.push(ph);
            }
        }
        self.arrays.insert(h, Array { desc, dev, owner, row_bytes, rows, slices, data, buf: Some(buf), planes });
        Ok(h)
    }

    /// Destroys an array and its planes.
    pub fn drop_array(&mut self, h: usize) {
        if let Some(a) = self.arrays.remove(&h) {
            for p in &a.planes {
                self.arrays.remove(p);
            }
            if a.buf.is_some() {
                self.used[a.dev as usize] -= a.bytes();
            }
        }
    }
}

fn desc3(d: &CUDA_ARRAY3D_DESCRIPTOR) -> Desc {
    Desc { width: d.Width, height: d.Height, depth: d.Depth, format: d.Format, channels: d.NumChannels, flags: d.Flags }
}

fn user_array(s: &State, h: usize) -> Res<&Array> {
    s.arrays.get(&h).ok_or(CUDA_ERROR_INVALID_HANDLE)
}

/// Tile extent (width, height, depth) in elements of a 64 KiB sparse tile.
pub fn tile_extent(d: &Desc) -> (u32, u32, u32) {
    let (eb, _) = element(d.format, d.channels).unwrap_or((1, 1));
    let three_d = d.depth > 0 && d.flags & (LAYERED | CUBEMAP) == 0;
    if three_d {
        match eb {
            1 => (64, 32, 32),
            2 => (32, 32, 32),
            4 => (32, 32, 16),
            8 => (32, 16, 16),
            _ => (16, 16, 16),
        }
    } else {
        match eb {
            1 => (256, 256, 1),
            2 => (256, 128, 1),
            4 => (128, 128, 1),
            8 => (128, 64, 1),
            _ => (64, 64, 1),
        }
    }
}

/// CU_ARRAY_SPARSE_PROPERTIES_SINGLE_MIPTAIL.
const SINGLE_MIPTAIL: c_uint = 0x1;

/// Whether an array (or level) of descriptor `d` is smaller than a tile in some dimension;
/// the depth of layered and cubemap arrays counts layers, not texels.
fn smaller_than_tile(d: &Desc, (tw, th, td): (u32, u32, u32)) -> bool {
    let three_d = d.depth > 0 && d.flags & (LAYERED | CUBEMAP) == 0;
    d.width < tw as usize || d.height.max(1) < th as usize || (three_d && d.depth < td as usize)
}

fn round_tile(b: usize) -> usize {
    b.div_ceil(TILE) * TILE
}

export! {
    fn cuArrayCreate(pHandle: *mut CUarray, pAllocateArray: *const CUDA_ARRAY_DESCRIPTOR) {
        nonnull(pHandle)?;
        nonnull(pAllocateArray)?;
        let d = &*pAllocateArray;
        let desc = Desc { width: d.Width, height: d.Height, depth: 0, format: d.Format, channels: d.NumChannels, flags: 0 };
        with(|s| {
            let dev = s.cur()?;
            check_desc(&desc)?;
            *pHandle = s.new_array(desc, dev, Owner::User)? as CUarray;
            Ok(())
        })
    }

    fn cuArray3DCreate(pHandle: *mut CUarray, pAllocateArray: *const CUDA_ARRAY3D_DESCRIPTOR) {
        nonnull(pHandle)?;
        nonnull(pAllocateArray)?;
        let desc = desc3(&*pAllocateArray);
        with(|s| {
            let dev = s.cur()?;
            check_desc(&desc)?;
            *pHandle = s.new_array(desc, dev, Owner::User)? as CUarray;
            Ok(())
        })
    }

    fn cuArrayDestroy(hArray: CUarray) {
        with(|s| {
            s.cur()?;
            match s.arrays.get(&(hArray as usize)) {
                Some(a) if a.owner == Owner::User => {
                    s.drop_array(hArray as usize);
                    Ok(())
                }
                _ => Err(CUDA_ERROR_INVALID_HANDLE),
            }
        })
    }

    fn cuArrayGetDescriptor(pArrayDescriptor: *mut CUDA_ARRAY_DESCRIPTOR, hArray: CUarray) {
        nonnull(pArrayDescriptor)?;
        with(|s| {
            let a = user_array(s, hArray as usize)?;
            *pArrayDescriptor = CUDA_ARRAY_DESCRIPTOR { Width: a.desc.width, Height: a.desc.height, Format: a.desc.format, NumChannels: a.desc.channels };
            Ok(())
        })
    }

    fn cuArray3DGetDescriptor(pArrayDescriptor: *mut CUDA_ARRAY3D_DESCRIPTOR, hArray: CUarray) {
        nonnull(pArrayDescriptor)?;
        with(|s| {
            let a = user_array(s, hArray as usize)?;
            *pArrayDescriptor = CUDA_ARRAY3D_DESCRIPTOR { Width: a.desc.width, Height: a.desc.height, Depth: a.desc.depth, Format: a.desc.format, NumChannels: a.desc.channels, Flags: a.desc.flags };
            Ok(())
        })
    }

    fn cuArrayGetPlane(pPlaneArray: *mut CUarray, hArray: CUarray, planeIdx: c_uint) {
        nonnull(pPlaneArray)?;
        with(|s| {
            let a = user_array(s, hArray as usize)?;
            let p = a.planes.get(planeIdx as usize).ok_or(CUDA_ERROR_INVALID_VALUE)?;
            *pPlaneArray = *p as CUarray;
            Ok(())
        })
    }

    fn cuArrayGetSparseProperties(sparseProperties: *mut CUDA_ARRAY_SPARSE_PROPERTIES, array: CUarray) {
        nonnull(sparseProperties)?;
        with(|s| {
            let a = user_array(s, array as usize)?;
            if a.desc.flags & SPARSE == 0 || a.owner != Owner::User {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            let (tw, th, td) = tile_extent(&a.desc);
            let mut p = CUDA_ARRAY_SPARSE_PROPERTIES {
                tileExtent_width: tw,
                tileExtent_height: th,
                tileExtent_depth: td,
                ..Default::default()
            };
            // An array smaller than one tile is all mip tail: level 0 on, whole 64 KiB tiles,
            // one tail for the array.
            if smaller_than_tile(&a.desc, (tw, th, td)) {
                p.miptailFirstLevel = 0;
                p.miptailSize = round_tile(a.bytes()) as u64;
                p.flags = SINGLE_MIPTAIL;
            }
            *sparseProperties = p;
            Ok(())
        })
    }

    fn cuArrayGetMemoryRequirements(memoryRequirements: *mut CUDA_ARRAY_MEMORY_REQUIREMENTS, array: CUarray, device: CUdevice) {
        nonnull(memoryRequirements)?;
        // The device is not checked (as on NVIDIA's driver): the requirements are the array's.
        let _ = device;
        with(|s| {
            let a = user_array(s, array as usize)?;
            // Levels of a mipmapped array have no requirements of their own.
            if a.desc.flags & DEFERRED_MAPPING == 0 || a.owner != Owner::User {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            *memoryRequirements = CUDA_ARRAY_MEMORY_REQUIREMENTS { size: round_tile(a.bytes()), alignment: TILE, ..Default::default() };
            Ok(())
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Mipmapped arrays
// ---------------------------------------------------------------------------------------------

/// The descriptor of level `l` of a mipmapped array.
pub fn level_desc(d: &Desc, l: u32) -> Desc {
    let shrink = |v: usize| if v == 0 { 0 } else { (v >> l).max(1) };
    let layered = d.flags & (LAYERED | CUBEMAP) != 0;
    Desc {
        width: shrink(d.width),
        height: shrink(d.height),
        depth: if layered { d.depth } else { shrink(d.depth) },
        ..*d
    }
}

/// The number of levels a mipmapped array gets: `n` clamped to [1, 1 + floor(log2(max extent))].
pub fn clamp_levels(d: &Desc, n: u32) -> u32 {
    let layered = d.flags & (LAYERED | CUBEMAP) != 0;
    let m = d.width.max(d.height).max(if layered { 0 } else { d.depth }).max(1);
    let max = usize::BITS - m.leading_zeros();
    n.clamp(1, max)
}

fn mip_sparse(s: &State, m: usize) -> Res<CUDA_ARRAY_SPARSE_PROPERTIES> {
    let mm = s.mipmaps.get(&m).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
    if mm.desc.flags & SPARSE == 0 {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    let (tw, th, td) = tile_extent(&mm.desc);
    let mut p = CUDA_ARRAY_SPARSE_PROPERTIES {
        tileExtent_width: tw,
        tileExtent_height: th,
        tileExtent_depth: td,
        ..Default::default()
    };
    let first = mm.levels.iter().position(|l| smaller_than_tile(&s.arrays[l].desc, (tw, th, td)));
    if let Some(f) = first {
        p.miptailFirstLevel = f as c_uint;
        // Layered and cubemap arrays have one tail per layer (no SINGLE_MIPTAIL): its size.
        let layers = if mm.desc.flags & (LAYERED | CUBEMAP) != 0 { mm.desc.depth.max(1) } else { 1 };
        let tail: usize = mm.levels[f..].iter().map(|l| s.arrays[l].bytes()).sum();
        p.miptailSize = round_tile(tail / layers) as u64;
    } else {
        p.miptailFirstLevel = mm.levels.len() as c_uint;
    }
    Ok(p)
}

export! {
    fn cuMipmappedArrayCreate(pHandle: *mut CUmipmappedArray, pMipmappedArrayDesc: *const CUDA_ARRAY3D_DESCRIPTOR, numMipmapLevels: c_uint) {
        nonnull(pHandle)?;
        nonnull(pMipmappedArrayDesc)?;
        let desc = desc3(&*pMipmappedArrayDesc);
        with(|s| {
            let dev = s.cur()?;
            check_desc(&desc)?;
            if desc.format == NV12 {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            let (w, h) = (desc.width, desc.height);
            let mip_ok = if desc.flags & (LAYERED | CUBEMAP) != 0 || desc.depth > 0 {
                true
            } else if h == 0 {
                w <= 32768
            } else {
                w <= 32768 && h <= 32768
            };
            if !mip_ok {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            let n = clamp_levels(&desc, numMipmapLevels);
            let m = new_handle();
            let mut levels = Vec::new();
            for l in 0..n {
                match s.new_array(level_desc(&desc, l), dev, Owner::Level(m)) {
                    Ok(a) => levels.push(a),
                    Err(e) => {
                        for a in levels {
                            s.drop_array(a);
                        }
                        return Err(e);
                    }
                }
            }
            s.mipmaps.insert(m, Mipmap { desc, dev, levels });
            *pHandle = m as CUmipmappedArray;
            Ok(())
        })
    }

    fn cuMipmappedArrayDestroy(hMipmappedArray: CUmipmappedArray) {
        with(|s| {
            s.cur()?;
            let m = s.mipmaps.remove(&(hMipmappedArray as usize)).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            for a in m.levels {
                s.drop_array(a);
            }
            Ok(())
        })
    }

    fn cuMipmappedArrayGetLevel(pLevelArray: *mut CUarray, hMipmappedArray: CUmipmappedArray, level: c_uint) {
        nonnull(pLevelArray)?;
        with(|s| {
            let m = s.mipmaps.get(&(hMipmappedArray as usize)).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            let a = m.levels.get(level as usize).ok_or(CUDA_ERROR_INVALID_VALUE)?;
            *pLevelArray = *a as CUarray;
            Ok(())
        })
    }

    fn cuMipmappedArrayGetSparseProperties(sparseProperties: *mut CUDA_ARRAY_SPARSE_PROPERTIES, mipmap: CUmipmappedArray) {
        nonnull(sparseProperties)?;
        with(|s| {
            *sparseProperties = mip_sparse(s, mipmap as usize)?;
            Ok(())
        })
    }

    fn cuMipmappedArrayGetMemoryRequirements(memoryRequirements: *mut CUDA_ARRAY_MEMORY_REQUIREMENTS, mipmap: CUmipmappedArray, device: CUdevice) {
        nonnull(memoryRequirements)?;
        // The device is not checked (as on NVIDIA's driver): the requirements are the array's.
        let _ = device;
        with(|s| {
            let m = s.mipmaps.get(&(mipmap as usize)).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            if m.desc.flags & DEFERRED_MAPPING == 0 {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            // All levels together, in whole tiles.
            let total: usize = m.levels.iter().map(|l| s.arrays[l].bytes()).sum();
            *memoryRequirements = CUDA_ARRAY_MEMORY_REQUIREMENTS { size: round_tile(total), alignment: TILE, ..Default::default() };
            Ok(())
        })
    }
}
