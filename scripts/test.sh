#!/usr/bin/env bash
# Every check that runs without a GPU, in order:
#   1. cargo test --workspace                        (13 ABI and the stand-in)
#   2. cargo test -p cudart-rs --features abi12      (12 ABI, in target/abi12)
#      cargo clippy, both ABIs, warnings as errors   (when clippy is installed)
#      cargo fmt --check                             (rustfmt.toml; when rustfmt is installed)
#   3. header drift: include/cuda_runtime_api.h == what the sources generate
#      scripts/dev/layers.py                         (src/ imports only downward; no circle in src/
#                                                     or standin/src)
#      scripts/dev/test_layers.py                    (the layer check fails when broken)
#   4. scripts/build.sh                              (dist/)
#   5. scripts/test/abi-check.sh                     (ABI and symbol checks against NVIDIA's)
#      scripts/test/abi/selftest.sh                  (each of those checks fails when broken)
#      scripts/test/nodriver-check.sh                (no driver: ours == NVIDIA's runtime here)
#      scripts/dev/coverage.py --check               (docs/coverage.md's numbers == the symbol report)
#      bench/callgrind.sh --check                    (instructions per hot call on the stand-in, within
#                                                     10% of bench/callgrind-baseline.txt; valgrind)
#      scripts/package/install-check.sh              (install into a temporary DESTDIR; a program
#                                                     built with pkg-config alone runs on it)
#      scripts/package/wheel.sh --no-build           (the wheel: maturin, auditwheel repair)
#      scripts/package/wheel-check.sh                (the wheel installed with pip into fresh virtual
#                                                     environments: the command, python -m cudart_rs,
#                                                     the Python API, cuda-pathfinder and NVIDIA's
#                                                     wheel beside it, on the stand-in; each check
#                                                     counted)
#      scripts/package/readme-check.sh               (README's install lines word for word in a fresh
#                                                     clone: the wheel with pip; as root, install.sh
#                                                     and the Debian packages in a private mount
#                                                     namespace; each check counted)
#      scripts/package/deb.sh --no-build             (Debian packages and lintian; when debhelper
#                                                     and lintian are installed, as CI does)
#      scripts/package/deb-test.sh --system          (in CI, as root, or with CUDART_RS_DEB_TEST=1:
#                                                     the packages installed, built against with
#                                                     pkg-config and CMake, removed and purged)
#      scripts/test/host-check.sh --standin          (the host programs, ctest/host/: g++ and
#                                                     clang++ against our headers and NVIDIA's,
#                                                     same output)
#   6. scripts/test/ctest.sh --standin --abi both    (C tests on the stand-in driver)
#   7. the same with --sanitize                      (AddressSanitizer, UBSan)
#   8. ctest/stress.c, run repeatedly                (when there is one)
#   9. scripts/test/difftest.sh --standin            (the differential tester builds against our
#                                                     header and runs seeds to the end, both ABIs)
#  10. scripts/test/observe-check.sh --standin       (the observation modes: trace, summary, leak
#                                                     report, timeline, checked mode; process
#                                                     trees, report files, the cudart-rs command,
#                                                     a setuid program; both ABIs; each check
#                                                     counted)
#  11. fuzz/run.sh                                   (the fuzz target on the stand-in, 60 s, then
#                                                     its corpus replayed and 30 s more with
#                                                     CUDART_RS_CHECKED=1; when clang-19 is
#                                                     installed, as CI does; each run counted)
# Every step runs even when an earlier one failed (unless it needs what failed). The last
# line sums the C test counts; each other step that failed counts as one failure there:
#   N passed, N failed, N skipped
# The exit status is non-zero when anything failed.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$root"

passed=0 failed=0 skipped=0
failed_steps=()
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

step() { echo; echo "==== $*"; }

# run_step NAME CMD...: a step judged by its exit status.
run_step() {
    local name=$1
    shift
    step "$name: $*"
    if "$@"; then
        return 0
    fi
    echo "==== step failed: $name"
    failed_steps+=("$name")
    return 1
}

# ctest_step NAME ARGS...: a C test run; its summary line is added to the totals.
ctest_step() {
    local name=$1 rc before=$failed
    shift
    step "$name: scripts/test/ctest.sh $*"
    bash scripts/test/ctest.sh "$@" 2>&1 | tee "$log/ctest.out"
    rc=${PIPESTATUS[0]}
    if add_summary "$(tail -n 1 "$log/ctest.out")"; then
        if ((rc != 0 && failed == before)); then
            failed_steps+=("$name")
        fi
    else
        echo "==== step failed: $name (no summary line)"
        failed_steps+=("$name")
    fi
}

run_step "fetch NVIDIA wheels" bash scripts/dev/fetch-nvidia.sh
run_step "cargo test (13 ABI)" cargo test --workspace
run_step "cargo test (12 ABI)" cargo test -p cudart-rs --features abi12 --target-dir target/abi12
if cargo clippy --version >/dev/null 2>&1; then
    run_step "clippy (13 ABI)" cargo clippy --workspace --all-targets -- -D warnings
    run_step "clippy (12 ABI)" cargo clippy -p cudart-rs --all-targets --features abi12 --target-dir target/abi12 -- -D warnings
else
    step "clippy: skipped (no cargo clippy: rustup component add clippy)"
fi
if cargo fmt --version >/dev/null 2>&1; then
    run_step "formatting (cargo fmt --check)" cargo fmt --all --check
else
    step "formatting: skipped (no cargo fmt: rustup component add rustfmt)"
