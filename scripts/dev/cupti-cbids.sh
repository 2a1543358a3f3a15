#!/usr/bin/env bash
# Extracts the runtime API callback ids (name, id) from CUPTI's cupti_runtime_cbid.h into
# data/cupti-runtime-cbid-<major>.tsv, which build.rs reads: each export's callback id.
#   scripts/dev/cupti-cbids.sh PATH/TO/cupti_runtime_cbid.h 13
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
h=${1:?header}; major=${2:?ABI major}
[[ -f $h ]] || die "no $h"
out=$root/data/cupti-runtime-cbid-$major.tsv
{
  printf '# runtime API callback ids (CUPTI %s), from %s: name_vNNNN<TAB>id\n' "$major" "$(basename "$h")"
  sed -nE 's/^[[:space:]]*CUPTI_RUNTIME_TRACE_CBID_([A-Za-z0-9_]+_v[0-9]+)[[:space:]]*=[[:space:]]*([0-9]+),.*/\1\t\2/p' "$h"
} > "$out" || die "$out not written"
echo "$out: $(grep -vc '^#' "$out") ids"
