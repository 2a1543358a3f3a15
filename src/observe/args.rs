//! An observed call's arguments, as the generated shims hand them over: each decoded by its
//! C type (build.rs picks the variant from the parameter's declared type).

use std::fmt::Debug;
use std::marker::PhantomData;

/// The kinds of handles the observer tells apart.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum H {
    Stream,
    Event,
    Array,
    Mipmapped,
    Graph,
    GraphExec,
    GraphNode,
    Pool,
    Kernel,
    Library,
    Function,
    UserObject,
    Other,
}

impl H {
    pub fn label(self) -> &'static str {
        match self {
            H::Stream => "stream",
            H::Event => "event",
            H::Array => "array",
            H::Mipmapped => "mipmapped array",
            H::Graph => "graph",
            H::GraphExec => "graph exec",
            H::GraphNode => "graph node",
            H::Pool => "pool",
            H::Kernel => "kernel",
            H::Library => "library",
            H::Function => "function",
            H::UserObject => "user object",
            H::Other => "handle",
        }
    }
}

/// Shows the value a pointer points at (`unsafe`: the pointer must be readable as the type).
pub type ShowFn = unsafe fn(usize, &mut super::show::Fmt);

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

/// Values the trace shows in its own way (structs field by field with what their pointers
/// point into, handles with what they are).
pub trait Show {
    fn show(&self, f: &mut super::show::Fmt);
}

/// Selects how a type is shown: by [`Show`], else by `Debug`, else not at all (autoref
/// specialization: the generated code names the concrete type, so the first impl that
/// applies wins; see [`show_fn!`](crate::show_fn)).
pub struct Tag<T: ?Sized>(PhantomData<*const T>);

impl<T: ?Sized> Tag<T> {
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Tag(PhantomData)
    }
}

pub trait ViaShow {
    fn show_fn(&self) -> Option<ShowFn>;
}
pub trait ViaDebug {
    fn show_fn(&self) -> Option<ShowFn>;
}
pub trait ViaNone {
    fn show_fn(&self) -> Option<ShowFn>;
}

impl<T: Show> ViaShow for &&Tag<T> {
    fn show_fn(&self) -> Option<ShowFn> {
        Some(show_thunk::<T>)
    }
}
impl<T: Debug> ViaDebug for &Tag<T> {
    fn show_fn(&self) -> Option<ShowFn> {
        Some(debug_thunk::<T>)
    }
}
impl<T: ?Sized> ViaNone for Tag<T> {
    fn show_fn(&self) -> Option<ShowFn> {
        None
    }
}

/// Reads a `T` at `p`, if readable.
unsafe fn read<T>(p: usize) -> Option<std::mem::ManuallyDrop<T>> {
    if p == 0 || !super::probe::readable(p, std::mem::size_of::<T>()) {
        return None;
    }
    // SAFETY: readable memory the program passed as a `T`; the copy is never dropped.
    Some(std::mem::ManuallyDrop::new(unsafe { std::ptr::read_unaligned(p as *const T) }))
}

unsafe fn show_thunk<T: Show>(p: usize, f: &mut super::show::Fmt) {
    // SAFETY: the caller's promise.
    match unsafe { read::<T>(p) } {
        Some(v) => v.show(f),
        None => f.unreadable(p),
    }
}

unsafe fn debug_thunk<T: Debug>(p: usize, f: &mut super::show::Fmt) {
    // SAFETY: the caller's promise.
    match unsafe { read::<T>(p) } {
        Some(v) => f.debug(&*v),
        None => f.unreadable(p),
    }
}

/// `Option<ShowFn>` for type `T`: its [`Show`], else its `Debug`, else `None`.
#[macro_export]
#[doc(hidden)]
macro_rules! show_fn {
    ($t:ty) => {{
        #[allow(unused_imports)]
        use $crate::observe::args::{ViaDebug as _, ViaNone as _, ViaShow as _};
        (&&&$crate::observe::args::Tag::<$t>::new()).show_fn()
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Neither;
    #[derive(Debug)]
    struct OnlyDebug;

    #[test]
    fn show_is_chosen_before_debug_and_debug_before_nothing() {
        assert!(crate::show_fn!(Neither).is_none());
        let d = crate::show_fn!(OnlyDebug).unwrap();
        let s = crate::show_fn!(crate::types::cudaExtent).unwrap();
        assert!(d as usize != s as usize);
        assert_eq!(d as usize, debug_thunk::<OnlyDebug> as *const () as usize);
        assert_eq!(s as usize, show_thunk::<crate::types::cudaExtent> as *const () as usize);
    }
}
