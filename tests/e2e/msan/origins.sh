#!/usr/bin/env bash
# origins.sh KITCC [CASE[:FLAGS]...] — MemorySanitizer's origins against
# clang-16's: each case of cases/ built with kitcc and with clang-16, `-g
# -fsanitize=memory -fsanitize-memory-track-origins` (level 2) and the case's
# extra flags, at -O0 and -O2. What must agree: the report's first frame, the
# origin lines in order ("stored to memory at" per link of the chain, then
# "created by a heap allocation" or "by an allocation of 'x' in the stack
# frame") and the first frame in the program's source (function, file:line)
# under the "created by" line (clang's SROA names, 'a.sroa.3', as the
# variable's). Prints one line per case and level; fails on
# any difference. Then -fsanitize-memory-track-origins=1 (no chain) and =0.
set -u
kitcc=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
command -v clang-16 >/dev/null || { echo "SKIP: clang-16 not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=("$@")
# a value through a parameter and a return: clang's lazy mode passes their
# origins in __msan_param_origin_tls / __msan_retval_origin_tls
[[ ${#cases[@]} -gt 0 ]] || cases=(bug_heap_byte bug_heap_field bug_realloc_grown bug_after_free bug_memcpy
  bug_branch_local bug_partial_struct bug_param bug_return
  origins/through_call origins/through_call:-fno-sanitize-memory-param-retval origins/vla origins/alloca)

# one line per origin heading, and after a "created by" line the first frame
# in cases/ as "FUNC FILE:LINE"; the report's frame #0 first
summary() {
  awk '
    /WARNING: MemorySanitizer/ { inrep = 1 }
    inrep && /^ +#0 / && !first { first = 1; print "report:", frame($0) }
    /Uninitialized value was/ { sub(/^ +/, ""); gsub(/\.sroa\.[0-9]+/, ""); print; want = /created/; next }
    want && /^ +#[0-9]+ / && $0 ~ /\/(cases|origins)\// { print "  at", frame($0); want = 0 }
    function frame(l,  a) {
      a = l; sub(/^ +#[0-9]+ 0x[0-9a-f]+ in /, "", a)
      sub(/ .*\//, " ", a); sub(/:[0-9]+$/, "", a); return a
    }' "$1"
}

fails=0
run() { # LEVEL-FLAG OPT CASE[:FLAGS]
  local track=$1 opt=$2 name=${3%%:*} extra=
  [[ $3 == *:* ]] && extra=${3#*:}
  local src="$here/cases/$name.c"
  [[ $name == */* ]] && src="$here/$name.c"
  local tag="$name${extra:+ $extra}"
  local w
  for w in ref kit; do # both compilers at once
    local cc=clang-16
    [[ $w == kit ]] && cc=$kitcc
    (
      # shellcheck disable=SC2086
      if ! "$cc" -g -"$opt" -fsanitize=memory "$track" $extra "$src" -o "$tmp/$w" 2>"$tmp/$w.cc"; then
        echo build-failed >"$tmp/$w.sum"
        exit
      fi
      (cd "$tmp" && timeout 20 "./$w" >/dev/null 2>"$tmp/$w.err" </dev/null)
      summary "$tmp/$w.err" >"$tmp/$w.sum"
    ) &
  done
  wait
  if cmp -s "$tmp/ref.sum" "$tmp/kit.sum" && grep -q '^report:' "$tmp/ref.sum"; then
    echo "same    $track -$opt [$tag] $(grep -c 'Uninitialized value' "$tmp/ref.sum") origin lines"
  else
    echo "differs $track -$opt [$tag]"
    diff "$tmp/ref.sum" "$tmp/kit.sum" | sed 's/^/    /'
    sed 's/^/    kitcc: /' "$tmp/kit.cc" | head -5
    fails=$((fails + 1))
  fi
}

for opt in O0 O2; do
  for c in "${cases[@]}"; do run -fsanitize-memory-track-origins "$opt" "$c"; done
done
for c in bug_memcpy bug_heap_byte; do
  run -fsanitize-memory-track-origins=1 O0 "$c"
  run -fsanitize-memory-track-origins=0 O0 "$c"
done
# a struct returned in registers: only at -O2 and level 1. At -O0 clang names
# get's 'retval' (its 16-byte load of the struct takes the first granule's
# origin; kitcc names the heap); at level 2 kitcc's struct temporaries chain
# stores clang's SROA has removed.
run -fsanitize-memory-track-origins=1 O2 origins/heap_through_struct
run -fsanitize-memory-track-origins=1 O2 origins/heap_through_struct:-fno-sanitize-memory-param-retval
# a struct passed in a register: at -O0 kitcc's copy into the argument's
# temporary chains one store more than clang's, which loads the struct whole
run -fsanitize-memory-track-origins O2 bug_struct_byvalue
echo "origins: $fails differences"
[[ $fails == 0 ]]
