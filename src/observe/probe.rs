//! Whether memory can be read, without reading it: the kernel copies it into a pipe and
//! says `EFAULT` when it cannot. Used before the observer reads what a pointer argument
//! points at, and by checked mode to tell a handle that points at nothing from one the
//! driver may know.

use std::sync::OnceLock;

use parking_lot::Mutex;

/// The pipe (read end, write end), made on first use.
static PIPE: OnceLock<Option<Mutex<(i32, i32)>>> = OnceLock::new();

fn pipe() -> Option<&'static Mutex<(i32, i32)>> {
    PIPE.get_or_init(|| new_pipe().map(Mutex::new)).as_ref()
}

fn new_pipe() -> Option<(i32, i32)> {
    let mut fds = [0i32; 2];
    // SAFETY: valid array of two descriptors.
    let r = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) };
    (r == 0).then_some((fds[0], fds[1]))
}

/// In a forked child: a pipe of its own (the parent's is shared with the parent).
pub fn forked() {
    if let Some(m) = PIPE.get().and_then(Option::as_ref) {
        if let Some(mut g) = m.try_lock() {
            if let Some(fds) = new_pipe() {
                // SAFETY: this process's copies of the parent's pipe.
                unsafe {
                    libc::close(g.0);
                    libc::close(g.1);
                }
                *g = fds;
            }
        }
    }
}

pub fn can_reset() -> bool {
    PIPE.get().and_then(Option::as_ref).is_none_or(|m| m.try_lock().is_some())
}

/// Whether `len` bytes at `p` can be read (at most 4096 bytes are checked).
pub fn readable(p: usize, len: usize) -> bool {
    if p == 0 {
        return false;
    }
    let len = len.clamp(1, 4096);
    let Some(m) = pipe() else { return true };
    let g = m.lock();
    let (r, w) = *g;
    // SAFETY: the kernel reads `len` bytes at `p` (or fails with EFAULT); nothing is
    // dereferenced here.
    let n = unsafe { libc::write(w, p as *const libc::c_void, len) };
    if n > 0 {
        let mut buf = [0u8; 4096];
        // SAFETY: drains what was just written into a local buffer.
        unsafe { libc::read(r, buf.as_mut_ptr() as *mut libc::c_void, n as usize) };
    }
    n == len as isize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readable_and_not() {
        let x = [1u8; 64];
        assert!(readable(x.as_ptr() as usize, 64));
        assert!(!readable(0, 8));
        assert!(!readable(0x10, 8));
    }
}
