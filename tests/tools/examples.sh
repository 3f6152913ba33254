#!/usr/bin/env bash
# tests/tools/examples.sh — examples/tools built the way a user outside the
# tree builds a tool (cmake --install, then cc against pkg-config
# kit-emu-tool) and checked against independent counts on a guest that knows
# its own numbers (examples_guest.c): bb and insn against --tool=insncount,
# syscall against --strace, mem against the guest's stores, hotblocks against
# its hot loop, howvec against insncount and the system calls made; the
# same counts in every tier; faulting loads, seen by callbacks and not by
# inline counts; three tools at once with --sanitize=address and
# --strace give the numbers each gives alone under --sanitize=address.
# Usage: examples.sh BUILD_DIR SOURCE_DIR
set -u
build=$1 src=$2
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-tools-examples.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

# ---- install, build the examples and the guest ----------------------------------------------
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; echo "FAIL: cmake --install"; exit 1; }
emu=$prefix/bin/kit-emu
for f in bin/kit-emu include/kit/emu_tool.h include/kit/emu.h include/kit/arch.h include/kit/cg.h lib/pkgconfig/kit-emu-tool.pc; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
cflags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags kit-emu-tool) || { echo "FAIL: pkg-config --cflags kit-emu-tool"; exit 1; }
case "$cflags" in *"$prefix"*) ;; *) fail "pkg-config --cflags kit-emu-tool does not point into the prefix: $cflags" ;; esac
[ -z "$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --libs kit-emu-tool)" ] || fail "kit-emu-tool.pc has Libs"

# every function emu_tool.h and emu.h declare must resolve against the kit-emu executable
sed -n 's/^[A-Za-z].*[ *]\(kit_emu_[a-z0-9_]*\)(.*/\1/p' "$prefix/include/kit/emu_tool.h" "$prefix/include/kit/emu.h" | grep -v '^kit_emu_u64_\(per_thread\|shared\)$' |
  sort -u >"$work/declared"
nm -D --defined-only "$emu" | awk '{print $3}' | sort -u >"$work/exported"
missing=$(comm -23 "$work/declared" "$work/exported" | tr '\n' ' ')
[ -z "$missing" ] || fail "kit-emu does not export: $missing"

tools="bb insn mem hotblocks howvec syscall"
for t in $tools; do
  # shellcheck disable=SC2086 # cflags is a word list
  cc -shared -fPIC -Wall -Wextra -Werror $cflags "$src/examples/tools/$t.c" -o "$work/$t.so" 2>"$work/cc.log" ||
    { head -5 "$work/cc.log"; fail "build examples/tools/$t.c"; }
done
guest_src=$src/tests/tools/examples_guest.c
riscv64-linux-gnu-gcc -static -O1 -o "$work/guest" "$guest_src" || { echo "FAIL: build the guest"; exit 1; }
define() { sed -n "s/^#define $1 \([0-9a-fx]*\)u\{0,1\}\$/\1/p" "$guest_src"; }
getppid_calls=$(define GETPPID_CALLS) close_errors=$(define CLOSE_ERRORS) sink_n=$(define SINK_N) faults=$(define FAULTS)
sink_base=$(define SINK_BASE) sink_step=$(define SINK_STEP) hot_iters=$(define HOT_ITERS)
sink=$(riscv64-linux-gnu-nm "$work/guest" | awk '$3 == "sink" {print $1}')
[ -n "$getppid_calls" ] && [ -n "$sink_step" ] && [ -n "$faults" ] && [ -n "$hot_iters" ] && [ -n "$sink" ] ||
  { echo "FAIL: the guest's numbers (defines, sink's address)"; exit 1; }
range=$(printf '%x-%x' $((0x$sink)) $((0x$sink + 4 * sink_n)))

