//! `cudart-rs run`: the command with cudart-rs preloaded and the observation variables set,
//! every process it starts included; at the end, one summary of all processes that made
//! runtime calls, a leak report per process and one timeline.

use std::ffi::OsString;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

use crate::summary::{commas, Summary};
use crate::Libs;

pub const USAGE: &str = "\
usage: cudart-rs run [<options>] [--] <command> [<args>...]

Runs <command> on cudart-rs (preloaded, so it wins over the program's own RPATH)
with the observation modes asked for, in it and in every process it starts, and
exits with the command's exit status. At the end it prints (to stderr) one
summary of all processes that made CUDA runtime calls; processes that made none
(shells, `timeout`, launchers such as torchrun: the registrations of fat binaries
that loading a library of kernels makes do not count) report nothing.

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
                         chrome://tracing); FILE is replaced
  --gpu-spans            With --timeline: copies, memsets and kernels as they ran
                         on the GPU, a track per stream
  --checked              Check handles and pointers before each call; what would
                         crash returns an error and is reported
  --abi 12|13|both       Which runtime to preload (default: both; each process
                         uses the one its program was built for)
  -o, --output DIR       Keep every process's reports in DIR (summary.txt,
                         summary.tsv, leaks.txt, trace.txt); default: a temporary
                         folder, removed at the end
      --lib DIR          Run on the libraries in DIR (default: those installed
                         with this command)
      --driver PATH      Run on the driver library PATH instead of libcuda.so.1
                         (sets CUDART_RS_DRIVER)
      --standin          Run on the stand-in driver installed with the libraries
                         (device memory in host memory, no kernels): try a
                         program on a machine without a GPU
  -h, --help             This help

Examples:
  cudart-rs run --summary -- ./app
  cudart-rs run --summary --timeline t.json -- torchrun --nproc-per-node 2 train.py
  cudart-rs run --trace=warn --leaks -- python3 test.py
  cudart-rs run --standin --summary -- ./app
";

/// The observation variables this command sets (and clears when not asked for).
const VARS: [&str; 7] = [
    "CUDART_RS_TRACE",
    "CUDART_RS_TRACE_FILE",
    "CUDART_RS_SUMMARY",
    "CUDART_RS_SUMMARY_DATA",
    "CUDART_RS_LEAKS",
    "CUDART_RS_TIMELINE",
    "CUDART_RS_CHECKED",
];

/// The reports' files in the output folder.
const FILES: [&str; 4] = ["summary.txt", "summary.tsv", "leaks.txt", "trace.txt"];

#[derive(Default)]
struct Opts {
    trace: Option<String>,
    summary: bool,
    leaks: Option<bool>,
    timeline: Option<PathBuf>,
    gpu_spans: bool,
    checked: bool,
    abi: Option<u32>,
    output: Option<PathBuf>,
    lib: Option<PathBuf>,
    driver: Option<PathBuf>,
    standin: bool,
    command: Vec<OsString>,
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
            Long("timeline") => o.timeline = Some(p.value().map_err(|e| e.to_string())?.into()),
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
            Short('o') | Long("output") => o.output = Some(p.value().map_err(|e| e.to_string())?.into()),
            Long("lib") => o.lib = Some(p.value().map_err(|e| e.to_string())?.into()),
            Long("driver") => o.driver = Some(p.value().map_err(|e| e.to_string())?.into()),
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

/// A path made absolute (the command may change its folder).
fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().map(|d| d.join(p)).unwrap_or_else(|_| p.to_path_buf())
    }
}

