#!/usr/bin/env bash
# bench/clock.sh — does a guest vDSO pay? (issue 17: "AT_SYSINFO_EHDR with a
# vDSO for clock_gettime/gettimeofday if it pays"). Nanoseconds per
# clock_gettime(CLOCK_MONOTONIC) of bench/workloads/clock.c: native (the
# host's vDSO), and its riscv64 builds, static and dynamic, under
# qemu-riscv64 and kit-emu (both answer the guest's ecall: neither gives the
# guest a vDSO). The median of ROUNDS runs; Markdown on stdout.
# usage: bench/clock.sh [ROUNDS] (default 5)   environment: KIT_BUILD (default build/)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${KIT_BUILD:-$ROOT/build}
R=${1:-5}
emu=$BUILD/bin/kit-emu
[ -x "$emu" ] || { echo "bench/clock.sh: $emu missing (build kit first)" >&2; exit 1; }
command -v riscv64-linux-gnu-gcc >/dev/null || { echo "bench/clock.sh: no riscv64-linux-gnu-gcc" >&2; exit 1; }
command -v qemu-riscv64 >/dev/null || { echo "bench/clock.sh: no qemu-riscv64" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$ROOT/bench/workloads/clock.c
gcc -O2 -o "$work/native" "$src"
riscv64-linux-gnu-gcc -O2 -static -o "$work/static" "$src"
riscv64-linux-gnu-gcc -O2 -o "$work/dynamic" "$src"
sysroot=/usr/riscv64-linux-gnu
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
ns() { for _ in $(seq "$R"); do "$@"; done | median; }
native=$(ns "$work/native")
echo "### clock_gettime(CLOCK_MONOTONIC): ns per call (median of $R runs)"
echo
echo "| build | native | qemu-riscv64 | kit-emu | kit-emu / qemu | kit-emu - native |"
echo "|---|--:|--:|--:|--:|--:|"
for b in static dynamic; do
  q=$(ns qemu-riscv64 -L $sysroot "$work/$b")
  k=$(ns "$emu" -L $sysroot "$work/$b")
  printf '| riscv64 %s | %s | %s | %s | %.2f | %.1f |\n' "$b" "$native" "$q" "$k" "$(echo "$k / $q" | bc -l)" \
    "$(echo "$k - $native" | bc -l)"
done
