#!/usr/bin/env bash
# tests/emu/run_limits.sh KIT_EMU GUEST_DIR — RLIMIT_STACK and RLIMIT_AS as
# qemu-riscv64 gives them to the guest: guest/limits.c under `ulimit -s` and
# `ulimit -v` settings, static and dynamic, in several tiers; stdout and exit
# status must match qemu's. kit-emu must start under any `ulimit -v` that
# leaves it room, and say why when the limit is too small.
set -u
emu=$1 g=$2
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
command -v qemu-riscv64 >/dev/null 2>&1 || { echo "skip: no qemu-riscv64"; exit 77; }
sysroot=${KIT_EMU_SYSROOT:-/usr/riscv64-linux-gnu}
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-emu-limits.XXXXXX")
trap 'rm -rf "$work"' EXIT
riscv64-linux-gnu-gcc -O1 -static -o "$work/static" "$g/limits.c" &&
  riscv64-linux-gnu-gcc -O1 -o "$work/dynamic" "$g/limits.c" || { echo "FAIL: cannot compile"; exit 1; }
status=0
run() { # run OUT VMEM STACK CMD...
  local out=$1 v=$2 s=$3
  shift 3
  (ulimit -c 0; ulimit -s "$s"; ulimit -v "$v"; "$@" >"$out" 2>"$out.err"; echo "exit $?" >>"$out")
}
# a stack of 64 MB and of 8 MB (the recursion needs ~40 MB), under no
# address-space limit and under 4 GB and 3 GB ones
for lim in "unlimited 65536" "unlimited 8192" "4000000 65536" "3000000 8192"; do
  read -r v s <<<"$lim"
  for link in static dynamic; do
    run "$work/q" "$v" "$s" qemu-riscv64 -L "$sysroot" "$work/$link" 40000
    for opts in "" "--tier=0" "--tier=1 --no-chain" "--sanitize=address"; do
      # shellcheck disable=SC2086
      run "$work/k" "$v" "$s" env ASAN_OPTIONS=detect_leaks=0:handle_segv=0 "$emu" $opts "$work/$link" 40000
      if cmp -s "$work/q" "$work/k"; then
        echo "ok: ulimit -v $v -s $s $link [$opts]: $(tail -1 "$work/k")"
      else
        echo "FAIL: ulimit -v $v -s $s $link [$opts] differs from qemu:"
        diff "$work/q" "$work/k" | head -10
        head -3 "$work/k.err"
        status=1
      fi
    done
  done
done
# too small a limit: one clear line and status 1, no crash
run "$work/k" 300000 8192 "$emu" "$work/static"
if [[ $(tail -1 "$work/k") == "exit 1" ]] && grep -q "kit-emu: the address-space limit (ulimit -v 300000 KiB)" "$work/k.err" &&
  [[ $(wc -l <"$work/k.err") == 1 ]]; then
  echo "ok: ulimit -v 300000: $(cat "$work/k.err")"
else
  echo "FAIL: ulimit -v 300000: $(tail -1 "$work/k"), stderr:"; head -5 "$work/k.err"
  status=1
fi
exit $status
