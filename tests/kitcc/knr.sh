#!/usr/bin/env bash
# tests/kitcc/knr.sh KITCC — K&R function definitions (knr/defs.c) called with
# and without a prototype in scope (knr/calls.c): every mix of kitcc and gcc
# objects prints what the all-gcc build prints, at -O0 and -O2.
set -euo pipefail
kitcc=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
for opt in -O0 -O2; do
  gcc -w $opt -c "$here/knr/defs.c" -o "$work/defs.gcc.o"
  gcc -w $opt -c "$here/knr/calls.c" -o "$work/calls.gcc.o"
  "$kitcc" $opt -c "$here/knr/defs.c" -o "$work/defs.kitcc.o"
  "$kitcc" $opt -c "$here/knr/calls.c" -o "$work/calls.kitcc.o"
  gcc "$work/defs.gcc.o" "$work/calls.gcc.o" -o "$work/ref"
  want=$("$work/ref")
  for d in gcc kitcc; do
    for c in gcc kitcc; do
      [ "$d$c" = gccgcc ] && continue
      gcc "$work/defs.$d.o" "$work/calls.$c.o" -o "$work/prog"
      got=$("$work/prog")
      if [ "$got" = "$want" ]; then
        pass=$((pass + 1))
      else
        fail=$((fail + 1))
        echo "FAIL ($opt, defs by $d, calls by $c):"
        diff <(echo "$want") <(echo "$got") || true
      fi
    done
  done
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
