//! What calls mean to the observer: which make and free allocations and handles, which move
//! bytes (and between what), which launch kernels, which reset a device. Looked up once per
//! export at start ([`init`]), then one `match` per call.

use std::ffi::c_int;
use std::sync::OnceLock;

use super::args::A;
use super::registry::{self, Alloc, Kind, State};
use super::report::{self, Dir, End};
use super::{checked, gpu, Call, Status};
use crate::types::cudaError;
use crate::types::*;

/// What an export does, as far as the observer cares (each export's declaration says it:
/// `#[export(sem = ...)]`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum Op {
    None,
    /// Allocates memory: (kind, out pointer parameter).
    Malloc(Kind, &'static str),
    MallocPitch,
    Malloc3D,
    HostRegister,
    MallocArray,
    Malloc3DArray,
    MallocMipmapped,
    /// Makes a handle: (kind, out parameter).
    Create(Kind, &'static str),
    /// Frees memory of one of the kinds: (kinds, parameter).
    Free(&'static [Kind], &'static str),
    /// Destroys a handle: (kind, parameter).
    Destroy(Kind, &'static str),
    Copy(CopyOp),
    Memset(MemsetOp),
    /// Launches a kernel named by parameter `func`/`kernel`.
    Launch,
    GraphLaunch,
    Reset,
    RegisterFunction,
    /// Hands out a kernel handle for a host stub: (out parameter, stub parameter).
    GetKernel(&'static str, &'static str),
    LibraryGetKernel,
    /// Waits for work: a good time to collect finished GPU spans.
    Sync,
}

#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum CopyOp {
    Linear,
    Peer,
    TwoD,
    ThreeD,
    ThreeDPeer,
    ToArray2D,
    FromArray2D,
    ArrayToArray2D,
    ToArray,
    FromArray,
    ArrayToArray,
    ToSymbol,
    FromSymbol,
    Batch,
}

#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum MemsetOp {
    Linear,
    TwoD,
    ThreeD,
}

static OPS: OnceLock<Vec<Op>> = OnceLock::new();

pub fn init() {
    OPS.get_or_init(|| crate::EXPORT_INFO.iter().map(|e| e.op).collect());
}

fn op(c: &Call) -> Op {
    OPS.get().map_or(Op::None, |o| o[c.ix])
}

/// What was seen before a call, for after it.
#[derive(Clone, Default)]
pub struct Pre {
    /// Checked mode refuses the call: the error it returns, and why.
    pub refuse: Option<(cudaError, String)>,
    /// A free's or destroy's argument, as the registry knew it before the call.
    target: Option<Target>,
    /// The device current before the call (what a reset resets).
    device: c_int,
    gpu: Option<gpu::Begin>,
}

#[derive(Clone)]
enum Target {
    /// Null: nothing to free.
    Null,
    /// The start of a live allocation or a live handle of an expected kind.
    Live,
    /// A live allocation or handle of another kind.
    WrongKind(Alloc),
    /// Inside a live allocation.
    Interior(Alloc),
    /// Freed (and not handed out again): (what, allocated by, freed by).
    Freed(registry::Freed),
    Unknown,
}

fn current_device() -> c_int {
    crate::runtime::rt::current_device().unwrap_or(-1)
}

