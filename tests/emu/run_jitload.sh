#!/usr/bin/env bash
# tests/emu/run_jitload.sh — the LLVM JIT is a plugin loaded on first use
# (docs/emu.md, "Start-up"): a tier-0 run and a short auto-tier run never map
# kit-emu-jit.so nor libLLVM, tier 1 loads both, and without the plugin
# kit-emu says so and still runs the program correctly in tier 0.
# usage: run_jitload.sh KIT_EMU GUEST_DIR (guest/hello.c exits 3). Exit 77
# without the cross compiler.
set -u
emu=$1 dir=$2
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-emu-jitload.XXXXXX")
trap 'rm -rf "$work"' EXIT
riscv64-linux-gnu-gcc -O2 -static -o "$work/hello" "$dir/hello.c" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }
# $1 = what, $2 = want (yes/no: plugin and libLLVM loaded), rest = kit-emu options
check() {
  local what=$1 want=$2; shift 2
  LD_DEBUG=files LD_DEBUG_OUTPUT="$work/ld" "$emu" "$@" "$work/hello" >"$work/out" 2>"$work/err"
  local rc=$? got=no
  cat "$work"/ld.* >"$work/ld" 2>/dev/null; rm -f "$work"/ld.*
  grep -q 'file=.*kit-emu-jit\.so' "$work/ld" && grep -q 'file=.*libLLVM' "$work/ld" && got=yes
  if [ $rc -ne 3 ] || ! grep -q "^hello, world" "$work/out"; then
    fail "$what: exit $rc, output '$(head -c 80 "$work/out")'"
  elif [ "$got" != "$want" ]; then
    fail "$what: LLVM loaded: $got (want $want)"
  else
    echo "ok: $what: LLVM loaded: $got"
  fi
}
check "--tier=0" no --tier=0
check "default (auto, warm-up)" no
check "--tier=1" yes --tier=1
KIT_EMU_JIT=$work/none "$emu" --tier=1 "$work/hello" >"$work/out" 2>"$work/err"
rc=$?
if [ $rc -ne 3 ] || ! grep -q "^hello, world" "$work/out" || ! grep -q 'cannot load the JIT.*running in tier 0' "$work/err"; then
  fail "missing plugin: exit $rc, stderr '$(head -c 200 "$work/err")'"
else
  echo "ok: missing plugin: message, tier 0, right output"
fi
exit $status
