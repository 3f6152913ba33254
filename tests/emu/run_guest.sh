#!/usr/bin/env bash
# tests/emu/run_guest.sh — cross-compile one guest program, run it under
# qemu-riscv64 (the oracle) and under kit-emu, and compare stdout and exit
# status. Exit 77 (skipped) when the cross toolchain or qemu is missing.
# usage: run_guest.sh KIT_EMU SRC.c static|dynamic -O0|-O2 "EMU OPTIONS" [guest args; @TMP@ = a scratch dir]
set -u
emu=$1 src=$2 link=$3 opt=$4 emuopts=$5
shift 5
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
command -v qemu-riscv64 >/dev/null 2>&1 || { echo "skip: no qemu-riscv64"; exit 77; }
sysroot=${KIT_EMU_SYSROOT:-/usr/riscv64-linux-gnu}
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-emu-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
name=$(basename "$src" .c)
bin=$work/$name
flags=("$opt")
[ "$link" = static ] && flags+=(-static)
riscv64-linux-gnu-gcc "${flags[@]}" -o "$bin" "$src" -lm || { echo "FAIL: cannot compile $src"; exit 1; }
ulimit -c 0
export KIT_EMU_TEST_VAR=hello KIT_EMU_TEST_OTHER=1
run() { # $1 = out prefix, rest = command; @TMP@ becomes a scratch dir per run
  local pre=$1; shift
  mkdir -p "$work/$pre.tmp"
  local cmd=()
  for a in "$@"; do if [ "$a" = @TMP@ ]; then cmd+=("$work/$pre.tmp"); else cmd+=("$a"); fi; done
  (cd "$work" && "${cmd[@]}" >"$work/$pre.out" 2>"$work/$pre.err"); echo $? >"$work/$pre.rc"
}
read -r -a eo <<<"$emuopts"
run q qemu-riscv64 -L "$sysroot" "$bin" "$@"
run k "$emu" "${eo[@]}" "$bin" "$@"
qrc=$(cat "$work/q.rc") krc=$(cat "$work/k.rc")
status=0
if ! cmp -s "$work/q.out" "$work/k.out"; then
  echo "FAIL: stdout differs (qemu vs kit-emu):"
  diff "$work/q.out" "$work/k.out" | head -40
  status=1
fi
if [ "$qrc" != "$krc" ]; then
  echo "FAIL: exit status qemu=$qrc kit-emu=$krc"
  status=1
fi
if [ $status != 0 ]; then
  echo "--- kit-emu stderr:"; head -40 "$work/k.err"
else
  echo "ok: $name $link $opt [$emuopts] exit=$krc, $(wc -l <"$work/k.out") lines"
fi
exit $status
