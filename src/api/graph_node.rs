//! The other graph nodes: host, child graph, empty, event record and wait, external
//! semaphore, memory allocation and free nodes, and the generic `cudaGraphAddNode`/
//! `cudaGraphNodeSetParams`/`cudaGraphExecNodeSetParams` (the conversions are `graph_params`'s).
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::c_void;

use crate::driver::types::*;
use crate::runtime::boundary::{cu, out, run};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

use super::graph_params::*;

// ---- host nodes -------------------------------------------------------------------------

/// Creates a host execution node and adds it to a graph.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddHostNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    pNodeParams: *const cudaHostNodeParams,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let p = host_params(pNodeParams)?;
        cu(f.cuGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies, &p))
    })
}

/// Returns a host node's parameters.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphHostNodeGetParams(
    node: cudaGraphNode_t,
    pNodeParams: *mut cudaHostNodeParams,
) -> cudaError_t {
    run(|| {
        get_params(
            pNodeParams,
            |f, p: &mut CUDA_HOST_NODE_PARAMS| f.cuGraphHostNodeGetParams(node, p),
            |_, p| Ok(cudaHostNodeParams { r#fn: p.fn_, userData: p.userData }),
        )
    })
}

/// Sets a host node's parameters.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphHostNodeSetParams(
    node: cudaGraphNode_t,
    pNodeParams: *const cudaHostNodeParams,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let p = host_params(pNodeParams)?;
        cu(f.cuGraphHostNodeSetParams(node, &p))
    })
}

/// Sets the parameters for a host node in the given graphExec.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecHostNodeSetParams(
    hGraphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    pNodeParams: *const cudaHostNodeParams,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let p = host_params(pNodeParams)?;
        cu(f.cuGraphExecHostNodeSetParams(hGraphExec, node, &p))
    })
}

// ---- child graph and empty nodes ----------------------------------------------------------

passthrough! {
    cudaGraphAddChildGraphNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, childGraph: cudaGraph_t)
        = ctx.cuGraphAddChildGraphNode(pGraphNode, graph, pDependencies, numDependencies, childGraph) [family = Graph]
        "Creates a child graph node and adds it to a graph.";
    cudaGraphChildGraphNodeGetGraph(node: cudaGraphNode_t, pGraph: *mut cudaGraph_t)
        = ctx.cuGraphChildGraphNodeGetGraph(node, pGraph) [family = Graph]
        "Gets a handle to the embedded graph of a child graph node.";
    cudaGraphExecChildGraphNodeSetParams(hGraphExec: cudaGraphExec_t, node: cudaGraphNode_t, childGraph: cudaGraph_t)
        = ctx.cuGraphExecChildGraphNodeSetParams(hGraphExec, node, childGraph) [family = Graph]
        "Updates node parameters in the child graph node in the given graphExec.";
    cudaGraphAddEmptyNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t, pDependencies: *const cudaGraphNode_t,
        numDependencies: usize)
        = ctx.cuGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies) [family = Graph]
        "Creates an empty node and adds it to a graph.";
}

// ---- event nodes ------------------------------------------------------------------------

passthrough! {
    cudaGraphAddEventRecordNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, event: cudaEvent_t)
        = ctx.cuGraphAddEventRecordNode(pGraphNode, graph, pDependencies, numDependencies, event) [family = Graph]
        "Creates an event record node and adds it to a graph.";
    cudaGraphEventRecordNodeGetEvent(node: cudaGraphNode_t, event_out: *mut cudaEvent_t)
        = ctx.cuGraphEventRecordNodeGetEvent(node, event_out) [family = Graph]
        "Returns the event associated with an event record node.";
    cudaGraphEventRecordNodeSetEvent(node: cudaGraphNode_t, event: cudaEvent_t)
        = ctx.cuGraphEventRecordNodeSetEvent(node, event) [family = Graph] "Sets an event record node's event.";
    cudaGraphExecEventRecordNodeSetEvent(hGraphExec: cudaGraphExec_t, hNode: cudaGraphNode_t, event: cudaEvent_t)
        = ctx.cuGraphExecEventRecordNodeSetEvent(hGraphExec, hNode, event) [family = Graph]
        "Sets the event for an event record node in the given graphExec.";
    cudaGraphAddEventWaitNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, event: cudaEvent_t)
        = ctx.cuGraphAddEventWaitNode(pGraphNode, graph, pDependencies, numDependencies, event) [family = Graph]
        "Creates an event wait node and adds it to a graph.";
    cudaGraphEventWaitNodeGetEvent(node: cudaGraphNode_t, event_out: *mut cudaEvent_t)
        = ctx.cuGraphEventWaitNodeGetEvent(node, event_out) [family = Graph]
        "Returns the event associated with an event wait node.";
    cudaGraphEventWaitNodeSetEvent(node: cudaGraphNode_t, event: cudaEvent_t)
        = ctx.cuGraphEventWaitNodeSetEvent(node, event) [family = Graph] "Sets an event wait node's event.";
    cudaGraphExecEventWaitNodeSetEvent(hGraphExec: cudaGraphExec_t, hNode: cudaGraphNode_t, event: cudaEvent_t)
        = ctx.cuGraphExecEventWaitNodeSetEvent(hGraphExec, hNode, event) [family = Graph]
        "Sets the event for an event wait node in the given graphExec.";
}

