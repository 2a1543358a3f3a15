//! Stream capture exports: beginning and ending a capture, a stream's capture state and
//! dependency set, and the thread's capture mode.
//!
//! As in NVIDIA's runtime, each is one driver call: the stream goes to the driver as given
//! (0 is the legacy stream, or the per-thread one in the `_ptsz` exports; `cudaStreamLegacy`
//! and `cudaStreamPerThread` are the driver's own values), and which calls are illegal during
//! a capture, and what that does to the capture, is the driver's rule. The runtime's part is
//! the capture status: a required out pointer, checked before anything else, written only
//! when the driver succeeds, and a status the runtime does not know is `cudaErrorUnknown`.
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_int, c_uint, c_ulonglong};

#[cfg(not(feature = "abi12"))]
use crate::driver::types::*;
use crate::runtime::boundary::{cu, out, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

/// Stores a driver capture status in the caller's out pointer: one of the three statuses the
/// runtime defines, anything else `cudaErrorUnknown` (nothing stored), as NVIDIA's runtime does.
fn put_status(p: &mut raw::cudaStreamCaptureStatus, s: c_int) -> Res {
    if !(0..=2).contains(&s) {
        return Err(cudaError::cudaErrorUnknown);
    }
    *p = raw::cudaStreamCaptureStatus(s);
    Ok(())
}

passthrough! {
    cudaStreamBeginCapture(stream: cudaStream_t, mode: raw::cudaStreamCaptureMode)
        = ctx.cuStreamBeginCapture(stream, mode.0) [family = Graph, per_thread = ptsz]
        "Begins graph capture on a stream.";
    cudaStreamEndCapture(stream: cudaStream_t, pGraph: *mut cudaGraph_t)
        = ctx.cuStreamEndCapture(stream, pGraph) [family = Graph, per_thread = ptsz, sem = Create(Graph, pGraph)]
        "Ends capture on a stream, returning the captured graph.";
}

/// Begins graph capture on a stream to an existing graph.
#[export(family = Graph, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamBeginCaptureToGraph(
    stream: cudaStream_t,
    graph: cudaGraph_t,
    dependencies: *const cudaGraphNode_t,
    dependencyData: *const cudaGraphEdgeData,
    numDependencies: usize,
    mode: raw::cudaStreamCaptureMode,
) -> cudaError_t {
    run(|| {
        cu(rt::ctx()?.cuStreamBeginCaptureToGraph(stream, graph, dependencies, dependencyData, numDependencies, mode.0))
    })
}

// NVIDIA's runtime hands a NULL mode pointer to the driver, which crashes on it; here it is
// cudaErrorInvalidValue.
/// Swaps the stream capture interaction mode for a thread.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaThreadExchangeStreamCaptureMode(mode: *mut raw::cudaStreamCaptureMode) -> cudaError_t {
    run(|| {
        let m = out(mode)?;
        cu(rt::ctx()?.cuThreadExchangeStreamCaptureMode(&mut m.0))
    })
}

/// Returns a stream's capture status.
#[export(family = Graph, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamIsCapturing(
    stream: cudaStream_t,
    pCaptureStatus: *mut raw::cudaStreamCaptureStatus,
) -> cudaError_t {
    run(|| {
        let p = out(pCaptureStatus)?;
        let f = rt::ctx()?;
        let mut s: c_int = 0;
        cu(f.cuStreamIsCapturing(stream, &mut s))?;
        put_status(p, s)
    })
}

/// `cudaStreamGetCaptureInfo` with every out pointer of the CUDA 12.3 form: the status is
/// required; the others go to the driver as given.
#[allow(clippy::too_many_arguments)]
unsafe fn capture_info(
    stream: cudaStream_t,
    captureStatus_out: *mut raw::cudaStreamCaptureStatus,
    id_out: *mut c_ulonglong,
    graph_out: *mut cudaGraph_t,
    dependencies_out: *mut *const cudaGraphNode_t,
    edgeData_out: Option<*mut *const cudaGraphEdgeData>,
    numDependencies_out: *mut usize,
) -> Res {
    let p = out(captureStatus_out)?;
    let f = rt::ctx()?;
    let mut s: c_int = 0;
    cu(match edgeData_out {
        Some(e) => {
            f.cuStreamGetCaptureInfo_v3(stream, &mut s, id_out, graph_out, dependencies_out, e, numDependencies_out)
        }
        None => f.cuStreamGetCaptureInfo_v2(stream, &mut s, id_out, graph_out, dependencies_out, numDependencies_out),
    })?;
    put_status(p, s)
}

