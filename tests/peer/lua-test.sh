#!/usr/bin/env bash
# tests/peer/lua-test.sh KITCC — Lua 5.4 from Debian's lua5.4 source package,
# built twice (kitcc -O2 and gcc -O2) by compiling src/*.c directly; every
# tests/peer/lua/*.lua script runs under both and the outputs must match.
# KIT_CFLAGS (e.g. "-fsanitize=address") are added to kitcc's compile and link
# lines: a sanitizer report makes the script fail (output differs, exit status).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kitcc=${1:?usage: lua-test.sh KITCC [WORKDIR]}
work=${2:-$(mktemp -d)}
src=$(bash "$here/fetch-source.sh" lua5.4)/src
mkdir -p "$work"
# Debian's patched luaconf.h includes this generated header
echo '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"' >"$work/lua5.4-deb-multiarch.h"
build() { # CC OUTDIR [EXTRA-FLAGS [LINK-FLAGS]]
  local cc=$1 out=$2 extra=${3:-} ldflags=${4:-}
  mkdir -p "$out"
  for f in "$src"/*.c; do
    b=$(basename "$f" .c)
    [ "$b" = luac ] && continue
    $cc -O2 -I"$work" -DLUA_USE_LINUX $extra -c "$f" -o "$out/$b.o" &
    while [ "$(jobs -r | wc -l)" -ge 2 ]; do wait -n; done
  done
  wait
  $cc $ldflags -o "$out/lua" "$out"/*.o -lm -ldl
}
# lvm.c dispatches with its default computed goto (`goto *disptab[...]`
# under __GNUC__): CG's blockaddr/indirectbr
build "$kitcc" "$work/kit" "${KIT_CFLAGS:-}" "${KIT_CFLAGS:-}"
build gcc "$work/gcc"
fail=0
for t in "$here"/lua/*.lua; do
  name=$(basename "$t")
  (cd "$here/lua" && "$work/gcc/lua" "$name") >"$work/$name.gcc" 2>&1 || true
  if ! (cd "$here/lua" && timeout 120 "$work/kit/lua" "$name") >"$work/$name.kit" 2>&1; then
    echo "FAIL $name: kitcc-built lua exited with an error"; fail=1; continue
  fi
  if diff -u "$work/$name.gcc" "$work/$name.kit" >"$work/$name.diff"; then
    echo "PASS $name ($(wc -l <"$work/$name.gcc") lines)"
  else
    echo "FAIL $name: output differs from gcc-built lua"; head -20 "$work/$name.diff"; fail=1
  fi
done
exit $fail
