//! Batched memory operations: `cudaMemcpyBatchAsync` and `cudaMemcpy3DBatchAsync` (CUDA 12.8;
//! in the 12 ABI with the `failIdx` out-argument, which CUDA 13 dropped), and CUDA 13's
//! `cudaMemPrefetchBatchAsync`, `cudaMemDiscardBatchAsync` and
//! `cudaMemDiscardAndPrefetchBatchAsync`.
//!
//! The runtime's operands have the driver's layouts and values (`cudaMemcpyAttributes`/
//! `CUmemcpyAttributes`, `cudaMemcpy3DBatchOp`/`CUDA_MEMCPY3D_BATCH_OP`, `cudaMemLocation`/
//! `CUmemLocation`; a `cudaArray_t` is a `CUarray`), so, as in NVIDIA's runtime, each call
//! makes a context current and hands its arrays to the driver as they are: counts, indices,
//! access orders, flags, locations, the legacy NULL stream and the failure index are the
//! driver's to judge and report. The 12 ABI calls the driver's 12.8 entry points (with
//! `failIdx`), the 13 ABI its 13.0 ones.
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
#[cfg(not(feature = "abi12"))]
use std::ffi::c_ulonglong;
use std::ffi::c_void;

use crate::driver::types::*;
use crate::runtime::boundary::{cu, run};
use crate::runtime::rt;
use crate::types::*;

/// Performs a batch of memory copies asynchronously.
#[cfg(not(feature = "abi12"))]
#[export(family = Copy, per_thread = ptsz, sem = Copy(Batch))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyBatchAsync(
    dsts: *const *mut c_void,
    srcs: *const *const c_void,
    sizes: *const usize,
    count: usize,
    attrs: *mut cudaMemcpyAttributes,
    attrsIdxs: *mut usize,
    numAttrs: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        // The driver only reads the three arrays (its declaration lacks the const).
        cu(f.cuMemcpyBatchAsync_v2(
            dsts as *mut CUdeviceptr,
            srcs as *mut CUdeviceptr,
            sizes as *mut usize,
            count,
            attrs.cast::<CUmemcpyAttributes>(),
            attrsIdxs,
            numAttrs,
            stream,
        ))
    })
}

/// Performs a batch of memory copies asynchronously.
#[cfg(feature = "abi12")]
#[export(family = Copy, per_thread = ptsz, sem = Copy(Batch))]
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyBatchAsync(
    dsts: *mut *mut c_void,
    srcs: *mut *mut c_void,
    sizes: *mut usize,
    count: usize,
    attrs: *mut cudaMemcpyAttributes,
    attrsIdxs: *mut usize,
    numAttrs: usize,
    failIdx: *mut usize,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        cu(f.cuMemcpyBatchAsync_v1(
            dsts.cast::<CUdeviceptr>(),
            srcs.cast::<CUdeviceptr>(),
            sizes,
            count,
            attrs.cast::<CUmemcpyAttributes>(),
            attrsIdxs,
            numAttrs,
            failIdx,
            stream,
        ))
    })
}

passthrough! {
    #[cfg(not(feature = "abi12"))]
    cudaMemcpy3DBatchAsync(numOps: usize, opList: *mut cudaMemcpy3DBatchOp, flags: c_ulonglong, stream: cudaStream_t)
        = ctx.cuMemcpy3DBatchAsync_v2(numOps, opList.cast::<CUDA_MEMCPY3D_BATCH_OP>(), flags, stream)
        [family = Copy, per_thread = ptsz] "Performs a batch of 3D memory copies asynchronously.";
    #[cfg(feature = "abi12")]
    cudaMemcpy3DBatchAsync(numOps: usize, opList: *mut cudaMemcpy3DBatchOp, failIdx: *mut usize,
        flags: std::ffi::c_ulonglong, stream: cudaStream_t)
        = ctx.cuMemcpy3DBatchAsync_v1(numOps, opList.cast::<CUDA_MEMCPY3D_BATCH_OP>(), failIdx, flags, stream)
        [family = Copy, per_thread = ptsz] "Performs a batch of 3D memory copies asynchronously.";
    #[cfg(not(feature = "abi12"))]
    cudaMemDiscardBatchAsync(dptrs: *mut *mut c_void, sizes: *mut usize, count: usize, flags: c_ulonglong,
        stream: cudaStream_t)
        = ctx.cuMemDiscardBatchAsync(dptrs.cast::<CUdeviceptr>(), sizes, count, flags, stream)
        [family = Memory, per_thread = ptsz] "Performs a batch of memory discards asynchronously";
    /// An asynchronous copy described by copy attributes (`cudaMemcpyAttributes` has the driver's
    /// layout).
    #[cfg(not(feature = "abi12"))]
    cudaMemcpyWithAttributesAsync(dst: *mut c_void, src: *const c_void, size: usize, attr: *mut cudaMemcpyAttributes,
        stream: cudaStream_t)
        = ctx.cuMemcpyWithAttributesAsync(dst as u64, src as u64, size, attr.cast::<CUmemcpyAttributes>(), stream)
        [family = Copy, per_thread = ptsz, since = 13.5];
    #[cfg(not(feature = "abi12"))]
    cudaMemcpy3DWithAttributesAsync(op: *mut cudaMemcpy3DBatchOp, flags: c_ulonglong, stream: cudaStream_t)
        = ctx.cuMemcpy3DWithAttributesAsync(op.cast::<CUDA_MEMCPY3D_BATCH_OP>(), flags, stream)
        [family = Copy, per_thread = ptsz, since = 13.5]
        "An asynchronous 3D copy described by one batch operation (driver layout).";
}

