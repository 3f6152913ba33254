# bench/lib/goals.sh — the "Goals" table (sourced by bench/run.sh): each goal
# is a geometric mean of per-workload time ratios between two rows, judged on
# wall-clock time (CPU time shown alongside, as the machine may be shared).

# pair_ratios KEY_A KEY_B WORKLOADS...: "wl=ratio_wall:ratio_cpu" per workload
# where both rows have times, or "wl=why" when one has none
pair_ratios() {
  local a=$1 b=$2 wl out=(); shift 2
  for wl in "$@"; do
    local ra=${GR[$wl.$a]:-} rb=${GR[$wl.$b]:-}
    [ -n "$ra" ] && [ -n "$rb" ] || continue
    local wa wb ca cb
    wa=$(row_value "$ra" wall); wb=$(row_value "$rb" wall)
    ca=$(row_value "$ra" cpu); cb=$(row_value "$rb" cpu)
    if [ -n "$wa" ] && [ -n "$wb" ]; then
      out+=("$wl=$(awk -v a="$wa" -v b="$wb" -v c="$ca" -v d="$cb" 'BEGIN {printf "%.3f:%.3f", a / b, (d > 0 ? c / d : 0)}')")
    else
      local why=${R_STATUS[$ra]}
      [ -n "$wa" ] && why=${R_STATUS[$rb]}
      [ "$why" = ok ] && why="not timed"
      why=${why%%:*}
      out+=("$wl=${why// /_}")
    fi
  done
  echo "${out[@]}"
}

# goal_row NAME TARGET_OP TARGET INVERT KEY_A KEY_B WORKLOADS...
#   value = geomean(time_A / time_B), or its inverse (a speed) when INVERT=1
goal_row() {
  local name=$1 op=$2 target=$3 inv=$4 a=$5 b=$6; shift 6
  local pairs detail="" p gw=0 gc=0 n=0
  pairs=$(pair_ratios "$a" "$b" "$@")
  for p in $pairs; do
    local wl=${p%%=*} v=${p#*=}
    if [[ $v =~ ^[0-9.]+:[0-9.]+$ ]]; then
      local w=${v%%:*} c=${v#*:}
      [ "$inv" = 1 ] && { w=$(awk -v x="$w" 'BEGIN {printf "%.3f", 1 / x}'); c=$(awk -v x="$c" 'BEGIN {if (x > 0) printf "%.3f", 1 / x; else print 0}'); }
      gw=$(awk -v s="$gw" -v x="$w" 'BEGIN {print s + log(x)}')
      gc=$(awk -v s="$gc" -v x="$c" 'BEGIN {print (x > 0 ? s + log(x) : s)}')
      n=$((n + 1))
      detail+="${detail:+, }$wl $(printf '%.2f' "$w")"
    else
      detail+="${detail:+, }$wl: ${v//_/ }"
    fi
  done
  if [ "$n" = 0 ]; then
    echo "| $name | $op $target | – | – | not measured | ${detail:-no rows} |"
    return
  fi
  local mw mc verdict
  mw=$(awk -v s="$gw" -v n="$n" 'BEGIN {printf "%.2f", exp(s / n)}')
  mc=$(awk -v s="$gc" -v n="$n" 'BEGIN {printf "%.2f", exp(s / n)}')
  if awk -v v="$mw" -v t="$target" -v op="$op" 'BEGIN {exit !(op == "<=" ? v <= t : v >= t)}'; then verdict="**met**"
  else verdict="not met"; fi
  [ "$n" -lt "$#" ] && verdict+=" (on $n of $# workloads)"
  echo "| $name | $op $target | ${mw}× | ${mc}× | $verdict | $detail |"
}

goals_table() {
  echo
  echo "### Goals"
  echo
  echo "Geometric mean over the workloads that ran (lua, sqlite, bzip2; start-up: hello), wall-clock;"
  echo "the CPU column is the same ratio in CPU seconds."
  echo
  echo "| goal | target | measured (wall) | (cpu) | verdict | per workload (wall) |"
  echo "|---|---|--:|--:|---|---|"
  goal_row "kitcc -O2 time / clang-16 -O2" "<=" 1.10 0 kitcc clang lua sqlite bzip2
  goal_row "kitcc ASan time / clang-16 ASan" "<=" 1.15 0 kitcc-asan clang-asan lua sqlite bzip2
  goal_row "kit-emu speed / qemu-riscv64 (static)" ">=" 1.0 1 emu-s qemu-s lua sqlite bzip2
  goal_row "kit-emu speed / qemu-riscv64 (dynamic)" ">=" 1.0 1 emu-d qemu-d lua sqlite bzip2
  goal_row "moonshot: kit-emu speed / qemu (static)" ">=" 2.0 1 emu-s qemu-s lua sqlite bzip2
  goal_row "kit-emu ASan time / kit-emu (static)" "<=" 2.5 0 emu-asan emu-s lua sqlite bzip2
  goal_row "static hello start-up, kit-emu / qemu" "<=" 3.0 0 emu-s qemu-s hello
}
