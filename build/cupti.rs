//! Each export's runtime API callback id (CUPTI's `CUpti_runtime_api_trace_cbid`), from the
//! facts in `data/cupti-runtime-cbid-<major>.tsv` (scripts/dev/cupti-cbids.sh extracts them
//! from CUPTI's header): the id of the newest `<name>_vNNNN`. The shims index the tools' enable
//! array with it (`crate::observe::tools`); 0 (no call has it) for an export without one.
//!
//! The declarations say where NVIDIA's runtime differs: `cupti = none` (no callback although
//! CUPTI has an id) and `cupti = as(NAME)` (reported as that call, the per-thread form as that
//! call's).

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use cudart_rs_decl::Cupti;

use crate::build::api::Export;

/// The callback ids of this ABI's exports.
pub struct Tools {
    /// Name -> (newest version, its id).
    ids: HashMap<String, (u32, u32)>,
    /// (export, the call it is reported as).
    reported_as: Vec<(String, String)>,
}

impl Tools {
    pub fn new(root: &Path, major: u32, exports: &[Export]) -> Tools {
        let mut none = Vec::new();
        let mut reported_as = Vec::new();
        for e in exports {
            match &e.decl.cupti {
                Cupti::Own => {}
                Cupti::None => none.push(e.name.as_str()),
                Cupti::As(to) => {
                    reported_as.push((e.name.clone(), to.to_string()));
                    for a in &e.forms {
                        reported_as.push((a.clone(), format!("{to}{}", &a[e.name.len()..])));
                    }
                }
            }
        }
        let f = root.join(format!("data/cupti-runtime-cbid-{major}.tsv"));
        let f = if f.exists() { f } else { root.join("data/cupti-runtime-cbid-13.tsv") };
        println!("cargo:rerun-if-changed={}", f.display());
        let text = fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let mut ids: HashMap<String, (u32, u32)> = HashMap::new();
        for l in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
            let (full, id) = l.split_once('\t').unwrap_or_else(|| panic!("bad line {l:?}"));
            let id: u32 = id.trim().parse().unwrap();
            let at = full.rfind("_v").unwrap_or_else(|| panic!("no version in {full}"));
            let (name, ver) = (&full[..at], full[at + 2..].parse::<u32>().unwrap());
            if none.contains(&name) {
                continue;
            }
            assert!((id as usize) < 1024, "callback id {id} past the enable array");
            let e = ids.entry(name.to_string()).or_insert((ver, id));
            if ver >= e.0 {
                *e = (ver, id);
            }
        }
        Tools { ids, reported_as }
    }

    /// The call that export `name` is reported to tools as: mostly itself.
    pub fn reported_as<'a>(&'a self, name: &'a str) -> &'a str {
        match self.reported_as.iter().find(|r| r.0 == name) {
            Some((_, to)) if self.ids.contains_key(name) => to,
            _ => name,
        }
    }

    /// The callback id of export `name` (0: none).
    pub fn id(&self, name: &str) -> u32 {
        self.ids.get(self.reported_as(name)).map_or(0, |i| i.1)
    }

    /// The name of CUPTI's parameter struct of call `name` (`<name>_v<N>_params`).
    pub fn params_struct(&self, name: &str) -> String {
        format!("{name}_v{}_params", self.ids[name].0)
    }
}
