#!/bin/sh
# tests/e2e/coverage/run.sh — SanitizerCoverage end to end:
#  1. user_guard.c: the program's own trace-pc-guard and pc-table callbacks see
#     every guard numbered, one pc-table entry per guard, both functions, some
#     guards hit and some not;
#  2. user_hooks.c: inline-8bit-counters, inline-bool-flag, trace-cmp,
#     trace-div, trace-gep reach the program's hooks (same facts as clang-16);
#  3. lines.c: built with trace-pc-guard, run with KIT_COVERAGE=1, the .sancov
#     turned into lcov by kit-cov; the function and line counts must be what
#     the program executed (lines.expected), and genhtml (Debian's lcov) must
#     accept the file when it is installed;
#  4. a kit-cov range file (the emulator's input form) gives main's lines its count.
#   run.sh KITCC KIT-COV
set -u
KITCC=$1
KITCOV=$2
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

# at -O2 the callbacks are inlined into the instrumented code and nothing reads
# the guard array but the init call through __start___sancov_guards: the array
# must survive (clang keeps it with llvm.compiler.used)
for opt in -O0 -O2; do
  out=$("$KITCC" -g $opt -fsanitize-coverage=trace-pc-guard,pc-table -o "$WORK/ug" "$HERE/user_guard.c" 2>&1 && "$WORK/ug")
  if echo "$out" | grep -Eq '^guards ([0-9]+) pcs \1 funcs 2 hit>0 1 hit<guards 1$'; then ok "user_guard $opt"; else
    bad "user_guard $opt"
    echo "$out" | sed 's/^/    /'
  fi
done

flags=-fsanitize-coverage=inline-8bit-counters,inline-bool-flag,trace-cmp,trace-div,trace-gep
want="r 36 counters yes flags yes const42 yes cmp yes switch yes div yes gep yes"
"$KITCC" -g $flags -o "$WORK/uh" "$HERE/user_hooks.c" && out=$("$WORK/uh")
if [ "$out" = "$want" ]; then ok user_hooks; else
  bad user_hooks
  echo "    want: $want"
  echo "    got:  $out"
fi

cp "$HERE/lines.c" "$WORK/lines.c"
cd "$WORK"
"$KITCC" -g -fsanitize-coverage=trace-pc-guard -o lines lines.c
KIT_COVERAGE=1 ./lines >/dev/null 2>sancov.log
if ! grep -q 'SanitizerCoverage: \./lines\.[0-9]*\.sancov: [0-9]* PCs written' sancov.log; then
  bad "sancov written"
  sed 's/^/    /' sancov.log
fi
"$KITCOV" -q -o lines.info lines lines.*.sancov || bad kit-cov
grep -E '^(FN|FNDA|DA):' lines.info >got
if diff -u "$HERE/lines.expected" got; then ok "lcov line counts"; else bad "lcov line counts"; fi
# the range-file input (what kit-emu writes): main's whole body run 3 times
set -- $(nm -S lines | awk '$4 == "main" { print $1, $2 }')
printf 'kit-cov ranges v1\n%x %x 3\n' $((0x$1)) $((0x$1 + 0x$2)) >main.ranges
"$KITCOV" -q -o ranges.info lines main.ranges || bad "kit-cov ranges"
if grep -q '^DA:12,3$' ranges.info && grep -q '^FNDA:3,main$' ranges.info && ! grep -q 'never' ranges.info; then
  ok "range file"
else
  bad "range file"
  sed 's/^/    /' ranges.info
fi
if command -v genhtml >/dev/null 2>&1; then
  if genhtml -q -o html lines.info >genhtml.log 2>&1 && [ -f html/index.html ]; then ok genhtml; else
    bad genhtml
    sed 's/^/    /' genhtml.log
  fi
else
  echo "skip genhtml (install Debian's lcov)"
fi
exit $fail
