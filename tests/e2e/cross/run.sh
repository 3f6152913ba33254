#!/usr/bin/env bash
# run.sh KITCC KIT_EMU [CASE...] — the cross-mode contract (docs/architecture.md,
# "Reports are a contract across modes"): every program of cases/ is built by
# `kitcc -g -fsanitize=address` for the host and by `riscv64-linux-gnu-gcc
# -g -O0`, static and dynamic, for kit-emu; the three runs must agree on the
# verdict (clean or not) and on the report's shape (shape.sh). Prints one line
# per program and build, the differing lines when they differ, and a count;
# fails on any difference. REF_CC=clang-16 compares against clang's ASan;
# EMU_FLAGS adds kit-emu options (--tier=0, --tier=1: both tiers must agree).
set -u
kitcc=$1 emu=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
ref=${REF_CC:-$kitcc}
command -v riscv64-linux-gnu-gcc >/dev/null || { echo "SKIP: riscv64-linux-gnu-gcc not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=("$here"/cases/*.c)
# quarantine and leaks as in the defaults; no colour, no abort. kit-emu has no
# fake stack: the compiled runs keep their frames on the real stack too (with
# fake frames, leak_indirect's scrub no longer clears the dead slots' pointers)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=0}
fail=0 pass=0

run() { # run OUT.PREFIX CMD... : stderr to .err, status to .rc
  local out=$1
  shift
  timeout 120 "$@" >"$out.out" 2>"$out.err" </dev/null
  echo $? >"$out.rc"
}

verdict() { [[ $(cat "$1.rc") == 0 ]] && echo clean || echo bug; }

for src in "${cases[@]}"; do
  [[ -f $src ]] || src=$here/cases/$src.c
  name=$(basename "$src" .c)
  d=$tmp/$name
  mkdir -p "$d"
  if ! $ref -g -fsanitize=address -o "$d/host" "$src" 2>"$d/host.build"; then
    echo "FAIL [$name] $ref cannot build it:"; sed 's/^/    /' "$d/host.build" | head -5
    fail=$((fail + 1)); continue
  fi
  riscv64-linux-gnu-gcc -g -O0 -static -o "$d/rv-static" "$src" 2>"$d/rv.build" &&
    riscv64-linux-gnu-gcc -g -O0 -o "$d/rv-dynamic" "$src" 2>>"$d/rv.build" || {
    echo "FAIL [$name] riscv64-linux-gnu-gcc cannot build it"; fail=$((fail + 1)); continue; }
  run "$d/host" "$d/host"
  "$here/shape.sh" <"$d/host.err" >"$d/host.shape"
  for kind in static dynamic; do
    # shellcheck disable=SC2086
    run "$d/$kind" "$emu" ${EMU_FLAGS:-} --sanitize=address "$d/rv-$kind"
    "$here/shape.sh" <"$d/$kind.err" >"$d/$kind.shape"
    hv=$(verdict "$d/host") ev=$(verdict "$d/$kind")
    if [[ $hv == "$ev" ]] && cmp -s "$d/host.shape" "$d/$kind.shape" && { [[ $hv == clean ]] || [[ -s $d/host.shape ]]; }; then
      pass=$((pass + 1))
      echo "same    [$name/$kind] $hv, $(wc -l <"$d/host.shape") report lines"
    else
      fail=$((fail + 1))
      echo "differs [$name/$kind] verdict compiled=$hv kit-emu=$ev"
      diff "$d/host.shape" "$d/$kind.shape" | grep '^[<>]' | sed -e 's/^</    compiled:/' -e 's/^>/    kit-emu: /'
      [[ -s $d/host.shape ]] || { echo "    compiled stderr:"; head -5 "$d/host.err" | sed 's/^/      /'; }
      [[ $ev == clean || -s $d/$kind.shape ]] || { echo "    kit-emu stderr:"; head -5 "$d/$kind.err" | sed 's/^/      /'; }
    fi
  done
done
echo "$pass runs agree, $fail differ"
[[ $fail == 0 ]]
