//! Stream-ordered allocation and memory pools: `cudaMallocAsync`, `cudaFreeAsync`,
//! `cudaMallocFromPoolAsync`, the `cudaMemPool*` functions, the current and default pools of a
//! device (and in CUDA 13 of any location and allocation type).
//!
//! A `cudaMemPool_t` is the driver's `CUmemoryPool`, and the runtime's pool types have the
//! driver's layouts and values (`cudaMemPoolProps`/`CUmemPoolProps`, `cudaMemAccessDesc`/
//! `CUmemAccessDesc`, `cudaMemLocation`/`CUmemLocation`, the attribute, access-flag,
//! allocation-type and handle-type enums), so every call goes to the driver with its arguments
//! as they are, as NVIDIA's runtime does: the attribute values (`int` for the reuse policies,
//! `cuuint64_t` for the thresholds and counters), locations and handle types are the driver's
//! to judge. The runtime adds only:
//! - a NULL pointer out-argument of the allocations is `cudaErrorInvalidValue` before
//!   anything else (the driver is not called);
//! - `cudaDeviceGetDefaultMemPool` checks the device ordinal first (`cudaErrorInvalidDevice`);
//!   the other device-taking calls leave it to the driver;
//! - `cudaMemPoolSetAccess` copies the descriptors first (so a count the host cannot hold a
//!   copy of is `cudaErrorMemoryAllocation`, and a count of 0 never hands the driver NULL);
//! - the allocations, frees and batched operations run with a context current (the caller's,
//!   else the primary context of the thread's device); the pool calls need none.
//!
//! [`cu_pool_props`], [`cu_access_desc`] and [`malloc_async`]/[`free_async`] are shared with
//! the graph memory nodes.
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_int, c_uint, c_void};

