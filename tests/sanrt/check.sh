#!/usr/bin/env bash
# check.sh BIN CASE RC OPTIONS PATTERN... — runs "BIN CASE" with ASAN_OPTIONS=OPTIONS
# and asserts its exit status is RC and each extended regex PATTERN matches a line
# of the report (a leading '!' means: must match no line). With log_path=P in
# OPTIONS the report is read from P.<pid> and stderr must not hold it.
set -u
bin=$1 case=$2 want_rc=$3 opts=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
opts=${opts//@TMP@/$tmp}
ASAN_OPTIONS=$opts "$bin" "$case" >"$tmp/out" 2>"$tmp/err"
rc=$?
report="$tmp/err"
if [[ $opts == *log_path=* ]]; then
  logs=("$tmp"/log.*)
  if [[ ! -f ${logs[0]} ]]; then echo "FAIL: no log file written for log_path"; exit 1; fi
  if grep -q "ERROR: AddressSanitizer" "$tmp/err"; then echo "FAIL: report also on stderr"; exit 1; fi
  report=${logs[0]}
  [[ ${logs[0]} =~ log\.[0-9]+$ ]] || { echo "FAIL: log name ${logs[0]} is not log.PID"; exit 1; }
fi
fail=0
if [[ $rc != "$want_rc" ]]; then echo "FAIL: exit status $rc, expected $want_rc"; fail=1; fi
for pat in "$@"; do
  if [[ $pat == !* ]]; then
    if grep -qE -- "${pat:1}" "$report"; then echo "FAIL: unexpected line matching: ${pat:1}"; fail=1; fi
  elif ! grep -qE -- "$pat" "$report"; then
    echo "FAIL: no line matching: $pat"; fail=1
  fi
done
if [[ $fail != 0 ]]; then echo "---- report ----"; cat "$report"; fi
exit $fail
