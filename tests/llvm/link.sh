#!/usr/bin/env bash
# tests/llvm/link.sh KIT_CG — emit link.cg as an x86-64 object at -O0 and -O2,
# link it with gcc and link_driver.c, and check every ABI case's output.
set -euo pipefail
kitcg=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
expected='divmod -9 -2
twice 2.5 2.25
sum3 123
poly 11
callback 584
sret 3 6 12'
for opt in -O0 -O2; do
  "$kitcg" emit $opt -o "$tmp/link.o" "$here/link.cg"
  gcc -O1 "$here/link_driver.c" "$tmp/link.o" -o "$tmp/link"
  got=$("$tmp/link")
  if [ "$got" != "$expected" ]; then
    echo "link.sh: $opt output differs"; diff <(echo "$expected") <(echo "$got"); exit 1
  fi
done
# a non-PIC object links into a non-PIE executable
"$kitcg" emit --no-pic -o "$tmp/link.o" "$here/link.cg"
gcc -no-pie "$here/link_driver.c" "$tmp/link.o" -o "$tmp/link"
[ "$("$tmp/link")" = "$expected" ]
echo "link.sh: ok"
