//! The headers: cbindgen writes the crate's types and functions (from a copy of the sources with
//! the `passthrough!` tables written out, `header_sources`), which `headers` splits into
//! `driver_types.h`, `texture_types.h`, `surface_types.h` and `cuda_runtime_api.h` and completes
//! with the rest of the host header set; cbindgen also writes `cuda_gl_interop.h`,
//! `cuda_egl_interop.h`, `cuda_vdpau_interop.h` from the files of their graphics API (see
//! `INTEROP_HEADERS`). All are in `$OUT_DIR`, and the generated ones are copied to `include/` when
//! `CUDART_RS_WRITE_HEADER=1`.

use std::path::{Path, PathBuf};
use std::{env, fs};

use crate::build::api::{self, ApiFile};
use crate::build::headers;

/// CUDA 12's header calls these functions by their newer names (NVIDIA's cuda_runtime_api.h
/// `#define`s them); the plain symbols keep the older behaviour for programs built before.
const RENAMES_12: &[(&str, &str)] = &[
    ("cudaGetDeviceProperties", "cudaGetDeviceProperties_v2"),
    ("cudaSignalExternalSemaphoresAsync", "cudaSignalExternalSemaphoresAsync_v2"),
    ("cudaStreamGetCaptureInfo", "cudaStreamGetCaptureInfo_v2"),
    ("cudaWaitExternalSemaphoresAsync", "cudaWaitExternalSemaphoresAsync_v2"),
];

/// The header's names, as NVIDIA's header has them, written from both ABIs' export lists: with
/// `CUDA_API_PER_THREAD_DEFAULT_STREAM` defined (what nvcc's `--default-stream per-thread`
/// does), each function that has a `_ptds`/`_ptsz` export is called by that name; the 12 ABI's
/// renames. Defined before the declarations, so the declarations declare those names.
fn header_names(files: &[ApiFile]) -> String {
    let per_thread = |abi12: bool| -> Vec<(String, String)> {
        let exports = api::exports(files, abi12);
        // A renamed name is its new name, whose per-thread form follows from the line below.
        let renamed: Vec<&str> = if abi12 { RENAMES_12.iter().map(|r| r.0).collect() } else { Vec::new() };
        let mut v: Vec<(String, String)> = exports
            .iter()
            .filter(|e| !e.name.starts_with("__") && !renamed.contains(&e.name.as_str()))
            .flat_map(|e| {
                let n = e.name.clone();
                e.forms
                    .iter()
                    .filter(move |a| **a == format!("{n}_ptds") || **a == format!("{n}_ptsz"))
                    .map(|a| (e.name.clone(), a.clone()))
                    .collect::<Vec<_>>()
            })
            .collect();
        v.sort();
        v
    };
    let (p13, p12) = (per_thread(false), per_thread(true));
    let common: Vec<_> = p13.iter().filter(|p| p12.contains(p)).cloned().collect();
    let lines = |v: &[(String, String)]| v.iter().map(|(a, b)| format!("#define {a} {b}\n")).collect::<String>();
    let only = |v: &[(String, String)]| v.iter().filter(|p| !common.contains(p)).cloned().collect::<Vec<_>>();
    let mut s = String::from(
        "\n/* As NVIDIA's header: with CUDA_API_PER_THREAD_DEFAULT_STREAM defined (nvcc's\n \
         * --default-stream per-thread), the calls that take the default stream are their\n \
         * per-thread default stream forms. Written from the export list. */\n\
         #if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)\n",
    );
    s += &lines(&common);
    s += "#if defined(CUDART_RS_ABI12)\n";
    s += &lines(&only(&p12));
    s += "#else\n";
    s += &lines(&only(&p13));
    s += "#endif\n#endif\n\n/* CUDA 12's header calls these by their newer names. */\n#if defined(CUDART_RS_ABI12)\n";
    s += &RENAMES_12.iter().map(|(a, b)| format!("#define {a} {b}\n")).collect::<String>();
    s += "#endif\n";
    s
}

pub fn write(root: &Path, out: &Path, files: &[ApiFile]) {
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=build/headers.rs");
    println!("cargo:rerun-if-env-changed=CUDART_RS_WRITE_HEADER");
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    let src = header_sources(root, out);
    let generated = cbindgen::Builder::new()
        .with_src(src.join("lib.rs"))
        .with_config(config)
        .generate()
        .expect("cbindgen could not generate the header");
    let mut text = Vec::new();
    generated.write(&mut text);
    let text = String::from_utf8(text).unwrap();
    let include = root.join("include");
    headers::write_all(&text, &header_names(files), &include, out);
    let mut written: Vec<String> = headers::GENERATED.iter().map(|s| s.to_string()).collect();
    written.extend(headers::DEVICE_ONLY.iter().map(|(n, _)| n.to_string()));
    for h in INTEROP_HEADERS {
        interop_header(root, &src, out, h);
        written.push(h.name.to_string());
    }
    // The list scripts/dev/gen-header.sh reads: what is generated, what is written by hand.
    let mut manifest = String::new();
    for h in &written {
        manifest += &format!("generated {h}\n");
    }
    for h in headers::WRITTEN {
        manifest += &format!("written {h}\n");
    }
    fs::write(out.join("headers.txt"), manifest).unwrap();
    if env::var_os("CUDART_RS_WRITE_HEADER").is_some_and(|v| v == "1") {
        for h in written {
            fs::copy(out.join(&h), include.join(&h)).unwrap();
        }
    }
}

