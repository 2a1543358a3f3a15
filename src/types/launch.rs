//! Launch types (NVIDIA's `vector_types.h` and `driver_types.h`): dimensions, function
//! attributes, the extensible launch configuration and its attributes (shared with streams
//! and kernel nodes), access policy windows, and stream capture.

use std::ffi::{c_char, c_int, c_uchar, c_uint, c_void};

use super::{cudaEvent_t, cudaStream_t};

/// Three unsigned integers (`vector_types.h`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct uint3 {
    pub x: c_uint,
    pub y: c_uint,
    pub z: c_uint,
}

/// Grid and block dimensions of a launch (`vector_types.h`).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct dim3 {
    pub x: c_uint,
    pub y: c_uint,
    pub z: c_uint,
}

impl Default for dim3 {
    fn default() -> Self {
        dim3 { x: 1, y: 1, z: 1 }
    }
}

/// Opaque kernel: a driver `CUkernel`.
pub struct CUkern_st {
    _private: [u8; 0],
}

/// CUDA kernel.
pub type cudaKernel_t = *mut CUkern_st;

/// CUDA function attributes.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaFuncAttributes {
    /// The size in bytes of statically-allocated shared memory per block required by this
    /// function. This does not include dynamically-allocated shared memory requested by the
    /// user at runtime.
    pub sharedSizeBytes: usize,
    /// The size in bytes of user-allocated constant memory required by this function.
    pub constSizeBytes: usize,
    /// The size in bytes of local memory used by each thread of this function.
    pub localSizeBytes: usize,
    /// The maximum number of threads per block, beyond which a launch of the function would
    /// fail.
    pub maxThreadsPerBlock: c_int,
    /// The number of registers used by each thread of this function.
    pub numRegs: c_int,
    /// The PTX virtual architecture version for which the function was compiled.
    pub ptxVersion: c_int,
    /// The binary architecture version for which the function was compiled.
    pub binaryVersion: c_int,
    /// The attribute to indicate whether the function has been compiled with user specified
    /// option "-Xptxas --dlcm=ca" set.
    pub cacheModeCA: c_int,
    /// The maximum size in bytes of dynamic shared memory per block for this function.
    pub maxDynamicSharedSizeBytes: c_int,
    /// On devices where the L1 cache and shared memory use the same hardware resources, this
    /// sets the shared memory carveout preference, in percent of the maximum shared memory.
    pub preferredShmemCarveout: c_int,
    /// If this attribute is set, the kernel must launch with a valid cluster dimension
    /// specified.
    pub clusterDimMustBeSet: c_int,
    /// The required cluster width in blocks.
    pub requiredClusterWidth: c_int,
    /// The required cluster height in blocks.
    pub requiredClusterHeight: c_int,
    /// The required cluster depth in blocks.
    pub requiredClusterDepth: c_int,
    /// The block scheduling policy of a function.
    pub clusterSchedulingPolicyPreference: c_int,
    /// Whether the function can be launched with non-portable cluster size.
    pub nonPortableClusterSizeAllowed: c_int,
    /// Whether the function can be in a device-updatable kernel node.
    #[cfg(not(feature = "abi12"))]
    pub deviceNodeUpdateStatus: c_int,
    /// The shared memory mode of the function (::cudaSharedMemoryMode).
    #[cfg(not(feature = "abi12"))]
    pub sharedMemoryMode: raw::cudaSharedMemoryMode,
    /// Reserved for future use.
    #[cfg(feature = "abi12")]
    pub reserved: [c_int; 16],
    /// Reserved for future use.
    #[cfg(not(feature = "abi12"))]
    pub reserved: [c_int; 14],
}

/// Shared memory modes of a kernel (::cudaFuncAttributeSharedMemoryMode,
/// ::cudaLaunchAttributeSharedMemoryMode).
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaSharedMemoryMode {
    /// The default mode
    cudaSharedMemoryModeDefault = 0,
    /// Only portable shared memory sizes
    cudaSharedMemoryModeRequirePortable = 1,
    /// Non-portable shared memory sizes allowed
    cudaSharedMemoryModeAllowNonPortable = 2,
    /// Oversized shared memory allowed
    cudaSharedMemoryModeAllowOversizedSharedMemory = 3,
    /// Oversized shared memory preferred
    cudaSharedMemoryModePreferOversizedSharedMemory = 4,
}

