//! `cudart-rs run`: the command with cudart-rs preloaded and the observation variables set,
//! every process it starts included; at the end, one summary of all processes that made
//! runtime calls, a leak report per process and one timeline, made from the records the
//! processes kept (so a process that `_exit`s, `exec`s or is killed is reported too).

use std::ffi::OsString;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use figures::text::shown;

use crate::{out, reports, signals, Libs};

pub const USAGE: &str = "\
usage: cudart-rs run [<options>] [--] <command> [<args>...]

Runs <command> on cudart-rs (preloaded, so it wins over the program's own RPATH)
with the observation modes asked for, in it and in every process it starts, and
exits with the command's exit status. At the end it prints (to stderr) one
summary of all processes that made CUDA runtime calls; processes that made none
(shells, `timeout`, launchers such as torchrun: the registrations of fat binaries
that loading a library of kernels makes do not count) report nothing. Each
process keeps its figures in a record as it runs: one that ends by _exit, exec,
a signal or a crash is reported too.

Options:
  --trace[=FILTER]       Trace every call: arguments decoded, result, duration, one
                         line each, to stderr (with -o: DIR/trace.txt). FILTER
                         selects families and levels, e.g. copy,launch or warn
                         (failed calls only); default: every call
  --summary              Per function calls, errors and times, bytes copied, memory
                         held, kernel launches: per process and for all of them
                         (the default when no other mode is asked for)
  --leaks[=backtrace]    A leak and misuse report per process: every allocation
                         and handle never freed, with the call that made it (and
                         the program's backtrace there)
  --timeline FILE        One Chrome trace-event file of all processes, a track per
                         process and host thread (open it in ui.perfetto.dev or
                         chrome://tracing)
  --gpu-spans            With --timeline: copies, memsets and kernels as they ran
                         on the GPU, a track per stream
  --checked              Check handles and pointers before each call; what would
                         crash returns an error and is reported
  --abi 12|13|both       Which runtime to preload (default: both; each process
                         uses the one its program was built for)
  -o, --output DIR       Keep every process's reports in DIR: summary.txt,
                         summary.tsv, leaks.txt, trace.txt, and records/ (what
                         'cudart-rs report DIR' reads); default: a temporary
                         folder, removed at the end
      --force-overwrite  Replace the reports of an earlier run in DIR, and FILE
      --lib DIR          Run on the libraries in DIR (default: those installed
                         with this command)
      --driver PATH      Run on the driver library PATH instead of libcuda.so.1
                         (sets CUDART_RS_DRIVER)
      --standin          Run on the stand-in driver installed with the libraries
                         (device memory in host memory, no kernels): try a
                         program on a machine without a GPU
  -h, --help             This help

Files: DIR is made if missing (readable by you only); an existing DIR that is not
empty, and an existing FILE, are refused unless --force-overwrite is given, which
replaces only the file names above (a symbolic link is removed, never followed).
A folder of another user is refused. Report files are made new, mode 0600 (they
hold command lines and addresses); paths are taken as they are when the command
starts.

Signals: SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to this command are passed to
<command> (one from the terminal, ^C or ^\\, reaches it already and is not sent
twice); this command stays to report, then exits with <command>'s status (128 +
the signal's number when a signal ended it). A signal ignored when this command
started (nohup) stays ignored in <command>; no signal disposition or mask of
<command> is changed, and the runtime catches no signal.

Examples:
  cudart-rs run --summary -- ./app
  cudart-rs run --summary --timeline t.json -- torchrun --nproc-per-node 2 train.py
  cudart-rs run --trace=warn --leaks -- python3 test.py
  cudart-rs run --standin --summary -- ./app
  cudart-rs run -o node0 -- torchrun --nnodes 2 --node-rank 0 ...   (then:
  cudart-rs report node0 node1 --timeline job.json)
";

/// The observation variables this command sets (and clears when not asked for).
const VARS: [&str; 8] = [
    "CUDART_RS_TRACE",
    "CUDART_RS_TRACE_FILE",
    "CUDART_RS_SUMMARY",
    "CUDART_RS_SUMMARY_DATA",
    "CUDART_RS_LEAKS",
    "CUDART_RS_TIMELINE",
    "CUDART_RS_CHECKED",
    "CUDART_RS_RECORD",
];

#[derive(Default, Debug)]
struct Opts {
    trace: Option<String>,
    summary: bool,
    leaks: Option<bool>,
    timeline: Option<PathBuf>,
    gpu_spans: bool,
    checked: bool,
    abi: Option<u32>,
    output: Option<PathBuf>,
    force: bool,
    lib: Option<PathBuf>,
    driver: Option<PathBuf>,
    standin: bool,
    command: Vec<OsString>,
}

/// An option's value that names a file or folder: not an option itself (`--timeline --`).
pub fn path_value(p: &mut lexopt::Parser, opt: &str) -> Result<PathBuf, String> {
    let v = p.value().map_err(|e| e.to_string())?;
    if v.is_empty() || v.to_string_lossy().starts_with('-') {
        return Err(format!("{opt} needs a name, not {:?} ({opt} NAME; a name that starts with - as {opt}=./NAME)", v));
    }
    Ok(v.into())
}

fn parse(args: Vec<OsString>) -> Result<Option<Opts>, String> {
    use lexopt::prelude::*;
    let mut o = Opts::default();
    let mut p = lexopt::Parser::from_args(args);
    while let Some(a) = p.next().map_err(|e| e.to_string())? {
        match a {
            Long("trace") => {
                o.trace =
                    Some(p.optional_value().map(|v| v.to_string_lossy().into_owned()).unwrap_or_else(|| "1".into()))
            }
            Long("summary") => o.summary = true,
            Long("leaks") => {
                o.leaks = Some(match p.optional_value() {
                    None => false,
                    Some(v) if v == "backtrace" || v == "bt" => true,
                    Some(v) => return Err(format!("--leaks={}: the only choice is backtrace", v.to_string_lossy())),
                })
            }
            Long("timeline") => o.timeline = Some(path_value(&mut p, "--timeline")?),
            Long("gpu-spans") => o.gpu_spans = true,
            Long("checked") => o.checked = true,
            Long("abi") => {
                o.abi = match p.value().map_err(|e| e.to_string())?.to_str() {
                    Some("13") => Some(13),
                    Some("12") => Some(12),
                    Some("both") => None,
                    _ => return Err("--abi takes 12, 13 or both".into()),
                }
            }
            Short('o') | Long("output") => o.output = Some(path_value(&mut p, "-o")?),
            Long("force-overwrite") => o.force = true,
            Long("lib") => o.lib = Some(path_value(&mut p, "--lib")?),
            Long("driver") => o.driver = Some(path_value(&mut p, "--driver")?),
            Long("standin") => o.standin = true,
            Short('h') | Long("help") => return Ok(None),
            Value(v) => {
                o.command.push(v);
                o.command.extend(p.raw_args().map_err(|e| e.to_string())?);
            }
            _ => return Err(a.unexpected().to_string()),
        }
    }
    if o.command.is_empty() {
        return Err("no command to run (cudart-rs run [<options>] -- <command> [<args>...])".into());
    }
    if o.driver.is_some() && o.standin {
        return Err("--driver or --standin, not both".into());
    }
    if o.gpu_spans && o.timeline.is_none() {
        return Err("--gpu-spans needs --timeline FILE".into());
    }
    if o.trace.is_none() && o.leaks.is_none() && o.timeline.is_none() && !o.checked {
        o.summary = true;
    }
    Ok(Some(o))
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("cudart-rs run: {msg}");
    ExitCode::from(2)
}

/// Where the reports go: the folder asked for (claimed), or a new private one in the
/// temporary folder (removed at the end).
fn output_dir(asked: Option<&Path>, force: bool) -> Result<(PathBuf, bool), String> {
    if let Some(d) = asked {
        return out::claim_dir(d, force).map(|d| (d, true));
    }
    let tmp = std::env::var_os("TMPDIR").filter(|t| !t.is_empty()).map(PathBuf::from).unwrap_or_else(|| "/tmp".into());
    let mut template = tmp.join("cudart-rs.XXXXXX").into_os_string().into_encoded_bytes();
    template.push(0);
    // SAFETY: a NUL-terminated template that mkdtemp rewrites in place.
    let r = unsafe { libc::mkdtemp(template.as_mut_ptr().cast()) };
    if r.is_null() {
        return Err(format!("cannot make a folder in {}: {}", shown(&tmp), std::io::Error::last_os_error()));
    }
    template.pop();
    // SAFETY: the bytes came from an OsString and mkdtemp only replaced the X's with ASCII.
    Ok((PathBuf::from(unsafe { OsString::from_encoded_bytes_unchecked(template) }), false))
}

pub fn main(args: Vec<OsString>) -> ExitCode {
    let o = match parse(args) {
        Ok(Some(o)) => o,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("cudart-rs run: {e}");
            eprintln!("'cudart-rs run --help' shows the options.");
            return ExitCode::from(2);
        }
    };
    let libs = match Libs::find(o.lib.as_deref()) {
        Ok(l) => l,
        Err(e) => return fail(e),
    };
    let preload: Vec<&Path> =
        libs.each().into_iter().filter(|(abi, _)| o.abi.is_none_or(|a| a == *abi)).map(|(_, p)| p).collect();
    if preload.is_empty() {
        return fail(format!("no CUDA {} runtime in {}", o.abi.unwrap_or(13), libs.dir.display()));
    }
    let driver = match (&o.driver, o.standin) {
        (Some(d), _) if !d.is_file() => return fail(format!("--driver {}: no such file", shown(d))),
        (Some(d), _) => Some(out::absolute(d)),
        (None, true) if !libs.standin().is_file() => {
            return fail(format!(
                "no stand-in driver with the libraries in {} ({} is missing: scripts/package/install.sh --standin, the cudart-rs-standin package and the wheel install it)",
                libs.dir.display(),
                libs.standin().display()
            ))
        }
        (None, true) => Some(libs.standin()),
        (None, false) => None,
    };
    // Everything written is claimed now, before the command starts.
    let timeline = match o.timeline.as_deref().map(|t| out::claim_file(t, o.force)).transpose() {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    let (dir, keep) = match output_dir(o.output.as_deref(), o.force) {
        Ok(d) => d,
        Err(e) => {
            if let Some(t) = &timeline {
                let _ = std::fs::remove_file(t);
            }
            return fail(e);
        }
    };
    let records = dir.join(out::RECORDS);
    if let Err(e) = out::make_dir(&records) {
        return fail(e);
    }
    // A run inside another: its records are handed to the outer run at the end.
    let outer = std::env::var_os("CUDART_RS_RECORD").filter(|v| !v.is_empty()).map(PathBuf::from);

    let mut cmd = Command::new(&o.command[0]);
    cmd.args(&o.command[1..]);
    for v in VARS {
        cmd.env_remove(v);
    }
    let mut ld: OsString =
        preload.iter().map(|p| p.as_os_str().to_owned()).collect::<Vec<_>>().join(std::ffi::OsStr::new(":"));
    if let Some(old) = std::env::var_os("LD_PRELOAD").filter(|v| !v.is_empty()) {
        ld.push(":");
        ld.push(old);
    }
    cmd.env("LD_PRELOAD", ld);
    if let Some(d) = &driver {
        cmd.env("CUDART_RS_DRIVER", d);
    }
    cmd.env("CUDART_RS_RECORD", &records);
    if let Some(f) = &o.trace {
        cmd.env("CUDART_RS_TRACE", f);
        if keep {
            cmd.env("CUDART_RS_TRACE_FILE", dir.join("trace.txt"));
        }
    }
    if o.summary {
        cmd.env("CUDART_RS_SUMMARY", "1");
    }
    if let Some(bt) = o.leaks {
        cmd.env("CUDART_RS_LEAKS", if bt { "backtrace" } else { "1" });
    }
    if timeline.is_some() {
        cmd.env("CUDART_RS_TIMELINE", if o.gpu_spans { "1,gpu" } else { "1" });
    }
    if o.checked {
        cmd.env("CUDART_RS_CHECKED", "1");
    }

    // Processes the command leaves behind are handed to this one when their parent ends, so
    // that it can wait for them.
    // SAFETY: plain prctl.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    signals::catch();
    let started = Instant::now();
    // SAFETY: between fork and exec only async-signal-safe calls.
    let child = unsafe {
        cmd.pre_exec(|| {
            signals::in_child();
            Ok(())
        })
        .spawn()
    };
    let child = match child {
        Ok(c) => c,
        Err(e) => {
            if !keep {
                let _ = std::fs::remove_dir_all(&dir);
            }
            if let Some(t) = &timeline {
                let _ = std::fs::remove_file(t);
            }
            eprintln!("cudart-rs run: cannot run {}: {e}", o.command[0].to_string_lossy());
            return ExitCode::from(if e.kind() == std::io::ErrorKind::NotFound { 127 } else { 126 });
        }
    };
    signals::child_is(child.id() as i32);
    let status = wait_all(child.id() as i32);
    let elapsed = started.elapsed();

    report(&o, &dir, keep, timeline.as_deref(), elapsed);
    if let Some(outer) = outer {
        hand_over(&records, &outer);
    }
    if !keep {
        let _ = std::fs::remove_dir_all(&dir);
    }
    let code = match status {
        Some(s) => s.code().unwrap_or_else(|| 128 + s.signal().unwrap_or(0)),
        None => 1,
    };
    ExitCode::from(code.clamp(0, 255) as u8)
}

/// Waits for the command, then for up to 5 s for the processes it left (handed to this
/// one); says how many still run after that (what they did so far is reported).
fn wait_all(main: i32) -> Option<std::process::ExitStatus> {
    let mut status = None;
    loop {
        let mut st = 0;
        // SAFETY: waitpid with a valid out pointer.
        let r = unsafe { libc::waitpid(-1, &mut st, 0) };
        if r == main {
            status = Some(std::process::ExitStatus::from_raw(st));
            break;
        }
        if r < 0 && std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            break;
        }
    }
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let mut st = 0;
        // SAFETY: waitpid with a valid out pointer.
        let r = unsafe { libc::waitpid(-1, &mut st, libc::WNOHANG) };
        if r < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD) {
            break;
        }
        if r > 0 {
            continue;
        }
        if Instant::now() >= until {
            crate::say(
                "cudart-rs run: processes the command started still run; their figures so far are in the summary\n",
            );
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    status
}

fn report(o: &Opts, dir: &Path, keep: bool, timeline: Option<&Path>, elapsed: Duration) {
    let (procs, problems) = reports::read(&[dir.to_path_buf()]);
    let mut err = String::new();
    for p in problems {
        err.push_str(&format!("cudart-rs run: {p}\n"));
    }
    if o.summary {
        err.push_str(&reports::summary(&procs, Some(elapsed)));
    }
    let leaks = if o.leaks.is_some() { reports::leak_reports(&procs) } else { Vec::new() };
    if keep {
        for e in reports::write_files(dir, &procs, &leaks, o.summary) {
            err.push_str(&format!("cudart-rs run: {e}\n"));
        }
    }
    if o.leaks.is_some() {
        err.push_str("\n==== cudart-rs leak reports ====\n");
        if keep {
            err.push_str(&reports::leak_lines(&leaks));
            err.push_str(&format!(" in full: {}\n", shown(&dir.join("leaks.txt"))));
        } else {
            for (_, text) in &leaks {
                err.push_str(text);
            }
        }
    }
    if let Some(t) = timeline {
        if procs.iter().any(|p| p.part.is_some()) {
            err.push_str(&reports::timeline_line(&procs, t, "cudart-rs run"));
        } else {
            // The empty array claimed at the start is this run's own: it goes.
            let _ = std::fs::remove_file(t);
            err.push_str(&format!("\ntimeline: none written ({}): no process made a runtime call\n", shown(t)));
        }
    }
    if keep {
        err.push_str(&format!("reports of each process: {}\n", shown(dir)));
    }
    crate::say(&err);
}

/// A run inside another (`cudart-rs run` under `cudart-rs run`): this run's records are
/// copied into the outer run's records folder, for it to report them too.
fn hand_over(records: &Path, outer: &Path) {
    let Ok(entries) = std::fs::read_dir(records) else { return };
    for e in entries.flatten() {
        let from = e.path();
        let Some(name) = from.file_name() else { continue };
        let to = outer.join(name);
        let done = std::fs::read(&from).and_then(|b| {
            let mut f = out::create_new(&to)?;
            std::io::Write::write_all(&mut f, &b)
        });
        if let Err(err) = done {
            crate::say(&format!("cudart-rs run: the record {} is not handed to the outer run: {err}\n", shown(&from)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<OsString> {
        a.iter().map(OsString::from).collect()
    }

    #[test]
    fn options() {
        let o = parse(args(&[
            "--trace=copy,launch",
            "--leaks=backtrace",
            "--timeline",
            "t.json",
            "--gpu-spans",
            "-o",
            "out",
            "--force-overwrite",
            "--",
            "./app",
            "--trace",
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(o.trace.as_deref(), Some("copy,launch"));
        assert_eq!(o.leaks, Some(true));
        assert_eq!(o.timeline, Some(PathBuf::from("t.json")));
        assert!(o.gpu_spans && !o.summary && o.force);
        assert_eq!(o.output, Some(PathBuf::from("out")));
        assert_eq!(o.command, args(&["./app", "--trace"]));
        // The command starts at the first word that is not an option.
        let o = parse(args(&["--trace", "python3", "-c", "x"])).unwrap().unwrap();
        assert_eq!(o.trace.as_deref(), Some("1"));
        assert_eq!(o.command, args(&["python3", "-c", "x"]));
        // No mode asked for: the summary.
        assert!(parse(args(&["./app"])).unwrap().unwrap().summary);
        assert!(parse(args(&["--help"])).unwrap().is_none());
        assert!(parse(args(&["--abi", "11", "./app"])).is_err());
        assert!(parse(args(&["--gpu-spans", "./app"])).is_err());
        assert!(parse(args(&["--summary"])).is_err());
        assert!(parse(args(&["--bogus", "./app"])).is_err());
        let o = parse(args(&["--driver", "/x/libcuda.so.1", "./app"])).unwrap().unwrap();
        assert_eq!((o.driver, o.standin), (Some(PathBuf::from("/x/libcuda.so.1")), false));
        assert!(parse(args(&["--standin", "./app"])).unwrap().unwrap().standin);
        assert!(parse(args(&["--standin", "--driver", "d", "./app"])).is_err());
        // A file name is not an option.
        assert!(parse(args(&["--timeline", "--", "./app"])).unwrap_err().contains("--timeline needs a name"));
        assert!(parse(args(&["-o", "--summary", "./app"])).is_err());
        assert_eq!(
            parse(args(&["--timeline=./-t.json", "./app"])).unwrap().unwrap().timeline,
            Some(PathBuf::from("./-t.json"))
        );
    }
}
