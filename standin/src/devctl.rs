//! Context limits and configurations, PCI bus ids, peer and atomic capabilities, GPUDirect
//! RDMA flushes, async notifications, stream ids, devices and callbacks, and IPC (not
//! modelled: every IPC call reports `CUDA_ERROR_NOT_SUPPORTED` after its argument checks).
//!
//! Values are an H100's under CUDA 13 where the documentation gives them (limit defaults,
//! the fixed four-byte shared memory banks); where it does not, they are reasoned guesses,
//! as the module documentation of `lib.rs` says.
//!
//! This module's state sits behind its own mutex, always taken after the model's (never the
//! other way round).

use std::collections::{HashMap, HashSet};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};

use parking_lot::Mutex;

use crate::attrs::device_attribute;
use crate::state::*;
use crate::types::*;
use crate::{export, nonnull};

const CU_LIMIT_STACK_SIZE: CUlimit = 0;
const CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH: CUlimit = 3;
const CU_LIMIT_MAX_L2_FETCH_GRANULARITY: CUlimit = 5;
const CU_LIMIT_PERSISTING_L2_CACHE_SIZE: CUlimit = 6;
/// Limits 0..=6 are the runtime's; 7..=9 (shared memory and CIG of a CIG context) can be
/// read (as 0: not modelled) but not set; other values are no limits.
const LIMITS: usize = 10;

/// Each limit's value in a fresh context, as the H100 of driver 580 reports them: stack 1 KiB,
/// printf FIFO 8650752 bytes, malloc heap 8 MiB, device runtime sync depth (unsupported from
/// compute capability 9.0), 2048 pending launches, L2 fetch granularity 64, persisting L2 size
/// 9830400 bytes (three of the device's persisting L2 steps, see [`persisting_step`]).
const LIMIT_DEFAULTS: [usize; LIMITS] = [1024, 8650752, 8 << 20, 0, 2048, 64, 9830400, 0, 0, 0];

/// The step a persisting L2 cache size is rounded up to: a tenth of the device's maximum (the
/// H100 of driver 580 reads a set of 4 MiB back as 6553600 bytes, two steps).
fn persisting_step(dev: c_int) -> usize {
    device_attribute(108, dev).unwrap_or(0) as usize / 10
}

const CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE: CUsharedconfig = 1;

/// Per-device context settings, back to their defaults when the context is destroyed.
#[derive(Clone)]
struct Settings {
    limits: [usize; LIMITS],
    cache_config: CUfunc_cache,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { limits: LIMIT_DEFAULTS, cache_config: 0 }
    }
}

#[derive(Default)]
struct Extra {
    settings: HashMap<c_int, Settings>,
    /// Stream ids, given on first query: by stream handle, or by (device, thread) for the
    /// per-thread stream and (device, 0) for the legacy one.
    ids: HashMap<(usize, c_int, u64), u64>,
    next_id: u64,
    notifications: HashSet<usize>,
}

static EXTRA: Mutex<Option<Extra>> = Mutex::new(None);

fn extra<T>(f: impl FnOnce(&mut Extra) -> T) -> T {
    let mut g = EXTRA.lock();
    f(g.get_or_insert_with(|| Extra { next_id: 1, ..Default::default() }))
}

/// Called when a device's primary context is destroyed (reset or last release).
pub fn context_destroyed(dev: c_int) {
    extra(|e| {
        e.settings.remove(&dev);
        e.ids.retain(|k, _| k.1 != dev);
    });
}

fn settings<T>(dev: c_int, f: impl FnOnce(&mut Settings) -> T) -> T {
    extra(|e| f(e.settings.entry(dev).or_default()))
}

/// A limit's index: the device runtime's sync depth is unsupported, a value past the last
/// limit (CIG shared memory fallback, 9) invalid.
fn check_limit(limit: CUlimit) -> Res<usize> {
    match limit {
        CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH => Err(CUDA_ERROR_UNSUPPORTED_LIMIT),
        0..=9 => Ok(limit as usize),
        _ => Err(CUDA_ERROR_INVALID_VALUE),
    }
}

