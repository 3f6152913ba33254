#!/usr/bin/env bash
# tests/emu/run_guard.sh KIT_EMU GUEST_DIR [MEMTOOL.so] — guest accesses
# outside the guest window (tests/emu/guest/guard.c) in every execution mode:
# the seam's branch-free clamp into the guard (tier 0, tier 1 with and
# without chaining, auto, single-step) and its checked forms (a memory
# tool's on_mem_access, tests/emu/memtool.c; ASan's pass). Each run must
# find every fault exact (si_addr, si_code, pc, registers, nothing written)
# and print the same as tier 0; `guard q`, the addresses qemu-riscv64 gets
# right, must print what qemu prints. Exit 77 without the cross toolchain or
# qemu.
set -u
emu=$1 dir=$2 tool=${3:-}
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
command -v qemu-riscv64 >/dev/null 2>&1 || { echo "skip: no qemu-riscv64"; exit 77; }
sysroot=${KIT_EMU_SYSROOT:-/usr/riscv64-linux-gnu}
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-emu-guard.XXXXXX")
trap 'rm -rf "$work"' EXIT
riscv64-linux-gnu-gcc -O2 -static -o "$work/guard-static" "$dir/guard.c" || exit 1
riscv64-linux-gnu-gcc -O0 -o "$work/guard-dynamic" "$dir/guard.c" || exit 1
ulimit -c 0
modes=("--tier=0" "--tier=1" "--tier=auto --jit-threshold=1" "--single-step" "--tier=1 --no-chain"
       "--sanitize=address")
[ -n "$tool" ] && modes+=("--tool=$tool")
status=0
for link in static dynamic; do
  bin=$work/guard-$link
  qemu-riscv64 -L "$sysroot" "$bin" q >"$work/q.out" 2>"$work/q.err"
  for m in "${modes[@]}"; do
    read -r -a mo <<<"$m"
    "$emu" "${mo[@]}" "$bin" >"$work/full.out" 2>"$work/full.err"
    rc=$?
    if [ $rc -ne 0 ] || [ "$(tail -n1 "$work/full.out")" != "all faults exact" ]; then
      echo "FAIL: $link [$m]: exit $rc"; grep -v "round 0" "$work/full.out" | head -20; head -5 "$work/full.err"
      status=1
    fi
    if [ "$m" = --tier=0 ]; then cp "$work/full.out" "$work/ref.out"
    elif ! cmp -s "$work/ref.out" "$work/full.out"; then
      echo "FAIL: $link [$m] differs from tier 0:"; diff "$work/ref.out" "$work/full.out" | head -20
      status=1
    fi
    "$emu" "${mo[@]}" "$bin" q >"$work/k.out" 2>"$work/k.err"
    if ! cmp -s "$work/q.out" "$work/k.out"; then
      echo "FAIL: $link [$m] differs from qemu-riscv64:"; diff "$work/q.out" "$work/k.out" | head -20
      status=1
    fi
  done
  echo "$link: $(grep -c 'round 0' "$work/ref.out") faults per round, $((${#modes[@]})) modes"
done
[ $status = 0 ] && echo "ok: every out-of-window fault exact in every mode"
exit $status