// ---- external semaphore nodes -----------------------------------------------------------

// The adding and setting exports are rows (the parameters checked by `semaphores!`); the
// getters check their out pointer before the context, and stay functions.

/// The caller's semaphore node parameters as the driver takes them, or
/// `cudaErrorInvalidValue` for NULL parameters and for a non-empty set whose semaphore or
/// parameter array is NULL (NVIDIA's runtime hands those to the driver, which crashes on
/// them: the H100, `ctest/graph_node_errors.c`).
macro_rules! semaphores {
    ($p:expr) => {{
        let p = given($p)?;
        if p.numExtSems != 0 && (p.extSemArray.is_null() || p.paramsArray.is_null()) {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        p as *const _ as *const c_void
    }};
}

passthrough! {
    cudaGraphAddExternalSemaphoresSignalNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t, pDependencies: *const cudaGraphNode_t, numDependencies: usize, nodeParams: *const cudaExternalSemaphoreSignalNodeParams) = ctx.cuGraphAddExternalSemaphoresSignalNode(pGraphNode, graph, pDependencies, numDependencies, semaphores!(nodeParams)) [family = Graph] "Creates an external semaphore signal node and adds it to a graph.";
}

/// Returns an external semaphore signal node's parameters.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExternalSemaphoresSignalNodeGetParams(
    hNode: cudaGraphNode_t,
    params_out: *mut cudaExternalSemaphoreSignalNodeParams,
) -> cudaError_t {
    run(|| {
        let o = out(params_out)?;
        let f = rt::ctx()?;
        cu(f.cuGraphExternalSemaphoresSignalNodeGetParams(hNode, o as *mut _ as *mut c_void))
    })
}

passthrough! {
    cudaGraphExternalSemaphoresSignalNodeSetParams(hNode: cudaGraphNode_t, nodeParams: *const cudaExternalSemaphoreSignalNodeParams) = ctx.cuGraphExternalSemaphoresSignalNodeSetParams(hNode, semaphores!(nodeParams)) [family = Graph] "Sets an external semaphore signal node's parameters.";
    cudaGraphExecExternalSemaphoresSignalNodeSetParams(hGraphExec: cudaGraphExec_t, hNode: cudaGraphNode_t, nodeParams: *const cudaExternalSemaphoreSignalNodeParams) = ctx.cuGraphExecExternalSemaphoresSignalNodeSetParams(hGraphExec, hNode, semaphores!(nodeParams)) [family = Graph] "Sets the parameters for an external semaphore signal node in the given graphExec.";
    cudaGraphAddExternalSemaphoresWaitNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t, pDependencies: *const cudaGraphNode_t, numDependencies: usize, nodeParams: *const cudaExternalSemaphoreWaitNodeParams) = ctx.cuGraphAddExternalSemaphoresWaitNode(pGraphNode, graph, pDependencies, numDependencies, semaphores!(nodeParams)) [family = Graph] "Creates an external semaphore wait node and adds it to a graph.";
}

/// Returns an external semaphore wait node's parameters.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExternalSemaphoresWaitNodeGetParams(
    hNode: cudaGraphNode_t,
    params_out: *mut cudaExternalSemaphoreWaitNodeParams,
) -> cudaError_t {
    run(|| {
        let o = out(params_out)?;
        let f = rt::ctx()?;
        cu(f.cuGraphExternalSemaphoresWaitNodeGetParams(hNode, o as *mut _ as *mut c_void))
    })
}

