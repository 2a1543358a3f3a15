//! CUDA array types (NVIDIA's `driver_types.h`).

use std::ffi::{c_int, c_uint, c_ulonglong};

/// Default CUDA array allocation flag
pub const cudaArrayDefault: c_uint = 0x00;
/// Must be set in cudaMalloc3DArray to create a layered CUDA array
pub const cudaArrayLayered: c_uint = 0x01;
/// Must be set in cudaMallocArray or cudaMalloc3DArray in order to bind surfaces to the CUDA array
pub const cudaArraySurfaceLoadStore: c_uint = 0x02;
/// Must be set in cudaMalloc3DArray to create a cubemap CUDA array
pub const cudaArrayCubemap: c_uint = 0x04;
/// Must be set in cudaMallocArray or cudaMalloc3DArray in order to perform texture gather operations on the CUDA array
pub const cudaArrayTextureGather: c_uint = 0x08;
/// Must be set in cudaExternalMemoryGetMappedMipmappedArray if the mipmapped array is used as a color target in a graphics API
pub const cudaArrayColorAttachment: c_uint = 0x20;
/// Must be set in cudaMallocArray, cudaMalloc3DArray or cudaMallocMipmappedArray in order to create a sparse CUDA array or CUDA mipmapped array
pub const cudaArraySparse: c_uint = 0x40;
/// Must be set in cudaMallocArray, cudaMalloc3DArray or cudaMallocMipmappedArray in order to create a deferred mapping CUDA array or CUDA mipmapped array
pub const cudaArrayDeferredMapping: c_uint = 0x80;

/// Indicates that the layered sparse CUDA array or CUDA mipmapped array has a single mip tail region for all layers
pub const cudaArraySparsePropertiesSingleMipTail: c_uint = 0x1;

