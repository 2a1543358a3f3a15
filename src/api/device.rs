//! Version, error, device and context management exports.
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::ptr::addr_of;
use std::sync::OnceLock;

use crate::driver::{self, types::CUdevice};
use crate::runtime::boundary::{self, cu, not_null, out, run, Res};
use crate::runtime::rt;
use crate::types::error;
use crate::types::*;

/// Returns the CUDA Runtime version.
#[export(family = Device, cupti = none)]
#[no_mangle]
pub unsafe extern "C" fn cudaRuntimeGetVersion(runtimeVersion: *mut c_int) -> cudaError_t {
    boundary::run_uninitialised(|| {
        *out(runtimeVersion)? = crate::CUDART_VERSION;
        Ok(())
    })
}

/// Returns the latest version of CUDA supported by the driver (0 if there is no driver).
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaDriverGetVersion(driverVersion: *mut c_int) -> cudaError_t {
    boundary::run_uninitialised(|| {
        let v = out(driverVersion)?;
        *v = driver::version_or_zero();
        Ok(())
    })
}

/// Returns the string representation of an error code enum name.
#[export(family = Error)]
#[no_mangle]
pub extern "C" fn cudaGetErrorName(error: raw::cudaError_t) -> *const c_char {
    error::name(error.0)
}

/// Returns the description string for an error code.
#[export(family = Error)]
#[no_mangle]
pub extern "C" fn cudaGetErrorString(error: raw::cudaError_t) -> *const c_char {
    error::string(error.0)
}

// Without a usable driver, NVIDIA's runtime reports the initialisation error here every
// time (it never clears), whatever came before.
/// Returns the last error from a runtime call, and resets it to cudaSuccess.
#[export(family = Error)]
#[no_mangle]
pub extern "C" fn cudaGetLastError() -> cudaError_t {
    rt::driver().map_or_else(|e| e, |_| boundary::take_last())
}

/// Returns the last error from a runtime call, without resetting it.
#[export(family = Error)]
#[no_mangle]
pub extern "C" fn cudaPeekAtLastError() -> cudaError_t {
    rt::driver().map_or_else(|e| e, |_| boundary::peek_last())
}

/// Returns the number of compute-capable devices.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceCount(count: *mut c_int) -> cudaError_t {
    run(|| {
        let count = out(count)?;
        *count = 0;
        *count = rt::device_count()?;
        Ok(())
    })
}

/// Set device to be used for GPU executions.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaSetDevice(device: c_int) -> cudaError_t {
    run(|| rt::set_device(device))
}

/// Returns which device is currently being used.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetDevice(device: *mut c_int) -> cudaError_t {
    run(|| {
        let device = out(device)?;
        *device = rt::current_device()?;
        Ok(())
    })
}

passthrough! {
    cudaDeviceSynchronize() = ctx.cuCtxSynchronize() [family = Device, sem = Sync] "Wait for compute device to finish.";
    cudaDeviceSetLimit(limit: raw::cudaLimit, value: usize)
        = ctx.cuCtxSetLimit(limit.0, value) [family = Device] "Set resource limits.";
    cudaDeviceGetLimit(pValue: *mut usize, limit: raw::cudaLimit)
        = ctx.cuCtxGetLimit(out(pValue)?, limit.0) [family = Device] "Return resource limits.";
    cudaDeviceSetCacheConfig(cacheConfig: raw::cudaFuncCache)
        = ctx.cuCtxSetCacheConfig(cacheConfig.0) [family = Device]
        "Sets the preferred cache configuration for the current device.";
    cudaDeviceSetSharedMemConfig(config: raw::cudaSharedMemConfig)
        = ctx.cuCtxSetSharedMemConfig(config.0) [family = Device]
        "Sets the shared memory configuration for the current device.";
    cudaDeviceFlushGPUDirectRDMAWrites(target: raw::cudaFlushGPUDirectRDMAWritesTarget,
        scope: raw::cudaFlushGPUDirectRDMAWritesScope)
        = ctx.cuFlushGPUDirectRDMAWrites(target.0, scope.0) [family = Device]
        "Blocks until remote writes are visible to the specified scope.";
    cudaCtxResetPersistingL2Cache()
        = ctx.cuCtxResetPersistingL2Cache() [family = Device] "Resets all persisting lines in cache to normal status.";
    #[cfg(feature = "abi12")]
    cudaThreadSynchronize() = ctx.cuCtxSynchronize() [family = Device, sem = Sync] "Wait for compute device to finish.";
    #[cfg(feature = "abi12")]
    cudaThreadSetLimit(limit: raw::cudaLimit, value: usize)
        = ctx.cuCtxSetLimit(limit.0, value) [family = Device] "Set resource limits.";
    #[cfg(feature = "abi12")]
    cudaThreadGetLimit(pValue: *mut usize, limit: raw::cudaLimit)
        = ctx.cuCtxGetLimit(out(pValue)?, limit.0) [family = Device] "Returns resource limits.";
    #[cfg(feature = "abi12")]
    cudaThreadSetCacheConfig(cacheConfig: raw::cudaFuncCache)
        = ctx.cuCtxSetCacheConfig(cacheConfig.0) [family = Device]
        "Sets the preferred cache configuration for the current device.";
}

