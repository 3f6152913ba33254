#!/usr/bin/env bash
# tests/emu/run_tier2.sh — guest/tier2.c (hot loops, a timer signal, a fault
# in a hot loop) under qemu-riscv64 and kit-emu: the same output with tier 2
# on (the default) and off, without the baseline compiler, and blocks compiled
# by the baseline compiler (default) and at tier 2 (without it; `-d stats`). Exit 77 (skipped) without the cross toolchain or qemu.
# usage: run_tier2.sh KIT_EMU GUEST_DIR
set -u
emu=$1 g=$2
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
command -v qemu-riscv64 >/dev/null 2>&1 || { echo "skip: no qemu-riscv64"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-emu-tier2.XXXXXX")
trap 'rm -rf "$work"' EXIT
riscv64-linux-gnu-gcc -O2 -static -o "$work/tier2" "$g/tier2.c" || { echo "FAIL: cannot compile tier2.c"; exit 1; }
qemu-riscv64 "$work/tier2" >"$work/q.out" || { echo "FAIL: qemu-riscv64 failed"; exit 1; }
status=0
for mode in "" --no-tier2 --no-chain --no-baseline; do
  "$emu" -d stats $mode "$work/tier2" >"$work/k.out" 2>"$work/k.err"
  rc=$?
  if [ $rc != 0 ] || ! cmp -s "$work/q.out" "$work/k.out"; then
    echo "FAIL: kit-emu ${mode:-(default)} (exit $rc) differs from qemu-riscv64:"
    diff "$work/q.out" "$work/k.out" | head -20
    status=1
  fi
  n=$(sed -n 's/.* \([0-9]*\) at tier 2.*/\1/p' "$work/k.err")
  echo "kit-emu ${mode:-(default)}: ${n:-?} blocks at tier 2"
  nb=$(sed -n 's/.* \([0-9]*\) blocks compiled by the baseline compiler.*/\1/p' "$work/k.err")
  echo "kit-emu ${mode:-(default)}: ${nb:-?} blocks compiled by the baseline compiler"
  # tier 2 recompiles LLVM code: blocks the baseline compiler declined, or all without it
  if [ "$mode" = --no-baseline ] && ! [ "${n:-0}" -gt 0 ]; then
    echo "FAIL: no block reached tier 2"
    cat "$work/k.err"
    status=1
  fi
  if [ -z "$mode" ] && ! [ "${nb:-0}" -gt 0 ]; then
    echo "FAIL: the baseline compiler compiled no block"
    status=1
  fi
  if [ "$mode" = --no-baseline ] && [ "${nb:-0}" != 0 ]; then
    echo "FAIL: --no-baseline still compiled $nb blocks with the baseline compiler"
    status=1
  fi
done
[ $status = 0 ] && echo "ok"
exit $status
