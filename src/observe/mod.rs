//! Observation: what a program does with the GPU, seen from the runtime, without changing the
//! program. Everything here is off unless one of these environment variables is set; they
//! are read once, when the library is loaded:
//!
//! - `CUDART_RS_TRACE=FILTER`: every call with its decoded arguments, result and duration,
//!   through `tracing`. `FILTER` is a `tracing` filter over the call families (`memory`,
//!   `copy`, `memset`, `array`, `launch`, `module`, `stream`, `event`, `device`, `graph`,
//!   `texture`, `interop`, `error`, `runtime`) and levels (a failed call is `warn`, a call
//!   of the `error` family `debug`, any other `info`; `trace` adds a line as each call
//!   starts); `1` or `all` is `debug`, every call. `CUDART_RS_TRACE_FILE=PATH` writes it to
//!   a file instead of stderr.
//! - `CUDART_RS_SUMMARY=1|PATH`: at exit (or on SIGINT/SIGTERM), per function calls, errors
//!   and times, bytes copied by direction and memory kind, peaks of memory held, kernel
//!   launches by name. `CUDART_RS_SUMMARY_DATA=PATH`: the same figures as tab-separated
//!   records (what the `cudart-rs` command adds up over the processes of a run).
//! - `CUDART_RS_LEAKS=1|backtrace[,PATH]`: at exit, every allocation and handle never freed,
//!   with the call that made it (and its backtrace), and every misuse seen (double frees,
//!   frees of unknown pointers, invalid handles).
//! - `CUDART_RS_TIMELINE=PATH[,gpu]`: a Chrome trace-event JSON file (Perfetto), one event
//!   per call on one track per host thread; `gpu` adds the spans of copies, memsets and
//!   kernels on the GPU, measured with events.
//! - `CUDART_RS_CHECKED=1`: stream, event, array, mipmapped-array and graph handles and
//!   freed pointers are checked against what this runtime handed out: misuse that would
//!   crash returns an error and is reported.
//!
//! Reports are made by each process that made an observed call, and only by those: a shell
//! or `timeout` that loaded the library and started the program reports nothing (nor does a
//! process whose only calls are the fat-binary registrations of the libraries it loads), and a
//! forked child starts with empty figures of its own. Report files are appended to, a block
//! per process named in its header, under a lock, never truncated, never through a symbolic
//! link ([`files`]); the timeline stays one valid JSON array however many processes add to
//! it. In secure-execution mode ([`crate::driver::env::secure`]) no file is written: the reports
//! that can go to stderr go there, the timeline is not made.
//!
//! How calls get here: build.rs binds every exported symbol to a generated shim with the
//! export's signature. With observation off the shim tail-calls the export's code after one
//! load and one branch on [`on`]; with it on, it calls [`call`] with the export's index in
//! [`crate::EXPORT_INFO`], its arguments decoded by type ([`args::A`]) and the call itself.
//! The exports in `src/api` do not name the observer.

pub mod args;
mod checked;
pub mod enums;
pub mod files;
pub mod flags;
mod gpu;
mod probe;
pub(crate) mod registry;
mod report;
pub(crate) mod sem;
mod show;
pub mod summary;
mod timeline;
pub mod tools;
pub mod trace;
mod tracer;

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use crate::types::cudaError;
use args::A;

/// The families of exports (build.rs gives each export one): the call trace's `tracing`
/// targets, and the groups of the summary.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    Memory,
    Copy,
    Memset,
    Array,
    Launch,
    Module,
    Stream,
    Event,
    Device,
    Graph,
    Texture,
    Interop,
    Error,
    Runtime,
}

impl Family {
    /// The `tracing` target of the family's calls.
    pub fn target(self) -> &'static str {
        match self {
            Family::Memory => "memory",
            Family::Copy => "copy",
            Family::Memset => "memset",
            Family::Array => "array",
            Family::Launch => "launch",
            Family::Module => "module",
            Family::Stream => "stream",
            Family::Event => "event",
            Family::Device => "device",
            Family::Graph => "graph",
            Family::Texture => "texture",
            Family::Interop => "interop",
            Family::Error => "error",
            Family::Runtime => "runtime",
        }
    }

    pub const ALL: [Family; 14] = [
        Family::Memory,
        Family::Copy,
        Family::Memset,
        Family::Array,
        Family::Launch,
        Family::Module,
        Family::Stream,
        Family::Event,
        Family::Device,
        Family::Graph,
        Family::Texture,
        Family::Interop,
        Family::Error,
        Family::Runtime,
    ];
}

