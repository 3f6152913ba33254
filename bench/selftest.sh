#!/usr/bin/env bash
# bench/selftest.sh — checks bench/run.sh's bookkeeping in a second, without
# compilers or workloads (ctest bench_selftest): rows run by a stand-in for
# tools/measure.c, then the table and the goals. A row that fails, one whose
# output differs from its reference and one that never built must each say so
# and not stop the run; a goal over them says "not measured (why)".
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
RUN_TMP=$(mktemp -d "${TMPDIR:-/tmp}/kit-bench-selftest.XXXXXX")
trap 'rm -rf "$RUN_TMP"' EXIT
log() { :; }
wanted() { [ "$1" = lua ]; }
digest_lua() { cat "$1/out"; }
QUICK=0 RUNS=3 SLOW=100 TMIN=1 TMAX=10 BUDGET=1000 HARD_BUDGET=1000 BENCH_START=$SECONDS EMU_HELP=""
declare -A WL_BUDGET=() GR=()
# shellcheck source=lib/measure.sh
. "$BENCH_DIR/lib/measure.sh"
# shellcheck source=lib/goals.sh
. "$BENCH_DIR/lib/goals.sh"

# the stand-in for measure: runs the command; its times are the "t=" line it
# prints on stderr (CPU time is half the wall time)
MEASURE="$RUN_TMP/measure"
cat >"$MEASURE" <<'EOF'
#!/bin/sh
while [ "$1" != -- ]; do case $1 in -o) out=$2; shift ;; -e) err=$2; shift ;; -t|-r) shift ;; esac; shift; done
shift
"$@" >"$out" 2>"$err"; st=$?
t=$(sed -n 's/^t=//p' "$err"); t=${t:-0}
echo "wall=$t cpu=$(awk -v t="$t" 'BEGIN {print t / 2}') rss_kb=0 status=exit:$st"
EOF
chmod +x "$MEASURE"

row_add lua "clang-16 -O2" "scale 1" "" "" ok sh -c 'echo 42; echo t=1.0 >&2'
ref=$LAST_ROW GR[lua.clang]=$LAST_ROW
row_add lua "kitcc -O2" "scale 1" "$ref" "$ref" ok sh -c 'echo 42; echo t=1.05 >&2'
GR[lua.kitcc]=$LAST_ROW
row_add lua "wrong" "scale 1" "$ref" "$ref" ok sh -c 'echo 41; echo t=0.5 >&2'
row_add lua "kitcc ASan" "scale 1" "$ref" "$ref" ok sh -c 'echo "error: boom" >&2; exit 3'
GR[lua.kitcc-asan]=$LAST_ROW
row_add lua "silent crash" "scale 1" "$ref" "$ref" ok sh -c 'exit 2'
row_add lua "clang ASan" "scale 1" "$ref" "$ref" "failed: compiling lvm.c: error: nope" true
GR[lua.clang-asan]=$LAST_ROW
run_rounds lua
out=$(print_table lua "lua"; goals_table)

fail=0
expect() { grep -qF -- "$1" <<<"$out" || { echo "selftest: missing: $1" >&2; fail=1; }; }
expect "| kitcc -O2 | scale 1 | 1.050 | 0.525 | 1.05 | 1.05 | clang-16 -O2 | 3 | ok |"
expect "| wrong | scale 1 | – | – | – | – | clang-16 -O2 | 0 | **WRONG OUTPUT (differs from clang-16 -O2: got \"41\")** |"
expect "| kitcc ASan | scale 1 | – | – | – | – | clang-16 -O2 | 0 | failed: exit status 3: error: boom |"
expect "| silent crash | scale 1 | – | – | – | – | clang-16 -O2 | 0 | failed: exit status 2 |"
expect "| clang ASan | scale 1 | – | – | – | – | clang-16 -O2 | 0 | failed: compiling lvm.c: error: nope |"
expect "| kitcc -O2 time / clang-16 -O2 | <= 1.10 | 1.05× | 1.05× | **met** (on 1 of 2 workloads) | lua 1.05 / 1.05; sqlite: not measured (sqlite not in this run) |"
expect "| kitcc ASan time / clang-16 ASan | <= 1.15 | – | – | not measured | lua: not measured (kitcc ASan: failed: exit status 3: error: boom)"
# a goal is met only when every workload meets it, whatever the mean says
declare -A FAKE=([lua]=1.21 [sqlite]=0.94)
wl_ratio() { RC=${FAKE[$1]} RW=${FAKE[$1]} WHY=""; }
out+=$'\n'$(goal_row "every workload" "<=" 1.10 a/b 0 lua sqlite)
expect "| every workload | <= 1.10 | 1.07× | 1.07× | not met | lua 1.21 / 1.21; sqlite 0.94 / 0.94 |"
if [ "$fail" = 1 ]; then echo "$out" >&2; exit 1; fi
echo "bench selftest: ok"
