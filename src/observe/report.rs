//! The end-of-run reports: the summary (per function calls, errors and times, as
//! `nsys --stats`' cuda_api_sum lays them out; bytes copied by direction and by memory kind;
//! memory held and its peaks; kernel launches) and the leak and misuse report (as
//! compute-sanitizer's `--leak-check full`). Printed at exit, or on SIGINT/SIGTERM.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use parking_lot::Mutex;

use super::registry::{self, Kind, HELD};
use super::{config, Call, Dest, Status};
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

/// `1234567` -> `1,234,567`.
pub fn commas(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

fn commas_f(v: f64) -> String {
    let s = format!("{v:.1}");
    let (whole, frac) = s.split_once('.').unwrap_or((&s, "0"));
    format!("{}.{frac}", commas(whole.parse().unwrap_or(0)))
}

/// The C++ name of a mangled kernel name (through the program's own `__cxa_demangle`, when
/// the process has one), else the name as it is.
pub fn demangle(name: &str) -> String {
    type Demangle = unsafe extern "C" fn(*const libc::c_char, *mut libc::c_char, *mut usize, *mut libc::c_int) -> *mut libc::c_char;
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

/// The summary, as text.
pub fn summary() -> String {
    let mut o = String::new();
    let elapsed = super::start().elapsed();
    let _ = writeln!(o, "==== cudart-rs summary (pid {}, {:.3} s) ====", std::process::id(), elapsed.as_secs_f64());
    // Per function, by total time.
    let mut rows: Vec<(usize, u64, u64, u64, u64, u64, f64)> = Vec::new();
    let mut all = 0u64;
    for (i, s) in STATS.iter().enumerate() {
        let calls = s.calls.load(Ordering::Relaxed);
        if calls == 0 {
            continue;
        }
        let total = s.total.load(Ordering::Relaxed);
        all += total;
        rows.push((
            i,
            calls,
            s.errors.load(Ordering::Relaxed),
            total,
            s.min.load(Ordering::Relaxed),
            s.max.load(Ordering::Relaxed),
            f64::from_bits(s.sq.load(Ordering::Relaxed)),
        ));
    }
    rows.sort_by(|a, b| b.3.cmp(&a.3).then(a.0.cmp(&b.0)));
    let _ = writeln!(o, "\nCUDA API calls:");
    let _ = writeln!(
        o,
        " Time (%)  Total Time (ns)  Num Calls  Errors      Avg (ns)      Min (ns)      Max (ns)   StdDev (ns)  Name"
    );
    let _ = writeln!(
        o,
        " --------  ---------------  ---------  ------  ------------  ------------  ------------  ------------  ----"
    );
    for (i, calls, errors, total, min, max, sq) in rows {
        let avg = total as f64 / calls as f64;
        let var = if calls > 1 { ((sq - calls as f64 * avg * avg) / (calls - 1) as f64).max(0.0) } else { 0.0 };
        let pct = if all > 0 { 100.0 * total as f64 / all as f64 } else { 0.0 };
        let _ = writeln!(
            o,
            " {:>8.1}  {:>15}  {:>9}  {:>6}  {:>12}  {:>12}  {:>12}  {:>12}  {}",
            pct,
            commas(total),
            commas(calls),
            commas(errors),
            commas_f(avg),
            commas(min),
            commas(max),
            commas_f(var.sqrt()),
            crate::EXPORT_INFO[i].name
        );
    }
    // (Locks are waited for a while only: a signal may have stopped the thread that holds one.)
    let m = MOVED.try_lock_for(Duration::from_secs(2));
    let empty = Moved::default();
    let m = m.as_ref().and_then(|m| m.as_ref()).unwrap_or(&empty);
    let _ = writeln!(o, "\nMemory copies by direction:");
    let _ = writeln!(o, " Direction      Copies            Bytes");
    for d in [Dir::H2D, Dir::D2H, Dir::D2D, Dir::H2H, Dir::Peer] {
        let (n, b) = m.by_dir.get(&d).copied().unwrap_or_default();
        let _ = writeln!(o, " {:<9}  {:>10}  {:>15}", d.label(), commas(n), commas(b));
    }
    let _ = writeln!(o, "\nMemory copies by memory kind (source -> destination):");
    let _ = writeln!(o, " Kinds                      Copies            Bytes");
    let mut kinds: Vec<_> = m.by_kind.iter().collect();
    kinds.sort();
    for ((s, d), (n, b)) in kinds {
        let _ = writeln!(o, " {:<25}  {:>6}  {:>15}", format!("{} -> {}", s.label(), d.label()), commas(*n), commas(*b));
    }
    let _ = writeln!(o, " memset                     {:>6}  {:>15}", commas(m.memset.0), commas(m.memset.1));
    let _ = writeln!(o, "\nMemory held (bytes):");
    let _ = writeln!(o, " Memory                 At exit             Peak");
    if let Some(reg) = registry::try_lock() {
        for (i, name) in HELD.iter().enumerate() {
            let _ = writeln!(o, " {:<15}  {:>15}  {:>15}", name, commas(reg.held[i]), commas(reg.peak[i]));
        }
    }
    let _ = writeln!(o, "\nKernel launches:");
    let _ = writeln!(o, "   Launches    Failed  Kernel");
    let mut ks: Vec<_> = m.launches.iter().collect();
    ks.sort_by(|a, b| (b.1 .0 + b.1 .1).cmp(&(a.1 .0 + a.1 .1)).then(a.0.cmp(b.0)));
    for (name, (ok, failed)) in ks {
        let _ = writeln!(o, " {:>10}  {:>8}  {}", commas(*ok), commas(*failed), name);
    }
    let _ = writeln!(o, " graph launches: {}", commas(m.graph_launches));
    o
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
    let file = if info.dli_fname.is_null() { String::new() } else { unsafe { std::ffi::CStr::from_ptr(info.dli_fname) }.to_string_lossy().into_owned() };
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
    let _ = writeln!(o, "========= cudart-rs leak check (pid {})", std::process::id());
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
                if a.kind == Kind::Pinned || a.kind == Kind::Registered { String::new() } else { format!(" (device {})", a.device) },
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

fn write(dest: &Dest, text: &str) {
    match dest {
        Dest::Stderr => {
            let _ = std::io::stderr().lock().write_all(text.as_bytes());
        }
        Dest::File(p) => {
            if let Err(e) = std::fs::write(p, text) {
                eprintln!("cudart-rs: cannot write {}: {e}", p.display());
            }
        }
    }
}

/// Whether the reports were made; held while they are made (so that a second caller, the
/// signal thread or exit, waits for them).
static REPORTED: Mutex<bool> = Mutex::new(false);

/// Prints what was asked for at the end of the run (once).
pub fn at_exit() {
    let mut done = REPORTED.lock();
    if *done {
        return;
    }
    *done = true;
    let c = config();
    if c.gpu {
        super::gpu::collect(true);
    }
    super::timeline::close();
    if let Some(d) = &c.summary {
        write(d, &summary());
    }
    if let Some(d) = &c.leaks {
        write(d, &leaks());
    } else if c.checked {
        // Checked mode reports what it refused even when leaks were not asked for.
        if let Some(reg) = registry::try_lock() {
            let mut o = String::new();
            for m in &reg.misuse {
                let _ = writeln!(o, "========= Misuse: call #{} {}: {}", m.call, m.func, m.what);
            }
            drop(reg);
            if !o.is_empty() {
                write(&Dest::Stderr, &o);
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
/// Whether the reporting thread runs (it is started by the first observed call, not while
/// the library is being loaded).
static WATCHING: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(sig: libc::c_int) {
    let v = SIGNAL_PIPE.load(Ordering::Relaxed);
    let (pid, fd) = ((v >> 32) as i32, v as u32 as i32);
    // SAFETY: async-signal-safe calls only.
    unsafe {
        if v != u64::MAX && WATCHING.load(Ordering::Acquire) && libc::getpid() == pid {
            let b = sig as u8;
            libc::write(fd, (&b as *const u8).cast(), 1);
            // The thread the signal stopped goes no further, as the signal meant: the
            // reporting thread ends the process. (Should it not within 10 s, the signal's
            // default action does.)
            let t = libc::timespec { tv_sec: 0, tv_nsec: 10_000_000 };
            for _ in 0..1000 {
                libc::nanosleep(&t, std::ptr::null_mut());
            }
        }
        // A forked child, or nothing observed yet: die as the signal would have made us.
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}

/// Registers the reports to run at exit, and on SIGINT/SIGTERM when those would kill the
/// process: a handler hands the signal to a thread that reports, then re-raises it with its
/// default action. (The thread is started by [`watch`].)
pub fn install() {
    let c = config();
    if c.summary.is_none() && c.leaks.is_none() && c.timeline.is_none() && !c.checked {
        return;
    }
    // SAFETY: registering a plain C function.
    unsafe { libc::atexit(at_exit_c) };
    if c.summary.is_none() && c.leaks.is_none() && c.timeline.is_none() {
        return;
    }
    let mut fds = [0; 2];
    // SAFETY: valid array of two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return;
    }
    // SAFETY: plain system call.
    let pid = unsafe { libc::getpid() };
    SIGNAL_PIPE.store(((pid as u32 as u64) << 32) | fds[1] as u32 as u64, Ordering::Relaxed);
    SIGNAL_READ.store(fds[0] as u32 as u64, Ordering::Relaxed);
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: reading and setting signal dispositions with valid structs.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 || old.sa_sigaction != libc::SIG_DFL {
                continue;
            }
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as *const () as usize;
            sa.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// Starts the thread that reports when a signal ends the program (once; from an observed
/// call).
pub fn watch() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    let r = SIGNAL_READ.load(Ordering::Relaxed);
    if r == u64::MAX {
        return;
    }
    STARTED.call_once(|| {
        let r = r as i32;
        let spawned = std::thread::Builder::new().name("cudart-rs-signal".into()).spawn(move || loop {
            let mut b = 0u8;
            // SAFETY: reads one byte into a local.
            let n = unsafe { libc::read(r, (&mut b as *mut u8).cast(), 1) };
            if n == 1 {
                let sig = b as libc::c_int;
                at_exit();
                // SAFETY: restores the default action and re-raises the signal.
                unsafe {
                    libc::signal(sig, libc::SIG_DFL);
                    libc::kill(libc::getpid(), sig);
                }
            } else if n == 0 {
                return;
            }
        });
        if spawned.is_ok() {
            WATCHING.store(true, Ordering::Release);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_directions() {
        assert_eq!(commas(0), "0");
        assert_eq!(commas(999), "999");
        assert_eq!(commas(1000), "1,000");
        assert_eq!(commas(1234567), "1,234,567");
        assert_eq!(commas_f(1234.56), "1,234.6");
        assert_eq!(Dir::of(4, End::Pageable, End::Device), Dir::H2D);
        assert_eq!(Dir::of(4, End::Managed, End::Pinned), Dir::D2H);
        assert_eq!(Dir::of(4, End::Pinned, End::Pageable), Dir::H2H);
        assert_eq!(Dir::of(1, End::Device, End::Device), Dir::H2D);
        assert_eq!(demangle("plain"), "plain");
    }
}
