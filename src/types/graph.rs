//! Graph types (NVIDIA's `driver_types.h`): graph, node and executable graph handles, the
//! parameters of each kind of node, edges, instantiation and update, user objects.

use std::ffi::{c_int, c_longlong, c_uchar, c_uint, c_ulonglong, c_void};

use super::{
    cudaEvent_t, cudaExternalSemaphoreSignalParams, cudaExternalSemaphoreWaitParams, cudaExternalSemaphore_t,
    cudaGraphDeviceNode_t, cudaMemAccessDesc, cudaMemPoolProps, cudaMemcpy3DParms, cudaStream_t, dim3,
};
#[cfg(not(feature = "abi12"))]
use super::{cudaExecutionContext_t, cudaMemcpyAttributes};

/// Opaque graph: a driver `CUgraph`.
pub struct CUgraph_st {
    _private: [u8; 0],
}
/// Opaque graph node: a driver `CUgraphNode`.
pub struct CUgraphNode_st {
    _private: [u8; 0],
}
/// Opaque executable graph: a driver `CUgraphExec`.
pub struct CUgraphExec_st {
    _private: [u8; 0],
}
/// Opaque user object: a driver `CUuserObject`.
pub struct CUuserObject_st {
    _private: [u8; 0],
}

/// CUDA graph
pub type cudaGraph_t = *mut CUgraph_st;
/// CUDA graph node.
pub type cudaGraphNode_t = *mut CUgraphNode_st;
/// CUDA executable (launchable) graph
pub type cudaGraphExec_t = *mut CUgraphExec_st;
/// CUDA user object for graphs
pub type cudaUserObject_t = *mut CUuserObject_st;
/// CUDA handle for conditional graph nodes
pub type cudaGraphConditionalHandle = c_ulonglong;

/// CUDA host function
pub type cudaHostFn_t = Option<unsafe extern "C" fn(userData: *mut c_void)>;

/// CUDA GPU kernel node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaKernelNodeParams {
    /// Kernel to launch
    pub func: *mut c_void,
    /// Grid dimensions
    pub gridDim: dim3,
    /// Block dimensions
    pub blockDim: dim3,
    /// Dynamic shared-memory size per thread block in bytes
    pub sharedMemBytes: c_uint,
    /// Array of pointers to individual kernel arguments
    pub kernelParams: *mut *mut c_void,
    /// Pointer to kernel arguments in the "extra" format
    pub extra: *mut *mut c_void,
}

/// CUDA GPU kernel node parameters
///
/// In CUDA 13.5 `func` is one member of an anonymous union (`func`, `kern`, `cuFunc`: a host
/// stub, a `cudaKernel_t` or a `cudaFunction_t`, as `functionType` says), which cbindgen
/// cannot write: the header's definition is cbindgen.toml's (its trailer).
/// cbindgen:no-export
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaKernelNodeParamsV2 {
    /// Kernel to launch (or `kern`, `cuFunc`)
    pub func: *mut c_void,
    /// Grid dimensions
    pub gridDim: dim3,
    /// Block dimensions
    pub blockDim: dim3,
    /// Dynamic shared-memory size per thread block in bytes
    pub sharedMemBytes: c_uint,
    /// Array of pointers to individual kernel arguments
    pub kernelParams: *mut *mut c_void,
    /// Pointer to kernel arguments in the "extra" format
    pub extra: *mut *mut c_void,
    /// The execution context the node runs in (NULL: the current one)
    #[cfg(not(feature = "abi12"))]
    pub ctx: cudaExecutionContext_t,
    /// What `func` is (::cudaKernelFunctionType)
    #[cfg(not(feature = "abi12"))]
    pub functionType: raw::cudaKernelFunctionType,
}

/// Memcpy node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaMemcpyNodeParams {
    /// Must be zero
    pub flags: c_int,
    /// Must be zero
    #[cfg(feature = "abi12")]
    pub reserved: [c_int; 3],
    /// Must be zero
    #[cfg(not(feature = "abi12"))]
    pub reserved: c_int,
    /// The execution context the node runs in (NULL: the current one)
    #[cfg(not(feature = "abi12"))]
    pub ctx: cudaExecutionContext_t,
    /// Parameters for the memory copy
    pub copyParams: cudaMemcpy3DParms,
}

