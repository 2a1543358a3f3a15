//! Copy and memset nodes: adding them (3D, 1D, to and from symbols), their parameters in a
//! graph and in an executable graph (the conversions are `graph_params`'s).
#![allow(non_snake_case)]

use cudart_rs_macros::export;
use std::ffi::c_void;

use crate::driver::types::*;
use crate::driver::Fns;
use crate::runtime::boundary::{cu, run, Res};
use crate::runtime::rt;
use crate::types::*;

use super::graph_params::*;

// ---- memcpy nodes -----------------------------------------------------------------------

/// Adds a copy node made from `c` (the current context runs it).
fn add_copy(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    make: impl FnOnce(&Fns) -> Res<CUDA_MEMCPY3D>,
) -> Res {
    let (f, c) = ctx()?;
    let p = make(f)?;
    // SAFETY: a converted copy; the driver checks the handles and the rest.
    cu(unsafe { f.cuGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p, c) })
}

fn set_copy(node: cudaGraphNode_t, make: impl FnOnce(&Fns) -> Res<CUDA_MEMCPY3D>) -> Res {
    let f = rt::ctx()?;
    let p = make(f)?;
    // SAFETY: a converted copy; the driver checks the node.
    cu(unsafe { f.cuGraphMemcpyNodeSetParams(node, &p) })
}

fn exec_set_copy(exec: cudaGraphExec_t, node: cudaGraphNode_t, make: impl FnOnce(&Fns) -> Res<CUDA_MEMCPY3D>) -> Res {
    let (f, c) = ctx()?;
    let p = make(f)?;
    // SAFETY: a converted copy; the driver checks the handles.
    cu(unsafe { f.cuGraphExecMemcpyNodeSetParams(exec, node, &p, c) })
}

/// Creates a memcpy node and adds it to a graph.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddMemcpyNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    pCopyParams: *const cudaMemcpy3DParms,
) -> cudaError_t {
    run(|| add_copy(pGraphNode, graph, pDependencies, numDependencies, |f| copy3d(f, pCopyParams)))
}

/// Creates a memcpy node to copy to a symbol on the device and adds it to a graph.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddMemcpyNodeToSymbol(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    symbol: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| {
        add_copy(pGraphNode, graph, pDependencies, numDependencies, |f| {
            copy_symbol(f, symbol, src as *mut c_void, count, offset, kind, true)
        })
    })
}

/// Creates a memcpy node to copy from a symbol on the device and adds it to a graph.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddMemcpyNodeFromSymbol(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    dst: *mut c_void,
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| {
        add_copy(pGraphNode, graph, pDependencies, numDependencies, |f| {
            copy_symbol(f, symbol, dst, count, offset, kind, false)
        })
    })
}

/// Creates a 1D memcpy node and adds it to a graph.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddMemcpyNode1D(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| add_copy(pGraphNode, graph, pDependencies, numDependencies, |f| copy1d(f, dst, src, count, kind)))
}

/// Returns a memcpy node's parameters.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphMemcpyNodeGetParams(
    node: cudaGraphNode_t,
    pNodeParams: *mut cudaMemcpy3DParms,
) -> cudaError_t {
    run(|| get_params(pNodeParams, |f, c| f.cuGraphMemcpyNodeGetParams(node, c), copy3d_back))
}

/// Sets a memcpy node's parameters.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphMemcpyNodeSetParams(
    node: cudaGraphNode_t,
    pNodeParams: *const cudaMemcpy3DParms,
) -> cudaError_t {
    run(|| set_copy(node, |f| copy3d(f, pNodeParams)))
}

/// Sets a memcpy node's parameters to copy to a symbol on the device.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphMemcpyNodeSetParamsToSymbol(
    node: cudaGraphNode_t,
    symbol: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| set_copy(node, |f| copy_symbol(f, symbol, src as *mut c_void, count, offset, kind, true)))
}

/// Sets a memcpy node's parameters to copy from a symbol on the device.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphMemcpyNodeSetParamsFromSymbol(
    node: cudaGraphNode_t,
    dst: *mut c_void,
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| set_copy(node, |f| copy_symbol(f, symbol, dst, count, offset, kind, false)))
}

/// Sets a memcpy node's parameters to perform a 1-dimensional copy.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphMemcpyNodeSetParams1D(
    node: cudaGraphNode_t,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| set_copy(node, |f| copy1d(f, dst, src, count, kind)))
}

/// Sets the parameters for a memcpy node in the given graphExec.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecMemcpyNodeSetParams(
    hGraphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    pNodeParams: *const cudaMemcpy3DParms,
) -> cudaError_t {
    run(|| exec_set_copy(hGraphExec, node, |f| copy3d(f, pNodeParams)))
}

/// Sets the parameters for a memcpy node in the given graphExec to copy to a symbol on the
/// device.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecMemcpyNodeSetParamsToSymbol(
    hGraphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    symbol: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| exec_set_copy(hGraphExec, node, |f| copy_symbol(f, symbol, src as *mut c_void, count, offset, kind, true)))
}

/// Sets the parameters for a memcpy node in the given graphExec to copy from a symbol on the
/// device.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecMemcpyNodeSetParamsFromSymbol(
    hGraphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    dst: *mut c_void,
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| exec_set_copy(hGraphExec, node, |f| copy_symbol(f, symbol, dst, count, offset, kind, false)))
}

/// Sets the parameters for a memcpy node in the given graphExec to perform a 1-dimensional
/// copy.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecMemcpyNodeSetParams1D(
    hGraphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| exec_set_copy(hGraphExec, node, |f| copy1d(f, dst, src, count, kind)))
}

// ---- memset nodes -----------------------------------------------------------------------

/// Creates a memset node and adds it to a graph.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddMemsetNode(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    numDependencies: usize,
    pMemsetParams: *const cudaMemsetParams,
) -> cudaError_t {
    run(|| {
        let (f, c) = ctx()?;
        let p = memset_params(pMemsetParams)?;
        cu(f.cuGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &p, c))
    })
}

/// Returns a memset node's parameters.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphMemsetNodeGetParams(
    node: cudaGraphNode_t,
    pNodeParams: *mut cudaMemsetParams,
) -> cudaError_t {
    run(|| {
        get_params(
            pNodeParams,
            |f, p: &mut CUDA_MEMSET_NODE_PARAMS| f.cuGraphMemsetNodeGetParams(node, p),
            |_, p| {
                Ok(cudaMemsetParams {
                    dst: p.dst as usize as *mut c_void,
                    pitch: p.pitch,
                    value: p.value,
                    elementSize: p.elementSize,
                    width: p.width,
                    height: p.height,
                })
            },
        )
    })
}

/// Sets a memset node's parameters.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphMemsetNodeSetParams(
    node: cudaGraphNode_t,
    pNodeParams: *const cudaMemsetParams,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let p = memset_params(pNodeParams)?;
        cu(f.cuGraphMemsetNodeSetParams(node, &p))
    })
}

/// Sets the parameters for a memset node in the given graphExec.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecMemsetNodeSetParams(
    hGraphExec: cudaGraphExec_t,
    node: cudaGraphNode_t,
    pNodeParams: *const cudaMemsetParams,
) -> cudaError_t {
    run(|| {
        let (f, c) = ctx()?;
        let p = memset_params(pNodeParams)?;
        cu(f.cuGraphExecMemsetNodeSetParams(hGraphExec, node, &p, c))
    })
}
