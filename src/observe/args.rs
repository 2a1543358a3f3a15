//! An observed call's arguments, as the generated shims hand them over: each decoded by its
//! C type (build.rs picks the variant from the parameter's declared type).

pub use super::fmt::ShowFn;
pub use super::registry::H;

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