/// Portable cluster size modes (::cudaLaunchAttributePortableClusterSizeMode).
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaLaunchAttributePortableClusterMode {
    /// The default mode
    cudaLaunchPortableClusterModeDefault = 0,
    /// Only portable cluster sizes
    cudaLaunchPortableClusterModeRequirePortable = 1,
    /// Non-portable cluster sizes allowed
    cudaLaunchPortableClusterModeAllowNonPortable = 2,
}

/// Where the status of a fabric operation comes from.
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaFabricOpStatusSource {
    /// An mbarrier (version 1)
    cudaFabricOpStatusSourceMbarrierV1 = 0x0,
    /// Forces the enum to 32 bits
    cudaFabricOpStatusSourceMax = 0x7FFFFFFF,
}

/// The status of a fabric operation.
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaFabricOpStatusInfo {
    /// Success
    cudaFabricOpStatusInfoSuccess = 0x0,
    /// Forces the enum to 32 bits
    cudaFabricOpStatusInfoMax = 0x7FFFFFFF,
}

/// The last status of a fabric operation
#[cfg(not(feature = "abi12"))]
pub const cudaFabricOpStatusInfoLast: cudaFabricOpStatusInfo = cudaFabricOpStatusInfo::cudaFabricOpStatusInfoSuccess;

/// CUDA function attributes that can be set using cudaFuncSetAttribute.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaFuncAttribute {
    /// Maximum dynamic shared memory size
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    /// Preferred shared memory-L1 cache split
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
    /// Indicator to enforce valid cluster dimension specification on kernel launch
    cudaFuncAttributeClusterDimMustBeSet = 10,
    /// Required cluster width
    cudaFuncAttributeRequiredClusterWidth = 11,
    /// Required cluster height
    cudaFuncAttributeRequiredClusterHeight = 12,
    /// Required cluster depth
    cudaFuncAttributeRequiredClusterDepth = 13,
    /// Whether non-portable cluster scheduling policy is supported
    cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
    /// Required cluster scheduling policy preference
    cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
    /// Shared memory mode (::cudaSharedMemoryMode)
    #[cfg(not(feature = "abi12"))]
    cudaFuncAttributeSharedMemoryMode = 16,
    #[cfg(feature = "abi12")]
    cudaFuncAttributeMax = 16,
    #[cfg(not(feature = "abi12"))]
    cudaFuncAttributeMax = 17,
}

/// If set, each kernel launched as part of ::cudaLaunchCooperativeKernelMultiDevice only
/// waits for prior work in the stream corresponding to that GPU to complete before the kernel
/// begins execution.
#[cfg(feature = "abi12")]
pub const cudaCooperativeLaunchMultiDeviceNoPreSync: c_uint = 0x01;
/// If set, any subsequent work pushed in a stream that participated in a call to
/// ::cudaLaunchCooperativeKernelMultiDevice will only wait for the kernel launched on the GPU
/// corresponding to that stream to complete before it begins execution.
#[cfg(feature = "abi12")]
pub const cudaCooperativeLaunchMultiDeviceNoPostSync: c_uint = 0x02;

/// Default event record flag
pub const cudaEventRecordDefault: c_uint = 0x00;
/// Event is captured in the graph as an external event node when performing stream capture
pub const cudaEventRecordExternal: c_uint = 0x01;
/// Default event wait flag
pub const cudaEventWaitDefault: c_uint = 0x00;
/// Event is captured in the graph as an external event node when performing stream capture
pub const cudaEventWaitExternal: c_uint = 0x01;

/// CUDA cooperative group scope
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaCGScope {
    /// Invalid cooperative group scope
    cudaCGScopeInvalid = 0,
    /// Scope represented by a grid_group
    cudaCGScopeGrid = 1,
    /// Scope represented by a multi_grid_group
    #[cfg(feature = "abi12")]
    cudaCGScopeMultiGrid = 2,
    /// Reserved
    #[cfg(not(feature = "abi12"))]
    cudaCGScopeReserved = 2,
}

