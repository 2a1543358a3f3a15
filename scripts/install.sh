#!/usr/bin/env bash
# Installs the release build in dist/ (scripts/build.sh first), beside NVIDIA's runtime and
# never over it:
#   $LIBDIR/cudart-rs/libcudart.so.13.0.0     libcudart.so.13 -> libcudart.so.13.0.0
#   $LIBDIR/cudart-rs/libcudart.so.12.9.0     libcudart.so.12 -> libcudart.so.12.9.0
#   $LIBDIR/cudart-rs/13/libcudart.so -> ../libcudart.so.13     development links, one folder
#   $LIBDIR/cudart-rs/12/libcudart.so -> ../libcudart.so.12     per ABI (-L picks the ABI)
#   $INCLUDEDIR/cudart-rs/cuda_runtime_api.h, cuda_gl_interop.h, cuda_egl_interop.h,
#                         cuda_vdpau_interop.h
#   $PKGCONFIGDIR/cudart-rs-13.pc, cudart-rs-12.pc
#   debug info: $LIBDIR/cudart-rs/.debug/libcudart.so.N.M.P.debug (found by gdb through the
#               library's .gnu_debuglink), or with DEBUGDIR set (e.g. /usr/lib/debug)
#               $DEBUGDIR/.build-id/xx/yyyyyyyy.debug (found by the library's build id)
# Nothing goes into a folder the dynamic loader searches: installing changes no program's
# runtime. Programs find this one through pkg-config (a RUNPATH to $LIBDIR/cudart-rs), or
# through LD_LIBRARY_PATH=$LIBDIR/cudart-rs or LD_PRELOAD (README.md, "Use").
#
# Usage: scripts/install.sh [--abi 13|12|both] [--no-debug] [--unstripped] [--uninstall] [VAR=value...]
#   Variables (arguments or environment), as make's install targets take them:
#     PREFIX=/usr/local  LIBDIR=$PREFIX/lib  INCLUDEDIR=$PREFIX/include
#     PKGCONFIGDIR=$LIBDIR/pkgconfig  DEBUGDIR=(unset)  DESTDIR=(unset: the real root)
#   --no-debug     no debug files
#   --unstripped   the libraries as cargo built them (target/release, target/abi12/release),
#                  with their debug info and no debug files: for a packager whose tools strip
#                  (dh_strip makes the -dbgsym packages from them)
#   --uninstall    removes what the same options and variables install
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

abis="13 12" debug=1 unstripped=0 uninstall=0
while (($#)); do
    case "$1" in
        --abi) abis=${2:?}; shift ;;
        --abi=*) abis=${1#--abi=} ;;
        --no-debug) debug=0 ;;
        --unstripped) unstripped=1 debug=0 ;;
        --uninstall) uninstall=1 ;;
        PREFIX=* | LIBDIR=* | INCLUDEDIR=* | PKGCONFIGDIR=* | DEBUGDIR=* | DESTDIR=*) export "${1?}" ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "install: unknown argument '$1' (--help)" >&2; exit 2 ;;
    esac
    shift
done
[[ $abis == both ]] && abis="13 12"
for a in $abis; do [[ $a == 13 || $a == 12 ]] || { echo "install: --abi 13, 12 or both" >&2; exit 2; }; done

