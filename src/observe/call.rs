//! One observed call, as the observer's parts see it: the export it is a call of
//! ([`Export`], build.rs's row of it in [`crate::EXPORT_INFO`]), its arguments and number
//! ([`Call`]), and what it returned ([`Status`], [`Ret`]).

use super::args::A;
use super::fmt::{Fmt, Show};
use super::op::Op;
use super::probe::readable;
use crate::types::cudaError;

/// The families of exports (build.rs gives each export one): the call trace's `tracing`
/// targets, and the groups of the summary.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    Memory,
    Copy,
    Memset,
    Array,
    Launch,
    Module,
    Stream,
    Event,
    Device,
    Graph,
    Texture,
    Interop,
    Error,
    Runtime,
}

impl Family {
    /// The `tracing` target of the family's calls.
    pub fn target(self) -> &'static str {
        match self {
            Family::Memory => "memory",
            Family::Copy => "copy",
            Family::Memset => "memset",
            Family::Array => "array",
            Family::Launch => "launch",
            Family::Module => "module",
            Family::Stream => "stream",
            Family::Event => "event",
            Family::Device => "device",
            Family::Graph => "graph",
            Family::Texture => "texture",
            Family::Interop => "interop",
            Family::Error => "error",
            Family::Runtime => "runtime",
        }
    }

    pub const ALL: [Family; 14] = [
        Family::Memory,
        Family::Copy,
        Family::Memset,
        Family::Array,
        Family::Launch,
        Family::Module,
        Family::Stream,
        Family::Event,
        Family::Device,
        Family::Graph,
        Family::Texture,
        Family::Interop,
        Family::Error,
        Family::Runtime,
    ];
}

/// One export, as build.rs describes it in [`crate::EXPORT_INFO`].
pub struct Export {
    /// The exported name (`cudaMemcpy_ptds` for a per-thread-stream export).
    pub name: &'static str,
    /// The function it is a form of (`cudaMemcpy`).
    pub base: &'static str,
    pub family: Family,
    /// A `_ptds`/`_ptsz` export: the null stream is the per-thread stream.
    pub per_thread: bool,
    /// (name, Rust type) of each parameter.
    pub params: &'static [(&'static str, &'static str)],
    /// The Rust return type.
    pub ret: &'static str,
    /// What the call means to the observer (its declaration's `sem`).
    pub(crate) op: Op,
    /// The set of flags its parameter `flags` holds (its declaration's `flags`).
    pub flags: Option<super::flags::FlagSet>,
}

/// What an export returned, as the observer sees it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Status {
    /// A `cudaError_t` export's result.
    Result(cudaError),
    /// An export that returns something else (or nothing).
    Other,
}

impl Status {
    pub fn failed(self) -> bool {
        matches!(self, Status::Result(e) if e != cudaError::cudaSuccess && e != cudaError::cudaErrorNotReady)
    }
    pub fn ok(self) -> bool {
        matches!(self, Status::Result(cudaError::cudaSuccess) | Status::Other)
    }
}

/// The return types of exports.
pub trait Ret: Sized {
    fn status(&self) -> Status;
    /// The value as the trace shows it.
    fn show(&self, f: &mut Fmt);
    /// The value an export returns when checked mode refuses the call (`None`: it never does).
    fn refused(_e: cudaError) -> Option<Self> {
        None
    }
}

impl Ret for cudaError {
    fn status(&self) -> Status {
        Status::Result(*self)
    }
    fn show(&self, f: &mut Fmt) {
        f.s.push_str(&format!("{self:?}"));
    }
    fn refused(e: cudaError) -> Option<Self> {
        Some(e)
    }
}

impl Ret for () {
    fn status(&self) -> Status {
        Status::Other
    }
    fn show(&self, _f: &mut Fmt) {}
}

impl Ret for *const std::ffi::c_char {
    fn status(&self) -> Status {
        Status::Other
    }
    fn show(&self, f: &mut Fmt) {
        f.cstr(*self as usize)
    }
}

macro_rules! ret_value {
    ($($t:ty),*) => {$(
        impl Ret for $t {
            fn status(&self) -> Status {
                Status::Other
            }
            fn show(&self, f: &mut Fmt) {
                Show::show(self, f)
            }
        }
    )*};
}
ret_value!(
    std::ffi::c_uint,
    *mut std::ffi::c_void,
    crate::types::cudaChannelFormatDesc,
    crate::types::cudaPitchedPtr,
    crate::types::cudaPos,
    crate::types::cudaExtent
);

impl Ret for std::ffi::c_char {
    fn status(&self) -> Status {
        Status::Other
    }
    fn show(&self, f: &mut Fmt) {
        f.s.push_str(&self.to_string())
    }
}

impl Ret for *mut *mut std::ffi::c_void {
    fn status(&self) -> Status {
        Status::Other
    }
    fn show(&self, f: &mut Fmt) {
        f.hex(*self as usize)
    }
}

/// One observed call.
pub struct Call<'a> {
    pub ix: usize,
    pub ex: &'static Export,
    pub args: &'a [A],
    /// Its number, `#seq`.
    pub seq: u64,
}

impl Call<'_> {
    /// Whether the call failed: an error result, but not-ready, and not the error queries'
    /// results (`cudaGetLastError` returns an error it did not have).
    pub fn failed(&self, s: Status) -> bool {
        s.failed() && self.ex.family != Family::Error
    }

    /// The argument of parameter `name`.
    pub fn arg(&self, name: &str) -> Option<&A> {
        self.ex.params.iter().position(|p| p.0 == name).map(|i| &self.args[i])
    }
    /// An integer or pointer argument's value (0 when the export has no such parameter).
    pub fn val(&self, name: &str) -> u64 {
        self.arg(name).map_or(0, A::raw)
    }
    /// The value an out pointer `name` points at, read as a `T` after a successful call.
    pub fn out<T: Copy + Default>(&self, name: &str) -> T {
        let p = self.val(name) as usize;
        if p == 0 || !readable(p, std::mem::size_of::<T>()) {
            return T::default();
        }
        // SAFETY: a readable out pointer the export wrote.
        unsafe { std::ptr::read_unaligned(p as *const T) }
    }
    /// A struct argument passed by pointer (`*const T`) or by value, read as a `T`.
    pub fn get<T: Copy>(&self, name: &str) -> Option<T> {
        let p = match self.arg(name)? {
            A::R(p, _) | A::V(p, _) => *p,
            _ => return None,
        };
        if p == 0 || !readable(p, std::mem::size_of::<T>()) {
            return None;
        }
        // SAFETY: readable memory the program passed as a `T`.
        Some(unsafe { std::ptr::read_unaligned(p as *const T) })
    }
    /// The stream the call works on: its stream argument (or `config->stream`), with a null
    /// stream in a per-thread export made `cudaStreamPerThread`.
    pub fn stream(&self) -> usize {
        let s = ["stream", "hStream"]
            .iter()
            .find_map(|n| self.arg(n))
            .map(A::raw)
            .or_else(|| self.get::<crate::types::cudaLaunchConfig_t>("config").map(|c| c.stream as u64))
            .unwrap_or(0) as usize;
        if s == 0 && self.ex.per_thread {
            2
        } else {
            s
        }
    }
}
