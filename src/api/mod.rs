//! The exported runtime API. Every function here is `#[no_mangle] pub unsafe extern "C"`
//! with NVIDIA's signature, and its body is one [`crate::runtime::boundary::run`] call: check the
//! arguments, convert types, call the driver, map the result.
//!
//! A comment line `// also: NAME_ptds` (or `_ptsz`) right above `#[no_mangle]` makes the
//! build generate that per-thread-default-stream export with the same signature.
//! `#[cfg(feature = "abi12")]` / `#[cfg(not(feature = "abi12"))]` on its own line above
//! `#[no_mangle]` limits an export to one ABI (build.rs reads both forms).
//!
//! The OpenGL, EGL and VDPAU exports (`gl`, `egl`, `vdpau`) are declared by headers of their
//! own, as NVIDIA's are (`cuda_gl_interop.h`, ...): cbindgen skips them here and build.rs
//! generates those headers from their files.

pub mod array;
pub mod batch;
pub mod capture;
pub mod copy;
pub mod device;
/// cbindgen:ignore
pub mod egl;
pub mod entry;
pub mod event;
pub mod external;
/// cbindgen:ignore
pub mod gl;
pub mod graph;
pub mod graph_node;
#[cfg(not(feature = "abi12"))]
pub mod green;
pub mod interop;
pub mod ipc;
pub mod library;
pub mod memory;
pub mod module;
pub mod pool;
pub mod stream;
pub mod texture;
pub mod v135;
/// cbindgen:ignore
pub mod vdpau;
