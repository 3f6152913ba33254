#!/usr/bin/env bash
# compare_clang.sh KITCC [MIN_MATCH] — compiles the corpus of tests/e2e/asan/cases
# with kitcc and with clang-16 (both `-g -fsanitize=address`, via run.sh), runs
# both, and compares per program the verdict (exit status zero or not) and the
# normalised report shape: the error line, READ/WRITE line, frames #0 and #1,
# region descriptions, the stack frame's function and object lines, leak lines,
# signal hints and SUMMARY. Prints "same" or the differing lines per program, then
# "N of M programs match exactly"; fails when fewer than MIN_MATCH match.
set -u
kitcc=$1 min=${2:-0}
here=$(cd "$(dirname "$0")" && pwd)
command -v clang-16 >/dev/null || { echo "SKIP: clang-16 not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
KEEP=$tmp/kit "$here/run.sh" "$kitcc" >"$tmp/kit.log" 2>&1
KEEP=$tmp/ref "$here/run.sh" clang-16 >"$tmp/ref.log" 2>&1

shape() { # normalised report -> the lines compared
  sed -E -e 's/\(([^()]*)\+0xADDR\)/(MODULE)/g' "$1" | awk '
    /ERROR: (AddressSanitizer|LeakSanitizer)/ { print; next }
    /^(READ|WRITE) of size/ { print; next }
    /^ +#0 / && !s0 { print; s0 = 1; next }
    /^ +#1 / && !s1 { print; s1 = 1; next }
    /is located in stack of thread .* in frame$/ { print; frame = 1; next }
    frame && /^ +#0 / { print "frame " $0; frame = 0; next }
    /is located/ { print; next }
    /This frame has/ { print; next }
    /^ +\[[0-9]+, [0-9]+\) / { print; next }
    /^(Direct|Indirect) leak/ { print; next }
    /caused by a|Hint: address/ { print; next }
    /^(freed|previously allocated|allocated) by thread/ { print; next }
    /^SUMMARY:/ { print; next }'
}

same=0 total=0
for src in "$here"/cases/*.c; do
  name=$(basename "$src" .c)
  total=$((total + 1))
  kv=bug rv=bug
  [[ $(cat "$tmp/kit/$name.rc" 2>/dev/null) == 0 ]] && kv=clean
  [[ $(cat "$tmp/ref/$name.rc" 2>/dev/null) == 0 ]] && rv=clean
  shape "$tmp/kit/$name.norm" >"$tmp/$name.kit" 2>/dev/null
  shape "$tmp/ref/$name.norm" >"$tmp/$name.ref" 2>/dev/null
  if [[ $kv == "$rv" ]] && cmp -s "$tmp/$name.kit" "$tmp/$name.ref"; then
    same=$((same + 1))
    echo "same    [$name] $kv, $(wc -l <"$tmp/$name.kit") lines"
  else
    echo "differs [$name] verdict kitcc=$kv clang=$rv"
    diff "$tmp/$name.ref" "$tmp/$name.kit" | grep '^[<>]' | sed -e 's/^</    clang:/' -e 's/^>/    kitcc:/'
  fi
done
echo "$same of $total programs match exactly"
[[ $same -ge $min ]]
