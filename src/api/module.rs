//! What nvcc-built programs call: fat binary, kernel and variable registration (from the
//! static constructors nvcc generates), kernel launches, and the device-symbol exports.
//!
//! Registration only records: the fat binary wrapper, host stub -> kernel name, host
//! shadow -> variable name. Nothing touches the driver until the first call that needs the
//! code: the fat binary is then handed to the driver as it is (`cuLibraryLoadData`: one
//! context-independent library, the driver picks the image for each device, JIT-compiles
//! PTX and decompresses). A kernel is a `CUkernel` of that library, which `cuLaunchKernel`
//! launches in the current context; `__cudaGetKernel` hands it to the launch stub once, so
//! a launch is one driver call.
#![allow(non_snake_case)]

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, OnceLock};

use parking_lot::{Mutex, RwLock};

use crate::boundary::{cu, out, record, run, Res};
use crate::driver::types::*;
use crate::driver::Fns;
use crate::error::cudaError;
use crate::rt;
use crate::types::*;

/// `__fatBinC_Wrapper_t` (`fatbinary_section.h`).
#[repr(C)]
struct FatBinWrapper {
    magic: c_int,
    version: c_int,
    data: *const u64,
    filename_or_fatbins: *mut c_void,
}

const FATBINC_MAGIC: c_int = 0x466243b1;

/// One registered fat binary. The handle the program gets is a pointer to this, so that
/// `*handle` is the wrapper the program registered; the program only passes it back.
#[repr(C)]
struct FatBin {
    #[allow(dead_code)]
    wrapper: usize,
    /// The fat binary itself (what the wrapper points at).
    image: usize,
    /// The loaded `CUlibrary`, once loaded.
    lib: OnceLock<usize>,
    load: Mutex<()>,
    /// `__managed__` variables, whose host slots get their pointers at load.
    managed: Mutex<Vec<Arc<Var>>>,
    unregistered: AtomicBool,
}

struct Func {
    bin: &'static FatBin,
    name: CString,
    /// The `CUkernel`, once looked up.
    kernel: OnceLock<usize>,
}

struct Var {
    bin: &'static FatBin,
    name: CString,
    size: usize,
    managed: bool,
    /// For a managed variable: the host slot that holds its pointer.
    slot: usize,
}

type Map<T> = LazyLock<RwLock<HashMap<usize, Arc<T>>>>;

/// Host stub address -> kernel.
static FUNCS: Map<Func> = LazyLock::new(Default::default);
/// `CUkernel` handed out -> kernel (so a `cudaKernel_t` works where a stub does).
static KERNELS: Map<Func> = LazyLock::new(Default::default);
/// Host shadow address (for managed variables: the host slot) -> variable.
static VARS: Map<Var> = LazyLock::new(Default::default);
/// Managed pointer -> managed variable: host code names a managed variable by the memory the
/// slot points at.
static MANAGED: Map<Var> = LazyLock::new(Default::default);

/// The per-thread stack of launch configurations (`<<<...>>>`).
#[derive(Copy, Clone)]
struct CallConfig {
    grid: dim3,
    block: dim3,
    shared: usize,
    stream: cudaStream_t,
}

thread_local! {
    static CONFIGS: RefCell<Vec<CallConfig>> = const { RefCell::new(Vec::new()) };
}

fn bin_of(handle: *mut *mut c_void) -> Option<&'static FatBin> {
    // SAFETY: handles are the leaked `FatBin`s `__cudaRegisterFatBinary` returned.
    unsafe { (handle as *const FatBin).as_ref() }
}

fn cstring(p: *const c_char) -> Option<CString> {
    if p.is_null() {
        return None;
    }
    // SAFETY: a NUL-terminated name from nvcc's generated code.
    Some(unsafe { CStr::from_ptr(p) }.to_owned())
}

/// The library of `bin`, loaded on first use. Managed variables get their pointers here.
fn library(bin: &'static FatBin, f: &Fns) -> Res<CUlibrary> {
    if let Some(&l) = bin.lib.get() {
        return Ok(l as CUlibrary);
    }
    // Loading is the runtime's own work, which NVIDIA's runtime does at other times: a first
    // use during a stream capture must not count as a call the capture forbids.
    crate::api::capture::relaxed(f, || load_library(bin, f))
}