/// CUDA launch parameters
#[cfg(feature = "abi12")]
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaLaunchParams {
    /// Device function symbol
    pub func: *mut c_void,
    /// Grid dimentions
    pub gridDim: dim3,
    /// Block dimentions
    pub blockDim: dim3,
    /// Arguments
    pub args: *mut *mut c_void,
    /// Shared memory
    pub sharedMem: usize,
    /// Stream identifier
    pub stream: cudaStream_t,
}

/// Specifies performance hint with ::cudaAccessPolicyWindow for hitProp and missProp members.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaAccessProperty {
    /// Normal cache persistence.
    cudaAccessPropertyNormal = 0,
    /// Streaming access is less likely to persit from cache.
    cudaAccessPropertyStreaming = 1,
    /// Persisting access is more likely to persist in cache.
    cudaAccessPropertyPersisting = 2,
}

/// Specifies an access policy for a window, a contiguous extent of memory beginning at
/// base_ptr and ending at base_ptr + num_bytes.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaAccessPolicyWindow {
    /// Starting address of the access policy window. CUDA driver may align it.
    pub base_ptr: *mut c_void,
    /// Size in bytes of the window policy. CUDA driver may restrict the maximum size and
    /// alignment.
    pub num_bytes: usize,
    /// hitRatio specifies percentage of lines assigned hitProp, rest are assigned missProp.
    pub hitRatio: f32,
    /// ::CUaccessProperty set for hit.
    pub hitProp: raw::cudaAccessProperty,
    /// ::CUaccessProperty set for miss. Must be either NORMAL or STREAMING.
    pub missProp: raw::cudaAccessProperty,
}

/// Possible stream capture statuses returned by ::cudaStreamIsCapturing
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaStreamCaptureStatus {
    /// Stream is not capturing
    cudaStreamCaptureStatusNone = 0,
    /// Stream is actively capturing
    cudaStreamCaptureStatusActive = 1,
    /// Stream is part of a capture sequence that has been invalidated, but not terminated
    cudaStreamCaptureStatusInvalidated = 2,
}

/// Possible modes for stream capture thread interactions. For more details see
/// ::cudaStreamBeginCapture and ::cudaThreadExchangeStreamCaptureMode
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2,
}

/// Synchronization policy of a stream (::cudaLaunchAttributeSynchronizationPolicy).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaSynchronizationPolicy {
    cudaSyncPolicyAuto = 1,
    cudaSyncPolicySpin = 2,
    cudaSyncPolicyYield = 3,
    cudaSyncPolicyBlockingSync = 4,
}

/// Cluster scheduling policies. These may be passed to ::cudaFuncSetAttribute
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaClusterSchedulingPolicy {
    /// the default policy
    cudaClusterSchedulingPolicyDefault = 0,
    /// spread the blocks within a cluster to the SMs
    cudaClusterSchedulingPolicySpread = 1,
    /// allow the hardware to load-balance the blocks in a cluster to the SMs
    cudaClusterSchedulingPolicyLoadBalancing = 2,
    /// Rubin DSMEM locality
    #[cfg(not(feature = "abi12"))]
    cudaClusterSchedulingPolicyRubinDsmemLocality = 3,
}

/// Flags for ::cudaStreamUpdateCaptureDependencies
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaStreamUpdateCaptureDependenciesFlags {
    /// Add new nodes to the dependency set
    cudaStreamAddCaptureDependencies = 0x0,
    /// Replace the dependency set with the new nodes
    cudaStreamSetCaptureDependencies = 0x1,
}

/// Memory Synchronization Domain
///
/// A kernel can be launched in a specified memory synchronization domain that affects all
/// memory operations issued by that kernel. A memory barrier issued in one domain will only
/// order memory operations in that domain, thus eliminating latency increase from memory
/// barriers ordering unrelated traffic.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaLaunchMemSyncDomain {
    /// Launch kernels in the default domain
    cudaLaunchMemSyncDomainDefault = 0,
    /// Launch kernels in the remote domain
    cudaLaunchMemSyncDomainRemote = 1,
}

/// Memory Synchronization Domain map
///
/// See ::cudaLaunchMemSyncDomain.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct cudaLaunchMemSyncDomainMap_st {
    /// The default domain ID to use for designated kernels
    pub default_: c_uchar,
    /// The remote domain ID to use for designated kernels
    pub remote: c_uchar,
}

