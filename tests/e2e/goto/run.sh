#!/bin/sh
# tests/e2e/goto/run.sh — GNU labels as values end to end: vm.c (a
# computed-goto interpreter: a static table of label addresses, label
# differences, a local label array, goto * out of a statement expression)
# built by kitcc must print what gcc's build prints
#  1. at -O0 and -O2;
#  2. under -fsanitize=address and -fsanitize=undefined, with no report;
#  3. under -fsanitize-coverage=trace-pc-guard with cov_hooks.c's callbacks:
#     a guard call on at least every dispatch (each lands in a handler block,
#     an indirectbr successor);
#  4. -DBUG_ASAN (a store past a stack array in a handler) must be reported as
#     a stack-buffer-overflow in run(), and -DBUG_UBSAN (a signed overflow in a
#     handler) as a signed integer overflow at its line;
#  5. one indirectbr per function in the LLVM IR (clang's indirect-goto block).
#   run.sh KITCC
set -u
KITCC=$1
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

gcc -O2 -o "$WORK/ref" "$HERE/vm.c" && "$WORK/ref" >"$WORK/want" || { echo "FAIL: gcc reference build"; exit 1; }

build_run() { # NAME FLAGS...: build with kitcc, run; stdout in NAME.out, stderr in NAME.err
  name=$1
  shift
  if ! "$KITCC" "$@" -o "$WORK/$name" "$HERE/vm.c" 2>"$WORK/$name.cc"; then
    bad "$name: kitcc failed: $(head -c 300 "$WORK/$name.cc")"
    return 1
  fi
  "$WORK/$name" >"$WORK/$name.out" 2>"$WORK/$name.err"
}

for cfg in "O0:-O0" "O2:-O2" "asan_O0:-O0 -fsanitize=address" "asan_O2:-O2 -fsanitize=address" \
           "ubsan_O0:-O0 -fsanitize=undefined" "ubsan_O2:-O2 -fsanitize=undefined"; do
  name=${cfg%%:*}
  # shellcheck disable=SC2086
  build_run "$name" ${cfg#*:} || continue
  if cmp -s "$WORK/want" "$WORK/$name.out" && [ ! -s "$WORK/$name.err" ]; then ok "$name"; else
    bad "$name: output differs from gcc's or a report was printed"
    diff "$WORK/want" "$WORK/$name.out" | head -5
    head -5 "$WORK/$name.err"
  fi
done

steps=$(sed -n 's/^packed [01] round [0-9]: steps \([0-9]*\) .*/\1/p' "$WORK/want" | awk '{s += $1} END {print s + 0}')
for o in -O0 -O2; do
  name=cov$o
  if ! "$KITCC" $o -c -o "$WORK/hooks.o" "$HERE/cov_hooks.c" ||
     ! "$KITCC" $o -fsanitize-coverage=trace-pc-guard -o "$WORK/$name" "$HERE/vm.c" "$WORK/hooks.o"; then
    bad "$name: build failed"
    continue
  fi
  "$WORK/$name" >"$WORK/$name.out" 2>"$WORK/$name.err"
  calls=$(sed -n 's/^coverage: guards [0-9]* reached [0-9]* calls \([0-9]*\)$/\1/p' "$WORK/$name.err")
  if cmp -s "$WORK/want" "$WORK/$name.out" && [ -n "$calls" ] && [ "$steps" -gt 0 ] && [ "$calls" -ge "$steps" ]; then
    ok "$name ($calls guard calls for $steps dispatches)"
  else
    bad "$name: $(cat "$WORK/$name.err") (dispatches: $steps)"
  fi
done

# 5. clang's shape: every `goto *` of a function branches to one indirect-goto
#    block (a phi of the addresses and the only indirectbr), which LLVM's
#    codegen duplicates into the sites where that pays
if "$KITCC" -O0 -S -emit-llvm -o "$WORK/vm.ll" "$HERE/vm.c"; then
  shape=$(awk '/^define/ { match($0, /@[^(]*/); f = substr($0, RSTART, RLENGTH) } /indirectbr/ { n[f]++ } END { for (k in n) printf "%s%s", (n[k] == 1 ? "" : k " has " n[k] " "), "" }' "$WORK/vm.ll")
  sites=$(grep -c 'indirectbr' "$WORK/vm.ll")
  if [ -z "$shape" ] && [ "$sites" -ge 2 ]; then ok "one indirectbr per function ($sites functions)"; else
    bad "indirect-goto shape: ${shape:-only $sites indirectbr}"
  fi
else
  bad "kitcc -S -emit-llvm failed"
fi

build_run bug_asan -O1 -fsanitize=address -DBUG_ASAN
if grep -q "ERROR: AddressSanitizer: stack-buffer-overflow" "$WORK/bug_asan.err" && grep -q " in run " "$WORK/bug_asan.err"; then
  ok bug_asan
else
  bad "bug_asan: no stack-buffer-overflow in run reported"
  head -5 "$WORK/bug_asan.err"
fi

line=$(grep -n 'overflows for x > 1' "$HERE/vm.c" | cut -d: -f1)
build_run bug_ubsan -O1 -fsanitize=undefined -DBUG_UBSAN
if grep -q "vm.c:$line:[0-9]*: runtime error: signed integer overflow" "$WORK/bug_ubsan.err"; then ok bug_ubsan; else
  bad "bug_ubsan: no signed integer overflow reported at vm.c:$line"
  head -5 "$WORK/bug_ubsan.err"
fi
exit $fail
