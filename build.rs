//! Build script: one list of exports (the `#[export(...)]` functions under `src/api` and the
//! rows of its `passthrough!` tables, read with syn) drives
//! - the `_ptds`/`_ptsz` exports their `per_thread` declares,
//! - the ELF symbol version of every export (`.symver f, f@@libcudart.so.N`),
//! - the export list the symbol checks read (`$OUT_DIR/exports.txt`),
//! - the observation shims (`src/observe`): for every export a shim with the export's
//!   signature that the library's exported symbol is bound to, and a table of every
//!   export's name, family and parameters (see `observe()` below),
//! - the names of the runtime's enums (`$OUT_DIR/enum_names.rs`), from `src/types`.
//!
//! The headers: cbindgen writes the crate's types and functions (from a copy of the sources with
//! the tables written out, `header_sources`), which `build/headers.rs`
//! splits into `driver_types.h`, `texture_types.h`, `surface_types.h` and
//! `cuda_runtime_api.h` and completes with the rest of the host header set; cbindgen also
//! writes `cuda_gl_interop.h`, `cuda_egl_interop.h`, `cuda_vdpau_interop.h` from the files of
//! their graphics API (see `INTEROP_HEADERS`). All are in `$OUT_DIR`, and the generated ones
//! are copied to `include/` when `CUDART_RS_WRITE_HEADER=1`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

#[path = "build/headers.rs"]
mod headers;

use cudart_rs_decl as decl;

/// One export, as its declaration (`#[export(...)]`, see macros/decl/) and signature
/// give it.
struct Export {
    name: String,
    /// Its per-thread-default-stream form (`NAME_ptds`/`NAME_ptsz`), if it has one.
    also: Vec<String>,
    /// (name, type) of each parameter, the type as Rust source writes it.
    params: Vec<(String, String)>,
    ret: String,
    /// The file of `src/api` it is in.
    module: String,
    /// Its observation family (`crate::observe::Family`).
    family: String,
    /// What it means to the observer, as a `crate::observe::sem::Op` expression.
    sem: Option<String>,
    /// How the tools see it.
    cupti: decl::Cupti,
}

