#!/usr/bin/env bash
# tests/emupeer/run_insncount.sh KIT_EMU DIR [--faults] — --tool=insncount against two
# independent counts, in every execution mode (tier 0, tier 1, auto with a
# low JIT threshold, single-step):
#   1. insncount.S, counted by hand: 300314 instructions in all, and the
#      guest's own rdinstret before its 11-instruction tail reads 300303;
#   2. instret.c, a libc program (static and dynamic): the tool's total is
#      the guest's final rdinstret + 11, and its output matches qemu's;
#   3. with --faults: the same with 3 loads that fault in the middle of a
#      block (caught by a SIGSEGV handler): the instructions before a faulting
#      one retire, the faulting one and those after it do not, so rdinstret
#      must read the same in every mode (single-step is the reference: one
#      instruction per block) and insncount must still be rdinstret + 11
#      (ctest runs this mode; tests/peer/README.md, "Emulator", has the bugs
#      it found).
# Exit 77 (skipped) without the cross toolchain.
set -u
emu=$1 dir=$2
faultcases="0"; [ "${3:-}" = --faults ] && faultcases="0 3"
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-emupeer-ic.XXXXXX")
trap 'rm -rf "$work"' EXIT
riscv64-linux-gnu-gcc -nostdlib -static -o "$work/hand" "$dir/insncount.S" || exit 1
riscv64-linux-gnu-gcc -O2 -static -o "$work/instret-static" "$dir/instret.c" || exit 1
riscv64-linux-gnu-gcc -O2 -o "$work/instret-dynamic" "$dir/instret.c" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }
tool_count() { sed -n 's/^kit-emu: insncount: \([0-9]*\) instructions.*/\1/p' "$1"; }
declare -A ref
modes=("--tier=0" "--tier=1" "--tier=auto --jit-threshold=2" "--single-step")
for m in "${modes[@]}"; do
  read -r -a mo <<<"$m"
  "$emu" "${mo[@]}" --tool=insncount "$work/hand" >"$work/out" 2>"$work/err"
  rc=$? got=$(od -An -tu8 "$work/out" | tr -d ' ') n=$(tool_count "$work/err")
  if [ $rc -ne 0 ] || [ "$got" != 300303 ] || [ "$n" != 300314 ]; then
    fail "hand-counted loop [$m]: exit $rc, rdinstret $got (want 300303), insncount $n (want 300314)"
  else
    echo "ok: hand-counted loop [$m]: rdinstret 300303, insncount 300314"
  fi
  for link in static dynamic; do
    for faults in $faultcases; do
      bin=$work/instret-$link
      "$emu" "${mo[@]}" --tool=insncount "$bin" 3000 $faults >"$work/out" 2>"$work/err"
      rc=$? n=$(tool_count "$work/err")
      got=$(tail -c 8 "$work/out" | od -An -tu8 | tr -d ' ')
      qline=$(qemu-riscv64 -L /usr/riscv64-linux-gnu "$work/instret-static" 3000 $faults | head -n1)
      line=$(head -n1 "$work/out")
      what="instret.c $link, $faults faults [$m]"
      if [ $rc -ne 0 ] || [ -z "$n" ] || [ -z "$got" ] || [ "$n" != $((got + 11)) ] || [ "$line" != "$qline" ]; then
        fail "$what: exit $rc, rdinstret $got + 11 vs insncount $n; output '$line' (qemu '$qline')"
      elif [ "$m" = --single-step ] && [ "$got" != "${ref[$link$faults]}" ]; then
        fail "$what: rdinstret $got here, ${ref[$link$faults]} in the other modes"
      else
        echo "ok: $what: insncount $n = rdinstret $got + 11"
      fi
      [ "$m" = --single-step ] || ref[$link$faults]=$got
    done
  done
done
exit $status
