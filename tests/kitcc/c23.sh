#!/usr/bin/env bash
# tests/kitcc/c23.sh KITCC — C23 attribute specifiers (c23/attrs.c: [[...]] in
# every position C23 allows): kitcc compiles the file without a diagnostic in
# its default mode and with -std=c11, at -O0 and -O2, and the program prints
# what gcc -std=c2x's and clang-16 -std=c2x's builds print.
set -euo pipefail
kitcc=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
check() { # NAME WANT GOT
  if [ "$2" = "$3" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); printf 'FAIL: %s\nwant: %s\ngot:  %s\n' "$1" "$2" "$3"; fi
}
gcc -std=c2x -w "$here/c23/attrs.c" -o "$work/gcc"
want=$("$work/gcc")
if command -v clang-16 >/dev/null; then
  clang-16 -std=c2x -w "$here/c23/attrs.c" -o "$work/clang"
  check "clang-16 agrees with gcc" "$want" "$("$work/clang")"
fi
for flags in "-O0" "-O2" "-std=c11 -O0" "-std=gnu17 -O2 -fsanitize=address"; do
  # shellcheck disable=SC2086
  diags=$("$kitcc" $flags "$here/c23/attrs.c" -o "$work/kitcc" 2>&1) || { fail=$((fail + 1)); echo "FAIL ($flags): $diags"; continue; }
  check "no diagnostics ($flags)" "" "$diags"
  check "output ($flags)" "$want" "$("$work/kitcc")"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
