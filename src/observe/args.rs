//! An observed call's arguments, as the generated shims hand them over: each decoded by its
//! type ([`arg!`](crate::arg): the type system picks the variant, from the impls below).

use std::ffi::{c_char, c_void};
use std::fmt::Debug;

pub use super::fmt::ShowFn;
use super::fmt::{debug_thunk, show_thunk, Fmt, Show};
pub use super::registry::H;
use crate::types::*;

/// One argument.
#[derive(Copy, Clone)]
pub enum A {
    /// A signed integer.
    I(i64),
    /// An unsigned integer (sizes, flags, counts).
    U(u64),
    F(f64),
    /// A C string.
    S(usize),
    /// A data pointer (`void *`): shown with what it points into.
    P(usize),
    /// An enum value and the function that names it.
    E(i64, fn(i64) -> Option<&'static str>),
    /// A handle.
    H(H, usize),
    /// A pointer to a typed value (an out pointer or a struct passed by pointer), and how to
    /// show that value when the type can be shown.
    R(usize, Option<ShowFn>),
    /// A struct passed by value (the address of the shim's copy), and how to show it.
    V(usize, Option<ShowFn>),
}

impl A {
    /// The integer or pointer value (0 for a float or a struct).
    pub fn raw(&self) -> u64 {
        match *self {
            A::I(v) | A::E(v, _) => v as u64,
            A::U(v) => v,
            A::S(p) | A::P(p) | A::H(_, p) | A::R(p, _) => p as u64,
            A::F(_) | A::V(..) => 0,
        }
    }
}

/// The address held by a pointer-sized value (a function pointer, say).
pub fn addr<T>(v: &T) -> usize {
    if std::mem::size_of::<T>() == std::mem::size_of::<usize>() {
        // SAFETY: a pointer-sized value read as its bits.
        unsafe { std::mem::transmute_copy::<T, usize>(v) }
    } else {
        0
    }
}

// ---- decoding an argument ------------------------------------------------------------------

/// A type with a decoding of its own: integers, floats, C strings, untyped pointers, handles,
/// callbacks and the integer views of enums (`raw::*`).
pub trait Known {
    fn known(&self) -> A;
}

macro_rules! known {
    ($($t:ty => |$v:ident| $e:expr;)*) => {$(
        impl Known for $t {
            fn known(&self) -> A {
                let $v = *self;
                $e
            }
        }
    )*};
}
known! {
    i32 => |v| A::I(v as i64);
    i64 => |v| A::I(v);
    u32 => |v| A::U(v as u64);
    u64 => |v| A::U(v);
    usize => |v| A::U(v as u64);
    f32 => |v| A::F(v as f64);
    f64 => |v| A::F(v);
    *const c_char => |v| A::S(v as usize);
    *mut c_char => |v| A::P(v as usize);
    *const c_void => |v| A::P(v as usize);
    *mut c_void => |v| A::P(v as usize);
}

/// The callbacks a program passes: their address.
macro_rules! callbacks {
    ($($(#[$m:meta])* $t:ty),* $(,)?) => {$(
        $(#[$m])*
        impl Known for $t {
            fn known(&self) -> A {
                A::P(addr(self))
            }
        }
    )*};
}
callbacks!(
    cudaHostFn_t,
    cudaStreamCallback_t,
    cudaAsyncCallback,
    #[cfg(not(feature = "abi12"))]
    cudaLogsCallback_t,
);

/// The handle types, by the kind the observer knows them as (those of a kind of their own are
/// also shown as handles where a pointer points at one).
macro_rules! handles {
    (shown: $($t:ty => $k:ident),*; other: $($(#[$m:meta])* $o:ty),* $(,)?) => {
        $(
            impl Known for $t {
                fn known(&self) -> A {
                    A::H(H::$k, *self as usize)
                }
            }
            impl Show for $t {
                fn show(&self, f: &mut Fmt) {
                    f.handle(H::$k, *self as usize)
                }
            }
        )*
        $(
            $(#[$m])*
            impl Known for $o {
                fn known(&self) -> A {
                    A::H(H::Other, *self as usize)
                }
            }
        )*
    };
}
handles!(
    shown:
    cudaStream_t => Stream,
    cudaEvent_t => Event,
    cudaArray_t => Array,
    cudaArray_const_t => Array,
    cudaMipmappedArray_t => Mipmapped,
    cudaMipmappedArray_const_t => Mipmapped,
    cudaGraph_t => Graph,
    cudaGraphExec_t => GraphExec,
    cudaGraphNode_t => GraphNode,
    cudaMemPool_t => Pool,
    cudaKernel_t => Kernel,
    cudaLibrary_t => Library,
    cudaFunction_t => Function,
    cudaUserObject_t => UserObject;
    other:
    cudaExternalMemory_t,
    cudaExternalSemaphore_t,
    cudaGraphicsResource_t,
    cudaAsyncCallbackHandle_t,
    cudaEglStreamConnection,
    EGLImageKHR, // and EGLStreamKHR, EGLSyncKHR: the same type
    #[cfg(not(feature = "abi12"))]
    cudaLogsCallbackHandle,
    #[cfg(not(feature = "abi12"))]
    cudaExecutionContext_t,
    #[cfg(not(feature = "abi12"))]
    cudaDevResourceDesc_t,
);

/// An enum whose values have names: `crate::observe::enums` (generated) for every enum of
/// `src/types`.
pub trait Named {
    const NAME: fn(i64) -> Option<&'static str>;
}

/// An enum's integer view, with the enum's names.
impl<R: RawEnum> Known for R
where
    R::Enum: Named,
{
    fn known(&self) -> A {
        A::E(self.value() as i64, <R::Enum as Named>::NAME)
    }
}

/// An argument (the shim's parameter itself) on its way to its decoding ([`arg!`](crate::arg)).
pub struct Arg<'a, T>(pub &'a T);

/// The decodings, in the order they are tried (autoref specialization: each is implemented for
/// one more reference than the next, and [`arg!`](crate::arg) calls through as many as there
/// are, so that the first whose bounds hold is taken): a [`Known`] type; a pointer to a type
/// shown by [`Show`], else by `Debug`, else not; a value (a struct passed by value) likewise.
macro_rules! decodings {
    ($($via:ident)*) => {$(
        pub trait $via {
            fn arg(&self) -> A;
        }
    )*};
}
decodings!(ViaKnown ViaPtrShow ViaPtrDebug ViaPtr ViaValShow ViaValDebug ViaVal);

impl<T: Known> ViaKnown for &&&&&&Arg<'_, T> {
    fn arg(&self) -> A {
        self.0.known()
    }
}

macro_rules! pointers {
    ($($p:ident)*) => {$(
        impl<T: Show> ViaPtrShow for &&&&&Arg<'_, *$p T> {
            fn arg(&self) -> A {
                A::R(*self.0 as usize, Some(show_thunk::<T>))
            }
        }
        impl<T: Debug> ViaPtrDebug for &&&&Arg<'_, *$p T> {
            fn arg(&self) -> A {
                A::R(*self.0 as usize, Some(debug_thunk::<T>))
            }
        }
        impl<T> ViaPtr for &&&Arg<'_, *$p T> {
            fn arg(&self) -> A {
                A::R(*self.0 as usize, None)
            }
        }
    )*};
}
pointers!(const mut);

impl<T: Show> ViaValShow for &&Arg<'_, T> {
    fn arg(&self) -> A {
        A::V(self.0 as *const T as usize, Some(show_thunk::<T>))
    }
}
impl<T: Debug> ViaValDebug for &Arg<'_, T> {
    fn arg(&self) -> A {
        A::V(self.0 as *const T as usize, Some(debug_thunk::<T>))
    }
}
impl<T> ViaVal for Arg<'_, T> {
    fn arg(&self) -> A {
        A::V(self.0 as *const T as usize, None)
    }
}

