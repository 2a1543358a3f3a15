#!/usr/bin/env bash
# The wheel as a PyTorch user meets it, on the GPU machine (one GPU; its python3 with PyTorch
# built for CUDA 13; no internet), in under 2 minutes:
#   bash scripts/gpu/wheel-gpu.sh              from the repository root, with .gpu carried
#                                              (scripts/gpu/gpu-bundle.sh copies dist/wheel/*.whl
#                                              into .gpu/wheel/)
#   bash scripts/gpu/wheel-gpu.sh --standin    anywhere, no GPU: the stand-in driver, and
#                                              examples/ctypes_runtime.py in place of PyTorch's
#                                              training (the wheel from .gpu/wheel, else dist/wheel)
#   --wheel FILE                               another wheel
# 1. python3 -m venv --system-site-packages (the machine's PyTorch stays visible, also where
#    python3 is itself a virtual environment: a .pth file names its packages), pip install
#    --no-index of the wheel; the command names the wheel's libraries; doctor's report kept.
# 2. examples/train.py (a few training steps) without cudart-rs: NVIDIA's runtime, as PyTorch
#    loads it.
# 3. cudart-rs run --summary -- python3 examples/train.py: the same output line for line, a
#    summary with the training's calls (kernel launches, copies, allocations), the wheel's
#    libcudart mapped in the process.
# 4. python -m cudart_rs run --summary -- the same: the same output.
# 5. a child started with os.environ | cudart_rs.environ(summary=FILE): the same output, its
#    summary in FILE.
# Results under $OUT (else target/wheel-gpu), 7 files: wheel-gpu.log (all of it), doctor.txt,
# plain.out, ours.out, ours.err (the run's stderr: the summary), module.out, environ.out.
# PASS/FAIL/SKIP lines; the last line is `N passed, N failed, N skipped`; exit status non-zero on
# a failure.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

standin=0 wheel=
while (($#)); do
    case $1 in
        --standin) standin=1 ;;
        --wheel) wheel=${2:?}; shift ;;
        *) header_usage ;;
    esac
    shift
done
out=$(out_dir wheel-gpu) || die "cannot make the output folder"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
exec > >(tee "$out/wheel-gpu.log") 2>&1

passed=0 failed=0 skipped=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed, $skipped skipped"; ((failed == 0)); exit; }

[[ -n $wheel ]] || wheel=$(compgen -G '.gpu/wheel/cudart_rs-*.whl' | head -n 1)
[[ -n $wheel ]] || wheel=$(compgen -G 'dist/wheel/cudart_rs-*.whl' | head -n 1)
[[ -f $wheel ]] || { fail "no wheel (scripts/package/wheel.sh, then scripts/gpu/gpu-bundle.sh to carry it as .gpu/wheel/)"; finish; }
echo "== wheel: $wheel"
echo "== $(python3 --version 2>&1), $(uname -m), glibc $(ldd --version 2>/dev/null | head -n 1 | awk '{ print $NF }')"
export PYTHONUNBUFFERED=1 CUBLAS_WORKSPACE_CONFIG=:4096:8

# The program and what it must show: PyTorch's training, or on the stand-in the ctypes program.
if ((standin)); then
    prog=(examples/ctypes_runtime.py)
    want_calls=(cudaMalloc cudaMemcpy cudaMemset)
    drv=(--standin)
else
    prog=(examples/train.py --steps 8)
    want_calls=(cudaLaunchKernel cudaMemcpyAsync cudaMalloc)
    drv=()
    echo "== GPU: $(nvidia-smi -L 2>/dev/null | head -n 1), driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
fi

# 1. The virtual environment over the machine's packages, the wheel in it.
venv=$tmp/venv
if ! python3 -m venv --system-site-packages "$venv" >"$tmp/venv.log" 2>&1; then
    # No ensurepip (Debian and Ubuntu without python3-venv): no pip of its own; the system's
    # pip, seen through the system site packages, installs into it.
    echo "== python3 -m venv failed ($(tail -n 1 "$tmp/venv.log")); again --without-pip"
    rm -rf "$venv"
    python3 -m venv --system-site-packages --without-pip "$venv" >>"$tmp/venv.log" 2>&1
