//! The record a process keeps of its figures: a file of 64-bit words that the process maps
//! and updates as it runs (each figure an atomic word), so that what it did is in the file
//! however the process ends (`_exit`, `exec`, a signal, a crash, the OOM killer); at a normal
//! exit it adds its leak report after the words and says it exited. The `cudart-rs` command
//! reads records back ([`read`]) to make the reports of every process of a run, on one host
//! or several.
//!
//! Layout, in words (native byte order; [`MAGIC`] tells a record of another order or kind):
//!
//! - a header of [`w::HEADER`] words: the figures of fixed size ([`w`]), and the process's
//!   description as `key\tvalue` lines of text ([`w::TEXT`]);
//! - the export names, NUL-separated, in [`Layout::names`];
//! - per export, [`STAT_WORDS`] words: calls, errors, nanoseconds in all, least, most, and
//!   the sum of their squares (as `f64` bits);
//! - [`LAUNCH_SLOTS`] kernels, [`LAUNCH_WORDS`] words each: a mark (1 once the slot is
//!   used), launches that ran, launches that failed, and where its name is in the name bytes
//!   (offset << 32 | length); then [`NAME_BYTES`] bytes of names;
//! - [`LIVE_SLOTS`] live allocations and handles, [`LIVE_WORDS`] words each: address (0: a
//!   free slot), bytes, the call that made it, its thread, kind | device << 32, the export
//!   that made it.

use crate::kinds::{Dir, End, Kind, HELD};
use crate::leaks::Leaked;
use crate::summary::{Proc, Row, Summary};

/// The first word: `cudartRS`.
pub const MAGIC: u64 = u64::from_le_bytes(*b"cudartRS");
pub const VERSION: u64 = 1;

/// The header's words.
pub mod w {
    pub const MAGIC: usize = 0;
    pub const VERSION: usize = 1;
    /// The words of the record (its trailer follows them).
    pub const WORDS: usize = 2;
    /// The number of exports.
    pub const EXPORTS: usize = 3;
    pub const PID: usize = 4;
    /// [`super::RUNNING`], then [`super::EXITED`] once the process made its reports at exit.
    pub const STATE: usize = 5;
    /// When observation began: the system's real-time clock and its monotonic clock (the
    /// timeline's), in nanoseconds.
    pub const START_UNIX_NS: usize = 6;
    pub const START_MONO_NS: usize = 7;
    /// Nanoseconds from the start to the end of the last call (and, at exit, to the exit).
    pub const LAST_NS: usize = 8;
    /// What was asked for: [`super::ASKED_SUMMARY`], [`super::ASKED_LEAKS`] and
    /// [`super::ASKED_TIMELINE`].
    pub const ASKED: usize = 9;
    /// 1 once the process made a call other than the registrations of its fat binaries (a
    /// record without one is no report).
    pub const USED: usize = 10;
    /// Bytes of the leak report written after the words at exit.
    pub const TRAILER: usize = 11;
    pub const MISUSES: usize = 12;
    /// Live allocations and handles that did not fit in the table.
    pub const LIVE_LOST: usize = 13;
    pub const GRAPH_LAUNCHES: usize = 14;
    /// Memsets and their bytes.
    pub const MEMSET: usize = 15;
    /// Copies and bytes, per [`crate::Dir`] (5 × 2 words).
    pub const DIRS: usize = 17;
    /// Copies and bytes, per source and destination [`crate::End`] (5 × 5 × 2 words).
    pub const ENDS: usize = 27;
    /// Bytes held now and at the peak, per [`crate::kinds::HELD`] total (5 words each).
    pub const HELD: usize = 77;
    pub const PEAK: usize = 82;
    /// Name bytes of kernels used.
    pub const NAMES_USED: usize = 87;
    /// Kernel slots used.
    pub const LAUNCHES_USED: usize = 88;
    /// The process's description: `key\tvalue` lines (`host`, `exe`, `cmd`, `rank`), NUL
    /// after the last.
    pub const TEXT: usize = 128;
    pub const TEXT_WORDS: usize = 384;
    pub const HEADER: usize = 512;
}