/// CUDA Memset node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaMemsetParams {
    /// Destination device pointer
    pub dst: *mut c_void,
    /// Pitch of destination device pointer. Unused if height is 1
    pub pitch: usize,
    /// Value to be set
    pub value: c_uint,
    /// Size of each element in bytes. Must be 1, 2, or 4.
    pub elementSize: c_uint,
    /// Width of the row in elements
    pub width: usize,
    /// Number of rows
    pub height: usize,
}

/// CUDA Memset node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaMemsetParamsV2 {
    /// Destination device pointer
    pub dst: *mut c_void,
    /// Pitch of destination device pointer. Unused if height is 1
    pub pitch: usize,
    /// Value to be set
    pub value: c_uint,
    /// Size of each element in bytes. Must be 1, 2, or 4.
    pub elementSize: c_uint,
    /// Width of the row in elements
    pub width: usize,
    /// Number of rows
    pub height: usize,
    /// The execution context the node runs in (NULL: the current one)
    #[cfg(not(feature = "abi12"))]
    pub ctx: cudaExecutionContext_t,
}

/// CUDA host node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaHostNodeParams {
    /// The function to call when the node executes
    pub r#fn: cudaHostFn_t,
    /// Argument to pass to the function
    pub userData: *mut c_void,
}

/// CUDA host node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaHostNodeParamsV2 {
    /// The function to call when the node executes
    pub r#fn: cudaHostFn_t,
    /// Argument to pass to the function
    pub userData: *mut c_void,
    /// How the host task waits (::cudaHostTaskSyncMode)
    #[cfg(not(feature = "abi12"))]
    pub syncMode: c_uint,
    /// The execution context the node runs in (NULL: the current one)
    #[cfg(not(feature = "abi12"))]
    pub ctx: cudaExecutionContext_t,
}

/// Flags for user objects for graphs
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaUserObjectFlags {
    /// Indicates the destructor execution is not synchronized by any CUDA handle.
    cudaUserObjectNoDestructorSync = 0x1,
}

/// Flags for retaining user object references for graphs
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaUserObjectRetainFlags {
    /// Transfer references from the caller rather than creating new references.
    cudaGraphUserObjectMove = 0x1,
}

/// Memory allocation node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaMemAllocNodeParams {
    /// in: location where the allocation should reside (specified in ::location).
    /// ::handleTypes must be ::cudaMemHandleTypeNone. IPC is not supported.
    pub poolProps: cudaMemPoolProps,
    /// in: array of memory access descriptors. Used to describe peer GPU access
    pub accessDescs: *const cudaMemAccessDesc,
    /// in: number of memory access descriptors. Must not exceed the number of GPUs.
    pub accessDescCount: usize,
    /// in: size in bytes of the requested allocation
    pub bytesize: usize,
    /// out: address of the allocation returned by CUDA
    pub dptr: *mut c_void,
}

/// Memory allocation node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaMemAllocNodeParamsV2 {
    /// in: location where the allocation should reside (specified in ::location).
    /// ::handleTypes must be ::cudaMemHandleTypeNone. IPC is not supported.
    pub poolProps: cudaMemPoolProps,
    /// in: array of memory access descriptors. Used to describe peer GPU access
    pub accessDescs: *const cudaMemAccessDesc,
    /// in: number of memory access descriptors. Must not exceed the number of GPUs.
    pub accessDescCount: usize,
    /// in: size in bytes of the requested allocation
    pub bytesize: usize,
    /// out: address of the allocation returned by CUDA
    pub dptr: *mut c_void,
}

/// Memory free node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaMemFreeNodeParams {
    /// in: the pointer to free
    pub dptr: *mut c_void,
}

/// Graph memory attributes
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphMemAttributeType {
    /// (value type = cuuint64_t) Amount of memory, in bytes, currently associated with graphs.
    cudaGraphMemAttrUsedMemCurrent = 0x0,
    /// (value type = cuuint64_t) High watermark of memory, in bytes, associated with graphs
    /// since the last time it was reset. High watermark can only be reset to zero.
    cudaGraphMemAttrUsedMemHigh = 0x1,
    /// (value type = cuuint64_t) Amount of memory, in bytes, currently allocated for use by
    /// the CUDA graphs asynchronous allocator.
    cudaGraphMemAttrReservedMemCurrent = 0x2,
    /// (value type = cuuint64_t) High watermark of memory, in bytes, currently allocated for
    /// use by the CUDA graphs asynchronous allocator.
    cudaGraphMemAttrReservedMemHigh = 0x3,
}