pub fn pre(c: &Call) -> Pre {
    let op = op(c);
    let mut pre = Pre::default();
    if super::config().checked {
        pre.refuse = checked::check(c, matches!(c.ex.op, Op::Free(..)));
    }
    match op {
        Op::Free(kinds, name) => {
            let p = c.val(name) as usize;
            let reg = registry::lock();
            pre.target = Some(if p == 0 {
                Target::Null
            } else if let Some(a) = reg.mem_at(p) {
                if kinds.contains(&a.kind) {
                    Target::Live
                } else {
                    Target::WrongKind(a.clone())
                }
            } else if let Some(a) = reg.mem_holding(p) {
                Target::Interior(a.clone())
            } else if let Some(f) = reg.freed_holding(p) {
                Target::Freed(f.clone())
            } else {
                Target::Unknown
            });
        }
        Op::Destroy(kind, name) => {
            let h = c.val(name) as usize;
            let reg = registry::lock();
            pre.target = Some(if h == 0 {
                Target::Null
            } else if let Some(a) = reg.handles.get(&h) {
                if a.kind == kind {
                    Target::Live
                } else {
                    Target::WrongKind(a.clone())
                }
            } else if let Some(f) = reg.freed_handle(h) {
                Target::Freed(f.clone())
            } else {
                Target::Unknown
            });
        }
        Op::Reset => {
            pre.device = current_device();
            gpu::forget_current();
        }
        _ => {}
    }
    if pre.refuse.is_none()
        && super::config().gpu
        && matches!(op, Op::Copy(_) | Op::Memset(_) | Op::Launch | Op::GraphLaunch)
    {
        pre.gpu = gpu::begin(c.stream());
    }
    pre
}

fn backtrace() -> Option<Vec<usize>> {
    super::config().backtrace.then(report::backtrace)
}

fn add(c: &Call, kind: Kind, addr: usize, size: usize, elem: usize) {
    if addr == 0 {
        return;
    }
    let device = current_device();
    let a = Alloc {
        kind,
        addr,
        size,
        device,
        call: c.seq,
        func: c.ex.name,
        tid: super::tid(),
        backtrace: backtrace(),
        elem,
    };
    registry::lock().add(a);
}

/// Bytes per element of an array format.
fn elem_size(d: &cudaChannelFormatDesc) -> usize {
    ((d.x.max(0) + d.y.max(0) + d.z.max(0) + d.w.max(0)) / 8) as usize
}

