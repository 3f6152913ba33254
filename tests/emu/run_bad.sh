#!/bin/sh
# tests/emu/run_bad.sh — bad input never crashes kit-emu: random bytes, an
# x86-64 ELF, a truncated riscv64 ELF, an empty file and a missing file each
# give exactly one line on stderr naming the problem and exit status 1.
set -u
emu=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-emu-bad.XXXXXX")
trap 'rm -rf "$work"' EXIT
head -c 4096 /dev/urandom >"$work/random"
printf '\177ELF' >"$work/elfmagic"; head -c 200 /dev/urandom >>"$work/elfmagic"
: >"$work/empty"
cp /bin/true "$work/x86"
printf 'int main(void){return 0;}\n' >"$work/t.c"
if command -v riscv64-linux-gnu-gcc >/dev/null 2>&1; then
  riscv64-linux-gnu-gcc -static -o "$work/rv" "$work/t.c" && head -c 300 "$work/rv" >"$work/truncated"
  riscv64-linux-gnu-gcc -static -o "$work/rv" "$work/t.c" && head -c 100000 "$work/rv" >"$work/halfway"
fi
status=0
for f in random elfmagic empty x86 truncated halfway missing; do
  [ "$f" != missing ] && [ ! -e "$work/$f" ] && continue
  "$emu" "$work/$f" >"$work/out" 2>"$work/err"
  rc=$?
  lines=$(wc -l <"$work/err")
  if [ $rc -ne 1 ] || [ "$lines" -ne 1 ] || ! grep -q "kit-emu: .*$f" "$work/err"; then
    echo "FAIL: $f: exit=$rc, $lines stderr lines:"; cat "$work/err"
    status=1
  else
    echo "ok: $f: $(cat "$work/err")"
  fi
done
exit $status
