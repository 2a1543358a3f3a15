#!/usr/bin/env bash
# Installs the Debian packages (scripts/package/deb.sh) with dpkg -i and uses them as a user would:
# ctest/copy_basic.c built with pkg-config alone (cudart-rs-13, cudart-rs-12 and NVIDIA's
# names cudart-13.0, cudart-12.9) must link to the installed libcudart.so.N, load it at run time
# (no LD_LIBRARY_PATH) and print NVIDIA's recorded output (ctest/expected/N/copy_basic.out);
# ctest/cmake/ built with CMake (where installed) and CUDAToolkit_ROOT at each ABI's toolkit root
# must print its ABI's version; the packages' files must lie only in cudart-rs's own paths (none
# that NVIDIA's or Debian's CUDA packages use); with the -dbgsym packages and gdb, a backtrace
# through the runtime names its source lines; cudart-rs-systemN must make ours what a program
# without a RUNPATH loads, and its removal give back what it loaded before; removing the
# packages, then purging them, leaves nothing behind. Without a driver on the machine, the
# programs run on the packaged stand-in (cudart-rs-standin).
#
#   bash scripts/package/deb-test.sh --chroot [--debs DIR]
#       Here (root, Debian's packages reachable): a clean Debian 12 root made with debootstrap
#       (kept in target/debroot/bookworm, copied afresh for each run), the packages installed
#       there, the program run on the stand-in driver (dist/lib/stand-in).
#   bash scripts/package/deb-test.sh --system [--debs DIR] [--keep]
#       On this machine itself (root; no network needed): for the GPU machine, with .gpu
#       carried (scripts/gpu/gpu-bundle.sh puts the packages in .gpu/deb): the program runs on
#       the system's driver. The packages are removed again at the end unless --keep.
#       When the machine has no pkg-config, Debian's pkgconf packages carried in DIR/tools
#       are installed for the run (and removed after).
# DIR: the .deb files, default .gpu/deb when it exists, else dist/deb. $OUT (when set) gets
# deb-test.log. Ends with `N passed, N failed`; exit status non-zero on a failure.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
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
        *) header_usage ;;
    esac
    shift
done
[[ -n $mode ]] || { header_usage; }
if [[ -z $debs ]]; then
    if [[ -d .gpu/deb ]]; then debs=.gpu/deb; else debs=dist/deb; fi
fi
debs=$(cd "$debs" 2>/dev/null && pwd) || die "no folder of packages '$debs' (scripts/package/deb.sh)"

passed=0 failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
summary() { echo "$passed passed, $failed failed"; ((failed == 0)); }
# installed PACKAGE...: true when dpkg knows any of them as more than not installed (a purged
# package it has seen reads "un", a package that left configuration files "rc").
installed() { dpkg-query -W -f='${db:Status-Abbrev}\n' "$@" 2>/dev/null | grep -qv '^[up]n'; }

