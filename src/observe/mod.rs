//! Observation: what a program does with the GPU, seen from the runtime, without changing the
//! program. Everything here is off unless one of the variables [`config`] reads is set; they
//! are read once, when the library is loaded:
//!
//! - `CUDART_RS_TRACE=FILTER`: every call with its decoded arguments, result and duration,
//!   through `tracing` ([`tracer`], [`trace`]); `CUDART_RS_TRACE_FILE=PATH` writes it to a
//!   file instead of stderr.
//! - `CUDART_RS_SUMMARY=1|PATH`: at exit, per function calls, errors and times, bytes copied
//!   by direction and memory kind, peaks of memory held, kernel launches by name
//!   ([`report`]); `CUDART_RS_SUMMARY_DATA=PATH`: the same figures as tab-separated lines.
//! - `CUDART_RS_LEAKS=1|backtrace[,PATH]`: at exit, every allocation and handle never freed,
//!   with the call that made it (and its backtrace), and every misuse seen.
//! - `CUDART_RS_TIMELINE=PATH[,gpu]`: a Chrome trace-event JSON file (Perfetto), one event
//!   per call on one track per host thread; `gpu` adds the spans of copies, memsets and
//!   kernels on the GPU, measured with events ([`timeline`], [`gpu`]).
//! - `CUDART_RS_CHECKED=1`: handles and freed pointers are checked against what this
//!   runtime handed out: misuse that would crash returns an error and is reported
//!   ([`checked`]).
//! - `CUDART_RS_RECORD=DIR`: each process keeps its figures in a record in DIR as it runs
//!   ([`record`]), so that they outlive it however it ends; `cudart-rs report DIR` (and
//!   `cudart-rs run`) make the reports of them.
//!
//! The observer changes nothing of the program: it catches no signal and changes no signal
//! disposition or mask; reports are made by each process that made an observed call, at its
//! exit, and only by those (a shell or `timeout` that loaded the library and started the
//! program reports nothing, nor does a process whose only calls are the fat-binary
//! registrations of the libraries it loads). A forked child starts with empty figures of
//! its own: the fork handlers ([`prepare`], [`child`]) hold the locks of the state the child
//! needs across the fork, so the child finds it whole and resets it. Report files are
//! appended to, a block per process named in its header, under a lock, never truncated,
//! never through a symbolic link ([`files`]). In secure-execution mode
//! ([`crate::driver::env::secure`]) nothing is observed.
//!
//! How calls get here: build.rs binds every exported symbol to a generated shim with the
//! export's signature. With observation off the shim tail-calls the export's code after one
//! load and one branch on [`on`]; with it on, it calls [`call`] with the export's index in
//! [`crate::EXPORT_INFO`], its arguments decoded by type ([`args::A`]) and the call itself.
//! The exports in `src/api` do not name the observer.

pub mod args;
pub mod call;
mod checked;
mod clock;
pub mod config;
mod demangle;
pub mod enums;
pub mod files;
pub mod flags;
pub mod fmt;
mod gpu;
mod hostmem;
mod lock;
mod op;
mod probe;
mod process;
mod record;
pub(crate) mod registry;
mod report;
pub(crate) mod sem;
mod show;
mod timeline;
pub mod tools;
pub mod trace;
mod tracer;

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

pub use call::{Call, Export, Family, Ret, Status};
pub use config::on;

use args::A;
use config::{config, ON};

/// Call numbers: the n-th observed call of the process is `#n`.
static SEQ: AtomicU64 = AtomicU64::new(0);
/// Per export: whether it is a registration of a fat binary, a kernel or a variable (which
/// loading a library of kernels makes without the program asking).
static REGISTRATION: OnceLock<Box<[bool]>> = OnceLock::new();

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

thread_local! {
    /// Depth of observed calls on this thread: an export that a call reaches again (a stream
    /// callback the driver runs inside the call, say) is not observed twice.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    /// The state held across a fork by the thread that forks.
    static HELD: RefCell<Option<Held>> = const { RefCell::new(None) };
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
    let get = |k: &str| std::env::var(k).ok();
    if crate::driver::env::secure() {
        if let Some(note) = config::secure_note(get) {
            files::say(format!("cudart-rs: {note}\n"));
        }
        config::set(config::Config::default());
        trace::init();
        return;
    }
    let (cfg, warnings) = config::parse(get);
    for w in warnings {
        files::say(format!("cudart-rs: {w}\n"));
    }
    let any = cfg.any();
    config::set(cfg);
    trace::init();
    if !any {
        return;
    }
    clock::start();
    process::start();
    sem::init();
    registration(0);
    // SAFETY: registering plain C functions to run at exit and around a fork.
    unsafe {
        libc::atexit(at_exit);
        libc::pthread_atfork(Some(prepare), Some(parent), Some(child));
    }
    ON.store(true, Ordering::Release);
}

extern "C" fn at_exit() {
    let _ = catch_unwind(report::at_exit);
}

/// The state a forked child needs, each part's lock held across the fork (taken in this
/// order everywhere a thread holds two).
struct Held {
    gpu: gpu::Held,
    timeline: timeline::Held,
    registry: registry::Held,
    record: record::Held,
    process: process::Held,
    trace: trace::Held,
    said: files::Held,
    probe: probe::Held,
}

/// Before a fork: the thread that forks takes the locks (waiting for the threads that hold
/// them to be done), so that no state the child needs is half changed in it.
extern "C" fn prepare() {
    if !on() {
        return;
    }
    let h = Held {
        gpu: gpu::hold(),
        timeline: timeline::hold(),
        registry: registry::hold(),
        record: record::hold(),
        process: process::hold(),
        trace: trace::hold(),
        said: files::hold(),
        probe: probe::hold(),
    };
    HELD.with(|c| *c.borrow_mut() = Some(h));
}

/// After a fork, in the parent: the locks are let go.
extern "C" fn parent() {
    drop(HELD.with(|c| c.borrow_mut().take()));
}

/// After a fork, in the child, on its only thread: the child is a process of its own, with
/// its own call numbers, figures, record, registry and reports (made only if it makes an
/// observed call).
extern "C" fn child() {
    let Some(h) = HELD.with(|c| c.borrow_mut().take()) else { return };
    SEQ.store(0, Ordering::Relaxed);
    clock::forked();
    h.process.forked();
    h.gpu.forked();
    h.timeline.forked();
    h.registry.forked();
    h.record.forked();
    h.trace.forked();
    h.said.forked();
    h.probe.forked();
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
    let c = Call { ix, ex: &crate::EXPORT_INFO[ix], args, seq: SEQ.fetch_add(1, Ordering::Relaxed) + 1 };
    if !record::made_calls() && !registration(ix) {
        record::used();
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
    record::count(c.ix, c.failed(status), (t1 - t0).as_nanos().min(u64::MAX as u128) as u64);
    let cfg = config();
    let want_trace = tracer::wanted(c, status);
    if want_trace || cfg.timeline {
        let res = show::result(c, r);
        let decoded = show::decode(c, Some(status));
        if want_trace {
            tracer::emit(c, status, &decoded, &res, t0, t1, refused);
        }
        if cfg.timeline {
            timeline::call(c, &decoded, &res, t0, t1, refused);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
