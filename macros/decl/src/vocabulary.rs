//! The names a declaration may use, read off the observer's own enums: the families
//! (`Family`), what is allocated or made (`Kind`), the copies (`CopyOp`), the memsets
//! (`MemsetOp`), the meanings (`Op`, whose fields say what each of its arguments is) and the
//! sets of flags (`FlagSet`). The enums are the one list; a declaration that names something
//! they lack is refused.

use std::path::Path;

/// What an argument of a meaning (`sem = Op(...)`) is, from the type of the `Op` variant's
/// field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ArgKind {
    /// A `Kind`.
    Kind,
    /// A list of `Kind`s (`&'static [Kind]`), written `[Device, Pitched]`.
    Kinds,
    /// A parameter of the function, by name (`&'static str`).
    Param,
    /// A `CopyOp`.
    Copy,
    /// A `MemsetOp`.
    Memset,
}

/// The variants of the observer's enums.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    /// `Family`.
    pub families: Vec<String>,
    /// `Kind`.
    pub kinds: Vec<String>,
    /// `CopyOp`.
    pub copies: Vec<String>,
    /// `MemsetOp`.
    pub memsets: Vec<String>,
    /// `Op`: each meaning and what its arguments are.
    pub ops: Vec<(String, Vec<ArgKind>)>,
    /// `FlagSet`.
    pub flag_sets: Vec<String>,
}

/// The enums read, by name.
const ENUMS: [&str; 6] = ["Family", "Kind", "CopyOp", "MemsetOp", "Op", "FlagSet"];

impl Vocabulary {
    /// From the observer's sources: every `.rs` file under the `dirs` (`src/observe` and the
    /// figures crate's `figures/src`, which holds `Kind`), wherever in them the enums are.
    pub fn read(dirs: &[&Path]) -> Result<Vocabulary, String> {
        fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
            for e in std::fs::read_dir(dir)? {
                let p = e?.path();
                if p.is_dir() {
                    files(&p, out)?;
                } else if p.extension().is_some_and(|e| e == "rs") {
                    out.push(p);
                }
            }
            Ok(())
        }
        let mut paths = Vec::new();
        for dir in dirs {
            files(dir, &mut paths).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        paths.sort();
        let mut texts = Vec::new();
        for p in &paths {
            texts.push((
                p.display().to_string(),
                std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?,
            ));
        }
        Vocabulary::from_sources(texts.iter().map(|(p, t)| (p.as_str(), t.as_str())))
    }

    /// From source texts, (name, text).
    pub fn from_sources<'a>(sources: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Vocabulary, String> {
        let mut found: Vec<(String, syn::ItemEnum)> = Vec::new();
        for (name, text) in sources {
            let file = syn::parse_file(text).map_err(|e| format!("{name}: {e}"))?;
            for item in file.items {
                if let syn::Item::Enum(e) = item {
                    if ENUMS.contains(&e.ident.to_string().as_str()) {
                        if let Some((other, _)) = found.iter().find(|f| f.1.ident == e.ident) {
                            return Err(format!("enum {} in both {other} and {name}", e.ident));
                        }
                        found.push((name.to_string(), e));
                    }
                }
            }
        }
        let get = |n: &str| -> Result<&syn::ItemEnum, String> {
            found.iter().map(|f| &f.1).find(|e| e.ident == n).ok_or_else(|| format!("no enum {n} in the observer"))
        };
        let names = |n: &str| -> Result<Vec<String>, String> {
            Ok(get(n)?.variants.iter().map(|v| v.ident.to_string()).collect())
        };
        let mut ops = Vec::new();
        for v in &get("Op")?.variants {
            let kinds = v
                .fields
                .iter()
                .map(|f| {
                    arg_kind(&f.ty).ok_or_else(|| {
                        format!(
                            "Op::{}: a field of type `{}`, which a declaration cannot write",
                            v.ident,
                            tokens(&f.ty)
                        )
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            ops.push((v.ident.to_string(), kinds));
        }
        Ok(Vocabulary {
            families: names("Family")?,
            kinds: names("Kind")?,
            copies: names("CopyOp")?,
            memsets: names("MemsetOp")?,
            ops,
            flag_sets: names("FlagSet")?,
        })
    }

    /// What the arguments of meaning `op` are, if there is such a meaning.
    pub fn op(&self, op: &str) -> Option<&[ArgKind]> {
        self.ops.iter().find(|o| o.0 == op).map(|o| &o.1[..])
    }
}

fn tokens(t: &syn::Type) -> String {
    quote::ToTokens::to_token_stream(t).to_string()
}

/// The last name of a path type (`Kind`, `registry::Kind`).
fn last_name(t: &syn::Type) -> Option<String> {
    match t {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

fn arg_kind(t: &syn::Type) -> Option<ArgKind> {
    match t {
        syn::Type::Reference(r) => match &*r.elem {
            syn::Type::Slice(s) if last_name(&s.elem).as_deref() == Some("Kind") => Some(ArgKind::Kinds),
            e if last_name(e).as_deref() == Some("str") => Some(ArgKind::Param),
            _ => None,
        },
        t => match last_name(t)?.as_str() {
            "Kind" => Some(ArgKind::Kind),
            "CopyOp" => Some(ArgKind::Copy),
            "MemsetOp" => Some(ArgKind::Memset),
            _ => None,
        },
    }
}
