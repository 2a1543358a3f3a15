//! EGL interoperability (NVIDIA's `cuda_egl_interop.h`, declared by our
//! `include/cuda_egl_interop.h`, generated from this file and `src/types/egl.rs`): EGL images,
//! EGL streams with CUDA as producer or consumer, and events made from EGL sync objects, all
//! through the driver (`cudaEGL.h`). Stream connections are the driver's; frames are
//! converted between the runtime's `cudaEglFrame` (a descriptor per plane, pitched pointers)
//! and the driver's `CUeglFrame` (the first plane's geometry and one array format).
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_int, c_uint, c_void};

use crate::api::interop::resource;
use crate::driver::types::*;
use crate::driver::Fns;
use crate::engine::formats::{from_cu_format, to_cu_format};
use crate::runtime::boundary::{cu, not_null, out, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

/// Whether `f` is one of the runtime's `cudaEglColorFormat` values (the driver has four more,
/// which the runtime does not name: RGB, BGR, YUV_ER and YUV).
fn runtime_color_format(f: c_int) -> bool {
    matches!(f, 0..=3 | 6..=29 | 31..=102 | 104..=116)
}

/// How the planes after the first of a color format are sized: (width divisor, height divisor,
/// bits of the second channel of the chroma plane, or 0 for planar formats).
fn chroma_planes(format: c_int) -> Option<(c_uint, c_uint, c_int)> {
    Some(match format {
        // 4:2:0 planar (YUV, YVU; plain, extended range, BT.2020, BT.709)
        0 | 35 | 67 | 41 | 85 | 86 | 89 | 90 => (2, 2, 0),
        // 4:2:0 semi-planar, 8 bits
        1 | 38 | 21 | 44 | 83 | 84 | 87 | 88 => (2, 2, 8),
        // 4:2:0 semi-planar, 10 and 12 bits
        23 | 25 | 91 | 92 | 106 | 107 | 110 | 111 => (2, 2, 16),
        // 4:2:2 planar
        2 | 34 | 66 | 40 => (2, 1, 0),
        // 4:2:2 semi-planar, 8 bits
        3 | 37 | 20 | 43 => (2, 1, 8),
        // 4:2:2 semi-planar, 10 bits
        93..=95 => (2, 1, 16),
        // 4:4:4 planar
        10 | 33 | 65 | 39 => (1, 1, 0),
        // 4:4:4 semi-planar, 8 bits
        11 | 36 | 19 | 42 => (1, 1, 8),
        // 4:4:4 semi-planar, 10 and 12 bits
        22 | 24 | 108 | 109 | 112 | 113 => (1, 1, 16),
        _ => return None,
    })
}

/// A runtime frame as the driver's: the first plane's geometry, its channel descriptor as the
/// array format, the planes' arrays or pointers.
pub(crate) fn to_cu_frame(f: &cudaEglFrame) -> Res<CUeglFrame> {
    let (cuFormat, numChannels) = to_cu_format(&f.planeDesc[0].channelDesc)?;
    let array = f.frameType.0 == cudaEglFrameType_enum::cudaEglFrameTypeArray as c_int;
    let mut frame = [std::ptr::null_mut(); CUDA_EGL_MAX_PLANES];
    for (i, p) in frame.iter_mut().enumerate().take(f.planeCount as usize) {
        // SAFETY: the member the frame type names; both are plain data.
        *p = unsafe {
            if array {
                f.frame.pArray[i] as *mut c_void
            } else {
                f.frame.pPitch[i].ptr
            }
        };
    }
    if !runtime_color_format(f.eglColorFormat.0) || !matches!(f.frameType.0, 0 | 1) {
        return Err(cudaError::cudaErrorInvalidValue);
    }
    let p0 = &f.planeDesc[0];
    Ok(CUeglFrame {
        frame,
        width: p0.width,
        height: p0.height,
        depth: p0.depth,
        pitch: p0.pitch,
        planeCount: f.planeCount,
        numChannels,
        frameType: f.frameType.0,
        eglColorFormat: f.eglColorFormat.0,
        cuFormat,
    })
}

/// A driver frame as the runtime's: every plane gets the first plane's depth, channel count and
/// format; the planes after the first are sized by the color format's chroma subsampling (and
/// a semi-planar format's chroma plane has two channels).
pub(crate) fn from_cu_frame(c: &CUeglFrame) -> Res<cudaEglFrame> {
    // SAFETY: a plain C struct of integers and pointers; all-zero is valid.
    let mut f: cudaEglFrame = unsafe { std::mem::zeroed() };
    let channels = from_cu_format(c.cuFormat, c.numChannels);
    let chroma = chroma_planes(c.eglColorFormat);
    for i in 0..(c.planeCount as usize).min(CUDA_EGL_MAX_PLANES) {
        // (A frame without planes has no format to convert.)
        if channels.f == cudaChannelFormatKind::cudaChannelFormatKindNone || !(1..=4).contains(&c.numChannels) {
            return Err(cudaError::cudaErrorInvalidChannelDescriptor);
        }
        let (width, height, pitch) = match (i, chroma) {
            (0, _) => (c.width, c.height, c.pitch),
            (_, Some((dw, dh, _))) => (c.width / dw, c.height / dh, c.pitch / dw),
            (_, None) => (0, 0, 0),
        };
        f.planeDesc[i] = cudaEglPlaneDesc {
            width,
            height,
            depth: c.depth,
            pitch,
            numChannels: c.numChannels,
            channelDesc: channels,
            reserved: [0; 4],
        };
        if let (1.., Some((_, _, bits @ 1..))) = (i, chroma) {
            f.planeDesc[1].channelDesc.y = bits;
        }
        // SAFETY: writing one member of a union of plain data.
        unsafe {
            if c.frameType == CU_EGL_FRAME_TYPE_ARRAY {
                f.frame.pArray[i] = c.frame[i] as cudaArray_t;
            } else {
                f.frame.pPitch[i] = cudaPitchedPtr {
                    ptr: c.frame[i],
                    pitch: pitch as usize,
                    xsize: width as usize,
                    ysize: height as usize,
                };
            }
        }
    }
    f.planeCount = c.planeCount;
    if !runtime_color_format(c.eglColorFormat)
        || !matches!(c.frameType, CU_EGL_FRAME_TYPE_ARRAY | CU_EGL_FRAME_TYPE_PITCH)
    {
        return Err(cudaError::cudaErrorInvalidValue);
    }
    f.eglColorFormat = raw::cudaEglColorFormat_enum(c.eglColorFormat);
    f.frameType = raw::cudaEglFrameType_enum(c.frameType);
    Ok(f)
}

/// Registers an EGL image.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsEGLRegisterImage(
    pCudaResource: *mut cudaGraphicsResource_t,
    image: EGLImageKHR,
    flags: c_uint,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphicsEGLRegisterImage(pCudaResource as *mut CUgraphicsResource, image.cast(), flags)))
}

