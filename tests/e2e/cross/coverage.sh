#!/usr/bin/env bash
# coverage.sh KIT_EMU KIT_COV — kit-emu --sanitize=coverage (alone and with
# address) writes the executed blocks of a riscv64 program as a kit-cov range
# file; kit-cov maps them to lines: the branch taken is hit, the one not taken
# is not, for static and dynamic builds.
set -u
emu=$1 cov=$2
command -v riscv64-linux-gnu-gcc >/dev/null || { echo "SKIP: riscv64-linux-gnu-gcc not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat >p.c <<'C'
#include <stdio.h>
static int taken(int x) { return x * 2; }
static int not_taken(int x) { return x * 3; }
int main(int argc, char **argv) {
  (void)argv;
  int r;
  if (argc < 5)
    r = taken(argc);
  else
    r = not_taken(argc);
  printf("%d\n", r);
  return 0;
}
C
fail=0
for link in -static ""; do
  riscv64-linux-gnu-gcc -g -O0 $link -o p p.c || { echo "FAIL: cannot build"; exit 1; }
  for san in coverage address,coverage; do
    rm -rf out && mkdir out
    KIT_COVERAGE_DIR=out "$emu" --sanitize=$san ./p >/dev/null 2>err || { echo "FAIL [$san $link] kit-emu:"; cat err; fail=1; continue; }
    "$cov" -o p.info ./p out/p.*.ranges >summary
    what="[$san ${link:-dynamic}]"
    if grep -q "taken .*hit" summary && grep -q "main .*hit" summary && ! grep -q "not_taken .*hit" summary &&
       grep -q "^DA:8,1$" p.info && grep -q "^DA:10,0$" p.info; then
      echo "ok   $what $(head -1 summary)"
    else
      echo "FAIL $what"; cat summary; grep "^DA" p.info | head; fail=1
    fi
  done
done
exit $fail
