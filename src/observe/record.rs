//! This process's record of its figures ([`figures::record`] says the layout): calls per
//! export, bytes copied, memsets, kernel launches, memory held and its peaks, what is live.
//! Made at the process's first observed call: a file in the records' folder
//! (`CUDART_RS_RECORD`), mapped and updated as calls are made, so that the figures are in
//! the file however the process ends; without that folder (or when it cannot be used, said
//! once), memory of the process's own, and the reports are made at exit only. A forked child
//! makes a record of its own at its first call.

use std::collections::HashMap;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering};
use std::sync::MutexGuard;

use figures::record::Record;
use figures::record::{self as layout, w, Layout};
use figures::{Dir, End};

use super::config::config;
use super::lock::Lock;
use super::{clock, files, process};

/// The record of this process.
struct Rec {
    words: &'static [AtomicU64],
    layout: Layout,
    /// Its file, and the file's path (none: memory of its own).
    file: Option<(File, PathBuf)>,
}

static REC: AtomicPtr<Rec> = AtomicPtr::new(null_mut());
/// Whether this process made an observed call other than the registrations of its fat
/// binaries (which loading a library of kernels makes, without the program asking: a Python
/// that imports PyTorch to start other processes, as torchrun does, makes thousands).
static USED: AtomicBool = AtomicBool::new(false);
/// Held while the record is made; and the kernels' slots (name -> slot).
static KERNELS: Lock<Option<HashMap<String, usize>>> = Lock::new(None);

fn rec() -> Option<&'static Rec> {
    let p = REC.load(Ordering::Acquire);
    if !p.is_null() {
        // SAFETY: set once per process from a leaked box.
        return Some(unsafe { &*p });
    }
    make()
}

#[cold]
fn make() -> Option<&'static Rec> {
    let _g = KERNELS.lock();
    let p = REC.load(Ordering::Acquire);
    if !p.is_null() {
        // SAFETY: as above.
        return Some(unsafe { &*p });
    }
    let layout = Layout { exports: crate::EXPORT_INFO.len() };
    let bytes = layout.words() * 8;
    let file = config().record.as_deref().and_then(|dir| file_in(dir, bytes));
    // SAFETY: a new mapping of `bytes` bytes, of the file made for it or of fresh memory.
    let m = unsafe {
        match &file {
            Some((f, _)) => {
                libc::mmap(null_mut(), bytes, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED, f.as_raw_fd(), 0)
            }
            None => libc::mmap(
                null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            ),
        }
    };
    if m == libc::MAP_FAILED {
        files::say_once("record", Path::new(""), &std::io::Error::last_os_error().to_string(), "no figures are kept");
        return None;
    }
    // SAFETY: the mapping holds `layout.words()` zeroed words, aligned, for the process's life.
    let words = unsafe { std::slice::from_raw_parts(m as *const AtomicU64, layout.words()) };
    let r = Box::leak(Box::new(Rec { words, layout, file }));
    r.start();
    REC.store(r, Ordering::Release);
    Some(r)
}

/// A record file in `dir`, made for this process with its space set aside (a full disk is
/// found now, not while the file is written through its mapping).
fn file_in(dir: &Path, bytes: usize) -> Option<(File, PathBuf)> {
    let mut why = String::new();
    if !dir.is_dir() {
        // The folder is made if missing (its parent must exist), private to this user.
        if let Err(e) = std::fs::DirBuilder::new().mode(0o700).create(dir) {
            if e.kind() != std::io::ErrorKind::AlreadyExists {
                files::say_once("record", dir, &e.to_string(), "the figures are kept in memory, reported at exit only");
                return None;
            }
        }
    }
    let base = record_base();
    for n in 0..1000 {
        let name = if n == 0 { format!("{base}.rec") } else { format!("{base}-{n}.rec") };
        let p = dir.join(name);
        match files::create_new(&p) {
            Ok(f) => {
                // SAFETY: an open descriptor; the range to set aside.
                let r = unsafe { libc::posix_fallocate(f.as_raw_fd(), 0, bytes as libc::off_t) };
                if r == 0 {
                    return Some((f, p));
                }
                let _ = std::fs::remove_file(&p);
                why = std::io::Error::from_raw_os_error(r).to_string();
                break;
            }
            Err(e) if e.0.contains("exists") => continue,
            Err(e) => {
                why = e.0;
                break;
            }
        }
    }
    files::say_once("record", dir, &why, "the figures are kept in memory, reported at exit only");
    None
}

use std::os::unix::fs::DirBuilderExt;

