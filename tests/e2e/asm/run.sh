#!/bin/sh
# tests/e2e/asm/run.sh — GNU inline asm end to end: snippets.c built by kitcc
# (-O0, -O2, under -fsanitize=address, -fsanitize=undefined and
# -fsanitize-coverage=trace-pc-guard with ../goto/cov_hooks.c) must print
# what gcc's and clang-16's builds print, with no sanitizer report. The
# reference is gcc -O0: gcc 12 at -O2 drops the label path of an asm goto
# with outputs (goto_out), which gcc -O0 and clang agree on. With -DBUG_ASAN
# (an asm output stored past a stack array) kitcc's ASan build must report a
# stack-buffer-overflow in output_overflow, as clang's does.
#   run.sh KITCC
set -u
KITCC=$1
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail=0
SRC=$HERE/snippets.c

gcc -O0 -o "$WORK/ref" "$SRC" && "$WORK/ref" >"$WORK/want" || { echo "FAIL: gcc reference build"; exit 1; }
check() { # NAME CC FLAGS...
  name=$1 cc=$2
  shift 2
  if ! "$cc" "$@" -o "$WORK/$name" "$SRC" 2>"$WORK/$name.cc"; then
    echo "FAIL $name: build failed: $(head -c 400 "$WORK/$name.cc")"; fail=1; return
  fi
  "$WORK/$name" >"$WORK/$name.out" 2>"$WORK/$name.err"
  if cmp -s "$WORK/want" "$WORK/$name.out" && [ ! -s "$WORK/$name.err" ]; then echo "ok   $name"; else
    echo "FAIL $name: output differs from gcc's or a report was printed"
    diff "$WORK/want" "$WORK/$name.out" | head -6
    head -5 "$WORK/$name.err"
    fail=1
  fi
}
check clang_O0 clang-16 -O0
check clang_O2 clang-16 -O2
for cfg in "O0:-O0" "O2:-O2" "asan_O0:-O0 -fsanitize=address" "asan_O2:-O2 -fsanitize=address" \
           "ubsan_O2:-O2 -fsanitize=undefined -fno-sanitize-recover=all"; do
  # shellcheck disable=SC2086
  check "kitcc_${cfg%%:*}" "$KITCC" ${cfg#*:}
done
for cc in clang-16 "$KITCC"; do
  name=$(basename "$cc")_bug_asan
  if "$cc" -O0 -fsanitize=address -DBUG_ASAN -o "$WORK/$name" "$SRC" && ! "$WORK/$name" >/dev/null 2>"$WORK/$name.err" &&
     grep -q "stack-buffer-overflow" "$WORK/$name.err" && grep -q "in output_overflow" "$WORK/$name.err"; then
    echo "ok   $name"
  else
    echo "FAIL $name: the overflowing asm output is not reported"; head -5 "$WORK/$name.err"; fail=1
  fi
done
"$KITCC" -O0 -c -o "$WORK/hooks.o" "$HERE/../goto/cov_hooks.c" || { echo "FAIL: cov_hooks.c"; exit 1; }
# the hooks print their counts on stderr: only stdout is compared here
if "$KITCC" -O2 -fsanitize-coverage=trace-pc-guard -o "$WORK/cov" "$SRC" "$WORK/hooks.o" &&
   "$WORK/cov" 2>/dev/null | cmp -s "$WORK/want" -; then echo "ok   kitcc_coverage_O2"; else
  echo "FAIL kitcc_coverage_O2: build failed or output differs from gcc's"; fail=1
fi
exit $fail