/// After a call: what it made, freed, moved or launched is recorded. Returns the misuses
/// it showed (also recorded), for the trace.
pub fn post(c: &Call, pre: &Pre, status: Status) -> Vec<String> {
    let mut misuses = Vec::new();
    let op = op(c);
    let ok = status.ok();
    if let Some(b) = pre.gpu.clone() {
        gpu::end(b, ok, || span_label(c, op));
    }
    match op {
        Op::Malloc(kind, out) if ok => add(c, kind, c.out::<usize>(out), c.val("size") as usize, 0),
        Op::MallocPitch if ok => {
            let pitch = c.out::<usize>("pitch");
            add(c, Kind::Pitched, c.out::<usize>("devPtr"), pitch * c.val("height") as usize, 0)
        }
        Op::Malloc3D if ok => {
            let p = c.out::<PitchedPtr>("pitchedDevPtr");
            let e = c.get::<cudaExtent>("extent");
            let size = e.map_or(0, |e| p.pitch * e.height * e.depth);
            add(c, Kind::Device3D, p.ptr, size, 0)
        }
        Op::HostRegister if ok => add(c, Kind::Registered, c.val("ptr") as usize, c.val("size") as usize, 0),
        Op::MallocArray if ok => {
            let elem = c.get::<cudaChannelFormatDesc>("desc").map_or(0, |d| elem_size(&d));
            let size = elem * c.val("width") as usize * (c.val("height") as usize).max(1);
            add(c, Kind::Array, c.out::<usize>("array"), size, elem)
        }
        Op::Malloc3DArray if ok => {
            let elem = c.get::<cudaChannelFormatDesc>("desc").map_or(0, |d| elem_size(&d));
            let e = c.get::<cudaExtent>("extent").unwrap_or(cudaExtent { width: 0, height: 0, depth: 0 });
            let size = elem * e.width * e.height.max(1) * e.depth.max(1);
            add(c, Kind::Array, c.out::<usize>("array"), size, elem)
        }
        Op::MallocMipmapped if ok => {
            let elem = c.get::<cudaChannelFormatDesc>("desc").map_or(0, |d| elem_size(&d));
            let e = c.get::<cudaExtent>("extent").unwrap_or(cudaExtent { width: 0, height: 0, depth: 0 });
            let levels = c.val("numLevels").max(1) as u32;
            let size: usize = (0..levels.min(32))
                .map(|l| {
                    let dim = |v: usize| if v == 0 { 1 } else { (v >> l).max(1) };
                    elem * dim(e.width) * dim(e.height) * dim(e.depth)
                })
                .sum();
            add(c, Kind::Mipmapped, c.out::<usize>("mipmappedArray"), size, elem)
        }
        Op::Create(kind, out) if ok => add(c, kind, c.out::<usize>(out), 0, 0),
        Op::Free(kinds, name) => {
            let p = c.val(name) as usize;
            misuses.extend(freed(c, pre, status, p, true, kinds[0]));
        }
        Op::Destroy(kind, name) => {
            let h = c.val(name) as usize;
            misuses.extend(freed(c, pre, status, h, false, kind));
        }
        Op::Copy(k) if ok => {
            for (dir, src, dst, bytes) in copy(c, k) {
                report::copied(dir, src, dst, bytes);
            }
        }
        Op::Memset(k) if ok => {
            let bytes = match k {
                MemsetOp::Linear => c.val("count"),
                MemsetOp::TwoD => c.val("width") * c.val("height"),
                MemsetOp::ThreeD => c.get::<cudaExtent>("extent").map_or(0, |e| (e.width * e.height * e.depth) as u64),
            };
            report::memset(bytes);
        }
        Op::Launch => {
            let name = kernel_of(c);
            if ok {
                report::launched(name.clone(), true);
            } else if status.failed() {
                report::launched(name, false);
            }
        }
        Op::GraphLaunch if ok => report::graph_launched(),
        Op::Reset if ok => {
            registry::lock().reset(pre.device, c.seq, c.ex.name);
        }
        Op::RegisterFunction => {
            let name = cstring(c.val("deviceName") as usize).or_else(|| cstring(c.val("deviceFun") as usize));
            if let Some(n) = name {
                registry::lock().kernels.insert(c.val("hostFun") as usize, n);
            }
        }
        Op::GetKernel(out, stub) if ok => {
            let k = c.out::<usize>(out);
            let mut reg = registry::lock();
            if let Some(n) = reg.kernels.get(&(c.val(stub) as usize)).cloned() {
                reg.kernels.insert(k, n);
            }
        }
        Op::LibraryGetKernel if ok => {
            if let Some(n) = cstring(c.val("name") as usize) {
                registry::lock().kernels.insert(c.out::<usize>("pKernel"), n);
            }
        }
        Op::Sync if ok => gpu::collect(false),
        _ => {}
    }
    if status.failed() && refuses_argument(status) {
        // A failed call that named a destroyed handle or freed memory: say so.
        let reg = registry::lock();
        let mut seen = Vec::new();
        for (i, a) in c.args.iter().enumerate() {
            match *a {
                A::H(k, h) if h > 2 && !matches!(op, Op::Destroy(..)) => {
                    if let Some(f) = reg.freed_handle(h) {
                        seen.push(format!(
                            "{} = {h:#x}: the {} made by #{} and destroyed by #{} ({})",
                            c.ex.params[i].0,
                            f.a.kind.label(),
                            f.a.call,
                            f.free_call,
                            k.label()
                        ));
                    }
                }
                A::P(p) if p != 0 && matches!(op, Op::Copy(_) | Op::Memset(_)) && reg.mem_holding(p).is_none() => {
                    if let Some(f) = reg.freed_holding(p) {
                        seen.push(format!(
                            "{} = {p:#x}: use after free of {} {:#x}+{} (allocated by #{}, freed by #{})",
                            c.ex.params[i].0,
                            f.a.kind.label(),
                            f.a.addr,
                            f.a.size,
                            f.a.call,
                            f.free_call
                        ));
                    }
                }
                _ => {}
            }
        }
        drop(reg);
        if !seen.is_empty() {
            let what = format!("{} -> {}", seen.join("; "), result_name(status));
            registry::lock().misuse(c.seq, c.ex.name, what.clone());
            misuses.push(what);
        }
    }
    misuses
}

