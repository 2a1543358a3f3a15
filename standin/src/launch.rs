//! Stream attributes, entry point versions, the export table and the profiler.
//!
//! - Stream attributes are stored values: each stream (the legacy and per-thread streams
//!   too; the null stream is the legacy one, or in the `_ptsz` variants the per-thread one)
//!   has the five attributes valid for streams, with the values a fresh stream reports (as the
//!   H100's driver does: no window, no synchronization policy set (-1), the identity domain
//!   map, the default domain); a set checks the value where the driver does and stores it, a
//!   copy copies all five. The priority attribute is the stream's priority (clamped as at
//!   creation).
//! - `cuGetProcAddress`: a version newer than the driver, or flags beyond legacy and
//!   per-thread, are `CUDA_ERROR_INVALID_VALUE`; an unknown symbol or a version older than the
//!   symbol a success with a null pointer and the reason in the status (see `proc_address`);
//!   the per-thread search finds the `_ptsz` variants of the few functions given one here
//!   (for the copy and the query, aliases: the stand-in's streams have no ordering to tell
//!   them apart).
//! - `cuGetExportTable`: the stand-in has no export tables.
//! - `cuProfilerStart`/`Stop`: there is no profiler to start; they need a current context.

use std::collections::HashMap;
use std::ffi::{c_int, c_uint, c_void};

use parking_lot::Mutex;

use crate::state::*;
use crate::types::*;
use crate::{export, nonnull};

/// A stream's attributes: the value union's bytes of each (64 bytes, as `CUlaunchAttributeValue`).
#[derive(Clone, Copy)]
struct Attrs {
    window: [u8; 32],
    sync_policy: c_int,
    map: [u8; 2],
    domain: c_int,
}

/// A fresh stream's attributes: no access policy window, no synchronization policy (the
/// H100's driver reports -1 until one is set), the identity domain map (default 0, remote 1),
/// the default domain.
const FRESH: Attrs = Attrs { window: [0; 32], sync_policy: -1, map: [0, 1], domain: 0 };

static ATTRS: Mutex<Option<HashMap<usize, Attrs>>> = Mutex::new(None);

fn attrs_of(h: usize) -> Attrs {
    ATTRS.lock().get_or_insert_with(HashMap::new).get(&h).copied().unwrap_or(FRESH)
}

fn set_attrs(h: usize, a: Attrs) {
    ATTRS.lock().get_or_insert_with(HashMap::new).insert(h, a);
}

const ACCESS_POLICY_WINDOW: c_int = 1;
const SYNCHRONIZATION_POLICY: c_int = 3;
const PRIORITY: c_int = 8;
const MEM_SYNC_DOMAIN_MAP: c_int = 9;
const MEM_SYNC_DOMAIN: c_int = 10;
/// `CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT` of the modelled H100.
const DOMAINS: c_int = 4;
/// `CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE` of the modelled H100.
const MAX_WINDOW: usize = 1 << 27;

/// Priority of stream `h` (the null, legacy and per-thread streams have their own, stored
/// with the attributes).
static PRIORITIES: Mutex<Option<HashMap<usize, c_int>>> = Mutex::new(None);

/// The stream a handle names: the null stream is the legacy stream, or in the `_ptsz`
/// variants the per-thread stream.
fn stream_of(h: CUstream, per_thread: bool) -> usize {
    match h as usize {
        0 if per_thread => 2,
        0 => 1,
        h => h,
    }
}

export! {
    fn cuStreamGetAttribute(hStream: CUstream, attr: c_int, value_out: *mut c_void) {
        get_attribute(stream_of(hStream, false), attr, value_out)
    }
    fn cuStreamGetAttribute_ptsz(hStream: CUstream, attr: c_int, value_out: *mut c_void) {
        get_attribute(stream_of(hStream, true), attr, value_out)
    }
    fn cuStreamSetAttribute(hStream: CUstream, attr: c_int, value: *const c_void) {
        set_attribute(stream_of(hStream, false), attr, value)
    }
    fn cuStreamSetAttribute_ptsz(hStream: CUstream, attr: c_int, value: *const c_void) {
        set_attribute(stream_of(hStream, true), attr, value)
    }
    fn cuStreamCopyAttributes(dst: CUstream, src: CUstream) {
        copy_attributes(stream_of(dst, false), stream_of(src, false))
    }
    fn cuStreamCopyAttributes_ptsz(dst: CUstream, src: CUstream) {
        copy_attributes(stream_of(dst, true), stream_of(src, true))
    }
}

