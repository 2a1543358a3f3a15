#!/usr/bin/env bash
# Instructions per call of the hot runtime calls, on the stand-in driver, under
# valgrind --tool=callgrind (repeatable, unlike timings on a shared machine).
# Usage: bash bench/callgrind.sh [LIBDIR]   (LIBDIR holds libcudart.so.13; default dist/lib)
# Needs scripts/build.sh first. Prints one line per call: instructions per call, and for the
# calls with a driver twin (drv_*), the runtime's own share (ours minus the driver's).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
libdir=$(cd "${1:-dist/lib}" && pwd)
standin=${CALLGRIND_STANDIN:-$root/dist/lib/stand-in/libcuda.so.1}
[[ -f $libdir/libcudart.so.13 && -f $standin ]] || { echo "callgrind: no $libdir/libcudart.so.13 or stand-in (run scripts/build.sh)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "callgrind: valgrind is not installed" >&2; exit 1; }

work=$root/target/callgrind
mkdir -p "$work"
gcc -O2 -g -I include bench/callgrind.c -o "$work/callgrind" "$libdir/libcudart.so.13" -ldl -Wl,-rpath,"$libdir"
CUDART_RS_DRIVER=$standin valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
    "$work/callgrind" >"$work/run.log" 2>&1 || { cat "$work/run.log"; exit 1; }
callgrind_annotate --inclusive=yes --threshold=100 "$work/callgrind.out" 2>/dev/null >"$work/annotate.txt"
python3 - "$work/annotate.txt" <<'EOF'
import re, sys
n = 1000
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+\S*:cg_(\w+)\b", line) or re.match(r"\s*([\d,]+)\s+\S*:cg_(\w+)\b", line)
    if m:
        rows[m.group(2)] = int(m.group(1).replace(",", "")) / n
print(f"{'call':32} {'instr/call':>10} {'driver':>8} {'ours-driver':>11}")
for name, v in rows.items():
    if name.startswith("drv_"):
        continue
    drv = rows.get("drv_" + name)
    extra = f"{drv:8.0f} {v - drv:11.0f}" if drv is not None else f"{'':8} {'':11}"
    print(f"{name:32} {v:10.0f} {extra}")
if "drv_CtxGetCurrent" in rows:
    print(f"{'(driver) cuCtxGetCurrent':32} {rows['drv_CtxGetCurrent']:10.0f}")
EOF
