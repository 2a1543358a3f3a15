//! The graph core: creating, cloning and destroying graphs, their topology (nodes, edges,
//! dependencies), instantiation, upload and launch, executable graph update and flags, node
//! enabling, DOT output, graph memory attributes, user objects and conditional handles. Nodes
//! of each kind are made and queried in `graph_node.rs`.
//!
//! Runtime graph handles are driver handles, so each export is one driver call, made as
//! NVIDIA's runtime makes it (read from its 13.0 and 12.9 libraries):
//! - most need a context current (the caller's, else the primary context of the thread's
//!   device); enabling nodes, graph memory attributes and trimming, user objects and
//!   conditional handles go to the driver without making one current;
//! - the count-query convention (a NULL array: the count comes back) and every argument
//!   check are the driver's, except the few out pointers the runtime checks itself
//!   (`cudaGraphNodeGetType`, `cudaGraphNodeGetEnabled`) and `cudaGraphExecUpdate`'s handles;
//! - values the driver returns that the runtime's enums lack become the runtime's catch-all.
//!
//! Where CUDA 12.3 added edge data, the CUDA 12 ABI keeps the older form under the plain
//! name and has the new one as `_v2`; CUDA 13 has only the new one, under the plain name.
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_char, c_int, c_uint, c_ulonglong, c_void};
use std::ptr::null_mut;