use crate::api::memory::cu_location;
use crate::driver::types::*;
use crate::driver::Fns;
use crate::runtime::boundary::{cu, not_null, out, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

/// Descriptors `cudaMemPoolSetAccess` copies on the stack; more go to the heap.
const ACCESS_ON_STACK: usize = 32;

#[inline(always)]
fn dptr(p: *const c_void) -> CUdeviceptr {
    p as usize as CUdeviceptr
}

/// Pool properties' reserved bytes, the runtime's for the driver's or the other way: as many as
/// both have, copied; a byte only the driver's have (CUDA 13's, where the runtime's has
/// `reserved1`), zero.
fn reserved<const N: usize>(r: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    let n = N.min(r.len());
    out[..n].copy_from_slice(&r[..n]);
    out
}

/// The driver's pool properties for the runtime's (same layout and values; every field is
/// copied as the caller wrote it, the reserved bytes too, but for CUDA 13.5's `reserved1`,
/// which NVIDIA's 13.5 runtime does not pass on: any value is accepted, the H100,
/// ctest/cu_decl135.cu).
pub(crate) fn cu_pool_props(p: &cudaMemPoolProps) -> CUmemPoolProps {
    CUmemPoolProps {
        allocType: p.allocType.0,
        handleTypes: p.handleTypes.0,
        location: cu_location(p.location),
        win32SecurityAttributes: p.win32SecurityAttributes,
        maxSize: p.maxSize,
        usage: p.usage,
        reserved: reserved(&p.reserved),
    }
}

/// The runtime's pool properties for the driver's ([`cu_pool_props`] the other way).
pub(crate) fn pool_props_back(p: &CUmemPoolProps) -> cudaMemPoolProps {
    cudaMemPoolProps {
        allocType: raw::cudaMemAllocationType(p.allocType),
        handleTypes: raw::cudaMemAllocationHandleType(p.handleTypes),
        location: cudaMemLocation { r#type: raw::cudaMemLocationType(p.location.type_), id: p.location.id },
        win32SecurityAttributes: p.win32SecurityAttributes,
        maxSize: p.maxSize,
        usage: p.usage,
        reserved: reserved(&p.reserved),
        #[cfg(not(feature = "abi12"))]
        reserved1: 0,
    }
}

/// The driver's access descriptor for the runtime's (same layout and values).
#[inline]
pub(crate) fn cu_access_desc(d: &cudaMemAccessDesc) -> CUmemAccessDesc {
    CUmemAccessDesc { location: cu_location(d.location), flags: d.flags.0 }
}

/// Inserts an allocation of `size` bytes from the current pool of the stream's device into
/// `stream` (a capturing stream gets an allocation node); the driver writes the address
/// through `devPtr` (NULL is the caller's check). A size of 0 is the driver's to judge.
pub(crate) fn malloc_async(f: &Fns, devPtr: *mut *mut c_void, size: usize, stream: cudaStream_t) -> Res {
    // SAFETY: the driver writes one CUdeviceptr (the size of a pointer) through devPtr.
    cu(unsafe { f.cuMemAllocAsync(devPtr.cast::<CUdeviceptr>(), size, stream) })
}

/// Inserts an allocation of `size` bytes from `pool` into `stream` (see [`malloc_async`]).
pub(crate) fn malloc_from_pool_async(
    f: &Fns,
    devPtr: *mut *mut c_void,
    size: usize,
    pool: cudaMemPool_t,
    stream: cudaStream_t,
) -> Res {
    // SAFETY: as in `malloc_async`; the driver checks the pool handle.
    cu(unsafe { f.cuMemAllocFromPoolAsync(devPtr.cast::<CUdeviceptr>(), size, pool, stream) })
}

/// Inserts a free of `devPtr` into `stream` (a capturing stream gets a free node). NULL and
/// pointers that are not stream-ordered allocations are the driver's to judge.
pub(crate) fn free_async(f: &Fns, devPtr: *mut c_void, stream: cudaStream_t) -> Res {
    // SAFETY: plain driver call.
    cu(unsafe { f.cuMemFreeAsync(dptr(devPtr), stream) })
}

/// Allocates memory with stream ordered semantics
#[export(family = Memory, per_thread = ptsz, sem = Malloc(Async, devPtr))]
#[no_mangle]
pub unsafe extern "C" fn cudaMallocAsync(devPtr: *mut *mut c_void, size: usize, hStream: cudaStream_t) -> cudaError_t {
    run(|| {
        out(devPtr)?;
        malloc_async(rt::ctx()?, devPtr, size, hStream)
    })
}

/// Frees memory with stream ordered semantics
#[export(family = Memory, per_thread = ptsz, sem = Free([Device, Pitched, Device3D, Async, Managed], devPtr))]
#[no_mangle]
pub unsafe extern "C" fn cudaFreeAsync(devPtr: *mut c_void, hStream: cudaStream_t) -> cudaError_t {
    run(|| free_async(rt::ctx()?, devPtr, hStream))
}

/// Allocates memory from a specified pool with stream ordered semantics.
#[export(family = Memory, per_thread = ptsz, sem = Malloc(Async, ptr))]
#[no_mangle]
pub unsafe extern "C" fn cudaMallocFromPoolAsync(
    ptr: *mut *mut c_void,
    size: usize,
    memPool: cudaMemPool_t,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| {
        out(ptr)?;
        malloc_from_pool_async(rt::ctx()?, ptr, size, memPool, stream)
    })
}

passthrough! {
    cudaMemPoolTrimTo(memPool: cudaMemPool_t, minBytesToKeep: usize)
        = fns.cuMemPoolTrimTo(memPool, minBytesToKeep) [family = Memory] "Tries to release memory back to the OS";
    cudaMemPoolGetAttribute(memPool: cudaMemPool_t, attr: raw::cudaMemPoolAttr, value: *mut c_void)
        = fns.cuMemPoolGetAttribute(memPool, attr.0, value) [family = Memory] "Gets attributes of a memory pool";
    cudaMemPoolDestroy(memPool: cudaMemPool_t)
        = fns.cuMemPoolDestroy(memPool) [family = Memory, sem = Destroy(Pool, memPool)]
        "Destroys the specified memory pool";
    cudaDeviceGetMemPool(memPool: *mut cudaMemPool_t, device: c_int)
        = fns.cuDeviceGetMemPool(memPool, device) [family = Memory] "Gets the current mempool for a device";
    #[cfg(not(feature = "abi12"))]
    cudaMemGetMemPool(memPool: *mut cudaMemPool_t, location: *mut cudaMemLocation, r#type: raw::cudaMemAllocationType)
        = fns.cuMemGetMemPool(memPool, location.cast::<CUmemLocation>(), r#type.0) [family = Memory]
        "Gets the current memory pool for a given memory location and allocation type";
    #[cfg(not(feature = "abi12"))]
    cudaMemSetMemPool(location: *mut cudaMemLocation, r#type: raw::cudaMemAllocationType, memPool: cudaMemPool_t)
        = fns.cuMemSetMemPool(location.cast::<CUmemLocation>(), r#type.0, memPool) [family = Memory]
        "Sets the current memory pool for a memory location and allocation type";
}

// NVIDIA's runtime hands a NULL value pointer to the driver, which crashes on it; here it is
// cudaErrorInvalidValue, as the driver answers for a NULL pointer to read into.
/// Sets attributes of a memory pool
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemPoolSetAttribute(
    memPool: cudaMemPool_t,
    attr: raw::cudaMemPoolAttr,
    value: *mut c_void,
) -> cudaError_t {
    // The attribute values are the driver's, and so is the size of each value.
    run(|| {
        let f = rt::fns()?;
        not_null(value, cudaError::cudaErrorInvalidValue)?;
        cu(f.cuMemPoolSetAttribute(memPool, attr.0, value))
    })
}

// NVIDIA's runtime reads the descriptors before it calls the driver, so NULL with a count
// other than 0 crashes it; here it is cudaErrorInvalidValue.
/// Controls visibility of pools between devices
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemPoolSetAccess(
    memPool: cudaMemPool_t,
    descList: *const cudaMemAccessDesc,
    count: usize,
) -> cudaError_t {
    run(|| {
        let f = rt::fns()?;
        let mut stack = [CUmemAccessDesc::default(); ACCESS_ON_STACK];
        let mut heap = Vec::new();
        let descs: &mut [CUmemAccessDesc] = if count <= ACCESS_ON_STACK {
            &mut stack[..count]
        } else {
            heap.try_reserve_exact(count).map_err(|_| cudaError::cudaErrorMemoryAllocation)?;
            heap.resize(count, CUmemAccessDesc::default());
            &mut heap
        };
        if count > 0 {
            not_null(descList, cudaError::cudaErrorInvalidValue)?;
            // SAFETY: the caller's array of `count` descriptors.
            let src = unsafe { std::slice::from_raw_parts(descList, count) };
            for (d, s) in descs.iter_mut().zip(src) {
                *d = cu_access_desc(s);
            }
        }
        // A count of 0 hands the driver the (empty) copy on the stack, never NULL.
        cu(f.cuMemPoolSetAccess(memPool, descs.as_ptr(), count))
    })
}

/// Returns the accessibility of a pool from a device
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemPoolGetAccess(
    flags: *mut raw::cudaMemAccessFlags,
    memPool: cudaMemPool_t,
    location: *mut cudaMemLocation,
) -> cudaError_t {
    run(|| {
        let f = rt::fns()?;
        let mut fl: CUmemAccess_flags = 0;
        cu(f.cuMemPoolGetAccess(&mut fl, memPool, location.cast::<CUmemLocation>()))?;
        // NVIDIA's runtime writes the answer without looking at the pointer (NULL crashes it).
        out(flags)?.0 = fl;
        Ok(())
    })
}

/// Creates a memory pool
#[export(family = Memory, sem = Create(Pool, memPool))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemPoolCreate(
    memPool: *mut cudaMemPool_t,
    poolProps: *const cudaMemPoolProps,
) -> cudaError_t {
    run(|| {
        let f = rt::fns()?;
        // NULL properties go to the driver as NULL.
        // SAFETY: the caller's properties, when given.
        let props = unsafe { poolProps.as_ref() }.map(cu_pool_props);
        let p = props.as_ref().map_or(std::ptr::null(), |p| p as *const CUmemPoolProps);
        cu(f.cuMemPoolCreate(memPool, p))
    })
}

/// Exports a memory pool to the requested handle type.
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemPoolExportToShareableHandle(
    shareableHandle: *mut c_void,
    memPool: cudaMemPool_t,
    handleType: raw::cudaMemAllocationHandleType,
    flags: c_uint,
) -> cudaError_t {
    run(|| cu(rt::fns()?.cuMemPoolExportToShareableHandle(shareableHandle, memPool, handleType.0, u64::from(flags))))
}

/// imports a memory pool from a shared handle.
#[export(family = Memory, sem = Create(Pool, memPool))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemPoolImportFromShareableHandle(
    memPool: *mut cudaMemPool_t,
    shareableHandle: *mut c_void,
    handleType: raw::cudaMemAllocationHandleType,
    flags: c_uint,
) -> cudaError_t {
    run(|| cu(rt::fns()?.cuMemPoolImportFromShareableHandle(memPool, shareableHandle, handleType.0, u64::from(flags))))
}

/// Export data to share a memory pool allocation between processes.
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemPoolExportPointer(
    exportData: *mut cudaMemPoolPtrExportData,
    ptr: *mut c_void,
) -> cudaError_t {
    run(|| cu(rt::fns()?.cuMemPoolExportPointer(exportData.cast::<CUmemPoolPtrExportData>(), dptr(ptr))))
}

/// Import a memory pool allocation from another process.
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemPoolImportPointer(
    ptr: *mut *mut c_void,
    memPool: cudaMemPool_t,
    exportData: *mut cudaMemPoolPtrExportData,
) -> cudaError_t {
    run(|| {
        cu(rt::fns()?.cuMemPoolImportPointer(
            ptr.cast::<CUdeviceptr>(),
            memPool,
            exportData.cast::<CUmemPoolPtrExportData>(),
        ))
    })
}

/// Returns the default mempool of a device
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetDefaultMemPool(memPool: *mut cudaMemPool_t, device: c_int) -> cudaError_t {
    run(|| {
        let dev = rt::check_device(device)?;
        cu(rt::fns()?.cuDeviceGetDefaultMemPool(memPool, dev))
    })
}

/// Sets the current memory pool of a device
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceSetMemPool(device: c_int, memPool: cudaMemPool_t) -> cudaError_t {
    // The ordinal goes to the driver unchecked, as in NVIDIA's runtime.
    run(|| cu(rt::fns()?.cuDeviceSetMemPool(device, memPool)))
}

/// Returns the default memory pool for a given location and allocation type
#[cfg(not(feature = "abi12"))]
#[export(family = Memory)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemGetDefaultMemPool(
    memPool: *mut cudaMemPool_t,
    location: *mut cudaMemLocation,
    r#type: raw::cudaMemAllocationType,
) -> cudaError_t {
    run(|| cu(rt::fns()?.cuMemGetDefaultMemPool(memPool, location.cast::<CUmemLocation>(), r#type.0)))
}

/// The runtime's and the driver's pool types are the same bytes: checked field by field, so
/// that the pointers passed through above stay right.
const _: () = {
    same_layout! {
        cudaMemPoolProps = CUmemPoolProps: location, win32SecurityAttributes, maxSize, usage, reserved;
        cudaMemAccessDesc = CUmemAccessDesc: flags;
        cudaMemLocation = CUmemLocation: id;
        cudaMemPoolPtrExportData = CUmemPoolPtrExportData;
        cudaMemPool_t = CUmemoryPool;
        raw::cudaMemAccessFlags = CUmemAccess_flags;
    }
    // The enums' values are the driver's.
    assert!(cudaMemPoolAttr::cudaMemPoolReuseFollowEventDependencies as c_int == 1);
    assert!(cudaMemPoolAttr::cudaMemPoolAttrUsedMemHigh as c_int == 8);
    assert!(cudaMemAccessFlags::cudaMemAccessFlagsProtReadWrite as c_int == 3);
    assert!(cudaMemAllocationType::cudaMemAllocationTypePinned as c_int == 1);
    assert!(cudaMemAllocationHandleType::cudaMemHandleTypePosixFileDescriptor as c_int == 1);
    assert!(cudaMemAllocationHandleType::cudaMemHandleTypeFabric as c_int == 8);
    assert!(cudaMemLocationType::cudaMemLocationTypeDevice as c_int == CU_MEM_LOCATION_TYPE_DEVICE);
    assert!(cudaMemLocationType::cudaMemLocationTypeHost as c_int == CU_MEM_LOCATION_TYPE_HOST);
    assert!(cudaMemLocationType::cudaMemLocationTypeHostNuma as c_int == CU_MEM_LOCATION_TYPE_HOST_NUMA);
    assert!(cudaMemLocationType::cudaMemLocationTypeHostNumaCurrent as c_int == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT);
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_props_are_copied_field_by_field() {
        #[cfg(feature = "abi12")]
        let mut r = [0u8; 54];
        #[cfg(not(feature = "abi12"))]
        let mut r = [0u8; 53];
        r[0] = 7;
        r[52] = 9;
        let p = cudaMemPoolProps {
            allocType: raw::cudaMemAllocationType(1),
            handleTypes: raw::cudaMemAllocationHandleType(9),
            location: cudaMemLocation { r#type: raw::cudaMemLocationType(3), id: 5 },
            win32SecurityAttributes: 0x1234 as *mut c_void,
            maxSize: 1 << 30,
            usage: 2,
            reserved: r,
            #[cfg(not(feature = "abi12"))]
            reserved1: 5,
        };
        let c = cu_pool_props(&p);
        assert_eq!((c.allocType, c.handleTypes, c.location.type_, c.location.id), (1, 9, 3, 5));
        assert_eq!((c.win32SecurityAttributes as usize, c.maxSize, c.usage), (0x1234, 1 << 30, 2));
        assert_eq!(c.reserved[..r.len()], r);
        // Same bytes as the runtime's struct, padding aside (13.5's reserved1 is not passed on).
        // SAFETY: both are plain 88-byte structs.
        let (a, b) = unsafe {
            (std::mem::transmute::<cudaMemPoolProps, [u8; 88]>(p), std::mem::transmute::<CUmemPoolProps, [u8; 88]>(c))
        };
        assert_eq!(a[..4], b[..4]);
        assert_eq!(a[8..87], b[8..87]);
        #[cfg(not(feature = "abi12"))]
        assert_eq!((a[87], b[87]), (5, 0));
        assert_eq!(pool_props_back(&c).reserved, r);
    }

    #[test]
    fn access_descs_keep_any_value() {
        let d = cudaMemAccessDesc {
            location: cudaMemLocation { r#type: raw::cudaMemLocationType(99), id: -7 },
            flags: raw::cudaMemAccessFlags(2),
        };
        let c = cu_access_desc(&d);
        assert_eq!((c.location.type_, c.location.id, c.flags), (99, -7, 2));
    }
}
