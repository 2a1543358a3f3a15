//! How values are written for the trace and the timeline: [`Fmt`], a text being built with
//! the registry at hand (pointers with what they point into, handles with what they are),
//! and [`Show`], what a type implements to be shown its own way (`args::arg!` picks, for the
//! type of each argument, its `Show`, else its `Debug`).

use std::fmt::{Debug, Write as _};

use super::registry::{State, H};

/// Longest text shown for one argument.
const MAX_ARG: usize = 400;

/// A text being built, with the registry at hand to say what pointers point into.
pub struct Fmt<'a> {
    pub s: String,
    pub reg: &'a State,
    /// The call being shown: what it freed is shown as it was when it was called.
    pub seq: u64,
}

impl Fmt<'_> {
    pub fn hex(&mut self, p: usize) {
        if p == 0 {
            self.s.push_str("NULL");
        } else {
            let _ = write!(self.s, "{p:#x}");
        }
    }

    /// A data pointer and, in brackets, the allocation it points into.
    pub fn ptr(&mut self, p: usize) {
        self.hex(p);
        if p != 0 {
            if let Some(d) = self.reg.describe(p, self.seq) {
                let _ = write!(self.s, " [{d}]");
            }
        }
    }

    /// A handle and what it is.
    pub fn handle(&mut self, k: H, p: usize) {
        if k == H::Stream {
            match p {
                0 => return self.s.push_str("0 (null stream)"),
                1 => return self.s.push_str("cudaStreamLegacy"),
                2 => return self.s.push_str("cudaStreamPerThread"),
                _ => {}
            }
        }
        self.hex(p);
        if p != 0 {
            if let Some(d) = self.reg.describe_handle(p, self.seq) {
                let _ = write!(self.s, " [{d}]");
            }
        }
    }

    pub fn unreadable(&mut self, p: usize) {
        self.hex(p);
        if p != 0 {
            self.s.push_str(" (unreadable)");
        }
    }

    pub fn debug(&mut self, v: &dyn Debug) {
        let start = self.s.len();
        let _ = write!(self.s, "{v:?}");
        clamp(&mut self.s, start);
    }

    /// An enum value by the name `names` gives it, else the number, said to be no value.
    pub fn named(&mut self, v: i64, names: fn(i64) -> Option<&'static str>) {
        match names(v) {
            Some(n) => self.s.push_str(n),
            None => {
                let _ = write!(self.s, "{v} (not a valid value)");
            }
        }
    }

    /// A C string (at most 128 bytes of it, and no further than readable memory goes).
    pub fn cstr(&mut self, p: usize) {
        if p == 0 {
            return self.s.push_str("NULL");
        }
        let mut bytes = Vec::new();
        for i in 0..128usize {
            let a = p + i;
            if (i == 0 || a % 4096 == 0) && !super::probe::readable(a, 1) {
                break;
            }
            // SAFETY: the page holding `a` is readable.
            let b = unsafe { *(a as *const u8) };
            if b == 0 {
                let _ = write!(self.s, "{:?}", String::from_utf8_lossy(&bytes));
                return;
            }
            bytes.push(b);
        }
        if bytes.is_empty() {
            return self.unreadable(p);
        }
        let _ = write!(self.s, "{:?}...", String::from_utf8_lossy(&bytes));
    }
}

fn clamp(s: &mut String, start: usize) {
    if s.len() - start > MAX_ARG {
        let mut end = start + MAX_ARG;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push_str("...");
    }
}

/// Values the trace shows in its own way (structs field by field with what their pointers
/// point into, handles with what they are).
pub trait Show {
    fn show(&self, f: &mut Fmt);
}

/// Shows the value a pointer points at (`unsafe`: the pointer must be readable as the type).
pub type ShowFn = unsafe fn(usize, &mut Fmt);

/// Reads a `T` at `p`, if readable.
unsafe fn read<T>(p: usize) -> Option<std::mem::ManuallyDrop<T>> {
    if p == 0 || !super::probe::readable(p, std::mem::size_of::<T>()) {
        return None;
    }
    // SAFETY: readable memory the program passed as a `T`; the copy is never dropped.
    Some(std::mem::ManuallyDrop::new(unsafe { std::ptr::read_unaligned(p as *const T) }))
}

pub(super) unsafe fn show_thunk<T: Show>(p: usize, f: &mut Fmt) {
    // SAFETY: the caller's promise.
    match unsafe { read::<T>(p) } {
        Some(v) => v.show(f),
        None => f.unreadable(p),
    }
}

pub(super) unsafe fn debug_thunk<T: Debug>(p: usize, f: &mut Fmt) {
    // SAFETY: the caller's promise.
    match unsafe { read::<T>(p) } {
        Some(v) => f.debug(&*v),
        None => f.unreadable(p),
    }
}