use crate::driver::types::CUcontext;
use crate::runtime::boundary::{cu, out, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

/// `CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES`: NVIDIA's runtime always asks for the runtime's
/// names of types in DOT output.
const DOT_RUNTIME_TYPES: c_uint = 1 << 1;

/// `CU_GRAPH_NODE_TYPE_BATCH_MEM_OP`: a node type the runtime's enum lacks.
const NODE_TYPE_BATCH_MEM_OP: c_int = 12;

passthrough! {
    cudaGraphCreate(pGraph: *mut cudaGraph_t, flags: c_uint)
        = ctx.cuGraphCreate(pGraph, flags) [family = Graph, sem = Create(Graph, pGraph)] "Creates a graph.";
    cudaGraphDestroy(graph: cudaGraph_t)
        = ctx.cuGraphDestroy(graph) [family = Graph, sem = Destroy(Graph, graph)] "Destroys a graph.";
    cudaGraphClone(pGraphClone: *mut cudaGraph_t, originalGraph: cudaGraph_t)
        = ctx.cuGraphClone(pGraphClone, originalGraph) [family = Graph, sem = Create(Graph, pGraphClone)]
        "Clones a graph.";
    cudaGraphNodeFindInClone(pNode: *mut cudaGraphNode_t, originalNode: cudaGraphNode_t, clonedGraph: cudaGraph_t)
        = ctx.cuGraphNodeFindInClone(pNode, originalNode, clonedGraph) [family = Graph]
        "Finds a cloned version of a node.";
    cudaGraphGetNodes(graph: cudaGraph_t, nodes: *mut cudaGraphNode_t, numNodes: *mut usize)
        = ctx.cuGraphGetNodes(graph, nodes, numNodes) [family = Graph] "Returns a graph's nodes.";
    cudaGraphGetRootNodes(graph: cudaGraph_t, pRootNodes: *mut cudaGraphNode_t, pNumRootNodes: *mut usize)
        = ctx.cuGraphGetRootNodes(graph, pRootNodes, pNumRootNodes) [family = Graph] "Returns a graph's root nodes.";
    #[cfg(not(feature = "abi12"))]
    cudaGraphGetEdges(graph: cudaGraph_t, from: *mut cudaGraphNode_t, to: *mut cudaGraphNode_t,
        edgeData: *mut cudaGraphEdgeData, numEdges: *mut usize)
        = ctx.cuGraphGetEdges_v2(graph, from, to, edgeData, numEdges) [family = Graph]
        "Returns a graph's dependency edges.";
    #[cfg(feature = "abi12")]
    cudaGraphGetEdges(graph: cudaGraph_t, from: *mut cudaGraphNode_t, to: *mut cudaGraphNode_t, numEdges: *mut usize)
        = ctx.cuGraphGetEdges_v1(graph, from, to, numEdges) [family = Graph] "Returns a graph's dependency edges.";
    #[cfg(feature = "abi12")]
    cudaGraphGetEdges_v2(graph: cudaGraph_t, from: *mut cudaGraphNode_t, to: *mut cudaGraphNode_t,
        edgeData: *mut cudaGraphEdgeData, numEdges: *mut usize)
        = ctx.cuGraphGetEdges_v2(graph, from, to, edgeData, numEdges) [family = Graph]
        "Returns a graph's dependency edges (12.3+).";
    #[cfg(feature = "abi12")]
    cudaGraphAddDependencies(graph: cudaGraph_t, from: *const cudaGraphNode_t, to: *const cudaGraphNode_t,
        numDependencies: usize)
        = ctx.cuGraphAddDependencies_v1(graph, from, to, numDependencies) [family = Graph]
        "Adds dependency edges to a graph.";
    cudaGraphDestroyNode(node: cudaGraphNode_t)
        = ctx.cuGraphDestroyNode(node) [family = Graph] "Remove a node from the graph.";
    cudaGraphNodeSetEnabled(hGraphExec: cudaGraphExec_t, hNode: cudaGraphNode_t, isEnabled: c_uint)
        = fns.cuGraphNodeSetEnabled(hGraphExec, hNode, isEnabled) [family = Graph]
        "Enables or disables the specified node in the given graphExec.";
    cudaGraphDebugDotPrint(graph: cudaGraph_t, path: *const c_char, flags: c_uint)
        = ctx.cuGraphDebugDotPrint(graph, path, flags | DOT_RUNTIME_TYPES) [family = Graph]
        "Write a DOT file describing graph structure.";
    cudaGraphInstantiate(pGraphExec: *mut cudaGraphExec_t, graph: cudaGraph_t, flags: c_ulonglong)
        = ctx.cuGraphInstantiateWithFlags(pGraphExec, graph, flags)
        [family = Graph, sem = Create(GraphExec, pGraphExec), flags = Instantiate]
        "Creates an executable graph from a graph.";
    cudaGraphInstantiateWithFlags(pGraphExec: *mut cudaGraphExec_t, graph: cudaGraph_t, flags: c_ulonglong)
        = ctx.cuGraphInstantiateWithFlags(pGraphExec, graph, flags)
        [family = Graph, sem = Create(GraphExec, pGraphExec), flags = Instantiate]
        "Creates an executable graph from a graph.";
    cudaGraphExecGetFlags(graphExec: cudaGraphExec_t, flags: *mut c_ulonglong)
        = ctx.cuGraphExecGetFlags(graphExec, flags) [family = Graph]
        "Query the instantiation flags of an executable graph.";
    cudaGraphUpload(graphExec: cudaGraphExec_t, stream: cudaStream_t)
        = ctx.cuGraphUpload(graphExec, stream) [family = Graph, per_thread = ptsz]
        "Uploads an executable graph in a stream.";
    cudaGraphLaunch(graphExec: cudaGraphExec_t, stream: cudaStream_t)
        = ctx.cuGraphLaunch(graphExec, stream) [family = Graph, per_thread = ptsz, sem = GraphLaunch]
        "Launches an executable graph in a stream.";
    cudaGraphExecDestroy(graphExec: cudaGraphExec_t)
        = ctx.cuGraphExecDestroy(graphExec) [family = Graph, sem = Destroy(GraphExec, graphExec)]
        "Destroys an executable graph.";
    cudaDeviceGetGraphMemAttribute(device: c_int, attr: raw::cudaGraphMemAttributeType, value: *mut c_void)
        = fns.cuDeviceGetGraphMemAttribute(device, attr.0, value) [family = Graph]
        "Query asynchronous allocation attributes related to graphs.";
    cudaDeviceSetGraphMemAttribute(device: c_int, attr: raw::cudaGraphMemAttributeType, value: *mut c_void)
        = fns.cuDeviceSetGraphMemAttribute(device, attr.0, value) [family = Graph]
        "Set asynchronous allocation attributes related to graphs.";
    /// Free unused memory that was cached on the specified device for use with graphs back to
    /// the OS.
    cudaDeviceGraphMemTrim(device: c_int) = fns.cuDeviceGraphMemTrim(device) [family = Graph];
    cudaUserObjectRetain(object: cudaUserObject_t, count: c_uint)
        = fns.cuUserObjectRetain(object, count) [family = Graph] "Retain a reference to a user object.";
    cudaUserObjectRelease(object: cudaUserObject_t, count: c_uint)
        = fns.cuUserObjectRelease(object, count) [family = Graph] "Release a reference to a user object.";
    cudaGraphRetainUserObject(graph: cudaGraph_t, object: cudaUserObject_t, count: c_uint, flags: c_uint)
        = fns.cuGraphRetainUserObject(graph, object, count, flags) [family = Graph]
        "Retain a reference to a user object from a graph.";
    cudaGraphReleaseUserObject(graph: cudaGraph_t, object: cudaUserObject_t, count: c_uint)
        = fns.cuGraphReleaseUserObject(graph, object, count) [family = Graph]
        "Release a user object reference from a graph.";
    #[cfg(not(feature = "abi12"))]
    cudaGraphGetId(hGraph: cudaGraph_t, graphID: *mut c_uint)
        = ctx.cuGraphGetId(hGraph, graphID) [family = Graph, since = 13.5] "The graph's id.";
    #[cfg(not(feature = "abi12"))]
    cudaGraphExecGetId(hGraphExec: cudaGraphExec_t, graphID: *mut c_uint)
        = ctx.cuGraphExecGetId(hGraphExec, graphID) [family = Graph, since = 13.5]
        "The id of the graph an executable graph was instantiated from.";
    #[cfg(not(feature = "abi12"))]
    cudaGraphNodeGetContainingGraph(hNode: cudaGraphNode_t, phGraph: *mut cudaGraph_t)
        = ctx.cuGraphNodeGetContainingGraph(hNode, phGraph) [family = Graph, since = 13.5]
        "The graph that holds a node.";
    #[cfg(not(feature = "abi12"))]
    cudaGraphNodeGetLocalId(hNode: cudaGraphNode_t, nodeId: *mut c_uint)
        = ctx.cuGraphNodeGetLocalId(hNode, nodeId) [family = Graph, since = 13.5] "A node's id within its graph.";
    #[cfg(not(feature = "abi12"))]
    cudaGraphNodeGetToolsId(hNode: cudaGraphNode_t, toolsNodeId: *mut c_ulonglong)
        = ctx.cuGraphNodeGetToolsId(hNode, toolsNodeId) [family = Graph, since = 13.5]
        "A node's id for tools, unique in the process.";
}

/// Returns a node's dependencies.
#[cfg(not(feature = "abi12"))]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetDependencies(
    node: cudaGraphNode_t,
    pDependencies: *mut cudaGraphNode_t,
    edgeData: *mut cudaGraphEdgeData,
    pNumDependencies: *mut usize,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphNodeGetDependencies_v2(node, pDependencies, edgeData, pNumDependencies)))
}

