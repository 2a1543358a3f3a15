//! Runtime calls new in CUDA 13.5 whose driver calls are newer than CUDA 13.0: graph and
//! node ids, copies with attributes, location info and host functions with a sync mode.
//! Each is a translation onto its driver call; a driver without the entry point (any 13.0
//! driver) gets `cudaErrorCallRequiresNewerDriver` before any argument is judged, as
//! NVIDIA's 13.5 runtime answers on one.
#![allow(non_snake_case)]
#![cfg_attr(feature = "abi12", allow(unused_imports, dead_code))]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_int, c_uint, c_ulonglong, c_void};

use parking_lot::Mutex;

use crate::api::graph::conditional_handle_create;
use crate::api::graph_params::node_params_back;
use crate::runtime::boundary::{cu, out, run};
use crate::driver::types::{
    CUcontext, CUgraphNode, CUgraphNodeParams, CUgraphRecaptureCallback, CUmemLocation, CUmemcpyAttributes, CUresult,
    CUDA_MEMCPY3D_BATCH_OP,
};
use crate::types::cudaError;
use crate::runtime::rt;
use crate::types::*;

passthrough! {
    #[cfg(not(feature = "abi12"))]
    cudaGraphGetId(hGraph: cudaGraph_t, graphID: *mut c_uint) = ctx.cuGraphGetId(hGraph, graphID) [family = Graph] "The graph's id.";
    #[cfg(not(feature = "abi12"))]
    cudaGraphExecGetId(hGraphExec: cudaGraphExec_t, graphID: *mut c_uint) = ctx.cuGraphExecGetId(hGraphExec, graphID) [family = Graph] "The id of the graph an executable graph was instantiated from.";
    #[cfg(not(feature = "abi12"))]
    cudaGraphNodeGetContainingGraph(hNode: cudaGraphNode_t, phGraph: *mut cudaGraph_t) = ctx.cuGraphNodeGetContainingGraph(hNode, phGraph) [family = Graph] "The graph that holds a node.";
    #[cfg(not(feature = "abi12"))]
    cudaGraphNodeGetLocalId(hNode: cudaGraphNode_t, nodeId: *mut c_uint) = ctx.cuGraphNodeGetLocalId(hNode, nodeId) [family = Graph] "A node's id within its graph.";
    #[cfg(not(feature = "abi12"))]
    cudaGraphNodeGetToolsId(hNode: cudaGraphNode_t, toolsNodeId: *mut c_ulonglong) = ctx.cuGraphNodeGetToolsId(hNode, toolsNodeId) [family = Graph] "A node's id for tools, unique in the process.";
    #[cfg(not(feature = "abi12"))]
    cudaLaunchHostFunc_v2(stream: cudaStream_t, r#fn: cudaHostFn_t, userData: *mut c_void, syncMode: c_uint) = ctx.cuLaunchHostFunc_v2(stream, r#fn, userData, syncMode) [family = Launch, per_thread = ptsz] "Enqueues a host function call in a stream, with a synchronisation mode.";
}

/// An asynchronous copy described by copy attributes (`cudaMemcpyAttributes` has the driver's
/// layout).
#[cfg(not(feature = "abi12"))]
#[export(family = Copy, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyWithAttributesAsync(
    dst: *mut c_void,
    src: *const c_void,
    size: usize,
    attr: *mut cudaMemcpyAttributes,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        cu(f.cuMemcpyWithAttributesAsync(dst as u64, src as u64, size, attr.cast::<CUmemcpyAttributes>(), stream))
    })
}

/// An asynchronous 3D copy described by one batch operation (driver layout).
#[cfg(not(feature = "abi12"))]
#[export(family = Copy, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy3DWithAttributesAsync(
    op: *mut cudaMemcpy3DBatchOp,
    flags: c_ulonglong,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        cu(f.cuMemcpy3DWithAttributesAsync(op.cast::<CUDA_MEMCPY3D_BATCH_OP>(), flags, stream))
    })
}