/// One export, as build.rs describes it in [`crate::EXPORT_INFO`].
pub struct Export {
    /// The exported name (`cudaMemcpy_ptds` for a per-thread-stream export).
    pub name: &'static str,
    /// The function it is a form of (`cudaMemcpy`).
    pub base: &'static str,
    pub family: Family,
    /// A `_ptds`/`_ptsz` export: the null stream is the per-thread stream.
    pub per_thread: bool,
    /// (name, Rust type) of each parameter.
    pub params: &'static [(&'static str, &'static str)],
    /// The Rust return type.
    pub ret: &'static str,
    /// What the call means to the observer (its declaration's `sem`).
    pub(crate) op: sem::Op,
    /// The set of flags its parameter `flags` holds (its declaration's `flags`).
    pub flags: Option<flags::FlagSet>,
}

/// Where a report goes.
#[derive(Clone, Debug, PartialEq)]
pub enum Dest {
    Stderr,
    File(PathBuf),
}

/// What the environment asked for.
#[derive(Debug, Default)]
pub struct Config {
    /// The call trace's filter.
    pub trace: Option<String>,
    pub trace_file: Option<PathBuf>,
    pub summary: Option<Dest>,
    /// Where the summary's figures go as records.
    pub summary_data: Option<PathBuf>,
    pub leaks: Option<Dest>,
    pub backtrace: bool,
    pub timeline: Option<PathBuf>,
    pub gpu: bool,
    pub checked: bool,
}

impl Config {
    /// Anything on.
    pub fn any(&self) -> bool {
        self.trace.is_some() || self.reports_at_exit() || self.checked
    }

    /// A report written at exit (or when a signal ends the program) is asked for.
    pub fn reports_at_exit(&self) -> bool {
        self.summary.is_some() || self.summary_data.is_some() || self.leaks.is_some() || self.timeline.is_some()
    }

    /// What is left in secure-execution mode: no file; the trace and the reports that can go
    /// to stderr go there. Returns a note of each change.
    pub fn without_files(&mut self) -> Vec<String> {
        let mut notes = Vec::new();
        let why = "the program runs in secure-execution mode (setuid, setgid or file capabilities)";
        if let Some(p) = self.trace_file.take() {
            notes.push(format!("{TRACE_FILE_ENV}={} ignored: {why}; the trace goes to stderr", p.display()));
        }
        for (var, d) in [(SUMMARY_ENV, &mut self.summary), (LEAKS_ENV, &mut self.leaks)] {
            if let Some(Dest::File(p)) = d {
                notes.push(format!("{var}: {} ignored: {why}; the report goes to stderr", p.display()));
                *d = Some(Dest::Stderr);
            }
        }
        if let Some(p) = self.summary_data.take() {
            notes.push(format!("{SUMMARY_DATA_ENV}={} ignored: {why}", p.display()));
        }
        if let Some(p) = self.timeline.take() {
            notes.push(format!("{TIMELINE_ENV}: {} ignored: {why}; no timeline is made", p.display()));
            self.gpu = false;
        }
        notes
    }
}

pub const TRACE_ENV: &str = "CUDART_RS_TRACE";
pub const TRACE_FILE_ENV: &str = "CUDART_RS_TRACE_FILE";
pub const SUMMARY_ENV: &str = "CUDART_RS_SUMMARY";
pub const SUMMARY_DATA_ENV: &str = "CUDART_RS_SUMMARY_DATA";
pub const LEAKS_ENV: &str = "CUDART_RS_LEAKS";
pub const TIMELINE_ENV: &str = "CUDART_RS_TIMELINE";
pub const CHECKED_ENV: &str = "CUDART_RS_CHECKED";

