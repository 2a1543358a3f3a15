#!/usr/bin/env bash
# Checks scripts/package/install.sh on the release build in dist/ (scripts/build.sh first), in a
# temporary DESTDIR, on the stand-in driver:
#   - the files and links it installs, and nothing else;
#   - the cudart-rs command finds the libraries installed with it;
#   - per ABI, ctest/copy_basic.c built with `pkg-config --cflags --libs cudart-rs-N` alone
#     (no -I or -L of ours): it needs libcudart.so.N, finds the installed library through
#     its RUNPATH (no LD_LIBRARY_PATH), and prints NVIDIA's recorded output
#     (ctest/expected/N/copy_basic.out);
#   - NVIDIA's pkg-config names (cudart-13.0 ... cudart-12.9) build the same program;
#   - CMake (when installed): ctest/cmake/, find_package(CUDAToolkit) with CUDAToolkit_ROOT at
#     the ABI's toolkit root (LIBDIR/cudart-rs/13, 12), links CUDA::cudart and runs;
#   - the installed debug info resolves: addr2line names the source line of an export; with
#     gdb (when installed) a backtrace through the library's internal frames names source
#     lines with the debug file beside the library, and again from a build-id tree
#     (DEBUGDIR=/usr/lib/debug), and names none without a debug file;
#   - the manual page names the README and docs/ installed beside it (DOCDIR);
#   - installed into a prefix outside the system's (no DESTDIR), it prints the PKG_CONFIG_PATH
#     and MANPATH lines, and with them pkg-config finds NVIDIA's names and man the page;
#   - --uninstall leaves no file behind.
# Prints one line per check; the last is `N passed, N failed`. Exit status non-zero on a failure.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

passed=0 failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; ((failed == 0)); exit; }

for tool in pkg-config gcc readelf addr2line objdump; do
    command -v "$tool" >/dev/null || { bad "$tool is missing"; finish; }
