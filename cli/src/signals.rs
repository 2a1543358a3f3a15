//! The command's signals, kept the program's own: the dispositions and mask this command was
//! started with are handed on to the program (an ignored signal stays ignored, as `nohup`
//! asks; `SIGPIPE` as it was, which Rust's runtime changes before `main`), and `SIGINT`,
//! `SIGTERM`, `SIGHUP` and `SIGQUIT` sent to this command are passed to the program, as a
//! terminal sends them to the foreground job. One the terminal sent (^C, ^\, a hangup) went
//! to every process of the job already, the program's too, and is not passed again. This
//! command stays to report; it exits with the program's status.

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

/// The signals passed on.
pub const FORWARDED: [libc::c_int; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

/// `si_code` of a signal the kernel sent (a terminal's).
const SI_KERNEL: libc::c_int = 0x80;

/// `SIGPIPE`'s disposition and the signal mask when this command started (before Rust's
/// runtime set `SIGPIPE` ignored).
static PIPE_AT_START: AtomicUsize = AtomicUsize::new(libc::SIG_DFL);
static mut MASK_AT_START: MaybeUninit<libc::sigset_t> = MaybeUninit::zeroed();

#[used]
#[link_section = ".init_array"]
static SAVE_AT_START: extern "C" fn() = {
    extern "C" fn save() {
        // SAFETY: reading the process's disposition and mask into valid structs, before
        // `main`, on the only thread.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGPIPE, std::ptr::null(), &mut old) == 0 {
                PIPE_AT_START.store(old.sa_sigaction, Ordering::Relaxed);
            }
            libc::pthread_sigmask(
                libc::SIG_SETMASK,
                std::ptr::null(),
                (*std::ptr::addr_of_mut!(MASK_AT_START)).as_mut_ptr(),
            );
        }
    }
    save
};

/// The program, to pass signals to.
static CHILD: AtomicI32 = AtomicI32::new(0);
/// A signal to pass on that came before the program had started; whoever takes it from here
/// (the handler, or [`child_is`]) passes it, once.
static PENDING: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel's siginfo for this signal.
    let from_terminal = !info.is_null() && unsafe { (*info).si_code } == SI_KERNEL;
    if from_terminal {
        return;
    }
    PENDING.store(sig, Ordering::SeqCst);
    let c = CHILD.load(Ordering::SeqCst);
    if c > 0 {
        let s = PENDING.swap(0, Ordering::SeqCst);
        if s != 0 {
            // SAFETY: kill is async-signal-safe.
            unsafe { libc::kill(c, s) };
        }
    }
}

/// Whether `sig` was ignored when this command started (then it stays ignored, in the
/// program too).
fn ignored(sig: libc::c_int) -> bool {
    // SAFETY: reading a disposition into a valid struct.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(sig, std::ptr::null(), &mut old) == 0 && old.sa_sigaction == libc::SIG_IGN
    }
}

/// Catches the signals to pass on (those not ignored), before the program starts.
pub fn catch() {
    for sig in FORWARDED {
        if ignored(sig) {
            continue;
        }
        // SAFETY: a handler that only calls kill.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as *const () as usize;
            sa.sa_flags = libc::SA_RESTART | libc::SA_SIGINFO;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// The program started: signals go to it from now on (one that came before it started too).
pub fn child_is(pid: i32) {
    CHILD.store(pid, Ordering::SeqCst);
    let s = PENDING.swap(0, Ordering::SeqCst);
    if s != 0 {
        // SAFETY: plain system call.
        unsafe { libc::kill(pid, s) };
    }
}

/// In the child, between fork and exec (async-signal-safe calls only): the signals caught
/// here go back to their default action, `SIGPIPE` and the mask to what this command was
/// started with.
///
/// # Safety
/// Only between fork and exec.
pub unsafe fn in_child() {
    for sig in FORWARDED {
        let mut old: libc::sigaction = std::mem::zeroed();
        if libc::sigaction(sig, std::ptr::null(), &mut old) == 0 && old.sa_sigaction != libc::SIG_IGN {
            libc::signal(sig, libc::SIG_DFL);
        }
    }
    libc::signal(libc::SIGPIPE, PIPE_AT_START.load(Ordering::Relaxed));
    libc::pthread_sigmask(libc::SIG_SETMASK, (*std::ptr::addr_of!(MASK_AT_START)).as_ptr(), std::ptr::null_mut());
}

/// For the commands that only print: a closed pipe ends this command quietly (as `cat`'s
/// does), instead of failing its writes.
pub fn quiet_on_closed_pipe() {
    // SAFETY: restoring a default disposition.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
}