/// External semaphore signal node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaExternalSemaphoreSignalNodeParams {
    /// Array of external semaphore handles.
    pub extSemArray: *mut cudaExternalSemaphore_t,
    /// Array of external semaphore signal parameters.
    pub paramsArray: *const cudaExternalSemaphoreSignalParams,
    /// Number of handles and parameters supplied in extSemArray and paramsArray.
    pub numExtSems: c_uint,
}

/// External semaphore signal node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaExternalSemaphoreSignalNodeParamsV2 {
    /// Array of external semaphore handles.
    pub extSemArray: *mut cudaExternalSemaphore_t,
    /// Array of external semaphore signal parameters.
    pub paramsArray: *const cudaExternalSemaphoreSignalParams,
    /// Number of handles and parameters supplied in extSemArray and paramsArray.
    pub numExtSems: c_uint,
    /// The execution context the node runs in (NULL: the current one)
    #[cfg(not(feature = "abi12"))]
    pub ctx: cudaExecutionContext_t,
}

/// External semaphore wait node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaExternalSemaphoreWaitNodeParams {
    /// Array of external semaphore handles.
    pub extSemArray: *mut cudaExternalSemaphore_t,
    /// Array of external semaphore wait parameters.
    pub paramsArray: *const cudaExternalSemaphoreWaitParams,
    /// Number of handles and parameters supplied in extSemArray and paramsArray.
    pub numExtSems: c_uint,
}

/// External semaphore wait node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaExternalSemaphoreWaitNodeParamsV2 {
    /// Array of external semaphore handles.
    pub extSemArray: *mut cudaExternalSemaphore_t,
    /// Array of external semaphore wait parameters.
    pub paramsArray: *const cudaExternalSemaphoreWaitParams,
    /// Number of handles and parameters supplied in extSemArray and paramsArray.
    pub numExtSems: c_uint,
    /// The execution context the node runs in (NULL: the current one)
    #[cfg(not(feature = "abi12"))]
    pub ctx: cudaExecutionContext_t,
}

/// Flags of ::cudaGraphConditionalHandleCreate.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphConditionalHandleFlags {
    /// Apply default handle value when graph is launched.
    cudaGraphCondAssignDefault = 1,
}

/// CUDA conditional node types
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphConditionalNodeType {
    /// Conditional 'if/else' Node. Body[0] executed if condition is non-zero. If size == 2,
    /// an optional ELSE graph is created and this is executed if the condition is zero.
    cudaGraphCondTypeIf = 0,
    /// Conditional 'while' Node. Body executed repeatedly while condition value is non-zero.
    cudaGraphCondTypeWhile = 1,
    /// Conditional 'switch' Node. Body[n] is executed once, where 'n' is the value of the
    /// condition. If the condition does not match a body index, no body is launched.
    cudaGraphCondTypeSwitch = 2,
}

/// CUDA conditional node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaConditionalNodeParams {
    /// Conditional node handle. Handles must be created in advance of creating the node using
    /// ::cudaGraphConditionalHandleCreate.
    pub handle: cudaGraphConditionalHandle,
    /// Type of conditional node.
    pub r#type: raw::cudaGraphConditionalNodeType,
    /// Size of graph output array. Allowed values are 1 for cudaGraphCondTypeWhile, 1 or 2 for
    /// cudaGraphCondTypeIf, or any value greater than zero for cudaGraphCondTypeSwitch.
    pub size: c_uint,
    /// CUDA-owned array populated with conditional node child graphs during creation of the
    /// node. Valid for the lifetime of the conditional node.
    pub phGraph_out: *mut cudaGraph_t,
    /// The execution context the node runs in (NULL: the current one)
    #[cfg(not(feature = "abi12"))]
    pub ctx: cudaExecutionContext_t,
}