/// Whether a failure is the driver refusing a pointer or handle argument.
fn refuses_argument(s: Status) -> bool {
    use cudaError as E;
    matches!(
        s,
        Status::Result(
            E::cudaErrorInvalidValue
                | E::cudaErrorInvalidDevicePointer
                | E::cudaErrorInvalidResourceHandle
                | E::cudaErrorHostMemoryNotRegistered
                | E::cudaErrorContextIsDestroyed
        )
    )
}

fn result_name(s: Status) -> String {
    match s {
        Status::Result(e) => format!("{e:?}"),
        Status::Other => String::new(),
    }
}

/// After a free or destroy: forget what it freed, or say what was wrong with it.
fn freed(c: &Call, pre: &Pre, status: Status, p: usize, memory: bool, kind: Kind) -> Option<String> {
    let ok = status.ok();
    let Some(t) = &pre.target else { return None };
    if !ok && !refuses_argument(status) {
        // Failed for another reason (no driver, a sticky error): says nothing of the argument.
        return None;
    }
    let what = match t {
        Target::Null => return None,
        Target::Live | Target::WrongKind(_) if ok => {
            registry::lock().remove(p, memory, c.seq, c.ex.name);
            return None;
        }
        // Accepted by the driver: memory or a handle this runtime did not make (or that
        // the driver made again at that address).
        Target::Unknown | Target::Freed(_) | Target::Interior(_) if ok => return None,
        Target::Live => return None,
        Target::WrongKind(a) => {
            format!("{p:#x} is {} (made by #{} {}), not {}", a.kind.label(), a.call, a.func, kind.label())
        }
        Target::Interior(a) => format!(
            "{p:#x} is inside {} {:#x}+{} (offset {}, allocated by #{} {})",
            a.kind.label(),
            a.addr,
            a.size,
            p - a.addr,
            a.call,
            a.func
        ),
        Target::Freed(f) => format!(
            "double {}: {} {p:#x}{} was made by #{} {} and {} by #{} {}",
            if memory { "free" } else { "destroy" },
            f.a.kind.label(),
            if memory { format!("+{}", f.a.size) } else { String::new() },
            f.a.call,
            f.a.func,
            if memory { "freed" } else { "destroyed" },
            f.free_call,
            f.free_func
        ),
        Target::Unknown => format!(
            "{} of unknown {} {p:#x} (not made by this runtime)",
            if memory { "free" } else { "destroy" },
            if memory { "pointer" } else { kind.label() }
        ),
    };
    let what = format!("{what} -> {}", result_name(status));
    registry::lock().misuse(c.seq, c.ex.name, what.clone());
    Some(what)
}

/// `cudaPitchedPtr`'s pointer and pitch, read from the out parameter.
#[derive(Copy, Clone, Default)]
#[repr(C)]
struct PitchedPtr {
    ptr: usize,
    pitch: usize,
    xsize: usize,
    ysize: usize,
}

pub fn cstring(p: usize) -> Option<String> {
    if p == 0 || !super::probe::readable(p, 1) {
        return None;
    }
    // SAFETY: a readable NUL-terminated name (nvcc's or the program's).
    let s = unsafe { std::ffi::CStr::from_ptr(p as *const std::ffi::c_char) };
    Some(s.to_string_lossy().into_owned())
}

/// The kernel a launch names.
fn kernel_of(c: &Call) -> String {
    let f = c.arg("func").or_else(|| c.arg("kernel")).map_or(0, A::raw) as usize;
    let known = registry::lock().kernel_name(f);
    known.map(|n| report::demangle(&n)).unwrap_or_else(|| driver_kernel_name(f).unwrap_or_else(|| format!("{f:#x}")))
}