unsafe fn get_attribute(h: usize, attr: c_int, value_out: *mut c_void) -> Res {
    nonnull(value_out)?;
    let prio = with(|s| {
        s.cur()?;
        s.check_stream(h)?;
        Ok(s.streams.get(&h).map(|x| x.priority))
    })?;
    let a = attrs_of(h);
    let out = value_out as *mut u8;
    match attr {
        ACCESS_POLICY_WINDOW => std::ptr::copy_nonoverlapping(a.window.as_ptr(), out, 32),
        SYNCHRONIZATION_POLICY => (out as *mut c_int).write_unaligned(a.sync_policy),
        PRIORITY => {
            let p = prio.unwrap_or_else(|| *PRIORITIES.lock().get_or_insert_with(HashMap::new).get(&h).unwrap_or(&0));
            (out as *mut c_int).write_unaligned(p)
        }
        MEM_SYNC_DOMAIN_MAP => std::ptr::copy_nonoverlapping(a.map.as_ptr(), out, 2),
        MEM_SYNC_DOMAIN => (out as *mut c_int).write_unaligned(a.domain),
        _ => return Err(CUDA_ERROR_INVALID_VALUE),
    }
    Ok(())
}

unsafe fn set_attribute(h: usize, attr: c_int, value: *const c_void) -> Res {
    nonnull(value)?;
    with(|s| {
        s.cur()?;
        s.check_stream(h)
    })?;
    let mut a = attrs_of(h);
    let v = value as *const u8;
    match attr {
        ACCESS_POLICY_WINDOW => {
            let mut w = [0u8; 32];
            std::ptr::copy_nonoverlapping(v, w.as_mut_ptr(), 28);
            let num_bytes = usize::from_ne_bytes(w[8..16].try_into().unwrap());
            let hit_ratio = f32::from_ne_bytes(w[16..20].try_into().unwrap());
            let miss_prop = c_int::from_ne_bytes(w[24..28].try_into().unwrap());
            // At most the device's maximum window; miss property: normal or streaming. The
            // hit property is stored unchecked (the H100's driver takes 7).
            if num_bytes > MAX_WINDOW || !(0.0..=1.0).contains(&hit_ratio) || !(0..=1).contains(&miss_prop) {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            a.window = w;
        }
        SYNCHRONIZATION_POLICY => {
            let p = (v as *const c_int).read_unaligned();
            if !(1..=4).contains(&p) {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            a.sync_policy = p;
        }
        PRIORITY => {
            // Clamped to [greatest, least] = [-5, 0], as at creation.
            let p = (v as *const c_int).read_unaligned().clamp(-5, 0);
            let stored = with(|s| Ok(s.streams.get_mut(&h).map(|x| x.priority = p).is_some()))?;
            if !stored {
                PRIORITIES.lock().get_or_insert_with(HashMap::new).insert(h, p);
            }
        }
        MEM_SYNC_DOMAIN_MAP => {
            let mut m = [0u8; 2];
            std::ptr::copy_nonoverlapping(v, m.as_mut_ptr(), 2);
            // Domain ids below the device's domain count.
            if m.iter().any(|&d| d as c_int >= DOMAINS) {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            a.map = m;
        }
        MEM_SYNC_DOMAIN => {
            let d = (v as *const c_int).read_unaligned();
            if !(0..=1).contains(&d) {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            a.domain = d;
        }
        _ => return Err(CUDA_ERROR_INVALID_VALUE),
    }
    set_attrs(h, a);
    Ok(())
}

/// Copies every attribute of stream `src` to stream `dst`.
fn copy_attributes(dst: usize, src: usize) -> Res {
    let prio = with(|s| {
        s.cur()?;
        s.check_stream(dst)?;
        s.check_stream(src)?;
        let p = s.streams.get(&src).map(|x| x.priority);
        let p = p.unwrap_or_else(|| *PRIORITIES.lock().get_or_insert_with(HashMap::new).get(&src).unwrap_or(&0));
        if let Some(x) = s.streams.get_mut(&dst) {
            x.priority = p;
            return Ok(None);
        }
        Ok(Some(p))
    })?;
    if let Some(p) = prio {
        PRIORITIES.lock().get_or_insert_with(HashMap::new).insert(dst, p);
    }
    set_attrs(dst, attrs_of(src));
    Ok(())
}

export! {
    fn cuGetExportTable(ppExportTable: *mut *const c_void, pExportTableId: *const CUuuid) {
        nonnull(ppExportTable)?;
        nonnull(pExportTableId)?;
        Err(CUDA_ERROR_INVALID_VALUE)
    }

    fn cuProfilerStart() {
        with(|s| s.cur().map(|_| ()))
    }

    fn cuProfilerStop() {
        with(|s| s.cur().map(|_| ()))
    }
}

/// The CUDA version that introduced a driver symbol, where the stand-in knows it is not 2.0.
fn introduced(name: &str) -> c_int {
    match name {
        "cuMemAlloc" | "cuMemFree" | "cuMemcpyHtoD" | "cuMemcpyDtoH" | "cuMemGetInfo" => 2000,
        "cuStreamGetAttribute" | "cuStreamSetAttribute" | "cuStreamCopyAttributes" => 11000,
        "cuGetProcAddress" => 11030,
        "cuLibraryLoadData" | "cuLibraryGetKernel" | "cuKernelGetFunction" => 12000,
        _ => 2000,
    }
}

/// What `cuGetProcAddress` finds for `name` at `version` with `flags` (0 to 3): the entry
/// point (null where there is none) and the query result, or the error. As the H100's driver
/// (580) does: a version newer than the driver is `CUDA_ERROR_INVALID_VALUE`; an unknown
/// symbol (`CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND`) or a version older than the symbol
/// (`CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT`, checked second) is a success with a null
/// pointer; a negative version finds the newest form (the driver finds cuMemAlloc at
/// 0xfffffffb).
pub fn proc_address(
    name: &str,
    version: c_int,
    flags: u64,
    lookup: impl Fn(&str, c_int) -> Option<*mut c_void>,
    per_thread: impl Fn(&str, c_int) -> Option<*mut c_void>,
) -> Result<(*mut c_void, c_int), CUresult> {
    let mut driver = 0;
    // SAFETY: a valid out pointer.
    unsafe { crate::cuDriverGetVersion(&mut driver) };
    if version > driver {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    let version = if version < 0 { driver } else { version };
    // The CUDA 12.5 form (with the green context), which the runtime asks for.
    let lookup = |n: &str, v: c_int| {
        if n == "cuStreamGetCtx" && v >= 12050 {
            Some(cuStreamGetCtx_v2 as *mut c_void)
        } else {
            lookup(n, v)
        }
    };
    let Some(f) = lookup(name, version) else {
        return Ok((std::ptr::null_mut(), crate::CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND));
    };
    if version < introduced(name) {
        return Ok((std::ptr::null_mut(), CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT));
    }
    if flags == CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM {
        if let Some(p) = per_thread(name, version) {
            return Ok((p, crate::CU_GET_PROC_ADDRESS_SUCCESS));
        }
    }
    Ok((f, crate::CU_GET_PROC_ADDRESS_SUCCESS))
}

const CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT: c_int = 2;

// Kernels, occupancy, the multi-device launch and the linker: the stand-in has no kernels (see
// lib.rs), so every function handle is invalid and nothing links. The error log: the
// stand-in keeps none.
export! {
    fn cuLinkCreate(numOptions: c_uint, options: *mut CUjit_option, optionValues: *mut *mut c_void, stateOut: *mut CUlinkState) {
        let _ = (numOptions, options, optionValues);
        nonnull(stateOut)?;
        with(|s| s.cur().map(|_| ()))?;
        Err(CUDA_ERROR_NOT_SUPPORTED)
    }
    fn cuLinkAddData(state: CUlinkState, type_: CUjitInputType, data: *mut c_void, size: usize, name: *const std::ffi::c_char, numOptions: c_uint, options: *mut CUjit_option, optionValues: *mut *mut c_void) {
        let _ = (state, type_, data, size, name, numOptions, options, optionValues);
        crate::bad_handle(crate::NO_OUT)
    }
    fn cuLinkComplete(state: CUlinkState, cubinOut: *mut *mut c_void, sizeOut: *mut usize) {
        let _ = (state, cubinOut, sizeOut);
        crate::bad_handle(crate::NO_OUT)
    }
    fn cuLinkDestroy(state: CUlinkState) {
        let _ = state;
        crate::bad_handle(crate::NO_OUT)
    }
    fn cuLaunchCooperativeKernelMultiDevice(launchParamsList: *mut CUDA_LAUNCH_PARAMS, numDevices: c_uint, flags: c_uint) {
        let _ = (numDevices, flags);
        nonnull(launchParamsList)?;
        with(|s| s.cur().map(|_| ()))?;
        crate::bad_handle(crate::NO_OUT)
    }
    fn cuKernelGetParamInfo(kernel: CUkernel, paramIndex: usize, paramOffset: *mut usize, paramSize: *mut usize) {
        let _ = (kernel, paramIndex, paramOffset, paramSize);
        crate::bad_handle(crate::NO_OUT)
    }
    fn cuKernelSetCacheConfig(kernel: CUkernel, config: CUfunc_cache, dev: CUdevice) {
        let _ = (kernel, config, dev);
        crate::bad_handle(crate::NO_OUT)
    }
    fn cuFuncSetSharedMemConfig(hfunc: CUfunction, config: c_int) {
        let _ = (hfunc, config);
        crate::bad_handle(crate::NO_OUT)
    }
    fn cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks: *mut c_int, func: CUfunction, blockSize: c_int, dynamicSMemSize: usize, flags: c_uint) {
        let _ = (func, blockSize, dynamicSMemSize, flags);
        crate::bad_handle(numBlocks as *const c_void)
    }
    fn cuOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize: *mut usize, func: CUfunction, numBlocks: c_int, blockSize: c_int) {
        let _ = (func, numBlocks, blockSize);
        crate::bad_handle(dynamicSmemSize as *const c_void)
    }
    fn cuOccupancyMaxPotentialClusterSize(clusterSize: *mut c_int, func: CUfunction, config: *const CUlaunchConfig) {
        let _ = (func, config);
        crate::bad_handle(clusterSize as *const c_void)
    }
    fn cuOccupancyMaxActiveClusters(numClusters: *mut c_int, func: CUfunction, config: *const CUlaunchConfig) {
        let _ = (func, config);
        crate::bad_handle(numClusters as *const c_void)
    }
    fn cuLogsRegisterCallback(callbackFunc: CUlogsCallback, userData: *mut c_void, callback_out: *mut CUlogsCallbackHandle) {
        let _ = (callbackFunc, userData, callback_out);
        Err(CUDA_ERROR_NOT_SUPPORTED)
    }
    fn cuLogsUnregisterCallback(callback: CUlogsCallbackHandle) {
        let _ = callback;
        Err(CUDA_ERROR_NOT_SUPPORTED)
    }
    fn cuLogsCurrent(iterator_out: *mut CUlogIterator, flags: c_uint) {
        let _ = (iterator_out, flags);
        Err(CUDA_ERROR_NOT_SUPPORTED)
    }
    fn cuLogsDumpToFile(iterator: *mut CUlogIterator, pathToFile: *const std::ffi::c_char, flags: c_uint) {
        let _ = (iterator, pathToFile, flags);
        Err(CUDA_ERROR_NOT_SUPPORTED)
    }
    fn cuLogsDumpToMemory(iterator: *mut CUlogIterator, buffer: *mut std::ffi::c_char, size: *mut usize, flags: c_uint) {
        let _ = (iterator, buffer, size, flags);
        Err(CUDA_ERROR_NOT_SUPPORTED)
    }

    // `cuStreamGetCtx_v2`: the primary context of a created stream's device; the current
    // context for the null, legacy and per-thread streams.
    fn cuStreamGetCtx_v2(hStream: CUstream, pCtx: *mut CUcontext, pGreenCtx: *mut CUgreenCtx) {
        nonnull(pCtx)?;
        let h = hStream as usize;
        let ctx = with(|s| {
            let cur = s.cur()?;
            s.check_stream(h)?;
            let dev = s.streams.get(&h).map_or(cur, |x| x.dev);
            Ok(s.ctxs[dev as usize].handle)
        })?;
        *pCtx = ctx as CUcontext;
        if !pGreenCtx.is_null() {
            *pGreenCtx = std::ptr::null_mut();
        }
        Ok(())
    }
}