fn yes(v: &str) -> bool {
    matches!(v.to_ascii_lowercase().as_str(), "1" | "on" | "yes" | "true" | "all" | "stderr")
}

fn no(v: &str) -> bool {
    matches!(v.to_ascii_lowercase().as_str(), "" | "0" | "off" | "no" | "false")
}

/// A path from the environment, with `%p` replaced by the process id.
pub fn path_of(v: &str) -> PathBuf {
    PathBuf::from(v.replace("%p", &std::process::id().to_string()))
}

/// Reads the configuration from `get` (the environment, or a test's table).
pub fn parse(get: impl Fn(&str) -> Option<String>) -> (Config, Vec<String>) {
    let mut c = Config::default();
    let mut warnings = Vec::new();
    if let Some(v) = get(TRACE_ENV) {
        if !no(&v) {
            c.trace = Some(if yes(&v) { "debug".to_string() } else { v });
        }
    }
    if let Some(v) = get(TRACE_FILE_ENV).filter(|v| !v.is_empty()) {
        c.trace_file = Some(path_of(&v));
    }
    if let Some(v) = get(SUMMARY_ENV) {
        if !no(&v) {
            c.summary = Some(if yes(&v) { Dest::Stderr } else { Dest::File(path_of(&v)) });
        }
    }
    if let Some(v) = get(SUMMARY_DATA_ENV).filter(|v| !no(v)) {
        c.summary_data = Some(path_of(&v));
    }
    if let Some(v) = get(LEAKS_ENV) {
        if !no(&v) {
            let mut dest = Dest::Stderr;
            for item in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                match item {
                    "backtrace" | "bt" => c.backtrace = true,
                    i if yes(i) => {}
                    i if i.contains('/') || i.contains('.') => dest = Dest::File(path_of(i)),
                    i => warnings.push(format!("{LEAKS_ENV}: unknown item {i:?} (1, backtrace or a path)")),
                }
            }
            c.leaks = Some(dest);
        }
    }
    if let Some(v) = get(TIMELINE_ENV) {
        if !no(&v) {
            let mut path = None;
            for item in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                match item {
                    "gpu" => c.gpu = true,
                    i if yes(i) => {}
                    i => path = Some(path_of(i)),
                }
            }
            c.timeline = Some(path.unwrap_or_else(|| path_of("cudart-rs-timeline.%p.json")));
        }
    }
    if let Some(v) = get(CHECKED_ENV) {
        if yes(&v) {
            c.checked = true;
        } else if !no(&v) {
            warnings.push(format!("{CHECKED_ENV}={v}: expected 1 or 0"));
        }
    }
    (c, warnings)
}

/// Whether anything is observed: the shims' one branch (they read it as a byte).
pub(crate) static ON: AtomicBool = AtomicBool::new(false);
static CONFIG: OnceLock<Config> = OnceLock::new();
/// Call numbers: the n-th observed call of the process is `#n`.
static SEQ: AtomicU64 = AtomicU64::new(0);
/// Whether this process made an observed call other than the registrations of its fat
/// binaries (which loading a library of kernels makes, without the program asking: a Python
/// that imports PyTorch to start other processes, as torchrun does, makes thousands).
static USED: AtomicBool = AtomicBool::new(false);
/// Per export: whether it is such a registration.
static REGISTRATION: OnceLock<Box<[bool]>> = OnceLock::new();
/// When observation started, and that moment on the system's monotonic clock (µs): the
/// timeline's times are that clock's, the same in every process of a run.
static START: OnceLock<(Instant, f64)> = OnceLock::new();
/// Nanoseconds from [`START`] to when this process began (a forked child's fork).
static PROC_ORIGIN: AtomicU64 = AtomicU64::new(0);
/// This process's id (the child's, after a fork).
static PID: AtomicU32 = AtomicU32::new(0);

/// Whether observation is on. Read by every shim: one relaxed load of a flag set once at load.
#[inline(always)]
pub fn on() -> bool {
    ON.load(Ordering::Relaxed)
}

/// The configuration (only meaningful when [`on`]).
pub fn config() -> &'static Config {
    CONFIG.get_or_init(Config::default)
}

