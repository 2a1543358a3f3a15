#!/usr/bin/env bash
# The CUDA 13.5 oracle run, on the GPU machine, from the repository root: bash .h2/run.sh
# (the bundle .h2 is laid out by scripts/v135/bundle.sh). Builds the 13.5 tests against
# NVIDIA's 13.5 headers (gcc for C, nvcc for CUDA; both link NVIDIA's 13.5 libcudart.so.13),
# runs each under NVIDIA's 13.5 runtime, again under drvtrace (every driver call NVIDIA's
# runtime makes), and under ours when .h2/ours/libcudart.so.13 is there; probes which driver
# entry points the driver gives (cuGetProcAddress at 13000, 13050 and each name's newest).
# $OUT gets: summary.txt (what is printed), nvidia.tgz (outputs, exit codes, build logs),
# drvtrace.tgz (the driver traces), ours.tgz (when run), probe.txt.
set -u
H=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$H/out}
mkdir -p "$OUT"
W=$(mktemp -d)
T0=$SECONDS
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CUDA=${CUDA:-/usr/local/cuda}
mkdir -p "$W/lib" "$W/bin" "$W/nv" "$W/tr" "$W/ours" "$W/dt"
cp "$H/nvidia/libcudart.so.13" "$W/lib/libcudart.so.13"
ln -s libcudart.so.13 "$W/lib/libcudart.so"
if [[ -f $H/ours/libcudart.so.13 ]]; then mkdir -p "$W/ourlib"; cp "$H/ours/libcudart.so.13" "$W/ourlib/"; fi

exec > >(tee "$OUT/summary.txt") 2>&1
echo "== host: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1); nvcc $("$NVCC" --version | grep -o 'release [0-9.]*')"
echo "== NVIDIA runtime: $(strings "$W/lib/libcudart.so.13" | grep -m1 -o 'libcudart.so.13.[0-9.]*' || echo 13.5)"

C_TESTS=(new_calls_null green_ctx green_destroy_order graph_ids copy_attrs device_basics entry_points)
CU_TESTS=(cu_green_sm cu_param_count cu_decl135)
cflags=(-std=gnu11 -O1 -g -pthread -Wall -Wno-unused-function -Werror=implicit-function-declaration
        -I"$H/src" -I"$H/include" -I"$CUDA/include")

# Builds, in parallel (waited for by pid: a plain `wait` would wait for the tee above too).
pids=()
for t in "${C_TESTS[@]}"; do
    gcc "${cflags[@]}" "$H/src/$t.c" -o "$W/bin/$t" -Wl,--no-as-needed "$W/lib/libcudart.so.13" -ldl >"$W/nv/$t.build.log" 2>&1 &
    pids+=($!)
done
for t in "${CU_TESTS[@]}"; do
    "$NVCC" -cudart shared -arch=sm_90 -I"$H/include" -I"$H/src" -Xlinker --no-as-needed "$H/src/$t.cu" \
        -o "$W/bin/$t" -L"$W/lib" -L"$CUDA/lib64" >"$W/nv/$t.build.log" 2>&1 &
    pids+=($!)
done
gcc -O1 -Wall -I"$H/src" "$H/src/driver_probe.c" -o "$W/bin/driver_probe" -ldl >"$W/nv/driver_probe.build.log" 2>&1 &
pids+=($!)
gcc -O1 -Wall -I"$CUDA/include" "$H/src/green_destroy_probe.c" -o "$W/bin/green_destroy_probe" -L"$CUDA/lib64/stubs" -lcuda >"$W/nv/green_destroy_probe.build.log" 2>&1 &
pids+=($!)
bash "$H/drvtrace/build.sh" "$W/dt" >"$W/nv/drvtrace.build.log" 2>&1 &
pids+=($!)
wait "${pids[@]}"
echo "== builds done at $((SECONDS - T0)) s"
for t in "${C_TESTS[@]}" "${CU_TESTS[@]}" driver_probe; do
    [[ -x $W/bin/$t ]] || { echo "BUILD FAILED: $t"; tail -5 "$W/nv/$t.build.log"; }
done
[[ -f $W/dt/libcuda.so.1 ]] || { echo "BUILD FAILED: drvtrace"; tail -5 "$W/nv/drvtrace.build.log"; }
real_cuda=$(ldconfig -p | awk '/libcuda\.so\.1 .*x86-64/ {print $NF; exit}')

# One run: NAME DIR ENV... -- writes DIR/NAME.out, .err, .rc.
run() {
    local t=$1 dir=$2
    shift 2
    [[ -x $W/bin/$t ]] || return
    # The whole run stays within 400 s: late runs are skipped, and said so. new_calls_null
    # starts CUDA in a fresh process for each of its 88 calls (about 40 s).
    if ((SECONDS - T0 > 330)); then echo "skipped: $t in $(basename "$dir") (time)"; return; fi
    local limit=20
    [[ $t == new_calls_null ]] && limit=90
    (cd "$W" && env "$@" timeout "$limit" "$W/bin/$t" >"$dir/$t.out" 2>"$dir/$t.err"; echo $? >"$dir/$t.rc")
}

