#!/usr/bin/env bash
# The C test runner (see ctest/README.md).
#
#   scripts/test/ctest.sh --standin [--abi 13|12|both] [--sanitize] [options]
#       No GPU: every ctest/*.c is built with gcc against include/ and dist/lib, and run on
#       the stand-in driver (dist/lib/stand-in/libcuda.so.1). Tests marked `ctest: gpu` and
#       CUDA sources (ctest/*.cu) are skipped. A test marked `checked` runs once more with
#       CUDART_RS_CHECKED=1 (its output compared with expected/<abi>/NAME.checked.out), also
#       when marked `gpu`. A test of several devices (`ctest: gpu2`) runs
#       with the stand-in showing 1 device (it must say `skipped: needs two GPUs`: counted
#       as skipped), 2 and 4 (its own checks only: NVIDIA's outputs are the GPU machines').
#
#   scripts/test/ctest.sh --gpu [--abi 13|12|both] [options]
#       On a machine with a GPU and NVIDIA's driver: every test is built against our header
#       and against NVIDIA's, and run under NVIDIA's runtime and ours (LD_LIBRARY_PATH and
#       LD_PRELOAD); every output must be NVIDIA's. NVIDIA's outputs are written to
#       $OUT/expected/<abi>/<name>.out and, with the log, to $OUT/expected.tgz. The CUDA
#       sources are built with nvcc for 13; for 12 they are not built there but taken from
#       CU12_CLANG_BIN (clang builds made by scripts/gpu/cu12-build.sh, bundled by
#       scripts/gpu/gpu-bundle.sh); a test without one there is skipped.
#       A test of several devices (`ctest: gpu2`) says `skipped: needs two GPUs` under
#       NVIDIA's runtime on a machine with one (counted as skipped); on a machine with N, its
#       NVIDIA output goes to expected/<abi>/multi<N>/<name>.out.
#
# Markers (ctest/README.md): `abi13`, a test of CUDA 13.5's functions or declarations, is not
# built for the 12 ABI (skipped there, with that reason) and on the GPU needs NVIDIA's 13.5
# headers (NVIDIA13_INCLUDE: it is skipped without them), is built against them (the CUDA
# sources too) and is not run under the second 13 runtime; `timeout=N`, a test that may take
# N seconds a run (when more than --timeout); `serial`, a test whose output depends on the
# whole GPU (its free memory), run alone on the GPU, before the others; `machine`, a test of
# what belongs to the machine (its name, UUID, memory, PCI location): NVIDIA's runtime runs it
# in every GPU run, and its output is not recorded.
#
# Options:
#   --only a,b     only these tests (file names without .c/.cu)
#   --multi        only the tests of several devices (marker gpu2)
#   --repeat N     run each test N times; every run must pass (default 1)
#   --timeout S    seconds a run may take (default 30)
# Options (--gpu):
#   --recorded     ours compared with NVIDIA's outputs as recorded (ctest/expected/<abi>/): NVIDIA's
#                  runtime runs only a test with no recording (its output then goes to
#                  $OUT/expected/ as without this option); no second 13 runtime, and our
#                  header's builds are not run under NVIDIA's runtime. Without it, NVIDIA's
#                  runtime runs every test (to record, or check, its outputs)
#   --jobs N       tests at a time, each test's builds and runs in a job of its own (default:
#                  the number of CPUs); those marked `serial` run alone, first
#   --deadline T   (seconds since the epoch) no test starts after T, and no run lasts past it:
#                  a test not run by then fails (`not run: the deadline had passed`)
#
# Environment: CTEST_DIR (ctest), where the tests and expected/ are; CUDART_RS_DIST (dist);
#   CTEST_DETECT_LEAKS (1; 0 turns LeakSanitizer off under --sanitize).
# Environment (--gpu): NVCC (/usr/local/cuda/bin/nvcc),
#   NVIDIA13_LIB (folder with the reference libcudart.so.13: .gpu/nvidia135 (13.5.37, the
#   version the 13 ABI implements), else /usr/local/cuda/lib64, else .gpu/nvidia13 (13.0.96)),
#   NVIDIA13_INCLUDE (headers put before nvcc's for the 13 ABI's NVIDIA builds:
#   .gpu/cu135/include with .gpu/nvidia135), NVIDIA13_ALSO_LIB (a second NVIDIA runtime run
#   on the reference builds, its differences listed as NOTE lines: with 13.5.37 the reference,
#   /usr/local/cuda/lib64, else .gpu/nvidia13; none: none),
#   NVIDIA12_LIB (.gpu/nvidia12), CU12_INCLUDE (.gpu/cu12/include),
#   NVCC_ARCH (-arch=sm_90, for ctest/*.cu), OUT (target/ctest/out), CTEST_GPUS (the number
#   of GPUs, for expected/<abi>/multi<N>/: nvidia-smi's count), CTEST_WORK (where the builds
#   and runs are made: target/ctest/gpu; emptied first),
#   CU12_CLANG_BIN (.gpu/cu12-clang: NAME, the program of ctest/NAME.cu for the 12 ABI, or
#   NAME.skip, why there is none).
#
# The last line of a run is `N passed, N failed, N skipped`; the exit status is non-zero when
# anything failed.
set -uo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$root"

args=("$@")
mode=
abis=(13 12)
sanitize=0
only=
multi=0
repeat=1
timeout_s=30
nvidia_runs=all
jobs=$(nproc 2>/dev/null || echo 4)
deadline=0