/// CUDA Graph node types
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphNodeType {
    /// GPU kernel node
    cudaGraphNodeTypeKernel = 0x00,
    /// Memcpy node
    cudaGraphNodeTypeMemcpy = 0x01,
    /// Memset node
    cudaGraphNodeTypeMemset = 0x02,
    /// Host (executable) node
    cudaGraphNodeTypeHost = 0x03,
    /// Node which executes an embedded graph
    cudaGraphNodeTypeGraph = 0x04,
    /// Empty (no-op) node
    cudaGraphNodeTypeEmpty = 0x05,
    /// External event wait node
    cudaGraphNodeTypeWaitEvent = 0x06,
    /// External event record node
    cudaGraphNodeTypeEventRecord = 0x07,
    /// External semaphore signal node
    cudaGraphNodeTypeExtSemaphoreSignal = 0x08,
    /// External semaphore wait node
    cudaGraphNodeTypeExtSemaphoreWait = 0x09,
    /// Memory allocation node
    cudaGraphNodeTypeMemAlloc = 0x0a,
    /// Memory free node
    cudaGraphNodeTypeMemFree = 0x0b,
    /// Conditional node. May be used to implement a conditional execution path or loop
    /// inside of a graph.
    cudaGraphNodeTypeConditional = 0x0d,
    /// Memcpy batch node
    #[cfg(not(feature = "abi12"))]
    cudaGraphNodeTypeMemcpyBatch = 0x0e,
    /// Reserved
    #[cfg(not(feature = "abi12"))]
    cudaGraphNodeTypeReserved16 = 0x10,
    /// External engine node
    #[cfg(not(feature = "abi12"))]
    cudaGraphNodeTypeExternalEngine = 0x11,
    #[cfg(feature = "abi12")]
    cudaGraphNodeTypeCount = 0x0e,
    #[cfg(not(feature = "abi12"))]
    cudaGraphNodeTypeCount = 0x12,
}

/// Child graph node ownership
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphChildGraphNodeOwnership {
    /// Default behavior for a child graph node. Child graph is cloned into the parent and
    /// memory allocation/free nodes can't be present in the child graph.
    cudaGraphChildGraphOwnershipClone = 0,
    /// The child graph is moved to the parent. The handle to the child graph is owned by the
    /// parent and will be destroyed when the parent is destroyed.
    cudaGraphChildGraphOwnershipMove = 1,
    /// Invalid ownership (the value of a node that is not a child graph node)
    #[cfg(not(feature = "abi12"))]
    cudaGraphChildGraphOwnershipInvalid = -1,
}

/// Child graph node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaChildGraphNodeParams {
    /// The child graph to clone into the node for node creation, or a handle to the graph
    /// owned by the node for node query.
    pub graph: cudaGraph_t,
    /// The ownership relationship of the child graph node.
    pub ownership: raw::cudaGraphChildGraphNodeOwnership,
}

/// Event record node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaEventRecordNodeParams {
    /// The event to record when the node executes
    pub event: cudaEvent_t,
    /// The execution context the node runs in (NULL: the current one)
    #[cfg(not(feature = "abi12"))]
    pub ctx: cudaExecutionContext_t,
}

/// Event wait node parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaEventWaitNodeParams {
    /// The event to wait on from the node
    pub event: cudaEvent_t,
}

/// Graph node parameters. See ::cudaGraphAddNode.
///
/// NVIDIA's union member is anonymous (`params.kernel`), which cbindgen cannot write: the
/// header's definition is cbindgen.toml's (its trailer); here the union is `u`.
/// cbindgen:no-export
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaGraphNodeParams {
    /// Type of the node
    pub r#type: raw::cudaGraphNodeType,
    /// Reserved. Must be zero.
    pub reserved0: [c_int; 3],
    /// The node's parameters (an anonymous union in C).
    pub u: cudaGraphNodeParamsUnion,
    /// Reserved bytes. Must be zero.
    pub reserved2: c_longlong,
}

