//! The end-of-run reports: the summary (per function calls, errors and times, as
//! `nsys --stats`' cuda_api_sum lays them out; bytes copied by direction and by memory kind;
//! memory held and its peaks; kernel launches) and the leak and misuse report (as
//! compute-sanitizer's `--leak-check full`). Printed at exit, or on SIGINT/SIGTERM.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::Mutex;

use super::registry::{self, Kind, HELD};
use super::summary::Summary;
use super::{config, files, Call, Dest, Status};
use crate::EXPORT_COUNT;

// ---- per-function statistics -------------------------------------------------------------

struct Stat {
    calls: AtomicU64,
    errors: AtomicU64,
    total: AtomicU64,
    min: AtomicU64,
    max: AtomicU64,
    /// Sum of squared nanoseconds, as f64 bits.
    sq: AtomicU64,
}

#[allow(clippy::declare_interior_mutable_const)]
const STAT: Stat = Stat {
    calls: AtomicU64::new(0),
    errors: AtomicU64::new(0),
    total: AtomicU64::new(0),
    min: AtomicU64::new(u64::MAX),
    max: AtomicU64::new(0),
    sq: AtomicU64::new(0),
};

static STATS: [Stat; EXPORT_COUNT] = [STAT; EXPORT_COUNT];

/// Counts one call of export `c.ix`.
pub fn count(c: &Call, status: Status, d: Duration) {
    let s = &STATS[c.ix];
    let ns = d.as_nanos().min(u64::MAX as u128) as u64;
    s.calls.fetch_add(1, Ordering::Relaxed);
    if c.failed(status) {
        s.errors.fetch_add(1, Ordering::Relaxed);
    }
    s.total.fetch_add(ns, Ordering::Relaxed);
    s.min.fetch_min(ns, Ordering::Relaxed);
    s.max.fetch_max(ns, Ordering::Relaxed);
    let sq = (ns as f64) * (ns as f64);
    let _ = s.sq.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| Some((f64::from_bits(b) + sq).to_bits()));
}

// ---- bytes moved ---------------------------------------------------------------------------

/// The direction of a copy.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    H2D,
    D2H,
    D2D,
    H2H,
    Peer,
}

impl Dir {
    pub fn label(self) -> &'static str {
        match self {
            Dir::H2D => "HtoD",
            Dir::D2H => "DtoH",
            Dir::D2D => "DtoD",
            Dir::H2H => "HtoH",
            Dir::Peer => "peer",
        }
    }

    /// The direction of a copy of `cudaMemcpyKind` `kind` (by the memory when the kind is
    /// `cudaMemcpyDefault` or invalid; managed memory counts as device memory there).
    pub fn of(kind: i64, src: End, dst: End) -> Dir {
        match kind {
            0 => Dir::H2H,
            1 => Dir::H2D,
            2 => Dir::D2H,
            3 => Dir::D2D,
            _ => match (src.host(), dst.host()) {
                (true, true) => Dir::H2H,
                (true, false) => Dir::H2D,
                (false, true) => Dir::D2H,
                (false, false) => Dir::D2D,
            },
        }
    }
}

/// The memory at one end of a copy.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum End {
    Pageable,
    Pinned,
    Managed,
    Device,
    Array,
}

impl End {
    pub fn of(k: Kind) -> End {
        match k {
            Kind::Pinned | Kind::Registered => End::Pinned,
            Kind::Managed => End::Managed,
            Kind::Array | Kind::Mipmapped => End::Array,
            _ => End::Device,
        }
    }
    fn host(self) -> bool {
        matches!(self, End::Pageable | End::Pinned)
    }
    fn label(self) -> &'static str {
        match self {
            End::Pageable => "pageable",
            End::Pinned => "pinned",
            End::Managed => "managed",
            End::Device => "device",
            End::Array => "array",
        }
    }
}

#[derive(Default)]
struct Moved {
    by_dir: HashMap<Dir, (u64, u64)>,
    by_kind: HashMap<(End, End), (u64, u64)>,
    memset: (u64, u64),
    launches: HashMap<String, (u64, u64)>,
    graph_launches: u64,
}

static MOVED: Mutex<Option<Moved>> = Mutex::new(None);

fn moved<R>(f: impl FnOnce(&mut Moved) -> R) -> R {
    f(MOVED.lock().get_or_insert_with(Moved::default))
}

pub fn copied(dir: Dir, src: End, dst: End, bytes: u64) {
    moved(|m| {
        let e = m.by_dir.entry(dir).or_default();
        e.0 += 1;
        e.1 += bytes;
        let e = m.by_kind.entry((src, dst)).or_default();
        e.0 += 1;
        e.1 += bytes;
    })
}

