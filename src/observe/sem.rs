//! What calls mean to the observer: which make and free allocations and handles, which move
//! bytes (and between what), which launch kernels, which reset a device. Looked up once per
//! export at start ([`init`]), then one `match` per call.

use std::ffi::c_int;
use std::sync::OnceLock;

use figures::{Dir, End};

use super::args::A;
use super::call::{Call, Status};
use super::config::config;
use super::demangle::demangle;
use super::hostmem::{self, Region};
pub(crate) use super::op::{CopyOp, MemsetOp, Op};
use super::registry::{self, Alloc, Kind, State};
use super::{checked, gpu, probe, process, record, report};
use crate::types::cudaError;
use crate::types::*;

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
    if config().checked {
        pre.refuse = checked::check(c, matches!(c.ex.op, Op::Free(..))).or_else(|| {
            let why = hostmem::refuse(&host_regions(c, op))?;
            Some((cudaError::cudaErrorInvalidValue, why))
        });
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
    if pre.refuse.is_none() && config().gpu && matches!(op, Op::Copy(_) | Op::Memset(_) | Op::Launch | Op::GraphLaunch)
    {
        pre.gpu = gpu::begin(c.stream());
    }
    pre
}

fn backtrace() -> Option<Vec<usize>> {
    config().backtrace.then(report::backtrace)
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
        tid: process::tid(),
        backtrace: backtrace(),
        elem,
        export: c.ix,
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
                record::copied(dir, src, dst, bytes);
            }
        }
        Op::Memset(k) if ok => {
            let bytes = match k {
                MemsetOp::Linear => c.val("count"),
                MemsetOp::TwoD => c.val("width") * c.val("height"),
                MemsetOp::ThreeD => c.get::<cudaExtent>("extent").map_or(0, |e| (e.width * e.height * e.depth) as u64),
            };
            record::memset(bytes);
        }
        Op::Launch => {
            let name = kernel_of(c);
            if ok || status.failed() {
                record::launched(&name, ok);
            }
        }
        Op::GraphLaunch if ok => record::graph_launched(),
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
    if p == 0 || !probe::readable(p, 1) {
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
    known.map(|n| demangle(&n)).unwrap_or_else(|| driver_kernel_name(f).unwrap_or_else(|| format!("{f:#x}")))
}

