//! Unit tests: entry point lookup, the registry, copies, pitch and 3D math, arrays.
//!
//! The model is process-global, so the tests run one at a time under `SERIAL`.
#![allow(clippy::field_reassign_with_default, clippy::manual_dangling_ptr)]

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::ptr::{null, null_mut};

use parking_lot::Mutex;

use crate::array::*;
use crate::attrs::*;
use crate::context::*;
use crate::copy::*;
use crate::mem::*;
use crate::state::CU_DEVICE_CPU;
use crate::stream::*;
use crate::types::*;
use crate::*;

static SERIAL: Mutex<()> = Mutex::new(());

/// Initialises, retains device 0's primary context and makes it current on this thread.
fn setup() -> (parking_lot::MutexGuard<'static, ()>, CUcontext) {
    let g = SERIAL.lock();
    unsafe {
        assert_eq!(cuInit(0), CUDA_SUCCESS);
        let mut c = null_mut();
        assert_eq!(cuDevicePrimaryCtxRetain(&mut c, 0), CUDA_SUCCESS);
        assert_eq!(cuCtxSetCurrent(c), CUDA_SUCCESS);
        (g, c)
    }
}

fn dalloc(n: usize) -> CUdeviceptr {
    let mut p = 0;
    assert_eq!(unsafe { cuMemAlloc(&mut p, n) }, CUDA_SUCCESS);
    p
}

unsafe fn proc(name: &str, ver: c_int) -> (CUresult, *mut c_void, c_int) {
    let n = CString::new(name).unwrap();
    let mut p = 1 as *mut c_void;
    let mut st = -1;
    let r = cuGetProcAddress_v2(n.as_ptr(), &mut p, ver, 1, &mut st);
    (r, p, st)
}

#[test]
fn every_runtime_entry_point_resolves() {
    // The runtime's list of driver entry points, read from its source.
    let src = include_str!("../../src/driver/mod.rs");
    let mut n = 0;
    for line in src.lines() {
        // `NAME @ VERSION (` or `NAME = SYMBOL @ VERSION (`: the symbol is NAME unless given.
        let Some((head, tail)) = line.trim().split_once(" @ ") else { continue };
        let sym = head.rsplit('=').next().unwrap().trim();
        let ver = tail.split(|c: char| !c.is_ascii_digit()).next().unwrap();
        if !sym.starts_with("cu") || sym.contains(' ') || ver.is_empty() {
            continue;
        }
        let ver: c_int = ver.parse().unwrap();
        let mut driver = 0;
        unsafe { crate::cuDriverGetVersion(&mut driver) };
        if ver > driver {
            // Newer than the stand-in's driver (CUDA 13.5's calls): refused, as the 580 driver
            // refuses them, and the runtime reports cudaErrorCallRequiresNewerDriver.
            assert_eq!(unsafe { proc(sym, ver) }.0, CUDA_ERROR_INVALID_VALUE, "{sym} @ {ver}");
            continue;
        }
        for flags in [1u64, 2] {
            let name = CString::new(sym).unwrap();
            let mut p = null_mut();
            let mut st = -1;
            let r = unsafe { cuGetProcAddress_v2(name.as_ptr(), &mut p, ver, flags, &mut st) };
            assert_eq!((r, st), (CUDA_SUCCESS, 0), "{sym} @ {ver}");
            assert!(!p.is_null(), "{sym}");
        }
        n += 1;
    }
    assert!(n > 100, "parsed only {n} entries");
    for s in symbols() {
        assert_eq!(unsafe { proc(s, 13000) }.0, CUDA_SUCCESS, "{s}");
    }
}

#[test]
fn proc_address_versions_and_unknown_symbols() {
    unsafe {
        // As the H100's driver: an unknown symbol or a version older than the symbol is a
        // success with a null pointer and the reason in the status; a version newer than the
        // driver is an error that leaves both untouched.
        let (r, p, st) = proc("cuNoSuchThing", 13000);
        assert_eq!((r, p, st), (CUDA_SUCCESS, null_mut(), 1));
        let (r, p, st) = proc("cuStreamGetAttribute", 10020);
        assert_eq!((r, p, st), (CUDA_SUCCESS, null_mut(), 2));
        let (r, p, st) = proc("cuMemAlloc", 99000);
        assert_eq!((r, p, st), (CUDA_ERROR_INVALID_VALUE, 1 as *mut c_void, -1));
        assert_eq!(proc("cuMemAlloc", -5).2, 0);
        assert_eq!(proc("cuMemAdvise", 8000).1, mem::cuMemAdvise as *mut c_void);
        assert_eq!(proc("cuMemAdvise", 12020).1, mem::cuMemAdvise_v2 as *mut c_void);
        assert_eq!(proc("cuMemPrefetchAsync", 12000).1, mem::cuMemPrefetchAsync as *mut c_void);
        assert_eq!(proc("cuMemPrefetchAsync", 13000).1, mem::cuMemPrefetchAsync_v2 as *mut c_void);
        let mut v = 0;
        assert_eq!(cuDriverGetVersion(&mut v), CUDA_SUCCESS);
        assert_eq!(v, 13000);
    }
}

