//! Where the command finds the runtime libraries it runs programs on, and the stand-in driver
//! installed with them: `--lib`, `CUDART_RS_LIBDIR`, or beside the command as each way of
//! installing it lays them out (install.sh, the Debian packages, the wheel, the build's dist/).

use std::path::{Path, PathBuf};

/// The runtime libraries this command runs programs on.
pub struct Libs {
    pub dir: PathBuf,
    pub lib13: Option<PathBuf>,
    pub lib12: Option<PathBuf>,
    /// How `dir` was found (`doctor` says it).
    pub origin: &'static str,
}

impl Libs {
    /// The libraries in `dir` (`--lib`), else in `CUDART_RS_LIBDIR`, else where this command
    /// was installed with them: `../lib/cudart-rs` (scripts/package/install.sh),
    /// `../lib/<triplet>/cudart-rs` (the Debian packages), the Python package `cudart_rs` of
    /// the environment the command's folder belongs to (the wheel), `../lib` (the build's
    /// dist/), or the folder the build was told (`CUDART_RS_LIBDIR` at build time).
    pub fn find(dir: Option<&Path>) -> Result<Libs, String> {
        let mut candidates: Vec<(PathBuf, &'static str)> = Vec::new();
        if let Some(d) = dir {
            candidates.push((d.to_path_buf(), "--lib DIR"));
        } else {
            if let Some(d) = std::env::var_os("CUDART_RS_LIBDIR").filter(|d| !d.is_empty()) {
                candidates.push((d.into(), "CUDART_RS_LIBDIR"));
            }
            if let Some(bin) = std::env::current_exe()
                .ok()
                .and_then(|e| e.canonicalize().ok())
                .and_then(|e| e.parent().map(Path::to_path_buf))
            {
                let triplet = format!("{}-linux-gnu", std::env::consts::ARCH);
                let installed = "installed beside this command (scripts/package/install.sh)";
                candidates.push((bin.join("../lib/cudart-rs"), installed));
                candidates.push((
                    bin.join("../lib").join(&triplet).join("cudart-rs"),
                    "installed beside this command (the Debian packages)",
                ));
                candidates.push((bin.join("../lib64/cudart-rs"), installed));
                let wheel = "the wheel's Python package cudart_rs, in this command's environment";
                candidates.extend(wheel_dirs(&bin).into_iter().map(|d| (d, wheel)));
                candidates.push((bin.join("../lib"), "beside this command (the build's dist/)"));
            }
            if let Some(d) = option_env!("CUDART_RS_LIBDIR") {
                candidates.push((d.into(), "CUDART_RS_LIBDIR when this command was built"));
            }
        }
        let mut tried = Vec::new();
        for (d, origin) in candidates {
            let l13 = d.join("libcudart.so.13");
            let l12 = d.join("libcudart.so.12");
            if l13.exists() || l12.exists() {
                let d = d.canonicalize().unwrap_or(d);
                let abs = |p: PathBuf| p.exists().then(|| d.join(p.file_name().unwrap()));
                return Ok(Libs { lib13: abs(l13), lib12: abs(l12), dir: d, origin });
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

    /// The stand-in driver installed with the libraries (install.sh --standin, the
    /// cudart-rs-standin package, the wheel, dist/), present or not.
    pub fn standin(&self) -> PathBuf {
        self.dir.join("stand-in/libcuda.so.1")
    }

    /// Whether the libraries are the wheel's.
    pub fn from_wheel(&self) -> bool {
        self.origin.starts_with("the wheel")
    }
}

/// Where the wheel's libraries lie for a command in `bin` (the wheel's script): the package
/// `cudart_rs/lib` in the site-packages of the prefix `bin/..` (a virtual environment, conda,
/// `pip install --user`: `lib/python3.X/site-packages`; Debian's Python `dist-packages`;
/// `lib64`), or in `bin/..` itself (`pip install --target`).
fn wheel_dirs(bin: &Path) -> Vec<PathBuf> {
    let prefix = bin.join("..");
    let mut v = Vec::new();
    for lib in ["lib", "lib64"] {
        let Ok(entries) = std::fs::read_dir(prefix.join(lib)) else { continue };
        let mut pythons: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("python3"))
            .map(|e| e.path())
            .collect();
        pythons.sort();
        for py in pythons {
            for packages in ["site-packages", "dist-packages"] {
                v.push(py.join(packages).join("cudart_rs/lib"));
            }
        }
    }
    v.push(prefix.join("cudart_rs/lib"));
    v
}
