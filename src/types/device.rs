//! Device management types (`driver_types.h`): attributes, properties, limits, cache and
//! shared memory configurations, peer and atomic capabilities, GPUDirect RDMA and async
//! notifications.

use std::ffi::{c_char, c_int, c_uint, c_ulonglong, c_void};

/// CUDA device attributes.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaDeviceAttr {
    /// Maximum number of threads per block
    cudaDevAttrMaxThreadsPerBlock = 1,
    /// Maximum block dimension X
    cudaDevAttrMaxBlockDimX = 2,
    /// Maximum block dimension Y
    cudaDevAttrMaxBlockDimY = 3,
    /// Maximum block dimension Z
    cudaDevAttrMaxBlockDimZ = 4,
    /// Maximum grid dimension X
    cudaDevAttrMaxGridDimX = 5,
    /// Maximum grid dimension Y
    cudaDevAttrMaxGridDimY = 6,
    /// Maximum grid dimension Z
    cudaDevAttrMaxGridDimZ = 7,
    /// Maximum shared memory available per block in bytes
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    /// Memory available on device for __constant__ variables in a CUDA C kernel in bytes
    cudaDevAttrTotalConstantMemory = 9,
    /// Warp size in threads
    cudaDevAttrWarpSize = 10,
    /// Maximum pitch in bytes allowed by memory copies
    cudaDevAttrMaxPitch = 11,
    /// Maximum number of 32-bit registers available per block
    cudaDevAttrMaxRegistersPerBlock = 12,
    /// Peak clock frequency in kilohertz
    cudaDevAttrClockRate = 13,
    /// Alignment requirement for textures
    cudaDevAttrTextureAlignment = 14,
    /// Device can possibly copy memory and execute a kernel concurrently
    cudaDevAttrGpuOverlap = 15,
    /// Number of multiprocessors on device
    cudaDevAttrMultiProcessorCount = 16,
    /// Specifies whether there is a run time limit on kernels
    cudaDevAttrKernelExecTimeout = 17,
    /// Device is integrated with host memory
    cudaDevAttrIntegrated = 18,
    /// Device can map host memory into CUDA address space
    cudaDevAttrCanMapHostMemory = 19,
    /// Compute mode (See ::cudaComputeMode for details)
    cudaDevAttrComputeMode = 20,
    /// Maximum 1D texture width
    cudaDevAttrMaxTexture1DWidth = 21,
    /// Maximum 2D texture width
    cudaDevAttrMaxTexture2DWidth = 22,
    /// Maximum 2D texture height
    cudaDevAttrMaxTexture2DHeight = 23,
    /// Maximum 3D texture width
    cudaDevAttrMaxTexture3DWidth = 24,
    /// Maximum 3D texture height
    cudaDevAttrMaxTexture3DHeight = 25,
    /// Maximum 3D texture depth
    cudaDevAttrMaxTexture3DDepth = 26,
    /// Maximum 2D layered texture width
    cudaDevAttrMaxTexture2DLayeredWidth = 27,
    /// Maximum 2D layered texture height
    cudaDevAttrMaxTexture2DLayeredHeight = 28,
    /// Maximum layers in a 2D layered texture
    cudaDevAttrMaxTexture2DLayeredLayers = 29,
    /// Alignment requirement for surfaces
    cudaDevAttrSurfaceAlignment = 30,
    /// Device can possibly execute multiple kernels concurrently
    cudaDevAttrConcurrentKernels = 31,
    /// Device has ECC support enabled
    cudaDevAttrEccEnabled = 32,
    /// PCI bus ID of the device
    cudaDevAttrPciBusId = 33,
    /// PCI device ID of the device
    cudaDevAttrPciDeviceId = 34,
    /// Device is using TCC driver model
    cudaDevAttrTccDriver = 35,
    /// Peak memory clock frequency in kilohertz
    cudaDevAttrMemoryClockRate = 36,
    /// Global memory bus width in bits
    cudaDevAttrGlobalMemoryBusWidth = 37,
    /// Size of L2 cache in bytes
    cudaDevAttrL2CacheSize = 38,
    /// Maximum resident threads per multiprocessor
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    /// Number of asynchronous engines
    cudaDevAttrAsyncEngineCount = 40,
    /// Device shares a unified address space with the host
    cudaDevAttrUnifiedAddressing = 41,
    /// Maximum 1D layered texture width
    cudaDevAttrMaxTexture1DLayeredWidth = 42,
    /// Maximum layers in a 1D layered texture
    cudaDevAttrMaxTexture1DLayeredLayers = 43,
    /// Maximum 2D texture width if cudaArrayTextureGather is set
    cudaDevAttrMaxTexture2DGatherWidth = 45,
    /// Maximum 2D texture height if cudaArrayTextureGather is set
    cudaDevAttrMaxTexture2DGatherHeight = 46,
    /// Alternate maximum 3D texture width
    cudaDevAttrMaxTexture3DWidthAlt = 47,
    /// Alternate maximum 3D texture height
    cudaDevAttrMaxTexture3DHeightAlt = 48,
    /// Alternate maximum 3D texture depth
    cudaDevAttrMaxTexture3DDepthAlt = 49,
    /// PCI domain ID of the device
    cudaDevAttrPciDomainId = 50,
    /// Pitch alignment requirement for textures
    cudaDevAttrTexturePitchAlignment = 51,
    /// Maximum cubemap texture width/height
    cudaDevAttrMaxTextureCubemapWidth = 52,
    /// Maximum cubemap layered texture width/height
    cudaDevAttrMaxTextureCubemapLayeredWidth = 53,
    /// Maximum layers in a cubemap layered texture
    cudaDevAttrMaxTextureCubemapLayeredLayers = 54,
    /// Maximum 1D surface width
    cudaDevAttrMaxSurface1DWidth = 55,
    /// Maximum 2D surface width
    cudaDevAttrMaxSurface2DWidth = 56,
    /// Maximum 2D surface height
    cudaDevAttrMaxSurface2DHeight = 57,
    /// Maximum 3D surface width
    cudaDevAttrMaxSurface3DWidth = 58,
    /// Maximum 3D surface height
    cudaDevAttrMaxSurface3DHeight = 59,
    /// Maximum 3D surface depth
    cudaDevAttrMaxSurface3DDepth = 60,
    /// Maximum 1D layered surface width
    cudaDevAttrMaxSurface1DLayeredWidth = 61,
    /// Maximum layers in a 1D layered surface
    cudaDevAttrMaxSurface1DLayeredLayers = 62,
    /// Maximum 2D layered surface width
    cudaDevAttrMaxSurface2DLayeredWidth = 63,
    /// Maximum 2D layered surface height
    cudaDevAttrMaxSurface2DLayeredHeight = 64,
    /// Maximum layers in a 2D layered surface
    cudaDevAttrMaxSurface2DLayeredLayers = 65,
    /// Maximum cubemap surface width
    cudaDevAttrMaxSurfaceCubemapWidth = 66,
    /// Maximum cubemap layered surface width
    cudaDevAttrMaxSurfaceCubemapLayeredWidth = 67,
    /// Maximum layers in a cubemap layered surface
    cudaDevAttrMaxSurfaceCubemapLayeredLayers = 68,
    /// Maximum 1D linear texture width
    cudaDevAttrMaxTexture1DLinearWidth = 69,
    /// Maximum 2D linear texture width
    cudaDevAttrMaxTexture2DLinearWidth = 70,
    /// Maximum 2D linear texture height
    cudaDevAttrMaxTexture2DLinearHeight = 71,
    /// Maximum 2D linear texture pitch in bytes
    cudaDevAttrMaxTexture2DLinearPitch = 72,
    /// Maximum mipmapped 2D texture width
    cudaDevAttrMaxTexture2DMipmappedWidth = 73,
    /// Maximum mipmapped 2D texture height
    cudaDevAttrMaxTexture2DMipmappedHeight = 74,
    /// Major compute capability version number
    cudaDevAttrComputeCapabilityMajor = 75,
    /// Minor compute capability version number
    cudaDevAttrComputeCapabilityMinor = 76,
    /// Maximum mipmapped 1D texture width
    cudaDevAttrMaxTexture1DMipmappedWidth = 77,
    /// Device supports stream priorities
    cudaDevAttrStreamPrioritiesSupported = 78,
    /// Device supports caching globals in L1
    cudaDevAttrGlobalL1CacheSupported = 79,
    /// Device supports caching locals in L1
    cudaDevAttrLocalL1CacheSupported = 80,
    /// Maximum shared memory available per multiprocessor in bytes
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    /// Maximum number of 32-bit registers available per multiprocessor
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    /// Device can allocate managed memory on this system
    cudaDevAttrManagedMemory = 83,
    /// Device is on a multi-GPU board
    cudaDevAttrIsMultiGpuBoard = 84,
    /// Unique identifier for a group of devices on the same multi-GPU board
    cudaDevAttrMultiGpuBoardGroupID = 85,
    /// Link between the device and the host supports native atomic operations
    cudaDevAttrHostNativeAtomicSupported = 86,
    /// Ratio of single precision performance (in floating-point operations per second) to double precision performance
    cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
    /// Device supports coherently accessing pageable memory without calling cudaHostRegister on it
    cudaDevAttrPageableMemoryAccess = 88,
    /// Device can coherently access managed memory concurrently with the CPU
    cudaDevAttrConcurrentManagedAccess = 89,
    /// Device supports Compute Preemption
    cudaDevAttrComputePreemptionSupported = 90,
    /// Device can access host registered memory at the same virtual address as the CPU
    cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
    /// cudaDevAttrReserved92
    cudaDevAttrReserved92 = 92,
    /// cudaDevAttrReserved93
    cudaDevAttrReserved93 = 93,
    /// cudaDevAttrReserved94
    cudaDevAttrReserved94 = 94,
    /// Device supports launching cooperative kernels via ::cudaLaunchCooperativeKernel
    cudaDevAttrCooperativeLaunch = 95,
    /// Deprecated, cudaLaunchCooperativeKernelMultiDevice is deprecated.
    #[cfg(feature = "abi12")]
    cudaDevAttrCooperativeMultiDeviceLaunch = 96,
    /// cudaDevAttrReserved96
    #[cfg(not(feature = "abi12"))]
    cudaDevAttrReserved96 = 96,
    /// The maximum optin shared memory per block. This value may vary by chip. See ::cudaFuncSetAttribute
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    /// Device supports flushing of outstanding remote writes.
    cudaDevAttrCanFlushRemoteWrites = 98,
    /// Device supports host memory registration via ::cudaHostRegister.
    cudaDevAttrHostRegisterSupported = 99,
    /// Device accesses pageable memory via the host's page tables.
    cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
    /// Host can directly access managed memory on the device without migration.
    cudaDevAttrDirectManagedMemAccessFromHost = 101,
    /// Maximum number of blocks per multiprocessor
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    /// Maximum L2 persisting lines capacity setting in bytes.
    cudaDevAttrMaxPersistingL2CacheSize = 108,
    /// Maximum value of cudaAccessPolicyWindow::num_bytes.
    cudaDevAttrMaxAccessPolicyWindowSize = 109,
    /// Shared memory reserved by CUDA driver per block in bytes
    cudaDevAttrReservedSharedMemoryPerBlock = 111,
    /// Device supports sparse CUDA arrays and sparse CUDA mipmapped arrays
    cudaDevAttrSparseCudaArraySupported = 112,
    /// Device supports using the ::cudaHostRegister flag cudaHostRegisterReadOnly to register memory that must be mapped as read-only to the GPU
    cudaDevAttrHostRegisterReadOnlySupported = 113,
    /// External timeline semaphore interop is supported on the device
    cudaDevAttrTimelineSemaphoreInteropSupported = 114,
    /// Device supports using the ::cudaMallocAsync and ::cudaMemPool family of APIs
    cudaDevAttrMemoryPoolsSupported = 115,
    /// Device supports GPUDirect RDMA APIs, like nvidia_p2p_get_pages (see https://docs.nvidia.com/cuda/gpudirect-rdma for more information)
    cudaDevAttrGPUDirectRDMASupported = 116,
    /// The returned attribute shall be interpreted as a bitmask, where the individual bits are listed in the ::cudaFlushGPUDirectRDMAWritesOptions enum
    cudaDevAttrGPUDirectRDMAFlushWritesOptions = 117,
    /// GPUDirect RDMA writes to the device do not need to be flushed for consumers within the scope indicated by the returned attribute. See ::cudaGPUDirectRDMAWritesOrdering for the numerical values returned here.
    cudaDevAttrGPUDirectRDMAWritesOrdering = 118,
    /// Handle types supported with mempool based IPC
    cudaDevAttrMemoryPoolSupportedHandleTypes = 119,
    /// Indicates device supports cluster launch
    cudaDevAttrClusterLaunch = 120,
    /// Device supports deferred mapping CUDA arrays and CUDA mipmapped arrays
    cudaDevAttrDeferredMappingCudaArraySupported = 121,
    /// cudaDevAttrReserved122
    cudaDevAttrReserved122 = 122,
    /// cudaDevAttrReserved123
    cudaDevAttrReserved123 = 123,
    /// cudaDevAttrReserved124
    cudaDevAttrReserved124 = 124,
    /// Device supports IPC Events.
    cudaDevAttrIpcEventSupport = 125,
    /// Number of memory synchronization domains the device supports.
    cudaDevAttrMemSyncDomainCount = 126,
    /// cudaDevAttrReserved127
    cudaDevAttrReserved127 = 127,
    /// cudaDevAttrReserved128
    cudaDevAttrReserved128 = 128,
    /// cudaDevAttrReserved129
    cudaDevAttrReserved129 = 129,
    /// NUMA configuration of a device: value is of type ::cudaDeviceNumaConfig enum
    cudaDevAttrNumaConfig = 130,
    /// NUMA node ID of the GPU memory
    cudaDevAttrNumaId = 131,
    /// cudaDevAttrReserved132
    cudaDevAttrReserved132 = 132,
    /// Contexts created on this device will be shared via MPS
    cudaDevAttrMpsEnabled = 133,
    /// NUMA ID of the host node closest to the device or -1 when system does not support NUMA
    cudaDevAttrHostNumaId = 134,
    /// Device supports CIG with D3D12.
    cudaDevAttrD3D12CigSupported = 135,
    /// Device supports CIG with Vulkan.
    cudaDevAttrVulkanCigSupported = 138,
    /// The combined 16-bit PCI device ID and 16-bit PCI vendor ID.
    cudaDevAttrGpuPciDeviceId = 139,
    /// The combined 16-bit PCI subsystem ID and 16-bit PCI subsystem vendor ID.
    cudaDevAttrGpuPciSubsystemId = 140,
    /// cudaDevAttrReserved141
    cudaDevAttrReserved141 = 141,
    /// Device supports HOST_NUMA location with the ::cudaMallocAsync and ::cudaMemPool family of APIs
    cudaDevAttrHostNumaMemoryPoolsSupported = 142,
    /// Device supports HostNuma location IPC between nodes in a multi-node system.
    cudaDevAttrHostNumaMultinodeIpcSupported = 143,
    /// Device suports HOST location with the ::cuMemAllocAsync and ::cuMemPool family of APIs
    #[cfg(not(feature = "abi12"))]
    cudaDevAttrHostMemoryPoolsSupported = 144,
    /// cudaDevAttrReserved145
    #[cfg(not(feature = "abi12"))]
    cudaDevAttrReserved145 = 145,
    /// Link between the device and the host supports only some native atomic operations
    #[cfg(not(feature = "abi12"))]
    cudaDevAttrOnlyPartialHostNativeAtomicSupported = 147,
    /// Device supports atomic reductions
    #[cfg(not(feature = "abi12"))]
    cudaDevAttrAtomicReductionSupported = 148,
    /// Number of locality domains of the device
    #[cfg(not(feature = "abi12"))]
    cudaDevAttrLocalityDomainCount = 149,
    /// Maximum oversized shared memory per block
    #[cfg(not(feature = "abi12"))]
    cudaDevAttrOversizedSharedMemoryPerBlock = 150,
    /// Device supports CIG streams
    #[cfg(not(feature = "abi12"))]
    cudaDevAttrCigStreamsSupported = 151,
    /// Number of multiprocessors in a locality domain
    #[cfg(not(feature = "abi12"))]
    cudaDevAttrLocalityDomainMultiprocessorCount = 157,
    /// Minimum size of a large tensor for tensor maps
    #[cfg(not(feature = "abi12"))]
    cudaDevAttrTensorMapLargeTensorMinSize = 160,
    /// One past the last attribute.
    #[cfg(feature = "abi12")]
    cudaDevAttrMax = 144,
    /// One past the last attribute.
    #[cfg(not(feature = "abi12"))]
    cudaDevAttrMax = 161,
}