/// Memory Synchronization Domain map
pub type cudaLaunchMemSyncDomainMap = cudaLaunchMemSyncDomainMap_st;

/// Launch attributes enum; used as id field of ::cudaLaunchAttribute
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaLaunchAttributeID {
    /// Ignored entry, for convenient composition
    cudaLaunchAttributeIgnore = 0,
    /// Valid for streams, graph nodes, launches. See ::cudaLaunchAttributeValue::accessPolicyWindow.
    cudaLaunchAttributeAccessPolicyWindow = 1,
    /// Valid for graph nodes, launches. See ::cudaLaunchAttributeValue::cooperative.
    cudaLaunchAttributeCooperative = 2,
    /// Valid for streams. See ::cudaLaunchAttributeValue::syncPolicy.
    cudaLaunchAttributeSynchronizationPolicy = 3,
    /// Valid for graph nodes, launches. See ::cudaLaunchAttributeValue::clusterDim.
    cudaLaunchAttributeClusterDimension = 4,
    /// Valid for graph nodes, launches. See
    /// ::cudaLaunchAttributeValue::clusterSchedulingPolicyPreference.
    cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
    /// Valid for launches. Setting
    /// ::cudaLaunchAttributeValue::programmaticStreamSerializationAllowed to non-0 signals that
    /// the kernel will use programmatic means to resolve its stream dependency.
    cudaLaunchAttributeProgrammaticStreamSerialization = 6,
    /// Valid for launches. Set ::cudaLaunchAttributeValue::programmaticEvent to record the
    /// event.
    cudaLaunchAttributeProgrammaticEvent = 7,
    /// Valid for streams, graph nodes, launches. See ::cudaLaunchAttributeValue::priority.
    cudaLaunchAttributePriority = 8,
    /// Valid for streams, graph nodes, launches. See ::cudaLaunchAttributeValue::memSyncDomainMap.
    cudaLaunchAttributeMemSyncDomainMap = 9,
    /// Valid for streams, graph nodes, launches. See ::cudaLaunchAttributeValue::memSyncDomain.
    cudaLaunchAttributeMemSyncDomain = 10,
    /// Valid for graph nodes and launches. Set ::cudaLaunchAttributeValue::preferredClusterDim
    /// to allow the kernel launch to specify a preferred substitute cluster dimension.
    cudaLaunchAttributePreferredClusterDimension = 11,
    /// Valid for launches. Set ::cudaLaunchAttributeValue::launchCompletionEvent to record the
    /// event.
    cudaLaunchAttributeLaunchCompletionEvent = 12,
    /// Valid for graph nodes, launches. This attribute is graphs-only, and passing it to a
    /// launch in a non-capturing stream will result in an error.
    cudaLaunchAttributeDeviceUpdatableKernelNode = 13,
    /// Valid for launches. On devices where the L1 cache and shared memory use the same
    /// hardware resources, setting ::cudaLaunchAttributeValue::sharedMemCarveout to a
    /// percentage between 0-100 signals sets the shared memory carveout preference in percent
    /// of the total shared memory for that kernel launch.
    cudaLaunchAttributePreferredSharedMemoryCarveout = 14,
    /// Valid for streams, graph nodes, launches. This attribute is a hint to the CUDA runtime
    /// that the launch should attempt to make the kernel maximize its NVLINK utilization.
    #[cfg(not(feature = "abi12"))]
    cudaLaunchAttributeNvlinkUtilCentricScheduling = 16,
    /// Valid for launches: the portable cluster size mode (::cudaLaunchAttributeValue::portableClusterSizeMode)
    #[cfg(not(feature = "abi12"))]
    cudaLaunchAttributePortableClusterSizeMode = 17,
    /// Valid for launches: the shared memory mode (::cudaLaunchAttributeValue::sharedMemoryMode)
    #[cfg(not(feature = "abi12"))]
    cudaLaunchAttributeSharedMemoryMode = 18,
}

/// Opaque device-updatable kernel node: a driver `CUgraphDeviceNode`.
pub struct CUgraphDeviceUpdatableNode_st {
    _private: [u8; 0],
}

/// CUDA device node handle for device-side node update
pub type cudaGraphDeviceNode_t = *mut CUgraphDeviceUpdatableNode_st;

