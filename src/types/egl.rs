//! EGL interoperability types (NVIDIA's `cuda_egl_interop.h`). They go to
//! `include/cuda_egl_interop.h`, generated from this file and `src/api/egl.rs` alone (build.rs),
//! which takes the EGL types from the system's `<EGL/egl.h>` and `<EGL/eglext.h>`, as NVIDIA's
//! does.

use std::ffi::c_uint;

use super::{cudaArray_t, cudaChannelFormatDesc, cudaPitchedPtr};

/// What an EGL image, stream or sync handle points at: EGL's are `void *`, ours a type of their
/// own, so that the observer knows them for handles.
/// cbindgen:ignore
pub struct EGLObject {
    _private: [u8; 0],
}
/// EGL's `EGLImageKHR` (`<EGL/eglext.h>`).
/// cbindgen:ignore
pub type EGLImageKHR = *mut EGLObject;
/// EGL's `EGLStreamKHR` (`<EGL/eglext.h>`).
/// cbindgen:ignore
pub type EGLStreamKHR = *mut EGLObject;
/// EGL's `EGLSyncKHR` (`<EGL/eglext.h>`).
/// cbindgen:ignore
pub type EGLSyncKHR = *mut EGLObject;
/// EGL's `EGLint` (`<EGL/egl.h>`: `khronos_int32_t`).
/// cbindgen:ignore
pub type EGLint = i32;

/// Maximum number of planes per frame
pub const CUDA_EGL_MAX_PLANES: usize = 3;

/// CUDA EglFrame type - array or pointer
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaEglFrameType_enum {
    /// Frame type CUDA array
    cudaEglFrameTypeArray = 0,
    /// Frame type CUDA pointer
    cudaEglFrameTypePitch = 1,
}
/// CUDA EglFrame type - array or pointer
pub type cudaEglFrameType = cudaEglFrameType_enum;

/// Resource location flags- sysmem or vidmem
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaEglResourceLocationFlags_enum {
    /// Resource location sysmem
    cudaEglResourceLocationSysmem = 0x00,
    /// Resource location vidmem
    cudaEglResourceLocationVidmem = 0x01,
}
/// Resource location flags- sysmem or vidmem
pub type cudaEglResourceLocationFlags = cudaEglResourceLocationFlags_enum;

