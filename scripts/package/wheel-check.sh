#!/usr/bin/env bash
# Checks the wheel in dist/wheel/ (scripts/package/wheel.sh) as a Python user meets it, on the
# stand-in driver (no GPU):
#   - auditwheel show: the wheel's manylinux tag is what its ELF files allow; its libraries
#     are dist/'s (SONAMEs and symbol versions intact), nothing grafted;
#   - for each Python (python3, and python3.12 where it runs; PYTHONS="python3 /x/python3.12"
#     names others): a fresh virtual environment, pip install --no-index of the wheel, the
#     command on PATH finding the wheel's libraries, python -m cudart_rs running the
#     stand-in program;
#   - in python3's environment, through the installed command and through
#     python -m cudart_rs, under `run --standin --summary`: examples/demo.c (built against
#     include/, needing libcudart.so.13 with no path to it) and examples/ctypes_runtime.py
#     (loads the runtime with ctypes by its SONAME), each printing what it prints on dist/
#     without the command, with a summary of its calls; `run --driver PATH`;
#     `cudart-rs doctor` saying where the libraries came from and naming the stand-in;
#     cudart_rs.library() and a child started with cudart_rs.environ(summary=FILE,
#     standin=True);
#   - beside NVIDIA's wheel nvidia-cuda-runtime (13.0.96, from .cache/nvidia: run
#     scripts/dev/fetch-nvidia.sh) and cuda-pathfinder (from PyPI, pinned): pathfinder's
#     load_nvidia_dynamic_lib("cudart") gives NVIDIA's on its own and ours under
#     `cudart-rs run`; NVIDIA's copy loaded by its full path (as JAX's CUDA plugin does) is
#     mapped beside ours, and the SONAME and the global scope still give ours; doctor, run
#     from the environment's bin/ without it on PATH, on a PyTorch-like package whose
#     libtorch_cuda.so needs libcudart.so.13 through NVIDIA's wheel's folder, says NVIDIA's
#     on its own and ours under `cudart-rs run`;
#   - the manual page and docs installed, found by man; pip uninstall removes every file.
# Prints a line per check; the last is `N passed, N failed, N skipped`; exit status non-zero on
# a failure.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

pathfinder=cuda-pathfinder==1.9.1
passed=0 failed=0 skipped=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
skip() { echo "skipped: $*"; skipped=$((skipped + 1)); }
finish() { echo "$passed passed, $failed failed, $skipped skipped"; ((failed == 0)); exit; }

wheel=$(compgen -G 'dist/wheel/cudart_rs-*.whl' | head -n 1)
[[ -n $wheel ]] || { bad "no dist/wheel/cudart_rs-*.whl: run scripts/package/wheel.sh"; finish; }
[[ -x target/wheel-tools/bin/auditwheel ]] || { bad "no target/wheel-tools: run scripts/package/wheel.sh"; finish; }
v13=$(sed -n 's/^version13=//p' dist/BUILD-INFO)
rv13=$((${v13%%.*} * 1000 + $(cut -d. -f2 <<<"$v13") * 10)) # what cudaRuntimeGetVersion returns: 13050
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
standin=$root/dist/lib/stand-in/libcuda.so.1

