#!/usr/bin/env bash
# Installs the Debian packages (scripts/deb.sh) with dpkg -i and uses them as a user would:
# ctest/copy_basic.c built with `pkg-config --cflags --libs cudart-rs-N` alone, for each ABI,
# must link to the installed libcudart.so.N, load it at run time (no LD_LIBRARY_PATH) and print
# NVIDIA's recorded output (ctest/expected/N/copy_basic.out); the packages' files must lie only
# in cudart-rs's own paths (none that NVIDIA's or Debian's CUDA packages use); with the -dbgsym
# packages and gdb, a backtrace through the runtime names its source lines; removing the
# packages leaves nothing behind.
#
#   bash scripts/deb-test.sh --chroot [--debs DIR]
#       Here (root, Debian's packages reachable): a clean Debian 12 root made with debootstrap
#       (kept in target/debroot/bookworm, copied afresh for each run), the packages installed
#       there, the program run on the stand-in driver (dist/lib/stand-in).
#   bash scripts/deb-test.sh --system [--debs DIR] [--keep]
#       On this machine itself (root; no network needed): for the GPU machine, with .gpu
#       carried (scripts/gpu-bundle.sh puts the packages in .gpu/deb): the program runs on
#       the system's driver. The packages are removed again at the end unless --keep.
#       When the machine has no pkg-config, Debian's pkgconf packages carried in DIR/tools
#       are installed for the run (and removed after).
# DIR: the .deb files, default .gpu/deb when it exists, else dist/deb. $OUT (when set) gets
# deb-test.log. Ends with `N passed, N failed`; exit status non-zero on a failure.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

mode="" debs="" keep=0 driver=""
while (($#)); do
    case "$1" in
        --chroot | --system) mode=${1#--} ;;
        --inside) mode=inside ;; # in the chroot (internal)
        --debs) debs=${2:?}; shift ;;
        --driver) driver=${2:?}; shift ;; # inside: the stand-in driver
        --keep) keep=1 ;;
        -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "usage: scripts/deb-test.sh --chroot|--system [--debs DIR] [--keep]" >&2; exit 2 ;;
    esac
    shift
done
[[ -n $mode ]] || { echo "usage: scripts/deb-test.sh --chroot|--system [--debs DIR] [--keep]" >&2; exit 2; }
if [[ -z $debs ]]; then
    if [[ -d .gpu/deb ]]; then debs=.gpu/deb; else debs=dist/deb; fi
fi
debs=$(cd "$debs" 2>/dev/null && pwd) || { echo "deb-test: no folder of packages '$debs' (scripts/deb.sh)" >&2; exit 1; }

passed=0 failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
summary() { echo "$passed passed, $failed failed"; ((failed == 0)); }