# The tests proper, run as root on the system that gets the packages (the chroot or the
# machine): $1 the driver, "" for the system's (the packaged stand-in where there is none).
use_packages() {
    local driver=$1 tmp multiarch pkgs=() sys=() dbg=() tools=() f a p
    tmp=$(mktemp -d)
    multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
    local priv=/usr/lib/$multiarch/cudart-rs
    echo "system: $(. /etc/os-release && echo "$PRETTY_NAME"), dpkg $(dpkg-query -W -f='${Version}' dpkg), gcc $(gcc -dumpfullversion)"
    for p in libcudart-rs13 libcudart-rs12 libcudart-rs-headers libcudart-rs13-dev libcudart-rs12-dev cudart-rs-standin cudart-rs; do
        f=$(ls "$debs/${p}_"*.deb 2>/dev/null | head -n 1)
        [[ -n $f ]] && pkgs+=("$f") || { bad "no $p in $debs"; rm -rf "$tmp"; return; }
    done
    for p in cudart-rs-system13 cudart-rs-system12; do
        f=$(ls "$debs/${p}_"*.deb 2>/dev/null | head -n 1)
        [[ -n $f ]] && sys+=("$f") || { bad "no $p in $debs"; rm -rf "$tmp"; return; }
    done
    for f in "$debs"/*-dbgsym_*.deb; do [[ -f $f ]] && dbg+=("$f"); done

    # Every path in cudart-rs's own places: nothing in /usr/include or the loader's folders
    # that NVIDIA's cuda-cudart-*/cuda-cudart-dev-* (/usr/local/cuda-*, /usr/lib/pkgconfig/cudart-X.Y.pc)
    # or Debian's libcudart*/nvidia-cuda-dev (/usr/lib/<triplet>/libcudart.so*, /usr/include/*.h) ship.
    local stray=""
    for f in "${pkgs[@]}" "${sys[@]}" "${dbg[@]}"; do
        stray+=$(dpkg-deb -c "$f" | awk '{ print $6 }' | sed 's|^\./|/|; s|/$||' | grep -vxE \
            "/|/usr|/etc|/etc/ld\.so\.conf\.d|/etc/ld\.so\.conf\.d/0000-cudart-rs-1[23]\.conf|/usr/(bin|lib|include|share|share/doc|share/man|share/man/man1|lib/debug|lib/debug/\.build-id(/[0-9a-f]{2})?)|/usr/lib/$multiarch|/usr/lib/$multiarch/pkgconfig|$priv(/.*)?|/usr/include/cudart-rs(/.*)?|/usr/lib/$multiarch/pkgconfig/cudart-rs-1[23]\.pc|/usr/lib/$multiarch/pkgconfig/cudart-1[23]\.[0-9]+\.pc|/usr/share/doc/(lib)?cudart-rs[-a-z0-9]*(/.*)?|/usr/share/lintian(/overrides(/(lib)?cudart-rs[-a-z0-9]*)?)?|/usr/bin/cudart-rs|/usr/share/man/man1/cudart-rs\.1\.gz|/usr/lib/debug/\.build-id/[0-9a-f]{2}/[0-9a-f]{38}\.debug")
    done
    if [[ -z $stray ]]; then
        ok "the packages' files lie in $priv/, /usr/include/cudart-rs/, pkgconfig/cudart-rs-1{3,2}.pc and cudart-1{3,2}.x.pc, /etc/ld.so.conf.d/0000-cudart-rs-1{3,2}.conf, /usr/lib/debug/.build-id/, /usr/share/{doc,lintian/overrides}/ only"
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

    # What a program without a path of its own finds for libcudart.so.13 and .12 before.
    local before13 before12
    before13=$(ldconfig -p | awk '$1 == "libcudart.so.13" { print $NF; exit }')
    before12=$(ldconfig -p | awk '$1 == "libcudart.so.12" { print $NF; exit }')

    if dpkg -i "${pkgs[@]}" "${dbg[@]}" >"$tmp/dpkg.log" 2>&1; then
        ok "dpkg -i $(for f in "${pkgs[@]}" "${dbg[@]}"; do printf '%s ' "${f##*/}"; done)"
    else
        cat "$tmp/dpkg.log"
        bad "dpkg -i"
        rm -rf "$tmp"
        return
    fi
    dpkg-query -W -f='${binary:Package} ${Version} ${db:Status-Abbrev}\n' 'libcudart-rs*' 'cudart-rs*' 2>/dev/null | sed 's/^/   /'

    # The driver: the one given, else the system's, else the packaged stand-in.
    local where="the system's driver"
    if [[ -z $driver ]] && ! ldconfig -p | grep -q 'libcuda\.so\.1 '; then
        driver=$priv/stand-in/libcuda.so.1
    fi
    [[ -n $driver ]] && where="the stand-in driver ($driver)"
    local envs=(env -u LD_LIBRARY_PATH -u LD_PRELOAD)
    [[ -n $driver ]] && envs+=(CUDART_RS_DRIVER="$driver")
    if [[ $driver == "$priv/stand-in/libcuda.so.1" ]]; then
        [[ -f $driver ]] && ok "cudart-rs-standin: $driver" || bad "cudart-rs-standin: no $driver"
    fi

    # run_expect NAME BIN ABI: BIN prints NVIDIA's recorded output of ctest/copy_basic.c.
    run_expect() {
        local rc
        "${envs[@]}" LD_DEBUG=libs timeout 120 "$2" >"$tmp/out" 2>"$tmp/err"
        rc=$?
        if ((rc == 0)) && diff -u "$root/ctest/expected/$3/copy_basic.out" "$tmp/out"; then
            return 0
        fi
        grep -v '^ *[0-9]*:' "$tmp/err" | tail -n 5
        echo "   exit $rc"
        return 1
    }

    # pkg-config, by cudart-rs's names and NVIDIA's.
    for name in cudart-rs-13 cudart-rs-12 cudart-13.0 cudart-12.9; do
        local flags bin needed runpath resolved
        a=${name#cudart-}
        a=${a#rs-}
        a=${a%%.*}
        if ! flags=$(pkg-config --cflags --libs "$name" 2>&1); then
            bad "[$a] pkg-config --cflags --libs $name: $flags"
            continue
        fi
        echo "   [$a] pkg-config --cflags --libs $name: $flags"
        bin=$tmp/copy_basic_$name
        # shellcheck disable=SC2086  # pkg-config's output is meant to be split
        if ! gcc -O1 -Wall "$root/ctest/copy_basic.c" $flags -o "$bin" >"$tmp/cc.log" 2>&1; then
            cat "$tmp/cc.log"
            bad "[$a] gcc ctest/copy_basic.c \$(pkg-config --cflags --libs $name)"
            continue
        fi
        needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(libcudart[^]]*\)\].*/\1/p')
        runpath=$(readelf -d "$bin" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\].*/\2/p')
        resolved=$(env -u LD_LIBRARY_PATH -u LD_PRELOAD ldd "$bin" | awk '$1 == "libcudart.so.'"$a"'" { print $3 }')
        if [[ $needed == "libcudart.so.$a" && $resolved == "$priv/libcudart.so.$a" ]] && run_expect "$name" "$bin" "$a" &&
            grep -q "calling init: $priv/libcudart.so.$a\$" "$tmp/err"; then
            ok "[$a] pkg-config $name: NEEDED $needed, RUNPATH $runpath, loads $resolved, prints NVIDIA's output on $where"
        else
            bad "[$a] pkg-config $name: NEEDED '$needed', RUNPATH '$runpath', the loader finds '$resolved'"
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
    # CMake: find_package(CUDAToolkit) with CUDAToolkit_ROOT at the ABI's toolkit root.
    if command -v cmake >/dev/null && command -v g++ >/dev/null; then
        for a in 13 12; do
            local b=$tmp/cmake-$a out want
            if cmake -S "$root/ctest/cmake" -B "$b" -DCUDAToolkit_ROOT="$priv/$a" >"$b.log" 2>&1 &&
                cmake --build "$b" >>"$b.log" 2>&1; then
                out=$("${envs[@]}" timeout 120 "$b/app" 2>&1)
                want=$((a * 1000 + $(if [[ $a == 13 ]]; then echo 50; else echo 90; fi)))
                if [[ $out == "CUDART_VERSION $want"$'\n'"runtime cudaSuccess $want"$'\n'"round trip: ok (cudaSuccess)" ]]; then
                    ok "[$a] CMake: CUDAToolkit_ROOT=$priv/$a, $(grep -o 'CUDAToolkit_VERSION=[0-9.]*' "$b.log"), CUDA::cudart: the program prints CUDART_VERSION $want and copies on $where"
                else
                    printf '%s\n' "$out" | head -n 5
                    bad "[$a] CMake build's program printed the above"
                fi
            else
                tail -n 15 "$b.log"
                bad "[$a] CMake: find_package(CUDAToolkit) with CUDAToolkit_ROOT=$priv/$a"
            fi
        done
    else
        echo "   (no cmake or g++ here: the CMake builds are not tried)"
    fi

    # The -dbgsym packages: gdb finds /usr/lib/debug/.build-id/... by the library's build id.
    if ((${#dbg[@]})) && command -v gdb >/dev/null && [[ -x $tmp/copy_basic_cudart-rs-13 ]]; then
        local bt
        bt=$("${envs[@]}" timeout 120 gdb -nx -batch -ex 'set breakpoint pending on' -ex 'break cuMemcpy' \
            -ex run -ex bt -ex kill "$tmp/copy_basic_cudart-rs-13" 2>&1 | grep '^#')
        if grep -q 'cudart::runtime::boundary::run.* at src/runtime/boundary\.rs:[0-9]' <<<"$bt"; then
            ok "gdb with libcudart-rs13-dbgsym: $(grep -o 'cudart::api::copy::cudaMemcpy[^ ]* () at src/[^ ]*' <<<"$bt" | head -n 1)"
        else
            printf '%s\n' "$bt" | head -n 12
            bad "gdb: no source lines in the runtime's frames with libcudart-rs13-dbgsym installed"
        fi
    elif ((${#dbg[@]})); then
        echo "   (no gdb here: the -dbgsym packages are installed but not tried)"
    fi

    # The system packages: a program built with no path of its own (no RUNPATH) gets ours once
    # cudart-rs-systemN is installed, and what it had before once it is removed, then purged.
    for a in 13 12; do
        local bin=$tmp/plain_$a first found before
        before=before$a
        before=${!before}
        # shellcheck disable=SC2046
        gcc -O1 "$root/ctest/copy_basic.c" -I/usr/include/cudart-rs $([[ $a == 12 ]] && echo -DCUDART_RS_ABI12) \
            -L"$priv/$a/lib" -lcudart -o "$bin" >"$tmp/cc.log" 2>&1 || { cat "$tmp/cc.log"; bad "[$a] gcc without RUNPATH"; continue; }
        f=$(ls "$debs/cudart-rs-system${a}_"*.deb)
        if ! dpkg -i "$f" >"$tmp/sys.log" 2>&1; then
            cat "$tmp/sys.log"
            bad "[$a] dpkg -i ${f##*/}"
            continue
        fi
        first=$(ldconfig -p | awk '$1 == "libcudart.so.'"$a"'" { print $NF; exit }')
        found=$(env -u LD_LIBRARY_PATH -u LD_PRELOAD ldd "$bin" | awk '$1 == "libcudart.so.'"$a"'" { print $3 }')
        if [[ $first == "$priv/system$a/libcudart.so.$a" && $found == "$first" ]] && run_expect "plain" "$bin" "$a"; then
            ok "[$a] cudart-rs-system$a: ldconfig -p lists $first first (before: ${before:-none}); a program without RUNPATH loads it and prints NVIDIA's output"
        else
            bad "[$a] cudart-rs-system$a: ldconfig -p first '$first', the program finds '$found' (before: '${before:-none}')"
        fi
        dpkg -r "cudart-rs-system$a" >"$tmp/sys.log" 2>&1
        first=$(ldconfig -p | awk '$1 == "libcudart.so.'"$a"'" { print $NF; exit }')
        if [[ $first == "$before" && ! -e /etc/ld.so.conf.d/0000-cudart-rs-$a.conf && ! -e $priv/system$a ]] &&
            ! ldconfig -p | grep -q "$priv"; then
            ok "[$a] dpkg -r cudart-rs-system$a: the configuration and folder are gone, the loader's cache lists ${before:-no libcudart.so.$a} again"
        else
            cat "$tmp/sys.log"
            bad "[$a] after dpkg -r cudart-rs-system$a: cache first '$first' (before '$before'), $(ls -d /etc/ld.so.conf.d/0000-cudart-rs-* "$priv/system$a" 2>/dev/null)"
        fi
        dpkg -P "cudart-rs-system$a" >/dev/null 2>&1
        if ! installed "cudart-rs-system$a" && [[ ! -e /etc/ld.so.conf.d/0000-cudart-rs-$a.conf ]]; then
            ok "[$a] dpkg -P cudart-rs-system$a: nothing of it is left"
        else
            bad "[$a] dpkg -P cudart-rs-system$a left something"
        fi
    done

    if ((keep)); then
        echo "   (--keep: the packages stay installed)"
    else
        local names=() left
        for f in "${pkgs[@]}" "${dbg[@]}"; do names+=("$(dpkg-deb -f "$f" Package)"); done
        # Removed first, then purged, as a user would.
        dpkg -r "${names[@]}" >"$tmp/purge.log" 2>&1
        left=$(ls -d "$priv" /usr/include/cudart-rs "/usr/lib/$multiarch/pkgconfig/cudart"*.pc /etc/ld.so.conf.d/0000-cudart-rs-* /usr/bin/cudart-rs 2>/dev/null)
        if [[ -z $left ]] && ! ldconfig -p | grep -q cudart-rs; then
            ok "dpkg -r: every file of the packages is gone"
        else
            cat "$tmp/purge.log"
            bad "dpkg -r left: $left"
        fi
        dpkg -P "${names[@]}" >>"$tmp/purge.log" 2>&1
        if ! installed "${names[@]}"; then
            ok "dpkg -P: the packages are gone and left nothing"
        else
            cat "$tmp/purge.log"
            bad "dpkg -P: $(dpkg-query -W -f='${binary:Package} ${db:Status-Abbrev}\n' "${names[@]}" 2>/dev/null | tr '\n' ' ')"
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
        if ! debootstrap --variant=minbase --include=gcc,g++,libc6-dev,pkg-config,cmake,make,gdb,libboost-regex1.74.0 \
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
    mkdir -p "$t/scripts/package" "$t/ctest/expected/13" "$t/ctest/expected/12" "$t/debs" "$t/standin"
    cp scripts/package/deb-test.sh "$t/scripts/package/"
    cp ctest/copy_basic.c ctest/ctest.h "$t/ctest/"
    cp -r ctest/cmake "$t/ctest/"
    cp ctest/expected/13/copy_basic.out "$t/ctest/expected/13/"
    cp ctest/expected/12/copy_basic.out "$t/ctest/expected/12/"
    cp "$debs"/*.deb "$t/debs/"
    cp dist/lib/stand-in/libcuda.so.1 "$t/standin/"
    mount --bind /proc "$run/proc" || { echo "deb-test: cannot mount /proc in the root" >&2; return 1; }
    local rc
    chroot "$run" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        bash /cudart-rs/scripts/package/deb-test.sh --inside --debs /cudart-rs/debs --driver /cudart-rs/standin/libcuda.so.1
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