fn load_library(bin: &'static FatBin, f: &Fns) -> Res<CUlibrary> {
    let _g = bin.load.lock();
    if let Some(&l) = bin.lib.get() {
        return Ok(l as CUlibrary);
    }
    let mut lib: CUlibrary = null_mut();
    // SAFETY: the fat binary the program registered; no options.
    cu(unsafe {
        f.cuLibraryLoadData(
            &mut lib,
            bin.image as *const c_void,
            null_mut(),
            null_mut(),
            0,
            null_mut(),
            null_mut(),
            0,
        )
    })?;
    let managed = bin.managed.lock().clone();
    if !managed.is_empty() {
        // Managed variables get their memory when the library is loaded into a context:
        // load it into the current one now rather than at its first kernel.
        let mut m: CUmodule = null_mut();
        // SAFETY: a library just loaded; a context is current.
        if let Err(e) = cu(unsafe { f.cuLibraryGetModule(&mut m, lib) }) {
            // SAFETY: the library just loaded, not handed out.
            unsafe { f.cuLibraryUnload(lib) };
            return Err(e);
        }
    }
    for v in managed {
        let mut p: CUdeviceptr = 0;
        let mut size = 0usize;
        // SAFETY: a loaded library and a name from registration.
        let r = unsafe { f.cuLibraryGetManaged(&mut p, &mut size, lib, v.name.as_ptr()) };
        if r != CUDA_SUCCESS {
            tracing::warn!("managed variable {:?}: driver error {r}", v.name);
            continue;
        }
        // SAFETY: the host slot nvcc registered for this variable (`T *var`).
        unsafe { *(v.slot as *mut usize) = p as usize };
        MANAGED.write().insert(p as usize, v);
    }
    let _ = bin.lib.set(lib as usize);
    Ok(lib)
}

/// The `CUkernel` of a registered kernel, looked up once.
fn kernel_of(func: &Arc<Func>, f: &Fns) -> Res<CUkernel> {
    if let Some(&k) = func.kernel.get() {
        return Ok(k as CUkernel);
    }
    let lib = library(func.bin, f)?;
    let mut k: CUkernel = null_mut();
    // SAFETY: a loaded library and a registered name.
    let r = unsafe { f.cuLibraryGetKernel(&mut k, lib, func.name.as_ptr()) };
    if r == CUDA_ERROR_NOT_FOUND {
        return Err(cudaError::cudaErrorInvalidDeviceFunction);
    }
    cu(r)?;
    let k = *func.kernel.get_or_init(|| {
        KERNELS.write().insert(k as usize, func.clone());
        k as usize
    });
    Ok(k as CUkernel)
}

fn find_func(func: *const c_void) -> Option<Arc<Func>> {
    let key = func as usize;
    if let Some(fun) = FUNCS.read().get(&key) {
        return Some(fun.clone());
    }
    KERNELS.read().get(&key).cloned()
}

/// The `CUkernel` for `func`: a registered host stub, or a `cudaKernel_t` we handed out.
/// Once looked up, this is one read lock.
///
/// As in NVIDIA's runtime, a null pointer is `cudaErrorInvalidDeviceFunction`, and any other
/// pointer that is not a registered host stub is taken as a `cudaKernel_t` (one from
/// `cudaLibraryGetKernel`, say) for the driver to judge: one it does not know is
/// `cudaErrorInvalidResourceHandle`.
fn resolve(func: *const c_void, f: &Fns) -> Res<CUkernel> {
    if let Some(&k) = FUNCS.read().get(&(func as usize)).and_then(|fun| fun.kernel.get()) {
        return Ok(k as CUkernel);
    }
    if func.is_null() {
        return Err(cudaError::cudaErrorInvalidDeviceFunction);
    }
    match find_func(func) {
        Some(fun) => kernel_of(&fun, f),
        None => {
            let k = func as CUkernel;
            let mut h: CUfunction = null_mut();
            // SAFETY: the driver checks the handle; a context is current.
            cu(unsafe { f.cuKernelGetFunction(&mut h, k) })?;
            Ok(k)
        }
    }
}

/// The `CUfunction` of `func` in the current context.
fn function_of(func: *const c_void, f: &Fns) -> Res<CUfunction> {
    let k = resolve(func, f)?;
    let mut h: CUfunction = null_mut();
    // SAFETY: a kernel of a loaded library; a context is current.
    cu(unsafe { f.cuKernelGetFunction(&mut h, k) })?;
    Ok(h)
}

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

