#!/usr/bin/env bash
# tests/emu/threads/tools.sh KIT_EMU — what the tools see of guest threads:
# --strace prefixes each line with [pid TID] once there is a second thread,
# as strace -f does, the tids being the ones clone returned; --tool=insncount
# prints a count per thread whose sum is the total, and the total equals
# insncount's over a single-threaded run of the same work. 77 without the
# cross compiler.
set -uo pipefail
emu=${1:?usage: tools.sh KIT_EMU}
command -v riscv64-linux-gnu-gcc >/dev/null || { echo "no cross gcc"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat >"$work/w.c" <<'C'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
static volatile long sink;
static void *work(void *arg) {
  long s = 0;
  for (long i = 0; i < 100000; i++) s += i ^ (long)arg;
  sink = s;
  return NULL;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3;
  pthread_t t[8];
  for (int i = 0; i < n; i++) pthread_create(&t[i], NULL, work, (void *)(long)i);
  for (int i = 0; i < n; i++) pthread_join(t[i], NULL);
  printf("done %d\n", n);
  return 0;
}
C
riscv64-linux-gnu-gcc -O1 -static -pthread "$work/w.c" -o "$work/w" || fail "does not build"

# strace: [pid N] on every line after the first clone, N a tid clone returned
"$emu" --strace "$work/w" 3 >"$work/out" 2>"$work/st" || fail "strace run failed"
grep -q '^done 3$' "$work/out" || fail "wrong output: $(cat "$work/out")"
first_clone=$(grep -n '^clone(' "$work/st" | head -1 | cut -d: -f1)
[ -n "$first_clone" ] || fail "no clone line: $(head -5 "$work/st")"
before=$(head -n $((first_clone - 1)) "$work/st" | grep -c '^\[pid')
[ "$before" -eq 0 ] || fail "[pid] lines before the first thread"
after=$(tail -n +$((first_clone + 1)) "$work/st")
unprefixed=$(grep -v '^\[pid *[0-9]*\] ' <<<"$after" | grep -vc '^+++ exited')
[ "$unprefixed" -eq 0 ] || fail "lines without [pid] after the first clone: $(grep -v '^\[pid' <<<"$after" | head -3)"
tids=$(grep -o 'clone(.*) = [0-9]*' "$work/st" | sed 's/.* = //' | sort -n)
[ "$(wc -l <<<"$tids")" -eq 3 ] || fail "expected 3 clones: $tids"
for t in $tids; do
  grep -q "^\[pid *$t\] exit(0) = ?" "$work/st" || fail "thread $t: no exit line of its own"
done
echo "ok strace: $(grep -c '^\[pid' "$work/st") lines prefixed, threads $(echo $tids)"

# insncount: per-thread lines that sum to the total
"$emu" --tool=insncount "$work/w" 3 >"$work/out" 2>"$work/ic" || fail "insncount run failed"
total=$(sed -n 's/^kit-emu: insncount: \([0-9]*\) instructions$/\1/p' "$work/ic")
sum=$(sed -n 's/^kit-emu: insncount: thread [0-9]* (tid [0-9]*): \([0-9]*\) instructions$/\1/p' "$work/ic" |
  awk '{s += $1} END {print s + 0}')
nthr=$(grep -c '^kit-emu: insncount: thread' "$work/ic")
[ -n "$total" ] && [ "$nthr" -eq 4 ] || fail "insncount lines: $(cat "$work/ic")"
[ "$sum" -eq "$total" ] || fail "threads sum to $sum, total $total"
# each worker runs the same loop: its count is at least 100000 iterations' worth
for c in $(sed -n 's/^kit-emu: insncount: thread [1-9][0-9]* (tid [0-9]*): \([0-9]*\) .*/\1/p' "$work/ic"); do
  [ "$c" -gt 300000 ] || fail "a worker counted only $c"
done
echo "ok insncount: $nthr threads, sum $sum = total $total"

# --trace: a stream per thread in one file. Run beside insncount: each
# thread's retired instructions in the trace (kit-trace insns: "tid pc") equal
# insncount's count for that tid, every worker has a start record naming the
# main thread as its parent and an exit record, and the tids are clone's.
kt=$(dirname "$emu")/kit-trace
[ -x "$kt" ] || fail "no kit-trace beside $emu"
"$emu" --tool=insncount --trace=insn,thread,syscall --trace-out="$work/w.trace" "$work/w" 3 >"$work/out" 2>"$work/ic" ||
  fail "trace run failed"
"$kt" insns "$work/w.trace" | awk '{c[$1]++} END {for (t in c) print t, c[t]}' | sort >"$work/per_tid.trace"
sed -n 's/^kit-emu: insncount: thread [0-9]* (tid \([0-9]*\)): \([0-9]*\) instructions$/\1 \2/p' "$work/ic" | sort \
  >"$work/per_tid.ic"
[ "$(wc -l <"$work/per_tid.ic")" -eq 4 ] && cmp -s "$work/per_tid.trace" "$work/per_tid.ic" ||
  fail "per-thread instructions: trace $(tr '\n' ' ' <"$work/per_tid.trace"), insncount $(tr '\n' ' ' <"$work/per_tid.ic")"
"$kt" dump "$work/w.trace" >"$work/dump"
main_tid=$(grep -m1 -o '^[0-9]* syscall clone' "$work/dump" | cut -d' ' -f1)
clones=$(sed -n 's/^[0-9]* syscall clone(.*) = \([0-9]*\)$/\1/p' "$work/dump" | sort -n)
[ "$(wc -l <<<"$clones")" -eq 3 ] || fail "trace: expected 3 clone records: $clones"
for t in $clones; do
  grep -qx "$t thread start parent=$main_tid" "$work/dump" || fail "trace: thread $t: no start record with parent $main_tid"
  grep -q "^$t thread exit" "$work/dump" || fail "trace: thread $t: no exit record"
  grep -q "^$t syscall exit(" "$work/dump" || fail "trace: thread $t: its exit system call is not in its stream"
done
echo "ok trace: per-thread instructions = insncount's ($(tr '\n' ' ' <"$work/per_tid.ic")), start/exit records for $(echo $clones)"