/// Deprecated, External timeline semaphore interop is supported on the device
#[cfg(feature = "abi12")]
pub const cudaDevAttrMaxTimelineSemaphoreInteropSupported: cudaDeviceAttr =
    cudaDeviceAttr::cudaDevAttrTimelineSemaphoreInteropSupported;

/// CUDA Limits
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaLimit {
    /// GPU thread stack size
    cudaLimitStackSize = 0x00,
    /// GPU printf FIFO size
    cudaLimitPrintfFifoSize = 0x01,
    /// GPU malloc heap size
    cudaLimitMallocHeapSize = 0x02,
    /// GPU device runtime synchronize depth
    cudaLimitDevRuntimeSyncDepth = 0x03,
    /// GPU device runtime pending launch count
    cudaLimitDevRuntimePendingLaunchCount = 0x04,
    /// A value between 0 and 128 that indicates the maximum fetch granularity of L2 (in Bytes). This is a hint
    cudaLimitMaxL2FetchGranularity = 0x05,
    /// A size in bytes for L2 persisting lines cache size
    cudaLimitPersistingL2CacheSize = 0x06,
    /// Per-block memory size (shared memory included)
    #[cfg(not(feature = "abi12"))]
    cudaLimitPerBlockMemorySize = 0x0A,
}

