#!/usr/bin/env bash
# tests/cgtext/run_cases.sh — runs the CG text cases. good/*.cg must parse,
# verify clean and round-trip byte for byte; bad/*.cg must fail (parser or
# verifier, never a crash) with the message named on the first line:
#   ; expect: <substring>
set -u
tool=$1 dir=$2
fail=0 n=0
for f in "$dir"/good/*.cg; do
  n=$((n + 1))
  out=$("$tool" verify "$f" 2>&1); rc=$?
  if [ $rc -ne 0 ]; then echo "FAIL $f: does not verify (rc $rc)"; echo "$out"; fail=1; continue; fi
  out=$("$tool" roundtrip "$f" 2>&1); rc=$?
  if [ $rc -ne 0 ]; then echo "FAIL $f: round trip (rc $rc)"; echo "$out"; fail=1; fi
done
for f in "$dir"/bad/*.cg; do
  n=$((n + 1))
  expect=$(head -n 1 "$f" | sed -n 's/^; expect: //p')
  if [ -z "$expect" ]; then echo "FAIL $f: first line has no '; expect: '"; fail=1; continue; fi
  out=$("$tool" check "$f" 2>&1); rc=$?
  if [ $rc -ge 128 ] || [ $rc -eq 2 ]; then echo "FAIL $f: crashed or misused the tool (rc $rc)"; fail=1; continue; fi
  if [ $rc -eq 0 ]; then echo "FAIL $f: accepted, expected: $expect"; fail=1; continue; fi
  if ! grep -qF -- "$expect" <<<"$out"; then
    echo "FAIL $f: expected '$expect', got:"; echo "$out"; fail=1
  fi
done
echo "$n cases, $([ $fail -eq 0 ] && echo all passed || echo failures)"
exit $fail