/// Performs a batch of memory prefetches asynchronously
#[cfg(not(feature = "abi12"))]
#[export(family = Memory, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemPrefetchBatchAsync(
    dptrs: *mut *mut c_void,
    sizes: *mut usize,
    count: usize,
    prefetchLocs: *mut cudaMemLocation,
    prefetchLocIdxs: *mut usize,
    numPrefetchLocs: usize,
    flags: c_ulonglong,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        cu(f.cuMemPrefetchBatchAsync(
            dptrs.cast::<CUdeviceptr>(),
            sizes,
            count,
            prefetchLocs.cast::<CUmemLocation>(),
            prefetchLocIdxs,
            numPrefetchLocs,
            flags,
            stream,
        ))
    })
}

/// Performs a batch of memory discards and prefetches asynchronously
#[cfg(not(feature = "abi12"))]
#[export(family = Memory, per_thread = ptsz)]
#[no_mangle]
pub unsafe extern "C" fn cudaMemDiscardAndPrefetchBatchAsync(
    dptrs: *mut *mut c_void,
    sizes: *mut usize,
    count: usize,
    prefetchLocs: *mut cudaMemLocation,
    prefetchLocIdxs: *mut usize,
    numPrefetchLocs: usize,
    flags: c_ulonglong,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        cu(f.cuMemDiscardAndPrefetchBatchAsync(
            dptrs.cast::<CUdeviceptr>(),
            sizes,
            count,
            prefetchLocs.cast::<CUmemLocation>(),
            prefetchLocIdxs,
            numPrefetchLocs,
            flags,
            stream,
        ))
    })
}

/// The runtime's and the driver's batch operands are the same bytes: checked field by field,
/// so that the arrays handed through above stay right.
const _: () = {
    same_layout! {
        cudaMemcpyAttributes = CUmemcpyAttributes: srcLocHint, dstLocHint, flags;
        cudaMemcpy3DOperand = CUmemcpy3DOperand: op;
        cudaMemcpy3DOperandPtr = CUmemcpy3DOperandPtr: rowLength, layerHeight, locHint;
        cudaMemcpy3DOperandArray = CUmemcpy3DOperandArray: offset;
        cudaMemcpy3DBatchOp = CUDA_MEMCPY3D_BATCH_OP: dst, extent, srcAccessOrder, flags;
        cudaExtent = CUextent3D;
        cudaOffset3D = CUoffset3D;
    }
    // The enums' values are the driver's.
    assert!(cudaMemcpySrcAccessOrder::cudaMemcpySrcAccessOrderStream as i32 == 1);
    assert!(cudaMemcpySrcAccessOrder::cudaMemcpySrcAccessOrderAny as i32 == 3);
    assert!(cudaMemcpy3DOperandType::cudaMemcpyOperandTypePointer as i32 == 1);
    assert!(cudaMemcpy3DOperandType::cudaMemcpyOperandTypeArray as i32 == 2);
    assert!(cudaMemcpyFlags::cudaMemcpyFlagPreferOverlapWithCompute as i32 == 1);
};