/// Value of launch attribute ::cudaLaunchAttributeClusterDimension (NVIDIA's field has an
/// unnamed type).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct cudaLaunchAttributeValueClusterDim {
    /// The X dimension of the cluster, in blocks. Must be a divisor of the grid X dimension.
    pub x: c_uint,
    /// The Y dimension of the cluster, in blocks. Must be a divisor of the grid Y dimension.
    pub y: c_uint,
    /// The Z dimension of the cluster, in blocks. Must be a divisor of the grid Z dimension.
    pub z: c_uint,
}

/// Value of launch attribute ::cudaLaunchAttributeProgrammaticEvent (NVIDIA's field has an
/// unnamed type).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaLaunchAttributeValueProgrammaticEvent {
    /// Event to fire when all blocks trigger it.
    pub event: cudaEvent_t,
    /// Event record flags, see ::cudaEventRecordWithFlags. Does not accept
    /// ::cudaEventRecordExternal.
    pub flags: c_int,
    /// If this is set to non-0, each block launch will automatically trigger the event.
    pub triggerAtBlockStart: c_int,
}

/// Value of launch attribute ::cudaLaunchAttributePreferredClusterDimension (NVIDIA's field
/// has an unnamed type).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct cudaLaunchAttributeValuePreferredClusterDim {
    /// The X dimension of the preferred cluster, in blocks.
    pub x: c_uint,
    /// The Y dimension of the preferred cluster, in blocks.
    pub y: c_uint,
    /// The Z dimension of the preferred cluster, in blocks.
    pub z: c_uint,
}

/// Value of launch attribute ::cudaLaunchAttributeLaunchCompletionEvent (NVIDIA's field has
/// an unnamed type).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaLaunchAttributeValueLaunchCompletionEvent {
    /// Event to fire when the last block launches.
    pub event: cudaEvent_t,
    /// Event record flags, see ::cudaEventRecordWithFlags. Does not accept
    /// ::cudaEventRecordExternal.
    pub flags: c_int,
}

/// Value of launch attribute ::cudaLaunchAttributeDeviceUpdatableKernelNode (NVIDIA's field
/// has an unnamed type).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaLaunchAttributeValueDeviceUpdatableKernelNode {
    /// Whether or not the resulting kernel node should be device-updatable.
    pub deviceUpdatable: c_int,
    /// Returns a handle to pass to the various device-side update functions.
    pub devNode: cudaGraphDeviceNode_t,
}

