//! The library entry points besides those of `lib.rs`: as there, nothing loads (a file that
//! cannot be read is `CUDA_ERROR_FILE_NOT_FOUND`, any other `CUDA_ERROR_NO_BINARY_FOR_GPU`),
//! so every library and kernel handle is invalid.

use std::ffi::{c_char, c_uint, c_void, CStr};

use crate::state::*;
use crate::types::*;
use crate::{export, nonnull};

const CUDA_ERROR_FILE_NOT_FOUND: CUresult = 301;

export! {
    fn cuLibraryLoadFromFile(library: *mut CUlibrary, fileName: *const c_char, jitOptions: *mut CUjit_option, jitOptionsValues: *mut *mut c_void, numJitOptions: c_uint, libraryOptions: *mut CUlibraryOption, libraryOptionValues: *mut *mut c_void, numLibraryOptions: c_uint) {
        let _ = (jitOptions, jitOptionsValues, numJitOptions, libraryOptions, libraryOptionValues, numLibraryOptions);
        nonnull(library)?;
        nonnull(fileName)?;
        with(|_| Ok(()))?;
        let path = CStr::from_ptr(fileName).to_string_lossy().into_owned();
        match std::fs::read(path) {
            Ok(_) => Err(crate::CUDA_ERROR_NO_BINARY_FOR_GPU),
            Err(_) => Err(CUDA_ERROR_FILE_NOT_FOUND),
        }
    }
    fn cuLibraryGetKernelCount(count: *mut c_uint, lib: CUlibrary) {
        let _ = lib;
        nonnull(count)?;
        with(|_| Err(CUDA_ERROR_INVALID_HANDLE))
    }
    fn cuLibraryEnumerateKernels(kernels: *mut CUkernel, numKernels: c_uint, lib: CUlibrary) {
        let _ = (numKernels, lib);
        nonnull(kernels)?;
        with(|_| Err(CUDA_ERROR_INVALID_HANDLE))
    }
    fn cuLibraryGetUnifiedFunction(fptr: *mut *mut c_void, library: CUlibrary, symbol: *const c_char) {
        let _ = (library, symbol);
        nonnull(fptr)?;
        with(|_| Err(CUDA_ERROR_INVALID_HANDLE))
    }
    fn cuKernelGetName(name: *mut *const c_char, hfunc: CUkernel) {
        nonnull(name)?;
        nonnull(hfunc)?;
        with(|_| Err(CUDA_ERROR_INVALID_HANDLE))
    }
}
