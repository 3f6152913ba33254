# bench/lib/goals.sh — the "Goals" table (sourced by bench/run.sh): each goal
# shows the geometric mean of per-workload time ratios between goal rows (GR
# keys) and is met only when every workload meets it (the issues state the
# goals per workload); judged on CPU time (the machine may be shared), with
# wall-clock time beside.
# A workload whose rows have no time says why: "not measured (REASON)".

# why ID has no time: its status, short, safe in a Markdown cell
row_why() {
  local st=${R_STATUS[$1]}
  [ "$st" != ok ] || st="not timed"
  st="${R_LABEL[$1]}: $st"
  [ ${#st} -le 110 ] || st="${st:0:107}..."
  echo "${st//|/\\|}"
}

# wl_ratio WL A B: sets RC and RW (CPU and wall time of goal row A / row B) or
# WHY when either has no time
wl_ratio() {
  local wl=$1 ra=${GR[$1.$2]:-} rb=${GR[$1.$3]:-} id
  RC="" RW="" WHY=""
  if [ -z "$ra" ] || [ -z "$rb" ]; then
    WHY="$wl not in this run"; wanted "$wl" || return 0
    WHY="no $2/$3 rows"; return 0
  fi
  for id in "$ra" "$rb"; do
    [ -n "$(row_value "$id" cpu)" ] || { WHY=$(row_why "$id"); return 0; }
  done
  RC=$(awk -v a="$(row_value "$ra" cpu)" -v b="$(row_value "$rb" cpu)" 'BEGIN {printf "%.4f", (b > 0 ? a / b : 0)}')
  RW=$(awk -v a="$(row_value "$ra" wall)" -v b="$(row_value "$rb" wall)" 'BEGIN {printf "%.4f", (b > 0 ? a / b : 0)}')
}

# geo SPEC INVERT WORKLOADS...: geometric mean over the workloads of SPEC, "A/B"
# (time of A / time of B) or "A/B/C/D" ((A/B) / (C/D)), inverted (a speed) when
# INVERT=1. Sets G_CPU, G_WALL, G_N (workloads measured), G_VALS (each
# workload's CPU figure) and G_DETAIL.
geo() {
  local spec=$1 inv=$2 wl c w sc=0 sw=0; shift 2
  local -a k
  IFS=/ read -r -a k <<<"$spec"
  G_N=0 G_DETAIL="" G_CPU="" G_WALL="" G_VALS=""
  for wl in "$@"; do
    wl_ratio "$wl" "${k[0]}" "${k[1]}"
    c=$RC w=$RW
    if [ -z "$WHY" ] && [ ${#k[@]} = 4 ]; then
      wl_ratio "$wl" "${k[2]}" "${k[3]}"
      [ -n "$WHY" ] || { c=$(awk -v x="$c" -v y="$RC" 'BEGIN {printf "%.4f", (y > 0 ? x / y : 0)}')
                         w=$(awk -v x="$w" -v y="$RW" 'BEGIN {printf "%.4f", (y > 0 ? x / y : 0)}'); }
    fi
    if [ -n "$WHY" ] || ! awk -v c="$c" -v w="$w" 'BEGIN {exit !(c > 0 && w > 0)}'; then
      G_DETAIL+="${G_DETAIL:+; }$wl: not measured (${WHY:-zero time})"
      continue
    fi
    if [ "$inv" = 1 ]; then
      c=$(awk -v x="$c" 'BEGIN {printf "%.4f", 1 / x}'); w=$(awk -v x="$w" 'BEGIN {printf "%.4f", 1 / x}')
    fi
    sc=$(awk -v s="$sc" -v x="$c" 'BEGIN {print s + log(x)}')
    sw=$(awk -v s="$sw" -v x="$w" 'BEGIN {print s + log(x)}')
    G_N=$((G_N + 1))
    G_VALS+=" $c"
    G_DETAIL+="${G_DETAIL:+; }$wl $(printf '%.2f / %.2f' "$c" "$w")"
  done
  if [ "$G_N" -gt 0 ]; then
    G_CPU=$(awk -v s="$sc" -v n="$G_N" 'BEGIN {printf "%.2f", exp(s / n)}')
    G_WALL=$(awk -v s="$sw" -v n="$G_N" 'BEGIN {printf "%.2f", exp(s / n)}')
  fi
}

# goal_row NAME OP TARGET SPEC INVERT WORKLOADS...: one line of the table, judged
# on CPU time; OP "" means no target (the figure is reported). BESIDE (optional
# variable) goes into the last column.
goal_row() {
  local name=$1 op=$2 target=$3 spec=$4 inv=$5 verdict; shift 5
  geo "$spec" "$inv" "$@"
  local tgt="${op:+$op }${target:-–}"
  if [ "$G_N" = 0 ]; then
    echo "| $name | $tgt | – | – | not measured | $G_DETAIL | ${BESIDE:-} |"
    return 0
  fi
  if [ -z "$op" ]; then verdict="reported (no target)"
  elif awk -v vals="$G_VALS" -v t="$target" -v op="$op" \
      'BEGIN {n = split(vals, v, " "); for (i = 1; i <= n; i++) if (op == "<=" ? v[i] > t : v[i] < t) exit 1}'; then
    verdict="**met**"
  else verdict="not met"; fi
  [ "$G_N" -ge "$#" ] || verdict+=" (on $G_N of $# workloads)"
  echo "| $name | $tgt | ${G_CPU}× | ${G_WALL}× | $verdict | $G_DETAIL | ${BESIDE:-} |"
}

# "LABEL cpu× / wall×" of SPEC over WORKLOADS, for the BESIDE column
beside() { # LABEL SPEC WORKLOADS...
  local label=$1 spec=$2; shift 2
  geo "$spec" 0 "$@"
  if [ "$G_N" = 0 ]; then echo "$label: not measured"; else echo "$label ${G_CPU}× / ${G_WALL}×"; fi
}

goals_table() {
  local emu=(lua sqlite bzip2) b
  echo
  echo "### Goals"
  echo
  echo "Geometric mean over the workloads named by each goal, CPU time first (the judged figure),"
  echo "wall-clock second; per workload \"cpu / wall\". Speeds are inverse time ratios. A goal is"
  echo "met only when every workload meets it."
  echo
  echo "| goal | target | measured (cpu) | (wall) | verdict | per workload (cpu / wall) | beside (cpu / wall) |"
  echo "|---|---|--:|--:|---|---|---|"
  goal_row "kitcc -O2 time / clang-16 -O2" "<=" 1.10 kitcc/clang 0 lua sqlite
  goal_row "kitcc ASan time / clang-16 ASan" "<=" 1.15 kitcc-asan/clang-asan 0 lua sqlite
  goal_row "kit-emu speed / qemu-riscv64 (static)" ">=" 1.0 emu-s/qemu-s 1 "${emu[@]}"
  goal_row "kit-emu speed / qemu-riscv64 (dynamic)" ">=" 1.0 emu-d/qemu-d 1 "${emu[@]}"
  goal_row "moonshot: kit-emu speed / qemu (static)" ">=" 2.0 emu-s/qemu-s 1 "${emu[@]}"
  b="$(beside "valgrind memcheck / gcc -O2" memcheck/gcc-tool "${emu[@]}"); $(beside "clang-16 ASan / clang-16 -O2" clang-asan/clang "${emu[@]}")"
  BESIDE=$b goal_row "kit-emu ASan time / kit-emu (static)" "<=" 2.5 emu-asan/emu-s 0 "${emu[@]}"
  if [ "${KIT_BENCH_MSAN:-0}" = 1 ]; then
    goal_row "kitcc MSan time / clang-16 MSan" "<=" 1.15 kitcc-msan/clang-msan 0 lua sqlite
    b="$(beside "valgrind memcheck / gcc -O2" memcheck/gcc-tool lua sqlite bzip2)"
    BESIDE=$b goal_row "kit-emu MSan time / kit-emu (static)" "<=" 3.0 emu-msan/emu-s 0 lua sqlite bzip2
  fi
  goal_row "static hello start-up, kit-emu / qemu" "<=" 3.0 emu-s/qemu-s 0 hello
  goal_row "kit-emu --tool=insncount (inline) / kit-emu (static)" "<=" 1.10 emu-insncount/emu-s 0 lua bzip2
  goal_row "kit-emu with a call per block / kit-emu (static)" "<=" 1.5 emu-blockcb/emu-s 0 lua bzip2
  goal_row "kit-emu --tool=callgrind / kit-emu (static)" "<=" 2.0 emu-callgrind/emu-s 0 lua sqlite
  goal_row "kit-emu callgrind's slowdown / valgrind callgrind's (each / gcc -O2)" "<=" 0.2 emu-callgrind/gcc-emu/vcallgrind/gcc-tool 0 lua sqlite
  goal_row "kit-emu with a tool that registers nothing / kit-emu (static)" "<=" 1.03 emu-nulltool/emu-s 0 lua bzip2
  goal_row "kit-emu -g, gdb attached without breakpoints / kit-emu (static)" "<=" 1.10 emu-gdb/emu-s 0 lua
  b="$(beside "at -O0" kitcc-O0/clang-16-O0 compile)"
  BESIDE=$b goal_row "compile time, kitcc -O2 / clang-16 -O2 ($([ "$QUICK" = 1 ] && echo "Lua files, --quick" || echo sqlite3.c))" "<=" 1.5 kitcc-O2/clang-16-O2 0 compile
  b="$(beside "kitcc UBSan / kitcc -O2" kitcc-ubsan/kitcc lua); $(beside "clang-16 UBSan / clang-16 -O2" clang-ubsan/clang lua)"
  BESIDE=$b goal_row "kitcc UBSan overhead / clang-16's (Lua)" "" "" kitcc-ubsan/kitcc/clang-ubsan/clang 0 lua
  tier_split
}

# the kit-emu tier split: one more, untimed run of the static kit-emu row of each
# emulated workload (--quick: Lua only) with -d stats, when kit-emu has it; its
# lines as printed, beside the row's CPU time
tier_split() {
  grep -q -- '-d LIST.*stats' <<<"$EMU_HELP" || return 0
  local wl id wrap="$RUN_TMP/kit-emu-stats" cmd title="### kit-emu tiers (\`-d stats\`, static build, the emulator-size input, one untimed run)"
  printf '#!/bin/sh\nexec %q -d stats "$@"\n' "$KITEMU" >"$wrap"; chmod +x "$wrap"
  for wl in lua sqlite bzip2; do
    [ "$QUICK" = 0 ] || [ "$wl" = lua ] || continue
    id=${GR[$wl.emu-s]:-}
    [ -n "$id" ] && [ -n "$(row_value "$id" cpu)" ] || continue
    [ -z "$title" ] || { printf '\n%s\n' "$title"; title=""; }
    if [ $((SECONDS - BENCH_START)) -gt "$HARD_BUDGET" ]; then echo; echo "$wl: skipped (time budget)"; continue; fi
    local dir; dir=$(row_dir "$id")
    eval "cmd=(${R_CMD[$id]//"$(printf '%q' "$KITEMU")"/$wrap})"
    ( cd "$dir/work" && "$MEASURE" -t "$TMAX" -r 1 -o /dev/null -e "$dir/stats" -- "${cmd[@]}" >/dev/null ) || true
    echo
    echo "$wl (${R_INPUT[$id]}; the timed row: $(fmt_s "$(row_value "$id" cpu)") s CPU per run):"
    echo
    echo '```'
    grep -i 'stats' "$dir/stats" 2>/dev/null || echo "(no stats printed)"
    echo '```'
  done
  return 0
}