/// Query a stream's capture state.
#[cfg(not(feature = "abi12"))]
#[export(family = Graph, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetCaptureInfo(
    stream: cudaStream_t,
    captureStatus_out: *mut raw::cudaStreamCaptureStatus,
    id_out: *mut c_ulonglong,
    graph_out: *mut cudaGraph_t,
    dependencies_out: *mut *const cudaGraphNode_t,
    edgeData_out: *mut *const cudaGraphEdgeData,
    numDependencies_out: *mut usize,
) -> cudaError_t {
    run(|| {
        capture_info(
            stream,
            captureStatus_out,
            id_out,
            graph_out,
            dependencies_out,
            Some(edgeData_out),
            numDependencies_out,
        )
    })
}

/// Query capture status of a stream: the CUDA 10.1 form, which the CUDA 12 headers no longer
/// declare (their `cudaStreamGetCaptureInfo` is a macro for `cudaStreamGetCaptureInfo_v2`).
/// NVIDIA's runtime answers it with the CUDA 11.3 driver call and no graph or dependencies.
/// cbindgen:ignore
#[cfg(feature = "abi12")]
#[export(family = Graph, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetCaptureInfo(
    stream: cudaStream_t,
    captureStatus_out: *mut raw::cudaStreamCaptureStatus,
    id_out: *mut c_ulonglong,
) -> cudaError_t {
    run(|| {
        use std::ptr::null_mut;
        capture_info(stream, captureStatus_out, id_out, null_mut(), null_mut(), None, null_mut())
    })
}

/// Query a stream's capture state (11.3+).
#[cfg(feature = "abi12")]
#[export(family = Graph, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetCaptureInfo_v2(
    stream: cudaStream_t,
    captureStatus_out: *mut raw::cudaStreamCaptureStatus,
    id_out: *mut c_ulonglong,
    graph_out: *mut cudaGraph_t,
    dependencies_out: *mut *const cudaGraphNode_t,
    numDependencies_out: *mut usize,
) -> cudaError_t {
    run(|| capture_info(stream, captureStatus_out, id_out, graph_out, dependencies_out, None, numDependencies_out))
}

/// Query a stream's capture state (12.3+).
#[cfg(feature = "abi12")]
#[export(family = Graph, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamGetCaptureInfo_v3(
    stream: cudaStream_t,
    captureStatus_out: *mut raw::cudaStreamCaptureStatus,
    id_out: *mut c_ulonglong,
    graph_out: *mut cudaGraph_t,
    dependencies_out: *mut *const cudaGraphNode_t,
    edgeData_out: *mut *const cudaGraphEdgeData,
    numDependencies_out: *mut usize,
) -> cudaError_t {
    run(|| {
        capture_info(
            stream,
            captureStatus_out,
            id_out,
            graph_out,
            dependencies_out,
            Some(edgeData_out),
            numDependencies_out,
        )
    })
}

/// Update the set of dependencies in a capturing stream.
#[cfg(not(feature = "abi12"))]
#[export(family = Graph, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamUpdateCaptureDependencies(
    stream: cudaStream_t,
    dependencies: *mut cudaGraphNode_t,
    dependencyData: *const cudaGraphEdgeData,
    numDependencies: usize,
    flags: c_uint,
) -> cudaError_t {
    run(|| {
        cu(rt::ctx()?.cuStreamUpdateCaptureDependencies_v2(
            stream,
            dependencies,
            dependencyData,
            numDependencies,
            flags,
        ))
    })
}

/// Update the set of dependencies in a capturing stream (11.3+).
#[cfg(feature = "abi12")]
#[export(family = Graph, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamUpdateCaptureDependencies(
    stream: cudaStream_t,
    dependencies: *mut cudaGraphNode_t,
    numDependencies: usize,
    flags: c_uint,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuStreamUpdateCaptureDependencies_v1(stream, dependencies, numDependencies, flags)))
}

/// Update the set of dependencies in a capturing stream (12.3+).
#[cfg(feature = "abi12")]
#[export(family = Graph, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamUpdateCaptureDependencies_v2(
    stream: cudaStream_t,
    dependencies: *mut cudaGraphNode_t,
    dependencyData: *const cudaGraphEdgeData,
    numDependencies: usize,
    flags: c_uint,
) -> cudaError_t {
    run(|| {
        cu(rt::ctx()?.cuStreamUpdateCaptureDependencies_v2(
            stream,
            dependencies,
            dependencyData,
            numDependencies,
            flags,
        ))
    })
}