/// CUDA EGL Color Format - The different planar and multiplanar formats currently supported for
/// CUDA_EGL interops.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaEglColorFormat_enum {
    /// Y, U, V in three surfaces, each in a separate surface, U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYUV420Planar = 0,
    /// Y, UV in two surfaces (UV as one surface) with VU byte ordering, width, height ratio same as YUV420Planar.
    cudaEglColorFormatYUV420SemiPlanar = 1,
    /// Y, U, V  each in a separate  surface, U/V width = 1/2 Y width, U/V height = Y height.
    cudaEglColorFormatYUV422Planar = 2,
    /// Y, UV in two surfaces with VU byte ordering, width, height ratio same as YUV422Planar.
    cudaEglColorFormatYUV422SemiPlanar = 3,
    /// R/G/B/A four channels in one surface with BGRA byte ordering.
    cudaEglColorFormatARGB = 6,
    /// R/G/B/A four channels in one surface with ABGR byte ordering.
    cudaEglColorFormatRGBA = 7,
    /// single luminance channel in one surface.
    cudaEglColorFormatL = 8,
    /// single color channel in one surface.
    cudaEglColorFormatR = 9,
    /// Y, U, V in three surfaces, each in a separate surface, U/V width = Y width, U/V height = Y height.
    cudaEglColorFormatYUV444Planar = 10,
    /// Y, UV in two surfaces (UV as one surface) with VU byte ordering, width, height ratio same as YUV444Planar.
    cudaEglColorFormatYUV444SemiPlanar = 11,
    /// Y, U, V in one surface, interleaved as UYVY in one channel.
    cudaEglColorFormatYUYV422 = 12,
    /// Y, U, V in one surface, interleaved as YUYV in one channel.
    cudaEglColorFormatUYVY422 = 13,
    /// R/G/B/A four channels in one surface with RGBA byte ordering.
    cudaEglColorFormatABGR = 14,
    /// R/G/B/A four channels in one surface with ARGB byte ordering.
    cudaEglColorFormatBGRA = 15,
    /// Alpha color format - one channel in one surface.
    cudaEglColorFormatA = 16,
    /// R/G color format - two channels in one surface with GR byte ordering
    cudaEglColorFormatRG = 17,
    /// Y, U, V, A four channels in one surface, interleaved as VUYA.
    cudaEglColorFormatAYUV = 18,
    /// Y, VU in two surfaces (VU as one surface) with UV byte ordering, U/V width = Y width, U/V height = Y height.
    cudaEglColorFormatYVU444SemiPlanar = 19,
    /// Y, VU in two surfaces (VU as one surface) with UV byte ordering, U/V width = 1/2 Y width, U/V height = Y height.
    cudaEglColorFormatYVU422SemiPlanar = 20,
    /// Y, VU in two surfaces (VU as one surface) with UV byte ordering, U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYVU420SemiPlanar = 21,
    /// Y10, V10U10 in two surfaces (VU as one surface) with UV byte ordering, U/V width = Y width, U/V height = Y height.
    cudaEglColorFormatY10V10U10_444SemiPlanar = 22,
    /// Y10, V10U10 in two surfaces (VU as one surface) with UV byte ordering, U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatY10V10U10_420SemiPlanar = 23,
    /// Y12, V12U12 in two surfaces (VU as one surface) with UV byte ordering, U/V width = Y width, U/V height = Y height.
    cudaEglColorFormatY12V12U12_444SemiPlanar = 24,
    /// Y12, V12U12 in two surfaces (VU as one surface) with UV byte ordering, U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatY12V12U12_420SemiPlanar = 25,
    /// Extended Range Y, U, V in one surface, interleaved as YVYU in one channel.
    cudaEglColorFormatVYUY_ER = 26,
    /// Extended Range Y, U, V in one surface, interleaved as YUYV in one channel.
    cudaEglColorFormatUYVY_ER = 27,
    /// Extended Range Y, U, V in one surface, interleaved as UYVY in one channel.
    cudaEglColorFormatYUYV_ER = 28,
    /// Extended Range Y, U, V in one surface, interleaved as VYUY in one channel.
    cudaEglColorFormatYVYU_ER = 29,
    /// Extended Range Y, U, V, A four channels in one surface, interleaved as AVUY.
    cudaEglColorFormatYUVA_ER = 31,
    /// Extended Range Y, U, V, A four channels in one surface, interleaved as VUYA.
    cudaEglColorFormatAYUV_ER = 32,
    /// Extended Range Y, U, V in three surfaces, U/V width = Y width, U/V height = Y height.
    cudaEglColorFormatYUV444Planar_ER = 33,
    /// Extended Range Y, U, V in three surfaces, U/V width = 1/2 Y width, U/V height = Y height.
    cudaEglColorFormatYUV422Planar_ER = 34,
    /// Extended Range Y, U, V in three surfaces, U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYUV420Planar_ER = 35,
    /// Extended Range Y, UV in two surfaces (UV as one surface) with VU byte ordering, U/V width = Y width, U/V height = Y height.
    cudaEglColorFormatYUV444SemiPlanar_ER = 36,
    /// Extended Range Y, UV in two surfaces (UV as one surface) with VU byte ordering, U/V width = 1/2 Y width, U/V height = Y height.
    cudaEglColorFormatYUV422SemiPlanar_ER = 37,
    /// Extended Range Y, UV in two surfaces (UV as one surface) with VU byte ordering, U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYUV420SemiPlanar_ER = 38,
    /// Extended Range Y, V, U in three surfaces, U/V width = Y width, U/V height = Y height.
    cudaEglColorFormatYVU444Planar_ER = 39,
    /// Extended Range Y, V, U in three surfaces, U/V width = 1/2 Y width, U/V height = Y height.
    cudaEglColorFormatYVU422Planar_ER = 40,
    /// Extended Range Y, V, U in three surfaces, U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYVU420Planar_ER = 41,
    /// Extended Range Y, VU in two surfaces (VU as one surface) with UV byte ordering, U/V width = Y width, U/V height = Y height.
    cudaEglColorFormatYVU444SemiPlanar_ER = 42,
    /// Extended Range Y, VU in two surfaces (VU as one surface) with UV byte ordering, U/V width = 1/2 Y width, U/V height = Y height.
    cudaEglColorFormatYVU422SemiPlanar_ER = 43,
    /// Extended Range Y, VU in two surfaces (VU as one surface) with UV byte ordering, U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYVU420SemiPlanar_ER = 44,
    /// Bayer format - one channel in one surface with interleaved RGGB ordering.
    cudaEglColorFormatBayerRGGB = 45,
    /// Bayer format - one channel in one surface with interleaved BGGR ordering.
    cudaEglColorFormatBayerBGGR = 46,
    /// Bayer format - one channel in one surface with interleaved GRBG ordering.
    cudaEglColorFormatBayerGRBG = 47,
    /// Bayer format - one channel in one surface with interleaved GBRG ordering.
    cudaEglColorFormatBayerGBRG = 48,
    /// Bayer10 format - one channel in one surface with interleaved RGGB ordering. Out of 16 bits, 10 bits used 6 bits No-op.
    cudaEglColorFormatBayer10RGGB = 49,
    /// Bayer10 format - one channel in one surface with interleaved BGGR ordering. Out of 16 bits, 10 bits used 6 bits No-op.
    cudaEglColorFormatBayer10BGGR = 50,
    /// Bayer10 format - one channel in one surface with interleaved GRBG ordering. Out of 16 bits, 10 bits used 6 bits No-op.
    cudaEglColorFormatBayer10GRBG = 51,
    /// Bayer10 format - one channel in one surface with interleaved GBRG ordering. Out of 16 bits, 10 bits used 6 bits No-op.
    cudaEglColorFormatBayer10GBRG = 52,
    /// Bayer12 format - one channel in one surface with interleaved RGGB ordering. Out of 16 bits, 12 bits used 4 bits No-op.
    cudaEglColorFormatBayer12RGGB = 53,
    /// Bayer12 format - one channel in one surface with interleaved BGGR ordering. Out of 16 bits, 12 bits used 4 bits No-op.
    cudaEglColorFormatBayer12BGGR = 54,
    /// Bayer12 format - one channel in one surface with interleaved GRBG ordering. Out of 16 bits, 12 bits used 4 bits No-op.
    cudaEglColorFormatBayer12GRBG = 55,
    /// Bayer12 format - one channel in one surface with interleaved GBRG ordering. Out of 16 bits, 12 bits used 4 bits No-op.
    cudaEglColorFormatBayer12GBRG = 56,
    /// Bayer14 format - one channel in one surface with interleaved RGGB ordering. Out of 16 bits, 14 bits used 2 bits No-op.
    cudaEglColorFormatBayer14RGGB = 57,
    /// Bayer14 format - one channel in one surface with interleaved BGGR ordering. Out of 16 bits, 14 bits used 2 bits No-op.
    cudaEglColorFormatBayer14BGGR = 58,
    /// Bayer14 format - one channel in one surface with interleaved GRBG ordering. Out of 16 bits, 14 bits used 2 bits No-op.
    cudaEglColorFormatBayer14GRBG = 59,
    /// Bayer14 format - one channel in one surface with interleaved GBRG ordering. Out of 16 bits, 14 bits used 2 bits No-op.
    cudaEglColorFormatBayer14GBRG = 60,
    /// Bayer20 format - one channel in one surface with interleaved RGGB ordering. Out of 32 bits, 20 bits used 12 bits No-op.
    cudaEglColorFormatBayer20RGGB = 61,
    /// Bayer20 format - one channel in one surface with interleaved BGGR ordering. Out of 32 bits, 20 bits used 12 bits No-op.
    cudaEglColorFormatBayer20BGGR = 62,
    /// Bayer20 format - one channel in one surface with interleaved GRBG ordering. Out of 32 bits, 20 bits used 12 bits No-op.
    cudaEglColorFormatBayer20GRBG = 63,
    /// Bayer20 format - one channel in one surface with interleaved GBRG ordering. Out of 32 bits, 20 bits used 12 bits No-op.
    cudaEglColorFormatBayer20GBRG = 64,
    /// Y, V, U in three surfaces, each in a separate surface, U/V width = Y width, U/V height = Y height.
    cudaEglColorFormatYVU444Planar = 65,
    /// Y, V, U in three surfaces, each in a separate surface, U/V width = 1/2 Y width, U/V height = Y height.
    cudaEglColorFormatYVU422Planar = 66,
    /// Y, V, U in three surfaces, each in a separate surface, U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYVU420Planar = 67,
    /// Nvidia proprietary Bayer ISP format - one channel in one surface with interleaved RGGB ordering and mapped to opaque integer datatype.
    cudaEglColorFormatBayerIspRGGB = 68,
    /// Nvidia proprietary Bayer ISP format - one channel in one surface with interleaved BGGR ordering and mapped to opaque integer datatype.
    cudaEglColorFormatBayerIspBGGR = 69,
    /// Nvidia proprietary Bayer ISP format - one channel in one surface with interleaved GRBG ordering and mapped to opaque integer datatype.
    cudaEglColorFormatBayerIspGRBG = 70,
    /// Nvidia proprietary Bayer ISP format - one channel in one surface with interleaved GBRG ordering and mapped to opaque integer datatype.
    cudaEglColorFormatBayerIspGBRG = 71,
    /// Bayer format - one channel in one surface with interleaved BCCR ordering.
    cudaEglColorFormatBayerBCCR = 72,
    /// Bayer format - one channel in one surface with interleaved RCCB ordering.
    cudaEglColorFormatBayerRCCB = 73,
    /// Bayer format - one channel in one surface with interleaved CRBC ordering.
    cudaEglColorFormatBayerCRBC = 74,
    /// Bayer format - one channel in one surface with interleaved CBRC ordering.
    cudaEglColorFormatBayerCBRC = 75,
    /// Bayer10 format - one channel in one surface with interleaved CCCC ordering. Out of 16 bits, 10 bits used 6 bits No-op.
    cudaEglColorFormatBayer10CCCC = 76,
    /// Bayer12 format - one channel in one surface with interleaved BCCR ordering. Out of 16 bits, 12 bits used 4 bits No-op.
    cudaEglColorFormatBayer12BCCR = 77,
    /// Bayer12 format - one channel in one surface with interleaved RCCB ordering. Out of 16 bits, 12 bits used 4 bits No-op.
    cudaEglColorFormatBayer12RCCB = 78,
    /// Bayer12 format - one channel in one surface with interleaved CRBC ordering. Out of 16 bits, 12 bits used 4 bits No-op.
    cudaEglColorFormatBayer12CRBC = 79,
    /// Bayer12 format - one channel in one surface with interleaved CBRC ordering. Out of 16 bits, 12 bits used 4 bits No-op.
    cudaEglColorFormatBayer12CBRC = 80,
    /// Bayer12 format - one channel in one surface with interleaved CCCC ordering. Out of 16 bits, 12 bits used 4 bits No-op.
    cudaEglColorFormatBayer12CCCC = 81,
    /// Color format for single Y plane.
    cudaEglColorFormatY = 82,
    /// Y, UV in two surfaces (UV as one surface) U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYUV420SemiPlanar_2020 = 83,
    /// Y, VU in two surfaces (VU as one surface) U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYVU420SemiPlanar_2020 = 84,
    /// Y, U, V in three surfaces, each in a separate surface, U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYUV420Planar_2020 = 85,
    /// Y, V, U in three surfaces, each in a separate surface, U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYVU420Planar_2020 = 86,
    /// Y, UV in two surfaces (UV as one surface) U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYUV420SemiPlanar_709 = 87,
    /// Y, VU in two surfaces (VU as one surface) U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYVU420SemiPlanar_709 = 88,
    /// Y, U, V in three surfaces, each in a separate surface, U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYUV420Planar_709 = 89,
    /// Y, V, U in three surfaces, each in a separate surface, U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatYVU420Planar_709 = 90,
    /// Y10, V10U10 in two surfaces (VU as one surface) U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatY10V10U10_420SemiPlanar_709 = 91,
    /// Y10, V10U10 in two surfaces (VU as one surface) U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatY10V10U10_420SemiPlanar_2020 = 92,
    /// Y10, V10U10  in two surfaces (VU as one surface) U/V width = 1/2 Y width, U/V height =  Y height.
    cudaEglColorFormatY10V10U10_422SemiPlanar_2020 = 93,
    /// Y10, V10U10  in two surfaces (VU as one surface) U/V width = 1/2 Y width, U/V height =  Y height.
    cudaEglColorFormatY10V10U10_422SemiPlanar = 94,
    /// Y10, V10U10  in two surfaces (VU as one surface) U/V width = 1/2 Y width, U/V height =  Y height.
    cudaEglColorFormatY10V10U10_422SemiPlanar_709 = 95,
    /// Extended Range Color format for single Y plane.
    cudaEglColorFormatY_ER = 96,
    /// Extended Range Color format for single Y plane.
    cudaEglColorFormatY_709_ER = 97,
    /// Extended Range Color format for single Y10 plane.
    cudaEglColorFormatY10_ER = 98,
    /// Extended Range Color format for single Y10 plane.
    cudaEglColorFormatY10_709_ER = 99,
    /// Extended Range Color format for single Y12 plane.
    cudaEglColorFormatY12_ER = 100,
    /// Extended Range Color format for single Y12 plane.
    cudaEglColorFormatY12_709_ER = 101,
    /// Y, U, V, A four channels in one surface, interleaved as AVUY.
    cudaEglColorFormatYUVA = 102,
    /// Y, U, V in one surface, interleaved as YVYU in one channel.
    cudaEglColorFormatYVYU = 104,
    /// Y, U, V in one surface, interleaved as VYUY in one channel.
    cudaEglColorFormatVYUY = 105,
    /// Extended Range Y10, V10U10 in two surfaces (VU as one surface) U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatY10V10U10_420SemiPlanar_ER = 106,
    /// Extended Range Y10, V10U10 in two surfaces (VU as one surface) U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatY10V10U10_420SemiPlanar_709_ER = 107,
    /// Extended Range Y10, V10U10 in two surfaces (VU as one surface) U/V width = Y width, U/V height = Y height.
    cudaEglColorFormatY10V10U10_444SemiPlanar_ER = 108,
    /// Extended Range Y10, V10U10 in two surfaces (VU as one surface) U/V width = Y width, U/V height = Y height.
    cudaEglColorFormatY10V10U10_444SemiPlanar_709_ER = 109,
    /// Extended Range Y12, V12U12 in two surfaces (VU as one surface) U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatY12V12U12_420SemiPlanar_ER = 110,
    /// Extended Range Y12, V12U12 in two surfaces (VU as one surface) U/V width = 1/2 Y width, U/V height = 1/2 Y height.
    cudaEglColorFormatY12V12U12_420SemiPlanar_709_ER = 111,
    /// Extended Range Y12, V12U12 in two surfaces (VU as one surface) U/V width = Y width, U/V height = Y height.
    cudaEglColorFormatY12V12U12_444SemiPlanar_ER = 112,
    /// Extended Range Y12, V12U12 in two surfaces (VU as one surface) U/V width = Y width, U/V height = Y height.
    cudaEglColorFormatY12V12U12_444SemiPlanar_709_ER = 113,
    /// Y, U, V in one surface, interleaved as UYVY in one channel.
    cudaEglColorFormatUYVY709 = 114,
    /// Extended Range Y, U, V in one surface, interleaved as UYVY in one channel.
    cudaEglColorFormatUYVY709_ER = 115,
    /// Y, U, V in one surface, interleaved as UYVY in one channel.
    cudaEglColorFormatUYVY2020 = 116,
}
/// CUDA EGL Color Format - The different planar and multiplanar formats currently supported for
/// CUDA_EGL interops.
pub type cudaEglColorFormat = cudaEglColorFormat_enum;

