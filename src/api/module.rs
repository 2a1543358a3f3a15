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
use crate::lookup::AddrMap;
use crate::rt;
use crate::thread::CallConfig;
use crate::types::*;

/// One registered fat binary. The handle the program gets is a pointer to this, so that
/// `*handle` is the wrapper the program registered; the program only passes it back.
#[repr(C)]
struct FatBin {
    /// What the program registered: nvcc's `__fatBinC_Wrapper_t` (else an image), which the
    /// driver loads as it is.
    wrapper: usize,
    /// The outcome of loading the fat binary, once tried: the `CUlibrary`, or the error that
    /// every later use of the fat binary reports again (NVIDIA's runtimes load a fat binary
    /// once). A sticky error is the context's, not the code's: it is not kept.
    lib: OnceLock<Result<usize, cudaError>>,
    load: Mutex<()>,
    /// `__managed__` variables, whose host slots get their pointers at load.
    managed: Mutex<Vec<Arc<Var>>>,
    /// Host variables (`__cudaRegisterHostVar`): device name and host address, handed to the
    /// driver at load (`CU_JIT_GLOBAL_SYMBOL_*`) to resolve the device code's references to
    /// them. The names live as long as the fat binary record (for ever): the driver keeps
    /// pointers to them past the load.
    host_vars: Mutex<Vec<(CString, usize)>>,
    /// The host table of unified functions and data (`__cudaRegisterUnifiedTable`), handed to
    /// the driver at load.
    /// (function table, its window size, data table, its window size).
    unified: Mutex<Option<[usize; 4]>>,
    unregistered: AtomicBool,
}

struct Func {
    bin: &'static FatBin,
    /// The host stub the kernel was registered with.
    stub: usize,
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
/// Host variable address -> its fat binary. Host variables are no symbols of the symbol
/// exports; see [`not_a_symbol`].
static HOST_VARS: LazyLock<RwLock<HashMap<usize, &'static FatBin>>> = LazyLock::new(Default::default);

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
    if let Some(r) = bin.lib.get() {
        return r.map(|l| l as CUlibrary);
    }
    // Loading is the runtime's own work, which NVIDIA's runtime does at other times: a first
    // use during a stream capture must not count as a call the capture forbids.
    crate::api::capture::relaxed(f, || load_library(bin, f))
}

fn load_library(bin: &'static FatBin, f: &Fns) -> Res<CUlibrary> {
    let _g = bin.load.lock();
    if let Some(r) = bin.lib.get() {
        return r.map(|l| l as CUlibrary);
    }
    let r = load(bin, f);
    if !matches!(r, Err(e) if crate::error::is_sticky(e)) {
        let _ = bin.lib.set(r.map(|l| l as usize));
    }
    r
}

