#!/usr/bin/env bash
# bench/run.sh — one command that measures kit against its peers and prints
# Markdown: per workload (hello start-up, Lua, sqlite3 speedtest1, bzip2,
# compile time) a table of configurations with wall/CPU seconds and ratios to
# the workload's reference, bench/cg's figures, the goals met or not, and where
# the run's time went. Workloads come from Debian source packages
# (bench/fetch.sh); nothing third-party is in the repo. A configuration that
# does not build or run is a row saying why; the run goes on.
#
# usage: bench/run.sh [--quick] [--only NAME[,NAME]] [--runs N] [--results FILE]
#   --quick        small inputs, one run per row, fewer configurations, no sqlite
#                  unless named by --only; compile time on Lua's largest files
#   --only NAME    hello, lua, sqlite, bzip2, compile, cg, trace, mt (comma-separated; trace, kit-emu
#                  --trace's throughput by bench/trace.sh, runs only when named or with KIT_BENCH_TRACE=1;
#                  mt, xz -T2 and zstd -T2 natively, under qemu-riscv64 and kit-emu (bench/lib/mt.sh),
#                  only when named or with KIT_BENCH_MT=1)
#   --runs N       runs per row, median reported (default 3, --quick 1)
#   --results FILE also write the report, with date and machine, to FILE
# environment: KIT_BUILD (kit build dir, default build/), KIT_CACHE
#   (default ~/.cache/kit), KIT_BENCH_JOBS (parallel compiles, default 2),
#   KIT_BENCH_BUDGET (seconds after which no new round starts; 1500, --quick 240),
#   KIT_BENCH_HARD_BUDGET (... after which untimed rows are skipped; 1.12x that: 1680, --quick 268),
#   KIT_BENCH_BUILD_TIMEOUT (seconds per compiler invocation; 900, --quick 300),
#   KIT_BENCH_NO_KIT_BUILD=1 (time kit's build as it is, without rebuilding it),
#   KIT_BENCH_MSAN=1 (MemorySanitizer's rows too: clang-16 and kitcc -fsanitize=memory
#   builds of Lua and sqlite, kit-emu --sanitize=memory on the emulator workloads)
#
# Time budget on a quiet 2-core machine (estimates from the per-row CPU times of
# bench/RESULTS.md and of --quick runs; builds are cached, so a re-run only pays
# for the configurations whose compiler, flags or sources changed):
#   full   ~22 min. Builds the first time ~6 min (sqlite3.c x 9 configurations:
#          gcc/clang/kitcc ~30 s each, ASan ~60 s, UBSan ~90 s, 2 at a time). Rows,
#          3 interleaved rounds (rows over $SLOW s, and callgrind, insncount and
#          strace, which no goal reads, in the first only): hello ~20 s, lua ~250 s
#          (~100 s a round, kit-emu rows ~10 s each), sqlite ~240 s (kit-emu rows
#          15-25 s), bzip2 ~185 s, compile ~240 s (sqlite3.c ~80 s a round); cg
#          ~15 s; kit-emu -d stats ~30 s. Caps: WL_BUDGET per workload's rounds,
#          then $BUDGET / $HARD_BUDGET for the run.
#   quick  ~3 min. Sources lua5.4 + bzip2 the first time (~30 s); builds the first
#          time ~1.5 min (Lua x 8, bzip2 x 6, hello x 4); one round: hello ~3 s,
#          lua ~25 s, bzip2 ~15 s, compile (Lua's 3 largest files) ~6 s, cg ~3 s,
#          kit-emu -d stats on Lua ~3 s.
set -euo pipefail
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH_DIR")
QUICK=0 ONLY="" RUNS="" RESULTS=""
while [ $# -gt 0 ]; do
  case $1 in
    --quick) QUICK=1 ;;
    --only) ONLY=${2:?--only takes a name}; shift ;;
    --only=*) ONLY=${1#--only=} ;;
    --runs) RUNS=${2:?--runs takes a number}; shift ;;
    --results) RESULTS=${2:?--results takes a file}; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/run.sh: unknown option '$1' (see --help)" >&2; exit 1 ;;
  esac
  shift
