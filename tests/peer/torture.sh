#!/usr/bin/env bash
# tests/peer/torture.sh — the GCC torture execute suite (gcc.c-torture/execute
# from Debian's gcc-12-source, extracted at run time, never committed) compiled
# by a compiler and run. Prints a line per failure and `N passed, M failed`.
#
#   tests/peer/torture.sh [--cc "kitcc"] [--opt -O2] [--list FILE] [--jobs N] [--out DIR]
#
# --list restricts the run to the test names in FILE (one per line, e.g. the
# CI subset tests/peer/torture-ci.txt); tests/peer/torture-exclude.txt names
# the tests excluded for every compiler, each with its reason.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cc="${KITCC:-$here/../../build/bin/kitcc}"
opt=-O0
list=""
jobs=$(nproc)
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --cc) cc="$2"; shift 2 ;;
    --opt) opt="$2"; shift 2 ;;
    --list) list="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "torture.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

src=$(bash "$here/fetch-gcc-testsuite.sh") || exit 1
exec_dir="$src/gcc.c-torture/execute"
work=${out:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$out" ] || trap 'rm -rf "$work"' EXIT

names=$(cd "$exec_dir" && ls *.c | sed 's/\.c$//')
if [ -n "$list" ]; then names=$(grep -v '^#' "$list" | awk '{print $1}' | grep -v '^$'); fi
excluded=$(grep -v '^#' "$here/torture-exclude.txt" | awk '{print $1}')

run_one() {
  local name=$1 cc=$2 opt=$3 exec_dir=$4 work=$5
  local exe="$work/$name.exe"
  if ! timeout 60 $cc $opt -w -fno-strict-aliasing "$exec_dir/$name.c" -o "$exe" -lm >"$work/$name.cc.log" 2>&1; then
    echo "FAIL $name (compile)"
    return
  fi
  if timeout 10 "$exe" >"$work/$name.run.log" 2>&1; then
    echo "PASS $name"
  else
    echo "FAIL $name (run: exit $?)"
  fi
  rm -f "$exe"
}
export -f run_one

results=$(for n in $names; do
  if echo "$excluded" | grep -qx "$n"; then continue; fi
  [ -f "$exec_dir/$n.c" ] && echo "$n"
done | xargs -P "$jobs" -I{} bash -c 'run_one "$@"' _ {} "$cc" "$opt" "$exec_dir" "$work")
echo "$results" | grep '^FAIL' | sort
pass=$(echo "$results" | grep -c '^PASS' || true)
fail=$(echo "$results" | grep -c '^FAIL' || true)
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