/// The domain, bus and device numbers of a device's PCI address.
fn pci_address(dev: c_int) -> (c_int, c_int, c_int) {
    let a = |n| device_attribute(n, dev).unwrap_or(0);
    (a(50), a(33), a(34))
}

/// Parses `[domain]:[bus]:[device].[function]`, `[domain]:[bus]:[device]` or
/// `[bus]:[device].[function]` (hexadecimal numbers): (domain, bus, device, function).
fn parse_pci_bus_id(s: &str) -> Option<(u32, u32, u32, u32)> {
    let hex = |t: &str| if t.is_empty() { None } else { u32::from_str_radix(t, 16).ok() };
    let parts: Vec<&str> = s.split(':').collect();
    let (domain, bus, rest, needs_fn) = match parts.as_slice() {
        [d, b, r] => (hex(d)?, hex(b)?, *r, false),
        [b, r] => (0, hex(b)?, *r, true),
        _ => return None,
    };
    let (device, function) = match rest.split_once('.') {
        Some((d, f)) => (hex(d)?, hex(f)?),
        None if !needs_fn => (hex(rest)?, 0),
        None => return None,
    };
    Some((domain, bus, device, function))
}

/// A live stream's device, or the current context's for the special handles.
fn stream_device(s: &State, h: CUstream) -> Res<c_int> {
    let dev = s.cur()?;
    s.check_stream(h as usize)?;
    Ok(s.streams.get(&(h as usize)).map_or(dev, |x| x.dev))
}

/// This thread's number, for per-thread stream ids.
fn thread_key() -> u64 {
    thread_local! {
        static KEY: u64 = {
            static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
            NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        };
    }
    KEY.with(|k| *k)
}

unsafe fn stream_id(h: CUstream, id: *mut u64, null_is_per_thread: bool) -> Res {
    nonnull(id)?;
    with(|s| {
        let dev = stream_device(s, h)?;
        let key = match h as usize {
            0 if null_is_per_thread => (2, dev, thread_key()),
            0 | 1 => (1, dev, 0),
            2 => (2, dev, thread_key()),
            other => (other, dev, 0),
        };
        let v = extra(|e| {
            let next = &mut e.next_id;
            *e.ids.entry(key).or_insert_with(|| {
                *next += 1;
                *next
            })
        });
        *id = v;
        Ok(())
    })
}

const CU_ATOMIC_OPERATION_MAX: c_int = 13;

