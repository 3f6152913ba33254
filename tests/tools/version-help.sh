#!/usr/bin/env bash
# tests/tools/version-help.sh BIN_DIR TOOL... — every command-line tool kit
# installs answers --version with "TOOL (kit) VERSION" and --help with a whole
# usage text on standard output, both with exit status 0, as GNU tools do
# (kitcc answers "kitcc version N (...)" in clang's form).
set -uo pipefail
bin=$1; shift
pass=0 fail=0
for t in "$@"; do
  ok=1
  v=$("$bin/$t" --version 2>/dev/null); rc=$?
  [ $rc -eq 0 ] && grep -Eq "^$t (\(kit\)|version) [0-9]" <<<"$v" || { echo "FAIL $t --version: rc $rc, '$v'"; ok=0; }
  h=$("$bin/$t" --help 2>/dev/null); rc=$?
  [ $rc -eq 0 ] && [ "$(wc -l <<<"$h")" -ge 3 ] && grep -qi "usage" <<<"$h" ||
    { echo "FAIL $t --help: rc $rc, $(wc -l <<<"$h") lines on stdout"; ok=0; }
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
