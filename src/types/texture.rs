//! Texture and surface object types (NVIDIA's `texture_types.h`, `surface_types.h`) and the
//! resource descriptors of `driver_types.h`. CUDA 13 added reserved room and flags to the
//! resource descriptor and reserved words to the resource view descriptor.

use std::ffi::{c_int, c_uint, c_ulonglong, c_void};

use super::{cudaArray_t, cudaChannelFormatDesc, cudaMipmappedArray_t};

pub const cudaTextureType1D: c_int = 0x01;
pub const cudaTextureType2D: c_int = 0x02;
pub const cudaTextureType3D: c_int = 0x03;
pub const cudaTextureTypeCubemap: c_int = 0x0C;
pub const cudaTextureType1DLayered: c_int = 0xF1;
pub const cudaTextureType2DLayered: c_int = 0xF2;
pub const cudaTextureTypeCubemapLayered: c_int = 0xFC;

pub const cudaSurfaceType1D: c_int = 0x01;
pub const cudaSurfaceType2D: c_int = 0x02;
pub const cudaSurfaceType3D: c_int = 0x03;
pub const cudaSurfaceTypeCubemap: c_int = 0x0C;
pub const cudaSurfaceType1DLayered: c_int = 0xF1;
pub const cudaSurfaceType2DLayered: c_int = 0xF2;
pub const cudaSurfaceTypeCubemapLayered: c_int = 0xFC;

/// CUDA texture address modes
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaTextureAddressMode {
    /// Wrapping address mode
    cudaAddressModeWrap = 0,
    /// Clamp to edge address mode
    cudaAddressModeClamp = 1,
    /// Mirror address mode
    cudaAddressModeMirror = 2,
    /// Border address mode
    cudaAddressModeBorder = 3,
}

/// CUDA texture filter modes
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaTextureFilterMode {
    /// Point filter mode
    cudaFilterModePoint = 0,
    /// Linear filter mode
    cudaFilterModeLinear = 1,
}

/// CUDA texture read modes
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaTextureReadMode {
    /// Read texture as specified element type
    cudaReadModeElementType = 0,
    /// Read texture as normalized float
    cudaReadModeNormalizedFloat = 1,
}

/// CUDA texture descriptor
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct cudaTextureDesc {
    /// Texture address mode for up to 3 dimensions
    pub addressMode: [raw::cudaTextureAddressMode; 3],
    /// Texture filter mode
    pub filterMode: raw::cudaTextureFilterMode,
    /// Texture read mode
    pub readMode: raw::cudaTextureReadMode,
    /// Perform sRGB->linear conversion during texture read
    pub sRGB: c_int,
    /// Texture Border Color
    pub borderColor: [f32; 4],
    /// Indicates whether texture reads are normalized or not
    pub normalizedCoords: c_int,
    /// Limit to the anisotropy ratio
    pub maxAnisotropy: c_uint,
    /// Mipmap filter mode
    pub mipmapFilterMode: raw::cudaTextureFilterMode,
    /// Offset applied to the supplied mipmap level
    pub mipmapLevelBias: f32,
    /// Lower end of the mipmap level range to clamp access to
    pub minMipmapLevelClamp: f32,
    /// Upper end of the mipmap level range to clamp access to
    pub maxMipmapLevelClamp: f32,
    /// Disable any trilinear filtering optimizations.
    pub disableTrilinearOptimization: c_int,
    /// Enable seamless cube map filtering.
    pub seamlessCubemap: c_int,
}

/// An opaque value that represents a CUDA texture object
pub type cudaTextureObject_t = c_ulonglong;

/// CUDA Surface boundary modes
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaSurfaceBoundaryMode {
    /// Zero boundary mode
    cudaBoundaryModeZero = 0,
    /// Clamp boundary mode
    cudaBoundaryModeClamp = 1,
    /// Trap boundary mode
    cudaBoundaryModeTrap = 2,
}

/// CUDA Surface format modes
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaSurfaceFormatMode {
    /// Forced format mode
    cudaFormatModeForced = 0,
    /// Auto format mode
    cudaFormatModeAuto = 1,
}

