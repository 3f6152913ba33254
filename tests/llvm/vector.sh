#!/usr/bin/env bash
# tests/llvm/vector.sh KIT_CG — vector.cg (CG vector types) on the JIT at -O0
# and -O2 and as an object linked by gcc prints the lanes worked out by hand;
# the interpreter declines it with a clear message and exit status 1.
set -uo pipefail
kitcg=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "vector.sh: $*"; exit 1; }
want='-23 -25 -15 -29
4 -3 -25 -23
-1 0 0 0
4 9 16 0
0 1 2 3'
for mode in jit "jit -O2"; do
  out=$("$kitcg" $mode "$here/vector.cg") || fail "$mode: exit $?"
  [ "$out" = "$want" ] || fail "$mode: output differs: $out"
done
"$kitcg" emit -O2 -o "$tmp/v.o" "$here/vector.cg" && gcc "$tmp/v.o" -o "$tmp/v" || fail "emit and link"
[ "$("$tmp/v")" = "$want" ] || fail "object: output differs"
err=$("$kitcg" run "$here/vector.cg" 2>&1 >/dev/null); st=$?
[ "$st" = 1 ] || fail "run: exit $st, want 1"
grep -q "vector values are not interpreted" <<<"$err" || fail "run: no clear message: $err"
echo "vector.sh: ok"