/// The name the driver gives a kernel handle (one this runtime did not hand out).
fn driver_kernel_name(k: usize) -> Option<String> {
    if k == 0 || !super::probe::readable(k, 8) {
        return None;
    }
    let f = crate::runtime::rt::fns().ok()?;
    let mut p: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: a handle a launch just accepted; valid out pointer.
    let r = unsafe { f.cuKernelGetName(&mut p, k as crate::driver::types::CUkernel) };
    (r == 0 && !p.is_null()).then(|| report::demangle(&cstring(p as usize).unwrap_or_default()))
}

fn span_label(c: &Call, op: Op) -> (String, &'static str) {
    match op {
        Op::Launch => (kernel_of(c), "kernel"),
        Op::GraphLaunch => ("graph".to_string(), "graph"),
        Op::Memset(_) => ("memset".to_string(), "memset"),
        _ => match copy_kinds(c, op) {
            Some((dir, bytes)) => (format!("memcpy {} {} B", dir.label(), bytes), "memcpy"),
            None => ("memcpy".to_string(), "memcpy"),
        },
    }
}

fn copy_kinds(c: &Call, op: Op) -> Option<(Dir, u64)> {
    match op {
        Op::Copy(k) => match copy(c, k).as_slice() {
            [(d, _, _, b)] => Some((*d, *b)),
            _ => None,
        },
        _ => None,
    }
}

/// What memory `p` is.
fn end_of(reg: &State, p: usize) -> End {
    if let Some(a) = reg.mem_holding(p) {
        return End::of(a.kind);
    }
    // Not ours: ask the driver (memory it knows is device or page-locked host memory).
    let Ok(f) = crate::runtime::rt::fns() else { return End::Pageable };
    let mut t: u32 = 0;
    // SAFETY: valid out pointer; the driver looks the address up.
    let r = unsafe {
        f.cuPointerGetAttribute(
            (&mut t as *mut u32).cast(),
            crate::driver::types::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
            p as u64,
        )
    };
    match (r, t) {
        (0, 2) => End::Device,
        (0, 1) => End::Pinned,
        (0, 4) => End::Array,
        _ => End::Pageable,
    }
}

fn array_elem(reg: &State, h: usize) -> usize {
    if let Some(a) = reg.handles.get(&h) {
        if a.elem != 0 {
            return a.elem;
        }
    }
    // An array this runtime did not make (a mipmap level, a mapped resource): its format.
    let Ok(f) = crate::runtime::rt::fns() else { return 1 };
    // SAFETY: all-zero is a valid descriptor to be overwritten.
    let mut d: crate::driver::types::CUDA_ARRAY3D_DESCRIPTOR = unsafe { std::mem::zeroed() };
    // SAFETY: an array a copy just accepted; valid out pointer.
    if unsafe { f.cuArray3DGetDescriptor(&mut d, h as crate::driver::types::CUarray) } != 0 {
        return 1;
    }
    let bytes = match d.Format {
        0x01 | 0x08 => 1,
        0x02 | 0x09 | 0x10 => 2,
        _ => 4,
    };
    bytes * d.NumChannels.max(1) as usize
}

/// The device of the allocation holding `p`, if this runtime made it.
fn device_of(reg: &State, p: usize) -> Option<c_int> {
    reg.mem_holding(p).filter(|a| a.kind != Kind::Pinned && a.kind != Kind::Registered).map(|a| a.device)
}