/// An opaque value that represents a CUDA Surface object
pub type cudaSurfaceObject_t = c_ulonglong;

/// CUDA resource types
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaResourceType {
    /// Array resource
    cudaResourceTypeArray = 0x00,
    /// Mipmapped array resource
    cudaResourceTypeMipmappedArray = 0x01,
    /// Linear resource
    cudaResourceTypeLinear = 0x02,
    /// Pitch 2D resource
    cudaResourceTypePitch2D = 0x03,
}

/// CUDA texture resource view formats
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaResourceViewFormat {
    /// No resource view format (use underlying resource format)
    cudaResViewFormatNone = 0x00,
    /// 1 channel unsigned 8-bit integers
    cudaResViewFormatUnsignedChar1 = 0x01,
    /// 2 channel unsigned 8-bit integers
    cudaResViewFormatUnsignedChar2 = 0x02,
    /// 4 channel unsigned 8-bit integers
    cudaResViewFormatUnsignedChar4 = 0x03,
    /// 1 channel signed 8-bit integers
    cudaResViewFormatSignedChar1 = 0x04,
    /// 2 channel signed 8-bit integers
    cudaResViewFormatSignedChar2 = 0x05,
    /// 4 channel signed 8-bit integers
    cudaResViewFormatSignedChar4 = 0x06,
    /// 1 channel unsigned 16-bit integers
    cudaResViewFormatUnsignedShort1 = 0x07,
    /// 2 channel unsigned 16-bit integers
    cudaResViewFormatUnsignedShort2 = 0x08,
    /// 4 channel unsigned 16-bit integers
    cudaResViewFormatUnsignedShort4 = 0x09,
    /// 1 channel signed 16-bit integers
    cudaResViewFormatSignedShort1 = 0x0a,
    /// 2 channel signed 16-bit integers
    cudaResViewFormatSignedShort2 = 0x0b,
    /// 4 channel signed 16-bit integers
    cudaResViewFormatSignedShort4 = 0x0c,
    /// 1 channel unsigned 32-bit integers
    cudaResViewFormatUnsignedInt1 = 0x0d,
    /// 2 channel unsigned 32-bit integers
    cudaResViewFormatUnsignedInt2 = 0x0e,
    /// 4 channel unsigned 32-bit integers
    cudaResViewFormatUnsignedInt4 = 0x0f,
    /// 1 channel signed 32-bit integers
    cudaResViewFormatSignedInt1 = 0x10,
    /// 2 channel signed 32-bit integers
    cudaResViewFormatSignedInt2 = 0x11,
    /// 4 channel signed 32-bit integers
    cudaResViewFormatSignedInt4 = 0x12,
    /// 1 channel 16-bit floating point
    cudaResViewFormatHalf1 = 0x13,
    /// 2 channel 16-bit floating point
    cudaResViewFormatHalf2 = 0x14,
    /// 4 channel 16-bit floating point
    cudaResViewFormatHalf4 = 0x15,
    /// 1 channel 32-bit floating point
    cudaResViewFormatFloat1 = 0x16,
    /// 2 channel 32-bit floating point
    cudaResViewFormatFloat2 = 0x17,
    /// 4 channel 32-bit floating point
    cudaResViewFormatFloat4 = 0x18,
    /// Block compressed 1
    cudaResViewFormatUnsignedBlockCompressed1 = 0x19,
    /// Block compressed 2
    cudaResViewFormatUnsignedBlockCompressed2 = 0x1a,
    /// Block compressed 3
    cudaResViewFormatUnsignedBlockCompressed3 = 0x1b,
    /// Block compressed 4 unsigned
    cudaResViewFormatUnsignedBlockCompressed4 = 0x1c,
    /// Block compressed 4 signed
    cudaResViewFormatSignedBlockCompressed4 = 0x1d,
    /// Block compressed 5 unsigned
    cudaResViewFormatUnsignedBlockCompressed5 = 0x1e,
    /// Block compressed 5 signed
    cudaResViewFormatSignedBlockCompressed5 = 0x1f,
    /// Block compressed 6 unsigned half-float
    cudaResViewFormatUnsignedBlockCompressed6H = 0x20,
    /// Block compressed 6 signed half-float
    cudaResViewFormatSignedBlockCompressed6H = 0x21,
    /// Block compressed 7
    cudaResViewFormatUnsignedBlockCompressed7 = 0x22,
}

