#!/usr/bin/env bash
# memcheck_oracle.sh KIT_EMU [-O0|-O2] [CASE.c...] — kit-emu --sanitize=memory
# against Valgrind memcheck, the binary-only definedness checker: each
# program of tests/e2e/msan/cases (or the ones named) is built twice from the
# same source, with riscv64-linux-gnu-gcc -g -static (run under kit-emu
# --sanitize=memory) and with x86-64 gcc -g (run under valgrind memcheck; its
# Debian build runs no riscv64). Per program the verdicts must agree: no
# report from either, or a report from both whose first frame in the
# program's own source is the same function and line (memcheck's first error;
# frames in libc carry no line on either side). Prints one line per program
# and the agreement figures; fails on any disagreement. Two kinds are not
# compared frame for frame, and say so: a program whose x86-64 build the
# CPU itself stops before memcheck sees a use (a division trap: riscv64's
# division does not trap), and programs where x86-64 gcc makes a select
# (cmov) of what riscv64 gcc branches on (isa_select below), so memcheck
# reports the select's later use: both must report, the frames differ.
set -u
isa_select=" bug_ternary_result "
emu=$(realpath "$1")
shift
opt=-O0
if [[ ${1:-} == -O* ]]; then opt=$1; shift; fi
here=$(cd "$(dirname "$0")" && pwd)
cases_dir=$here/../../e2e/msan/cases
for t in riscv64-linux-gnu-gcc gcc valgrind; do
  command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 0; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=("$cases_dir"/*.c)

# "FUNC LINE" of the first frame in file $2 of the report in $1, "clean"
# without a report, "other" for a report with no frame in that file
kit_verdict() {
  grep -q 'WARNING: MemorySanitizer: use-of-uninitialized-value' "$1" || { echo clean; return; }
  local v
  v=$(sed -nE "s/^ +#[0-9]+ 0x[0-9a-f]+ in ([^ ]+) (.*\/)?$2:([0-9]+)(:[0-9]+)?\$/\1 \3/p" "$1" | head -1)
  echo "${v:-other}"
}
vg_verdict() {
  grep -qE '^==[0-9]+== (Conditional jump|Use of uninitialised|Syscall param|Uninitialised byte|Invalid read)' "$1" ||
    { echo clean; return; }
  # the first error's block: its first frame in the program's file
  local v
  v=$(awk '/^==[0-9]+== (Conditional jump|Use of uninitialised|Syscall param|Uninitialised byte|Invalid read)/{on=1; next}
           on && /^==[0-9]+== *$/{exit}
           on {print}' "$1" | sed -nE "s/^==[0-9]+== +(at|by) 0x[0-9A-F]+: ([^ ]+) \\($2:([0-9]+)\\)\$/\2 \3/p" | head -1)
  echo "${v:-other}"
}

agree=0 total=0 notcmp=0
for src in "${cases[@]}"; do
  name=$(basename "$src" .c)
  file=$(basename "$src")
  total=$((total + 1))
  if ! riscv64-linux-gnu-gcc -g $opt -static "$src" -o "$tmp/$name.rv" -lm 2>"$tmp/$name.rv.cc" ||
     ! gcc -g $opt "$src" -o "$tmp/$name.x86" -lm 2>"$tmp/$name.x86.cc"; then
    echo "differs $opt [$name] build failed"; cat "$tmp/$name".*.cc | head -5
    continue
  fi
  (cd "$tmp" && exec 2>/dev/null; timeout 30 valgrind -q --error-limit=no --track-origins=no "./$name.x86" \
     >/dev/null 2>"$name.vg" </dev/null)
  (cd "$tmp" && timeout 30 "$emu" --sanitize=memory "./$name.rv" >/dev/null 2>"$name.kit" </dev/null)
  ref=$(vg_verdict "$tmp/$name.vg" "$file")
  kit=$(kit_verdict "$tmp/$name.kit" "$file")
  if [[ $ref == clean ]] && grep -q 'Process terminating with default action of signal' "$tmp/$name.vg"; then
    notcmp=$((notcmp + 1))
    agree=$((agree + 1))
    echo "n/a     $opt [$name] the x86-64 build dies of a signal first; kit-emu: $kit"
  elif [[ $isa_select == *" $name "* && $ref != clean && $kit != clean ]]; then
    notcmp=$((notcmp + 1))
    agree=$((agree + 1))
    echo "select  $opt [$name] memcheck: $ref / kit-emu: $kit (x86-64 selects where riscv64 branches)"
  elif [[ $kit == "$ref" ]]; then
    agree=$((agree + 1))
    echo "same    $opt [$name] $ref"
  else
    echo "differs $opt [$name] memcheck: $ref / kit-emu: $kit"
    sed -e 's/^/    kit-emu: /' "$tmp/$name.kit" | head -8
    grep -A4 -E '(Conditional jump|Use of uninit|Syscall param)' "$tmp/$name.vg" | head -6 | sed -e 's/^/    memcheck: /'
  fi
done
echo "$opt: kit-emu --sanitize=memory agrees with memcheck on $agree of $total programs ($notcmp of them not frame for frame)"
[[ $agree == "$total" ]]
