//! Function queries and settings: a kernel's attributes, name, parameters, cache and shared
//! memory preferences, and the function of a symbol.
#![allow(non_snake_case)]

use cudart_rs_macros::export;
use std::ffi::{c_char, c_int, c_void};
use std::ptr::null_mut;
#[cfg(not(feature = "abi12"))]
use std::sync::atomic::Ordering;

use crate::driver::types::*;
use crate::runtime::boundary::{cu, not_null, out, record, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

use super::registration::*;

/// Get pointer to device entry function that matches entry function `symbolPtr`.
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetFuncBySymbol(
    functionPtr: *mut cudaFunction_t,
    symbolPtr: *const c_void,
) -> cudaError_t {
    run(|| {
        let p = out(functionPtr)?;
        let f = rt::ctx()?;
        // Only a host stub nvcc registered names a function here: a kernel handle from a
        // library is cudaErrorInvalidDeviceFunction, as NVIDIA's runtime answers (measured
        // on the H100, ctest/library.c, both ABIs).
        if !FUNCS.read().contains_key(&(symbolPtr as usize)) {
            return Err(cudaError::cudaErrorInvalidDeviceFunction);
        }
        *p = function_of(symbolPtr, f)?;
        Ok(())
    })
}

/// Returns the device name of a kernel.
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetName(name: *mut *const c_char, func: *const c_void) -> cudaError_t {
    run(|| {
        let name = out(name)?;
        not_null(func, cudaError::cudaErrorInvalidDeviceFunction)?;
        if let Some(p) = NAMES.get(func as usize) {
            *name = p as *const c_char;
            return Ok(());
        }
        let Some(fun) = find_func(func) else {
            // Not a registered stub: a kernel handle (one from cudaLibraryGetKernel, say) for
            // the driver to judge (see `resolve`) and name.
            let f = rt::ctx()?;
            let k = resolve(func, f)?;
            let mut p: *const c_char = std::ptr::null();
            cu(f.cuKernelGetName(&mut p, k))?;
            *name = p;
            return Ok(());
        };
        *name = fun.name.as_ptr();
        Ok(())
    })
}

// The kernel's attributes on the current device (the 12 ABI: of its function in the current
// context). Those fixed by the code (0 to 7) are kept per (kernel, device) once read
// (`crate::runtime::kattr`); those a program can set (8 to 17) are read from the driver every time,
// as NVIDIA's runtime reads them all.
/// Find out attributes for a given function.
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetAttributes(attr: *mut cudaFuncAttributes, func: *const c_void) -> cudaError_t {
    run(|| {
        let attr = out(attr)?;
        let (f, cur) = rt::ctx_current()?;
        let k = resolve(func, f)?;
        let dev = rt::device_of(f, cur)?;
        // NVIDIA's 13 runtime reads the kernel's attributes for the current device; its 12
        // runtime reads those of the kernel's function in the current context (after
        // cudaKernelSetAttributeForDevice the two differ: measured on the H100,
        // ctest/library.c).
        #[cfg(feature = "abi12")]
        let h = {
            let mut h: CUfunction = null_mut();
            // SAFETY: a kernel of a loaded library; a context is current.
            cu(unsafe { f.cuKernelGetFunction(&mut h, k) })?;
            h
        };
        let get = |a: CUfunction_attribute| -> Res<c_int> {
            let mut v = 0;
            // SAFETY: a kernel (function) of a loaded library and the current device.
            #[cfg(not(feature = "abi12"))]
            cu(unsafe { f.cuKernelGetAttribute(&mut v, a, k, dev) })?;
            #[cfg(feature = "abi12")]
            cu(unsafe { f.cuFuncGetAttribute(&mut v, a, h) })?;
            Ok(v)
        };
        let fixed = match crate::runtime::kattr::KERNEL_ATTRS.get(k as usize, dev as usize) {
            Some(v) => v,
            None => fixed_attributes(k, dev, &get)?,
        };
        let mut a = *attr;
        a.maxThreadsPerBlock = fixed[0];
        a.sharedSizeBytes = fixed[1] as usize;
        a.constSizeBytes = fixed[2] as usize;
        a.localSizeBytes = fixed[3] as usize;
        a.numRegs = fixed[4];
        a.ptxVersion = fixed[5];
        a.binaryVersion = fixed[6];
        a.cacheModeCA = fixed[7];
        a.maxDynamicSharedSizeBytes = get(8)?;
        a.preferredShmemCarveout = get(9)?;
        a.clusterDimMustBeSet = get(10)?;
        a.requiredClusterWidth = get(11)?;
        a.requiredClusterHeight = get(12)?;
        a.requiredClusterDepth = get(13)?;
        a.nonPortableClusterSizeAllowed = get(14)?;
        a.clusterSchedulingPolicyPreference = get(15)?;
        #[cfg(not(feature = "abi12"))]
        {
            let (status, mode) = attributes_135(&get, a.maxDynamicSharedSizeBytes);
            a.deviceNodeUpdateStatus = status;
            a.sharedMemoryMode = raw::cudaSharedMemoryMode(mode);
        }
        *attr = a;
        Ok(())
    })
}

/// Reads the attributes 0 to 7 of `k` on `dev` through `get` and keeps them.
#[cold]
#[inline(never)]
fn fixed_attributes(
    k: CUkernel,
    dev: c_int,
    get: &dyn Fn(CUfunction_attribute) -> Res<c_int>,
) -> Res<[c_int; crate::runtime::kattr::FIXED]> {
    let ticket = crate::runtime::kattr::KERNEL_ATTRS.ticket();
    let mut v = [0; crate::runtime::kattr::FIXED];
    for (i, x) in v.iter_mut().enumerate() {
        *x = get(i as CUfunction_attribute)?;
    }
    crate::runtime::kattr::KERNEL_ATTRS.put(k as usize, dev as usize, rt::device_count()? as usize, ticket, v);
    Ok(v)
}

/// Whether the driver answers CUDA 13.5's function attributes 16 and 17: 0 not known yet,
/// 1 it does, 2 it does not (asked once: a refused attribute costs the driver far more than
/// an answered one).
#[cfg(not(feature = "abi12"))]
static ATTRIBUTES_135: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// CUDA 13.5's two: the driver's attributes 16 and 17 (device node update status, shared
/// memory mode). The 13.0 driver has neither (CUDA_ERROR_INVALID_VALUE); NVIDIA's 13.5
/// runtime then reports 0 and, for the mode, the maximum dynamic shared memory size (the
/// H100, ctest/cu_decl135.cu).
#[cfg(not(feature = "abi12"))]
fn attributes_135(get: &dyn Fn(CUfunction_attribute) -> Res<c_int>, max_dynamic_shared: c_int) -> (c_int, c_int) {
    let known = ATTRIBUTES_135.load(Ordering::Relaxed);
    if known == 2 {
        return (0, max_dynamic_shared);
    }
    let (status, mode) = (get(16), get(17));
    if known == 0 {
        let refused = Err(cudaError::cudaErrorInvalidValue);
        if status == refused && mode == refused {
            ATTRIBUTES_135.store(2, Ordering::Relaxed);
        } else if status.is_ok() && mode.is_ok() {
            ATTRIBUTES_135.store(1, Ordering::Relaxed);
        }
    }
    (status.unwrap_or(0), mode.unwrap_or(max_dynamic_shared))
}

// As NVIDIA's runtime does, the attribute is checked first, and the outcome of the driver's
// call is stored as the thread's last error, success included: a successful call clears an
// earlier (not sticky) error.
/// Set attributes for a given function.
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaFuncSetAttribute(
    func: *const c_void,
    attr: raw::cudaFuncAttribute,
    value: c_int,
) -> cudaError_t {
    run(|| {
        if !(8..=15).contains(&attr.0) {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let (f, cur) = rt::ctx_current()?;
        // NVIDIA's 13 runtime sets the kernel's attribute for the current device; its 12
        // runtime sets that of the kernel's function in the current context (driver calls
        // traced on the H100; ctest/library.c shows the difference).
        #[cfg(not(feature = "abi12"))]
        {
            let k = resolve(func, f)?;
            let dev = rt::device_of(f, cur)?;
            // SAFETY: a kernel of a loaded library and the current device.
            cu(unsafe { f.cuKernelSetAttribute(attr.0, value, k, dev) })?;
        }
        #[cfg(feature = "abi12")]
        {
            let _ = cur;
            let h = function_of(func, f)?;
            // SAFETY: a function of the current context.
            cu(unsafe { f.cuFuncSetAttribute(h, attr.0, value) })?;
        }
        record(cudaError::cudaSuccess);
        Ok(())
    })
}

/// Find parameter offset and size of a kernel parameter (by its index, from 0).
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetParamInfo(
    func: *const c_void,
    paramIndex: usize,
    paramOffset: *mut usize,
    paramSize: *mut usize,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let k = resolve(func, f)?;
        // SAFETY: a kernel of a loaded library; the out pointers are the driver's to check.
        cu(f.cuKernelGetParamInfo(k, paramIndex, paramOffset, paramSize))
    })
}