fn main() {
    let abi12 = env::var_os("CARGO_FEATURE_ABI12").is_some();
    let major = if abi12 { 12 } else { 13 };
    let node = format!("libcudart.so.{major}");
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());

    // The SONAME and the version node; every export is bound to the node by .symver.
    let map = out.join("libcudart.map");
    fs::write(&map, format!("{node} {{ }};\n")).unwrap();
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{node}");
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={}", map.display());

    let files = api_files(&root.join("src/api"));
    // The names the declarations may use are the observer's enums'.
    let vocabulary = decl::Vocabulary::read(&root.join("src/observe")).unwrap_or_else(|e| panic!("{e}"));
    check_declarations(&files, &vocabulary);
    let exports = exports_of(&files, abi12, &vocabulary);

    tools_declarations(&exports);
    let cbids = callback_ids(&root, major);
    let mut rs = String::new();
    rs.push_str("#[allow(unused_imports, non_snake_case, clippy::missing_safety_doc, clippy::unnecessary_cast)]\nmod generated_exports {\n");
    rs.push_str("    use std::ffi::*;\n    use crate::types::*;\n\n");
    let mut names: Vec<String> = Vec::new();
    for e in &exports {
        names.push(e.name.clone());
        names.extend(e.also.iter().cloned());
    }
    names.sort();
    let dup = names.windows(2).find(|w| w[0] == w[1]);
    assert!(dup.is_none(), "export defined twice: {dup:?}");
    let index = |n: &str| names.binary_search_by(|x| x.as_str().cmp(n)).unwrap();
    for e in &exports {
        for a in &e.also {
            // The per-thread-default-stream export calls the function's own code (not its
            // exported symbol, which is the shim) with the per-thread stream as the null stream.
            let args = e.args();
            let call = format!(
                "crate::runtime::rt::per_thread_stream(|| super::generated_shims::{}::{IMPL}{}({args}))",
                e.module, e.name
            );
            writeln!(
                rs,
                "    #[no_mangle]\n    pub unsafe extern \"C\" fn {a}({}) -> {} {{\n        \
                 if !crate::observe::tools::slow({}) {{\n            \
                 return {call};\n        }}\n{}    }}\n",
                e.sig(),
                e.ret,
                cbid(&cbids, a),
                slow_path(a, e, &exports, index(a), &cbids, &call),
            )
            .unwrap();
        }
    }
    rs.push_str("}\n\n");
    observe(&mut rs, &exports, &names, &out, &cbids);
    rs.push_str("#[cfg(not(test))]\ncore::arch::global_asm!(\n");
    for n in &names {
        writeln!(rs, "    \".symver {n}, {n}@@{node}\",").unwrap();
    }
    rs.push_str(");\n\n/// Every symbol this build exports, sorted.\npub const EXPORTS: &[&str] = &[\n");
    for n in &names {
        writeln!(rs, "    \"{n}\",").unwrap();
    }
    rs.push_str("];\n");
    fs::write(out.join("exports.rs"), rs).unwrap();
    fs::write(out.join("exports.txt"), names.join("\n") + "\n").unwrap();
    enum_names(&root, &out);

    header(&root, &out, &files, &vocabulary);
}

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
fn header_names(files: &[ApiFile], vocabulary: &decl::Vocabulary) -> String {
    let per_thread = |abi12: bool| -> Vec<(String, String)> {
        let exports = exports_of(files, abi12, vocabulary);
        // A renamed name is its new name, whose per-thread form follows from the line below.
        let renamed: Vec<&str> = if abi12 { RENAMES_12.iter().map(|r| r.0).collect() } else { Vec::new() };
        let mut v: Vec<(String, String)> = exports
            .iter()
            .filter(|e| !e.name.starts_with("__") && !renamed.contains(&e.name.as_str()))
            .flat_map(|e| {
                let n = e.name.clone();
                e.also
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

/// A file of `src/api`, read once: its functions, each row of its `passthrough!` tables as the
/// function it stands for.
struct ApiFile {
    path: PathBuf,
    module: String,
    fns: Vec<syn::ItemFn>,
}

/// The files of `src/api`, in name order.
fn api_files(api: &Path) -> Vec<ApiFile> {
    println!("cargo:rerun-if-changed={}", api.display());
    let mut paths: Vec<_> = fs::read_dir(api)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            println!("cargo:rerun-if-changed={}", path.display());
            let text = fs::read_to_string(&path).unwrap();
            let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let mut fns = Vec::new();
            for item in file.items {
                match item {
                    syn::Item::Fn(f) => fns.push(f),
                    syn::Item::Macro(m) => fns.extend(table_rows(&m, &path).unwrap_or_default()),
                    _ => {}
                }
            }
            let module = path.file_stem().unwrap().to_str().unwrap().to_string();
            ApiFile { path, module, fns }
        })
        .collect()
}

/// The functions a `passthrough!` table stands for; None for any other macro.
fn table_rows(m: &syn::ItemMacro, path: &Path) -> Option<Vec<syn::ItemFn>> {
    if !m.mac.path.is_ident("passthrough") {
        return None;
    }
    let t: decl::Table = m.mac.parse_body().unwrap_or_else(|e| panic!("{}: passthrough!: {e}", path.display()));
    Some(t.rows.iter().map(decl::Row::item).collect())
}

/// The exports of `src/api`: its `#[export(...)]` functions (the attribute read with the
/// parser the attribute itself uses), those whose `#[cfg]` holds for the ABI.
fn exports_of(files: &[ApiFile], abi12: bool, vocabulary: &decl::Vocabulary) -> Vec<Export> {
    let mut exports = Vec::new();
    for file in files {
        let path = &file.path;
        for f in &file.fns {
            let Some(attr) = f.attrs.iter().find(|a| a.path().is_ident("export")) else {
                assert!(
                    !f.attrs.iter().any(|a| a.path().is_ident("no_mangle")),
                    "{}: {} is #[no_mangle] without #[export(...)]",
                    path.display(),
                    f.sig.ident
                );
                continue;
            };
            if !f.attrs.iter().filter(|a| a.path().is_ident("cfg")).all(|a| cfg_holds(&a.parse_args().unwrap(), abi12))
            {
                continue;
            }
            let d: decl::Decl =
                attr.parse_args().unwrap_or_else(|e| panic!("{}: {}: {e}", path.display(), f.sig.ident));
            let name = f.sig.ident.to_string();
            let params = f
                .sig
                .inputs
                .iter()
                .map(|a| match a {
                    syn::FnArg::Typed(t) => (quote::ToTokens::to_token_stream(&*t.pat).to_string(), ty(&t.ty)),
                    syn::FnArg::Receiver(_) => panic!("{name}: a method"),
                })
                .collect();
            let ret = match &f.sig.output {
                syn::ReturnType::Default => "()".to_string(),
                syn::ReturnType::Type(_, t) => ty(t),
            };
            let also = d.per_thread.iter().map(|p| format!("{name}_{p}")).collect();
            exports.push(Export {
                name,
                also,
                params,
                ret,
                module: file.module.clone(),
                family: d.family.to_string(),
                sem: d.sem.as_ref().map(|s| s.tokens(vocabulary).to_string()),
                cupti: d.cupti,
            });
        }
    }
    exports
}

/// Checks every declaration of `src/api`, of either ABI, against the observer's names and its
/// function's parameters.
fn check_declarations(files: &[ApiFile], vocabulary: &decl::Vocabulary) {
    for file in files {
        for f in &file.fns {
            let Some(attr) = f.attrs.iter().find(|a| a.path().is_ident("export")) else { continue };
            let name = &f.sig.ident;
            let params: Vec<String> = f
                .sig
                .inputs
                .iter()
                .filter_map(|a| match a {
                    syn::FnArg::Typed(t) => Some(quote::ToTokens::to_token_stream(&*t.pat).to_string()),
                    syn::FnArg::Receiver(_) => None,
                })
                .collect();
            let at = |e: &syn::Error| format!("{}:{}: {name}: {e}", file.path.display(), e.span().start().line);
            let d: decl::Decl = attr.parse_args().unwrap_or_else(|e| panic!("{}", at(&e)));
            if let Err(e) = d.check(vocabulary, &params) {
                panic!("{}", at(&e));
            }
        }
    }
}

/// Whether a `#[cfg(...)]` predicate holds in this build (the ABI feature; `test` does not).
fn cfg_holds(m: &syn::Meta, abi12: bool) -> bool {
    let list = |l: &syn::MetaList| -> Vec<syn::Meta> {
        l.parse_args_with(syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
            .unwrap()
            .into_iter()
            .collect()
    };
    match m {
        syn::Meta::NameValue(nv) if nv.path.is_ident("feature") => {
            matches!(&nv.value, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) if s.value() == "abi12")
                && abi12
        }
        syn::Meta::List(l) if l.path.is_ident("not") => !list(l).iter().all(|x| cfg_holds(x, abi12)),
        syn::Meta::List(l) if l.path.is_ident("all") => list(l).iter().all(|x| cfg_holds(x, abi12)),
        syn::Meta::List(l) if l.path.is_ident("any") => list(l).iter().any(|x| cfg_holds(x, abi12)),
        _ => false,
    }
}

/// A type as Rust source writes it (`*mut *mut c_void`, `raw::cudaMemcpyKind`), the form the
/// generated code and the observer's decoding match on.
fn ty(t: &syn::Type) -> String {
    match t {
        syn::Type::Ptr(p) => format!("*{} {}", if p.mutability.is_some() { "mut" } else { "const" }, ty(&p.elem)),
        syn::Type::Path(p) if p.qself.is_none() => {
            let mut s = if p.path.leading_colon.is_some() { "::".to_string() } else { String::new() };
            let segs: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|seg| match &seg.arguments {
                    syn::PathArguments::None => seg.ident.to_string(),
                    syn::PathArguments::AngleBracketed(a) => {
                        let args: Vec<String> = a
                            .args
                            .iter()
                            .map(|g| match g {
                                syn::GenericArgument::Type(t) => ty(t),
                                other => quote::ToTokens::to_token_stream(other).to_string(),
                            })
                            .collect();
                        format!("{}<{}>", seg.ident, args.join(", "))
                    }
                    other => format!("{}{}", seg.ident, quote::ToTokens::to_token_stream(other)),
                })
                .collect();
            s.push_str(&segs.join("::"));
            s
        }
        syn::Type::Array(a) => format!("[{}; {}]", ty(&a.elem), quote::ToTokens::to_token_stream(&a.len)),
        syn::Type::Tuple(t) if t.elems.is_empty() => "()".to_string(),
        other => quote::ToTokens::to_token_stream(other).to_string(),
    }
}

impl Export {
    /// The parameters as a signature writes them: `a: T, b: U`.
    fn sig(&self) -> String {
        self.params.iter().map(|(n, t)| format!("{n}: {t}")).collect::<Vec<_>>().join(", ")
    }
    /// The arguments of a call passing them on: `a, b`.
    fn args(&self) -> String {
        self.params.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
    }
}

/// What follows the declarations in cuda_runtime_api.h: the 12 ABI's names of the newer forms
/// (after the declarations, so that the plain names are declared as the library exports them).
const AFTER_DECLS: &str = r#"#if defined(CUDART_RS_ABI12) && !defined(cudaStreamGetCaptureInfo)
/* CUDA 12's cudaStreamGetCaptureInfo is the CUDA 11.3 form, as NVIDIA's header names it (the
 * library's symbol of that name is the CUDA 10.1 form, which no header declares). */
#define cudaStreamGetCaptureInfo cudaStreamGetCaptureInfo_v2
#endif

#if defined(CUDART_RS_ABI12) && !defined(cudaSignalExternalSemaphoresAsync)
/* CUDA 12's external semaphore signal and wait take the CUDA 11.2 parameters, as NVIDIA's header
 * names them (the library's symbols of these names take the CUDA 11.1 ones, which no header
 * declares). */
#define cudaSignalExternalSemaphoresAsync cudaSignalExternalSemaphoresAsync_v2
#define cudaWaitExternalSemaphoresAsync cudaWaitExternalSemaphoresAsync_v2
#endif
"#;

fn header(root: &Path, out: &Path, files: &[ApiFile], vocabulary: &decl::Vocabulary) {
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
    headers::write_all(&text, &header_names(files, vocabulary), AFTER_DECLS, &include, out);
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
            syn::Item::Macro(m) => match table_rows(m, path) {
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
        "/*\n * cudart-rs: {}.\n * Generated by cbindgen from the Rust sources; do not edit (scripts/dev/gen-header.sh).\n */",
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

// ---- observation ------------------------------------------------------------------------
//
// Every export gets a shim with its signature (`generated_shims::<module>::shim_<name>`),
// and the library's exported symbol is the shim: the linker script `observe-shims.ld`
// assigns `<name> = cudart_rs_shim_<name>`, and an assignment overrides the object's own
// definition. The shim reaches the export's own code through an assembler-local alias,
// `cudart_rs_impl_<name>`, set to the function's address in the same object (so the
// symbol's new value cannot reach it). With observation off (the flag read once at load,
// `crate::observe::on()`) the shim tail-calls that code: one load, one predictable branch
// and a jump. With it on, the shim hands its arguments, decoded by type (`arg_exprs`), the
// export's index in `EXPORTS` and a closure that makes the call to `crate::observe::call`.
// So the exports in src/api are written as before and are observed without a line there
// naming the observer; a new export is observed as soon as it exists.

/// The prefix of the alias of an export's own code.
const IMPL: &str = "cudart_rs_impl_";
/// The prefix of the (global, not exported) name of an export's shim.
const SHIM: &str = "cudart_rs_shim_";

/// Handle types, by the kind the observer knows them as.
fn handle_kind(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "cudaStream_t" => "Stream",
        "cudaEvent_t" => "Event",
        "cudaArray_t" | "cudaArray_const_t" => "Array",
        "cudaMipmappedArray_t" | "cudaMipmappedArray_const_t" => "Mipmapped",
        "cudaGraph_t" => "Graph",
        "cudaGraphExec_t" => "GraphExec",
        "cudaGraphNode_t" => "GraphNode",
        "cudaMemPool_t" => "Pool",
        "cudaKernel_t" => "Kernel",
        "cudaLibrary_t" => "Library",
        "cudaFunction_t" => "Function",
        "cudaUserObject_t" => "UserObject",
        "cudaExternalMemory_t"
        | "cudaExternalSemaphore_t"
        | "cudaGraphicsResource_t"
        | "cudaAsyncCallbackHandle_t"
        | "cudaLogsCallbackHandle"
        | "cudaEglStreamConnection"
        | "EGLImageKHR"
        | "EGLStreamKHR"
        | "EGLSyncKHR"
        | "cudaExecutionContext_t"
        | "cudaDevResourceDesc_t" => "Other",
        _ => return None,
    })
}

/// The expression that turns parameter `n` of type `ty` into a `crate::observe::args::A`.
fn arg_expr(n: &str, ty: &str) -> String {
    let a = "crate::observe::args::A";
    match ty {
        "c_int" | "i32" | "EGLint" | "c_long" | "i64" => format!("{a}::I({n} as i64)"),
        "c_uint"
        | "u32"
        | "usize"
        | "u64"
        | "c_ulonglong"
        | "std::ffi::c_ulonglong"
        | "c_ulong"
        | "GLuint"
        | "GLenum"
        | "VdpDevice"
        | "VdpVideoSurface"
        | "VdpOutputSurface"
        | "cudaTextureObject_t"
        | "cudaSurfaceObject_t"
        | "cudaGraphConditionalHandle"
        | "cudaLogIterator" => format!("{a}::U({n} as u64)"),
        "f32" | "f64" => format!("{a}::F({n} as f64)"),
        "*const c_char" => format!("{a}::S({n} as usize)"),
        "*const c_void" | "*mut c_void" | "*mut c_char" => format!("{a}::P({n} as usize)"),
        "cudaHostFn_t" | "cudaStreamCallback_t" | "cudaAsyncCallback" | "cudaLogsCallback_t" => {
            format!("{a}::P(crate::observe::args::addr(&{n}))")
        }
        _ => {
            if let Some(e) = ty.strip_prefix("raw::") {
                let e = if e == "cudaError_t" { "cudaError" } else { e };
                return format!("{a}::E({n}.0 as i64, crate::observe::enums::{e})");
            }
            if let Some(k) = handle_kind(ty) {
                return format!("{a}::H(crate::observe::args::H::{k}, {n} as usize)");
            }
            if let Some(t) = ty.strip_prefix("*const ").or_else(|| ty.strip_prefix("*mut ")) {
                return format!("{a}::R({n} as usize, crate::show_fn!({t}))");
            }
            // A struct passed by value.
            format!("{a}::V(&{n} as *const {ty} as usize, crate::show_fn!({ty}))")
        }
    }
}

fn arg_exprs(ps: &[(String, String)]) -> String {
    ps.iter().map(|(n, t)| arg_expr(n, t)).collect::<Vec<_>>().join(", ")
}

fn observe(rs: &mut String, exports: &[Export], names: &[String], out: &Path, cbids: &HashMap<String, u32>) {
    let index = |n: &str| names.binary_search_by(|x| x.as_str().cmp(n)).unwrap();
    let mut by_name: std::collections::HashMap<&str, (&Export, bool)> = Default::default();
    for e in exports {
        by_name.insert(&e.name, (e, false));
        for a in &e.also {
            by_name.insert(a, (e, true));
        }
    }

    // The table of every export, in `EXPORTS` order.
    writeln!(rs, "/// How many symbols this build exports.\npub const EXPORT_COUNT: usize = {};\n", names.len())
        .unwrap();
    rs.push_str("/// Every export, in `EXPORTS` order: name, family, parameters (name, type), return type, meaning.\n");
    rs.push_str("pub static EXPORT_INFO: [crate::observe::Export; EXPORT_COUNT] = [\n");
    for n in names {
        let (e, ptds) = by_name[n.as_str()];
        let ps = e
            .params
            .iter()
            .map(|(p, t)| format!("({:?}, {:?})", p.trim_start_matches("r#"), t))
            .collect::<Vec<_>>()
            .join(", ");
        writeln!(
            rs,
            "    crate::observe::Export {{ name: {n:?}, base: {:?}, family: crate::observe::Family::{}, per_thread: {ptds}, params: &[{ps}], ret: {:?}, op: {} }},",
            e.name,
            e.family,
            e.ret,
            e.sem.as_deref().unwrap_or("crate::observe::sem::Op::None")
        )
        .unwrap();
    }
    rs.push_str("];\n\n");

    // The shims, one module per source module (whose public items they may name).
    let mut modules: Vec<&str> = exports.iter().map(|e| e.module.as_str()).collect();
    modules.sort();
    modules.dedup();
    rs.push_str("#[allow(unused_imports, non_snake_case, clippy::missing_safety_doc, clippy::too_many_arguments, clippy::unnecessary_cast, clippy::unused_unit, improper_ctypes)]\nmod generated_shims {\n");
    let mut script =
        String::from("/* cudart-rs: every export's symbol is its observation shim (generated by build.rs). */\n");
    for m in &modules {
        writeln!(rs, "    pub(crate) mod {m} {{\n        use std::ffi::*;\n        use crate::types::*;\n        use crate::api::{m}::*;\n").unwrap();
        for e in exports.iter().filter(|e| e.module == *m) {
            let n = &e.name;
            let args = e.args();
            let (p, r) = (&e.sig(), &e.ret);
            // The export's own code, and the observed call (which the shim jumps to with the
            // caller's arguments untouched, so it has the export's signature).
            let id = cbid(cbids, n);
            writeln!(
                rs,
                "        extern \"C\" {{\n            pub(crate) fn {IMPL}{n}({p}) -> {r};\n        }}\n\
                 \x20       #[cold]\n        #[inline(never)]\n\
                 \x20       pub(crate) unsafe extern \"C\" fn cold_{n}({p}) -> {r} {{\n{}        }}\n\
                 \x20       core::arch::global_asm!(\".set {IMPL}{n}, {n}\");",
                slow_path(n, e, exports, index(n), cbids, &format!("{IMPL}{n}({args})")),
            )
            .unwrap();
            // The shim: on x86-64 three instructions that touch no argument register (a
            // compare of the flag, a branch to the observed call, a jump to the export's
            // code); elsewhere a Rust function that does the same.
            writeln!(
                rs,
                "        #[cfg(target_arch = \"x86_64\")]\n        core::arch::global_asm!(\n\
                 \x20           \".pushsection .text.{SHIM}{n},\\\"ax\\\",@progbits\",\n\
                 \x20           \".globl {SHIM}{n}\", \".type {SHIM}{n},@function\", \".p2align 4\",\n\
                 \x20           \"{SHIM}{n}:\",\n\
                 \x20           \"mov r11, qword ptr [rip + {{enable}}]\",\n\
                 \x20           \"cmp dword ptr [r11 + {}], 0\",\n\
                 \x20           \"jne {{cold}}\",\n\
                 \x20           \"jmp {IMPL}{n}\",\n\
                 \x20           \".size {SHIM}{n}, .-{SHIM}{n}\", \".popsection\",\n\
                 \x20           enable = sym crate::observe::tools::ENABLE, cold = sym cold_{n},\n        );\n\
                 \x20       #[cfg(not(target_arch = \"x86_64\"))]\n\
                 \x20       pub(crate) unsafe extern \"C\" fn shim_{n}({p}) -> {r} {{\n\
                 \x20           if !crate::observe::tools::slow({id}) {{\n                return {IMPL}{n}({args});\n            }}\n\
                 \x20           cold_{n}({args})\n        }}\n\
                 \x20       #[cfg(not(target_arch = \"x86_64\"))]\n\
                 \x20       core::arch::global_asm!(\".globl {SHIM}{n}\", \".set {SHIM}{n}, {{0}}\", sym shim_{n});\n",
                4 * id,
            )
            .unwrap();
            writeln!(script, "{n} = {SHIM}{n};").unwrap();
        }
        rs.push_str("    }\n");
    }
    rs.push_str("}\n\n");
    let ld = out.join("observe-shims.ld");
    fs::write(&ld, script).unwrap();
    // CUDART_RS_BARE_EXPORTS=1: each exported name is the export's own code, no shim (a
    // build for measuring what the shims cost; observation and NVIDIA's tools see no call).
    println!("cargo:rerun-if-env-changed=CUDART_RS_BARE_EXPORTS");
    if env::var_os("CUDART_RS_BARE_EXPORTS").is_none_or(|v| v.is_empty() || v == "0") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,{}", ld.display());
    }
}