/// The output folder: the one asked for (made if missing, our report files in it removed),
/// or a new private one in the temporary folder (removed at the end).
fn output_dir(asked: Option<&Path>) -> Result<(PathBuf, bool), String> {
    if let Some(d) = asked {
        let d = absolute(d);
        std::fs::create_dir_all(&d).map_err(|e| format!("cannot make {}: {e}", d.display()))?;
        for f in FILES {
            let p = d.join(f);
            if p.symlink_metadata().is_ok() {
                std::fs::remove_file(&p).map_err(|e| format!("cannot remove the earlier {}: {e}", p.display()))?;
            }
        }
        return Ok((d, true));
    }
    let tmp = std::env::var_os("TMPDIR").filter(|t| !t.is_empty()).map(PathBuf::from).unwrap_or_else(|| "/tmp".into());
    let mut template = tmp.join("cudart-rs.XXXXXX").into_os_string().into_encoded_bytes();
    template.push(0);
    // SAFETY: a NUL-terminated template that mkdtemp rewrites in place.
    let r = unsafe { libc::mkdtemp(template.as_mut_ptr().cast()) };
    if r.is_null() {
        return Err(format!("cannot make a folder in {}: {}", tmp.display(), std::io::Error::last_os_error()));
    }
    template.pop();
    // SAFETY: the bytes came from an OsString and mkdtemp only replaced the X's with ASCII.
    Ok((PathBuf::from(unsafe { OsString::from_encoded_bytes_unchecked(template) }), false))
}

/// The main child, for the signal handler to pass SIGTERM and SIGHUP on to.
static CHILD: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    let c = CHILD.load(Ordering::Relaxed);
    // SIGINT and SIGQUIT from a terminal reach the command's processes themselves; SIGTERM and
    // SIGHUP sent to this command are passed on. This command stays to report.
    if c > 0 && (sig == libc::SIGTERM || sig == libc::SIGHUP) {
        // SAFETY: kill is async-signal-safe.
        unsafe { libc::kill(c, sig) };
    }
}

