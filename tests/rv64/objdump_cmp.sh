#!/usr/bin/env bash
# tests/rv64/objdump_cmp.sh — disassemble a real riscv64 binary with GNU
# objdump and with kit, compare line by line (fails under 99.9% match).
# With "alias" the comparison uses objdump's default alias names.
#   objdump_cmp.sh TOOL libc|static|FILE.s|BINARY [alias]
set -euo pipefail
tool=$1 what=$2 mode=${3:-}
case $what in
  libc) bin=/usr/riscv64-linux-gnu/lib/libc.so.6 ;;
  static)
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    cat > "$tmp/p.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <stdatomic.h>
int main(int argc, char **argv) {
  _Atomic long n = argc;
  atomic_fetch_add(&n, 3);
  double d = sqrt((double)n) * 1.5;
  float f = (float)d / 3.0f;
  printf("%ld %f %f %s\n", (long)n, d, f, argc > 1 ? argv[1] : "");
  return (int)(d + f) & 1;
}
C
    riscv64-linux-gnu-gcc -O2 -static -o "$tmp/p" "$tmp/p.c" -lm
    bin=$tmp/p ;;
  *.s)
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    riscv64-linux-gnu-as -march=rv64gc_zba_zbb_zbs -o "$tmp/x.o" "$what"
    bin=$tmp/x.o ;;
  *) bin=$what ;;
esac
if [ "$mode" = alias ]; then
  riscv64-linux-gnu-objdump -d "$bin" | "$tool" 99.9 40 alias
else
  riscv64-linux-gnu-objdump -d -M no-aliases "$bin" | "$tool" 99.9 40
fi