/// CUDA function cache configurations
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaFuncCache {
    /// Default function cache configuration, no preference
    cudaFuncCachePreferNone = 0,
    /// Prefer larger shared memory and smaller L1 cache
    cudaFuncCachePreferShared = 1,
    /// Prefer larger L1 cache and smaller shared memory
    cudaFuncCachePreferL1 = 2,
    /// Prefer equal size L1 cache and shared memory
    cudaFuncCachePreferEqual = 3,
}

/// CUDA shared memory configuration
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaSharedMemConfig {
    cudaSharedMemBankSizeDefault = 0,
    cudaSharedMemBankSizeFourByte = 1,
    cudaSharedMemBankSizeEightByte = 2,
}

/// Shared memory carveout configurations. These may be passed to cudaFuncSetAttribute
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaSharedCarveout {
    /// No preference for shared memory or L1 (default)
    cudaSharedmemCarveoutDefault = -1,
    /// Prefer maximum available shared memory, minimum L1 cache
    cudaSharedmemCarveoutMaxShared = 100,
    /// Prefer maximum available L1 cache, minimum shared memory
    cudaSharedmemCarveoutMaxL1 = 0,
}

/// CUDA device compute modes
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaComputeMode {
    /// Default compute mode (Multiple threads can use ::cudaSetDevice() with this device)
    cudaComputeModeDefault = 0,
    /// Compute-exclusive-thread mode (Only one thread in one process will be able to use ::cudaSetDevice() with this device)
    cudaComputeModeExclusive = 1,
    /// Compute-prohibited mode (No threads can use ::cudaSetDevice() with this device)
    cudaComputeModeProhibited = 2,
    /// Compute-exclusive-process mode (Many threads in one process will be able to use ::cudaSetDevice() with this device)
    cudaComputeModeExclusiveProcess = 3,
}