/// Returns a node's dependencies.
#[cfg(feature = "abi12")]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetDependencies(
    node: cudaGraphNode_t,
    pDependencies: *mut cudaGraphNode_t,
    pNumDependencies: *mut usize,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphNodeGetDependencies_v1(node, pDependencies, pNumDependencies)))
}

/// Returns a node's dependencies (12.3+).
#[cfg(feature = "abi12")]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetDependencies_v2(
    node: cudaGraphNode_t,
    pDependencies: *mut cudaGraphNode_t,
    edgeData: *mut cudaGraphEdgeData,
    pNumDependencies: *mut usize,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphNodeGetDependencies_v2(node, pDependencies, edgeData, pNumDependencies)))
}

/// Returns a node's dependent nodes.
#[cfg(not(feature = "abi12"))]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetDependentNodes(
    node: cudaGraphNode_t,
    pDependentNodes: *mut cudaGraphNode_t,
    edgeData: *mut cudaGraphEdgeData,
    pNumDependentNodes: *mut usize,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphNodeGetDependentNodes_v2(node, pDependentNodes, edgeData, pNumDependentNodes)))
}

/// Returns a node's dependent nodes.
#[cfg(feature = "abi12")]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetDependentNodes(
    node: cudaGraphNode_t,
    pDependentNodes: *mut cudaGraphNode_t,
    pNumDependentNodes: *mut usize,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphNodeGetDependentNodes_v1(node, pDependentNodes, pNumDependentNodes)))
}

/// Returns a node's dependent nodes (12.3+).
#[cfg(feature = "abi12")]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetDependentNodes_v2(
    node: cudaGraphNode_t,
    pDependentNodes: *mut cudaGraphNode_t,
    edgeData: *mut cudaGraphEdgeData,
    pNumDependentNodes: *mut usize,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphNodeGetDependentNodes_v2(node, pDependentNodes, edgeData, pNumDependentNodes)))
}