/// The number of parameters of a kernel. As in NVIDIA's 13.5 runtime a NULL function is
/// cudaErrorInvalidDeviceFunction, and a driver without the call (before CUDA 13.2) is
/// cudaErrorCallRequiresNewerDriver before the function or the out pointer is judged.
#[cfg(not(feature = "abi12"))]
#[export(family = Module, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetParamCount(func: *const c_void, paramCount: *mut usize) -> cudaError_t {
    run(|| {
        not_null(func, cudaError::cudaErrorInvalidDeviceFunction)?;
        let f = rt::ctx()?;
        if f.cuKernelGetParamCount.is_none() {
            return Err(cudaError::cudaErrorCallRequiresNewerDriver);
        }
        let k = resolve(func, f)?;
        // SAFETY: a kernel of a loaded library; the out pointer is the driver's to check.
        cu(f.cuKernelGetParamCount(k, paramCount))
    })
}

/// Sets the preferred cache configuration for a device function (on the current device).
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaFuncSetCacheConfig(func: *const c_void, cacheConfig: raw::cudaFuncCache) -> cudaError_t {
    run(|| {
        let (f, cur) = rt::ctx_current()?;
        let dev = rt::device_of(f, cur)?;
        let k = resolve_for_config(func, f)?;
        // SAFETY: a kernel of a loaded library and the current device; the driver checks
        // the configuration.
        cu(f.cuKernelSetCacheConfig(k, cacheConfig.0, dev))
    })
}

