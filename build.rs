//! Build script: one list of exports (the `#[no_mangle]` functions under `src/api`) drives
//! - the `_ptds`/`_ptsz` exports named by `// also:` comments,
//! - the ELF symbol version of every export (`.symver f, f@@libcudart.so.N`),
//! - the export list the symbol checks read (`$OUT_DIR/exports.txt`),
//! and the header is generated from the crate by cbindgen (`$OUT_DIR/cuda_runtime_api.h`,
//! copied to `include/` when `CUDART_RS_WRITE_HEADER=1`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

struct Export {
    name: String,
    also: Vec<String>,
    params: String,
    ret: String,
    module: String,
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

    let mut exports = Vec::new();
    let api = root.join("src/api");
    let mut files: Vec<_> = fs::read_dir(&api).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for f in files {
        if f.extension().is_some_and(|e| e == "rs") {
            println!("cargo:rerun-if-changed={}", f.display());
            scan(&f, abi12, &mut exports);
        }
    }
    println!("cargo:rerun-if-changed=src/api");

    let mut rs = String::new();
    rs.push_str("#[allow(unused_imports, non_snake_case, clippy::missing_safety_doc)]\nmod generated_exports {\n");
    rs.push_str("    use std::ffi::*;\n    use crate::types::*;\n\n");
    let mut names = Vec::new();
    for e in &exports {
        names.push(e.name.clone());
        for a in &e.also {
            let args = arg_names(&e.params);
            writeln!(
                rs,
                "    #[no_mangle]\n    pub unsafe extern \"C\" fn {a}({}) -> {} {{\n        crate::rt::per_thread_stream(|| crate::api::{}::{}({args}))\n    }}\n",
                e.params, e.ret, e.module, e.name
            )
            .unwrap();
            names.push(a.clone());
        }
    }
    rs.push_str("}\n\n");
    names.sort();
    let dup = names.windows(2).find(|w| w[0] == w[1]);
    assert!(dup.is_none(), "export defined twice: {dup:?}");
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

    header(&root, &out);
}

/// Finds `#[no_mangle]` functions, with the `// also:` lines and `#[cfg]` on the ABI
/// feature that precede them.
fn scan(path: &Path, abi12: bool, exports: &mut Vec<Export>) {
    let text = fs::read_to_string(path).unwrap();
    let module = path.file_stem().unwrap().to_str().unwrap().to_string();
    let mut also = Vec::new();
    let mut enabled = true;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("// also:") {
            also.extend(rest.split(|c: char| c == ',' || c.is_whitespace()).filter(|s| !s.is_empty()).map(String::from));
        } else if t == "#[cfg(feature = \"abi12\")]" {
            enabled = abi12;
        } else if t == "#[cfg(not(feature = \"abi12\"))]" {
            enabled = !abi12;
        } else if t == "#[no_mangle]" {
            let mut sig = String::new();
            for l in lines.by_ref() {
                sig.push_str(l.trim());
                sig.push(' ');
                if l.trim_end().ends_with('{') {
                    break;
                }
            }
            if enabled {
                exports.push(parse_sig(&sig, std::mem::take(&mut also), &module));
            }
            also.clear();
            enabled = true;
        } else if !(t.starts_with("///") || t.starts_with("#[") || t.starts_with("//")) {
            also.clear();
            enabled = true;
        }
    }
}

fn parse_sig(sig: &str, also: Vec<String>, module: &str) -> Export {
    let fn_at = sig.find("fn ").unwrap_or_else(|| panic!("no fn in {sig}"));
    let rest = &sig[fn_at + 3..];
    let open = rest.find('(').unwrap();
    let name = rest[..open].trim().to_string();
    let close = rest.rfind(')').unwrap();
    let params = rest[open + 1..close].trim().trim_end_matches(',').to_string();
    let ret = rest[close + 1..]
        .trim()
        .trim_end_matches('{')
        .trim()
        .trim_start_matches("->")
        .trim()
        .to_string();
    Export { name, also, params, ret: if ret.is_empty() { "()".into() } else { ret }, module: module.into() }
}

/// `a: T, b: U` -> `a, b` (no parameter type contains a comma at the top level).
fn arg_names(params: &str) -> String {
    let mut depth = 0;
    let mut names = Vec::new();
    let mut cur = String::new();
    for c in params.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            names.push(cur.clone());
            cur.clear();
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        names.push(cur);
    }
    names.iter().map(|p| p.split(':').next().unwrap().trim().to_string()).collect::<Vec<_>>().join(", ")
}

fn header(root: &Path, out: &Path) {
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-env-changed=CUDART_RS_WRITE_HEADER");
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    let generated = cbindgen::Builder::new()
        .with_crate(root)
        .with_config(config)
        .generate()
        .expect("cbindgen could not generate the header");
    let target = out.join("cuda_runtime_api.h");
    generated.write_to_file(&target);
    if env::var_os("CUDART_RS_WRITE_HEADER").is_some_and(|v| v == "1") {
        fs::copy(&target, root.join("include/cuda_runtime_api.h")).unwrap();
    }
}