pub fn memset(bytes: u64) {
    moved(|m| {
        m.memset.0 += 1;
        m.memset.1 += bytes;
    })
}

pub fn launched(name: String, ok: bool) {
    moved(|m| {
        let e = m.launches.entry(name).or_default();
        if ok {
            e.0 += 1;
        } else {
            e.1 += 1;
        }
    })
}

pub fn graph_launched() {
    moved(|m| m.graph_launches += 1)
}

// ---- formatting ------------------------------------------------------------------------------

pub use super::summary::commas;

/// The C++ name of a mangled kernel name (through the program's own `__cxa_demangle`, when
/// the process has one), else the name as it is.
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

/// This process's summary, as data.
pub fn gather() -> Summary {
    let p = super::process();
    let mut out = Summary {
        procs: vec![super::summary::Proc { seconds: super::since_start().as_secs_f64(), ..(*p).clone() }],
        ..Summary::default()
    };
    for (i, s) in STATS.iter().enumerate() {
        let calls = s.calls.load(Ordering::Relaxed);
        if calls == 0 {
            continue;
        }
        out.rows.push(super::summary::Row {
            name: crate::EXPORT_INFO[i].name.to_string(),
            calls,
            errors: s.errors.load(Ordering::Relaxed),
            total: s.total.load(Ordering::Relaxed),
            min: s.min.load(Ordering::Relaxed),
            max: s.max.load(Ordering::Relaxed),
            sq: f64::from_bits(s.sq.load(Ordering::Relaxed)),
        });
    }
    // (Locks are waited for a while only: a signal may have stopped the thread that holds one.)
    let m = MOVED.try_lock_for(Duration::from_secs(2));
    let empty = Moved::default();
    let m = m.as_ref().and_then(|m| m.as_ref()).unwrap_or(&empty);
    for (i, d) in [Dir::H2D, Dir::D2H, Dir::D2D, Dir::H2H, Dir::Peer].into_iter().enumerate() {
        out.dirs[i] = m.by_dir.get(&d).copied().unwrap_or_default();
    }
    let mut kinds: Vec<_> = m.by_kind.iter().collect();
    kinds.sort();
    out.kinds =
        kinds.into_iter().map(|((s, d), (n, b))| (s.label().to_string(), d.label().to_string(), *n, *b)).collect();
    out.memset = m.memset;
    if let Some(reg) = registry::try_lock() {
        out.held = HELD.iter().enumerate().map(|(i, name)| (name.to_string(), reg.held[i], reg.peak[i])).collect();
    }
    out.launches = m.launches.iter().map(|(k, (ok, failed))| (k.clone(), *ok, *failed)).collect();
    out.graph_launches = m.graph_launches;
    out
}

/// The summary, as text.
pub fn summary() -> String {
    gather().render()
}

// ---- leaks and misuse --------------------------------------------------------------------------

/// The program's return addresses at this point (frames in this library left out).
pub fn backtrace() -> Vec<usize> {
    extern "C" {
        fn backtrace(buffer: *mut *mut libc::c_void, size: libc::c_int) -> libc::c_int;
    }
    let mut buf = [std::ptr::null_mut::<libc::c_void>(); 48];
    // SAFETY: glibc's backtrace into a buffer of the size given.
    let n = unsafe { backtrace(buf.as_mut_ptr(), buf.len() as libc::c_int) }.max(0) as usize;
    let me = own_base();
    buf[..n].iter().map(|&p| p as usize).filter(|&p| base_of(p) != me).take(16).collect()
}

fn base_of(p: usize) -> usize {
    // SAFETY: dladdr fills the struct for an address.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    if unsafe { libc::dladdr(p as *const libc::c_void, &mut info) } == 0 {
        return 0;
    }
    info.dli_fbase as usize
}

fn own_base() -> usize {
    base_of(own_base as *const () as usize)
}

/// `0x55.. in main (/path/prog+0x1189)`.
fn frame(p: usize) -> String {
    // SAFETY: dladdr fills the struct for an address; the names it returns are C strings
    // that live as long as the object.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    if unsafe { libc::dladdr(p as *const libc::c_void, &mut info) } == 0 {
        return format!("{p:#x}");
    }
    let file = if info.dli_fname.is_null() {
        String::new()
    } else {
        unsafe { std::ffi::CStr::from_ptr(info.dli_fname) }.to_string_lossy().into_owned()
    };
    let sym = if info.dli_sname.is_null() {
        None
    } else {
        Some(demangle(&unsafe { std::ffi::CStr::from_ptr(info.dli_sname) }.to_string_lossy()))
    };
    let off = p.wrapping_sub(info.dli_fbase as usize);
    match sym {
        Some(s) => format!("{p:#x} in {s} ({file}+{off:#x})"),
        None => format!("{p:#x} in {file}+{off:#x}"),
    }
}