# The tag: auditwheel's verdict on every ELF file is the tag the wheel carries.
tag=$(basename "$wheel" .whl)
tag=${tag##*-}
show=$(target/wheel-tools/bin/auditwheel show "$wheel" 2>&1)
policy=$(tr -s ' \n' ' ' <<<"$show" | grep -o 'consistent with the following platform tag: "[^"]*"' | cut -d'"' -f2)
if [[ $tag == manylinux_* && $policy == "$tag" ]]; then
    ok "auditwheel show: $(basename "$wheel") is consistent with its tag $tag"
else
    echo "$show"
    bad "auditwheel show: tag $tag, auditwheel says '$policy'"
fi
mkdir -p "$tmp/unpacked"
(cd "$tmp/unpacked" && unzip -q "$root/$wheel")
u=$tmp/unpacked/cudart_rs/lib
if cmp -s "$u/libcudart.so.13" "dist/lib/libcudart.so.$v13" && cmp -s "$u/stand-in/libcuda.so.1" "$standin" &&
    [[ $(objdump -p "$u/libcudart.so.13" | awk '$1 == "SONAME" { print $2 }') == libcudart.so.13 &&
    $(objdump -p "$u/libcudart.so.12" | awk '$1 == "SONAME" { print $2 }') == libcudart.so.12 ]] &&
    [[ $(readelf -W --dyn-syms "$u/libcudart.so.13" | grep -c '@@libcudart.so.13$') == $(wc -l <dist/exports-13.txt) ]] &&
    [[ -z $(cd "$tmp/unpacked" && find . -path '*.libs*') ]]; then
    ok "the wheel's libcudart.so.13 is dist/'s ($(wc -l <dist/exports-13.txt) symbols @@libcudart.so.13), libcudart.so.12 has SONAME libcudart.so.12, the stand-in is dist/'s, nothing grafted"
else
    bad "the wheel's libraries differ from dist/'s, or lost their SONAME or symbol versions, or a library was grafted"
fi

# The programs and what they print on dist/ without the command.
if ! gcc -O1 -Wall -I include examples/demo.c -o "$tmp/demo" -L dist/lib -l:libcudart.so.13 2>"$tmp/cc.log"; then
    cat "$tmp/cc.log"
    bad "gcc examples/demo.c"
    finish
fi
env -u LD_PRELOAD CUDART_RS_DRIVER="$standin" LD_LIBRARY_PATH="$root/dist/lib" "$tmp/demo" >"$tmp/demo.want" 2>&1
env -u LD_PRELOAD CUDART_RS_DRIVER="$standin" python3 examples/ctypes_runtime.py "$root/dist/lib/libcudart.so.13" \
    >"$tmp/ctypes.want" 2>/dev/null || { bad "examples/ctypes_runtime.py on dist/lib: $(cat "$tmp/ctypes.want")"; finish; }

# calls FILE NAME: the Num Calls of NAME in the summary's table in FILE.
calls() { awk -v n="$2" '$NF == n && $3 ~ /^[0-9,]+$/ { gsub(",", "", $3); print $3; exit }' "$1"; }

# venv PYTHON DIR: a fresh virtual environment with the wheel installed (no index).
venv() {
    "$1" -m venv "$2" >"$tmp/venv.log" 2>&1 &&
        "$2/bin/python" -m pip install -q --disable-pip-version-check --no-index "$root/$wheel" >>"$tmp/venv.log" 2>&1
}

pythons=${PYTHONS:-python3 $(python3.12 -c pass 2>/dev/null && echo python3.12)}
main=
for py in $pythons; do
    pv=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) || { skip "$py does not run"; continue; }
    env=$tmp/venv-$pv
    if ! venv "$py" "$env"; then
        cat "$tmp/venv.log"
        bad "Python $pv: python -m venv and pip install --no-index $(basename "$wheel")"
        continue
    fi
    site=$("$env/bin/python" -c 'import sysconfig; print(sysconfig.get_path("platlib"))')
    v=$("$env/bin/cudart-rs" --version 2>&1)
    out=$(cd "$tmp" && PATH="$env/bin:$PATH" python -m cudart_rs run --standin -- python "$root/examples/ctypes_runtime.py" 2>/dev/null)
    if [[ $v == *"CUDA 13 runtime: $site/cudart_rs/lib/libcudart.so.13"* && $v == *"CUDA 12 runtime: $site/cudart_rs/lib/libcudart.so.12"* ]] &&
        [[ $out == "$(cat "$tmp/ctypes.want")" ]]; then
        ok "Python $pv: pip install --no-index in a fresh venv; bin/cudart-rs finds the wheel's libraries (site-packages/cudart_rs/lib); python -m cudart_rs run --standin runs examples/ctypes_runtime.py"
    else
        printf '%s\n%s\n' "$v" "$out"
        bad "Python $pv: the installed command or python -m cudart_rs"
    fi
    [[ -z $main ]] && main=$env msite=$site
done
[[ -n $main ]] || { bad "no Python to install the wheel with"; finish; }
env=$main site=$msite
export PATH="$env/bin:$PATH"
hash -r

