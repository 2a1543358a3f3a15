//! `cudart-rs doctor`: the runtime libraries, the driver and the GPUs, and for each program
//! named, which `libcudart` it loads on its own and under `cudart-rs run`.

use std::ffi::{c_char, c_int, c_uint, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use crate::elf;
use crate::Libs;

pub const USAGE: &str = "\
usage: cudart-rs doctor [--lib DIR] [<program>...]

Shows the cudart-rs runtime libraries and where they came from, the CUDA driver
the runtime loads (and its version; where there is none, the stand-in driver),
the GPUs it sees, and for each <program> (an executable or a shared library; a
name is looked up in PATH) which libcudart it loads on its own and under
`cudart-rs run` (whose preload wins over the program's RPATH). Where Python finds
PyTorch, the same for PyTorch's libtorch_cuda.so (with the command from a wheel,
the Python of its environment).

Options:
      --lib DIR    the runtime libraries in DIR (default: those installed with
                   this command)
  -h, --help       This help
";

pub fn main(args: Vec<OsString>) -> ExitCode {
    use lexopt::prelude::*;
    let mut lib = None;
    let mut programs: Vec<PathBuf> = Vec::new();
    let mut p = lexopt::Parser::from_args(args);
    loop {
        match p.next() {
            Ok(Some(Long("lib"))) => match p.value() {
                Ok(v) => lib = Some(PathBuf::from(v)),
                Err(e) => return usage_error(e),
            },
            Ok(Some(Short('h') | Long("help"))) => {
                print!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            Ok(Some(Value(v))) => programs.push(v.into()),
            Ok(Some(a)) => return usage_error(a.unexpected()),
            Ok(None) => break,
            Err(e) => return usage_error(e),
        }
    }
    println!("cudart-rs {}", crate::VERSION);
    let libs = Libs::find(lib.as_deref());
    println!("\nruntime libraries:");
    match &libs {
        Ok(l) => {
            for (abi, path) in l.each() {
                println!("  {}  CUDA {abi} ABI, {}", path.display(), runtime_version(path));
            }
            println!("  from: {}", l.origin);
        }
        Err(e) => println!("  {e}"),
    }
    driver(libs.as_ref().ok());
    let mut missing = false;
    for prog in &programs {
        missing |= !program(prog, libs.as_ref().ok());
    }
    pytorch(libs.as_ref().ok());
    if missing {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn usage_error(e: impl std::fmt::Display) -> ExitCode {
    eprintln!("cudart-rs doctor: {e}");
    ExitCode::from(2)
}

/// `cudaRuntimeGetVersion` of the library at `path` (loaded here, apart from the process's
/// own symbols).
fn runtime_version(path: &Path) -> String {
    type GetVersion = unsafe extern "C" fn(*mut c_int) -> c_int;
    // SAFETY: loading the runtime library runs its initialisers, which need no driver.
    let Ok(lib) = (unsafe { libloading::Library::new(path) }) else { return "cannot be loaded".into() };
    // SAFETY: the runtime's documented signature.
    let Ok(f) = (unsafe { lib.get::<GetVersion>(b"cudaRuntimeGetVersion\0") }) else {
        return "no cudaRuntimeGetVersion".into();
    };
    let mut v = 0;
    // SAFETY: valid out pointer.
    match unsafe { f(&mut v) } {
        0 => format!("reports CUDA {}.{} ({v})", v / 1000, v % 1000 / 10),
        e => format!("cudaRuntimeGetVersion failed ({e})"),
    }
}

fn driver(libs: Option<&Libs>) {
    type Init = unsafe extern "C" fn(c_uint) -> c_int;
    type GetInt = unsafe extern "C" fn(*mut c_int) -> c_int;
    type DeviceGet = unsafe extern "C" fn(*mut c_int, c_int) -> c_int;
    type GetName = unsafe extern "C" fn(*mut c_char, c_int, c_int) -> c_int;
    type TotalMem = unsafe extern "C" fn(*mut usize, c_int) -> c_int;
    type GetAttr = unsafe extern "C" fn(*mut c_int, c_int, c_int) -> c_int;
    let (name, how) = match std::env::var_os("CUDART_RS_DRIVER").filter(|v| !v.is_empty()) {
        Some(v) => (v, " (CUDART_RS_DRIVER)"),
        None => ("libcuda.so.1".into(), ""),
    };
    println!("\ndriver:");
    // SAFETY: loading the driver runs its initialisers, which is what it is for.
    let lib = match unsafe { libloading::Library::new(&name) } {
        Ok(l) => l,
        Err(e) => {
            println!("  {} cannot be loaded{how}: {e}", name.to_string_lossy());
            println!("  (no NVIDIA driver here: every runtime call answers cudaErrorInsufficientDriver)");
            standin(libs);
            return;
        }
    };
    // SAFETY: the driver API's documented signatures.
    unsafe {
        let (Ok(init), Ok(version)) = (lib.get::<Init>(b"cuInit\0"), lib.get::<GetInt>(b"cuDriverGetVersion\0")) else {
            println!("  {} is not a CUDA driver (no cuInit, cuDriverGetVersion)", name.to_string_lossy());
            return;
        };
        let file = loaded_from(*init as *const () as usize).unwrap_or_else(|| name.to_string_lossy().into_owned());
        let mut v = 0;
        version(&mut v);
        let module = std::fs::read_to_string("/sys/module/nvidia/version")
            .map(|s| format!(", kernel module {}", s.trim()))
            .unwrap_or_default();
        println!("  {file}{how}: CUDA {}.{} ({v}){module}", v / 1000, v % 1000 / 10);
        let r = init(0);
        if r != 0 {
            println!("  cuInit failed: {r}");
            return;
        }
        let (Ok(count), Ok(get), Ok(gname), Ok(attr)) = (
            lib.get::<GetInt>(b"cuDeviceGetCount\0"),
            lib.get::<DeviceGet>(b"cuDeviceGet\0"),
            lib.get::<GetName>(b"cuDeviceGetName\0"),
            lib.get::<GetAttr>(b"cuDeviceGetAttribute\0"),
        ) else {
            println!("  (it lacks the device queries)");
            return;
        };
        let mem = lib.get::<TotalMem>(b"cuDeviceTotalMem_v2\0").ok();
        let mut n = 0;
        count(&mut n);
        println!("\nGPUs: {n}");
        for i in 0..n {
            let mut d = 0;
            get(&mut d, i);
            let mut buf = [0 as c_char; 256];
            gname(buf.as_mut_ptr(), 255, d);
            let mut bytes = 0usize;
            let gib = match &mem {
                Some(m) if m(&mut bytes, d) == 0 => format!(", {:.1} GiB", bytes as f64 / (1u64 << 30) as f64),
                _ => String::new(),
            };
            let (mut major, mut minor) = (0, 0);
            attr(&mut major, 75, d);
            attr(&mut minor, 76, d);
            let nm = std::ffi::CStr::from_ptr(buf.as_ptr()).to_string_lossy();
            println!("  {i}: {nm}, compute capability {major}.{minor}{gib}");
        }
    }
}

/// Where there is no driver: the stand-in, which runs programs without a GPU.
fn standin(libs: Option<&Libs>) {
    let Some(libs) = libs else { return };
    let s = libs.standin();
    if s.is_file() {
        println!("  the stand-in driver (device memory in host memory, no kernels) runs programs without a GPU:");
        println!("    cudart-rs run --standin -- PROGRAM      ({})", s.display());
    } else {
        println!("  no stand-in driver with these libraries ({} is missing): scripts/package/install.sh --standin, the cudart-rs-standin package and the wheel install one, to run programs without a GPU", s.display());
    }
}

/// The file the code at `addr` was loaded from.
fn loaded_from(addr: usize) -> Option<String> {
    // SAFETY: dladdr fills the struct; the name is a C string of the loaded object.
    unsafe {
        let mut info: libc::Dl_info = std::mem::zeroed();
        if libc::dladdr(addr as *const libc::c_void, &mut info) == 0 || info.dli_fname.is_null() {
            return None;
        }
        let f = std::ffi::CStr::from_ptr(info.dli_fname).to_string_lossy().into_owned();
        Some(std::fs::canonicalize(&f).map(|p| p.display().to_string()).unwrap_or(f))
    }
}

/// A program named without a slash, looked up in PATH.
fn locate(p: &Path) -> Option<PathBuf> {
    if p.components().count() > 1 || p.exists() {
        return Some(p.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(p)).find(|c| c.is_file())
}

/// `ld.so --list FILE` (with `LD_PRELOAD` as given): the libcudart it resolves, by SONAME.
fn resolved(interp: &str, file: &Path, preload: Option<&str>) -> Vec<(String, String)> {
    let mut c = Command::new(interp);
    c.arg("--list").arg(file).env_remove("LD_PRELOAD");
    if let Some(p) = preload {
        c.env("LD_PRELOAD", p);
    }
    let Ok(out) = c.output() else { return Vec::new() };
    let mut v = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let line = line.trim();
        let path_of = |s: &str| s.rsplit_once(" (0x").map_or(s, |(p, _)| p).trim().to_string();
        if let Some((name, rest)) = line.split_once(" => ") {
            if name.starts_with("libcudart.so") {
                v.push((name.to_string(), path_of(rest)));
            }
        } else if line.starts_with('/') {
            let p = path_of(line);
            if let Some(name) = Path::new(&p).file_name().map(|n| n.to_string_lossy().into_owned()) {
                if name.starts_with("libcudart.so") {
                    v.push((format!("{name} (preloaded)"), p));
                }
            }
        }
    }
    v
}

/// What `prog` loads; false when there is no such program (said on stderr).
fn program(prog: &Path, libs: Option<&Libs>) -> bool {
    println!();
    let found = locate(prog).map(|p| (std::fs::read(&p), p));
    let (bytes, path) = match found {
        Some((Ok(b), p)) => (b, p),
        Some((Err(e), p)) => {
            eprintln!("cudart-rs doctor: {}: {e}", figures::text::shown(&p));
            return false;
        }
        None => {
            eprintln!(
                "cudart-rs doctor: {}: not found (no such file, nor a program in PATH)",
                figures::text::shown(prog)
            );
            return false;
        }
    };
    let Some(e) = elf::read(&path) else {
        let first = bytes.split(|&c| c == b'\n').next().map(|l| String::from_utf8_lossy(l).into_owned());
        match first.filter(|l| l.starts_with("#!")) {
            Some(l) => println!("{}: a script ({}): its interpreter loads the runtime, if anything does; name the library that needs libcudart (for PyTorch see below)", path.display(), l.trim_start_matches("#!").trim()),
            None => println!("{}: not an ELF file", path.display()),
        }
        return true;
    };
    analyse(&path.display().to_string(), &path, &e, libs);
    true
}

fn analyse(label: &str, path: &Path, e: &elf::Elf, libs: Option<&Libs>) {
    let needs: Vec<&String> = e.needed.iter().filter(|n| n.starts_with("libcudart")).collect();
    if needs.is_empty() {
        let statically = e.needed.iter().all(|n| !n.starts_with("libcudart")) && has_static_runtime(path);
        if statically {
            println!("{label}: carries NVIDIA's runtime inside it (linked with cudart_static): it never loads libcudart.so, so neither ours nor NVIDIA's shared runtime is used. Rebuild it with the shared runtime (nvcc -cudart shared, CMake's CUDA::cudart).");
        } else {
            println!("{label}: needs no libcudart (it may load one with dlopen, or through a library it loads)");
        }
        return;
    }
    let needs_s: Vec<&str> = needs.iter().map(|s| s.as_str()).collect();
    println!("{label}: needs {}", needs_s.join(", "));
    if let Some(r) = &e.rpath {
        println!("  RPATH {r} (searched before LD_LIBRARY_PATH: only LD_PRELOAD goes before it)");
    }
    if let Some(r) = &e.runpath {
        println!("  RUNPATH {r} (searched after LD_LIBRARY_PATH)");
    }
    let interp = e
        .interp
        .clone()
        .or_else(|| elf::read(Path::new("/proc/self/exe")).and_then(|s| s.interp))
        .unwrap_or_else(|| "/lib64/ld-linux-x86-64.so.2".into());
    let own = resolved(&interp, path, None);
    for n in &needs {
        let got = match own.iter().find(|(k, _)| k == *n) {
            Some((_, p)) => tidy(p),
            None => "not found".to_string(),
        };
        let got = got.as_str();
        let whose = if libs.is_some_and(|l| {
            l.each()
                .iter()
                .any(|(_, p)| Path::new(got).canonicalize().ok().as_deref() == p.canonicalize().ok().as_deref())
        }) {
            " (cudart-rs)"
        } else {
            ""
        };
        let whose = if whose.is_empty() && got.contains("-packages/nvidia/") {
            " (NVIDIA's, from its wheel nvidia-cuda-runtime)"
        } else {
            whose
        };
        println!("  on its own:          {n} => {got}{whose}");
    }
    let Some(libs) = libs else { return };
    let pre: Vec<String> = libs.each().iter().map(|(_, p)| p.display().to_string()).collect();
    let under = resolved(&interp, path, Some(&pre.join(":")));
    for n in &needs {
        match under.iter().find(|(k, _)| k == *n) {
            // Still resolved on its own: not the preloaded one (another SONAME).
            Some((_, p)) => println!("  under cudart-rs run: {n} => {p} (the preload does not replace it)"),
            None => match under.iter().find(|(k, _)| k.starts_with(n.as_str())) {
                Some((_, p)) => println!("  under cudart-rs run: {n} => {p} (cudart-rs: the preload wins)"),
                None => println!("  under cudart-rs run: {n} => no cudart-rs library of that version"),
            },
        }
    }
}

/// A path the loader gave, its folder without the `..` of a RUNPATH's `$ORIGIN/../..` (as
/// PyTorch's wheels have); the file's own name kept.
fn tidy(p: &str) -> String {
    let p = Path::new(p);
    match (p.parent().and_then(|d| std::fs::canonicalize(d).ok()), p.file_name()) {
        (Some(d), Some(f)) => d.join(f).display().to_string(),
        _ => p.display().to_string(),
    }
}

/// Whether the file defines the runtime's functions itself (NVIDIA's static runtime).
fn has_static_runtime(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|b| {
        b.windows(b"cudaGetDeviceCount".len()).any(|w| w == b"cudaGetDeviceCount")
            && b.windows(b"libcuda.so.1".len()).any(|w| w == b"libcuda.so.1")
    })
}

/// PyTorch, where `python3` finds it (located without importing it): with the command from a
/// wheel, the Python of its environment.
fn pytorch(libs: Option<&Libs>) {
    let beside = std::env::current_exe().ok().and_then(|e| e.parent().map(|b| b.join("python3")));
    let python = match beside.filter(|p| libs.is_some_and(Libs::from_wheel) && p.is_file()) {
        Some(p) => p,
        None => PathBuf::from("python3"),
    };
    let Ok(out) = Command::new(&python)
        .args(["-c", "import importlib.util as u; s = u.find_spec('torch'); print(s.submodule_search_locations[0] if s and s.submodule_search_locations else '')"])
        .output()
    else {
        return;
    };
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if dir.is_empty() {
        return;
    }
    let lib = Path::new(&dir).join("lib/libtorch_cuda.so");
    println!();
    match elf::read(&lib) {
        Some(e) => analyse(&format!("PyTorch ({})", lib.display()), &lib, &e, libs),
        None => println!("PyTorch ({dir}): no lib/libtorch_cuda.so (a CPU-only build)"),
    }
}