/// The leak and misuse report, as text.
pub fn leaks() -> String {
    let mut o = String::new();
    let Some(reg) = registry::try_lock() else {
        return "========= cudart-rs leak check: the registry is busy; no report\n".to_string();
    };
    let _ = writeln!(o, "========= cudart-rs leak check ({})", super::process().label());
    let mut live: Vec<&registry::Alloc> = reg.mem.values().chain(reg.handles.values()).collect();
    live.sort_by_key(|a| a.call);
    let mut bytes = 0u64;
    let mut allocs = 0u64;
    let mut handles: HashMap<Kind, u64> = HashMap::new();
    for a in &live {
        if a.kind.is_memory() {
            bytes += a.size as u64;
            allocs += 1;
            let _ = writeln!(
                o,
                "========= Leaked {} bytes of {} at {:#x}{}: made by call #{} {} (thread {})",
                commas(a.size as u64),
                a.kind.label(),
                a.addr,
                if a.kind == Kind::Pinned || a.kind == Kind::Registered {
                    String::new()
                } else {
                    format!(" (device {})", a.device)
                },
                a.call,
                a.func,
                a.tid
            );
        } else {
            *handles.entry(a.kind).or_default() += 1;
            if matches!(a.kind, Kind::Array | Kind::Mipmapped) {
                bytes += a.size as u64;
            }
            let _ = writeln!(
                o,
                "========= Leaked {} {:#x}{}: made by call #{} {} (thread {})",
                a.kind.label(),
                a.addr,
                if a.size > 0 { format!(" ({} bytes)", commas(a.size as u64)) } else { String::new() },
                a.call,
                a.func,
                a.tid
            );
        }
        if let Some(bt) = &a.backtrace {
            let _ = writeln!(o, "=========     Host backtrace at the allocation:");
            for (i, p) in bt.iter().enumerate() {
                let _ = writeln!(o, "=========       #{i} {}", frame(*p));
            }
        }
    }
    for m in &reg.misuse {
        let _ = writeln!(o, "========= Misuse: call #{} {}: {}", m.call, m.func, m.what);
    }
    if reg.misuse_dropped > 0 {
        let _ = writeln!(o, "========= ... and {} more misuses", reg.misuse_dropped);
    }
    let mut hs: Vec<_> = handles.iter().collect();
    hs.sort();
    let hs = hs.iter().map(|(k, n)| format!("{n} {}", k.label())).collect::<Vec<_>>().join(", ");
    let _ = writeln!(
        o,
        "========= LEAK SUMMARY: {} bytes leaked in {} allocations; handles leaked: {}; misuses: {}",
        commas(bytes),
        allocs,
        if hs.is_empty() { "none".to_string() } else { hs },
        reg.misuse.len() as u64 + reg.misuse_dropped
    );
    o
}

// ---- at exit -------------------------------------------------------------------------------------

fn write(what: &str, dest: &Dest, text: &str) {
    match dest {
        Dest::Stderr => {
            let _ = std::io::stderr().lock().write_all(text.as_bytes());
        }
        Dest::File(p) => files::append_report(what, p, text),
    }
}

/// Whether the reports were made; held while they are made (so that a second caller, the
/// signal thread or exit, waits for them).
static REPORTED: Mutex<bool> = Mutex::new(false);

/// Prints what was asked for at the end of the run (once). A process that made no observed
/// call (a shell or `timeout` that only started the program, a forked child that did not use
/// the runtime) reports nothing.
pub fn at_exit() {
    let Some(mut done) = REPORTED.try_lock_for(Duration::from_secs(10)) else { return };
    if *done {
        return;
    }
    *done = true;
    if !super::made_calls() {
        return;
    }
    let c = config();
    if c.gpu {
        super::gpu::collect(true);
    }
    super::timeline::close();
    if let Some(d) = &c.summary {
        write("summary", d, &summary());
    }
    if let Some(p) = &c.summary_data {
        files::append_report("summary data", p, &gather().records());
    }
    if let Some(d) = &c.leaks {
        write("leak report", d, &leaks());
    } else if c.checked {
        // Checked mode reports what it refused even when leaks were not asked for.
        if let Some(reg) = registry::try_lock() {
            let mut o = String::new();
            for m in &reg.misuse {
                let _ = writeln!(o, "========= Misuse: call #{} {}: {}", m.call, m.func, m.what);
            }
            drop(reg);
            if !o.is_empty() {
                write("misuse report", &Dest::Stderr, &o);
            }
        }
    }
}