/// CUDA device P2P attributes
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaDeviceP2PAttr {
    /// A relative value indicating the performance of the link between two devices
    cudaDevP2PAttrPerformanceRank = 1,
    /// Peer access is enabled
    cudaDevP2PAttrAccessSupported = 2,
    /// Native atomic operation over the link supported
    cudaDevP2PAttrNativeAtomicSupported = 3,
    /// Accessing CUDA arrays over the link supported
    cudaDevP2PAttrCudaArrayAccessSupported = 4,
    /// Only some CUDA-valid atomic operations over the link are supported.
    #[cfg(not(feature = "abi12"))]
    cudaDevP2PAttrOnlyPartialNativeAtomicSupported = 5,
}

/// CUDA-valid Atomic Operations
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaAtomicOperation {
    cudaAtomicOperationIntegerAdd = 0,
    cudaAtomicOperationIntegerMin = 1,
    cudaAtomicOperationIntegerMax = 2,
    cudaAtomicOperationIntegerIncrement = 3,
    cudaAtomicOperationIntegerDecrement = 4,
    cudaAtomicOperationAnd = 5,
    cudaAtomicOperationOr = 6,
    cudaAtomicOperationXOR = 7,
    cudaAtomicOperationExchange = 8,
    cudaAtomicOperationCAS = 9,
    cudaAtomicOperationFloatAdd = 10,
    cudaAtomicOperationFloatMin = 11,
    cudaAtomicOperationFloatMax = 12,
}

/// CUDA-valid Atomic Operation capabilities
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaAtomicOperationCapability {
    cudaAtomicCapabilitySigned = 1 << 0,
    cudaAtomicCapabilityUnsigned = 1 << 1,
    cudaAtomicCapabilityReduction = 1 << 2,
    cudaAtomicCapabilityScalar32 = 1 << 3,
    cudaAtomicCapabilityScalar64 = 1 << 4,
    cudaAtomicCapabilityScalar128 = 1 << 5,
    cudaAtomicCapabilityVector32x4 = 1 << 6,
}

/// CUDA GPUDirect RDMA flush writes APIs supported on the device
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaFlushGPUDirectRDMAWritesOptions {
    /// ::cudaDeviceFlushGPUDirectRDMAWrites() and its CUDA Driver API counterpart are supported on the device.
    cudaFlushGPUDirectRDMAWritesOptionHost = 1 << 0,
    /// The ::CU_STREAM_WAIT_VALUE_FLUSH flag and the ::CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES MemOp are supported on the CUDA device.
    cudaFlushGPUDirectRDMAWritesOptionMemOps = 1 << 1,
}

/// CUDA GPUDirect RDMA flush writes ordering features of the device
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaGPUDirectRDMAWritesOrdering {
    /// The device does not natively support ordering of GPUDirect RDMA writes. ::cudaFlushGPUDirectRDMAWrites() can be leveraged if supported.
    cudaGPUDirectRDMAWritesOrderingNone = 0,
    /// Natively, the device can consistently consume GPUDirect RDMA writes, although other CUDA devices may not.
    cudaGPUDirectRDMAWritesOrderingOwner = 100,
    /// Any CUDA device in the system can consistently consume GPUDirect RDMA writes to this device.
    cudaGPUDirectRDMAWritesOrderingAllDevices = 200,
}

