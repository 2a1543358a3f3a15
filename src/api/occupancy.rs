//! Occupancy: blocks and clusters a kernel can have resident, and the dynamic shared memory
//! left per block.
#![allow(non_snake_case)]

use cudart_rs_macros::export;
use std::ffi::{c_int, c_uint, c_void};

use crate::driver::types::{CUfunction, CUlaunchConfig, CUresult};
use crate::driver::Fns;
use crate::runtime::boundary::{cu, out, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

use super::launch::cu_config;
use super::registration::*;

// ---- occupancy -------------------------------------------------------------------------
//
// As in NVIDIA's runtimes every argument but the function is the driver's to judge; the
// function is the kernel's `CUfunction` in the current context.

/// Returns occupancy for a device function.
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    numBlocks: *mut c_int,
    func: *const c_void,
    blockSize: c_int,
    dynamicSMemSize: usize,
) -> cudaError_t {
    run(|| max_active_blocks(numBlocks, func, blockSize, dynamicSMemSize, 0))
}

/// Returns occupancy for a device function with the specified flags.
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    numBlocks: *mut c_int,
    func: *const c_void,
    blockSize: c_int,
    dynamicSMemSize: usize,
    flags: c_uint,
) -> cudaError_t {
    run(|| max_active_blocks(numBlocks, func, blockSize, dynamicSMemSize, flags))
}

fn max_active_blocks(
    numBlocks: *mut c_int,
    func: *const c_void,
    blockSize: c_int,
    dynamicSMemSize: usize,
    flags: c_uint,
) -> Res {
    let f = rt::ctx()?;
    let h = function_of(func, f)?;
    // SAFETY: a function of the current context; the out pointer is the driver's to check.
    cu(unsafe {
        f.cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, h, blockSize, dynamicSMemSize, flags)
    })
}

/// Returns dynamic shared memory available per block when launching `numBlocks` blocks on SM.
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyAvailableDynamicSMemPerBlock(
    dynamicSmemSize: *mut usize,
    func: *const c_void,
    numBlocks: c_int,
    blockSize: c_int,
) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        let h = function_of(func, f)?;
        // A null out pointer crashes NVIDIA's runtime (and the driver): refused here.
        out(dynamicSmemSize)?;
        // SAFETY: a function of the current context and a valid out pointer.
        cu(f.cuOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, h, numBlocks, blockSize))
    })
}

/// A cluster query of a kernel under a launch configuration: the configuration read (NVIDIA's
/// runtime reads it unchecked: a null one crashes it), then the kernel's function in the
/// current context, then `query` with both.
#[inline]
unsafe fn cluster_query(
    func: *const c_void,
    launchConfig: *const cudaLaunchConfig_t,
    query: impl FnOnce(&Fns, CUfunction, &CUlaunchConfig) -> CUresult,
) -> Res {
    let c = cu_config(launchConfig.as_ref().ok_or(cudaError::cudaErrorInvalidValue)?);
    let f = rt::ctx()?;
    let h = function_of(func, f)?;
    cu(query(f, h, &c))
}

/// Given the kernel function (`func`) and launch configuration (`launchConfig`), return the
/// maximum cluster size in `*clusterSize`.
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyMaxPotentialClusterSize(
    clusterSize: *mut c_int,
    func: *const c_void,
    launchConfig: *const cudaLaunchConfig_t,
) -> cudaError_t {
    // A function of the current context; the rest is the driver's to check.
    run(|| cluster_query(func, launchConfig, |f, h, c| f.cuOccupancyMaxPotentialClusterSize(clusterSize, h, c)))
}

/// Given the kernel function (`func`) and launch configuration (`launchConfig`), return the
/// maximum number of clusters that could co-exist on the target device in `*numClusters`.
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyMaxActiveClusters(
    numClusters: *mut c_int,
    func: *const c_void,
    launchConfig: *const cudaLaunchConfig_t,
) -> cudaError_t {
    // A function of the current context; the rest is the driver's to check.
    run(|| cluster_query(func, launchConfig, |f, h, c| f.cuOccupancyMaxActiveClusters(numClusters, h, c)))
}
