//! The per-thread-stream entry points `cuGetProcAddress` gives with
//! `CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM`: the forms of the functions that take a
//! stream (or, for the synchronous copies and memsets, use the null stream) in which the null
//! stream is the calling thread's per-thread stream. Every other name gives its one form.

use std::ffi::{c_int, c_void};

use crate::{capture, copy, devctl, exec, launch, pool, stream};

/// The per-thread form of `name` as the runtime asks for it at `version`, if it has one.
pub fn entry(name: &str, version: c_int) -> Option<*mut c_void> {
    Some(match name {
        "cuMemcpy" => copy::cuMemcpy_ptds as *mut c_void,
        "cuMemcpyAsync" => copy::cuMemcpyAsync_ptsz as *mut c_void,
        "cuMemcpyHtoD" => copy::cuMemcpyHtoD_ptds as *mut c_void,
        "cuMemcpyDtoH" => copy::cuMemcpyDtoH_ptds as *mut c_void,
        "cuMemcpyDtoD" => copy::cuMemcpyDtoD_ptds as *mut c_void,
        "cuMemcpyHtoDAsync" => copy::cuMemcpyHtoDAsync_ptsz as *mut c_void,
        "cuMemcpyDtoHAsync" => copy::cuMemcpyDtoHAsync_ptsz as *mut c_void,
        "cuMemcpyDtoDAsync" => copy::cuMemcpyDtoDAsync_ptsz as *mut c_void,
        "cuMemcpy2D" => copy::cuMemcpy2D_ptds as *mut c_void,
        "cuMemcpy2DUnaligned" => copy::cuMemcpy2DUnaligned_ptds as *mut c_void,
        "cuMemcpy2DAsync" => copy::cuMemcpy2DAsync_ptsz as *mut c_void,
        "cuMemcpy3D" => copy::cuMemcpy3D_ptds as *mut c_void,
        "cuMemcpy3DAsync" => copy::cuMemcpy3DAsync_ptsz as *mut c_void,
        "cuMemcpyPeer" => copy::cuMemcpyPeer_ptds as *mut c_void,
        "cuMemcpyPeerAsync" => copy::cuMemcpyPeerAsync_ptsz as *mut c_void,
        "cuMemcpy3DPeer" => copy::cuMemcpy3DPeer_ptds as *mut c_void,
        "cuMemcpy3DPeerAsync" => copy::cuMemcpy3DPeerAsync_ptsz as *mut c_void,
        "cuMemsetD8" => copy::cuMemsetD8_ptds as *mut c_void,
        "cuMemsetD8Async" => copy::cuMemsetD8Async_ptsz as *mut c_void,
        "cuMemsetD2D8" => copy::cuMemsetD2D8_ptds as *mut c_void,
        "cuMemsetD2D8Async" => copy::cuMemsetD2D8Async_ptsz as *mut c_void,
        "cuStreamSynchronize" => stream::cuStreamSynchronize_ptsz as *mut c_void,
        "cuStreamQuery" => stream::cuStreamQuery_ptsz as *mut c_void,
        "cuStreamGetFlags" => stream::cuStreamGetFlags_ptsz as *mut c_void,
        "cuStreamGetPriority" => stream::cuStreamGetPriority_ptsz as *mut c_void,
        "cuStreamWaitEvent" => stream::cuStreamWaitEvent_ptsz as *mut c_void,
        "cuLaunchHostFunc" => stream::cuLaunchHostFunc_ptsz as *mut c_void,
        "cuEventRecord" => stream::cuEventRecord_ptsz as *mut c_void,
        "cuEventRecordWithFlags" => stream::cuEventRecordWithFlags_ptsz as *mut c_void,
        "cuStreamGetAttribute" => launch::cuStreamGetAttribute_ptsz as *mut c_void,
        "cuStreamSetAttribute" => launch::cuStreamSetAttribute_ptsz as *mut c_void,
        "cuStreamCopyAttributes" => launch::cuStreamCopyAttributes_ptsz as *mut c_void,
        "cuStreamGetId" => devctl::cuStreamGetId_ptsz as *mut c_void,
        "cuStreamBeginCapture" => capture::cuStreamBeginCapture_ptsz as *mut c_void,
        "cuStreamBeginCaptureToGraph" => capture::cuStreamBeginCaptureToGraph_ptsz as *mut c_void,
        "cuStreamEndCapture" => capture::cuStreamEndCapture_ptsz as *mut c_void,
        "cuStreamIsCapturing" => capture::cuStreamIsCapturing_ptsz as *mut c_void,
        "cuStreamGetCaptureInfo" if version >= 12030 => capture::cuStreamGetCaptureInfo_v3_ptsz as *mut c_void,
        "cuStreamGetCaptureInfo" if version >= 11030 => capture::cuStreamGetCaptureInfo_v2_ptsz as *mut c_void,
        "cuStreamUpdateCaptureDependencies" if version >= 12030 => {
            capture::cuStreamUpdateCaptureDependencies_v2_ptsz as *mut c_void
        }
        "cuStreamUpdateCaptureDependencies" => capture::cuStreamUpdateCaptureDependencies_ptsz as *mut c_void,
        "cuGraphLaunch" => exec::cuGraphLaunch_ptsz as *mut c_void,
        "cuGraphUpload" => exec::cuGraphUpload_ptsz as *mut c_void,
        "cuGraphInstantiateWithParams" => exec::cuGraphInstantiateWithParams_ptsz as *mut c_void,
        "cuMemAllocAsync" => pool::cuMemAllocAsync_ptsz as *mut c_void,
        "cuMemFreeAsync" => pool::cuMemFreeAsync_ptsz as *mut c_void,
        "cuMemAllocFromPoolAsync" => pool::cuMemAllocFromPoolAsync_ptsz as *mut c_void,
        _ => return None,
    })
}
