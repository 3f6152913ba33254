#!/bin/sh
# tests/e2e/ubsan/run.sh — UBSan end to end: every program in bug/ and clean/
# is built with kitcc (-g plus its "// FLAGS:" line, default
# -fsanitize=undefined), run (with its "// ENV:" line), and its report lines
# ("runtime error:", "SUMMARY:" and the nonnull attribute notes, addresses as 0xADDR) compared with the
# expectation: bug/NAME.expected (clang-16's lines, kept in the tree) or, with
# --clang, clang-16 built and run on the spot ("// CLANG_FLAGS:" adds flags
# to clang's build only: -O2 where clang finds a fact only after optimizing,
# as object sizes). "// STATUS: N" also checks the
# exit status. clean/ programs must print no report at all. Prints each
# difference as a diff and ends with a verdict count; exit 1 on any mismatch.
# KIT_EXTRA_FLAGS (e.g. -O2) is added to kitcc's flags only.
#   run.sh KITCC [--clang | --update]
set -u
KITCC=$1
MODE=${2:-}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
pass=0
fail=0

directive() { sed -n "s|^// $1: ||p" "$2" | head -1; }

# report lines of one run: build with $1 (compiler), run, filter
report() {
  cc=$1 dir=$2 name=$3 tag=$4
  flags=$(directive FLAGS "$dir/$name.c")
  [ -n "$flags" ] || flags=-fsanitize=undefined
  env_line=$(directive ENV "$dir/$name.c" | sed "s|%S|$dir|g")
  bin=$WORK/$name.$tag
  extra=
  [ "$tag" = kit ] && extra=${KIT_EXTRA_FLAGS:-}
  [ "$tag" = clang ] && extra=$(directive CLANG_FLAGS "$dir/$name.c")
  if ! (cd "$dir" && $cc -w -g $extra $flags -o "$bin" "$name.c" 2>"$WORK/$name.$tag.cc"); then
    echo "BUILD FAILED"
    sed 's/^/  /' "$WORK/$name.$tag.cc"
    return
  fi
  sh -c 'cd "$1" && shift && exec env "$@"' run "$dir" $env_line timeout 20 "$bin" \
    >/dev/null 2>"$WORK/$name.$tag.err" </dev/null
  echo "status $?" >"$WORK/$name.$tag.status"
  grep -E 'runtime error:|^SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior|note: [a-z_]+ attribute specified here' "$WORK/$name.$tag.err" |
    sed -E 's/0x[0-9a-f]+/0xADDR/g'
}

check() {
  dir=$1 name=$2 kind=$3
  report "$KITCC" "$dir" "$name" kit >"$WORK/$name.kit.lines"
  exp=$dir/$name.expected
  if [ "$kind" = clean ]; then
    : >"$WORK/$name.want"
  elif [ "$MODE" = --clang ] || [ "$MODE" = --update ]; then
    report clang-16 "$dir" "$name" clang >"$WORK/$name.want"
    [ "$MODE" = --update ] && cp "$WORK/$name.want" "$exp"
  else
    cp "$exp" "$WORK/$name.want"
  fi
  ok=1
  if ! diff -u "$WORK/$name.want" "$WORK/$name.kit.lines" >"$WORK/$name.diff"; then ok=0; fi
  want_status=$(directive STATUS "$dir/$name.c")
  got_status=$(sed 's/status //' "$WORK/$name.kit.status" 2>/dev/null)
  if [ -n "$want_status" ] && [ "$want_status" != "$got_status" ]; then
    ok=0
    echo "exit status: want $want_status, got $got_status" >>"$WORK/$name.diff"
  fi
  if [ $ok = 1 ]; then
    pass=$((pass + 1))
    echo "ok   $kind/$name"
  else
    fail=$((fail + 1))
    echo "FAIL $kind/$name"
    sed 's/^/    /' "$WORK/$name.diff"
  fi
}

for f in "$HERE"/bug/*.c; do check "$HERE/bug" "$(basename "$f" .c)" bug; done
for f in "$HERE"/clean/*.c; do check "$HERE/clean" "$(basename "$f" .c)" clean; done
echo "ubsan e2e: $pass passed, $fail failed"
[ $fail = 0 ]
