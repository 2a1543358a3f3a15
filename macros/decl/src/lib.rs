//! The declaration of an exported runtime function: the arguments of its `#[export(...)]`
//! attribute. A crate of its own, read by the attribute itself (`cudart-rs-macros`) and by the
//! build script (which checks them against the observer's names and the function, and generates
//! from them, with the function's signature, the per-thread-stream forms, the symbol versions,
//! the observation shims and table, and the tools' records):
//!
//! ```text
//! #[export(family = Copy, per_thread = ptsz, sem = Copy(Linear), cupti = none)]
//! ```
//!
//! - `family`: the observation family (the call trace's target, the summary's group): a
//!   variant of the observer's `Family` ([`Vocabulary`]). Required.
//! - `per_thread = ptds | ptsz`: the build adds `NAME_ptds` / `NAME_ptsz`, the same function
//!   with the per-thread default stream as the null stream.
//! - `sem`: what the call means to the observer ([`Sem`]): the allocations and handles it
//!   makes or frees and the parameter they are in, the bytes it moves, the kernels it
//!   launches. None: nothing to note.
//! - `cupti = none`: NVIDIA's runtime reports no tools callback for it although CUPTI has an
//!   id; `cupti = as(NAME)`: it reports the call as `NAME` (that call's id, name and
//!   parameter struct). None: its own callback, where CUPTI has an id for it.
//! - `since = 13.5`: the CUDA release that added it, when newer than the ABI's first (13.0,
//!   12.0). None: that first release.
//! - `nvidia = false`: NVIDIA's library does not export it (ours does, for programs that bind
//!   it without a C compiler). None: NVIDIA's does.
//! - `flags = HostAlloc`: the set of flags its parameter `flags` holds, which the trace names
//!   (a variant of the observer's `FlagSet`). None: a number.
//!
//! The ABIs an export exists in are its `#[cfg(feature = "abi12")]` or
//! `#[cfg(not(feature = "abi12"))]`, the compiler's own attribute.

mod table;
mod vocabulary;

pub use table::{Row, Table};
pub use vocabulary::{ArgKind, Vocabulary};

use proc_macro2::TokenStream;
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{bracketed, parenthesized, Ident, Token};

/// An argument of a [`Sem`]: a name, or a bracketed list of names.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Name(Ident),
    List(Vec<Ident>),
}

/// What the call means to the observer: `Malloc(Device, devPtr)`, `Copy(Linear)`, `Sync`: a
/// variant of the observer's `Op` and its arguments, each what the variant's field is
/// ([`ArgKind`]).
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
    /// The release that added it (`13.5`), if newer than the ABI's first.
    pub since: Option<String>,
    /// Whether NVIDIA's library exports it too.
    pub nvidia: bool,
    /// The set of flags its parameter `flags` holds.
    pub flags: Option<Ident>,
}

fn err<T>(span: proc_macro2::Span, msg: String) -> syn::Result<T> {
    Err(syn::Error::new(span, msg))
}

fn one_of(name: &Ident, set: &[impl AsRef<str>], what: &str) -> syn::Result<()> {
    if set.iter().any(|s| name == s.as_ref()) {
        Ok(())
    } else {
        let all: Vec<&str> = set.iter().map(AsRef::as_ref).collect();
        err(name.span(), format!("{what} `{name}`: expected one of {}", all.join(", ")))
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
        let mut args = Vec::new();
        if input.peek(syn::token::Paren) {
            let inner;
            parenthesized!(inner in input);
            let a: Punctuated<Arg, Token![,]> = inner.parse_terminated(Arg::parse, Token![,])?;
            args = a.into_iter().collect();
        }
        Ok(Sem { op, args })
    }
}

