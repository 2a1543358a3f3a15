//! Kernel launches: `<<<...>>>` (`__cudaPushCallConfiguration`, `__cudaGetKernel`,
//! `__cudaLaunchKernel`), `cudaLaunchKernel` and its cooperative and extensible forms, and the
//! kernel handles of host stubs.
#![allow(non_snake_case)]

use cudart_rs_macros::export;
use std::ffi::{c_uint, c_void};
use std::ptr::null_mut;

use crate::driver::types::*;
use crate::driver::Fns;
use crate::runtime::boundary::{cu, out, run, Res};
use crate::runtime::rt;
use crate::runtime::thread::CallConfig;
use crate::types::cudaError;
use crate::types::*;

use super::registration::*;

/// The launch dimensions every device CUDA 12 supports has: block (1024, 1024, 64) of at
/// most 1024 threads, grid (2^31 - 1, 65535, 65535).
#[cfg(feature = "abi12")]
const MAX_BLOCK: [u32; 3] = [1024, 1024, 64];
#[cfg(feature = "abi12")]
const MAX_THREADS: u64 = 1024;
#[cfg(feature = "abi12")]
const MAX_GRID: [u32; 3] = [0x7fff_ffff, 65535, 65535];

/// Built for the 12 ABI, the dimensions are checked here (`cudaErrorInvalidConfiguration`);
/// what the driver refuses beyond that (shared memory) keeps the driver's error. NVIDIA's 13
/// runtime leaves the dimensions to the driver as well: a block of 2048 threads, a zero or
/// too large grid is the driver's `cudaErrorInvalidValue`.
#[cfg(feature = "abi12")]
fn check_config(grid: dim3, block: dim3) -> Res {
    let g = [grid.x, grid.y, grid.z];
    let b = [block.x, block.y, block.z];
    let threads = b.iter().map(|&v| v as u64).product::<u64>();
    let bad = g.iter().zip(MAX_GRID).any(|(&v, m)| v == 0 || v > m)
        || b.iter().zip(MAX_BLOCK).any(|(&v, m)| v == 0 || v > m)
        || threads > MAX_THREADS;
    if bad {
        return Err(cudaError::cudaErrorInvalidConfiguration);
    }
    Ok(())
}

/// As in NVIDIA's runtimes, the dynamic shared memory size goes to the driver truncated to its
/// 32 bits.
#[allow(clippy::too_many_arguments)]
pub(crate) fn launch(
    f: &Fns,
    k: CUkernel,
    grid: dim3,
    block: dim3,
    args: *mut *mut c_void,
    shared: usize,
    stream: cudaStream_t,
    cooperative: bool,
) -> Res {
    #[cfg(feature = "abi12")]
    check_config(grid, block)?;
    let shared = shared as c_uint;
    let h = k as CUfunction;
    // SAFETY: a CUkernel is a valid function handle for the driver's launches; the
    // arguments are the caller's.
    cu(unsafe {
        if cooperative {
            f.cuLaunchCooperativeKernel(h, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared, stream, args)
        } else {
            f.cuLaunchKernel(h, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared, stream, args, null_mut())
        }
    })
}

/// The driver's launch configuration for a runtime one. The attributes are passed on as they
/// are: `cudaLaunchAttribute` is the driver's `CUlaunchAttribute` (same ids, same layout, and
/// events and device graph nodes are driver handles). As in NVIDIA's runtimes, the dynamic
/// shared memory size is truncated to 32 bits.
pub(crate) fn cu_config(c: &cudaLaunchConfig_t) -> CUlaunchConfig {
    CUlaunchConfig {
        gridDimX: c.gridDim.x,
        gridDimY: c.gridDim.y,
        gridDimZ: c.gridDim.z,
        blockDimX: c.blockDim.x,
        blockDimY: c.blockDim.y,
        blockDimZ: c.blockDim.z,
        sharedMemBytes: c.dynamicSmemBytes as c_uint,
        hStream: c.stream,
        attrs: c.attrs as *mut c_void,
        numAttrs: c.numAttrs,
    }
}

const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<CUlaunchConfig>() == 56 && offset_of!(CUlaunchConfig, attrs) == 40);
};

// ---- launch ----------------------------------------------------------------------------