while (($#)); do
    case $1 in
        --standin) mode=standin ;;
        --gpu) mode=gpu ;;
        --abi) abis_of "${2:-}" || header_usage; shift ;;
        --sanitize) sanitize=1 ;;
        --only) only=,${2:-},; shift ;;
        --multi) multi=1 ;;
        --repeat) repeat=${2:-}; shift ;;
        --timeout) timeout_s=${2:-}; shift ;;
        --recorded) nvidia_runs=missing ;;
        --jobs) jobs=${2:-}; shift ;;
        --deadline) deadline=${2:-}; shift ;;
        -h | --help) header_usage ;;
        *) echo "ctest: unknown argument $1" >&2; header_usage ;;
    esac
    shift
done
[[ -n $mode ]] || header_usage
[[ $repeat =~ ^[1-9][0-9]*$ && $timeout_s =~ ^[1-9][0-9]*$ && $jobs =~ ^[1-9][0-9]*$ && $deadline =~ ^[0-9]+$ ]] || header_usage
timeout_default=$timeout_s

dist=$(cd "${CUDART_RS_DIST:-dist}" 2>/dev/null && pwd) || {
    echo "ctest: no ${CUDART_RS_DIST:-dist}/ (run scripts/build.sh)" >&2
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
}

passed=0
failed=0
skipped=0
failed_names=()
unverified=()
multi_standin=()
also_notes=()

# The marker line of a test: what follows `ctest:` in the first lines' comment, e.g.
#   /* ctest: gpu cu nvcc-flags=--default-stream per-thread */
marker_line() {
    head -n 30 "$1" | grep -m 1 -E 'ctest:' | sed -E 's/.*ctest:[[:space:]]*//; s#[[:space:]]*\*/.*##'
}

# has_marker FILE WORD: WORD is one of the marker line's words.
has_marker() {
    local w
    for w in $(marker_line "$1"); do
        [[ $w == "$2" ]] && return 0
    done
    return 1
}

# marker_value FILE KEY: the value of KEY=... on the marker line (up to the next key=).
marker_value() {
    marker_line "$1" | sed -nE "s/.*(^|[[:space:]])$2=//p" | sed -E 's/[[:space:]]+[a-z0-9-]+=.*//'
}

# test_timeout FILE: the seconds a run of the test may take: its marker timeout=N when more
# than --timeout's.
test_timeout() {
    local n
    n=$(marker_value "$1" timeout)
    if [[ $n =~ ^[1-9][0-9]*$ ]] && ((n > timeout_default)); then echo "$n"; else echo "$timeout_default"; fi
}

# abi13_skip FILE ABI: true (with the reason in why) for a test marked abi13 (CUDA 13.5's
# functions or declarations) and the 12 ABI.
abi13_skip() {
    [[ $2 == 12 ]] && has_marker "$1" abi13 || return 1
    why="not built for the 12 ABI: a test of functions CUDA 12 does not have (marker abi13)"
}

# A FAIL line, as CHECK, OK and DONE print them.
has_fail_line() { grep -Eq '(^|[^A-Za-z0-9_])FAIL([^A-Za-z0-9_]|$)' "$1"; }

# tail_of FILE [N]: the last lines of a file, indented.
tail_of() { tail -n "${2:-25}" "$1" | sed 's/^/      | /'; }

# head_of FILE [N]: the first lines of a file, indented (a compiler's first errors).
head_of() { head -n "${2:-25}" "$1" | sed 's/^/      | /'; }

selected() { [[ -z $only || $only == *",$1,"* ]]; }

# The line a test of several devices (marker gpu2) prints, alone, where there are fewer.
MULTI_SKIP="skipped: needs two GPUs"
said_skip() { [[ $(head -n 1 "$1" 2>/dev/null) == "$MULTI_SKIP" ]]; }