/// CUDA GPUDirect RDMA flush writes scopes
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaFlushGPUDirectRDMAWritesScope {
    /// Blocks until remote writes are visible to the CUDA device context owning the data.
    cudaFlushGPUDirectRDMAWritesToOwner = 100,
    /// Blocks until remote writes are visible to all CUDA device contexts.
    cudaFlushGPUDirectRDMAWritesToAllDevices = 200,
}

/// CUDA GPUDirect RDMA flush writes targets
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaFlushGPUDirectRDMAWritesTarget {
    /// Sets the target for ::cudaDeviceFlushGPUDirectRDMAWrites() to the currently active CUDA device context.
    cudaFlushGPUDirectRDMAWritesTargetCurrentDevice = 0,
}

/// CUDA UUID types: the driver's `CUuuid` (declared, as in NVIDIA's headers, under the
/// `CU_UUID_HAS_BEEN_DEFINED` guard that `cuda.h` shares: see cbindgen.toml).
/// cbindgen:ignore
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CUuuid {
    pub bytes: [c_char; 16],
}

/// CUDA UUID types
pub type cudaUUID_t = CUuuid;

/// CUDA device properties
#[cfg(not(feature = "abi12"))]
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaDeviceProp {
    /// ASCII string identifying device
    pub name: [c_char; 256],
    /// 16-byte unique identifier
    pub uuid: cudaUUID_t,
    /// 8-byte locally unique identifier. Value is undefined on TCC and non-Windows platforms
    pub luid: [c_char; 8],
    /// LUID device node mask. Value is undefined on TCC and non-Windows platforms
    pub luidDeviceNodeMask: c_uint,
    /// Global memory available on device in bytes
    pub totalGlobalMem: usize,
    /// Shared memory available per block in bytes
    pub sharedMemPerBlock: usize,
    /// 32-bit registers available per block
    pub regsPerBlock: c_int,
    /// Warp size in threads
    pub warpSize: c_int,
    /// Maximum pitch in bytes allowed by memory copies
    pub memPitch: usize,
    /// Maximum number of threads per block
    pub maxThreadsPerBlock: c_int,
    /// Maximum size of each dimension of a block
    pub maxThreadsDim: [c_int; 3],
    /// Maximum size of each dimension of a grid
    pub maxGridSize: [c_int; 3],
    /// Constant memory available on device in bytes
    pub totalConstMem: usize,
    /// Major compute capability
    pub major: c_int,
    /// Minor compute capability
    pub minor: c_int,
    /// Alignment requirement for textures
    pub textureAlignment: usize,
    /// Pitch alignment requirement for texture references bound to pitched memory
    pub texturePitchAlignment: usize,
    /// Number of multiprocessors on device
    pub multiProcessorCount: c_int,
    /// Device is integrated as opposed to discrete
    pub integrated: c_int,
    /// Device can map host memory with cudaHostAlloc/cudaHostGetDevicePointer
    pub canMapHostMemory: c_int,
    /// Maximum 1D texture size
    pub maxTexture1D: c_int,
    /// Maximum 1D mipmapped texture size
    pub maxTexture1DMipmap: c_int,
    /// Maximum 2D texture dimensions
    pub maxTexture2D: [c_int; 2],
    /// Maximum 2D mipmapped texture dimensions
    pub maxTexture2DMipmap: [c_int; 2],
    /// Maximum dimensions (width, height, pitch) for 2D textures bound to pitched memory
    pub maxTexture2DLinear: [c_int; 3],
    /// Maximum 2D texture dimensions if texture gather operations have to be performed
    pub maxTexture2DGather: [c_int; 2],
    /// Maximum 3D texture dimensions
    pub maxTexture3D: [c_int; 3],
    /// Maximum alternate 3D texture dimensions
    pub maxTexture3DAlt: [c_int; 3],
    /// Maximum Cubemap texture dimensions
    pub maxTextureCubemap: c_int,
    /// Maximum 1D layered texture dimensions
    pub maxTexture1DLayered: [c_int; 2],
    /// Maximum 2D layered texture dimensions
    pub maxTexture2DLayered: [c_int; 3],
    /// Maximum Cubemap layered texture dimensions
    pub maxTextureCubemapLayered: [c_int; 2],
    /// Maximum 1D surface size
    pub maxSurface1D: c_int,
    /// Maximum 2D surface dimensions
    pub maxSurface2D: [c_int; 2],
    /// Maximum 3D surface dimensions
    pub maxSurface3D: [c_int; 3],
    /// Maximum 1D layered surface dimensions
    pub maxSurface1DLayered: [c_int; 2],
    /// Maximum 2D layered surface dimensions
    pub maxSurface2DLayered: [c_int; 3],
    /// Maximum Cubemap surface dimensions
    pub maxSurfaceCubemap: c_int,
    /// Maximum Cubemap layered surface dimensions
    pub maxSurfaceCubemapLayered: [c_int; 2],
    /// Alignment requirements for surfaces
    pub surfaceAlignment: usize,
    /// Device can possibly execute multiple kernels concurrently
    pub concurrentKernels: c_int,
    /// Device has ECC support enabled
    pub ECCEnabled: c_int,
    /// PCI bus ID of the device
    pub pciBusID: c_int,
    /// PCI device ID of the device
    pub pciDeviceID: c_int,
    /// PCI domain ID of the device
    pub pciDomainID: c_int,
    /// 1 if device is a Tesla device using TCC driver, 0 otherwise
    pub tccDriver: c_int,
    /// Number of asynchronous engines
    pub asyncEngineCount: c_int,
    /// Device shares a unified address space with the host
    pub unifiedAddressing: c_int,
    /// Global memory bus width in bits
    pub memoryBusWidth: c_int,
    /// Size of L2 cache in bytes
    pub l2CacheSize: c_int,
    /// Device's maximum l2 persisting lines capacity setting in bytes
    pub persistingL2CacheMaxSize: c_int,
    /// Maximum resident threads per multiprocessor
    pub maxThreadsPerMultiProcessor: c_int,
    /// Device supports stream priorities
    pub streamPrioritiesSupported: c_int,
    /// Device supports caching globals in L1
    pub globalL1CacheSupported: c_int,
    /// Device supports caching locals in L1
    pub localL1CacheSupported: c_int,
    /// Shared memory available per multiprocessor in bytes
    pub sharedMemPerMultiprocessor: usize,
    /// 32-bit registers available per multiprocessor
    pub regsPerMultiprocessor: c_int,
    /// Device supports allocating managed memory on this system
    pub managedMemory: c_int,
    /// Device is on a multi-GPU board
    pub isMultiGpuBoard: c_int,
    /// Unique identifier for a group of devices on the same multi-GPU board
    pub multiGpuBoardGroupID: c_int,
    /// Link between the device and the host supports native atomic operations
    pub hostNativeAtomicSupported: c_int,
    /// Device supports coherently accessing pageable memory without calling cudaHostRegister on it
    pub pageableMemoryAccess: c_int,
    /// Device can coherently access managed memory concurrently with the CPU
    pub concurrentManagedAccess: c_int,
    /// Device supports Compute Preemption
    pub computePreemptionSupported: c_int,
    /// Device can access host registered memory at the same virtual address as the CPU
    pub canUseHostPointerForRegisteredMem: c_int,
    /// Device supports launching cooperative kernels via ::cudaLaunchCooperativeKernel
    pub cooperativeLaunch: c_int,
    /// Per device maximum shared memory per block usable by special opt in
    pub sharedMemPerBlockOptin: usize,
    /// Device accesses pageable memory via the host's page tables
    pub pageableMemoryAccessUsesHostPageTables: c_int,
    /// Host can directly access managed memory on the device without migration.
    pub directManagedMemAccessFromHost: c_int,
    /// Maximum number of resident blocks per multiprocessor
    pub maxBlocksPerMultiProcessor: c_int,
    /// The maximum value of ::cudaAccessPolicyWindow::num_bytes.
    pub accessPolicyMaxWindowSize: c_int,
    /// Shared memory reserved by CUDA driver per block in bytes
    pub reservedSharedMemPerBlock: usize,
    /// Device supports host memory registration via ::cudaHostRegister.
    pub hostRegisterSupported: c_int,
    /// 1 if the device supports sparse CUDA arrays and sparse CUDA mipmapped arrays, 0 otherwise
    pub sparseCudaArraySupported: c_int,
    /// Device supports using the ::cudaHostRegister flag cudaHostRegisterReadOnly to register memory that must be mapped as read-only to the GPU
    pub hostRegisterReadOnlySupported: c_int,
    /// External timeline semaphore interop is supported on the device
    pub timelineSemaphoreInteropSupported: c_int,
    /// 1 if the device supports using the cudaMallocAsync and cudaMemPool family of APIs, 0 otherwise
    pub memoryPoolsSupported: c_int,
    /// 1 if the device supports GPUDirect RDMA APIs, 0 otherwise
    pub gpuDirectRDMASupported: c_int,
    /// Bitmask to be interpreted according to the ::cudaFlushGPUDirectRDMAWritesOptions enum
    pub gpuDirectRDMAFlushWritesOptions: c_uint,
    /// See the ::cudaGPUDirectRDMAWritesOrdering enum for numerical values
    pub gpuDirectRDMAWritesOrdering: c_int,
    /// Bitmask of handle types supported with mempool-based IPC
    pub memoryPoolSupportedHandleTypes: c_uint,
    /// 1 if the device supports deferred mapping CUDA arrays and CUDA mipmapped arrays
    pub deferredMappingCudaArraySupported: c_int,
    /// Device supports IPC Events.
    pub ipcEventSupported: c_int,
    /// Indicates device supports cluster launch
    pub clusterLaunch: c_int,
    /// Indicates device supports unified pointers
    pub unifiedFunctionPointers: c_int,
    /// NUMA configuration of a device: value is of type ::cudaDeviceNumaConfig enum
    pub deviceNumaConfig: c_int,
    /// NUMA node ID of the GPU memory
    pub deviceNumaId: c_int,
    /// Indicates if contexts created on this device will be shared via MPS
    pub mpsEnabled: c_int,
    /// NUMA ID of the host node closest to the device or -1 when system does not support NUMA
    pub hostNumaId: c_int,
    /// The combined 16-bit PCI device ID and 16-bit PCI vendor ID
    pub gpuPciDeviceID: c_uint,
    /// The combined 16-bit PCI subsystem ID and 16-bit PCI subsystem vendor ID
    pub gpuPciSubsystemID: c_uint,
    /// 1 if the device supports HostNuma location IPC between nodes in a multi-node system.
    pub hostNumaMultinodeIpcSupported: c_int,
    /// Reserved for future use
    pub reserved: [c_int; 56],
}