/// `$OUT_DIR/enum_names.rs`: for every `pub enum` of `src/types`, a function of the same
/// name from a value to its enumerator's name (`None` for a value the enum lacks), for the
/// call trace. Enumerators under `#[cfg]` keep it.
fn enum_names(root: &Path, out: &Path) {
    let mut rs = String::from("// Generated by build.rs from the enums of src/types.\n");
    let dir = root.join("src/types");
    let mut files: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let cfgs = |attrs: &[syn::Attribute]| -> String {
        attrs
            .iter()
            .filter(|a| a.path().is_ident("cfg"))
            .map(|a| format!("{}\n", quote::ToTokens::to_token_stream(a)))
            .collect()
    };
    // `cudaError` has its names in its own table (`crate::types::error`).
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "rs") && !f.ends_with("error.rs")) {
        let file = syn::parse_file(&fs::read_to_string(f).unwrap()).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for item in &file.items {
            let syn::Item::Enum(e) = item else { continue };
            if !matches!(e.vis, syn::Visibility::Public(_)) {
                continue;
            }
            let name = &e.ident;
            // A `#[cfg]` on the enum itself goes on its function.
            rs.push_str(&cfgs(&e.attrs));
            writeln!(rs, "/// The name of a `{name}` value.\n#[allow(unreachable_patterns, unused_variables)]\npub fn {name}(v: i64) -> Option<&'static str> {{\n    use crate::types::{name} as E;\n    match v {{").unwrap();
            for v in &e.variants {
                let c = cfgs(&v.attrs);
                if !c.is_empty() {
                    write!(rs, "        {c}").unwrap();
                }
                let v = &v.ident;
                writeln!(rs, "        x if x == E::{v} as i64 => Some({:?}),", v.to_string()).unwrap();
            }
            rs.push_str("        _ => None,\n    }\n}\n\n");
        }
    }
    fs::write(out.join("enum_names.rs"), rs).unwrap();
}

