//! The leak and misuse report (as compute-sanitizer's `--leak-check full`): every allocation
//! and handle never freed, with the call that made it, and every misuse seen. Made by the
//! library at exit (with the program's backtraces and each misuse said), and by the
//! `cudart-rs` command from the record of a process that ended without exiting (what was live
//! when it ended, and the count of misuses).

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::kinds::Kind;
use crate::text::{commas, count};

/// One allocation or handle never freed.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaked {
    pub kind: Kind,
    pub addr: usize,
    /// Bytes (0 for a handle other than an array).
    pub size: u64,
    pub device: i32,
    /// The call that made it: its number and function.
    pub call: u64,
    pub func: String,
    pub tid: i32,
    /// The program's frames where it was made (`0x.. in main (/path/prog+0x1189)`), if kept.
    pub frames: Vec<String>,
}

/// One misuse seen.
#[derive(Clone, Debug, PartialEq)]
pub struct Misuse {
    pub call: u64,
    pub func: String,
    pub what: String,
}

/// The first line of a process's leak report.
pub const HEAD: &str = "========= cudart-rs leak check (";
/// The start of its last line.
pub const TOTAL: &str = "========= LEAK SUMMARY: ";

/// The report of process `label` (`pid 1234, prog, rank 0`): `leaked` in the order they were
/// made, `misuses` listed (of `misuses_total` seen), and `note` (a line said after the head).
pub fn report(label: &str, leaked: &[Leaked], misuses: &[Misuse], misuses_total: u64, note: Option<&str>) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{HEAD}{label})");
    if let Some(n) = note {
        let _ = writeln!(o, "========= ({n})");
    }
    let mut live: Vec<&Leaked> = leaked.iter().collect();
    live.sort_by_key(|a| a.call);
    let mut bytes = 0u64;
    let mut allocs = 0u64;
    let mut handles: HashMap<Kind, u64> = HashMap::new();
    for a in live {
        if a.kind.is_memory() {
            bytes += a.size;
            allocs += 1;
            let _ = writeln!(
                o,
                "========= Leaked {} bytes of {} at {:#x}{}: made by call #{} {} (thread {})",
                commas(a.size),
                a.kind.label(),
                a.addr,
                if a.kind.on_host() { String::new() } else { format!(" (device {})", a.device) },
                a.call,
                a.func,
                a.tid
            );
        } else {
            *handles.entry(a.kind).or_default() += 1;
            if matches!(a.kind, Kind::Array | Kind::Mipmapped) {
                bytes += a.size;
            }
            let _ = writeln!(
                o,
                "========= Leaked {} {:#x}{}: made by call #{} {} (thread {})",
                a.kind.label(),
                a.addr,
                if a.size > 0 { format!(" ({} bytes)", commas(a.size)) } else { String::new() },
                a.call,
                a.func,
                a.tid
            );
        }
        if !a.frames.is_empty() {
            let _ = writeln!(o, "=========     Host backtrace at the allocation:");
            for (i, f) in a.frames.iter().enumerate() {
                let _ = writeln!(o, "=========       #{i} {f}");
            }
        }
    }
    for m in misuses {
        let _ = writeln!(o, "{}", misuse_line(m));
    }
    let shown = misuses.len() as u64;
    if misuses_total > shown && shown > 0 {
        let _ = writeln!(o, "========= ... and {} more misuses", misuses_total - shown);
    }
    let mut hs: Vec<_> = handles.iter().collect();
    hs.sort();
    let hs = hs.iter().map(|(k, n)| format!("{n} {}", k.label())).collect::<Vec<_>>().join(", ");
    let _ = writeln!(
        o,
        "{TOTAL}{} bytes leaked in {}; handles leaked: {}; misuses: {}",
        commas(bytes),
        count(allocs, "allocation", "allocations"),
        if hs.is_empty() { "none".to_string() } else { hs },
        misuses_total
    );
    o
}

/// `========= Misuse: call #81 cudaFree: double free: ...`.
pub fn misuse_line(m: &Misuse) -> String {
    format!("========= Misuse: call #{} {}: {}", m.call, m.func, m.what)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leak(kind: Kind, call: u64, size: u64) -> Leaked {
        Leaked {
            kind,
            addr: 0x1000 * call as usize,
            size,
            device: 0,
            call,
            func: "cudaMalloc".into(),
            tid: 7,
            frames: vec![],
        }
    }

    #[test]
    fn a_report() {
        let mut a = leak(Kind::Device, 4, 4096);
        a.frames = vec!["0x1 in main (/p+0x1)".into()];
        let m = Misuse { call: 9, func: "cudaFree".into(), what: "double free".into() };
        let r = report("pid 1, p", &[leak(Kind::Stream, 6, 0), a, leak(Kind::Pinned, 5, 256)], &[m], 3, Some("note"));
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines[0], "========= cudart-rs leak check (pid 1, p)");
        assert_eq!(lines[1], "========= (note)");
        assert!(
            lines[2].starts_with("========= Leaked 4,096 bytes of device memory at 0x4000 (device 0): made by call #4")
        );
        assert_eq!(lines[4], "=========       #0 0x1 in main (/p+0x1)");
        assert!(lines[5].starts_with("========= Leaked 256 bytes of pinned host memory at 0x5000: made"));
        assert!(lines[6].starts_with("========= Leaked stream 0x6000: made by call #6"));
        assert_eq!(lines[7], "========= Misuse: call #9 cudaFree: double free");
        assert_eq!(lines[8], "========= ... and 2 more misuses");
        assert_eq!(
            lines[9],
            "========= LEAK SUMMARY: 4,352 bytes leaked in 2 allocations; handles leaked: 1 stream; misuses: 3"
        );
        let one = report("pid 1, p", &[leak(Kind::Device, 1, 8)], &[], 0, None);
        assert!(one.ends_with("8 bytes leaked in 1 allocation; handles leaked: none; misuses: 0\n"), "{one}");
    }
}
