#!/usr/bin/env bash
# tests/cg/run.sh BUILD_DIR [NAME...] — the CG differential corpus.
# For every tests/cg/*.cg (or only the NAMEs given): run it with
# `kit-cg run` (interpreter) and `kit-cg jit` (LLVM), compare each against the
# file's `; expect-exit: N` / `; expect: LINE` comments and against each other
# (stdout + exit status), and check the printer/parser round trip
# (print f.cg > a; print a > b; cmp a b; `run a` behaves like `run f.cg`).
# One line per failed check, then
# exactly "N passed, M failed"; exit status 1 when M > 0.
# KIT_CG_TIMEOUT (seconds, default 30) bounds each kit-cg invocation;
# KIT_CG_JIT_FLAGS (e.g. -O2) is passed to `kit-cg jit`; KIT_CG_EMIT=1 adds a
# third executor: `kit-cg emit` an object, link it with ${CC:-cc}, run it.
set -u
BUILD=${1:?usage: run.sh BUILD_DIR [NAME...]}
shift
KITCG="$BUILD/bin/kit-cg"
DIR=$(cd "$(dirname "$0")" && pwd)
TO=${KIT_CG_TIMEOUT:-30}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cg-corpus.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

if [ ! -x "$KITCG" ]; then
  echo "FAIL: $KITCG not found (build the kit-cg target)"
  echo "0 passed, 1 failed"
  exit 1
fi

files=()
if [ $# -gt 0 ]; then
  for n in "$@"; do files+=("$DIR/${n%.cg}.cg"); done
else
  files=("$DIR"/*.cg)
fi

pass=0
fail=0
for f in "${files[@]}"; do
  n=$(basename "$f" .cg)
  ok=1
  bad() { echo "FAIL $n: $*"; ok=0; }
  if [ ! -f "$f" ]; then
    bad "no such program $f"
    fail=$((fail + 1))
    continue
  fi
  # expectations
  sed -n -e 's/^; expect: //p' -e 's/^; expect:$//p' "$f" > "$TMP/$n.want"
  wantrc=$(sed -n 's/^; expect-exit: *\([0-9][0-9]*\).*/\1/p' "$f" | head -n 1)
  if [ -z "$wantrc" ]; then
    bad "no '; expect-exit: N' line"
    wantrc=0
  fi
  modes="run jit"
  [ -n "${KIT_CG_EMIT:-}" ] && modes="run jit obj"
  for mode in $modes; do
    if [ "$mode" = obj ]; then
      # third executor: kit-cg emit an object, link it with the system compiler, run it
      if ! timeout "$TO" "$KITCG" emit -o "$TMP/$n.o" "$f" 2> "$TMP/$n.obj.err" ||
         ! ${CC:-cc} -o "$TMP/$n.exe" "$TMP/$n.o" -lm -lpthread -latomic 2>> "$TMP/$n.obj.err"; then
        bad "obj: emit or link failed: $(head -c 300 "$TMP/$n.obj.err" | tr '\n' ' ')"
        continue
      fi
      rc=$( { timeout "$TO" "$TMP/$n.exe" > "$TMP/$n.obj.out" 2>> "$TMP/$n.obj.err" < /dev/null; echo $?; } 2>/dev/null )
      if [ "$rc" != "$wantrc" ]; then bad "obj: exit status $rc, expected $wantrc"; fi
      if ! cmp -s "$TMP/$n.obj.out" "$TMP/$n.want"; then
        first=$(diff "$TMP/$n.want" "$TMP/$n.obj.out" | grep -m 2 '^[<>]' | tr '\n' ' ')
        bad "obj: stdout differs from expected: ${first:0:300}"
      fi
      continue
    fi
    # in a command substitution so the shell's "Segmentation fault" notice stays out of our output
    flags=()
    if [ "$mode" = jit ] && [ -n "${KIT_CG_JIT_FLAGS:-}" ]; then read -r -a flags <<< "$KIT_CG_JIT_FLAGS"; fi
    rc=$( { timeout "$TO" "$KITCG" "$mode" "${flags[@]}" "$f" > "$TMP/$n.$mode.out" 2> "$TMP/$n.$mode.err" < /dev/null; echo $?; } 2>/dev/null )
    echo "$rc" > "$TMP/$n.$mode.rc"
    if [ "$rc" = 124 ] && [ "$wantrc" != 124 ]; then
      bad "$mode: timed out after ${TO}s"
      continue
    fi
    if [ "$rc" != "$wantrc" ]; then
      bad "$mode: exit status $rc, expected $wantrc$( [ -s "$TMP/$n.$mode.err" ] && printf ' (stderr: %s)' "$(head -c 200 "$TMP/$n.$mode.err" | tr '\n' ' ')")"
    fi
    if ! cmp -s "$TMP/$n.$mode.out" "$TMP/$n.want"; then
      first=$(diff "$TMP/$n.want" "$TMP/$n.$mode.out" | grep -m 2 '^[<>]' | tr '\n' ' ')
      bad "$mode: stdout differs from expected: ${first:0:300}"
    fi
  done
  if [ -f "$TMP/$n.run.rc" ] && [ -f "$TMP/$n.jit.rc" ]; then
    if [ "$(cat "$TMP/$n.run.rc")" != "$(cat "$TMP/$n.jit.rc")" ] || ! cmp -s "$TMP/$n.run.out" "$TMP/$n.jit.out"; then
      if cmp -s "$TMP/$n.run.out" "$TMP/$n.jit.out"; then what="same stdout"; else what="stdout differs"; fi
      bad "run and jit disagree (exit $(cat "$TMP/$n.run.rc") vs $(cat "$TMP/$n.jit.rc"), $what)"
    fi
  fi
  # printer/parser round trip
  if ! timeout "$TO" "$KITCG" print "$f" > "$TMP/$n.a.cg" 2> "$TMP/$n.pa.err"; then
    bad "print: failed: $(head -c 300 "$TMP/$n.pa.err" | tr '\n' ' ')"
  elif ! timeout "$TO" "$KITCG" print "$TMP/$n.a.cg" > "$TMP/$n.b.cg" 2> "$TMP/$n.pb.err"; then
    bad "print of printed text failed: $(head -c 300 "$TMP/$n.pb.err" | tr '\n' ' ')"
  elif ! cmp -s "$TMP/$n.a.cg" "$TMP/$n.b.cg"; then
    first=$(diff "$TMP/$n.a.cg" "$TMP/$n.b.cg" | grep -m 2 '^[<>]' | tr '\n' ' ')
    bad "print round trip not stable: ${first:0:300}"
  else
    # the printed form must mean the same: run it and compare with the original's run
    prc=$( { timeout "$TO" "$KITCG" run "$TMP/$n.a.cg" > "$TMP/$n.p.out" 2> "$TMP/$n.p.err" < /dev/null; echo $?; } 2>/dev/null )
    if [ "$prc" != "$(cat "$TMP/$n.run.rc")" ] || ! cmp -s "$TMP/$n.p.out" "$TMP/$n.run.out"; then
      bad "printed form runs differently from the original (exit $prc vs $(cat "$TMP/$n.run.rc"))"
    fi
  fi
  if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
