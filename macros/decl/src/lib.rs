//! The declaration of an exported runtime function: the arguments of its `#[export(...)]`
//! attribute. A crate of its own, read by the attribute itself (`cudart-rs-macros`, which checks
//! them against the function) and by the build script (which generates from them, with the
//! function's signature, the per-thread-stream forms, the symbol versions, the observation
//! shims and table, and the tools' records):
//!
//! ```text
//! #[export(family = Copy, per_thread = ptsz, sem = Copy(Linear), cupti = none)]
//! ```
//!
//! - `family`: the observation family (the call trace's target, the summary's group):
//!   one of [`FAMILIES`]. Required.
//! - `per_thread = ptds | ptsz`: the build adds `NAME_ptds` / `NAME_ptsz`, the same function
//!   with the per-thread default stream as the null stream.
//! - `sem`: what the call means to the observer ([`Sem`]): the allocations and handles it
//!   makes or frees and the parameter they are in, the bytes it moves, the kernels it
//!   launches. None: nothing to note.
//! - `cupti = none`: NVIDIA's runtime reports no tools callback for it although CUPTI has an
//!   id; `cupti = as(NAME)`: it reports the call as `NAME` (that call's id, name and
//!   parameter struct). None: its own callback, where CUPTI has an id for it.
//!
//! The ABIs an export exists in are its `#[cfg(feature = "abi12")]` or
//! `#[cfg(not(feature = "abi12"))]`, the compiler's own attribute.

use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{bracketed, parenthesized, Ident, Token};

/// The observation families (`crate::observe::Family`).
pub const FAMILIES: [&str; 14] = [
    "Memory", "Copy", "Memset", "Array", "Launch", "Module", "Stream", "Event", "Device", "Graph", "Texture",
    "Interop", "Error", "Runtime",
];

/// What the observer keeps of allocations and handles (`crate::observe::registry::Kind`).
pub const KINDS: [&str; 15] = [
    "Device",
    "Pitched",
    "Device3D",
    "Async",
    "Managed",
    "Pinned",
    "Registered",
    "Array",
    "Mipmapped",
    "Stream",
    "Event",
    "Pool",
    "Graph",
    "GraphExec",
    "Library",
];

/// The copies the observer counts (`crate::observe::sem::CopyOp`).
pub const COPIES: [&str; 14] = [
    "Linear",
    "Peer",
    "TwoD",
    "ThreeD",
    "ThreeDPeer",
    "ToArray2D",
    "FromArray2D",
    "ArrayToArray2D",
    "ToArray",
    "FromArray",
    "ArrayToArray",
    "ToSymbol",
    "FromSymbol",
    "Batch",
];

/// The memsets (`crate::observe::sem::MemsetOp`).
pub const MEMSETS: [&str; 3] = ["Linear", "TwoD", "ThreeD"];

/// How an argument of a [`Sem`] is written, and so what it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ArgKind {
    /// One of [`KINDS`].
    Kind,
    /// A list of [`KINDS`]: `[Device, Pitched]`.
    Kinds,
    /// A parameter of the function, by name.
    Param,
    /// One of [`COPIES`].
    Copy,
    /// One of [`MEMSETS`].
    Memset,
}

/// The meanings (`crate::observe::sem::Op`) and their arguments.
pub const OPS: [(&str, &[ArgKind]); 19] = [
    ("Malloc", &[ArgKind::Kind, ArgKind::Param]),
    ("MallocPitch", &[]),
    ("Malloc3D", &[]),
    ("HostRegister", &[]),
    ("MallocArray", &[]),
    ("Malloc3DArray", &[]),
    ("MallocMipmapped", &[]),
    ("Create", &[ArgKind::Kind, ArgKind::Param]),
    ("Free", &[ArgKind::Kinds, ArgKind::Param]),
    ("Destroy", &[ArgKind::Kind, ArgKind::Param]),
    ("Copy", &[ArgKind::Copy]),
    ("Memset", &[ArgKind::Memset]),
    ("Launch", &[]),
    ("GraphLaunch", &[]),
    ("Reset", &[]),
    ("RegisterFunction", &[]),
    ("GetKernel", &[ArgKind::Param, ArgKind::Param]),
    ("LibraryGetKernel", &[]),
    ("Sync", &[]),
];

/// An argument of a [`Sem`]: a name, or a bracketed list of names.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Name(Ident),
    List(Vec<Ident>),
}

/// What the call means to the observer: `Malloc(Device, devPtr)`, `Copy(Linear)`, `Sync`.
#[derive(Clone, Debug)]
pub struct Sem {
    pub op: Ident,
    pub args: Vec<Arg>,
}

/// How the tools (CUPTI) see the call.
#[derive(Clone, Debug, PartialEq)]
pub enum Cupti {
    /// Its own callback, where CUPTI has an id for it.
    Own,
    /// None.
    None,
    /// As another call.
    As(Ident),
}

