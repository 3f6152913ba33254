# bench/lib/measure.sh — rows, interleaved rounds and the Markdown tables,
# sourced by bench/run.sh. A row is one configuration of one workload: a
# command, the row whose time is its ratio's reference, and the row whose
# output it must reproduce. Rounds run every live row once, in order (A, B, C,
# then A, B, C again), so machine noise hits all rows alike; a row whose
# output differs from its reference is marked WRONG and not timed.

declare -ga ROWS=()             # row ids in table order, "WORKLOAD.N"
declare -gA R_LABEL R_INPUT R_REF R_OREF R_STATUS R_CMD R_REPEAT R_ERR R_WALLS R_CPUS R_NOTE R_ONCE R_ALL R_PER

# row_add WORKLOAD LABEL INPUT REF OREF STATUS [CMD...]
#   REF/OREF: row ids ("" = this row is the reference); STATUS "ok" or why not run.
#   Optional variables: ROW_REPEAT (runs per measurement; times are per run),
#   ROW_ERR (stderr sink, default a file), ROW_PER (unit label of repeated rows),
#   ROW_ONCE=1 (timed in the first round only), ROW_ALL=1 (every round, however slow).
row_add() {
  local wl=$1 label=$2 input=$3 ref=$4 oref=$5 status=$6; shift 6
  local id="$wl.${#ROWS[@]}"
  ROWS+=("$id")
  R_LABEL[$id]=$label R_INPUT[$id]=$input R_REF[$id]=$ref R_OREF[$id]=$oref
  R_STATUS[$id]=$status R_REPEAT[$id]=${ROW_REPEAT:-1} R_ERR[$id]=${ROW_ERR:-}
  R_WALLS[$id]="" R_CPUS[$id]="" R_NOTE[$id]="" R_ONCE[$id]=${ROW_ONCE:-} R_ALL[$id]=${ROW_ALL:-} R_PER[$id]=${ROW_PER:-}
  local q="" a
  for a in "$@"; do q+="$(printf '%q' "$a") "; done
  R_CMD[$id]=$q
  LAST_ROW=$id
}

row_dir() { echo "$RUN_TMP/${1//./_}"; }

median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END {if (NR==0) print ""; else if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
first() { echo "${1%% *}"; }

# per-run timeout: generous against the reference's first time, within bounds
row_timeout() {
  local id=$1 ref=${R_REF[$1]} t=$TMAX
  if [ -n "$ref" ] && [ -n "${R_WALLS[$ref]}" ]; then
    t=$(awk -v w="$(first "${R_WALLS[$ref]}")" -v r="${R_REPEAT[$id]}" -v rr="${R_REPEAT[$ref]}" \
            -v lo="$TMIN" -v hi="$TMAX" 'BEGIN {t = 40 * w / rr * r; if (t < lo) t = lo; if (t > hi) t = hi; printf "%d", t}')
  fi
  echo "$t"
}

# run_row ID ROUND: one measurement; updates the row's status and times
run_row() {
  local id=$1 round=$2 dir t line wall cpu st
  dir=$(row_dir "$id"); mkdir -p "$dir/work"
  local err=${R_ERR[$id]:-$dir/err}
  t=$(row_timeout "$id")
  local -a cmd
  eval "cmd=(${R_CMD[$id]})"
  line=$( cd "$dir/work" && "$MEASURE" -t "$t" -r "${R_REPEAT[$id]}" -o "$dir/out" -e "$err" -- "${cmd[@]}" )
  wall=$(sed -n 's/.*wall=\([^ ]*\).*/\1/p' <<<"$line")
  cpu=$(sed -n 's/.*cpu=\([^ ]*\).*/\1/p' <<<"$line")
  st=$(sed -n 's/.*status=\([^ ]*\).*/\1/p' <<<"$line")
  if [ "$st" != "exit:0" ]; then
    local why=$st
    case $st in
      timeout) why="timeout (> ${t} s)" ;;
      signal:*) why="crashed (signal ${st#signal:})" ;;
      exit:*) why="exit status ${st#exit:}" ;;
    esac
    local msg=""
    [ -f "$err" ] && msg=$(grep -v '^\s*$' "$err" | grep -m1 -iE 'error|unsupported|unknown|not |fail|abort|illegal|fault' || true)
    [ -n "$msg" ] || [ ! -f "$err" ] || msg=$(grep -v '^\s*$' "$err" | head -n1 || true)
    R_STATUS[$id]="failed: $why${msg:+: $(echo "$msg" | cut -c1-120)}"
    progress "$id" "${R_STATUS[$id]}"
    return
  fi
  if [ "$round" = 1 ]; then
    "digest_${id%%.*}" "$dir" >"$dir/digest" 2>/dev/null || true
    local oref=${R_OREF[$id]}
    if [ -n "$oref" ]; then
      local odir; odir=$(row_dir "$oref")
      if [ "${R_STATUS[$oref]}" != ok ] || [ ! -s "$odir/digest" ]; then
        R_NOTE[$id]="output unverified (reference row did not run)"
      elif ! cmp -s "$dir/digest" "$odir/digest"; then
        local d; d=$(diff "$odir/digest" "$dir/digest" | grep -m1 "^>" | cut -c3-80 || true)   # diff exits 1: pipefail
        R_STATUS[$id]="WRONG OUTPUT (differs from ${R_LABEL[$oref]}${d:+: got \"$d\"})"
        progress "$id" "${R_STATUS[$id]}"
        return
      fi
    elif [ ! -s "$dir/digest" ]; then
      R_NOTE[$id]="no output"
    fi
    local lines
    [ -f "$err" ] && lines=$(grep -c 'runtime error\|ERROR: AddressSanitizer' "$err" || true)
    [ "${lines:-0}" -gt 0 ] && R_NOTE[$id]+="${R_NOTE[$id]:+; }$lines sanitizer report line(s) on stderr"
    [ -n "${R_ALL[$id]}" ] || ! awk -v w="$wall" -v s="$SLOW" 'BEGIN {exit !(w > s)}' || R_ONCE[$id]=1
  fi
  R_WALLS[$id]+="$wall " R_CPUS[$id]+="$cpu "
  progress "$id" "$(printf '%.2f s wall, %.2f s cpu' "$wall" "$cpu")"
}