# run NAME EMU-OPTIONS...: the guest (with the argument $guest_arg, if set) under kit-emu; its
# stdout in NAME.out, stderr in NAME.err
guest_arg=
run() {
  local name=$1
  shift
  (cd "$work" && "$emu" "$@" ./guest $guest_arg >"$name.out" 2>"$name.err")
  local rc=$?
  [ $rc -eq 0 ] && grep -q '^guest: ' "$work/$name.out" ||
    { fail "$name: kit-emu $* ./guest $guest_arg exited $rc"; head -5 "$work/$name.err"; }
}
# field FILE SED-EXPR: the first value the expression prints
field() { sed -n "$2" "$1" | head -1; }
insncount_of() { field "$1" 's/^kit-emu: insncount: \([0-9]*\) instructions.*/\1/p'; }
bb_insns() { field "$1" 's/^bb: blocks [0-9]* insns \([0-9]*\)$/\1/p'; }
insn_count() { field "$1" 's/^insn: \([0-9]*\)$/\1/p'; }
howvec_total() { field "$1" 's/^howvec: \([0-9]*\) instructions$/\1/p'; }
# syscall's table and --strace's lines as "NAME CALLS ERRORS", sorted
syscall_table() { awk '$1 == "syscall:" && $2 != "name" {print $2, $3, $4}' "$1" | sort; }
strace_table() {
  sed -n 's/^\([a-z0-9_]\+\)(.*/\1 &/p' "$1" |
    awk '{n[$1]++; if ($0 ~ /\) = -1 E[A-Z0-9]* \(/) e[$1]++} END {for (k in n) print k, n[k], e[k] + 0}' | sort
}
same() { # what, a, b
  [ -n "$2" ] && [ "$2" = "$3" ] || fail "$1: '$2' vs '$3'"
}

# ---- each tool alone against an independent count -------------------------------------------
run insncount --tool=insncount
ic=$(insncount_of "$work/insncount.err")
[ -n "$ic" ] && [ "$ic" -gt "$hot_iters" ] || fail "insncount: no count (${ic:-none})"
run bb --tool=./bb.so,out=bb.txt
same "bb insns = insncount" "$(bb_insns "$work/bb.txt")" "$ic"
run insn_inline --tool=./insn.so,inline,out=insn_inline.txt
same "insn inline = insncount" "$(insn_count "$work/insn_inline.txt")" "$ic"
run insn_cb --tool=./insn.so,cb,out=insn_cb.txt
same "insn cb = insncount" "$(insn_count "$work/insn_cb.txt")" "$ic"
run howvec --tool=./howvec.so,out=howvec.txt
same "howvec total = insncount" "$(howvec_total "$work/howvec.txt")" "$ic"

run strace --strace
run syscall --tool=./syscall.so,out=syscall.txt
syscall_table "$work/syscall.txt" >"$work/syscall.table"
strace_table "$work/strace.err" >"$work/strace.table"
diff "$work/strace.table" "$work/syscall.table" >"$work/diff" || { fail "syscall counts differ from --strace (< strace, > syscall)"; cat "$work/diff"; }
same "getppid calls" "$(awk '$1 == "getppid" {print $2}' "$work/syscall.table")" "$getppid_calls"
same "close errors" "$(awk '$1 == "close" {print $3}' "$work/syscall.table")" "$close_errors"
syscalls=$(awk '{s += $2} END {print s}' "$work/strace.table")
same "howvec syscall class = system calls made" \
  "$(awk '$1 == "howvec:" && $2 == "syscall" {print $3}' "$work/howvec.txt")" "$syscalls"

run mem "--tool=./mem.so,print=1000,range=$range,out=mem.txt"
for kind in store load; do
  for i in $(seq 0 $((sink_n - 1))); do
    printf '%s addr=0x%x size=4 value=0x%x\n' $kind $((0x$sink + 4 * i)) $((sink_base + i * sink_step))
  done
done >"$work/mem.expected"
awk '$1 == "mem:" && ($2 == "store" || $2 == "load") {print $2, $4, $5, $6}' "$work/mem.txt" >"$work/mem.seen"
diff "$work/mem.expected" "$work/mem.seen" >"$work/diff" ||
  { fail "mem: the guest's $sink_n stores and loads of sink (< expected, > seen)"; head -20 "$work/diff"; }
