#!/usr/bin/env bash
# tests/kitcc/pack.sh KITCC — #pragma pack takes effect where it is written:
# pack/pack.c's struct layouts under kitcc equal gcc's.
set -euo pipefail
kitcc=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc "$here/pack/pack.c" -o "$work/gcc"
"$kitcc" "$here/pack/pack.c" -o "$work/kitcc"
if diff <("$work/gcc") <("$work/kitcc"); then echo "1 passed, 0 failed"; else echo "FAIL: layouts differ from gcc's (< gcc, > kitcc)"; echo "0 passed, 1 failed"; exit 1; fi