pub const RUNNING: u64 = 1;
pub const EXITED: u64 = 2;
pub const ASKED_SUMMARY: u64 = 1;
pub const ASKED_LEAKS: u64 = 2;
pub const ASKED_TIMELINE: u64 = 4;

pub const STAT_WORDS: usize = 6;
pub const LAUNCH_SLOTS: usize = 512;
pub const LAUNCH_WORDS: usize = 4;
pub const NAME_BYTES: usize = 1 << 15;
pub const LIVE_SLOTS: usize = 4096;
pub const LIVE_WORDS: usize = 6;
/// The bytes kept of an export name.
const NAME_MAX: usize = 64;

/// Where each part of a record of `exports` exports is (in words).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Layout {
    pub exports: usize,
}

impl Layout {
    pub fn names(&self) -> usize {
        w::HEADER
    }
    pub fn stats(&self) -> usize {
        self.names() + self.exports * NAME_MAX / 8
    }
    pub fn stat(&self, export: usize) -> usize {
        self.stats() + export * STAT_WORDS
    }
    pub fn launches(&self) -> usize {
        self.stat(self.exports)
    }
    pub fn launch(&self, slot: usize) -> usize {
        self.launches() + slot * LAUNCH_WORDS
    }
    pub fn name_bytes(&self) -> usize {
        self.launch(LAUNCH_SLOTS)
    }
    pub fn live(&self) -> usize {
        self.name_bytes() + NAME_BYTES / 8
    }
    pub fn live_slot(&self, slot: usize) -> usize {
        self.live() + slot * LIVE_WORDS
    }
    /// All the words.
    pub fn words(&self) -> usize {
        self.live_slot(LIVE_SLOTS)
    }
}

/// The export names as the record keeps them: NUL-separated, each cut to fit its 64 bytes.
pub fn names_bytes<'a>(names: impl Iterator<Item = &'a str>) -> Vec<u8> {
    let mut b = Vec::new();
    for n in names {
        b.extend_from_slice(&n.as_bytes()[..n.len().min(NAME_MAX - 1)]);
        b.push(0);
    }
    b
}

/// The process's description as the record keeps it.
pub fn text_bytes(p: &Proc) -> Vec<u8> {
    let clean = |s: &str| s.replace(['\t', '\n', '\0'], " ");
    let mut t = String::new();
    for (k, v) in
        [("host", &p.host), ("exe", &p.exe), ("rank", p.rank.as_ref().unwrap_or(&String::new())), ("cmd", &p.cmd)]
    {
        t.push_str(&format!("{k}\t{}\n", clean(v)));
    }
    let mut b = t.into_bytes();
    b.truncate(w::TEXT_WORDS * 8 - 1);
    b.push(0);
    b
}

/// What a record's words are read from: a file's bytes, or a process's own mapped words.
pub trait Words {
    fn len(&self) -> usize;
    fn word(&self, i: usize) -> u64;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// `n` bytes from word `at` on.
    fn bytes(&self, at: usize, n: usize) -> Vec<u8> {
        let mut b = Vec::with_capacity(n + 8);
        for i in 0..n.div_ceil(8) {
            b.extend_from_slice(&self.word(at + i).to_ne_bytes());
        }
        b.truncate(n);
        b
    }
}

impl Words for [u8] {
    fn len(&self) -> usize {
        <[u8]>::len(self) / 8
    }
    fn word(&self, i: usize) -> u64 {
        self.get(i * 8..i * 8 + 8).map_or(0, |b| u64::from_ne_bytes(b.try_into().unwrap()))
    }
}

impl Words for [std::sync::atomic::AtomicU64] {
    fn len(&self) -> usize {
        <[std::sync::atomic::AtomicU64]>::len(self)
    }
    fn word(&self, i: usize) -> u64 {
        self.get(i).map_or(0, |v| v.load(std::sync::atomic::Ordering::Relaxed))
    }
}