/// Launch attributes union; used as value field of ::cudaLaunchAttribute
///
/// Enum values are held as integers: C may pass any value.
#[repr(C)]
#[derive(Copy, Clone)]
pub union cudaLaunchAttributeValue {
    /// Pad to 64 bytes
    pub pad: [c_char; 64],
    /// Value of launch attribute ::cudaLaunchAttributeAccessPolicyWindow.
    pub accessPolicyWindow: cudaAccessPolicyWindow,
    /// Value of launch attribute ::cudaLaunchAttributeCooperative. Nonzero indicates a
    /// cooperative kernel (see ::cudaLaunchCooperativeKernel).
    pub cooperative: c_int,
    /// Value of launch attribute ::cudaLaunchAttributeSynchronizationPolicy.
    /// ::cudaSynchronizationPolicy for work queued up in this stream.
    pub syncPolicy: raw::cudaSynchronizationPolicy,
    /// Value of launch attribute ::cudaLaunchAttributeClusterDimension that represents the
    /// desired cluster dimensions for the kernel.
    pub clusterDim: cudaLaunchAttributeValueClusterDim,
    /// Value of launch attribute ::cudaLaunchAttributeClusterSchedulingPolicyPreference.
    /// Cluster scheduling policy preference for the kernel.
    pub clusterSchedulingPolicyPreference: raw::cudaClusterSchedulingPolicy,
    /// Value of launch attribute ::cudaLaunchAttributeProgrammaticStreamSerialization.
    pub programmaticStreamSerializationAllowed: c_int,
    /// Value of launch attribute ::cudaLaunchAttributeProgrammaticEvent.
    pub programmaticEvent: cudaLaunchAttributeValueProgrammaticEvent,
    /// Value of launch attribute ::cudaLaunchAttributePriority. Execution priority of the
    /// kernel.
    pub priority: c_int,
    /// Value of launch attribute ::cudaLaunchAttributeMemSyncDomainMap. See
    /// ::cudaLaunchMemSyncDomainMap.
    pub memSyncDomainMap: cudaLaunchMemSyncDomainMap,
    /// Value of launch attribute ::cudaLaunchAttributeMemSyncDomain. See
    /// ::cudaLaunchMemSyncDomain.
    pub memSyncDomain: raw::cudaLaunchMemSyncDomain,
    /// Value of launch attribute ::cudaLaunchAttributePreferredClusterDimension that
    /// represents the desired preferred cluster dimensions for the kernel.
    pub preferredClusterDim: cudaLaunchAttributeValuePreferredClusterDim,
    /// Value of launch attribute ::cudaLaunchAttributeLaunchCompletionEvent.
    pub launchCompletionEvent: cudaLaunchAttributeValueLaunchCompletionEvent,
    /// Value of launch attribute ::cudaLaunchAttributeDeviceUpdatableKernelNode.
    pub deviceUpdatableKernelNode: cudaLaunchAttributeValueDeviceUpdatableKernelNode,
    /// Value of launch attribute ::cudaLaunchAttributePreferredSharedMemoryCarveout.
    pub sharedMemCarveout: c_uint,
    /// Value of launch attribute ::cudaLaunchAttributeNvlinkUtilCentricScheduling.
    #[cfg(not(feature = "abi12"))]
    pub nvlinkUtilCentricScheduling: c_uint,
    /// Value of launch attribute ::cudaLaunchAttributePortableClusterSizeMode.
    #[cfg(not(feature = "abi12"))]
    pub portableClusterSizeMode: raw::cudaLaunchAttributePortableClusterMode,
    /// Value of launch attribute ::cudaLaunchAttributeSharedMemoryMode.
    #[cfg(not(feature = "abi12"))]
    pub sharedMemoryMode: raw::cudaSharedMemoryMode,
}

/// Launch attribute
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaLaunchAttribute_st {
    /// Attribute to set
    pub id: raw::cudaLaunchAttributeID,
    /// `8 - sizeof(cudaLaunchAttributeID)` bytes of padding
    pub pad: [c_char; 4],
    /// Value of the attribute
    pub val: cudaLaunchAttributeValue,
}

/// Launch attribute
pub type cudaLaunchAttribute = cudaLaunchAttribute_st;

/// CUDA extensible launch configuration
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaLaunchConfig_st {
    /// Grid dimensions
    pub gridDim: dim3,
    /// Block dimensions
    pub blockDim: dim3,
    /// Dynamic shared-memory size per thread block in bytes
    pub dynamicSmemBytes: usize,
    /// Stream identifier
    pub stream: cudaStream_t,
    /// List of attributes; nullable if ::cudaLaunchConfig_t::numAttrs == 0
    pub attrs: *mut cudaLaunchAttribute,
    /// Number of attributes populated in ::cudaLaunchConfig_t::attrs
    pub numAttrs: c_uint,
}

/// CUDA extensible launch configuration
pub type cudaLaunchConfig_t = cudaLaunchConfig_st;

// The stream and kernel node attributes are the launch attributes under other names
// (`cudaStreamAttrID`, `cudaStreamAttrValue`, `cudaKernelNodeAttrID` and
// `cudaKernelNodeAttrValue` are #defines of the type names: cbindgen.toml).
/// Stream attribute: ::cudaLaunchAttributeAccessPolicyWindow
pub const cudaStreamAttributeAccessPolicyWindow: cudaLaunchAttributeID =
    cudaLaunchAttributeID::cudaLaunchAttributeAccessPolicyWindow;
/// Stream attribute: ::cudaLaunchAttributeSynchronizationPolicy
pub const cudaStreamAttributeSynchronizationPolicy: cudaLaunchAttributeID =
    cudaLaunchAttributeID::cudaLaunchAttributeSynchronizationPolicy;
/// Stream attribute: ::cudaLaunchAttributeMemSyncDomainMap
pub const cudaStreamAttributeMemSyncDomainMap: cudaLaunchAttributeID =
    cudaLaunchAttributeID::cudaLaunchAttributeMemSyncDomainMap;
