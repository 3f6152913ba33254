#!/usr/bin/env bash
# bench/tools/gdb_continue.sh KIT_EMU ARGS... — kit-emu -g PORT ARGS... with
# gdb-multiarch attached that sets nothing and continues to the end: the cost
# of -g while gdb has no breakpoint (issue 19: within 1.1x of kit-emu). The
# guest's output and exit status are kit-emu's; gdb's output goes nowhere.
# gdb runs as a process this script does not wait for, so the CPU the row
# measures (the waited-for children's) is kit-emu's alone, not the debugger
# reading the program's DWARF; the wall time still holds gdb's attach.
set -u
emu=${1:?usage: gdb_continue.sh KIT_EMU ARGS...}
shift
command -v gdb-multiarch >/dev/null || { echo "gdb_continue.sh: gdb-multiarch not installed" >&2; exit 2; }
# a Unix socket in a fresh directory: no port to pick, and its appearance is
# a file test (no process per poll, whose CPU the row would count)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sock=$dir/gdb.sock
"$emu" -g "$sock" "$@" &
pid=$!
until [ -S "$sock" ]; do
  kill -0 "$pid" 2>/dev/null || { wait "$pid"; exit; }
  sleep 0.01
done
# not waited for: its CPU is gdb's, not kit-emu's (it ends when kit-emu's guest does)
(gdb-multiarch -nx -batch -ex "target remote $sock" -ex continue </dev/null >/dev/null 2>&1 &)
wait "$pid"