/// `host.pid`: the record's name (and its timeline part's), without a suffix.
fn record_base() -> String {
    let p = process::process();
    let host: String =
        p.host.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    format!("{}.{}", if host.is_empty() { "host" } else { &host }, process::pid())
}

impl Rec {
    fn set(&self, i: usize, v: u64) {
        self.words[i].store(v, Ordering::Relaxed);
    }
    fn add(&self, i: usize, v: u64) {
        self.words[i].fetch_add(v, Ordering::Relaxed);
    }
    fn put(&self, at: usize, bytes: &[u8]) {
        for (i, c) in bytes.chunks(8).enumerate() {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            self.set(at + i, u64::from_ne_bytes(b));
        }
    }

    /// The header: what the process is, what was asked for, the export names.
    fn start(&self) {
        let c = config();
        let (mono, unix) = clock::began_ns();
        self.set(w::VERSION, layout::VERSION);
        self.set(w::WORDS, self.layout.words() as u64);
        self.set(w::EXPORTS, self.layout.exports as u64);
        self.set(w::PID, process::pid() as u64);
        self.set(w::STATE, layout::RUNNING);
        self.set(w::START_UNIX_NS, unix);
        self.set(w::START_MONO_NS, mono);
        let asked = [
            (c.summary.is_some(), layout::ASKED_SUMMARY),
            (c.leaks.is_some(), layout::ASKED_LEAKS),
            (c.timeline, layout::ASKED_TIMELINE),
        ];
        self.set(w::ASKED, asked.iter().filter(|a| a.0).map(|a| a.1).sum());
        self.put(w::TEXT, &layout::text_bytes(&process::process()));
        self.put(self.layout.names(), &layout::names_bytes(crate::EXPORT_INFO.iter().map(|e| e.name)));
        for i in 0..self.layout.exports {
            self.set(self.layout.stat(i) + 3, u64::MAX);
        }
        self.words[w::MAGIC].store(layout::MAGIC, Ordering::Release);
    }
}

/// Counts one call of export `ix`, `ns` long.
pub fn count(ix: usize, failed: bool, ns: u64) {
    let Some(r) = rec() else { return };
    let s = r.layout.stat(ix);
    r.add(s, 1);
    if failed {
        r.add(s + 1, 1);
    }
    r.add(s + 2, ns);
    r.words[s + 3].fetch_min(ns, Ordering::Relaxed);
    r.words[s + 4].fetch_max(ns, Ordering::Relaxed);
    let sq = (ns as f64) * (ns as f64);
    let _ =
        r.words[s + 5].fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| Some((f64::from_bits(b) + sq).to_bits()));
    r.words[w::LAST_NS].fetch_max(clock::since_start().as_nanos() as u64, Ordering::Relaxed);
}

/// The process made a call other than fat-binary registrations: its record is a report.
pub fn used() {
    if !USED.swap(true, Ordering::Relaxed) {
        if let Some(r) = rec() {
            r.set(w::USED, 1);
        }
    }
}

/// Whether this process made a call other than fat-binary registrations (its reports are
/// made only then).
pub fn made_calls() -> bool {
    USED.load(Ordering::Relaxed)
}

pub fn copied(dir: Dir, src: End, dst: End, bytes: u64) {
    let Some(r) = rec() else { return };
    let d = layout::dir_word(dir);
    r.add(d, 1);
    r.add(d + 1, bytes);
    let k = layout::ends_word(src, dst);
    r.add(k, 1);
    r.add(k + 1, bytes);
}

pub fn memset(bytes: u64) {
    let Some(r) = rec() else { return };
    r.add(w::MEMSET, 1);
    r.add(w::MEMSET + 1, bytes);
}

pub fn graph_launched() {
    if let Some(r) = rec() {
        r.add(w::GRAPH_LAUNCHES, 1);
    }
}

