//! Memory management exports: device, pitched, managed and page-locked host allocations,
//! host registration, unified memory advice, prefetch and range queries, pointer attributes.
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_int, c_uint, c_void};
use std::ptr::null_mut;

use crate::driver::types::*;
use crate::runtime::boundary::{cu, not_null, out, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

/// The element size handed to `cuMemAllocPitch` (by `cudaMallocPitch` and `cudaMalloc3D`):
/// 4, as NVIDIA's runtimes pass (13.0.96 and 12.9.79: `cuMemAllocPitch_v2(.., width,
/// height * depth, 4)`), so the driver is asked for exactly what NVIDIA's runtime asks.
pub(crate) const PITCH_ELEMENT_SIZE: c_uint = 4;

#[inline(always)]
fn dptr(p: *const c_void) -> CUdeviceptr {
    p as usize as CUdeviceptr
}

/// Allocate memory on the device.
#[export(family = Memory, sem = Malloc(Device, devPtr))]
#[no_mangle]
pub unsafe extern "C" fn cudaMalloc(devPtr: *mut *mut c_void, size: usize) -> cudaError_t {
    run(|| {
        let p = out(devPtr)?;
        let f = rt::ctx()?;
        if size == 0 {
            *p = null_mut();
            return Ok(());
        }
        let mut d: CUdeviceptr = 0;
        cu(f.cuMemAlloc(&mut d, size))?;
        *p = d as usize as *mut c_void;
        Ok(())
    })
}

// The frees and (un)registrations hand every argument to the driver unchecked, NULL and
// unknown flags included, as NVIDIA's runtime does: the driver judges them (it accepts a NULL
// free on a healthy context), and on a faulted context it reports the fault first (measured
// on the H100, `ctest/sticky_fault.c`).
passthrough! {
    cudaFree(devPtr: *mut c_void)
        = ctx.cuMemFree(dptr(devPtr)) [family = Memory, sem = Free([Device, Pitched, Device3D, Async, Managed], devPtr)]
        "Frees memory on the device.";
    cudaFreeHost(ptr: *mut c_void)
        = ctx.cuMemFreeHost(ptr) [family = Memory, sem = Free([Pinned], ptr)] "Frees page-locked memory.";
    cudaHostRegister(ptr: *mut c_void, size: usize, flags: c_uint)
        = ctx.cuMemHostRegister(ptr, size, flags) [family = Memory, sem = HostRegister, flags = HostRegister]
        "Registers an existing host memory range for use by CUDA.";
    cudaHostUnregister(ptr: *mut c_void)
        = ctx.cuMemHostUnregister(ptr) [family = Memory, sem = Free([Registered], ptr)]
        "Unregisters a memory range that was registered with cudaHostRegister.";
    #[cfg(not(feature = "abi12"))]
    cudaMemGetLocationInfo(devPtr: *mut c_void, size: usize, summaryGranularity: usize, samplingGranularity: usize,
        location_out: *mut cudaMemLocation)
        = ctx.cuMemGetLocationInfo(devPtr as u64, size, summaryGranularity, samplingGranularity,
        location_out.cast::<CUmemLocation>())
        [family = Memory, since = 13.5] "Where a range of memory resides (`cudaMemLocation` has the driver's layout).";
}

/// Allocates pitched memory on the device.
#[export(family = Memory, sem = MallocPitch)]
#[no_mangle]
pub unsafe extern "C" fn cudaMallocPitch(
    devPtr: *mut *mut c_void,
    pitch: *mut usize,
    width: usize,
    height: usize,
) -> cudaError_t {
    run(|| {
        let p = out(devPtr)?;
        let pitch = out(pitch)?;
        let f = rt::ctx()?;
        if width == 0 || height == 0 {
            *p = null_mut();
            *pitch = 0;
            return Ok(());
        }
        let mut d: CUdeviceptr = 0;
        // The driver writes the caller's `*pitch` itself, also when it refuses the allocation (the
        // width rounded up, wrapping), and NVIDIA's runtime leaves that there (seen on an H200
        // under 13.0.96: ctest/driver_refusals.c).
        cu(f.cuMemAllocPitch(&mut d, pitch, width, height, PITCH_ELEMENT_SIZE))?;
        *p = d as usize as *mut c_void;
        Ok(())
    })
}

/// Allocates memory that will be automatically managed by the Unified Memory system.
#[export(family = Memory, sem = Malloc(Managed, devPtr), flags = Attach)]
#[no_mangle]
pub unsafe extern "C" fn cudaMallocManaged(devPtr: *mut *mut c_void, size: usize, flags: c_uint) -> cudaError_t {
    run(|| {
        let p = out(devPtr)?;
        let f = rt::ctx()?;
        // Size 0 gives NULL whatever the flags; the driver judges the flags otherwise.
        if size == 0 {
            *p = null_mut();
            return Ok(());
        }
        cu(f.cuMemAllocManaged((p as *mut *mut c_void).cast(), size, flags))
    })
}

/// Allocates page-locked memory on the host.
#[export(family = Memory, sem = Malloc(Pinned, ptr))]
#[no_mangle]
pub unsafe extern "C" fn cudaMallocHost(ptr: *mut *mut c_void, size: usize) -> cudaError_t {
    run(|| {
        // As NVIDIA's runtime: the context first; the out pointer is the driver's to check
        // unless the size is 0. The allocation is `cudaHostAlloc`'s with no flags: NVIDIA's
        // runtimes call `cuMemHostAlloc(ptr, size, 0)` here (13.0.96 and 12.9.79), not
        // `cuMemAllocHost`.
        let f = rt::ctx()?;
        if size == 0 {
            *out(ptr)? = null_mut();
            return Ok(());
        }
        cu(f.cuMemHostAlloc(ptr, size, 0))
    })
}

/// Allocates page-locked memory on the host.
#[export(family = Memory, sem = Malloc(Pinned, pHost), flags = HostAlloc)]
#[no_mangle]
pub unsafe extern "C" fn cudaHostAlloc(pHost: *mut *mut c_void, size: usize, flags: c_uint) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        // Size 0 gives NULL before the flags are looked at; otherwise the driver judges them.
        if size == 0 {
            *out(pHost)? = null_mut();
            return Ok(());
        }
        cu(f.cuMemHostAlloc(pHost, size, flags))
    })
}