// ---- tools ------------------------------------------------------------------------------
//
// Each export's runtime API callback id (CUPTI's `CUpti_runtime_api_trace_cbid`), from the
// facts in data/cupti-runtime-cbid-<major>.tsv (scripts/dev/cupti-cbids.sh extracts them from
// CUPTI's header): the id of the newest `<name>_vNNNN`. The shims index the tools' enable
// array with it (`crate::observe::tools`); 0 (no call has it) for an export without one.

/// The exports NVIDIA's runtime makes no callback for although CUPTI has an id for them
/// (`cupti = none`), and those it reports as another call (`cupti = as(NAME)`, the per-thread
/// form as that call's): from the declarations, set once they are read.
static NO_CALLBACK: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
static REPORTED_AS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();

fn tools_declarations(exports: &[Export]) {
    let mut none = Vec::new();
    let mut reported = Vec::new();
    for e in exports {
        match &e.cupti {
            decl::Cupti::Own => {}
            decl::Cupti::None => none.push(e.name.clone()),
            decl::Cupti::As(to) => {
                reported.push((e.name.clone(), to.to_string()));
                for a in &e.also {
                    reported.push((a.clone(), format!("{to}{}", &a[e.name.len()..])));
                }
            }
        }
    }
    let _ = NO_CALLBACK.set(none);
    let _ = REPORTED_AS.set(reported);
}