/// The anonymous union of ::cudaGraphNodeParams.
/// cbindgen:no-export
#[repr(C)]
#[derive(Copy, Clone)]
pub union cudaGraphNodeParamsUnion {
    /// Padding. Unused bytes must be zero.
    pub reserved1: [c_longlong; 29],
    /// Kernel node parameters.
    pub kernel: cudaKernelNodeParamsV2,
    /// Memcpy node parameters.
    pub memcpy: cudaMemcpyNodeParams,
    /// Memset node parameters.
    pub memset: cudaMemsetParamsV2,
    /// Host node parameters.
    pub host: cudaHostNodeParamsV2,
    /// Child graph node parameters.
    pub graph: cudaChildGraphNodeParams,
    /// Event wait node parameters.
    pub eventWait: cudaEventWaitNodeParams,
    /// Event record node parameters.
    pub eventRecord: cudaEventRecordNodeParams,
    /// External semaphore signal node parameters.
    pub extSemSignal: cudaExternalSemaphoreSignalNodeParamsV2,
    /// External semaphore wait node parameters.
    pub extSemWait: cudaExternalSemaphoreWaitNodeParamsV2,
    /// Memory allocation node parameters.
    pub alloc: cudaMemAllocNodeParamsV2,
    /// Memory free node parameters.
    pub free: cudaMemFreeNodeParams,
    /// Conditional node parameters.
    pub conditional: cudaConditionalNodeParams,
    /// Memcpy batch node parameters.
    #[cfg(not(feature = "abi12"))]
    pub memcpyBatch: cudaMemcpyBatchNodeParams,
}

/// Type annotations that can be applied to graph edges as part of ::cudaGraphEdgeData.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphDependencyType_enum {
    /// This is an ordinary dependency.
    cudaGraphDependencyTypeDefault = 0,
    /// This dependency type allows the downstream node to use
    /// cudaGridDependencySynchronize(). It may only be used between kernel nodes, and must be
    /// used with either the ::cudaGraphKernelNodePortProgrammatic or
    /// ::cudaGraphKernelNodePortLaunchCompletion outgoing port.
    cudaGraphDependencyTypeProgrammatic = 1,
}

/// Type annotations that can be applied to graph edges as part of ::cudaGraphEdgeData.
pub type cudaGraphDependencyType = cudaGraphDependencyType_enum;

/// Optional annotation for edges in a CUDA graph. Note, all edges implicitly have annotations
/// and default to a zero-initialized value if not specified. A zero-initialized struct
/// indicates a standard full serialization of two nodes with memory visibility.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct cudaGraphEdgeData_st {
    /// This indicates when the dependency is triggered from the upstream node on the edge. The
    /// meaning is specfic to the node type. A value of 0 in all cases means full completion of
    /// the upstream node, with memory visibility to the downstream node or portion thereof
    /// (indicated by to_port).
    pub from_port: c_uchar,
    /// This indicates what portion of the downstream node is dependent on the upstream node or
    /// portion thereof (indicated by from_port). The meaning is specific to the node type. A
    /// value of 0 in all cases means the entirety of the downstream node is dependent on the
    /// upstream work.
    pub to_port: c_uchar,
    /// This should be populated with a value from ::cudaGraphDependencyType. (It is typed as
    /// char due to compiler-specific layout of bitfields.) See ::cudaGraphDependencyType.
    pub r#type: c_uchar,
    /// These bytes are unused and must be zeroed. This ensures compatibility if additional
    /// fields are added in the future.
    pub reserved: [c_uchar; 5],
}

/// Optional annotation for edges in a CUDA graph.
pub type cudaGraphEdgeData = cudaGraphEdgeData_st;

/// This port activates when the kernel has finished executing.
pub const cudaGraphKernelNodePortDefault: c_int = 0;
/// This port activates when all blocks of the kernel have performed
/// cudaTriggerProgrammaticLaunchCompletion() or have terminated. It must be used with edge type
/// ::cudaGraphDependencyTypeProgrammatic. See also ::cudaLaunchAttributeProgrammaticEvent.
pub const cudaGraphKernelNodePortProgrammatic: c_int = 1;
/// This port activates when all blocks of the kernel have begun execution. See also
/// ::cudaLaunchAttributeLaunchCompletionEvent.
pub const cudaGraphKernelNodePortLaunchCompletion: c_int = 2;

