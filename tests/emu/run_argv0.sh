#!/usr/bin/env bash
# tests/emu/run_argv0.sh KIT_EMU — `-0 ARGV0` gives the guest another argv[0]
# while the program named after it is what runs, as qemu-riscv64's -0 does
# (packages.sh's cross wrappers run NAME.rv64 as NAME). 77 without the tools.
set -u
emu=$1
command -v riscv64-linux-gnu-gcc >/dev/null && command -v qemu-riscv64 >/dev/null || exit 77
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '#include <stdio.h>\nint main(int argc, char **argv) { printf("%%d [%%s] [%%s]\\n", argc, argv[0], argc > 1 ? argv[1] : ""); return 3; }\n' >"$work/a.c"
riscv64-linux-gnu-gcc -O2 "$work/a.c" -o "$work/prog.rv64" || exit 1
status=0
for name in gzip "/some/dir/unlz4" "with space"; do
  q=$(qemu-riscv64 -L /usr/riscv64-linux-gnu -0 "$name" "$work/prog.rv64" arg); qrc=$?
  k=$("$emu" -L /usr/riscv64-linux-gnu -0 "$name" "$work/prog.rv64" arg); krc=$?
  if [ "$q" = "$k" ] && [ $qrc = $krc ] && [ "$k" = "2 [$name] [arg]" ]; then echo "ok: -0 '$name': $k"
  else echo "FAIL: -0 '$name': kit-emu '$k' ($krc), qemu '$q' ($qrc)"; status=1; fi
done
k=$("$emu" -L /usr/riscv64-linux-gnu "$work/prog.rv64")
[ "$k" = "1 [$work/prog.rv64] []" ] || { echo "FAIL: without -0: '$k'"; status=1; }
"$emu" -0 2>/dev/null; [ $? = 1 ] || { echo "FAIL: -0 without a name is not an error"; status=1; }
exit $status