progress() { log "$(printf '%-8s r%s %-44s %s' "${1%%.*}" "$ROUND" "${R_LABEL[$1]} (${R_INPUT[$1]})" "$2")"; }

# run_rounds WORKLOAD: interleaved rounds over the workload's rows, within the time
# budget: a round starts only if, taking as long as the last, it ends within the
# run's budget and the workload's share (WL_BUDGET)
run_rounds() {
  local wl=$1 id round_start spent=0 wl_start=$SECONDS
  for ((ROUND = 1; ROUND <= RUNS; ROUND++)); do
    round_start=$SECONDS
    if [ "$ROUND" -gt 1 ] && { [ $((SECONDS - BENCH_START + spent)) -gt "$BUDGET" ] ||
                               [ $((SECONDS - wl_start + spent)) -gt "${WL_BUDGET[$wl]:-$BUDGET}" ]; }; then
      log "$wl: time budget reached, stopping after $((ROUND - 1)) round(s)"
      BUDGET_CUT+=" $wl"
      break
    fi
    for id in "${ROWS[@]}"; do
      [ "${id%%.*}" = "$wl" ] || continue
      if [ "${R_STATUS[$id]}" = ok ] && [ $((SECONDS - BENCH_START)) -gt "$HARD_BUDGET" ] && [ -z "${R_WALLS[$id]}" ]; then
        R_STATUS[$id]="skipped (time budget of the run exhausted)"
      fi
      [ "${R_STATUS[$id]}" = ok ] || { [ "$ROUND" = 1 ] && progress "$id" "${R_STATUS[$id]}"; continue; }
      [ "$ROUND" -gt 1 ] && [ -n "${R_ONCE[$id]}" ] && continue
      run_row "$id" "$ROUND"
    done
    spent=$((SECONDS - round_start))
  done
}

# value of a row: median wall (or cpu) per run, "" when it has none
row_value() { # ID wall|cpu
  local v
  if [ "$2" = wall ]; then v=$(median <<<"${R_WALLS[$1]}"); else v=$(median <<<"${R_CPUS[$1]}"); fi
  [ -z "$v" ] || awk -v v="$v" -v r="${R_REPEAT[$1]}" 'BEGIN {printf "%.6f", v / r}'
}

# ratio ID wall|cpu: time / reference's time, "" when either is missing
row_ratio() {
  local ref=${R_REF[$1]:-$1} a b
  a=$(row_value "$1" "$2"); b=$(row_value "$ref" "$2")
  [ -z "$a" ] || [ -z "$b" ] || awk -v a="$a" -v b="$b" 'BEGIN {if (b > 0) printf "%.2f", a / b}'
}

fmt_s() { # seconds with sensible precision
  [ -n "$1" ] || return 0
  awk -v v="$1" 'BEGIN {if (v < 0.01) printf "%.2f ms", v * 1000; else if (v < 10) printf "%.3f", v; else printf "%.1f", v}'
}

# print_table WORKLOAD TITLE
print_table() {
  local wl=$1 id
  echo
  echo "### $2"
  echo
  echo "| configuration | input | wall s | cpu s | × ref (wall) | × ref (cpu) | ref | runs | output / status |"
  echo "|---|---|--:|--:|--:|--:|---|--:|---|"
  for id in "${ROWS[@]}"; do
    [ "${id%%.*}" = "$wl" ] || continue
    local ref=${R_REF[$id]} refname="**reference**" st=${R_STATUS[$id]} n
    [ -n "$ref" ] && refname=${R_LABEL[$ref]}
    n=$(wc -w <<<"${R_WALLS[$id]}")
    if [ "$st" = ok ] && [ "$n" -gt 0 ]; then
      local w c rw rc check="ok"
      w=$(row_value "$id" wall); c=$(row_value "$id" cpu)
      rw=$(row_ratio "$id" wall); rc=$(row_ratio "$id" cpu)
      [ -n "${R_NOTE[$id]}" ] && check="ok; ${R_NOTE[$id]}"
      [ -z "${R_OREF[$id]}" ] && check="reference output${R_NOTE[$id]:+; ${R_NOTE[$id]}}"
      echo "| ${R_LABEL[$id]} | ${R_INPUT[$id]} | $(fmt_s "$w") | $(fmt_s "$c") | ${rw:-n/a} | ${rc:-n/a} | $refname | $n | $check |"
    else
      case $st in WRONG*) st="**$st**" ;; esac
      echo "| ${R_LABEL[$id]} | ${R_INPUT[$id]} | – | – | – | – | $refname | 0 | ${st//|/\\|} |"
    fi
  done
}
