//! The runtime's own export tables (`cudaGetExportTable`, and the lookup function each tools
//! record carries): the error-naming table compute-sanitizer asks for to name a failed
//! call's error.

use std::ffi::{c_char, c_int, c_void};

use crate::driver::types::CUuuid;

/// The runtime's own export tables, by UUID (`cudaGetExportTable`, and the function each
/// record carries for the tool: compute-sanitizer asks it for [`ERRORS`] to name a failed
/// call's error). A NULL or unknown UUID is `cudaErrorInvalidValue` (1).
pub fn runtime_table(id: *const CUuuid) -> Option<*const c_void> {
    // SAFETY: the caller's UUID, NULL checked.
    let id = unsafe { id.as_ref() }?;
    (id.bytes == ERRORS_ID.bytes).then_some(&ERRORS as *const ErrorsTable as *const c_void)
}

/// The function the runtime leaves in each record: `(const void **table, const CUuuid *id)`,
/// the runtime's export-table lookup, as NVIDIA's runtime's (observed: compute-sanitizer
/// calls it for [`ERRORS_ID`] when a call fails; with no table it took the missing one for
/// given and the program crashed).
pub(crate) unsafe extern "C" fn runtime_fn(table: *mut *const c_void, id: *const CUuuid) -> c_int {
    if table.is_null() {
        return 1;
    }
    match runtime_table(id) {
        Some(t) => {
            *table = t;
            0
        }
        None => 1,
    }
}

/// The runtime's error-naming table: `{b646c6a2-110b-294a-890a-2e89ad00abd0}`.
const ERRORS_ID: CUuuid =
    CUuuid { bytes: [0xb6, 0x46, 0xc6, 0xa2, 0x11, 0x0b, 0x29, 0x4a, 0x89, 0x0a, 0x2e, 0x89, 0xad, 0x00, 0xab, 0xd0] };

/// Its layout, as NVIDIA's runtime 13.0 has it: the size in bytes, then the runtime's version,
/// an interface version (1), and a call's error name and description.
#[repr(C)]
pub struct ErrorsTable {
    size: usize,
    runtime_version: unsafe extern "C" fn(*mut u32) -> c_int,
    interface_version: unsafe extern "C" fn(*mut u32) -> c_int,
    describe: unsafe extern "C" fn(c_int, *mut *const c_char, *mut *const c_char) -> c_int,
}

static ERRORS: ErrorsTable = ErrorsTable {
    size: 4 * std::mem::size_of::<usize>(),
    runtime_version: errors_runtime_version,
    interface_version: errors_interface_version,
    describe: errors_describe,
};

unsafe extern "C" fn errors_runtime_version(v: *mut u32) -> c_int {
    put(v, crate::CUDART_VERSION as u32)
}

unsafe extern "C" fn errors_interface_version(v: *mut u32) -> c_int {
    put(v, 1)
}

/// A table function's answer: 0 with the value written, 1 (`cudaErrorInvalidValue`) for NULL.
unsafe fn put(p: *mut u32, v: u32) -> c_int {
    match p.as_mut() {
        Some(p) => {
            *p = v;
            0
        }
        None => 1,
    }
}

unsafe extern "C" fn errors_describe(code: c_int, name: *mut *const c_char, string: *mut *const c_char) -> c_int {
    if let Some(n) = name.as_mut() {
        *n = crate::types::error::name(code);
    }
    if let Some(s) = string.as_mut() {
        *s = crate::types::error::string(code);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtime_answers_for_its_error_naming_table_only() {
        use std::ffi::CStr;
        let t = runtime_table(&ERRORS_ID).expect("the error-naming table") as *const ErrorsTable;
        let unknown = CUuuid { bytes: [0x42; 16] };
        assert!(runtime_table(&unknown).is_none() && runtime_table(std::ptr::null()).is_none());
        // SAFETY: the table and its functions, called as compute-sanitizer calls them.
        unsafe {
            assert_eq!((*t).size, 32);
            let mut v = 0u32;
            assert_eq!(((*t).runtime_version)(&mut v), 0);
            assert_eq!(v as c_int, crate::CUDART_VERSION);
            assert_eq!(((*t).runtime_version)(std::ptr::null_mut()), 1);
            assert_eq!(((*t).interface_version)(&mut v), 0);
            assert_eq!(v, 1);
            let (mut n, mut d) = (std::ptr::null(), std::ptr::null());
            assert_eq!(((*t).describe)(2, &mut n, &mut d), 0);
            assert_eq!(CStr::from_ptr(n).to_str(), Ok("cudaErrorMemoryAllocation"));
            assert_eq!(CStr::from_ptr(d).to_str(), Ok("out of memory"));
            assert_eq!(((*t).describe)(2, std::ptr::null_mut(), std::ptr::null_mut()), 0);
            // The record's function: the same lookup, 0 with the table, 1 without.
            let mut got: *const c_void = std::ptr::null();
            assert_eq!(runtime_fn(&mut got, &ERRORS_ID), 0);
            assert_eq!(got, t as *const c_void);
            assert_eq!(runtime_fn(&mut got, &unknown), 1);
            assert_eq!(runtime_fn(std::ptr::null_mut(), &ERRORS_ID), 1);
        }
    }
}