extern "C" fn at_exit_c() {
    at_exit();
}

/// The write end of the pipe the signal handler writes to, and the process that made it.
static SIGNAL_PIPE: AtomicU64 = AtomicU64::new(u64::MAX);
/// The read end, for the reporting thread.
static SIGNAL_READ: AtomicU64 = AtomicU64::new(u64::MAX);
/// The process whose reporting thread runs (it is started by the first observed call of a
/// process, not while the library is being loaded; a forked child starts its own).
static WATCHER: AtomicU32 = AtomicU32::new(0);
/// Whether the handlers were installed.
static HANDLING: AtomicBool = AtomicBool::new(false);

const SIGNALS: [libc::c_int; 2] = [libc::SIGINT, libc::SIGTERM];

/// What each of [`SIGNALS`] did before: the default action, or the handler of another copy
/// of this library in the process (the 12 and the 13 runtime loaded together), which runs
/// after this one has reported.
static mut PREVIOUS: [std::mem::MaybeUninit<libc::sigaction>; 2] =
    [std::mem::MaybeUninit::zeroed(), std::mem::MaybeUninit::zeroed()];

/// Hands signal `sig` on to what handled it before this library: restores that and raises
/// the signal again (delivered once the current handler returns).
fn pass_on(sig: libc::c_int) {
    let i = SIGNALS.iter().position(|&s| s == sig).unwrap_or(0);
    // SAFETY: PREVIOUS is written once, before the handlers are installed; async-signal-safe
    // calls only.
    unsafe {
        let prev = (*std::ptr::addr_of!(PREVIOUS))[i].as_ptr();
        libc::sigaction(sig, prev, std::ptr::null_mut());
        libc::raise(sig);
    }
}

extern "C" fn on_signal(sig: libc::c_int) {
    let v = SIGNAL_PIPE.load(Ordering::Relaxed);
    let (pid, fd) = ((v >> 32) as u32, v as u32 as i32);
    // SAFETY: async-signal-safe calls only.
    unsafe {
        let me = libc::getpid() as u32;
        if v != u64::MAX && WATCHER.load(Ordering::Acquire) == me && pid == me {
            let b = sig as u8;
            libc::write(fd, (&b as *const u8).cast(), 1);
            // The thread the signal stopped goes no further, as the signal meant: the
            // reporting thread ends the process. (Should it not within 10 s, the signal's
            // default action does.)
            let t = libc::timespec { tv_sec: 0, tv_nsec: 10_000_000 };
            for _ in 0..1000 {
                libc::nanosleep(&t, std::ptr::null_mut());
            }
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
            return;
        }
    }
    // Nothing observed in this process: what would have happened without this library.
    pass_on(sig);
}

/// Whether the handler `h` is another copy of this library's (one in a file named like
/// `libcudart.so.*` other than this one's).
fn sibling_handler(h: libc::sighandler_t) -> bool {
    fn file_of(p: usize) -> Option<std::ffi::OsString> {
        // SAFETY: dladdr fills the struct for an address; the name is a C string.
        let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
        if unsafe { libc::dladdr(p as *const libc::c_void, &mut info) } == 0 || info.dli_fname.is_null() {
            return None;
        }
        use std::os::unix::ffi::OsStrExt;
        Some(std::ffi::OsStr::from_bytes(unsafe { std::ffi::CStr::from_ptr(info.dli_fname) }.to_bytes()).to_owned())
    }
    let (Some(theirs), Some(mine)) = (file_of(h), file_of(on_signal as *const () as usize)) else { return false };
    theirs != mine
        && std::path::Path::new(&theirs).file_name().is_some_and(|n| n.to_string_lossy().starts_with("libcudart"))
}

/// A pipe for the signal handler to hand signals to this process's reporting thread.
fn new_pipe() {
    let mut fds = [0; 2];
    // SAFETY: valid array of two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return;
    }
    let pid = std::process::id();
    SIGNAL_READ.store(fds[0] as u32 as u64, Ordering::Relaxed);
    SIGNAL_PIPE.store(((pid as u64) << 32) | fds[1] as u32 as u64, Ordering::Release);
}