/// CUDA EGL Plane Descriptor - structure defining each plane of a CUDA EGLFrame
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaEglPlaneDesc_st {
    /// Width of plane
    pub width: c_uint,
    /// Height of plane
    pub height: c_uint,
    /// Depth of plane
    pub depth: c_uint,
    /// Pitch of plane
    pub pitch: c_uint,
    /// Number of channels for the plane
    pub numChannels: c_uint,
    /// Channel Format Descriptor
    pub channelDesc: cudaChannelFormatDesc,
    /// Reserved for future use
    pub reserved: [c_uint; 4],
}
/// CUDA EGL Plane Descriptor - structure defining each plane of a CUDA EGLFrame
pub type cudaEglPlaneDesc = cudaEglPlaneDesc_st;

/// The planes of a ::cudaEglFrame, arrays or pitched pointers by its type (NVIDIA's field has an
/// unnamed type).
#[repr(C)]
#[derive(Copy, Clone)]
pub union cudaEglFrameFrame {
    /// Array of CUDA arrays corresponding to each plane
    pub pArray: [cudaArray_t; CUDA_EGL_MAX_PLANES],
    /// Array of Pointers corresponding to each plane
    pub pPitch: [cudaPitchedPtr; CUDA_EGL_MAX_PLANES],
}

