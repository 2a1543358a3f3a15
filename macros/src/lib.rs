//! `#[export(...)]`: the one declaration of an exported runtime function (see [`decl`]),
//! `passthrough!`, a table of those that only call the driver, a line each, and
//! `#[derive(Described)]`, the error codes' names and descriptions from the enum.
//!
//! On a `#[no_mangle] pub unsafe extern "C" fn` of `src/api`, it parses the declaration and
//! gives the export's name to the boundary the body runs in: `run(|| ...)` and
//! `run_uninitialised(|| ...)` become `run("NAME", || ...)`, so that the name is written once,
//! as the function's. build.rs reads the same attribute (with the same parser), checks it
//! against the observer's names and the function's parameters, and generates everything else
//! the export needs.

use proc_macro::TokenStream;
use quote::quote;
use syn::visit_mut::VisitMut;
use syn::{parse_macro_input, Expr, ExprCall, ItemFn, LitStr};

use cudart_rs_decl as decl;

mod described;

/// Gives the calls of the boundary the function's name.
struct Name<'a> {
    name: &'a str,
    errors: Vec<syn::Error>,
}

impl VisitMut for Name<'_> {
    fn visit_expr_call_mut(&mut self, call: &mut ExprCall) {
        syn::visit_mut::visit_expr_call_mut(self, call);
        let Expr::Path(p) = &*call.func else { return };
        let Some(last) = p.path.segments.last() else { return };
        if last.ident != "run" && last.ident != "run_uninitialised" {
            return;
        }
        match call.args.first() {
            Some(Expr::Lit(l)) if matches!(l.lit, syn::Lit::Str(_)) => self
                .errors
                .push(syn::Error::new_spanned(&l.lit, "the boundary's name is the export's own: write `run(|| ...)`")),
            Some(_) if call.args.len() == 1 => {
                let lit = LitStr::new(self.name, last.ident.span());
                call.args.insert(0, Expr::Lit(syn::ExprLit { attrs: Vec::new(), lit: syn::Lit::Str(lit) }));
            }
            _ => {}
        }
    }
}

#[proc_macro_attribute]
pub fn export(attr: TokenStream, item: TokenStream) -> TokenStream {
    // The declaration's grammar; its names are checked by the build (against the observer's).
    parse_macro_input!(attr as decl::Decl);
    let mut f = parse_macro_input!(item as ItemFn);
    let name = f.sig.ident.to_string();
    let mut errors = Vec::new();
    if !f.attrs.iter().any(|a| a.path().is_ident("no_mangle")) {
        errors.push(syn::Error::new_spanned(
            &f.sig.ident,
            "an export is `#[no_mangle]` (after `#[export]`, so that cbindgen sees it)",
        ));
    }
    if !matches!(&f.sig.abi, Some(abi) if abi.name.as_ref().is_some_and(|n| n.value() == "C")) {
        errors.push(syn::Error::new_spanned(&f.sig, "an export is `extern \"C\"`"));
    }
    let mut v = Name { name: &name, errors: Vec::new() };
    v.visit_block_mut(&mut f.block);
    errors.extend(v.errors);
    if let Some(first) = errors.into_iter().reduce(|mut a, b| {
        a.combine(b);
        a
    }) {
        return first.to_compile_error().into();
    }
    quote!(#f).into()
}

/// A table of pass-through exports (see [`decl::Table`]): each row becomes the
/// `#[export(...)] #[no_mangle] pub unsafe extern "C" fn` it stands for, written in the
/// module the table is in (whose `run`, `cu`, `rt`, `export` and types it uses).
#[proc_macro]
pub fn passthrough(input: TokenStream) -> TokenStream {
    let table = parse_macro_input!(input as decl::Table);
    let items = table.rows.iter().map(decl::Row::item);
    quote!(#(#items)*).into()
}

/// The names and descriptions of an error enum's codes (see [`described`]).
#[proc_macro_derive(Described, attributes(described))]
pub fn described(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as syn::DeriveInput);
    described::derive(input).unwrap_or_else(|e| e.to_compile_error()).into()
}
