#!/usr/bin/env bash
# tests/emu/run_tools.sh — the driver's tools and debug output: --strace lines
# (strings, flags, errors, exit), --tool=insncount giving the same exact count
# in tier 0, tier 1 and single-step mode, -d in_asm/cg, and option errors.
set -u
emu=$1 guestdir=$2 toolso=${3:-}
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-emu-tools.XXXXXX")
trap 'rm -rf "$work"' EXIT
riscv64-linux-gnu-gcc -static -O2 -o "$work/hello" "$guestdir/hello.c" || exit 1
riscv64-linux-gnu-gcc -static -O2 -o "$work/fileio" "$guestdir/fileio.c" || exit 1
status=0
fail() { echo "FAIL: $*"; status=1; }
expect_line() { # file, fixed string
  grep -qF -- "$2" "$1" || { fail "missing in $(basename "$1"): $2"; head -20 "$1"; }
}

"$emu" --strace "$work/hello" >"$work/out" 2>"$work/strace"
[ $? -eq 3 ] || fail "hello --strace exit status"
expect_line "$work/strace" 'write(1, "hello, world\n", 13) = 13'
expect_line "$work/strace" 'exit_group(3) = ?'
expect_line "$work/strace" '+++ exited with 3 +++'
grep -q '^brk(NULL) = 0x' "$work/strace" || fail "brk line"
mkdir "$work/t"
"$emu" --strace "$work/fileio" "$work/t" >"$work/out" 2>"$work/strace2"
expect_line "$work/strace2" 'openat(AT_FDCWD, "/nonexistent/kit", O_RDONLY) = -1 ENOENT (No such file or directory)'
expect_line "$work/strace2" "O_RDWR|O_CREAT|O_TRUNC, 0644) = "
grep -qE '^lseek\([0-9]+, 5, SEEK_SET\) = 5$' "$work/strace2" || fail "lseek line"
grep -qE '^read\([0-9]+, "one\\nline two\\n", 63\) = 13$' "$work/strace2" || fail "read line with the data read"

counts=()
for mode in --tier=0 --tier=1 "--single-step" "--tier=auto"; do
  "$emu" $mode --tool=insncount "$work/hello" >"$work/out" 2>"$work/ic"
  c=$(sed -n 's/^kit-emu: insncount: \([0-9]*\) instructions.*/\1/p' "$work/ic")
  [ -n "$c" ] || { fail "no insncount line for $mode"; cat "$work/ic"; continue; }
  expect_line "$work/out" "hello, world"
  counts+=("$c")
  echo "insncount $mode: $c"
done
[ "${#counts[@]}" -eq 4 ] && [ "${counts[0]}" = "${counts[1]}" ] && [ "${counts[0]}" = "${counts[2]}" ] &&
  [ "${counts[0]}" = "${counts[3]}" ] && [ "${counts[0]}" -gt 1000 ] || fail "insncount differs between modes: ${counts[*]}"

"$emu" -d in_asm,cg --tier=0 "$work/hello" >"$work/out" 2>"$work/dbg"
grep -q '^IN: 0x' "$work/dbg" || fail "-d in_asm prints blocks"
grep -q 'func @emu_block_' "$work/dbg" || fail "-d cg prints CG"
"$emu" -d bogus "$work/hello" >/dev/null 2>&1; [ $? -eq 1 ] || fail "-d bogus exits 1"
"$emu" --tier=7 "$work/hello" >/dev/null 2>&1; [ $? -eq 1 ] || fail "--tier=7 exits 1"
"$emu" --tool=nosuch "$work/hello" >/dev/null 2>&1; [ $? -eq 1 ] || fail "unknown tool exits 1"
"$emu" >/dev/null 2>&1; [ $? -eq 1 ] || fail "no program exits 1"
riscv64-linux-gnu-gcc -O2 -o "$work/hello_dyn" "$guestdir/hello.c" || exit 1
"$emu" -L /usr/riscv64-linux-gnu "$work/hello_dyn" >"$work/out" 2>/dev/null
[ $? -eq 3 ] && grep -q "hello, world" "$work/out" || fail "-L sysroot runs a dynamic program"
KIT_EMU_SYSROOT=/nonexistent/sysroot "$emu" "$work/hello_dyn" >"$work/out" 2>"$work/err"
[ $? -eq 1 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "interpreter .* not found" "$work/err" ||
  { fail "missing sysroot: one line, exit 1"; cat "$work/err"; }

riscv64-linux-gnu-gcc -static -O2 -o "$work/nosys" "$guestdir/nosys.c" || exit 1
"$emu" -d syscall "$work/nosys" >"$work/out" 2>"$work/err"
expect_line "$work/out" "r=-1 enosys=1"
grep -q "unsupported syscall 999 (unknown) at pc 0x" "$work/err" || fail "-d syscall warns about syscall 999"

if [ -n "$toolso" ]; then
  "$emu" --tool="$toolso" --tool-args=t1 "$work/hello" >"$work/out" 2>"$work/so"
  [ $? -eq 3 ] || fail "hello under the loadable tool: exit status"
  expect_line "$work/so" "tool_example[t1]: "
  expect_line "$work/so" " some blocks, status 3"
  grep -q "tool_example\[t1\]: [1-9][0-9]* syscalls" "$work/so" || fail "loadable tool counted syscalls"
  "$emu" --tool=/nonexistent/tool.so "$work/hello" >/dev/null 2>"$work/so2"; [ $? -eq 1 ] || fail "missing tool .so exits 1"
fi
[ $status = 0 ] && echo "ok: tools"
exit $status
