//! The runtime's C types, declared as NVIDIA's headers declare them (`driver_types.h`,
//! `vector_types.h`). cbindgen writes them and the exports' signatures, which build.rs splits
//! into `include/driver_types.h`, `texture_types.h`, `surface_types.h` and
//! `cuda_runtime_api.h` (`dim3` is `vector_types.h`'s, from build/headers.rs); the layout check
//! compares every one with NVIDIA's headers.
//!
//! Enums are Rust enums here, so the header gets real C enums. A parameter of an enum
//! type is declared with the integer view of the same name from [`raw`], because C may
//! pass any value and a Rust enum holding an undeclared one is undefined behaviour.
#![allow(non_camel_case_types, non_snake_case)]

use std::ffi::c_uint;

pub use error::{cudaError, cudaError_t};

pub mod error;
mod array;
mod batch;
mod copy;
mod device;
mod entry;
mod external;
/// cbindgen:ignore
mod egl;
/// cbindgen:ignore
mod gl;
mod graph;
mod green;
mod interop;
mod ipc;
mod launch;
mod library;
mod memory;
mod pool;
mod stream;
mod texture;
pub use array::*;
pub use batch::*;
pub use copy::*;
pub use device::*;
pub use egl::*;
pub use entry::*;
pub use external::*;
pub use gl::*;
pub use graph::*;
#[cfg_attr(feature = "abi12", allow(unused_imports))]
pub use green::*;
pub use interop::*;
pub use ipc::*;
pub use launch::*;
pub use library::*;
pub use memory::*;
pub use pool::*;
pub use stream::*;
pub use texture::*;

/// Opaque driver stream (`CUstream`): runtime streams are driver streams.
pub struct CUstream_st {
    _private: [u8; 0],
}
/// Opaque driver event (`CUevent`).
pub struct CUevent_st {
    _private: [u8; 0],
}
/// Opaque driver function (`CUfunction`).
pub struct CUfunc_st {
    _private: [u8; 0],
}
/// Opaque CUDA array: a driver `CUarray`.
pub struct cudaArray {
    _private: [u8; 0],
}
/// Opaque mipmapped CUDA array: a driver `CUmipmappedArray`.
pub struct cudaMipmappedArray {
    _private: [u8; 0],
}

/// CUDA stream.
pub type cudaStream_t = *mut CUstream_st;
/// CUDA event.
pub type cudaEvent_t = *mut CUevent_st;
/// CUDA function.
pub type cudaFunction_t = *mut CUfunc_st;
/// CUDA array.
pub type cudaArray_t = *mut cudaArray;
/// CUDA array (as source copy argument).
pub type cudaArray_const_t = *const cudaArray;
/// CUDA mipmapped array.
pub type cudaMipmappedArray_t = *mut cudaMipmappedArray;
/// CUDA mipmapped array (as source argument).
pub type cudaMipmappedArray_const_t = *const cudaMipmappedArray;

/// Default stream flag.
pub const cudaStreamDefault: c_uint = 0x00;
/// Stream does not synchronize with stream 0 (the NULL stream).
pub const cudaStreamNonBlocking: c_uint = 0x01;
/// Legacy stream handle: implicitly synchronizes with all other blocking streams.
/// (In the header as NVIDIA's writes it, `((cudaStream_t)0x1)`: cbindgen.toml.)
/// cbindgen:ignore
pub const cudaStreamLegacy: cudaStream_t = 0x1 as cudaStream_t;
/// Per-thread stream handle: the thread's own default stream.
/// (In the header as NVIDIA's writes it, `((cudaStream_t)0x2)`: cbindgen.toml.)
/// cbindgen:ignore
pub const cudaStreamPerThread: cudaStream_t = 0x2 as cudaStream_t;

