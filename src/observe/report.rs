//! The reports a process makes when it exits: the summary (from its record's figures,
//! [`figures::summary`]), the summary's figures as tab-separated lines, and the leak and
//! misuse report (from the registry, with the program's backtraces, [`figures::leaks`]).
//! Made at exit only; what a process that ends otherwise did is in its record, for
//! `cudart-rs report` or the `cudart-rs run` command (no signal is caught: the program's
//! signals are its own).

use std::sync::atomic::{AtomicU32, Ordering};

use figures::leaks::{self, Leaked, Misuse};

use super::config::{config, resolved, Dest};
use super::demangle::demangle;
use super::{files, gpu, process, record, registry, timeline};

/// The process that made its reports (a forked child makes its own).
static REPORTED: AtomicU32 = AtomicU32::new(0);

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
    let label = process::process().label();
    let Some(reg) = registry::try_lock() else {
        return format!("{}{label})\n========= (the registry is busy: no report)\n", leaks::HEAD);
    };
    let live: Vec<Leaked> = reg
        .mem
        .values()
        .chain(reg.handles.values())
        .map(|a| Leaked {
            kind: a.kind,
            addr: a.addr,
            size: a.size as u64,
            device: a.device,
            call: a.call,
            func: a.func.to_string(),
            tid: a.tid,
            frames: a.backtrace.iter().flatten().map(|&p| frame(p)).collect(),
        })
        .collect();
    let misuses: Vec<Misuse> =
        reg.misuse.iter().map(|m| Misuse { call: m.call, func: m.func.to_string(), what: m.what.clone() }).collect();
    leaks::report(&label, &live, &misuses, reg.misuse.len() as u64 + reg.misuse_dropped, None)
}

/// Writes report `what` where it goes: a report for the record goes to stderr when the
/// process keeps no record file (its folder could not be used, said then).
fn write(what: &str, dest: &Dest, text: &str) {
    match dest {
        Dest::Stderr => files::say(text),
        Dest::File(p) => files::append_report(what, &resolved(p), text),
        Dest::Record if record::path().is_none() => files::say(text),
        Dest::Record => {}
    }
}

/// Makes what was asked for at the end of the run (once per process). A process that made
/// no observed call of its own (a shell or `timeout` that only started the program, a forked
/// child that did not use the runtime) reports nothing.
pub fn at_exit() {
    let me = process::pid();
    if REPORTED.swap(me, Ordering::AcqRel) == me {
        return;
    }
    let c = config();
    let used = record::made_calls();
    if !used {
        timeline::discard();
        record::exited(false, None);
        return;
    }
    if c.gpu {
        gpu::collect(true);
    }
    timeline::close();
    let figures = record::read();
    if let (Some(d), Some(r)) = (&c.summary, &figures) {
        write("summary", d, &r.summary.render());
    }
    if let (Some(p), Some(r)) = (&c.summary_data, &figures) {
        files::append_report("summary data", &resolved(p), &r.summary.records());
    }
    let mut for_record = None;
    if let Some(d) = &c.leaks {
        let text = leaks();
        write("leak report", d, &text);
        if *d == Dest::Record && record::path().is_some() {
            for_record = Some(text);
        }
    } else if c.checked {
        // Checked mode reports what it refused even when leaks were not asked for.
        if let Some(reg) = registry::try_lock() {
            let o: String = reg
                .misuse
                .iter()
                .map(|m| {
                    leaks::misuse_line(&Misuse { call: m.call, func: m.func.to_string(), what: m.what.clone() }) + "\n"
                })
                .collect();
            drop(reg);
            files::say(&o);
        }
    }
    record::exited(true, for_record.as_deref());
}