fn base() -> &'static (Instant, f64) {
    START.get_or_init(|| {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: valid out pointer.
        unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
        (Instant::now(), ts.tv_sec as f64 * 1e6 + ts.tv_nsec as f64 / 1e3)
    })
}

/// The time since this process's observation began.
pub fn since_start() -> std::time::Duration {
    base().0.elapsed().saturating_sub(std::time::Duration::from_nanos(PROC_ORIGIN.load(Ordering::Relaxed)))
}

/// `t` on the system's monotonic clock, in microseconds (the timeline's time).
pub fn abs_us(t: Instant) -> f64 {
    let (i, us) = *base();
    match t.checked_duration_since(i) {
        Some(d) => us + d.as_nanos() as f64 / 1e3,
        None => us - (i - t).as_nanos() as f64 / 1e3,
    }
}

/// This process's id.
pub fn pid() -> u32 {
    match PID.load(Ordering::Relaxed) {
        0 => std::process::id(),
        p => p,
    }
}

/// Whether this process made an observed call other than fat-binary registrations (its
/// reports are made only then).
pub fn made_calls() -> bool {
    USED.load(Ordering::Relaxed)
}

fn registration(ix: usize) -> bool {
    REGISTRATION
        .get_or_init(|| {
            crate::EXPORT_INFO
                .iter()
                .map(|e| e.name.starts_with("__cudaRegister") || e.name.starts_with("__cudaUnregister"))
                .collect()
        })
        .get(ix)
        .copied()
        .unwrap_or(false)
}

/// The process the reports describe (read when first asked, and again in a forked child):
/// its program's file name, its command line shortened, and `RANK` (or `LOCAL_RANK`) where a
/// launcher such as torchrun set it. (`seconds` is filled in by the summary.)
pub fn process() -> Arc<summary::Proc> {
    static P: parking_lot::Mutex<Option<Arc<summary::Proc>>> = parking_lot::Mutex::new(None);
    let mut g = P.lock();
    match &*g {
        Some(p) if p.pid == pid() => p.clone(),
        _ => {
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
            let cmd = if cmd.chars().count() > 120 {
                format!("{}...", cmd.chars().take(117).collect::<String>())
            } else {
                cmd
            };
            let rank = ["RANK", "LOCAL_RANK"]
                .iter()
                .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty() && v.len() < 16));
            let p = Arc::new(summary::Proc { pid: pid(), exe, cmd, rank, seconds: 0.0 });
            *g = Some(p.clone());
            p
        }
    }
}

thread_local! {
    /// Depth of observed calls on this thread: an export that a call reaches again (a stream
    /// callback the driver runs inside the call, say) is not observed twice.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    static TID: Cell<i32> = const { Cell::new(0) };
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

/// Reads the environment and switches observation on if asked. Runs once, when the library
/// is loaded (an `.init_array` constructor), so before any export is called.
pub fn init() {
    static DONE: AtomicBool = AtomicBool::new(false);
    if DONE.swap(true, Ordering::AcqRel) {
        return;
    }
    // The tools' tables are attached when the driver loads, whatever else is observed.
    crate::driver::on_load(tools::attach);
    let (mut cfg, mut warnings) = parse(|k| std::env::var(k).ok());
    if crate::driver::env::secure() {
        warnings.extend(cfg.without_files());
    }
    for w in warnings {
        eprintln!("cudart-rs: {w}");
    }
    let any = cfg.any();
    let _ = CONFIG.set(cfg);
    crate::observe::trace::init();
    if !any {
        return;
    }
    base();
    PID.store(std::process::id(), Ordering::Relaxed);
    sem::init();
    registration(0);
    let c = config();
    if let Some(p) = &c.timeline {
        timeline::open(p);
    }
    report::install();
    // SAFETY: registering a plain C function to run in the child after a fork.
    unsafe { libc::pthread_atfork(None, None, Some(forked)) };
    ON.store(true, Ordering::Release);
}

/// In a forked child, on its only thread: the child is a process of its own, with its own
/// call numbers, figures, registry and report (made only if it makes an observed call).
/// Where a thread of the parent held a lock the child would need, the child is not
/// observed (it says so).
extern "C" fn forked() {
    PID.store(std::process::id(), Ordering::Relaxed);
    TID.with(|t| t.set(0));
    if !(report::can_reset()
        && registry::can_reset()
        && timeline::can_reset()
        && gpu::can_reset()
        && probe::can_reset())
    {
        ON.store(false, Ordering::Release);
        let m =
            b"cudart-rs: this forked child is not observed (it was forked while another thread was being observed)\n";
        // SAFETY: write(2) of a static buffer.
        unsafe { libc::write(2, m.as_ptr().cast(), m.len()) };
        return;
    }
    SEQ.store(0, Ordering::Relaxed);
    USED.store(false, Ordering::Relaxed);
    PROC_ORIGIN.store(base().0.elapsed().as_nanos() as u64, Ordering::Relaxed);
    report::forked();
    registry::forked();
    timeline::forked();
    gpu::forked();
    probe::forked();
}

#[cfg(not(test))]
#[used]
#[link_section = ".init_array"]
static INIT_AT_LOAD: extern "C" fn() = {
    extern "C" fn init_at_load() {
        init();
    }
    init_at_load
};

/// What an export returned, as the observer sees it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Status {
    /// A `cudaError_t` export's result.
    Result(cudaError),
    /// An export that returns something else (or nothing).
    Other,
}