/// CUDA EGLFrame Descriptor - structure defining one frame of EGL.
///
/// Each frame may contain one or more planes depending on whether the surface is Multiplanar or
/// not. Each plane of EGLFrame is represented by ::cudaEglPlaneDesc.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaEglFrame_st {
    pub frame: cudaEglFrameFrame,
    /// CUDA EGL Plane Descriptor ::cudaEglPlaneDesc
    pub planeDesc: [cudaEglPlaneDesc; CUDA_EGL_MAX_PLANES],
    /// Number of planes
    pub planeCount: c_uint,
    /// Array or Pitch
    pub frameType: raw::cudaEglFrameType_enum,
    /// CUDA EGL Color Format
    pub eglColorFormat: raw::cudaEglColorFormat_enum,
}
/// CUDA EGLFrame Descriptor - structure defining one frame of EGL.
pub type cudaEglFrame = cudaEglFrame_st;

/// Opaque EGL stream connection: the driver's `CUeglStreamConnection`, whose struct the runtime
/// header names the same.
pub struct CUeglStreamConnection_st {
    _private: [u8; 0],
}
/// CUDA EGLSream Connection
pub type cudaEglStreamConnection = *mut CUeglStreamConnection_st;

const _: () = {
    use std::mem::size_of;
    assert!(size_of::<cudaEglPlaneDesc>() == 56);
    assert!(size_of::<cudaEglFrame>() == 280);
};

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(cudaEglFrameType_enum, cudaEglResourceLocationFlags_enum, cudaEglColorFormat_enum);
}