/// CUDA device properties
#[cfg(feature = "abi12")]
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaDeviceProp {
    /// ASCII string identifying device
    pub name: [c_char; 256],
    /// 16-byte unique identifier
    pub uuid: cudaUUID_t,
    /// 8-byte locally unique identifier. Value is undefined on TCC and non-Windows platforms
    pub luid: [c_char; 8],
    /// LUID device node mask. Value is undefined on TCC and non-Windows platforms
    pub luidDeviceNodeMask: c_uint,
    /// Global memory available on device in bytes
    pub totalGlobalMem: usize,
    /// Shared memory available per block in bytes
    pub sharedMemPerBlock: usize,
    /// 32-bit registers available per block
    pub regsPerBlock: c_int,
    /// Warp size in threads
    pub warpSize: c_int,
    /// Maximum pitch in bytes allowed by memory copies
    pub memPitch: usize,
    /// Maximum number of threads per block
    pub maxThreadsPerBlock: c_int,
    /// Maximum size of each dimension of a block
    pub maxThreadsDim: [c_int; 3],
    /// Maximum size of each dimension of a grid
    pub maxGridSize: [c_int; 3],
    /// Deprecated, Clock frequency in kilohertz
    pub clockRate: c_int,
    /// Constant memory available on device in bytes
    pub totalConstMem: usize,
    /// Major compute capability
    pub major: c_int,
    /// Minor compute capability
    pub minor: c_int,
    /// Alignment requirement for textures
    pub textureAlignment: usize,
    /// Pitch alignment requirement for texture references bound to pitched memory
    pub texturePitchAlignment: usize,
    /// Device can concurrently copy memory and execute a kernel. Deprecated. Use instead asyncEngineCount.
    pub deviceOverlap: c_int,
    /// Number of multiprocessors on device
    pub multiProcessorCount: c_int,
    /// Deprecated, Specified whether there is a run time limit on kernels
    pub kernelExecTimeoutEnabled: c_int,
    /// Device is integrated as opposed to discrete
    pub integrated: c_int,
    /// Device can map host memory with cudaHostAlloc/cudaHostGetDevicePointer
    pub canMapHostMemory: c_int,
    /// Deprecated, Compute mode (See ::cudaComputeMode)
    pub computeMode: c_int,
    /// Maximum 1D texture size
    pub maxTexture1D: c_int,
    /// Maximum 1D mipmapped texture size
    pub maxTexture1DMipmap: c_int,
    /// Deprecated, do not use. Use cudaDeviceGetTexture1DLinearMaxWidth() or cuDeviceGetTexture1DLinearMaxWidth() instead.
    pub maxTexture1DLinear: c_int,
    /// Maximum 2D texture dimensions
    pub maxTexture2D: [c_int; 2],
    /// Maximum 2D mipmapped texture dimensions
    pub maxTexture2DMipmap: [c_int; 2],
    /// Maximum dimensions (width, height, pitch) for 2D textures bound to pitched memory
    pub maxTexture2DLinear: [c_int; 3],
    /// Maximum 2D texture dimensions if texture gather operations have to be performed
    pub maxTexture2DGather: [c_int; 2],
    /// Maximum 3D texture dimensions
    pub maxTexture3D: [c_int; 3],
    /// Maximum alternate 3D texture dimensions
    pub maxTexture3DAlt: [c_int; 3],
    /// Maximum Cubemap texture dimensions
    pub maxTextureCubemap: c_int,
    /// Maximum 1D layered texture dimensions
    pub maxTexture1DLayered: [c_int; 2],
    /// Maximum 2D layered texture dimensions
    pub maxTexture2DLayered: [c_int; 3],
    /// Maximum Cubemap layered texture dimensions
    pub maxTextureCubemapLayered: [c_int; 2],
    /// Maximum 1D surface size
    pub maxSurface1D: c_int,
    /// Maximum 2D surface dimensions
    pub maxSurface2D: [c_int; 2],
    /// Maximum 3D surface dimensions
    pub maxSurface3D: [c_int; 3],
    /// Maximum 1D layered surface dimensions
    pub maxSurface1DLayered: [c_int; 2],
    /// Maximum 2D layered surface dimensions
    pub maxSurface2DLayered: [c_int; 3],
    /// Maximum Cubemap surface dimensions
    pub maxSurfaceCubemap: c_int,
    /// Maximum Cubemap layered surface dimensions
    pub maxSurfaceCubemapLayered: [c_int; 2],
    /// Alignment requirements for surfaces
    pub surfaceAlignment: usize,
    /// Device can possibly execute multiple kernels concurrently
    pub concurrentKernels: c_int,
    /// Device has ECC support enabled
    pub ECCEnabled: c_int,
    /// PCI bus ID of the device
    pub pciBusID: c_int,
    /// PCI device ID of the device
    pub pciDeviceID: c_int,
    /// PCI domain ID of the device
    pub pciDomainID: c_int,
    /// 1 if device is a Tesla device using TCC driver, 0 otherwise
    pub tccDriver: c_int,
    /// Number of asynchronous engines
    pub asyncEngineCount: c_int,
    /// Device shares a unified address space with the host
    pub unifiedAddressing: c_int,
    /// Deprecated, Peak memory clock frequency in kilohertz
    pub memoryClockRate: c_int,
    /// Global memory bus width in bits
    pub memoryBusWidth: c_int,
    /// Size of L2 cache in bytes
    pub l2CacheSize: c_int,
    /// Device's maximum l2 persisting lines capacity setting in bytes
    pub persistingL2CacheMaxSize: c_int,
    /// Maximum resident threads per multiprocessor
    pub maxThreadsPerMultiProcessor: c_int,
    /// Device supports stream priorities
    pub streamPrioritiesSupported: c_int,
    /// Device supports caching globals in L1
    pub globalL1CacheSupported: c_int,
    /// Device supports caching locals in L1
    pub localL1CacheSupported: c_int,
    /// Shared memory available per multiprocessor in bytes
    pub sharedMemPerMultiprocessor: usize,
    /// 32-bit registers available per multiprocessor
    pub regsPerMultiprocessor: c_int,
    /// Device supports allocating managed memory on this system
    pub managedMemory: c_int,
    /// Device is on a multi-GPU board
    pub isMultiGpuBoard: c_int,
    /// Unique identifier for a group of devices on the same multi-GPU board
    pub multiGpuBoardGroupID: c_int,
    /// Link between the device and the host supports native atomic operations
    pub hostNativeAtomicSupported: c_int,
    /// Deprecated, Ratio of single precision performance (in floating-point operations per second) to double precision performance
    pub singleToDoublePrecisionPerfRatio: c_int,
    /// Device supports coherently accessing pageable memory without calling cudaHostRegister on it
    pub pageableMemoryAccess: c_int,
    /// Device can coherently access managed memory concurrently with the CPU
    pub concurrentManagedAccess: c_int,
    /// Device supports Compute Preemption
    pub computePreemptionSupported: c_int,
    /// Device can access host registered memory at the same virtual address as the CPU
    pub canUseHostPointerForRegisteredMem: c_int,
    /// Device supports launching cooperative kernels via ::cudaLaunchCooperativeKernel
    pub cooperativeLaunch: c_int,
    /// Deprecated, cudaLaunchCooperativeKernelMultiDevice is deprecated.
    pub cooperativeMultiDeviceLaunch: c_int,
    /// Per device maximum shared memory per block usable by special opt in
    pub sharedMemPerBlockOptin: usize,
    /// Device accesses pageable memory via the host's page tables
    pub pageableMemoryAccessUsesHostPageTables: c_int,
    /// Host can directly access managed memory on the device without migration.
    pub directManagedMemAccessFromHost: c_int,
    /// Maximum number of resident blocks per multiprocessor
    pub maxBlocksPerMultiProcessor: c_int,
    /// The maximum value of ::cudaAccessPolicyWindow::num_bytes.
    pub accessPolicyMaxWindowSize: c_int,
    /// Shared memory reserved by CUDA driver per block in bytes
    pub reservedSharedMemPerBlock: usize,
    /// Device supports host memory registration via ::cudaHostRegister.
    pub hostRegisterSupported: c_int,
    /// 1 if the device supports sparse CUDA arrays and sparse CUDA mipmapped arrays, 0 otherwise
    pub sparseCudaArraySupported: c_int,
    /// Device supports using the ::cudaHostRegister flag cudaHostRegisterReadOnly to register memory that must be mapped as read-only to the GPU
    pub hostRegisterReadOnlySupported: c_int,
    /// External timeline semaphore interop is supported on the device
    pub timelineSemaphoreInteropSupported: c_int,
    /// 1 if the device supports using the cudaMallocAsync and cudaMemPool family of APIs, 0 otherwise
    pub memoryPoolsSupported: c_int,
    /// 1 if the device supports GPUDirect RDMA APIs, 0 otherwise
    pub gpuDirectRDMASupported: c_int,
    /// Bitmask to be interpreted according to the ::cudaFlushGPUDirectRDMAWritesOptions enum
    pub gpuDirectRDMAFlushWritesOptions: c_uint,
    /// See the ::cudaGPUDirectRDMAWritesOrdering enum for numerical values
    pub gpuDirectRDMAWritesOrdering: c_int,
    /// Bitmask of handle types supported with mempool-based IPC
    pub memoryPoolSupportedHandleTypes: c_uint,
    /// 1 if the device supports deferred mapping CUDA arrays and CUDA mipmapped arrays
    pub deferredMappingCudaArraySupported: c_int,
    /// Device supports IPC Events.
    pub ipcEventSupported: c_int,
    /// Indicates device supports cluster launch
    pub clusterLaunch: c_int,
    /// Indicates device supports unified pointers
    pub unifiedFunctionPointers: c_int,
    /// Reserved for future use
    pub reserved: [c_int; 63],
}

