//! Build script. One list of exports, the `#[export(...)]` functions of `src/api` and the rows of
//! its `passthrough!` tables (read with syn), drives what the crate needs besides the code
//! written by hand; each part is a module of `build/`:
//! - `api`: the exports and their declarations (checked against the observer's names), for
//!   either ABI;
//! - `manifest` (`$OUT_DIR/exports.tsv`): every export of either ABI with what its declaration
//!   says, for the checks and the documentation's lists and counts;
//! - `cupti`: each export's tools callback id;
//! - `shims` (`$OUT_DIR/exports.rs`): the per-thread-default-stream forms the declarations ask
//!   for, the observation shims and table, the ELF symbol version of every export;
//! - `enums` (`$OUT_DIR/enum_names.rs`): the names of the runtime's enums, from `src/types`;
//! - `header` and `headers`: the header set (cbindgen, then split and completed).
//!
//! Also the SONAME and version node (`$OUT_DIR/libcudart.map`) and the export list the symbol
//! checks read (`$OUT_DIR/exports.txt`).

use std::path::PathBuf;
use std::{env, fs};

use cudart_rs_decl as decl;

/// The modules of `build/`.
mod build {
    pub mod api;
    pub mod cupti;
    pub mod enums;
    pub mod header;
    pub mod headers;
    pub mod manifest;
    pub mod shims;
}

use build::{api, cupti, enums, header, manifest, shims};

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

    let files = api::files(&root.join("src/api"));
    // The names the declarations may use are the observer's enums' (figures/ holds `Kind`).
    println!("cargo:rerun-if-changed=figures/src");
    let vocabulary = decl::Vocabulary::read(&[&root.join("src/observe"), &root.join("figures/src")])
        .unwrap_or_else(|e| panic!("{e}"));
    api::check(&files, &vocabulary);
    let exports = api::exports(&files, abi12);
    manifest::write(&api::exports(&files, false), &api::exports(&files, true), &out);

    let mut names: Vec<String> =
        exports.iter().flat_map(|e| std::iter::once(&e.name).chain(&e.forms)).cloned().collect();
    names.sort();
    let dup = names.windows(2).find(|w| w[0] == w[1]);
    assert!(dup.is_none(), "export defined twice: {dup:?}");
    fs::write(out.join("exports.txt"), names.join("\n") + "\n").unwrap();

    let tools = cupti::Tools::new(&root, major, &exports);
    shims::write(&exports, &names, &node, &tools, &vocabulary, &out);
    enums::write(&root, &out);
    header::write(&root, &out, &files);
}