/// Passes back device pointer of mapped host memory allocated by cudaHostAlloc or registered
/// by cudaHostRegister.
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaHostGetDevicePointer(
    pDevice: *mut *mut c_void,
    pHost: *mut c_void,
    flags: c_uint,
) -> cudaError_t {
    run(|| {
        // As NVIDIA's runtime: a host pointer given (before the context), the context, then
        // the driver judges the out pointer and the flags.
        not_null(pHost, cudaError::cudaErrorInvalidValue)?;
        let f = rt::ctx()?;
        cu(f.cuMemHostGetDevicePointer(pDevice.cast::<CUdeviceptr>(), pHost, flags))
    })
}

/// Passes back flags used to allocate pinned host memory allocated by cudaHostAlloc.
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaHostGetFlags(pFlags: *mut c_uint, pHost: *mut c_void) -> cudaError_t {
    run(|| {
        let p = out(pFlags)?;
        let f = rt::ctx()?;
        let mut fl: c_uint = 0;
        cu(f.cuMemHostGetFlags(&mut fl, pHost))?;
        *p = fl;
        Ok(())
    })
}

/// Gets free and total device memory.
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemGetInfo(free: *mut usize, total: *mut usize) -> cudaError_t {
    run(|| {
        // Either pointer may be NULL: both go to the driver as given.
        let f = rt::ctx()?;
        cu(f.cuMemGetInfo(free, total))
    })
}

