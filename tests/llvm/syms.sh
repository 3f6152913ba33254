#!/usr/bin/env bash
# tests/llvm/syms.sh KIT_CG — symbol kinds, linkage, visibility, sections and
# constructor priorities of an emitted object, checked with readelf and by
# running a C driver linked against it (non-PIE: the 4-byte relocation).
set -euo pipefail
kitcg=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$kitcg" emit --no-pic -O1 -o "$tmp/syms.o" "$here/syms.cg"
syms=$(readelf -sW "$tmp/syms.o")
check() { grep -Eq "$1" <<<"$syms" || { echo "syms.sh: no symbol matching '$1'"; echo "$syms"; exit 1; }; }
check 'TLS +GLOBAL +DEFAULT +[0-9]+ tls_var$'
check 'OBJECT +GLOBAL +HIDDEN +[0-9]+ hidden_var$'
check 'FUNC +WEAK +DEFAULT +[0-9]+ weak_fn$'
check 'OBJECT +GLOBAL +DEFAULT +COM tentative$'
check 'OBJECT +GLOBAL +DEFAULT +[0-9]+ var_alias$'
readelf -SW "$tmp/syms.o" | grep -q '\.kit_data' || { echo "syms.sh: no .kit_data section"; exit 1; }
readelf -SW "$tmp/syms.o" | grep -q 'init_array' || { echo "syms.sh: no init_array"; exit 1; }
gcc -no-pie "$here/syms_driver.c" "$tmp/syms.o" -o "$tmp/syms"
got=$("$tmp/syms")
expected='order 12
tls 42
alias 7 1
tentative 0
weak 1
rodata 4
ptr32 1'
if [ "$got" != "$expected" ]; then
  echo "syms.sh: output differs"; diff <(echo "$expected") <(echo "$got"); exit 1
fi
echo "syms.sh: ok"