impl Status {
    pub fn failed(self) -> bool {
        matches!(self, Status::Result(e) if e != cudaError::cudaSuccess && e != cudaError::cudaErrorNotReady)
    }
    pub fn ok(self) -> bool {
        matches!(self, Status::Result(cudaError::cudaSuccess) | Status::Other)
    }
}

/// The return types of exports.
pub trait Ret: Sized {
    fn status(&self) -> Status;
    /// The value as the trace shows it.
    fn show(&self, f: &mut show::Fmt);
    /// The value an export returns when checked mode refuses the call (`None`: it never does).
    fn refused(_e: cudaError) -> Option<Self> {
        None
    }
}

impl Ret for cudaError {
    fn status(&self) -> Status {
        Status::Result(*self)
    }
    fn show(&self, f: &mut show::Fmt) {
        f.s.push_str(&format!("{self:?}"));
    }
    fn refused(e: cudaError) -> Option<Self> {
        Some(e)
    }
}

impl Ret for () {
    fn status(&self) -> Status {
        Status::Other
    }
    fn show(&self, _f: &mut show::Fmt) {}
}

impl Ret for *const std::ffi::c_char {
    fn status(&self) -> Status {
        Status::Other
    }
    fn show(&self, f: &mut show::Fmt) {
        show::cstr(f, *self as usize)
    }
}

macro_rules! ret_value {
    ($($t:ty),*) => {$(
        impl Ret for $t {
            fn status(&self) -> Status {
                Status::Other
            }
            fn show(&self, f: &mut show::Fmt) {
                args::Show::show(self, f)
            }
        }
    )*};
}
ret_value!(
    std::ffi::c_uint,
    *mut std::ffi::c_void,
    crate::types::cudaChannelFormatDesc,
    crate::types::cudaPitchedPtr,
    crate::types::cudaPos,
    crate::types::cudaExtent
);

impl Ret for std::ffi::c_char {
    fn status(&self) -> Status {
        Status::Other
    }
    fn show(&self, f: &mut show::Fmt) {
        f.s.push_str(&self.to_string())
    }
}

impl Ret for *mut *mut std::ffi::c_void {
    fn status(&self) -> Status {
        Status::Other
    }
    fn show(&self, f: &mut show::Fmt) {
        f.hex(*self as usize)
    }
}

/// One observed call.
pub struct Call<'a> {
    pub ix: usize,
    pub ex: &'static Export,
    pub args: &'a [A],
    /// Its number, `#seq`.
    pub seq: u64,
}

