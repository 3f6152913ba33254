#!/usr/bin/env bash
# tests/emu/gdb/bench_overhead.sh KIT_EMU [PROG ARGS...] — what -g costs when
# gdb sets no breakpoint: PROG (default: vm_bench.c built here, an
# interpreter loop) under kit-emu alone and under kit-emu -g with
# gdb-multiarch attached and continuing, best of 3 wall-clock times each,
# and their ratio (issue 19 asks for at most 1.1x on Lua: run it with a
# riscv64 lua and a script). Not in the default ctest suite (it is a timing).
set -euo pipefail
emu=${1:?usage: bench_overhead.sh KIT_EMU [PROG ARGS...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ $# -eq 0 ]; then
  riscv64-linux-gnu-gcc -O2 -static "$here/vm_bench.c" -o "$work/vm_bench"
  set -- "$work/vm_bench" 20000000
fi
sysroot=/usr/riscv64-linux-gnu
now() { date +%s.%N; }
best() { sort -n | head -1; }
plain() {
  for _ in 1 2 3; do
    t0=$(now); "$emu" -L $sysroot "$@" >/dev/null; t1=$(now)
    echo "$t1 - $t0" | bc
  done | best
}
with_gdb() {
  for _ in 1 2 3; do
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    t0=$(now)
    "$emu" -L $sysroot -g "$port" "$@" >/dev/null &
    pid=$!
    until grep -q ":$(printf %04X "$port") 00000000:0000 0A" /proc/net/tcp; do sleep 0.01; done
    gdb-multiarch -nx -batch -ex "target remote :$port" -ex continue >/dev/null 2>&1
    wait $pid || true
    t1=$(now)
    echo "$t1 - $t0" | bc
  done | best
}
a=$(plain "$@")
b=$(with_gdb "$@")
printf 'kit-emu %.2f s, kit-emu -g with gdb continuing %.2f s: %.3fx\n' "$a" "$b" "$(echo "$b / $a" | bc -l)"
