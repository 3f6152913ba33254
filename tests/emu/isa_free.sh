#!/bin/sh
# tests/emu/isa_free.sh — the emulator core knows no guest ISA: nothing
# under emu/ names a riscv register, opcode, encoding, frame or toolchain;
# those live in arch/<isa>/ behind KitArch (docs/adding-an-arch.md). Fails
# with each offending line. Usage: isa_free.sh [SOURCE_DIR]
set -u
src=${1:-$(dirname "$0")/../..}
# riscv's names (RV_ and Rv* identifiers, the ISA and its toolchain, the
# instructions the core used to special-case, its ABI register names as
# identifiers) and the raw encodings that used to live in the core
pattern='\bRV_|\bRv[A-Z]|rv64|riscv|RISCV|\becall\b|\bebreak\b|fence[._]i|\bsv39\b|EM_RISCV'
pattern="$pattern"'|0x0*73u?\b|0x08b00893|0x112d|\bRV_?(RA|SP|A[0-7]|FCSR|F0)\b'
hits=$(cd "$src" && grep -rnIE "$pattern" emu/ 2>/dev/null)
if [ -n "$hits" ]; then
  echo "FAIL: emu/ names the guest ISA (move it into arch/ behind KitArch):"
  echo "$hits"
  exit 1
fi
echo "ok: emu/ names no guest ISA ($(cd "$src" && find emu -name '*.[ch]' | wc -l) files)"