#[allow(clippy::too_many_arguments)]
fn launch(f: &Fns, k: CUkernel, grid: dim3, block: dim3, args: *mut *mut c_void, shared: usize, stream: cudaStream_t, cooperative: bool) -> Res {
    #[cfg(feature = "abi12")]
    check_config(grid, block)?;
    let shared: c_uint = shared.try_into().map_err(|_| cudaError::cudaErrorInvalidValue)?;
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

// ---- registration ----------------------------------------------------------------------

/// Registers a fat binary (called from nvcc's static constructors). Records it only.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterFatBinary(fatCubin: *mut c_void) -> *mut *mut c_void {
    let w = fatCubin as *const FatBinWrapper;
    let mut image = fatCubin as usize;
    // SAFETY: nvcc passes its `__fatBinC_Wrapper_t`; anything else is passed through as an
    // image for the driver to judge.
    if let Some(wr) = unsafe { w.as_ref() } {
        if wr.magic == FATBINC_MAGIC && !wr.data.is_null() {
            image = wr.data as usize;
        }
    }
    let bin = Box::leak(Box::new(FatBin {
        wrapper: fatCubin as usize,
        image,
        lib: OnceLock::new(),
        load: Mutex::new(()),
        managed: Mutex::new(Vec::new()),
        unregistered: AtomicBool::new(false),
    }));
    bin as *mut FatBin as *mut *mut c_void
}

/// Ends the registration of a fat binary. Loading waits for the first use.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterFatBinaryEnd(fatCubinHandle: *mut *mut c_void) {
    let _ = fatCubinHandle;
}

/// Forgets a fat binary's kernels and variables (at exit, or when a library that holds
/// device code is unloaded). The driver is not called: at exit it may be gone already, and
/// the driver's library lives until the process ends.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn __cudaUnregisterFatBinary(fatCubinHandle: *mut *mut c_void) {
    let Some(bin) = bin_of(fatCubinHandle) else { return };
    if bin.unregistered.swap(true, Ordering::AcqRel) {
        return;
    }
    let mine = |b: &FatBin| std::ptr::eq(b, bin);
    FUNCS.write().retain(|_, v| !mine(v.bin));
    KERNELS.write().retain(|_, v| !mine(v.bin));
    VARS.write().retain(|_, v| !mine(v.bin));
    MANAGED.write().retain(|_, v| !mine(v.bin));
}

/// Registers a kernel: its host stub and its device name.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterFunction(
    fatCubinHandle: *mut *mut c_void,
    hostFun: *const c_char,
    deviceFun: *mut c_char,
    deviceName: *const c_char,
    thread_limit: c_int,
    tid: *mut uint3,
    bid: *mut uint3,
    bDim: *mut dim3,
    gDim: *mut dim3,
    wSize: *mut c_int,
) {
    let _ = (deviceFun, thread_limit, tid, bid, bDim, gDim, wSize);
    let Some(bin) = bin_of(fatCubinHandle) else { return };
    let Some(name) = cstring(deviceName).or_else(|| cstring(deviceFun)) else { return };
    let fun = Arc::new(Func { bin, name, kernel: OnceLock::new() });
    FUNCS.write().insert(hostFun as usize, fun);
}

fn register_var(handle: *mut *mut c_void, host: usize, deviceName: *const c_char, deviceAddress: *const c_char, size: usize, managed: bool) {
    let Some(bin) = bin_of(handle) else { return };
    let Some(name) = cstring(deviceName).or_else(|| cstring(deviceAddress)) else { return };
    let v = Arc::new(Var { bin, name, size, managed, slot: host });
    if managed {
        bin.managed.lock().push(v.clone());
    }
    VARS.write().insert(host, v);
}

/// Registers a `__device__` or `__constant__` variable: its host shadow and device name.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterVar(
    fatCubinHandle: *mut *mut c_void,
    hostVar: *mut c_char,
    deviceAddress: *mut c_char,
    deviceName: *const c_char,
    ext: c_int,
    size: usize,
    constant: c_int,
    global: c_int,
) {
    let _ = (ext, constant, global);
    register_var(fatCubinHandle, hostVar as usize, deviceName, deviceAddress, size, false);
}

/// Registers a `__managed__` variable: the host slot that gets its pointer, and its name.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterManagedVar(
    fatCubinHandle: *mut *mut c_void,
    hostVarPtrAddress: *mut *mut c_void,
    deviceAddress: *mut c_char,
    deviceName: *const c_char,
    ext: c_int,
    size: usize,
    constant: c_int,
    global: c_int,
) {
    let _ = (ext, constant, global);
    register_var(fatCubinHandle, hostVarPtrAddress as usize, deviceName, deviceAddress, size, true);
}

