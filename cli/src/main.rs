//! `cudart-rs`: runs a program on cudart-rs with its observation modes on, following every
//! process the program starts, and merges their reports (`cudart-rs run`); makes the reports
//! of records kept on one node or several (`cudart-rs report`); says which driver, GPUs and
//! runtime library a program would use (`cudart-rs doctor`).

mod doctor;
mod elf;
mod libs;
mod out;
mod report;
mod reports;
mod run;
mod signals;

use std::ffi::OsString;
use std::process::ExitCode;

pub use libs::Libs;

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

const USAGE: &str = "\
usage: cudart-rs [--version] [--help] <command> [<args>]

Runs CUDA programs on cudart-rs, a drop-in replacement for NVIDIA's CUDA runtime
(libcudart.so), and observes them.

 The commands are:
   run       Run a command on cudart-rs, following every process it starts: call
             trace, one summary of all processes, leak reports, one timeline
   report    The reports of the records kept by runs (one per node of a job):
             one summary of all their processes, one timeline
   doctor    Show the driver, the GPUs and the runtime libraries, and which
             libcudart a program would load

 'cudart-rs <command> --help' shows a command's options.
";

fn main() -> ExitCode {
    let mut args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let Some(first) = args.first().cloned() else {
        eprint!("{USAGE}");
        return ExitCode::from(2);
    };
    let rest = args.split_off(1);
    if first != "run" {
        // Only printing: `cudart-rs doctor | head -1` ends quietly.
        signals::quiet_on_closed_pipe();
    }
    match first.to_str() {
        Some("run") => run::main(rest),
        Some("report") => report::main(rest),
        Some("doctor") => doctor::main(rest),
        Some("--version" | "-V" | "version") => {
            println!("{}", version_text());
            ExitCode::SUCCESS
        }
        Some("--help" | "-h" | "help") => {
            match rest.first().and_then(|a| a.to_str()) {
                Some("run") => print!("{}", run::USAGE),
                Some("report") => print!("{}", report::USAGE),
                Some("doctor") => print!("{}", doctor::USAGE),
                _ => print!("{USAGE}"),
            }
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("cudart-rs: '{}' is not a command", first.to_string_lossy());
            eprint!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Writes `text` to stderr; a stderr that is gone (a closed pipe) is no error of the
/// command's.
pub fn say(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// `cudart-rs 0.1.0` and the libraries it runs programs on.
fn version_text() -> String {
    let mut s = format!("cudart-rs {VERSION}");
    match Libs::find(None) {
        Ok(l) => {
            for (abi, p) in l.each() {
                s.push_str(&format!("\n  CUDA {abi} runtime: {}", p.display()));
            }
        }
        Err(e) => s.push_str(&format!("\n  {e}")),
    }
    s
}
