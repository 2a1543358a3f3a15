//! Checked mode (`CUDART_RS_CHECKED=1`): before a call, its stream, event, array,
//! mipmapped-array, graph and executable-graph handles, the pointer a free frees and the
//! pointers a copy or memset uses are checked against what this runtime handed out, so that
//! what would crash the process (the driver follows a handle that points at nothing, or a
//! copy treats freed memory as host memory) returns an error instead and is reported.
//!
//! - A handle this runtime made and has not destroyed passes; one it destroyed is refused
//!   (until it hands the same value out again).
//! - A handle it never made (the program may have it from the driver API) is asked of the
//!   driver, if it points at readable memory: accepted if the driver knows it (and then
//!   remembered), refused if it points at nothing or the driver does not know it.
//! - A freed pointer passed to a free, a copy or a memset is refused unless the driver knows
//!   the address again (made since by the driver API) or it is readable host memory again.

use super::args::{A, H};
use super::call::{Call, Family};
use super::probe;
use super::registry::{self, State};
use crate::driver::types::*;
use crate::types::cudaError;

/// The error a refused handle gets.
fn handle_error(_k: H) -> cudaError {
    cudaError::cudaErrorInvalidResourceHandle
}

/// "a stream", "an event".
fn article(k: H) -> String {
    let l = k.label();
    format!("{} {l}", if l.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" })
}

fn checked_kind(k: H) -> bool {
    matches!(k, H::Stream | H::Event | H::Array | H::Mipmapped | H::Graph | H::GraphExec)
}

/// Whether the driver knows `h` as a handle of kind `k`.
fn driver_knows(k: H, h: usize) -> bool {
    let Ok(f) = crate::runtime::rt::ctx() else { return true };
    // Asked with the thread's capture mode relaxed: a query must not count as the program's
    // call during a stream capture.
    crate::runtime::capture_mode::relaxed(f, || {
        // SAFETY: `h` points at readable memory; valid out pointers. The driver judges it.
        let r = unsafe {
            match k {
                H::Stream => {
                    let mut fl = 0;
                    f.cuStreamGetFlags(h as CUstream, &mut fl)
                }
                H::Event => f.cuEventQuery(h as CUevent),
                H::Array => {
                    let mut d: CUDA_ARRAY3D_DESCRIPTOR = std::mem::zeroed();
                    f.cuArray3DGetDescriptor(&mut d, h as CUarray)
                }
                H::Mipmapped => {
                    let mut a: CUarray = std::ptr::null_mut();
                    f.cuMipmappedArrayGetLevel(&mut a, h as CUmipmappedArray, 0)
                }
                H::Graph => {
                    let mut n = 0usize;
                    f.cuGraphGetNodes(h as CUgraph, std::ptr::null_mut(), &mut n)
                }
                H::GraphExec => {
                    let mut fl = 0u64;
                    f.cuGraphExecGetFlags(h as CUgraphExec, &mut fl)
                }
                _ => CUDA_SUCCESS,
            }
        };
        // Not ready is an answer about a real event; invalid handle, value or context (or a
        // destroyed context, 709) is not.
        !matches!(r, CUDA_ERROR_INVALID_HANDLE | CUDA_ERROR_INVALID_VALUE | CUDA_ERROR_INVALID_CONTEXT | 709)
    })
}

/// Whether `p` (freed by this runtime) is usable memory again: the driver knows it, or it is
/// readable host memory.
fn pointer_vouched(p: usize) -> bool {
    if probe::readable(p, 1) {
        return true;
    }
    let Ok(f) = crate::runtime::rt::fns() else { return true };
    let mut t: u32 = 0;
    // SAFETY: valid out pointer; the driver looks the address up.
    unsafe {
        f.cuPointerGetAttribute((&mut t as *mut u32).cast(), CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p as u64) == CUDA_SUCCESS
    }
}

fn check_handle(reg: &mut State, name: &str, k: H, h: usize) -> Option<(cudaError, String)> {
    if h == 0 || (k == H::Stream && (h == 1 || h == 2)) {
        return None;
    }
    if let Some(a) = reg.handles.get(&h) {
        if a.kind.handle() == Some(k) {
            return None;
        }
        return Some((
            handle_error(k),
            format!("{name} = {h:#x} is the {} made by #{}, not {}", a.kind.label(), a.call, article(k)),
        ));
    }
    if reg.foreign.contains(&(k, h)) {
        return None;
    }
    if let Some(f) = reg.freed_handle(h) {
        if f.a.kind.handle() == Some(k) {
            return Some((
                handle_error(k),
                format!(
                    "{name} = {h:#x}: the {} made by #{} {} was destroyed by #{} {}",
                    k.label(),
                    f.a.call,
                    f.a.func,
                    f.free_call,
                    f.free_func
                ),
            ));
        }
    }
    if !probe::readable(h, 8) {
        return Some((handle_error(k), format!("{name} = {h:#x} is not {}: it points at no memory", article(k))));
    }
    if driver_knows(k, h) {
        reg.foreign.insert((k, h));
        return None;
    }
    Some((handle_error(k), format!("{name} = {h:#x} is not {} the driver knows", article(k))))
}

/// The error and reason for refusing `c`, if checked mode refuses it; `frees`: the call's
/// declaration says it frees (`sem = Free`).
pub fn check(c: &Call, frees: bool) -> Option<(cudaError, String)> {
    if !c.ex.ret.contains("cudaError") {
        return None;
    }
    let fam = c.ex.family;
    let uses = matches!(fam, Family::Copy | Family::Memset);
    let anything = c.args.iter().any(|a| match *a {
        A::H(k, h) => checked_kind(k) && h != 0,
        A::P(p) => p != 0 && (frees || uses),
        _ => false,
    });
    // Without a usable driver every call fails first with the initialisation error.
    if !anything || crate::runtime::rt::driver().is_err() {
        return None;
    }
    let mut reg = registry::lock();
    for (i, a) in c.args.iter().enumerate() {
        let name = c.ex.params[i].0;
        match *a {
            A::H(k, h) if checked_kind(k) => {
                if let Some(r) = check_handle(&mut reg, name, k, h) {
                    return Some(r);
                }
            }
            A::P(p) if p != 0 && (frees || uses) && reg.mem_holding(p).is_none() => {
                let Some(f) = reg.freed_holding(p).cloned() else { continue };
                if frees && p != f.a.addr {
                    continue;
                }
                drop(reg);
                if !pointer_vouched(p) {
                    let what = if frees { "double free" } else { "use after free" };
                    return Some((
                        cudaError::cudaErrorInvalidValue,
                        format!(
                            "{name} = {p:#x}: {what} of {} {:#x}+{} (made by #{} {}, freed by #{} {})",
                            f.a.kind.label(),
                            f.a.addr,
                            f.a.size,
                            f.a.call,
                            f.a.func,
                            f.free_call,
                            f.free_func
                        ),
                    ));
                }
                reg = registry::lock();
            }
            _ => {}
        }
    }
    None
}
