//! Stream capture and graphs: not modelled. The stand-in runs work at call time, so it has
//! nothing to capture and no graphs to launch; every entry point of the graph core and of the
//! graph nodes answers `CUDA_ERROR_NOT_SUPPORTED` (but a stream's capture status, which is
//! always "not capturing": `capture.rs`), so that a program sees plainly that graphs are unavailable
//! (tests of graphs need a real GPU).

use crate::types::*;

/// The graph and capture entry points the runtime resolves.
const ENTRY_POINTS: &[&str] = &[
    "cuStreamBeginCapture",
    "cuStreamBeginCaptureToGraph",
    "cuStreamEndCapture",
    "cuStreamGetCaptureInfo",
    "cuStreamUpdateCaptureDependencies",
    "cuThreadExchangeStreamCaptureMode",
    "cuGraphCreate",
    "cuGraphDestroy",
    "cuGraphClone",
    "cuGraphNodeFindInClone",
    "cuGraphGetNodes",
    "cuGraphGetRootNodes",
    "cuGraphGetEdges",
    "cuGraphNodeGetDependencies",
    "cuGraphNodeGetDependentNodes",
    "cuGraphAddDependencies",
    "cuGraphRemoveDependencies",
    "cuGraphDestroyNode",
    "cuGraphNodeGetType",
    "cuGraphNodeGetEnabled",
    "cuGraphNodeSetEnabled",
    "cuGraphDebugDotPrint",
    "cuGraphInstantiateWithFlags",
    "cuGraphInstantiateWithParams",
    "cuGraphUpload",
    "cuGraphLaunch",
    "cuGraphExecDestroy",
    "cuGraphExecUpdate",
    "cuGraphExecGetFlags",
    "cuDeviceGetGraphMemAttribute",
    "cuDeviceSetGraphMemAttribute",
    "cuDeviceGraphMemTrim",
    "cuUserObjectCreate",
    "cuUserObjectRetain",
    "cuUserObjectRelease",
    "cuGraphRetainUserObject",
    "cuGraphReleaseUserObject",
    "cuGraphConditionalHandleCreate",
    // Graph nodes.
    "cuGraphAddKernelNode",
    "cuGraphKernelNodeGetParams",
    "cuGraphKernelNodeSetParams",
    "cuGraphExecKernelNodeSetParams",
    "cuGraphKernelNodeCopyAttributes",
    "cuGraphKernelNodeGetAttribute",
    "cuGraphKernelNodeSetAttribute",
    "cuGraphAddMemcpyNode",
    "cuGraphMemcpyNodeGetParams",
    "cuGraphMemcpyNodeSetParams",
    "cuGraphExecMemcpyNodeSetParams",
    "cuGraphAddMemsetNode",
    "cuGraphMemsetNodeGetParams",
    "cuGraphMemsetNodeSetParams",
    "cuGraphExecMemsetNodeSetParams",
    "cuGraphAddHostNode",
    "cuGraphHostNodeGetParams",
    "cuGraphHostNodeSetParams",
    "cuGraphExecHostNodeSetParams",
    "cuGraphAddChildGraphNode",
    "cuGraphChildGraphNodeGetGraph",
    "cuGraphExecChildGraphNodeSetParams",
    "cuGraphAddEmptyNode",
    "cuGraphAddEventRecordNode",
    "cuGraphEventRecordNodeGetEvent",
    "cuGraphEventRecordNodeSetEvent",
    "cuGraphExecEventRecordNodeSetEvent",
    "cuGraphAddEventWaitNode",
    "cuGraphEventWaitNodeGetEvent",
    "cuGraphEventWaitNodeSetEvent",
    "cuGraphExecEventWaitNodeSetEvent",
    "cuGraphAddExternalSemaphoresSignalNode",
    "cuGraphExternalSemaphoresSignalNodeGetParams",
    "cuGraphExternalSemaphoresSignalNodeSetParams",
    "cuGraphExecExternalSemaphoresSignalNodeSetParams",
    "cuGraphAddExternalSemaphoresWaitNode",
    "cuGraphExternalSemaphoresWaitNodeGetParams",
    "cuGraphExternalSemaphoresWaitNodeSetParams",
    "cuGraphExecExternalSemaphoresWaitNodeSetParams",
    "cuGraphAddMemAllocNode",
    "cuGraphMemAllocNodeGetParams",
    "cuGraphAddMemFreeNode",
    "cuGraphMemFreeNodeGetParams",
    "cuGraphAddNode",
    "cuGraphNodeSetParams",
    "cuGraphExecNodeSetParams",
];

/// Whether `name` is one of [`ENTRY_POINTS`].
pub(crate) fn is_entry(name: &str) -> bool {
    ENTRY_POINTS.contains(&name)
}

/// The one implementation of every entry point in [`ENTRY_POINTS`], whatever its signature:
/// it reads no argument (under the x86-64 and AArch64 C calling conventions the caller's
/// arguments are then simply unused) and writes nothing.
pub(crate) unsafe extern "C" fn unsupported() -> CUresult {
    CUDA_ERROR_NOT_SUPPORTED
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_entry_points_are_unsupported() {
        assert!(is_entry("cuGraphCreate") && is_entry("cuStreamBeginCapture") && !is_entry("cuMemAlloc"));
        assert_eq!(unsafe { unsupported() }, CUDA_ERROR_NOT_SUPPORTED);
    }
}