/// name -> (versioned name, id), the newest version of each name.
fn callback_ids(root: &Path, major: u32) -> HashMap<String, u32> {
    let f = root.join(format!("data/cupti-runtime-cbid-{major}.tsv"));
    let f = if f.exists() { f } else { root.join("data/cupti-runtime-cbid-13.tsv") };
    println!("cargo:rerun-if-changed={}", f.display());
    let text = fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
    let mut best: HashMap<String, (u32, u32)> = HashMap::new();
    for l in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let (full, id) = l.split_once('\t').unwrap_or_else(|| panic!("bad line {l:?}"));
        let id: u32 = id.trim().parse().unwrap();
        let at = full.rfind("_v").unwrap_or_else(|| panic!("no version in {full}"));
        let (name, ver) = (&full[..at], full[at + 2..].parse::<u32>().unwrap());
        if NO_CALLBACK.get().expect("declarations read").iter().any(|n| n == name) {
            continue;
        }
        assert!((id as usize) < 1024, "callback id {id} past the enable array");
        let e = best.entry(name.to_string()).or_insert((ver, id));
        if ver >= e.0 {
            *e = (ver, id);
        }
    }
    let mut out: HashMap<String, u32> = HashMap::new();
    for (name, (ver, id)) in best {
        out.insert(format!("{name}#"), ver);
        out.insert(name, id);
    }
    out
}