# The tests proper, run as root on the system that gets the packages (the chroot or the
# machine): $1 the stand-in driver, or "" for the system's.
use_packages() {
    local driver=$1 tmp multiarch pkgs=() dbg=() tools=() f a
    tmp=$(mktemp -d)
    multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
    echo "system: $(. /etc/os-release && echo "$PRETTY_NAME"), dpkg $(dpkg-query -W -f='${Version}' dpkg), gcc $(gcc -dumpfullversion)"
    for f in "$debs"/libcudart-rs13_*.deb "$debs"/libcudart-rs12_*.deb "$debs"/libcudart-rs-dev_*.deb "$debs"/cudart-rs_*.deb; do
        [[ -f $f ]] && pkgs+=("$f")
    done
    ((${#pkgs[@]} == 4)) || { bad "want libcudart-rs13, libcudart-rs12, libcudart-rs-dev and cudart-rs in $debs"; return; }
    for f in "$debs"/libcudart-rs1[23]-dbgsym_*.deb; do [[ -f $f ]] && dbg+=("$f"); done

    # Every path in cudart-rs's own places: nothing in /usr/include or the loader's folders
    # that NVIDIA's cuda-cudart-*/cuda-cudart-dev-* (/usr/local/cuda-*) or Debian's
    # libcudart*/nvidia-cuda-dev (/usr/lib/<triplet>/libcudart.so*, /usr/include/*.h) ship.
    local stray=""
    for f in "${pkgs[@]}" "${dbg[@]}"; do
        stray+=$(dpkg-deb -c "$f" | awk '{ print $6 }' | sed 's|^\./|/|; s|/$||' | grep -vxE \
            "/|/usr|/usr/(bin|share/man|share/man/man1|lib|include|share|share/doc|lib/debug|lib/debug/\.build-id(/[0-9a-f]{2})?)|/usr/lib/$multiarch|/usr/lib/$multiarch/pkgconfig|/usr/lib/$multiarch/cudart-rs(/.*)?|/usr/include/cudart-rs(/.*)?|/usr/lib/$multiarch/pkgconfig/cudart-rs-1[23]\.pc|/usr/share/doc/(lib)?cudart-rs[-a-z0-9]*(/.*)?|/usr/share/lintian(/overrides(/libcudart-rs1[23]|/cudart-rs)?)?|/usr/bin/cudart-rs|/usr/share/man/man1/cudart-rs\.1\.gz|/usr/lib/debug/\.build-id/[0-9a-f]{2}/[0-9a-f]{38}\.debug")
    done
    if [[ -z $stray ]]; then
        ok "the packages' files lie in /usr/lib/$multiarch/cudart-rs/, /usr/include/cudart-rs/, pkgconfig/cudart-rs-1{3,2}.pc, /usr/lib/debug/.build-id/, /usr/share/{doc,lintian/overrides}/ only"
    else
        bad "paths outside cudart-rs's own: $stray"
    fi

    # pkg-config: the machine's, else Debian's pkgconf carried in $debs/tools.
    if ! command -v pkg-config >/dev/null; then
        for f in "$debs"/tools/*.deb; do [[ -f $f ]] && tools+=("$f"); done
        if ((${#tools[@]})) && dpkg -i "${tools[@]}" >"$tmp/tools.log" 2>&1; then
            echo "   (no pkg-config here: installed the carried $(cd "$debs/tools" && echo *.deb))"
        else
            cat "$tmp/tools.log" 2>/dev/null
            bad "no pkg-config on this machine, and none carried in $debs/tools"
            tools=()
        fi
    fi

    if dpkg -i "${pkgs[@]}" "${dbg[@]}" >"$tmp/dpkg.log" 2>&1; then
        ok "dpkg -i $(for f in "${pkgs[@]}" "${dbg[@]}"; do printf '%s ' "${f##*/}"; done)"
    else
        cat "$tmp/dpkg.log"
        bad "dpkg -i"
        rm -rf "$tmp"
        return
    fi
    local installed
    installed=$(dpkg-query -W -f='${binary:Package} ${Version} ${db:Status-Abbrev}\n' 'libcudart-rs*' 2>/dev/null)
    echo "$installed" | sed 's/^/   /'

    for a in 13 12; do
        local flags bin needed runpath resolved rc
        if ! flags=$(pkg-config --cflags --libs "cudart-rs-$a" 2>&1); then
            bad "[$a] pkg-config --cflags --libs cudart-rs-$a: $flags"
            continue
        fi
        echo "   [$a] pkg-config --cflags --libs cudart-rs-$a: $flags"
        bin=$tmp/copy_basic_$a
        # shellcheck disable=SC2086  # pkg-config's output is meant to be split
        if gcc -O1 -Wall "$root/ctest/copy_basic.c" $flags -o "$bin" >"$tmp/cc.log" 2>&1; then
            ok "[$a] gcc ctest/copy_basic.c \$(pkg-config --cflags --libs cudart-rs-$a)"
        else
            cat "$tmp/cc.log"
            bad "[$a] gcc ctest/copy_basic.c \$(pkg-config --cflags --libs cudart-rs-$a)"
            continue
        fi
        needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(libcudart[^]]*\)\].*/\1/p')
        runpath=$(readelf -d "$bin" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\].*/\2/p')
        resolved=$(env -u LD_LIBRARY_PATH -u LD_PRELOAD ldd "$bin" | awk '$1 == "libcudart.so.'"$a"'" { print $3 }')
        if [[ $needed == "libcudart.so.$a" && $resolved == "/usr/lib/$multiarch/cudart-rs/libcudart.so.$a" ]]; then
            ok "[$a] NEEDED $needed, RUNPATH $runpath: the loader finds $resolved"
        else
            bad "[$a] NEEDED '$needed', RUNPATH '$runpath', the loader finds '$resolved'"
        fi
        local envs=(env -u LD_LIBRARY_PATH -u LD_PRELOAD) where="the system's driver"
        [[ -n $driver ]] && where="the stand-in driver"
        [[ -n $driver ]] && envs+=(CUDART_RS_DRIVER="$driver")
        "${envs[@]}" LD_DEBUG=libs timeout 120 "$bin" >"$tmp/out_$a" 2>"$tmp/err_$a"
        rc=$?
        if grep -q "calling init: /usr/lib/$multiarch/cudart-rs/libcudart.so.$a\$" "$tmp/err_$a"; then
            ok "[$a] the run loaded /usr/lib/$multiarch/cudart-rs/libcudart.so.$a (LD_DEBUG=libs)"
        else
            bad "[$a] the run did not load the installed runtime: $(grep 'calling init:.*cudart' "$tmp/err_$a")"
        fi
        if ((rc == 0)) && diff -u "$root/ctest/expected/$a/copy_basic.out" "$tmp/out_$a"; then
            ok "[$a] prints NVIDIA's output (ctest/expected/$a/copy_basic.out) on $where"
        else
            grep -v '^ *[0-9]*:' "$tmp/err_$a" | tail -n 5
            bad "[$a] run: exit $rc, output as above"
        fi
    done

    # The command finds the packaged libraries.
    local v
    v=$(cudart-rs --version 2>&1)
    if [[ $v == *"CUDA 13 runtime: /usr/lib/$multiarch/cudart-rs/libcudart.so.13"* && $v == *"CUDA 12 runtime: /usr/lib/$multiarch/cudart-rs/libcudart.so.12"* ]]; then
        ok "cudart-rs --version names the packaged libraries"
    else
        bad "cudart-rs --version: $v"
    fi
    if [[ -x $tmp/copy_basic_13 ]]; then
        local renv=(env -u LD_LIBRARY_PATH -u LD_PRELOAD)
        [[ -n $driver ]] && renv+=(CUDART_RS_DRIVER="$driver")
        if "${renv[@]}" timeout 120 cudart-rs run --summary -- "$tmp/copy_basic_13" >/dev/null 2>"$tmp/run.err" &&
            grep -q '^==== cudart-rs summary (pid [0-9]*, copy_basic_13' "$tmp/run.err"; then
            ok "cudart-rs run --summary -- copy_basic_13: its summary"
        else
            tail -n 5 "$tmp/run.err"
            bad "cudart-rs run --summary -- copy_basic_13"
        fi
    fi

    # The -dbgsym packages: gdb finds /usr/lib/debug/.build-id/... by the library's build id.
    if ((${#dbg[@]})) && command -v gdb >/dev/null && [[ -x $tmp/copy_basic_13 ]]; then
        local genv=(env -u LD_LIBRARY_PATH -u LD_PRELOAD) bt
        [[ -n $driver ]] && genv+=(CUDART_RS_DRIVER="$driver")
        bt=$("${genv[@]}" timeout 120 gdb -nx -batch -ex 'set breakpoint pending on' -ex 'break cuMemcpy' \
            -ex run -ex bt -ex kill "$tmp/copy_basic_13" 2>&1 | grep '^#')
        if grep -q 'cudart::boundary::run.* at src/boundary\.rs:[0-9]' <<<"$bt"; then
            ok "gdb with libcudart-rs13-dbgsym: $(grep -o 'cudart::api::copy::cudaMemcpy[^ ]* () at src/[^ ]*' <<<"$bt" | head -n 1)"
        else
            printf '%s\n' "$bt" | head -n 12
            bad "gdb: no source lines in the runtime's frames with libcudart-rs13-dbgsym installed"
        fi
    elif ((${#dbg[@]})); then
        echo "   (no gdb here: the -dbgsym packages are installed but not tried)"
    fi

    if ((keep)); then
        echo "   (--keep: the packages stay installed)"
    else
        dpkg -P cudart-rs libcudart-rs-dev libcudart-rs13-dbgsym libcudart-rs12-dbgsym libcudart-rs13 libcudart-rs12 >"$tmp/purge.log" 2>&1
        local left
        left=$(ls -d "/usr/lib/$multiarch/cudart-rs" /usr/include/cudart-rs "/usr/lib/$multiarch/pkgconfig/cudart-rs-"*.pc /usr/bin/cudart-rs 2>/dev/null)
        if [[ -z $left ]] && ! dpkg-query -W 'libcudart-rs*' 'cudart-rs' 2>/dev/null | grep -q .; then
            ok "dpkg -P: the packages are gone and left nothing"
        else
            cat "$tmp/purge.log"
            bad "dpkg -P left: $left"
        fi
        if ((${#tools[@]})); then
            dpkg -P pkgconf pkg-config pkgconf-bin libpkgconf3 >/dev/null 2>&1 || true
        fi
    fi
    rm -rf "$tmp"
}

log_to_out() { # runs "$@" with its output also in $OUT/deb-test.log when OUT is set
    if [[ -n ${OUT:-} ]]; then
        mkdir -p "$OUT"
        "$@" 2>&1 | tee "$OUT/deb-test.log"
        return "${PIPESTATUS[0]}"
    fi
    "$@"
}

run_system() {
    [[ $(id -u) == 0 ]] || { echo "deb-test: --system installs packages: run it as root" >&2; return 1; }
    echo "== packages from $debs, installed on this machine"
    use_packages ""
    summary
}

run_chroot() {
    [[ $(id -u) == 0 ]] || { echo "deb-test: --chroot needs root (debootstrap, chroot)" >&2; return 1; }
    [[ -f dist/lib/stand-in/libcuda.so.1 ]] || { echo "deb-test: no stand-in driver: run scripts/build.sh" >&2; return 1; }
    local base=$root/target/debroot/bookworm run=$root/target/debroot/run
    if [[ ! -x $base/usr/bin/gcc ]]; then
        command -v debootstrap >/dev/null || {
            echo "deb-test: installing debootstrap from Debian's packages"
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null
        } || { echo "deb-test: no debootstrap" >&2; return 1; }
        echo "== debootstrap: a Debian 12 root in $base (once; kept for later runs)"
        rm -rf "$base.tmp"
        mkdir -p "$(dirname "$base")"
        # gcc, libc6-dev, pkg-config to build the program; gdb for the debug symbols (its
        # libboost-regex dependency is virtual, which debootstrap does not resolve).
        if ! debootstrap --variant=minbase --include=gcc,libc6-dev,pkg-config,gdb,libboost-regex1.74.0 \
            bookworm "$base.tmp" http://deb.debian.org/debian >"$root/target/debroot/debootstrap.log" 2>&1; then
            tail -n 20 "$root/target/debroot/debootstrap.log"
            echo "deb-test: debootstrap failed (target/debroot/debootstrap.log)" >&2
            return 1
        fi
        mv "$base.tmp" "$base"
    fi
    echo "== a fresh copy of the Debian 12 root: $run"
    rm -rf "$run"
    cp -a "$base" "$run"
    # What the test needs inside: this script, the program and its expected outputs, the
    # packages, the stand-in driver. Nothing else of the tree.
    local t=$run/cudart-rs
    mkdir -p "$t/scripts" "$t/ctest/expected/13" "$t/ctest/expected/12" "$t/debs" "$t/standin"
    cp scripts/deb-test.sh "$t/scripts/"
    cp ctest/copy_basic.c ctest/ctest.h "$t/ctest/"
    cp ctest/expected/13/copy_basic.out "$t/ctest/expected/13/"
    cp ctest/expected/12/copy_basic.out "$t/ctest/expected/12/"
    cp "$debs"/*.deb "$t/debs/"
    cp dist/lib/stand-in/libcuda.so.1 "$t/standin/"
    mount --bind /proc "$run/proc" || { echo "deb-test: cannot mount /proc in the root" >&2; return 1; }
    local rc
    chroot "$run" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        bash /cudart-rs/scripts/deb-test.sh --inside --debs /cudart-rs/debs --driver /cudart-rs/standin/libcuda.so.1
    rc=$?
    umount "$run/proc"
    rm -rf "$run"
    return "$rc"
}

case $mode in
inside)
    use_packages "$driver"
    summary
    ;;
system) log_to_out run_system ;;
chroot) log_to_out run_chroot ;;
esac
