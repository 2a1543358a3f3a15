# Shared by the scripts in scripts/ (sourced, not run): each starts with its header comment,
# then `set -uo pipefail` and `source .../lib.sh`. That is the one error mode: an unset variable
# or a failed pipeline is an error, and a failing command does not stop the script by itself:
# what must not fail says so (`|| die ...`), what may fail is counted (`N passed, N failed, N
# skipped`).

# The repository's root.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# die MESSAGE...: the script's name and MESSAGE on stderr, then exit 1.
die() {
    echo "$(basename "$0"): $*" >&2
    exit 1
}

# must CMD...: runs CMD; dies (naming it) when it fails. For a script's steps that must not fail.
must() {
    "$@" || die "failed ($?): $*"
}

# header_usage: the calling script's header comment (its lines 2 to `set -uo pipefail`, less
# the leading `# `) on stderr, then exit 2.
header_usage() {
    sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}

# out_dir NAME: where a script leaves what comes back: $OUT, else target/NAME; made, and printed
# as an absolute path (non-zero when it cannot be made).
out_dir() {
    local d=${OUT:-$root/target/$1}
    mkdir -p "$d" && (cd "$d" && pwd)
}

# gpu_machine: the GPUs, the driver and the host, then what .gpu/ carries (the bundle, our
# build); without .gpu/dist, what to do and a failed summary line, and non-zero.
gpu_machine() {
    nvidia-smi -L 2>&1 || echo "nvidia-smi -L failed"
    echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1 || echo unknown)"
    echo "host: $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), $(nproc) CPUs, gcc $(gcc -dumpfullversion 2>/dev/null)"
    if [[ ! -f $root/.gpu/dist/lib/libcudart.so.13 ]]; then
        echo "no .gpu/dist: run scripts/gpu/gpu-bundle.sh first and carry .gpu"
        echo "0 passed, 1 failed, 0 skipped"
        return 1
    fi
    echo "bundle: $(tr '\n' ' ' <"$root/.gpu/BUNDLE-INFO" 2>/dev/null)"
    echo "build: $(tr '\n' ' ' <"$root/.gpu/dist/BUILD-INFO" 2>/dev/null)"
}

# abis_of VALUE: sets abis from an --abi value (13, 12 or both); non-zero for anything else.
abis_of() {
    case ${1:-} in
        13) abis=(13) ;;
        12) abis=(12) ;;
        both) abis=(13 12) ;;
        *) return 1 ;;
    esac
}

# add_summary LINE: adds a runner's last line, `N passed, N failed, N skipped`, to the totals
# in passed, failed and skipped; non-zero (totals untouched) when LINE is not such a line.
add_summary() {
    [[ $1 =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ ]] || return 1
    passed=$((passed + BASH_REMATCH[1]))
    failed=$((failed + BASH_REMATCH[2]))
    skipped=$((skipped + BASH_REMATCH[3]))
}

# cargo_out_dir: runs `cargo build "$@" --message-format=json-render-diagnostics` (output
# as cargo renders it goes to stderr) and prints the OUT_DIR of the cudart-rs build script.
cargo_out_dir() {
    local json
    json=$(cargo build "$@" --message-format=json-render-diagnostics) || return 1
    python3 -c '
import json, re, sys
out = None
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "build-script-executed" and re.search(r"(^|#|/)cudart-rs([@ #]|$)", m.get("package_id", "")):
        out = m["out_dir"]
if not out:
    sys.exit("no cudart-rs build script output in the cargo messages")
print(out)
' <<<"$json"
}

# gpu_count: the GPUs programs see here: those CUDA_VISIBLE_DEVICES names when it is set (a
# machine of four run as one of two: CUDA_VISIBLE_DEVICES=0,1), else every GPU nvidia-smi lists.
gpu_count() {
    if [[ -n ${CUDA_VISIBLE_DEVICES:-} ]]; then
        tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -c .
    else
        nvidia-smi -L 2>/dev/null | grep -c '^GPU '
    fi
}