/// CUDA Graph Update error types
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphExecUpdateResult {
    /// The update succeeded
    cudaGraphExecUpdateSuccess = 0x0,
    /// The update failed for an unexpected reason which is described in the return value of
    /// the function
    cudaGraphExecUpdateError = 0x1,
    /// The update failed because the topology changed
    cudaGraphExecUpdateErrorTopologyChanged = 0x2,
    /// The update failed because a node type changed
    cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
    /// The update failed because the function of a kernel node changed (CUDA driver < 11.2)
    cudaGraphExecUpdateErrorFunctionChanged = 0x4,
    /// The update failed because the parameters changed in a way that is not supported
    cudaGraphExecUpdateErrorParametersChanged = 0x5,
    /// The update failed because something about the node is not supported
    cudaGraphExecUpdateErrorNotSupported = 0x6,
    /// The update failed because the function of a kernel node changed in an unsupported way
    cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
    /// The update failed because the node attributes changed in a way that is not supported
    cudaGraphExecUpdateErrorAttributesChanged = 0x8,
}

/// Graph instantiation results
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphInstantiateResult {
    /// Instantiation succeeded
    cudaGraphInstantiateSuccess = 0,
    /// Instantiation failed for an unexpected reason which is described in the return value of
    /// the function
    cudaGraphInstantiateError = 1,
    /// Instantiation failed due to invalid structure, such as cycles
    cudaGraphInstantiateInvalidStructure = 2,
    /// Instantiation for device launch failed because the graph contained an unsupported
    /// operation
    cudaGraphInstantiateNodeOperationNotSupported = 3,
    /// Instantiation for device launch failed due to the nodes belonging to different contexts
    cudaGraphInstantiateMultipleDevicesNotSupported = 4,
    /// One or more conditional handles are not associated with conditional nodes
    cudaGraphInstantiateConditionalHandleUnused = 5,
}

/// Graph instantiation parameters
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaGraphInstantiateParams_st {
    /// Instantiation flags
    pub flags: c_ulonglong,
    /// Upload stream
    pub uploadStream: cudaStream_t,
    /// The node which caused instantiation to fail, if any
    pub errNode_out: cudaGraphNode_t,
    /// Whether instantiation was successful. If it failed, the reason why
    pub result_out: raw::cudaGraphInstantiateResult,
}

/// Graph instantiation parameters
pub type cudaGraphInstantiateParams = cudaGraphInstantiateParams_st;

/// Result information returned by cudaGraphExecUpdate
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaGraphExecUpdateResultInfo_st {
    /// Gives more specific detail when a cuda graph update fails.
    pub result: raw::cudaGraphExecUpdateResult,
    /// The "to node" of the error edge when the topologies do not match. The error node when
    /// the error is associated with a specific node. NULL when the error is generic.
    pub errorNode: cudaGraphNode_t,
    /// The from node of error edge when the topologies do not match. Otherwise NULL.
    pub errorFromNode: cudaGraphNode_t,
}

/// Result information returned by cudaGraphExecUpdate
pub type cudaGraphExecUpdateResultInfo = cudaGraphExecUpdateResultInfo_st;

/// Specifies the field to update when performing multiple node updates from the device
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphKernelNodeField {
    /// Invalid field
    cudaGraphKernelNodeFieldInvalid = 0,
    /// Grid dimension update
    cudaGraphKernelNodeFieldGridDim = 1,
    /// Kernel parameter update
    cudaGraphKernelNodeFieldParam = 2,
    /// Node enable/disable
    cudaGraphKernelNodeFieldEnabled = 3,
}

/// Kernel parameter data of a ::cudaGraphKernelNodeUpdate (NVIDIA's field has an unnamed
/// type).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaGraphKernelNodeUpdateParam {
    /// Kernel parameter data to write in
    pub pValue: *const c_void,
    /// Offset into the parameter buffer at which to apply the update
    pub offset: usize,
    /// Number of bytes to update
    pub size: usize,
}

/// Update data to apply of a ::cudaGraphKernelNodeUpdate (NVIDIA's field has an unnamed type).
#[repr(C)]
#[derive(Copy, Clone)]
pub union cudaGraphKernelNodeUpdateData {
    /// Grid dimensions
    pub gridDim: dim3,
    /// Kernel parameter data
    pub param: cudaGraphKernelNodeUpdateParam,
    /// Node enable/disable data. Nonzero if the node should be enabled, 0 if it should be
    /// disabled
    pub isEnabled: c_uint,
}

