#!/usr/bin/env bash
# tests/abi/run.sh KITCC [WORKDIR] — the mixed-linking ABI test: gen.py writes
# two sides that pass every SysV class of struct/union to each other (by
# value, as returns, after the registers run out, through varargs and
# callbacks); every mix of kitcc (-O0 and -O2) and gcc objects must print
# exactly what the all-gcc build prints.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kitcc=${1:?usage: run.sh KITCC [WORKDIR]}
work=${2:-$(mktemp -d)}
mkdir -p "$work"
cd "$work"
python3 "$here/gen.py" .
gcc -O1 -c side1.c -o g1.o
gcc -O1 -c side2.c -o g2.o
gcc g1.o g2.o -o gg
./gg >gg.txt
fail=0
for opt in -O0 -O2; do
  $kitcc $opt -c side1.c -o k1$opt.o
  $kitcc $opt -c side2.c -o k2$opt.o
  for mix in "k1$opt.o g2.o" "g1.o k2$opt.o" "k1$opt.o k2$opt.o"; do
    name=$(echo "$mix" | tr -d ' .')
    # shellcheck disable=SC2086
    gcc $mix -o "$name"
    if ./"$name" >"$name.txt" 2>&1 && cmp -s gg.txt "$name.txt"; then
      echo "PASS $mix ($(wc -l <gg.txt) lines)"
    else
      echo "FAIL $mix: output differs from the all-gcc build"
      diff gg.txt "$name.txt" | head -10
      fail=1
    fi
  done
done
exit $fail
