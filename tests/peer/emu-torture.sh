#!/usr/bin/env bash
# tests/peer/emu-torture.sh — kit-emu against qemu-riscv64 on the GCC torture
# execute suite (gcc.c-torture/execute from Debian's gcc-12-source, fetched at
# run time by fetch-gcc-testsuite.sh, never committed).
#
# Every test is cross-compiled with riscv64-linux-gnu-gcc in four
# configurations (-O0/-O2 × static/dynamic), then run under qemu-riscv64 (the
# oracle, -L /usr/riscv64-linux-gnu) and under kit-emu. A test counts when it
# compiles and qemu finishes it within the timeout; it passes when kit-emu
# gives the same exit status and the same stdout. Prints, per configuration,
# `CONFIG: N passed, M failed (K not counted)` and every difference; exits
# nonzero when any configuration passes fewer than 99% of what qemu runs.
#
#   tests/peer/emu-torture.sh KIT_EMU [--subset N] [--configs "O0-static ..."]
#                              [--jobs N] [--out DIR] [--emu-opts "..."]
#
# --subset N takes every Nth test of the sorted list (a deterministic pick;
# ctest uses --subset 10, about 160 tests × 4 configurations). Without it the
# whole suite runs (~1590 tests × 4). --out keeps binaries and logs.
# Exit 77 (skipped) without riscv64-linux-gnu-gcc or qemu-riscv64.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
emu=${1:?usage: emu-torture.sh KIT_EMU [--subset N] [--configs LIST] [--jobs N] [--out DIR]}
shift
subset=1
configs="O0-static O0-dynamic O2-static O2-dynamic"
jobs=2
out=""
emuopts=""
qtimeout=10
ktimeout=60
while [ $# -gt 0 ]; do
  case "$1" in
    --subset) subset="$2"; shift 2 ;;
    --configs) configs="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --emu-opts) emuopts="$2"; shift 2 ;;
    *) echo "emu-torture.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
command -v qemu-riscv64 >/dev/null 2>&1 || { echo "skip: no qemu-riscv64"; exit 77; }
emu=$(cd "$(dirname "$emu")" && pwd)/$(basename "$emu")
src=$(bash "$here/fetch-gcc-testsuite.sh") || exit 1
exec_dir="$src/gcc.c-torture/execute"
work=${out:-$(mktemp -d "${TMPDIR:-/tmp}/kit-emu-torture.XXXXXX")}
mkdir -p "$work"
[ -n "$out" ] || trap 'rm -rf "$work"' EXIT
ulimit -c 0

# tests whose output depends on the guest memory layout, which qemu and
# kit-emu choose differently (not a difference in behaviour): not counted
#   return-addr  prints __builtin_return_address/frame addresses (the stack)
layout_dependent="return-addr"
names=$(cd "$exec_dir" && ls ./*.c | sed 's|^\./||; s/\.c$//' | LC_ALL=C sort | awk -v n="$subset" '(NR - 1) % n == 0' |
  grep -vxF -f <(tr ' ' '\n' <<<"$layout_dependent"))

# one test, all configurations: compile once per -O level, link twice
run_one() {
  local name=$1 emu=$2 exec_dir=$3 work=$4 configs=$5 qt=$6 kt=$7 emuopts=$8
  local d="$work/$name" opt link c
  mkdir -p "$d"
  read -r -a eo <<<"$emuopts"
  for c in $configs; do
    opt=-${c%%-*} link=${c#*-}
    local obj="$d/$opt.o" exe="$d/$c.exe"
    if [ ! -f "$obj" ] && ! timeout 120 riscv64-linux-gnu-gcc "$opt" -w -fno-strict-aliasing \
        -c "$exec_dir/$name.c" -o "$obj" >"$d/$opt.cc.log" 2>&1; then
      echo "SKIP $c $name (does not compile)"; continue
    fi
    local lf=(); [ "$link" = static ] && lf=(-static)
    if ! riscv64-linux-gnu-gcc "${lf[@]}" "$obj" -o "$exe" -lm >"$d/$c.ld.log" 2>&1; then
      echo "SKIP $c $name (does not link)"; continue
    fi
    local qrc krc # (braces: no "Segmentation fault" job notices from bash)
    { (cd "$d" && timeout "$qt" qemu-riscv64 -L /usr/riscv64-linux-gnu "$exe" >"$d/$c.q.out" 2>"$d/$c.q.err" </dev/null); qrc=$?; } 2>/dev/null
    if [ $qrc -eq 124 ]; then echo "SKIP $c $name (qemu timeout)"; continue; fi
    { (cd "$d" && timeout -k 5 "$kt" "$emu" "${eo[@]}" "$exe" >"$d/$c.k.out" 2>"$d/$c.k.err" </dev/null); krc=$?; } 2>/dev/null
    if [ $krc -ne $qrc ]; then
      echo "FAIL $c $name (exit: qemu $qrc, kit-emu $krc) $(grep -m1 'kit-emu' "$d/$c.k.err" | head -c 200)"
    elif ! cmp -s "$d/$c.q.out" "$d/$c.k.out"; then
      echo "FAIL $c $name (stdout differs)"
    else
      echo "PASS $c $name"
      rm -f "$exe" "$d/$c".*.out "$d/$c".*.err
    fi
  done
  rm -f "$d"/*.o
  rmdir "$d" 2>/dev/null || true
}
export -f run_one

results=$(echo "$names" | xargs -P "$jobs" -I{} bash -c 'run_one "$@"' _ {} "$emu" "$exec_dir" "$work" \
  "$configs" "$qtimeout" "$ktimeout" "$emuopts")
echo "$results" >"$work/results.txt"
echo "$results" | grep '^FAIL' | LC_ALL=C sort -k2,2 -k3,3
status=0
for c in $configs; do
  p=$(echo "$results" | grep -c "^PASS $c " || true)
  f=$(echo "$results" | grep -c "^FAIL $c " || true)
  s=$(echo "$results" | grep -c "^SKIP $c " || true)
  echo "$c: $p passed, $f failed ($s not counted: no compile or qemu timeout)"
  # below 99% of what qemu runs fails
  if [ $((p * 100)) -lt $(((p + f) * 99)) ] || [ $((p + f)) -eq 0 ]; then status=1; fi
done
exit $status
