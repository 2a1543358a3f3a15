//! The reports of a run, made from the records its processes kept (`CUDART_RS_RECORD`,
//! [`figures::record`]), on one host or several: one summary of every process that made
//! calls, their leak reports, and one timeline joined from their parts. Used by `cudart-rs
//! run` at the end of the run and by `cudart-rs report DIR...` afterwards.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use figures::record::{Ending, Record, ASKED_LEAKS};
use figures::text::{commas, count, shown};
use figures::Summary;

use crate::out;

/// One process's record.
pub struct Proc {
    pub rec: Record,
    /// Its timeline part, if it wrote one.
    pub part: Option<PathBuf>,
    /// How its observation ended, in words, when not by an exit.
    pub ended: Option<String>,
}

impl Proc {
    fn host(&self) -> &str {
        &self.rec.proc().host
    }
    fn rank(&self) -> i64 {
        self.rec.proc().rank.as_ref().and_then(|r| r.parse().ok()).unwrap_or(i64::MAX)
    }
    fn label(&self, hosts: bool) -> String {
        let p = self.rec.proc();
        if hosts {
            format!("{}, host {}", p.label(), p.host)
        } else {
            p.label()
        }
    }
}

/// The records folder of `dir`: `dir/records` (`cudart-rs run -o DIR`), else `dir` itself
/// (`CUDART_RS_RECORD=DIR`).
pub fn records_of(dir: &Path) -> PathBuf {
    let r = dir.join(out::RECORDS);
    if r.is_dir() {
        r
    } else {
        dir.to_path_buf()
    }
}

/// The records in `dirs` of processes that made calls, by host, rank and pid; and what could
/// not be read, said.
pub fn read(dirs: &[PathBuf]) -> (Vec<Proc>, Vec<String>) {
    let mut procs = Vec::new();
    let mut problems = Vec::new();
    for d in dirs {
        let r = records_of(d);
        let mut names: Vec<PathBuf> = match std::fs::read_dir(&r) {
            Ok(e) => e.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "rec")).collect(),
            Err(e) => {
                problems.push(format!("cannot read {}: {e}", shown(&r)));
                continue;
            }
        };
        names.sort();
        for path in names {
            match figures::record::read_file(&path) {
                Ok(rec) if rec.used => {
                    let part = Some(path.with_extension("json")).filter(|p| p.is_file());
                    procs.push(Proc { rec, part, ended: None });
                }
                Ok(_) => {}
                Err(e) => problems.push(format!("{}: {e}", shown(&path))),
            }
        }
    }
    procs.sort_by(|a, b| {
        (a.host(), a.rank(), a.rec.proc().pid, a.rec.start_mono_ns).cmp(&(
            b.host(),
            b.rank(),
            b.rec.proc().pid,
            b.rec.start_mono_ns,
        ))
    });
    // How each ended that did not exit: exec'd (a later record of the same process), still
    // running, or ended otherwise.
    for i in 0..procs.len() {
        if procs[i].rec.ending == Ending::Exited {
            continue;
        }
        let (host, pid, start) = (procs[i].host().to_string(), procs[i].rec.proc().pid, procs[i].rec.start_mono_ns);
        let execd = procs.iter().any(|o| o.host() == host && o.rec.proc().pid == pid && o.rec.start_mono_ns > start);
        let running = !execd && host == this_host() && alive(pid);
        procs[i].ended = Some(
            if execd {
                "it exec'd another program"
            } else if running {
                "it still runs: its figures so far"
            } else {
                "it ended without exiting: a signal, _exit or a crash"
            }
            .to_string(),
        );
    }
    (procs, problems)
}

fn this_host() -> String {
    let mut b = [0u8; 256];
    // SAFETY: a buffer of the size given.
    if unsafe { libc::gethostname(b.as_mut_ptr().cast(), b.len() - 1) } != 0 {
        return String::new();
    }
    String::from_utf8_lossy(&b[..b.iter().position(|&c| c == 0).unwrap_or(0)]).into_owned()
}

