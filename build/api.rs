//! The exports of `src/api`: its `#[export(...)]` functions and the rows of its `passthrough!`
//! tables, read with syn and the grammar the attribute itself uses (`cudart-rs-decl`), each with
//! its declaration and signature, for one ABI or the other.

use std::fs;
use std::path::{Path, PathBuf};

use cudart_rs_decl as decl;
use quote::ToTokens;

/// A file of `src/api`, read once: its functions, each row of its `passthrough!` tables as the
/// function it stands for.
pub struct ApiFile {
    pub path: PathBuf,
    /// Its module name (`copy` for `src/api/copy.rs`).
    pub module: String,
    /// Its functions, a table's rows as the functions they stand for, with whether each is a
    /// row.
    pub fns: Vec<(syn::ItemFn, bool)>,
}

/// A parameter of an export.
#[derive(Clone)]
pub struct Param {
    /// The pattern, as the signature writes it (`r#type` too).
    pub pat: syn::Pat,
    /// Its name as the observer shows it (`type`).
    pub name: String,
    pub ty: syn::Type,
    /// The type as Rust source writes it (`*mut *mut c_void`, `raw::cudaMemcpyKind`): what the
    /// observer's table holds, and what the tools' records compare.
    pub ty_text: String,
}

/// One export, as its declaration and signature give it.
pub struct Export {
    pub name: String,
    /// Its per-thread-default-stream form (`NAME_ptds`/`NAME_ptsz`), if it has one.
    pub forms: Vec<String>,
    pub params: Vec<Param>,
    pub ret: syn::Type,
    pub ret_text: String,
    /// The file of `src/api` it is in (`copy`).
    pub module: String,
    /// Its declaration.
    pub decl: decl::Decl,
    /// Whether it is a row of a `passthrough!` table.
    pub row: bool,
}

/// The files of `src/api`, in name order.
pub fn files(api: &Path) -> Vec<ApiFile> {
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
                    syn::Item::Fn(f) => fns.push((f, false)),
                    syn::Item::Macro(m) => {
                        fns.extend(table_rows(&m, &path).unwrap_or_default().into_iter().map(|f| (f, true)))
                    }
                    _ => {}
                }
            }
            let module = path.file_stem().unwrap().to_str().unwrap().to_string();
            ApiFile { path, module, fns }
        })
        .collect()
}

/// The functions a `passthrough!` table stands for; None for any other macro.
pub fn table_rows(m: &syn::ItemMacro, path: &Path) -> Option<Vec<syn::ItemFn>> {
    if !m.mac.path.is_ident("passthrough") {
        return None;
    }
    let t: decl::Table = m.mac.parse_body().unwrap_or_else(|e| panic!("{}: passthrough!: {e}", path.display()));
    Some(t.rows.iter().map(decl::Row::item).collect())
}

/// The `#[export(...)]` attribute of a function, if it has one.
fn export_attr(f: &syn::ItemFn) -> Option<&syn::Attribute> {
    f.attrs.iter().find(|a| a.path().is_ident("export"))
}

/// Checks every declaration of `src/api`, of either ABI, against the observer's names and its
/// function's parameters.
pub fn check(files: &[ApiFile], vocabulary: &decl::Vocabulary) {
    for file in files {
        for (f, _) in &file.fns {
            let Some(attr) = export_attr(f) else {
                assert!(
                    !f.attrs.iter().any(|a| a.path().is_ident("no_mangle")),
                    "{}: {} is #[no_mangle] without #[export(...)]",
                    file.path.display(),
                    f.sig.ident
                );
                continue;
            };
            let name = &f.sig.ident;
            let params: Vec<String> = params(f).iter().map(|p| p.pat.to_token_stream().to_string()).collect();
            let at = |e: &syn::Error| format!("{}:{}: {name}: {e}", file.path.display(), e.span().start().line);
            let d: decl::Decl = attr.parse_args().unwrap_or_else(|e| panic!("{}", at(&e)));
            if let Err(e) = d.check(vocabulary, &params) {
                panic!("{}", at(&e));
            }
        }
    }
}

/// The exports of `src/api` whose `#[cfg]` holds for the ABI (`abi12`: the 12 one).
pub fn exports(files: &[ApiFile], abi12: bool) -> Vec<Export> {
    let mut exports = Vec::new();
    for file in files {
        for (f, row) in &file.fns {
            let Some(attr) = export_attr(f) else { continue };
            if !f.attrs.iter().filter(|a| a.path().is_ident("cfg")).all(|a| cfg_holds(&a.parse_args().unwrap(), abi12))
            {
                continue;
            }
            let d: decl::Decl = attr.parse_args().expect("checked");
            let name = f.sig.ident.to_string();
            let (ret, ret_text) = match &f.sig.output {
                syn::ReturnType::Default => (syn::parse_quote!(()), "()".to_string()),
                syn::ReturnType::Type(_, t) => ((**t).clone(), ty(t)),
            };
            let forms = d.per_thread.iter().map(|p| format!("{name}_{p}")).collect();
            exports.push(Export {
                name,
                forms,
                params: params(f),
                ret,
                ret_text,
                module: file.module.clone(),
                decl: d,
                row: *row,
            });
        }
    }
    exports
}

fn params(f: &syn::ItemFn) -> Vec<Param> {
    f.sig
        .inputs
        .iter()
        .map(|a| match a {
            syn::FnArg::Typed(t) => {
                let name = t.pat.to_token_stream().to_string();
                Param {
                    pat: (*t.pat).clone(),
                    name: name.trim_start_matches("r#").to_string(),
                    ty: (*t.ty).clone(),
                    ty_text: ty(&t.ty),
                }
            }
            syn::FnArg::Receiver(_) => panic!("{}: a method", f.sig.ident),
        })
        .collect()
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

/// A type as Rust source writes it (`*mut *mut c_void`, `raw::cudaMemcpyKind`).
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
                                other => other.to_token_stream().to_string(),
                            })
                            .collect();
                        format!("{}<{}>", seg.ident, args.join(", "))
                    }
                    other => format!("{}{}", seg.ident, other.to_token_stream()),
                })
                .collect();
            s.push_str(&segs.join("::"));
            s
        }
        syn::Type::Array(a) => format!("[{}; {}]", ty(&a.elem), a.len.to_token_stream()),
        syn::Type::Tuple(t) if t.elems.is_empty() => "()".to_string(),
        other => other.to_token_stream().to_string(),
    }
}
