//! `cudart-rs`: runs a program on cudart-rs with its observation modes on, following every
//! process the program starts, and merges their reports (`cudart-rs run`); says which driver,
//! GPUs and runtime library a program would use (`cudart-rs doctor`).

mod doctor;
mod elf;
mod run;
#[allow(dead_code)]
#[path = "../../src/observe/summary.rs"]
mod summary;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

const USAGE: &str = "\
usage: cudart-rs [--version] [--help] <command> [<args>]

Runs CUDA programs on cudart-rs, a drop-in replacement for NVIDIA's CUDA runtime
(libcudart.so), and observes them.

 The commands are:
   run       Run a command on cudart-rs, following every process it starts: call
             trace, one summary of all processes, leak reports, one timeline
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
    match first.to_str() {
        Some("run") => run::main(rest),
        Some("doctor") => doctor::main(rest),
        Some("--version" | "-V" | "version") => {
            println!("{}", version_text());
            ExitCode::SUCCESS
        }
        Some("--help" | "-h" | "help") => {
            match rest.first().and_then(|a| a.to_str()) {
                Some("run") => print!("{}", run::USAGE),
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

/// The runtime libraries this command runs programs on.
pub struct Libs {
    pub dir: PathBuf,
    pub lib13: Option<PathBuf>,
    pub lib12: Option<PathBuf>,
}

impl Libs {
    /// The libraries in `dir` (`--lib`), else in `CUDART_RS_LIBDIR`, else where this command
    /// was installed with them: `../lib/cudart-rs` (scripts/package/install.sh),
    /// `../lib/<triplet>/cudart-rs` (the Debian packages), `../lib` (the build's dist/), or the
    /// folder the build was told (`CUDART_RS_LIBDIR` at build time).
    pub fn find(dir: Option<&Path>) -> Result<Libs, String> {
        let mut tried = Vec::new();
        let mut candidates: Vec<PathBuf> = Vec::new();
        if let Some(d) = dir {
            candidates.push(d.to_path_buf());
        } else {
            if let Some(d) = std::env::var_os("CUDART_RS_LIBDIR").filter(|d| !d.is_empty()) {
                candidates.push(d.into());
            }
            if let Some(bin) = std::env::current_exe()
                .ok()
                .and_then(|e| e.canonicalize().ok())
                .and_then(|e| e.parent().map(Path::to_path_buf))
            {
                let triplet = format!("{}-linux-gnu", std::env::consts::ARCH);
                candidates.push(bin.join("../lib/cudart-rs"));
                candidates.push(bin.join("../lib").join(&triplet).join("cudart-rs"));
                candidates.push(bin.join("../lib64/cudart-rs"));
                candidates.push(bin.join("../lib"));
            }
            if let Some(d) = option_env!("CUDART_RS_LIBDIR") {
                candidates.push(d.into());
            }
        }
        for d in candidates {
            let l13 = d.join("libcudart.so.13");
            let l12 = d.join("libcudart.so.12");
            if l13.exists() || l12.exists() {
                let d = d.canonicalize().unwrap_or(d);
                let abs = |p: PathBuf| p.exists().then(|| d.join(p.file_name().unwrap()));
                return Ok(Libs { lib13: abs(l13), lib12: abs(l12), dir: d });
            }
            tried.push(d.display().to_string());
        }
        Err(format!("no libcudart.so.13 or libcudart.so.12 of cudart-rs found (looked in {}); say where with --lib DIR or CUDART_RS_LIBDIR", tried.join(", ")))
    }

    pub fn each(&self) -> Vec<(u32, &Path)> {
        let mut v = Vec::new();
        if let Some(p) = &self.lib13 {
            v.push((13, p.as_path()));
        }
        if let Some(p) = &self.lib12 {
            v.push((12, p.as_path()));
        }
        v
    }
}