read -r loads stores < <(field "$work/mem.txt" 's/^mem: loads \([0-9]*\) stores \([0-9]*\)$/\1 \2/p')
[ "${stores:-0}" -ge "$sink_n" ] && [ "${loads:-0}" -ge "$sink_n" ] || fail "mem totals: loads ${loads:-?} stores ${stores:-?}"
mem_totals() { field "$1" 's/^mem: \(loads [0-9]* stores [0-9]*\)$/\1/p'; }
# the callbacks see what inline adds on the load and store instructions count
run mem_inline --tool=./mem.so,inline,out=mem_inline.txt
same "mem inline = mem callbacks" "$(mem_totals "$work/mem_inline.txt")" "loads $loads stores $stores"
run mem_r --tool=./mem.so,rw=r,out=mem_r.txt
same "mem rw=r" "$(mem_totals "$work/mem_r.txt")" "loads $loads stores 0"
run mem_w --tool=./mem.so,rw=w,out=mem_w.txt
same "mem rw=w" "$(mem_totals "$work/mem_w.txt")" "loads 0 stores $stores"

run hotblocks --tool=./hotblocks.so,out=hotblocks.txt
read -r hot_pc hot_sym hot_insns hot_exec < <(awk '$1 == "hotblocks:" && $2 ~ /^0x/ {print $2, $3, $4, $5; exit}' "$work/hotblocks.txt")
case "${hot_sym:-}" in hot_loop+0x*) ;; *) fail "hotblocks: top block ${hot_pc:-?} is '${hot_sym:-}', not in hot_loop" ;; esac
[ "${hot_exec:-0}" -ge $((hot_iters - 1)) ] && [ "${hot_exec:-0}" -le "$hot_iters" ] ||
  fail "hotblocks: top block ran ${hot_exec:-?} times, hot_loop iterates $hot_iters"

echo "insncount $ic, syscalls $syscalls (getppid $getppid_calls), mem loads ${loads:-?} stores ${stores:-?}," \
  "hot block ${hot_pc:-?} ${hot_sym:-?} ${hot_insns:-?} insns x ${hot_exec:-?}"

