#!/usr/bin/env bash
# tests/kitcc/vs-gcc.sh KITCC [NAME...] — programs whose output is gcc's: each
# vs-gcc/NAME.c is built by gcc and by kitcc at -O0 and at -O2 (plus the flags
# of a `// flags: ...` line in it), run, and the two stdouts and exit statuses
# compared. The programs print what they compute; nothing is expected by hand.
set -uo pipefail
kitcc=$1; shift
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(cd "$here/vs-gcc" && ls *.c | sed 's/\.c$//'))
pass=0 fail=0
for n in "${names[@]}"; do
  src="$here/vs-gcc/$n.c"
  extra=$(sed -n 's|^// flags: *||p' "$src" | head -n1)
  ok=1
  for opt in -O0 -O2; do
    # shellcheck disable=SC2086
    gcc -w $opt $extra "$src" -o "$work/gcc.exe" -lm || { echo "FAIL $n $opt: gcc cannot build it"; ok=0; continue; }
    # shellcheck disable=SC2086
    if ! "$kitcc" -w $opt $extra "$src" -o "$work/kit.exe" -lm 2>"$work/kit.err"; then
      echo "FAIL $n $opt: kitcc: $(head -n1 "$work/kit.err")"; ok=0; continue
    fi
    "$work/gcc.exe" >"$work/gcc.out" 2>&1; g=$?
    "$work/kit.exe" >"$work/kit.out" 2>&1; k=$?
    if [ $g -ne $k ] || ! cmp -s "$work/gcc.out" "$work/kit.out"; then
      echo "FAIL $n $opt: exit $k (gcc $g)"; diff "$work/gcc.out" "$work/kit.out" | head -n 6; ok=0
    fi
  done
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