/// The driver location of a runtime location (same layout and values).
#[inline(always)]
pub(crate) fn cu_location(l: cudaMemLocation) -> CUmemLocation {
    CUmemLocation { type_: l.r#type.0, id: l.id }
}

/// The location a CUDA 12 device argument names, for a driver without the CUDA 8 entry
/// points: `cudaCpuDeviceId` is the host, anything else a device ordinal (which the driver
/// judges).
#[cfg(feature = "abi12")]
fn device_location(device: c_int) -> CUmemLocation {
    if device == cudaCpuDeviceId {
        return CUmemLocation { type_: CU_MEM_LOCATION_TYPE_HOST, id: 0 };
    }
    CUmemLocation { type_: CU_MEM_LOCATION_TYPE_DEVICE, id: device }
}

// Advice and prefetches go to the driver as they are, after the context: NVIDIA's runtime
// checks none of their arguments (the advice value, the device or location, the pointer and
// size are the driver's errors, after a fault of the context), as its library shows and the
// H100 confirms (`ctest/difftest`). The CUDA 12 forms that take a device ordinal call the
// driver's CUDA 8 entry points with it.
fn advise(devPtr: *const c_void, count: usize, advice: raw::cudaMemoryAdvise, loc: CUmemLocation) -> Res {
    let f = rt::ctx()?;
    // SAFETY: plain driver call.
    cu(unsafe { f.cuMemAdvise_v2(dptr(devPtr), count, advice.0, loc) })
}

/// Advise about the usage of a given memory range.
#[cfg(not(feature = "abi12"))]
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemAdvise(
    devPtr: *const c_void,
    count: usize,
    advice: raw::cudaMemoryAdvise,
    location: cudaMemLocation,
) -> cudaError_t {
    run(|| advise(devPtr, count, advice, cu_location(location)))
}

/// Advise about the usage of a given memory range.
#[cfg(feature = "abi12")]
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemAdvise(
    devPtr: *const c_void,
    count: usize,
    advice: raw::cudaMemoryAdvise,
    device: c_int,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let r = f.cuMemAdvise_v1(dptr(devPtr), count, advice.0, device);
        if r == crate::driver::MISSING_ENTRY_POINT {
            // A driver without the CUDA 8 form: the location form.
            return cu(f.cuMemAdvise_v2(dptr(devPtr), count, advice.0, device_location(device)));
        }
        cu(r)
    })
}

/// Advise about the usage of a given memory range.
#[cfg(feature = "abi12")]
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemAdvise_v2(
    devPtr: *const c_void,
    count: usize,
    advice: raw::cudaMemoryAdvise,
    location: cudaMemLocation,
) -> cudaError_t {
    run(|| advise(devPtr, count, advice, cu_location(location)))
}

fn prefetch(devPtr: *const c_void, count: usize, loc: CUmemLocation, flags: c_uint, stream: cudaStream_t) -> Res {
    let f = rt::ctx()?;
    // SAFETY: plain driver call; the stream is the caller's handle (0 is the null stream of
    // the table `ctx` chose).
    cu(unsafe { f.cuMemPrefetchAsync_v2(dptr(devPtr), count, loc, flags, stream) })
}

/// Prefetches memory to the specified destination location.
#[cfg(not(feature = "abi12"))]
#[export(family = Memory, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemPrefetchAsync(
    devPtr: *const c_void,
    count: usize,
    location: cudaMemLocation,
    flags: c_uint,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| prefetch(devPtr, count, cu_location(location), flags, stream))
}

/// Prefetches memory to the specified destination device.
#[cfg(feature = "abi12")]
#[export(family = Memory, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemPrefetchAsync(
    devPtr: *const c_void,
    count: usize,
    dstDevice: c_int,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let r = f.cuMemPrefetchAsync_v1(dptr(devPtr), count, dstDevice, stream);
        if r == crate::driver::MISSING_ENTRY_POINT {
            // A driver without the CUDA 8 form: the location form.
            return cu(f.cuMemPrefetchAsync_v2(dptr(devPtr), count, device_location(dstDevice), 0, stream));
        }
        cu(r)
    })
}

/// Prefetches memory to the specified destination location.
#[cfg(feature = "abi12")]
#[export(family = Memory, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemPrefetchAsync_v2(
    devPtr: *const c_void,
    count: usize,
    location: cudaMemLocation,
    flags: c_uint,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| prefetch(devPtr, count, cu_location(location), flags, stream))
}

/// Query an attribute of a given memory range.
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemRangeGetAttribute(
    data: *mut c_void,
    dataSize: usize,
    attribute: raw::cudaMemRangeAttribute,
    devPtr: *const c_void,
    count: usize,
) -> cudaError_t {
    run(|| {
        // As NVIDIA's runtime: no context is made current; the driver checks everything.
        let f = rt::fns()?;
        // The runtime's attribute values are the driver's.
        cu(f.cuMemRangeGetAttribute(data, dataSize, attribute.0, dptr(devPtr), count))
    })
}