/// Adds dependency edges to a graph.
#[cfg(not(feature = "abi12"))]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddDependencies(
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    edgeData: *const cudaGraphEdgeData,
    numDependencies: usize,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphAddDependencies_v2(graph, from, to, edgeData, numDependencies)))
}

/// Adds dependency edges to a graph. (12.3+)
#[cfg(feature = "abi12")]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphAddDependencies_v2(
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    edgeData: *const cudaGraphEdgeData,
    numDependencies: usize,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphAddDependencies_v2(graph, from, to, edgeData, numDependencies)))
}

/// Removes dependency edges from a graph.
#[cfg(not(feature = "abi12"))]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphRemoveDependencies(
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    edgeData: *const cudaGraphEdgeData,
    numDependencies: usize,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphRemoveDependencies_v2(graph, from, to, edgeData, numDependencies)))
}

/// Removes dependency edges from a graph.
#[cfg(feature = "abi12")]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphRemoveDependencies(
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    numDependencies: usize,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphRemoveDependencies_v1(graph, from, to, numDependencies)))
}

/// Removes dependency edges from a graph. (12.3+)
#[cfg(feature = "abi12")]
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphRemoveDependencies_v2(
    graph: cudaGraph_t,
    from: *const cudaGraphNode_t,
    to: *const cudaGraphNode_t,
    edgeData: *const cudaGraphEdgeData,
    numDependencies: usize,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphRemoveDependencies_v2(graph, from, to, edgeData, numDependencies)))
}

/// The runtime's node type of a driver node type: the same value, except for the driver's
/// batch memory operation node (and any later type), which the runtime's enum lacks:
/// `cudaErrorUnknown`, as NVIDIA's runtime answers. NVIDIA's 12.9 runtime knows no type
/// past the memory free node, so built for 12 a conditional node is `cudaErrorUnknown` too
/// (its cudaGraphNodeGetType fails on one where 13.0.96 answers 13: "AddNode types: ...
/// cond -1" on the H100 with 12.9.79; its conversion answers 999 for every driver type
/// above 11).
fn node_type(t: c_int) -> Result<raw::cudaGraphNodeType, cudaError> {
    #[cfg(not(feature = "abi12"))]
    let max = cudaGraphNodeType::cudaGraphNodeTypeConditional as c_int;
    #[cfg(feature = "abi12")]
    let max = cudaGraphNodeType::cudaGraphNodeTypeMemFree as c_int;
    if !(0..=max).contains(&t) || t == NODE_TYPE_BATCH_MEM_OP {
        return Err(cudaError::cudaErrorUnknown);
    }
    Ok(raw::cudaGraphNodeType(t))
}

/// Returns a node's type.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetType(
    node: cudaGraphNode_t,
    pType: *mut raw::cudaGraphNodeType,
) -> cudaError_t {
    run(|| {
        let p = out(pType)?;
        let mut t: c_int = 0;
        cu(rt::ctx()?.cuGraphNodeGetType(node, &mut t))?;
        *p = node_type(t)?;
        Ok(())
    })
}

/// Query whether a node in the given graphExec is enabled.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphNodeGetEnabled(
    hGraphExec: cudaGraphExec_t,
    hNode: cudaGraphNode_t,
    isEnabled: *mut c_uint,
) -> cudaError_t {
    run(|| {
        let p = out(isEnabled)?;
        cu(rt::fns()?.cuGraphNodeGetEnabled(hGraphExec, hNode, p))
    })
}

/// Creates an executable graph from a graph.
#[export(family = Graph, per_thread = ptsz, sem = Create(GraphExec, pGraphExec))]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphInstantiateWithParams(
    pGraphExec: *mut cudaGraphExec_t,
    graph: cudaGraph_t,
    instantiateParams: *mut cudaGraphInstantiateParams,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphInstantiateWithParams(pGraphExec, graph, instantiateParams)))
}

/// The runtime's update result of a driver one: results the runtime's enum lacks are
/// `cudaGraphExecUpdateError`, as in NVIDIA's runtime.
fn update_result(r: raw::cudaGraphExecUpdateResult) -> raw::cudaGraphExecUpdateResult {
    let max = cudaGraphExecUpdateResult::cudaGraphExecUpdateErrorAttributesChanged as c_int;
    if (0..=max).contains(&r.0) {
        r
    } else {
        raw::cudaGraphExecUpdateResult(cudaGraphExecUpdateResult::cudaGraphExecUpdateError as c_int)
    }
}