/// A launch of kernel `name` (that ran, or failed).
pub fn launched(name: &str, ok: bool) {
    let Some(r) = rec() else { return };
    let mut g = KERNELS.lock();
    let slots = g.get_or_insert_with(HashMap::new);
    let slot = match slots.get(name) {
        Some(&s) => s,
        None => {
            let n = slots.len();
            // The last slot takes every kernel the table has no room for.
            let s = n.min(layout::LAUNCH_SLOTS - 1);
            if s == n {
                let used = r.words[w::NAMES_USED].load(Ordering::Relaxed) as usize;
                let name = if s == layout::LAUNCH_SLOTS - 1 { "(other kernels)" } else { name };
                let len = name.len().min(layout::NAME_BYTES.saturating_sub(used));
                // Names go in at word boundaries, so that a name is written by whole words.
                let at = used.div_ceil(8) * 8;
                if at + len <= layout::NAME_BYTES {
                    r.put(r.layout.name_bytes() + at / 8, &name.as_bytes()[..len]);
                    r.set(w::NAMES_USED, (at + len) as u64);
                    r.set(r.layout.launch(s) + 3, ((at as u64) << 32) | len as u64);
                }
                r.words[r.layout.launch(s)].store(1, Ordering::Release);
                r.set(w::LAUNCHES_USED, n as u64 + 1);
            }
            slots.insert(name.to_string(), s);
            s
        }
    };
    r.add(r.layout.launch(slot) + if ok { 1 } else { 2 }, 1);
}

/// Bytes of memory total `i` held more (`add`) or less.
pub fn held(i: usize, bytes: u64, add: bool) {
    let Some(r) = rec() else { return };
    if add {
        let now = r.words[w::HELD + i].fetch_add(bytes, Ordering::Relaxed) + bytes;
        r.words[w::PEAK + i].fetch_max(now, Ordering::Relaxed);
    } else {
        let _ =
            r.words[w::HELD + i].fetch_update(Ordering::Relaxed, Ordering::Relaxed, |v| Some(v.saturating_sub(bytes)));
    }
}

/// A live allocation or handle in slot `slot` of the table, its words
/// ([`layout::live_words`]) written with the address last: a reader sees a slot whole or not
/// at all.
pub fn live_set(slot: usize, words: [u64; layout::LIVE_WORDS]) {
    let Some(r) = rec() else { return };
    let at = r.layout.live_slot(slot);
    r.set(at, 0);
    for (i, v) in words.iter().enumerate().skip(1) {
        r.set(at + i, *v);
    }
    r.words[at].store(words[0], Ordering::Release);
}

pub fn live_clear(slot: usize) {
    if let Some(r) = rec() {
        r.set(r.layout.live_slot(slot), 0);
    }
}

/// A live allocation the table has no room for.
pub fn live_lost() {
    if let Some(r) = rec() {
        r.add(w::LIVE_LOST, 1);
    }
}

pub fn misused() {
    if let Some(r) = rec() {
        r.add(w::MISUSES, 1);
    }
}

/// The figures as they stand.
pub fn read() -> Option<Record> {
    let r = rec()?;
    r.set(w::LAST_NS, clock::since_start().as_nanos() as u64);
    figures::record::read(r.words, &[]).ok()
}

/// The path of this process's record file, if it keeps one.
pub fn path() -> Option<PathBuf> {
    rec()?.file.as_ref().map(|f| f.1.clone())
}

/// At exit: the leak report (if made for the record) after the words, and the record marked
/// as of a process that exited. A record of a process that made no call of its own
/// (registrations only) is removed.
pub fn exited(used: bool, leak_report: Option<&str>) {
    let p = REC.load(Ordering::Acquire);
    if p.is_null() {
        return;
    }
    // SAFETY: as in `rec`.
    let r = unsafe { &*p };
    r.set(w::LAST_NS, clock::since_start().as_nanos() as u64);
    let Some((f, path)) = &r.file else { return };
    if !used {
        let _ = std::fs::remove_file(path);
        return;
    }
    if let Some(text) = leak_report {
        use std::os::unix::fs::FileExt;
        match f.write_all_at(text.as_bytes(), (r.layout.words() * 8) as u64) {
            Ok(()) => r.set(w::TRAILER, text.len() as u64),
            Err(e) => files::say_once("leak report", path, &e.to_string(), "it is not in the record"),
        }
    }
    r.words[w::STATE].store(layout::EXITED, Ordering::Release);
}

/// The record, held across a fork.
pub struct Held(MutexGuard<'static, Option<HashMap<String, usize>>>);

pub fn hold() -> Held {
    Held(KERNELS.lock())
}

impl Held {
    /// In the forked child: the parent's record is the parent's (the child's mapping of it
    /// goes); the child makes its own at its first call.
    pub fn forked(mut self) {
        *self.0 = None;
        USED.store(false, Ordering::Relaxed);
        let p = REC.swap(null_mut(), Ordering::AcqRel);
        if !p.is_null() {
            // SAFETY: the child's only thread holds no reference into the mapping (the fork
            // handler runs it); the box is left as it is.
            unsafe {
                let r = &*p;
                libc::munmap(r.words.as_ptr() as *mut libc::c_void, r.layout.words() * 8);
            }
        }
    }
}