/// Destroy all allocations and reset all state on the current device in the current process.
#[export(family = Device, sem = Reset)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceReset() -> cudaError_t {
    run(|| rt::reset_primary(rt::current_device()?))
}

/// Checks `cudaSetDeviceFlags` flags and gives them to the primary context of `dev`
/// (`cudaDeviceMapHost` is always on, so the driver never sees it).
fn set_primary_flags(dev: CUdevice, flags: c_uint) -> Res {
    let sched = flags & cudaDeviceScheduleMask;
    if flags & !cudaDeviceMask != 0 || sched.count_ones() > 1 {
        return Err(cudaError::cudaErrorInvalidValue);
    }
    // SAFETY: a checked device ordinal.
    cu(unsafe { rt::fns()?.cuDevicePrimaryCtxSetFlags(dev, flags & !cudaDeviceMapHost) })
}

/// Sets flags to be used for device executions.
#[export(family = Device, flags = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaSetDeviceFlags(flags: c_uint) -> cudaError_t {
    run(|| {
        let dev = rt::current_device()?;
        set_primary_flags(dev, flags)?;
        rt::set_device(dev)
    })
}

/// Initialize device to be used for GPU executions.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaInitDevice(device: c_int, deviceFlags: c_uint, flags: c_uint) -> cudaError_t {
    run(|| {
        let dev = rt::check_device(device)?;
        // Other bits of `flags` are ignored, as NVIDIA's runtime does (measured on the H100).
        if flags & cudaInitDeviceFlagsAreValid != 0 {
            set_primary_flags(dev, deviceFlags)?;
        }
        rt::primary(dev).map(|_| ())
    })
}

/// Set a list of devices that can be used for CUDA.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaSetValidDevices(device_arr: *mut c_int, len: c_int) -> cudaError_t {
    run(|| {
        if len == 0 {
            rt::set_default_device(None);
            return Ok(());
        }
        if device_arr.is_null() || len < 0 || len > rt::device_count()? {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let list = std::slice::from_raw_parts(device_arr, len as usize);
        for &d in list {
            rt::check_device(d)?;
        }
        rt::set_default_device(Some(list[0]));
        Ok(())
    })
}

/// Every device's properties, read from the driver on the first call that asks for them and
/// answered from here after that (a copy, no lock), as NVIDIA's runtimes answer them from the
/// properties their device record holds (13.0.96 and 13.5.37 copy them and make no driver
/// call). The 12 ABI's struct has five fields that may change while a process runs
/// (`clockRate`, `memoryClockRate`, `computeMode`, `kernelExecTimeoutEnabled`,
/// `singleToDoublePrecisionPerfRatio`: clocks and modes an administrator sets): NVIDIA's
/// 12.9.79 reads those five from the driver on every call and copies the rest, and so does
/// this runtime ([`fresh_12`]); CUDA 13 dropped them from the struct. Every other field is a
/// property of the device, or of this process's view of it, that no call of the process
/// changes (`cudaDeviceReset`, `cudaDeviceSetLimit`, `cudaDeviceSetCacheConfig`,
/// `cudaSetDeviceFlags`, `cudaFuncSetAttribute` leave each as it was: ctest/props_cache.c
/// compares every field with its attribute after each of them, under NVIDIA's runtime and
/// ours).
static PROPS: [OnceLock<Box<cudaDeviceProp>>; rt::MAX_DEVICES] = [const { OnceLock::new() }; rt::MAX_DEVICES];