/// The recapture callbacks in use, one per stream (the driver holds a pointer to it until the
/// capture ends; a stream's next recapture replaces it).
#[cfg(not(feature = "abi12"))]
static RECAPTURE: parking_lot::Mutex<Vec<(usize, Recapture)>> = parking_lot::Mutex::new(Vec::new());

/// A program's recapture callback and its data, kept where the driver can reach them.
#[cfg(not(feature = "abi12"))]
struct Recapture(#[allow(dead_code)] Box<cudaGraphRecaptureCallbackData>);
// SAFETY: the program's data pointer is only handed back to the program's callback.
#[cfg(not(feature = "abi12"))]
unsafe impl Send for Recapture {}

/// The driver's recapture callback: the node parameters converted to the runtime's, the
/// program's callback called; its error (any but cudaSuccess) ends the recapture, reported to
/// the driver as `CUDA_ERROR_UNKNOWN`.
#[cfg(not(feature = "abi12"))]
unsafe extern "C" fn recapture_callback(
    data: *mut std::ffi::c_void,
    node: CUgraphNode,
    original: *const CUgraphNodeParams,
    recaptured: *const CUgraphNodeParams,
    status: c_int,
) -> CUresult {
    const CUDA_ERROR_UNKNOWN: CUresult = 999;
    let r = std::panic::catch_unwind(|| {
        // SAFETY: `data` is a RECAPTURE entry, alive while the capture is.
        let cb = unsafe { &*(data as *const cudaGraphRecaptureCallbackData) };
        let Some(func) = cb.callbackFunc else { return 0 };
        let Ok(f) = rt::fns() else { return CUDA_ERROR_UNKNOWN };
        // SAFETY: the driver's parameter blocks, valid during the callback.
        let conv = |p: *const CUgraphNodeParams| {
            unsafe { p.as_ref() }.and_then(|d| super::graph_params::node_params_back(f, d).ok())
        };
        let (o, n) = (conv(original), conv(recaptured));
        let ptr = |p: &Option<cudaGraphNodeParams>| p.as_ref().map_or(std::ptr::null(), |p| p as *const _);
        // SAFETY: the program's callback with its own data.
        let e = unsafe { func(cb.userData, node.cast(), ptr(&o), ptr(&n), raw::cudaGraphRecaptureStatus(status)) };
        if e == cudaError::cudaSuccess {
            0
        } else {
            CUDA_ERROR_UNKNOWN
        }
    });
    r.unwrap_or(CUDA_ERROR_UNKNOWN)
}

/// Begins capturing a stream into an existing graph (a CUDA 13.3 driver call), calling the
/// program back for each node whose parameters differ.
#[cfg(not(feature = "abi12"))]
#[export(family = Graph, per_thread = ptsz, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamBeginRecaptureToGraph(
    stream: cudaStream_t,
    mode: raw::cudaStreamCaptureMode,
    graph: cudaGraph_t,
    callbackData: *mut cudaGraphRecaptureCallbackData,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let (cb, data): (CUgraphRecaptureCallback, *mut std::ffi::c_void) = match callbackData.as_ref() {
            Some(d) if d.callbackFunc.is_some() => {
                let mut b = Box::new(*d);
                let p = &mut *b as *mut cudaGraphRecaptureCallbackData as *mut std::ffi::c_void;
                let mut all = RECAPTURE.lock();
                all.retain(|e| e.0 != stream as usize);
                all.push((stream as usize, Recapture(b)));
                (Some(recapture_callback), p)
            }
            _ => (None, std::ptr::null_mut()),
        };
        cu(f.cuStreamBeginRecaptureToGraph(stream.cast(), mode.0, graph, cb, data))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_the_runtime_knows_are_stored_others_are_unknown() {
        let mut s = raw::cudaStreamCaptureStatus(7);
        for v in 0..=2 {
            assert_eq!(put_status(&mut s, v), Ok(()));
            assert_eq!(s.0, v);
        }
        assert_eq!(put_status(&mut s, 3), Err(cudaError::cudaErrorUnknown));
        assert_eq!(put_status(&mut s, -1), Err(cudaError::cudaErrorUnknown));
        assert_eq!(s.0, 2);
    }
}
