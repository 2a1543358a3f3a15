//! Library management: code the program loads itself (cubin, fat binary or PTX, from memory
//! or a file). Runtime libraries and kernels are the driver's (`cudaLibrary_t` is a
//! `CUlibrary`, `cudaKernel_t` a `CUkernel`), so a kernel from `cudaLibraryGetKernel` works
//! wherever the runtime takes a function (launches, attributes, occupancy: see
//! `module.rs`'s `resolve`). `cudaJitOption` and `cudaLibraryOption` have the values of the
//! driver's `CUjit_option` and `CUlibraryOption` (and the option values their types), so
//! options are passed on as they are, for the driver to judge.
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::ptr::null_mut;

use crate::driver::types::*;
use crate::runtime::boundary::{cu, out, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

/// What a library is loaded from: an image in memory or a file.
enum Source {
    Data(*const c_void),
    File(*const c_char),
}

/// The JIT and the library options a load takes, as the caller gave them: the JIT options,
/// their values and their count, then the library options, their values and their count.
type Options =
    (*mut raw::cudaJitOption, *mut *mut c_void, c_uint, *mut raw::cudaLibraryOption, *mut *mut c_void, c_uint);

/// Both loaders: the out pointer, the image or file name (null is `cudaErrorInvalidValue`), the
/// library options, the driver's load and the handle stored. Library options counted but not
/// given (a count with a null array) make the driver crash (NVIDIA's runtime passes them on
/// and dies), so they are `cudaErrorInvalidValue` here. (JIT options counted but not given the
/// driver refuses itself.)
fn load_library(library: *mut cudaLibrary_t, source: Source, o: Options) -> Res {
    let p = out(library)?;
    let (jit, jit_values, njit, options, values, n) = o;
    let missing = match source {
        Source::Data(code) => code.is_null(),
        Source::File(name) => name.is_null(),
    };
    if missing || (n != 0 && (options.is_null() || values.is_null())) {
        return Err(cudaError::cudaErrorInvalidValue);
    }
    let f = rt::ctx()?;
    let mut l: CUlibrary = null_mut();
    let (jit, options) = (jit as *mut CUjit_option, options as *mut CUlibraryOption);
    // SAFETY: valid out pointer; the image or file name and the option arrays are the caller's
    // (the enums are `int`s of the driver's values).
    cu(unsafe {
        match source {
            Source::Data(code) => f.cuLibraryLoadData(&mut l, code, jit, jit_values, njit, options, values, n),
            Source::File(name) => f.cuLibraryLoadFromFile(&mut l, name, jit, jit_values, njit, options, values, n),
        }
    })?;
    *p = l;
    Ok(())
}

/// Load a library with specified code and options
#[export(family = Module, sem = Create(Library, library))]
#[no_mangle]
pub unsafe extern "C" fn cudaLibraryLoadData(
    library: *mut cudaLibrary_t,
    code: *const c_void,
    jitOptions: *mut raw::cudaJitOption,
    jitOptionsValues: *mut *mut c_void,
    numJitOptions: c_uint,
    libraryOptions: *mut raw::cudaLibraryOption,
    libraryOptionValues: *mut *mut c_void,
    numLibraryOptions: c_uint,
) -> cudaError_t {
    let o = (jitOptions, jitOptionsValues, numJitOptions, libraryOptions, libraryOptionValues, numLibraryOptions);
    run(|| load_library(library, Source::Data(code), o))
}

/// Load a library with specified file and options
#[export(family = Module, sem = Create(Library, library))]
#[no_mangle]
pub unsafe extern "C" fn cudaLibraryLoadFromFile(
    library: *mut cudaLibrary_t,
    fileName: *const c_char,
    jitOptions: *mut raw::cudaJitOption,
    jitOptionsValues: *mut *mut c_void,
    numJitOptions: c_uint,
    libraryOptions: *mut raw::cudaLibraryOption,
    libraryOptionValues: *mut *mut c_void,
    numLibraryOptions: c_uint,
) -> cudaError_t {
    let o = (jitOptions, jitOptionsValues, numJitOptions, libraryOptions, libraryOptionValues, numLibraryOptions);
    run(|| load_library(library, Source::File(fileName), o))
}

/// Unloads a library
#[export(family = Module, sem = Destroy(Library, library))]
#[no_mangle]
pub unsafe extern "C" fn cudaLibraryUnload(library: cudaLibrary_t) -> cudaError_t {
    run(|| {
        let f = rt::ctx()?;
        // SAFETY: the handle is the driver's to check.
        let r = cu(f.cuLibraryUnload(library));
        // Its kernels' handles may name other code from now on.
        crate::runtime::kattr::forget_all();
        r
    })
}

passthrough! {
    cudaLibraryGetKernel(pKernel: *mut cudaKernel_t, library: cudaLibrary_t, name: *const c_char)
        = ctx.cuLibraryGetKernel(pKernel, library, name) [family = Module, sem = LibraryGetKernel]
        "Returns a kernel handle";
    cudaLibraryGetManaged(dptr: *mut *mut c_void, bytes: *mut usize, library: cudaLibrary_t, name: *const c_char)
        = ctx.cuLibraryGetManaged(dptr as *mut CUdeviceptr, bytes, library, name) [family = Module]
        "Returns a pointer to managed memory";
    cudaLibraryGetUnifiedFunction(fptr: *mut *mut c_void, library: cudaLibrary_t, symbol: *const c_char)
        = ctx.cuLibraryGetUnifiedFunction(fptr, library, symbol) [family = Module]
        "Returns a pointer to a unified function";
    cudaLibraryGetKernelCount(count: *mut c_uint, lib: cudaLibrary_t)
        = ctx.cuLibraryGetKernelCount(count, lib) [family = Module] "Returns the number of kernels within a library";
    cudaLibraryEnumerateKernels(kernels: *mut cudaKernel_t, numKernels: c_uint, lib: cudaLibrary_t)
        = ctx.cuLibraryEnumerateKernels(kernels, numKernels, lib) [family = Module]
        "Retrieve the kernel handles within a library.";
}

/// Returns a global device pointer
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaLibraryGetGlobal(
    dptr: *mut *mut c_void,
    bytes: *mut usize,
    library: cudaLibrary_t,
    name: *const c_char,
) -> cudaError_t {
    run(|| {
        // The global of the current context's device.
        let f = rt::ctx()?;
        // SAFETY: a device pointer is pointer-sized; either out pointer may be null, and
        // the rest is the driver's to check.
        cu(f.cuLibraryGetGlobal(dptr as *mut CUdeviceptr, bytes, library, name))
    })
}

/// Sets information about a kernel
///
/// As `cudaFuncSetAttribute`, only the settable attributes are taken. The kernel handle and
/// the device go to the driver as they are, as NVIDIA's runtime passes them (a host stub or a
/// null kernel is the driver's invalid handle, an unknown device its invalid device).
#[export(family = Module)]
#[no_mangle]
pub unsafe extern "C" fn cudaKernelSetAttributeForDevice(
    kernel: cudaKernel_t,
    attr: raw::cudaFuncAttribute,
    value: c_int,
    device: c_int,
) -> cudaError_t {
    run(|| {
        if !(8..=15).contains(&attr.0) {
            return Err(cudaError::cudaErrorInvalidValue);
        }
        let f = rt::ctx()?;
        // SAFETY: the handle and the device are the driver's to check.
        cu(f.cuKernelSetAttribute(attr.0, value, kernel, device))
    })
}
