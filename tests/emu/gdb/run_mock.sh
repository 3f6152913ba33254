#!/usr/bin/env bash
# tests/emu/gdb/run_mock.sh MOCK — gdb-multiarch against the stub's protocol
# engine over a scripted riscv64 target (mock_target.c): the target
# description, g/p/P, m/M/X, Z0 breakpoints, Z2/Z3/Z4 watchpoints with their
# stop replies, stepi, threads, monitor and the exit status, each checked in
# gdb's own output. 77 without gdb-multiarch.
set -uo pipefail
mock=${1:?usage: run_mock.sh MOCK}
command -v gdb-multiarch >/dev/null || { echo "gdb-multiarch not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
check() { # NAME PATTERN: a line of gdb's output matches the extended regex
  if grep -Eq -- "$2" "$work/out"; then pass=$((pass + 1)); else echo "FAIL $1: no line matching /$2/"; fail=$((fail + 1)); fi
}
gdb() { timeout 60 gdb-multiarch -nx -batch -ex 'set architecture riscv:rv64' -ex "target remote | $mock" "$@" \
  >"$work/out" 2>&1; }

gdb -ex 'info registers pc a0 sp' -ex 'p/x $a0' -ex 'set $a0 = 0x1234' -ex 'p/x $a0' -ex 'p/x $zero' \
  -ex 'p $ft0' -ex 'p/x $fcsr' -ex 'x/2xw 0x10000' -ex 'set {long}0x10008 = 99' -ex 'x/1dg 0x10008' \
  -ex 'p/x *(unsigned char *)0x9000' -ex 'info threads' -ex 'monitor insncount' -ex 'monitor bogus' \
  -ex 'stepi' -ex 'p/x $pc' -ex 'kill'
check "pc from g" '^pc +0x10000'
check "a0 from g" '^a0 +0x1111'
check "P writes a0" '^\$2 = 0x1234$'
check "x0 reads 0" '^\$3 = 0x0$'
check "f register" '^\$4 = .*double = 1.5'
check "fcsr from the fpu feature" '^\$5 = 0x20$'
check "m reads memory" '^0x10000:[[:space:]]+0x00000013[[:space:]]+0x00000013'
check "M/X write memory" '^0x10008:[[:space:]]+99$'
check "unreadable memory is an error" 'Cannot access memory at address 0x9000'
check "two threads listed" '^[* ] +2 +Thread'
check "monitor answers" '^mock: 42 instructions$'
check "unknown monitor command" "unknown monitor command 'bogus'"
check "stepi moves the pc" '^\$[0-9]+ = 0x10004$'
cp "$work/out" "$work/regs.out"

gdb -ex 'break *0x10040' -ex 'continue' -ex 'p/x $pc' -ex 'delete' -ex 'watch *(long *)0x10100' -ex 'continue' \
  -ex 'delete' -ex 'rwatch *(long *)0x10200' -ex 'continue' -ex 'delete' -ex 'awatch *(long *)0x10300' \
  -ex 'continue' -ex 'delete' -ex 'continue'
check "breakpoint hit" 'hit Breakpoint 1, 0x0*10040 in'
check "pc at the breakpoint" '^\$1 = 0x10040$'
# memory holds nops (0x13 per word): the scripted store adds 1 to the long
check "write watchpoint stops" 'hit Hardware watchpoint 2: \*\(long \*\)0x10100'
check "write watchpoint: old value" '^Old value = 81604378643$'
check "write watchpoint: new value" '^New value = 81604378644$'
check "read watchpoint" 'hit Hardware read watchpoint 3: .*0x10200'
check "read watchpoint value" '^Value = 81604378643$'
check "access watchpoint" 'hit Hardware access \(read/write\) watchpoint 4: .*0x10300'
check "exit status" '\[Inferior 1 \(process [0-9]+\) exited with code 07\]'

echo "$pass passed, $fail failed"
if [ $fail -ne 0 ]; then echo "--- gdb output:"; cat "$work/regs.out" "$work/out"; fi
[ $fail -eq 0 ]
