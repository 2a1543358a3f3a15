//! External resource interoperability: memory and synchronization objects imported from other
//! APIs (POSIX file descriptors of Vulkan or CUDA allocations, Win32 and Direct3D handles,
//! NvSci objects). Handles are the driver's (`cudaExternalMemory_t` is a `CUexternalMemory`,
//! `cudaExternalSemaphore_t` a `CUexternalSemaphore`); the runtime's descriptors are converted
//! to the driver's, whose enum values are the same. Signal and wait parameters have the
//! driver's layout and go to it as they are, but for the CUDA 12 ABI's original forms, whose
//! CUDA 11.1 parameters lack the reserved words.
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_int, c_uint, c_void};
use std::ptr::null_mut;

use crate::driver::types::*;
use crate::engine::formats::to_cu_format;
use crate::runtime::boundary::{cu, not_null, out, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

/// A caller's descriptor; null is `cudaErrorInvalidValue`.
fn read<'a, T>(p: *const T) -> Res<&'a T> {
    // SAFETY: the caller's pointer; null is rejected.
    unsafe { p.as_ref() }.ok_or(cudaError::cudaErrorInvalidValue)
}

/// The reserved words of a descriptor go to the driver as the caller wrote them (they must be
/// zero): CUDA 13's descriptors have them, CUDA 12's do not. (Not a memory or buffer
/// descriptor's: see `memory_handle_desc` and `cudaExternalMemoryGetMappedBuffer`.)
macro_rules! reserved {
    ($d:expr) => {{
        #[cfg(not(feature = "abi12"))]
        let r = $d.reserved;
        #[cfg(feature = "abi12")]
        let r = [0; 16];
        r
    }};
}

/// The driver's view of a handle union (the runtime's has the same 16 bytes).
fn handle<T: Copy>(h: T) -> CUexternalHandle {
    const { assert!(std::mem::size_of::<T>() == std::mem::size_of::<CUexternalHandle>()) };
    // SAFETY: both are unions of a file descriptor, a Win32 handle and name, and an NvSci
    // object, with the same layout (asserted size; both aligned as pointers).
    unsafe { std::mem::transmute_copy::<T, CUexternalHandle>(&h) }
}

pub(crate) fn memory_handle_desc(d: &cudaExternalMemoryHandleDesc) -> CUDA_EXTERNAL_MEMORY_HANDLE_DESC {
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC {
        type_: d.r#type.0,
        handle: handle(d.handle),
        size: d.size,
        flags: d.flags,
        // Not passed on: NVIDIA's runtime imports memory whose descriptor has a reserved word
        // set (measured on the H100, `ctest/external.c`).
        reserved: [0; 16],
    }
}

pub(crate) fn semaphore_handle_desc(d: &cudaExternalSemaphoreHandleDesc) -> CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC {
    CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC {
        type_: d.r#type.0,
        handle: handle(d.handle),
        flags: d.flags,
        reserved: reserved!(d),
    }
}

/// Imports an external memory object.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaImportExternalMemory(
    extMem_out: *mut cudaExternalMemory_t,
    memHandleDesc: *const cudaExternalMemoryHandleDesc,
) -> cudaError_t {
    run(|| {
        let o = out(extMem_out)?;
        let d = memory_handle_desc(read(memHandleDesc)?);
        let f = rt::ctx()?;
        let mut m = null_mut();
        cu(f.cuImportExternalMemory(&mut m, &d))?;
        *o = m;
        Ok(())
    })
}

/// Maps a buffer onto an imported memory object.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaExternalMemoryGetMappedBuffer(
    devPtr: *mut *mut c_void,
    extMem: cudaExternalMemory_t,
    bufferDesc: *const cudaExternalMemoryBufferDesc,
) -> cudaError_t {
    run(|| {
        let o = out(devPtr)?;
        let b = read(bufferDesc)?;
        // The reserved words are not passed on: NVIDIA's runtime maps a buffer whose
        // descriptor has one set (measured on the H100), the driver would refuse it.
        let d = CUDA_EXTERNAL_MEMORY_BUFFER_DESC { offset: b.offset, size: b.size, flags: b.flags, reserved: [0; 16] };
        let f = rt::ctx()?;
        let mut p: CUdeviceptr = 0;
        cu(f.cuExternalMemoryGetMappedBuffer(&mut p, extMem, &d))?;
        *o = p as *mut c_void;
        Ok(())
    })
}

