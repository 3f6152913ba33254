#!/usr/bin/env bash
# recover.sh KITCC — -fsanitize-recover=address: with halt_on_error=0 both bad
# accesses are reported and the program runs to its end; without it the first
# report ends the process; a build without -fsanitize-recover ignores
# halt_on_error=0 (its report calls never return). A report after the first
# (whose symbolizer ran libelf and libdwarf) describes the program's heap as
# clang-16's does: the runtime's own allocations are never the program's chunks.
set -u
cc=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/r.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  char *p = malloc(10);
  p[10 + argc - 1] = 1;
  p[11 + argc - 1] = 2;
  int *q = malloc(8);
  int v = q[2 + argc - 1];
  printf("after the errors %d\n", v * 0);
  free(p);
  free(q);
  return 0;
}
C
fail=0
check() { # what file pattern...
  local what=$1 file=$2
  shift 2
  for pat in "$@"; do
    if [[ $pat == !* ]]; then
      grep -qE -- "${pat#!}" "$file" && { echo "FAIL [$what]: unexpected '${pat#!}'"; fail=1; }
    else
      grep -qE -- "$pat" "$file" || { echo "FAIL [$what]: missing '$pat'"; fail=1; }
    fi
  done
}
"$cc" -g -fsanitize=address -fsanitize-recover=address "$tmp/r.c" -o "$tmp/rec" || exit 1
"$cc" -g -fsanitize=address "$tmp/r.c" -o "$tmp/abort" || exit 1
ASAN_OPTIONS=halt_on_error=0 "$tmp/rec" >"$tmp/out1" 2>&1
echo "rc=$?" >>"$tmp/out1"
check recover "$tmp/out1" "WRITE of size 1 at" "is located 0 bytes after 10-byte region" \
  "is located 1 bytes after 10-byte region" "READ of size 4 at" "is located 0 bytes after 8-byte region" \
  "^after the errors 0$" "!ABORTING"
"$tmp/rec" >"$tmp/out2" 2>&1
echo "rc=$?" >>"$tmp/out2"
check halt "$tmp/out2" "is located 0 bytes after 10-byte region" "!is located 1 bytes after" "!after the errors" "^rc=1$"
ASAN_OPTIONS=halt_on_error=0 "$tmp/abort" >"$tmp/out3" 2>&1
echo "rc=$?" >>"$tmp/out3"
check no-recover "$tmp/out3" "is located 0 bytes after 10-byte region" "!is located 1 bytes after" "!after the errors" "!^rc=0$"
cat >"$tmp/s.c" <<'C'
#include <stdlib.h>
int main(int argc, char **argv) {
  (void)argv;
  char *a = malloc(10);
  a[10 + argc - 1] = 1;
  char *p = malloc(32);
  p = realloc(p, 16);
  p[40 + argc - 1] = 1;
  free(p);
  free(a);
  return 0;
}
C
located() { grep -oE 'is (located|a wild).*' "$1" | sed -E 's/0x[0-9a-f]+/0xADDR/g'; }
for q in 256 0; do
  for c in "$cc" clang-16; do
    tag=$(basename "$c")
    "$c" -g -fsanitize=address -fsanitize-recover=address "$tmp/s.c" -o "$tmp/s.$tag" || exit 1
    ASAN_OPTIONS=halt_on_error=0:detect_leaks=0:quarantine_size_mb=$q "$tmp/s.$tag" >"$tmp/s.$tag.out" 2>&1
    located "$tmp/s.$tag.out" >"$tmp/s.$tag.loc"
  done
  if ! diff -u "$tmp/s.clang-16.loc" "$tmp/s.$(basename "$cc").loc"; then
    echo "FAIL [after-symbolizer, quarantine_size_mb=$q]: the descriptions differ from clang-16's"; fail=1
  fi
done
[[ $fail -eq 0 ]] && echo "recover: ok"
exit $fail
