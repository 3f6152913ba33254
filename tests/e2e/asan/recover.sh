#!/usr/bin/env bash
# recover.sh KITCC — -fsanitize-recover=address: with halt_on_error=0 both bad
# accesses are reported and the program runs to its end; without it the first
# report ends the process; a build without -fsanitize-recover ignores
# halt_on_error=0 (its report calls never return).
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
[[ $fail -eq 0 ]] && echo "recover: ok"
exit $fail