# The stand-in programs through the command and through python -m cudart_rs.
for how in "cudart-rs" "python -m cudart_rs"; do
    for prog in demo ctypes; do
        if [[ $prog == demo ]]; then cmd=("$tmp/demo"); else cmd=(python "$root/examples/ctypes_runtime.py"); fi
        # shellcheck disable=SC2086  # $how is a command and its arguments
        (cd "$tmp" && env -u CUDART_RS_DRIVER -u LD_LIBRARY_PATH $how run --standin --summary -- "${cmd[@]}" \
            >"$tmp/$prog.out" 2>"$tmp/$prog.err")
        rc=$?
        m=$(calls "$tmp/$prog.err" cudaMalloc) c=$(calls "$tmp/$prog.err" cudaMemcpy) f=$(calls "$tmp/$prog.err" cudaFree)
        if ((rc == 0)) && cmp -s "$tmp/$prog.want" "$tmp/$prog.out" && [[ $m == 1 && $c -ge 2 && $f -ge 1 ]]; then
            ok "$how run --standin --summary -- ${cmd[*]##*/}: its output as on dist/, a summary with cudaMalloc $m, cudaMemcpy $c, cudaFree $f"
        else
            diff "$tmp/$prog.want" "$tmp/$prog.out" | head -n 5
            head -n 20 "$tmp/$prog.err"
            bad "$how run --standin --summary -- ${cmd[*]##*/}: exit $rc, cudaMalloc '$m', cudaMemcpy '$c', cudaFree '$f'"
        fi
    done
done
if grep -q "^libcudart mapped: .*$site/cudart_rs/lib/libcudart.so.13" "$tmp/ctypes.err"; then
    ok "examples/ctypes_runtime.py under the command: ctypes.CDLL(\"libcudart.so.13\") is the wheel's runtime"
else
    bad "examples/ctypes_runtime.py under the command: $(grep 'libcudart mapped' "$tmp/ctypes.err")"
fi

# --driver PATH, and the errors of --driver and --standin.
out=$(cd "$tmp" && cudart-rs run --driver "$standin" -- python "$root/examples/ctypes_runtime.py" 2>/dev/null)
e1=$(cudart-rs run --driver "$tmp/nothing" -- true 2>&1) r1=$?
mkdir -p "$tmp/nostandin" && cp "dist/lib/libcudart.so.$v13" "$tmp/nostandin/libcudart.so.13"
e3=$(cudart-rs run --standin --lib "$tmp/nostandin" -- true 2>&1) r3=$?
if [[ $out == "$(cat "$tmp/ctypes.want")" ]] && ((r1 == 2 && r3 == 2)) &&
    [[ $e1 == *"no such file"* && $e3 == *"no stand-in driver"*"--standin"* ]]; then
    ok "run --driver PATH runs on that driver; --driver of a missing file and --standin without a stand-in are refused (exit 2: ${e3#cudart-rs run: })"
else
    printf '%s\n' "$out" "$e1" "$e3"
    bad "run --driver / --standin errors: exits $r1 $r3"
fi

# doctor: where the libraries came from, the stand-in where there is no driver.
doc=$(env -u CUDART_RS_DRIVER cudart-rs doctor 2>&1)
if [[ $doc == *"$site/cudart_rs/lib/libcudart.so.13  CUDA 13 ABI, reports CUDA ${v13%.*}"* && $doc == *"from: the wheel's Python package cudart_rs"* ]]; then
    ok "doctor: the wheel's libraries and where they came from ($(grep -o 'from: .*' <<<"$doc"))"
else
    echo "$doc"
    bad "doctor does not say the libraries are the wheel's"
fi
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
    skip "doctor naming the stand-in: this machine has a driver"
elif [[ $doc == *"cudart-rs run --standin -- PROGRAM"*"$site/cudart_rs/lib/stand-in/libcuda.so.1"* ]]; then
    ok "doctor with no driver names the stand-in: $(grep -o 'cudart-rs run --standin -- PROGRAM' <<<"$doc")"
else
    echo "$doc"
    bad "doctor with no driver does not name the stand-in"
fi