/// A successful copy: its direction, source and destination memory, bytes (one entry per
/// copy of a batch).
fn copy(c: &Call, k: CopyOp) -> Vec<(Dir, End, End, u64)> {
    use CopyOp as C;
    let reg = registry::lock();
    let ptr = |n: &str| end_of(&reg, c.val(n) as usize);
    let kind = c.arg("kind").map(A::raw).unwrap_or(4) as i64;
    let (src, dst, bytes) = match k {
        C::Linear | C::Peer => (ptr("src"), ptr("dst"), c.val("count")),
        C::TwoD => (ptr("src"), ptr("dst"), c.val("width") * c.val("height")),
        C::ToArray2D => (ptr("src"), End::Array, c.val("width") * c.val("height")),
        C::FromArray2D => (End::Array, ptr("dst"), c.val("width") * c.val("height")),
        C::ArrayToArray2D => (End::Array, End::Array, c.val("width") * c.val("height")),
        C::ToArray => (ptr("src"), End::Array, c.val("count")),
        C::FromArray => (End::Array, ptr("dst"), c.val("count")),
        C::ArrayToArray => (End::Array, End::Array, c.val("count")),
        C::ToSymbol => (ptr("src"), End::Device, c.val("count")),
        C::FromSymbol => (End::Device, ptr("dst"), c.val("count")),
        C::ThreeD | C::ThreeDPeer => {
            let parts = if k == C::ThreeD {
                c.get::<cudaMemcpy3DParms>("p").map(|p| {
                    (
                        p.srcArray as usize,
                        p.srcPtr.ptr as usize,
                        p.dstArray as usize,
                        p.dstPtr.ptr as usize,
                        p.extent,
                        p.kind.0 as i64,
                    )
                })
            } else {
                c.get::<cudaMemcpy3DPeerParms>("p").map(|p| {
                    (
                        p.srcArray as usize,
                        p.srcPtr.ptr as usize,
                        p.dstArray as usize,
                        p.dstPtr.ptr as usize,
                        p.extent,
                        4,
                    )
                })
            };
            let Some((sa, sp, da, dp, e, kind)) = parts else { return Vec::new() };
            // With an array on either side, the width is in elements.
            let elem = if sa != 0 {
                array_elem(&reg, sa)
            } else if da != 0 {
                array_elem(&reg, da)
            } else {
                1
            };
            let src = if sa != 0 { End::Array } else { end_of(&reg, sp) };
            let dst = if da != 0 { End::Array } else { end_of(&reg, dp) };
            let bytes = (e.width * elem * e.height.max(1) * e.depth.max(1)) as u64;
            let peer = k == C::ThreeDPeer
                || (sa == 0
                    && da == 0
                    && matches!((device_of(&reg, sp), device_of(&reg, dp)), (Some(a), Some(b)) if a != b));
            let dir = if peer { Dir::Peer } else { Dir::of(kind, src, dst) };
            return vec![(dir, src, dst, bytes)];
        }
        C::Batch => {
            let n = c.val("count") as usize;
            let (dsts, srcs, sizes) = (c.val("dsts") as usize, c.val("srcs") as usize, c.val("sizes") as usize);
            let Some(words) = n.checked_mul(8) else { return Vec::new() };
            if n == 0 || ![dsts, srcs, sizes].iter().all(|&p| super::probe::readable(p, words)) {
                return Vec::new();
            }
            return (0..n)
                .map(|i| {
                    // SAFETY: three readable arrays of `n` words.
                    let (d, s, b) = unsafe {
                        (
                            *(dsts as *const usize).add(i),
                            *(srcs as *const usize).add(i),
                            *(sizes as *const usize).add(i),
                        )
                    };
                    let peer = matches!((device_of(&reg, s), device_of(&reg, d)), (Some(a), Some(b)) if a != b);
                    let (s, d) = (end_of(&reg, s), end_of(&reg, d));
                    (if peer { Dir::Peer } else { Dir::of(4, s, d) }, s, d, b as u64)
                })
                .collect();
        }
    };
    let peer = k == C::Peer
        || (k == C::Linear
            && matches!((device_of(&reg, c.val("src") as usize), device_of(&reg, c.val("dst") as usize)), (Some(a), Some(b)) if a != b));
    let dir = if peer { Dir::Peer } else { Dir::of(kind, src, dst) };
    vec![(dir, src, dst, bytes)]
}