/// The name the driver gives a kernel handle (one this runtime did not hand out).
fn driver_kernel_name(k: usize) -> Option<String> {
    if k == 0 || !probe::readable(k, 8) {
        return None;
    }
    let f = crate::runtime::rt::fns().ok()?;
    let mut p: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: a handle a launch just accepted; valid out pointer.
    let r = unsafe { f.cuKernelGetName(&mut p, k as crate::driver::types::CUkernel) };
    (r == 0 && !p.is_null()).then(|| demangle(&cstring(p as usize).unwrap_or_default()))
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

/// The copies of a batched copy's arrays: (destination, source, bytes); none where an array
/// cannot be read.
fn batch(c: &Call) -> Vec<(usize, usize, usize)> {
    let n = c.val("count") as usize;
    let (dsts, srcs, sizes) = (c.val("dsts") as usize, c.val("srcs") as usize, c.val("sizes") as usize);
    let Some(words) = n.checked_mul(8) else { return Vec::new() };
    if n == 0 || ![dsts, srcs, sizes].iter().all(|&p| super::probe::readable(p, words)) {
        return Vec::new();
    }
    // SAFETY: three readable arrays of `n` words.
    (0..n)
        .map(|i| unsafe {
            (*(dsts as *const usize).add(i), *(srcs as *const usize).add(i), *(sizes as *const usize).add(i))
        })
        .collect()
}

/// The ends of a 3D copy's parameters (each side's array and pointer), its extent, and its
/// kind (`$kind`, of the parameters `$p`).
macro_rules! ends3d {
    ($params:expr, $p:ident => $kind:expr) => {
        $params.map(|$p| {
            (
                $p.srcArray as usize,
                $p.srcPtr.ptr as usize,
                $p.dstArray as usize,
                $p.dstPtr.ptr as usize,
                $p.extent,
                $kind,
            )
        })
    };
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
                ends3d!(c.get::<cudaMemcpy3DParms>("p"), p => p.kind.0 as i64)
            } else {
                ends3d!(c.get::<cudaMemcpy3DPeerParms>("p"), p => 4)
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
            return batch(c)
                .into_iter()
                .map(|(d, s, b)| {
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

/// What a copy, memset or registration will read or write, for checked mode's test of host
/// memory: each side as a [`Region`], host memory where the kind (or, for `cudaMemcpyDefault`
/// and memsets, what the pointer is) says so; device sides only have their strides checked.
fn host_regions(c: &Call, op: Op) -> Vec<Region> {
    use CopyOp as C;
    let reg = registry::lock();
    let kind = c.val("kind") as i64;
    // A side is host memory when the kind says host (or is Default) and the pointer is not
    // memory the registry or the driver knows as device memory or an array.
    let host = |p: usize, host_kind: bool| {
        (host_kind || !(0..=3).contains(&kind)) && p != 0 && matches!(end_of(&reg, p), End::Pageable | End::Pinned)
    };
    let (src_host, dst_host) = (matches!(kind, 0 | 1), matches!(kind, 0 | 2));
    let lin = |name: &'static str, host_kind: bool, write: bool, len: u64| {
        let p = c.val(name) as usize;
        Region::linear(name, p, len as usize, host(p, host_kind), write)
    };
    let rows = |name: &'static str, pitch: &str, host_kind: bool, write: bool| {
        let p = c.val(name) as usize;
        let w = c.val("width") as usize;
        Region {
            rows: c.val("height") as usize,
            pitch: c.val(pitch) as usize,
            ..Region::linear(name, p, w, host(p, host_kind), write)
        }
    };
    match op {
        Op::HostRegister => {
            // cudaHostRegisterReadOnly: the memory is only read.
            let write = c.val("flags") & 8 == 0;
            vec![Region::linear("ptr", c.val("ptr") as usize, c.val("size") as usize, c.val("ptr") != 0, write)]
        }
        Op::Memset(m) => {
            let (p, width, rows, pitch, slices, slice_rows) = match m {
                MemsetOp::Linear => (c.val("devPtr"), c.val("count"), 1, 0, 1, 1),
                MemsetOp::TwoD => (c.val("devPtr"), c.val("width"), c.val("height"), c.val("pitch"), 1, 1),
                MemsetOp::ThreeD => {
                    let (Some(pp), Some(e)) = (c.get::<cudaPitchedPtr>("pitchedDevPtr"), c.get::<cudaExtent>("extent"))
                    else {
                        return Vec::new();
                    };
                    (pp.ptr as u64, e.width as u64, e.height as u64, pp.pitch as u64, e.depth, pp.ysize)
                }
            };
            let name = if m == MemsetOp::ThreeD { "pitchedDevPtr" } else { "devPtr" };
            let p = p as usize;
            vec![Region {
                rows: rows as usize,
                pitch: pitch as usize,
                slices,
                slice_rows,
                ..Region::linear(name, p, width as usize, p != 0 && end_of(&reg, p) == End::Pinned, true)
            }]
        }
        Op::Copy(k) => match k {
            C::Linear => vec![lin("src", src_host, false, c.val("count")), lin("dst", dst_host, true, c.val("count"))],
            C::TwoD => vec![rows("src", "spitch", src_host, false), rows("dst", "dpitch", dst_host, true)],
            C::ToArray2D => vec![rows("src", "spitch", src_host, false)],
            C::FromArray2D => vec![rows("dst", "dpitch", dst_host, true)],
            C::ToArray | C::ToSymbol => vec![lin("src", src_host, false, c.val("count"))],
            C::FromArray | C::FromSymbol => vec![lin("dst", dst_host, true, c.val("count"))],
            C::ThreeD => {
                let Some(p) = c.get::<cudaMemcpy3DParms>("p") else { return Vec::new() };
                let e = p.extent;
                // With an array on either side, the width is in elements.
                let elem = match (p.srcArray as usize, p.dstArray as usize) {
                    (0, 0) => 1,
                    (0, a) | (a, _) => array_elem(&reg, a),
                };
                let side = |name: &'static str, array: usize, pp: cudaPitchedPtr, pos: cudaPos, host_kind, write| {
                    if array != 0 {
                        return None;
                    }
                    let base = pp.ptr as usize;
                    let r = Region {
                        rows: e.height,
                        pitch: pp.pitch,
                        slices: e.depth,
                        slice_rows: pp.ysize,
                        ..Region::linear(name, base, e.width.saturating_mul(elem), host(base, host_kind), write)
                    };
                    // The first byte: (z * ysize + y) * pitch + x on from the base.
                    let off = pos
                        .z
                        .checked_mul(pp.ysize)
                        .and_then(|v| v.checked_add(pos.y))
                        .and_then(|v| v.checked_mul(pp.pitch))
                        .and_then(|v| v.checked_add(pos.x))
                        .and_then(|v| v.checked_add(base));
                    Some(match off {
                        Some(start) => Region { base: start, ..r },
                        // An offset past the address space: only a host side is refused for it.
                        None if r.host => Region { width: usize::MAX, ..r },
                        None => Region { host: false, ..r },
                    })
                };
                let kind = p.kind.0 as i64;
                let (sh, dh) = (matches!(kind, 0 | 1), matches!(kind, 0 | 2));
                [
                    side("p->srcPtr", p.srcArray as usize, p.srcPtr, p.srcPos, sh, false),
                    side("p->dstPtr", p.dstArray as usize, p.dstPtr, p.dstPos, dh, true),
                ]
                .into_iter()
                .flatten()
                .collect()
            }
            C::Batch => batch(c)
                .into_iter()
                .flat_map(|(d, s, b)| {
                    [
                        Region::linear("srcs[i]", s, b, host(s, true), false),
                        Region::linear("dsts[i]", d, b, host(d, true), true),
                    ]
                })
                .collect(),
            C::Peer | C::ThreeDPeer | C::ArrayToArray2D | C::ArrayToArray => Vec::new(),
        },
        _ => Vec::new(),
    }
}
