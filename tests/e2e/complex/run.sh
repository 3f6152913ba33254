#!/bin/sh
# tests/e2e/complex/run.sh — arith.c (every complex operation kitcc lowers,
# with infinities, NaNs and signed zeros, printed with %a) and libm.c (calls
# of glibc's complex functions) built by kitcc must print what gcc's builds
# print at the same optimisation level:
#  1. -O0 and -O2 against gcc -O0 and -O2 (libgcc's __mul?c3/__div?c3 at both);
#  2. -O0 under -fsanitize=address and -O2 under -fsanitize=undefined, with no report.
#   run.sh KITCC
set -u
KITCC=$1
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail=0
for prog in arith libm; do
  for cfg in "O0:-O0:-O0" "O2:-O2:-O2" "asan_O0:-O0:-O0 -fsanitize=address" "ubsan_O2:-O2:-O2 -fsanitize=undefined"; do
    name=$prog-${cfg%%:*}
    rest=${cfg#*:}
    gccopt=${rest%%:*}
    kitopt=${rest#*:}
    ref=$prog-gcc$gccopt
    [ -f "$WORK/$ref" ] || { gcc $gccopt -o "$WORK/$ref" "$HERE/$prog.c" -lm && "$WORK/$ref" >"$WORK/$ref.want"; } ||
      { echo "FAIL: gcc $gccopt reference build of $prog.c"; exit 1; }
    # shellcheck disable=SC2086
    if ! "$KITCC" $kitopt -o "$WORK/$name" "$HERE/$prog.c" -lm 2>"$WORK/$name.cc"; then
      echo "FAIL $name: kitcc failed: $(head -c 300 "$WORK/$name.cc")"
      fail=1
      continue
    fi
    "$WORK/$name" >"$WORK/$name.out" 2>"$WORK/$name.err"
    if cmp -s "$WORK/$ref.want" "$WORK/$name.out" && [ ! -s "$WORK/$name.err" ]; then
      echo "ok   $name ($(wc -l <"$WORK/$name.out") lines)"
    else
      echo "FAIL $name: output differs from gcc $gccopt's or a report was printed"
      diff "$WORK/$ref.want" "$WORK/$name.out" | head -10
      head -5 "$WORK/$name.err"
      fail=1
    fi
  done
done
exit $fail
