//! What nvcc-built programs call to register their code: fat binaries, kernels and variables
//! (from the static constructors nvcc generates), and the registry the launches, function
//! queries and symbol copies look them up in.
//!
//! Registration only records: the fat binary wrapper, host stub -> kernel name, host
//! shadow -> variable name. Nothing touches the driver until the first call that needs the
//! code: the fat binary is then handed to the driver as it is (`cuLibraryLoadData`: one
//! context-independent library, the driver picks the image for each device, JIT-compiles
//! PTX and decompresses). A kernel is a `CUkernel` of that library, which `cuLaunchKernel`
//! launches in the current context; `__cudaGetKernel` hands it to the launch stub once, so
//! a launch is one driver call.
#![allow(non_snake_case)]

use cudart_rs_macros::export;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, OnceLock};

use parking_lot::{Mutex, RwLock};

use crate::driver::types::*;
use crate::driver::Fns;
use crate::runtime::boundary::{cu, run, Res};
use crate::runtime::lookup::AddrMap;
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

/// One registered fat binary. The handle the program gets is a pointer to this, so that
/// `*handle` is the wrapper the program registered; the program only passes it back.
#[repr(C)]
pub(crate) struct FatBin {
    /// What the program registered: nvcc's `__fatBinC_Wrapper_t` (else an image), which the
    /// driver loads as it is.
    pub(crate) wrapper: usize,
    /// The outcome of loading the fat binary, once tried: the `CUlibrary`, or the error that
    /// every later use of the fat binary reports again (NVIDIA's runtimes load a fat binary
    /// once). A sticky error is the context's, not the code's: it is not kept.
    pub(crate) lib: OnceLock<Result<usize, cudaError>>,
    pub(crate) load: Mutex<()>,
    /// `__managed__` variables, whose host slots get their pointers at load.
    pub(crate) managed: Mutex<Vec<Arc<Var>>>,
    /// Host variables (`__cudaRegisterHostVar`): device name and host address, handed to the
    /// driver at load (`CU_JIT_GLOBAL_SYMBOL_*`) to resolve the device code's references to
    /// them. The names live as long as the fat binary record (for ever): the driver keeps
    /// pointers to them past the load.
    pub(crate) host_vars: Mutex<Vec<(CString, usize)>>,
    /// The host table of unified functions and data (`__cudaRegisterUnifiedTable`), handed to
    /// the driver at load.
    /// (function table, its window size, data table, its window size).
    pub(crate) unified: Mutex<Option<[usize; 4]>>,
    pub(crate) unregistered: AtomicBool,
}

pub(crate) struct Func {
    pub(crate) bin: &'static FatBin,
    /// The host stub the kernel was registered with.
    pub(crate) stub: usize,
    pub(crate) name: CString,
    /// The `CUkernel`, once looked up.
    pub(crate) kernel: OnceLock<usize>,
}

pub(crate) struct Var {
    pub(crate) bin: &'static FatBin,
    pub(crate) name: CString,
    pub(crate) size: usize,
    pub(crate) managed: bool,
    /// For a managed variable: the host slot that holds its pointer.
    pub(crate) slot: usize,
}

pub(crate) type Map<T> = LazyLock<RwLock<HashMap<usize, Arc<T>>>>;

/// Host stub address -> kernel.
pub(crate) static FUNCS: Map<Func> = LazyLock::new(Default::default);
/// `CUkernel` handed out -> kernel (so a `cudaKernel_t` works where a stub does).
static KERNELS: Map<Func> = LazyLock::new(Default::default);
/// Host shadow address (for managed variables: the host slot) -> variable.
pub(crate) static VARS: Map<Var> = LazyLock::new(Default::default);
/// Managed pointer -> managed variable: host code names a managed variable by the memory the
/// slot points at.
pub(crate) static MANAGED: Map<Var> = LazyLock::new(Default::default);
/// Host variable address -> its fat binary. Host variables are no symbols of the symbol
/// exports; see [`not_a_symbol`].
pub(crate) static HOST_VARS: LazyLock<RwLock<HashMap<usize, &'static FatBin>>> = LazyLock::new(Default::default);

fn bin_of(handle: *mut *mut c_void) -> Option<&'static FatBin> {
    // SAFETY: handles are the leaked `FatBin`s `__cudaRegisterFatBinary` returned.
    unsafe { (handle as *const FatBin).as_ref() }
}

pub(crate) fn cstring(p: *const c_char) -> Option<CString> {
    if p.is_null() {
        return None;
    }
    // SAFETY: a NUL-terminated name from nvcc's generated code.
    Some(unsafe { CStr::from_ptr(p) }.to_owned())
}

