//! `cudart-rs report DIR...`: the reports of the processes whose records are in the folders
//! (each kept by `cudart-rs run -o DIR`, or by `CUDART_RS_RECORD=DIR`): one summary of all of
//! them, on one host or several (one `cudart-rs run -o DIR` per node of a job), their leak
//! reports, and one timeline with a track per host and process.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::{out, reports, run};

pub const USAGE: &str = "\
usage: cudart-rs report [<options>] DIR...

Prints (to stdout) one summary of every process whose record is in the DIRs (each kept by
'cudart-rs run -o DIR', or by CUDART_RS_RECORD=DIR), whatever host it ran on,
with its host and rank, and their leak reports; writes one timeline of them. A
job over several nodes: 'cudart-rs run -o DIR' on each node, then one
'cudart-rs report DIR1 DIR2 ...'. A process that ended without exiting (a
signal, _exit, exec, a crash) is reported from its record, and said so.

Options:
  --timeline FILE        One Chrome trace-event file of all the processes, a track
                         per host and process (their times on one clock); an
                         existing FILE is refused unless --force-overwrite
      --force-overwrite  Replace FILE (a symbolic link is removed, not followed)
  -h, --help             This help
";

pub fn main(args: Vec<OsString>) -> ExitCode {
    use lexopt::prelude::*;
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut timeline = None;
    let mut force = false;
    let mut p = lexopt::Parser::from_args(args);
    let usage = |e: String| {
        eprintln!("cudart-rs report: {e}");
        eprintln!("'cudart-rs report --help' shows the options.");
        ExitCode::from(2)
    };
    loop {
        match p.next() {
            Ok(Some(Long("timeline"))) => match run::path_value(&mut p, "--timeline") {
                Ok(v) => timeline = Some(v),
                Err(e) => return usage(e),
            },
            Ok(Some(Long("force-overwrite"))) => force = true,
            Ok(Some(Short('h') | Long("help"))) => {
                print!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            Ok(Some(Value(v))) => dirs.push(out::absolute(&PathBuf::from(v))),
            Ok(Some(a)) => return usage(a.unexpected().to_string()),
            Ok(None) => break,
            Err(e) => return usage(e.to_string()),
        }
    }
    if dirs.is_empty() {
        return usage("no folder of records (cudart-rs report DIR...)".into());
    }
    let file = match timeline.as_deref().map(|t| out::claim_file(t, force)).transpose() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("cudart-rs report: {e}");
            return ExitCode::from(2);
        }
    };
    let (procs, problems) = reports::read(&dirs);
    let mut o = String::new();
    for p in &problems {
        o.push_str(&format!("cudart-rs report: {p}\n"));
    }
    o.push_str(&reports::summary(&procs, None));
    let leaks = reports::leak_reports(&procs);
    if !leaks.is_empty() {
        o.push_str("\n==== cudart-rs leak reports ====\n");
        for (_, text) in &leaks {
            o.push_str(text);
        }
    }
    if let Some(f) = &file {
        o.push_str(&reports::timeline_line(&procs, f, "cudart-rs report"));
    }
    let _ = std::io::Write::write_all(&mut std::io::stdout(), o.as_bytes());
    if procs.is_empty() || !problems.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