done
for w in ${ONLY//,/ }; do
  case $w in hello|lua|sqlite|bzip2|compile|cg|trace|mt) ;; *) echo "bench/run.sh: unknown workload '$w' (hello, lua, sqlite, bzip2, compile, cg, trace, mt)" >&2; exit 1 ;; esac
done
[ -n "$RUNS" ] || { [ "$QUICK" = 1 ] && RUNS=1 || RUNS=3; }
# --quick leaves sqlite out (its builds alone take minutes) unless --only names it
wanted() {
  if [ -z "$ONLY" ]; then [ "$QUICK" = 0 ] || [ "$1" != sqlite ]; else [[ ",$ONLY," == *",$1,"* ]]; fi
}
log() { echo "bench: $*" >&2; }

KIT_CACHE=${KIT_CACHE:-$HOME/.cache/kit}
KIT_BUILD=${KIT_BUILD:-$ROOT/build}
BENCH_CACHE="$KIT_CACHE/bench"
BENCH_BUILD="$BENCH_CACHE/build"
BENCH_JOBS=${KIT_BENCH_JOBS:-2}
BENCH_START=$SECONDS
LOAD_AT_START=$(cut -d" " -f1-3 /proc/loadavg)
export LC_ALL=C

# sizes: native rows (compilers, sanitizers), valgrind rows (a smaller input with
# their own gcc -O2 reference at that size) and emulator rows (qemu-riscv64 and
# kit-emu: an input on which qemu runs a few seconds, so that the rows compare
# emulation and not only start-up and translation; bzip2's 20 MB is the issue's)
if [ "$QUICK" = 1 ]; then
  LUA_N=8 LUA_T=1 SQL_N=10 SQL_T=2 BZ_N=$((2 << 20)) BZ_T=$((256 << 10)) HELLO_N=20 HELLO_T=10
  LUA_E=2 SQL_E=4 BZ_E=$((2 << 20))
  TMIN=30 TMAX=90 SLOW=5 BUDGET=240 INTERP_N=20000000 JIT_N=30
  declare -A WL_BUDGET=([hello]=20 [lua]=90 [sqlite]=90 [bzip2]=60 [compile]=60)
else
  LUA_N=64 LUA_T=2 SQL_N=40 SQL_T=4 BZ_N=$((20 << 20)) BZ_T=$((512 << 10)) HELLO_N=200 HELLO_T=20
  LUA_E=8 SQL_E=16 BZ_E=$((20 << 20))
  TMIN=60 TMAX=300 SLOW=15 BUDGET=1500 INTERP_N=200000000 JIT_N=100
  declare -A WL_BUDGET=([hello]=60 [lua]=330 [sqlite]=330 [bzip2]=240 [compile]=300)
fi

BUDGET=${KIT_BENCH_BUDGET:-$BUDGET}   # seconds after which no further rounds start
HARD_BUDGET=${KIT_BENCH_HARD_BUDGET:-$((BUDGET * 28 / 25))}   # ... and no row not yet timed
BUILD_TIMEOUT=${KIT_BENCH_BUILD_TIMEOUT:-$([ "$QUICK" = 1 ] && echo 300 || echo 900)}
export BUILD_TIMEOUT