/// A parameter decoded by its type, as an [`A`] (for the generated shims): `arg!(count)`. A
/// struct passed by value is shown where the parameter is.
#[macro_export]
#[doc(hidden)]
macro_rules! arg {
    ($v:expr) => {{
        #[allow(unused_imports)]
        use $crate::observe::args::{
            ViaKnown as _, ViaPtr as _, ViaPtrDebug as _, ViaPtrShow as _, ViaVal as _, ViaValDebug as _,
            ViaValShow as _,
        };
        (&&&&&&&$crate::observe::args::Arg(&$v)).arg()
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Neither;
    #[derive(Debug)]
    struct OnlyDebug;

    fn show(a: A) -> Option<usize> {
        match a {
            A::R(_, s) | A::V(_, s) => s.map(|s| s as usize),
            _ => panic!("neither a pointer nor a value"),
        }
    }

    #[test]
    fn each_type_its_decoding() {
        let (n, d, e) =
            (std::ptr::null_mut::<Neither>(), std::ptr::null::<OnlyDebug>(), std::ptr::null::<cudaExtent>());
        // A pointer is shown as what it points at shows: by Show, else by Debug, else not.
        assert_eq!(show(crate::arg!(n)), None);
        assert_eq!(show(crate::arg!(d)), Some(debug_thunk::<OnlyDebug> as *const () as usize));
        assert_eq!(show(crate::arg!(e)), Some(show_thunk::<cudaExtent> as *const () as usize));
        // A struct passed by value likewise, from where it is.
        let v = cudaExtent { width: 1, height: 2, depth: 3 };
        assert!(matches!(crate::arg!(v), A::V(p, Some(_)) if p == &v as *const cudaExtent as usize));
        // The types of their own.
        let (i, u, c) = (-3i32, 7usize, c"x".as_ptr());
        assert!(matches!(crate::arg!(i), A::I(-3)));
        assert!(matches!(crate::arg!(u), A::U(7)));
        assert!(matches!(crate::arg!(c), A::S(p) if p == c as usize));
        let s: cudaStream_t = 0x10 as cudaStream_t;
        assert!(matches!(crate::arg!(s), A::H(H::Stream, 0x10)));
        let k = raw::cudaMemcpyKind(1);
        assert!(matches!(crate::arg!(k), A::E(1, f) if f(1) == Some("cudaMemcpyHostToDevice")));
    }
}