/// Where a range of memory resides (`cudaMemLocation` has the driver's layout).
#[cfg(not(feature = "abi12"))]
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemGetLocationInfo(
    devPtr: *mut c_void,
    size: usize,
    summaryGranularity: usize,
    samplingGranularity: usize,
    location_out: *mut cudaMemLocation,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        cu(f.cuMemGetLocationInfo(devPtr as u64, size, summaryGranularity, samplingGranularity, location_out.cast::<CUmemLocation>()))
    })
}

/// A node's parameters, in the runtime's form (a CUDA 13.2 driver call). A NULL out pointer
/// is `cudaErrorInvalidValue` before the driver is asked, as NVIDIA's 13.5 runtime answers.
#[cfg(not(feature = "abi12"))]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetParams(node: cudaGraphNode_t, nodeParams: *mut cudaGraphNodeParams) -> cudaError_t {
    run(|| {
        let o = out(nodeParams)?;
        let f = rt::ctx()?;
        let mut d = CUgraphNodeParams::default();
        cu(f.cuGraphNodeGetParams(node, &mut d))?;
        *o = node_params_back(f, &d)?;
        Ok(())
    })
}

/// A conditional handle of a graph, for the given execution context (NULL: the context
/// current on this thread, as `cudaGraphConditionalHandleCreate` takes it).
#[cfg(not(feature = "abi12"))]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphConditionalHandleCreate_v2(
    pHandle_out: *mut cudaGraphConditionalHandle,
    graph: cudaGraph_t,
    ctx: cudaExecutionContext_t,
    defaultLaunchValue: c_uint,
    flags: c_uint,
) -> cudaError_t {
    run(|| {
        conditional_handle_create(pHandle_out, graph, ctx as CUcontext, defaultLaunchValue, flags)
    })
}

/// The recapture callbacks in use, one per stream (the driver holds a pointer to it until the
/// capture ends; a stream's next recapture replaces it).
#[cfg(not(feature = "abi12"))]
static RECAPTURE: Mutex<Vec<(usize, Recapture)>> = Mutex::new(Vec::new());

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
    data: *mut c_void,
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
        let conv = |p: *const CUgraphNodeParams| unsafe { p.as_ref() }.and_then(|d| node_params_back(f, d).ok());
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
#[export(family = Graph, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaStreamBeginRecaptureToGraph(
    stream: cudaStream_t,
    mode: raw::cudaStreamCaptureMode,
    graph: cudaGraph_t,
    callbackData: *mut cudaGraphRecaptureCallbackData,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let (cb, data): (CUgraphRecaptureCallback, *mut c_void) = match callbackData.as_ref() {
            Some(d) if d.callbackFunc.is_some() => {
                let mut b = Box::new(*d);
                let p = &mut *b as *mut cudaGraphRecaptureCallbackData as *mut c_void;
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

/// `cudaSubgridCreate`, `cudaSubgridWorkerGridCreate`, `cudaSubgridWorksetCreate`: exported by
/// NVIDIA's 13.5 runtime, declared by no header, and answered with
/// `cudaErrorCallRequiresNewerDriver` whatever the arguments (measured with all-zero
/// arguments on the 13.0 driver); no driver declares a call behind them.
/// cbindgen:ignore
#[cfg(not(feature = "abi12"))]
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaSubgridCreate() -> cudaError_t {
    run(|| Err(cudaError::cudaErrorCallRequiresNewerDriver))
}

/// See [`cudaSubgridCreate`].
/// cbindgen:ignore
#[cfg(not(feature = "abi12"))]
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaSubgridWorkerGridCreate() -> cudaError_t {
    run(|| Err(cudaError::cudaErrorCallRequiresNewerDriver))
}

/// See [`cudaSubgridCreate`].
/// cbindgen:ignore
#[cfg(not(feature = "abi12"))]
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaSubgridWorksetCreate() -> cudaError_t {
    run(|| Err(cudaError::cudaErrorCallRequiresNewerDriver))
}
