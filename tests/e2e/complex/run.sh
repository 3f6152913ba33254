#!/bin/sh
# tests/e2e/complex/run.sh — arith.c (every complex operation kitcc lowers,
# with infinities, NaNs and signed zeros, printed with %a) built by kitcc
# must print what gcc's build prints at the same optimisation level:
#  1. -O0 and -O2 against gcc -O0 and -O2 (libgcc's __mul?c3/__div?c3 at both);
#  2. -O0 under -fsanitize=address and -O2 under -fsanitize=undefined, with no report.
#   run.sh KITCC
set -u
KITCC=$1
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail=0
for cfg in "O0:-O0:-O0" "O2:-O2:-O2" "asan_O0:-O0:-O0 -fsanitize=address" "ubsan_O2:-O2:-O2 -fsanitize=undefined"; do
  name=${cfg%%:*}
  rest=${cfg#*:}
  gccopt=${rest%%:*}
  kitopt=${rest#*:}
  [ -f "$WORK/gcc$gccopt" ] || { gcc $gccopt -o "$WORK/gcc$gccopt" "$HERE/arith.c" -lm && "$WORK/gcc$gccopt" >"$WORK/want$gccopt"; } ||
    { echo "FAIL: gcc $gccopt reference build"; exit 1; }
  # shellcheck disable=SC2086
  if ! "$KITCC" $kitopt -o "$WORK/$name" "$HERE/arith.c" -lm 2>"$WORK/$name.cc"; then
    echo "FAIL $name: kitcc failed: $(head -c 300 "$WORK/$name.cc")"
    fail=1
    continue
  fi
  "$WORK/$name" >"$WORK/$name.out" 2>"$WORK/$name.err"
  if cmp -s "$WORK/want$gccopt" "$WORK/$name.out" && [ ! -s "$WORK/$name.err" ]; then
    echo "ok   $name ($(wc -l <"$WORK/$name.out") lines)"
  else
    echo "FAIL $name: output differs from gcc $gccopt's or a report was printed"
    diff "$WORK/want$gccopt" "$WORK/$name.out" | head -10
    head -5 "$WORK/$name.err"
    fail=1
  fi
done
exit $fail