/// Struct to specify a single node update to pass as part of a larger array to
/// ::cudaGraphKernelNodeUpdatesApply
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaGraphKernelNodeUpdate {
    /// Node to update
    pub node: cudaGraphDeviceNode_t,
    /// Which type of update to apply. Determines how updateData is interpreted
    pub field: raw::cudaGraphKernelNodeField,
    /// Update data to apply. Which field is used depends on field's value
    pub updateData: cudaGraphKernelNodeUpdateData,
}

/// CUDA Graph debug write options
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphDebugDotFlags {
    /// Output all debug data as if every debug flag is enabled
    cudaGraphDebugDotFlagsVerbose = 1 << 0,
    /// Adds cudaKernelNodeParams to output
    cudaGraphDebugDotFlagsKernelNodeParams = 1 << 2,
    /// Adds cudaMemcpy3DParms to output
    cudaGraphDebugDotFlagsMemcpyNodeParams = 1 << 3,
    /// Adds cudaMemsetParams to output
    cudaGraphDebugDotFlagsMemsetNodeParams = 1 << 4,
    /// Adds cudaHostNodeParams to output
    cudaGraphDebugDotFlagsHostNodeParams = 1 << 5,
    /// Adds cudaEvent_t handle from record and wait nodes to output
    cudaGraphDebugDotFlagsEventNodeParams = 1 << 6,
    /// Adds cudaExternalSemaphoreSignalNodeParams values to output
    cudaGraphDebugDotFlagsExtSemasSignalNodeParams = 1 << 7,
    /// Adds cudaExternalSemaphoreWaitNodeParams to output
    cudaGraphDebugDotFlagsExtSemasWaitNodeParams = 1 << 8,
    /// Adds cudaKernelNodeAttrID values to output
    cudaGraphDebugDotFlagsKernelNodeAttributes = 1 << 9,
    /// Adds node handles and every kernel function handle to output
    cudaGraphDebugDotFlagsHandles = 1 << 10,
    /// Adds cudaConditionalNodeParams to output
    cudaGraphDebugDotFlagsConditionalNodeParams = 1 << 15,
    /// Adds memcpy batch node parameters to output
    #[cfg(not(feature = "abi12"))]
    cudaGraphDebugDotFlagsMemcpyBatchNodeParams = 1 << 16,
}

/// Flags for instantiating a graph
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphInstantiateFlags {
    /// Automatically free memory allocated in a graph before relaunching.
    cudaGraphInstantiateFlagAutoFreeOnLaunch = 1,
    /// Automatically upload the graph after instantiation. Only supported by
    /// ::cudaGraphInstantiateWithParams. The upload will be performed using the stream
    /// provided in instantiateParams.
    cudaGraphInstantiateFlagUpload = 2,
    /// Instantiate the graph to be launchable from the device. This flag can only be used on
    /// platforms which support unified addressing. This flag cannot be used in conjunction
    /// with cudaGraphInstantiateFlagAutoFreeOnLaunch.
    cudaGraphInstantiateFlagDeviceLaunch = 4,
    /// Run the graph using the per-node priority attributes rather than the priority of the
    /// stream it is launched into.
    cudaGraphInstantiateFlagUseNodePriority = 8,
}

/// What the `func` member of ::cudaKernelNodeParamsV2 is.
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaKernelFunctionType {
    /// The runtime finds out (a host stub, a ::cudaKernel_t or a ::cudaFunction_t)
    cudaKernelFunctionTypeUnspecified = 0x00,
    /// A host stub of a registered kernel (`func`)
    cudaKernelFunctionTypeDeviceEntry = 0x01,
    /// A ::cudaKernel_t (`kern`)
    cudaKernelFunctionTypeKernel = 0x02,
    /// A ::cudaFunction_t (`cuFunc`)
    cudaKernelFunctionTypeFunction = 0x03,
}

/// How a host node's task waits for the work before it.
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaHostTaskSyncMode {
    /// The host thread blocks
    cudaHostTaskBlocking = 0x0,
    /// The host thread spins
    cudaHostTaskSpinWait = 0x1,
}

