# bench/lib/rows.sh — the workloads as rows (sourced by bench/run.sh): how each
# configuration runs each workload, how its output is reduced to what must
# match (digest_WORKLOAD), and the bench/cg section.

declare -gA WL_TITLE=(
  [hello]="hello: start-up of a static hello world (seconds per start)"
  [lua]="lua: Lua 5.4 (Debian lua5.4) running bench/workloads/bench.lua"
  [sqlite]="sqlite: speedtest1 of SQLite 3 (Debian sqlite3), in-memory database"
  [bzip2]="bzip2: compress (-9) and decompress generated text (Debian bzip2)"
  [compile]="compile: compile time, kitcc vs clang-16"
)
declare -gA CFG_LABEL=(
  [gcc]="gcc -O2" [clang]="clang-16 -O2" [kitcc]="kitcc -O2"
  [gcc-asan]="gcc -O2 -fsanitize=address" [clang-asan]="clang-16 -O2 -fsanitize=address"
  [kitcc-asan]="kitcc -O2 -fsanitize=address"
  [clang-ubsan]="clang-16 -O2 -fsanitize=undefined" [kitcc-ubsan]="kitcc -O2 -fsanitize=undefined"
  [clang-msan]="clang-16 -O2 -fsanitize=memory" [kitcc-msan]="kitcc -O2 -fsanitize=memory"
)
declare -gA GR   # goal rows: "WORKLOAD.KEY" -> row id
RV_SYSROOT=/usr/riscv64-linux-gnu

EMU_HELP=""
[ -x "$KITEMU" ] && EMU_HELP=$("$KITEMU" --help 2>&1 || true)

# status of a tool or emulator feature: "ok" or why the row cannot run
need() { # WHAT
  case $1 in
    qemu) command -v qemu-riscv64 >/dev/null && echo ok || echo "n/a (qemu-riscv64 not installed)" ;;
    valgrind) command -v valgrind >/dev/null && echo ok || echo "n/a (valgrind not installed)" ;;
    kit-emu) [ -x "$KITEMU" ] && echo ok || echo "not built (kit-emu)" ;;
    emu:*)
      if [ ! -x "$KITEMU" ]; then echo "not built (kit-emu)"
      elif grep -q -- "${1#emu:}" <<<"$EMU_HELP"; then echo ok
      else echo "n/a (kit-emu has no ${1#emu:} yet)"; fi ;;
  esac
}
both() { [ "$1" = ok ] && echo "$2" || echo "$1"; }
# --quick keeps one row per tool on the long workloads (hello keeps them all)
full_only() { # WORKLOAD STATUS
  if [ "$QUICK" = 1 ] && [ "$1" != hello ] && [ "$2" = ok ]; then echo "skipped (--quick)"; else echo "$2"; fi
}
# rows no goal reads (callgrind, insncount, strace) are timed in the first round only
ONCE=$([ "$QUICK" = 1 ] || echo 1)

# the command of WORKLOAD at SIZE, run by RUNNER... on BIN: sets CMD
set_cmd() { # WORKLOAD SIZE BIN RUNNER...
  local wl=$1 size=$2 bin=$3; shift 3
  local -a run=("$@" "$bin")
  case $wl in
    lua) CMD=("${run[@]}" "$BENCH_DIR/workloads/bench.lua" "$size") ;;
    sqlite) CMD=("${run[@]}" --size "$size" --memdb --verify) ;;
    bzip2)
      local r; r=$(printf '%q ' "${run[@]}")
      CMD=(sh -c "ln -sf \"\$1\" input && $r -9 -c input >c.bz2 && $r -dc c.bz2 >d" _ "$(bz_data "$size")") ;;
    hello) CMD=("${run[@]}") ;;
  esac
}

bz_data() { # SIZE: the generated input of that size (made once)
  local f="$BENCH_CACHE/data-$1.txt"
  [ -s "$f" ] || "$GENDATA" "$1" >"$f"
  echo "$f"
}
mb() { awk -v b="$1" 'BEGIN {if (b >= 1048576) printf "%g MB", b / 1048576; else printf "%g KB", b / 1024}'; }
size_label() { # WORKLOAD SIZE
  case $1 in
    lua) echo "scale $2" ;; sqlite) echo "--size $2" ;; bzip2) mb "$2" ;; hello) echo "$2 starts" ;;
  esac
}

