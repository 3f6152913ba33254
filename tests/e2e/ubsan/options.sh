#!/bin/sh
# tests/e2e/ubsan/options.sh — UBSAN_OPTIONS that run.sh cannot see through
# stderr: log_path (reports go to PATH.PID, nothing to stderr),
# print_stacktrace (a frame line after the message); and an instrumented
# shared library whose reports go through the executable's runtime.
set -eu
KITCC=$1
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cat >"$WORK/t.c" <<'C'
#include <stdio.h>
int main(void) {
  volatile int a = 2147483647;
  int x = a + 1;
  printf("%d\n", x);
  return 0;
}
C
cd "$WORK"
"$KITCC" -w -g -fsanitize=undefined -o t t.c
UBSAN_OPTIONS=log_path=$WORK/log ./t >/dev/null 2>err
if [ -s err ]; then echo "FAIL log_path: stderr not empty"; cat err; exit 1; fi
grep -q "^t.c:4:13: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'$" log.* ||
  { echo "FAIL log_path: no report in $WORK/log.*"; exit 1; }
echo "ok   log_path"
UBSAN_OPTIONS=print_stacktrace=1 ./t >/dev/null 2>err
grep -q '^    #0 0x[0-9a-f]* ' err || { echo "FAIL print_stacktrace: no frame line"; cat err; exit 1; }
echo "ok   print_stacktrace"
# an instrumented shared library reports through the executable's runtime
cat >"$WORK/lib.c" <<'C'
int lib_add(int a, int b) { return a + b; }
C
cat >"$WORK/main.c" <<'C'
#include <stdio.h>
int lib_add(int, int);
int main(void) { printf("%d\n", lib_add(2147483647, 1)); return 0; }
C
"$KITCC" -w -g -fPIC -shared -fsanitize=undefined -o libadd.so lib.c
"$KITCC" -w -g -fsanitize=undefined -o main main.c -L. -ladd -Wl,-rpath,"$WORK"
./main >/dev/null 2>err
grep -q "^lib.c:1:38: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'$" err ||
  { echo "FAIL shared library"; cat err; exit 1; }
echo "ok   shared library"
