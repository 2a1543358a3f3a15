#!/usr/bin/env bash
# Builds another revision's runtime for bench/run.sh --against, here (cargo needed):
#   bash bench/ab-build.sh REV...
# Each REV (anything git rev-parse takes) is checked out in a worktree of its own under
# target/ab/src/ and built in release (the 13 ABI, as scripts/build.sh builds it); its
# libcudart.so.13, debug info stripped, goes to target/ab/REV/ (REV as given), with
# BUILD-INFO (the commit). scripts/gpu/gpu-bundle.sh carries target/ab/ to .gpu/ab/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
cd "$root"

(($#)) || header_usage
for rev in "$@"; do
    commit=$(git rev-parse --verify "$rev^{commit}") || { echo "ab-build: no revision $rev" >&2; exit 1; }
    dest=target/ab/$rev
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
    cargo build --release -q -p cudart-rs --manifest-path "$src/Cargo.toml" --target-dir target/ab/cargo
    mkdir -p "$dest"
    cp target/ab/cargo/release/libcudart.so "$dest/libcudart.so.13"
    strip --strip-debug "$dest/libcudart.so.13"
    printf 'commit %s\nrevision %s\n' "$commit" "$rev" >"$dest/BUILD-INFO"
    echo "ab-build: $dest/libcudart.so.13"
done
