//! `$OUT_DIR/exports.tsv`, the export manifest: every export of either ABI, one a line, with what
//! its declaration says of it. The checks and the documentation's lists and counts read it
//! (`dist/exports.tsv`, copied by scripts/build.sh): scripts/dev/coverage.py,
//! scripts/test/abi/check.py, scripts/dev/new-exports.sh.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use crate::build::api::Export;

/// The columns: the symbol; the function it is (itself, or the one whose per-thread form it
/// is); the declaration's per-thread form; the file of `src/api`; the observation family; the
/// ABIs that export it; whether NVIDIA's library exports it too; the release that added it,
/// when newer than the ABI's first; whether it is a row of a `passthrough!` table.
const HEADER: &str = "# name\tfunction\tper_thread\tfile\tfamily\tabis\tnvidia\tsince\trow";

/// Writes the manifest of the exports of the 13 and the 12 ABI.
pub fn write(abi13: &[Export], abi12: &[Export], out: &Path) {
    // Each symbol with what its declaration says (the same in both ABIs, or a line each), and
    // the ABIs that have it.
    let mut lines: BTreeMap<(String, [String; 7]), Vec<&str>> = BTreeMap::new();
    for (abi, exports) in [("13", abi13), ("12", abi12)] {
        for e in exports {
            let d = &e.decl;
            let yes = |b: bool| (if b { "yes" } else { "no" }).to_string();
            let facts = [
                e.name.clone(),
                d.per_thread.as_ref().map_or("-".into(), |p| p.to_string()),
                format!("src/api/{}.rs", e.module),
                d.family.to_string(),
                yes(d.nvidia),
                d.since.clone().unwrap_or_else(|| "-".into()),
                yes(e.row),
            ];
            for name in std::iter::once(&e.name).chain(&e.forms) {
                lines.entry((name.clone(), facts.clone())).or_default().push(abi);
            }
        }
    }
    let mut text = format!("{HEADER}\n");
    for ((name, [function, per_thread, file, family, nvidia, since, row]), abis) in lines {
        let abis = abis.join(",");
        text += &[name, function, per_thread, file, family, abis, nvidia, since, row].join("\t");
        text.push('\n');
    }
    fs::write(out.join("exports.tsv"), text).unwrap();
}
