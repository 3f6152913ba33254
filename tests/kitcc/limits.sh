#!/usr/bin/env bash
# tests/kitcc/limits.sh KITCC — inputs nested or chained far past real code:
# clang-16's fatal bracket-depth error (same lines, same exit status) where
# clang has the limit, a clean error where kitcc's parser needs one, and long
# flat chains (a + a + ..., a, a, ..., static sums) compiled and run against
# gcc's results, as is the layout of structs near 2^63 bytes. The preprocessor's cost for a chain of macros built on one
# another must grow about linearly (the time of twice the chain, not eight).
set -uo pipefail
kitcc=${1:?usage: limits.sh KITCC}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

gen() { python3 -c "import sys; sys.stdout.write($2)" >"$1"; }
gen parens.c "'int f(int y){return ' + '('*20000 + 'y' + ')'*20000 + ';}\n'"
gen blocks.c "'void f(void)' + '{'*200000 + '}'*200000 + '\n'"
gen subscripts.c "'int a[1]; int f(void){return ' + 'a['*300 + '0' + ']'*300 + ';}\n'"
gen parens300.c "'int f(int y){return ' + '('*300 + 'y' + ')'*300 + ';}\n'"
gen negs.c "'int f(int y){return ' + '- '*200000 + 'y;}\n'"
gen ifs.c "'int f(int y){' + 'if (y) '*200000 + 'return 0; return 1;}\n'"
gen sum.c "'int f(int y){return ' + '+'.join(['y']*60000) + ';}\n'"
gen comma.c "'int f(int y){return (' + ','.join(['y++']*60000) + ');}\n'"
gen ubsum.c "'int f(int y){return ' + '+'.join(['y']*10000) + ';}\n'"
gen statics.c "'int si = ' + '+'.join(['3']*60000) + ';\ndouble sd = ' + '+'.join(['0.5']*60000) + ';\nint f(int y){return y + si + (int)sd;}\n'"
printf '#include <stdio.h>\nint f(int);\nint main(void){ printf("%%d\\n", f(1)); return 0; }\n' >main.c

# clang's limit and its wording: the first diagnostic lines and the exit status
for c in parens blocks subscripts; do
  want=$(clang-16 -fsyntax-only $c.c 2>&1 | grep -E 'error:|note:')
  got=$("$kitcc" -c $c.c -o $c.o 2>&1)
  rc=$?
  got=$(printf '%s\n' "$got" | grep -E 'error:|note:')
  if [ $rc -eq 1 ] && [ "$got" = "$want" ]; then ok; else bad "$c: exit $rc, got '$got', clang-16 says '$want'"; fi
done
if "$kitcc" -fbracket-depth=400 -c parens300.c -o p.o && clang-16 -fbracket-depth=400 -fsyntax-only parens300.c
then ok; else bad "-fbracket-depth=400 does not take 300 parentheses"; fi

# deeper than the parser recurses: an error and exit status 1, not a signal
for c in negs ifs; do
  out=$("$kitcc" -c $c.c -o $c.o 2>&1)
  rc=$?
  if [ $rc -eq 1 ] && grep -q 'fatal error: nesting level exceeded maximum' <<<"$out"; then ok
  else bad "$c: exit $rc: $(printf '%s' "$out" | head -c 200)"; fi
done

# long flat chains compile (no recursion as deep as the chain) and agree with gcc
# (UBSan checks each of ubsum's 10000 additions: 3 GB of address space is
# plenty, copying the rest of the block per check took 22 GB)
for c in sum comma statics ubsum; do
  want=$(gcc -w $c.c main.c -o gcc.out && ./gcc.out)
  flags=-O0
  [ $c = ubsum ] && flags="-O0 -fsanitize=undefined"
  # shellcheck disable=SC2086
  if (ulimit -v 3000000; "$kitcc" $flags $c.c main.c -o kit.out); then
    got=$(./kit.out 2>&1)
    if [ "$got" = "$want" ]; then ok; else bad "$c ($flags): prints '$got', gcc's prints '$want'"; fi
  else
    bad "$c ($flags): kitcc exit status $?"
  fi
done

# objects near 2^63 bytes: struct layout past 2^60 bytes counts bits beyond i64
cat >huge.c <<'EOF'
#include <stdio.h>
#define N ((1L << (8 * sizeof(__SIZE_TYPE__) - 2)) - 256)
struct tail { short buf[N]; int a, b; };
struct head { int a; short buf[N]; char c; };
struct bits { char buf[N * 2 - 64]; unsigned x : 3, y : 7; };
union both { int a; char buf[N]; };
int main(void) {
  printf("%zx %zx %zx\n", sizeof(struct tail), __builtin_offsetof(struct tail, b), sizeof(struct head));
  printf("%zx %zx %zx\n", __builtin_offsetof(struct head, c), sizeof(struct bits), sizeof(union both));
  return 0;
}
EOF
want=$(gcc -w huge.c -o gcc.out && ./gcc.out)
got=$("$kitcc" -w huge.c -o kit.out && ./kit.out)
if [ "$got" = "$want" ]; then ok; else bad "huge.c: kitcc's layout '$got', gcc's '$want'"; fi

# macro chains: F_n(x) -> F_n-1(x)+1 and M_n -> M_n-1+1, n and 2n deep
chain() {
  python3 -c "
n = $1
print('#define F0(x) x')
print('#define M0 0')
for i in range(1, n + 1): print('#define F%d(x) F%d(x)+1' % (i, i - 1))
for i in range(1, n + 1): print('#define M%d M%d+1' % (i, i - 1))
print('int f = F%d(0);' % n)
print('int m = M%d;' % n)" >"chain$1.c"
}
cpu() { # user+system seconds of kitcc -E, the least of three runs
  python3 - "$kitcc" "$1" <<'EOF'
import resource, subprocess, sys
best = None
for _ in range(3):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.argv[1], "-E", sys.argv[2], "-o", "/dev/null"], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    best = t if best is None else min(best, t)
print("%.3f" % best)
EOF
}
chain 4000
chain 8000
want=$(gcc -E -P chain4000.c | tr -d ' \n')
got=$("$kitcc" -E chain4000.c | grep -v '^#' | tr -d ' \n')
if [ "$got" = "$want" ]; then ok; else bad "chain4000.c: kitcc -E differs from gcc -E"; fi
t1=$(cpu chain4000.c) t2=$(cpu chain8000.c)
# twice the chain: about twice the time; 0.1 s absorbs the timer's granularity
if python3 -c "import sys; sys.exit(0 if $t2 < 3 * $t1 + 0.1 else 1)"; then ok
else bad "macro chain: 4000 deep ${t1}s, 8000 deep ${t2}s of cpu (more than linear growth)"; fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