impl Default for cudaDeviceProp {
    fn default() -> Self {
        // SAFETY: integers and arrays of integers; all-zero is valid.
        unsafe { std::mem::zeroed() }
    }
}

/// Opaque async notification callback entry.
pub struct cudaAsyncCallbackEntry {
    _private: [u8; 0],
}

/// CUDA async callback handle
pub type cudaAsyncCallbackHandle_t = *mut cudaAsyncCallbackEntry;

/// Types of async notification that can occur
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaAsyncNotificationType_enum {
    /// Sent when the process has exceeded its device memory budget
    cudaAsyncNotificationTypeOverBudget = 0x1,
}

/// Types of async notification that can occur
pub type cudaAsyncNotificationType = cudaAsyncNotificationType_enum;

/// Information about notifications of type \p cudaAsyncNotificationTypeOverBudget
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaAsyncNotificationInfo_overBudget {
    /// The number of bytes that the process has allocated above its device memory budget
    pub bytesOverBudget: c_ulonglong,
}

/// Information about the notification. \p type must be checked in order to interpret this field.
#[repr(C)]
#[derive(Copy, Clone)]
pub union cudaAsyncNotificationInfo_info {
    /// Information about notifications of type \p cudaAsyncNotificationTypeOverBudget
    pub overBudget: cudaAsyncNotificationInfo_overBudget,
}

/// Information describing an async notification event
///
/// The type is held as an integer: the driver may send any value.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaAsyncNotificationInfo {
    /// The type of notification being sent
    pub r#type: raw::cudaAsyncNotificationType_enum,
    /// Information about the notification. \p type must be checked in order to interpret this field.
    pub info: cudaAsyncNotificationInfo_info,
}

/// Information describing an async notification event
pub type cudaAsyncNotificationInfo_t = cudaAsyncNotificationInfo;

/// An async notification callback: the notification, the user data given at registration,
/// and the handle of the registration.
pub type cudaAsyncCallback = Option<
    unsafe extern "C" fn(
        info: *mut cudaAsyncNotificationInfo_t,
        userData: *mut c_void,
        callback: cudaAsyncCallbackHandle_t,
    ),
>;

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(
        cudaDeviceAttr,
        cudaLimit,
        cudaFuncCache,
        cudaSharedMemConfig,
        cudaDeviceP2PAttr,
        cudaFlushGPUDirectRDMAWritesTarget,
        cudaFlushGPUDirectRDMAWritesScope,
        cudaAsyncNotificationType_enum,
    );
    #[cfg(not(feature = "abi12"))]
    super::super::raw_enum!(cudaAtomicOperation);
}