/// Maps a CUDA mipmapped array onto an external memory object.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaExternalMemoryGetMappedMipmappedArray(
    mipmap: *mut cudaMipmappedArray_t,
    extMem: cudaExternalMemory_t,
    mipmapDesc: *const cudaExternalMemoryMipmappedArrayDesc,
) -> cudaError_t {
    run(|| {
        let o = out(mipmap)?;
        let m = read(mipmapDesc)?;
        let (Format, NumChannels) = to_cu_format(&m.formatDesc)?;
        // No levels: the driver overruns its heap (NVIDIA's runtime passes it on and aborts).
        if m.numLevels == 0 {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let d = CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC {
            offset: m.offset,
            arrayDesc: CUDA_ARRAY3D_DESCRIPTOR {
                Width: m.extent.width,
                Height: m.extent.height,
                Depth: m.extent.depth,
                Format,
                NumChannels,
                Flags: m.flags,
            },
            numLevels: m.numLevels,
            reserved: reserved!(m),
        };
        let f = rt::ctx()?;
        let mut h: CUmipmappedArray = null_mut();
        cu(f.cuExternalMemoryGetMappedMipmappedArray(&mut h, extMem, &d))?;
        *o = h as cudaMipmappedArray_t;
        Ok(())
    })
}

passthrough! {
    cudaDestroyExternalMemory(extMem: cudaExternalMemory_t)
        = ctx.cuDestroyExternalMemory(extMem) [family = Interop] "Destroys an external memory object.";
    cudaDestroyExternalSemaphore(extSem: cudaExternalSemaphore_t)
        = ctx.cuDestroyExternalSemaphore(extSem) [family = Interop] "Destroys an external semaphore.";
}

/// Imports an external semaphore.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaImportExternalSemaphore(
    extSem_out: *mut cudaExternalSemaphore_t,
    semHandleDesc: *const cudaExternalSemaphoreHandleDesc,
) -> cudaError_t {
    run(|| {
        let o = out(extSem_out)?;
        let d = semaphore_handle_desc(read(semHandleDesc)?);
        let f = rt::ctx()?;
        let mut s = null_mut();
        cu(f.cuImportExternalSemaphore(&mut s, &d))?;
        *o = s;
        Ok(())
    })
}

unsafe fn signal(
    extSemArray: *const cudaExternalSemaphore_t,
    paramsArray: *const cudaExternalSemaphoreSignalParams,
    numExtSems: c_uint,
    stream: cudaStream_t,
) -> Res {
    cu(rt::ctx()?.cuSignalExternalSemaphoresAsync(extSemArray, paramsArray, numExtSems, stream))
}

unsafe fn wait(
    extSemArray: *const cudaExternalSemaphore_t,
    paramsArray: *const cudaExternalSemaphoreWaitParams,
    numExtSems: c_uint,
    stream: cudaStream_t,
) -> Res {
    cu(rt::ctx()?.cuWaitExternalSemaphoresAsync(extSemArray, paramsArray, numExtSems, stream))
}

/// Signals a set of external semaphore objects.
#[cfg(not(feature = "abi12"))]
#[export(family = Interop, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaSignalExternalSemaphoresAsync(
    extSemArray: *const cudaExternalSemaphore_t,
    paramsArray: *const cudaExternalSemaphoreSignalParams,
    numExtSems: c_uint,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| signal(extSemArray, paramsArray, numExtSems, stream))
}

/// Waits on a set of external semaphore objects.
#[cfg(not(feature = "abi12"))]
#[export(family = Interop, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaWaitExternalSemaphoresAsync(
    extSemArray: *const cudaExternalSemaphore_t,
    paramsArray: *const cudaExternalSemaphoreWaitParams,
    numExtSems: c_uint,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| wait(extSemArray, paramsArray, numExtSems, stream))
}

/// Signals a set of external semaphore objects.
#[cfg(feature = "abi12")]
#[export(family = Interop, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaSignalExternalSemaphoresAsync_v2(
    extSemArray: *const cudaExternalSemaphore_t,
    paramsArray: *const cudaExternalSemaphoreSignalParams,
    numExtSems: c_uint,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| signal(extSemArray, paramsArray, numExtSems, stream))
}

/// Waits on a set of external semaphore objects.
#[cfg(feature = "abi12")]
#[export(family = Interop, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaWaitExternalSemaphoresAsync_v2(
    extSemArray: *const cudaExternalSemaphore_t,
    paramsArray: *const cudaExternalSemaphoreWaitParams,
    numExtSems: c_uint,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| wait(extSemArray, paramsArray, numExtSems, stream))
}

/// The CUDA 11.1 parameters of the CUDA 12 ABI's original forms, in the current layout (the
/// reserved words zero). Null parameters for a non-empty set are `cudaErrorInvalidValue`.
#[cfg(feature = "abi12")]
fn widen<V: Copy, W>(p: *const V, n: c_uint, f: impl Fn(&V) -> W) -> Res<Vec<W>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    not_null(p, cudaError::cudaErrorInvalidValue)?;
    // SAFETY: the caller's array of `n` parameters.
    Ok(unsafe { std::slice::from_raw_parts(p, n as usize) }.iter().map(f).collect())
}

/// A parameter array for the driver: null for an empty set.
#[cfg(feature = "abi12")]
fn array_ptr<T>(v: &[T]) -> *const T {
    if v.is_empty() {
        std::ptr::null()
    } else {
        v.as_ptr()
    }
}

