#!/usr/bin/env bash
# Installs the release build in dist/ (scripts/build.sh first), beside NVIDIA's runtime and
# never over it; the file names carry the version the ABI reports (13050: 13.5.0):
#   $LIBDIR/cudart-rs/libcudart.so.13.5.0     libcudart.so.13 -> libcudart.so.13.5.0
#   $LIBDIR/cudart-rs/libcudart.so.12.9.0     libcudart.so.12 -> libcudart.so.12.9.0
#   $LIBDIR/cudart-rs/13/, 12/                per ABI, a CUDA toolkit root (CMake's
#                                             CUDAToolkit_ROOT finds CUDA::cudart there):
#       lib/libcudart.so, lib/libcudart.so.N  development links (-L picks the ABI)
#       include/                              the headers (13: a link to $INCLUDEDIR/cudart-rs;
#                                             12: one of each name that selects the 12 ABI
#                                             and includes the set's)
#       version.txt, version.json             the CUDA version, as a toolkit's
#   $INCLUDEDIR/cudart-rs/                    the host header set (cuda_runtime.h, ...)
#   $PKGCONFIGDIR/cudart-rs-13.pc, cudart-rs-12.pc, and NVIDIA's names: cudart-13.0.pc ...
#                 cudart-13.5.pc, cudart-12.0.pc ... cudart-12.9.pc (each version whose
#                 runtime an ABI replaces)
#   $MANDIR/man1/cudart-rs.1                  the command's manual page (naming $DOCDIR)
#   $DOCDIR/README.md, $DOCDIR/docs/          the README and the documents of docs/
#   $BINDIR/cudart-rs                         the command (`cudart-rs run`, `cudart-rs doctor`),
#                                             which finds the libraries at ../lib/cudart-rs,
#                                             ../lib/<triplet>/cudart-rs or ../lib64/cudart-rs
#   debug info: $LIBDIR/cudart-rs/.debug/libcudart.so.N.M.P.debug (found by gdb through the
#               library's .gnu_debuglink), or with DEBUGDIR set (e.g. /usr/lib/debug)
#               $DEBUGDIR/.build-id/xx/yyyyyyyy.debug (found by the library's build id)
# Nothing goes into a folder the dynamic loader searches: installing changes no program's
# runtime. Programs find this one through pkg-config (a RUNPATH to $LIBDIR/cudart-rs), or
# through LD_LIBRARY_PATH=$LIBDIR/cudart-rs or LD_PRELOAD (README.md, "Use"). For a prefix whose
# folders pkg-config, man or the shell do not search (PREFIX=$HOME/.local, /opt/...), it prints
# the PATH, PKG_CONFIG_PATH and MANPATH lines that make them.
#
# Usage: scripts/package/install.sh [--abi 13|12|both] [--no-debug] [--unstripped] [--standin] [--uninstall] [VAR=value...]
#   Variables (arguments or environment), as make's install targets take them:
#     PREFIX=/usr/local  BINDIR=$PREFIX/bin  LIBDIR=$PREFIX/lib  INCLUDEDIR=$PREFIX/include
#     MANDIR=$PREFIX/share/man  DOCDIR=$PREFIX/share/doc/cudart-rs
#     PKGCONFIGDIR=$LIBDIR/pkgconfig  DEBUGDIR=(unset)  DESTDIR=(unset: the real root)
#   --no-debug     no debug files
#   --unstripped   the libraries as cargo built them (target/release, target/abi12/release),
#                  with their debug info and no debug files: for a packager whose tools strip
#                  (dh_strip makes the -dbgsym packages from them)
#   --standin      also the stand-in driver, $LIBDIR/cudart-rs/stand-in/libcuda.so.1 (for trying
#                  the runtime without a GPU: CUDART_RS_DRIVER=that path)
#   --uninstall    removes what the same options and variables install
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