impl Call<'_> {
    /// Whether the call failed: an error result, but not-ready, and not the error queries'
    /// results (`cudaGetLastError` returns an error it did not have).
    pub fn failed(&self, s: Status) -> bool {
        s.failed() && self.ex.family != Family::Error
    }

    /// The argument of parameter `name`.
    pub fn arg(&self, name: &str) -> Option<&A> {
        self.ex.params.iter().position(|p| p.0 == name).map(|i| &self.args[i])
    }
    /// An integer or pointer argument's value (0 when the export has no such parameter).
    pub fn val(&self, name: &str) -> u64 {
        self.arg(name).map_or(0, A::raw)
    }
    /// The value an out pointer `name` points at, read as a `T` after a successful call.
    pub fn out<T: Copy + Default>(&self, name: &str) -> T {
        let p = self.val(name) as usize;
        if p == 0 || !probe::readable(p, std::mem::size_of::<T>()) {
            return T::default();
        }
        // SAFETY: a readable out pointer the export wrote.
        unsafe { std::ptr::read_unaligned(p as *const T) }
    }
    /// A struct argument passed by pointer (`*const T`) or by value, read as a `T`.
    pub fn get<T: Copy>(&self, name: &str) -> Option<T> {
        let p = match self.arg(name)? {
            A::R(p, _) | A::V(p, _) => *p,
            _ => return None,
        };
        if p == 0 || !probe::readable(p, std::mem::size_of::<T>()) {
            return None;
        }
        // SAFETY: readable memory the program passed as a `T`.
        Some(unsafe { std::ptr::read_unaligned(p as *const T) })
    }
    /// The stream the call works on: its stream argument (or `config->stream`), with a null
    /// stream in a per-thread export made `cudaStreamPerThread`.
    pub fn stream(&self) -> usize {
        let s = ["stream", "hStream"]
            .iter()
            .find_map(|n| self.arg(n))
            .map(A::raw)
            .or_else(|| self.get::<crate::types::cudaLaunchConfig_t>("config").map(|c| c.stream as u64))
            .unwrap_or(0) as usize;
        if s == 0 && self.ex.per_thread {
            2
        } else {
            s
        }
    }
}

struct Depth;
impl Depth {
    fn enter() -> Option<Depth> {
        DEPTH.with(|d| {
            if d.get() > 0 {
                None
            } else {
                d.set(1);
                Some(Depth)
            }
        })
    }
}
impl Drop for Depth {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(0));
    }
}

/// An observed call: `ix` is the export's index in [`crate::EXPORT_INFO`], `args` its
/// arguments, `f` the call. Called by the shims when [`on`]. The observer's own work is
/// kept from unwinding into the program: a panic there loses the observation, not the call.
pub fn call<R: Ret>(ix: usize, args: &[A], f: impl FnOnce() -> R) -> R {
    let Some(_depth) = Depth::enter() else { return f() };
    report::watch();
    let c = Call { ix, ex: &crate::EXPORT_INFO[ix], args, seq: SEQ.fetch_add(1, Ordering::Relaxed) + 1 };
    if !USED.load(Ordering::Relaxed) && !registration(ix) {
        USED.store(true, Ordering::Relaxed);
    }
    let t0 = Instant::now();
    let pre = catch_unwind(AssertUnwindSafe(|| {
        tracer::enter(&c);
        sem::pre(&c)
    }))
    .unwrap_or_default();
    if let Some((e, why)) = pre.refuse.clone() {
        if let Some(r) = R::refused(e) {
            crate::runtime::boundary::record(e);
            let _ = catch_unwind(AssertUnwindSafe(|| {
                let what = format!("{why} -> {e:?} (refused by checked mode)");
                registry::lock().misuse(c.seq, c.ex.name, what.clone());
                finish(&c, &r, t0, Instant::now(), Some(&why));
                tracer::misuse(&c, &what);
            }));
            return r;
        }
    }
    let t1 = Instant::now();
    let r = f();
    let t2 = Instant::now();
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let misuses = sem::post(&c, &pre, r.status());
        finish(&c, &r, t1, t2, None);
        for m in misuses {
            tracer::misuse(&c, &m);
        }
    }));
    r
}