/// Memcpy batch node parameters
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaMemcpyBatchNodeParams {
    /// Number of copies
    pub count: usize,
    /// Destination pointers
    pub dsts: *mut *mut c_void,
    /// Source pointers
    pub srcs: *mut *mut c_void,
    /// Sizes of the copies, in bytes
    pub sizes: *mut usize,
    /// Attributes of the copies
    pub attrs: *mut cudaMemcpyAttributes,
    /// Indices of the copies each attribute applies from
    pub attrsIdxs: *mut usize,
    /// Number of attributes
    pub numAttrs: usize,
    /// The execution context the node runs in (NULL: the current one)
    #[cfg(not(feature = "abi12"))]
    pub ctx: cudaExecutionContext_t,
}

// NVIDIA's sizes (the header's layout is checked against NVIDIA's; these check that the Rust
// view is the header's, and for cudaGraphNodeParams, whose C definition is written by hand,
// that it is NVIDIA's).
const _: () = {
    use std::mem::{offset_of, size_of};
    #[cfg(feature = "abi12")]
    assert!(size_of::<cudaKernelNodeParamsV2>() == 56);
    #[cfg(not(feature = "abi12"))]
    assert!(size_of::<cudaKernelNodeParamsV2>() == 72);
    #[cfg(not(feature = "abi12"))]
    assert!(offset_of!(cudaMemcpyNodeParams, ctx) == 8);
    assert!(size_of::<cudaMemcpyNodeParams>() == 176);
    assert!(size_of::<cudaMemAllocNodeParamsV2>() == 120);
    assert!(size_of::<cudaGraphNodeParamsUnion>() == 232);
    assert!(size_of::<cudaGraphNodeParams>() == 256);
    assert!(offset_of!(cudaGraphNodeParams, u) == 16 && offset_of!(cudaGraphNodeParams, reserved2) == 248);
    assert!(size_of::<cudaGraphEdgeData>() == 8);
    assert!(size_of::<cudaGraphKernelNodeUpdate>() == 40);
};

/// Possible recapture statuses that can be returned to the user callback
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGraphRecaptureStatus {
    /// Node is eligible for update in an instantiated graph.
    cudaGraphRecaptureEligibleForUpdate = 0,
    /// Parameter changes in the node cannot be applied to an instantiated graph.
    cudaGraphRecaptureIneligibleForUpdate = 1,
    /// Error while attempting to recapture the node.
    cudaGraphRecaptureError = 2,
}

/// Callback function invoked when node parameter mismatches are detected while recapturing to
/// an existing graph. Parameter struct pointers are only valid within the callback.
#[cfg(not(feature = "abi12"))]
pub type cudaGraphRecaptureCallback_t = Option<
    unsafe extern "C" fn(
        data: *mut c_void,
        node: cudaGraphNode_t,
        originalParams: *const cudaGraphNodeParams,
        recaptureParams: *const cudaGraphNodeParams,
        status: raw::cudaGraphRecaptureStatus,
    ) -> super::cudaError_t,
>;

/// Struct of user callback data that is invoked when node parameter mismatches are detected
/// while recapturing to an existing graph
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaGraphRecaptureCallbackData {
    /// Callback function that will be invoked
    pub callbackFunc: cudaGraphRecaptureCallback_t,
    /// Generic pointer that is passed to the callback function
    pub userData: *mut c_void,
}

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(
        cudaUserObjectFlags,
        cudaUserObjectRetainFlags,
        cudaGraphMemAttributeType,
        cudaGraphConditionalHandleFlags,
        cudaGraphConditionalNodeType,
        cudaGraphNodeType,
        cudaGraphChildGraphNodeOwnership,
        cudaGraphDependencyType_enum,
        cudaGraphExecUpdateResult,
        cudaGraphInstantiateResult,
        cudaGraphKernelNodeField,
        cudaGraphDebugDotFlags,
        cudaGraphInstantiateFlags,
    );
    #[cfg(not(feature = "abi12"))]
    super::super::raw_enum!(cudaGraphRecaptureStatus, cudaKernelFunctionType, cudaHostTaskSyncMode);
    /// cbindgen:ignore
    pub type cudaGraphDependencyType = cudaGraphDependencyType_enum;
}