fi
py=$venv/bin/python3
# Where python3 is itself a virtual environment (the machine's PyTorch lives in one), the new one
# sees its base's packages, not python3's: a .pth file adds python3's own.
site=$("$py" -c 'import sysconfig; print(sysconfig.get_path("platlib"))')
outer=$(python3 -c 'import sys, sysconfig; print(sysconfig.get_path("purelib") if sys.prefix != sys.base_prefix else "")')
if [[ -n $outer ]]; then
    echo "$outer" >"$site/outer-site.pth"
    echo "== python3 is a virtual environment ($(python3 -c 'import sys; print(sys.prefix)')): its packages seen through $venv's outer-site.pth"
fi
if "$py" -m pip install -q --disable-pip-version-check --no-index "$wheel" >"$tmp/pip.log" 2>&1; then
    pass "python3 -m venv --system-site-packages; pip install --no-index $(basename "$wheel")"
else
    cat "$tmp/venv.log" "$tmp/pip.log"
    fail "venv and pip install --no-index $(basename "$wheel")"
    finish
fi
export PATH="$venv/bin:$PATH"
hash -r
v=$(cudart-rs --version 2>&1)
if [[ $(command -v cudart-rs) == "$venv/bin/cudart-rs" && $v == *"CUDA 13 runtime: $site/cudart_rs/lib/libcudart.so.13"* ]]; then
    pass "cudart-rs on PATH is the wheel's and finds its libraries ($site/cudart_rs/lib)"
else
    echo "$v"
    fail "cudart-rs: $(command -v cudart-rs): $v"
fi
cudart-rs doctor >"$out/doctor.txt" 2>&1
sed 's/^/   doctor: /' "$out/doctor.txt"
if ((!standin)); then
    if "$py" -c 'import torch' 2>/dev/null; then
        pass "PyTorch visible in the environment: $("$py" -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda)')"
    else
        fail "the environment's python3 does not import torch (is the machine's PyTorch in its system or user site?)"
        finish
    fi
    if grep -q "under cudart-rs run: libcudart.so.13 => $site/cudart_rs/lib/libcudart.so.13 (cudart-rs: the preload wins)" "$out/doctor.txt"; then
        pass "doctor: PyTorch's libcudart.so.13 on its own $(grep -o 'on its own: *libcudart.so.13 => [^ ]*' "$out/doctor.txt" | head -n 1 | sed 's/.*=> //'), under cudart-rs run the wheel's"
    else
        fail "doctor does not say PyTorch takes the wheel's libcudart.so.13 under cudart-rs run (doctor.txt)"
    fi
fi

# 2. Without cudart-rs (on the stand-in, the wheel's library by its path: NVIDIA's runtime does
# not run on the stand-in driver).
if ((standin)); then
    CUDART_RS_DRIVER=$site/cudart_rs/lib/stand-in/libcuda.so.1 timeout 60 "$py" "${prog[@]}" "$site/cudart_rs/lib/libcudart.so.13" \
        >"$out/plain.out" 2>"$tmp/plain.err"
else
    timeout 60 "$py" "${prog[@]}" >"$out/plain.out" 2>"$tmp/plain.err"
fi
rc=$?
cat "$tmp/plain.err"
if ((rc == 0)) && [[ -s $out/plain.out ]]; then
    pass "${prog[*]} without cudart-rs: $(wc -l <"$out/plain.out") lines ($(grep -o 'libcudart mapped: .*' "$tmp/plain.err"))"
else
    fail "${prog[*]} without cudart-rs: exit $rc"
    finish
fi

