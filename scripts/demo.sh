#!/usr/bin/env bash
# scripts/demo.sh — the main demo (README.md): builds kit, then shows one heap
# bug (examples/heap-overflow.c) caught twice with the same report: compiled
# by `kitcc -fsanitize=address` and run natively, then built by a stock
# riscv64-linux-gnu-gcc and run under `kit-emu --sanitize=address`; then
# several kit-emu tools at once (one built against the installed kit through
# pkg-config); ends with the CG demo (one CG program through the interpreter, the JIT and an object).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
src=examples/heap-overflow.c

echo
echo "== $src compiled by kitcc -g -fsanitize=address, run on the host"
build/bin/kitcc -g -fsanitize=address -o "$tmp/heap-overflow" "$src"
rc=0; "$tmp/heap-overflow" || rc=$?
echo "(exit $rc: the report ends the program, as AddressSanitizer does)"

echo
echo "== $src built by riscv64-linux-gnu-gcc -g -O0, run by kit-emu --sanitize=address"
riscv64-linux-gnu-gcc -g -O0 -static -o "$tmp/heap-overflow.rv64" "$src"
rc=0; build/bin/kit-emu --sanitize=address "$tmp/heap-overflow.rv64" || rc=$?
echo "(exit $rc: the same report, with guest addresses and the guest's DWARF)"

echo
echo "== several kit-emu tools at once on the tool API (docs/tools.md): ASan, --strace, the built-in"
echo "   insncount and examples/tools/hotblocks.c built against the installed kit with pkg-config"
cmake --install build --prefix "$tmp/kit" >/dev/null
cc -O2 -shared -fPIC $(PKG_CONFIG_PATH="$tmp/kit/lib/pkgconfig" pkg-config --cflags kit-emu-tool) \
  -o "$tmp/hotblocks.so" examples/tools/hotblocks.c
riscv64-linux-gnu-gcc -O2 -static -o "$tmp/hello.rv64" tests/emu/guest/hello.c
rc=0; build/bin/kit-emu --sanitize=address --strace --tool=insncount --tool="$tmp/hotblocks.so,top=3" \
  "$tmp/hello.rv64" || rc=$?
echo "(exit $rc: the guest's own status)"

echo
echo "== the same hello under kit-emu's callgrind (read by Valgrind's callgrind_annotate), probes, a trace"
echo "   and the built-in debugger"
riscv64-linux-gnu-gcc -g -O1 -static -o "$tmp/hello-g.rv64" tests/emu/guest/hello.c
build/bin/kit-emu --tool=callgrind,--callgrind-out-file="$tmp/cg.out" "$tmp/hello-g.rv64" >/dev/null || true
callgrind_annotate "$tmp/cg.out" | sed -n '/PROGRAM TOTALS/p;/file:function/,+4p'
build/bin/kit-emu --probe=main --probe=puts "$tmp/hello-g.rv64" >/dev/null || true
build/bin/kit-emu --trace=insn,syscall --trace-out="$tmp/h.trace" "$tmp/hello-g.rv64" >/dev/null || true
build/bin/kit-trace stats "$tmp/h.trace" | head -3
build/bin/kit-emu --dbg -batch -ex 'break main' -ex run -ex bt -ex continue "$tmp/hello-g.rv64" || true

echo
thr=tests/e2e/cross/cases/thread_hbo_write.c
echo "== a guest with threads: $thr (an overflow in a second thread) under kit-emu --sanitize=address"
riscv64-linux-gnu-gcc -g -O0 -pthread -o "$tmp/thread.rv64" "$thr"
rc=0; ASAN_OPTIONS=color=never build/bin/kit-emu --sanitize=address "$tmp/thread.rv64" 2>&1 |
  sed -n '/^WRITE/,/^SUMMARY/p' || rc=$?
echo "(the report names thread T1 and where T0 created it, as clang's runtime does)"

echo
demo=examples/demo.cg
echo "== the CG layer underneath: $demo through the CG interpreter, the LLVM JIT, and as an object"
rc=0; build/bin/kit-cg run "$demo" || rc=$?; echo "(interpreter: exit $rc)"
rc=0; build/bin/kit-cg jit "$demo" || rc=$?; echo "(JIT: exit $rc)"
build/bin/kit-cg emit -O2 -o "$tmp/demo.o" "$demo"
rc=0; gcc "$tmp/demo.o" -o "$tmp/demo" && "$tmp/demo" || rc=$?; echo "(object linked by gcc: exit $rc)"
exit 0