/// The properties of a device.
#[inline]
fn properties(device: c_int) -> Res<&'static cudaDeviceProp> {
    let dev = rt::check_device(device)?;
    match PROPS[dev as usize].get() {
        Some(p) => Ok(p),
        None => fill_properties(dev),
    }
}

/// Reads the properties of `dev` and keeps them (a failed read keeps nothing).
#[cold]
#[inline(never)]
fn fill_properties(dev: CUdevice) -> Res<&'static cudaDeviceProp> {
    let p = read_properties(dev)?;
    Ok(PROPS[dev as usize].get_or_init(|| Box::new(p)))
}

/// The properties of a device, every field filled from the driver.
fn read_properties(dev: CUdevice) -> Res<cudaDeviceProp> {
    let f = rt::fns()?;
    let a = |attr: driver::types::CUdevice_attribute| -> Res<c_int> {
        let mut v = 0;
        // SAFETY: valid out pointer, checked device.
        cu(unsafe { f.cuDeviceGetAttribute(&mut v, attr, dev) })?;
        Ok(v)
    };
    let mut p = cudaDeviceProp::default();
    let mut uuid = driver::types::CUuuid::default();
    // SAFETY: out pointers into `p` and `uuid`, with their sizes.
    unsafe {
        cu(f.cuDeviceGetName(p.name.as_mut_ptr(), p.name.len() as c_int, dev))?;
        cu(f.cuDeviceGetUuid(&mut uuid, dev))?;
        cu(f.cuDeviceTotalMem(&mut p.totalGlobalMem, dev))?;
    }
    p.uuid.bytes = uuid.bytes.map(|b| b as c_char);
    // luid and luidDeviceNodeMask are only defined on Windows (WDDM): zero here.
    p.sharedMemPerBlock = a(8)? as usize;
    p.regsPerBlock = a(12)?;
    p.warpSize = a(10)?;
    p.memPitch = a(11)? as usize;
    p.maxThreadsPerBlock = a(1)?;
    p.maxThreadsDim = [a(2)?, a(3)?, a(4)?];
    p.maxGridSize = [a(5)?, a(6)?, a(7)?];
    p.totalConstMem = a(9)? as usize;
    p.major = a(75)?;
    p.minor = a(76)?;
    p.textureAlignment = a(14)? as usize;
    p.texturePitchAlignment = a(51)? as usize;
    p.multiProcessorCount = a(16)?;
    p.integrated = a(18)?;
    p.canMapHostMemory = a(19)?;
    p.maxTexture1D = a(21)?;
    p.maxTexture1DMipmap = a(77)?;
    p.maxTexture2D = [a(22)?, a(23)?];
    p.maxTexture2DMipmap = [a(73)?, a(74)?];
    p.maxTexture2DLinear = [a(70)?, a(71)?, a(72)?];
    p.maxTexture2DGather = [a(45)?, a(46)?];
    p.maxTexture3D = [a(24)?, a(25)?, a(26)?];
    p.maxTexture3DAlt = [a(47)?, a(48)?, a(49)?];
    p.maxTextureCubemap = a(52)?;
    p.maxTexture1DLayered = [a(42)?, a(43)?];
    p.maxTexture2DLayered = [a(27)?, a(28)?, a(29)?];
    p.maxTextureCubemapLayered = [a(53)?, a(54)?];
    p.maxSurface1D = a(55)?;
    p.maxSurface2D = [a(56)?, a(57)?];
    p.maxSurface3D = [a(58)?, a(59)?, a(60)?];
    p.maxSurface1DLayered = [a(61)?, a(62)?];
    p.maxSurface2DLayered = [a(63)?, a(64)?, a(65)?];
    p.maxSurfaceCubemap = a(66)?;
    p.maxSurfaceCubemapLayered = [a(67)?, a(68)?];
    p.surfaceAlignment = a(30)? as usize;
    p.concurrentKernels = a(31)?;
    p.ECCEnabled = a(32)?;
    p.pciBusID = a(33)?;
    p.pciDeviceID = a(34)?;
    p.pciDomainID = a(50)?;
    p.tccDriver = a(35)?;
    p.asyncEngineCount = a(40)?;
    p.unifiedAddressing = a(41)?;
    p.memoryBusWidth = a(37)?;
    p.l2CacheSize = a(38)?;
    p.persistingL2CacheMaxSize = a(108)?;
    p.maxThreadsPerMultiProcessor = a(39)?;
    p.streamPrioritiesSupported = a(78)?;
    p.globalL1CacheSupported = a(79)?;
    p.localL1CacheSupported = a(80)?;
    p.sharedMemPerMultiprocessor = a(81)? as usize;
    p.regsPerMultiprocessor = a(82)?;
    p.managedMemory = a(83)?;
    p.isMultiGpuBoard = a(84)?;
    p.multiGpuBoardGroupID = a(85)?;
    p.hostNativeAtomicSupported = a(86)?;
    p.pageableMemoryAccess = a(88)?;
    p.concurrentManagedAccess = a(89)?;
    p.computePreemptionSupported = a(90)?;
    p.canUseHostPointerForRegisteredMem = a(91)?;
    p.cooperativeLaunch = a(95)?;
    p.sharedMemPerBlockOptin = a(97)? as usize;
    p.pageableMemoryAccessUsesHostPageTables = a(100)?;
    p.directManagedMemAccessFromHost = a(101)?;
    p.maxBlocksPerMultiProcessor = a(106)?;
    p.accessPolicyMaxWindowSize = a(109)?;
    p.reservedSharedMemPerBlock = a(111)? as usize;
    p.hostRegisterSupported = a(99)?;
    p.sparseCudaArraySupported = a(112)?;
    p.hostRegisterReadOnlySupported = a(113)?;
    p.timelineSemaphoreInteropSupported = a(114)?;
    p.memoryPoolsSupported = a(115)?;
    p.gpuDirectRDMASupported = a(116)?;
    p.gpuDirectRDMAFlushWritesOptions = a(117)? as c_uint;
    p.gpuDirectRDMAWritesOrdering = a(118)?;
    p.memoryPoolSupportedHandleTypes = a(119)? as c_uint;
    p.deferredMappingCudaArraySupported = a(121)?;
    p.ipcEventSupported = a(125)?;
    p.clusterLaunch = a(120)?;
    p.unifiedFunctionPointers = a(129)?;
    #[cfg(feature = "abi12")]
    {
        p.clockRate = a(13)?;
        p.deviceOverlap = a(15)?;
        p.kernelExecTimeoutEnabled = a(17)?;
        p.computeMode = a(20)?;
        p.maxTexture1DLinear = a(69)?;
        p.memoryClockRate = a(36)?;
        p.singleToDoublePrecisionPerfRatio = a(87)?;
        p.cooperativeMultiDeviceLaunch = a(96)?;
    }
    #[cfg(not(feature = "abi12"))]
    {
        p.deviceNumaConfig = a(130)?;
        p.deviceNumaId = a(131)?;
        p.mpsEnabled = a(133)?;
        p.hostNumaId = a(134)?;
        p.gpuPciDeviceID = a(139)? as c_uint;
        p.gpuPciSubsystemID = a(140)? as c_uint;
        p.hostNumaMultinodeIpcSupported = a(143)?;
    }
    Ok(p)
}