tests=()
tdir=${CTEST_DIR:-ctest}
for f in "$tdir"/*.c "$tdir"/*.cu; do
    [[ -f $f ]] || continue
    n=$(basename "$f"); n=${n%.*}
    selected "$n" || continue
    ((multi)) && ! has_marker "$f" gpu2 && continue
    tests+=("$f")
done
if [[ -n $only ]]; then
    for n in ${only//,/ }; do
        [[ -f $tdir/$n.c || -f $tdir/$n.cu ]] || { echo "ctest: no test $tdir/$n.c or $tdir/$n.cu" >&2; exit 2; }
    done
fi

# run_one BIN OUTBASE ENV... : runs BIN with the given environment under the timeout (at most
# until the deadline: OUTBASE.deadline says it was cut to that); stdout to OUTBASE.out,
# stderr to OUTBASE.err. Returns the exit status. CUDART_RS_DRYRUN (a dry run of the GPU mode
# without a GPU, scripts/gpu/gpu-suite.sh --standin) is the driver every run gets.
run_one() {
    local bin=$1 base=$2 t=$timeout_s
    shift 2
    rm -f "$base.deadline"
    if ((deadline)) && ((deadline - EPOCHSECONDS < t)); then
        t=$((deadline - EPOCHSECONDS))
        ((t < 1)) && t=1
        echo "$t" >"$base.deadline"
    fi
    # (The braces keep bash's own "Segmentation fault" notice out of the log.)
    { env -u CUDART_RS_DRIVER -u LD_PRELOAD ${CUDART_RS_DRYRUN:+CUDART_RS_DRIVER=$CUDART_RS_DRYRUN} "$@" \
        timeout -k 5 "$t" "$bin" >"$base.out" 2>"$base.err" </dev/null; } 2>/dev/null
}

# judge BASE RC [EXPECTED]: prints why a run failed (nothing when it passed); returns 1 on
# failure.
judge() {
    local base=$1 rc=$2 expected=${3:-} why=
    if ((rc == 124 || rc == 137)) && [[ -f $base.deadline ]]; then
        why="cut short at the deadline (after $(cat "$base.deadline")s)"
    elif ((rc == 124 || rc == 137)); then
        why="timed out after ${timeout_s}s"
    elif ((rc > 128)); then
        why="killed by signal $(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))"
    elif ((rc != 0)); then
        why="exit status $rc"
    elif has_fail_line "$base.out"; then
        why="a check failed"
    fi
    if [[ -n $why ]]; then
        echo "    $why"
        tail_of "$base.out"
        [[ -s $base.err ]] && { echo "    stderr:"; tail_of "$base.err" 15; }
        return 1
    fi
    if [[ -n $expected ]] && ! cmp -s "$expected" "$base.out"; then
        echo "    output differs from NVIDIA's ($expected):"
        diff -u --label "NVIDIA" --label "cudart-rs" "$expected" "$base.out" | head -n 60 | sed 's/^/      /'
        return 1
    fi
    return 0
}

# judge_same BASE RC REF REF_RC: when NVIDIA's own run fails the test, a run of ours must
# still do exactly what NVIDIA's did (exit status and output); prints what differs.
judge_same() {
    local base=$1 rc=$2 ref=$3 ref_rc=$4
    if ((rc != ref_rc)); then
        echo "    exit status $rc, NVIDIA's $ref_rc"
    fi
    if ! cmp -s "$ref.out" "$base.out"; then
        echo "    output differs from NVIDIA's:"
        diff -u --label "NVIDIA" --label "cudart-rs" "$ref.out" "$base.out" | head -n 60 | sed 's/^/      /'
    elif ((rc != ref_rc)); then
        [[ -s $base.err ]] && { echo "    stderr:"; tail_of "$base.err" 15; }
    fi
    return 0
}

# verdict LABEL OK [DETAILS]: counts and prints one test's result, then what went wrong.
verdict() {
    if (($2)); then
        passed=$((passed + 1))
        echo "PASS $1"
    else
        failed=$((failed + 1))
        failed_names+=("$1")
        echo "FAIL $1"
    fi
    [[ -n ${3:-} ]] && printf '%s\n' "$3"
    return 0
}

# ctest/syshdr: type-only stand-ins for the GL, EGL and VDPAU headers the interop headers
# include (ctest/syshdr/README.md), so that every machine builds every test.
cflags=(-std=gnu11 -O1 -g -pthread -Wall -Wno-unused-function -Werror=implicit-function-declaration -I"$tdir" -I"$tdir/syshdr")

############################################################################ stand-in mode

standin() {
    local driver=$dist/lib/stand-in/libcuda.so.1
    [[ -f $driver ]] || { echo "ctest: no stand-in driver at $driver (run scripts/build.sh)" >&2; failed=$((failed + 1)); return; }
    local extra=() env_extra=() kind=standin
    if ((sanitize)); then
        kind=sanitize
        extra=(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
        # Leaks are reported (the runtime's and the tests'), but not the stand-in's own
        # handles (scripts/test/lsan.supp); CTEST_DETECT_LEAKS=0 turns leak detection off.
        env_extra=("ASAN_OPTIONS=detect_leaks=${CTEST_DETECT_LEAKS:-1}:abort_on_error=0:halt_on_error=1:strict_string_checks=1:${ASAN_OPTIONS:-}"
                   "LSAN_OPTIONS=suppressions=$root/scripts/test/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"
                   "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}")
    fi
    local abi src name label build bin expected ok i rc detail why
    for abi in "${abis[@]}"; do
        build=target/ctest/$kind/$abi
        mkdir -p "$build"
        local lib=$dist/lib/libcudart.so.$abi
        [[ -f $lib ]] || { echo "ctest: no $lib (run scripts/build.sh)" >&2; failed=$((failed + 1)); continue; }
        local defs=()
        [[ $abi == 12 ]] && defs=(-DCUDART_RS_ABI12)
        for src in "${tests[@]}"; do
            name=$(basename "$src"); name=${name%.*}
            label="$name [$abi]"
            ((sanitize)) && label="$name [$abi, sanitize]"
            if abi13_skip "$src" "$abi"; then
                skipped=$((skipped + 1)); echo "SKIP $label: skipped: $why"; continue
            fi
            timeout_s=$(test_timeout "$src")
            if [[ $src == *.cu ]]; then
                skipped=$((skipped + 1)); echo "SKIP $label: skipped: no GPU (CUDA source)"; continue
            fi
            # A test marked `checked` also runs with CUDART_RS_CHECKED=1 (compared with
            # expected/<abi>/NAME.checked.out), even when its plain run needs a GPU (`gpu`).
            local plain=1 checked=0
            has_marker "$src" checked && checked=1
            has_marker "$src" gpu && plain=0
            if ((!plain && !checked)); then
                skipped=$((skipped + 1)); echo "SKIP $label: skipped: no GPU"; continue
            fi
            ((!plain)) && { skipped=$((skipped + 1)); echo "SKIP $label: skipped: no GPU (its run with CUDART_RS_CHECKED=1 follows)"; }
            bin=$build/$name
            # Linked by path: DT_NEEDED is the SONAME, libcudart.so.$abi, found at run time
            # through LD_LIBRARY_PATH.
            if ! gcc "${cflags[@]}" "${extra[@]}" "${defs[@]}" -Iinclude "$src" -o "$bin" -Wl,--no-as-needed "$lib" >"$bin.cc.log" 2>&1; then
                verdict "$label" 0 "$(echo "    compile failed:"; head_of "$bin.cc.log" 30)"
                continue
            fi
            # A test of several devices: the stand-in with 1 device (the test must say it
            # skips), 2 and 4; compared with nothing (NVIDIA's outputs are per GPU machine).
            local counts=("") dc dlabel
            ((plain)) || counts=()
            has_marker "$src" gpu2 && counts=(1 2 4)
            for dc in "${counts[@]}"; do
                dlabel=$label
                expected=$tdir/expected/$abi/$name.out
                [[ -f $expected && -z $dc ]] || expected=
                [[ -n $dc ]] && dlabel="${label%]}, $dc device$([[ $dc == 1 ]] || echo s)]"
                ok=1
                detail=
                for ((i = 1; i <= repeat; i++)); do
                    run_one "$bin" "$bin" LD_LIBRARY_PATH="$dist/lib" CUDART_RS_DRIVER="$driver" \
                        CTEST_STANDIN=1 ${dc:+CUDART_STANDIN_DEVICES=$dc} "${env_extra[@]}"
                    rc=$?
                    if ! detail=$(judge "$bin" "$rc" "$expected"); then
                        ok=0
                    elif [[ $dc == 1 ]] && ! { said_skip "$bin.out" && (($(wc -l <"$bin.out") == 1)); }; then
                        ok=0
                        detail="    with one device it must print only '$MULTI_SKIP':"$'\n'"$(tail_of "$bin.out" 5)"
                    elif [[ -n $dc && $dc != 1 ]] && said_skip "$bin.out"; then
                        ok=0
                        detail="    skipped with $dc devices"
                    fi
                    if ((!ok)); then
                        ((repeat > 1)) && detail+=$'\n'"    (run $i of $repeat)"
                        break
                    fi
                done
                if ((ok)) && [[ $dc == 1 ]]; then
                    skipped=$((skipped + 1)); echo "SKIP $dlabel: $MULTI_SKIP (as it must)"; continue
                fi
                verdict "$dlabel" "$ok" "$detail"
                if ((ok)) && [[ -n $dc ]]; then
                    multi_standin+=("$abi/$name/$dc")
                elif ((ok)) && [[ -z $expected ]]; then
                    unverified+=("$abi/$name")
                fi
            done
            if ((checked)); then
                expected=$tdir/expected/$abi/$name.checked.out
                [[ -f $expected ]] || expected=
                ok=1
                detail=
                for ((i = 1; i <= repeat; i++)); do
                    run_one "$bin" "$bin.checked" LD_LIBRARY_PATH="$dist/lib" CUDART_RS_DRIVER="$driver" \
                        CTEST_STANDIN=1 CUDART_RS_CHECKED=1 "${env_extra[@]}"
                    rc=$?
                    if ! detail=$(judge "$bin.checked" "$rc" "$expected"); then
                        ok=0
                        ((repeat > 1)) && detail+=$'\n'"    (run $i of $repeat)"
                        break
                    fi
                done
                verdict "${label%]}, CUDART_RS_CHECKED=1]" "$ok" "$detail"
                ((ok)) && [[ -z $expected ]] && unverified+=("$abi/$name (checked)")
            fi
        done
    done
}

################################################################################ GPU mode

gpu() {
    local nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
    # The 13 ABI's reference: NVIDIA's 13.5.37 (.gpu/nvidia135), the version whose table and
    # declarations the 13 ABI implements (its headers, .gpu/cu135/include, then come first for
    # the NVIDIA-header builds); without it, the machine's NVIDIA runtime (13.0.96 with nvcc
    # 13.0 on the GPU machine), else 13.0.96 (.gpu/nvidia13).
    # A second NVIDIA runtime (NVIDIA13_ALSO_LIB: with 13.5.37 the reference, the machine's
    # 13.0.96, else .gpu/nvidia13; `none` for none) runs the reference build too; where its
    # output differs from the reference's, the lines are listed (NOTE, not a failure: the two
    # NVIDIA versions differ there, and ours follows the reference).
    local nv13=${NVIDIA13_LIB:-} nv13inc=${NVIDIA13_INCLUDE:-} nv13also=${NVIDIA13_ALSO_LIB:-}
    if [[ -z $nv13 ]]; then
        if [[ -e $root/.gpu/nvidia135/libcudart.so.13 ]]; then nv13=$root/.gpu/nvidia135
        elif [[ -e /usr/local/cuda/lib64/libcudart.so.13 ]]; then nv13=/usr/local/cuda/lib64
        else nv13=$root/.gpu/nvidia13; fi
    fi
    if [[ -z $nv13also && $nv13 == "$root/.gpu/nvidia135" ]]; then
        if [[ -e /usr/local/cuda/lib64/libcudart.so.13 ]]; then nv13also=/usr/local/cuda/lib64; else nv13also=$root/.gpu/nvidia13; fi
    fi
    [[ $nv13also == none || ! -e $nv13also/libcudart.so.13 ]] && nv13also=
    if [[ -z $nv13inc && $nv13 == "$root/.gpu/nvidia135" && -d $root/.gpu/cu135/include ]]; then
        nv13inc=$root/.gpu/cu135/include
    fi
    # NVIDIA-header builds of the 13 ABI: those headers first, linked to that runtime (its
    # libcudart.so), so that calls newer than nvcc's toolkit build and link.
    # The CUDA sources (nvcc) keep nvcc's own headers: CUDA 13.5's would meet nvcc 13.0's CCCL,
    # which refuses a CUDART_VERSION other than its own; they use no 13.5 declaration and are
    # linked to, and run under, the same runtimes. Those marked abi13 (13.5's functions and
    # declarations, no CCCL) take 13.5's headers first, as the C tests.
    local nv13flags=() nv13cuflags=()
    [[ -n $nv13inc ]] && nv13flags+=(-I"$nv13inc")
    [[ -e $nv13/libcudart.so ]] && { nv13flags+=(-L"$nv13"); nv13cuflags+=(-L"$nv13"); }
    local nv12=${NVIDIA12_LIB:-$root/.gpu/nvidia12}
    local cu12inc=${CU12_INCLUDE:-$root/.gpu/cu12/include}
    local cu12bin=${CU12_CLANG_BIN:-$root/.gpu/cu12-clang}
    local arch=${NVCC_ARCH:--arch=sm_90}
    local out=${OUT:-$root/target/ctest/out}
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    rm -rf "$out/expected"
    local work=${CTEST_WORK:-$root/target/ctest/gpu}
    rm -rf "$work"
    echo "NVIDIA's runtime runs: $([[ $nvidia_runs == all ]] && echo "every test" || echo "the tests with no recording in $tdir/expected/ (--recorded)")"

    echo "NVIDIA 13 runtime: $(readlink -f "$nv13/libcudart.so.13" 2>/dev/null || echo "MISSING in $nv13")${nv13inc:+, headers $nv13inc}"
    [[ -n $nv13also ]] && echo "NVIDIA 13 runtime compared with it (differences listed): $(readlink -f "$nv13also/libcudart.so.13")"
    echo "NVIDIA 12 runtime: $(readlink -f "$nv12/libcudart.so.12" 2>/dev/null || echo "MISSING in $nv12")"
    echo "NVIDIA 12 headers: $cu12inc"
    echo "nvcc: $nvcc ($("$nvcc" --version 2>/dev/null | grep -o 'release [0-9.]*' || echo MISSING))"
    echo "CUDA sources for 12 (clang builds): $cu12bin ($(tr '\n' ' ' 2>/dev/null <"$cu12bin/BUILD-INFO" || echo MISSING))"
    echo "ours: $dist/lib ($(cat "$dist/BUILD-INFO" 2>/dev/null | tr '\n' ' '))"
    # The number of GPUs, for the outputs of the tests of several devices (multi<N>/).
    local gpus=${CTEST_GPUS:-$(gpu_count)}
    echo "GPUs: $gpus$(nvidia-smi -L 2>/dev/null | head -n 1 | sed -E 's/^GPU 0: ([^(]*[^ (]).*/ (\1)/')"

    # CUPTI, for tests marked `cupti` (built against it, linked with its folder as their only
    # RUNPATH entry through a folder that holds nothing but libcupti): CUPTI_DIR (with
    # include/ and lib/ or lib64/), else CUDA's extras, else a Python environment's
    # nvidia/cu13 wheel (PyTorch's). None found: those tests are skipped, with the reason.
    local cupti_inc= cupti_lib= d
    for d in ${CUPTI_DIR:-} /usr/local/cuda/extras/CUPTI /usr/local/cuda \
        $(python3 -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "cu13"))' 2>/dev/null) \
        /opt/*/.venv/lib/python3*/site-packages/nvidia/cu13; do
        [[ -f $d/include/cupti.h ]] || continue
        for l in "$d/lib64" "$d/lib"; do
            [[ -e $l/libcupti.so.13 ]] && { cupti_inc=$d/include; cupti_lib=$l; break 2; }
        done
    done
    echo "CUPTI: ${cupti_lib:-none found (tests marked cupti are skipped)}"

    # gpu_builds ABI SRC: the builds of a test (builds) and the one NVIDIA's outputs come from
    # (ref_build): a C test against our header (gcc, linked to ours) and against NVIDIA's
    # (nvcc for 13; gcc and NVIDIA's CUDA 12 headers for 12, linked to NVIDIA's); a CUDA
    # source with nvcc for 13, and for 12 the program clang made of it (linked to NVIDIA's).
    gpu_builds() {
        if [[ $2 == *.cu && $1 == 12 ]]; then
            builds=(clang); ref_build=clang
        elif [[ $2 == *.cu ]]; then
            builds=(nvcc); ref_build=nvcc
        else
            builds=(ours-header nvidia-header); ref_build=nvidia-header
        fi
    }
    # gpu_cmd ABI BUILD SRC BIN: the command of one build (in cmd).
    gpu_cmd() {
        local abi=$1 b=$2 src=$3 bin=$4 our_lib=$dist/lib/libcudart.so.$1 extra_src=() nvflags=()
        case $abi/$b in
            13/ours-header) cmd=(gcc "${cflags[@]}" -Iinclude "$src" -o "$bin" -Wl,--no-as-needed "$our_lib") ;;
            12/ours-header) cmd=(gcc "${cflags[@]}" -DCUDART_RS_ABI12 -Iinclude "$src" -o "$bin" -Wl,--no-as-needed "$our_lib") ;;
            13/nvidia-header) cmd=("$nvcc" -cudart shared -Xlinker --no-as-needed "${nv13flags[@]}" -I"$tdir" -I"$tdir/syshdr" "$src" -o "$bin") ;;
            12/nvidia-header) cmd=(gcc "${cflags[@]}" -I"$cu12inc" "$src" -o "$bin" -Wl,--no-as-needed "$nv12/libcudart.so.12") ;;
            13/nvcc)
                IFS=, read -r -a extra_src <<<"$(marker_value "$src" nvcc-extra-sources)"
                read -r -a nvflags <<<"$(marker_value "$src" nvcc-flags)"
                local cuflags=("${nv13cuflags[@]}")
                has_marker "$src" abi13 && cuflags=("${nv13flags[@]}")
                cmd=("$nvcc" -cudart shared $arch "${nvflags[@]}" -Xlinker --no-as-needed "${cuflags[@]}" -I"$tdir" "$src" "${extra_src[@]}" -o "$bin") ;;
            # Built elsewhere (scripts/gpu/cu12-build.sh): copied, and made executable whatever
            # way it travelled.
            12/clang) cmd=(install -m 755 "$cu12bin/$(basename "${src%.*}")" "$bin") ;;
        esac
        if [[ $abi/$b == 13/nvcc ]] && has_marker "$src" cupti; then
            local only_cupti
            only_cupti=$(dirname "$bin")/cupti-lib
            mkdir -p "$only_cupti" && ln -sf "$cupti_lib/libcupti.so.13" "$only_cupti/libcupti.so.13"
            cmd+=(-I"$cupti_inc" -Xlinker "$only_cupti/libcupti.so.13" -Xlinker -rpath="$only_cupti")
        fi
    }
    # also_diff BIN REF NAME REF_RC: BIN under the second NVIDIA runtime; its output and exit
    # status against the reference's (REF.out, REF_RC): the differing lines are listed, and
    # kept in $out/expected/13-also/NAME.diff.
    also_diff() {
        local also=$2.nvidia-also also_rc
        run_one "$1" "$also" LD_LIBRARY_PATH="$nv13also"
        also_rc=$?
        if [[ $also_rc != "$4" ]] || ! cmp -s "$2.out" "$also.out"; then
            mkdir -p "$out/expected/13-also"
            { echo "exit: reference $4, second $also_rc"
              diff -u --label "reference ($nv13)" --label "second ($nv13also)" "$2.out" "$also.out"; } >"$out/expected/13-also/$3.diff"
            also_notes+=("$3")
            echo "NOTE $3 [13]: NVIDIA's $(basename "$(readlink -f "$nv13also/libcudart.so.13")") differs from the reference (exit $also_rc, reference $4):"
            diff "$2.out" "$also.out" | grep '^[<>]' | head -n 20 | sed 's/^/      /'
        fi
    }
    # abi13_missing SRC ABI: true (with the reason in why) for a test marked abi13 where there
    # are no 13.5 headers to build it against (the 13 reference is then not 13.5).
    abi13_missing() {
        [[ $2 == 13 && -z $nv13inc ]] && has_marker "$1" abi13 || return 1
        why="a test of CUDA 13.5 (marker abi13): needs NVIDIA's 13.5 headers and runtime as the 13 reference (.gpu/nvidia135 and .gpu/cu135/include, or NVIDIA13_LIB and NVIDIA13_INCLUDE)"
    }
    # cu12_missing SRC ABI: true (with the reason in why) when the test is a CUDA source for
    # the 12 ABI whose clang build is not in $cu12bin.
    cu12_missing() {
        [[ $1 == *.cu && $2 == 12 ]] || return 1
        local n
        n=$(basename "${1%.*}")
        [[ -f $cu12bin/$n ]] && return 1
        why=$(head -n 1 "$cu12bin/$n.skip" 2>/dev/null)
        [[ -n $why ]] || why="no clang build in $cu12bin (scripts/gpu/cu12-build.sh, scripts/gpu/gpu-bundle.sh)"
        return 0
    }
    # gpu_test ABI SRC: one test of one ABI, from its builds to its verdict; a job of its own
    # (tests run side by side). Writes into its folder: `verdict` (PASS, FAIL or SKIP and the
    # reason, then what went wrong), `notes` (NOTE lines: where NVIDIA's second runtime
    # differs) and the expected/ copy of NVIDIA's output where it ran.
    gpu_test() {
        local abi=$1 src=$2 name bdir
        name=$(basename "$src"); name=${name%.*}
        bdir=$work/$abi/$name
        mkdir -p "$bdir"
        : >"$bdir/notes"
        local our_lib=$dist/lib/libcudart.so.$abi nv_dir
        if [[ $abi == 13 ]]; then nv_dir=$nv13; else nv_dir=$nv12; fi
        timeout_s=$(test_timeout "$src")
        local ok=1 detail= builds=() ref_build b bin compiled=() cmd
        # Where NVIDIA's output is recorded: per GPU count for a test of several devices.
        local rel=$abi/$name.out
        has_marker "$src" gpu2 && rel=$abi/multi$gpus/$name.out
        local recorded=$tdir/expected/$rel
        # Builds: a C test against our header (gcc, linked to ours) and against NVIDIA's
        # (nvcc for 13; gcc and NVIDIA's CUDA 12 headers for 12, linked to NVIDIA's); a CUDA
        # source with nvcc for 13, clang's build of it for 12. Side by side.
        gpu_builds "$abi" "$src"
        for b in "${builds[@]}"; do
            gpu_cmd "$abi" "$b" "$src" "$bdir/$b"
            ("${cmd[@]}" >"$bdir/$b.cc.log" 2>&1; echo $? >"$bdir/$b.cc.rc") &
        done
        wait
        for b in "${builds[@]}"; do
            bin=$bdir/$b
            if [[ $(cat "$bin.cc.rc" 2>/dev/null) == 0 ]]; then
                compiled+=("$b")
            else
                ok=0
                gpu_cmd "$abi" "$b" "$src" "$bin"
                detail+="  $b: compile failed: ${cmd[*]}"$'\n'"$(head_of "$bin.cc.log" 30)"$'\n'
            fi
        done
        # The reference: NVIDIA's output as recorded (--recorded, where there is a recording),
        # else the NVIDIA-header build run under NVIDIA's runtime (its output recorded in
        # $out/expected/).
        local ref=$bdir/$ref_build.nvidia have_ref=0 res rc ref_rc= run_nvidia=1 want_out=
        # (A test of what belongs to the machine, marker `machine`, has no recording to trust.)
        [[ $nvidia_runs == missing && -f $recorded ]] && ! has_marker "$src" machine && run_nvidia=0
        if ((!run_nvidia)); then
            have_ref=1 want_out=$recorded
        elif [[ " ${compiled[*]} " == *" $ref_build "* ]]; then
            run_one "$bdir/$ref_build" "$ref" LD_LIBRARY_PATH="$nv_dir"
            rc=$?
            ref_rc=$rc
            # A test of several devices on a machine with fewer: a skip, nothing more run.
            if ((rc == 0)) && has_marker "$src" gpu2 && said_skip "$ref.out"; then
                echo "SKIP $MULTI_SKIP ($gpus here)" >"$bdir/verdict"
                return
            fi
            if res=$(judge "$ref" "$rc"); then
                have_ref=1 want_out=$ref.out
                if ! has_marker "$src" machine; then
                    mkdir -p "$(dirname "$out/expected/$rel")"
                    cp "$ref.out" "$out/expected/$rel"
                fi
                # (Not a test of 13.5's functions: the second runtime, 13.0.96, lacks them.)
                if [[ $abi == 13 && -n $nv13also && $nvidia_runs == all ]] && ! has_marker "$src" abi13; then
                    also_diff "$bdir/$ref_build" "$ref" "$name" "$ref_rc" >"$bdir/notes"
                fi
            else
                ok=0
                detail+="  NVIDIA's runtime fails this test (the test is wrong, or expects what NVIDIA does not do):"$'\n'"$res"$'\n'
            fi
        fi
        # Every other run: each build under ours (LD_LIBRARY_PATH), the NVIDIA-header builds
        # with ours in LD_PRELOAD over NVIDIA's, and (when NVIDIA's runtime runs) our header's
        # build under NVIDIA's runtime; side by side, then judged one by one.
        local rt base got env_run want skips=0 runs=0 planned=() p
        run_env() {
            case $2 in
                nvidia) env_run=(LD_LIBRARY_PATH="$nv_dir"); want=$nv_dir ;;
                ours) env_run=(LD_LIBRARY_PATH="$dist/lib"); want=$dist/lib ;;
                preload) env_run=(LD_LIBRARY_PATH="$nv_dir" LD_PRELOAD="$our_lib"); want= ;;
            esac
        }
        for b in "${compiled[@]}"; do
            for rt in nvidia ours preload; do
                [[ $rt == preload && $b == ours-header ]] && continue
                [[ $rt == nvidia ]] && ((!run_nvidia)) && continue
                [[ $bdir/$b.$rt == "$ref" ]] && continue
                run_env "$b" "$rt"
                # The runtime meant must be the one the loader picks (an RPATH would win).
                if [[ -n $want ]]; then
                    got=$(env "${env_run[@]}" ldd "$bdir/$b" 2>/dev/null | awk '/libcudart\.so/ { print $3; exit }')
                    if [[ -n $got && $(readlink -f "$(dirname "$got")" 2>/dev/null) != "$(readlink -f "$want")" ]]; then
                        ok=0
                        detail+="  $b under $rt: the loader picks '$got', not the runtime in $want"$'\n'
                        continue
                    fi
                fi
                planned+=("$b $rt")
                (run_one "$bdir/$b" "$bdir/$b.$rt" "${env_run[@]}"; echo $? >"$bdir/$b.$rt.rc") &
            done
        done
        wait
        for p in "${planned[@]}"; do
            b=${p% *} rt=${p#* }
            base=$bdir/$b.$rt
            rc=$(cat "$base.rc" 2>/dev/null || echo 255)
            runs=$((runs + 1))
            # Without NVIDIA's run, a test of several devices on a machine with fewer must
            # say so under ours (NVIDIA's runtime does).
            if ((!run_nvidia)) && has_marker "$src" gpu2 && ((gpus < 2)); then
                if ((rc == 0)) && said_skip "$base.out" && (($(wc -l <"$base.out") == 1)); then
                    skips=$((skips + 1))
                else
                    ok=0
                    detail+="  $b under $rt: with $gpus GPU it must print only '$MULTI_SKIP':"$'\n'"$(tail_of "$base.out" 5)"$'\n'
                fi
                continue
            fi
            if ((have_ref)); then
                res=$(judge "$base" "$rc" "$want_out")
            elif [[ -f $ref.out ]]; then
                res=$(judge_same "$base" "$rc" "$ref" "$ref_rc")
            else
                res=$(judge "$base" "$rc")
            fi
            if [[ -n $res ]]; then
                ok=0
                detail+="  $b under $rt:"$'\n'"$res"$'\n'
            fi
        done
        if ((ok && skips && skips == runs)); then
            echo "SKIP $MULTI_SKIP ($gpus here, as ours says)" >"$bdir/verdict"
            return
        fi
        { if ((ok)); then echo PASS; else echo FAIL; fi
          [[ -n ${detail%$'\n'} ]] && printf '%s\n' "${detail%$'\n'}"; } >"$bdir/verdict"
        return 0
    }

    # The jobs: every test of every ABI that is not skipped, in two queues: those marked
    # `serial` (one at a time, before the others: what they print depends on the whole GPU,
    # e.g. its free memory), then the rest, the longest first (a `timeout=` marker, then the
    # CUDA sources, whose nvcc builds take longest), --jobs at a time.
    local abi src name why serial=() rest=() weight
    for abi in "${abis[@]}"; do
        for src in "${tests[@]}"; do
            name=$(basename "$src"); name=${name%.*}
            if abi13_skip "$src" "$abi" || abi13_missing "$src" "$abi" || cu12_missing "$src" "$abi"; then
                skipped=$((skipped + 1)); echo "SKIP $name [$abi]: skipped: $why"; continue
            elif has_marker "$src" cupti && [[ $abi != 13 ]]; then
                skipped=$((skipped + 1)); echo "SKIP $name [$abi]: skipped: no CUPTI 12 for the clang builds"; continue
            elif has_marker "$src" cupti && [[ -z $cupti_lib ]]; then
                skipped=$((skipped + 1)); echo "SKIP $name [$abi]: skipped: no CUPTI found (set CUPTI_DIR)"; continue
            fi
            if has_marker "$src" serial; then
                serial+=("$abi $src")
                continue
            fi
            weight=$(test_timeout "$src")
            [[ $src == *.cu ]] && weight=$((weight + 30))
            rest+=("$weight $abi $src")
        done
    done
    local queue=()
    mapfile -t queue < <(printf '%s\n' "${rest[@]}" | sort -s -k1,1nr | cut -d' ' -f2-)
    echo "tests: $((${#serial[@]} + ${#queue[@]})) (${#serial[@]} alone first), $jobs at a time$( ((deadline)) && echo ", until $(date -d "@$deadline" +%T)")"

    # Running: pid -> "ABI SRC" and its start (EPOCHREALTIME).
    local -A running=() started=()
    local key
    mkdir -p "$work"
    # finish PID: the job's verdict, counted and printed with its time.
    finish() {
        local key=${running[$1]} t0=${started[$1]} abi src name bdir v secs
        unset "running[$1]" "started[$1]"
        abi=${key%% *} src=${key#* }
        name=$(basename "$src"); name=${name%.*}
        bdir=$work/$abi/$name
        secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
        echo "$secs $abi $name" >>"$work/durations"
        cat "$bdir/notes" 2>/dev/null
        v=$(head -n 1 "$bdir/verdict" 2>/dev/null)
        case $v in
            SKIP*) skipped=$((skipped + 1)); echo "SKIP $name [$abi]: ${v#SKIP } (${secs}s)" ;;
            PASS) verdict "$name [$abi] (${secs}s)" 1 ;;
            FAIL) verdict "$name [$abi] (${secs}s)" 0 "$(tail -n +2 "$bdir/verdict")" ;;
            *) verdict "$name [$abi] (${secs}s)" 0 "    the job ended without a verdict (killed?)" ;;
        esac
        grep -q "^NOTE" "$bdir/notes" 2>/dev/null && also_notes+=("$name")
        return 0
    }
    # launch KEY: starts one test's job, unless the deadline has passed.
    launch() {
        local abi=${1%% *} src=${1#* } name
        name=$(basename "$src"); name=${name%.*}
        if ((deadline)) && ((EPOCHSECONDS >= deadline)); then
            verdict "$name [$abi]" 0 "    not run: the deadline had passed"
            return
        fi
        gpu_test "$abi" "$src" &
        running[$!]=$1
        started[$!]=$EPOCHREALTIME
    }
    for key in "${serial[@]}"; do
        launch "$key"
        for pid in "${!running[@]}"; do wait "$pid"; finish "$pid"; done
    done
    [[ -n ${CTEST_SERIAL_DONE:-} ]] && touch "$CTEST_SERIAL_DONE"
    # reap: waits for a job to end and finishes it.
    reap() {
        local pid
        if wait -n -p pid && [[ -n ${running[$pid]:-} ]]; then
            finish "$pid"
        elif [[ -z ${pid:-} ]]; then
            for pid in "${!running[@]}"; do finish "$pid"; done
        elif [[ -n ${running[$pid]:-} ]]; then
            finish "$pid"
        fi
    }
    for key in "${queue[@]}"; do
        while ((${#running[@]} >= jobs)); do reap; done
        launch "$key"
    done
    while ((${#running[@]})); do reap; done
    echo "slowest (seconds, ABI, test): $(sort -rn "$work/durations" 2>/dev/null | head -n 12 | awk '{ printf "%s%s %s %s", sep, $1, $2, $3; sep = ", " }')"

    # Outputs and build logs, not the programs (with --recorded, of the tests that failed).
    local sel=("$(basename "$work")") x
    if [[ $nvidia_runs == missing ]]; then
        sel=("$(basename "$work")/durations")
        for x in "${failed_names[@]}"; do
            [[ $x =~ ^([^ ]+)\ \[([0-9]+)\] ]] && sel+=("$(basename "$work")/${BASH_REMATCH[2]}/${BASH_REMATCH[1]}")
        done
    fi
    (cd "$work/.." && find "${sel[@]}" -type f \( -name '*.out' -o -name '*.err' -o -name '*.log' -o -name durations \) -print0 2>/dev/null |
        tar --null -T - -czf "$out/gpu-runs.tgz") || true
}

###########################################################################################

summary() {
    if ((${#unverified[@]})); then
        echo "unverified (no NVIDIA output recorded): ${unverified[*]}"
    fi
    if ((${#multi_standin[@]})); then
        echo "several devices on the stand-in (own checks only; NVIDIA's outputs are compared on GPU machines): ${multi_standin[*]}"
    fi
    if ((${#also_notes[@]})); then
        echo "where NVIDIA's second 13 runtime differs from the reference (NOTE lines; expected/13-also/): ${also_notes[*]}"
    fi
    if ((${#failed_names[@]})); then
        echo "failed: ${failed_names[*]}"
    fi
    echo "$passed passed, $failed failed, $skipped skipped"
}

case $mode in
    standin)
        standin
        summary
        ;;
    gpu)
        out_dir=${OUT:-$root/target/ctest/out}
        mkdir -p "$out_dir"
        out_dir=$(cd "$out_dir" && pwd)
        if [[ -z ${CTEST_GPU_LOGGED:-} ]]; then
            # Once more, with everything it prints also in the log, then the log and
            # NVIDIA's outputs go into expected.tgz.
            rm -f "$out_dir/expected.tgz"
            CTEST_GPU_LOGGED=1 OUT=$out_dir bash "$0" "${args[@]}" 2>&1 | tee "$out_dir/ctest-gpu.log"
            rc=${PIPESTATUS[0]}
            if [[ -d $out_dir/expected ]]; then
                tar -C "$out_dir" -czf "$out_dir/expected.tgz" expected ctest-gpu.log
            fi
            exit "$rc"
        fi
        gpu
        summary
        ;;
esac
((failed == 0))
