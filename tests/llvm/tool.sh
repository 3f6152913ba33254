#!/usr/bin/env bash
# tests/llvm/tool.sh KIT_CG EXAMPLES_DIR — kit-cg end to end: the demo on the
# interpreter, the JIT and as a linked object; argv, ctors and dtors; bad
# input gives one clear line and exit status 1; a trap flushes stdout and
# exits 1 in both executors.
set -uo pipefail
kitcg=$1 examples=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "tool.sh: $*"; exit 1; }

demo_out='2 3 5 7 11 13 17 19 23 29 31 37 41 43 47 53 59 61 67 71 73 79 83 89 97 
25 primes below 100, sum 1060'
for mode in run jit "jit -O2" "jit -O1 --fast-codegen"; do
  out=$("$kitcg" $mode "$examples/demo.cg"); st=$?
  [ "$st" = 0 ] || fail "$mode demo.cg: exit $st, want 0"
  [ "$out" = "$demo_out" ] || fail "$mode demo.cg: output differs: $out"
done
"$kitcg" emit -O2 -o "$tmp/demo.o" "$examples/demo.cg" || fail "emit demo.cg"
gcc "$tmp/demo.o" -o "$tmp/demo" || fail "link demo.o"
out=$("$tmp/demo"); st=$?
[ "$st" = 0 ] && [ "$out" = "$demo_out" ] || fail "linked demo: exit $st, output $out"
"$kitcg" emit -S -o "$tmp/demo.s" "$examples/demo.cg" && grep -q 'main:' "$tmp/demo.s" || fail "emit -S"
"$kitcg" emit --llvm "$examples/demo.cg" | grep -q 'define i32 @main' || fail "emit --llvm"

want_argv=$'ctor\nargv[1]=hello\ndtor'
for mode in run jit; do
  out=$("$kitcg" $mode "$here/argc.cg" hello world); st=$?
  [ "$st" = 3 ] || fail "$mode argc.cg: exit $st, want 3"
  [ "$out" = "$want_argv" ] || fail "$mode argc.cg: output differs: $out"
done
"$kitcg" emit -o "$tmp/argc.o" "$here/argc.cg" && gcc "$tmp/argc.o" -o "$tmp/argc" || fail "emit argc.cg"
out=$("$tmp/argc" hello); st=$?
[ "$st" = 2 ] && [ "$out" = "$want_argv" ] || fail "linked argc: exit $st, output $out (llvm.global_ctors)"

"$kitcg" verify "$examples/demo.cg" || fail "verify demo.cg"
"$kitcg" print "$examples/demo.cg" > "$tmp/p.cg" && "$kitcg" verify "$tmp/p.cg" || fail "print | verify"

# bad input: nonzero exit and a message, never a crash
bad() {
  "$kitcg" "$@" > /dev/null 2> "$tmp/err"; st=$?
  [ "$st" = 1 ] || fail "kit-cg $*: exit $st, want 1"
  [ -s "$tmp/err" ] || fail "kit-cg $*: no message"
}
printf 'this is not CG\n' > "$tmp/junk.cg"
printf 'module "m"\nfunc @f() -> i32 {\nb0:\n  ret\n}\n' > "$tmp/noreturn.cg"
printf 'module "m"\nfunc @f() -> i32 {\nb0:\n  %%1 = const i32 0\n  ret %%1\n}\n' > "$tmp/nomain.cg"
bad
bad frobnicate "$examples/demo.cg"
bad emit -O7 "$examples/demo.cg"
bad emit --target mips "$examples/demo.cg"
bad emit -o
bad run "$tmp/does-not-exist.cg"
bad print "$tmp/junk.cg"
bad jit "$tmp/noreturn.cg"
bad jit "$tmp/nomain.cg"
bad run "$tmp/nomain.cg"
bad emit -o /nonexistent-dir/x.o "$examples/demo.cg"
# a trapping program: a message and status 1 from both executors
printf 'module "m"\nfunc @main() -> i32 {\nb0:\n  trap\n}\n' > "$tmp/trap.cg"
bad jit "$tmp/trap.cg"
bad run "$tmp/trap.cg"
# what it printed before the trap reaches a file (stdio buffers it fully there),
# and no atexit handler runs after the trap
cat > "$tmp/trap2.cg" <<'CG'
module "m"
global @s size 7 align 1 const = x"6265666f726500"
global @t size 6 align 1 const = x"6166746572"
declare @puts(ptr) -> i32
declare @atexit(ptr) -> i32
func @late() -> void {
b0:
  %1 = symaddr @t
  %2 = call i32 @puts(%1)
  ret
}
func @main() -> i32 {
b0:
  %1 = symaddr @late
  %2 = call i32 @atexit(%1)
  %3 = symaddr @s
  %4 = call i32 @puts(%3)
  trap
}
CG
for mode in run jit "jit -O2"; do
  "$kitcg" $mode "$tmp/trap2.cg" > "$tmp/trap2.out" 2> "$tmp/trap2.err"; st=$?
  [ "$st" = 1 ] || fail "$mode trap2.cg: exit $st, want 1"
  [ "$(cat "$tmp/trap2.out")" = before ] || fail "$mode trap2.cg: stdout '$(cat "$tmp/trap2.out")', want 'before'"
  grep -q trapped "$tmp/trap2.err" || fail "$mode trap2.cg: no trap message: $(cat "$tmp/trap2.err")"
done
echo "tool.sh: ok"