fn alive(pid: u32) -> bool {
    // SAFETY: signal 0 asks only whether the process exists.
    unsafe { libc::kill(pid as i32, 0) == 0 }
}

fn hosts(procs: &[Proc]) -> usize {
    procs.iter().map(|p| p.host()).collect::<std::collections::BTreeSet<_>>().len()
}

/// The summary of the processes: each one's, and the sum (`elapsed`: the run's time).
pub fn summary(procs: &[Proc], elapsed: Option<Duration>) -> String {
    let multi = hosts(procs) > 1;
    match procs {
        [] => "\n==== cudart-rs summary: no process made a CUDA runtime call ====\n(A program linked with NVIDIA's static runtime never loads libcudart.so: 'cudart-rs doctor PROGRAM' tells.)\n".to_string(),
        [one] => {
            let mut o = format!("\n{}", one.rec.summary.render());
            if let Some(e) = &one.ended {
                o.push_str(&format!(" ({e}: from its record)\n"));
            }
            o
        }
        _ => {
            let time = elapsed.map_or(String::new(), |e| format!(" ({:.3} s)", e.as_secs_f64()));
            let on = if multi { format!(" on {}", count(hosts(procs) as u64, "host", "hosts")) } else { String::new() };
            let mut o = format!("\n==== cudart-rs summary: {} made runtime calls{on}{time} ====\n", count(procs.len() as u64, "process", "processes"));
            o.push_str("\nProcesses:\n");
            let host_w = procs.iter().map(|p| p.host().len()).max().unwrap_or(4).max(4);
            if multi {
                o.push_str(&format!(" {:<host_w$}", "Host"));
            }
            o.push_str("      PID  Rank      Calls  Errors  API time (ns)     Bytes copied   Kernels  Command\n");
            let mut total = Summary::default();
            for p in procs {
                let s = &p.rec.summary;
                let pr = p.rec.proc();
                if multi {
                    o.push_str(&format!(" {:<host_w$}", pr.host));
                }
                o.push_str(&format!(
                    " {:>8}  {:>4}  {:>9}  {:>6}  {:>13}  {:>15}  {:>8}  {}{}\n",
                    pr.pid,
                    pr.rank.as_deref().unwrap_or("-"),
                    commas(s.calls()),
                    commas(s.errors()),
                    commas(s.time()),
                    commas(s.bytes_copied()),
                    commas(s.kernel_launches()),
                    if pr.cmd.is_empty() { &pr.exe } else { &pr.cmd },
                    p.ended.as_ref().map_or(String::new(), |e| format!("  ({e})"))
                ));
                total.add(s);
            }
            o.push_str("\nAll processes:\n");
            o.push_str(&total.tables("Peak (sum)"));
            o
        }
    }
}

/// Each process's leak report: the one it made at exit, else one made from its record (what
/// was live when it ended; backtraces and misuse details are the process's own, lost).
pub fn leak_reports(procs: &[Proc]) -> Vec<(String, String)> {
    let multi = hosts(procs) > 1;
    procs
        .iter()
        .filter(|p| p.rec.asked & ASKED_LEAKS != 0)
        .map(|p| {
            let text = p.rec.leak_report.clone().unwrap_or_else(|| {
                let lost = if p.rec.live_lost > 0 {
                    format!("; {} more not kept", commas(p.rec.live_lost))
                } else {
                    String::new()
                };
                let note = format!(
                    "{}: made from its record, what was live then{lost}; backtraces and misuse details are lost",
                    p.ended.as_deref().unwrap_or("it made no report")
                );
                figures::leaks::report(&p.rec.proc().label(), &p.rec.live, &[], p.rec.misuses, Some(&note))
            });
            (p.label(multi), text)
        })
        .collect()
}

