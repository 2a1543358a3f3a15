//! Stream types (`cuda_runtime_api.h`): stream callbacks.

use std::ffi::c_void;

use super::{cudaError_t, cudaStream_t};

/// Type of stream callback functions.
/// \param stream The stream as passed to ::cudaStreamAddCallback, may be NULL.
/// \param status ::cudaSuccess or any persistent error on the stream.
/// \param userData User parameter provided at registration.
pub type cudaStreamCallback_t =
    Option<unsafe extern "C" fn(stream: cudaStream_t, status: cudaError_t, userData: *mut c_void)>;
