#!/usr/bin/env bash
# Builds another revision's runtime for bench/run.sh --against, here (cargo needed):
#   bash bench/ab-build.sh [--bare] REV...
# Each REV (anything git rev-parse takes) is checked out in a worktree of its own under
# target/ab/src/ and built in release (the 13 ABI, as scripts/build.sh builds it); its
# libcudart.so.13, debug info stripped, goes to target/ab/REV/ (REV as given), with
# BUILD-INFO (the commit). scripts/gpu/gpu-bundle.sh carries target/ab/ to .gpu/ab/.
# --bare: built with CUDART_RS_BARE_EXPORTS=1 (each exported name the export's own code, no
# observation shim), into target/ab/REV-bare/: what the shims cost with observation off.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$root"

bare=
[[ ${1:-} == --bare ]] && { bare=1; shift; }
(($#)) || header_usage
export CUDART_RS_BARE_EXPORTS=${bare:-0}
for rev in "$@"; do
    commit=$(git rev-parse --verify "$rev^{commit}") || { echo "ab-build: no revision $rev" >&2; exit 1; }
    dest=target/ab/$rev${bare:+-bare}
    if [[ -f $dest/libcudart.so.13 && $(sed -n 's/^commit //p' "$dest/BUILD-INFO" 2>/dev/null) == "$commit" ]]; then
        echo "ab-build: $rev ($commit) already in $dest"
        continue
    fi
    src=target/ab/src
    if [[ -d $src ]]; then
        git -C "$src" checkout -q --detach "$commit"
    else
        git worktree add -q --detach "$src" "$commit"
    fi
    echo "ab-build: building $rev ($commit)"
    cargo build --release -q -p cudart-rs --manifest-path "$src/Cargo.toml" --target-dir "target/ab/cargo${bare:+-bare}"
    mkdir -p "$dest"
    cp "target/ab/cargo${bare:+-bare}/release/libcudart.so" "$dest/libcudart.so.13"
    strip --strip-debug "$dest/libcudart.so.13"
    printf 'commit %s\nrevision %s%s\n' "$commit" "$rev" "${bare:+ (CUDART_RS_BARE_EXPORTS=1: no shims)}" >"$dest/BUILD-INFO"
    echo "ab-build: $dest/libcudart.so.13"
done