/// Query attributes of a given memory range.
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemRangeGetAttributes(
    data: *mut *mut c_void,
    dataSizes: *mut usize,
    attributes: *mut raw::cudaMemRangeAttribute,
    numAttributes: usize,
    devPtr: *const c_void,
    count: usize,
) -> cudaError_t {
    run(|| {
        // As NVIDIA's runtime: no context is made current; the driver checks everything.
        let f = rt::fns()?;
        // `raw::cudaMemRangeAttribute` is a transparent int with the driver's values.
        cu(f.cuMemRangeGetAttributes(
            data,
            dataSizes,
            attributes.cast::<CUmem_range_attribute>(),
            numAttributes,
            dptr(devPtr),
            count,
        ))
    })
}

// As NVIDIA's runtime: six attributes in one driver call (the context too, unused); the
// driver's memory type, made managed where the driver says the memory is, and its device
// ordinal, as they are. Pool allocations get no other treatment than any memory (the driver
// tells their type and device). A memory type other than unregistered, host or device, or a
// failing driver call, leaves the struct zeroed with device -1 and fails
// (cudaErrorInvalidValue for the type).
/// Returns attributes about a specified pointer.
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaPointerGetAttributes(
    attributes: *mut cudaPointerAttributes,
    ptr: *const c_void,
) -> cudaError_t {
    run(|| {
        let a = out(attributes)?;
        // As NVIDIA's runtime: no context is made current (the driver answers without one).
        let f = rt::fns()?;
        let mut context: CUcontext = null_mut();
        let mut mem_type: c_uint = 0;
        let mut dev_ptr: CUdeviceptr = 0;
        let mut host_ptr: *mut c_void = null_mut();
        let mut managed: c_uint = 0;
        let mut ordinal: c_int = cudaInvalidDeviceId;
        let mut attrs: [CUpointer_attribute; 6] = [
            CU_POINTER_ATTRIBUTE_CONTEXT,
            CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
            CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
            CU_POINTER_ATTRIBUTE_HOST_POINTER,
            CU_POINTER_ATTRIBUTE_IS_MANAGED,
            CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
        ];
        let mut data: [*mut c_void; 6] = [
            (&mut context as *mut CUcontext).cast(),
            (&mut mem_type as *mut c_uint).cast(),
            (&mut dev_ptr as *mut CUdeviceptr).cast(),
            (&mut host_ptr as *mut *mut c_void).cast(),
            (&mut managed as *mut c_uint).cast(),
            (&mut ordinal as *mut c_int).cast(),
        ];
        let r = cu(f.cuPointerGetAttributes(6, attrs.as_mut_ptr(), data.as_mut_ptr(), dptr(ptr)));
        let ty = match (r, mem_type as CUmemorytype) {
            (Ok(()), 0) => cudaMemoryType::cudaMemoryTypeUnregistered,
            (Ok(()), CU_MEMORYTYPE_HOST | CU_MEMORYTYPE_DEVICE) if managed != 0 => {
                cudaMemoryType::cudaMemoryTypeManaged
            }
            (Ok(()), CU_MEMORYTYPE_HOST) => cudaMemoryType::cudaMemoryTypeHost,
            (Ok(()), CU_MEMORYTYPE_DEVICE) => cudaMemoryType::cudaMemoryTypeDevice,
            (r, _) => {
                a.r#type = cudaMemoryType::cudaMemoryTypeUnregistered;
                a.device = -1;
                a.devicePointer = null_mut();
                a.hostPointer = null_mut();
                #[cfg(not(feature = "abi12"))]
                {
                    (a.localityDomainOrdinal, a.unused_high, a.reserved) = (0, 0, [0; 7]);
                }
                return Err(r.err().unwrap_or(cudaError::cudaErrorInvalidValue));
            }
        };
        a.r#type = ty;
        a.device = ordinal;
        a.devicePointer = dev_ptr as usize as *mut c_void;
        a.hostPointer = host_ptr;
        // CUDA 13.5's locality domain: -1, not localized (what NVIDIA's 13.5 runtime reports on
        // the 13.0 driver, whose devices have no locality domains).
        #[cfg(not(feature = "abi12"))]
        {
            (a.localityDomainOrdinal, a.unused_high, a.reserved) = (-1, 0, [0; 7]);
        }
        Ok(())
    })
}
