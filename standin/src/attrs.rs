//! Device attributes, as an H100 SXM reports them under CUDA 13 (those `ctest/device_props.c`
//! prints as the H100 80GB HBM3 of driver 580.159.04 did).

use std::ffi::c_int;

use crate::state::*;
use crate::types::*;
use crate::{export, nonnull};

/// The value of attribute `a` for device `dev`, or `None` for an unknown attribute.
pub fn device_attribute(a: CUdevice_attribute, dev: c_int) -> Option<c_int> {
    Some(match a {
        1 => 1024,               // MAX_THREADS_PER_BLOCK
        2 | 3 => 1024,           // MAX_BLOCK_DIM_X/Y
        4 => 64,                 // MAX_BLOCK_DIM_Z
        5 => 2147483647,         // MAX_GRID_DIM_X
        6 | 7 => 65535,          // MAX_GRID_DIM_Y/Z
        8 => 49152,              // MAX_SHARED_MEMORY_PER_BLOCK
        9 => 65536,              // TOTAL_CONSTANT_MEMORY
        10 => 32,                // WARP_SIZE
        11 => 2147483647,        // MAX_PITCH
        12 => 65536,             // MAX_REGISTERS_PER_BLOCK
        13 => 1980000,           // CLOCK_RATE (kHz)
        14 => 512,               // TEXTURE_ALIGNMENT
        15 => 1,                 // GPU_OVERLAP
        16 => 132,               // MULTIPROCESSOR_COUNT
        17 => 0,                 // KERNEL_EXEC_TIMEOUT
        18 => 0,                 // INTEGRATED
        19 => 1,                 // CAN_MAP_HOST_MEMORY
        20 => 0,                 // COMPUTE_MODE
        21 => 131072,            // MAXIMUM_TEXTURE1D_WIDTH
        22 => 131072,            // MAXIMUM_TEXTURE2D_WIDTH
        23 => 65536,             // MAXIMUM_TEXTURE2D_HEIGHT
        24..=26 => 16384,        // MAXIMUM_TEXTURE3D_*
        27 | 28 => 32768,        // MAXIMUM_TEXTURE2D_LAYERED_WIDTH/HEIGHT
        29 => 2048,              // MAXIMUM_TEXTURE2D_LAYERED_LAYERS
        30 => 512,               // SURFACE_ALIGNMENT
        31 => 1,                 // CONCURRENT_KERNELS
        32 => 1,                 // ECC_ENABLED
        33 => 0x18 + dev * 0x11, // PCI_BUS_ID
        34 => 0,                 // PCI_DEVICE_ID
        35 => 0,                 // TCC_DRIVER
        36 => 2619000,           // MEMORY_CLOCK_RATE (kHz)
        37 => 5120,              // GLOBAL_MEMORY_BUS_WIDTH
        38 => 52428800,          // L2_CACHE_SIZE
        39 => 2048,              // MAX_THREADS_PER_MULTIPROCESSOR
        40 => 3,                 // ASYNC_ENGINE_COUNT
        41 => 1,                 // UNIFIED_ADDRESSING
        42 => 32768,             // MAXIMUM_TEXTURE1D_LAYERED_WIDTH
        43 => 2048,              // MAXIMUM_TEXTURE1D_LAYERED_LAYERS
        44 => 1,                 // CAN_TEX2D_GATHER
        45 | 46 => 32768,        // MAXIMUM_TEXTURE2D_GATHER_WIDTH/HEIGHT
        47 | 48 => 8192,         // MAXIMUM_TEXTURE3D_WIDTH/HEIGHT_ALTERNATE
        49 => 32768,             // MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE
        50 => 0,                 // PCI_DOMAIN_ID
        51 => 32,                // TEXTURE_PITCH_ALIGNMENT
        52 | 53 => 32768,        // MAXIMUM_TEXTURECUBEMAP_WIDTH, _LAYERED_WIDTH
        54 => 2046,              // MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS
        55 => 32768,             // MAXIMUM_SURFACE1D_WIDTH
        56 => 131072,            // MAXIMUM_SURFACE2D_WIDTH
        57 => 65536,             // MAXIMUM_SURFACE2D_HEIGHT
        58..=60 => 16384,        // MAXIMUM_SURFACE3D_*
        61 => 32768,             // MAXIMUM_SURFACE1D_LAYERED_WIDTH
        62 => 2048,              // MAXIMUM_SURFACE1D_LAYERED_LAYERS
        63 | 64 => 32768,        // MAXIMUM_SURFACE2D_LAYERED_WIDTH/HEIGHT
        65 => 2048,              // MAXIMUM_SURFACE2D_LAYERED_LAYERS
        66 | 67 => 32768,        // MAXIMUM_SURFACECUBEMAP_WIDTH, _LAYERED_WIDTH
        68 => 2046,              // MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS
        69 => 268435456,         // MAXIMUM_TEXTURE1D_LINEAR_WIDTH
        70 => 131072,            // MAXIMUM_TEXTURE2D_LINEAR_WIDTH
        71 => 65000,             // MAXIMUM_TEXTURE2D_LINEAR_HEIGHT
        72 => 2097120,           // MAXIMUM_TEXTURE2D_LINEAR_PITCH
        73 | 74 => 32768,        // MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH/HEIGHT
        75 => 9,                 // COMPUTE_CAPABILITY_MAJOR
        76 => 0,                 // COMPUTE_CAPABILITY_MINOR
        77 => 32768,             // MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH
        78 => 1,                 // STREAM_PRIORITIES_SUPPORTED
        79 | 80 => 1,            // GLOBAL/LOCAL_L1_CACHE_SUPPORTED
        81 => 233472,            // MAX_SHARED_MEMORY_PER_MULTIPROCESSOR
        82 => 65536,             // MAX_REGISTERS_PER_MULTIPROCESSOR
        83 => 1,                 // MANAGED_MEMORY
        84 => 0,                 // MULTI_GPU_BOARD
        85 => dev,               // MULTI_GPU_BOARD_GROUP_ID
        86 => 0,                 // HOST_NATIVE_ATOMIC_SUPPORTED
        87 => 2,                 // SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO
        88 => 0,                 // PAGEABLE_MEMORY_ACCESS
        89 => 1,                 // CONCURRENT_MANAGED_ACCESS
        90 => 1,                 // COMPUTE_PREEMPTION_SUPPORTED
        91 => 1,                 // CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM
        92 | 93 => 1,            // CAN_USE_STREAM_MEM_OPS_V1, CAN_USE_64_BIT_STREAM_MEM_OPS_V1
        94 => 1,                 // CAN_USE_STREAM_WAIT_VALUE_NOR_V1
        95 => 1,                 // COOPERATIVE_LAUNCH
        96 => 1,                 // COOPERATIVE_MULTI_DEVICE_LAUNCH
        97 => 232448,            // MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
        98 => 0,                 // CAN_FLUSH_REMOTE_WRITES
        99 => 1,                 // HOST_REGISTER_SUPPORTED
        100 => 0,                // PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES
        101 => 0,                // DIRECT_MANAGED_MEM_ACCESS_FROM_HOST
        102 => 1,                // VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED
        103 => 1,                // HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED
        104 | 105 => 0,          // HANDLE_TYPE_WIN32(_KMT)_HANDLE_SUPPORTED
        106 => 32,               // MAX_BLOCKS_PER_MULTIPROCESSOR
        107 => 1,                // GENERIC_COMPRESSION_SUPPORTED
        108 => 32768000,         // MAX_PERSISTING_L2_CACHE_SIZE
        109 => 134217728,        // MAX_ACCESS_POLICY_WINDOW_SIZE
        110 => 1,                // GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED
        111 => 1024,             // RESERVED_SHARED_MEMORY_PER_BLOCK
        112 => 1,                // SPARSE_CUDA_ARRAY_SUPPORTED
        113 => 1,                // READ_ONLY_HOST_REGISTER_SUPPORTED
        114 => 1,                // TIMELINE_SEMAPHORE_INTEROP_SUPPORTED
        115 => 1,                // MEMORY_POOLS_SUPPORTED
        116 => 1,                // GPU_DIRECT_RDMA_SUPPORTED
        117 => 1,                // GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS
        118 => 100,              // GPU_DIRECT_RDMA_WRITES_ORDERING
        119 => 9,                // MEMPOOL_SUPPORTED_HANDLE_TYPES (POSIX fd, fabric)
        120 => 1,                // CLUSTER_LAUNCH
        121 => 1,                // DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED
        122 | 123 => 1,          // CAN_USE_64_BIT_STREAM_MEM_OPS, CAN_USE_STREAM_WAIT_VALUE_NOR
        124 => 0,                // DMA_BUF_SUPPORTED
        125 => 1,                // IPC_EVENT_SUPPORTED
        126 => 4,                // MEM_SYNC_DOMAIN_COUNT
        127 => 1,                // TENSOR_MAP_ACCESS_SUPPORTED
        128 => 0,                // HANDLE_TYPE_FABRIC_SUPPORTED
        129 => 1,                // UNIFIED_FUNCTION_POINTERS
        130 => 0,                // NUMA_CONFIG
        131 => -1,               // NUMA_ID
        132 => 0,                // MULTICAST_SUPPORTED
        133 => 0,                // MPS_ENABLED
        134 => 0,                // HOST_NUMA_ID
        135..=147 => 0,          // D3D12/Vulkan CIG, decompression, PCI ids, host NUMA/VMM
        _ => return None,
    })
}

export! {
    fn cuDeviceGetAttribute(pi: *mut c_int, attrib: CUdevice_attribute, dev: CUdevice) {
        nonnull(pi)?;
        with(|s| {
            s.check_dev(dev)?;
            *pi = device_attribute(attrib, dev).ok_or(CUDA_ERROR_INVALID_VALUE)?;
            Ok(())
        })
    }
}
