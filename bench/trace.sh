#!/usr/bin/env bash
# bench/trace.sh — kit-emu --trace's throughput (issue 20): guest instructions
# traced per second on an unrolled-loop riscv64 program (tests/emu/trace/loop.c)
# with one consumer process reading insn events from the shared-memory ring,
# next to kit-emu without tracing. Markdown on stdout. bench/run.sh runs it
# with --only trace (or KIT_BENCH_TRACE=1).
# usage: bench/trace.sh [ROUNDS]   (default 10000000: 1.3 G guest instructions)
# environment: KIT_BUILD (default build/)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${KIT_BUILD:-$ROOT/build}
N=${1:-10000000}
emu=$BUILD/bin/kit-emu kt=$BUILD/bin/kit-trace reader=$BUILD/bin/trace_slow_reader
for f in "$emu" "$kt" "$reader"; do [ -x "$f" ] || { echo "bench/trace.sh: $f missing (build kit first)" >&2; exit 1; }; done
command -v riscv64-linux-gnu-gcc >/dev/null || { echo "bench/trace.sh: no riscv64-linux-gnu-gcc" >&2; exit 1; }
work=$(mktemp -d) ring=kit-bench-trace-$$
trap 'rm -rf "$work"; rm -f /dev/shm/$ring' EXIT
riscv64-linux-gnu-gcc -static -O2 -o "$work/loop" "$ROOT/tests/emu/trace/loop.c"
insns=$("$emu" --tool=insncount "$work/loop" "$N" 2>&1 >/dev/null | sed -n 's/^kit-emu: insncount: \([0-9]*\).*/\1/p')
wall() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc -l; }
row() { printf '| %s | %.2f | %.2f |\n' "$1" "$2" "$(echo "$insns / $2 / 1000000000" | bc -l)"; }
consumer_row() { # name, then the consumer's command with RING where the ring goes
  local name=$1; shift
  local args=("${@//RING/shm:$ring}")
  "${args[@]}" >"$work/consumer.txt" &
  local pid=$! t
  t=$(wall "$emu" --trace=insn --trace-out="shm:$ring" "$work/loop" "$N")
  wait $pid
  row "$name" "$t"
}
echo "### kit-emu --trace throughput ($N rounds of tests/emu/trace/loop.c: $insns guest instructions)"
echo
echo "| configuration | wall s | G guest insns/s |"
echo "|---|--:|--:|"
row "kit-emu, no tracing" "$(wall "$emu" "$work/loop" "$N")"
row "kit-emu --tool=insncount" "$(wall "$emu" --tool=insncount "$work/loop" "$N")"
row "kit-emu --trace=insn to a file in /dev/shm" "$(wall "$emu" --trace=insn --trace-out=/dev/shm/$ring.file "$work/loop" "$N")"
rm -f /dev/shm/$ring.file
consumer_row "kit-emu --trace=insn to shm:, one consumer counting records" "$reader" RING 0 0
consumer_row "kit-emu --trace=insn to shm:, kit-trace stats (expands every block)" "$kt" stats --wait 10000 RING
