#!/usr/bin/env bash
# Builds the Debian packages, one command, and runs lintian on them, into dist/deb/:
#   libcudart-rs13_V_ARCH.deb      libcudart.so.13 in /usr/lib/<triplet>/cudart-rs/
#   libcudart-rs12_V_ARCH.deb      libcudart.so.12 in the same folder
#   libcudart-rs-headers_V_all.deb the host header set, /usr/include/cudart-rs/
#   libcudart-rs13-dev_V_ARCH.deb  the 13 ABI's toolkit root (cudart-rs/13/: development links,
#                                  headers, version files, for CMake), cudart-rs-13.pc and
#                                  NVIDIA's names cudart-13.0.pc ... cudart-13.5.pc
#   libcudart-rs12-dev_V_ARCH.deb  the same for 12 (cudart-12.0.pc ... cudart-12.9.pc)
#   cudart-rs-system13_V_ARCH.deb, cudart-rs-system12_V_ARCH.deb
#                                  opt-in: ours as the system's libcudart.so.13 (.12), through
#                                  /etc/ld.so.conf.d/0000-cudart-rs-13.conf (a link) and a
#                                  folder holding only the library's link
#   cudart-rs-standin_V_ARCH.deb   the stand-in driver, cudart-rs/stand-in/libcuda.so.1
#   cudart-rs_V_ARCH.deb           the cudart-rs command (/usr/bin/cudart-rs), its manual, the
#                                  README and docs/ (/usr/share/doc/cudart-rs/)
#   *-dbgsym_V_ARCH.deb            debug info, /usr/lib/debug/.build-id/xx/yyy.debug
#   lintian.log                    what lintian says of them
# with the standard tools: scripts/build.sh builds the libraries (cargo), then
# dpkg-buildpackage -b with debhelper (packaging/debian/) installs them through
# scripts/package/install.sh --unstripped --standin, dh_strip splits the debug info off into the
# -dbgsym packages, dh_shlibdeps computes the dependencies, dh_makeshlibs checks the libraries'
# symbols against packaging/debian/libcudart-rs1[23].symbols exactly. Needs dpkg-dev,
# debhelper and lintian: installed from Debian's packages when missing (as root). Nothing is
# installed on this machine (scripts/package/deb-test.sh does that).
# The packages install beside NVIDIA's (cuda-cudart-13-0 and friends, in /usr/local/cuda-* and
# /usr/lib/pkgconfig) and Debian's (libcudart12, nvidia-cuda-dev) without a shared path or
# package name.
# Usage: scripts/package/deb.sh [--no-build] [--no-lintian] [--symbols]
#   --symbols  write packaging/debian/libcudart-rs1[23].symbols from the libraries built
#              (dpkg-gensymbols; new symbols get this version), instead of checking them
#   Maintainer field: $DEBFULLNAME <$DEBEMAIL>, else git's user.name and user.email, else the
#   last commit's author.
#   Version: Cargo.toml's, or $DEB_VERSION.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

build=1 lint=1 symbols=0
for a in "$@"; do
    case "$a" in
        --no-build) build=0 ;;
        --no-lintian) lint=0 ;;
        --symbols) symbols=1 ;;
        *) header_usage ;;
    esac
done

