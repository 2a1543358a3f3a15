//! The timeline (`CUDART_RS_TIMELINE=PATH[,gpu]`): a Chrome trace-event JSON file (the JSON
//! array form, [`figures::timeline`]), which Perfetto's UI (ui.perfetto.dev, "Open trace
//! file") and chrome://tracing open. One complete event (`"ph":"X"`) per call on the track of
//! its host thread, with its arguments, result and call number; with `gpu`, the copies,
//! memsets and kernels as the GPU ran them, one track per stream.
//!
//! Events go, as the program runs, into a part of this process's own: beside its record
//! (`CUDART_RS_RECORD`), else `PATH.PID.part`, written through a mapping so that they are
//! in the file however the process ends. At exit the process joins its part into PATH: the
//! file is read, the joined array written to a new file and renamed over it, under the
//! file's lock, so that PATH is a valid array at every moment, whoever is killed when.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::MutexGuard;
use std::time::{Duration, Instant};

use figures::text::shown;
use figures::timeline::{esc, thread_meta};

use super::call::Call;
use super::config::{config, resolved};
use super::lock::Lock;
use super::show::Shown;
use super::{clock, files, process, record};

/// The part is set aside and mapped this many bytes at a time.
const CHUNK: usize = 1 << 20;

/// This process's part.
struct Part {
    file: File,
    path: PathBuf,
    /// The mapped chunk: its address and offset in the file.
    map: *mut u8,
    map_off: u64,
    /// Bytes written.
    pos: u64,
}

// SAFETY: the mapping is used under the writer's lock only.
unsafe impl Send for Part {}

impl Part {
    /// Appends `b`, mapping the next chunk (its space set aside first) as needed.
    fn append(&mut self, mut b: &[u8]) -> std::io::Result<()> {
        while !b.is_empty() {
            if self.map.is_null() || self.pos >= self.map_off + CHUNK as u64 {
                self.next_chunk()?;
            }
            let at = (self.pos - self.map_off) as usize;
            let n = b.len().min(CHUNK - at);
            // SAFETY: `at + n` is within the mapped chunk.
            unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), self.map.add(at), n) };
            self.pos += n as u64;
            b = &b[n..];
        }
        Ok(())
    }

    fn next_chunk(&mut self) -> std::io::Result<()> {
        self.unmap();
        let off = self.pos / CHUNK as u64 * CHUNK as u64;
        // SAFETY: an open descriptor; the range to set aside, then to map.
        unsafe {
            let r = libc::posix_fallocate(self.file.as_raw_fd(), off as libc::off_t, CHUNK as libc::off_t);
            if r != 0 {
                return Err(std::io::Error::from_raw_os_error(r));
            }
            let m = libc::mmap(
                null_mut(),
                CHUNK,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                self.file.as_raw_fd(),
                off as libc::off_t,
            );
            if m == libc::MAP_FAILED {
                return Err(std::io::Error::last_os_error());
            }
            self.map = m.cast();
        }
        self.map_off = off;
        Ok(())
    }

    fn unmap(&mut self) {
        if !self.map.is_null() {
            // SAFETY: the chunk mapped by `next_chunk`.
            unsafe { libc::munmap(self.map.cast(), CHUNK) };
            self.map = null_mut();
        }
    }

    /// At exit: the space set aside but not written is given back.
    fn finish(&mut self) {
        self.unmap();
        let _ = self.file.set_len(self.pos);
    }
}

struct Writer {
    pid: u32,
    threads: HashSet<i64>,
    part: Option<Part>,
    /// Nothing more can be written.
    failed: bool,
}

static W: Lock<Option<Writer>> = Lock::new(None);
/// Closed at exit: later events are not kept.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Where this process's part goes: beside its record, else beside the timeline file.
fn part_path(pid: u32) -> Option<PathBuf> {
    if config().record.is_some() {
        return record::path().map(|r| r.with_extension("json"));
    }
    let mut p = resolved(config().timeline_file.as_ref()?).into_os_string();
    p.push(format!(".{pid}.part"));
    Some(PathBuf::from(p))
}

impl Writer {
    fn push(&mut self, event: &str) {
        if self.failed {
            return;
        }
        if self.part.is_none() {
            let Some(path) = part_path(self.pid) else {
                self.failed = true;
                return;
            };
            match files::create_new(&path) {
                Ok(file) => self.part = Some(Part { file, path, map: null_mut(), map_off: 0, pos: 0 }),
                Err(e) => {
                    files::say_once("timeline", &path, &e.0, "no timeline is kept");
                    self.failed = true;
                    return;
                }
            }
        }
        let Some(p) = self.part.as_mut() else { return };
        let mut line = String::with_capacity(event.len() + 2);
        line.push_str(event);
        line.push_str(",\n");
        if let Err(e) = p.append(line.as_bytes()) {
            files::say_once("timeline", &p.path.clone(), &e.to_string(), "no more of it is kept");
            self.failed = true;
        }
    }
}

fn event(tid: i64, thread_name: impl FnOnce() -> String, body: &str) {
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut g = W.lock();
    let pid = process::pid();
    let w = g.get_or_insert_with(|| Writer { pid, threads: HashSet::new(), part: None, failed: false });
    if w.threads.insert(tid) {
        w.push(&thread_meta(pid as u64, tid, &thread_name()));
    }
    w.push(&format!("{{\"pid\":{pid},\"tid\":{tid},{body}}}"));
}