fn finish<R: Ret>(c: &Call, r: &R, t0: Instant, t1: Instant, refused: Option<&str>) {
    let status = r.status();
    report::count(c, status, t1 - t0);
    let cfg = config();
    let want_trace = tracer::wanted(c, status);
    if want_trace || cfg.timeline.is_some() {
        let res = show::result(c, r);
        let decoded = show::decode(c, Some(status));
        if want_trace {
            tracer::emit(c, status, &decoded, &res, t0, t1, refused);
        }
        if cfg.timeline.is_some() {
            timeline::call(c, &decoded, &res, t0, t1, refused);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| pairs.iter().find(|p| p.0 == k).map(|p| p.1.to_string())
    }

    #[test]
    fn nothing_set_is_off() {
        let (c, w) = parse(env(&[]));
        assert!(!c.any());
        assert!(w.is_empty());
        let (c, _) = parse(env(&[(TRACE_ENV, "0"), (SUMMARY_ENV, "off"), (CHECKED_ENV, "0")]));
        assert!(!c.any());
    }

    #[test]
    fn values_are_read() {
        let (c, w) = parse(env(&[
            (TRACE_ENV, "1"),
            (SUMMARY_ENV, "/tmp/s-%p.txt"),
            (LEAKS_ENV, "backtrace"),
            (TIMELINE_ENV, "/tmp/t.json,gpu"),
            (CHECKED_ENV, "1"),
        ]));
        assert!(w.is_empty());
        assert_eq!(c.trace.as_deref(), Some("debug"));
        assert_eq!(c.summary, Some(Dest::File(PathBuf::from(format!("/tmp/s-{}.txt", std::process::id())))));
        assert_eq!(c.leaks, Some(Dest::Stderr));
        assert!(c.backtrace);
        assert_eq!(c.timeline, Some(PathBuf::from("/tmp/t.json")));
        assert!(c.gpu && c.checked);
        let (c, _) = parse(env(&[(TRACE_ENV, "copy,launch=warn"), (LEAKS_ENV, "1,./leaks.txt")]));
        assert_eq!(c.trace.as_deref(), Some("copy,launch=warn"));
        assert_eq!(c.leaks, Some(Dest::File(PathBuf::from("./leaks.txt"))));
        let (_, w) = parse(env(&[(LEAKS_ENV, "sometimes"), (CHECKED_ENV, "maybe")]));
        assert_eq!(w.len(), 2);
    }

    #[test]
    fn every_export_has_a_family_and_its_parameters() {
        assert_eq!(crate::EXPORT_INFO.len(), crate::EXPORTS.len());
        for (e, n) in crate::EXPORT_INFO.iter().zip(crate::EXPORTS) {
            assert_eq!(e.name, *n);
            assert!(e.name.starts_with(e.base));
        }
        let m = crate::EXPORT_INFO.iter().find(|e| e.name == "cudaMemcpy").unwrap();
        assert_eq!(m.family, Family::Copy);
        assert_eq!(m.params.len(), 4);
        assert_eq!(m.params[3], ("kind", "raw::cudaMemcpyKind"));
        let g = crate::EXPORT_INFO.iter().find(|e| e.name == "cudaGraphAddMemcpyNode").unwrap();
        assert_eq!(g.family, Family::Graph);
        let p = crate::EXPORT_INFO.iter().find(|e| e.name == "cudaMemcpyAsync_ptsz").unwrap();
        assert!(p.per_thread && p.base == "cudaMemcpyAsync");
        // What the declarations say the calls mean.
        assert_eq!(p.op, sem::Op::Copy(sem::CopyOp::Linear));
        let a = crate::EXPORT_INFO.iter().find(|e| e.name == "cudaMalloc").unwrap();
        assert_eq!(a.op, sem::Op::Malloc(registry::Kind::Device, "devPtr"));
        let f = crate::EXPORT_INFO.iter().find(|e| e.name == "cudaFreeHost").unwrap();
        assert_eq!(f.op, sem::Op::Free(&[registry::Kind::Pinned], "ptr"));
        let q = crate::EXPORT_INFO.iter().find(|e| e.name == "cudaStreamQuery").unwrap();
        assert_eq!((q.op, q.family), (sem::Op::None, Family::Stream));
    }
}