/// Makes a stream connection with `make`; if that fails, the caller's connection is left as
/// it was. The driver writes a connection it then fails to make (a second consumer of a
/// stream: `CUDA_ERROR_UNKNOWN`), and disconnecting that one crashes it (NVIDIA's runtime
/// passes both on and dies).
unsafe fn connect(conn: *mut cudaEglStreamConnection, make: impl FnOnce(&Fns) -> CUresult) -> Res {
    let f = rt::ctx()?;
    // SAFETY: the caller's connection, if any.
    let before = conn.as_ref().copied();
    let r = make(f);
    if r != 0 {
        if let Some(b) = before {
            // SAFETY: as above.
            *conn = b;
        }
    }
    cu(r)
}

/// Connect CUDA to EGLStream as a consumer.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaEGLStreamConsumerConnect(
    conn: *mut cudaEglStreamConnection,
    eglStream: EGLStreamKHR,
) -> cudaError_t {
    run(|| connect(conn, |f| f.cuEGLStreamConsumerConnect(conn, eglStream.cast())))
}

/// Connect CUDA to EGLStream as a consumer with given flags.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaEGLStreamConsumerConnectWithFlags(
    conn: *mut cudaEglStreamConnection,
    eglStream: EGLStreamKHR,
    flags: c_uint,
) -> cudaError_t {
    run(|| connect(conn, |f| f.cuEGLStreamConsumerConnectWithFlags(conn, eglStream.cast(), flags)))
}

