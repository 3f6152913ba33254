#!/usr/bin/env bash
# tests/emu/run_symbolize.sh KIT_EMU SYMTOOL.so — kit_emu_symbolize names
# main's blocks with their file and line in a static executable and in a PIE
# (whose second segment maps from file offset 0 too: it must not replace the
# module), and a pc with no line row gets no file (not the previous answer's).
set -uo pipefail
emu=${1:?} tool=${2:?}
command -v riscv64-linux-gnu-gcc >/dev/null || { echo "no cross gcc"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'int f(int x) { return x * 3; }\nint main(void) {\n  return f(4) - 12;\n}\n' >"$work/p.c"
for kind in static pie; do
  flags=(-g -O0)
  [ $kind = static ] && flags+=(-static)
  riscv64-linux-gnu-gcc "${flags[@]}" "$work/p.c" -o "$work/p" || exit 1
  out=$("$emu" -L /usr/riscv64-linux-gnu --tool="$tool" "$work/p" 2>&1)
  lines=$(grep -c "^symtool: main+0x[0-9a-f]* $work/p.c:[23]$" <<<"$out")
  [ "$lines" -ge 1 ] && ! grep -q '^symtool: main.* -:0$' <<<"$out" || { echo "FAIL $kind:"; echo "$out"; exit 1; }
  echo "ok $kind: $lines blocks of main with file:line"
done
