#!/usr/bin/env bash
# Builds drvtrace, a driver that logs every call a CUDA runtime makes to the real driver and
# forwards it (see drvtrace.c), as OUTDIR/libcuda.so.1, from the real driver's export list.
#   scripts/gpu/drvtrace/build.sh [REAL_LIBCUDA] OUTDIR
# REAL_LIBCUDA defaults to the libcuda.so.1 ldconfig knows. Then, for NVIDIA's runtime:
#   DRVTRACE_REAL=REAL_LIBCUDA DRVTRACE_OUT=trace.txt LD_LIBRARY_PATH=OUTDIR:... ./program
# and for ours: CUDART_RS_DRIVER=OUTDIR/libcuda.so.1 in place of LD_LIBRARY_PATH.
# Needs gcc, nm and an x86-64 Linux.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../lib.sh"
here=$root/scripts/gpu/drvtrace
(($# == 1 || $# == 2)) || header_usage
if (($# == 1)); then
    real=$(ldconfig -p | awk '/libcuda\.so\.1 .*x86-64/ {print $NF; exit}')
    outdir=$1
else
    real=$1 outdir=$2
fi
[[ -f $real ]] || die "no driver library '$real'"
mkdir -p "$outdir" || die "cannot make $outdir"
s=$outdir/thunks.S
{
  echo '.intel_syntax noprefix'
  echo '.text'
  cat <<'ASM'
.globl dt_common_entry
.type dt_common_entry,@function
dt_common_entry:
  push rbp
  mov rbp, rsp
  push rdi
  push rsi
  push rdx
  push rcx
  push r8
  push r9
  push r11
  push rax
  sub rsp, 128
  movdqu [rsp], xmm0
  movdqu [rsp+16], xmm1
  movdqu [rsp+32], xmm2
  movdqu [rsp+48], xmm3
  movdqu [rsp+64], xmm4
  movdqu [rsp+80], xmm5
  movdqu [rsp+96], xmm6
  movdqu [rsp+112], xmm7
  mov rdi, r11
  lea rsi, [rsp+128]
  call dt_enter
  mov r11, rax
  movdqu xmm0, [rsp]
  movdqu xmm1, [rsp+16]
  movdqu xmm2, [rsp+32]
  movdqu xmm3, [rsp+48]
  movdqu xmm4, [rsp+64]
  movdqu xmm5, [rsp+80]
  movdqu xmm6, [rsp+96]
  movdqu xmm7, [rsp+112]
  add rsp, 128
  pop rax
  pop r10
  pop r9
  pop r8
  pop rcx
  pop rdx
  pop rsi
  pop rdi
  pop rbp
  jmp r11

.globl dt_common_exit
.type dt_common_exit,@function
dt_common_exit:
  push rax
  push rdx
  mov rdi, rax
  call dt_exit
  mov r11, rax
  pop rdx
  pop rax
  jmp r11
ASM
  nm -D --defined-only "$real" | awk '$2 == "T" || $2 == "t" || $2 == "W" {print $3}' | sed 's/@.*//' | sort -u |
    grep -v -x -e cuGetProcAddress -e cuGetProcAddress_v2 -e cuGetExportTable | while read -r f; do
      echo ".globl $f"
      echo ".type $f,@function"
      echo "$f:"
      echo "  lea r11, [rip + dt_e_$f]"
      echo "  jmp dt_common_entry"
    done
  echo '.data'
  nm -D --defined-only "$real" | awk '$2 == "T" || $2 == "t" || $2 == "W" {print $3}' | sed 's/@.*//' | sort -u |
    grep -v -x -e cuGetProcAddress -e cuGetProcAddress_v2 -e cuGetExportTable | while read -r f; do
      echo "dt_n_$f: .asciz \"$f\""
    done
  echo '.balign 8'
  nm -D --defined-only "$real" | awk '$2 == "T" || $2 == "t" || $2 == "W" {print $3}' | sed 's/@.*//' | sort -u |
    grep -v -x -e cuGetProcAddress -e cuGetProcAddress_v2 -e cuGetExportTable | while read -r f; do
      echo "dt_e_$f: .quad dt_n_$f, 0, 0"
    done
  echo '.section .note.GNU-stack,"",@progbits'
} >"$s" || die "$s not written"
gcc -O1 -g -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$outdir/libcuda.so.1" "$here/drvtrace.c" "$s" -ldl -lpthread ||
    die "drvtrace.c does not build"
echo "drvtrace: $outdir/libcuda.so.1 ($(grep -c '^\.globl' "$s") symbols)"