/// Loads `bin` as NVIDIA's runtimes do: one `cuLibraryLoadData` of what the program
/// registered (nvcc's wrapper of the fat binary, which the driver takes as it is), with the
/// addresses of its host variables as the JIT options `CU_JIT_GLOBAL_SYMBOL_NAMES`,
/// `_ADDRESSES` and `_COUNT` and its unified table as the library option
/// `CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE`; then its managed variables get their
/// pointers. The arrays of names and addresses are the call's, but the names themselves
/// must outlive it: the driver relocates the code when it loads it into a context, which
/// may be long after the call (NVIDIA's runtimes pass the names the program registered and
/// free the arrays when the call returns). (NVIDIA's runtimes also pass `CU_LIBRARY_BINARY_IS_PRESERVED`, a
/// memory hint; this runtime keeps a library loaded after its fat binary is unregistered,
/// when the program's copy of the code may be gone, so it lets the driver keep its own copy.)
fn load(bin: &'static FatBin, f: &Fns) -> Res<CUlibrary> {
    let mut lib: CUlibrary = null_mut();
    // The record's own names, never dropped (the record lives for ever), not copies.
    let host_vars = bin.host_vars.lock();
    let mut names: Vec<*const c_char> = host_vars.iter().map(|(n, _)| n.as_ptr()).collect();
    let mut addrs: Vec<*mut c_void> = host_vars.iter().map(|&(_, a)| a as *mut c_void).collect();
    let mut jit_opts = [CU_JIT_GLOBAL_SYMBOL_NAMES, CU_JIT_GLOBAL_SYMBOL_ADDRESSES, CU_JIT_GLOBAL_SYMBOL_COUNT];
    let mut jit_vals = [names.as_mut_ptr() as *mut c_void, addrs.as_mut_ptr() as *mut c_void, host_vars.len() as *mut c_void];
    let n_jit = if host_vars.is_empty() { 0 } else { jit_opts.len() as c_uint };
    let mut table = bin.unified.lock().map(|[ft, fs, dt, ds]| cudalibraryHostUniversalFunctionAndDataTable {
        functionTable: ft as *mut c_void,
        functionWindowSize: fs,
        dataTable: dt as *mut c_void,
        dataWindowSize: ds,
    });
    let mut lib_opts: Vec<CUlibraryOption> = Vec::new();
    let mut lib_vals: Vec<*mut c_void> = Vec::new();
    if let Some(t) = table.as_mut() {
        lib_opts.push(CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE);
        lib_vals.push(t as *mut _ as *mut c_void);
    }
    // SAFETY: the fat binary the program registered; the option arrays (and the names,
    // addresses and table they point at) live until the call returns.
    cu(unsafe {
        f.cuLibraryLoadData(
            &mut lib,
            bin.wrapper as *const c_void,
            if n_jit == 0 { null_mut() } else { jit_opts.as_mut_ptr() },
            if n_jit == 0 { null_mut() } else { jit_vals.as_mut_ptr() },
            n_jit,
            if lib_opts.is_empty() { null_mut() } else { lib_opts.as_mut_ptr() },
            if lib_vals.is_empty() { null_mut() } else { lib_vals.as_mut_ptr() },
            lib_opts.len() as c_uint,
        )
    })?;
    drop((names, addrs, host_vars));
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
    launchable(func, k);
    Ok(k as CUkernel)
}

/// Host stub -> `CUkernel` of the registered kernels whose kernel is known: what a launch
/// looks up, with no lock ([`AddrMap`]). A stub is added once its kernel is looked up, while it
/// is still the registered one, and taken out when it is registered again or unregistered.
static LAUNCHABLE: AddrMap = AddrMap::new();

/// Host stub -> the device name of its registered kernel (a pointer into the [`Func`] that
/// [`FUNCS`] holds): what `cudaFuncGetName` answers, with no lock. Set at registration, taken
/// out when the stub is registered again or unregistered.
static NAMES: AddrMap = AddrMap::new();

/// Adds `func`'s stub to [`LAUNCHABLE`] if it is still the registered kernel of that stub.
fn launchable(func: &Arc<Func>, k: usize) {
    let funcs = FUNCS.read();
    if funcs.get(&func.stub).is_some_and(|f| Arc::ptr_eq(f, func)) && func.stub != 0 {
        LAUNCHABLE.insert(func.stub, k);
    }
}

fn find_func(func: *const c_void) -> Option<Arc<Func>> {
    let key = func as usize;
    if let Some(fun) = FUNCS.read().get(&key) {
        return Some(fun.clone());
    }
    KERNELS.read().get(&key).cloned()
}

/// The `CUkernel` for `func`: a registered host stub, or a `cudaKernel_t` we handed out.
/// Once looked up, a registered stub's is found in [`LAUNCHABLE`], without a lock.
///
/// As in NVIDIA's runtime, a null pointer is `cudaErrorInvalidDeviceFunction`, and any other
/// pointer that is not a registered host stub is taken as a `cudaKernel_t` (one from
/// `cudaLibraryGetKernel`, say) for the driver to judge: one it does not know is
/// `cudaErrorInvalidResourceHandle`.
#[inline]
pub(crate) fn resolve(func: *const c_void, f: &Fns) -> Res<CUkernel> {
    match LAUNCHABLE.get(func as usize) {
        Some(k) => Ok(k as CUkernel),
        None => resolve_slow(func, f),
    }
}