passthrough! {
    cudaGraphExternalSemaphoresWaitNodeSetParams(hNode: cudaGraphNode_t, nodeParams: *const cudaExternalSemaphoreWaitNodeParams) = ctx.cuGraphExternalSemaphoresWaitNodeSetParams(hNode, semaphores!(nodeParams)) [family = Graph] "Sets an external semaphore wait node's parameters.";
    cudaGraphExecExternalSemaphoresWaitNodeSetParams(hGraphExec: cudaGraphExec_t, hNode: cudaGraphNode_t, nodeParams: *const cudaExternalSemaphoreWaitNodeParams) = ctx.cuGraphExecExternalSemaphoresWaitNodeSetParams(hGraphExec, hNode, semaphores!(nodeParams)) [family = Graph] "Sets the parameters for an external semaphore wait node in the given graphExec.";
}

// ---- memory allocation and free nodes ---------------------------------------------------

/// Creates an allocation node and adds it to a graph. The address of the allocation is
/// written to `nodeParams->dptr`.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddMemAllocNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    nodeParams: *mut cudaMemAllocNodeParams,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let p = out(nodeParams)?;
        let mut d = alloc(&p.poolProps, p.accessDescs, p.accessDescCount, p.bytesize)?;
        cu(f.cuGraphAddMemAllocNode(pGraphNode, graph, pDependencies, numDependencies, &mut d))?;
        p.dptr = d.dptr as usize as *mut c_void;
        Ok(())
    })
}

/// Returns a memory alloc node's parameters.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphMemAllocNodeGetParams(
    node: cudaGraphNode_t,
    params_out: *mut cudaMemAllocNodeParams,
) -> cudaError_t {
    run(|| get_params(params_out, |f, d| f.cuGraphMemAllocNodeGetParams(node, d), |_, d| Ok(alloc_back(d))))
}

passthrough! {
    cudaGraphAddMemFreeNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t, pDependencies: *const cudaGraphNode_t,
        numDependencies: usize, dptr: *mut c_void)
        = ctx.cuGraphAddMemFreeNode(pGraphNode, graph, pDependencies, numDependencies, dptr as CUdeviceptr)
        [family = Graph] "Creates a memory free node and adds it to a graph.";
}

/// Returns a memory free node's parameters.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphMemFreeNodeGetParams(node: cudaGraphNode_t, dptr_out: *mut c_void) -> cudaError_t {
    run(|| {
        let o = out(dptr_out as *mut CUdeviceptr)?;
        let f = rt::ctx()?;
        cu(f.cuGraphMemFreeNodeGetParams(node, o))
    })
}

// ---- any node ---------------------------------------------------------------------------

/// Adds a node of arbitrary type to a graph.
#[cfg(not(feature = "abi12"))]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    dependencyData: *const cudaGraphEdgeData,
    numDependencies: usize,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    run(|| add_node(pGraphNode, graph, pDependencies, Some(dependencyData), numDependencies, nodeParams))
}

/// Adds a node of arbitrary type to a graph.
#[cfg(feature = "abi12")]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    run(|| add_node(pGraphNode, graph, pDependencies, None, numDependencies, nodeParams))
}

/// Adds a node of arbitrary type to a graph (12.3+).
#[cfg(feature = "abi12")]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddNode_v2(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    dependencyData: *const cudaGraphEdgeData,
    numDependencies: usize,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    run(|| add_node(pGraphNode, graph, pDependencies, Some(dependencyData), numDependencies, nodeParams))
}

/// Updates a graph node's parameters.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeSetParams(
    node: cudaGraphNode_t,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    run(|| {
        let (f, c) = ctx()?;
        let mut d = node_params(f, c, given(nodeParams)?)?;
        cu(f.cuGraphNodeSetParams(node, &mut d))
    })
}

/// A node's parameters, in the runtime's form (a CUDA 13.2 driver call). A NULL out pointer
/// is `cudaErrorInvalidValue` before the driver is asked, as NVIDIA's 13.5 runtime answers.
#[cfg(not(feature = "abi12"))]
#[export(family = Graph, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetParams(
    node: cudaGraphNode_t,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    run(|| get_params(nodeParams, |f, d| f.cuGraphNodeGetParams(node, d), node_params_back))
}

/// Updates a graph node's parameters in an instantiated graph.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecNodeSetParams(
    graphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    nodeParams: *mut cudaGraphNodeParams,
) -> cudaError_t {
    run(|| {
        let (f, c) = ctx()?;
        let mut d = node_params(f, c, given(nodeParams)?)?;
        cu(f.cuGraphExecNodeSetParams(graphExec, node, &mut d))
    })
}
