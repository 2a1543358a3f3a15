#!/usr/bin/env bash
# What a newer NVIDIA runtime adds or changes against ours: given an nvidia-cuda-runtime wheel
# (or the folder it unpacks to), lists
#   - the functions its libcudart.so.N exports that ours (the export manifest, dist/exports.tsv, which
#     scripts/build.sh writes) does not, and those ours exports that it no longer does;
#   - for each of those new functions, its declaration in the wheel's cuda_runtime_api.h;
#   - the functions both declare whose declarations differ (whitespace, parameter names,
#     default arguments and struct/enum/union keywords aside; typedef aliases such as
#     cudaStreamAttrID for enum cudaLaunchAttributeID are still listed);
#   - its CUDART_VERSION against our header's.
# Usage: scripts/dev/new-exports.sh WHEEL.whl|DIR [13|12]     (ABI 13 by default)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"
[[ $# -ge 1 ]] || header_usage
src=$1 abi=${2:-13}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -f $src ]]; then
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$src" "$work/w" || die "cannot unpack $src"
    src=$work/w
fi
lib=$(find "$src" -name "libcudart.so.$abi" | head -1)
hdr=$(find "$src" -name cuda_runtime_api.h | head -1)
[[ -n $lib && -n $hdr ]] || die "no libcudart.so.$abi and cuda_runtime_api.h under $1"

readelf --dyn-syms -W "$lib" | awk '$5 == "GLOBAL" && $7 != "UND" && $4 == "FUNC" {sub(/@.*/, "", $8); print $8}' | sort -u >"$work/theirs"
[[ -f dist/exports.tsv ]] || { echo "new-exports: no dist/exports.tsv (the export manifest): run scripts/build.sh" >&2; exit 1; }
# Ours of NVIDIA's functions (not those its declaration says NVIDIA's library lacks, `nvidia = false`).
awk -F'\t' -v abi="$abi" 'NR > 1 && index("," $6 ",", "," abi ",") && $7 == "yes" { print $1 }' dist/exports.tsv |
    sort -u >"$work/ours"

# Declarations, one a line: NAME<TAB>normalised declaration (parameter names dropped).
decls() {
    python3 - "$1" <<'EOF'
import re, sys
TYPE_WORDS = {"int", "long", "char", "short", "double", "float", "void", "unsigned", "signed", "const"}
text = open(sys.argv[1]).read()
text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
text = re.sub(r"//[^\n]*", " ", text)
text = re.sub(r"^\s*#[^\n]*(\\\n[^\n]*)*", " ", text, flags=re.M)
for m in re.finditer(r"(?:extern\s+)?([\w\s\*]*?)\b(cuda\w+)\s*\(([^;{}]*?)\)\s*;", text):
    ret, name, params = m.groups()
    ret = re.sub(r"\b(extern|__host__|__device__|__cudart_builtin__|CUDARTAPI|__dv\(\w*\)|CUDART_CB|__CUDA_DEPRECATED|__CUDART_API_PTDS|__CUDART_API_PTSZ)\b", " ", ret)
    params = re.sub(r"__dv\([^)]*\)|\bCUDART_CB\b", "", params)
    ps = []
    for p in params.split(","):
        p = re.sub(r"=.*$", "", p)
        p = " ".join(p.replace("*", " * ").split())
        # Drop the parameter's name: a last word that follows a type.
        words = p.split()
        if len(words) > 1 and re.match(r"^\w+$", words[-1]) and words[-1] not in TYPE_WORDS \
                and not (len(words) == 2 and words[0] in ("struct", "enum", "union")):
            words = words[:-1]
        ps.append(" ".join(w for w in words if w not in ("struct", "enum", "union")).replace(" *", "*"))
    ret = " ".join(ret.replace("*", " * ").split()).replace(" *", "*")
    print("%s\t%s(%s)" % (name, ret, ", ".join(ps)))
EOF
}
decls "$hdr" | sort -u -t$'\t' -k1,1 >"$work/theirs.decl"
decls include/cuda_runtime_api.h | sort -u -t$'\t' -k1,1 >"$work/ours.decl"

echo "== $(basename "$lib") of $1: $(wc -l <"$work/theirs") exports; ours (dist/exports.tsv): $(wc -l <"$work/ours")"
echo "== CUDART_VERSION: theirs $(awk '/#define CUDART_VERSION/ {print $3; exit}' "$hdr"), ours $(awk '/#define CUDART_VERSION/ {print $3; exit}' include/cuda_runtime_api.h)"
echo "== exported by it, not by ours:"
comm -23 "$work/theirs" "$work/ours" | while read -r n; do
    d=$(awk -F'\t' -v n="$n" '$1 == n {print $2}' "$work/theirs.decl")
    base=${n%_ptsz}; base=${base%_ptds}
    [[ -z $d && $base != "$n" ]] && d="(per-thread form of $base)"
    echo "  $n: ${d:-(no declaration in cuda_runtime_api.h)}"
done
echo "== exported by ours, not by it:"
comm -13 "$work/theirs" "$work/ours" | sed 's/^/  /'
echo "== declared by both, differently (theirs / ours):"
join -t$'\t' "$work/theirs.decl" "$work/ours.decl" | awk -F'\t' '$2 != $3 {printf "  %s\n    %s\n    %s\n", $1, $2, $3}'
