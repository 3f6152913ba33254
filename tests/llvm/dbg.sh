#!/usr/bin/env bash
# tests/llvm/dbg.sh KIT_CG — emit dbg.cg with -g, link it with gcc, and check
# that the DWARF line table maps its code to the CG file:line locations.
set -euo pipefail
kitcg=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for opt in -O0 -O2; do
  "$kitcg" emit -g $opt -o "$tmp/dbg.o" "$here/dbg.cg"
  gcc "$here/dbg_driver.c" "$tmp/dbg.o" -o "$tmp/dbg"
  "$tmp/dbg"
  lines=$(objdump --dwarf=decodedline "$tmp/dbg" | awk '$1=="dbg.c"||$1=="inc.h"{print $1":"$2}' | sort -u)
  for want in dbg.c:4 dbg.c:5 inc.h:7; do
    grep -qx "$want" <<<"$lines" || { echo "dbg.sh: $opt: no line entry $want in:"; echo "$lines"; exit 1; }
  done
  addr=$(nm "$tmp/dbg" | awk '$3=="dbg_add"{print $1}')
  loc=$(addr2line -e "$tmp/dbg" "$addr")
  [[ "$loc" == *dbg.c:3 ]] || { echo "dbg.sh: $opt: addr2line dbg_add gives $loc"; exit 1; }
  # guest-pc locations carry no source line
  addr=$(nm "$tmp/dbg" | awk '$3=="lifted"{print $1}')
  loc=$(addr2line -e "$tmp/dbg" "$addr")
  [[ "$loc" == "??:"* ]] || { echo "dbg.sh: $opt: addr2line lifted gives $loc"; exit 1; }
done
# the debug-info side table (tests/cgtext/good/debug.cg): valid DWARF with the
# variables where the CG says, incl. the frame offsets ASan's rebinding makes
"$kitcg" emit -g -O0 -o "$tmp/vars.o" "$here/../cgtext/good/debug.cg"
llvm-dwarfdump-16 --verify "$tmp/vars.o" >"$tmp/verify.out" || { cat "$tmp/verify.out"; exit 1; }
info=$(llvm-dwarfdump-16 --debug-info "$tmp/vars.o")
for want in '"counter"' '"node_t"' 'DW_AT_bit_size	(0x03)' 'DW_OP_deref, DW_OP_plus_uconst 0x20' \
            'DW_OP_plus_uconst 0x30' 'DW_AT_count	(0x0a)' 'DW_OP_fbreg +16'; do
  grep -qF "$want" <<<"$info" || { echo "dbg.sh: no $want in the DWARF of debug.cg"; echo "$info"; exit 1; }
done
echo "dbg.sh: ok"