/// How a process's observation ended.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Ending {
    /// It exited (through `exit` or a return from `main`) and made its reports.
    Exited,
    /// It ended otherwise: a signal, `_exit`, `exec` or a crash (or it still runs).
    Otherwise,
}

/// A record read back.
#[derive(Clone, Debug)]
pub struct Record {
    pub summary: Summary,
    pub ending: Ending,
    pub asked: u64,
    /// It made a call other than fat-binary registrations.
    pub used: bool,
    pub start_unix_ns: u64,
    pub start_mono_ns: u64,
    /// What was live when its figures were last written, in the order made.
    pub live: Vec<Leaked>,
    /// Live allocations and handles that did not fit in the table.
    pub live_lost: u64,
    pub misuses: u64,
    /// The leak report it wrote at exit, if it did.
    pub leak_report: Option<String>,
}

impl Record {
    pub fn proc(&self) -> &Proc {
        &self.summary.procs[0]
    }
}

/// Reads a record: its words, and the bytes after them (the trailer).
pub fn read<W: Words + ?Sized>(words: &W, trailer: &[u8]) -> Result<Record, String> {
    if words.len() < w::HEADER || words.word(w::MAGIC) != MAGIC {
        return Err("not a cudart-rs record".into());
    }
    if words.word(w::VERSION) != VERSION {
        return Err(format!("a record of version {} (this command reads {VERSION})", words.word(w::VERSION)));
    }
    let l = Layout { exports: words.word(w::EXPORTS) as usize };
    if l.exports > 100_000 || words.len() < l.words() {
        return Err("a record cut short".into());
    }
    let text = words.bytes(w::TEXT, w::TEXT_WORDS * 8);
    let text = String::from_utf8_lossy(&text[..text.iter().position(|&b| b == 0).unwrap_or(text.len())]).into_owned();
    let field = |k: &str| {
        text.lines().find_map(|l| l.strip_prefix(k).and_then(|r| r.strip_prefix('\t'))).unwrap_or("").to_string()
    };
    let names_raw = words.bytes(l.names(), l.exports * NAME_MAX);
    let names: Vec<String> = names_raw.split(|&b| b == 0).map(|n| String::from_utf8_lossy(n).into_owned()).collect();
    let name = |i: usize| names.get(i).cloned().unwrap_or_else(|| format!("export {i}"));
    let last_ns = words.word(w::LAST_NS);
    let mut s = Summary {
        procs: vec![Proc {
            pid: words.word(w::PID) as u32,
            host: field("host"),
            exe: field("exe"),
            rank: Some(field("rank")).filter(|r| !r.is_empty()),
            cmd: field("cmd"),
            seconds: last_ns as f64 / 1e9,
        }],
        ..Summary::default()
    };
    for i in 0..l.exports {
        let at = l.stat(i);
        let calls = words.word(at);
        if calls == 0 {
            continue;
        }
        s.rows.push(Row {
            name: name(i),
            calls,
            errors: words.word(at + 1),
            total: words.word(at + 2),
            min: words.word(at + 3),
            max: words.word(at + 4),
            sq: f64::from_bits(words.word(at + 5)),
        });
    }
    for (i, d) in s.dirs.iter_mut().enumerate() {
        *d = (words.word(w::DIRS + 2 * i), words.word(w::DIRS + 2 * i + 1));
    }
    for (i, src) in End::ALL.iter().enumerate() {
        for (j, dst) in End::ALL.iter().enumerate() {
            let at = w::ENDS + 2 * (i * End::ALL.len() + j);
            let (n, b) = (words.word(at), words.word(at + 1));
            if n > 0 {
                s.kinds.push((src.label().to_string(), dst.label().to_string(), n, b));
            }
        }
    }
    s.memset = (words.word(w::MEMSET), words.word(w::MEMSET + 1));
    s.held = HELD
        .iter()
        .enumerate()
        .map(|(i, n)| (n.to_string(), words.word(w::HELD + i), words.word(w::PEAK + i)))
        .collect();
    let kernel_names = words.bytes(l.name_bytes(), NAME_BYTES);
    for slot in 0..LAUNCH_SLOTS {
        let at = l.launch(slot);
        if words.word(at) == 0 {
            continue;
        }
        let r = words.word(at + 3);
        let (off, len) = ((r >> 32) as usize, (r & 0xffff_ffff) as usize);
        let n = kernel_names.get(off..off + len).map(|b| String::from_utf8_lossy(b).into_owned());
        s.launches.push((
            n.unwrap_or_else(|| "(a kernel whose name was not kept)".into()),
            words.word(at + 1),
            words.word(at + 2),
        ));
    }
    s.graph_launches = words.word(w::GRAPH_LAUNCHES);
    let mut live = Vec::new();
    for slot in 0..LIVE_SLOTS {
        let at = l.live_slot(slot);
        let addr = words.word(at);
        if addr == 0 {
            continue;
        }
        let kd = words.word(at + 4);
        let Some(kind) = Kind::from_index((kd & 0xff) as usize) else { continue };
        live.push(Leaked {
            kind,
            addr: addr as usize,
            size: words.word(at + 1),
            device: (kd >> 32) as u32 as i32,
            call: words.word(at + 2),
            func: name(words.word(at + 5) as usize),
            tid: words.word(at + 3) as u32 as i32,
            frames: Vec::new(),
        });
    }
    live.sort_by_key(|a| a.call);
    let n = words.word(w::TRAILER) as usize;
    let leak_report = (n > 0 && trailer.len() >= n).then(|| String::from_utf8_lossy(&trailer[..n]).into_owned());
    Ok(Record {
        summary: s,
        ending: if words.word(w::STATE) == EXITED { Ending::Exited } else { Ending::Otherwise },
        asked: words.word(w::ASKED),
        used: words.word(w::USED) != 0,
        start_unix_ns: words.word(w::START_UNIX_NS),
        start_mono_ns: words.word(w::START_MONO_NS),
        live,
        live_lost: words.word(w::LIVE_LOST),
        misuses: words.word(w::MISUSES),
        leak_report,
    })
}