/// Returns information about the compute-device.
#[cfg(not(feature = "abi12"))]
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceProperties(prop: *mut cudaDeviceProp, device: c_int) -> cudaError_t {
    run(|| {
        let prop = out(prop)?;
        *prop = *properties(device)?;
        Ok(())
    })
}

/// The 12 ABI's properties as `cudaGetDeviceProperties` answers them: the kept ones, with the
/// five that may change read from the driver again, in NVIDIA's 12.9.79's order (a failure
/// fails the call).
#[cfg(feature = "abi12")]
fn fresh_12(device: c_int) -> Res<cudaDeviceProp> {
    let mut p = *properties(device)?;
    let f = rt::fns()?;
    for (attr, field) in [
        (17, &mut p.kernelExecTimeoutEnabled),
        (20, &mut p.computeMode),
        (13, &mut p.clockRate),
        (36, &mut p.memoryClockRate),
        (87, &mut p.singleToDoublePrecisionPerfRatio),
    ] {
        // SAFETY: valid out pointer, checked device.
        cu(unsafe { f.cuDeviceGetAttribute(field, attr, device) })?;
    }
    Ok(p)
}

/// Returns information about the compute-device.
#[cfg(feature = "abi12")]
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceProperties_v2(prop: *mut cudaDeviceProp, device: c_int) -> cudaError_t {
    run(|| {
        let prop = out(prop)?;
        *prop = fresh_12(device)?;
        Ok(())
    })
}

