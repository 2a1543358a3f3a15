//! Kernel nodes: adding them, their parameters in a graph and in an executable graph, and
//! their attributes (the conversions are `graph_params`'s).
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::c_void;

use crate::runtime::boundary::{cu, run};
use crate::runtime::rt;
use crate::types::*;

use super::graph_params::*;

// ---- kernel nodes -----------------------------------------------------------------------

/// Creates a kernel execution node and adds it to a graph.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddKernelNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    pNodeParams: *const cudaKernelNodeParams,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let k = kernel_params(f, pNodeParams)?;
        cu(f.cuGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, &k))
    })
}

/// Returns a kernel node's parameters.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphKernelNodeGetParams(
    node: cudaGraphNode_t,
    pNodeParams: *mut cudaKernelNodeParams,
) -> cudaError_t {
    run(|| get_params(pNodeParams, |f, k| f.cuGraphKernelNodeGetParams(node, k), |f, k| Ok(kernel_params_back(f, k))))
}

/// Sets a kernel node's parameters.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphKernelNodeSetParams(
    node: cudaGraphNode_t,
    pNodeParams: *const cudaKernelNodeParams,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let k = kernel_params(f, pNodeParams)?;
        cu(f.cuGraphKernelNodeSetParams(node, &k))
    })
}

// NVIDIA's 12.9 header names the parameters (hSrc, hDst) and 13.0's (hDst, hSrc); the first
// is passed on as the driver's first, its destination, in both ABIs.
passthrough! {
    cudaGraphKernelNodeCopyAttributes(hDst: cudaGraphNode_t, hSrc: cudaGraphNode_t)
        = ctx.cuGraphKernelNodeCopyAttributes(hDst, hSrc) [family = Graph]
        "Copies attributes from source node to destination node.";
    cudaGraphKernelNodeGetAttribute(hNode: cudaGraphNode_t, attr: raw::cudaLaunchAttributeID,
        value_out: *mut cudaLaunchAttributeValue)
        = ctx.cuGraphKernelNodeGetAttribute(hNode, attr.0, value_out as *mut c_void) [family = Graph]
        "Queries node attribute.";
    cudaGraphKernelNodeSetAttribute(hNode: cudaGraphNode_t, attr: raw::cudaLaunchAttributeID,
        value: *const cudaLaunchAttributeValue)
        = ctx.cuGraphKernelNodeSetAttribute(hNode, attr.0, value as *const c_void) [family = Graph]
        "Sets node attribute.";
}

/// Sets the parameters for a kernel node in the given graphExec.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecKernelNodeSetParams(
    hGraphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    pNodeParams: *const cudaKernelNodeParams,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let k = kernel_params(f, pNodeParams)?;
        cu(f.cuGraphExecKernelNodeSetParams(hGraphExec, node, &k))
    })
}
