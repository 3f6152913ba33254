#!/usr/bin/env bash
# tests/kitcc/diag.sh KITCC [--update] — golden-file tests of kitcc's error
# diagnostics: every tests/kitcc/diag/NAME.c must fail to compile with exit
# status 1 (never a signal) and print exactly NAME.err (file:line:col: error:
# message, the source line and the caret). --update rewrites the .err files.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kitcc=${1:?usage: diag.sh KITCC [--update]}
update=${2:-}
cd "$here/diag"
pass=0 fail=0
for c in *.c; do
  name=${c%.c}
  out=$("$kitcc" -c "$c" -o /dev/null 2>&1)
  rc=$?
  if [ "$update" = --update ]; then printf '%s\n' "$out" >"$name.err"; continue; fi
  if [ $rc -ne 1 ]; then
    echo "FAIL $name: exit status $rc (expected 1)"; fail=$((fail + 1)); continue
  fi
  if diff -u "$name.err" <(printf '%s\n' "$out") >/dev/null; then
    pass=$((pass + 1))
  else
    echo "FAIL $name: diagnostics differ"; diff -u "$name.err" <(printf '%s\n' "$out") | head -12
    fail=$((fail + 1))
  fi
done
[ "$update" = --update ] && exit 0
echo "$pass passed, $fail failed"
[ $fail -eq 0 ] && [ $pass -gt 0 ]