/// An `#[export(...)]` attribute's arguments.
#[derive(Clone, Debug)]
pub struct Decl {
    pub family: Ident,
    pub per_thread: Option<Ident>,
    pub sem: Option<Sem>,
    pub cupti: Cupti,
}

fn err<T>(span: proc_macro2::Span, msg: String) -> syn::Result<T> {
    Err(syn::Error::new(span, msg))
}

fn one_of(name: &Ident, set: &[&str], what: &str) -> syn::Result<()> {
    if set.contains(&name.to_string().as_str()) {
        Ok(())
    } else {
        err(name.span(), format!("{what} `{name}`: expected one of {}", set.join(", ")))
    }
}

impl Parse for Arg {
    fn parse(input: ParseStream) -> syn::Result<Arg> {
        if input.peek(syn::token::Bracket) {
            let inner;
            bracketed!(inner in input);
            let names: Punctuated<Ident, Token![,]> = inner.parse_terminated(Ident::parse, Token![,])?;
            Ok(Arg::List(names.into_iter().collect()))
        } else {
            Ok(Arg::Name(input.parse()?))
        }
    }
}

impl Parse for Sem {
    fn parse(input: ParseStream) -> syn::Result<Sem> {
        let op: Ident = input.parse()?;
        let Some(&(_, kinds)) = OPS.iter().find(|o| op == o.0) else {
            return err(
                op.span(),
                format!("meaning `{op}`: expected one of {}", OPS.iter().map(|o| o.0).collect::<Vec<_>>().join(", ")),
            );
        };
        let mut args = Vec::new();
        if input.peek(syn::token::Paren) {
            let inner;
            parenthesized!(inner in input);
            let a: Punctuated<Arg, Token![,]> = inner.parse_terminated(Arg::parse, Token![,])?;
            args = a.into_iter().collect();
        }
        if args.len() != kinds.len() {
            return err(op.span(), format!("`{op}` takes {} argument(s), not {}", kinds.len(), args.len()));
        }
        for (a, k) in args.iter().zip(kinds.iter()) {
            match (a, k) {
                (Arg::Name(n), ArgKind::Kind) => one_of(n, &KINDS, "kind")?,
                (Arg::List(ns), ArgKind::Kinds) => {
                    for n in ns {
                        one_of(n, &KINDS, "kind")?;
                    }
                }
                (Arg::Name(n), ArgKind::Copy) => one_of(n, &COPIES, "copy")?,
                (Arg::Name(n), ArgKind::Memset) => one_of(n, &MEMSETS, "memset")?,
                (Arg::Name(_), ArgKind::Param) => {}
                _ => return err(op.span(), format!("`{op}`: argument of the wrong form ({k:?} expected)")),
            }
        }
        Ok(Sem { op, args })
    }
}

impl Sem {
    /// The parameters it names (checked against the function's).
    pub fn params(&self) -> Vec<&Ident> {
        let kinds = OPS.iter().find(|o| self.op == o.0).map_or(&[][..], |o| o.1);
        self.args
            .iter()
            .zip(kinds.iter())
            .filter_map(|(a, k)| match (a, k) {
                (Arg::Name(n), ArgKind::Param) => Some(n),
                _ => None,
            })
            .collect()
    }

