//! Device symbols (`__device__`, `__constant__` and `__managed__` variables): their addresses
//! and sizes, and copies to and from them.
#![allow(non_snake_case)]

use cudart_rs_macros::export;
use std::ffi::{c_int, c_void};

use crate::driver::types::*;
use crate::driver::Fns;
use crate::runtime::boundary::{cu, out, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

use super::registration::*;

// ---- device symbols --------------------------------------------------------------------

/// The device address and size of the variable whose host shadow is `symbol`, in the
/// current context.
fn lookup_symbol(symbol: *const c_void, f: &Fns) -> Res<(CUdeviceptr, usize)> {
    let key = symbol as usize;
    let v = VARS.read().get(&key).cloned().or_else(|| MANAGED.read().get(&key).cloned());
    let v = v.ok_or_else(|| not_a_symbol(key))?;
    let lib = library(v.bin, f)?;
    let mut p: CUdeviceptr = 0;
    let mut size = 0usize;
    // SAFETY: a loaded library and a registered name; a context is current.
    let r = unsafe {
        if v.managed {
            f.cuLibraryGetManaged(&mut p, &mut size, lib, v.name.as_ptr())
        } else {
            f.cuLibraryGetGlobal(&mut p, &mut size, lib, v.name.as_ptr())
        }
    };
    if r == CUDA_ERROR_NOT_FOUND {
        return Err(cudaError::cudaErrorInvalidSymbol);
    }
    cu(r)?;
    if size == 0 {
        size = v.size;
    }
    Ok((p, size))
}

/// The error for an address that is no registered variable: `cudaErrorInvalidSymbol`. Built
/// for the 13 ABI, the address of a host variable whose fat binary failed to load reports that
/// failure instead, as NVIDIA's 13 runtime does (its 12 runtime does not).
pub(crate) fn not_a_symbol(key: usize) -> cudaError {
    #[cfg(not(feature = "abi12"))]
    if let Some(Some(Err(e))) = HOST_VARS.read().get(&key).map(|b| b.lib.get()) {
        return *e;
    }
    let _ = key;
    cudaError::cudaErrorInvalidSymbol
}

/// The device address of `count` bytes at `offset` in `sym`.
pub(crate) fn symbol_range(sym: *const c_void, count: usize, offset: usize, f: &Fns) -> Res<CUdeviceptr> {
    let (p, size) = lookup_symbol(sym, f)?;
    match offset.checked_add(count) {
        Some(end) if end <= size => Ok(p + offset as CUdeviceptr),
        _ => Err(cudaError::cudaErrorInvalidValue),
    }
}

/// Finds the address associated with a CUDA symbol.
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetSymbolAddress(devPtr: *mut *mut c_void, symbol: *const c_void) -> cudaError_t {
    run(|| {
        let devPtr = out(devPtr)?;
        let f = rt::ctx()?;
        let (p, _) = lookup_symbol(symbol, f)?;
        *devPtr = p as usize as *mut c_void;
        Ok(())
    })
}

/// Finds the size of the object associated with a CUDA symbol.
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetSymbolSize(size: *mut usize, symbol: *const c_void) -> cudaError_t {
    run(|| {
        let size = out(size)?;
        let f = rt::ctx()?;
        let (_, s) = lookup_symbol(symbol, f)?;
        *size = s;
        Ok(())
    })
}

pub(crate) const H2D: c_int = 1;
pub(crate) const D2H: c_int = 2;
pub(crate) const D2D: c_int = 3;
const DEFAULT: c_int = 4;

/// The kinds a copy to a symbol may have (host or device source, or inferred);
/// `cudaErrorInvalidMemcpyDirection` for any other.
pub(crate) fn to_symbol_kind(kind: c_int) -> Res {
    match kind {
        H2D | D2D | DEFAULT => Ok(()),
        _ => Err(cudaError::cudaErrorInvalidMemcpyDirection),
    }
}

/// The kinds a copy from a symbol may have; `cudaErrorInvalidMemcpyDirection` for any other.
pub(crate) fn from_symbol_kind(kind: c_int) -> Res {
    match kind {
        D2H | D2D | DEFAULT => Ok(()),
        _ => Err(cudaError::cudaErrorInvalidMemcpyDirection),
    }
}

/// A copy of no bytes to or from a symbol succeeds at once, as in NVIDIA's runtime: before
/// the symbol, the range and the kind are looked at. `other` is the source (`to`) or the
/// destination of the copy, host or device memory as the kind says.
#[inline]
fn symbol_copy(
    sym: *const c_void,
    other: *mut c_void,
    count: usize,
    offset: usize,
    kind: c_int,
    stream: Option<cudaStream_t>,
    to: bool,
) -> Res {
    if count == 0 {
        return Ok(());
    }
    let f = rt::ctx()?;
    let dev = symbol_range(sym, count, offset, f)?;
    if to {
        to_symbol_kind(kind)?;
    } else {
        from_symbol_kind(kind)?;
    }
    let (dst, src) = if to { (dev, other as CUdeviceptr) } else { (other as CUdeviceptr, dev) };
    // SAFETY: a device range checked against the symbol's size; the other side is the
    // caller's. The kind was checked for the direction: H2D only goes to, D2H only from.
    cu(unsafe {
        match (kind, stream) {
            (H2D, None) => f.cuMemcpyHtoD(dev, other, count),
            (H2D, Some(s)) => f.cuMemcpyHtoDAsync(dev, other, count, s),
            (D2H, None) => f.cuMemcpyDtoH(other, dev, count),
            (D2H, Some(s)) => f.cuMemcpyDtoHAsync(other, dev, count, s),
            (D2D, None) => f.cuMemcpyDtoD(dst, src, count),
            (D2D, Some(s)) => f.cuMemcpyDtoDAsync(dst, src, count, s),
            (_, None) => f.cuMemcpy(dst, src, count),
            (_, Some(s)) => f.cuMemcpyAsync(dst, src, count, s),
        }
    })
}

/// Copies data to the given symbol on the device.
#[export(family = Copy, per_thread = ptds, sem = Copy(ToSymbol))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyToSymbol(
    symbol: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| symbol_copy(symbol, src as *mut c_void, count, offset, kind.0, None, true))
}

/// Copies data from the given symbol on the device.
#[export(family = Copy, per_thread = ptds, sem = Copy(FromSymbol))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyFromSymbol(
    dst: *mut c_void,
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: raw::cudaMemcpyKind,
) -> cudaError_t {
    run(|| symbol_copy(symbol, dst, count, offset, kind.0, None, false))
}

/// Copies data to the given symbol on the device.
#[export(family = Copy, per_thread = ptsz, sem = Copy(ToSymbol))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyToSymbolAsync(
    symbol: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: raw::cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| symbol_copy(symbol, src as *mut c_void, count, offset, kind.0, Some(stream), true))
}

/// Copies data from the given symbol on the device.
#[export(family = Copy, per_thread = ptsz, sem = Copy(FromSymbol))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyFromSymbolAsync(
    dst: *mut c_void,
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: raw::cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| symbol_copy(symbol, dst, count, offset, kind.0, Some(stream), false))
}
