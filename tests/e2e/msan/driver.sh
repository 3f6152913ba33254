#!/usr/bin/env bash
# driver.sh KITCC — kitcc's -fsanitize=memory against clang-16's: MSan with
# ASan refused with the same words; MSan combined with UBSan builds and both
# report, also with -fsanitize-memory-track-origins (no warning, the origin
# line); MSAN_OPTIONS exit_code and -fsanitize-recover=memory (reports go on,
# the count at exit) give clang's exit status and lines.
set -u
kitcc=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v clang-16 >/dev/null || { echo "SKIP: clang-16 not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # what, expected, got
  if [[ $2 == "$3" ]]; then echo "ok   $1"; else echo "FAIL $1: clang '$2' kitcc '$3'"; fail=1; fi
}

echo 'int main(void) { return 0; }' >"$tmp/empty.c"
ref=$(clang-16 -fsanitize=memory,address "$tmp/empty.c" -o "$tmp/r" 2>&1 | sed 's/^clang: //')
got=$("$kitcc" -fsanitize=memory,address "$tmp/empty.c" -o "$tmp/k" 2>&1 | sed 's/^kitcc: //')
check "memory,address refused" "$ref" "$got"

cat >"$tmp/ub.c" <<'C'
#include <limits.h>
#include <stdio.h>
__attribute__((noinline)) static void maybe_set(int *p, int c) { if (c) *p = 1; }
int main(int argc, char **argv) {
  (void)argv;
  int big = INT_MAX, x;
  big += argc;
  maybe_set(&x, argc > 3);
  if (x) puts("x");
  return big == 0;
}
C
for cc in clang-16 "$kitcc"; do
  "$cc" -g -fsanitize=memory,undefined "$tmp/ub.c" -o "$tmp/ub" 2>"$tmp/ub.cc" || echo "build failed" >>"$tmp/ub.cc"
  "$tmp/ub" >/dev/null 2>"$tmp/ub.err"
  echo "rc=$? $(grep -c 'runtime error: signed integer overflow' "$tmp/ub.err") $(grep -o 'ub.c:[0-9]*' "$tmp/ub.err" | tail -1)" >"$tmp/ub.$([[ $cc == clang-16 ]] && echo ref || echo kit)"
done
check "memory,undefined" "$(cat "$tmp/ub.ref")" "$(cat "$tmp/ub.kit")"

# origins: no warning at the build, UBSan beside them, the origin line
for cc in clang-16 "$kitcc"; do
  w=$([[ $cc == clang-16 ]] && echo ref || echo kit)
  "$cc" -g -fsanitize=memory,undefined -fsanitize-memory-track-origins "$tmp/ub.c" -o "$tmp/ubo" 2>"$tmp/ubo.cc" ||
    echo "build failed" >>"$tmp/ubo.cc"
  "$tmp/ubo" >/dev/null 2>"$tmp/ubo.err"
  echo "rc=$? build-output=$(wc -c <"$tmp/ubo.cc") $(grep -c 'runtime error: signed integer overflow' "$tmp/ubo.err")" \
    "$(grep -o "created by an allocation of '[a-z]*'" "$tmp/ubo.err")" >"$tmp/ubo.$w"
done
check "memory,undefined with origins" "$(cat "$tmp/ubo.ref")" "$(cat "$tmp/ubo.kit")"

for cc in clang-16 "$kitcc"; do
  w=$([[ $cc == clang-16 ]] && echo ref || echo kit)
  "$cc" -g -fsanitize=memory "$here/cases/bug_branch_local.c" -o "$tmp/b.$w"
  MSAN_OPTIONS=exit_code=3 "$tmp/b.$w" >/dev/null 2>&1
  echo $? >"$tmp/exit.$w"
  "$cc" -g -fsanitize=memory -fsanitize-recover=memory "$here/cases/bug_switch.c" -o "$tmp/r.$w"
  MSAN_OPTIONS=halt_on_error=0 "$tmp/r.$w" >/dev/null 2>"$tmp/rec.err.$w"
  echo "rc=$? $(grep -c WARNING "$tmp/rec.err.$w") $(grep 'warnings reported' "$tmp/rec.err.$w")" >"$tmp/rec.$w"
done
check "MSAN_OPTIONS=exit_code=3" "$(cat "$tmp/exit.ref")" "$(cat "$tmp/exit.kit")"
check "-fsanitize-recover=memory" "$(cat "$tmp/rec.ref")" "$(cat "$tmp/rec.kit")"
exit $fail
