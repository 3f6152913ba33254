#!/usr/bin/env bash
# tests/kitcc/multi.sh KITCC — several .c files in one kitcc command, compiled
# and linked together, at -O0 and with -fsanitize=address.
set -euo pipefail
kitcc=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for flags in "-O0" "-O2 -g -fsanitize=address"; do
  # shellcheck disable=SC2086
  "$kitcc" $flags "$here/multi/a.c" "$here/multi/b.c" -o "$work/prog"
  out=$("$work/prog")
  [ "$out" = "6 30" ] || { echo "FAIL ($flags): got '$out'"; exit 1; }
  # shellcheck disable=SC2086
  "$kitcc" $flags "$here/multi/sse_a.c" "$here/multi/sse_b.c" -o "$work/sse" || { echo "FAIL ($flags): SSE in two units"; exit 1; }
  out=$("$work/sse")
  [ "$out" = "3.5 12" ] || { echo "FAIL ($flags): SSE in two units: got '$out'"; exit 1; }
done
echo "2 passed, 0 failed"
