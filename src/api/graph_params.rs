//! The conversions of graph node parameters between the runtime's structs and the driver's,
//! shared by the node exports of every type (`graph_kernel`, `graph_copy`, `graph_node`):
//! Graphs, nodes and executable graphs are the driver's handles, so each export converts its
//! parameters and calls the driver's function of the same name. The conversions are the ones
//! the equivalent direct calls use, so that a node and the call it stands for never disagree:
//!
//! - kernels are named by their host stub (or a `cudaKernel_t`), resolved through the
//!   registration as `cudaLaunchKernel` does ([`registration::resolve`]); the driver gets the
//!   `CUkernel` (`kern`, with `func` NULL and the current context), and reading a node's
//!   parameters gives back the host stub ([`registration::host_stub`]);
//! - copies are `cudaMemcpy3DParms` converted by [`copy::memcpy3d_params`] with
//!   `cudaMemcpy3D`'s checks; the 1D and symbol forms are the same 3D copy of one row
//!   (symbols: [`symbols::symbol_range`] and the kinds `cudaMemcpyToSymbol`/`FromSymbol`
//!   take);
//! - allocation nodes take the pool properties as the memory pools convert them
//!   ([`pool::cu_pool_props`]); host functions, child graphs, events, access descriptors,
//!   external semaphores and frees have the driver's layout and values and go as they are.
//!
//! Everything the driver checks (graph and node handles, a node of another type than the
//! function's, dependencies, sizes, pitches, element sizes) is the driver's error.
#![allow(non_snake_case)]

use std::ffi::{c_uint, c_void};
use std::ptr::null_mut;