/// Signals a set of external semaphore objects: the CUDA 12 headers' original form, whose
/// parameters lack the reserved words (the headers name `cudaSignalExternalSemaphoresAsync_v2`).
/// cbindgen:ignore
#[cfg(feature = "abi12")]
#[export(family = Interop, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaSignalExternalSemaphoresAsync(
    extSemArray: *const cudaExternalSemaphore_t,
    paramsArray: *const cudaExternalSemaphoreSignalParams_v1,
    numExtSems: c_uint,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| {
        let v = widen(paramsArray, numExtSems, |p| cudaExternalSemaphoreSignalParams {
            params: cudaExternalSemaphoreSignalParamsParams {
                fence: p.params.fence,
                nvSciSync: p.params.nvSciSync,
                keyedMutex: p.params.keyedMutex,
                reserved: [0; 12],
            },
            flags: p.flags,
            reserved: [0; 16],
        })?;
        signal(extSemArray, array_ptr(&v), numExtSems, stream)
    })
}

/// Waits on a set of external semaphore objects: the CUDA 12 headers' original form, whose
/// parameters lack the reserved words (the headers name `cudaWaitExternalSemaphoresAsync_v2`).
/// cbindgen:ignore
#[cfg(feature = "abi12")]
#[export(family = Interop, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaWaitExternalSemaphoresAsync(
    extSemArray: *const cudaExternalSemaphore_t,
    paramsArray: *const cudaExternalSemaphoreWaitParams_v1,
    numExtSems: c_uint,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| {
        let v = widen(paramsArray, numExtSems, |p| cudaExternalSemaphoreWaitParams {
            params: cudaExternalSemaphoreWaitParamsParams {
                fence: p.params.fence,
                nvSciSync: p.params.nvSciSync,
                keyedMutex: p.params.keyedMutex,
                reserved: [0; 10],
            },
            flags: p.flags,
            reserved: [0; 16],
        })?;
        wait(extSemArray, array_ptr(&v), numExtSems, stream)
    })
}

/// Return NvSciSync attributes that this device can support.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaDeviceGetNvSciSyncAttributes(
    nvSciSyncAttrList: *mut c_void,
    device: c_int,
    flags: c_int,
) -> cudaError_t {
    run(|| {
        // A NULL list is refused before the device is looked at (NVIDIA's order, the H100).
        not_null(nvSciSyncAttrList, cudaError::cudaErrorInvalidResourceHandle)?;
        let dev = rt::check_device(device)?;
        cu(rt::fns()?.cuDeviceGetNvSciSyncAttributes(nvSciSyncAttrList, dev, flags))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_descriptor_converts_field_by_field() {
        // SAFETY: a plain C struct; all-zero is valid.
        let mut d: cudaExternalMemoryHandleDesc = unsafe { std::mem::zeroed() };
        d.r#type = raw::cudaExternalMemoryHandleType(1);
        d.handle.fd = 42;
        d.size = 1 << 21;
        d.flags = cudaExternalMemoryDedicated;
        let c = memory_handle_desc(&d);
        assert_eq!(c.type_, 1);
        // SAFETY: the fd member was written.
        assert_eq!(unsafe { c.handle.fd }, 42);
        assert_eq!((c.size, c.flags, c.reserved), (1 << 21, 1, [0; 16]));
    }

    #[cfg(feature = "abi12")]
    #[test]
    fn original_parameters_are_widened_with_zero_reserved_words() {
        // SAFETY: plain C structs; all-zero is valid.
        let mut p: [cudaExternalSemaphoreWaitParams_v1; 2] = unsafe { std::mem::zeroed() };
        p[1].params.fence.value = 7;
        p[1].params.keyedMutex = cudaExternalSemaphoreWaitParamsKeyedMutex { key: 9, timeoutMs: 11 };
        p[1].flags = cudaExternalSemaphoreWaitSkipNvSciBufMemSync;
        let v = widen(p.as_ptr(), 2, |p| {
            (p.params.fence.value, p.params.keyedMutex.key, p.params.keyedMutex.timeoutMs, p.flags)
        })
        .unwrap();
        assert_eq!(v, vec![(0, 0, 0, 0), (7, 9, 11, 2)]);
        assert!(widen(std::ptr::null::<cudaExternalSemaphoreWaitParams_v1>(), 0, |_| ()).unwrap().is_empty());
        assert_eq!(
            widen(std::ptr::null::<cudaExternalSemaphoreWaitParams_v1>(), 1, |_| ()).err(),
            Some(cudaError::cudaErrorInvalidValue)
        );
        assert!(array_ptr::<u8>(&[]).is_null());
    }

    #[test]
    fn semaphore_descriptor_keeps_win32_handles() {
        // SAFETY: a plain C struct; all-zero is valid.
        let mut d: cudaExternalSemaphoreHandleDesc = unsafe { std::mem::zeroed() };
        d.r#type = raw::cudaExternalSemaphoreHandleType(2);
        d.handle.win32 =
            cudaExternalSemaphoreHandleDescWin32 { handle: 0x1234 as *mut c_void, name: 0x5678 as *const c_void };
        let c = semaphore_handle_desc(&d);
        // SAFETY: the win32 member was written.
        let w = unsafe { c.handle.win32 };
        assert_eq!((c.type_, w[0] as usize, w[1] as usize), (2, 0x1234, 0x5678));
    }
}
