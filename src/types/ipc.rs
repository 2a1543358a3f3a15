//! Interprocess communication types (`driver_types.h`). The handles hold the driver's
//! `CUipcEventHandle`/`CUipcMemHandle` bytes.

use std::ffi::{c_char, c_uint};

/// CUDA IPC Handle Size
pub const CUDA_IPC_HANDLE_SIZE: usize = 64;

/// Automatically enable peer access between remote devices as needed
pub const cudaIpcMemLazyEnablePeerAccess: c_uint = 0x01;

/// CUDA IPC event handle
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct cudaIpcEventHandle_st {
    pub reserved: [c_char; CUDA_IPC_HANDLE_SIZE],
}

/// CUDA IPC event handle
pub type cudaIpcEventHandle_t = cudaIpcEventHandle_st;

/// CUDA IPC memory handle
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct cudaIpcMemHandle_st {
    pub reserved: [c_char; CUDA_IPC_HANDLE_SIZE],
}

/// CUDA IPC memory handle
pub type cudaIpcMemHandle_t = cudaIpcMemHandle_st;
