#!/usr/bin/env bash
# Instructions per call of the hot runtime calls, on the stand-in driver, under
# valgrind --tool=callgrind (repeatable, unlike timings on a shared machine): the guard against
# a build that makes a call cost more than the one before, which scripts/test.sh runs.
#   bash bench/callgrind.sh [--check | --update | --checked] [LIBDIR]
# LIBDIR holds libcudart.so.13 (default dist/lib; scripts/build.sh first). Prints one line per
# row of bench/callgrind.c: instructions per call, and for the rows with a driver twin (drv_*,
# the driver calls our runtime makes for the same work) the driver's share and ours minus it,
# the runtime's own cost. That cost (the whole call for a row without a twin) is what
# bench/callgrind-baseline.txt holds, a row a line:
#   --check   compares with the baseline: a row that costs more than 10% (and at least 3
#             instructions) over its baseline, or a row the baseline lacks or has alone, fails
#             the run (exit status 1). A row cheaper by more than 10% is pointed out: update
#             the baseline so that it guards the new cost.
#   --update  writes the baseline from this run. Commit it in a commit of its own whose
#             message says why the cost changed (docs/performance.md#the-instruction-count-guard).
#   --checked  the same rows with CUDART_RS_CHECKED=1 (checked mode's cost; shown, not
#             checked: docs/observation.md#checked-mode states it).
# CALLGRIND_BASELINE names another baseline file (scripts/test.sh checks with one of its rows
# lowered by a fifth that the check fails). The rows of stream capture and pools measure the
# stand-in's own implementation of them (their driver twins call the same entry points).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$root"

mode=show
checked=
case ${1:-} in
    --check) mode=check; shift ;;
    --update) mode=update; shift ;;
    --checked) mode=show checked=1; shift ;;
    -*) header_usage ;;
esac
libdir=$(cd "${1:-dist/lib}" && pwd)
standin=${CALLGRIND_STANDIN:-$root/dist/lib/stand-in/libcuda.so.1}
baseline=${CALLGRIND_BASELINE:-$root/bench/callgrind-baseline.txt}
[[ -f $libdir/libcudart.so.13 && -f $standin ]] || { echo "callgrind: no $libdir/libcudart.so.13 or stand-in (run scripts/build.sh)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "callgrind: valgrind is not installed" >&2; exit 1; }

work=$root/target/callgrind
mkdir -p "$work"
gcc -O2 -g -I include bench/callgrind.c -o "$work/callgrind" "$libdir/libcudart.so.13" -ldl -Wl,-rpath,"$libdir"
# A fixed environment: the counts of a few rows move with the size of the environment.
env -i PATH=/usr/bin:/bin CUDART_RS_DRIVER="$standin" ${checked:+CUDART_RS_CHECKED=1} valgrind --tool=callgrind \
    --callgrind-out-file="$work/callgrind.out" "$work/callgrind" >"$work/run.log" 2>&1 || { cat "$work/run.log"; exit 1; }
callgrind_annotate --inclusive=yes --threshold=100 "$work/callgrind.out" 2>/dev/null >"$work/annotate.txt"
python3 - "$work/annotate.txt" "$mode" "$baseline" <<'EOF'
import re, sys
path, mode, baseline = sys.argv[1:4]
n = 1000
rows = {}
for line in open(path):
    m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+\S*:cg_(\w+)\b", line) or re.match(r"\s*([\d,]+)\s+\S*:cg_(\w+)\b", line)
    if m:
        rows[m.group(2)] = int(m.group(1).replace(",", "")) / n
own = {}
print(f"{'call':32} {'instr/call':>10} {'driver':>8} {'ours-driver':>11}")
for name, v in rows.items():
    if name.startswith("drv_"):
        continue
    drv = rows.get("drv_" + name)
    own[name] = v - drv if drv is not None else v
    extra = f"{drv:8.0f} {v - drv:11.0f}" if drv is not None else f"{'':8} {'':11}"
    print(f"{name:32} {v:10.0f} {extra}")
if "drv_CtxGetCurrent" in rows:
    print(f"{'(driver) cuCtxGetCurrent':32} {rows['drv_CtxGetCurrent']:10.0f}")

if mode == "update":
    with open(baseline, "w") as f:
        f.write("# bench/callgrind.sh: the runtime's own instructions per call on the stand-in (ours minus the\n"
                "# driver twin, or the whole call where there is none). Written by --update; see\n"
                "# docs/performance.md#the-instruction-count-guard before changing it.\n")
        for name, v in own.items():
            f.write(f"{name} {v:.0f}\n")
    print(f"callgrind: baseline written ({len(own)} rows): {baseline}")
elif mode == "check":
    base = {}
    for line in open(baseline):
        if line.strip() and not line.startswith("#"):
            k, v = line.split()
            base[k] = float(v)
    bad = []
    for name, v in own.items():
        if name not in base:
            bad.append(f"{name}: not in the baseline (bash bench/callgrind.sh --update)")
            continue
        b = base[name]
        if v > b * 1.10 and v - b >= 3:
            bad.append(f"{name}: {v:.0f} instructions, baseline {b:.0f} (+{100 * (v - b) / max(b, 1):.0f}%)")
        elif v < b * 0.90 and b - v >= 3:
            print(f"callgrind: {name} is cheaper than its baseline ({v:.0f}, baseline {b:.0f}): update the baseline")
    for name in base:
        if name not in own:
            bad.append(f"{name}: in the baseline, not measured")
    for b in bad:
        print(f"callgrind: FAIL {b}")
    print(f"callgrind: {len(own)} rows measured, {len(bad)} over or missing from the baseline")
    sys.exit(1 if bad else 0)
EOF