/// A file with its `passthrough!` tables written out as the functions they stand for, in
/// their place (so the header declares them where they are in the file).
fn expand_tables(text: &str, path: &Path) -> String {
    let mut file = syn::parse_file(text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let items = std::mem::take(&mut file.items);
    for item in items {
        match &item {
            syn::Item::Macro(m) => match api::table_rows(m, path) {
                Some(rows) => file.items.extend(rows.into_iter().map(syn::Item::Fn)),
                None => file.items.push(item),
            },
            _ => file.items.push(item),
        }
    }
    quote::ToTokens::to_token_stream(&file).to_string()
}

/// The crate's sources as cbindgen reads them: `src/` copied to `$OUT_DIR/cbindgen/src`, the
/// `passthrough!` tables written out (cbindgen does not expand macros).
fn header_sources(root: &Path, out: &Path) -> PathBuf {
    fn copy(from: &Path, to: &Path) {
        fs::create_dir_all(to).unwrap();
        for e in fs::read_dir(from).unwrap() {
            let p = e.unwrap().path();
            let dest = to.join(p.file_name().unwrap());
            if p.is_dir() {
                copy(&p, &dest);
            } else if p.extension().is_some_and(|e| e == "rs") {
                let text = fs::read_to_string(&p).unwrap();
                let text = if text.contains("passthrough!") { expand_tables(&text, &p) } else { text };
                fs::write(&dest, text).unwrap();
            }
        }
    }
    let dir = out.join("cbindgen/src");
    let _ = fs::remove_dir_all(&dir);
    copy(&root.join("src"), &dir);
    dir
}

/// A header of its own for one graphics API's exports, as NVIDIA declares them: the OpenGL, EGL
/// and VDPAU declarations need that API's types, which come from its system headers (and which
/// NVIDIA's `cuda_gl_interop.h` and the others include), so `cuda_runtime_api.h` stays free of
/// them and builds everywhere. Each is generated by cbindgen from its files alone (the modules
/// are `cbindgen:ignore` in the crate's run); the runtime's types they use come from
/// `cuda_runtime_api.h`, which each includes first.
struct InteropHeader {
    name: &'static str,
    guard: &'static str,
    what: &'static str,
    /// Source files, relative to the crate root.
    srcs: &'static [&'static str],
    /// The system headers NVIDIA's includes, as it includes them.
    includes: &'static str,
    /// Types no export uses (cbindgen emits only what the exports reach).
    extra_types: &'static [&'static str],
}

const INTEROP_HEADERS: &[InteropHeader] = &[
    InteropHeader {
        name: "cuda_gl_interop.h",
        guard: "CUDART_RS_CUDA_GL_INTEROP_H",
        what: "OpenGL interoperability, as NVIDIA's cuda_gl_interop.h declares it",
        srcs: &["src/types/gl.rs", "src/api/gl.rs"],
        includes: "#include \"cuda_runtime_api.h\"\n\
            #if defined(__APPLE__)\n\
            #include <OpenGL/gl.h>\n\
            #elif defined(__arm__) || defined(__aarch64__)\n\
            #ifndef GL_VERSION\n\
            #error Please include the appropriate gl headers before including cuda_gl_interop.h\n\
            #endif\n\
            #else\n\
            #include <GL/gl.h>\n\
            #endif\n",
        extra_types: &["cudaGLMapFlags"],
    },
    InteropHeader {
        name: "cuda_egl_interop.h",
        guard: "CUDART_RS_CUDA_EGL_INTEROP_H",
        what: "EGL interoperability, as NVIDIA's cuda_egl_interop.h declares it",
        srcs: &["src/types/egl.rs", "src/api/egl.rs"],
        includes: "#include \"cuda_runtime_api.h\"\n#include <EGL/egl.h>\n#include <EGL/eglext.h>\n",
        extra_types: &["cudaEglResourceLocationFlags", "cudaEglFrameType", "cudaEglColorFormat", "cudaEglPlaneDesc"],
    },
    InteropHeader {
        name: "cuda_vdpau_interop.h",
        guard: "CUDART_RS_CUDA_VDPAU_INTEROP_H",
        what: "VDPAU interoperability, as NVIDIA's cuda_vdpau_interop.h declares it",
        srcs: &["src/api/vdpau.rs"],
        includes: "#include \"cuda_runtime_api.h\"\n#include <vdpau/vdpau.h>\n",
        extra_types: &[],
    },
];

fn interop_header(root: &Path, src: &Path, out: &Path, h: &InteropHeader) {
    let mut config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    config.header = Some(format!(
        "/*\n * cudart-rs: {}.\n \
         * Generated by cbindgen from the Rust sources; do not edit (scripts/dev/gen-header.sh).\n */",
        h.what
    ));
    config.include_guard = Some(h.guard.to_string());
    config.sys_includes = Vec::new();
    config.includes = Vec::new();
    config.after_includes = Some(h.includes.to_string());
    config.trailer = None;
    config.export.include = h.extra_types.iter().map(|s| s.to_string()).collect();
    let mut b = cbindgen::Builder::new().with_config(config);
    for s in h.srcs {
        b = b.with_src(src.join(s.strip_prefix("src/").unwrap()));
    }
    let generated = b.generate().unwrap_or_else(|e| panic!("cbindgen could not generate {}: {e}", h.name));
    generated.write_to_file(out.join(h.name));
}