# ---- every tier: the interpreter, the baseline compiler, LLVM early, one instruction a block ----
for mode in --tier=0 --tier=1 --jit-threshold=5 --single-step; do
  m=${mode#--}
  m=${m%%=*}
  run "mode_$m" "$mode" --tool=insncount --tool=./bb.so,out=mode_bb.txt --tool=./insn.so,cb,out=mode_insn.txt \
    "--tool=./mem.so,print=1000,range=$range,out=mode_mem.txt"
  same "$mode: insncount" "$(insncount_of "$work/mode_$m.err")" "$ic"
  same "$mode: bb insns" "$(bb_insns "$work/mode_bb.txt")" "$ic"
  same "$mode: insn cb" "$(insn_count "$work/mode_insn.txt")" "$ic"
  awk '$1 == "mem:" && ($2 == "store" || $2 == "load") {print $2, $4, $5, $6}' "$work/mode_mem.txt" |
    diff -q "$work/mem.expected" - >/dev/null || fail "$mode: mem does not see the guest's stores and loads of sink"
  same "$mode: mem totals" "$(mem_totals "$work/mode_mem.txt")" "loads $loads stores $stores"
done

# ---- faults: a load that faults is seen by callbacks (they run before it), not by inline
# adds (they count what retires); the same shared object twice is two tools ---------------------
guest_arg=faults
for mode in --tier=auto --tier=0 --tier=1 --jit-threshold=5 --single-step; do
  m=${mode#--}
  m=${m%%=*}
  run "faults_$m" "$mode" --tool=insncount --tool=./bb.so,out=f_bb.txt --tool=./insn.so,inline,out=f_inline.txt \
    --tool=./insn.so,cb,out=f_cb.txt --tool=./mem.so,out=f_mem.txt --tool=./mem.so,inline,out=f_mem_inline.txt
  grep -q "^guest: faults $faults " "$work/faults_$m.out" || fail "$mode: the guest did not take $faults faults"
  fic=$(insncount_of "$work/faults_$m.err") finl=$(insn_count "$work/f_inline.txt")
  fcb=$(insn_count "$work/f_cb.txt") fbb=$(bb_insns "$work/f_bb.txt")
  same "$mode, faults: insn inline = insncount" "$finl" "$fic"
  same "$mode, faults: insn cb = insn inline + $faults" "$fcb" "$((${finl:-0} + faults))"
  read -r ml ms < <(field "$work/f_mem.txt" 's/^mem: loads \([0-9]*\) stores \([0-9]*\)$/\1 \2/p')
  same "$mode, faults: mem callbacks = mem inline + $faults loads" "$(mem_totals "$work/f_mem_inline.txt")" \
    "loads $((${ml:-0} - faults)) stores ${ms:-?}"
  [ "${fbb:-0}" -ge "${fcb:-0}" ] || fail "$mode, faults: bb counts faulting blocks whole: ${fbb:-?} < ${fcb:-?}"
  [ "$mode" = --tier=auto ] && figures="insncount and insn inline ${fic:-?}, insn cb ${fcb:-?}, bb ${fbb:-?}"
done
echo "faults ($faults, --tier=auto): ${figures:-?}"
guest_arg=

# ---- refusals: a bad argument, a tool built for another API version ----------------------------
(cd "$work" && "$emu" --tool=./insn.so,bogus ./guest >/dev/null 2>"$work/bad.err")
[ $? -ne 0 ] && grep -q "insn: unknown argument 'bogus'" "$work/bad.err" ||
  { fail "a bad tool argument is refused with the tool's message"; head -3 "$work/bad.err"; }
sed 's/^const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;/const uint32_t kit_emu_tool_api_version = 2;/' \
  "$src/examples/tools/bb.c" >"$work/bb_v2.c"
# shellcheck disable=SC2086 # cflags is a word list
cc -shared -fPIC $cflags "$work/bb_v2.c" -o "$work/bb_v2.so" || fail "build bb_v2.so"
(cd "$work" && "$emu" --tool=./bb_v2.so ./guest >/dev/null 2>"$work/v2.err")
[ $? -ne 0 ] && [ "$(wc -l <"$work/v2.err")" -eq 1 ] && grep -q "version 2.*3" "$work/v2.err" ||
  { fail "a tool built for API version 2 is refused in one line naming both versions"; head -3 "$work/v2.err"; }

# ---- three at once, with --sanitize=address and --strace, = each alone -----------------------
san=--sanitize=address
run asan_bb $san --tool=./bb.so,out=asan_bb.txt
run asan_insn $san --tool=./insn.so,cb,out=asan_insn.txt
run asan_howvec $san --tool=./howvec.so,out=asan_howvec.txt
run asan_syscall $san --tool=./syscall.so,out=asan_syscall.txt
run asan_mem $san "--tool=./mem.so,print=1000,range=$range,out=asan_mem.txt"
run asan_hot $san --tool=./hotblocks.so,out=asan_hot.txt
run combo1 $san --strace --tool=./bb.so,out=c1_bb.txt --tool=./syscall.so,out=c1_syscall.txt \
  "--tool=./mem.so,print=1000,range=$range,out=c1_mem.txt"
run combo2 $san --strace --tool=./insn.so,cb,out=c2_insn.txt --tool=./hotblocks.so,out=c2_hot.txt \
  --tool=./howvec.so,out=c2_howvec.txt
for pair in asan_bb.txt:c1_bb.txt asan_syscall.txt:c1_syscall.txt asan_mem.txt:c1_mem.txt \
  asan_insn.txt:c2_insn.txt asan_hot.txt:c2_hot.txt asan_howvec.txt:c2_howvec.txt; do
  diff "$work/${pair%%:*}" "$work/${pair#*:}" >"$work/diff" ||
    { fail "together with two others: ${pair#*:} differs from ${pair%%:*} (alone)"; head -10 "$work/diff"; }
done
strace_table "$work/combo1.err" >"$work/c1_strace.table"
syscall_table "$work/c1_syscall.txt" | diff "$work/c1_strace.table" - >"$work/diff" ||
  { fail "together: syscall's counts differ from --strace's lines"; cat "$work/diff"; }
same "together: bb insns = insn (cb)" "$(bb_insns "$work/c1_bb.txt")" "$(insn_count "$work/c2_insn.txt")"
same "together: howvec total = insn (cb)" "$(howvec_total "$work/c2_howvec.txt")" "$(insn_count "$work/c2_insn.txt")"
echo "under $san: insns $(insn_count "$work/asan_insn.txt") (alone without it: $ic)"

[ $status -eq 0 ] && echo "tools_examples: ok"
exit $status