/// The library of `bin`, loaded on first use. Managed variables get their pointers here.
pub(crate) fn library(bin: &'static FatBin, f: &Fns) -> Res<CUlibrary> {
    if let Some(r) = bin.lib.get() {
        return r.map(|l| l as CUlibrary);
    }
    // Loading is the runtime's own work, which NVIDIA's runtime does at other times: a first
    // use during a stream capture must not count as a call the capture forbids.
    crate::runtime::capture_mode::relaxed(f, || load_library(bin, f))
}

fn load_library(bin: &'static FatBin, f: &Fns) -> Res<CUlibrary> {
    let _g = bin.load.lock();
    if let Some(r) = bin.lib.get() {
        return r.map(|l| l as CUlibrary);
    }
    let r = load(bin, f);
    if !matches!(r, Err(e) if crate::runtime::error::is_sticky(e)) {
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
pub(crate) fn load(bin: &'static FatBin, f: &Fns) -> Res<CUlibrary> {
    let mut lib: CUlibrary = null_mut();
    // The record's own names, never dropped (the record lives for ever), not copies.
    let host_vars = bin.host_vars.lock();
    let mut names: Vec<*const c_char> = host_vars.iter().map(|(n, _)| n.as_ptr()).collect();
    let mut addrs: Vec<*mut c_void> = host_vars.iter().map(|&(_, a)| a as *mut c_void).collect();
    let mut jit_opts = [CU_JIT_GLOBAL_SYMBOL_NAMES, CU_JIT_GLOBAL_SYMBOL_ADDRESSES, CU_JIT_GLOBAL_SYMBOL_COUNT];
    let mut jit_vals =
        [names.as_mut_ptr() as *mut c_void, addrs.as_mut_ptr() as *mut c_void, host_vars.len() as *mut c_void];
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
pub(crate) fn kernel_of(func: &Arc<Func>, f: &Fns) -> Res<CUkernel> {
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
pub(crate) static NAMES: AddrMap = AddrMap::new();

/// Adds `func`'s stub to [`LAUNCHABLE`] if it is still the registered kernel of that stub.
pub(crate) fn launchable(func: &Arc<Func>, k: usize) {
    let funcs = FUNCS.read();
    if funcs.get(&func.stub).is_some_and(|f| Arc::ptr_eq(f, func)) && func.stub != 0 {
        LAUNCHABLE.insert(func.stub, k);
    }
}

pub(crate) fn find_func(func: *const c_void) -> Option<Arc<Func>> {
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
pub(crate) fn resolve_registered(func: *const c_void, f: &Fns) -> Res<CUkernel> {
    let fun = FUNCS.read().get(&(func as usize)).cloned();
    match fun {
        Some(fun) => kernel_of(&fun, f),
        None => Err(cudaError::cudaErrorInvalidDeviceFunction),
    }
}

/// The kernel a function export takes: in the 13 ABI (and the 12 ABI's launches, parameter
/// info, attributes and occupancy) any kernel (`resolve`); in the 12 ABI's cache and bank
/// configurations only a registered one.
pub(crate) fn resolve_for_config(func: *const c_void, f: &Fns) -> Res<CUkernel> {
    #[cfg(feature = "abi12")]
    return resolve_registered(func, f);
    #[cfg(not(feature = "abi12"))]
    resolve(func, f)
}

/// The `CUfunction` of `func` in the current context.
pub(crate) fn function_of(func: *const c_void, f: &Fns) -> Res<CUfunction> {
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

// ---- registration ----------------------------------------------------------------------

/// Registers a fat binary (called from nvcc's static constructors). Records it only.
/// cbindgen:ignore
#[export(family = Module)]
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
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterFatBinaryEnd(fatCubinHandle: *mut *mut c_void) {
    let _ = fatCubinHandle;
}

/// Forgets a fat binary's kernels and variables (at exit, or when a library that holds
/// device code is unloaded). The driver is not called: at exit it may be gone already, and
/// the driver's library lives until the process ends.
/// cbindgen:ignore
#[export(family = Module)]
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
    crate::runtime::kattr::forget_all();
}

/// Registers a kernel: its host stub and its device name.
/// cbindgen:ignore
#[export(family = Module, sem = RegisterFunction)]
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

fn register_var(
    handle: *mut *mut c_void,
    host: usize,
    deviceName: *const c_char,
    deviceAddress: *const c_char,
    size: usize,
    managed: bool,
) {
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
#[export(family = Module)]
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
#[export(family = Module)]
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
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterHostVar(
    fatCubinHandle: *mut *mut c_void,
    deviceName: *const c_char,
    hostVar: *mut c_char,
    size: usize,
) {
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
#[export(family = Module)]
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
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn __cudaInitModule(fatCubinHandle: *mut *mut c_void) -> c_char {
    let Some(bin) = bin_of(fatCubinHandle) else { return 0 };
    let r = run(|| {
        let f = rt::ctx()?;
        library(bin, f).map(|_| ())
    });
    (r == cudaError::cudaSuccess) as c_char
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