// The symbol programs built before CUDA 12.0 call (CUDA 12's header renames every call to
// `cudaGetDeviceProperties_v2`): it fills the CUDA 11 `cudaDeviceProp`, which is the 12.x
// struct up to `reservedSharedMemPerBlock`, and writes nothing beyond it, so a caller's
// smaller struct is not overrun.
/// Returns information about the compute-device, in the CUDA 11 layout.
/// cbindgen:ignore
#[cfg(feature = "abi12")]
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceProperties(prop: *mut cudaDeviceProp, device: c_int) -> cudaError_t {
    run(|| {
        not_null(prop, cudaError::cudaErrorInvalidValue)?;
        let p = fresh_12(device)?;
        let n = std::mem::offset_of!(cudaDeviceProp, hostRegisterSupported);
        // SAFETY: the caller's struct holds at least the CUDA 11 layout's `n` bytes.
        std::ptr::copy_nonoverlapping(&p as *const cudaDeviceProp as *const u8, prop as *mut u8, n);
        Ok(())
    })
}

/// How well device properties `have` match the wish `want`: one point for each property
/// the caller set (non-zero) that the device meets or exceeds, the compute capability
/// compared as a version. Only fields of the CUDA 11 layout are read (see above).
unsafe fn match_score(want: *const cudaDeviceProp, have: &cudaDeviceProp) -> u32 {
    let w = |p: *const c_int| p.read_unaligned() as i64;
    let z = |p: *const usize| p.read_unaligned() as i64;
    let (major, minor) = (w(addr_of!((*want).major)), w(addr_of!((*want).minor)));
    let mut score = 0;
    if (major, minor) != (0, 0) && (have.major as i64, have.minor as i64) >= (major, minor) {
        score += 1;
    }
    let wanted = [
        (z(addr_of!((*want).totalGlobalMem)), have.totalGlobalMem as i64),
        (z(addr_of!((*want).sharedMemPerBlock)), have.sharedMemPerBlock as i64),
        (w(addr_of!((*want).regsPerBlock)), have.regsPerBlock as i64),
        (w(addr_of!((*want).warpSize)), have.warpSize as i64),
        (w(addr_of!((*want).maxThreadsPerBlock)), have.maxThreadsPerBlock as i64),
        (z(addr_of!((*want).totalConstMem)), have.totalConstMem as i64),
        (w(addr_of!((*want).multiProcessorCount)), have.multiProcessorCount as i64),
        (w(addr_of!((*want).maxThreadsPerMultiProcessor)), have.maxThreadsPerMultiProcessor as i64),
        (w(addr_of!((*want).l2CacheSize)), have.l2CacheSize as i64),
        (z(addr_of!((*want).sharedMemPerMultiprocessor)), have.sharedMemPerMultiprocessor as i64),
        (w(addr_of!((*want).regsPerMultiprocessor)), have.regsPerMultiprocessor as i64),
    ];
    for (want, have) in wanted {
        if want != 0 && have >= want {
            score += 1;
        }
    }
    score
}

// NVIDIA does not publish its matching rule; this one only matters with several devices
// (the best score wins, the lowest ordinal among equals).
/// Select compute-device which best matches criteria.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaChooseDevice(device: *mut c_int, prop: *const cudaDeviceProp) -> cudaError_t {
    run(|| {
        let device = out(device)?;
        not_null(prop, cudaError::cudaErrorInvalidValue)?;
        let mut best = (0, 0);
        for d in 0..rt::device_count()? {
            let score = match_score(prop, properties(d)?);
            if d == 0 || score > best.0 {
                best = (score, d);
            }
        }
        *device = best.1;
        Ok(())
    })
}

/// Returns the preferred cache configuration for the current device.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetCacheConfig(pCacheConfig: *mut cudaFuncCache) -> cudaError_t {
    run(|| {
        // Written as the integer the driver gives (an enum place may hold any value in C).
        let p = out(pCacheConfig as *mut c_int)?;
        cu(rt::ctx()?.cuCtxGetCacheConfig(p))
    })
}