/// Loads a fat binary now, so that its `__managed__` variables have their pointers: host
/// code calls it before its first access to one. Returns 1 once done, 0 on failure (the
/// program then calls again at its next access).
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn __cudaInitModule(fatCubinHandle: *mut *mut c_void) -> c_char {
    let Some(bin) = bin_of(fatCubinHandle) else { return 0 };
    let r = run("__cudaInitModule", || {
        let f = rt::ctx()?;
        library(bin, f).map(|_| ())
    });
    (r == cudaError::cudaSuccess) as c_char
}

// ---- launch ----------------------------------------------------------------------------

/// Pushes a launch configuration (`<<<grid, block, shared, stream>>>`). Returns 0.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn __cudaPushCallConfiguration(gridDim: dim3, blockDim: dim3, sharedMem: usize, stream: cudaStream_t) -> c_uint {
    CONFIGS.with(|c| c.borrow_mut().push(CallConfig { grid: gridDim, block: blockDim, shared: sharedMem, stream }));
    0
}

/// Pops the configuration the launch stub was called with.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn __cudaPopCallConfiguration(gridDim: *mut dim3, blockDim: *mut dim3, sharedMem: *mut usize, stream: *mut c_void) -> cudaError_t {
    let Some(c) = CONFIGS.with(|c| c.borrow_mut().pop()) else {
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
#[no_mangle]
pub unsafe extern "C" fn __cudaGetKernel(kernel: *mut cudaKernel_t, func: *const c_void) -> cudaError_t {
    run("__cudaGetKernel", || get_kernel(kernel, func))
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
// also: __cudaLaunchKernel_ptsz
#[no_mangle]
pub unsafe extern "C" fn __cudaLaunchKernel(
    kernel: cudaKernel_t,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    run("__cudaLaunchKernel", || {
        let f = rt::ctx()?;
        if kernel.is_null() {
            return Err(cudaError::cudaErrorInvalidDeviceFunction);
        }
        launch(f, kernel as CUkernel, gridDim, blockDim, args, sharedMem, stream, false)
    })
}

/// Launches a device function.
// also: cudaLaunchKernel_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchKernel(
    func: *const c_void,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    run("cudaLaunchKernel", || {
        let f = rt::ctx()?;
        let k = resolve(func, f)?;
        launch(f, k, gridDim, blockDim, args, sharedMem, stream, false)
    })
}

/// Launches a device function where thread blocks can cooperate and synchronize as they
/// execute.
// also: cudaLaunchCooperativeKernel_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchCooperativeKernel(
    func: *const c_void,
    gridDim: dim3,
    blockDim: dim3,
    args: *mut *mut c_void,
    sharedMem: usize,
    stream: cudaStream_t,
) -> cudaError_t {
    run("cudaLaunchCooperativeKernel", || {
        let f = rt::ctx()?;
        let k = resolve(func, f)?;
        launch(f, k, gridDim, blockDim, args, sharedMem, stream, true)
    })
}

/// Get pointer to device kernel that matches entry function `entryFuncAddr`.
#[no_mangle]
pub unsafe extern "C" fn cudaGetKernel(kernelPtr: *mut cudaKernel_t, entryFuncAddr: *const c_void) -> cudaError_t {
    run("cudaGetKernel", || get_kernel(kernelPtr, entryFuncAddr))
}

/// Get pointer to device entry function that matches entry function `symbolPtr`.
#[no_mangle]
pub unsafe extern "C" fn cudaGetFuncBySymbol(functionPtr: *mut cudaFunction_t, symbolPtr: *const c_void) -> cudaError_t {
    run("cudaGetFuncBySymbol", || {
        let p = out(functionPtr)?;
        let f = rt::ctx()?;
        *p = function_of(symbolPtr, f)?;
        Ok(())
    })
}

/// Returns the device name of a kernel.
#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetName(name: *mut *const c_char, func: *const c_void) -> cudaError_t {
    run("cudaFuncGetName", || {
        let name = out(name)?;
        if func.is_null() {
            return Err(cudaError::cudaErrorInvalidDeviceFunction);
        }
        let Some(fun) = find_func(func) else {
            // Not a registered stub: a kernel handle for the driver to judge (see `resolve`);
            // one it knows but that is not ours has no name here.
            let f = rt::ctx()?;
            resolve(func, f)?;
            return Err(cudaError::cudaErrorInvalidDeviceFunction);
        };
        *name = fun.name.as_ptr();
        Ok(())
    })
}

