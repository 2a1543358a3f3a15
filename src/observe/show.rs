//! How the trace and the timeline show a call's arguments: sizes and counts in decimal,
//! flags, enums and advice by name, pointers with what they point into (from the
//! allocations this runtime made), handles with what they are, structs field by field.

use std::ffi::c_void;
use std::fmt::Write as _;

use super::args::A;
use super::call::{Call, Status};
use super::fmt::{Fmt, Show};
use super::registry::{self, H};
use crate::types::*;

/// One shown argument: its name, whether it is shown through its pointer (`->`), the text.
pub struct Shown {
    pub name: &'static str,
    pub through: bool,
    pub text: String,
}

/// The arguments of `c`, shown. Out pointers are shown through when the call succeeded
/// (`status` is `None` as the call starts).
pub fn decode(c: &Call, status: Option<Status>) -> Vec<Shown> {
    let reg = registry::lock();
    let mut out = Vec::with_capacity(c.args.len());
    for (i, a) in c.args.iter().enumerate() {
        let (name, ty) = c.ex.params[i];
        let mut f = Fmt { s: String::new(), reg: &reg, seq: c.seq };
        let mut through = false;
        match *a {
            A::I(v) => {
                if v == -1 && (name == "device" || name.ends_with("Device") || name == "dev") {
                    f.s.push_str("cudaCpuDeviceId");
                } else {
                    let _ = write!(f.s, "{v}");
                }
            }
            A::U(v) => match c.ex.flags.filter(|_| name == "flags").map(super::flags::FlagSet::names) {
                Some(t) => flags(&mut f.s, v, t),
                None if name.to_ascii_lowercase().contains("flags") => {
                    let _ = write!(f.s, "{v:#x}");
                }
                None => {
                    let _ = write!(f.s, "{v}");
                }
            },
            A::F(v) => {
                let _ = write!(f.s, "{v}");
            }
            // nvcc passes the host stub and shadow as `const char *`.
            A::S(p) if name == "hostFun" || name == "hostVar" => f.ptr(p),
            A::S(p) => f.cstr(p),
            A::P(p) if name == "deviceFun" || name == "deviceAddress" => f.cstr(p),
            A::P(p) => f.ptr(p),
            A::E(v, names) => f.named(v, names),
            A::H(k, p) => f.handle(k, p),
            A::R(p, show) => {
                let input = ty.starts_with("*const");
                match show {
                    Some(show) if p != 0 && (input || status.is_some_and(Status::ok)) && !opaque(name) => {
                        through = true;
                        // SAFETY: the thunk checks that `p` is readable as its type.
                        unsafe { show(p, &mut f) }
                    }
                    _ => f.hex(p),
                }
            }
            A::V(p, show) => match show {
                // SAFETY: `p` is the shim's own copy of the struct.
                Some(show) => unsafe { show(p, &mut f) },
                None => f.s.push_str("{..}"),
            },
        }
        out.push(Shown { name, through, text: f.s });
    }
    out
}

/// What `c` returned, shown.
pub fn result<R: super::call::Ret>(c: &Call, r: &R) -> String {
    let reg = registry::lock();
    let mut f = Fmt { s: String::new(), reg: &reg, seq: c.seq };
    r.show(&mut f);
    f.s
}

/// Parameters whose pointee means nothing on its own (kernel arguments, option arrays).
fn opaque(name: &str) -> bool {
    matches!(name, "args" | "kernelParams" | "extra" | "jitOptionsValues" | "libraryOptionValues")
}

/// `A|B|0x40` (`0` when none is set).
fn flags(s: &mut String, v: u64, names: &[(&str, u64)]) {
    if v == 0 {
        s.push('0');
        return;
    }
    let mut rest = v;
    let mut first = true;
    for &(n, bit) in names {
        if bit != 0 && v & bit == bit {
            if !first {
                s.push('|');
            }
            s.push_str(n);
            rest &= !bit;
            first = false;
        }
    }
    if rest != 0 {
        if !first {
            s.push('|');
        }
        let _ = write!(s, "{rest:#x}");
    }
}

// ---- values shown in their own way -------------------------------------------------------

macro_rules! show_int {
    ($($t:ty),*) => {$(
        impl Show for $t {
            fn show(&self, f: &mut Fmt) {
                let _ = write!(f.s, "{}", self);
            }
        }
    )*};
}
show_int!(i8, u8, i16, u16, i32, u32, i64, u64, isize, usize, f32, f64);

impl Show for *mut c_void {
    fn show(&self, f: &mut Fmt) {
        f.ptr(*self as usize)
    }
}
impl Show for *const c_void {
    fn show(&self, f: &mut Fmt) {
        f.ptr(*self as usize)
    }
}

