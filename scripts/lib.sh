# Shared by the scripts in scripts/ (sourced, not run).

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

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
