#!/usr/bin/env bash
# Follows README.md's Install section word for word in a fresh clone of this repository (its
# HEAD), on the stand-in driver, as a new user on a machine without a GPU would:
#   - each block marked <!-- install: pip -->, <!-- install: source --> and <!-- install: deb -->
#     is run line by line as written, in one shell (HOME a new empty folder, no input);
#   - after each, the block <!-- try --> the same way: cudart-rs doctor must say where the
#     libraries came from and name the stand-in, cudart-rs run --standin --summary print the
#     program's output and a summary with its calls; man must find the manual page;
#   - after source and deb, the lines of the block <!-- build --> that hold no "...", with
#     app.c a copy of examples/demo.c: the program needs the installed libcudart.so.13, finds it
#     and runs on the stand-in.
# The pip way runs where python3 -m venv works. The ways with sudo write /usr/local, /usr and the
# package database: as root they run in a private mount namespace whose /usr, /etc and /var are
# overlays (unshare: nothing reaches the machine), else in CI or with CUDART_RS_DEB_TEST=1 on the
# machine itself and removed after (install.sh --uninstall, apt-get purge), else are skipped.
# sudo, for root without it, runs the command as it is.
# The clone's cargo build starts from this checkout's (target/release, target/abi12/release and
# target/wheel-cargo copied; the clone's files given this checkout's times where their content
# is the same; the build scripts' recorded paths moved to the clone), so that scripts/build.sh
# there compiles only what differs from this checkout's last build.
# Usage: scripts/package/readme-check.sh [--only pip|source|deb]
# Prints a line per check; the last is `N passed, N failed, N skipped`; exit status non-zero on
# a failure.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

only=
case "${1:-}" in
    --only) only=${2:?}; [[ $only == pip || $only == source || $only == deb ]] || header_usage ;;
    "") ;;
    *) header_usage ;;
esac
passed=0 failed=0 skipped=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
skip() { echo "skipped: $*"; skipped=$((skipped + 1)); }
finish() { echo "$passed passed, $failed failed, $skipped skipped"; ((failed == 0)); exit; }

