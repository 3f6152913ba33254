#!/usr/bin/env bash
# tests/cpp/features.sh KITCC — kitcc's answers to feature queries against the
# compilers whose spelling they follow: __has_feature(*_sanitizer) under each
# -fsanitize= kitcc supports against clang-16, __SANITIZE_ADDRESS__ against gcc,
# and __has_c_attribute of features/c_attributes.txt against clang-16 -std=c2x
# (kitcc answers in every -std: it parses [[...]] in every mode, as gcc).
set -euo pipefail
kitcc=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v clang-16 >/dev/null || { echo "clang-16 not found"; exit 77; }
pass=0 fail=0
answers() { # PROBE COMPILER FLAGS... : the probe's lines the preprocessor keeps
  local probe=$1; shift
  "$@" -E "$here/features/$probe" | sed '/^ *$/d; /^#/d' | tr '\n' ' '
}
for flags in "" -fsanitize=address -fsanitize=undefined -fsanitize=signed-integer-overflow \
  -fsanitize=alignment -fsanitize=pointer-overflow -fsanitize=float-divide-by-zero \
  -fsanitize=unsigned-integer-overflow -fsanitize=implicit-conversion -fsanitize=local-bounds \
  "-fsanitize=undefined -fsanitize-trap=all" "-fsanitize=address,undefined" -fsanitize=memory \
  "-fsanitize=memory,undefined" \
  -fsanitize-coverage=trace-pc-guard "-fsanitize=address -fsanitize-coverage=trace-pc-guard,trace-cmp"; do
  # shellcheck disable=SC2086
  want=$(answers sanitizers.c clang-16 $flags) got=$(answers sanitizers.c "$kitcc" $flags)
  if [ "$want" = "$got" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL ($flags): clang-16 '$want', kitcc '$got'"; fi
done
for flags in "" -fsanitize=address -fsanitize=undefined; do
  # shellcheck disable=SC2086
  want=$(answers sanitize_macro.c gcc $flags) got=$(answers sanitize_macro.c "$kitcc" $flags)
  if [ "$want" = "$got" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL ($flags): gcc '$want', kitcc '$got'"; fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
while read -r a; do echo "$a __has_c_attribute($a)"; done <"$here/features/c_attributes.txt" >"$work/ask.c"
clang-16 -std=c2x -E -P "$work/ask.c" | sed 's/L$//' | while read -r a v; do
  printf '#if __has_c_attribute(%s) != %s\nmismatch %s: clang-16 says %s\n#endif\n' "$a" "$v" "$a" "$v"
done >"$work/probe.c"
[ -s "$work/probe.c" ] || { echo "FAIL: no answers from clang-16"; fail=$((fail + 1)); }
for std in "" -std=c11 -std=gnu17; do  # kitcc has no C23 mode (-std=c2x is an error)
  # shellcheck disable=SC2086
  got=$("$kitcc" $std -E "$work/probe.c" | sed '/^ *$/d; /^#/d')
  if [ -z "$got" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL (__has_c_attribute $std): $got"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