fi
run_step "header drift" bash scripts/dev/gen-header.sh --check
run_step "layers of src/ (no import of a layer above), no circle in src/ or the stand-in" python3 scripts/dev/layers.py
run_step "the layer check fails when broken" python3 scripts/dev/test_layers.py
if run_step "build" bash scripts/build.sh; then
    if [[ -f scripts/test/abi-check.sh ]]; then
        run_step "ABI and symbol checks" bash scripts/test/abi-check.sh
        run_step "ABI checks fail when broken" bash scripts/test/abi/selftest.sh
    fi
    run_step "no driver: NVIDIA's runtime and ours" bash scripts/test/nodriver-check.sh
    run_step "coverage numbers up to date" python3 scripts/dev/coverage.py --check
    if command -v valgrind >/dev/null; then
        run_step "instructions per hot call within 10% of bench/callgrind-baseline.txt" bash bench/callgrind.sh --check
        # The guard fails where a row costs more: the same check against a baseline with one
        # row a fifth lower.
        awk '!/^#/ && !done { $2 = int($2 * 0.8); done = 1 } 1' bench/callgrind-baseline.txt >"$log/lowered.txt"
        run_step "instruction-count guard fails on a row over its baseline" \
            bash -c 'o=$(CALLGRIND_BASELINE="$1" bash bench/callgrind.sh --check); [[ $? == 1 && $o == *"callgrind: FAIL "* ]]' \
            _ "$log/lowered.txt"
    else
        step "instruction counts: skipped (no valgrind: apt-get install valgrind)"
    fi
    run_step "install, pkg-config program" bash scripts/package/install-check.sh
    if run_step "wheel" bash scripts/package/wheel.sh --no-build; then
        step "wheel installed and used: scripts/package/wheel-check.sh"
        bash scripts/package/wheel-check.sh 2>&1 | tee "$log/wheel.out"
        add_summary "$(tail -n 1 "$log/wheel.out")" || { echo "==== step failed: wheel installed and used (no summary line)"; failed_steps+=("wheel installed and used"); }
    fi
    if command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null && command -v lintian >/dev/null; then
        if run_step "Debian packages and lintian" bash scripts/package/deb.sh --no-build &&
            [[ ${CI:-} == true || ${CUDART_RS_DEB_TEST:-} == 1 ]] && [[ $(id -u) == 0 ]]; then
            # Installs the packages on this machine, uses them, removes and purges them: in CI
            # (a machine of its own) or when asked (CUDART_RS_DEB_TEST=1).
            run_step "Debian packages installed, used, removed" bash scripts/package/deb-test.sh --system --debs dist/deb
        fi
    else
        step "Debian packages: skipped (no dpkg-buildpackage, debhelper or lintian: apt-get install dpkg-dev debhelper lintian)"
    fi
    step "README's install lines in a fresh clone: scripts/package/readme-check.sh"
    bash scripts/package/readme-check.sh 2>&1 | tee "$log/readme.out"
    add_summary "$(tail -n 1 "$log/readme.out")" || { echo "==== step failed: README's install lines (no summary line)"; failed_steps+=("README's install lines"); }
    step "host programs: scripts/test/host-check.sh --standin"
    bash scripts/test/host-check.sh --standin 2>&1 | tee "$log/host.out"
    add_summary "$(tail -n 1 "$log/host.out")" || { echo "==== step failed: host programs (no summary line)"; failed_steps+=("host programs"); }
    ctest_step "C tests" --standin --abi both
    ctest_step "C tests, sanitized" --standin --abi both --sanitize
    if [[ -f ctest/stress.c ]]; then
        ctest_step "stress" --standin --abi both --only stress --repeat 3 --timeout 120
    fi
    run_step "difftest on the stand-in" bash scripts/test/difftest.sh --standin --abi both --seeds 1-20 --calls 200
    # Each observation check counts (those that cannot run here say why, as skipped).
    step "observation modes on the stand-in: scripts/test/observe-check.sh --standin --abi both"
    bash scripts/test/observe-check.sh --standin --abi both 2>&1 | tee "$log/observe.out"
    rc=${PIPESTATUS[0]}
    before=$failed
    if add_summary "$(tail -n 1 "$log/observe.out" | sed 's/^observe: //')"; then
        ((rc != 0 && failed == before)) && failed_steps+=("observation modes")
    else
        echo "==== step failed: observation modes (no summary line)"
        failed_steps+=("observation modes")
    fi
else
    echo "==== no dist/: the C tests cannot run"
    failed_steps+=("C tests (not run)")
fi

# fuzz_step NAME ARGS...: a run of fuzz/run.sh; its summary line is added to the totals.
fuzz_step() {
    local name=$1
    shift
    step "$name: bash fuzz/run.sh $*"
    bash fuzz/run.sh "$@" 2>&1 | tee "$log/fuzz.out"
    add_summary "$(tail -n 1 "$log/fuzz.out")" || { echo "==== step failed: $name (no summary line)"; failed_steps+=("$name"); }
}
if command -v clang-19 >/dev/null; then
    fuzz_step "fuzz target" --seconds 60
    fuzz_step "fuzz corpus replayed with checked mode" --replay --checked --no-build
    fuzz_step "fuzz target with checked mode" --seconds 30 --checked --no-build
else
    step "fuzz target: skipped (no clang-19: apt-get install clang-19 libclang-rt-19-dev)"
    skipped=$((skipped + 3))
fi

echo
if ((${#failed_steps[@]})); then
    printf 'failed step: %s\n' "${failed_steps[@]}"
fi
failed=$((failed + ${#failed_steps[@]}))
echo "$passed passed, $failed failed, $skipped skipped"
((failed == 0))
