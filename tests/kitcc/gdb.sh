#!/usr/bin/env bash
# tests/kitcc/gdb.sh KITCC [KIT_CG] — kitcc -g debug info read by a real gdb: breaks on
# lines of gdb/prog.c (and gdb/peer.c), prints locals, parameters, globals,
# statics and types, and compares with gdb/expected.txt (each expected line
# must appear, in order). Three builds: kitcc -g -O0; the same with
# -fsanitize=address (locals moved into ASan's frame); peer.c by gcc -g linked
# with kitcc's object. The objects must pass llvm-dwarfdump-16 --verify, and
# (given KIT_CG) the CG with its debug records must print, parse and verify
# back to the same text.
set -euo pipefail
kitcc=$1 kitcg=${2:-}
here=$(cd "$(dirname "$0")/gdb" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
command -v gdb >/dev/null || { echo "gdb.sh: gdb not installed (scripts/deps.sh)"; exit 1; }
# @INNER@ @WALK@ @CALL@ @START@ @PEER@ in the commands and the expected output: the
# lines marked "BREAK inner" etc. in the sources
line_of() { grep -n "BREAK $1" "$here/$2" | cut -d: -f1; }
lines=(-e "s/@INNER@/$(line_of inner prog.c)/g" -e "s/@WALK@/$(line_of walk prog.c)/g"
       -e "s/@CALL@/$(line_of call prog.c)/g" -e "s/@START@/$(line_of start prog.c)/g" -e "s/@PEER@/$(line_of peer peer.c)/g")
sed "${lines[@]}" "$here/cmds.gdb.in" > "$work/cmds.gdb"
sed "${lines[@]}" "$here/expected.txt" > "$work/expected.txt"
cd "$here" # gdb and the objects name the sources relative to here

check() { # NAME BINARY
  local out="$work/$1.out"
  gdb -batch -nx -x "$work/cmds.gdb" "$2" > "$out" 2>&1 || { echo "FAIL $1: gdb failed"; cat "$out"; exit 1; }
  if grep -E "No symbol|Error in sourced" "$out"; then echo "FAIL $1: gdb errors"; exit 1; fi
  awk 'BEGIN { n = k = 0 } NR == FNR { want[n++] = $0; next } k < n && $0 == want[k] { k++ }
       END { if (k < n) { print "missing (in order): " want[k]; exit 1 } }' "$work/expected.txt" "$out" ||
    { echo "FAIL $1: gdb output:"; cat "$out"; exit 1; }
  echo "ok $1"
}

verify_dwarf() { # OBJECT
  llvm-dwarfdump-16 --verify "$1" > "$work/verify.out" 2>&1 || { echo "FAIL: dwarfdump --verify $1"; cat "$work/verify.out"; exit 1; }
}

"$kitcc" -g -O0 -c prog.c -o "$work/prog.o"
verify_dwarf "$work/prog.o"
"$kitcc" -g -O0 prog.c peer.c -o "$work/plain"
check plain "$work/plain"

"$kitcc" -g -O0 -fsanitize=address -c prog.c -o "$work/prog_asan.o"
verify_dwarf "$work/prog_asan.o"
"$kitcc" -g -O0 -fsanitize=address prog.c peer.c -o "$work/asan"
check asan "$work/asan"
ASAN_OPTIONS=detect_stack_use_after_return=1 check asan_fake_stack "$work/asan"

for flags in "" "-fsanitize=address"; do
  [ -n "$kitcg" ] || break
  # shellcheck disable=SC2086
  "$kitcc" -g -O0 $flags -S -emit-cg prog.c -o "$work/prog.cg"
  "$kitcg" print "$work/prog.cg" > "$work/reprint.cg"
  cmp -s "$work/prog.cg" "$work/reprint.cg" ||
    { echo "FAIL: CG text round trip ($flags)"; diff "$work/prog.cg" "$work/reprint.cg" | head; exit 1; }
  echo "ok cg_text_round_trip $flags"
done

gcc -g -O0 -c peer.c -o "$work/peer_gcc.o"
"$kitcc" "$work/prog.o" "$work/peer_gcc.o" -o "$work/mixed"
check gcc_peer "$work/mixed"
echo "gdb.sh: all passed"