/// Sets the shared memory configuration for a device function (deprecated: the driver
/// accepts a valid configuration and ignores it on devices whose bank size is fixed).
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaFuncSetSharedMemConfig(
    func: *const c_void,
    config: raw::cudaSharedMemConfig,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let k = resolve_for_config(func, f)?;
        let mut h: CUfunction = null_mut();
        cu(f.cuKernelGetFunction(&mut h, k))?;
        // SAFETY: a function of the current context; the driver checks the configuration.
        cu(f.cuFuncSetSharedMemConfig(h, config.0))
    })
}

#[cfg(all(test, not(feature = "abi12")))]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn attributes_135_are_asked_once_of_a_driver_that_refuses_them() {
        let calls = Cell::new(0);
        let refusing = |a: CUfunction_attribute| -> Res<c_int> {
            calls.set(calls.get() + 1);
            if a >= 16 {
                Err(cudaError::cudaErrorInvalidValue)
            } else {
                Ok(a)
            }
        };
        ATTRIBUTES_135.store(0, Ordering::Relaxed);
        assert_eq!(attributes_135(&refusing, 4096), (0, 4096));
        assert_eq!(calls.get(), 2);
        // Known now: the fallback values, no driver call.
        assert_eq!(attributes_135(&refusing, 1024), (0, 1024));
        assert_eq!(calls.get(), 2);

        // A driver that answers them is asked every time (they may change).
        let answering = |a: CUfunction_attribute| -> Res<c_int> {
            calls.set(calls.get() + 1);
            Ok(a * 10)
        };
        ATTRIBUTES_135.store(0, Ordering::Relaxed);
        assert_eq!(attributes_135(&answering, 0), (160, 170));
        assert_eq!(attributes_135(&answering, 0), (160, 170));
        assert_eq!(calls.get(), 6);

        // Another error (a kernel that failed to load, say) decides nothing.
        let failing = |_: CUfunction_attribute| -> Res<c_int> { Err(cudaError::cudaErrorInvalidDeviceFunction) };
        ATTRIBUTES_135.store(0, Ordering::Relaxed);
        assert_eq!(attributes_135(&failing, 7), (0, 7));
        assert_eq!(ATTRIBUTES_135.load(Ordering::Relaxed), 0);
    }
}