/// ` pid 1, prog: 4,096 bytes leaked in 1 allocation; ...` per process.
pub fn leak_lines(reports: &[(String, String)]) -> String {
    let mut o = String::new();
    for (who, text) in reports {
        if let Some(rest) = text.lines().find_map(|l| l.strip_prefix(figures::leaks::TOTAL)) {
            o.push_str(&format!(" {who}: {rest}\n"));
        }
    }
    o
}

/// The timeline of the processes, joined from their parts into `file` (a track per host and
/// process: processes of several hosts get pids of their own, and their times are put on
/// one clock). Returns the processes and calls in it.
pub fn timeline(procs: &[Proc], file: &Path) -> Result<(usize, usize), String> {
    let multi = hosts(procs) > 1;
    let first_unix = procs.iter().map(|p| p.rec.start_unix_ns).min().unwrap_or(0);
    let host_no: BTreeMap<&str, u64> = {
        let mut m = BTreeMap::new();
        for p in procs {
            let n = m.len() as u64;
            m.entry(p.host()).or_insert(n);
        }
        m
    };
    let mut lines: Vec<String> = Vec::new();
    let (mut n_procs, mut calls) = (0, 0);
    for p in procs {
        let Some(part) = &p.part else { continue };
        let bytes = std::fs::read(part).map_err(|e| format!("cannot read {}: {e}", shown(part)))?;
        let events = figures::timeline::part_events(&bytes);
        let pid = p.rec.proc().pid as u64;
        let (pid, shift) = if multi {
            // Pids of their own per host, times on the first process's real-time clock.
            let shift = (p.rec.start_unix_ns as f64 - first_unix as f64) / 1e3 - p.rec.start_mono_ns as f64 / 1e3;
            ((host_no[p.host()] + 1) * 10_000_000 + pid, shift)
        } else {
            (pid, 0.0)
        };
        let sort = p.rec.proc().rank.as_ref().and_then(|r| r.parse::<i64>().ok());
        lines.extend(figures::timeline::process_meta(pid, &p.label(multi), sort));
        n_procs += 1;
        for e in events {
            if e.contains("\"ph\":\"X\"") && !e.contains("\"cat\":\"gpu") {
                calls += 1;
            }
            lines.push(if multi { figures::timeline::rebase(e, pid, shift) } else { e.to_string() });
        }
    }
    out::replace(file, |w: &mut dyn Write| {
        let mut w = w;
        figures::timeline::write_array(&mut w, lines.iter().map(String::as_str))
    })?;
    Ok((n_procs, calls))
}

/// [`timeline`], said in a line: `timeline: FILE (2 processes, 1,234 calls)`, or why it is not
/// written (`who`: the command saying it).
pub fn timeline_line(procs: &[Proc], file: &Path, who: &str) -> String {
    match timeline(procs, file) {
        Ok((n, calls)) => format!(
            "\ntimeline: {} ({}, {})\n",
            shown(file),
            count(n as u64, "process", "processes"),
            count(calls as u64, "call", "calls")
        ),
        Err(e) => format!("\n{who}: the timeline is not written: {e}\n"),
    }
}

/// `DIR/summary.txt` (each process's summary), `summary.tsv` (their figures) and
/// `leaks.txt` (their leak reports), written new; what could not be written is said.
pub fn write_files(dir: &Path, procs: &[Proc], leaks: &[(String, String)], summary: bool) -> Vec<String> {
    let mut errors = Vec::new();
    if summary {
        let text: String = procs.iter().map(|p| p.rec.summary.render()).collect();
        let data: String = procs.iter().map(|p| p.rec.summary.records()).collect();
        for (name, t) in [("summary.txt", text), ("summary.tsv", data)] {
            if let Err(e) = out::write_new(&dir.join(name), &t) {
                errors.push(e);
            }
        }
    }
    if !leaks.is_empty() {
        let text: String = leaks.iter().map(|l| l.1.as_str()).collect();
        if let Err(e) = out::write_new(&dir.join("leaks.txt"), &text) {
            errors.push(e);
        }
    }
    errors
}