/// Channel format kind
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaChannelFormatKind {
    /// Signed channel format
    cudaChannelFormatKindSigned = 0,
    /// Unsigned channel format
    cudaChannelFormatKindUnsigned = 1,
    /// Float channel format
    cudaChannelFormatKindFloat = 2,
    /// No channel format
    cudaChannelFormatKindNone = 3,
    /// Unsigned 8-bit integers, planar 4:2:0 YUV format
    cudaChannelFormatKindNV12 = 4,
    /// 1 channel unsigned 8-bit normalized integer
    cudaChannelFormatKindUnsignedNormalized8X1 = 5,
    /// 2 channel unsigned 8-bit normalized integer
    cudaChannelFormatKindUnsignedNormalized8X2 = 6,
    /// 4 channel unsigned 8-bit normalized integer
    cudaChannelFormatKindUnsignedNormalized8X4 = 7,
    /// 1 channel unsigned 16-bit normalized integer
    cudaChannelFormatKindUnsignedNormalized16X1 = 8,
    /// 2 channel unsigned 16-bit normalized integer
    cudaChannelFormatKindUnsignedNormalized16X2 = 9,
    /// 4 channel unsigned 16-bit normalized integer
    cudaChannelFormatKindUnsignedNormalized16X4 = 10,
    /// 1 channel signed 8-bit normalized integer
    cudaChannelFormatKindSignedNormalized8X1 = 11,
    /// 2 channel signed 8-bit normalized integer
    cudaChannelFormatKindSignedNormalized8X2 = 12,
    /// 4 channel signed 8-bit normalized integer
    cudaChannelFormatKindSignedNormalized8X4 = 13,
    /// 1 channel signed 16-bit normalized integer
    cudaChannelFormatKindSignedNormalized16X1 = 14,
    /// 2 channel signed 16-bit normalized integer
    cudaChannelFormatKindSignedNormalized16X2 = 15,
    /// 4 channel signed 16-bit normalized integer
    cudaChannelFormatKindSignedNormalized16X4 = 16,
    /// 4 channel unsigned normalized block-compressed (BC1 compression) format
    cudaChannelFormatKindUnsignedBlockCompressed1 = 17,
    /// 4 channel unsigned normalized block-compressed (BC1 compression) format with sRGB encoding
    cudaChannelFormatKindUnsignedBlockCompressed1SRGB = 18,
    /// 4 channel unsigned normalized block-compressed (BC2 compression) format
    cudaChannelFormatKindUnsignedBlockCompressed2 = 19,
    /// 4 channel unsigned normalized block-compressed (BC2 compression) format with sRGB encoding
    cudaChannelFormatKindUnsignedBlockCompressed2SRGB = 20,
    /// 4 channel unsigned normalized block-compressed (BC3 compression) format
    cudaChannelFormatKindUnsignedBlockCompressed3 = 21,
    /// 4 channel unsigned normalized block-compressed (BC3 compression) format with sRGB encoding
    cudaChannelFormatKindUnsignedBlockCompressed3SRGB = 22,
    /// 1 channel unsigned normalized block-compressed (BC4 compression) format
    cudaChannelFormatKindUnsignedBlockCompressed4 = 23,
    /// 1 channel signed normalized block-compressed (BC4 compression) format
    cudaChannelFormatKindSignedBlockCompressed4 = 24,
    /// 2 channel unsigned normalized block-compressed (BC5 compression) format
    cudaChannelFormatKindUnsignedBlockCompressed5 = 25,
    /// 2 channel signed normalized block-compressed (BC5 compression) format
    cudaChannelFormatKindSignedBlockCompressed5 = 26,
    /// 3 channel unsigned half-float block-compressed (BC6H compression) format
    cudaChannelFormatKindUnsignedBlockCompressed6H = 27,
    /// 3 channel signed half-float block-compressed (BC6H compression) format
    cudaChannelFormatKindSignedBlockCompressed6H = 28,
    /// 4 channel unsigned normalized block-compressed (BC7 compression) format
    cudaChannelFormatKindUnsignedBlockCompressed7 = 29,
    /// 4 channel unsigned normalized block-compressed (BC7 compression) format with sRGB encoding
    cudaChannelFormatKindUnsignedBlockCompressed7SRGB = 30,
    /// 4 channel unsigned normalized (10-bit, 10-bit, 10-bit, 2-bit) format
    cudaChannelFormatKindUnsignedNormalized1010102 = 31,
    /// 4 channel unsigned 8-bit YUV 4:2:2 packed
    #[cfg(not(feature = "abi12"))]
    cudaChannelFormatKindUnsigned8Packed422 = 32,
    /// 4 channel unsigned 8-bit YUV 4:4:4 packed
    #[cfg(not(feature = "abi12"))]
    cudaChannelFormatKindUnsigned8Packed444 = 33,
    /// 3 channel unsigned 8-bit YUV semi-planar 4:2:0
    #[cfg(not(feature = "abi12"))]
    cudaChannelFormatKindUnsigned8SemiPlanar420 = 34,
    /// 3 channel unsigned 16-bit YUV semi-planar 4:2:0
    #[cfg(not(feature = "abi12"))]
    cudaChannelFormatKindUnsigned16SemiPlanar420 = 35,
    /// 3 channel unsigned 8-bit YUV semi-planar 4:2:2
    #[cfg(not(feature = "abi12"))]
    cudaChannelFormatKindUnsigned8SemiPlanar422 = 36,
    /// 3 channel unsigned 16-bit YUV semi-planar 4:2:2
    #[cfg(not(feature = "abi12"))]
    cudaChannelFormatKindUnsigned16SemiPlanar422 = 37,
    /// 3 channel unsigned 8-bit YUV semi-planar 4:4:4
    #[cfg(not(feature = "abi12"))]
    cudaChannelFormatKindUnsigned8SemiPlanar444 = 38,
    /// 3 channel unsigned 16-bit YUV semi-planar 4:4:4
    #[cfg(not(feature = "abi12"))]
    cudaChannelFormatKindUnsigned16SemiPlanar444 = 39,
    /// 3 channel unsigned 8-bit YUV planar 4:2:0
    #[cfg(not(feature = "abi12"))]
    cudaChannelFormatKindUnsigned8Planar420 = 40,
    /// 3 channel unsigned 16-bit YUV planar 4:2:0
    #[cfg(not(feature = "abi12"))]
    cudaChannelFormatKindUnsigned16Planar420 = 41,
    /// 3 channel unsigned 8-bit YUV planar 4:2:2
    #[cfg(not(feature = "abi12"))]
    cudaChannelFormatKindUnsigned8Planar422 = 42,
    /// 3 channel unsigned 16-bit YUV planar 4:2:2
    #[cfg(not(feature = "abi12"))]
    cudaChannelFormatKindUnsigned16Planar422 = 43,
    /// 3 channel unsigned 8-bit YUV planar 4:4:4
    #[cfg(not(feature = "abi12"))]
    cudaChannelFormatKindUnsigned8Planar444 = 44,
    /// 3 channel unsigned 16-bit YUV planar 4:4:4
    #[cfg(not(feature = "abi12"))]
    cudaChannelFormatKindUnsigned16Planar444 = 45,
}

/// CUDA Channel format descriptor
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct cudaChannelFormatDesc {
    /// x
    pub x: c_int,
    /// y
    pub y: c_int,
    /// z
    pub z: c_int,
    /// w
    pub w: c_int,
    /// Channel format kind
    pub f: raw::cudaChannelFormatKind,
}

/// The tile extent of a sparse CUDA array (the anonymous `tileExtent` member of
/// `cudaArraySparseProperties`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct cudaArraySparsePropertiesTileExtent {
    /// Tile width in elements
    pub width: c_uint,
    /// Tile height in elements
    pub height: c_uint,
    /// Tile depth in elements
    pub depth: c_uint,
}

/// Sparse CUDA array and CUDA mipmapped array properties
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct cudaArraySparseProperties {
    /// Tile extent
    pub tileExtent: cudaArraySparsePropertiesTileExtent,
    /// First mip level at which the mip tail begins
    pub miptailFirstLevel: c_uint,
    /// Total size of the mip tail.
    pub miptailSize: c_ulonglong,
    /// Flags will either be zero or ::cudaArraySparsePropertiesSingleMipTail
    pub flags: c_uint,
    /// Reserved
    pub reserved: [c_uint; 4],
}

/// CUDA array and CUDA mipmapped array memory requirements
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct cudaArrayMemoryRequirements {
    /// Total size of the array.
    pub size: usize,
    /// Alignment necessary for mapping the array.
    pub alignment: usize,
    /// Reserved
    pub reserved: [c_uint; 4],
}

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(cudaChannelFormatKind);
}