#[test]
fn errors_have_names_and_strings() {
    unsafe {
        let mut s: *const c_char = null();
        assert_eq!(cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &mut s), CUDA_SUCCESS);
        assert_eq!(CStr::from_ptr(s).to_str().unwrap(), "CUDA_ERROR_INVALID_VALUE");
        assert_eq!(cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &mut s), CUDA_SUCCESS);
        assert_eq!(CStr::from_ptr(s).to_str().unwrap(), "out of memory");
        assert_eq!(cuGetErrorName(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, &mut s), CUDA_SUCCESS);
        assert_eq!(CStr::from_ptr(s).to_str().unwrap(), "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED");
        assert_eq!(cuGetErrorName(12345, &mut s), CUDA_ERROR_INVALID_VALUE);
        assert!(s.is_null());
    }
}

#[test]
fn device_queries() {
    let _g = setup();
    unsafe {
        let mut v = 0;
        assert_eq!(attrs::cuDeviceGetAttribute(&mut v, 10, 0), CUDA_SUCCESS);
        assert_eq!(v, 32);
        assert_eq!(attrs::cuDeviceGetAttribute(&mut v, 16, 0), CUDA_SUCCESS);
        assert_eq!(v, 132);
        assert_eq!(device_attribute(75, 0), Some(9));
        assert_eq!(attrs::cuDeviceGetAttribute(&mut v, 9999, 0), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(attrs::cuDeviceGetAttribute(&mut v, 10, 7), CUDA_ERROR_INVALID_DEVICE);
        let mut name = [0 as c_char; 64];
        assert_eq!(cuDeviceGetName(name.as_mut_ptr(), 64, 0), CUDA_SUCCESS);
        assert_eq!(CStr::from_ptr(name.as_ptr()).to_str().unwrap(), DEVICE_NAME);
        let mut least = 1;
        let mut greatest = 1;
        assert_eq!(cuCtxGetStreamPriorityRange(&mut least, &mut greatest), CUDA_SUCCESS);
        assert_eq!((least, greatest), (0, -5));
    }
}

#[test]
fn no_current_context() {
    let _g = setup();
    std::thread::spawn(|| unsafe {
        let mut p = 0;
        assert_eq!(cuMemAlloc(&mut p, 16), CUDA_ERROR_INVALID_CONTEXT);
        let mut c = 1 as CUcontext;
        assert_eq!(cuCtxGetCurrent(&mut c), CUDA_SUCCESS);
        assert!(c.is_null());
        assert_eq!(cuCtxPopCurrent(&mut c), CUDA_ERROR_INVALID_CONTEXT);
    })
    .join()
    .unwrap();
}

#[test]
fn alloc_free_and_info() {
    let _g = setup();
    unsafe {
        let mut p = 0;
        assert_eq!(cuMemAlloc(&mut p, 0), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(cuMemAlloc(&mut p, 1 << 40), CUDA_ERROR_OUT_OF_MEMORY);
        let (mut f0, mut t) = (0, 0);
        assert_eq!(mem::cuMemGetInfo(&mut f0, &mut t), CUDA_SUCCESS);
        assert_eq!(t, 16 << 30);
        let p = dalloc(1000);
        assert_eq!(p % 512, 0);
        let mut f1 = 0;
        mem::cuMemGetInfo(&mut f1, &mut t);
        assert_eq!(f0 - f1, 1000);
        let (mut base, mut size) = (0, 0);
        assert_eq!(mem::cuMemGetAddressRange(&mut base, &mut size, p + 10), CUDA_SUCCESS);
        assert_eq!((base, size), (p, 1000));
        assert_eq!(mem::cuMemFree(p + 8), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(mem::cuMemFree(p), CUDA_SUCCESS);
        assert_eq!(mem::cuMemFree(p), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(mem::cuMemGetAddressRange(&mut base, &mut size, p), CUDA_ERROR_NOT_FOUND);
    }
}

#[test]
fn copies_validate_device_ranges() {
    let _g = setup();
    unsafe {
        let d = dalloc(256);
        let src: Vec<u8> = (0..=255).collect();
        let mut back = vec![0u8; 256];
        assert_eq!(copy::cuMemcpyHtoD(d, src.as_ptr().cast(), 256), CUDA_SUCCESS);
        assert_eq!(copy::cuMemcpyDtoH(back.as_mut_ptr().cast(), d, 256), CUDA_SUCCESS);
        assert_eq!(src, back);
        // Past the end, unknown pointer, null host pointer.
        assert_eq!(copy::cuMemcpyDtoH(back.as_mut_ptr().cast(), d + 1, 256), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(copy::cuMemcpyDtoH(back.as_mut_ptr().cast(), 0x1234, 4), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(copy::cuMemcpyHtoD(d, null(), 4), CUDA_ERROR_INVALID_VALUE);
        // Overlapping device-to-device and unified copies; memset.
        assert_eq!(copy::cuMemcpyDtoD(d + 1, d, 8), CUDA_SUCCESS);
        copy::cuMemcpyDtoH(back.as_mut_ptr().cast(), d, 9);
        assert_eq!(&back[..9], &[0, 0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(copy::cuMemsetD8(d, 0xab, 256), CUDA_SUCCESS);
        assert_eq!(copy::cuMemsetD8(d, 0xab, 257), CUDA_ERROR_INVALID_VALUE);
        let mut host = [0u8; 4];
        assert_eq!(copy::cuMemcpy(host.as_mut_ptr() as CUdeviceptr, d, 4), CUDA_SUCCESS);
        assert_eq!(host, [0xab; 4]);
        // Streams: bad handles are refused, the special ones accepted.
        assert_eq!(copy::cuMemcpyHtoDAsync(d, src.as_ptr().cast(), 4, 0x99 as CUstream), CUDA_ERROR_INVALID_HANDLE);
        assert_eq!(copy::cuMemcpyHtoDAsync(d, src.as_ptr().cast(), 4, CU_STREAM_PER_THREAD), CUDA_SUCCESS);
        mem::cuMemFree(d);
        assert_eq!(copy::cuMemcpyDtoH(back.as_mut_ptr().cast(), d, 4), CUDA_ERROR_INVALID_VALUE);
        // A freed pointer is not mistaken for host memory, whatever the copy calls it.
        assert_eq!(copy::cuMemcpy(back.as_mut_ptr() as CUdeviceptr, d, 4), CUDA_ERROR_INVALID_VALUE);
        let mut c = CUDA_MEMCPY2D::default();
        c.srcMemoryType = CU_MEMORYTYPE_HOST;
        c.srcHost = d as *const c_void;
        c.srcPitch = 4;
        c.dstMemoryType = CU_MEMORYTYPE_HOST;
        c.dstHost = back.as_mut_ptr().cast();
        c.dstPitch = 4;
        c.WidthInBytes = 4;
        c.Height = 1;
        assert_eq!(copy::cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE);
        c.srcHost = src.as_ptr().cast();
        assert_eq!(copy::cuMemcpy2D(&c), CUDA_SUCCESS);
    }
}

#[test]
fn pitch_allocation_and_2d_copies() {
    let _g = setup();
    unsafe {
        let (mut p, mut pitch) = (0, 0);
        assert_eq!(mem::cuMemAllocPitch(&mut p, &mut pitch, 100, 4, 3), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(mem::cuMemAllocPitch(&mut p, &mut pitch, 100, 4, 4), CUDA_SUCCESS);
        assert_eq!(pitch, 512);
        assert_eq!(span(512, 4, 100, 4, 1), Some(3 * 512 + 100));
        assert_eq!(offset(512, 4, 3, 2, 1), Some((4 + 2) * 512 + 3));
        let src: Vec<u8> = (0..400).map(|i| i as u8).collect();
        let mut c = CUDA_MEMCPY2D::default();
        c.srcMemoryType = CU_MEMORYTYPE_HOST;
        c.srcHost = src.as_ptr().cast();
        c.srcPitch = 100;
        c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        c.dstDevice = p;
        c.dstPitch = pitch;
        c.WidthInBytes = 100;
        c.Height = 4;
        assert_eq!(copy::cuMemcpy2D(&c), CUDA_SUCCESS);
        let mut row = [0u8; 100];
        copy::cuMemcpyDtoH(row.as_mut_ptr().cast(), p + 3 * 512, 100);
        assert_eq!(row[..], src[300..400]);
        // One row too many runs past the allocation; a pitch below the width is invalid.
        c.dstY = 1;
        assert_eq!(copy::cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE);
        c.dstY = 0;
        c.srcPitch = 99;
        assert_eq!(copy::cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE);
        c.srcXInBytes = 1;
        assert_eq!(copy::cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE);
        c.srcXInBytes = 0;
        // One row needs no pitch.
        c.srcPitch = 0;
        c.Height = 1;
        assert_eq!(copy::cuMemcpy2D(&c), CUDA_SUCCESS);
        c.Height = 4;
        assert_eq!(copy::cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE);
        c.srcPitch = 100;
        c.dstMemoryType = 7;
        assert_eq!(copy::cuMemcpy2D(&c), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(copy::cuMemsetD2D8(p, pitch, 7, 100, 4), CUDA_SUCCESS);
        assert_eq!(copy::cuMemsetD2D8(p, 50, 7, 100, 4), CUDA_ERROR_INVALID_VALUE);
        mem::cuMemFree(p);
    }
}

fn array3d(w: usize, h: usize, d: usize, format: c_int, ch: u32, flags: u32) -> Result<CUarray, CUresult> {
    let desc = CUDA_ARRAY3D_DESCRIPTOR { Width: w, Height: h, Depth: d, Format: format, NumChannels: ch, Flags: flags };
    let mut a = null_mut();
    match unsafe { array::cuArray3DCreate(&mut a, &desc) } {
        CUDA_SUCCESS => Ok(a),
        e => Err(e),
    }
}

#[test]
fn array_extent_rules() {
    let _g = setup();
    assert_eq!(array3d(131073, 0, 0, 0x01, 1, 0).err(), Some(CUDA_ERROR_INVALID_VALUE));
    assert_eq!(array3d(16, 8, 6, 0x01, 1, CUBEMAP).err(), Some(CUDA_ERROR_INVALID_VALUE));
    assert_eq!(array3d(16, 16, 5, 0x01, 1, CUBEMAP).err(), Some(CUDA_ERROR_INVALID_VALUE));
    assert!(array3d(16, 16, 6, 0x01, 1, CUBEMAP).is_ok());
    assert!(array3d(16, 16, 12, 0x01, 1, CUBEMAP | LAYERED).is_ok());
    assert_eq!(array3d(16, 0, 4, 0x01, 1, 0).err(), Some(CUDA_ERROR_INVALID_VALUE));
    assert!(array3d(16, 0, 4, 0x01, 1, LAYERED).is_ok());
    assert_eq!(array3d(16, 16, 0, 0x01, 3, 0).err(), Some(CUDA_ERROR_INVALID_VALUE));
    assert_eq!(array3d(16, 16, 0, 0x77, 1, 0).err(), Some(CUDA_ERROR_INVALID_VALUE));
    // Flag bits above 0x80 are kept, not checked; depth-texture and color-attachment arrays,
    // NV12 arrays and 1D block-compressed arrays are refused.
    assert!(array3d(16, 16, 0, 0x01, 1, 0x100).is_ok());
    assert!(array3d(16, 16, 0, 0x01, 1, 0x8000_0000).is_ok());
    assert_eq!(array3d(16, 16, 0, 0x20, 1, 0x10).err(), Some(CUDA_ERROR_INVALID_VALUE));
    assert_eq!(array3d(16, 16, 0, 0x20, 1, 0x20).err(), Some(CUDA_ERROR_INVALID_VALUE));
    assert_eq!(array3d(16, 8, 0, NV12, 3, 0).err(), Some(CUDA_ERROR_INVALID_VALUE));
    assert_eq!(array3d(16, 0, 0, 0x91, 4, 0).err(), Some(CUDA_ERROR_INVALID_VALUE));
    assert!(array3d(8, 8, 4, 0x91, 4, 0).is_ok());
    assert_eq!(array3d(16, 16, 4, 0x01, 1, TEXTURE_GATHER).err(), Some(CUDA_ERROR_INVALID_VALUE));
    assert_eq!(element(0x20, 4), Some((16, 1)));
    assert_eq!(element(0xc4, 2), Some((4, 1)));
    assert_eq!(element(0x91, 4), Some((8, 4)));
}

#[test]
fn arrays_copy_and_describe() {
    let _g = setup();
    unsafe {
        // A 2D float2 array reports Depth 0.
        let a = array3d(8, 4, 0, 0x20, 2, 0).unwrap();
        let mut d3 = std::mem::zeroed::<CUDA_ARRAY3D_DESCRIPTOR>();
        assert_eq!(array::cuArray3DGetDescriptor(&mut d3, a), CUDA_SUCCESS);
        assert_eq!((d3.Width, d3.Height, d3.Depth, d3.NumChannels), (8, 4, 0, 2));
        let src: Vec<u8> = (0..8 * 8 * 4).map(|i| i as u8).collect();
        let mut c = CUDA_MEMCPY3D::default();
        c.srcMemoryType = CU_MEMORYTYPE_HOST;
        c.srcHost = src.as_ptr().cast();
        c.srcPitch = 64;
        c.srcHeight = 4;
        c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        c.dstArray = a;
        c.WidthInBytes = 64;
        c.Height = 4;
        c.Depth = 1;
        assert_eq!(copy::cuMemcpy3D(&c), CUDA_SUCCESS);
        // Out of bounds in x (bytes) and y.
        c.dstXInBytes = 8;
        assert_eq!(copy::cuMemcpy3D(&c), CUDA_ERROR_INVALID_VALUE);
        c.dstXInBytes = 0;
        c.dstY = 1;
        assert_eq!(copy::cuMemcpy3D(&c), CUDA_ERROR_INVALID_VALUE);
        // Read back rows 1..3, bytes 16..48, through a 2D copy.
        let mut out = vec![0u8; 32 * 2];
        let mut c2 = CUDA_MEMCPY2D::default();
        c2.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        c2.srcArray = a;
        c2.srcXInBytes = 4;
        c2.srcY = 1;
        c2.dstMemoryType = CU_MEMORYTYPE_HOST;
        c2.dstHost = out.as_mut_ptr().cast();
        c2.dstPitch = 32;
        c2.WidthInBytes = 32;
        c2.Height = 2;
        // Offsets are bytes, not whole float2 elements.
        assert_eq!(copy::cuMemcpy2D(&c2), CUDA_SUCCESS);
        assert_eq!(out[..32], src[64 + 4..64 + 36]);
        c2.srcXInBytes = 16;
        c2.srcY = 1;
        c2.dstMemoryType = CU_MEMORYTYPE_HOST;
        c2.dstHost = out.as_mut_ptr().cast();
        c2.dstPitch = 32;
        c2.WidthInBytes = 32;
        c2.Height = 2;
        assert_eq!(copy::cuMemcpy2D(&c2), CUDA_SUCCESS);
        assert_eq!(out[..32], src[64 + 16..64 + 48]);
        assert_eq!(out[32..], src[128 + 16..128 + 48]);
        assert_eq!(array::cuArrayGetPlane(&mut null_mut(), a, 0), CUDA_ERROR_INVALID_VALUE);
        let mut sp = CUDA_ARRAY_SPARSE_PROPERTIES::default();
        assert_eq!(array::cuArrayGetSparseProperties(&mut sp, a), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(array::cuArrayDestroy(a), CUDA_SUCCESS);
        assert_eq!(array::cuArrayDestroy(a), CUDA_ERROR_INVALID_HANDLE);
        assert_eq!(copy::cuMemcpy2D(&c2), CUDA_ERROR_INVALID_VALUE);

        // Sparse and deferred-mapping properties.
        let sa = array3d(1024, 1024, 0, 0x20, 1, SPARSE).unwrap();
        assert_eq!(array::cuArrayGetSparseProperties(&mut sp, sa), CUDA_SUCCESS);
        assert_eq!((sp.tileExtent_width, sp.tileExtent_height, sp.tileExtent_depth), (128, 128, 1));
        assert_eq!((sp.miptailFirstLevel, sp.miptailSize, sp.flags), (0, 0, 0));
        // Smaller than a tile: all mip tail, in whole tiles.
        let small = array3d(64, 64, 8, 0x20, 1, SPARSE).unwrap();
        assert_eq!(array::cuArrayGetSparseProperties(&mut sp, small), CUDA_SUCCESS);
        assert_eq!((sp.miptailFirstLevel, sp.miptailSize, sp.flags), (0, 131072, 1));
        array::cuArrayDestroy(small);
        let mut mr = CUDA_ARRAY_MEMORY_REQUIREMENTS::default();
        assert_eq!(array::cuArrayGetMemoryRequirements(&mut mr, sa, 0), CUDA_ERROR_INVALID_VALUE);
        let da = array3d(100, 100, 0, 0x01, 1, DEFERRED_MAPPING).unwrap();
        assert_eq!(array::cuArrayGetMemoryRequirements(&mut mr, da, 0), CUDA_SUCCESS);
        assert_eq!((mr.size, mr.alignment), (65536, 65536));
        array::cuArrayDestroy(sa);
        array::cuArrayDestroy(da);
    }
}

#[test]
fn mipmapped_arrays() {
    let _g = setup();
    unsafe {
        let desc = CUDA_ARRAY3D_DESCRIPTOR { Width: 64, Height: 16, Depth: 0, Format: 0x01, NumChannels: 4, Flags: 0 };
        let mut m = null_mut();
        assert_eq!(array::cuMipmappedArrayCreate(&mut m, &desc, 100), CUDA_SUCCESS);
        let mut l = null_mut();
        assert_eq!(array::cuMipmappedArrayGetLevel(&mut l, m, 6), CUDA_SUCCESS);
        assert_eq!(array::cuMipmappedArrayGetLevel(&mut l, m, 7), CUDA_ERROR_INVALID_VALUE);
        array::cuMipmappedArrayGetLevel(&mut l, m, 3);
        let mut d = std::mem::zeroed::<CUDA_ARRAY3D_DESCRIPTOR>();
        array::cuArray3DGetDescriptor(&mut d, l);
        assert_eq!((d.Width, d.Height, d.Depth), (8, 2, 0));
        assert_eq!(array::cuArrayDestroy(l), CUDA_ERROR_INVALID_HANDLE);
        assert_eq!(array::cuMipmappedArrayDestroy(m), CUDA_SUCCESS);
        assert_eq!(array::cuMipmappedArrayDestroy(m), CUDA_ERROR_INVALID_HANDLE);
    }
    let d = state::Desc { width: 5, height: 0, depth: 0, format: 1, channels: 1, flags: 0 };
    assert_eq!(clamp_levels(&d, 0), 1);
    assert_eq!(clamp_levels(&d, 9), 3);
}

#[test]
fn host_memory_registration() {
    let _g = setup();
    unsafe {
        let mut buf = vec![0u8; 8192];
        let p = buf.as_mut_ptr() as *mut c_void;
        assert_eq!(hostreg::cuMemHostRegister(p, 0, 0), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(hostreg::cuMemHostRegister(p, 4096, 2), CUDA_SUCCESS);
        assert_eq!(hostreg::cuMemHostRegister(p.add(100), 100, 0), CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
        let mut dp = 0;
        assert_eq!(hostreg::cuMemHostGetDevicePointer(&mut dp, p.add(8), 0), CUDA_SUCCESS);
        assert_eq!(dp, p as u64 + 8);
        let mut fl = 0;
        assert_eq!(hostreg::cuMemHostGetFlags(&mut fl, p), CUDA_SUCCESS);
        assert_eq!(fl, 2);
        let mut mt: u32 = 0;
        assert_eq!(
            mem::cuPointerGetAttribute((&mut mt as *mut u32).cast(), CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p as u64),
            CUDA_SUCCESS
        );
        assert_eq!(mt as c_int, CU_MEMORYTYPE_HOST);
        assert_eq!(hostreg::cuMemHostUnregister(p), CUDA_SUCCESS);
        assert_eq!(hostreg::cuMemHostUnregister(p), CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
        let mut h = null_mut();
        assert_eq!(mem::cuMemHostAlloc(&mut h, 64, 8), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(mem::cuMemHostAlloc(&mut h, 64, 5), CUDA_SUCCESS);
        assert_eq!(mem::cuMemFree(h as u64), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(mem::cuMemFreeHost(h), CUDA_SUCCESS);
        assert_eq!(mem::cuMemFreeHost(h), CUDA_ERROR_INVALID_VALUE);
    }
}

#[test]
fn pointer_attributes() {
    let _g = setup();
    unsafe {
        let d = dalloc(100);
        let local = 5u64;
        let hp = &local as *const u64 as u64;
        let mut v: u32 = 9;
        assert_eq!(
            mem::cuPointerGetAttribute((&mut v as *mut u32).cast(), CU_POINTER_ATTRIBUTE_MEMORY_TYPE, hp),
            CUDA_ERROR_INVALID_VALUE
        );
        let mut attrs =
            [CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_CONTEXT, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL];
        let mut ctx: CUcontext = 1 as CUcontext;
        let mut ord: c_int = 7;
        let mut data: [*mut c_void; 3] =
            [(&mut v as *mut u32).cast(), (&mut ctx as *mut CUcontext).cast(), (&mut ord as *mut c_int).cast()];
        assert_eq!(mem::cuPointerGetAttributes(3, attrs.as_mut_ptr(), data.as_mut_ptr(), hp), CUDA_SUCCESS);
        assert_eq!((v, ctx, ord), (0, null_mut(), -2));
        assert_eq!(mem::cuPointerGetAttributes(3, attrs.as_mut_ptr(), data.as_mut_ptr(), d + 50), CUDA_SUCCESS);
        assert_eq!((v as c_int, ord), (CU_MEMORYTYPE_DEVICE, 0));
        assert!(!ctx.is_null());
        let mut start: u64 = 0;
        mem::cuPointerGetAttribute((&mut start as *mut u64).cast(), CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, d + 50);
        assert_eq!(start, d);
        let mut hostp: u64 = 1;
        assert_eq!(
            mem::cuPointerGetAttribute((&mut hostp as *mut u64).cast(), CU_POINTER_ATTRIBUTE_HOST_POINTER, d),
            CUDA_ERROR_INVALID_VALUE
        );
        let one: u32 = 1;
        assert_eq!(mem::cuPointerSetAttribute((&one as *const u32).cast(), 6, d), CUDA_SUCCESS);
        mem::cuPointerGetAttribute((&mut v as *mut u32).cast(), 6, d);
        assert_eq!(v, 1);
        let (mut b1, mut b2) = (0u64, 0u64);
        let d2 = dalloc(100);
        mem::cuPointerGetAttribute((&mut b1 as *mut u64).cast(), 7, d);
        mem::cuPointerGetAttribute((&mut b2 as *mut u64).cast(), 7, d2);
        assert_ne!(b1, b2);
        mem::cuMemFree(d);
        mem::cuMemFree(d2);
    }
}

#[test]
fn unified_memory_advice() {
    let _g = setup();
    unsafe {
        let mut m = 0;
        assert_eq!(mem::cuMemAllocManaged(&mut m, 4096 * 4, 3), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(mem::cuMemAllocManaged(&mut m, 0, 1), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(mem::cuMemAllocManaged(&mut m, 4096 * 4, 1), CUDA_SUCCESS);
        let d = dalloc(4096);
        let get = |attr: c_int, p: u64, n: usize| {
            let mut v: c_int = 99;
            let r = mem::cuMemRangeGetAttribute((&mut v as *mut c_int).cast(), 4, attr, p, n);
            (r, v)
        };
        assert_eq!(get(1, m, 4096 * 4), (CUDA_SUCCESS, 0));
        assert_eq!(get(2, m, 4096 * 4), (CUDA_SUCCESS, -2));
        assert_eq!(mem::cuMemAdvise(m, 4096 * 2, 1, 0), CUDA_SUCCESS);
        assert_eq!(get(1, m, 4096 * 2), (CUDA_SUCCESS, 1));
        assert_eq!(get(1, m, 4096 * 3), (CUDA_SUCCESS, 0));
        let loc = CUmemLocation { type_: CU_MEM_LOCATION_TYPE_HOST, id: 0 };
        assert_eq!(mem::cuMemAdvise_v2(m, 4096 * 4, 3, loc), CUDA_SUCCESS);
        assert_eq!(get(2, m, 100), (CUDA_SUCCESS, CU_DEVICE_CPU));
        assert_eq!(get(5, m, 100), (CUDA_SUCCESS, CU_MEM_LOCATION_TYPE_HOST));
        assert_eq!(mem::cuMemAdvise(m, 4096, 5, 0), CUDA_SUCCESS);
        let mut ids = [7 as c_int; 3];
        assert_eq!(mem::cuMemRangeGetAttribute(ids.as_mut_ptr().cast(), 12, 3, m, 4096), CUDA_SUCCESS);
        assert_eq!(ids, [0, -2, -2]);
        assert_eq!(mem::cuMemRangeGetAttribute(ids.as_mut_ptr().cast(), 6, 3, m, 4096), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(mem::cuMemRangeGetAttribute(ids.as_mut_ptr().cast(), 8, 1, m, 4096), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(mem::cuMemAdvise(m, 4096, 5, 3), CUDA_ERROR_INVALID_DEVICE);
        assert_eq!(mem::cuMemAdvise(m, 4096, 9, 0), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(mem::cuMemAdvise(d, 4096, 1, 0), CUDA_ERROR_INVALID_VALUE);
        // Prefetch: managed memory only; the last location is recorded.
        assert_eq!(get(4, m, 4096), (CUDA_SUCCESS, -2));
        assert_eq!(mem::cuMemPrefetchAsync(d, 4096, 0, null_mut()), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(mem::cuMemPrefetchAsync(m, 4096, 0, null_mut()), CUDA_SUCCESS);
        assert_eq!(get(4, m, 4096), (CUDA_SUCCESS, 0));
        assert_eq!(get(4, m, 8192), (CUDA_SUCCESS, -2));
        let dev0 = CUmemLocation { type_: CU_MEM_LOCATION_TYPE_DEVICE, id: 0 };
        assert_eq!(mem::cuMemPrefetchAsync_v2(m, 8192, dev0, 1, null_mut()), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(mem::cuMemPrefetchAsync_v2(m, 8192, loc, 0, null_mut()), CUDA_SUCCESS);
        assert_eq!(get(7, m, 8192), (CUDA_SUCCESS, CU_MEM_LOCATION_TYPE_HOST));
        let mut mg: u32 = 0;
        mem::cuPointerGetAttribute((&mut mg as *mut u32).cast(), CU_POINTER_ATTRIBUTE_IS_MANAGED, m);
        assert_eq!(mg, 1);
        mem::cuMemFree(m);
        mem::cuMemFree(d);
    }
}

#[test]
fn streams_and_events() {
    let _g = setup();
    unsafe {
        let mut s = null_mut();
        assert_eq!(cuStreamCreateWithPriority(&mut s, 1, -10), CUDA_SUCCESS);
        let (mut pr, mut fl) = (0, 0);
        cuStreamGetPriority(s, &mut pr);
        cuStreamGetFlags(s, &mut fl);
        assert_eq!((pr, fl), (-5, 1));
        assert_eq!(cuStreamCreate(&mut s, 4), CUDA_ERROR_INVALID_VALUE);
        let (mut a, mut b, mut nt) = (null_mut(), null_mut(), null_mut());
        assert_eq!(cuEventCreate(&mut a, 0), CUDA_SUCCESS);
        assert_eq!(cuEventCreate(&mut b, 0), CUDA_SUCCESS);
        assert_eq!(cuEventCreate(&mut nt, 2), CUDA_SUCCESS);
        let mut ms = -1.0f32;
        assert_eq!(cuEventElapsedTime(&mut ms, a, b), CUDA_ERROR_INVALID_HANDLE);
        assert_eq!(cuEventRecord(a, s), CUDA_SUCCESS);
        assert_eq!(cuEventRecord(b, CU_STREAM_LEGACY), CUDA_SUCCESS);
        assert_eq!(cuEventElapsedTime(&mut ms, a, b), CUDA_SUCCESS);
        assert!(ms >= 0.0);
        cuEventRecord(nt, s);
        assert_eq!(cuEventElapsedTime(&mut ms, a, nt), CUDA_ERROR_INVALID_HANDLE);
        assert_eq!(cuStreamWaitEvent(s, a, 0), CUDA_SUCCESS);
        unsafe extern "C" fn bump(p: *mut c_void) {
            *(p as *mut u32) += 1;
        }
        let mut n = 0u32;
        assert_eq!(cuLaunchHostFunc(s, Some(bump), (&mut n as *mut u32).cast()), CUDA_SUCCESS);
        assert_eq!(n, 1);
        assert_eq!(cuStreamQuery(s), CUDA_SUCCESS);
        assert_eq!(cuStreamDestroy(s), CUDA_SUCCESS);
        assert_eq!(cuStreamQuery(s), CUDA_ERROR_INVALID_HANDLE);
        assert_eq!(cuEventDestroy(a), CUDA_SUCCESS);
        assert_eq!(cuEventQuery(a), CUDA_ERROR_INVALID_HANDLE);
        cuEventDestroy(b);
        cuEventDestroy(nt);
    }
}

#[test]
fn primary_context_lifecycle() {
    let (_g, c) = setup();
    unsafe {
        let d = dalloc(64);
        let (mut fl, mut act) = (9, 0);
        assert_eq!(cuDevicePrimaryCtxGetState(0, &mut fl, &mut act), CUDA_SUCCESS);
        assert_eq!(act, 1);
        assert_eq!(cuDevicePrimaryCtxSetFlags(0, 3), CUDA_ERROR_INVALID_VALUE);
        assert_eq!(cuDevicePrimaryCtxReset(0), CUDA_SUCCESS);
        assert_eq!(cuDevicePrimaryCtxGetState(0, &mut fl, &mut act), CUDA_SUCCESS);
        assert_eq!(act, 0);
        // The reset context is gone: its memory too, and it can't be used until retained
        // (while current, it is a destroyed context to every call).
        let mut p = 0;
        assert_eq!(cuMemAlloc(&mut p, 16), CUDA_ERROR_CONTEXT_IS_DESTROYED);
        let mut c2 = null_mut();
        assert_eq!(cuDevicePrimaryCtxRetain(&mut c2, 0), CUDA_SUCCESS);
        assert_eq!(c2, c);
        assert_eq!(mem::cuMemFree(d), CUDA_ERROR_INVALID_VALUE);
        let mut dev = -1;
        assert_eq!(cuCtxGetDevice(&mut dev), CUDA_SUCCESS);
        assert_eq!(dev, 0);
        // Releasing after a reset is allowed; releasing more than was retained is not.
        let mut retained = 0;
        while cuDevicePrimaryCtxRelease(0) == CUDA_SUCCESS {
            retained += 1;
        }
        assert!(retained >= 2);
        assert_eq!(cuDevicePrimaryCtxRelease(0), CUDA_ERROR_INVALID_CONTEXT);
        cuDevicePrimaryCtxGetState(0, &mut fl, &mut act);
        assert_eq!(act, 0);
    }
}

#[test]
fn kernels_are_unavailable() {
    let _g = setup();
    unsafe {
        let mut m = null_mut();
        let image = [0u8; 16];
        assert_eq!(cuModuleLoadData(&mut m, image.as_ptr().cast()), CUDA_ERROR_NO_BINARY_FOR_GPU);
        let mut f = null_mut();
        assert_eq!(cuModuleGetFunction(&mut f, m, c"k".as_ptr()), CUDA_ERROR_INVALID_HANDLE);
    }
}

#[test]
fn many_threads() {
    let _g = setup();
    let ctx = {
        let mut c = null_mut();
        unsafe { cuCtxGetCurrent(&mut c) };
        c as usize
    };
    let handles: Vec<_> = (0..16)
        .map(|t| {
            std::thread::spawn(move || unsafe {
                assert_eq!(cuCtxSetCurrent(ctx as CUcontext), CUDA_SUCCESS);
                for i in 0..200usize {
                    let n = 1 + (t * 7 + i) % 5000;
                    let d = dalloc(n);
                    let src = vec![t as u8; n];
                    let mut back = vec![0u8; n];
                    assert_eq!(copy::cuMemcpyHtoD(d, src.as_ptr().cast(), n), CUDA_SUCCESS);
                    assert_eq!(copy::cuMemcpyDtoH(back.as_mut_ptr().cast(), d, n), CUDA_SUCCESS);
                    assert_eq!(src, back);
                    assert_eq!(mem::cuMemFree(d), CUDA_SUCCESS);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

#[test]
fn memset_pitched_slices() {
    let _g = setup();
    unsafe {
        let d = dalloc(4096);
        assert_eq!(copy::cuMemsetD8(d, 0xee, 4096), CUDA_SUCCESS);
        for z in 0..3u64 {
            assert_eq!(copy::cuMemsetD2D8(d + z * 24, 8, 0x99, 4, 2), CUDA_SUCCESS);
        }
        let mut buf = [0u8; 96];
        copy::cuMemcpyDtoH(buf.as_mut_ptr().cast(), d, 96);
        let bad = (0..96).filter(|&i| {
            let want = if i < 72 && (i % 24) / 8 < 2 && i % 8 < 4 { 0x99 } else { 0xee };
            buf[i] != want
        });
        assert_eq!(bad.count(), 0);
        mem::cuMemFree(d);
    }
}

#[test]
fn copies_3d_linear_and_peer() {
    let (_g, ctx) = setup();
    unsafe {
        // 3 slices of 2 rows of 4 bytes, from a host volume with pitch 8 and 3 rows per slice
        // (starting at x 2, y 1) into a device volume with pitch 16 and 2 rows per slice.
        let src: Vec<u8> = (0..8 * 3 * 3).map(|i| i as u8).collect();
        let d = dalloc(16 * 2 * 3);
        copy::cuMemsetD8(d, 0, 96);
        let mut c = CUDA_MEMCPY3D::default();
        c.srcMemoryType = CU_MEMORYTYPE_HOST;
        c.srcHost = src.as_ptr().cast();
        c.srcXInBytes = 2;
        c.srcY = 1;
        c.srcPitch = 8;
        c.srcHeight = 3;
        c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        c.dstDevice = d;
        c.dstPitch = 16;
        c.dstHeight = 2;
        c.WidthInBytes = 4;
        c.Height = 2;
        c.Depth = 3;
        assert_eq!(copy::cuMemcpy3D(&c), CUDA_SUCCESS);
        let mut out = [0u8; 96];
        copy::cuMemcpyDtoH(out.as_mut_ptr().cast(), d, 96);
        for z in 0..3 {
            for y in 0..2 {
                for x in 0..4 {
                    assert_eq!(out[(z * 2 + y) * 16 + x], src[(z * 3 + y + 1) * 8 + x + 2]);
                }
                assert_eq!(out[(z * 2 + y) * 16 + 4], 0);
            }
        }
        // Rows per slice must cover y + Height; several slices need them given.
        c.srcHeight = 2;
        assert_eq!(copy::cuMemcpy3D(&c), CUDA_ERROR_INVALID_VALUE);
        c.srcHeight = 0;
        assert_eq!(copy::cuMemcpy3D(&c), CUDA_ERROR_INVALID_VALUE);
        c.srcHeight = 3;
        // One slice too many for the device volume.
        c.dstZ = 1;
        assert_eq!(copy::cuMemcpy3D(&c), CUDA_ERROR_INVALID_VALUE);
        // The same copy between contexts.
        let mut p = CUDA_MEMCPY3D_PEER::default();
        p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
        p.srcDevice = d;
        p.srcPitch = 16;
        p.srcHeight = 2;
        p.srcContext = ctx;
        p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
        p.dstDevice = d + 8;
        p.dstPitch = 16;
        p.dstHeight = 2;
        p.dstContext = ctx;
        p.WidthInBytes = 4;
        p.Height = 2;
        p.Depth = 3;
        assert_eq!(copy::cuMemcpy3DPeer(&p), CUDA_SUCCESS);
        copy::cuMemcpyDtoH(out.as_mut_ptr().cast(), d, 96);
        assert_eq!(out[8..12], out[0..4]);
        assert_eq!(out[80 + 8..80 + 12], out[80..84]);
        p.dstContext = 0x10 as CUcontext;
        assert_eq!(copy::cuMemcpy3DPeer(&p), CUDA_ERROR_INVALID_CONTEXT);
        assert_eq!(copy::cuMemcpyPeer(d, ctx, d + 48, ctx, 48), CUDA_SUCCESS);
        assert_eq!(copy::cuMemcpyPeer(d, ctx, d + 48, ctx, 49), CUDA_ERROR_INVALID_VALUE);
        mem::cuMemFree(d);
    }
}
