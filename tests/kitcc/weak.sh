#!/usr/bin/env bash
# tests/kitcc/weak.sh KITCC — #pragma weak NAME and #pragma weak NAME = TARGET:
# kitcc's object has gcc's symbols (nm: binding and kind), and linked alone or
# with a gcc object of strong definitions it behaves as gcc's build does.
set -euo pipefail
kitcc=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
check() { # NAME WANT GOT
  if [ "$2" = "$3" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); printf 'FAIL: %s\nwant:\n%s\ngot:\n%s\n' "$1" "$2" "$3"; fi
}
syms() { nm "$1" | awk '$NF !~ /^(_GLOBAL_OFFSET_TABLE_|printf|\..*)$/ {print $(NF-1), $NF}'; } # globals and weak refs
gcc -w -c "$here/weak/weak.c" -o "$work/weak.gcc.o"
"$kitcc" -c "$here/weak/weak.c" -o "$work/weak.kitcc.o" 2>/dev/null
gcc -c "$here/weak/strong.c" -o "$work/strong.o"
check "nm of weak.c" "$(syms "$work/weak.gcc.o")" "$(syms "$work/weak.kitcc.o")"
for with in "" "$work/strong.o"; do
  gcc "$work/weak.gcc.o" $with -o "$work/ref"
  gcc "$work/weak.kitcc.o" $with -o "$work/prog"
  check "run${with:+ with strong.o}" "$("$work/ref")" "$("$work/prog")"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
