//! The exported runtime API. Every function here is declared once, as
//!
//! ```ignore
//! /// Copies data between host and device.
//! #[export(family = Copy, per_thread = ptds, sem = Copy(Linear))]
//! #[no_mangle]
//! pub unsafe extern "C" fn cudaMemcpy(
//!     dst: *mut c_void,
//!     src: *const c_void,
//!     count: usize,
//!     kind: raw::cudaMemcpyKind,
//! ) -> cudaError_t {
//!     run(|| ...)
//! }
//! ```
//!
//! with NVIDIA's signature; its body is one [`crate::runtime::boundary::run`] call (check the
//! arguments, convert types, call the driver, map the result), which `#[export]` gives the
//! function's name. The attribute's arguments (`macros/decl/`) are everything else the
//! build needs to know: the observation family, the per-thread-default-stream form
//! (`per_thread = ptds | ptsz`: the build adds `NAME_ptds` / `NAME_ptsz`), what the call means
//! to the observer (`sem`), how the tools see it (`cupti`). `#[cfg(feature = "abi12")]` or
//! `#[cfg(not(feature = "abi12"))]` limits an export to one ABI. build.rs reads the
//! declarations with the same parser (syn) and generates the per-thread forms, the symbol
//! versions, the observation shims and table and the tools' records from them.
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
pub mod graph_params;
pub mod graph_kernel;
pub mod graph_copy;
pub mod graph_node;
#[cfg(not(feature = "abi12"))]
pub mod green;
pub mod interop;
pub mod ipc;
pub mod library;
pub mod memory;
// What nvcc-built programs call, in this order (which the header keeps): registration,
// launches, function queries, occupancy, device symbols.
pub mod registration;
pub mod launch;
pub mod function;
pub mod occupancy;
pub mod symbols;
pub mod pool;
pub mod stream;
pub mod texture;
/// cbindgen:ignore
pub mod vdpau;