fn handle_signals() {
    for sig in [libc::SIGINT, libc::SIGQUIT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: a handler that only calls kill; handlers go back to the default in exec.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as *const () as usize;
            sa.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
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
        (Some(d), _) if !d.is_file() => return fail(format!("--driver {}: no such file", d.display())),
        (Some(d), _) => Some(absolute(d)),
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
    let (dir, keep) = match output_dir(o.output.as_deref()) {
        Ok(d) => d,
        Err(e) => return fail(e),
    };
    let timeline = o.timeline.as_deref().map(absolute);
    if let Some(t) = &timeline {
        // The file asked for is replaced (a link there is removed, not followed).
        if t.symlink_metadata().is_ok_and(|m| !m.is_dir()) {
            if let Err(e) = std::fs::remove_file(t) {
                return fail(format!("cannot replace {}: {e}", t.display()));
            }
        }
    }

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
    if let Some(f) = &o.trace {
        cmd.env("CUDART_RS_TRACE", f);
        if keep {
            cmd.env("CUDART_RS_TRACE_FILE", dir.join("trace.txt"));
        }
    }
    if o.summary {
        cmd.env("CUDART_RS_SUMMARY", dir.join("summary.txt"));
        cmd.env("CUDART_RS_SUMMARY_DATA", dir.join("summary.tsv"));
    }
    if let Some(bt) = o.leaks {
        let mut v = OsString::from(if bt { "backtrace," } else { "1," });
        v.push(dir.join("leaks.txt"));
        cmd.env("CUDART_RS_LEAKS", v);
    }
    if let Some(t) = &timeline {
        let mut v = t.clone().into_os_string();
        if o.gpu_spans {
            v.push(",gpu");
        }
        cmd.env("CUDART_RS_TIMELINE", v);
    }
    if o.checked {
        cmd.env("CUDART_RS_CHECKED", "1");
    }

    // Processes the command leaves behind are handed to this one when their parent ends, so
    // that it can wait for their reports.
    // SAFETY: plain prctl.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
    handle_signals();
    let started = Instant::now();
    // SAFETY: between fork and exec only async-signal-safe calls: the signal mask is reset.
    let child = unsafe {
        cmd.pre_exec(|| {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
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
            eprintln!("cudart-rs run: cannot run {}: {e}", o.command[0].to_string_lossy());
            return ExitCode::from(if e.kind() == std::io::ErrorKind::NotFound { 127 } else { 126 });
        }
    };
    CHILD.store(child.id() as i32, Ordering::Relaxed);
    let status = wait_all(child.id() as i32);
    let elapsed = started.elapsed();

    report(&o, &dir, keep, timeline.as_deref(), elapsed);
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
/// one); says how many still run after that (their reports come later, if at all).
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
            eprintln!(
                "cudart-rs run: processes the command started still run; what they report later is not in this summary"
            );
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    status
}

fn report(o: &Opts, dir: &Path, keep: bool, timeline: Option<&Path>, elapsed: Duration) {
    let mut err = String::new();
    if o.summary {
        let text = std::fs::read_to_string(dir.join("summary.tsv")).unwrap_or_default();
        err.push_str(&merged(&Summary::parse(&text), elapsed));
    }
    if o.leaks.is_some() {
        let text = std::fs::read_to_string(dir.join("leaks.txt")).unwrap_or_default();
        if keep {
            err.push_str("\n==== cudart-rs leak reports ====\n");
            let mut who = String::new();
            for line in text.lines() {
                if let Some(rest) = line.strip_prefix("========= cudart-rs leak check (") {
                    who = rest.trim_end_matches(')').to_string();
                } else if let Some(rest) = line.strip_prefix("========= LEAK SUMMARY: ") {
                    err.push_str(&format!(" {who}: {rest}\n"));
                }
            }
            err.push_str(&format!(" in full: {}\n", dir.join("leaks.txt").display()));
        } else {
            err.push('\n');
            err.push_str(&text);
        }
    }
    if let Some(t) = timeline {
        match std::fs::read_to_string(t) {
            Ok(text) => {
                let procs = text.lines().filter(|l| l.contains("\"name\":\"process_name\"")).count();
                let calls = text.lines().filter(|l| l.contains("\"ph\":\"X\"") && !l.contains("\"cat\":\"gpu")).count();
                err.push_str(&format!(
                    "\ntimeline: {} ({} processes, {} calls)\n",
                    t.display(),
                    procs,
                    commas(calls as u64)
                ));
            }
            Err(_) => {
                err.push_str(&format!("\ntimeline: none written ({}): no process made a runtime call\n", t.display()))
            }
        }
    }
    if keep {
        err.push_str(&format!("reports of each process: {}\n", dir.display()));
    }
    eprint!("{err}");
}

/// The summary of a run: each process's, and the sum.
fn merged(each: &[Summary], elapsed: Duration) -> String {
    match each {
        [] => "\n==== cudart-rs summary: no process made a CUDA runtime call ====\n(A program linked with NVIDIA's static runtime never loads libcudart.so: 'cudart-rs doctor PROGRAM' tells.)\n".to_string(),
        [one] => format!("\n{}", one.render()),
        _ => {
            let mut o = format!("\n==== cudart-rs summary: {} processes made runtime calls ({:.3} s) ====\n", each.len(), elapsed.as_secs_f64());
            o.push_str("\nProcesses:\n");
            o.push_str("      PID  Rank      Calls  Errors  API time (ns)     Bytes copied   Kernels  Command\n");
            let mut sorted: Vec<&Summary> = each.iter().collect();
            sorted.sort_by_key(|s| {
                let p = &s.procs[0];
                (p.rank.as_ref().and_then(|r| r.parse::<i64>().ok()).unwrap_or(i64::MAX), p.pid)
            });
            let mut total = Summary::default();
            for s in sorted {
                let p = &s.procs[0];
                o.push_str(&format!(
                    " {:>8}  {:>4}  {:>9}  {:>6}  {:>13}  {:>15}  {:>8}  {}\n",
                    p.pid,
                    p.rank.as_deref().unwrap_or("-"),
                    commas(s.calls()),
                    commas(s.errors()),
                    commas(s.time()),
                    commas(s.bytes_copied()),
                    commas(s.kernel_launches()),
                    if p.cmd.is_empty() { &p.exe } else { &p.cmd }
                ));
                total.add(s);
            }
            o.push_str("\nAll processes:\n");
            o.push_str(&total.tables("Peak (sum)"));
            o
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
            "--",
            "./app",
            "--trace",
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(o.trace.as_deref(), Some("copy,launch"));
        assert_eq!(o.leaks, Some(true));
        assert_eq!(o.timeline, Some(PathBuf::from("t.json")));
        assert!(o.gpu_spans && !o.summary);
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
    }
}