command -v git >/dev/null && git rev-parse --git-dir >/dev/null 2>&1 || { skip "not a git checkout: no clone to make"; finish; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[[ -n ${KEEP:-} ]] && trap 'echo "kept $tmp"' EXIT

# The blocks, by their markers.
mkdir -p "$tmp/blocks"
python3 - "$tmp/blocks" <<'EOF' || { bad "README.md: the Install section's marked blocks"; finish; }
import re, sys
text = open("README.md").read()
install = text[text.index("\n## Install\n"):]
install = install[: install.index("\n## ", 1)]
found = re.findall(r"<!-- (install: \w+|try|build) -->\n```sh\n(.*?)```", install, re.S)
names = [n.replace("install: ", "") for n, _ in found]
if sorted(names) != ["build", "deb", "pip", "source", "try"]:
    sys.exit(f"README.md's Install section marks {names}, not pip, source, deb, try and build")
for name, (_, body) in zip(names, found):
    open(f"{sys.argv[1]}/{name}", "w").write(body)
EOF

# The clone, and the cargo build it starts from.
clone=$tmp/clone
if ! git clone -q "$root" "$clone" 2>"$tmp/clone.log" || ! git -C "$clone" checkout -q "$(git rev-parse HEAD)" 2>>"$tmp/clone.log"; then
    cat "$tmp/clone.log"
    bad "git clone of this checkout"
    finish
fi
mkdir -p "$clone/target/abi12"
for d in release abi12/release wheel-cargo; do
    [[ -d target/$d ]] && cp -a "target/$d" "$clone/target/$d"
done
python3 - "$root" "$clone" <<'EOF'
import filecmp, glob, os, subprocess, sys
root, clone = sys.argv[1], sys.argv[2]
os.chdir(clone)
files = [f for f in subprocess.run(["git", "ls-files", "-z"], capture_output=True).stdout.decode().split("\0") if f]
def same_time(path):
    st = os.stat(os.path.join(root, path))
    os.utime(path, (st.st_atime, st.st_mtime), follow_symlinks=False)
dirs = set()
for f in files:
    d = os.path.dirname(f)
    while d:
        dirs.add(d)
        d = os.path.dirname(d)
    src = os.path.join(root, f)
    if os.path.isfile(src) and not os.path.islink(f) and filecmp.cmp(src, f, shallow=False):
        same_time(f)
for d in sorted(dirs, key=len, reverse=True):
    if os.path.isdir(os.path.join(root, d)):
        same_time(d)
for out in glob.glob("target/**/build/*/output", recursive=True) + glob.glob("target/**/build/*/root-output", recursive=True):
    with open(out, "rb") as f:
        s = f.read()
    if root.encode() in s:
        st = os.stat(out)
        with open(out, "wb") as f:
            f.write(s.replace(root.encode(), clone.encode()))
        os.utime(out, (st.st_atime, st.st_mtime))
EOF
cp examples/demo.c "$tmp/app.c"

# What each way must show: where cudart-rs lands, how doctor says the libraries were found.
declare -A cmd=([pip]=HOME/venv/bin/cudart-rs [source]=/usr/local/bin/cudart-rs [deb]=/usr/bin/cudart-rs)
declare -A from=([pip]="the wheel's Python package" [source]="scripts/package/install.sh" [deb]="the Debian packages")
has_driver=0
ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 ' && has_driver=1
# The environment of a way: a new HOME; cargo, rustup and pyenv kept where they are.
export CARGO_HOME=${CARGO_HOME:-$HOME/.cargo} RUSTUP_HOME=${RUSTUP_HOME:-$HOME/.rustup}
[[ -d ${PYENV_ROOT:-$HOME/.pyenv} ]] && export PYENV_ROOT=${PYENV_ROOT:-$HOME/.pyenv}
export PIP_CACHE_DIR=${PIP_CACHE_DIR:-$HOME/.cache/pip} PIP_DISABLE_PIP_VERSION_CHECK=1
mkdir -p "$tmp/shim"
if [[ $(id -u) == 0 ]] && ! command -v sudo >/dev/null; then
    printf '#!/bin/sh\nexec "$@"\n' >"$tmp/shim/sudo"
    chmod +x "$tmp/shim/sudo"
fi

# script WAY: the shell script that runs the way's lines, the try block's, and for source and
# deb the build block's, each as written (a line that fails ends it, said).
script() {
    local way=$1 f=$tmp/$1.sh l
    {
        echo 'set -o pipefail'
        echo "cd $(printf '%q' "$clone")"
        # shellcheck disable=SC2016  # expanded when the script runs
        echo 'line() { printf "+ %s\n" "$1"; eval "$1" || { echo "README line failed (exit $?): $1"; exit 1; }; }'
        while IFS= read -r l; do [[ -n $l ]] && printf 'line %q\n' "$l"; done <"$tmp/blocks/$way"
        echo 'echo "== installed: $(command -v cudart-rs)"; echo "== man: $(realpath "$(man -w cudart-rs 2>/dev/null)")"'
        echo 'echo "== try"'
        while IFS= read -r l; do [[ -n $l ]] && printf 'line %q\n' "$l"; done <"$tmp/blocks/try"
        if [[ $way != pip ]]; then
            echo 'echo "== build"'
            echo "cd $(printf '%q' "$tmp")"
            while IFS= read -r l; do [[ -n $l && ${l%%#*} != *...* ]] && printf 'line %q\n' "$l"; done <"$tmp/blocks/build"
            echo 'echo "== app needs: $(ldd ./app | awk '\''$1 == "libcudart.so.13" { print $3 }'\'')"'
            echo 'cudart-rs run --standin -- ./app'
        fi
    } >"$f"
    echo "$f"
}

# judge WAY LOG HOME: the checks on what the way printed.
judge() {
    local way=$1 log=$2 home=$3 want=${cmd[$1]/HOME/$3} try
    if grep -q '^README line failed' "$log"; then
        tail -n 25 "$log"
        bad "[$way] $(grep '^README line failed' "$log")"
        return
    fi
    ok "[$way] README's $(grep -c '' "$tmp/blocks/$way") lines ran as written ($(grep -v '^ *$' "$tmp/blocks/$way" | sed 's/ *#.*//' | paste -sd ';' | cut -c1-150))"
    if grep -qx "== installed: $want" "$log" && { ! command -v man >/dev/null || grep -q "^== man: $(realpath -m "${want%/bin/cudart-rs}/share/man/man1")/cudart-rs.1" "$log"; }; then
        ok "[$way] cudart-rs on PATH at $want, its manual page found by man"
    else
        grep '^== ' "$log"
        bad "[$way] cudart-rs not at $want, or man does not find its page"
    fi
    try=$(sed -n '/^== try$/,/^== build$/p' "$log")
    if [[ $(grep -m 1 '^  from: ' <<<"$try") == *"${from[$way]}"* ]] && { ((has_driver)) || [[ $try == *"cudart-rs run --standin -- PROGRAM"* ]]; } &&
        [[ $try == *"copied 1048576 bytes there and back: same"* ]] && grep -qE ' 1 +0 .* cudaMalloc$' <<<"$try"; then
        ok "[$way] then README's try lines: doctor (the libraries from ${from[$way]}; the stand-in named), run --standin --summary (the program's output, cudaMalloc in the summary)"
    else
        echo "$try" | tail -n 40
        bad "[$way] README's try lines: doctor or run --standin --summary"
    fi
    [[ $way == pip ]] && return
    if grep -q '^== app needs: .*/cudart-rs/libcudart.so.13$' "$log" && grep -q '^host -> pitched -> linear -> memset -> pinned -> host: all bytes right$' "$log"; then
        ok "[$way] then README's build line: app.c built with pkg-config needs $(sed -n 's/^== app needs: //p' "$log") and runs on the stand-in"
    else
        sed -n '/^== build$/,$p' "$log" | tail -n 20
        bad "[$way] README's build line, or the program on the stand-in"
    fi
}

# The pip way: no root needed.
if [[ -z $only || $only == pip ]]; then
    if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
        skip "[pip] python3 has no venv module (Debian and Ubuntu: apt-get install python3-venv)"
    else
        mkdir -p "$tmp/home-pip"
        s=$(script pip)
        (HOME=$tmp/home-pip PATH="$tmp/shim:$PATH" bash "$s" </dev/null >"$tmp/pip.log" 2>&1)
        judge pip "$tmp/pip.log" "$tmp/home-pip"
    fi
fi

# The ways with sudo.
overlay() { # true when a private mount namespace with overlays can be made here
    [[ $(id -u) == 0 ]] && command -v unshare >/dev/null &&
        unshare -m sh -c 'mount -t tmpfs t "$1" && mkdir "$1/u" "$1/w" &&
            mount -t overlay o -o lowerdir=/etc,upperdir="$1/u",workdir="$1/w" /etc' _ "$tmp/probe" 2>/dev/null
}
mkdir -p "$tmp/probe"
how=
if overlay; then
    how=namespace
elif [[ $(id -u) == 0 && (${CI:-} == true || ${CUDART_RS_DEB_TEST:-} == 1) ]]; then
    how=machine
fi
for way in source deb; do
    [[ -z $only || $only == "$way" ]] || continue
    if [[ -z $how ]]; then
        skip "[$way] README's sudo lines: not root, or no private mount namespace and not CI (CUDART_RS_DEB_TEST=1 runs them on this machine)"
        continue
    fi
    if [[ $way == deb ]] && ! { command -v dpkg-buildpackage && command -v dh && command -v lintian; } >/dev/null; then
        skip "[deb] no dpkg-buildpackage, debhelper or lintian (apt-get install dpkg-dev debhelper lintian)"
        continue
    fi
    mkdir -p "$tmp/home-$way"
    s=$(script "$way")
    if [[ $how == namespace ]]; then
        # /usr, /etc and /var as overlays whose changes live in $tmp/ov-$way and go with it.
        (HOME=$tmp/home-$way PATH="$tmp/shim:$PATH" unshare -m bash -c '
            set -e
            mount --make-rprivate /
            for d in usr etc var; do
                mkdir -p "$1/$d/u" "$1/$d/w"
                mount -t overlay o -o lowerdir=/$d,upperdir="$1/$d/u",workdir="$1/$d/w" /$d
            done
            exec bash "$2"' _ "$tmp/ov-$way" "$s" </dev/null >"$tmp/$way.log" 2>&1)
    else
        (HOME=$tmp/home-$way PATH="$tmp/shim:$PATH" bash "$s" </dev/null >"$tmp/$way.log" 2>&1)
    fi
    judge "$way" "$tmp/$way.log" "$tmp/home-$way"
    if [[ $how == machine ]]; then
        if [[ $way == source ]]; then
            (cd "$clone" && bash scripts/package/install.sh --standin --uninstall >/dev/null)
        else
            apt-get purge -y -q libcudart-rs13 libcudart-rs-headers libcudart-rs13-dev cudart-rs cudart-rs-standin >/dev/null 2>&1
        fi
        if [[ -e ${cmd[$way]} ]]; then bad "[$way] still installed after the removal"; else ok "[$way] removed from the machine again"; fi
    fi
done
finish
