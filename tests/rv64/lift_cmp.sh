#!/usr/bin/env bash
# tests/rv64/lift_cmp.sh — run one lifter test case on kit (decode, lift to
# CG, CG interpreter or JIT) and on qemu-riscv64, and compare the outputs.
#   lift_cmp.sh RUNNER CASE.S|CASE.c|CASE.py [RUNNER-FLAGS...]
set -euo pipefail
runner=$1 case=$2
shift 2
dir=$(cd "$(dirname "$0")" && pwd)/lift
name=$(basename "$case"); name=${name%.*}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
link="-march=rv64gc -mabi=lp64d -nostdlib -static -Wl,--build-id=none -Wl,-Ttext=0x10000"
case $case in
  *.S) # an instruction sequence between the register-dump prologue and epilogue
    cat "$dir/prologue.S" "$case" "$dir/epilogue.S" > "$tmp/$name.S"
    riscv64-linux-gnu-gcc $link -march=rv64gc_zba_zbb_zbs -Wl,--no-relax -o "$tmp/$name" "$tmp/$name.S" ;;
  *.py) # a generator of a standalone program that prints its own results
    python3 "$case" > "$tmp/$name.S"
    riscv64-linux-gnu-gcc $link -Wl,--no-relax -o "$tmp/$name" "$tmp/$name.S" ;;
  *.c) # a freestanding program that prints its own results
    riscv64-linux-gnu-gcc $link -O2 -ffreestanding -fno-builtin -o "$tmp/$name" "$case" ;;
esac
riscv64-linux-gnu-objcopy -O binary "$tmp/$name" "$tmp/$name.bin"
entry=0x$(riscv64-linux-gnu-nm "$tmp/$name" | awk '$3 == "_start" {print $1}')
qemu-riscv64 "$tmp/$name" > "$tmp/qemu.out"
"$runner" "$tmp/$name.bin" 0x10000 "$entry" "$@" > "$tmp/kit.out"
if cmp -s "$tmp/qemu.out" "$tmp/kit.out"; then
  echo "$name${*:+ ($*)}: output matches qemu-riscv64 ($(wc -c < "$tmp/kit.out") bytes)"
  exit 0
fi
echo "$name: MISMATCH against qemu-riscv64"
case $case in *.c) diff "$tmp/qemu.out" "$tmp/kit.out" | head -40; exit 1 ;; esac
python3 - "$tmp/qemu.out" "$tmp/kit.out" "$case" <<'PY'
import struct, sys
q = open(sys.argv[1], 'rb').read(); k = open(sys.argv[2], 'rb').read()
names = ['x%d' % i for i in range(32)] + ['f%d' % i for i in range(32)] + ['fcsr']
if sys.argv[3].endswith('.py'):  # records of (result, fflags) per generated test
    names = ['test %d %s' % (i // 2, ('result', 'fflags')[i % 2]) for i in range(len(q) // 8)]
if len(q) != len(k): print('  output sizes differ: qemu %d, kit %d' % (len(q), len(k)))
for i in range(min(len(q), len(k)) // 8):
    a, b = struct.unpack_from('<Q', q, 8 * i)[0], struct.unpack_from('<Q', k, 8 * i)[0]
    if a != b: print('  %-5s qemu %016x  kit %016x' % (names[i] if i < len(names) else i, a, b))
PY
exit 1
