//! `#[derive(Described)]` on the runtime's `enum cudaError`: each code's name and NVIDIA's
//! description, written once, as the variant and its documentation (the header's comment, which
//! cbindgen copies): `cudaError::TABLE`, `(code, name, description)` in the enum's order.
//!
//! `#[described(string = "...")]` gives a description where NVIDIA's runtime says more than its
//! header; `#[described(none)]` leaves a code out (one the runtime has no name for).

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::{Data, DeriveInput, LitStr};

pub fn derive(input: DeriveInput) -> syn::Result<TokenStream> {
    let Data::Enum(data) = &input.data else {
        return Err(syn::Error::new_spanned(&input.ident, "Described is for an enum"));
    };
    let ty = &input.ident;
    let mut entries = Vec::new();
    for v in &data.variants {
        let mut string = None;
        let mut skip = false;
        for a in v.attrs.iter().filter(|a| a.path().is_ident("described")) {
            a.parse_nested_meta(|m| {
                if m.path.is_ident("none") {
                    skip = true;
                } else if m.path.is_ident("string") {
                    string = Some(m.value()?.parse::<LitStr>()?.value());
                } else {
                    return Err(m.error("`none` or `string = \"...\"`"));
                }
                Ok(())
            })?;
        }
        if skip {
            continue;
        }
        let doc: Vec<String> = v
            .attrs
            .iter()
            .filter_map(|a| match &a.meta {
                syn::Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
                    syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value().trim().to_string()),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let Some(string) = string.or_else(|| (!doc.is_empty()).then(|| doc.join(" "))) else {
            return Err(syn::Error::new_spanned(&v.ident, "no documentation to describe it"));
        };
        let cfg = v.attrs.iter().filter(|a| a.path().is_ident("cfg"));
        let name = &v.ident;
        let c = |s: &str| Literal::c_string(&std::ffi::CString::new(s).unwrap());
        let (n, s) = (c(&name.to_string()), c(&string));
        entries.push(quote!(#(#cfg)* (#ty::#name, #n, #s),));
    }
    Ok(quote! {
        impl #ty {
            /// Every code with its name and NVIDIA's description, in the enum's order.
            pub(crate) const TABLE: &'static [(#ty, &'static ::core::ffi::CStr, &'static ::core::ffi::CStr)] =
                &[#(#entries)*];
        }
    })
}
