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

# The options a test asks for in its DejaGnu lines, as gcc's own runner adds them:
# `{ dg-options "-fwrapv" }`, `{ dg-options { "-fwrapv" } }`, and
# `{ dg-additional-options "-fpic" { target fpic } }`, the last only when its
# target selector holds on x86-64 Linux (fpic, lp64, x86_64/i?86 triples; a
# negated selector such as `{ ! signal }`, or ia32, does not hold here).
dg_options() {
  sed -n 's/.*{ *dg-\(additional-\)\{0,1\}options *{\{0,1\} *"\([^"]*\)" *}\{0,1\} *\(.*\)}.*/\2|\3/p' "$1" |
    while IFS='|' read -r flags sel; do
      case "$sel" in
        "") echo "$flags" ;;
        *!*|*ia32*) ;;
        *"target"*fpic*|*"target"*lp64*|*"target"*x86_64-*|*"target"*i?86-*) echo "$flags" ;;
      esac
    done | tr '\n' ' '
}
export -f dg_options

run_one() {
  local name=$1 cc=$2 opt=$3 exec_dir=$4 work=$5
  local exe="$work/$name.exe"
  local extra
  extra=$(dg_options "$exec_dir/$name.c")
  if ! timeout 60 $cc $opt -w -fno-strict-aliasing $extra "$exec_dir/$name.c" -o "$exe" -lm >"$work/$name.cc.log" 2>&1; then
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