/// Find out attributes for a given function.
#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetAttributes(attr: *mut cudaFuncAttributes, func: *const c_void) -> cudaError_t {
    run("cudaFuncGetAttributes", || {
        let attr = out(attr)?;
        let f = rt::ctx()?;
        let k = resolve(func, f)?;
        let dev = rt::current_device()?;
        let get = |a: CUfunction_attribute| -> Res<c_int> {
            let mut v = 0;
            // SAFETY: a kernel of a loaded library and the current device.
            cu(unsafe { f.cuKernelGetAttribute(&mut v, a, k, dev) })?;
            Ok(v)
        };
        let mut a = *attr;
        a.maxThreadsPerBlock = get(0)?;
        a.sharedSizeBytes = get(1)? as usize;
        a.constSizeBytes = get(2)? as usize;
        a.localSizeBytes = get(3)? as usize;
        a.numRegs = get(4)?;
        a.ptxVersion = get(5)?;
        a.binaryVersion = get(6)?;
        a.cacheModeCA = get(7)?;
        a.maxDynamicSharedSizeBytes = get(8)?;
        a.preferredShmemCarveout = get(9)?;
        a.clusterDimMustBeSet = get(10)?;
        a.requiredClusterWidth = get(11)?;
        a.requiredClusterHeight = get(12)?;
        a.requiredClusterDepth = get(13)?;
        a.nonPortableClusterSizeAllowed = get(14)?;
        a.clusterSchedulingPolicyPreference = get(15)?;
        *attr = a;
        Ok(())
    })
}