# The Python API.
api=$(cd "$tmp" && python - "$root/examples/ctypes_runtime.py" "$tmp/summary.txt" <<'EOF' 2>&1
import os, subprocess, sys, cudart_rs
lib = cudart_rs.library(abi=13)
assert os.path.isfile(lib) and lib.endswith("cudart_rs/lib/libcudart.so.13"), lib
assert os.path.isfile(cudart_rs.library(12)) and os.path.isfile(cudart_rs.standin())
env = cudart_rs.environ(summary=sys.argv[2], standin=True)
assert env["LD_PRELOAD"].split(":")[0] == lib, env
r = subprocess.run([sys.executable, sys.argv[1]], env=os.environ | env, capture_output=True, text=True)
print(r.returncode, r.stdout.splitlines()[1] if r.stdout else r.stderr)
for bad in ({"abi": 11}, {"leaks": "yes"}, {"gpu_spans": True}, {"driver": "/x", "standin": True}):
    try:
        cudart_rs.environ(**bad)
        print("accepted", bad)
    except ValueError:
        pass
EOF
)
sc=$(calls "$tmp/summary.txt" cudaMemcpy)
if [[ $api == "0 copied 1048576 bytes there and back: same" && $sc == 3 ]]; then
    ok "cudart_rs.library(abi=13) is the wheel's; a child started with os.environ | cudart_rs.environ(summary=FILE, standin=True) runs and writes its summary (cudaMemcpy $sc); bad arguments raise ValueError"
else
    echo "$api"
    bad "the Python API: '$api', cudaMemcpy in the summary file '$sc'"
fi

# NVIDIA's wheels beside ours: cuda-pathfinder and a copy loaded by its full path, as JAX does.
nv=$(compgen -G '.cache/nvidia/wheels/nvidia_cuda_runtime-13.0.96-*.whl' | head -n 1)
pf=$(compgen -G "target/wheel-tools/pypi/cuda_pathfinder-${pathfinder#*==}-*.whl" | head -n 1)
if [[ -z $pf ]]; then
    target/wheel-tools/bin/python -m pip download -q --disable-pip-version-check --no-deps "$pathfinder" \
        -d target/wheel-tools/pypi >/dev/null 2>&1
    pf=$(compgen -G "target/wheel-tools/pypi/cuda_pathfinder-${pathfinder#*==}-*.whl" | head -n 1)
fi
if [[ -z $nv ]]; then
    skip "NVIDIA's wheels beside ours: no nvidia-cuda-runtime 13.0.96 in .cache/nvidia (scripts/dev/fetch-nvidia.sh)"
elif [[ -z $pf ]]; then
    skip "NVIDIA's wheels beside ours: $pathfinder could not be fetched from PyPI"
elif ! python -m pip install -q --disable-pip-version-check --no-index --no-deps "$root/$nv" "$root/$pf" >"$tmp/pip.log" 2>&1; then
    cat "$tmp/pip.log"
    bad "pip install nvidia-cuda-runtime 13.0.96 and $pathfinder"
else
    cat >"$tmp/pf.py" <<'EOF'
from cuda.pathfinder import load_nvidia_dynamic_lib
d = load_nvidia_dynamic_lib("cudart")
print(d.abs_path, d.found_via)
EOF
    alone=$(cd "$tmp" && python pf.py 2>&1)
    under=$(cd "$tmp" && cudart-rs run --standin -- python pf.py 2>/dev/null)
    if [[ $alone == "$site/nvidia/cu13/lib/libcudart.so.13 site-packages" &&
        $under == "$site/cudart_rs/lib/libcudart.so.13 was-already-loaded-from-elsewhere" ]]; then
        ok "cuda-pathfinder ${pathfinder#*==}: load_nvidia_dynamic_lib(\"cudart\") gives NVIDIA's wheel's on its own, ours under cudart-rs run (already loaded)"
    else
        printf 'alone: %s\nunder: %s\n' "$alone" "$under"
        bad "cuda-pathfinder: on its own '$alone', under cudart-rs run '$under'"
    fi
    cat >"$tmp/jax.py" <<'EOF'
import ctypes, importlib, pathlib
# What JAX's CUDA plugin does (jax_plugins/cuda: _load_nvidia_libraries): NVIDIA's copy by its path.
nvidia = ctypes.cdll.LoadLibrary(str(pathlib.Path(importlib.import_module("nvidia.cu13").__path__[0]) / "lib" / "libcudart.so.13"))
def version(lib):
    v = ctypes.c_int()
    lib.cudaRuntimeGetVersion(ctypes.byref(v))
    return v.value
