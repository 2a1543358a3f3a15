//! The timeline (`CUDART_RS_TIMELINE=PATH[,gpu]`): a Chrome trace-event JSON file (the JSON
//! array form), which Perfetto's UI (ui.perfetto.dev, "Open trace file") and
//! chrome://tracing open. One complete event (`"ph":"X"`) per call on the track of its host
//! thread, with its arguments, result and call number; with `gpu`, the copies, memsets and
//! kernels as the GPU ran them, one track per stream. Written as the program runs, closed at
//! exit.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::Path;
use std::time::Instant;

use parking_lot::Mutex;

use super::show::Shown;
use super::Call;

struct Writer {
    out: BufWriter<File>,
    pid: u32,
    threads: HashSet<i64>,
}

static W: Mutex<Option<Writer>> = Mutex::new(None);

/// JSON string contents.
pub fn esc(s: &str, o: &mut String) {
    for ch in s.chars() {
        match ch {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
}

fn us(t: Instant) -> f64 {
    t.saturating_duration_since(super::start()).as_nanos() as f64 / 1e3
}

pub fn open(path: &Path) {
    match File::create(path) {
        Ok(f) => {
            let pid = std::process::id();
            let mut w = Writer { out: BufWriter::new(f), pid, threads: HashSet::new() };
            let exe = std::env::current_exe().ok().and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned())).unwrap_or_default();
            let mut name = String::new();
            esc(&format!("{exe} (pid {pid}, cudart-rs)"), &mut name);
            let _ = write!(w.out, "[\n{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{pid},\"tid\":0,\"args\":{{\"name\":\"{name}\"}}}}");
            *W.lock() = Some(w);
        }
        Err(e) => eprintln!("cudart-rs: cannot write the timeline to {}: {e}", path.display()),
    }
}

fn event(tid: i64, thread_name: impl FnOnce() -> String, body: &str) {
    let mut g = W.lock();
    let Some(w) = g.as_mut() else { return };
    if std::process::id() != w.pid {
        // A forked child writes nothing into its parent's file.
        return;
    }
    if w.threads.insert(tid) {
        let mut n = String::new();
        esc(&thread_name(), &mut n);
        let _ = write!(w.out, ",\n{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{},\"tid\":{tid},\"args\":{{\"name\":\"{n}\"}}}}", w.pid);
    }
    let _ = write!(w.out, ",\n{{\"pid\":{},\"tid\":{tid},{body}}}", w.pid);
}

/// One call.
pub fn call(c: &Call, shown: &[Shown], result: &str, t0: Instant, t1: Instant, refused: Option<&str>) {
    let tid = super::tid() as i64;
    let mut b = String::with_capacity(256);
    b.push_str("\"name\":\"");
    esc(c.ex.name, &mut b);
    let _ = write!(
        b,
        "\",\"cat\":\"{}\",\"ph\":\"X\",\"ts\":{:.3},\"dur\":{:.3},\"args\":{{\"call\":{}",
        c.ex.family.target(),
        us(t0),
        (t1 - t0).as_nanos() as f64 / 1e3,
        c.seq
    );
    for a in shown {
        b.push_str(",\"");
        esc(a.name, &mut b);
        b.push_str("\":\"");
        if a.through {
            b.push_str("-> ");
        }
        esc(&a.text, &mut b);
        b.push('"');
    }
    if !result.is_empty() {
        b.push_str(",\"result\":\"");
        esc(result, &mut b);
        b.push('"');
    }
    if let Some(why) = refused {
        b.push_str(",\"checked\":\"");
        esc(why, &mut b);
        b.push('"');
    }
    b.push('}');
    event(tid, || format!("host thread {tid}"), &b);
}

/// One span of GPU work on track `track` (named `track_name`).
pub fn gpu_span(track: i64, track_name: &str, name: &str, cat: &str, ts: f64, dur: f64) {
    let mut b = String::with_capacity(128);
    b.push_str("\"name\":\"");
    esc(name, &mut b);
    let _ = write!(b, "\",\"cat\":\"gpu,{cat}\",\"ph\":\"X\",\"ts\":{ts:.3},\"dur\":{dur:.3},\"args\":{{}}");
    event(track, || track_name.to_string(), &b);
}

/// Ends the array and flushes the file.
pub fn close() {
    let Some(mut g) = W.try_lock_for(std::time::Duration::from_secs(2)) else { return };
    if let Some(mut w) = g.take() {
        if std::process::id() == w.pid {
            let _ = w.out.write_all(b"\n]\n");
            let _ = w.out.flush();
        }
    }
}