# the body is one function, read whole before it runs: editing this file during
# a run cannot derail the run
main() {
# --- setup: peer tools, sources, kit, our two helpers --------------------------------
# only the sources this run needs: --quick fetches no sqlite3
srcpkgs=(none)
if wanted lua || { wanted compile && [ "$QUICK" = 1 ]; }; then srcpkgs+=(lua5.4); fi
if wanted bzip2; then srcpkgs+=(bzip2); fi
if wanted sqlite || { wanted compile && [ "$QUICK" = 0 ]; }; then srcpkgs+=(sqlite3); fi
bash "$BENCH_DIR/fetch.sh" "${srcpkgs[@]}"
# shellcheck source=/dev/null
. "$BENCH_CACHE/sources.env"

if [ ! -f "$KIT_BUILD/build.ninja" ] && [ ! -f "$KIT_BUILD/Makefile" ]; then
  log "configuring kit in $KIT_BUILD"
  bash "$ROOT/scripts/deps.sh"
  cmake -S "$ROOT" -B "$KIT_BUILD" -G Ninja -DKIT_WERROR=OFF >/dev/null
fi
declare -gA KIT_BUILT
# kitcc links its sanitizer runtimes from $KIT_BUILD/lib: build them with it
for t in kitcc kit_asan kit_ubsan kit-emu interp_bench jit_bench; do
  if [ -n "${KIT_BENCH_NO_KIT_BUILD:-}" ]; then
    [ -e "$KIT_BUILD/bin/$t" ] || [ -e "$KIT_BUILD/lib/lib$t.a" ] && KIT_BUILT[$t]=1 || KIT_BUILT[$t]=""
  elif cmake --build "$KIT_BUILD" --target "$t" >"$BENCH_CACHE/kit-build-$t.log" 2>&1; then
    KIT_BUILT[$t]=1
  else
    KIT_BUILT[$t]=""
    log "kit target $t does not build now: not built (see $BENCH_CACHE/kit-build-$t.log)"
  fi
done
KITCC="$KIT_BUILD/bin/kitcc" KITEMU="$KIT_BUILD/bin/kit-emu"
[ -n "${KIT_BUILT[kitcc]}" ] || KITCC="$BENCH_CACHE/no-kitcc"
[ -n "${KIT_BUILT[kit-emu]}" ] || KITEMU="$BENCH_CACHE/no-kit-emu"

mkdir -p "$BENCH_CACHE/tools"
MEASURE="$BENCH_CACHE/tools/measure" GENDATA="$BENCH_CACHE/tools/gendata"
for t in measure:tools/measure.c gendata:workloads/gendata.c; do
  bin="$BENCH_CACHE/tools/${t%%:*}" src="$BENCH_DIR/${t#*:}"
  [ "$bin" -nt "$src" ] || gcc -O2 -Wall -Wextra -o "$bin" "$src"
done
# the kit-emu tools the tool-API rows load (include/kit/emu_tool.h)
NULL_TOOL="$BENCH_CACHE/tools/null_tool.so" BLOCK_TOOL="$BENCH_CACHE/tools/block_cb_tool.so"
for t in null_tool block_cb_tool; do
  gcc -O2 -shared -fPIC -I"$BENCH_DIR/../include" -o "$BENCH_CACHE/tools/$t.so" "$BENCH_DIR/tools/$t.c" ||
    rm -f "$BENCH_CACHE/tools/$t.so"
done

RUN_TMP=$(mktemp -d "${TMPDIR:-/tmp}/kit-bench.XXXXXX")
trap 'rm -rf "$RUN_TMP"' EXIT
BUDGET_CUT=""
declare -A T_BUILD=() T_RUN=()
T_SETUP=$((SECONDS - BENCH_START))

# where the run's time went: setup, then per workload its builds and its rows
# ("goals": the table and its untimed kit-emu -d stats runs)
time_table() {
  echo
  echo "### Time of this run"
  echo
  echo "| part | builds s | rows s | total s | rounds' budget s |"
  echo "|---|--:|--:|--:|--:|"
  echo "| setup (tools, sources, kit) | $T_SETUP | – | $T_SETUP | – |"
  local wl
  for wl in hello lua sqlite bzip2 compile mt cg trace goals; do
    [ -n "${T_RUN[$wl]:-}" ] || continue
    echo "| $wl | ${T_BUILD[$wl]:-0} | ${T_RUN[$wl]} | $((${T_BUILD[$wl]:-0} + T_RUN[$wl])) | ${WL_BUDGET[$wl]:-–} |"
  done
  echo "| **total** | | | **$((SECONDS - BENCH_START))** | $BUDGET (whole run) |"
  [ -z "$BUDGET_CUT" ] || printf '\nTime budget reached: fewer rounds for%s.\n' "$BUDGET_CUT"
  return 0
}

# shellcheck source=lib/build.sh
. "$BENCH_DIR/lib/build.sh"
# shellcheck source=lib/measure.sh
. "$BENCH_DIR/lib/measure.sh"
# shellcheck source=lib/rows.sh
. "$BENCH_DIR/lib/rows.sh"
# shellcheck source=lib/goals.sh
. "$BENCH_DIR/lib/goals.sh"
# shellcheck source=lib/mt.sh
. "$BENCH_DIR/lib/mt.sh"

# --- rows and rounds ----------------------------------------------------------------
report() {
  echo "## kit benchmarks ($([ "$QUICK" = 1 ] && echo "--quick, " )$RUNS run(s) per row, median; wall and CPU seconds)"
  echo
  echo "Ratios are time / reference time: below 1.00 is faster than the reference."
  echo "Compiled rows use the native input; valgrind rows a smaller input and emulator rows"
  echo "one on which qemu-riscv64 runs a few seconds (bzip2: the issue's 20 MB)"
  echo "with their own gcc -O2 row at that size. Outputs are checked against the gcc -O2 build's."
  local t0
  for wl in hello lua sqlite bzip2 compile; do
    wanted "$wl" || continue
    # builds: each workload's, just before it is measured
    t0=$SECONDS; build_workload "$wl"; T_BUILD[$wl]=$((SECONDS - t0))
    t0=$SECONDS; "rows_$wl"; run_rounds "$wl"; T_RUN[$wl]=$((SECONDS - t0))
    print_table "$wl" "${WL_TITLE[$wl]}"
  done
  # the multi-threaded rows (optional: their riscv64 builds come from Debian sources)
  if [[ ",$ONLY," == *",mt,"* || ${KIT_BENCH_MT:-0} == 1 ]]; then
    t0=$SECONDS; build_mt; T_BUILD[mt]=$((SECONDS - t0))
    t0=$SECONDS; rows_mt; run_rounds mt; T_RUN[mt]=$((SECONDS - t0))
    print_table mt "${WL_TITLE[mt]}"
  fi
  if wanted cg; then t0=$SECONDS; cg_section; T_RUN[cg]=$((SECONDS - t0)); fi
  if [[ ",$ONLY," == *",trace,"* || ${KIT_BENCH_TRACE:-0} == 1 ]]; then
    echo
    t0=$SECONDS; KIT_BUILD=$KIT_BUILD bash "$BENCH_DIR/trace.sh" || echo "(bench/trace.sh failed)"; T_RUN[trace]=$((SECONDS - t0))
  fi
  t0=$SECONDS; goals_table; T_RUN[goals]=$((SECONDS - t0))
  time_table
}

OUT="$RUN_TMP/report.md"
report | tee "$OUT"
cp "$OUT" "$BENCH_CACHE/last-run.md"
if [ -n "$RESULTS" ]; then
  {
    echo "# kit benchmark results"
    echo
    echo "Run $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) CPU(s), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'),"
    echo "$(awk '/MemTotal/ {printf "%.0f GB RAM", $2 / 1048576}' /proc/meminfo), load average at start $LOAD_AT_START,"
    echo "kit at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$ROOT" diff --quiet 2>/dev/null || echo ' (with uncommitted changes)'); command: \`bench/run.sh$([ "$QUICK" = 1 ] && echo ' --quick')\`."
    echo
    sed 's/^## /## /' "$OUT"
  } >"$RESULTS"
  log "wrote $RESULTS"
fi
}

main; exit   # on one line: bash has read it whole before main runs
