#!/usr/bin/env bash
# tests/emu/run_fds.sh KIT_EMU GUEST_DIR — the emulator's own descriptors
# survive a guest that closes all of its own (docs/emu.md, "Descriptors"):
# guest/closefds.c closes every number one by one, with close_range, or dup3s
# a pipe onto every number, static and dynamic. Its own output and status are
# qemu-riscv64's; kit-emu's insncount line, --strace's lines, an ASan report
# after the closing, and a gdb connection (the stub's socket) still work.
set -u
emu=$1 g=$2
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
command -v qemu-riscv64 >/dev/null 2>&1 || { echo "skip: no qemu-riscv64"; exit 77; }
sysroot=${KIT_EMU_SYSROOT:-/usr/riscv64-linux-gnu}
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-emu-fds.XXXXXX")
trap 'rm -rf "$work"; [ -n "${emupid:-}" ] && kill "$emupid" 2>/dev/null' EXIT
riscv64-linux-gnu-gcc -O1 -static -o "$work/static" "$g/closefds.c" &&
  riscv64-linux-gnu-gcc -O1 -o "$work/dynamic" "$g/closefds.c" || { echo "FAIL: cannot compile"; exit 1; }
status=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; status=1; }
for link in static dynamic; do
  for mode in close range dup; do
    p="$work/$link"
    qemu-riscv64 -L "$sysroot" "$p" "$mode" >"$work/q" 2>/dev/null; echo "exit $?" >>"$work/q"
    "$emu" "$p" "$mode" >"$work/k" 2>"$work/k.err"; echo "exit $?" >>"$work/k"
    if cmp -s "$work/q" "$work/k"; then ok "$link $mode: as qemu ($(tail -1 "$work/k"))"
    else bad "$link $mode: differs from qemu"; diff "$work/q" "$work/k" | head -5; fi
    [[ $(tail -1 "$work/k") == "exit 3" ]] || bad "$link $mode: the guest saw a call misbehave ($(tail -1 "$work/k"))"
    # a tool's line at exit
    "$emu" --tool=insncount "$p" "$mode" >/dev/null 2>"$work/i.err"
    if grep -Eq '^kit-emu: insncount: [0-9]+ instructions$' "$work/i.err"; then ok "$link $mode: $(head -1 "$work/i.err")"
    else bad "$link $mode: no insncount line"; head -3 "$work/i.err"; fi
    # strace's lines after the closing
    "$emu" --strace "$p" "$mode" >/dev/null 2>"$work/s.err"
    if grep -q '^openat(AT_FDCWD, "/dev/null", O_WRONLY) = 0$' "$work/s.err" && grep -q '^+++ exited with 3 +++$' "$work/s.err"; then
      ok "$link $mode: --strace printed $(wc -l <"$work/s.err") lines to the end"
    else bad "$link $mode: --strace lost lines"; tail -3 "$work/s.err"; fi
    # an ASan report after the closing
    ASAN_OPTIONS=detect_leaks=0 "$emu" --sanitize=address "$p" "$mode" overflow >/dev/null 2>"$work/a.err"
    rc=$?
    if [[ $rc == 1 ]] && grep -q '^==[0-9]*==ERROR: AddressSanitizer: heap-buffer-overflow' "$work/a.err" &&
      grep -q '^SUMMARY: AddressSanitizer: heap-buffer-overflow .* in main$' "$work/a.err"; then
      ok "$link $mode: the ASan report arrives (exit $rc)"
    else bad "$link $mode: ASan exit $rc, report:"; head -3 "$work/a.err"; fi
  done
done
# the gdb stub's connection after close_range(0, ~0U): gdb sees the exit
if command -v gdb-multiarch >/dev/null 2>&1; then
  "$emu" -g 0 "$work/static" range >/dev/null 2>"$work/g.err" &
  emupid=$!
  port=""
  for _ in $(seq 100); do
    port=$(sed -n 's/^kit-emu: waiting for gdb on port \([0-9]*\)$/\1/p' "$work/g.err")
    [ -n "$port" ] && break
    sleep 0.1
  done
  timeout 60 gdb-multiarch -nx -batch -ex "target remote :$port" -ex continue >"$work/gdb" 2>&1
  wait "$emupid"; rc=$?; emupid=""
  if grep -q 'exited with code 03' "$work/gdb" && [[ $rc == 3 ]]; then ok "gdb: the stub's socket survives close_range: $(grep exited "$work/gdb")"
  else bad "gdb: rc $rc, gdb said:"; tail -5 "$work/gdb"; fi
fi
exit $status
