#!/usr/bin/env bash
# tests/llvm/rv64.sh KIT_CG — emit rv64.cg for riscv64, link it statically
# with riscv64-linux-gnu-gcc and rv64_driver.c, run it under qemu-riscv64;
# the same for dbg.cg with -g (line table); f80 is refused.
set -euo pipefail
kitcg=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
expected='mix 42 2.25
cg says -7 0.25!
said 17
dispatch 42 42'
for opt in -O0 -O2; do
  "$kitcg" emit --target riscv64 $opt -o "$tmp/rv.o" "$here/rv64.cg"
  readelf -h "$tmp/rv.o" | grep -q 'RISC-V'
  readelf -h "$tmp/rv.o" | grep -q 'double-float ABI'
  riscv64-linux-gnu-gcc -static "$here/rv64_driver.c" "$tmp/rv.o" -o "$tmp/rv"
  got=$(qemu-riscv64 "$tmp/rv")
  if [ "$got" != "$expected" ]; then
    echo "rv64.sh: $opt output differs"; diff <(echo "$expected") <(echo "$got"); exit 1
  fi
done
# -g for riscv64: dbg.cg's lines reach the static executable's line table
"$kitcg" emit -g --target riscv64 -o "$tmp/dbg.o" "$here/dbg.cg"
riscv64-linux-gnu-gcc -static "$here/dbg_driver.c" "$tmp/dbg.o" -o "$tmp/dbg"
qemu-riscv64 "$tmp/dbg"
lines=$(riscv64-linux-gnu-objdump --dwarf=decodedline "$tmp/dbg" | awk '$1=="dbg.c"||$1=="inc.h"{print $1":"$2}' | sort -u)
for want in dbg.c:4 dbg.c:5 inc.h:7; do
  grep -qx "$want" <<<"$lines" || { echo "rv64.sh: -g: no line entry $want"; exit 1; }
done
# f80 has no riscv64 lowering: one clear error, nonzero exit
printf 'module "x"\nfunc @f(f80) -> f80 {\nb0:\n  ret %%1\n}\n' > "$tmp/f80.cg"
if "$kitcg" emit --target riscv64 -o "$tmp/f80.o" "$tmp/f80.cg" 2> "$tmp/err"; then
  echo "rv64.sh: f80 accepted for riscv64"; exit 1
fi
grep -q 'f80' "$tmp/err"
echo "rv64.sh: ok"
