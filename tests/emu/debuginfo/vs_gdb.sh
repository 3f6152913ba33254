#!/usr/bin/env bash
# tests/emu/debuginfo/vs_gdb.sh LINE_ADDRS GUEST_DIR — for every source line
# and every function defined in the guest programs (built by riscv64 gcc -g at
# -O0 and -O2, PIE), the addresses kit_debuginfo_line_addrs and
# kit_debuginfo_function_addrs choose must be the locations gdb-multiarch
# gives `break FILE:LINE` and `break FUNC` on the same binary (lines without
# code move to the next line with code in both; lines past the last have none;
# a function gets its out-of-line copy past the prologue and its inlined copies).
# 77 without the cross compiler or gdb-multiarch.
set -uo pipefail
tool=${1:?usage: vs_gdb.sh LINE_ADDRS GUEST_DIR}
guests=${2:?usage: vs_gdb.sh LINE_ADDRS GUEST_DIR}
command -v riscv64-linux-gnu-gcc >/dev/null && command -v gdb-multiarch >/dev/null || { echo "no cross gcc or gdb-multiarch"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
for src in "$guests"/*.c; do
  name=$(basename "$src")
  n=$(wc -l <"$src")
  lines=$(seq 1 "$n")
  for opt in -O0 -O2; do
    bin="$work/${name%.c}$opt"
    riscv64-linux-gnu-gcc -g $opt "$src" -o "$bin" 2>/dev/null || { echo "skip $name $opt: does not build"; continue; }
    funcs=$(sed -nE 's/^[A-Za-z_][A-Za-z0-9_ *]*[ *]([A-Za-z_][A-Za-z0-9_]*)\([^;]*\) *\{.*/\1/p' "$src" | sort -u)
    for kind in lines funcs; do
    args=()
    if [ $kind = lines ]; then keys=$lines; else keys=$funcs; fi
    for l in $keys; do
      if [ $kind = lines ]; then args+=(-ex "break $name:$l"); else args+=(-ex "break $l"); fi
      args+=(-ex "echo ==$l==\\n")
    done
    gdb-multiarch -nx -batch "${args[@]}" -ex 'info breakpoints' "$bin" >"$work/gdb.out" 2>&1
    if [ $kind = lines ]; then "$tool" "$bin" "$name" $lines; else "$tool" "$bin" --func $funcs; fi >"$work/kit.out" ||
      { echo "FAIL $name $opt: line_addrs failed"; fail=$((fail + 1)); continue; }
    python3 - "$work/gdb.out" "$work/kit.out" "$name $opt $kind" <<'PY' && pass=$((pass + 1)) || fail=$((fail + 1))
import re, sys
gdb, kit, what = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
# which breakpoint number each requested line made
bp_of, pending = {}, []
for line in gdb.splitlines():
    m = re.match(r"Breakpoint (\d+) at ", line)
    if m: pending.append(int(m.group(1)))
    m = re.match(r"==(\w+)==$", line)
    if m:
        if pending: bp_of[m.group(1)] = pending[-1]
        pending = []
addrs, cur = {}, None
for line in gdb.splitlines():
    m = re.match(r"(\d+)(\.\d+)?\s+(breakpoint\s+keep\s+)?y?\s*(0x[0-9a-f]+|<MULTIPLE>)", line)
    if not m: continue
    num = int(m.group(1))
    if m.group(4) != "<MULTIPLE>":
        addrs.setdefault(num, set()).add(int(m.group(4), 16))
want = {l: addrs.get(b, set()) for l, b in bp_of.items()}
bad = 0
for line in kit.splitlines():
    l, _, rest = line.partition(":")
    got = {int(a, 16) for a in rest.split()}
    if got != want.get(l, set()):
        bad += 1
        if bad <= 5:
            print("FAIL %s %s: kit %s, gdb %s" % (what, l, sorted(map(hex, got)), sorted(map(hex, want.get(l, set())))))
n = len(kit.splitlines())
print("%s: %d of %d as gdb" % (what, n - bad, n))
sys.exit(1 if bad else 0)
PY
    done
  done
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