if [[ -x $W/bin/green_destroy_probe ]]; then
    echo "== a green context's stream after the green context is destroyed (driver calls only)"
    (cd "$W" && timeout 60 "$W/bin/green_destroy_probe" 2>&1)
else
    echo "BUILD FAILED: green_destroy_probe"; tail -5 "$W/nv/green_destroy_probe.build.log"
fi
echo "== driver entry points (found at 13000, 13050, newest)"
"$W/bin/driver_probe" >"$OUT/probe.txt" 2>&1
head -2 "$OUT/probe.txt"
awk 'NR > 2 {printf "%s %s%s", $1, $3 $4 $5, (NR % 4 == 2 ? "\n" : "; ")} END {print ""}' "$OUT/probe.txt"

for t in "${C_TESTS[@]}" "${CU_TESTS[@]}"; do
    run "$t" "$W/nv" LD_LIBRARY_PATH="$W/lib"
    echo "== nvidia $t: exit $(cat "$W/nv/$t.rc" 2>/dev/null || echo none), $(wc -l <"$W/nv/$t.out" 2>/dev/null || echo 0) lines, $(grep -c '^FAIL' "$W/nv/$t.out" 2>/dev/null) FAIL lines at $((SECONDS - T0)) s"
    grep '^FAIL' "$W/nv/$t.out" 2>/dev/null | head -5
    # NVIDIA's output recorded in scripts/v135/expected/ (copied to $H/expected by bundle.sh).
    if [[ -f $H/expected/$t.out ]]; then
        if cmp -s "$H/expected/$t.out" "$W/nv/$t.out"; then echo "   as recorded"; else
            echo "   differs from the recorded output:"; diff "$H/expected/$t.out" "$W/nv/$t.out" | grep '^[<>]' | head -10; fi
    fi
done

echo "== return codes of the new functions under NVIDIA's 13.5 runtime (init: after cudaFree(NULL); fresh: first call)"
sed -n 's/^init \([^:]*\): \(cuda[A-Za-z]*\), last \(cuda[A-Za-z]*\)$/\1=\2/p; s/^init \([^:]*\): \(.*\)$/\1=\2/p' "$W/nv/new_calls_null.out" | sort -u |
    sed 's/cudaError//g' | awk '{printf "%s%s", $0, (NR % 4 == 0 ? "\n" : "; ")} END {print ""}'
echo "fresh ones unlike the init ones:"
diff <(sed -n 's/^fresh //p' "$W/nv/new_calls_null.out") <(sed -n 's/^init //p' "$W/nv/new_calls_null.out") | grep '^[<>]' | head -20

# The driver traces: always without ours; with ours only when DRVTRACE=1 (they take ~25 s).
if [[ -f $W/dt/libcuda.so.1 ]] && { [[ ! -d $W/ourlib ]] || [[ ${DRVTRACE:-0} == 1 ]]; }; then
    for t in "${C_TESTS[@]}" "${CU_TESTS[@]}"; do
        [[ $t == device_basics || $t == entry_points ]] && continue
        run "$t" "$W/tr" LD_LIBRARY_PATH="$W/dt:$W/lib" DRVTRACE_REAL="$real_cuda" DRVTRACE_OUT="$W/tr/$t.trace"
        cmp -s "$W/nv/$t.out" "$W/tr/$t.out" || echo "note: $t prints differently under drvtrace"
    done
    echo "== traces done at $((SECONDS - T0)) s"
    (cd "$W/tr" && tar czf "$OUT/drvtrace.tgz" .)
fi

if [[ -d $W/ourlib ]]; then
    for t in "${C_TESTS[@]}" "${CU_TESTS[@]}"; do
        run "$t" "$W/ours" LD_LIBRARY_PATH="$W/ourlib"
        if cmp -s "$W/nv/$t.out" "$W/ours/$t.out"; then r=same; else r="differs ($(diff "$W/nv/$t.out" "$W/ours/$t.out" | grep -c '^[<>]') lines)"; fi
        echo "== ours $t: exit $(cat "$W/ours/$t.rc" 2>/dev/null || echo none) (NVIDIA's $(cat "$W/nv/$t.rc" 2>/dev/null || echo none)), output $r"
        # The diff: < NVIDIA's 13.5 runtime, > ours.
        [[ $r == same ]] || diff "$W/nv/$t.out" "$W/ours/$t.out" | grep '^[<>]' | head -40
    done
    echo "== SM partitions (cu_green_sm): NVIDIA's: $(grep -E '^(round 2|RESULT)' "$W/nv/cu_green_sm.out" 2>/dev/null | tr '\n' ' ')"
    echo "== SM partitions (cu_green_sm): ours: $(grep -E '^(round 2|RESULT)' "$W/ours/cu_green_sm.out" 2>/dev/null | tr '\n' ' ')"
    (cd "$W/ours" && tar czf "$OUT/ours.tgz" .)
fi
(cd "$W/nv" && tar czf "$OUT/nvidia.tgz" .)
echo "== done in $((SECONDS - T0)) s; \$OUT: $(cd "$OUT" && ls | tr '\n' ' ')"
