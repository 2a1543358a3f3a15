//! Kernel names as C++ writes them: a mangled name demangled by the program's own
//! `__cxa_demangle`, when the process has one.

/// The C++ name of a mangled kernel name, else the name as it is.
pub fn demangle(name: &str) -> String {
    type Demangle =
        unsafe extern "C" fn(*const libc::c_char, *mut libc::c_char, *mut usize, *mut libc::c_int) -> *mut libc::c_char;
    if !name.starts_with("_Z") {
        return name.to_string();
    }
    // SAFETY: looking a symbol up by its NUL-terminated name.
    let f = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"__cxa_demangle".as_ptr()) };
    if f.is_null() {
        return name.to_string();
    }
    // SAFETY: `__cxa_demangle` has this C++ ABI signature.
    let f: Demangle = unsafe { std::mem::transmute::<*mut libc::c_void, Demangle>(f) };
    let Ok(c) = std::ffi::CString::new(name) else { return name.to_string() };
    let mut status = 0;
    // SAFETY: a C string; null buffer and length ask for a malloc'ed result.
    let out = unsafe { f(c.as_ptr(), std::ptr::null_mut(), std::ptr::null_mut(), &mut status) };
    if out.is_null() || status != 0 {
        return name.to_string();
    }
    // SAFETY: a NUL-terminated string that `__cxa_demangle` allocated with malloc.
    let s = unsafe { std::ffi::CStr::from_ptr(out) }.to_string_lossy().into_owned();
    // SAFETY: freeing what it allocated.
    unsafe { libc::free(out.cast()) };
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn plain_names_stay() {
        assert_eq!(super::demangle("plain"), "plain");
    }
}
