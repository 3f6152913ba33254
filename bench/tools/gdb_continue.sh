#!/usr/bin/env bash
# bench/tools/gdb_continue.sh KIT_EMU ARGS... — kit-emu -g PORT ARGS... with
# gdb-multiarch attached that sets nothing and continues to the end: the cost
# of -g while gdb has no breakpoint (issue 19: within 1.1x of kit-emu). The
# guest's output and exit status are kit-emu's; gdb's output goes nowhere.
set -u
emu=${1:?usage: gdb_continue.sh KIT_EMU ARGS...}
shift
command -v gdb-multiarch >/dev/null || { echo "gdb_continue.sh: gdb-multiarch not installed" >&2; exit 2; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$emu" -g "$port" "$@" &
pid=$!
hex=$(printf '%04X' "$port")
until grep -q ":$hex 00000000:0000 0A" /proc/net/tcp 2>/dev/null; do
  kill -0 "$pid" 2>/dev/null || { wait "$pid"; exit; }
  sleep 0.01
done
gdb-multiarch -nx -batch -ex "target remote :$port" -ex continue </dev/null >/dev/null 2>&1
wait "$pid"