/// Stream attribute: ::cudaLaunchAttributeMemSyncDomain
pub const cudaStreamAttributeMemSyncDomain: cudaLaunchAttributeID =
    cudaLaunchAttributeID::cudaLaunchAttributeMemSyncDomain;
/// Stream attribute: ::cudaLaunchAttributePriority
pub const cudaStreamAttributePriority: cudaLaunchAttributeID = cudaLaunchAttributeID::cudaLaunchAttributePriority;
/// Kernel node attribute: ::cudaLaunchAttributeAccessPolicyWindow
pub const cudaKernelNodeAttributeAccessPolicyWindow: cudaLaunchAttributeID =
    cudaLaunchAttributeID::cudaLaunchAttributeAccessPolicyWindow;
/// Kernel node attribute: ::cudaLaunchAttributeCooperative
pub const cudaKernelNodeAttributeCooperative: cudaLaunchAttributeID =
    cudaLaunchAttributeID::cudaLaunchAttributeCooperative;
/// Kernel node attribute: ::cudaLaunchAttributePriority
pub const cudaKernelNodeAttributePriority: cudaLaunchAttributeID = cudaLaunchAttributeID::cudaLaunchAttributePriority;
/// Kernel node attribute: ::cudaLaunchAttributeClusterDimension
pub const cudaKernelNodeAttributeClusterDimension: cudaLaunchAttributeID =
    cudaLaunchAttributeID::cudaLaunchAttributeClusterDimension;
/// Kernel node attribute: ::cudaLaunchAttributeClusterSchedulingPolicyPreference
pub const cudaKernelNodeAttributeClusterSchedulingPolicyPreference: cudaLaunchAttributeID =
    cudaLaunchAttributeID::cudaLaunchAttributeClusterSchedulingPolicyPreference;
/// Kernel node attribute: ::cudaLaunchAttributeMemSyncDomainMap
pub const cudaKernelNodeAttributeMemSyncDomainMap: cudaLaunchAttributeID =
    cudaLaunchAttributeID::cudaLaunchAttributeMemSyncDomainMap;
/// Kernel node attribute: ::cudaLaunchAttributeMemSyncDomain
pub const cudaKernelNodeAttributeMemSyncDomain: cudaLaunchAttributeID =
    cudaLaunchAttributeID::cudaLaunchAttributeMemSyncDomain;
/// Kernel node attribute: ::cudaLaunchAttributePreferredSharedMemoryCarveout
pub const cudaKernelNodeAttributePreferredSharedMemoryCarveout: cudaLaunchAttributeID =
    cudaLaunchAttributeID::cudaLaunchAttributePreferredSharedMemoryCarveout;
/// Kernel node attribute: ::cudaLaunchAttributeDeviceUpdatableKernelNode
pub const cudaKernelNodeAttributeDeviceUpdatableKernelNode: cudaLaunchAttributeID =
    cudaLaunchAttributeID::cudaLaunchAttributeDeviceUpdatableKernelNode;
/// Kernel node attribute: ::cudaLaunchAttributeNvlinkUtilCentricScheduling
#[cfg(not(feature = "abi12"))]
pub const cudaKernelNodeAttributeNvlinkUtilCentricScheduling: cudaLaunchAttributeID =
    cudaLaunchAttributeID::cudaLaunchAttributeNvlinkUtilCentricScheduling;

// NVIDIA's sizes (the header's layout is checked against NVIDIA's; these check that the
// Rust view is the header's).
const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<cudaLaunchAttributeValue>() == 64);
    assert!(size_of::<cudaLaunchAttribute>() == 72 && offset_of!(cudaLaunchAttribute, val) == 8);
    assert!(size_of::<cudaLaunchConfig_t>() == 56);
};

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(
        cudaFuncAttribute,
        cudaCGScope,
        cudaAccessProperty,
        cudaStreamCaptureStatus,
        cudaStreamCaptureMode,
        cudaSynchronizationPolicy,
        cudaClusterSchedulingPolicy,
        cudaStreamUpdateCaptureDependenciesFlags,
        cudaLaunchMemSyncDomain,
        cudaLaunchAttributeID,
    );
    #[cfg(not(feature = "abi12"))]
    super::super::raw_enum!(cudaSharedMemoryMode, cudaLaunchAttributePortableClusterMode);
}
