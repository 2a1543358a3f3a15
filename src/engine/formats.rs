//! Channel descriptors and the driver's array formats, both ways, and the bytes per element
//! of a format: what array allocation, texture and surface objects, external and EGL arrays
//! and the copies of arrays share.

use std::ffi::{c_int, c_uint};

use crate::driver::types::*;
use crate::runtime::boundary::Res;
use crate::types::cudaError;
use crate::types::*;

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
    (5, [8, 0, 0, 0], 0xc0),      // UnsignedNormalized8X1: CU_AD_FORMAT_UNORM_INT8X1
    (6, [8, 8, 0, 0], 0xc1),      // UnsignedNormalized8X2
    (7, [8, 8, 8, 8], 0xc2),      // UnsignedNormalized8X4
    (8, [16, 0, 0, 0], 0xc3),     // UnsignedNormalized16X1
    (9, [16, 16, 0, 0], 0xc4),    // UnsignedNormalized16X2
    (10, [16, 16, 16, 16], 0xc5), // UnsignedNormalized16X4
    (11, [8, 0, 0, 0], 0xc6),     // SignedNormalized8X1: CU_AD_FORMAT_SNORM_INT8X1
    (12, [8, 8, 0, 0], 0xc7),     // SignedNormalized8X2
    (13, [8, 8, 8, 8], 0xc8),     // SignedNormalized8X4
    (14, [16, 0, 0, 0], 0xc9),    // SignedNormalized16X1
    (15, [16, 16, 0, 0], 0xca),   // SignedNormalized16X2
    (16, [16, 16, 16, 16], 0xcb), // SignedNormalized16X4
    (17, [8, 8, 8, 8], 0x91),     // UnsignedBlockCompressed1: CU_AD_FORMAT_BC1_UNORM
    (18, [8, 8, 8, 8], 0x92),     // UnsignedBlockCompressed1SRGB
    (19, [8, 8, 8, 8], 0x93),     // UnsignedBlockCompressed2
    (20, [8, 8, 8, 8], 0x94),     // UnsignedBlockCompressed2SRGB
    (21, [8, 8, 8, 8], 0x95),     // UnsignedBlockCompressed3
    (22, [8, 8, 8, 8], 0x96),     // UnsignedBlockCompressed3SRGB
    (23, [8, 0, 0, 0], 0x97),     // UnsignedBlockCompressed4: CU_AD_FORMAT_BC4_UNORM
    (24, [8, 0, 0, 0], 0x98),     // SignedBlockCompressed4
    (25, [8, 8, 0, 0], 0x99),     // UnsignedBlockCompressed5
    (26, [8, 8, 0, 0], 0x9a),     // SignedBlockCompressed5
    (27, [16, 16, 16, 0], 0x9b),  // UnsignedBlockCompressed6H: CU_AD_FORMAT_BC6H_UF16
    (28, [16, 16, 16, 0], 0x9c),  // SignedBlockCompressed6H
    (29, [8, 8, 8, 8], 0x9d),     // UnsignedBlockCompressed7
    (30, [8, 8, 8, 8], 0x9e),     // UnsignedBlockCompressed7SRGB
    (31, [10, 10, 10, 2], 0x50),  // UnsignedNormalized1010102: CU_AD_FORMAT_UNORM_INT_101010_2
];

/// CUDA 13.5's YUV kinds (as `channel_descriptor.h` makes them: 8-bit packed ones x y z w of
/// 8, the other 8-bit ones x y z of 8, the 16-bit ones x y z of 16) and their driver formats,
/// `CU_AD_FORMAT_UINT8_PACKED_422` (0x51) to `CU_AD_FORMAT_UINT16_PLANAR_444` (0x5e). The
/// 13.0 driver has none of them (`cudaErrorInvalidValue` from it, as from NVIDIA's 13.5
/// runtime there, ctest/cu_decl135.cu); the descriptor is checked first.
#[cfg(not(feature = "abi12"))]
const FIXED_135: &[(c_int, [c_int; 4], CUarray_format)] = &[
    (32, [8, 8, 8, 8], 0x51),
    (33, [8, 8, 8, 8], 0x52),
    (34, [8, 8, 8, 0], 0x53),
    (35, [16, 16, 16, 0], 0x54),
    (36, [8, 8, 8, 0], 0x55),
    (37, [16, 16, 16, 0], 0x56),
    (38, [8, 8, 8, 0], 0x57),
    (39, [16, 16, 16, 0], 0x58),
    (40, [8, 8, 8, 0], 0x59),
    (41, [16, 16, 16, 0], 0x5a),
    (42, [8, 8, 8, 0], 0x5b),
    (43, [16, 16, 16, 0], 0x5c),
    (44, [8, 8, 8, 0], 0x5d),
    (45, [16, 16, 16, 0], 0x5e),
];
#[cfg(feature = "abi12")]
const FIXED_135: &[(c_int, [c_int; 4], CUarray_format)] = &[];

/// The kinds of one fixed shape, CUDA 13.5's included.
fn fixed() -> impl Iterator<Item = &'static (c_int, [c_int; 4], CUarray_format)> {
    FIXED.iter().chain(FIXED_135)
}

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
    match fixed().find(|e| e.0 == f) {
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
    match fixed().find(|e| e.2 == fmt) {
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
