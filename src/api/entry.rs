//! Driver entry points, the export table, the profiler and the error log (CUDA 13): each is
//! the driver's function of the same purpose, with NVIDIA's runtime's few checks in front.
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_char, c_int, c_uint, c_ulonglong, c_void};
use std::ptr::null_mut;

use crate::runtime::boundary::{cu, not_null, run, run_uninitialised, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::{cudaDriverEntryPointQueryResult, cudaError_t, cudaUUID_t};
#[cfg(not(feature = "abi12"))]
use crate::types::{cudaLogIterator, cudaLogsCallbackHandle, cudaLogsCallback_t};

/// `cuGetProcAddress` with the runtime's flags, which are the driver's
/// (`cudaEnableDefault`, `cudaEnableLegacyStream`, `cudaEnablePerThreadDefaultStream`).
/// Everything else is the driver's to judge, as in NVIDIA's runtime: an unknown symbol, a
/// version older than the symbol or newer than the driver, null pointers (but a null symbol),
/// other flags. In a `_ptsz` export the default search is the per-thread one.
unsafe fn entry_point(
    symbol: *const c_char,
    funcPtr: *mut *mut c_void,
    version: c_uint,
    flags: u64,
    status: *mut cudaDriverEntryPointQueryResult,
) -> Res {
    let f = rt::fns()?;
    // A null symbol crashes NVIDIA's runtime (and the driver): refused here.
    not_null(symbol, cudaError::cudaErrorInvalidValue)?;
    let flags = if rt::null_stream_is_per_thread() && flags & 3 == 0 { flags | 2 } else { flags };
    // SAFETY: the caller's pointers, checked by the driver; the status values are the
    // driver's `CUdriverProcAddressQueryResult`.
    cu(unsafe { f.cuGetProcAddress(symbol, funcPtr, version as c_int, flags, status as *mut c_int) })
}

/// Returns the requested driver API function pointer, as this runtime's CUDA version sees it.
#[export(family = Runtime, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetDriverEntryPoint(
    symbol: *const c_char,
    funcPtr: *mut *mut c_void,
    flags: c_ulonglong,
    driverStatus: *mut cudaDriverEntryPointQueryResult,
) -> cudaError_t {
    run(|| entry_point(symbol, funcPtr, crate::CUDART_VERSION as c_uint, flags, driverStatus))
}

/// Returns the requested driver API function pointer by CUDA version.
#[export(family = Runtime, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetDriverEntryPointByVersion(
    symbol: *const c_char,
    funcPtr: *mut *mut c_void,
    cudaVersion: c_uint,
    flags: c_ulonglong,
    driverStatus: *mut cudaDriverEntryPointQueryResult,
) -> cudaError_t {
    run(|| entry_point(symbol, funcPtr, cudaVersion, flags, driverStatus))
}

/// Returns an export table: the driver's table of that UUID. As in NVIDIA's runtime the
/// pointers are checked first, without initialising anything, and a runtime that cannot
/// initialise reports `cudaErrorUnknown`. (NVIDIA's runtime also answers a few UUIDs of its
/// own, private tables, which this runtime does not have.)
#[export(family = Runtime)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetExportTable(
    ppExportTable: *mut *const c_void,
    pExportTableId: *const cudaUUID_t,
) -> cudaError_t {
    run_uninitialised(|| {
        if ppExportTable.is_null() || pExportTableId.is_null() {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        // The runtime's own tables (the ones NVIDIA's tools ask a runtime for), else the
        // driver's.
        if let Some(t) =
            crate::runtime::export_table::runtime_table(pExportTableId as *const crate::driver::types::CUuuid)
        {
            // SAFETY: checked above.
            unsafe { *ppExportTable = t };
            return Ok(());
        }
        // SAFETY: checked above.
        unsafe { *ppExportTable = std::ptr::null() };
        let f = rt::fns().map_err(|_| cudaError::cudaErrorUnknown)?;
        // SAFETY: valid pointers; the UUID is the driver's `CUuuid`.
        cu(unsafe { f.cuGetExportTable(ppExportTable, pExportTableId as *const crate::driver::types::CUuuid) })
    })
}

passthrough! {
    cudaProfilerStart() = ctx.cuProfilerStart() [family = Runtime] "Enable profiling.";
    #[cfg(not(feature = "abi12"))]
    cudaLogsUnregisterCallback(callback: cudaLogsCallbackHandle)
        = ctx.cuLogsUnregisterCallback(callback) [family = Runtime] "Unregister a log message callback.";
    /// Sets log iterator to point to the end of log buffer, where the next message would be
    /// written.
    #[cfg(not(feature = "abi12"))]
    cudaLogsCurrent(iterator_out: *mut cudaLogIterator, flags: c_uint)
        = ctx.cuLogsCurrent(iterator_out, flags) [family = Runtime];
    #[cfg(not(feature = "abi12"))]
    cudaLogsDumpToFile(iterator: *mut cudaLogIterator, pathToFile: *const c_char, flags: c_uint)
        = ctx.cuLogsDumpToFile(iterator, pathToFile, flags) [family = Runtime]
        "Dump accumulated driver logs into a file.";
    #[cfg(not(feature = "abi12"))]
    cudaLogsDumpToMemory(iterator: *mut cudaLogIterator, buffer: *mut c_char, size: *mut usize, flags: c_uint)
        = ctx.cuLogsDumpToMemory(iterator, buffer, size, flags) [family = Runtime]
        "Dump accumulated driver logs into a buffer.";
}

/// Disable profiling. Without a current context there is nothing to stop: success, and no
/// context is made, as in NVIDIA's runtime.
#[export(family = Runtime)]
#[no_mangle]
pub unsafe extern "C" fn cudaProfilerStop() -> cudaError_t {
    run(|| {
        let f = rt::fns()?;
        let mut cur = null_mut();
        cu(f.cuCtxGetCurrent(&mut cur))?;
        if cur.is_null() {
            return Ok(());
        }
        cu(f.cuProfilerStop())
    })
}

// ---- error log (CUDA 13) -----------------------------------------------------------------
//
// The runtime's log types are the driver's (`cudaLogsCallback_t` takes the parameters of
// `CUlogsCallback`, a `cudaLogLevel` is a `CUlogLevel`): calls are passed on, with a context
// current as in NVIDIA's runtime.

/// Register a callback function to receive error log messages.
#[cfg(not(feature = "abi12"))]
#[export(family = Runtime)]
#[no_mangle]
pub unsafe extern "C" fn cudaLogsRegisterCallback(
    callbackFunc: cudaLogsCallback_t,
    userData: *mut c_void,
    callback_out: *mut cudaLogsCallbackHandle,
) -> cudaError_t {
    run(|| {
        // SAFETY: the same C function type (the level is the driver's enum, as an int).
        let cb =
            unsafe { std::mem::transmute::<cudaLogsCallback_t, crate::driver::types::CUlogsCallback>(callbackFunc) };
        cu(rt::ctx()?.cuLogsRegisterCallback(cb, userData, callback_out))
    })
}

/// The entry point a driver asks a hybrid runtime for (Windows); NVIDIA's Linux runtime
/// exports it as a function that returns 0.
/// cbindgen:ignore
#[cfg(not(feature = "abi12"))]
#[export(family = Runtime)]
#[no_mangle]
pub unsafe extern "C" fn __cudaGetProcAddress() -> *mut c_void {
    null_mut()
}