/// The `array` member of `cudaResourceDesc::res`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaResourceDescArray {
    /// CUDA array
    pub array: cudaArray_t,
}

/// The `mipmap` member of `cudaResourceDesc::res`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaResourceDescMipmap {
    /// CUDA mipmapped array
    pub mipmap: cudaMipmappedArray_t,
}

/// The `linear` member of `cudaResourceDesc::res`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaResourceDescLinear {
    /// Device pointer
    pub devPtr: *mut c_void,
    /// Channel descriptor
    pub desc: cudaChannelFormatDesc,
    /// Size in bytes
    pub sizeInBytes: usize,
}

/// The `pitch2D` member of `cudaResourceDesc::res`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaResourceDescPitch2D {
    /// Device pointer
    pub devPtr: *mut c_void,
    /// Channel descriptor
    pub desc: cudaChannelFormatDesc,
    /// Width of the array in elements
    pub width: usize,
    /// Height of the array in elements
    pub height: usize,
    /// Pitch between two rows in bytes
    pub pitchInBytes: usize,
}

/// The `reserved` member of `cudaResourceDesc::res` (CUDA 13).
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaResourceDescReserved {
    pub reserved: [c_int; 32],
}

/// The resource of a `cudaResourceDesc`, by `resType`.
#[repr(C)]
#[derive(Copy, Clone)]
pub union cudaResourceDescRes {
    pub array: cudaResourceDescArray,
    pub mipmap: cudaResourceDescMipmap,
    pub linear: cudaResourceDescLinear,
    pub pitch2D: cudaResourceDescPitch2D,
    #[cfg(not(feature = "abi12"))]
    pub reserved: cudaResourceDescReserved,
}

/// CUDA resource descriptor
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaResourceDesc {
    /// Resource type
    pub resType: raw::cudaResourceType,
    pub res: cudaResourceDescRes,
    /// Flags (must be zero)
    #[cfg(not(feature = "abi12"))]
    pub flags: c_uint,
}

/// CUDA resource view descriptor
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct cudaResourceViewDesc {
    /// Resource view format
    pub format: raw::cudaResourceViewFormat,
    /// Width of the resource view
    pub width: usize,
    /// Height of the resource view
    pub height: usize,
    /// Depth of the resource view
    pub depth: usize,
    /// First defined mipmap level
    pub firstMipmapLevel: c_uint,
    /// Last defined mipmap level
    pub lastMipmapLevel: c_uint,
    /// First layer index
    pub firstLayer: c_uint,
    /// Last layer index
    pub lastLayer: c_uint,
    /// Must be zero
    #[cfg(not(feature = "abi12"))]
    pub reserved: [c_uint; 16],
}

const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<cudaTextureDesc>() == 72 && offset_of!(cudaTextureDesc, seamlessCubemap) == 68);
    #[cfg(not(feature = "abi12"))]
    {
        assert!(size_of::<cudaResourceDescRes>() == 128);
        assert!(size_of::<cudaResourceDesc>() == 144 && offset_of!(cudaResourceDesc, flags) == 136);
        assert!(size_of::<cudaResourceViewDesc>() == 112);
    }
    #[cfg(feature = "abi12")]
    {
        assert!(size_of::<cudaResourceDescRes>() == 56);
        assert!(size_of::<cudaResourceDesc>() == 64);
        assert!(size_of::<cudaResourceViewDesc>() == 48);
    }
};

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(
        cudaTextureAddressMode,
        cudaTextureFilterMode,
        cudaTextureReadMode,
        cudaSurfaceBoundaryMode,
        cudaSurfaceFormatMode,
        cudaResourceType,
        cudaResourceViewFormat,
    );
}
