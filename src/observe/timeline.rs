//! The timeline (`CUDART_RS_TIMELINE=PATH[,gpu]`): a Chrome trace-event JSON file (the JSON
//! array form), which Perfetto's UI (ui.perfetto.dev, "Open trace file") and
//! chrome://tracing open. One complete event (`"ph":"X"`) per call on the track of its host
//! thread, with its arguments, result and call number; with `gpu`, the copies, memsets and
//! kernels as the GPU ran them, one track per stream. Written as the program runs, closed at
//! exit.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use parking_lot::Mutex;

use super::files;
use super::show::Shown;
use super::Call;

/// Events are written to the file in blocks of about this many bytes (and at exit).
const FLUSH_AT: usize = 1 << 20;

/// The path asked for.
static PATH: OnceLock<PathBuf> = OnceLock::new();

struct Writer {
    pid: u32,
    /// Events not written yet, joined by `,\n`.
    buf: Vec<u8>,
    threads: HashSet<i64>,
    file: Option<File>,
    /// Where the events go (the path asked for, or this process's own file when that one
    /// could not be used).
    path: PathBuf,
    /// Nothing more can be written.
    failed: bool,
}

static W: Mutex<Option<Writer>> = Mutex::new(None);
/// Closed at exit: later events are not kept.
static CLOSED: AtomicBool = AtomicBool::new(false);

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

/// Remembers where the timeline goes. Nothing is written until the process's first event:
/// a process that makes no call leaves no trace in the file.
pub fn open(path: &Path) {
    let _ = PATH.set(path.to_path_buf());
}

impl Writer {
    fn new(pid: u32) -> Writer {
        let mut w = Writer {
            pid,
            buf: Vec::new(),
            threads: HashSet::new(),
            file: None,
            path: PATH.get().cloned().unwrap_or_default(),
            failed: false,
        };
        // The process's track: its program, pid and rank (ranks in order).
        let p = super::process();
        let mut name = String::new();
        esc(&format!("{} (cudart-rs)", p.label()), &mut name);
        w.push(&format!(
            "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{pid},\"tid\":0,\"args\":{{\"name\":\"{name}\"}}}}"
        ));
        if let Some(r) = p.rank.as_ref().and_then(|r| r.parse::<i64>().ok()) {
            w.push(&format!("{{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":{pid},\"tid\":0,\"args\":{{\"sort_index\":{r}}}}}"));
        }
        w
    }

    fn push(&mut self, event: &str) {
        if !self.buf.is_empty() {
            self.buf.extend_from_slice(b",\n");
        }
        self.buf.extend_from_slice(event.as_bytes());
    }

    /// This process's own file, made anew beside the one asked for.
    fn own_file(&mut self, why: &files::Refused) -> bool {
        let asked = PATH.get().cloned().unwrap_or_default();
        let mut own = asked.clone().into_os_string();
        own.push(format!(".{}.json", self.pid));
        let own = PathBuf::from(own);
        match files::create_new(&own) {
            Ok(f) => {
                files::refused_once("timeline", &asked, why, &format!("it goes to {}", own.display()));
                self.file = Some(f);
                self.path = own;
                true
            }
            Err(e) => {
                files::refused_once(
                    "timeline",
                    &asked,
                    why,
                    &format!("nor to {} ({}): no timeline", own.display(), e.0),
                );
                self.failed = true;
                false
            }
        }
    }

    fn flush(&mut self) {
        if self.buf.is_empty() || self.failed {
            return;
        }
        if self.file.is_none() {
            match files::open_append(&self.path) {
                Ok(f) => self.file = Some(f),
                Err(why) => {
                    if !self.own_file(&why) {
                        return;
                    }
                }
            }
        }
        let Some(f) = &self.file else { return };
        match files::append_json_events(f, &self.buf) {
            Ok(true) => self.buf.clear(),
            Ok(false) => {
                self.file = None;
                if self.own_file(&files::Refused("it is not a trace-event JSON array".into())) {
                    self.flush();
                }
            }
            Err(e) => {
                files::refused_once(
                    "timeline",
                    &self.path.clone(),
                    &files::Refused(e.to_string()),
                    "no more of it is written",
                );
                self.failed = true;
            }
        }
    }
}

fn event(tid: i64, thread_name: impl FnOnce() -> String, body: &str) {
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut g = W.lock();
    let pid = super::pid();
    let w = g.get_or_insert_with(|| Writer::new(pid));
    if w.threads.insert(tid) {
        let mut n = String::new();
        esc(&thread_name(), &mut n);
        w.push(&format!(
            "{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{pid},\"tid\":{tid},\"args\":{{\"name\":\"{n}\"}}}}"
        ));
    }
    w.push(&format!("{{\"pid\":{pid},\"tid\":{tid},{body}}}"));
    if w.buf.len() >= FLUSH_AT {
        w.flush();
    }
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
        super::abs_us(t0),
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

/// Writes what is left, at exit.
pub fn close() {
    let Some(mut g) = W.try_lock_for(std::time::Duration::from_secs(2)) else { return };
    CLOSED.store(true, Ordering::Relaxed);
    if let Some(mut w) = g.take() {
        w.flush();
    }
}

/// In a forked child: the parent's events are the parent's to write.
pub fn forked() {
    if let Some(mut g) = W.try_lock() {
        *g = None;
    }
    CLOSED.store(false, Ordering::Relaxed);
}

pub fn can_reset() -> bool {
    W.try_lock().is_some()
}