done
[[ -f dist/lib/stand-in/libcuda.so.1 ]] || { bad "no dist/: run scripts/build.sh"; finish; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/root
driver=$root/dist/lib/stand-in/libcuda.so.1

if ! bash scripts/package/install.sh DESTDIR="$dest" PREFIX=/usr/local >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    bad "scripts/package/install.sh DESTDIR=... PREFIX=/usr/local"
    finish
fi
ok "scripts/package/install.sh DESTDIR=\$tmp PREFIX=/usr/local"

# What is installed: exactly this (type, mode, path, link target).
v13=$(sed -n 's/^version13=//p' dist/BUILD-INFO) v12=$(sed -n 's/^version12=//p' dist/BUILD-INFO)
(cd "$dest" && find . \( -type f -o -type l \) -printf '%p %y %m %l\n' | LC_ALL=C sort) >"$tmp/files"
{
    echo "./usr/local/bin/cudart-rs f 755 "
    echo "./usr/local/share/man/man1/cudart-rs.1 f 644 "
    echo "./usr/local/share/doc/cudart-rs/README.md f 644 "
    (cd docs && find . -maxdepth 1 -type f \( -name '*.md' -o -name '*.png' \)) | sed 's|^\./\(.*\)|./usr/local/share/doc/cudart-rs/docs/\1 f 644 |'
    (cd dist/include && find . -type f) | sed 's|^\./\(.*\)|./usr/local/include/cudart-rs/\1 f 644 |'
    # The 12 ABI's toolkit root: a header of each name.
    (cd dist/include && find . -type f) | sed 's|^\./\(.*\)|./usr/local/lib/cudart-rs/12/include/\1 f 644 |'
    for a in 13 12; do
        v=v$a
        v=${!v}
        echo "./usr/local/lib/cudart-rs/.debug/libcudart.so.$v.debug f 644 "
        echo "./usr/local/lib/cudart-rs/libcudart.so.$a l 777 libcudart.so.$v"
        echo "./usr/local/lib/cudart-rs/libcudart.so.$v f 644 "
        echo "./usr/local/lib/cudart-rs/$a/lib/libcudart.so l 777 ../../libcudart.so.$a"
        echo "./usr/local/lib/cudart-rs/$a/lib/libcudart.so.$a l 777 ../../libcudart.so.$a"
        echo "./usr/local/lib/cudart-rs/$a/version.json f 644 "
        echo "./usr/local/lib/cudart-rs/$a/version.txt f 644 "
        echo "./usr/local/lib/pkgconfig/cudart-rs-$a.pc f 644 "
        for ((m = 0; m <= $(cut -d. -f2 <<<"$v"); m++)); do echo "./usr/local/lib/pkgconfig/cudart-$a.$m.pc f 644 "; done
    done
    echo "./usr/local/lib/cudart-rs/13/include l 777 ../../../include/cudart-rs"
} | LC_ALL=C sort >"$tmp/want"
if diff -u "$tmp/want" "$tmp/files"; then
    ok "installed files and links: libcudart.so.$v13, libcudart.so.$v12 (the versions the ABIs report), the headers, the toolkit roots cudart-rs/13 and 12, $(grep -c 'pkgconfig/.*\.pc' "$tmp/want") pkg-config files, the command, its manual page, the README and docs/"
else
    bad "installed files and links (diff above)"
fi
for a in 13 12; do
    if cmp -s "$dest/usr/local/include/cudart-rs/cuda_runtime_api.h" include/cuda_runtime_api.h &&
        [[ -z $(readelf -S -W "$dest/usr/local/lib/cudart-rs/libcudart.so.$a" | grep -E ' \.(debug_[a-z]+|symtab) ') ]]; then
        ok "libcudart.so.$a installed stripped (no .debug_* or .symtab), header as include/"
    else
        bad "libcudart.so.$a not stripped, or the header differs from include/"
    fi
done

# The manual page names the documents where they were installed.
man1=$dest/usr/local/share/man/man1/cudart-rs.1
if grep -qx '\.I /usr/local/share/doc/cudart-rs/README.md' "$man1" && ! grep -q '@DOCDIR@' "$man1" &&
    cmp -s README.md "$dest/usr/local/share/doc/cudart-rs/README.md"; then
    ok "the manual page names /usr/local/share/doc/cudart-rs/README.md and docs/, installed there"
else
    bad "the manual page does not name the installed README ($(grep -n 'doc/cudart-rs\|@DOCDIR@' "$man1" | head -n 3))"
fi

# The command finds the libraries installed with it.
v=$("$dest/usr/local/bin/cudart-rs" --version 2>&1)
if [[ $v == *"CUDA 13 runtime: $dest/usr/local/lib/cudart-rs/libcudart.so.13"* && $v == *"CUDA 12 runtime: $dest/usr/local/lib/cudart-rs/libcudart.so.12"* ]]; then
    ok "cudart-rs --version names the libraries installed with it"
else
    bad "cudart-rs --version: $v"
fi

# A program built with pkg-config alone. --define-prefix: the .pc files' prefix is where they
# lie (DESTDIR/usr/local), as it would be /usr/local once installed there.
export PKG_CONFIG_PATH=$dest/usr/local/lib/pkgconfig PKG_CONFIG_LIBDIR=$dest/usr/local/lib/pkgconfig
for a in 13 12; do
    if ! flags=$(pkg-config --define-prefix --cflags --libs "cudart-rs-$a" 2>&1); then
        bad "pkg-config cudart-rs-$a: $flags"
        continue
    fi
    echo "   pkg-config --cflags --libs cudart-rs-$a: $flags"
    bin=$tmp/copy_basic_$a
    # shellcheck disable=SC2086  # pkg-config's output is meant to be split
    if ! gcc -O1 -Wall ctest/copy_basic.c $flags -o "$bin" >"$tmp/cc.log" 2>&1; then
        cat "$tmp/cc.log"
        bad "[$a] gcc ctest/copy_basic.c \$(pkg-config --cflags --libs cudart-rs-$a)"
        continue
    fi
    needed=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(libcudart[^]]*\)\].*/\1/p')
    runpath=$(readelf -d "$bin" | sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\].*/\2/p')
    if [[ $needed == "libcudart.so.$a" && $runpath == "$dest/usr/local/lib/cudart-rs" ]]; then
        ok "[$a] built: NEEDED $needed, RUNPATH $runpath"
    else
        bad "[$a] built: NEEDED '$needed' (want libcudart.so.$a), RUNPATH '$runpath'"
    fi
    resolved=$(env -u LD_LIBRARY_PATH -u LD_PRELOAD ldd "$bin" | awk '$1 == "libcudart.so.'"$a"'" { print $3 }')
    if [[ $resolved == "$dest/usr/local/lib/cudart-rs/libcudart.so.$a" ]]; then
        ok "[$a] the loader finds the installed libcudart.so.$a"
    else
        bad "[$a] the loader finds libcudart.so.$a at '$resolved'"
    fi
    env -u LD_LIBRARY_PATH -u LD_PRELOAD CUDART_RS_DRIVER="$driver" timeout 60 "$bin" >"$tmp/out_$a" 2>&1
    rc=$?
    if ((rc == 0)) && diff -u "ctest/expected/$a/copy_basic.out" "$tmp/out_$a"; then
        ok "[$a] runs on the stand-in and prints NVIDIA's output (ctest/expected/$a/copy_basic.out)"
    else
        bad "[$a] run: exit $rc, output as above"
    fi
