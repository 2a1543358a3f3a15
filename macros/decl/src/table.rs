//! A table of pass-through exports (`passthrough!`): its grammar, and the function each row
//! stands for.

use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{bracketed, parenthesized, Ident, Token};

use crate::{one_of, Decl};

/// A table of pass-through exports, `passthrough! { ROW; ROW; ... }`: each an export that
/// checks nothing of its own, calls one driver function and maps its result, on one line:
///
/// ```text
/// cudaEventQuery(event: cudaEvent_t) = ctx.cuEventQuery(event) [family = Event] "Queries an event's status.";
/// ```
///
/// - the export's name and parameters (it returns `cudaError_t`);
/// - `ctx.` (the call needs the thread's current context, made on first use as the runtime
///   makes it) or `fns.` (it needs only the driver), the driver function and its arguments,
///   each an expression of the parameters (`out(p)?` for an out pointer that must not be
///   null, `kind.0` for an enum the driver takes as an integer);
/// - the declaration, as `#[export(...)]` takes it;
/// - the documentation the header gives it (more lines, and `#[cfg]`, as attributes before).
///
/// The driver judges the arguments (the reason a row needs no check of its own, and why its
/// call is sound whatever the program passes: the driver validates them as it would from any
/// program). A row is exactly the function [`Row::item`] writes, which the `passthrough!` macro
/// compiles, build.rs reads as it reads every other export, and cbindgen declares.
pub struct Table {
    pub rows: Vec<Row>,
}

/// One row of a [`Table`].
pub struct Row {
    pub attrs: Vec<syn::Attribute>,
    pub name: Ident,
    pub params: Punctuated<syn::FnArg, Token![,]>,
    /// `ctx` or `fns`.
    pub via: Ident,
    pub call: Ident,
    pub args: Punctuated<syn::Expr, Token![,]>,
    /// The declaration's tokens, as written (and checked by parsing them as a [`Decl`]).
    pub decl: proc_macro2::TokenStream,
    pub doc: Option<syn::LitStr>,
}

impl Parse for Row {
    fn parse(input: ParseStream) -> syn::Result<Row> {
        let attrs = input.call(syn::Attribute::parse_outer)?;
        let name: Ident = input.parse()?;
        let inner;
        parenthesized!(inner in input);
        let params = inner.parse_terminated(syn::FnArg::parse, Token![,])?;
        input.parse::<Token![=]>()?;
        let via: Ident = input.parse()?;
        one_of(&via, &["ctx", "fns"], "driver access")?;
        input.parse::<Token![.]>()?;
        let call: Ident = input.parse()?;
        let inner;
        parenthesized!(inner in input);
        let args = inner.parse_terminated(syn::Expr::parse, Token![,])?;
        let inner;
        bracketed!(inner in input);
        let decl: proc_macro2::TokenStream = inner.parse()?;
        syn::parse2::<Decl>(decl.clone())?;
        let doc = if input.peek(syn::LitStr) { Some(input.parse()?) } else { None };
        input.parse::<Token![;]>()?;
        Ok(Row { attrs, name, params, via, call, args, decl, doc })
    }
}

impl Parse for Table {
    fn parse(input: ParseStream) -> syn::Result<Table> {
        let mut rows = Vec::new();
        while !input.is_empty() {
            rows.push(input.parse()?);
        }
        Ok(Table { rows })
    }
}

impl Row {
    /// The export the row stands for, as it would be written out.
    pub fn item(&self) -> syn::ItemFn {
        let Row { attrs, name, params, via, call, args, decl, doc } = self;
        let doc = doc.as_ref().map(|d| {
            let text = format!(" {}", d.value());
            quote::quote!(#[doc = #text])
        });
        let access = if via == "ctx" { quote::quote!(rt::ctx()?) } else { quote::quote!(rt::fns()?) };
        syn::parse_quote! {
            #(#attrs)*
            #doc
            #[export(#decl)]
            #[no_mangle]
            pub unsafe extern "C" fn #name(#params) -> cudaError_t {
                run(|| cu(#access.#call(#args)))
            }
        }
    }
}
