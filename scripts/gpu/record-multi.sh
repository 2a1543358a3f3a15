#!/usr/bin/env bash
# Records NVIDIA's outputs of the tests of several devices, brought back from a GPU machine by
# scripts/gpu/gpu-multi.sh, into the repository:
#   bash scripts/gpu/record-multi.sh PATH/multi2-expected.tgz [PATH/multi4-expected.tgz ...]
# For each tarball: expected/<abi>/multi<N>/<name>.out replace ctest/expected/<abi>/multi<N>/
# (the folder is emptied first, so a test no longer there leaves no output behind), and its
# machine.txt (the GPUs, driver, topology) becomes ctest/expected/multi<N>-machine.txt. Then it
# lists what it recorded and, from the C test logs in the tarball, the tests whose runs under
# ours did not print NVIDIA's output (FAIL) or skipped. Nothing is committed.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
(($#)) || header_usage
for tgz in "$@"; do
    [[ -f $tgz ]] || die "no $tgz"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    tar -C "$tmp" -xzf "$tgz" || die "cannot unpack $tgz"
    found=0
    for dir in "$tmp"/expected/*/multi*; do
        [[ -d $dir ]] || continue
        abi=$(basename "$(dirname "$dir")")
        multi=$(basename "$dir")
        [[ $abi =~ ^(12|13)$ && $multi =~ ^multi[0-9]+$ ]] || die "unexpected folder expected/$abi/$multi in $tgz"
        dest=$root/ctest/expected/$abi/$multi
        rm -rf "$dest"
        mkdir -p "$dest" || die "cannot make $dest"
        cp "$dir"/*.out "$dest"/ 2>/dev/null || true
        n=$(find "$dest" -name '*.out' | wc -l)
        echo "ctest/expected/$abi/$multi: $n outputs ($(cd "$dest" && ls -- *.out 2>/dev/null | sed 's/\.out$//' | tr '\n' ' '))"
        found=1
        if [[ -f $tmp/machine.txt ]]; then
            cp "$tmp/machine.txt" "$root/ctest/expected/$multi-machine.txt" || die "machine.txt not copied"
        fi
    done
    ((found)) || echo "record-multi: $tgz holds no expected/<abi>/multi<N>/ (a machine with fewer than two GPUs?)"
    [[ -f $tmp/machine.txt ]] && sed -n '1,/^driver/p' "$tmp/machine.txt" | sed 's/^/  machine: /'
    for log in "$tmp"/ctest*.log; do
        [[ -f $log ]] || continue
        echo "  $(basename "$log" .log): $(tail -n 1 "$log")"
        grep -E '^(FAIL|SKIP) ' "$log" | sed 's/^/    /' || true
    done
    rm -rf "$tmp"
    trap - EXIT
done
echo "record-multi: review with git status / git diff ctest/expected, then commit"