/// Returns the shared memory configuration for the current device.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetSharedMemConfig(pConfig: *mut cudaSharedMemConfig) -> cudaError_t {
    run(|| {
        let p = out(pConfig as *mut c_int)?;
        cu(rt::ctx()?.cuCtxGetSharedMemConfig(p))
    })
}

/// Returns a handle to a compute device.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetByPCIBusId(device: *mut c_int, pciBusId: *const c_char) -> cudaError_t {
    run(|| {
        let device = out(device)?;
        not_null(pciBusId, cudaError::cudaErrorInvalidValue)?;
        let mut dev = 0;
        cu(rt::fns()?.cuDeviceGetByPCIBusId(&mut dev, pciBusId))?;
        *device = dev;
        Ok(())
    })
}

/// Returns a PCI Bus Id string for the device.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetPCIBusId(pciBusId: *mut c_char, len: c_int, device: c_int) -> cudaError_t {
    run(|| {
        // NULL is refused before the device is looked at (measured on the H100).
        not_null(pciBusId, cudaError::cudaErrorInvalidValue)?;
        let dev = rt::check_device(device)?;
        cu(rt::fns()?.cuDeviceGetPCIBusId(pciBusId, len, dev))
    })
}

/// Queries attributes of the link between two devices.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetP2PAttribute(
    value: *mut c_int,
    attr: raw::cudaDeviceP2PAttr,
    srcDevice: c_int,
    dstDevice: c_int,
) -> cudaError_t {
    run(|| {
        let value = out(value)?;
        let src = rt::check_device(srcDevice)?;
        let dst = rt::check_device(dstDevice)?;
        cu(rt::fns()?.cuDeviceGetP2PAttribute(value, attr.0, src, dst))
    })
}

/// Queries details about atomic operations supported between two devices.
#[cfg(not(feature = "abi12"))]
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetP2PAtomicCapabilities(
    capabilities: *mut c_uint,
    operations: *const raw::cudaAtomicOperation,
    count: c_uint,
    srcDevice: c_int,
    dstDevice: c_int,
) -> cudaError_t {
    run(|| {
        not_null(capabilities, cudaError::cudaErrorInvalidValue)?;
        let src = rt::check_device(srcDevice)?;
        let dst = rt::check_device(dstDevice)?;
        cu(rt::fns()?.cuDeviceGetP2PAtomicCapabilities(capabilities, operations as *const c_int, count, src, dst))
    })
}

/// Queries details about atomic operations supported between the device and host.
#[cfg(not(feature = "abi12"))]
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetHostAtomicCapabilities(
    capabilities: *mut c_uint,
    operations: *const raw::cudaAtomicOperation,
    count: c_uint,
    device: c_int,
) -> cudaError_t {
    run(|| {
        // A NULL result array is refused before the device is looked at (measured on the H100).
        not_null(capabilities, cudaError::cudaErrorInvalidValue)?;
        let dev = rt::check_device(device)?;
        cu(rt::fns()?.cuDeviceGetHostAtomicCapabilities(capabilities, operations as *const c_int, count, dev))
    })
}

// The runtime's callback, notification and handle are the driver's (same layout and
// values), so the registration is the driver's own and its handle is what the caller gets.
/// Registers a callback function to receive async notifications.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceRegisterAsyncNotification(
    device: c_int,
    callbackFunc: cudaAsyncCallback,
    userData: *mut c_void,
    callback: *mut cudaAsyncCallbackHandle_t,
) -> cudaError_t {
    run(|| {
        let dev = rt::check_device(device)?;
        // A null handle pointer crashes NVIDIA's runtime (and the driver): refused here.
        out(callback)?;
        // SAFETY: same C signature, the notification struct has the same layout.
        let f = std::mem::transmute::<cudaAsyncCallback, driver::types::CUasyncCallback>(callbackFunc);
        cu(rt::fns()?.cuDeviceRegisterAsyncNotification(
            dev,
            f,
            userData,
            callback as *mut driver::types::CUasyncCallbackHandle,
        ))
    })
}