PREFIX=${PREFIX:-/usr/local}
LIBDIR=${LIBDIR:-$PREFIX/lib}
INCLUDEDIR=${INCLUDEDIR:-$PREFIX/include}
PKGCONFIGDIR=${PKGCONFIGDIR:-$LIBDIR/pkgconfig}
DEBUGDIR=${DEBUGDIR:-}
DESTDIR=${DESTDIR:-}
for v in PREFIX LIBDIR INCLUDEDIR PKGCONFIGDIR; do
    [[ ${!v} == /* ]] || { echo "install: $v must be an absolute path (got '${!v}')" >&2; exit 2; }
done
[[ -z $DEBUGDIR || $DEBUGDIR == /* ]] || { echo "install: DEBUGDIR must be an absolute path" >&2; exit 2; }
[[ -z $DESTDIR ]] || DESTDIR=$(mkdir -p "$DESTDIR" && cd "$DESTDIR" && pwd)

dist=$root/dist
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)
cudartdir=$LIBDIR/cudart-rs
full() { case $1 in 13) echo 13.0.0 ;; 12) echo 12.9.0 ;; esac; }
build_id() { readelf -n "$1" | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p' | head -n 1; }
soname() { objdump -p "$1" | awk '$1 == "SONAME" { print $2 }'; }

if ((uninstall)); then
    for a in 13 12; do
        [[ " $abis " == *" $a "* ]] || continue
        f=$DESTDIR$cudartdir/libcudart.so.$(full "$a")
        if [[ -n $DEBUGDIR && -f $f ]]; then
            id=$(build_id "$f")
            [[ -n $id ]] && rm -f "$DESTDIR$DEBUGDIR/.build-id/${id:0:2}/${id:2}.debug"
        fi
        rm -f "$f" "$DESTDIR$cudartdir/libcudart.so.$a" "$DESTDIR$cudartdir/$a/libcudart.so" \
            "$DESTDIR$cudartdir/.debug/libcudart.so.$(full "$a").debug" "$DESTDIR$PKGCONFIGDIR/cudart-rs-$a.pc"
        rmdir "$DESTDIR$cudartdir/$a" 2>/dev/null || true
    done
    if [[ ! -e $DESTDIR$cudartdir/libcudart.so.13 && ! -e $DESTDIR$cudartdir/libcudart.so.12 ]]; then
        rm -rf "$DESTDIR$INCLUDEDIR/cudart-rs"
        rmdir "$DESTDIR$cudartdir/.debug" "$DESTDIR$cudartdir" 2>/dev/null || true
    fi
    echo "install: removed cudart-rs ($abis) from $DESTDIR$PREFIX"
    exit 0
fi

if ((unstripped)); then
    declare -A src=([13]=$root/target/release/libcudart.so [12]=$root/target/abi12/release/libcudart.so)
else
    declare -A src=([13]=$dist/lib/libcudart.so.13.0.0 [12]=$dist/lib/libcudart.so.12.9.0)
    grep -qx 'profile=release' "$dist/BUILD-INFO" 2>/dev/null ||
        { echo "install: dist/ holds no release build: run scripts/build.sh first" >&2; exit 1; }
fi
for a in $abis; do
    [[ -f ${src[$a]} ]] || { echo "install: no ${src[$a]}: run scripts/build.sh first" >&2; exit 1; }
    [[ $(soname "${src[$a]}") == libcudart.so.$a ]] || { echo "install: ${src[$a]} is not libcudart.so.$a" >&2; exit 1; }
done
[[ -f $dist/include/cuda_runtime_api.h ]] || { echo "install: no dist/include: run scripts/build.sh first" >&2; exit 1; }

# pc_path DIR: DIR for a .pc file, relative to ${prefix} where it is under it (so that
# pkg-config --define-prefix can move the tree).
pc_path() { if [[ $1 == "$PREFIX" ]]; then echo '${prefix}'; elif [[ $1 == "$PREFIX"/* ]]; then echo "\${prefix}${1#"$PREFIX"}"; else echo "$1"; fi; }

d=$DESTDIR
install -d -m 0755 "$d$cudartdir" "$d$INCLUDEDIR/cudart-rs" "$d$PKGCONFIGDIR"
(cd "$dist/include" && find . -type f | sort) | while read -r h; do
    install -D -m 0644 "$dist/include/$h" "$d$INCLUDEDIR/cudart-rs/${h#./}"
done
for a in $abis; do
    name=libcudart.so.$(full "$a")
    install -m 0644 "${src[$a]}" "$d$cudartdir/$name"
    ln -sfn "$name" "$d$cudartdir/libcudart.so.$a"
    install -d -m 0755 "$d$cudartdir/$a"
    ln -sfn "../libcudart.so.$a" "$d$cudartdir/$a/libcudart.so"
    if ((debug)); then
        dbg=$dist/lib/.debug/$name.debug
        [[ -f $dbg ]] || { echo "install: no $dbg (--no-debug to install without it)" >&2; exit 1; }
        if [[ -n $DEBUGDIR ]]; then
            id=$(build_id "${src[$a]}")
            [[ -n $id ]] || { echo "install: ${src[$a]} has no build id" >&2; exit 1; }
            install -D -m 0644 "$dbg" "$d$DEBUGDIR/.build-id/${id:0:2}/${id:2}.debug"
        else
            install -D -m 0644 "$dbg" "$d$cudartdir/.debug/$name.debug"
        fi
    fi
    cflags=""
    [[ $a == 12 ]] && cflags=" -DCUDART_RS_ABI12"
    sed -e "s|@PREFIX@|$PREFIX|" -e "s|@LIBDIR@|$(pc_path "$LIBDIR")|" -e "s|@INCLUDEDIR@|$(pc_path "$INCLUDEDIR")|" \
        -e "s|@ABI@|$a|g" -e "s|@VERSION@|$version|" -e "s|@CFLAGS@|$cflags|" \
        "$root/packaging/cudart-rs.pc.in" >"$d$PKGCONFIGDIR/cudart-rs-$a.pc"
    chmod 0644 "$d$PKGCONFIGDIR/cudart-rs-$a.pc"
done

echo "install: cudart-rs $version ($abis) into ${DESTDIR:+$DESTDIR }$PREFIX:"
echo "  libraries:   $cudartdir/ (not on the loader's path: pkg-config gives a RUNPATH to it;"
echo "               else LD_LIBRARY_PATH=$cudartdir or LD_PRELOAD=$cudartdir/libcudart.so.13)"
echo "  headers:     $INCLUDEDIR/cudart-rs/"
echo "  pkg-config:  $PKGCONFIGDIR/$(for a in $abis; do printf 'cudart-rs-%s.pc ' "$a"; done)"
if ((debug)); then
    echo "  debug info:  ${DEBUGDIR:+$DEBUGDIR/.build-id/}${DEBUGDIR:-$cudartdir/.debug/}"
fi