// The handles' own: `args::handles!`.

/// Structs shown by one format of their fields.
macro_rules! show_fields {
    ($($t:ty: $fmt:literal, $($field:ident),+;)*) => {$(
        impl Show for $t {
            fn show(&self, f: &mut Fmt) {
                let _ = write!(f.s, $fmt, $(self.$field),+);
            }
        }
    )*};
}
show_fields! {
    cudaExtent: "{{width={}, height={}, depth={}}}", width, height, depth;
    cudaPos: "{{x={}, y={}, z={}}}", x, y, z;
    dim3: "({},{},{})", x, y, z;
    uint3: "({},{},{})", x, y, z;
}

impl Show for cudaPitchedPtr {
    fn show(&self, f: &mut Fmt) {
        f.s.push_str("{ptr=");
        f.ptr(self.ptr as usize);
        let _ = write!(f.s, ", pitch={}, xsize={}, ysize={}}}", self.pitch, self.xsize, self.ysize);
    }
}

impl Show for cudaChannelFormatDesc {
    fn show(&self, f: &mut Fmt) {
        let _ = write!(f.s, "{{x={}, y={}, z={}, w={}, f=", self.x, self.y, self.z, self.w);
        f.named(self.f.0 as i64, super::enums::cudaChannelFormatKind);
        f.s.push('}');
    }
}

impl Show for cudaMemLocation {
    fn show(&self, f: &mut Fmt) {
        f.s.push_str("{type=");
        f.named(self.r#type.0 as i64, super::enums::cudaMemLocationType);
        let _ = write!(f.s, ", id={}}}", self.id);
    }
}

/// One side of a 3D copy: an array at a position, or a pitched pointer at a position.
fn side(f: &mut Fmt, array: cudaArray_t, pos: cudaPos, ptr: cudaPitchedPtr) {
    if !array.is_null() {
        f.s.push_str("Array=");
        f.handle(H::Array, array as usize);
    } else {
        f.s.push_str("Ptr=");
        ptr.show(f);
    }
    f.s.push_str(", ");
    if pos.x != 0 || pos.y != 0 || pos.z != 0 {
        f.s.push_str("pos=");
        pos.show(f);
        f.s.push_str(", ");
    }
}

impl Show for cudaMemcpy3DParms {
    fn show(&self, f: &mut Fmt) {
        f.s.push_str("{src");
        side(f, self.srcArray, self.srcPos, self.srcPtr);
        f.s.push_str("dst");
        side(f, self.dstArray, self.dstPos, self.dstPtr);
        f.s.push_str("extent=");
        self.extent.show(f);
        f.s.push_str(", kind=");
        f.named(self.kind.0 as i64, super::enums::cudaMemcpyKind);
        f.s.push('}');
    }
}

impl Show for cudaMemcpy3DPeerParms {
    fn show(&self, f: &mut Fmt) {
        f.s.push_str("{src");
        side(f, self.srcArray, self.srcPos, self.srcPtr);
        let _ = write!(f.s, "srcDevice={}, dst", self.srcDevice);
        side(f, self.dstArray, self.dstPos, self.dstPtr);
        let _ = write!(f.s, "dstDevice={}, extent=", self.dstDevice);
        self.extent.show(f);
        f.s.push('}');
    }
}

impl Show for cudaLaunchConfig_t {
    fn show(&self, f: &mut Fmt) {
        f.s.push_str("{grid=");
        self.gridDim.show(f);
        f.s.push_str(", block=");
        self.blockDim.show(f);
        let _ = write!(f.s, ", dynamicSmemBytes={}, stream=", self.dynamicSmemBytes);
        f.handle(H::Stream, self.stream as usize);
        let _ = write!(f.s, ", numAttrs={}}}", self.numAttrs);
    }
}

impl Show for cudaDeviceProp {
    fn show(&self, f: &mut Fmt) {
        // SAFETY: a NUL-terminated name the runtime wrote (bounded by the array).
        let n = self.name.iter().take_while(|&&c| c != 0).map(|&c| c as u8 as char).collect::<String>();
        let _ = write!(
            f.s,
            "{{name={n:?}, major={}, minor={}, totalGlobalMem={}, multiProcessorCount={}, ...}}",
            self.major, self.minor, self.totalGlobalMem, self.multiProcessorCount
        );
    }
}

impl Show for cudaPointerAttributes {
    fn show(&self, f: &mut Fmt) {
        let _ = write!(f.s, "{{type={:?}, device={}, devicePointer=", self.r#type, self.device);
        f.hex(self.devicePointer as usize);
        f.s.push_str(", hostPointer=");
        f.hex(self.hostPointer as usize);
        f.s.push('}');
    }
}
