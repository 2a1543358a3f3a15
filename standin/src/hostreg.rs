//! Host memory registration (`cuMemHostRegister` and what goes with it), with what the driver
//! refuses: device, page-locked and managed memory, ranges not all mapped (or not writable for
//! a read-write registration), I/O memory flags on ordinary memory, ranges that wrap, and
//! sizes no host can pin.

use std::ffi::{c_uint, c_void};

use crate::state::*;
use crate::types::*;
use crate::{export, nonnull};
use crate::{CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED};

/// Registration flags: PORTABLE 1, DEVICEMAP 2, IOMEMORY 4, READ_ONLY 8.
const IO_MEMORY: c_uint = 4;
const READ_ONLY: c_uint = 8;

/// Ranges this large are refused as not supported: more than any x86-64 or AArch64 address
/// space (57 bits) holds. (The H200's driver of 580.159.04 refuses 2^64 - 10^15 bytes so, and
/// 2^47 bytes as out of memory: the bound between them is a reasoned guess.)
const UNSUPPORTED_SIZE: usize = 1 << 57;

/// What the driver checks before it looks at the range's pages.
fn check_registration(addr: usize, size: usize, flags: c_uint, pinned: usize) -> Res {
    if addr == 0 || size == 0 || flags & !0xf != 0 {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    addr.checked_add(size).ok_or(CUDA_ERROR_INVALID_VALUE)?;
    if size >= UNSUPPORTED_SIZE {
        return Err(CUDA_ERROR_NOT_SUPPORTED);
    }
    // Pinning needs the memory: more than the page-locked budget is out of memory.
    if size > HOST_LIMIT.saturating_sub(pinned) {
        return Err(CUDA_ERROR_OUT_OF_MEMORY);
    }
    // I/O memory is a device's registers mapped into the process; ordinary memory is not.
    if flags & IO_MEMORY != 0 {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    Ok(())
}

/// Whether every page of `[addr, end)` is mapped readable (and writable, with `write`), as
/// `/proc/self/maps` lists the process's mappings (whole pages, as the driver pins them).
fn mapped(addr: usize, end: usize, write: bool) -> bool {
    let Ok(maps) = std::fs::read_to_string("/proc/self/maps") else { return true };
    let mut at = addr / PAGE * PAGE;
    let end = end.div_ceil(PAGE) * PAGE;
    for line in maps.lines() {
        let mut f = line.split_whitespace();
        let (Some(range), Some(perms)) = (f.next(), f.next()) else { continue };
        let Some((lo, hi)) = range.split_once('-') else { continue };
        let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16)) else { continue };
        if hi <= at {
            continue;
        }
        let p = perms.as_bytes();
        if lo > at || p.first() != Some(&b'r') || (write && p.get(1) != Some(&b'w')) {
            return false;
        }
        at = hi;
        if at >= end {
            return true;
        }
    }
    false
}

export! {
    fn cuMemHostRegister(p: *mut c_void, bytesize: usize, flags: c_uint) {
        with(|s| {
            let dev = s.cur()?;
            s.unsafe_call()?;
            let addr = p as usize;
            check_registration(addr, bytesize, flags, s.host_used)?;
            let end = addr + bytesize;
            // Allocations are disjoint: the last one starting before `end` is the only one
            // that can overlap. Overlapping a registration is "already registered"; memory
            // the driver allocated (page-locked or not) cannot be registered at all.
            if let Some((&b, a)) = s.allocs.range(..end).next_back() {
                if b + a.size > addr {
                    return Err(if a.kind == Kind::Registered {
                        CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED
                    } else {
                        CUDA_ERROR_INVALID_VALUE
                    });
                }
            }
            // The driver pins every page of the range: each must be mapped, readable, and
            // writable unless the registration is read-only.
            if !mapped(addr, end, flags & READ_ONLY == 0) {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            let buffer_id = s.buffer_id();
            s.allocs.insert(addr, Alloc {
                size: bytesize,
                kind: Kind::Registered,
                flags,
                dev,
                mem: Backing::None,
                buffer_id,
                sync_memops: false,
                pages: None,
                pool: 0,
            });
            Ok(())
        })
    }

    fn cuMemHostUnregister(p: *mut c_void) {
        with(|s| {
            s.cur()?;
            if p.is_null() {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            // Only the base of a registration unregisters; any other address inside
            // page-locked memory is an invalid value, one outside it was never registered.
            match s.find(p as usize) {
                Some((b, a)) if a.kind == Kind::Registered && b == p as usize => {
                    s.allocs.remove(&b);
                    Ok(())
                }
                Some((_, a)) if matches!(a.kind, Kind::Registered | Kind::Pinned) => Err(CUDA_ERROR_INVALID_VALUE),
                _ => Err(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED),
            }
        })
    }

    fn cuMemHostGetDevicePointer(pdptr: *mut CUdeviceptr, p: *mut c_void, flags: c_uint) {
        nonnull(pdptr)?;
        with(|s| {
            s.cur()?;
            if flags != 0 || p.is_null() {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            match s.find(p as usize) {
                Some((_, a)) if matches!(a.kind, Kind::Pinned | Kind::Registered) => {
                    // A UVA system: the device address of mapped host memory is its host address.
                    *pdptr = p as CUdeviceptr;
                    Ok(())
                }
                _ => Err(CUDA_ERROR_INVALID_VALUE),
            }
        })
    }

    fn cuMemHostGetFlags(pFlags: *mut c_uint, p: *mut c_void) {
        nonnull(pFlags)?;
        with(|s| {
            s.cur()?;
            match s.find(p as usize) {
                Some((_, a)) if matches!(a.kind, Kind::Pinned | Kind::Registered) => {
                    // With unified addressing all page-locked memory is mapped: DEVICEMAP (2)
                    // is reported whatever the allocation or registration asked for.
                    *pFlags = a.flags | 2;
                    Ok(())
                }
                _ => Err(CUDA_ERROR_INVALID_VALUE),
            }
        })
    }
}
