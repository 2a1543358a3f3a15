//! This process, as the reports name it: its id (the child's, after a fork), its threads'
//! ids, its program, command line, host and rank.

use std::cell::Cell;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, MutexGuard};

use figures::Proc;

use super::lock::Lock;

/// This process's id (the child's, after a fork).
static PID: AtomicU32 = AtomicU32::new(0);

thread_local! {
    static TID: Cell<i32> = const { Cell::new(0) };
}

/// Notes this process's id (when observation starts).
pub fn start() {
    PID.store(std::process::id(), Ordering::Relaxed);
}

/// This process's id.
pub fn pid() -> u32 {
    match PID.load(Ordering::Relaxed) {
        0 => std::process::id(),
        p => p,
    }
}

/// The OS thread id of this thread.
pub fn tid() -> i32 {
    TID.with(|t| {
        if t.get() == 0 {
            // SAFETY: plain system call.
            t.set(unsafe { libc::gettid() });
        }
        t.get()
    })
}

static P: Lock<Option<Arc<Proc>>> = Lock::new(None);

/// The process the reports describe (read when first asked, and again in a forked child):
/// its program's file name, its command line shortened, its host, and `RANK` (or
/// `LOCAL_RANK`) where a launcher such as torchrun set it. (`seconds` is the summary's.)
pub fn process() -> Arc<Proc> {
    let mut g = P.lock();
    match &*g {
        Some(p) if p.pid == pid() => p.clone(),
        _ => {
            let p = Arc::new(describe());
            *g = Some(p.clone());
            p
        }
    }
}

fn describe() -> Proc {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_default();
    let cmd = std::fs::read("/proc/self/cmdline")
        .map(|b| {
            b.split(|&c| c == 0)
                .filter(|a| !a.is_empty())
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();
    let cmd = if cmd.chars().count() > 120 { format!("{}...", cmd.chars().take(117).collect::<String>()) } else { cmd };
    let rank =
        ["RANK", "LOCAL_RANK"].iter().find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty() && v.len() < 16));
    Proc { pid: pid(), host: host(), exe, cmd, rank, seconds: 0.0 }
}

/// The host's name.
fn host() -> String {
    let mut b = [0u8; 256];
    // SAFETY: a buffer of the size given.
    if unsafe { libc::gethostname(b.as_mut_ptr().cast(), b.len() - 1) } != 0 {
        return String::new();
    }
    String::from_utf8_lossy(&b[..b.iter().position(|&c| c == 0).unwrap_or(0)]).into_owned()
}

/// The description, held across a fork.
pub struct Held(MutexGuard<'static, Option<Arc<Proc>>>);

pub fn hold() -> Held {
    Held(P.lock())
}

impl Held {
    /// In the forked child: its own id, its own description when next asked.
    pub fn forked(mut self) {
        PID.store(std::process::id(), Ordering::Relaxed);
        TID.with(|t| t.set(0));
        *self.0 = None;
    }
}
