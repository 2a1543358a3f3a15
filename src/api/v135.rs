//! Runtime calls new in CUDA 13.5 whose driver calls are newer than CUDA 13.0: graph and
//! node ids, copies with attributes, location info and host functions with a sync mode.
//! Each is a translation onto its driver call; a driver without the entry point (any 13.0
//! driver) gets `cudaErrorCallRequiresNewerDriver` before any argument is judged, as
//! NVIDIA's 13.5 runtime answers on one.
#![allow(non_snake_case)]

use std::ffi::{c_uint, c_ulonglong, c_void};

use crate::boundary::{cu, run};
use crate::driver::types::{CUmemLocation, CUmemcpyAttributes, CUDA_MEMCPY3D_BATCH_OP};
use crate::rt;
use crate::types::*;

/// The graph's id.
#[cfg(not(feature = "abi12"))]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphGetId(hGraph: cudaGraph_t, graphID: *mut c_uint) -> cudaError_t {
    run("cudaGraphGetId", || cu(rt::ctx()?.cuGraphGetId(hGraph, graphID)))
}

/// The id of the graph an executable graph was instantiated from.
#[cfg(not(feature = "abi12"))]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecGetId(hGraphExec: cudaGraphExec_t, graphID: *mut c_uint) -> cudaError_t {
    run("cudaGraphExecGetId", || cu(rt::ctx()?.cuGraphExecGetId(hGraphExec, graphID)))
}

/// The graph that holds a node.
#[cfg(not(feature = "abi12"))]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetContainingGraph(hNode: cudaGraphNode_t, phGraph: *mut cudaGraph_t) -> cudaError_t {
    run("cudaGraphNodeGetContainingGraph", || cu(rt::ctx()?.cuGraphNodeGetContainingGraph(hNode, phGraph)))
}

/// A node's id within its graph.
#[cfg(not(feature = "abi12"))]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetLocalId(hNode: cudaGraphNode_t, nodeId: *mut c_uint) -> cudaError_t {
    run("cudaGraphNodeGetLocalId", || cu(rt::ctx()?.cuGraphNodeGetLocalId(hNode, nodeId)))
}

/// A node's id for tools, unique in the process.
#[cfg(not(feature = "abi12"))]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetToolsId(hNode: cudaGraphNode_t, toolsNodeId: *mut c_ulonglong) -> cudaError_t {
    run("cudaGraphNodeGetToolsId", || cu(rt::ctx()?.cuGraphNodeGetToolsId(hNode, toolsNodeId)))
}

/// An asynchronous copy described by copy attributes (`cudaMemcpyAttributes` has the driver's
/// layout).
#[cfg(not(feature = "abi12"))]
// also: cudaMemcpyWithAttributesAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyWithAttributesAsync(
    dst: *mut c_void,
    src: *const c_void,
    size: usize,
    attr: *mut cudaMemcpyAttributes,
    stream: cudaStream_t,
) -> cudaError_t {
    run("cudaMemcpyWithAttributesAsync", || {
        let f = rt::ctx()?;
        cu(f.cuMemcpyWithAttributesAsync(dst as u64, src as u64, size, attr.cast::<CUmemcpyAttributes>(), stream))
    })
}

/// An asynchronous 3D copy described by one batch operation (driver layout).
#[cfg(not(feature = "abi12"))]
// also: cudaMemcpy3DWithAttributesAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpy3DWithAttributesAsync(
    op: *mut cudaMemcpy3DBatchOp,
    flags: c_ulonglong,
    stream: cudaStream_t,
) -> cudaError_t {
    run("cudaMemcpy3DWithAttributesAsync", || {
        let f = rt::ctx()?;
        cu(f.cuMemcpy3DWithAttributesAsync(op.cast::<CUDA_MEMCPY3D_BATCH_OP>(), flags, stream))
    })
}

/// Where a range of memory resides (`cudaMemLocation` has the driver's layout).
#[cfg(not(feature = "abi12"))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemGetLocationInfo(
    devPtr: *mut c_void,
    size: usize,
    summaryGranularity: usize,
    samplingGranularity: usize,
    location_out: *mut cudaMemLocation,
) -> cudaError_t {
    run("cudaMemGetLocationInfo", || {
        let f = rt::ctx()?;
        cu(f.cuMemGetLocationInfo(devPtr as u64, size, summaryGranularity, samplingGranularity, location_out.cast::<CUmemLocation>()))
    })
}

/// Enqueues a host function call in a stream, with a synchronisation mode.
#[cfg(not(feature = "abi12"))]
// also: cudaLaunchHostFunc_v2_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchHostFunc_v2(
    stream: cudaStream_t,
    r#fn: cudaHostFn_t,
    userData: *mut c_void,
    syncMode: c_uint,
) -> cudaError_t {
    run("cudaLaunchHostFunc_v2", || cu(rt::ctx()?.cuLaunchHostFunc_v2(stream, r#fn, userData, syncMode)))
}
