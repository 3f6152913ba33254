#!/bin/sh
# tests/cpp/run_golden.sh — runs `kit-cpp -P` on every golden/*.c (flags from a
# "// flags:" line) and compares stdout with NAME.out and stderr with NAME.err
# (no .err: stderr must be empty). An .err with "error:" means exit status 1.
# Files named markers_*.c are run without -P, to check gcc-style line markers.
# Usage: run_golden.sh KIT_CPP GOLDEN_DIR [--update]
set -u
cpp=$1
cd "$2" || exit 1
update=${3:-}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for c in *.c; do
  n=${c%.c}
  flags=$(sed -n 's|^// flags: ||p' "$c" | head -n 1)
  # shellcheck disable=SC2086
  p=-P
  case $c in markers_*) p= ;; esac
  "$cpp" $p $flags "$c" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$update" = --update ]; then
    cp "$tmp/out" "$n.out"
    if [ -s "$tmp/err" ]; then cp "$tmp/err" "$n.err"; else rm -f "$n.err"; fi
    continue
  fi
  want_rc=0
  if [ -f "$n.err" ] && grep -q 'error:' "$n.err"; then want_rc=1; fi
  if ! diff -u "$n.out" "$tmp/out"; then echo "FAIL $c: stdout differs"; fail=1; fi
  if [ -f "$n.err" ]; then
    if ! diff -u "$n.err" "$tmp/err"; then echo "FAIL $c: stderr differs"; fail=1; fi
  elif [ -s "$tmp/err" ]; then
    echo "FAIL $c: unexpected diagnostics:"; cat "$tmp/err"; fail=1
  fi
  if [ "$rc" -ne "$want_rc" ]; then echo "FAIL $c: exit status $rc, expected $want_rc"; fail=1; fi
done
[ "$update" = --update ] || [ $fail -ne 0 ] || echo "all golden tests passed"
exit $fail