# calls NAME-PREFIX FILE: the calls of the functions whose name starts so, in the summary.
# Calls of the summary whose name begins with $1, counting the runtime's internal entries as the
# call they make (`__cudaLaunchKernel`, the launch stub's path under CUDA 13, as cudaLaunchKernel).
calls() { awk -v n="$1" '{ f = $NF; sub(/^__/, "", f) } index(f, n) == 1 && $3 ~ /^[0-9,]+$/ { gsub(",", "", $3); s += $3 } END { print s + 0 }' "$2"; }

# 3. Under cudart-rs run --summary.
timeout 90 cudart-rs run "${drv[@]}" --summary -- "$py" "${prog[@]}" >"$out/ours.out" 2>"$out/ours.err"
rc=$?
if ((rc == 0)) && cmp -s "$out/plain.out" "$out/ours.out"; then
    pass "cudart-rs run --summary -- python3 ${prog[*]}: the same output ($(wc -l <"$out/ours.out") lines)"
else
    diff "$out/plain.out" "$out/ours.out" | head -n 10
    fail "cudart-rs run --summary -- python3 ${prog[*]}: exit $rc, output differs"
fi
got=()
for f in "${want_calls[@]}"; do got+=("$f $(calls "$f" "$out/ours.err")"); done
if grep -q '^==== cudart-rs summary (pid ' "$out/ours.err" && ! printf '%s\n' "${got[@]}" | grep -q ' 0$'; then
    pass "the summary has the program's calls: ${got[*]}"
else
    grep -A 12 'cudart-rs summary' "$out/ours.err" | head -n 20
    fail "the summary lacks the program's calls: ${got[*]}"
fi
if grep -q "^libcudart mapped: .*$site/cudart_rs/lib/libcudart.so.13" "$out/ours.err"; then
    pass "under cudart-rs run the process mapped the wheel's runtime ($(grep -o 'libcudart mapped: .*' "$out/ours.err"))"
else
    fail "under cudart-rs run: $(grep 'libcudart mapped' "$out/ours.err")"
fi

# 4. python -m cudart_rs.
timeout 90 "$py" -m cudart_rs run "${drv[@]}" --summary -- "$py" "${prog[@]}" >"$out/module.out" 2>"$tmp/module.err"
rc=$?
if ((rc == 0)) && cmp -s "$out/plain.out" "$out/module.out" && (($(calls "${want_calls[0]}" "$tmp/module.err") > 0)); then
    pass "python -m cudart_rs run --summary -- python3 ${prog[*]}: the same output, ${want_calls[0]} $(calls "${want_calls[0]}" "$tmp/module.err")"
else
    diff "$out/plain.out" "$out/module.out" | head -n 5
    tail -n 5 "$tmp/module.err"
    fail "python -m cudart_rs run: exit $rc"
fi

# 5. The Python API: a child started with cudart_rs.environ().
timeout 90 "$py" - "$tmp/summary.txt" "$standin" "${prog[@]}" >"$out/environ.out" 2>"$tmp/environ.err" <<'EOF'
import os, subprocess, sys, cudart_rs
summary, standin, prog = sys.argv[1], sys.argv[2] == "1", sys.argv[3:]
env = os.environ | cudart_rs.environ(summary=summary, standin=standin)
sys.exit(subprocess.run([sys.executable, *prog], env=env).returncode)
EOF
rc=$?
if ((rc == 0)) && cmp -s "$out/plain.out" "$out/environ.out" && (($(calls "${want_calls[0]}" "$tmp/summary.txt") > 0)); then
    pass "a child with os.environ | cudart_rs.environ(summary=FILE): the same output, its summary in FILE (${want_calls[0]} $(calls "${want_calls[0]}" "$tmp/summary.txt"))"
else
    tail -n 5 "$tmp/environ.err"
    fail "cudart_rs.environ(): exit $rc, output $(cmp -s "$out/plain.out" "$out/environ.out" && echo same || echo different)"
fi
finish