by_name = ctypes.CDLL("libcudart.so.13")  # what a library that needs libcudart.so.13 gets
try:
    scope = version(ctypes.CDLL(None))  # the global scope, where such a library's calls bind
except AttributeError:
    scope = "none"
maps = sorted({l.split()[-1] for l in open("/proc/self/maps") if "libcudart.so.13" in l})
print(version(nvidia), version(by_name), scope, len(maps))
EOF
    alone=$(cd "$tmp" && python jax.py 2>&1)
    under=$(cd "$tmp" && cudart-rs run --standin --abi 13 -- python jax.py 2>/dev/null)
    if [[ $alone == "13000 13000 none 1" && $under == "13000 $rv13 $rv13 2" ]]; then
        ok "NVIDIA's copy loaded by its full path (as JAX's plugin does): alone it serves the SONAME (13000); under cudart-rs run it is mapped beside ours, and the SONAME and the global scope give ours ($rv13)"
    else
        printf 'alone: %s\nunder: %s\n' "$alone" "$under"
        bad "NVIDIA's copy by its path: alone '$alone', under cudart-rs run '$under'"
    fi
    # doctor on a pip-installed PyTorch: a package torch whose lib/libtorch_cuda.so needs
    # libcudart.so.13 through the RUNPATH PyTorch's wheels carry (NVIDIA's wheel's folder).
    mkdir -p "$site/torch/lib"
    : >"$site/torch/__init__.py"
    if echo 'int cudart_rs_stub(void) { return 0; }' | gcc -shared -fPIC -x c - -o "$site/torch/lib/libtorch_cuda.so" \
        -L "$root/dist/lib" -Wl,--no-as-needed -l:libcudart.so.13 -Wl,-rpath,'$ORIGIN/../../nvidia/cu13/lib' 2>"$tmp/cc.log"; then
        doc=$(cd "$tmp" && env -u CUDART_RS_DRIVER PATH="${PATH#"$env/bin:"}" "$env/bin/cudart-rs" doctor 2>&1)
        own=$(grep -A3 "^PyTorch ($site/torch/lib/libtorch_cuda.so)" <<<"$doc" | grep 'on its own:')
        run=$(grep -A3 "^PyTorch ($site/torch/lib/libtorch_cuda.so)" <<<"$doc" | grep 'under cudart-rs run:')
        if [[ $own == *"=> $site/nvidia/cu13/lib/libcudart.so.13 (NVIDIA's, from its wheel nvidia-cuda-runtime)" &&
            $run == *"=> $site/cudart_rs/lib/libcudart.so.13 (cudart-rs: the preload wins)" ]]; then
            ok "doctor (its environment's Python, not PATH's) on a pip-installed PyTorch: on its own NVIDIA's wheel's libcudart.so.13, under cudart-rs run the wheel's"
        else
            echo "$doc"
            bad "doctor on a pip-installed PyTorch: '$own' / '$run'"
        fi
        rm -rf "$site/torch"
    else
        cat "$tmp/cc.log"
        bad "gcc: the stand-in libtorch_cuda.so"
    fi
fi

# The manual page and the documents, and pip uninstall.
page=$(env -u MANPATH man -w cudart-rs 2>/dev/null)
if [[ -f $env/share/doc/cudart-rs/README.md && -f $env/share/doc/cudart-rs/docs/packaging.md ]] &&
    { ! command -v man >/dev/null || [[ $page == "$env/share/man/man1/cudart-rs.1" ]]; }; then
    ok "the manual page (${page:-not looked up: no man}) and the README and docs/ in the environment's share/doc/cudart-rs/"
else
    bad "manual page '$page', or no share/doc/cudart-rs/"
fi
python -m pip uninstall -q -y cudart-rs >/dev/null 2>&1
left=$(cd "$env" && find . -path ./lib -prune -o \( -name '*cudart-rs*' -o -name '*cudart_rs*' \) -print; find "$site" -maxdepth 1 -name 'cudart_rs*')
if [[ -z $left ]]; then ok "pip uninstall cudart-rs removes the command, the package, the manual page and the docs"; else bad "pip uninstall left: $left"; fi
finish