/// Check whether an executable graph can be updated with a graph and perform the update if
/// possible.
///
/// As NVIDIA's runtime does: both handles must be given (`cudaErrorInvalidValue`), the result
/// information is optional (the driver gets a result of the runtime's own), and when it is
/// given it is filled in whether the update succeeded or not.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphExecUpdate(
    hGraphExec: cudaGraphExec_t,
    hGraph: cudaGraph_t,
    resultInfo: *mut cudaGraphExecUpdateResultInfo,
) -> cudaError_t {
    run(|| {
        if hGraphExec.is_null() || hGraph.is_null() {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let f = rt::ctx()?;
        let mut info = cudaGraphExecUpdateResultInfo {
            result: raw::cudaGraphExecUpdateResult(cudaGraphExecUpdateResult::cudaGraphExecUpdateSuccess as c_int),
            errorNode: null_mut(),
            errorFromNode: null_mut(),
        };
        let r = f.cuGraphExecUpdate(hGraphExec, hGraph, &mut info);
        if let Some(p) = resultInfo.as_mut() {
            *p = cudaGraphExecUpdateResultInfo { result: update_result(info.result), ..info };
        }
        cu(r)
    })
}

/// Create a user object.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaUserObjectCreate(
    object_out: *mut cudaUserObject_t,
    ptr: *mut c_void,
    destroy: cudaHostFn_t,
    initialRefcount: c_uint,
    flags: c_uint,
) -> cudaError_t {
    run(|| cu(rt::fns()?.cuUserObjectCreate(object_out, ptr, destroy, initialRefcount, flags)))
}

/// Create a conditional handle. The handle belongs to the context current on this thread, if
/// any: like NVIDIA's runtime, this does not make one current.
#[export(family = Graph)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphConditionalHandleCreate(
    pHandle_out: *mut cudaGraphConditionalHandle,
    graph: cudaGraph_t,
    defaultLaunchValue: c_uint,
    flags: c_uint,
) -> cudaError_t {
    run(|| conditional_handle_create(pHandle_out, graph, null_mut(), defaultLaunchValue, flags))
}

/// A conditional handle of a graph, for the given execution context (NULL: the context
/// current on this thread, as `cudaGraphConditionalHandleCreate` takes it).
#[cfg(not(feature = "abi12"))]
#[export(family = Graph, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphConditionalHandleCreate_v2(
    pHandle_out: *mut cudaGraphConditionalHandle,
    graph: cudaGraph_t,
    ctx: cudaExecutionContext_t,
    defaultLaunchValue: c_uint,
    flags: c_uint,
) -> cudaError_t {
    run(|| conditional_handle_create(pHandle_out, graph, ctx as CUcontext, defaultLaunchValue, flags))
}

/// A conditional handle for context `ctx`; NULL: the context current on this thread, if any
/// (`cudaGraphConditionalHandleCreate`, and `_v2` without an execution context).
pub(crate) fn conditional_handle_create(
    pHandle_out: *mut cudaGraphConditionalHandle,
    graph: cudaGraph_t,
    mut ctx: CUcontext,
    defaultLaunchValue: c_uint,
    flags: c_uint,
) -> Res {
    let f = rt::fns()?;
    if ctx.is_null() {
        // SAFETY: a valid out pointer.
        cu(unsafe { f.cuCtxGetCurrent(&mut ctx) })?;
    }
    // SAFETY: the caller's arguments; the driver checks them.
    cu(unsafe { f.cuGraphConditionalHandleCreate(pHandle_out, graph, ctx, defaultLaunchValue, flags) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_types_the_runtime_lacks_are_unknown() {
        #[cfg(not(feature = "abi12"))]
        let (known, conditional) = ((0..=11).chain([13]), None);
        #[cfg(feature = "abi12")]
        let (known, conditional) = (0..=11, Some(13));
        for t in known {
            assert_eq!(node_type(t).map(|r| r.0), Ok(t));
        }
        for t in [-1, NODE_TYPE_BATCH_MEM_OP, 14, 100].into_iter().chain(conditional) {
            assert_eq!(node_type(t).map(|r| r.0), Err(cudaError::cudaErrorUnknown));
        }
    }

    #[test]
    fn update_results_the_runtime_lacks_are_generic_errors() {
        for r in 0..=8 {
            assert_eq!(update_result(raw::cudaGraphExecUpdateResult(r)).0, r);
        }
        for r in [9, 42, -3] {
            assert_eq!(update_result(raw::cudaGraphExecUpdateResult(r)).0, 1);
        }
    }
}