/// The call that export `name` is reported to tools as (see [`REPORTED_AS`]): mostly itself.
fn reported_as<'a>(cbids: &HashMap<String, u32>, name: &'a str) -> &'a str {
    match REPORTED_AS.get().expect("declarations read").iter().find(|r| r.0 == name) {
        Some((_, to)) if cbids.contains_key(name) => to,
        _ => name,
    }
}

fn cbid(cbids: &HashMap<String, u32>, name: &str) -> u32 {
    cbids.get(reported_as(cbids, name)).copied().unwrap_or(0)
}

/// The body of an export's slow path (taken when its enable entry is set): the call
/// observed if observation is on, and the tool's hook around it when a tool wants it, with
/// CUPTI's parameter struct `<name>_v<N>_params` (the arguments in order) built on the stack.
/// An export reported as another call (one of `exports`) fills that call's struct with its
/// arguments in order; where the other call takes a host stub and the export a kernel
/// handle, with the host stub of the kernel.
fn slow_path(
    name: &str,
    e: &Export,
    exports: &[Export],
    index: usize,
    cbids: &HashMap<String, u32>,
    call: &str,
) -> String {
    let id = cbid(cbids, name);
    let ps = &e.params;
    let mut s = format!(
        "            let body = || if crate::observe::on() {{ crate::observe::call({index}, &[{}], || unsafe {{ {call} }}) }} else {{ unsafe {{ {call} }} }};\n",
        arg_exprs(ps)
    );
    if id == 0 {
        s.push_str("            body()\n");
        return s;
    }
    let shown = reported_as(cbids, name);
    let fields = if shown == name {
        ps.clone()
    } else {
        let r = exports.iter().find(|x| x.name == shown || x.also.iter().any(|a| a == shown));
        r.unwrap_or_else(|| panic!("{name} reported as {shown}, which is no export")).params.clone()
    };
    assert_eq!(fields.len(), ps.len(), "{name} reported as {shown}: the parameters differ");
    let values: Vec<String> = fields
        .iter()
        .zip(ps)
        .map(|((_, t), (n, own))| match (t.as_str(), own.as_str()) {
            (t, own) if t == own => format!("unsafe {{ std::ptr::read(&{n}) }}"),
            ("*const c_void", "cudaKernel_t") => format!("crate::api::registration::kernel_stub({n})"),
            _ => panic!("{name} reported as {shown}: parameter {n} is {own}, not {t}"),
        })
        .collect();
    let sname = format!("{shown}_v{}_params", cbids[&format!("{shown}#")]);
    s.push_str(&format!("            if !crate::observe::tools::hooked({id}) {{ return body(); }}\n"));
    s.push_str(&format!(
        "            #[repr(C)]\n            #[allow(non_camel_case_types, dead_code)]\n            struct {sname} {{ "
    ));
    for (n, t) in &fields {
        s.push_str(&format!("{n}: {t}, "));
    }
    s.push_str("}\n");
    s.push_str(&format!("            let params = std::mem::ManuallyDrop::new({sname} {{ "));
    for ((n, _), v) in fields.iter().zip(&values) {
        s.push_str(&format!("{n}: {v}, "));
    }
    s.push_str("});\n");
    let symbol = if shown.starts_with("cudaLaunch") && fields.iter().any(|(n, _)| n == "func") {
        "crate::api::registration::kernel_symbol(params.func as *const c_void)"
    } else {
        "std::ptr::null()"
    };
    s.push_str(&format!(
        "            crate::observe::tools::call({id}, c{shown:?}, &*params as *const {sname} as *const c_void, {symbol}, {}, body)\n",
        e.ret == "cudaError_t"
    ));
    s
}