done

# NVIDIA's pkg-config names: the first and the last version of each ABI, as a build system
# asks for them; the 12 ABI's select its declarations without -D.
for name in cudart-13.0 "cudart-${v13%.*}" cudart-12.0 "cudart-${v12%.*}"; do
    a=${name#cudart-}
    a=${a%%.*}
    if ! flags=$(pkg-config --define-prefix --cflags --libs "$name" 2>&1); then
        bad "pkg-config $name: $flags"
        continue
    fi
    bin=$tmp/nv_$name
    # shellcheck disable=SC2086
    if gcc -O1 -Wall ctest/copy_basic.c $(pkg-config --define-prefix --cflags "$name" | sed 's/-DCUDART_RS_ABI12//') \
        $(pkg-config --define-prefix --libs "$name") -o "$bin" >"$tmp/cc.log" 2>&1 &&
        env -u LD_LIBRARY_PATH -u LD_PRELOAD CUDART_RS_DRIVER="$driver" timeout 60 "$bin" >"$tmp/out" 2>&1 &&
        cmp -s "ctest/expected/$a/copy_basic.out" "$tmp/out" &&
        [[ $(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(libcudart[^]]*\)\].*/\1/p') == libcudart.so.$a ]]; then
        ok "pkg-config $name (NVIDIA's name): builds ctest/copy_basic.c for libcudart.so.$a, which prints NVIDIA's output"
    else
        cat "$tmp/cc.log" 2>/dev/null | head -n 5
        bad "pkg-config $name: build or run ($flags)"
    fi
done

# CMake: find_package(CUDAToolkit) with CUDAToolkit_ROOT at the ABI's toolkit root finds
# CUDA::cudart; the program prints the ABI's version and copies through the device.
if command -v cmake >/dev/null && command -v g++ >/dev/null; then
    for a in 13 12; do
        v=v$a
        v=${!v}
        b=$tmp/cmake-$a
        if cmake -S ctest/cmake -B "$b" -DCUDAToolkit_ROOT="$dest/usr/local/lib/cudart-rs/$a" >"$b.log" 2>&1 &&
            cmake --build "$b" >>"$b.log" 2>&1; then
            out=$(env -u LD_LIBRARY_PATH -u LD_PRELOAD CUDART_RS_DRIVER="$driver" timeout 60 "$b/app" 2>&1)
            want=$(printf 'CUDART_VERSION %d\nruntime cudaSuccess %d\nround trip: ok (cudaSuccess)' "$(( ${v%%.*} * 1000 + $(cut -d. -f2 <<<"$v") * 10 ))" "$(( ${v%%.*} * 1000 + $(cut -d. -f2 <<<"$v") * 10 ))")
            found=$(grep -o 'CUDAToolkit_VERSION=[0-9.]*' "$b.log")
            if [[ $out == "$want" && $found == "CUDAToolkit_VERSION=$v" ]]; then
                ok "[$a] CMake $(cmake --version | head -n 1 | awk '{ print $3 }'): find_package(CUDAToolkit), CUDAToolkit_ROOT=.../cudart-rs/$a: $found, CUDA::cudart; the program prints $(head -n 1 <<<"$out") and copies"
            else
                printf '%s\n' "$out" | head -n 5
                bad "[$a] CMake build: $found, output above"
            fi
        else
            tail -n 15 "$b.log"
            bad "[$a] CMake: find_package(CUDAToolkit) with CUDAToolkit_ROOT=.../cudart-rs/$a"
        fi
    done
else
    echo "   (no cmake or g++: the CMake checks are skipped)"
fi

# Debug info: the source line of an export from the installed library and its debug file.
lib13=$dest/usr/local/lib/cudart-rs/libcudart.so.$v13
addr=$(readelf -W --dyn-syms "$lib13" | awk '$8 == "cudaMemcpy@@libcudart.so.13" { print $2 }')
# The exported symbol is the observation shim (src/observe): on x86-64 a compare, a branch and
# a jump to the export's own code; the source line is the jump target's.
if [[ $(uname -m) == x86_64 ]]; then
    addr=$(objdump -d --no-show-raw-insn --start-address="0x$addr" --stop-address=$((0x$addr + 32)) "$lib13" |
        awk '$2 == "jmp" { print $3; exit }')
fi
line=$(addr2line -e "$lib13" "0x$addr" 2>&1)
if [[ $line == */src/api/copy.rs:[0-9]* ]]; then
    ok "addr2line: cudaMemcpy at src/${line##*/src/} (from cudart-rs/.debug/)"
else
    bad "addr2line on cudaMemcpy: '$line'"
fi

# gdb: a backtrace from inside the driver through the runtime's frames.
backtrace() { # backtrace BIN [gdb commands...]: the frames, one a line
    local bin=$1
    shift
    env -u LD_LIBRARY_PATH CUDART_RS_DRIVER="$driver" timeout 120 gdb -nx -batch "$@" \
        -ex 'set breakpoint pending on' -ex 'break cuMemcpy' -ex run -ex bt -ex kill "$bin" 2>&1 | grep '^#'
}
frames_ok() { grep -q 'cudart::runtime::boundary::run.* at src/runtime/boundary\.rs:[0-9]' <<<"$1"; }
if command -v gdb >/dev/null; then
    bt=$(backtrace "$tmp/copy_basic_13")
    if frames_ok "$bt"; then
        ok "gdb: backtrace through the runtime names its source lines ($(grep -o 'cudart::api::copy::cudaMemcpy.* at src/[^ ]*' <<<"$bt" | head -n 1 | sed 's/.* at //'))"
    else
        printf '%s\n' "$bt" | head -n 12
        bad "gdb: no source lines in the runtime's frames with its debug file installed"
    fi
    mv "$dest/usr/local/lib/cudart-rs/.debug" "$tmp/debug-aside"
    bt=$(backtrace "$tmp/copy_basic_13")
    if ! frames_ok "$bt"; then
        ok "gdb: without the debug file the same frames have no source lines (the library is stripped)"
    else
        bad "gdb: source lines without a debug file: the library is not stripped"
    fi
    # The build-id tree, as distributions install it.
    if bash scripts/package/install.sh --abi 13 DESTDIR="$dest" PREFIX=/usr/local DEBUGDIR=/usr/lib/debug >/dev/null &&
        id=$(readelf -n "$lib13" | sed -n 's/^ *Build ID: *//p') &&
        [[ -f $dest/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug ]]; then
        bt=$(backtrace "$tmp/copy_basic_13" -ex "set debug-file-directory $dest/usr/lib/debug")
        if frames_ok "$bt"; then
            ok "gdb: source lines from the build-id tree (DEBUGDIR=/usr/lib/debug: .build-id/${id:0:2}/${id:2}.debug)"
        else
            bad "gdb: no source lines from the build-id tree"
        fi
        rm -rf "$dest/usr/lib/debug"
    else
        bad "install.sh DEBUGDIR=/usr/lib/debug: no .build-id/xx/yyy.debug file"
    fi
    mv "$tmp/debug-aside" "$dest/usr/local/lib/cudart-rs/.debug"
else
    echo "   (gdb is not installed: the backtrace checks are skipped)"
fi

# A prefix outside the system's, installed for real (no DESTDIR): the lines it prints make
# pkg-config and man find it.
prefix=$tmp/prefix
if env -u PKG_CONFIG_PATH -u PKG_CONFIG_LIBDIR -u MANPATH bash scripts/package/install.sh --abi 13 --no-debug PREFIX="$prefix" \
    >"$tmp/prefix.log" 2>&1; then
    grep '^  export ' "$tmp/prefix.log" | sed 's/^ */   /'
    if grep -q "^  export PKG_CONFIG_PATH=\"$prefix/lib/pkgconfig" "$tmp/prefix.log" &&
        flags=$(env -u PKG_CONFIG_PATH -u PKG_CONFIG_LIBDIR bash -c "$(grep '^  export PKG_CONFIG_PATH=' "$tmp/prefix.log"); pkg-config --cflags --libs cudart-13.0" 2>&1) &&
        [[ $flags == *"-L$prefix/lib/cudart-rs/13/lib"* ]]; then
        ok "PREFIX=\$tmp/prefix: prints export PKG_CONFIG_PATH=...; with it pkg-config cudart-13.0 gives $flags"
    else
        cat "$tmp/prefix.log"
        bad "PREFIX=\$tmp/prefix: no working PKG_CONFIG_PATH line (pkg-config: ${flags:-})"
    fi
    if ! command -v man >/dev/null; then
        echo "   (no man: the MANPATH line is not tried)"
    elif grep -q "^  export MANPATH=\"$prefix/share/man:" "$tmp/prefix.log" &&
        page=$(env -u MANPATH bash -c "$(grep '^  export ' "$tmp/prefix.log"); man -w cudart-rs" 2>&1) &&
        [[ $page == "$prefix/share/man/man1/cudart-rs.1"* ]]; then
        ok "PREFIX=\$tmp/prefix: prints export MANPATH=...; with the lines it prints man -w cudart-rs gives $page"
    else
        bad "PREFIX=\$tmp/prefix: no working MANPATH line (man -w: ${page:-})"
    fi
    bash scripts/package/install.sh --abi 13 --no-debug --uninstall PREFIX="$prefix" >/dev/null
    left=$(cd "$prefix" && find . \( -type f -o -type l \) | sort)
    [[ -z $left ]] || bad "--uninstall PREFIX=\$tmp/prefix left: $left"
else
    cat "$tmp/prefix.log"
    bad "install.sh PREFIX=\$tmp/prefix"
fi

bash scripts/package/install.sh --uninstall DESTDIR="$dest" PREFIX=/usr/local >/dev/null
left=$(cd "$dest" && find . \( -type f -o -type l \) | sort)
if [[ -z $left ]]; then ok "--uninstall removes every file"; else bad "--uninstall left: $left"; fi
finish
