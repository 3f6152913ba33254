#!/usr/bin/env bash
# compare_clang.sh KITCC [CASE.c...] — builds each program of cases/ (or the
# ones named) with kitcc and with clang-16, both `-g -fsanitize=memory` at -O0
# and at -O2, runs them, and compares per build: whether MemorySanitizer
# reported, and if so the first frame's function and file:line. A clean_*
# program must give no report with either compiler; a bug_* program must give
# one with clang. Prints one line per program and level, then the agreement
# figures; fails on any disagreement.
set -u
kitcc=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
command -v clang-16 >/dev/null || { echo "SKIP: clang-16 not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=("$here"/cases/*.c)

# the verdict of one run's stderr: "clean" or "FUNC FILE:LINE" of frame #0
verdict() {
  if ! grep -q 'WARNING: MemorySanitizer: use-of-uninitialized-value' "$1"; then
    echo clean
    return
  fi
  sed -nE 's/^ +#0 0x[0-9a-f]+ in ([^ ]+) (.*\/)?([^/ :]+):([0-9]+)(:[0-9]+)?$/\1 \3:\4/p' "$1" | head -1
}

# build_run CC OPT SRC OUT: the verdict, "build-failed" or "no-frame"
build_run() {
  local cc=$1 opt=$2 src=$3 out=$4
  if ! "$cc" -g -"$opt" -fsanitize=memory "$src" -o "$out" -lm 2>"$out.cc"; then
    echo build-failed
    return
  fi
  (cd "$tmp" && timeout 20 "$out" >/dev/null 2>"$out.err" </dev/null)
  echo $? >"$out.rc"
  local v
  v=$(verdict "$out.err")
  echo "${v:-no-frame}"
}

fails=0
for opt in O0 O2; do
  agree=0 total=0
  for src in "${cases[@]}"; do
    name=$(basename "$src" .c)
    total=$((total + 1))
    ref=$(build_run clang-16 "$opt" "$src" "$tmp/$name.$opt.ref")
    kit=$(build_run "$kitcc" "$opt" "$src" "$tmp/$name.$opt.kit")
    ok=1
    [[ $kit == "$ref" ]] || ok=0
    case $name in
    clean_*) [[ $ref == clean ]] || ok=0 ;;
    bug_*) [[ $ref != clean ]] || ok=0 ;;
    esac
    if [[ $ok == 1 ]]; then
      agree=$((agree + 1))
      echo "same    -$opt [$name] $ref"
    else
      echo "differs -$opt [$name] clang: $ref / kitcc: $kit"
      sed -e 's/^/    kitcc: /' "$tmp/$name.$opt.kit.err" "$tmp/$name.$opt.kit.cc" 2>/dev/null | head -12
    fi
  done
  echo "-$opt: kitcc agrees with clang-16 on $agree of $total programs"
  [[ $agree == "$total" ]] || fails=$((fails + 1))
done
[[ $fails == 0 ]]