// As NVIDIA's runtime does, the attribute is checked first, and the outcome of the driver's
// call is stored as the thread's last error, success included: a successful call clears an
// earlier (not sticky) error.
/// Set attributes for a given function.
#[no_mangle]
pub unsafe extern "C" fn cudaFuncSetAttribute(func: *const c_void, attr: raw::cudaFuncAttribute, value: c_int) -> cudaError_t {
    run("cudaFuncSetAttribute", || {
        if !(8..=15).contains(&attr.0) {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let f = rt::ctx()?;
        let k = resolve(func, f)?;
        let dev = rt::current_device()?;
        // SAFETY: a kernel of a loaded library and the current device.
        cu(unsafe { f.cuKernelSetAttribute(attr.0, value, k, dev) })?;
        record(cudaError::cudaSuccess);
        Ok(())
    })
}

// ---- device symbols --------------------------------------------------------------------

/// The device address and size of the variable whose host shadow is `symbol`, in the
/// current context.
fn lookup_symbol(symbol: *const c_void, f: &Fns) -> Res<(CUdeviceptr, usize)> {
    let key = symbol as usize;
    let v = VARS.read().get(&key).cloned().or_else(|| MANAGED.read().get(&key).cloned());
    let v = v.ok_or(cudaError::cudaErrorInvalidSymbol)?;
    let lib = library(v.bin, f)?;
    let mut p: CUdeviceptr = 0;
    let mut size = 0usize;
    // SAFETY: a loaded library and a registered name; a context is current.
    let r = unsafe {
        if v.managed {
            f.cuLibraryGetManaged(&mut p, &mut size, lib, v.name.as_ptr())
        } else {
            f.cuLibraryGetGlobal(&mut p, &mut size, lib, v.name.as_ptr())
        }
    };
    if r == CUDA_ERROR_NOT_FOUND {
        return Err(cudaError::cudaErrorInvalidSymbol);
    }
    cu(r)?;
    if size == 0 {
        size = v.size;
    }
    Ok((p, size))
}

/// The device address of `count` bytes at `offset` in `sym`.
fn symbol_range(sym: *const c_void, count: usize, offset: usize, f: &Fns) -> Res<CUdeviceptr> {
    let (p, size) = lookup_symbol(sym, f)?;
    match offset.checked_add(count) {
        Some(end) if end <= size => Ok(p + offset as CUdeviceptr),
        _ => Err(cudaError::cudaErrorInvalidValue),
    }
}

/// Finds the address associated with a CUDA symbol.
#[no_mangle]
pub unsafe extern "C" fn cudaGetSymbolAddress(devPtr: *mut *mut c_void, symbol: *const c_void) -> cudaError_t {
    run("cudaGetSymbolAddress", || {
        let devPtr = out(devPtr)?;
        let f = rt::ctx()?;
        let (p, _) = lookup_symbol(symbol, f)?;
        *devPtr = p as usize as *mut c_void;
        Ok(())
    })
}

/// Finds the size of the object associated with a CUDA symbol.
#[no_mangle]
pub unsafe extern "C" fn cudaGetSymbolSize(size: *mut usize, symbol: *const c_void) -> cudaError_t {
    run("cudaGetSymbolSize", || {
        let size = out(size)?;
        let f = rt::ctx()?;
        let (_, s) = lookup_symbol(symbol, f)?;
        *size = s;
        Ok(())
    })
}

const H2D: c_int = 1;
const D2H: c_int = 2;
const D2D: c_int = 3;
const DEFAULT: c_int = 4;

/// A copy of no bytes to or from a symbol succeeds at once, as in NVIDIA's runtime: before
/// the symbol, the range and the kind are looked at.
fn to_symbol(sym: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int, stream: Option<cudaStream_t>) -> Res {
    if count == 0 {
        return Ok(());
    }
    let f = rt::ctx()?;
    let dst = symbol_range(sym, count, offset, f)?;
    if !matches!(kind, H2D | D2D | DEFAULT) {
        return Err(cudaError::cudaErrorInvalidMemcpyDirection);
    }
    // SAFETY: a device range checked against the symbol's size; the source is the caller's.
    cu(unsafe {
        match (kind, stream) {
            (H2D, None) => f.cuMemcpyHtoD(dst, src, count),
            (H2D, Some(s)) => f.cuMemcpyHtoDAsync(dst, src, count, s),
            (D2D, None) => f.cuMemcpyDtoD(dst, src as CUdeviceptr, count),
            (D2D, Some(s)) => f.cuMemcpyDtoDAsync(dst, src as CUdeviceptr, count, s),
            (_, None) => f.cuMemcpy(dst, src as CUdeviceptr, count),
            (_, Some(s)) => f.cuMemcpyAsync(dst, src as CUdeviceptr, count, s),
        }
    })
}

fn from_symbol(dst: *mut c_void, sym: *const c_void, count: usize, offset: usize, kind: c_int, stream: Option<cudaStream_t>) -> Res {
    if count == 0 {
        return Ok(());
    }
    let f = rt::ctx()?;
    let src = symbol_range(sym, count, offset, f)?;
    if !matches!(kind, D2H | D2D | DEFAULT) {
        return Err(cudaError::cudaErrorInvalidMemcpyDirection);
    }
    // SAFETY: a device range checked against the symbol's size; the destination is the
    // caller's.
    cu(unsafe {
        match (kind, stream) {
            (D2H, None) => f.cuMemcpyDtoH(dst, src, count),
            (D2H, Some(s)) => f.cuMemcpyDtoHAsync(dst, src, count, s),
            (D2D, None) => f.cuMemcpyDtoD(dst as CUdeviceptr, src, count),
            (D2D, Some(s)) => f.cuMemcpyDtoDAsync(dst as CUdeviceptr, src, count, s),
            (_, None) => f.cuMemcpy(dst as CUdeviceptr, src, count),
            (_, Some(s)) => f.cuMemcpyAsync(dst as CUdeviceptr, src, count, s),
        }
    })
}

/// Copies data to the given symbol on the device.
// also: cudaMemcpyToSymbol_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyToSymbol(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: raw::cudaMemcpyKind) -> cudaError_t {
    run("cudaMemcpyToSymbol", || to_symbol(symbol, src, count, offset, kind.0, None))
}

/// Copies data from the given symbol on the device.
// also: cudaMemcpyFromSymbol_ptds
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyFromSymbol(dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: raw::cudaMemcpyKind) -> cudaError_t {
    run("cudaMemcpyFromSymbol", || from_symbol(dst, symbol, count, offset, kind.0, None))
}

/// Copies data to the given symbol on the device.
// also: cudaMemcpyToSymbolAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyToSymbolAsync(
    symbol: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: raw::cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    run("cudaMemcpyToSymbolAsync", || to_symbol(symbol, src, count, offset, kind.0, Some(stream)))
}

/// Copies data from the given symbol on the device.
// also: cudaMemcpyFromSymbolAsync_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaMemcpyFromSymbolAsync(
    dst: *mut c_void,
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: raw::cudaMemcpyKind,
    stream: cudaStream_t,
) -> cudaError_t {
    run("cudaMemcpyFromSymbolAsync", || from_symbol(dst, symbol, count, offset, kind.0, Some(stream)))
}