abis="13 12" debug=1 unstripped=0 uninstall=0 standin=0
while (($#)); do
    case "$1" in
        --abi) abis=${2:?}; shift ;;
        --abi=*) abis=${1#--abi=} ;;
        --no-debug) debug=0 ;;
        --unstripped) unstripped=1 debug=0 ;;
        --uninstall) uninstall=1 ;;
        --standin) standin=1 ;;
        PREFIX=* | BINDIR=* | MANDIR=* | DOCDIR=* | LIBDIR=* | INCLUDEDIR=* | PKGCONFIGDIR=* | DEBUGDIR=* | DESTDIR=*) export "${1?}" ;;
        *) header_usage ;;
    esac
    shift
done
[[ $abis == both ]] && abis="13 12"
for a in $abis; do [[ $a == 13 || $a == 12 ]] || header_usage; done

PREFIX=${PREFIX:-/usr/local}
BINDIR=${BINDIR:-$PREFIX/bin}
MANDIR=${MANDIR:-$PREFIX/share/man}
DOCDIR=${DOCDIR:-$PREFIX/share/doc/cudart-rs}
LIBDIR=${LIBDIR:-$PREFIX/lib}
INCLUDEDIR=${INCLUDEDIR:-$PREFIX/include}
PKGCONFIGDIR=${PKGCONFIGDIR:-$LIBDIR/pkgconfig}
DEBUGDIR=${DEBUGDIR:-}
DESTDIR=${DESTDIR:-}
for v in PREFIX BINDIR MANDIR DOCDIR LIBDIR INCLUDEDIR PKGCONFIGDIR; do
    [[ ${!v} == /* ]] || die "$v must be an absolute path (got '${!v}')"
done
[[ -z $DEBUGDIR || $DEBUGDIR == /* ]] || die "DEBUGDIR must be an absolute path"
[[ -z $DESTDIR ]] || DESTDIR=$(mkdir -p "$DESTDIR" && cd "$DESTDIR" && pwd) || die "cannot make $DESTDIR"

dist=$root/dist
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)
cudartdir=$LIBDIR/cudart-rs
build_id() { readelf -n "$1" | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p' | head -n 1; }
soname() { objdump -p "$1" | awk '$1 == "SONAME" { print $2 }'; }
# full ABI: the version the ABI reports, as the library's file name carries it (build.sh
# writes it to BUILD-INFO: version13=13.5.0).
full() { sed -n "s/^version$1=//p" "$dist/BUILD-INFO" 2>/dev/null; }
# minors ABI: the CUDA versions whose runtime the ABI replaces, as NVIDIA's pkg-config files
# name them: 13.0 ... the reported one.
minors() { local v=$1 m; v=$(full "$v"); for ((m = 0; m <= $(cut -d. -f2 <<<"$v"); m++)); do echo "${v%%.*}.$m"; done; }
# rel FROM TO: TO as a link in folder FROM names it (relative where both lie under one root).
rel() { realpath -m --relative-to="$1" "$2"; }

if ((uninstall)); then
    for a in 13 12; do
        [[ " $abis " == *" $a "* ]] || continue
        for f in "$DESTDIR$cudartdir"/libcudart.so."$a".*; do
            [[ -f $f && ! -L $f ]] || continue
            if [[ -n $DEBUGDIR ]]; then
                id=$(build_id "$f")
                [[ -n $id ]] && rm -f "$DESTDIR$DEBUGDIR/.build-id/${id:0:2}/${id:2}.debug"
            fi
            rm -f "$f" "$DESTDIR$cudartdir/.debug/${f##*/}.debug"
        done
        rm -f "$DESTDIR$cudartdir/libcudart.so.$a" "$DESTDIR$PKGCONFIGDIR/cudart-rs-$a.pc" "$DESTDIR$PKGCONFIGDIR/cudart-$a".*.pc
        rm -rf -- "$DESTDIR$cudartdir/$a"
    done
    ((standin)) && rm -rf -- "$DESTDIR$cudartdir/stand-in"
    if [[ ! -e $DESTDIR$cudartdir/libcudart.so.13 && ! -e $DESTDIR$cudartdir/libcudart.so.12 ]]; then
        f=$DESTDIR$BINDIR/cudart-rs
        if [[ -n $DEBUGDIR && -f $f ]]; then
            id=$(build_id "$f")
            [[ -n $id ]] && rm -f "$DESTDIR$DEBUGDIR/.build-id/${id:0:2}/${id:2}.debug"
        fi
        rm -f "$f" "$DESTDIR$MANDIR/man1/cudart-rs.1"
        rm -rf "$DESTDIR$INCLUDEDIR/cudart-rs" "$DESTDIR$DOCDIR"
        rmdir "$DESTDIR$cudartdir/.debug" "$DESTDIR$cudartdir" 2>/dev/null || true
    fi
    echo "install: removed cudart-rs ($abis) from $DESTDIR$PREFIX"
    exit 0
fi

grep -qx 'profile=release' "$dist/BUILD-INFO" 2>/dev/null || die "dist/ holds no release build: run scripts/build.sh first"
if ((unstripped)); then
    declare -A src=([13]=$root/target/release/libcudart.so [12]=$root/target/abi12/release/libcudart.so)
    cmd=$root/target/release/cudart-rs
else
    declare -A src=([13]=$dist/lib/libcudart.so.$(full 13) [12]=$dist/lib/libcudart.so.$(full 12))
    cmd=$dist/bin/cudart-rs
fi
for a in $abis; do
    [[ -n $(full "$a") ]] || die "dist/BUILD-INFO has no version$a: run scripts/build.sh"
    [[ -f ${src[$a]} ]] || die "no ${src[$a]}: run scripts/build.sh first"
    [[ $(soname "${src[$a]}") == libcudart.so.$a ]] || die "${src[$a]} is not libcudart.so.$a"
done
[[ -f $dist/include/cuda_runtime.h ]] || die "no dist/include: run scripts/build.sh first"
[[ -x $cmd ]] || die "no $cmd: run scripts/build.sh first"
# The command finds the libraries from where it is installed.
case $cudartdir in
    "$(dirname "$BINDIR")"/lib/cudart-rs | "$(dirname "$BINDIR")"/lib/*-linux-gnu/cudart-rs | "$(dirname "$BINDIR")"/lib64/cudart-rs) ;;
    *) echo "install: note: $BINDIR/cudart-rs will not find $cudartdir on its own: run it with --lib $cudartdir or CUDART_RS_LIBDIR=$cudartdir" >&2 ;;
esac

# pc_path DIR: DIR for a .pc file, relative to ${prefix} where it is under it (so that
# pkg-config --define-prefix can move the tree).
pc_path() { if [[ $1 == "$PREFIX" ]]; then echo '${prefix}'; elif [[ $1 == "$PREFIX"/* ]]; then echo "\${prefix}${1#"$PREFIX"}"; else echo "$1"; fi; }
# pc FILE NAME VERSION DESCRIPTION ABI CFLAGS: one pkg-config file.
pc() {
    sed -e "s|@PREFIX@|$PREFIX|" -e "s|@LIBDIR@|$(pc_path "$LIBDIR")|" -e "s|@INCLUDEDIR@|$(pc_path "$INCLUDEDIR")|" \
        -e "s|@NAME@|$2|" -e "s|@VERSION@|$3|" -e "s|@DESCRIPTION@|$4|" -e "s|@ABI@|$5|g" -e "s|@CFLAGS@|$6|" \
        "$root/packaging/cudart-rs.pc.in" >"$1" || die "$1 not written"
    must chmod 0644 "$1"
}

d=$DESTDIR
hdr=$INCLUDEDIR/cudart-rs
must install -d -m 0755 "$d$cudartdir" "$d$hdr" "$d$PKGCONFIGDIR" "$d$BINDIR"
must install -m 0755 "$cmd" "$d$BINDIR/cudart-rs"
must install -d -m 0755 "$d$MANDIR/man1" "$d$DOCDIR/docs"
sed "s|@DOCDIR@|$DOCDIR|g" "$root/packaging/cudart-rs.1" >"$d$MANDIR/man1/cudart-rs.1" || die "the manual not written"
must chmod 0644 "$d$MANDIR/man1/cudart-rs.1"
must install -m 0644 "$root/README.md" "$d$DOCDIR/"
must install -m 0644 "$root"/docs/*.md "$root"/docs/*.png "$d$DOCDIR/docs/"
if ((debug)) && [[ -n $DEBUGDIR ]]; then
    id=$(build_id "$cmd")
    [[ -z $id ]] || must install -D -m 0644 "$dist/bin/.debug/cudart-rs.debug" "$d$DEBUGDIR/.build-id/${id:0:2}/${id:2}.debug"
fi
(cd "$dist/include" && find . -type f | sort) | while read -r h; do
    must install -D -m 0644 "$dist/include/$h" "$d$hdr/${h#./}"
done || exit 1
for a in $abis; do
    v=$(full "$a")
    name=libcudart.so.$v
    must install -m 0644 "${src[$a]}" "$d$cudartdir/$name"
    must ln -sfn "$name" "$d$cudartdir/libcudart.so.$a"
    # The ABI's toolkit root.
    root_a=$cudartdir/$a
    must rm -rf -- "$d$root_a"
    must install -d -m 0755 "$d$root_a/lib"
    must ln -s "../../libcudart.so.$a" "$d$root_a/lib/libcudart.so"
    must ln -s "../../libcudart.so.$a" "$d$root_a/lib/libcudart.so.$a"
    if [[ $a == 13 ]]; then
        must ln -s "$(rel "$root_a" "$hdr")" "$d$root_a/include"
    else
        # A header of each name that selects the 12 ABI and includes the one of the set (a
        # link would not do: compilers resolve the links of system headers, and a header's
        # own includes would then not come from here).
        (cd "$d$hdr" && find . -type f | sort) | while read -r h; do
            h=${h#./}
            must install -d -m 0755 "$d$root_a/include/$(dirname "$h")"
            printf '%s\n' "/* cudart-rs: $h of the CUDA 12 ABI (libcudart.so.12). */" '#ifndef CUDART_RS_ABI12' \
                '#define CUDART_RS_ABI12' '#endif' "#include \"$(rel "$root_a/include/$(dirname "$h")" "$hdr/$h")\"" \
                >"$d$root_a/include/$h" || die "$d$root_a/include/$h not written"
            must chmod 0644 "$d$root_a/include/$h"
        done || exit 1
    fi
    printf 'CUDA Version %s\n' "$v" >"$d$root_a/version.txt" || die "$d$root_a/version.txt not written"
    printf '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "%s"\n   },\n   "cuda_cudart" : {\n      "name" : "CUDA Runtime (cudart): cudart-rs %s",\n      "version" : "%s"\n   }\n}\n' \
        "$v" "$version" "$v" >"$d$root_a/version.json" || die "$d$root_a/version.json not written"
    must chmod 0644 "$d$root_a/version.txt" "$d$root_a/version.json"
    if ((debug)); then
        dbg=$dist/lib/.debug/$name.debug
        [[ -f $dbg ]] || die "no $dbg (--no-debug to install without it)"
        if [[ -n $DEBUGDIR ]]; then
            id=$(build_id "${src[$a]}")
            [[ -n $id ]] || die "${src[$a]} has no build id"
            must install -D -m 0644 "$dbg" "$d$DEBUGDIR/.build-id/${id:0:2}/${id:2}.debug"
        else
            must install -D -m 0644 "$dbg" "$d$cudartdir/.debug/$name.debug"
        fi
    fi
    if [[ $a == 12 ]]; then cflags="-I\${cudartdir}/12/include -DCUDART_RS_ABI12"; else cflags="-I\${includedir}/cudart-rs"; fi
    pc "$d$PKGCONFIGDIR/cudart-rs-$a.pc" "cudart-rs-$a" "$version" \
        "cudart-rs, a drop-in replacement for NVIDIA's CUDA runtime library: the CUDA $a ABI (libcudart.so.$a, CUDA $v)" "$a" "$cflags"
    for m in $(minors "$a"); do
        pc "$d$PKGCONFIGDIR/cudart-$m.pc" cudart "$m" \
            "CUDA Runtime Library: cudart-rs's libcudart.so.$a (CUDA $v), for programs built for CUDA $m" "$a" "$cflags"
    done
done

if ((standin)); then
    if ((unstripped)); then sd=$root/target/release/libcuda_standin.so; else sd=$dist/lib/stand-in/libcuda.so.1; fi
    [[ -f $sd ]] || die "no $sd: run scripts/build.sh first"
    must install -D -m 0644 "$sd" "$d$cudartdir/stand-in/libcuda.so.1"
fi

echo "install: cudart-rs $version ($abis) into ${DESTDIR:+$DESTDIR }$PREFIX:"
echo "  libraries:   $cudartdir/ (not on the loader's path: pkg-config gives a RUNPATH to it;"
echo "               else LD_LIBRARY_PATH=$cudartdir or LD_PRELOAD=$cudartdir/libcudart.so.13)"
echo "  headers:     $INCLUDEDIR/cudart-rs/"
echo "  command:     $BINDIR/cudart-rs (cudart-rs run -- PROGRAM, cudart-rs doctor)"
echo "  pkg-config:  $PKGCONFIGDIR/: $(for a in $abis; do printf 'cudart-rs-%s ' "$a"; for m in $(minors "$a"); do printf 'cudart-%s ' "$m"; done; done)"
echo "  CMake:       find_package(CUDAToolkit) with CUDAToolkit_ROOT=$cudartdir/13 (or 12): CUDA::cudart"
((standin)) && echo "  stand-in:    $cudartdir/stand-in/libcuda.so.1 (CUDART_RS_DRIVER=that path: no GPU needed)"
if ((debug)); then
    echo "  debug info:  ${DEBUGDIR:+$DEBUGDIR/.build-id/}${DEBUGDIR:-$cudartdir/.debug/}"
fi
echo "  manual:      $MANDIR/man1/cudart-rs.1 (man cudart-rs); README and docs: $DOCDIR/"

# searched LIST DIR: whether DIR is one of LIST's colon-separated folders.
searched() { [[ ":$1:" == *":$2:"* ]]; }
# For a real installation, the lines that make the shell, pkg-config and man find it where they
# do not already (a prefix outside the system's).
if [[ -z $DESTDIR ]]; then
    lines=()
    searched "$PATH" "$BINDIR" || lines+=("export PATH=\"$BINDIR:\$PATH\"")
    if command -v pkg-config >/dev/null; then
        pc_path=$(pkg-config --variable pc_path pkg-config 2>/dev/null)
    else
        pc_path=/usr/local/lib/pkgconfig:/usr/lib/pkgconfig
    fi
    searched "${PKG_CONFIG_PATH:-}:$pc_path" "$PKGCONFIGDIR" ||
        lines+=("export PKG_CONFIG_PATH=\"$PKGCONFIGDIR\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}\"")
    # (man-db also searches the share/man beside each folder of PATH, but other man programs
    # do not: MANPATH, unless man already looks there.)
    if command -v manpath >/dev/null; then
        man_path=$(manpath -q 2>/dev/null)
    else
        man_path=/usr/local/share/man:/usr/share/man
    fi
    searched "$man_path" "$MANDIR" || lines+=("export MANPATH=\"$MANDIR:\${MANPATH:-}\"")
    if ((${#lines[@]})); then
        echo "install: $PREFIX is not where your shell, pkg-config or man look; add to your shell's startup file:"
        printf '  %s\n' "${lines[@]}"
    fi
fi
