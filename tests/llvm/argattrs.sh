#!/usr/bin/env bash
# tests/llvm/argattrs.sh KIT_CG — emit argattrs.cg at -O0 and -O2, link it
# with gcc and argattrs_driver.c, and check that each indirect call through
# call-site attributes (sret, byval, signext) gives what gcc's direct call gives.
set -euo pipefail
kitcg=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for opt in -O0 -O2; do
  "$kitcg" emit $opt -o "$tmp/argattrs.o" "$here/argattrs.cg"
  gcc -O1 "$here/argattrs_driver.c" "$tmp/argattrs.o" -o "$tmp/argattrs"
  "$tmp/argattrs" > "$tmp/out"
  while read -r what direct indirect; do
    if [ "$direct" != "$indirect" ]; then
      echo "argattrs.sh: $opt: $what: gcc's direct call gives $direct, kit's indirect call $indirect"
      exit 1
    fi
  done < "$tmp/out"
  [ "$(wc -l < "$tmp/out")" = 2 ] || { echo "argattrs.sh: $opt: expected two lines"; cat "$tmp/out"; exit 1; }
done
echo "argattrs.sh: ok"
