#!/usr/bin/env bash
# tests/emupeer/run_fuzz.sh KIT_EMU [ROUNDS] — kit-emu never crashes itself on
# hostile input. Deterministic (seeded) inputs:
#   1. random bytes as the program (some with a valid ELF magic and class);
#   2. a real static riscv64 program with 1-8 random bytes of its ELF and
#      program headers changed;
#   3. valid ELFs whose code is random bytes (text read-only, and a variant in
#      a writable+executable segment so the code can rewrite itself), run in
#      tier 0 and tier 1. Every ecall encoding (0x00000073 at any halfword) is
#      removed first, so random code cannot make system calls: its only way
#      out is a fault or the timeout.
# Accepted outcomes: exit status 1 with one "kit-emu: ..." line (refused
# input), a guest signal death (128 + SIGILL/SIGTRAP/SIGBUS/SIGFPE/SIGSEGV),
# any normal exit status, or the 10 s timeout (random code that loops). Not
# accepted: kit-emu's own crash — "internal error", an assertion, LLVM
# errors — or SIGABRT from random code (which cannot call abort).
set -u
emu=$1 rounds=${2:-20}
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-emupeer-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
ulimit -c 0
cd "$work" || exit 1
printf '#include <stdio.h>\nint main(void){puts("hello");return 0;}\n' >hello.c
riscv64-linux-gnu-gcc -O2 -static -o hello hello.c || exit 1
status=0
declare -A seen
outcome() { # NAME EXPECT-CLASS(load|any|code) CMD...
  local name=$1 class=$2; shift 2
  local rc
  { timeout -k 5 10 "$@" >out 2>err </dev/null; rc=$?; } 2>/dev/null
  seen[$rc]=$((${seen[$rc]:-0} + 1))
  if grep -qE 'internal error|Assertion|LLVM ERROR|PLEASE submit|AddressSanitizer|stack dump' err; then
    echo "FAIL: $name: kit-emu crashed itself (exit $rc):"; head -5 err; status=1; return
  fi
  case $class in
    load) [ $rc -eq 1 ] && [ "$(wc -l <err)" -eq 1 ] && return ;;
    any) [ $rc -ne 134 ] || grep -q . out && return ;; # hello's code may abort only after printing
    code) case $rc in 124|132|133|135|136|139) return ;; esac ;;
  esac
  echo "FAIL: $name: exit $rc:"; head -5 err; status=1
}
gen() { # SEED N: N deterministic pseudo-random bytes
  python3 -c "import random,sys; r=random.Random($1); sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range($2)))"
}
for ((i = 0; i < rounds; i++)); do
  gen "$i" 4096 >rand.bin
  outcome "random bytes $i" load "$emu" ./rand.bin
  { printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000\363\000'; gen "$((i + 1000))" 2000; } >magic.bin
  outcome "ELF magic + random $i" load "$emu" ./magic.bin
done
# header mutations: offsets inside the ELF header and program headers
phend=$(python3 -c "import struct; d=open('hello','rb').read(64); print(struct.unpack_from('<QHH', d, 32)[0] + struct.unpack_from('<H', d, 56)[0] * 56)")
for ((i = 0; i < rounds * 3; i++)); do
  python3 - "$i" "$phend" <<'PY'
import random, sys
r = random.Random(int(sys.argv[1])); end = int(sys.argv[2])
d = bytearray(open('hello', 'rb').read())
for _ in range(r.randint(1, 8)):
    d[r.randrange(16, end)] = r.getrandbits(8)
open('mut', 'wb').write(d)
PY
  chmod +x mut
  outcome "header mutation $i" any "$emu" --tier=0 ./mut
done
# random code
for ((i = 0; i < rounds; i++)); do
  python3 - "$i" <<'PY'
import random, sys
r = random.Random(int(sys.argv[1]) + 5000)
d = bytearray(r.getrandbits(8) for _ in range(4096))
for k in range(0, len(d) - 3, 2):  # no ecall at any halfword
    if d[k:k + 4] == b'\x73\x00\x00\x00':
        d[k] = 0x13
open('code.bin', 'wb').write(d)
PY
  printf '.globl _start\n.text\n_start:\n.incbin "code.bin"\n' >rx.S
  printf '.globl _start\n.section .rwx,"awx"\n_start:\n.incbin "code.bin"\n' >rwx.S
  riscv64-linux-gnu-gcc -nostdlib -static -o rx rx.S || exit 1
  riscv64-linux-gnu-gcc -nostdlib -static -Wl,--no-warn-rwx-segments -o rwx rwx.S || exit 1
  for t in 0 1; do
    outcome "random code $i (text) tier $t" code "$emu" --tier=$t ./rx
    outcome "random code $i (rwx) tier $t" code "$emu" --tier=$t ./rwx
  done
done
echo "exit statuses seen (status:count): $(for k in "${!seen[@]}"; do printf '%s:%s ' "$k" "${seen[$k]}"; done)"
[ $status -eq 0 ] && echo "ok: $((rounds * 2 + rounds * 3 + rounds * 4)) hostile inputs, no crash of kit-emu"
exit $status