/// Default event flag.
pub const cudaEventDefault: c_uint = 0x00;
/// Event uses blocking synchronization.
pub const cudaEventBlockingSync: c_uint = 0x01;
/// Event will not record timing data.
pub const cudaEventDisableTiming: c_uint = 0x02;
/// Event is suitable for interprocess use. cudaEventDisableTiming must be set.
pub const cudaEventInterprocess: c_uint = 0x04;

/// Device flag: automatic scheduling.
pub const cudaDeviceScheduleAuto: c_uint = 0x00;
/// Device flag: spin default scheduling.
pub const cudaDeviceScheduleSpin: c_uint = 0x01;
/// Device flag: yield default scheduling.
pub const cudaDeviceScheduleYield: c_uint = 0x02;
/// Device flag: use blocking synchronization.
pub const cudaDeviceScheduleBlockingSync: c_uint = 0x04;
/// Device flag: use blocking synchronization (deprecated name).
pub const cudaDeviceBlockingSync: c_uint = 0x04;
/// Device schedule flags mask.
pub const cudaDeviceScheduleMask: c_uint = 0x07;
/// Device flag: support mapped pinned allocations.
pub const cudaDeviceMapHost: c_uint = 0x08;
/// Device flag: keep local memory allocation after launch.
pub const cudaDeviceLmemResizeToMax: c_uint = 0x10;
/// Device flag: ensure synchronous memory operations on this context will synchronize.
pub const cudaDeviceSyncMemops: c_uint = 0x80;
/// Device flags mask.
pub const cudaDeviceMask: c_uint = 0xff;

/// An integer view of an enum (`raw::X` of enum `X`), for parameters: a value the enum may lack
/// is no undefined behaviour.
pub trait RawEnum: Copy {
    /// The enum it is a view of.
    type Enum;
    fn value(self) -> std::ffi::c_int;
}

/// Makes integer views of enums (see the module documentation): `raw_enum!(A, B)` inside a
/// `pub mod raw` of the module that declares enums `A` and `B`.
macro_rules! raw_enum {
    ($($name:ident),* $(,)?) => {$(
        #[repr(transparent)]
        #[derive(Copy, Clone, PartialEq, Eq, Debug)]
        pub struct $name(pub std::ffi::c_int);

        impl $crate::types::RawEnum for $name {
            type Enum = super::$name;
            #[inline(always)]
            fn value(self) -> std::ffi::c_int {
                self.0
            }
        }

        impl PartialEq<super::$name> for $name {
            #[inline(always)]
            fn eq(&self, o: &super::$name) -> bool {
                self.0 == *o as std::ffi::c_int
            }
        }
    )*};
}
pub(crate) use raw_enum;

/// A check, at compile time, that the runtime's types are the driver's bytes: `ours = theirs`
/// the same size, and each field named after the colon at the same offset in both. In a
/// `const _: () = { ... };` block.
macro_rules! same_layout {
    ($($ours:ty = $theirs:ty $(: $($field:ident),+)?;)*) => {$(
        assert!(std::mem::size_of::<$ours>() == std::mem::size_of::<$theirs>());
        $($(assert!(std::mem::offset_of!($ours, $field) == std::mem::offset_of!($theirs, $field));)+)?
    )*};
}
pub(crate) use same_layout;

/// Integer views of the header's enums, for parameters (see the module documentation).
/// Made by a macro, so that cbindgen sees only the enums of the same names.
pub mod raw {
    pub use super::array::raw::*;
    pub use super::batch::raw::*;
    pub use super::device::raw::*;
    pub use super::egl::raw::*;
    pub use super::entry::raw::*;
    pub use super::external::raw::*;
    pub use super::gl::raw::*;
    pub use super::graph::raw::*;
    #[cfg_attr(feature = "abi12", allow(unused_imports))]
    pub use super::green::raw::*;
    pub use super::launch::raw::*;
    pub use super::library::raw::*;
    pub use super::memory::raw::*;
    pub use super::pool::raw::*;
    pub use super::texture::raw::*;

    super::raw_enum!(cudaError);
    pub type cudaError_t = cudaError;
}