/// Pushes a launch configuration (`<<<grid, block, shared, stream>>>`). Returns 0.
/// cbindgen:ignore
#[export(family = Launch, cupti = none)]
#[no_mangle]
pub unsafe extern "C" fn __cudaPushCallConfiguration(
    gridDim: dim3,
    blockDim: dim3,
    sharedMem: usize,
    stream: cudaStream_t,
) -> c_uint {
    crate::runtime::thread::push_config(CallConfig { grid: gridDim, block: blockDim, shared: sharedMem, stream });
    0
}

/// Pops the configuration the launch stub was called with.
/// cbindgen:ignore
#[export(family = Launch, cupti = none)]
#[no_mangle]
pub unsafe extern "C" fn __cudaPopCallConfiguration(
    gridDim: *mut dim3,
    blockDim: *mut dim3,
    sharedMem: *mut usize,
    stream: *mut c_void,
) -> cudaError_t {
    let Some(c) = crate::runtime::thread::pop_config() else {
        return cudaError::cudaErrorMissingConfiguration;
    };
    // SAFETY: the stub's own locals.
    unsafe {
        if let Some(g) = gridDim.as_mut() {
            *g = c.grid;
        }
        if let Some(b) = blockDim.as_mut() {
            *b = c.block;
        }
        if let Some(s) = sharedMem.as_mut() {
            *s = c.shared;
        }
        if let Some(s) = (stream as *mut cudaStream_t).as_mut() {
            *s = c.stream;
        }
    }
    cudaError::cudaSuccess
}

/// The kernel handle of a host stub (called once by each launch stub).
/// cbindgen:ignore
#[export(family = Module, sem = GetKernel(kernel, func), cupti = none)]
#[no_mangle]
pub unsafe extern "C" fn __cudaGetKernel(kernel: *mut cudaKernel_t, func: *const c_void) -> cudaError_t {
    run(|| get_kernel(kernel, func))
}

fn get_kernel(kernel: *mut cudaKernel_t, func: *const c_void) -> Res {
    let kernel = out(kernel)?;
    if func.is_null() {
        return Err(cudaError::cudaErrorInvalidDeviceFunction);
    }
    // With a context current, so that loading can give managed variables their memory.
    let f = rt::ctx()?;
    let k = resolve(func, f)?;
    *kernel = k as cudaKernel_t;
    Ok(())
}

/// Launches a kernel by the handle `__cudaGetKernel` gave (nvcc's launch stubs).
/// cbindgen:ignore
#[export(family = Launch, per_thread = ptsz, sem = Launch, cupti = as(cudaLaunchKernel))]
#[no_mangle]
pub unsafe extern "C" fn __cudaLaunchKernel(
    kernel: cudaKernel_t,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        if kernel.is_null() {
            return Err(cudaError::cudaErrorInvalidDeviceFunction);
        }
        launch(f, kernel as CUkernel, gridDim, blockDim, args, sharedMem, stream, false)
    })
}

/// Launches a device function.
#[export(family = Launch, per_thread = ptsz, sem = Launch)]
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchKernel(
    func: *const c_void,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let k = resolve(func, f)?;
        launch(f, k, gridDim, blockDim, args, sharedMem, stream, false)
    })
}

/// Launches a device function where thread blocks can cooperate and synchronize as they
/// execute.
#[export(family = Launch, per_thread = ptsz, sem = Launch)]
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchCooperativeKernel(
    func: *const c_void,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let k = resolve(func, f)?;
        launch(f, k, gridDim, blockDim, args, sharedMem, stream, true)
    })
}

