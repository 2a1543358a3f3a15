#!/usr/bin/env bash
# The host header set in include/ (docs/headers.md): the headers build.rs generates
# (build/headers.rs: from what cbindgen writes of the crate, and from its tables) into the
# build script's OUT_DIR, and those written by hand in include/ (which build.rs copies there
# too); $OUT_DIR/headers.txt lists them, `generated NAME` or `written NAME`.
#   scripts/dev/gen-header.sh           regenerate the generated ones in include/
#   scripts/dev/gen-header.sh --check   fail (with the diff) when a generated header in include/ is
#                                   not what the sources generate, for either ABI's build, or
#                                   include/ holds a header that is neither
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

# listed OUT KIND: the headers of that kind in OUT's manifest.
listed() { awk -v k="$2" '$1 == k { print $2 }' "$1/headers.txt"; }

case "${1:-}" in
    "")
        out=$(cargo_out_dir -p cudart-rs) || die "the crate does not build"
        mapfile -t gen < <(listed "$out" generated)
        for h in "${gen[@]}"; do
            mkdir -p "include/$(dirname "$h")" && cp "$out/$h" "include/$h" || die "include/$h not written"
        done
        echo "include/ regenerated: ${#gen[@]} headers ($(listed "$out" written | wc -l) more are written by hand there)"
        ;;
    --check)
        out13=$(cargo_out_dir -p cudart-rs) || die "the 13 ABI does not build"
        out12=$(cargo_out_dir -p cudart-rs --features abi12 --target-dir target/abi12) || die "the 12 ABI does not build"
        status=0
        mapfile -t gen < <(listed "$out13" generated)
        mapfile -t written < <(listed "$out13" written)
        # (At most 200 lines of diff each; the two ABIs' builds generate the same headers.)
        for h in "${gen[@]}"; do
            if [[ ! -f include/$h ]] || ! cmp -s "include/$h" "$out13/$h"; then
                diff -u "include/$h" "$out13/$h" 2>&1 | head -n 200 || true
                status=1
            fi
            if ! cmp -s "$out13/$h" "$out12/$h"; then
                echo "the abi12 build generates another $h:"
                diff -u "$out13/$h" "$out12/$h" | head -n 200 || true
                status=1
            fi
        done
        # Every header in include/ is a generated or a written one.
        while IFS= read -r f; do
            n=${f#include/}
            [[ " ${gen[*]} ${written[*]} " == *" $n "* ]] || { echo "include/$n is neither generated nor listed as written (build/headers.rs)"; status=1; }
        done < <(find include -type f | sort)
        if ((status)); then
            echo "header drift: include/ is not what the sources generate (run scripts/dev/gen-header.sh)" >&2
        else
            echo "headers: include/ is up to date (${#gen[@]} generated, ${#written[@]} written by hand)"
        fi
        exit $status
        ;;
    *) header_usage ;;
esac
