//! Device management types (`driver_types.h`).

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
    /// One past the last attribute.
    #[cfg(feature = "abi12")]
    cudaDevAttrMax = 144,
    /// One past the last attribute.
    #[cfg(not(feature = "abi12"))]
    cudaDevAttrMax = 148,
}

/// Deprecated, External timeline semaphore interop is supported on the device
#[cfg(feature = "abi12")]
pub const cudaDevAttrMaxTimelineSemaphoreInteropSupported: cudaDeviceAttr =
    cudaDeviceAttr::cudaDevAttrTimelineSemaphoreInteropSupported;

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(cudaDeviceAttr);
}
