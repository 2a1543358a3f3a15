//! What the process's environment may ask of the library, and when it may not: in
//! secure-execution mode (`AT_SECURE`: a setuid or setgid program, or one with file
//! capabilities, started by a user the program does not trust) no variable that loads code
//! or names a file is honoured. The dynamic loader does the same for `LD_PRELOAD` and
//! `LD_LIBRARY_PATH`; a library every CUDA process loads must not reopen that door.

use std::sync::atomic::{AtomicU8, Ordering};

/// 0: not known yet, 1: no, 2: yes.
static SECURE: AtomicU8 = AtomicU8::new(0);

/// Whether the process runs in secure-execution mode (the kernel's `AT_SECURE`, as the
/// loader sees it). Read once.
pub fn secure() -> bool {
    match SECURE.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            // SAFETY: getauxval reads the auxiliary vector the kernel gave the process.
            let s = unsafe { libc::getauxval(libc::AT_SECURE) } != 0;
            SECURE.store(if s { 2 } else { 1 }, Ordering::Relaxed);
            s
        }
    }
}

/// A variable that names a file or code to load: its value, unless the process runs in
/// secure-execution mode (then `None`, and the first time a set variable is ignored a line
/// on stderr says so).
pub fn path_var(name: &str) -> Option<std::ffi::OsString> {
    let v = std::env::var_os(name)?;
    if secure() {
        eprintln!(
            "cudart-rs: {name} ignored: the program runs in secure-execution mode \
             (setuid, setgid or file capabilities)"
        );
        return None;
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_test_process_is_not_secure() {
        assert!(!super::secure());
        assert_eq!(super::path_var("CUDART_RS_NO_SUCH_VARIABLE"), None);
    }
}