impl Sem {
    /// What its arguments are: the fields of its `Op` variant.
    fn shape<'v>(&self, v: &'v Vocabulary) -> syn::Result<&'v [ArgKind]> {
        let Some(kinds) = v.op(&self.op.to_string()) else {
            let all: Vec<&str> = v.ops.iter().map(|o| o.0.as_str()).collect();
            return err(self.op.span(), format!("meaning `{}`: expected one of {}", self.op, all.join(", ")));
        };
        Ok(kinds)
    }

    /// Checks it against the observer's names.
    pub fn check(&self, v: &Vocabulary) -> syn::Result<()> {
        let op = &self.op;
        let kinds = self.shape(v)?;
        if self.args.len() != kinds.len() {
            return err(op.span(), format!("`{op}` takes {} argument(s), not {}", kinds.len(), self.args.len()));
        }
        for (a, k) in self.args.iter().zip(kinds.iter()) {
            match (a, k) {
                (Arg::Name(n), ArgKind::Kind) => one_of(n, &v.kinds, "kind")?,
                (Arg::List(ns), ArgKind::Kinds) => {
                    for n in ns {
                        one_of(n, &v.kinds, "kind")?;
                    }
                }
                (Arg::Name(n), ArgKind::Copy) => one_of(n, &v.copies, "copy")?,
                (Arg::Name(n), ArgKind::Memset) => one_of(n, &v.memsets, "memset")?,
                (Arg::Name(_), ArgKind::Param) => {}
                _ => return err(op.span(), format!("`{op}`: argument of the wrong form ({k:?} expected)")),
            }
        }
        Ok(())
    }

    /// The parameters it names.
    pub fn params(&self, v: &Vocabulary) -> Vec<&Ident> {
        let kinds = self.shape(v).unwrap_or(&[]);
        self.args
            .iter()
            .zip(kinds.iter())
            .filter_map(|(a, k)| match (a, k) {
                (Arg::Name(n), ArgKind::Param) => Some(n),
                _ => None,
            })
            .collect()
    }

    /// As a Rust expression of `crate::observe::sem::Op` (once [`Sem::check`]ed).
    pub fn tokens(&self, v: &Vocabulary) -> TokenStream {
        let op = &self.op;
        let kinds = self.shape(v).unwrap_or(&[]);
        if kinds.is_empty() {
            return quote!(crate::observe::sem::Op::#op);
        }
        let args = self.args.iter().zip(kinds.iter()).map(|(a, k)| match (a, k) {
            (Arg::List(ns), _) => quote!(&[#(crate::observe::registry::Kind::#ns),*]),
            (Arg::Name(n), ArgKind::Kind) => quote!(crate::observe::registry::Kind::#n),
            (Arg::Name(n), ArgKind::Kinds) => quote!(&[crate::observe::registry::Kind::#n]),
            (Arg::Name(n), ArgKind::Param) => {
                let s = n.to_string();
                let s = s.trim_start_matches("r#");
                quote!(#s)
            }
            (Arg::Name(n), ArgKind::Copy) => quote!(crate::observe::sem::CopyOp::#n),
            (Arg::Name(n), ArgKind::Memset) => quote!(crate::observe::sem::MemsetOp::#n),
        });
        quote!(crate::observe::sem::Op::#op(#(#args),*))
    }
}

impl Decl {
    /// Checks it against the observer's names and the function's parameters (`params`, as
    /// written).
    pub fn check(&self, v: &Vocabulary, params: &[String]) -> syn::Result<()> {
        one_of(&self.family, &v.families, "family")?;
        if let Some(f) = &self.flags {
            one_of(f, &v.flag_sets, "flag set")?;
            if !params.iter().any(|q| q == "flags") {
                return err(f.span(), "`flags = ...` names the set of a parameter `flags`, which it lacks".into());
            }
        }
        if let Some(sem) = &self.sem {
            sem.check(v)?;
            for p in sem.params(v) {
                if !params.iter().any(|q| p == q) {
                    return err(p.span(), format!("`{p}` is no parameter of the function"));
                }
            }
        }
        Ok(())
    }
}

impl Parse for Decl {
    fn parse(input: ParseStream) -> syn::Result<Decl> {
        let mut family = None;
        let mut per_thread = None;
        let mut sem = None;
        let mut cupti = Cupti::Own;
        let mut since = None;
        let mut nvidia = true;
        let mut flags = None;
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            match key.to_string().as_str() {
                "family" => family = Some(input.parse()?),
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
                "since" => {
                    let v: syn::LitFloat = input.parse()?;
                    since = Some(v.base10_digits().to_string());
                }
                "nvidia" => nvidia = input.parse::<syn::LitBool>()?.value,
                "flags" => flags = Some(input.parse()?),
                _ => {
                    let keys = "family, per_thread, sem, cupti, since, nvidia, flags";
                    return err(key.span(), format!("unknown `{key}` ({keys})"));
                }
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        let Some(family) = family else {
            return err(input.span(), "an export needs `family = ...`".into());
        };
        Ok(Decl { family, per_thread, sem, cupti, since, nvidia, flags })
    }
}

#[cfg(test)]
mod tests {
    use super::{ArgKind, Cupti, Decl, Table, Vocabulary};

    fn parse(s: &str) -> syn::Result<Decl> {
        syn::parse_str::<Decl>(s)
    }

    /// The observer's enums, as far as these tests need them.
    fn vocabulary() -> Vocabulary {
        let observer = "
            pub enum Family { Memory, Copy, Launch }
            mod registry_like {}
            pub enum Kind { Device, Pinned, Registered, Stream }
            pub(crate) enum Op {
                None,
                Malloc(Kind, &'static str),
                Free(&'static [Kind], &'static str),
                Copy(CopyOp),
                Memset(MemsetOp),
                Sync,
            }
            pub(crate) enum CopyOp { Linear, Peer }
            pub(crate) enum MemsetOp { Linear }
            pub enum FlagSet { HostAlloc }
        ";
        Vocabulary::from_sources([("observer.rs", observer)]).unwrap()
    }

    fn tokens(d: &Decl) -> String {
        d.sem.as_ref().unwrap().tokens(&vocabulary()).to_string()
    }

    #[test]
    fn the_vocabulary_is_the_observers_enums() {
        let v = vocabulary();
        assert_eq!(v.families, ["Memory", "Copy", "Launch"]);
        assert_eq!(v.op("Free"), Some(&[ArgKind::Kinds, ArgKind::Param][..]));
        assert_eq!(v.op("Copy"), Some(&[ArgKind::Copy][..]));
        assert_eq!(v.op("Sync"), Some(&[][..]));
        assert!(Vocabulary::from_sources([("a.rs", "enum Family { A }")]).is_err(), "no Kind, Op, ...");
        let odd = "enum Family {A} enum Kind {B} enum CopyOp {C} enum MemsetOp {D} enum FlagSet {E} enum Op { X(u32) }";
        assert!(Vocabulary::from_sources([("a.rs", odd)]).unwrap_err().contains("Op::X"));
        // The crate's own observer.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let v = Vocabulary::read(&[&root.join("src/observe"), &root.join("figures/src")]).unwrap();
        assert!(v.families.iter().any(|f| f == "Memory") && v.kinds.iter().any(|k| k == "Pinned"));
        assert_eq!(v.op("Malloc"), Some(&[ArgKind::Kind, ArgKind::Param][..]));
    }

    #[test]
    fn declarations() {
        let v = vocabulary();
        let d = parse("family = Copy, per_thread = ptsz, sem = Copy(Linear), cupti = none").unwrap();
        d.check(&v, &[]).unwrap();
        assert_eq!(
            tokens(&d),
            quote::quote!(crate::observe::sem::Op::Copy(crate::observe::sem::CopyOp::Linear)).to_string()
        );
        assert_eq!(
            (d.family.to_string(), d.per_thread.unwrap().to_string(), d.cupti),
            ("Copy".into(), "ptsz".into(), Cupti::None)
        );
        let d = parse("family = Memory, sem = Free([Pinned, Registered], ptr)").unwrap();
        d.check(&v, &["ptr".into()]).unwrap();
        let s = d.sem.as_ref().unwrap();
        assert_eq!(s.params(&v).iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["ptr"]);
        let want = quote::quote!(crate::observe::sem::Op::Free(
            &[crate::observe::registry::Kind::Pinned, crate::observe::registry::Kind::Registered],
            "ptr"
        ));
        assert_eq!(tokens(&d), want.to_string());
        let d = parse("family = Launch, cupti = as(cudaLaunchKernel)").unwrap();
        assert!(matches!(d.cupti, Cupti::As(n) if n == "cudaLaunchKernel"));
        let d = parse("family = Launch, since = 13.5").unwrap();
        assert_eq!((d.since.as_deref(), d.nvidia), (Some("13.5"), true));
        let d = parse("family = Memory, nvidia = false").unwrap();
        assert_eq!((d.since, d.nvidia), (None, false));
        let d = parse("family = Memory, flags = HostAlloc").unwrap();
        d.check(&v, &["pHost".into(), "flags".into()]).unwrap();
        assert_eq!(d.flags.unwrap(), "HostAlloc");
    }

    #[test]
    fn table_rows() {
        use quote::ToTokens;
        let t: Table = syn::parse_str(
            "cudaEventQuery(event: cudaEvent_t) = ctx.cuEventQuery(event) [family = Event]
                 \"Queries an event's status.\";
             /// Two lines
             /// of documentation.
             #[cfg(feature = \"abi12\")]
             cudaThreadGetLimit(pValue: *mut usize, limit: raw::cudaLimit)
                 = fns.cuCtxGetLimit(out(pValue)?, limit.0) [family = Device];",
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
            "cudaX(a: int) = ctx.cuX(a) [family Event];",           // the declaration parsed
            "cudaX(a: int) = ctx.cuX(a) \"doc\" [family = Event];", // the doc last
            "cudaX(a: int) [family = Event];",                      // no driver call
        ] {
            assert!(syn::parse_str::<Table>(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn mistakes_are_refused() {
        let v = vocabulary();
        for bad in [
            "",                                 // no family
            "family = Copy, per_thread = ptdz", // not a form
            "family = Copy, colour = red",      // not a key
            "family = Copy, cupti = maybe",
            "family = Copy, since = soon",
            "family = Copy, nvidia = no",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} accepted");
        }
        for bad in [
            "family = Copies",                           // not a family
            "family = Copy, sem = Copy(Sideways)",       // not a copy
            "family = Copy, sem = Malloc(Device)",       // an argument short
            "family = Copy, sem = Teleport",             // not a meaning
            "family = Copy, sem = Malloc(Device, ptr2)", // not a parameter
            "family = Copy, sem = Free(Device, ptr)",    // a kind where a list is
            "family = Copy, flags = Sideways",           // not a set of flags
            "family = Copy, flags = HostAlloc",          // no parameter `flags`
        ] {
            let d = parse(bad).unwrap();
            assert!(d.check(&v, &["ptr".into()]).is_err(), "{bad:?} accepted");
        }
    }
}