need=()
command -v dpkg-buildpackage >/dev/null || need+=(dpkg-dev)
command -v dh >/dev/null || need+=(debhelper)
((lint)) && ! command -v lintian >/dev/null && need+=(lintian)
command -v fakeroot >/dev/null || need+=(fakeroot)
if ((${#need[@]})); then
    [[ $(id -u) == 0 ]] || die "missing ${need[*]} (apt-get install ${need[*]})"
    echo "deb.sh: installing ${need[*]} from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null ||
        { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null; } ||
        die "could not install ${need[*]}"
fi

if ((build)); then
    bash scripts/build.sh || exit 1
fi
for f in target/release/libcudart.so target/abi12/release/libcudart.so target/release/libcuda_standin.so \
    target/release/cudart-rs dist/include/cuda_runtime.h; do
    [[ -f $f ]] || die "no $f: run scripts/build.sh"
done
grep -qx 'profile=release' dist/BUILD-INFO || die "dist/ is not a release build"

version=${DEB_VERSION:-$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)}
name=${DEBFULLNAME:-$(git config user.name || git log -1 --format=%an 2>/dev/null || true)}
email=${DEBEMAIL:-$(git config user.email || git log -1 --format=%ae 2>/dev/null || true)}
[[ -n $name && -n $email ]] || die "set DEBFULLNAME and DEBEMAIL (the Maintainer field)"
maintainer="$name <$email>"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
# The changelog's date, and so SOURCE_DATE_EPOCH (file dates in the packages): the commit's.
date=$(git log -1 --format=%cD 2>/dev/null || date -R)

# The tree dpkg-buildpackage runs in: what scripts/package/install.sh reads, and debian/.
work=target/deb
src=$work/cudart-rs-$version
rm -rf "$work"
{
    mkdir -p "$src/scripts/package" "$src/packaging" "$src/dist/include" "$src/target/release" "$src/target/abi12/release" &&
        cp scripts/lib.sh "$src/scripts/" &&
        cp scripts/package/install.sh "$src/scripts/package/" &&
        cp packaging/cudart-rs.pc.in packaging/cudart-rs.1 "$src/packaging/" &&
        cp Cargo.toml README.md "$src/" &&
        cp -r docs "$src/docs" &&
        cp -r dist/include/. "$src/dist/include/" &&
        cp dist/BUILD-INFO "$src/dist/" &&
        cp target/release/libcudart.so target/release/libcuda_standin.so target/release/cudart-rs "$src/target/release/" &&
        cp target/abi12/release/libcudart.so "$src/target/abi12/release/" &&
        cp -r packaging/debian "$src/debian" &&
        rm "$src/debian/copyright.in"
} || die "the build tree $src not laid out"
if ((symbols)); then
    rm -f "$src/debian/"*.symbols
    export CUDART_RS_SYMBOLS_CHECK=0
fi
sed -i "s|@MAINTAINER@|$maintainer|" "$src/debian/control" || die "no $src/debian/control"
# The crates linked into the libraries, from Cargo.lock (no build or proc-macro crates).
crates=$(cargo tree -p cudart-rs -e normal,no-proc-macro --prefix none --format '{p} | {l}' --offline 2>/dev/null |
    sed 's/ (\*)$//; s/ ([^)]*)$//; s/ (proc-macro)//' | grep -v '^cudart-rs ' | sort -u |
    awk -F' [|] ' '{ printf " %s: %s\n", $1, $2 }')
[[ -n $crates ]] || die "cargo tree listed no crates"
first=$(git log --reverse --format=%cd --date=format:%Y 2>/dev/null | head -n 1) last=$(git log -1 --format=%cd --date=format:%Y 2>/dev/null)
years=${first:-$(date +%Y)}
[[ -n $last && $last != "$years" ]] && years=$years-$last
awk -v crates="$crates" -v years="$years" '$0 == "@CRATES@" { print crates; next } { sub(/@YEARS@/, years); print }' \
    packaging/debian/copyright.in >"$src/debian/copyright" || die "debian/copyright not written"
cat >"$src/debian/changelog" <<EOF
cudart-rs ($version) unstable; urgency=medium

  * cudart-rs $version (commit $commit).

 -- $maintainer  $date
EOF

echo "deb.sh: dpkg-buildpackage -b in $src"
(cd "$src" && dpkg-buildpackage -b -uc -us) >"$work/build.log" 2>&1 || {
    tail -n 40 "$work/build.log"
    die "dpkg-buildpackage failed ($work/build.log)"
}
if ((symbols)); then
    for p in libcudart-rs13 libcudart-rs12; do
        (cd "$src" && dpkg-gensymbols -p"$p" -P"debian/$p" -v"$version" -c0 -O"$root/packaging/debian/$p.symbols" \
            -e"debian/$p/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/cudart-rs/libcudart.so.${p#libcudart-rs}".*.* >/dev/null) ||
            die "dpkg-gensymbols $p failed"
        # The -dev package a build against the library depends on.
        sed -i "1a * Build-Depends-Package: $p-dev" "packaging/debian/$p.symbols"
        echo "deb.sh: packaging/debian/$p.symbols: $(grep -c '^ ' "packaging/debian/$p.symbols") symbols"
    done
fi
rm -rf dist/deb
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
mkdir -p dist/deb &&
    mv "$work"/*.deb "$work/cudart-rs_${version}_${arch}.changes" "$work/cudart-rs_${version}_${arch}.buildinfo" dist/deb/ &&
    cp "$work/build.log" dist/deb/build.log || die "dist/deb/ not filled"

status=0
if ((lint)); then
    # Every tag lintian has, informational, pedantic and experimental ones included, and the
    # overridden ones shown (O:, packaging/debian/*.lintian-overrides says why each is); the
    # .changes names every package and the .buildinfo. The verdict: no error or warning left
    # (E:, W:; lintian's own exit status counts an overridden one it shows).
    # (Exit status 1: lintian itself failed.)
    rc=0
    lintian --display-info --pedantic --display-experimental --show-overrides \
        "dist/deb/cudart-rs_${version}_${arch}.changes" >dist/deb/lintian.log 2>&1 || rc=$?
    ((rc != 1)) || { cat dist/deb/lintian.log; die "lintian failed"; }
    grep -qE '^[EW]: ' dist/deb/lintian.log && status=1
    echo "lintian ($(lintian --version)):"
    if [[ -s dist/deb/lintian.log ]]; then sed 's/^/  /' dist/deb/lintian.log; else echo "  (nothing to say)"; fi
fi
echo "deb.sh: dist/deb/:"
(cd dist/deb && for f in *.deb; do printf '  %-48s %8d bytes\n' "$f" "$(stat -c %s "$f")"; done)
((status == 0)) || die "lintian found errors or warnings"
