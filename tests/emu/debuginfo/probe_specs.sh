#!/usr/bin/env bash
# tests/emu/debuginfo/probe_specs.sh PROBE_RESOLVE GUEST_DIR — --probe
# specifications on a riscv64 gcc -O2 build of tier2.c: FUNC and FILE:LINE
# where gdb-multiarch's break puts them (inlined copies included), FUNC+0xOFF
# at the symbol (nm) plus the offset, FUNC%return at the entry, :print lists,
# and every malformed or unresolvable spec refused with a message.
set -uo pipefail
tool=${1:?usage: probe_specs.sh PROBE_RESOLVE GUEST_DIR}
guests=${2:?}
command -v riscv64-linux-gnu-gcc >/dev/null && command -v gdb-multiarch >/dev/null || exit 77
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/tier2
riscv64-linux-gnu-gcc -g -O2 "$guests/tier2.c" -o "$bin" || exit 1
pass=0 fail=0
ok() { if "${@:2}"; then pass=$((pass + 1)); else echo "FAIL $1"; fail=$((fail + 1)); fi; }
gdb_addrs() { gdb-multiarch -nx -batch -ex "break $1" -ex 'info breakpoints' "$bin" 2>&1 |
  grep -oE '0x[0-9a-f]{16}' | sed -E 's/^0x0*/0x/' | sort -u | tr '\n' ' ' | sed 's/ $//'; }
kit() { "$tool" "$bin" "$1" | sed -E 's/^[^>]*-> [a-z]+ ?//; s/ \[print.*//'; }
for f in biased mix main; do
  ok "FUNC $f as gdb's break" [ "$(kit $f | tr ' ' '\n' | sort -u | tr '\n' ' ' | sed 's/ $//')" = "$(gdb_addrs $f)" ]
done
ok "FILE:LINE as gdb's break" [ "$(kit tier2.c:41 | tr ' ' '\n' | sort -u | tr '\n' ' ' | sed 's/ $//')" = "$(gdb_addrs tier2.c:41)" ]
sym=$(riscv64-linux-gnu-nm "$bin" | awk '$3 == "mix" {print $1}')
ok "FUNC+0x4 is the symbol + 4" [ "$(kit mix+0x4)" = "$(printf '0x%x' $((0x$sym + 4)))" ]
ok "FUNC+8 decimal" [ "$(kit mix+8)" = "$(printf '0x%x' $((0x$sym + 8)))" ]
ok "FUNC%return armed at the entry" [ "$(kit mix%return)" = "$(printf '0x%x' $((0x$sym)))" ]
ok ":print names registers" bash -c "\"$tool\" \"$bin\" 'mix:print a0,a1,sp' | grep -q '\[print a0 a1 sp\]\$'"
ok "FILE:LINE with :print" bash -c "\"$tool\" \"$bin\" 'tier2.c:41:print a0' | grep -q -- '-> line 0x.*\[print a0\]\$'"
for bad in "nosuchfn" "mix+0x100000" "tier2.c:100000" "mix+" "mix%entry" "tier2.c:0" "mix:print" "mix:print a0," "1abc" ""; do
  out=$("$tool" "$bin" "$bad")
  ok "refused: '$bad' ($out)" grep -q ' !! ' <<<"$out"
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
