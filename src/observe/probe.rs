//! Whether memory can be read, without reading it: the kernel copies it into a pipe and
//! says `EFAULT` when it cannot. Used before the observer reads what a pointer argument
//! points at, and by checked mode to tell a handle that points at nothing from one the
//! driver may know.

use std::sync::MutexGuard;

use super::lock::Lock;

/// The pipe (read end, write end), made on first use.
static PIPE: Lock<Option<(i32, i32)>> = Lock::new(None);

fn new_pipe() -> Option<(i32, i32)> {
    let mut fds = [0i32; 2];
    // SAFETY: valid array of two descriptors.
    let r = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) };
    (r == 0).then_some((fds[0], fds[1]))
}

/// The pipe, held across a fork.
pub struct Held(MutexGuard<'static, Option<(i32, i32)>>);

pub fn hold() -> Held {
    Held(PIPE.lock())
}

impl Held {
    /// In the forked child: a pipe of its own (the parent's is shared with the parent).
    pub fn forked(mut self) {
        if let Some((r, w)) = self.0.take() {
            // SAFETY: this process's copies of the parent's pipe.
            unsafe {
                libc::close(r);
                libc::close(w);
            }
        }
    }
}

/// Whether `len` bytes at `p` can be read (at most 4096 bytes are checked).
pub fn readable(p: usize, len: usize) -> bool {
    if p == 0 {
        return false;
    }
    let len = len.clamp(1, 4096);
    let mut g = PIPE.lock();
    if g.is_none() {
        *g = new_pipe();
    }
    let Some((r, w)) = *g else { return true };
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