passthrough! {
    cudaEGLStreamConsumerDisconnect(conn: *mut cudaEglStreamConnection)
        = ctx.cuEGLStreamConsumerDisconnect(conn) [family = Interop] "Disconnect CUDA as a consumer to EGLStream .";
    cudaEGLStreamProducerDisconnect(conn: *mut cudaEglStreamConnection)
        = ctx.cuEGLStreamProducerDisconnect(conn) [family = Interop] "Disconnect CUDA as a producer  to EGLStream .";
}

/// Acquire an image frame from the EGLStream with CUDA as a consumer.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaEGLStreamConsumerAcquireFrame(
    conn: *mut cudaEglStreamConnection,
    pCudaResource: *mut cudaGraphicsResource_t,
    pStream: *mut cudaStream_t,
    timeout: c_uint,
) -> cudaError_t {
    run(|| {
        cu(rt::ctx()?.cuEGLStreamConsumerAcquireFrame(conn, pCudaResource as *mut CUgraphicsResource, pStream, timeout))
    })
}

/// Releases the last frame acquired from the EGLStream.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaEGLStreamConsumerReleaseFrame(
    conn: *mut cudaEglStreamConnection,
    pCudaResource: cudaGraphicsResource_t,
    pStream: *mut cudaStream_t,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuEGLStreamConsumerReleaseFrame(conn, resource(pCudaResource), pStream)))
}

/// Connect CUDA to EGLStream as a producer.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaEGLStreamProducerConnect(
    conn: *mut cudaEglStreamConnection,
    eglStream: EGLStreamKHR,
    width: EGLint,
    height: EGLint,
) -> cudaError_t {
    run(|| connect(conn, |f| f.cuEGLStreamProducerConnect(conn, eglStream.cast(), width, height)))
}

/// Present a CUDA eglFrame to the EGLStream with CUDA as a producer.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaEGLStreamProducerPresentFrame(
    conn: *mut cudaEglStreamConnection,
    eglframe: cudaEglFrame,
    pStream: *mut cudaStream_t,
) -> cudaError_t {
    run(|| {
        let frame = to_cu_frame(&eglframe)?;
        cu(rt::ctx()?.cuEGLStreamProducerPresentFrame(conn, frame, pStream))
    })
}

/// Return the CUDA eglFrame to the EGLStream last released by the consumer.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaEGLStreamProducerReturnFrame(
    conn: *mut cudaEglStreamConnection,
    eglframe: *mut cudaEglFrame,
    pStream: *mut cudaStream_t,
) -> cudaError_t {
    run(|| {
        let o = out(eglframe)?;
        let f = rt::ctx()?;
        let mut frame = CUeglFrame::default();
        cu(f.cuEGLStreamProducerReturnFrame(conn, &mut frame, pStream))?;
        *o = from_cu_frame(&frame)?;
        Ok(())
    })
}

/// Get an eglFrame through which to access a registered EGL graphics resource.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsResourceGetMappedEglFrame(
    eglFrame: *mut cudaEglFrame,
    resource: cudaGraphicsResource_t,
    index: c_uint,
    mipLevel: c_uint,
) -> cudaError_t {
    run(|| {
        // The resource first, then the frame (NVIDIA's order, the H100).
        not_null(resource, cudaError::cudaErrorInvalidResourceHandle)?;
        let o = out(eglFrame)?;
        let f = rt::ctx()?;
        let mut frame = CUeglFrame::default();
        cu(f.cuGraphicsResourceGetMappedEglFrame(&mut frame, self::resource(resource), index, mipLevel))?;
        *o = from_cu_frame(&frame)?;
        Ok(())
    })
}