/// Checks the arrays of an atomic capability query: `CUDA_ERROR_INVALID_VALUE` for a null one,
/// a count of 0 or an unknown operation.
unsafe fn check_atomic_query(caps: *mut c_uint, ops: *const CUatomicOperation, count: c_uint) -> Res {
    if caps.is_null() || ops.is_null() || count == 0 {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    let ops = std::slice::from_raw_parts(ops, count as usize);
    if ops.iter().any(|&o| !(0..CU_ATOMIC_OPERATION_MAX).contains(&o)) {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    Ok(())
}

/// Answers a checked atomic capability query: no operation has a native capability.
unsafe fn atomic_caps(caps: *mut c_uint, count: c_uint) -> Res {
    std::ptr::write_bytes(caps, 0, count as usize);
    Ok(())
}

export! {
    fn cuCtxGetLimit(pvalue: *mut usize, limit: CUlimit) {
        nonnull(pvalue)?;
        with(|s| {
            let dev = s.cur()?;
            let l = check_limit(limit)?;
            *pvalue = settings(dev, |st| st.limits[l]);
            Ok(())
        })
    }

    fn cuCtxSetLimit(limit: CUlimit, value: usize) {
        with(|s| {
            let dev = s.cur()?;
            let l = check_limit(limit)?;
            let max_persisting = device_attribute(108, dev).unwrap_or(0) as usize;
            let step = persisting_step(dev).max(1);
            let v = match limit {
                CU_LIMIT_STACK_SIZE => value,
                // At most 128 bytes: more is refused (the H100 of driver 580 refuses 256).
                CU_LIMIT_MAX_L2_FETCH_GRANULARITY if value > 128 => return Err(CUDA_ERROR_INVALID_VALUE),
                CU_LIMIT_PERSISTING_L2_CACHE_SIZE => value.min(max_persisting).div_ceil(step) * step,
                // The CIG limits are not modelled.
                7..=9 => return Err(CUDA_ERROR_UNSUPPORTED_LIMIT),
                _ => value,
            };
            settings(dev, |st| st.limits[l] = v);
            Ok(())
        })
    }

    fn cuCtxGetCacheConfig(pconfig: *mut CUfunc_cache) {
        nonnull(pconfig)?;
        with(|s| {
            let dev = s.cur()?;
            *pconfig = settings(dev, |st| st.cache_config);
            Ok(())
        })
    }

    fn cuCtxSetCacheConfig(config: CUfunc_cache) {
        with(|s| {
            let dev = s.cur()?;
            if !(0..=3).contains(&config) {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            settings(dev, |st| st.cache_config = config);
            Ok(())
        })
    }

    // An H100's shared memory banks are four bytes wide and fixed: setting does nothing.
    fn cuCtxGetSharedMemConfig(pConfig: *mut CUsharedconfig) {
        nonnull(pConfig)?;
        with(|s| {
            s.cur()?;
            *pConfig = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
            Ok(())
        })
    }

    fn cuCtxSetSharedMemConfig(config: CUsharedconfig) {
        with(|s| {
            s.cur()?;
            if !(0..=2).contains(&config) {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            Ok(())
        })
    }

    fn cuCtxResetPersistingL2Cache() {
        with(|s| s.cur().map(|_| ()))
    }

    fn cuDeviceGetPCIBusId(pciBusId: *mut c_char, len: c_int, dev: CUdevice) {
        if pciBusId.is_null() || len <= 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        with(|s| {
            s.check_dev(dev)?;
            let (domain, bus, device) = pci_address(dev);
            let text = format!("{domain:04x}:{bus:02x}:{device:02x}.0");
            let n = text.len().min(len as usize - 1);
            std::ptr::copy_nonoverlapping(text.as_ptr(), pciBusId as *mut u8, n);
            *pciBusId.add(n) = 0;
            // A buffer too short gets what fits, and the call fails (as on the H100).
            if n < text.len() {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            Ok(())
        })
    }

    fn cuDeviceGetByPCIBusId(dev: *mut CUdevice, pciBusId: *const c_char) {
        nonnull(dev)?;
        nonnull(pciBusId)?;
        let text = CStr::from_ptr(pciBusId).to_str().map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
        let (domain, bus, device, function) = parse_pci_bus_id(text).ok_or(CUDA_ERROR_INVALID_VALUE)?;
        with(|s| {
            for d in 0..s.ndev {
                let (dd, bb, vv) = pci_address(d);
                if (dd as u32, bb as u32, vv as u32, 0) == (domain, bus, device, function) {
                    *dev = d;
                    return Ok(());
                }
            }
            Err(CUDA_ERROR_INVALID_DEVICE)
        })
    }

    fn cuDeviceGetP2PAttribute(value: *mut c_int, attrib: CUdevice_P2PAttribute, srcDevice: CUdevice, dstDevice: CUdevice) {
        nonnull(value)?;
        with(|s| {
            s.check_dev(srcDevice)?;
            s.check_dev(dstDevice)?;
            if srcDevice == dstDevice {
                return Err(CUDA_ERROR_INVALID_DEVICE);
            }
            // Every pair can access each other (as cuDeviceCanAccessPeer says), nothing more.
            *value = match attrib {
                1 => 0,
                2 => 1,
                3..=5 => 0,
                _ => return Err(CUDA_ERROR_INVALID_VALUE),
            };
            Ok(())
        })
    }

    fn cuDeviceGetP2PAtomicCapabilities(capabilities: *mut c_uint, operations: *const CUatomicOperation, count: c_uint, srcDevice: CUdevice, dstDevice: CUdevice) {
        with(|s| {
            s.check_dev(srcDevice)?;
            s.check_dev(dstDevice)?;
            // The arrays before the pair (the H100 of driver 580: a count of 0 from a device
            // to itself is an invalid value).
            check_atomic_query(capabilities, operations, count)?;
            if srcDevice == dstDevice {
                return Err(CUDA_ERROR_INVALID_DEVICE);
            }
            atomic_caps(capabilities, count)
        })
    }

    fn cuDeviceGetHostAtomicCapabilities(capabilities: *mut c_uint, operations: *const CUatomicOperation, count: c_uint, dev: CUdevice) {
        with(|s| {
            s.check_dev(dev)?;
            check_atomic_query(capabilities, operations, count)?;
            atomic_caps(capabilities, count)
        })
    }

    fn cuFlushGPUDirectRDMAWrites(target: CUflushGPUDirectRDMAWritesTarget, scope: CUflushGPUDirectRDMAWritesScope) {
        with(|s| {
            s.cur()?;
            if target != 0 || !matches!(scope, 100 | 200) {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            Ok(())
        })
    }

    fn cuDeviceRegisterAsyncNotification(device: CUdevice, callbackFunc: CUasyncCallback, userData: *mut c_void, callback: *mut CUasyncCallbackHandle) {
        let _ = userData;
        with(|s| {
            s.check_dev(device)?;
            if callbackFunc.is_none() || callback.is_null() {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            // The stand-in has no memory budget: the callback is never called.
            let h = new_handle();
            extra(|e| e.notifications.insert(h));
            *callback = h as CUasyncCallbackHandle;
            Ok(())
        })
    }

    fn cuDeviceUnregisterAsyncNotification(device: CUdevice, callback: CUasyncCallbackHandle) {
        with(|s| {
            s.check_dev(device)?;
            if extra(|e| e.notifications.remove(&(callback as usize))) {
                Ok(())
            } else {
                Err(CUDA_ERROR_INVALID_VALUE)
            }
        })
    }

    fn cuStreamGetId(hStream: CUstream, streamId: *mut u64) {
        stream_id(hStream, streamId, false)
    }

    fn cuStreamGetId_ptsz(hStream: CUstream, streamId: *mut u64) {
        stream_id(hStream, streamId, true)
    }

    fn cuStreamGetDevice(hStream: CUstream, device: *mut CUdevice) {
        nonnull(device)?;
        with(|s| {
            *device = stream_device(s, hStream)?;
            Ok(())
        })
    }

    fn cuStreamGetCtx(hStream: CUstream, pctx: *mut CUcontext) {
        nonnull(pctx)?;
        with(|s| {
            let dev = stream_device(s, hStream)?;
            *pctx = s.ctxs[dev as usize].handle as CUcontext;
            Ok(())
        })
    }

    // Work is never pending: the callback runs at once, with success.
    fn cuStreamAddCallback(hStream: CUstream, callback: CUstreamCallback, userData: *mut c_void, flags: c_uint) {
        with(|s| stream_device(s, hStream).map(|_| ()))?;
        if flags != 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let f = callback.ok_or(CUDA_ERROR_INVALID_VALUE)?;
        // Outside the lock: the callback may call back into the driver.
        f(hStream, CUDA_SUCCESS, userData);
        Ok(())
    }

    fn cuIpcGetEventHandle(pHandle: *mut CUipcEventHandle, event: CUevent) {
        nonnull(pHandle)?;
        with(|s| {
            s.cur()?;
            s.events.get(&(event as usize)).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            Err(CUDA_ERROR_NOT_SUPPORTED)
        })
    }

    fn cuIpcOpenEventHandle(phEvent: *mut CUevent, handle: CUipcEventHandle) {
        let _ = handle;
        nonnull(phEvent)?;
        with(|s| s.cur().and(Err(CUDA_ERROR_NOT_SUPPORTED)))
    }

    fn cuIpcGetMemHandle(pHandle: *mut CUipcMemHandle, dptr: CUdeviceptr) {
        nonnull(pHandle)?;
        with(|s| {
            s.cur()?;
            match s.allocs.get(&(dptr as usize)) {
                Some(a) if a.kind == Kind::Device => Err(CUDA_ERROR_NOT_SUPPORTED),
                _ => Err(CUDA_ERROR_INVALID_VALUE),
            }
        })
    }

    fn cuIpcOpenMemHandle(pdptr: *mut CUdeviceptr, handle: CUipcMemHandle, Flags: c_uint) {
        let _ = handle;
        nonnull(pdptr)?;
        with(|s| {
            s.cur()?;
            if Flags & !1 != 0 {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            Err(CUDA_ERROR_NOT_SUPPORTED)
        })
    }

    fn cuIpcCloseMemHandle(dptr: CUdeviceptr) {
        let _ = dptr;
        with(|s| s.cur().and(Err(CUDA_ERROR_NOT_SUPPORTED)))
    }
}

/// Device resources, green contexts and context ids and events: the stand-in has one
/// undivided device and no green contexts, so these answer `CUDA_ERROR_NOT_SUPPORTED`
/// ([`crate::unsupported`]); the runtime passes that on.
pub(crate) const GREEN_ENTRY_POINTS: &[&str] = &[
    "cuDeviceGetDevResource",
    "cuDevSmResourceSplitByCount",
    "cuDevResourceGenerateDesc",
    "cuGreenCtxCreate",
    "cuCtxFromGreenCtx",
    "cuGreenCtxDestroy",
    "cuCtxGetDevResource",
    "cuGreenCtxGetDevResource",
    "cuCtxGetId",
    "cuGreenCtxGetId",
    "cuGreenCtxStreamCreate",
    "cuCtxRecordEvent",
    "cuCtxWaitEvent",
    "cuGreenCtxRecordEvent",
    "cuGreenCtxWaitEvent",
];

/// Whether `name` is one of [`GREEN_ENTRY_POINTS`].
pub(crate) fn is_green_entry(name: &str) -> bool {
    GREEN_ENTRY_POINTS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pci_bus_id_forms() {
        assert_eq!(parse_pci_bus_id("0000:18:00.0"), Some((0, 0x18, 0, 0)));
        assert_eq!(parse_pci_bus_id("0001:Ab:1f.7"), Some((1, 0xab, 0x1f, 7)));
        assert_eq!(parse_pci_bus_id("0000:18:00"), Some((0, 0x18, 0, 0)));
        assert_eq!(parse_pci_bus_id("18:00.0"), Some((0, 0x18, 0, 0)));
        for bad in ["", "18:00", "0000:18:00.0:1", "zz:00.0", "0000::00.0", "0000:18:.0"] {
            assert_eq!(parse_pci_bus_id(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn limits() {
        assert_eq!(check_limit(0), Ok(0));
        assert_eq!(check_limit(6), Ok(6));
        assert_eq!(check_limit(CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH), Err(CUDA_ERROR_UNSUPPORTED_LIMIT));
        assert_eq!(check_limit(7), Ok(7));
        assert_eq!(check_limit(10), Err(CUDA_ERROR_INVALID_VALUE));
        assert_eq!(check_limit(-1), Err(CUDA_ERROR_INVALID_VALUE));
        // Persisting L2 sizes go up to the next step of a tenth of the maximum.
        assert_eq!(persisting_step(0), 3276800);
        assert_eq!(LIMIT_DEFAULTS[6], 3 * persisting_step(0));
    }
}