    /// As a Rust expression of `crate::observe::sem::Op`.
    pub fn rust(&self) -> String {
        let kinds = OPS.iter().find(|o| self.op == o.0).map_or(&[][..], |o| o.1);
        if kinds.is_empty() {
            return format!("crate::observe::sem::Op::{}", self.op);
        }
        let args: Vec<String> = self
            .args
            .iter()
            .zip(kinds.iter())
            .map(|(a, k)| match (a, k) {
                (Arg::Name(n), ArgKind::Kind) => format!("crate::observe::registry::Kind::{n}"),
                (Arg::List(ns), _) => {
                    format!(
                        "&[{}]",
                        ns.iter()
                            .map(|n| format!("crate::observe::registry::Kind::{n}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
                (Arg::Name(n), ArgKind::Param) => format!("{:?}", n.to_string().trim_start_matches("r#")),
                (Arg::Name(n), ArgKind::Copy) => format!("crate::observe::sem::CopyOp::{n}"),
                (Arg::Name(n), ArgKind::Memset) => format!("crate::observe::sem::MemsetOp::{n}"),
                (Arg::Name(n), ArgKind::Kinds) => format!("&[crate::observe::registry::Kind::{n}]"),
            })
            .collect();
        format!("crate::observe::sem::Op::{}({})", self.op, args.join(", "))
    }
}

impl Parse for Decl {
    fn parse(input: ParseStream) -> syn::Result<Decl> {
        let mut family = None;
        let mut per_thread = None;
        let mut sem = None;
        let mut cupti = Cupti::Own;
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            match key.to_string().as_str() {
                "family" => {
                    let f: Ident = input.parse()?;
                    one_of(&f, &FAMILIES, "family")?;
                    family = Some(f);
                }
                "per_thread" => {
                    let p: Ident = input.parse()?;
                    one_of(&p, &["ptds", "ptsz"], "per-thread form")?;
                    per_thread = Some(p);
                }
                "sem" => sem = Some(input.parse()?),
                "cupti" => {
                    let c: Ident = syn::ext::IdentExt::parse_any(input)?;
                    cupti = match c.to_string().as_str() {
                        "none" => Cupti::None,
                        "as" => {
                            let inner;
                            parenthesized!(inner in input);
                            Cupti::As(inner.parse()?)
                        }
                        _ => return err(c.span(), "cupti: `none` or `as(NAME)`".into()),
                    };
                }
                _ => return err(key.span(), format!("unknown `{key}` (family, per_thread, sem, cupti)")),
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        let Some(family) = family else {
            return err(input.span(), "an export needs `family = ...`".into());
        };
        Ok(Decl { family, per_thread, sem, cupti })
    }
}

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

#[cfg(test)]
mod tests {
    use super::{Cupti, Decl};

    fn parse(s: &str) -> syn::Result<Decl> {
        syn::parse_str::<Decl>(s)
    }

    #[test]
    fn declarations() {
        let d = parse("family = Copy, per_thread = ptsz, sem = Copy(Linear), cupti = none").unwrap();
        assert_eq!(
            (d.family.to_string(), d.per_thread.unwrap().to_string(), d.cupti),
            ("Copy".into(), "ptsz".into(), Cupti::None)
        );
        assert_eq!(d.sem.unwrap().rust(), "crate::observe::sem::Op::Copy(crate::observe::sem::CopyOp::Linear)");
        let d = parse("family = Memory, sem = Free([Pinned, Registered], ptr)").unwrap();
        let s = d.sem.unwrap();
        assert_eq!(s.params().iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["ptr"]);
        assert_eq!(
            s.rust(),
            "crate::observe::sem::Op::Free(&[crate::observe::registry::Kind::Pinned, crate::observe::registry::Kind::Registered], \"ptr\")"
        );
        let d = parse("family = Launch, cupti = as(cudaLaunchKernel)").unwrap();
        assert!(matches!(d.cupti, Cupti::As(n) if n == "cudaLaunchKernel"));
    }

    #[test]
    fn table_rows() {
        use super::Table;
        use quote::ToTokens;
        let t: Table = syn::parse_str(
            "cudaEventQuery(event: cudaEvent_t) = ctx.cuEventQuery(event) [family = Event] \"Queries an event's status.\";
             /// Two lines
             /// of documentation.
             #[cfg(feature = \"abi12\")]
             cudaThreadGetLimit(pValue: *mut usize, limit: raw::cudaLimit) = fns.cuCtxGetLimit(out(pValue)?, limit.0) [family = Device];",
        )
        .unwrap();
        assert_eq!(t.rows.len(), 2);
        let written = |i: usize| t.rows[i].item().into_token_stream().to_string();
        let want: syn::ItemFn = syn::parse_quote! {
            #[doc = " Queries an event's status."]
            #[export(family = Event)]
            #[no_mangle]
            pub unsafe extern "C" fn cudaEventQuery(event: cudaEvent_t) -> cudaError_t {
                run(|| cu(rt::ctx()?.cuEventQuery(event)))
            }
        };
        assert_eq!(written(0), want.into_token_stream().to_string());
        let want: syn::ItemFn = syn::parse_quote! {
            #[doc = " Two lines"]
            #[doc = " of documentation."]
            #[cfg(feature = "abi12")]
            #[export(family = Device)]
            #[no_mangle]
            pub unsafe extern "C" fn cudaThreadGetLimit(pValue: *mut usize, limit: raw::cudaLimit) -> cudaError_t {
                run(|| cu(rt::fns()?.cuCtxGetLimit(out(pValue)?, limit.0)))
            }
        };
        assert_eq!(written(1), want.into_token_stream().to_string());
        for bad in [
            "cudaX(a: int) = ctx.cuX(a) [family = Event]",          // no semicolon
            "cudaX(a: int) = drv.cuX(a) [family = Event];",         // neither ctx nor fns
            "cudaX(a: int) = ctx.cuX(a) [family = Events];",        // the declaration checked
            "cudaX(a: int) = ctx.cuX(a) \"doc\" [family = Event];", // the doc last
            "cudaX(a: int) [family = Event];",                      // no driver call
        ] {
            assert!(syn::parse_str::<Table>(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn mistakes_are_refused() {
        for bad in [
            "",                                    // no family
            "family = Copies",                     // not a family
            "family = Copy, per_thread = ptdz",    // not a form
            "family = Copy, sem = Copy(Sideways)", // not a copy
            "family = Copy, sem = Malloc(Device)", // an argument short
            "family = Copy, sem = Teleport",       // not a meaning
            "family = Copy, colour = red",         // not a key
            "family = Copy, cupti = maybe",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} accepted");
        }
    }
}