/// Creates an event from EGLSync object.
///
/// NVIDIA's runtime for x86-64 Linux does not support it: every call, whatever its
/// arguments, returns `cudaErrorNotSupported` and leaves the last error as it was (measured on
/// the H100, `ctest/egl_interop.c`). Ours answers the same there, and asks the driver
/// elsewhere (Tegra, aarch64).
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaEventCreateFromEGLSync(
    phEvent: *mut cudaEvent_t,
    eglSync: EGLSyncKHR,
    flags: c_uint,
) -> cudaError_t {
    if cfg!(target_arch = "x86_64") {
        let _ = (phEvent, eglSync, flags);
        return cudaError::cudaErrorNotSupported;
    }
    run(|| cu(rt::ctx()?.cuEventCreateFromEGLSync(phEvent, eglSync.cast(), flags)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cu_frame(format: c_int, planes: c_uint, frame_type: c_int) -> CUeglFrame {
        CUeglFrame {
            frame: [0x1000 as *mut c_void, 0x2000 as *mut c_void, 0x3000 as *mut c_void],
            width: 64,
            height: 32,
            depth: 1,
            pitch: 256,
            planeCount: planes,
            numChannels: 1,
            frameType: frame_type,
            eglColorFormat: format,
            cuFormat: 0x01, // CU_AD_FORMAT_UNSIGNED_INT8
        }
    }

    #[test]
    fn semi_planar_420_pitch_frame() {
        let f = from_cu_frame(&cu_frame(1, 2, CU_EGL_FRAME_TYPE_PITCH)).unwrap();
        assert_eq!(f.planeCount, 2);
        let (p0, p1) = (f.planeDesc[0], f.planeDesc[1]);
        assert_eq!((p0.width, p0.height, p0.pitch, p0.depth, p0.numChannels), (64, 32, 256, 1, 1));
        assert_eq!((p1.width, p1.height, p1.pitch), (32, 16, 128));
        assert_eq!((p0.channelDesc.x, p0.channelDesc.y), (8, 0));
        assert_eq!((p1.channelDesc.x, p1.channelDesc.y), (8, 8));
        // SAFETY: a pitch frame.
        let pp = unsafe { f.frame.pPitch };
        assert_eq!((pp[1].ptr as usize, pp[1].pitch, pp[1].xsize, pp[1].ysize), (0x2000, 128, 32, 16));
        assert_eq!(f.planeDesc[2].width, 0);
    }

    #[test]
    fn array_frame_round_trip() {
        let c = cu_frame(10, 3, CU_EGL_FRAME_TYPE_ARRAY);
        let f = from_cu_frame(&c).unwrap();
        // SAFETY: an array frame.
        assert_eq!(unsafe { f.frame.pArray[2] } as usize, 0x3000);
        assert_eq!(f.planeDesc[2].width, 64);
        let back = to_cu_frame(&f).unwrap();
        assert_eq!(back.frame, c.frame);
        assert_eq!((back.width, back.height, back.pitch, back.planeCount), (64, 32, 256, 3));
        assert_eq!((back.cuFormat, back.numChannels, back.eglColorFormat, back.frameType), (0x01, 1, 10, 0));
    }

    #[test]
    fn formats_the_runtime_does_not_name_are_invalid() {
        for bad in [4, 5, 30, 103, 117, -1] {
            assert_eq!(from_cu_frame(&cu_frame(bad, 1, 0)).err(), Some(cudaError::cudaErrorInvalidValue));
        }
        let mut f = from_cu_frame(&cu_frame(7, 1, 1)).unwrap();
        f.eglColorFormat = raw::cudaEglColorFormat_enum(4);
        assert_eq!(to_cu_frame(&f).err(), Some(cudaError::cudaErrorInvalidValue));
        f.eglColorFormat = raw::cudaEglColorFormat_enum(7);
        f.frameType = raw::cudaEglFrameType_enum(2);
        assert_eq!(to_cu_frame(&f).err(), Some(cudaError::cudaErrorInvalidValue));
        f.planeDesc[0].channelDesc.x = 3;
        assert_eq!(to_cu_frame(&f).err(), Some(cudaError::cudaErrorInvalidChannelDescriptor));
    }
}