/// Registers the reports to run at exit, and on SIGINT/SIGTERM when those would kill the
/// process: a handler hands the signal to a thread that reports, then re-raises it with its
/// default action. (The thread is started by [`watch`].)
pub fn install() {
    let c = config();
    if !c.reports_at_exit() && !c.checked {
        return;
    }
    // SAFETY: registering a plain C function.
    unsafe { libc::atexit(at_exit_c) };
    if !c.reports_at_exit() {
        return;
    }
    new_pipe();
    for (i, sig) in SIGNALS.into_iter().enumerate() {
        // SAFETY: reading and setting signal dispositions with valid structs; PREVIOUS is
        // written here only, before the handler that reads it is installed.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 {
                continue;
            }
            // The program's own handlers, and ignored signals, are left alone.
            if old.sa_sigaction != libc::SIG_DFL && !sibling_handler(old.sa_sigaction) {
                continue;
            }
            (*std::ptr::addr_of_mut!(PREVIOUS))[i] = std::mem::MaybeUninit::new(old);
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as *const () as usize;
            sa.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
    HANDLING.store(true, Ordering::Release);
}

/// Starts the thread that reports when a signal ends the program (once per process; from an
/// observed call).
pub fn watch() {
    let me = super::pid();
    if WATCHER.load(Ordering::Relaxed) == me || !HANDLING.load(Ordering::Relaxed) {
        return;
    }
    static STARTING: parking_lot::Mutex<()> = parking_lot::Mutex::new(());
    let _g = STARTING.lock();
    if WATCHER.load(Ordering::Relaxed) == me {
        return;
    }
    let r = SIGNAL_READ.load(Ordering::Relaxed);
    if r == u64::MAX || (SIGNAL_PIPE.load(Ordering::Relaxed) >> 32) as u32 != me {
        return;
    }
    let r = r as i32;
    let spawned = std::thread::Builder::new().name("cudart-rs-signal".into()).spawn(move || loop {
        let mut b = 0u8;
        // SAFETY: reads one byte into a local.
        let n = unsafe { libc::read(r, (&mut b as *mut u8).cast(), 1) };
        if n == 1 {
            let sig = b as libc::c_int;
            at_exit();
            // What handled the signal before this library does now (the default action, or
            // the other runtime's handler, which reports its own calls in turn).
            let i = SIGNALS.iter().position(|&s| s == sig).unwrap_or(0);
            // SAFETY: restores the previous action and re-raises the signal.
            unsafe {
                libc::sigaction(sig, (*std::ptr::addr_of!(PREVIOUS))[i].as_ptr(), std::ptr::null_mut());
                libc::kill(libc::getpid(), sig);
            }
        } else if n == 0 {
            return;
        }
    });
    if spawned.is_ok() {
        WATCHER.store(me, Ordering::Release);
    }
}

/// In a forked child (from the fork handler, the child's only thread): the reports start
/// empty, a new pipe serves the child's own reporting thread.
pub fn forked() {
    for s in STATS.iter() {
        s.calls.store(0, Ordering::Relaxed);
        s.errors.store(0, Ordering::Relaxed);
        s.total.store(0, Ordering::Relaxed);
        s.min.store(u64::MAX, Ordering::Relaxed);
        s.max.store(0, Ordering::Relaxed);
        s.sq.store(0, Ordering::Relaxed);
    }
    if let Some(mut m) = MOVED.try_lock() {
        *m = None;
    }
    if let Some(mut r) = REPORTED.try_lock() {
        *r = false;
    }
    if HANDLING.load(Ordering::Relaxed) {
        let (r, w) = (SIGNAL_READ.load(Ordering::Relaxed), SIGNAL_PIPE.load(Ordering::Relaxed));
        if r != u64::MAX && w != u64::MAX {
            // SAFETY: the parent's pipe, inherited: this process's copies are closed.
            unsafe {
                libc::close(r as i32);
                libc::close(w as u32 as i32);
            }
        }
        new_pipe();
    }
}

/// Whether a forked child's reset can take the locks it needs (none held by a thread of the
/// parent that the child does not have).
pub fn can_reset() -> bool {
    MOVED.try_lock().is_some() && REPORTED.try_lock().is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_directions() {
        assert_eq!(Dir::of(4, End::Pageable, End::Device), Dir::H2D);
        assert_eq!(Dir::of(4, End::Managed, End::Pinned), Dir::D2H);
        assert_eq!(Dir::of(4, End::Pinned, End::Pageable), Dir::H2H);
        assert_eq!(Dir::of(1, End::Device, End::Device), Dir::H2D);
        assert_eq!(demangle("plain"), "plain");
    }
}
