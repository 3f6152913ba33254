#!/usr/bin/env bash
# tests/emu/run_proc.sh KIT_EMU — /proc/self/maps and /proc/self/auxv in the
# guest's terms (docs/emu.md, "Syscalls"): a riscv64 program reads both and
# checks them against what it knows (its own stack address is in an rw line
# named [stack], the executable is named, the heap after brk is [heap],
# AT_ENTRY equals getauxval's); the same verdicts as under qemu-riscv64 (which
# does not name the heap: that one kit-emu's alone), and no line of the
# emulator's own (kit-emu, its libraries).
set -uo pipefail
emu=${1:?usage: run_proc.sh KIT_EMU}
command -v riscv64-linux-gnu-gcc >/dev/null && command -v qemu-riscv64 >/dev/null || { echo "no cross gcc or qemu"; exit 77; }
sysroot=/usr/riscv64-linux-gnu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat >"$work/procself.c" <<'C'
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (argc > 1) { /* print the maps file */
    FILE *f = fopen("/proc/self/maps", "r");
    int c;
    while (f && (c = fgetc(f)) != EOF) putchar(c);
    return 0;
  }
  char *grow = sbrk(0);
  if (sbrk(65536) == (void *)-1) return 2;
  grow[100] = 1;
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) return 3;
  char line[1024];
  int n = 0, exe = 0, stack_ok = 0, heap_ok = 0;
  unsigned long prev = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    char perms[8];
    if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || lo >= hi || lo < prev) {
      printf("bad line: %s", line);
      return 4;
    }
    prev = hi;
    n++;
    if (strstr(line, "procself")) exe++;
    if ((unsigned long)&n >= lo && (unsigned long)&n < hi && perms[0] == 'r' && perms[1] == 'w' && strstr(line, "[stack]")) stack_ok = 1;
    if ((unsigned long)grow >= lo && (unsigned long)grow < hi && perms[1] == 'w' && strstr(line, "[heap]")) heap_ok = 1;
  }
  printf("maps: %s, executable %s, stack line %s, heap line %s\n", n >= 5 ? "several lines" : "too few", exe >= 2 ? "named" : "missing",
         stack_ok ? "right" : "wrong", heap_ok ? "right" : "wrong");
  FILE *a = fopen("/proc/self/auxv", "rb");
  unsigned long kv[2], entry = 0, pagesz = 0, phdr = 0;
  while (a && fread(kv, 8, 2, a) == 2 && kv[0] != AT_NULL) {
    if (kv[0] == AT_ENTRY) entry = kv[1];
    if (kv[0] == AT_PAGESZ) pagesz = kv[1];
    if (kv[0] == AT_PHDR) phdr = kv[1];
  }
  printf("auxv: AT_ENTRY %s, AT_PHDR %s, AT_PAGESZ %lu\n", entry && entry == getauxval(AT_ENTRY) ? "as getauxval" : "differs",
         phdr && phdr == getauxval(AT_PHDR) ? "as getauxval" : "differs", pagesz);
  return 0;
}
C
for link in static dynamic; do
  flags=(-O1)
  [ $link = static ] && flags+=(-static)
  riscv64-linux-gnu-gcc "${flags[@]}" "$work/procself.c" -o "$work/procself" || fail "does not build"
  want=$(qemu-riscv64 -L $sysroot "$work/procself" 2>&1)
  got=$("$emu" -L $sysroot "$work/procself" 2>&1)
  [ "$(sed 's/, heap line [a-z]*//' <<<"$got")" = "$(sed 's/, heap line [a-z]*//' <<<"$want")" ] || fail "$link: kit-emu
$got
qemu-riscv64
$want"
  grep -q 'right, heap line right' <<<"$got" || fail "$link: the verdicts themselves: $got"
  maps=$("$emu" -L $sysroot "$work/procself" print)
  ! grep -q 'kit-emu\|libLLVM\|x86_64-linux-gnu' <<<"$maps" || fail "$link: the emulator's own mappings show: $(grep 'kit-emu\|LLVM\|x86_64' <<<"$maps" | head -2)"
  echo "ok $link: $(tr '\n' ' ' <<<"$got")"
done