/// Launches a CUDA function with launch-time configuration.
#[export(family = Launch, per_thread = ptsz, sem = Launch)]
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchKernelExC(
    config: *const cudaLaunchConfig_t,
    func: *const c_void,
    args: *mut *mut c_void,
) -> cudaError_t {
    run(|| {
        // NVIDIA's runtime reads the configuration unchecked (a null one crashes it).
        let cfg = config.as_ref().ok_or(cudaError::cudaErrorInvalidValue)?;
        let f = rt::ctx()?;
        let k = resolve(func, f)?;
        #[cfg(feature = "abi12")]
        check_config(cfg.gridDim, cfg.blockDim)?;
        // NVIDIA's 13.5 runtime refuses a dynamic shared memory size past 32 bits (13.0's
        // truncates it, as cu_config does; the H100, ctest/cu_launch_ex.cu).
        #[cfg(not(feature = "abi12"))]
        if cfg.dynamicSmemBytes > c_uint::MAX as usize {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let c = cu_config(cfg);
        // SAFETY: a kernel of a loaded library (a valid function handle for the driver's
        // launches); attributes and arguments are the caller's.
        cu(f.cuLaunchKernelEx(&c, k as CUfunction, args, null_mut()))
    })
}

/// Launches device functions on multiple devices where thread blocks can cooperate and
/// synchronize as they execute. Every launch is of the same registered kernel; each goes to
/// the device of its stream.
#[cfg(feature = "abi12")]
#[export(family = Launch)]
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchCooperativeKernelMultiDevice(
    launchParamsList: *mut cudaLaunchParams,
    numDevices: c_uint,
    flags: c_uint,
) -> cudaError_t {
    run(|| {
        if launchParamsList.is_null() || numDevices == 0 || numDevices > rt::device_count()? as c_uint {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        // SAFETY: the caller's array of `numDevices` launches.
        let list = std::slice::from_raw_parts(launchParamsList, numDevices as usize);
        let f = rt::ctx()?;
        let mut params = Vec::with_capacity(list.len());
        for p in list {
            if p.func != list[0].func {
                return Err(cudaError::cudaErrorInvalidValue);
            }
            // The function in the context of the launch's stream (a driver older than 12.5,
            // without the call, gets the current context's).
            let mut ctx: CUcontext = null_mut();
            let mut green: CUgreenCtx = null_mut();
            match f.cuStreamGetCtx_v2(p.stream, &mut ctx, &mut green) {
                crate::driver::MISSING_ENTRY_POINT => ctx = null_mut(),
                r => cu(r)?,
            }
            let pushed = !ctx.is_null();
            if pushed {
                cu(f.cuCtxPushCurrent(ctx))?;
            }
            let h = resolve_registered(p.func, f).and_then(|k| {
                let mut h: CUfunction = null_mut();
                cu(f.cuKernelGetFunction(&mut h, k)).map(|_| h)
            });
            if pushed {
                let mut popped: CUcontext = null_mut();
                f.cuCtxPopCurrent(&mut popped);
            }
            let h = h?;
            check_config(p.gridDim, p.blockDim)?;
            params.push(CUDA_LAUNCH_PARAMS {
                function: h,
                gridDimX: p.gridDim.x,
                gridDimY: p.gridDim.y,
                gridDimZ: p.gridDim.z,
                blockDimX: p.blockDim.x,
                blockDimY: p.blockDim.y,
                blockDimZ: p.blockDim.z,
                sharedMemBytes: p.sharedMem as c_uint,
                hStream: p.stream,
                kernelParams: p.args,
            });
        }
        // SAFETY: one launch per device, functions of the streams' contexts.
        cu(f.cuLaunchCooperativeKernelMultiDevice(params.as_mut_ptr(), numDevices, flags))
    })
}

/// Get pointer to device kernel that matches entry function `entryFuncAddr`.
#[export(family = Module, sem = GetKernel(kernelPtr, entryFuncAddr))]
#[no_mangle]
pub unsafe extern "C" fn cudaGetKernel(kernelPtr: *mut cudaKernel_t, entryFuncAddr: *const c_void) -> cudaError_t {
    run(|| get_kernel(kernelPtr, entryFuncAddr))
}

/// `cudaSubgridCreate`, `cudaSubgridWorkerGridCreate`, `cudaSubgridWorksetCreate`: exported by
/// NVIDIA's 13.5 runtime, declared by no header, and answered with
/// `cudaErrorCallRequiresNewerDriver` whatever the arguments (measured with all-zero
/// arguments on the 13.0 driver); no driver declares a call behind them.
/// cbindgen:ignore
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaSubgridCreate() -> cudaError_t {
    run(|| Err(cudaError::cudaErrorCallRequiresNewerDriver))
}

/// See [`cudaSubgridCreate`].
/// cbindgen:ignore
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaSubgridWorkerGridCreate() -> cudaError_t {
    run(|| Err(cudaError::cudaErrorCallRequiresNewerDriver))
}

/// See [`cudaSubgridCreate`].
/// cbindgen:ignore
#[cfg(not(feature = "abi12"))]
#[export(family = Device, since = 13.5)]
#[no_mangle]
pub unsafe extern "C" fn cudaSubgridWorksetCreate() -> cudaError_t {
    run(|| Err(cudaError::cudaErrorCallRequiresNewerDriver))
}