digest_lua() { cat "$1/out"; }
digest_sqlite() { sed -E 's/\.{2,}.*$//; s/ +$//' "$1/out"; }
digest_bzip2() { cksum <"$1/work/c.bz2"; cmp -s "$1/work/d" "$1/work/input" && echo "round trip ok" || echo "round trip differs"; }
digest_hello() { sort -u "$1/out"; }
digest_compile() { find "$1/work" -name '*.o' -size +0 | wc -l | sed 's/$/ objects/'; }

# compiled rows at the native size, valgrind rows at the tool size, emulator
# rows at the emulator size (each with a gcc -O2 row at its size)
rows_program() { # WORKLOAD NATIVE_SIZE TOOL_SIZE EMU_SIZE
  local wl=$1 sn=$2 st=$3 se=${4:-$3} cfg ref="" tref qref st_rv
  local -a cfgs=(gcc clang kitcc gcc-asan clang-asan kitcc-asan clang-ubsan kitcc-ubsan)
  [ "$wl" != hello ] || cfgs=(gcc clang kitcc)
  if [ "${KIT_BENCH_MSAN:-0}" = 1 ] && { [ "$wl" = lua ] || [ "$wl" = sqlite ]; }; then cfgs+=(clang-msan kitcc-msan); fi
  local extra=""
  for cfg in "${cfgs[@]}"; do
    set_cmd "$wl" "$sn" "$BENCH_BUILD/$cfg/$wl/bin"
    [ "$wl" != hello ] || extra=" -static"
    ROW_REPEAT=$([ "$wl" = hello ] && echo "$sn" || echo 1) \
      row_add "$wl" "${CFG_LABEL[$cfg]}$extra" "$(size_label "$wl" "$sn")" "$ref" "$ref" "$(cfg_status "$cfg" "$wl")" "${CMD[@]}"
    [ -n "$ref" ] || ref=$LAST_ROW
    GR[$wl.$cfg]=$LAST_ROW
  done

  local rep=1 input gst
  [ "$wl" != hello ] || rep=$st
  input=$(size_label "$wl" "$st")
  gst=$(build_status gcc "$wl")
  set_cmd "$wl" "$st" "$BENCH_BUILD/gcc/$wl/bin"
  ROW_REPEAT=$rep row_add "$wl" "gcc -O2$extra (at the tool size)" "$input" "" "" "$gst" "${CMD[@]}"
  tref=$LAST_ROW
  if [ "$wl" != hello ]; then
    set_cmd "$wl" "$st" "$BENCH_BUILD/gcc/$wl/bin" valgrind --tool=memcheck -q
    row_add "$wl" "valgrind memcheck (gcc -O2 build)" "$input" "$tref" "$tref" "$(both "$(need valgrind)" "$gst")" "${CMD[@]}"
    GR[$wl.memcheck]=$LAST_ROW GR[$wl.gcc-tool]=$tref
    set_cmd "$wl" "$st" "$BENCH_BUILD/gcc/$wl/bin" valgrind --tool=callgrind -q --callgrind-out-file=/dev/null
    ROW_ONCE=$ONCE row_add "$wl" "valgrind callgrind (gcc -O2 build)" "$input" "$tref" "$tref" "$(full_only "$wl" "$(both "$(need valgrind)" "$gst")")" "${CMD[@]}"
    GR[$wl.vcallgrind]=$LAST_ROW
  fi

  if [ "$se" != "$st" ]; then
    st=$se input=$(size_label "$wl" "$se")
    set_cmd "$wl" "$st" "$BENCH_BUILD/gcc/$wl/bin"
    ROW_REPEAT=$rep row_add "$wl" "gcc -O2$extra (at the emulator size)" "$input" "" "" "$gst" "${CMD[@]}"
    tref=$LAST_ROW
  fi
  st_rv=$(cfg_status rv "$wl")
  local s=$BENCH_BUILD/rv/$wl/bin-static d=$BENCH_BUILD/rv/$wl/bin-dynamic
  set_cmd "$wl" "$st" "$s" qemu-riscv64
  ROW_REPEAT=$rep row_add "$wl" "qemu-riscv64, static" "$input" "" "$tref" "$(both "$(need qemu)" "$st_rv")" "${CMD[@]}"
  qref=$LAST_ROW; GR[$wl.qemu-s]=$LAST_ROW
  set_cmd "$wl" "$st" "$d" qemu-riscv64 -L "$RV_SYSROOT"
  ROW_REPEAT=$rep row_add "$wl" "qemu-riscv64, dynamic" "$input" "$qref" "$tref" "$(full_only "$wl" "$(both "$(need qemu)" "$st_rv")")" "${CMD[@]}"
  GR[$wl.qemu-d]=$LAST_ROW
  local qdref=$LAST_ROW
  set_cmd "$wl" "$st" "$s" "$KITEMU"
  ROW_REPEAT=$rep row_add "$wl" "kit-emu, static" "$input" "$qref" "$tref" "$(both "$(need kit-emu)" "$st_rv")" "${CMD[@]}"
  GR[$wl.emu-s]=$LAST_ROW
  set_cmd "$wl" "$st" "$d" "$KITEMU" -L "$RV_SYSROOT"
  ROW_REPEAT=$rep row_add "$wl" "kit-emu, dynamic" "$input" "$qdref" "$tref" "$(full_only "$wl" "$(both "$(need kit-emu)" "$st_rv")")" "${CMD[@]}"
  GR[$wl.emu-d]=$LAST_ROW
  set_cmd "$wl" "$st" "$s" "$KITEMU" --sanitize=address
  ROW_REPEAT=$rep row_add "$wl" "kit-emu --sanitize=address, static" "$input" "$qref" "$tref" "$(both "$(need emu:--sanitize)" "$st_rv")" "${CMD[@]}"
  GR[$wl.emu-asan]=$LAST_ROW
  if [ "${KIT_BENCH_MSAN:-0}" = 1 ] && [ "$wl" != hello ]; then
    set_cmd "$wl" "$st" "$s" "$KITEMU" --sanitize=memory
    ROW_REPEAT=$rep row_add "$wl" "kit-emu --sanitize=memory, static" "$input" "$qref" "$tref" "$(both "$(need emu:--sanitize)" "$st_rv")" "${CMD[@]}"
    GR[$wl.emu-msan]=$LAST_ROW
  fi
  # the tool API's costs (goals against kit-emu, static): inline counts, a
  # call per block, a tool that registers nothing
  set_cmd "$wl" "$st" "$s" "$KITEMU" --tool=insncount
  ROW_REPEAT=$rep row_add "$wl" "kit-emu --tool=insncount, static" "$input" "$qref" "$tref" "$(full_only "$wl" "$(both "$(need emu:insncount)" "$st_rv")")" "${CMD[@]}"
  GR[$wl.emu-insncount]=$LAST_ROW
  if [ "$wl" != hello ]; then
    # the profiler beside valgrind's (goals: docs/callgrind.md, issue 18)
    set_cmd "$wl" "$st" "$s" "$KITEMU" --tool=callgrind,--callgrind-out-file=/dev/null
    ROW_REPEAT=$rep row_add "$wl" "kit-emu --tool=callgrind, static" "$input" "$qref" "$tref" "$(both "$(need emu:callgrind)" "$st_rv")" "${CMD[@]}"
    GR[$wl.emu-callgrind]=$LAST_ROW GR[$wl.gcc-emu]=$tref
  fi
  if [ "$wl" != hello ]; then
    local ts; ts=$([ -f "$BLOCK_TOOL" ] && echo ok || echo "not built (bench/tools/block_cb_tool.c)")
    set_cmd "$wl" "$st" "$s" "$KITEMU" --tool="$BLOCK_TOOL"
    ROW_ERR=/dev/null ROW_REPEAT=$rep row_add "$wl" "kit-emu --tool=block_cb_tool.so (a call per block), static" "$input" "$qref" "$tref" "$(full_only "$wl" "$(both "$ts" "$st_rv")")" "${CMD[@]}"
    GR[$wl.emu-blockcb]=$LAST_ROW
    ts=$([ -f "$NULL_TOOL" ] && echo ok || echo "not built (bench/tools/null_tool.c)")
    set_cmd "$wl" "$st" "$s" "$KITEMU" --tool="$NULL_TOOL"
    ROW_REPEAT=$rep row_add "$wl" "kit-emu --tool=null_tool.so (registers nothing), static" "$input" "$qref" "$tref" "$(full_only "$wl" "$(both "$ts" "$st_rv")")" "${CMD[@]}"
    GR[$wl.emu-nulltool]=$LAST_ROW
    # -g with gdb attached and continuing, no breakpoint (docs/gdb.md)
    ts=$(command -v gdb-multiarch >/dev/null && need "emu:-g PORT" || echo "n/a (gdb-multiarch not installed)")
    set_cmd "$wl" "$st" "$s" "$BENCH_DIR/tools/gdb_continue.sh" "$KITEMU"
    ROW_REPEAT=$rep row_add "$wl" "kit-emu -g (gdb attached, continuing), static" "$input" "$qref" "$tref" "$(full_only "$wl" "$ts")" "${CMD[@]}"
    GR[$wl.emu-gdb]=$LAST_ROW
  fi
  set_cmd "$wl" "$st" "$s" "$KITEMU" --strace
  ROW_ONCE=$ONCE ROW_ERR=/dev/null ROW_REPEAT=$rep row_add "$wl" "kit-emu --strace (to /dev/null), static" "$input" "$qref" "$tref" "$(full_only "$wl" "$(both "$(need emu:--strace)" "$st_rv")")" "${CMD[@]}"
}