#[cold]
#[inline(never)]
fn resolve_slow(func: *const c_void, f: &Fns) -> Res<CUkernel> {
    let known = FUNCS.read().get(&(func as usize)).and_then(|fun| fun.kernel.get().map(|&k| (fun.clone(), k)));
    if let Some((fun, k)) = known {
        launchable(&fun, k);
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

/// Built for the 12 ABI, the exports that take only what registration knows (NVIDIA's 12
/// runtime's cache and bank configurations and multi-device launch): the kernel of a
/// registered host stub; anything else, a kernel handle included, is
/// `cudaErrorInvalidDeviceFunction`.
#[cfg(feature = "abi12")]
fn resolve_registered(func: *const c_void, f: &Fns) -> Res<CUkernel> {
    let fun = FUNCS.read().get(&(func as usize)).cloned();
    match fun {
        Some(fun) => kernel_of(&fun, f),
        None => Err(cudaError::cudaErrorInvalidDeviceFunction),
    }
}

/// The kernel a function export takes: in the 13 ABI (and the 12 ABI's launches, parameter
/// info, attributes and occupancy) any kernel (`resolve`); in the 12 ABI's cache and bank
/// configurations only a registered one.
fn resolve_for_config(func: *const c_void, f: &Fns) -> Res<CUkernel> {
    #[cfg(feature = "abi12")]
    return resolve_registered(func, f);
    #[cfg(not(feature = "abi12"))]
    resolve(func, f)
}

/// The `CUfunction` of `func` in the current context.
fn function_of(func: *const c_void, f: &Fns) -> Res<CUfunction> {
    let k = resolve(func, f)?;
    let mut h: CUfunction = null_mut();
    // SAFETY: a kernel of a loaded library; a context is current.
    cu(unsafe { f.cuKernelGetFunction(&mut h, k) })?;
    Ok(h)
}

/// The host stub of a kernel the driver names (a kernel node's parameters): by its
/// `CUkernel`, or by a `CUfunction` that is one of our kernels (as a handle, or as its
/// function in the current context). `None` when it is none of ours.
pub(crate) fn host_stub(kern: CUkernel, func: CUfunction, f: &Fns) -> Option<*mut c_void> {
    let kernels = KERNELS.read();
    for key in [kern as usize, func as usize] {
        if let Some(fun) = kernels.get(&key).filter(|_| key != 0) {
            return Some(fun.stub as *mut c_void);
        }
    }
    if func.is_null() {
        return None;
    }
    kernels.iter().find_map(|(&k, fun)| {
        let mut h: CUfunction = null_mut();
        // SAFETY: a kernel of a loaded library; a context is current.
        let r = unsafe { f.cuKernelGetFunction(&mut h, k as CUkernel) };
        (r == CUDA_SUCCESS && h == func).then_some(fun.stub as *mut c_void)
    })
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

/// As in NVIDIA's runtimes, the dynamic shared memory size goes to the driver truncated to its
/// 32 bits.
#[allow(clippy::too_many_arguments)]
fn launch(f: &Fns, k: CUkernel, grid: dim3, block: dim3, args: *mut *mut c_void, shared: usize, stream: cudaStream_t, cooperative: bool) -> Res {
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
fn cu_config(c: &cudaLaunchConfig_t) -> CUlaunchConfig {
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

// ---- registration ----------------------------------------------------------------------

/// Registers a fat binary (called from nvcc's static constructors). Records it only.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterFatBinary(fatCubin: *mut c_void) -> *mut *mut c_void {
    // nvcc passes its `__fatBinC_Wrapper_t`, the driver takes it as it is (as it takes a
    // fat binary or any other image); it is not looked at here.
    let bin = Box::leak(Box::new(FatBin {
        wrapper: fatCubin as usize,
        lib: OnceLock::new(),
        load: Mutex::new(()),
        managed: Mutex::new(Vec::new()),
        host_vars: Mutex::new(Vec::new()),
        unified: Mutex::new(None),
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
    FUNCS.write().retain(|&stub, v| {
        let keep = !mine(v.bin);
        if !keep {
            LAUNCHABLE.remove(stub);
            NAMES.remove(stub);
        }
        keep
    });
    KERNELS.write().retain(|_, v| !mine(v.bin));
    VARS.write().retain(|_, v| !mine(v.bin));
    MANAGED.write().retain(|_, v| !mine(v.bin));
    HOST_VARS.write().retain(|_, b| !mine(b));
    crate::kattr::forget_all();
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
    let fun = Arc::new(Func { bin, stub: hostFun as usize, name, kernel: OnceLock::new() });
    let name = fun.name.as_ptr() as usize;
    let mut funcs = FUNCS.write();
    if funcs.insert(hostFun as usize, fun).is_some() {
        LAUNCHABLE.remove(hostFun as usize);
    }
    if hostFun as usize != 0 {
        NAMES.insert(hostFun as usize, name);
    }
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

/// Registers a host variable: storage in host memory that the device code refers to by
/// `deviceName`, an unresolved external of the device code which the driver relocates to
/// `hostVar` when it loads the code (see [`load`]). As in NVIDIA's runtimes it is no symbol:
/// the symbol exports do not know its address.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterHostVar(fatCubinHandle: *mut *mut c_void, deviceName: *const c_char, hostVar: *mut c_char, size: usize) {
    let _ = size;
    let Some(bin) = bin_of(fatCubinHandle) else { return };
    let Some(name) = cstring(deviceName) else { return };
    let host = hostVar as usize;
    bin.host_vars.lock().push((name, host));
    HOST_VARS.write().insert(host, bin);
}

/// Registers the host table of a fat binary's unified functions and data (two address
/// windows), handed to the driver with the code when it is loaded
/// (`CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE`).
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterUnifiedTable(
    fatCubinHandle: *mut *mut c_void,
    functionTable: *mut c_void,
    functionWindowSize: usize,
    dataTable: *mut c_void,
    dataWindowSize: usize,
) {
    let Some(bin) = bin_of(fatCubinHandle) else { return };
    *bin.unified.lock() = Some([functionTable as usize, functionWindowSize, dataTable as usize, dataWindowSize]);
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
    crate::thread::push_config(CallConfig { grid: gridDim, block: blockDim, shared: sharedMem, stream });
    0
}

/// Pops the configuration the launch stub was called with.
/// cbindgen:ignore
#[no_mangle]
pub unsafe extern "C" fn __cudaPopCallConfiguration(gridDim: *mut dim3, blockDim: *mut dim3, sharedMem: *mut usize, stream: *mut c_void) -> cudaError_t {
    let Some(c) = crate::thread::pop_config() else {
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

/// Launches a CUDA function with launch-time configuration.
// also: cudaLaunchKernelExC_ptsz
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchKernelExC(config: *const cudaLaunchConfig_t, func: *const c_void, args: *mut *mut c_void) -> cudaError_t {
    run("cudaLaunchKernelExC", || {
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
#[no_mangle]
pub unsafe extern "C" fn cudaLaunchCooperativeKernelMultiDevice(
    launchParamsList: *mut cudaLaunchParams,
    numDevices: c_uint,
    flags: c_uint,
) -> cudaError_t {
    run("cudaLaunchCooperativeKernelMultiDevice", || {
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
                crate::error::MISSING_ENTRY_POINT => ctx = null_mut(),
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
        // Only a host stub nvcc registered names a function here: a kernel handle from a
        // library is cudaErrorInvalidDeviceFunction, as NVIDIA's runtime answers (measured
        // on the H100, ctest/library.c, both ABIs).
        if !FUNCS.read().contains_key(&(symbolPtr as usize)) {
            return Err(cudaError::cudaErrorInvalidDeviceFunction);
        }
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
        if let Some(p) = NAMES.get(func as usize) {
            *name = p as *const c_char;
            return Ok(());
        }
        let Some(fun) = find_func(func) else {
            // Not a registered stub: a kernel handle (one from cudaLibraryGetKernel, say) for
            // the driver to judge (see `resolve`) and name.
            let f = rt::ctx()?;
            let k = resolve(func, f)?;
            let mut p: *const c_char = std::ptr::null();
            cu(f.cuKernelGetName(&mut p, k))?;
            *name = p;
            return Ok(());
        };
        *name = fun.name.as_ptr();
        Ok(())
    })
}

// The kernel's attributes on the current device (the 12 ABI: of its function in the current
// context). Those fixed by the code (0 to 7) are kept per (kernel, device) once read
// (`crate::kattr`); those a program can set (8 to 17) are read from the driver every time,
// as NVIDIA's runtime reads them all.
/// Find out attributes for a given function.
#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetAttributes(attr: *mut cudaFuncAttributes, func: *const c_void) -> cudaError_t {
    run("cudaFuncGetAttributes", || {
        let attr = out(attr)?;
        let (f, cur) = rt::ctx_current()?;
        let k = resolve(func, f)?;
        let dev = rt::device_of(f, cur)?;
        // NVIDIA's 13 runtime reads the kernel's attributes for the current device; its 12
        // runtime reads those of the kernel's function in the current context (after
        // cudaKernelSetAttributeForDevice the two differ: measured on the H100,
        // ctest/library.c).
        #[cfg(feature = "abi12")]
        let h = {
            let mut h: CUfunction = null_mut();
            // SAFETY: a kernel of a loaded library; a context is current.
            cu(unsafe { f.cuKernelGetFunction(&mut h, k) })?;
            h
        };
        let get = |a: CUfunction_attribute| -> Res<c_int> {
            let mut v = 0;
            // SAFETY: a kernel (function) of a loaded library and the current device.
            #[cfg(not(feature = "abi12"))]
            cu(unsafe { f.cuKernelGetAttribute(&mut v, a, k, dev) })?;
            #[cfg(feature = "abi12")]
            cu(unsafe { f.cuFuncGetAttribute(&mut v, a, h) })?;
            Ok(v)
        };
        let fixed = match crate::kattr::KERNEL_ATTRS.get(k as usize, dev as usize) {
            Some(v) => v,
            None => fixed_attributes(k, dev, &get)?,
        };
        let mut a = *attr;
        a.maxThreadsPerBlock = fixed[0];
        a.sharedSizeBytes = fixed[1] as usize;
        a.constSizeBytes = fixed[2] as usize;
        a.localSizeBytes = fixed[3] as usize;
        a.numRegs = fixed[4];
        a.ptxVersion = fixed[5];
        a.binaryVersion = fixed[6];
        a.cacheModeCA = fixed[7];
        a.maxDynamicSharedSizeBytes = get(8)?;
        a.preferredShmemCarveout = get(9)?;
        a.clusterDimMustBeSet = get(10)?;
        a.requiredClusterWidth = get(11)?;
        a.requiredClusterHeight = get(12)?;
        a.requiredClusterDepth = get(13)?;
        a.nonPortableClusterSizeAllowed = get(14)?;
        a.clusterSchedulingPolicyPreference = get(15)?;
        #[cfg(not(feature = "abi12"))]
        {
            let (status, mode) = attributes_135(&get, a.maxDynamicSharedSizeBytes);
            a.deviceNodeUpdateStatus = status;
            a.sharedMemoryMode = raw::cudaSharedMemoryMode(mode);
        }
        *attr = a;
        Ok(())
    })
}

/// Reads the attributes 0 to 7 of `k` on `dev` through `get` and keeps them.
#[cold]
#[inline(never)]
fn fixed_attributes(k: CUkernel, dev: c_int, get: &dyn Fn(CUfunction_attribute) -> Res<c_int>) -> Res<[c_int; crate::kattr::FIXED]> {
    let ticket = crate::kattr::KERNEL_ATTRS.ticket();
    let mut v = [0; crate::kattr::FIXED];
    for (i, x) in v.iter_mut().enumerate() {
        *x = get(i as CUfunction_attribute)?;
    }
    crate::kattr::KERNEL_ATTRS.put(k as usize, dev as usize, rt::device_count()? as usize, ticket, v);
    Ok(v)
}

/// Whether the driver answers CUDA 13.5's function attributes 16 and 17: 0 not known yet,
/// 1 it does, 2 it does not (asked once: a refused attribute costs the driver far more than
/// an answered one).
#[cfg(not(feature = "abi12"))]
static ATTRIBUTES_135: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// CUDA 13.5's two: the driver's attributes 16 and 17 (device node update status, shared
/// memory mode). The 13.0 driver has neither (CUDA_ERROR_INVALID_VALUE); NVIDIA's 13.5
/// runtime then reports 0 and, for the mode, the maximum dynamic shared memory size (the
/// H100, ctest/cu_decl135.cu).
#[cfg(not(feature = "abi12"))]
fn attributes_135(get: &dyn Fn(CUfunction_attribute) -> Res<c_int>, max_dynamic_shared: c_int) -> (c_int, c_int) {
    let known = ATTRIBUTES_135.load(Ordering::Relaxed);
    if known == 2 {
        return (0, max_dynamic_shared);
    }
    let (status, mode) = (get(16), get(17));
    if known == 0 {
        let refused = Err(cudaError::cudaErrorInvalidValue);
        if status == refused && mode == refused {
            ATTRIBUTES_135.store(2, Ordering::Relaxed);
        } else if status.is_ok() && mode.is_ok() {
            ATTRIBUTES_135.store(1, Ordering::Relaxed);
        }
    }
    (status.unwrap_or(0), mode.unwrap_or(max_dynamic_shared))
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
        let (f, cur) = rt::ctx_current()?;
        // NVIDIA's 13 runtime sets the kernel's attribute for the current device; its 12
        // runtime sets that of the kernel's function in the current context (driver calls
        // traced on the H100; ctest/library.c shows the difference).
        #[cfg(not(feature = "abi12"))]
        {
            let k = resolve(func, f)?;
            let dev = rt::device_of(f, cur)?;
            // SAFETY: a kernel of a loaded library and the current device.
            cu(unsafe { f.cuKernelSetAttribute(attr.0, value, k, dev) })?;
        }
        #[cfg(feature = "abi12")]
        {
            let _ = cur;
            let h = function_of(func, f)?;
            // SAFETY: a function of the current context.
            cu(unsafe { f.cuFuncSetAttribute(h, attr.0, value) })?;
        }
        record(cudaError::cudaSuccess);
        Ok(())
    })
}

/// Find parameter offset and size of a kernel parameter (by its index, from 0).
#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetParamInfo(func: *const c_void, paramIndex: usize, paramOffset: *mut usize, paramSize: *mut usize) -> cudaError_t {
    run("cudaFuncGetParamInfo", || {
        let f = rt::ctx()?;
        let k = resolve(func, f)?;
        // SAFETY: a kernel of a loaded library; the out pointers are the driver's to check.
        cu(f.cuKernelGetParamInfo(k, paramIndex, paramOffset, paramSize))
    })
}

/// The number of parameters of a kernel. As in NVIDIA's 13.5 runtime a NULL function is
/// cudaErrorInvalidDeviceFunction, and a driver without the call (before CUDA 13.2) is
/// cudaErrorCallRequiresNewerDriver before the function or the out pointer is judged.
#[cfg(not(feature = "abi12"))]
#[no_mangle]
pub unsafe extern "C" fn cudaFuncGetParamCount(func: *const c_void, paramCount: *mut usize) -> cudaError_t {
    run("cudaFuncGetParamCount", || {
        if func.is_null() {
            return Err(cudaError::cudaErrorInvalidDeviceFunction);
        }
        let f = rt::ctx()?;
        if f.cuKernelGetParamCount.is_none() {
            return Err(cudaError::cudaErrorCallRequiresNewerDriver);
        }
        let k = resolve(func, f)?;
        // SAFETY: a kernel of a loaded library; the out pointer is the driver's to check.
        cu(f.cuKernelGetParamCount(k, paramCount))
    })
}

/// Sets the preferred cache configuration for a device function (on the current device).
#[no_mangle]
pub unsafe extern "C" fn cudaFuncSetCacheConfig(func: *const c_void, cacheConfig: raw::cudaFuncCache) -> cudaError_t {
    run("cudaFuncSetCacheConfig", || {
        let (f, cur) = rt::ctx_current()?;
        let dev = rt::device_of(f, cur)?;
        let k = resolve_for_config(func, f)?;
        // SAFETY: a kernel of a loaded library and the current device; the driver checks
        // the configuration.
        cu(f.cuKernelSetCacheConfig(k, cacheConfig.0, dev))
    })
}

/// Sets the shared memory configuration for a device function (deprecated: the driver
/// accepts a valid configuration and ignores it on devices whose bank size is fixed).
#[no_mangle]
pub unsafe extern "C" fn cudaFuncSetSharedMemConfig(func: *const c_void, config: raw::cudaSharedMemConfig) -> cudaError_t {
    run("cudaFuncSetSharedMemConfig", || {
        let f = rt::ctx()?;
        let k = resolve_for_config(func, f)?;
        let mut h: CUfunction = null_mut();
        cu(f.cuKernelGetFunction(&mut h, k))?;
        // SAFETY: a function of the current context; the driver checks the configuration.
        cu(f.cuFuncSetSharedMemConfig(h, config.0))
    })
}

// ---- occupancy -------------------------------------------------------------------------
//
// As in NVIDIA's runtimes every argument but the function is the driver's to judge; the
// function is the kernel's `CUfunction` in the current context.

/// Returns occupancy for a device function.
#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks: *mut c_int, func: *const c_void, blockSize: c_int, dynamicSMemSize: usize) -> cudaError_t {
    run("cudaOccupancyMaxActiveBlocksPerMultiprocessor", || max_active_blocks(numBlocks, func, blockSize, dynamicSMemSize, 0))
}

/// Returns occupancy for a device function with the specified flags.
#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    numBlocks: *mut c_int,
    func: *const c_void,
    blockSize: c_int,
    dynamicSMemSize: usize,
    flags: c_uint,
) -> cudaError_t {
    run("cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", || max_active_blocks(numBlocks, func, blockSize, dynamicSMemSize, flags))
}

fn max_active_blocks(numBlocks: *mut c_int, func: *const c_void, blockSize: c_int, dynamicSMemSize: usize, flags: c_uint) -> Res {
    let f = rt::ctx()?;
    let h = function_of(func, f)?;
    // SAFETY: a function of the current context; the out pointer is the driver's to check.
    cu(unsafe { f.cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, h, blockSize, dynamicSMemSize, flags) })
}

/// Returns dynamic shared memory available per block when launching `numBlocks` blocks on SM.
#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize: *mut usize, func: *const c_void, numBlocks: c_int, blockSize: c_int) -> cudaError_t {
    run("cudaOccupancyAvailableDynamicSMemPerBlock", || {
        let f = rt::ctx()?;
        let h = function_of(func, f)?;
        // A null out pointer crashes NVIDIA's runtime (and the driver): refused here.
        out(dynamicSmemSize)?;
        // SAFETY: a function of the current context and a valid out pointer.
        cu(f.cuOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, h, numBlocks, blockSize))
    })
}

/// Given the kernel function (`func`) and launch configuration (`launchConfig`), return the
/// maximum cluster size in `*clusterSize`.
#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyMaxPotentialClusterSize(clusterSize: *mut c_int, func: *const c_void, launchConfig: *const cudaLaunchConfig_t) -> cudaError_t {
    run("cudaOccupancyMaxPotentialClusterSize", || {
        // NVIDIA's runtime reads the configuration unchecked (a null one crashes it).
        let c = cu_config(launchConfig.as_ref().ok_or(cudaError::cudaErrorInvalidValue)?);
        let f = rt::ctx()?;
        let h = function_of(func, f)?;
        // SAFETY: a function of the current context; the rest is the driver's to check.
        cu(f.cuOccupancyMaxPotentialClusterSize(clusterSize, h, &c))
    })
}

/// Given the kernel function (`func`) and launch configuration (`launchConfig`), return the
/// maximum number of clusters that could co-exist on the target device in `*numClusters`.
#[no_mangle]
pub unsafe extern "C" fn cudaOccupancyMaxActiveClusters(numClusters: *mut c_int, func: *const c_void, launchConfig: *const cudaLaunchConfig_t) -> cudaError_t {
    run("cudaOccupancyMaxActiveClusters", || {
        // NVIDIA's runtime reads the configuration unchecked (a null one crashes it).
        let c = cu_config(launchConfig.as_ref().ok_or(cudaError::cudaErrorInvalidValue)?);
        let f = rt::ctx()?;
        let h = function_of(func, f)?;
        // SAFETY: a function of the current context; the rest is the driver's to check.
        cu(f.cuOccupancyMaxActiveClusters(numClusters, h, &c))
    })
}

// ---- device symbols --------------------------------------------------------------------

/// The device address and size of the variable whose host shadow is `symbol`, in the
/// current context.
fn lookup_symbol(symbol: *const c_void, f: &Fns) -> Res<(CUdeviceptr, usize)> {
    let key = symbol as usize;
    let v = VARS.read().get(&key).cloned().or_else(|| MANAGED.read().get(&key).cloned());
    let v = v.ok_or_else(|| not_a_symbol(key))?;
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

/// The error for an address that is no registered variable: `cudaErrorInvalidSymbol`. Built
/// for the 13 ABI, the address of a host variable whose fat binary failed to load reports that
/// failure instead, as NVIDIA's 13 runtime does (its 12 runtime does not).
fn not_a_symbol(key: usize) -> cudaError {
    #[cfg(not(feature = "abi12"))]
    if let Some(Some(Err(e))) = HOST_VARS.read().get(&key).map(|b| b.lib.get()) {
        return *e;
    }
    let _ = key;
    cudaError::cudaErrorInvalidSymbol
}

/// The device address of `count` bytes at `offset` in `sym`.
pub(crate) fn symbol_range(sym: *const c_void, count: usize, offset: usize, f: &Fns) -> Res<CUdeviceptr> {
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

/// The kinds a copy to a symbol may have (host or device source, or inferred);
/// `cudaErrorInvalidMemcpyDirection` for any other.
pub(crate) fn to_symbol_kind(kind: c_int) -> Res {
    match kind {
        H2D | D2D | DEFAULT => Ok(()),
        _ => Err(cudaError::cudaErrorInvalidMemcpyDirection),
    }
}

/// The kinds a copy from a symbol may have; `cudaErrorInvalidMemcpyDirection` for any other.
pub(crate) fn from_symbol_kind(kind: c_int) -> Res {
    match kind {
        D2H | D2D | DEFAULT => Ok(()),
        _ => Err(cudaError::cudaErrorInvalidMemcpyDirection),
    }
}

/// A copy of no bytes to or from a symbol succeeds at once, as in NVIDIA's runtime: before
/// the symbol, the range and the kind are looked at.
fn to_symbol(sym: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int, stream: Option<cudaStream_t>) -> Res {
    if count == 0 {
        return Ok(());
    }
    let f = rt::ctx()?;
    let dst = symbol_range(sym, count, offset, f)?;
    to_symbol_kind(kind)?;
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
    from_symbol_kind(kind)?;
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

/// The device name of a registered kernel stub (what the tools' callbacks show as the
/// launch's symbol name), or null.
pub(crate) fn kernel_symbol(func: *const c_void) -> *const c_char {
    match find_func(func) {
        Some(f) => f.name.as_ptr(),
        None => std::ptr::null(),
    }
}

/// The host stub a kernel handle was registered with (what the tools' callbacks show as the
/// `func` of a launch by handle), else the handle itself. The 12 ABI reports no launch by
/// handle as a `cudaLaunchKernel` (build.rs, `REPORTED_AS`).
#[cfg(not(feature = "abi12"))]
pub(crate) fn kernel_stub(kernel: cudaKernel_t) -> *const c_void {
    match KERNELS.read().get(&(kernel as usize)) {
        Some(f) if f.stub != 0 => f.stub as *const c_void,
        _ => kernel as *const c_void,
    }
}

#[cfg(all(test, not(feature = "abi12")))]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn attributes_135_are_asked_once_of_a_driver_that_refuses_them() {
        let calls = Cell::new(0);
        let refusing = |a: CUfunction_attribute| -> Res<c_int> {
            calls.set(calls.get() + 1);
            if a >= 16 {
                Err(cudaError::cudaErrorInvalidValue)
            } else {
                Ok(a)
            }
        };
        ATTRIBUTES_135.store(0, Ordering::Relaxed);
        assert_eq!(attributes_135(&refusing, 4096), (0, 4096));
        assert_eq!(calls.get(), 2);
        // Known now: the fallback values, no driver call.
        assert_eq!(attributes_135(&refusing, 1024), (0, 1024));
        assert_eq!(calls.get(), 2);

        // A driver that answers them is asked every time (they may change).
        let answering = |a: CUfunction_attribute| -> Res<c_int> {
            calls.set(calls.get() + 1);
            Ok(a * 10)
        };
        ATTRIBUTES_135.store(0, Ordering::Relaxed);
        assert_eq!(attributes_135(&answering, 0), (160, 170));
        assert_eq!(attributes_135(&answering, 0), (160, 170));
        assert_eq!(calls.get(), 6);

        // Another error (a kernel that failed to load, say) decides nothing.
        let failing = |_: CUfunction_attribute| -> Res<c_int> { Err(cudaError::cudaErrorInvalidDeviceFunction) };
        ATTRIBUTES_135.store(0, Ordering::Relaxed);
        assert_eq!(attributes_135(&failing, 7), (0, 7));
        assert_eq!(ATTRIBUTES_135.load(Ordering::Relaxed), 0);
    }
}