/// Reads a record file.
pub fn read_file(path: &std::path::Path) -> Result<Record, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let words = bytes.as_slice().word(w::WORDS) as usize;
    let split = (words * 8).min(bytes.len());
    read(&bytes[..split], &bytes[split..])
}

/// The words of a live allocation's or handle's slot (the address first: 0 is a free slot).
pub fn live_words(
    addr: usize,
    size: u64,
    call: u64,
    tid: i32,
    kind: Kind,
    device: i32,
    export: usize,
) -> [u64; LIVE_WORDS] {
    [addr as u64, size, call, tid as u32 as u64, kind as u64 | ((device as u32 as u64) << 32), export as u64]
}

/// Copy directions and memory ends, as the record's words index them.
pub fn dir_word(d: Dir) -> usize {
    w::DIRS + 2 * d as usize
}

pub fn ends_word(src: End, dst: End) -> usize {
    w::ENDS + 2 * (src as usize * End::ALL.len() + dst as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record as a process would write it: the header, names and some figures.
    fn made() -> Vec<u8> {
        let l = Layout { exports: 3 };
        let mut v = vec![0u64; l.words()];
        v[w::MAGIC] = MAGIC;
        v[w::VERSION] = VERSION;
        v[w::WORDS] = l.words() as u64;
        v[w::EXPORTS] = 3;
        v[w::PID] = 42;
        v[w::STATE] = RUNNING;
        v[w::LAST_NS] = 1_500_000_000;
        v[w::USED] = 1;
        v[w::MISUSES] = 2;
        let put = |v: &mut Vec<u64>, at: usize, b: &[u8]| {
            for (i, c) in b.chunks(8).enumerate() {
                let mut x = [0u8; 8];
                x[..c.len()].copy_from_slice(c);
                v[at + i] = u64::from_ne_bytes(x);
            }
        };
        let p = Proc {
            pid: 42,
            host: "node1".into(),
            exe: "prog".into(),
            rank: Some("3".into()),
            cmd: "prog\targ".into(),
            seconds: 0.0,
        };
        put(&mut v, w::TEXT, &text_bytes(&p));
        put(&mut v, l.names(), &names_bytes(["cudaMalloc", "cudaFree", "cudaMemcpy"].into_iter()));
        let s = l.stat(2);
        v[s..s + 6].copy_from_slice(&[4, 1, 100, 10, 40, 900f64.to_bits()]);
        v[dir_word(Dir::H2D)] = 4;
        v[dir_word(Dir::H2D) + 1] = 4096;
        v[ends_word(End::Pageable, End::Device)] = 4;
        v[ends_word(End::Pageable, End::Device) + 1] = 4096;
        v[w::HELD] = 1024;
        v[w::PEAK] = 2048;
        put(&mut v, l.name_bytes(), b"kern");
        let k = l.launch(0);
        v[k..k + 4].copy_from_slice(&[1, 5, 1, 4]);
        let a = l.live_slot(7);
        v[a..a + 6].copy_from_slice(&live_words(0x7000, 1024, 9, 42, Kind::Device, 1, 0));
        v.iter().flat_map(|x| x.to_ne_bytes()).collect()
    }

    #[test]
    fn a_record_reads_back() {
        let mut b = made();
        let r = read(b.as_slice(), &[]).unwrap();
        let p = r.proc();
        assert_eq!(
            (p.pid, p.host.as_str(), p.exe.as_str(), p.rank.as_deref(), p.cmd.as_str()),
            (42, "node1", "prog", Some("3"), "prog arg")
        );
        assert_eq!(p.seconds, 1.5);
        assert_eq!(r.ending, Ending::Otherwise);
        assert!(r.used);
        assert_eq!(r.summary.rows.len(), 1);
        let row = &r.summary.rows[0];
        assert_eq!(
            (row.name.as_str(), row.calls, row.errors, row.total, row.min, row.max, row.sq),
            ("cudaMemcpy", 4, 1, 100, 10, 40, 900.0)
        );
        assert_eq!(r.summary.dirs[0], (4, 4096));
        assert_eq!(r.summary.kinds, vec![("pageable".into(), "device".into(), 4, 4096)]);
        assert_eq!(r.summary.held[0], ("device".into(), 1024, 2048));
        assert_eq!(r.summary.launches, vec![("kern".into(), 5, 1)]);
        assert_eq!(r.live.len(), 1);
        assert_eq!(
            (r.live[0].kind, r.live[0].addr, r.live[0].size, r.live[0].device, r.live[0].func.as_str()),
            (Kind::Device, 0x7000, 1024, 1, "cudaMalloc")
        );
        assert_eq!(r.misuses, 2);
        assert!(r.leak_report.is_none());
        // Exited, with its leak report after the words.
        let l = Layout { exports: 3 };
        b[w::STATE * 8..w::STATE * 8 + 8].copy_from_slice(&EXITED.to_ne_bytes());
        b[w::TRAILER * 8..w::TRAILER * 8 + 8].copy_from_slice(&5u64.to_ne_bytes());
        b.extend_from_slice(b"leaks");
        let split = l.words() * 8;
        let r = read(&b[..split], &b[split..]).unwrap();
        assert_eq!(r.ending, Ending::Exited);
        assert_eq!(r.leak_report.as_deref(), Some("leaks"));
        // Not a record; cut short.
        assert!(read(&b"hello world, not a record at all"[..], &[]).is_err());
        assert!(read(&b[..w::HEADER * 8 + 8], &[]).is_err());
    }
}
