#!/usr/bin/env bash
# run.sh CC [CASE.c...] — compiles each case of tests/e2e/asan/cases with
# `CC -g -fsanitize=address`, runs it and checks it: a bug case must exit
# nonzero and its normalised stderr must contain every "// CHECK: " line of the
# file; a "// CLEAN" case must exit 0 with no sanitizer output. An
# "// ASAN_OPTIONS: ..." line sets ASAN_OPTIONS. Prints "N passed, M failed".
# KEEP=DIR keeps the binaries and reports there (compare_clang.sh uses it);
# EXTRA_CFLAGS (e.g. -O2) are passed to the compiler.
set -u
cc=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
cases=("$@")
[[ ${#cases[@]} -eq 0 ]] && cases=("$here"/cases/*.c)
if [[ -n ${KEEP:-} ]]; then work=$KEEP; mkdir -p "$work"; else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
pass=0 fail=0
for src in "${cases[@]}"; do
  name=$(basename "$src" .c)
  bin=$work/$name
  # shellcheck disable=SC2086
  if ! "$cc" ${EXTRA_CFLAGS:-} -g -fsanitize=address "$src" -o "$bin" 2>"$work/$name.cc"; then
    echo "FAIL [$name]: compile error"; sed 's/^/    /' "$work/$name.cc" | head -5; fail=$((fail + 1)); continue
  fi
  opts=$(sed -n 's|^// ASAN_OPTIONS: ||p' "$src")
  ASAN_OPTIONS=$opts timeout 60 "$bin" >/dev/null 2>"$work/$name.err"
  rc=$?
  echo "$rc" >"$work/$name.rc"
  "$here/normalize.sh" <"$work/$name.err" >"$work/$name.norm"
  why=""
  if grep -q '^// CLEAN' "$src"; then
    [[ $rc -ne 0 ]] && why="exit status $rc"
    grep -qE 'ERROR|WARNING|Sanitizer' "$work/$name.err" && why="$why; unexpected report"
  else
    [[ $rc -eq 0 ]] && why="exit status 0"
    [[ $rc -ge 124 ]] && why="exit status $rc"
    while IFS= read -r want; do
      grep -qF -- "$want" "$work/$name.norm" || why="$why; missing: $want"
    done < <(sed -n 's|^// CHECK: ||p' "$src")
  fi
  if [[ -z $why ]]; then
    pass=$((pass + 1)); echo "ok   [$name]"
  else
    fail=$((fail + 1)); echo "FAIL [$name]: ${why#; }"
  fi
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