/// One call.
pub fn call(c: &Call, shown: &[Shown], result: &str, t0: Instant, t1: Instant, refused: Option<&str>) {
    let tid = process::tid() as i64;
    let mut b = String::with_capacity(256);
    b.push_str("\"name\":\"");
    esc(c.ex.name, &mut b);
    let _ = write!(
        b,
        "\",\"cat\":\"{}\",\"ph\":\"X\",\"ts\":{:.3},\"dur\":{:.3},\"args\":{{\"call\":{}",
        c.ex.family.target(),
        clock::abs_us(t0),
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

/// At exit: the part is finished and joined into the timeline file asked for; when that file
/// cannot be used, the process's events go to a timeline of its own beside it
/// (`PATH.PID.json`, made new), else its part is kept; either is said.
pub fn close() {
    let Some(mut g) = W.within(Duration::from_secs(2)) else { return };
    CLOSED.store(true, Ordering::Relaxed);
    let Some(mut w) = g.take() else { return };
    let Some(mut part) = w.part.take() else { return };
    part.finish();
    // A part that could not be written whole was said then: what it has is joined if it
    // can be, and nothing more is said.
    let quiet = w.failed;
    let Some(file) = config().timeline_file.as_deref().map(resolved) else { return };
    let p = process::process();
    let meta = figures::timeline::process_meta(w.pid as u64, &p.label(), p.rank.as_ref().and_then(|r| r.parse().ok()));
    let mut own = file.clone().into_os_string();
    own.push(format!(".{}.json", w.pid));
    let own = PathBuf::from(own);
    let done = match join(&file, &part.path, &meta) {
        Ok(()) => true,
        Err(_) if quiet => false,
        Err(why) => match alone(&own, &part.path, &meta) {
            Ok(()) => {
                files::say_once("timeline", &file, &why, &format!("it goes to {}", shown(&own)));
                true
            }
            Err(e) => {
                let instead =
                    format!("nor to {} ({e}): this process's events are in {}", shown(&own), shown(&part.path));
                files::say_once("timeline", &file, &why, &instead);
                false
            }
        },
    };
    if done && config().record.is_none() {
        let _ = std::fs::remove_file(&part.path);
    }
}

/// Writes the timeline `file` (open as `f`, locked) anew: its events, then `meta` and `own`.
fn join_locked(f: &File, file: &Path, own: &[&str], meta: &[String]) -> Result<(), String> {
    let mut text = String::new();
    std::io::Read::read_to_string(&mut &*f, &mut text).map_err(|e| e.to_string())?;
    let Some(had) = figures::timeline::array_events(&text) else {
        return Err("it holds something else than a cudart-rs timeline".into());
    };
    let mut tmp = file.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", process::pid()));
    let tmp = PathBuf::from(tmp);
    let _ = std::fs::remove_file(&tmp);
    let out = files::create_new(&tmp).map_err(|e| e.0)?;
    let mut w = std::io::BufWriter::new(&out);
    let events = had.into_iter().chain(meta.iter().map(String::as_str)).chain(own.iter().copied());
    let written = figures::timeline::write_array(&mut w, events).and_then(|_| std::io::Write::flush(&mut w));
    drop(w);
    if let Err(e) = written.and_then(|_| std::fs::rename(&tmp, file)) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e.to_string());
    }
    Ok(())
}

/// The events of `part` (after `meta`) as a timeline of their own, in new file `own`.
fn alone(own: &Path, part: &Path, meta: &[String]) -> Result<(), String> {
    let bytes = std::fs::read(part).map_err(|e| e.to_string())?;
    let out = files::create_new(own).map_err(|e| e.0)?;
    let mut w = std::io::BufWriter::new(&out);
    let events = meta.iter().map(String::as_str).chain(figures::timeline::part_events(&bytes));
    figures::timeline::write_array(&mut w, events).and_then(|_| std::io::Write::flush(&mut w)).map_err(|e| {
        let _ = std::fs::remove_file(own);
        e.to_string()
    })
}

/// At exit, in a process that made no call of its own (registrations only): its part is
/// removed, as nothing of it is reported.
pub fn discard() {
    let Some(mut g) = W.within(Duration::from_secs(2)) else { return };
    CLOSED.store(true, Ordering::Relaxed);
    if let Some(mut part) = g.take().and_then(|mut w| w.part.take()) {
        part.finish();
        let _ = std::fs::remove_file(&part.path);
    }
}

/// Joins the events of `part` (after the process's `meta`) into the timeline `file`.
fn join(file: &Path, part: &Path, meta: &[String]) -> Result<(), String> {
    let bytes = std::fs::read(part).map_err(|e| e.to_string())?;
    let own = figures::timeline::part_events(&bytes);
    for _ in 0..1000 {
        // Made here (then removed again if the join fails: nothing half made is left), or
        // another process's, joined into.
        let (f, made) = match files::create_new(file) {
            Ok(f) => (f, true),
            Err(_) => (files::open_append(file).map_err(|e| e.0)?, false),
        };
        let _l = files::Locked::new(&f);
        // Another process may have put a new file there while this one waited for the lock.
        if !files::same_file(&f, file) {
            continue;
        }
        let joined = join_locked(&f, file, &own, meta);
        if joined.is_err() && made {
            let _ = std::fs::remove_file(file);
        }
        return joined;
    }
    Err("it kept being replaced".into())
}

/// The timeline's writer, held across a fork.
pub struct Held(MutexGuard<'static, Option<Writer>>);

pub fn hold() -> Held {
    Held(W.lock())
}

impl Held {
    /// In the forked child: the parent's events are the parent's (its part's mapping goes);
    /// the child writes a part of its own.
    pub fn forked(mut self) {
        if let Some(mut w) = self.0.take() {
            if let Some(p) = w.part.as_mut() {
                p.unmap();
            }
            std::mem::forget(w);
        }
        CLOSED.store(false, Ordering::Relaxed);
    }
}