/// Unregisters an async notification callback.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceUnregisterAsyncNotification(
    device: c_int,
    callback: cudaAsyncCallbackHandle_t,
) -> cudaError_t {
    run(|| {
        let dev = rt::check_device(device)?;
        cu(rt::fns()?.cuDeviceUnregisterAsyncNotification(dev, callback as driver::types::CUasyncCallbackHandle))
    })
}

/// Exit and clean up from CUDA launches.
#[cfg(feature = "abi12")]
#[export(family = Device, sem = Reset)]
#[no_mangle]
pub unsafe extern "C" fn cudaThreadExit() -> cudaError_t {
    run(|| rt::reset_primary(rt::current_device()?))
}

/// Returns the preferred cache configuration for the current device.
#[cfg(feature = "abi12")]
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaThreadGetCacheConfig(pCacheConfig: *mut cudaFuncCache) -> cudaError_t {
    run(|| {
        let p = out(pCacheConfig as *mut c_int)?;
        cu(rt::ctx()?.cuCtxGetCacheConfig(p))
    })
}

// Every device since compute capability 1.3 computes in double precision: there is
// nothing to convert, and the pointer is not looked at (NVIDIA's 12.9.79 on the H100:
// "cudaSetDoubleForDevice(NULL): cudaSuccess", "cudaSetDoubleForHost(NULL): cudaSuccess").
/// Converts a double argument to be executed on a device.
#[cfg(feature = "abi12")]
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaSetDoubleForDevice(d: *mut f64) -> cudaError_t {
    let _ = d;
    run(|| Ok(()))
}

/// Converts a double argument after execution on a device.
#[cfg(feature = "abi12")]
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaSetDoubleForHost(d: *mut f64) -> cudaError_t {
    let _ = d;
    run(|| Ok(()))
}

/// Gets the flags for the current device.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaGetDeviceFlags(flags: *mut c_uint) -> cudaError_t {
    run(|| {
        let flags = out(flags)?;
        let f = rt::fns()?;
        let dev = rt::current_device()?;
        let (mut fl, mut active) = (0, 0);
        cu(f.cuDevicePrimaryCtxGetState(dev, &mut fl, &mut active))?;
        *flags = fl | cudaDeviceMapHost;
        Ok(())
    })
}

/// Returns information about the device.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetAttribute(
    value: *mut c_int,
    attr: raw::cudaDeviceAttr,
    device: c_int,
) -> cudaError_t {
    run(|| {
        let value = out(value)?;
        let dev = rt::check_device(device)?;
        cu(rt::fns()?.cuDeviceGetAttribute(value, attr.0, dev))
    })
}

/// Queries if a device may directly access a peer device's memory.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceCanAccessPeer(
    canAccessPeer: *mut c_int,
    device: c_int,
    peerDevice: c_int,
) -> cudaError_t {
    run(|| {
        // The ordinals first, then the out pointer (NVIDIA's order: a NULL pointer with an
        // unknown peer is cudaErrorInvalidDevice; measured on four H200s, multi_peer).
        let dev = rt::check_device(device)?;
        let peer = rt::check_device(peerDevice)?;
        let can = out(canAccessPeer)?;
        if dev == peer {
            *can = 0;
            return Ok(());
        }
        cu(rt::fns()?.cuDeviceCanAccessPeer(can, dev, peer))
    })
}

/// Enables direct access to memory allocations on a peer device.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceEnablePeerAccess(peerDevice: c_int, flags: c_uint) -> cudaError_t {
    run(|| {
        let peer = peer_context(peerDevice, cudaError::cudaErrorPeerAccessUnsupported)?;
        if flags != 0 {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        cu(rt::ctx()?.cuCtxEnablePeerAccess(peer, 0))
    })
}

/// Disables direct access to memory allocations on a peer device.
#[export(family = Device)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceDisablePeerAccess(peerDevice: c_int) -> cudaError_t {
    run(|| {
        let peer = peer_context(peerDevice, cudaError::cudaErrorPeerAccessNotEnabled)?;
        cu(rt::ctx()?.cuCtxDisablePeerAccess(peer))
    })
}

/// The primary context of a peer device; `same` is NVIDIA's error when it is the current one.
fn peer_context(peer: c_int, same: cudaError) -> boundary::Res<crate::driver::types::CUcontext> {
    let peer = rt::check_device(peer)?;
    if peer == rt::current_device()? {
        return Err(same);
    }
    rt::primary(peer)
}