rows_hello() { rows_program hello "$HELLO_N" "$HELLO_T"; }
rows_lua() { rows_program lua "$LUA_N" "$LUA_T" "$LUA_E"; }
rows_sqlite() { rows_program sqlite "$SQL_N" "$SQL_T" "$SQL_E"; }
rows_bzip2() { rows_program bzip2 "$BZ_N" "$BZ_T" "$BZ_E"; }

# compile time, one compiler process per file in turn (single-threaded), with the
# flags of the workload's build: the sqlite3 amalgamation, or (--quick) Lua's
# three largest files. Every round times every row: the goal reads medians.
rows_compile() {
  local -a srcs flags
  local what
  if [ "$QUICK" = 1 ]; then
    mapfile -t srcs < <(wl_sources lua | xargs ls -S | head -n3)
    what="Lua's $(basename -a "${srcs[@]}" | paste -sd, -)"
    mkdir -p "$RUN_TMP/compile/inc"
    echo '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"' >"$RUN_TMP/compile/inc/lua5.4-deb-multiarch.h"
    read -r -a flags <<<"$(wl_flags lua "$RUN_TMP/compile")"
  else
    srcs=("$SQLITE_AMAL/sqlite3.c"); what="sqlite3.c ($(($(wc -l <"$SQLITE_AMAL/sqlite3.c") / 1000))k lines)"
    read -r -a flags <<<"$(wl_flags sqlite)"
  fi
  local kst=ok; [ -x "$KITCC" ] || kst="not built (kitcc)"
  local o cc name ref st
  for o in 0 2; do
    ref=""
    for cc in clang-16 "$KITCC"; do
      name=$([ "$cc" = clang-16 ] && echo clang-16 || echo kitcc)
      st=ok; [ "$cc" = clang-16 ] || st=$kst
      [ "$cc" != clang-16 ] || command -v clang-16 >/dev/null || st="n/a (clang-16 not installed)"
      # sh: CC, then the flags as one word (split by sh), then the sources
      ROW_ALL=1 row_add compile "$name -O$o" "$what" "$ref" "$ref" "$st" \
        sh -c 'cc=$1 flags=$2; shift 2; for f; do "$cc" $flags -c "$f" -o "$(basename "${f%.c}").o" || exit; done' \
        _ "$cc" "-O$o ${flags[*]}" "${srcs[@]}"
      [ -n "$ref" ] || ref=$LAST_ROW
      GR[compile.$name-O$o]=$LAST_ROW
    done
  done
}

# bench/cg's executables: CG interpreter throughput and LLVM JIT latency
cg_section() {
  echo
  echo "### cg: bench/cg (CG interpreter ops/s, LLVM JIT µs per function)"
  local b
  for b in interp_bench:"$INTERP_N" jit_bench:"$JIT_N"; do
    local name=${b%%:*} arg=${b#*:} line
    echo
    echo "\`$name $arg\`:"
    echo
    if [ -z "${KIT_BUILT[$name]}" ]; then echo "not built"; continue; fi
    line=$("$MEASURE" -t "$TMAX" -o "$RUN_TMP/$name.out" -e "$RUN_TMP/$name.err" -- "$KIT_BUILD/bin/$name" "$arg")
    log "cg       $name: $line"
    echo '```'
    cat "$RUN_TMP/$name.out"
    [[ $line == *status=exit:0* ]] || echo "(${line##*status=}: $(head -n1 "$RUN_TMP/$name.err"))"
    echo '```'
  done
}