use crate::api::copy::memcpy3d_params;
use crate::api::pool::{self, cu_pool_props};
use crate::api::{registration, symbols};
use crate::driver::types::*;
use crate::driver::Fns;
use crate::runtime::boundary::{cu, out, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

// The parameters passed to the driver as they are: the runtime's structs are the driver's,
// field for field, with the same enum values (`cuda.h`: CUmemAccessDesc,
// CUDA_EXT_SEM_SIGNAL/WAIT_NODE_PARAMS, CUDA_EXTERNAL_SEMAPHORE_SIGNAL/WAIT_PARAMS,
// CUgraphEdgeData, CUlaunchAttributeValue, and in `CUgraphNodeParams` the members that are
// not converted).
const _: () = {
    use std::mem::{offset_of, size_of};
    same_layout! {
        cudaMemAccessDesc = CUmemAccessDesc: flags;
        cudaMemAllocNodeParams = CUDA_MEM_ALLOC_NODE_PARAMS;
        cudaMemAllocNodeParamsV2 = CUDA_MEM_ALLOC_NODE_PARAMS;
    }
    assert!(size_of::<cudaExternalSemaphoreSignalNodeParams>() == 24);
    assert!(offset_of!(cudaExternalSemaphoreSignalNodeParams, numExtSems) == 16);
    assert!(size_of::<cudaExternalSemaphoreWaitNodeParams>() == 24);
    assert!(offset_of!(cudaExternalSemaphoreWaitNodeParams, numExtSems) == 16);
    assert!(
        size_of::<cudaExternalSemaphoreSignalParams>() == 144
            && offset_of!(cudaExternalSemaphoreSignalParams, flags) == 72
    );
    assert!(
        size_of::<cudaExternalSemaphoreWaitParams>() == 144 && offset_of!(cudaExternalSemaphoreWaitParams, flags) == 72
    );
    assert!(size_of::<cudaGraphEdgeData>() == 8);
    assert!(size_of::<cudaLaunchAttributeValue>() == 64);
    assert!(size_of::<cudaHostNodeParams>() == size_of::<CUDA_HOST_NODE_PARAMS>());
    assert!(size_of::<cudaMemsetParams>() == size_of::<CUDA_MEMSET_NODE_PARAMS>());
};

/// The caller's parameter block, or `cudaErrorInvalidValue` for NULL.
#[inline]
pub(crate) fn given<'a, T>(p: *const T) -> Res<&'a T> {
    // SAFETY: the caller's pointer; NULL is rejected, anything else is the caller's promise.
    unsafe { p.as_ref() }.ok_or(cudaError::cudaErrorInvalidValue)
}

/// The driver table with a context current, and that context (the one copies, memsets and
/// conditional nodes run in).
pub(crate) fn ctx() -> Res<(&'static Fns, CUcontext)> {
    let f = rt::ctx()?;
    let mut c: CUcontext = null_mut();
    // SAFETY: valid out pointer.
    cu(unsafe { f.cuCtxGetCurrent(&mut c) })?;
    Ok((f, c))
}

// ---- conversions ------------------------------------------------------------------------

/// A kernel node's launch, with the kernel resolved as `cudaLaunchKernel` resolves it.
#[allow(clippy::too_many_arguments)]
pub(crate) fn kernel(
    f: &Fns,
    func: *const c_void,
    grid: dim3,
    block: dim3,
    shared: c_uint,
    kernelParams: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> Res<CUDA_KERNEL_NODE_PARAMS> {
    // A kernel node's function: a registered host stub or a `cudaKernel_t`; in CUDA 13.5
    // also a `cudaFunction_t`, and what is none of them is `cudaErrorInvalidValue` there
    // (13.0: `cudaErrorInvalidResourceHandle`), as NVIDIA's 13.5 runtime answers on the H100
    // (ctest/cu_graph_nodes.cu, ctest/cu_decl135.cu).
    let (function, k) = match registration::resolve(func, f) {
        Ok(k) => (null_mut(), k),
        #[cfg(not(feature = "abi12"))]
        Err(cudaError::cudaErrorInvalidResourceHandle) => {
            let mut v = 0;
            // SAFETY: the driver checks the handle; a context is current.
            if unsafe { f.cuFuncGetAttribute(&mut v, 0, func as CUfunction) } != 0 {
                return Err(cudaError::cudaErrorInvalidValue);
            }
            (func as CUfunction, null_mut())
        }
        Err(e) => return Err(e),
    };
    Ok(CUDA_KERNEL_NODE_PARAMS {
        func: function,
        gridDimX: grid.x,
        gridDimY: grid.y,
        gridDimZ: grid.z,
        blockDimX: block.x,
        blockDimY: block.y,
        blockDimZ: block.z,
        sharedMemBytes: shared,
        kernelParams,
        extra,
        kern: k,
        ctx: null_mut(),
    })
}

pub(crate) fn kernel_params(f: &Fns, p: *const cudaKernelNodeParams) -> Res<CUDA_KERNEL_NODE_PARAMS> {
    let p = given(p)?;
    kernel(f, p.func, p.gridDim, p.blockDim, p.sharedMemBytes, p.kernelParams, p.extra)
}

/// The runtime's view of a kernel node's parameters: the kernel as the host stub it was
/// registered with (else the driver's handle).
pub(crate) fn kernel_params_back(f: &Fns, k: &CUDA_KERNEL_NODE_PARAMS) -> cudaKernelNodeParams {
    let func = registration::host_stub(k.kern, k.func, f).unwrap_or(if k.kern.is_null() {
        k.func as *mut c_void
    } else {
        k.kern as *mut c_void
    });
    cudaKernelNodeParams {
        func,
        gridDim: dim3 { x: k.gridDimX, y: k.gridDimY, z: k.gridDimZ },
        blockDim: dim3 { x: k.blockDimX, y: k.blockDimY, z: k.blockDimZ },
        sharedMemBytes: k.sharedMemBytes,
        kernelParams: k.kernelParams,
        extra: k.extra,
    }
}

/// A 3D copy, with `cudaMemcpy3D`'s checks.
pub(crate) fn copy3d(f: &Fns, p: *const cudaMemcpy3DParms) -> Res<CUDA_MEMCPY3D> {
    memcpy3d_params(f, given(p)?)
}

/// A copy of `count` bytes: one row, as a 3D copy (the same conversion and checks), which
/// the driver gets without pitches or heights (0), as NVIDIA's runtime gives it: a node made
/// by a 1D or symbol form reads back as pitch 0 and height 0 (on the H100, 13.0.96 and
/// 12.9.79: "copy 1D: src pitch 0 xsize 0 ysize 0, dst pitch 0 xsize 0 ysize 0").
pub(crate) fn copy1d(
    f: &Fns,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: raw::cudaMemcpyKind,
) -> Res<CUDA_MEMCPY3D> {
    let row = |p: *mut c_void| cudaPitchedPtr { ptr: p, pitch: count, xsize: count, ysize: 1 };
    let zero = cudaPos { x: 0, y: 0, z: 0 };
    let p = cudaMemcpy3DParms {
        srcArray: null_mut(),
        srcPos: zero,
        srcPtr: row(src as *mut c_void),
        dstArray: null_mut(),
        dstPos: zero,
        dstPtr: row(dst),
        extent: cudaExtent { width: count, height: 1, depth: 1 },
        kind,
    };
    memcpy3d_params(f, &p).map(one_row)
}

/// A copy of one row without pitches or heights (see [`copy1d`]).
pub(crate) fn one_row(c: CUDA_MEMCPY3D) -> CUDA_MEMCPY3D {
    CUDA_MEMCPY3D { srcPitch: 0, srcHeight: 0, dstPitch: 0, dstHeight: 0, ..c }
}

/// A copy to (`to`) or from `count` bytes at `offset` in a symbol: the symbol and range as
/// `cudaMemcpyToSymbol` and `cudaMemcpyFromSymbol` check them, then the kind; `other` is the
/// copy's source or destination.
pub(crate) fn copy_symbol(
    f: &Fns,
    symbol: *const c_void,
    other: *mut c_void,
    count: usize,
    offset: usize,
    kind: raw::cudaMemcpyKind,
    to: bool,
) -> Res<CUDA_MEMCPY3D> {
    let dev = symbols::symbol_range(symbol, count, offset, f)? as usize as *mut c_void;
    if to {
        symbols::to_symbol_kind(kind.0)?;
        copy1d(f, dev, other, count, kind)
    } else {
        symbols::from_symbol_kind(kind.0)?;
        copy1d(f, other, dev, count, kind)
    }
}

/// The runtime's view of a copy node's `CUDA_MEMCPY3D`: array ends as arrays, pointer ends
/// as pitched pointers with the driver's pitch and height and no width (`xsize` 0, as
/// NVIDIA's runtime reads them back: "copy 3D: src pitch same as set xsize 0 ysize 4");
/// positions and the width in elements of the array taking part (bytes if none), as
/// [`memcpy3d_params`] takes them; the kind from the ends' memory types.
pub(crate) fn copy3d_back(f: &Fns, c: &CUDA_MEMCPY3D) -> Res<cudaMemcpy3DParms> {
    use crate::engine::copy3d::array_element_size;
    let elem = if c.srcMemoryType == CU_MEMORYTYPE_ARRAY {
        array_element_size(f, c.srcArray)?
    } else if c.dstMemoryType == CU_MEMORYTYPE_ARRAY {
        array_element_size(f, c.dstArray)?
    } else {
        1
    };
    Ok(copy3d_view(c, elem.max(1)))
}

/// [`copy3d_back`] once the element size of the array taking part (1 if none) is known.
pub(crate) fn copy3d_view(c: &CUDA_MEMCPY3D, elem: usize) -> cudaMemcpy3DParms {
    let end = |mem: CUmemorytype, host: usize, dev: CUdeviceptr, array: CUarray, pitch: usize, height: usize| {
        if mem == CU_MEMORYTYPE_ARRAY {
            return (array as cudaArray_t, cudaPitchedPtr { ptr: null_mut(), pitch: 0, xsize: 0, ysize: 0 });
        }
        let p = if mem == CU_MEMORYTYPE_HOST { host } else { dev as usize };
        (null_mut(), cudaPitchedPtr { ptr: p as *mut c_void, pitch, xsize: 0, ysize: height })
    };
    let (srcArray, srcPtr) = end(c.srcMemoryType, c.srcHost as usize, c.srcDevice, c.srcArray, c.srcPitch, c.srcHeight);
    let (dstArray, dstPtr) = end(c.dstMemoryType, c.dstHost as usize, c.dstDevice, c.dstArray, c.dstPitch, c.dstHeight);
    let host = |m: CUmemorytype| m == CU_MEMORYTYPE_HOST;
    let kind = if c.srcMemoryType == CU_MEMORYTYPE_UNIFIED || c.dstMemoryType == CU_MEMORYTYPE_UNIFIED {
        cudaMemcpyKind::cudaMemcpyDefault
    } else {
        match (host(c.srcMemoryType), host(c.dstMemoryType)) {
            (true, true) => cudaMemcpyKind::cudaMemcpyHostToHost,
            (true, false) => cudaMemcpyKind::cudaMemcpyHostToDevice,
            (false, true) => cudaMemcpyKind::cudaMemcpyDeviceToHost,
            (false, false) => cudaMemcpyKind::cudaMemcpyDeviceToDevice,
        }
    };
    cudaMemcpy3DParms {
        srcArray,
        srcPos: cudaPos { x: c.srcXInBytes / elem, y: c.srcY, z: c.srcZ },
        srcPtr,
        dstArray,
        dstPos: cudaPos { x: c.dstXInBytes / elem, y: c.dstY, z: c.dstZ },
        dstPtr,
        extent: cudaExtent { width: c.WidthInBytes / elem, height: c.Height, depth: c.Depth },
        kind: raw::cudaMemcpyKind(kind as i32),
    }
}

/// A node's parameters as a `...GetParams` export gives them: the out pointer first (NULL is
/// `cudaErrorInvalidValue` before the driver is asked, as NVIDIA's runtime answers), then the
/// driver's form, read by `read` and converted by `back`.
pub(crate) fn get_params<D: Default, R: 'static>(
    o: *mut R,
    read: impl FnOnce(&'static Fns, &mut D) -> CUresult,
    back: impl FnOnce(&'static Fns, &D) -> Res<R>,
) -> Res {
    let o = out(o)?;
    let f = rt::ctx()?;
    let mut d = D::default();
    cu(read(f, &mut d))?;
    *o = back(f, &d)?;
    Ok(())
}

/// A memset node's parameters: the element size must be 1, 2 or 4 bytes
/// (`cudaErrorInvalidValue`); the rest is the driver's to judge.
pub(crate) fn memset_params(p: *const cudaMemsetParams) -> Res<CUDA_MEMSET_NODE_PARAMS> {
    let p = given(p)?;
    memset(p.dst, p.pitch, p.value, p.elementSize, p.width, p.height)
}

pub(crate) fn memset(
    dst: *mut c_void,
    pitch: usize,
    value: c_uint,
    elementSize: c_uint,
    width: usize,
    height: usize,
) -> Res<CUDA_MEMSET_NODE_PARAMS> {
    if !matches!(elementSize, 1 | 2 | 4) {
        return Err(cudaError::cudaErrorInvalidValue);
    }
    Ok(CUDA_MEMSET_NODE_PARAMS { dst: dst as CUdeviceptr, pitch, value, elementSize, width, height })
}

pub(crate) fn host_params(p: *const cudaHostNodeParams) -> Res<CUDA_HOST_NODE_PARAMS> {
    let p = given(p)?;
    Ok(CUDA_HOST_NODE_PARAMS { fn_: p.r#fn, userData: p.userData })
}

/// An allocation node's parameters (those of `cudaMemAllocNodeParams` and of its `V2`).
/// Access descriptors counted but not given are `cudaErrorInvalidValue` (the driver, and
/// NVIDIA's runtime with it, crash on them).
pub(crate) fn alloc(
    poolProps: &cudaMemPoolProps,
    accessDescs: *const cudaMemAccessDesc,
    accessDescCount: usize,
    bytesize: usize,
) -> Res<CUDA_MEM_ALLOC_NODE_PARAMS> {
    if accessDescCount != 0 && accessDescs.is_null() {
        return Err(cudaError::cudaErrorInvalidValue);
    }
    Ok(CUDA_MEM_ALLOC_NODE_PARAMS {
        poolProps: cu_pool_props(poolProps),
        accessDescs: accessDescs as *const CUmemAccessDesc,
        accessDescCount,
        bytesize,
        dptr: 0,
    })
}

/// The runtime's view of an allocation node's parameters.
pub(crate) fn alloc_back(d: &CUDA_MEM_ALLOC_NODE_PARAMS) -> cudaMemAllocNodeParams {
    cudaMemAllocNodeParams {
        poolProps: pool::pool_props_back(&d.poolProps),
        accessDescs: d.accessDescs as *const cudaMemAccessDesc,
        accessDescCount: d.accessDescCount,
        bytesize: d.bytesize,
        dptr: d.dptr as usize as *mut c_void,
    }
}

/// `cudaGraphNodeParams` to the driver's `CUgraphNodeParams`: the union's bytes as they are
/// for the types whose parameters have the driver's layout (host, child graph, events,
/// external semaphores, free, empty), converted for kernels, copies, memsets and conditional
/// nodes (which carry the context they run in) and allocations. A type the runtime does not
/// know is `cudaErrorInvalidValue`.
pub(crate) fn node_params(f: &Fns, c: CUcontext, p: &cudaGraphNodeParams) -> Res<CUgraphNodeParams> {
    use cudaGraphNodeType::*;
    let mut d =
        CUgraphNodeParams { type_: p.r#type.0, reserved0: p.reserved0, reserved2: p.reserved2, ..Default::default() };
    // SAFETY: the union is plain data; which member is meant is what `type` says.
    unsafe {
        d.u.reserved1 = p.u.reserved1;
        let t = p.r#type;
        // CUDA 13.5's parameters name the context a node runs in (NULL: the current one);
        // the function type of a kernel node needs no more than the function itself.
        #[cfg(not(feature = "abi12"))]
        let ctx_or = |x: cudaExecutionContext_t| if x.is_null() { c } else { x as CUcontext };
        if t == cudaGraphNodeTypeKernel {
            let k = &p.u.kernel;
            d.u.kernel = kernel(f, k.func, k.gridDim, k.blockDim, k.sharedMemBytes, k.kernelParams, k.extra)?;
            #[cfg(not(feature = "abi12"))]
            {
                d.u.kernel.ctx = k.ctx as CUcontext;
            }
        } else if t == cudaGraphNodeTypeMemcpy {
            let m = &p.u.memcpy;
            // 13.0's three reserved words are, in 13.5, one and the context; in the 12 ABI the
            // driver's parameters have one reserved word where the runtime's have three, and
            // NVIDIA's runtime refuses the two it cannot pass on (the H100,
            // `ctest/graph_node_errors.c`).
            #[cfg(feature = "abi12")]
            let (reserved, copyCtx) = {
                if m.reserved[1] != 0 || m.reserved[2] != 0 {
                    return Err(cudaError::cudaErrorInvalidValue);
                }
                (m.reserved[0], c)
            };
            #[cfg(not(feature = "abi12"))]
            let (reserved, copyCtx) = (m.reserved, ctx_or(m.ctx));
            d.u.memcpy = CUDA_MEMCPY_NODE_PARAMS {
                flags: m.flags,
                reserved,
                copyCtx,
                copyParams: memcpy3d_params(f, &m.copyParams)?,
            };
        } else if t == cudaGraphNodeTypeMemset {
            let m = &p.u.memset;
            let s = memset(m.dst, m.pitch, m.value, m.elementSize, m.width, m.height)?;
            d.u.memset = CUDA_MEMSET_NODE_PARAMS_v2 {
                dst: s.dst,
                pitch: s.pitch,
                value: s.value,
                elementSize: s.elementSize,
                width: s.width,
                height: s.height,
                #[cfg(feature = "abi12")]
                ctx: c,
                #[cfg(not(feature = "abi12"))]
                ctx: ctx_or(m.ctx),
            };
        } else if t == cudaGraphNodeTypeMemAlloc {
            let m = &p.u.alloc;
            d.u.alloc = alloc(&m.poolProps, m.accessDescs, m.accessDescCount, m.bytesize)?;
        } else if t == cudaGraphNodeTypeConditional {
            let m = &p.u.conditional;
            d.u.conditional = CUDA_CONDITIONAL_NODE_PARAMS {
                handle: m.handle,
                type_: m.r#type.0,
                size: m.size,
                phGraph_out: m.phGraph_out as *mut CUgraph,
                #[cfg(feature = "abi12")]
                ctx: c,
                #[cfg(not(feature = "abi12"))]
                ctx: ctx_or(m.ctx),
            };
        } else if !(0..=cudaGraphNodeTypeConditional as i32).contains(&t.0) || t.0 == 0x0c {
            // Types the driver has no node for: 13.5's external engine node is
            // `cudaErrorNotSupported` there, everything else (its memcpy batch node too)
            // `cudaErrorInvalidValue` (NVIDIA's 13.5 runtime on the 13.0 driver, the H100).
            #[cfg(not(feature = "abi12"))]
            if t == cudaGraphNodeTypeExternalEngine {
                return Err(cudaError::cudaErrorNotSupported);
            }
            return Err(cudaError::cudaErrorInvalidValue);
        }
    }
    Ok(d)
}

/// The driver's `CUgraphNodeParams` as the runtime's (`cudaGraphNodeGetParams`, the recapture
/// callback): [`node_params`] the other way. The union's bytes as they are, with kernels
/// (the host stub of a registered kernel), copies and allocations converted back.
#[cfg_attr(feature = "abi12", allow(dead_code))]
pub(crate) fn node_params_back(f: &Fns, d: &CUgraphNodeParams) -> Res<cudaGraphNodeParams> {
    use cudaGraphNodeType::*;
    // SAFETY: the union is plain data; which member is meant is what `type` says.
    unsafe {
        let mut p = cudaGraphNodeParams {
            r#type: raw::cudaGraphNodeType(d.type_),
            reserved0: d.reserved0,
            u: cudaGraphNodeParamsUnion { reserved1: d.u.reserved1 },
            reserved2: d.reserved2,
        };
        let t = p.r#type;
        if t == cudaGraphNodeTypeKernel {
            let k = kernel_params_back(f, &d.u.kernel);
            p.u.kernel = cudaKernelNodeParamsV2 {
                func: k.func,
                gridDim: k.gridDim,
                blockDim: k.blockDim,
                sharedMemBytes: k.sharedMemBytes,
                kernelParams: k.kernelParams,
                extra: k.extra,
                #[cfg(not(feature = "abi12"))]
                ctx: d.u.kernel.ctx as cudaExecutionContext_t,
                #[cfg(not(feature = "abi12"))]
                functionType: raw::cudaKernelFunctionType(0),
            };
        } else if t == cudaGraphNodeTypeMemcpy {
            let m = &d.u.memcpy;
            p.u.memcpy = cudaMemcpyNodeParams {
                flags: m.flags,
                #[cfg(feature = "abi12")]
                reserved: [m.reserved, 0, 0],
                #[cfg(not(feature = "abi12"))]
                reserved: m.reserved,
                #[cfg(not(feature = "abi12"))]
                ctx: m.copyCtx as cudaExecutionContext_t,
                copyParams: copy3d_back(f, &m.copyParams)?,
            };
        } else if t == cudaGraphNodeTypeMemAlloc {
            let a = alloc_back(&d.u.alloc);
            p.u.alloc = cudaMemAllocNodeParamsV2 {
                poolProps: a.poolProps,
                accessDescs: a.accessDescs,
                accessDescCount: a.accessDescCount,
                bytesize: a.bytesize,
                dptr: a.dptr,
            };
        }
        Ok(p)
    }
}

/// What the driver wrote back into a node's parameters when it made the node: the address of
/// an allocation, the body graphs of a conditional node.
pub(crate) fn node_params_out(p: &mut cudaGraphNodeParams, d: &CUgraphNodeParams) {
    use cudaGraphNodeType::*;
    // SAFETY: plain data; the member is the one `type` names.
    unsafe {
        if p.r#type == cudaGraphNodeTypeMemAlloc {
            p.u.alloc.dptr = d.u.alloc.dptr as usize as *mut c_void;
        } else if p.r#type == cudaGraphNodeTypeConditional {
            p.u.conditional.phGraph_out = d.u.conditional.phGraph_out as *mut cudaGraph_t;
        }
    }
}

/// `cudaGraphAddNode` in both forms: with or without edge data.
pub(crate) fn add_node(
    pGraphNode: *mut cudaGraphNode_t,
    graph: cudaGraph_t,
    pDependencies: *const cudaGraphNode_t,
    dependencyData: Option<*const cudaGraphEdgeData>,
    numDependencies: usize,
    nodeParams: *mut cudaGraphNodeParams,
) -> Res {
    let (f, c) = ctx()?;
    let p = out(nodeParams)?;
    let mut d = node_params(f, c, p)?;
    // SAFETY: converted parameters; the driver checks the handles and the rest.
    cu(unsafe {
        match dependencyData {
            Some(e) => {
                f.cuGraphAddNode_v2(pGraphNode, graph, pDependencies, e as *const c_void, numDependencies, &mut d)
            }
            None => f.cuGraphAddNode_v1(pGraphNode, graph, pDependencies, numDependencies, &mut d),
        }
    })?;
    node_params_out(p, &d);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ptr::null_mut;

    #[test]
    fn pointer_ends_read_back_with_pitch_and_height_but_no_width() {
        let c = CUDA_MEMCPY3D {
            srcMemoryType: CU_MEMORYTYPE_HOST,
            srcHost: 0x1000 as *const c_void,
            srcPitch: 256,
            srcHeight: 4,
            dstMemoryType: CU_MEMORYTYPE_DEVICE,
            dstDevice: 0x2000,
            dstPitch: 512,
            dstHeight: 8,
            WidthInBytes: 64,
            Height: 4,
            Depth: 1,
            ..Default::default()
        };
        let p = copy3d_view(&c, 1);
        assert_eq!((p.srcPtr.ptr, p.srcPtr.pitch, p.srcPtr.xsize, p.srcPtr.ysize), (0x1000 as *mut c_void, 256, 0, 4));
        assert_eq!((p.dstPtr.ptr, p.dstPtr.pitch, p.dstPtr.xsize, p.dstPtr.ysize), (0x2000 as *mut c_void, 512, 0, 8));
        assert_eq!((p.extent.width, p.extent.height, p.extent.depth), (64, 4, 1));
        assert_eq!(p.kind.0, cudaMemcpyKind::cudaMemcpyHostToDevice as i32);
    }

    #[test]
    fn one_row_copies_have_no_pitches_or_heights() {
        let c = CUDA_MEMCPY3D {
            srcMemoryType: CU_MEMORYTYPE_DEVICE,
            srcDevice: 0x1000,
            srcPitch: 128,
            srcHeight: 1,
            dstMemoryType: CU_MEMORYTYPE_HOST,
            dstHost: 0x2000 as *mut c_void,
            dstPitch: 128,
            dstHeight: 1,
            WidthInBytes: 128,
            Height: 1,
            Depth: 1,
            ..Default::default()
        };
        let r = one_row(c);
        assert_eq!((r.srcPitch, r.srcHeight, r.dstPitch, r.dstHeight), (0, 0, 0, 0));
        assert_eq!(
            (r.srcDevice, r.dstHost, r.WidthInBytes, r.Height, r.Depth),
            (0x1000, 0x2000 as *mut c_void, 128, 1, 1)
        );
        let p = copy3d_view(&r, 1);
        assert_eq!((p.srcPtr.pitch, p.srcPtr.xsize, p.srcPtr.ysize), (0, 0, 0));
    }

    #[test]
    fn access_descriptors_counted_but_not_given_are_refused() {
        // SAFETY: a plain C struct, all-zero is valid.
        let props: cudaMemPoolProps = unsafe { std::mem::zeroed() };
        assert_eq!(alloc(&props, std::ptr::null(), 1, 4096).err(), Some(cudaError::cudaErrorInvalidValue));
        let d = alloc(&props, std::ptr::null(), 0, 4096).unwrap();
        assert_eq!((d.accessDescCount, d.bytesize), (0, 4096));
        // SAFETY: a plain C struct, all-zero is valid.
        let desc: cudaMemAccessDesc = unsafe { std::mem::zeroed() };
        assert_eq!(alloc(&props, &desc, 1, 4096).unwrap().accessDescCount, 1);
    }

    #[test]
    fn memset_element_sizes_are_1_2_or_4() {
        for e in [1, 2, 4] {
            let p = memset(0x1000 as *mut c_void, 64, 7, e, 16, 2).unwrap();
            assert_eq!((p.dst, p.pitch, p.value, p.elementSize, p.width, p.height), (0x1000, 64, 7, e, 16, 2));
        }
        for e in [0, 3, 8] {
            assert_eq!(memset(0x1000 as *mut c_void, 0, 0, e, 16, 1).err(), Some(cudaError::cudaErrorInvalidValue));
        }
    }

    #[test]
    fn what_the_driver_writes_back_reaches_the_caller() {
        // SAFETY: plain C structs, all-zero is valid.
        let mut p: cudaGraphNodeParams = unsafe { std::mem::zeroed() };
        let mut d = CUgraphNodeParams::default();
        p.r#type = raw::cudaGraphNodeType(cudaGraphNodeType::cudaGraphNodeTypeMemAlloc as i32);
        d.u.alloc.dptr = 0x1234;
        node_params_out(&mut p, &d);
        // SAFETY: the member `type` names.
        assert_eq!(unsafe { p.u.alloc.dptr }, 0x1234 as *mut c_void);

        let mut bodies = [null_mut::<CUgraph_st>(); 2];
        p.r#type = raw::cudaGraphNodeType(cudaGraphNodeType::cudaGraphNodeTypeConditional as i32);
        d.u.conditional = CUDA_CONDITIONAL_NODE_PARAMS {
            handle: 1,
            type_: 0,
            size: 2,
            phGraph_out: bodies.as_mut_ptr(),
            ctx: null_mut(),
        };
        node_params_out(&mut p, &d);
        // SAFETY: the member `type` names.
        assert_eq!(unsafe { p.u.conditional.phGraph_out }, bodies.as_mut_ptr());
    }
}
