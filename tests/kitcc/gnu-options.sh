#!/usr/bin/env bash
# tests/kitcc/gnu-options.sh KITCC — gcc's code-generation options that
# change what a program does, against gcc itself on the same sources:
# -fwrapv (signed overflow wraps, so `x + 1 < x` is a real test),
# -finstrument-functions (__cyg_profile_func_enter/exit around every function
# but those marked no_instrument_function), -fgnu89-inline (`inline` emits the
# external definition, `extern inline` none), and __builtin_constant_p, which
# at -O2 answers 1 for an argument that inlining made constant.
set -euo pipefail
kitcc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
check() { # NAME COMMAND...: counts COMMAND's success
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
same_output() { # NAME FLAGS...: t.c built by gcc and by kitcc with FLAGS prints the same
  local name=$1; shift
  gcc -w "$@" "$work/t.c" -o "$work/gcc.exe" && "$work/gcc.exe" >"$work/gcc.out"
  "$kitcc" -w "$@" "$work/t.c" -o "$work/kit.exe" && "$work/kit.exe" >"$work/kit.out"
  if cmp -s "$work/gcc.out" "$work/kit.out"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: $name ($*)"; diff "$work/gcc.out" "$work/kit.out" | head -5 || true
  fi
}

cat >"$work/t.c" <<'C'
#include <limits.h>
#include <stdio.h>
__attribute__((noinline)) int wraps(int x) { return x + 1 < x; }
__attribute__((noinline)) long mul_wraps(long x) { return x * 2 / 2 != x; }
int main(void) {
  printf("%d %d %d\n", wraps(INT_MAX), wraps(0), (int)mul_wraps(LONG_MAX));
  return 0;
}
C
same_output "-fwrapv: signed overflow wraps" -O2 -fwrapv
same_output "-fno-strict-overflow is -fwrapv" -O2 -fno-strict-overflow

cat >"$work/t.c" <<'C'
#include <stdio.h>
#define NOCHK __attribute__((no_instrument_function))
static int enters, exits, depth, max_depth;
static void *last_fn;
void __cyg_profile_func_enter(void *fn, void *site) NOCHK;
void __cyg_profile_func_exit(void *fn, void *site) NOCHK;
void __cyg_profile_func_enter(void *fn, void *site) {
  enters++, last_fn = fn;
  if (++depth > max_depth) max_depth = depth;
  (void)site;
}
void __cyg_profile_func_exit(void *fn, void *site) { exits++, depth--, (void)fn, (void)site; }
int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
void leaf(void) {}
static int skipped(int x) NOCHK;
static int skipped(int x) { return x * 3; }
int main(void) NOCHK;
int main(void) {
  int r = fib(10);
  leaf();
  int at_leaf = last_fn == (void *)leaf;
  r += skipped(2);
  printf("fib %d enters %d exits %d depth %d leaf %d\n", r, enters, exits, max_depth, at_leaf);
  return 0;
}
C
same_output "-finstrument-functions at -O0" -O0 -finstrument-functions
same_output "-finstrument-functions at -O2" -O2 -finstrument-functions

cat >"$work/t.c" <<'C'
#include <stdio.h>
static inline int is_const(int x) { return __builtin_constant_p(x); }
__attribute__((noinline)) int opaque(int x) { return __builtin_constant_p(x); }
int global = 5;
int main(int argc, char **argv) {
  int n = 4, side = 0;
  (void)argv;
  printf("%d %d %d %d %d %d %d %d\n", __builtin_constant_p(3 * 7), __builtin_constant_p("str"),
         __builtin_constant_p(side++), side, __builtin_constant_p(&global), opaque(argc),
         __builtin_constant_p(argc), is_const(2));
  printf("%d\n", __builtin_constant_p(n) ? 1 : 0);
  return 0;
}
C
same_output "__builtin_constant_p at -O0" -O0
same_output "__builtin_constant_p after inlining at -O2" -O2

# -fgnu89-inline: `inline` defines the external symbol, `extern inline` is inline only
cat >"$work/a.c" <<'C'
inline int seven(void) { return 7; }
extern inline int eight(void) { return 8; }
int use_eight(void) { return eight(); }
C
cat >"$work/b.c" <<'C'
int seven(void);
int eight(void) { return 88; } /* the out-of-line definition gnu89's extern inline defers to */
int use_eight(void);
int main(void) { return seven() == 7 && (use_eight() == 8 || use_eight() == 88) ? 0 : 1; }
C
gnu89_links() { # FLAGS...
  "$kitcc" "$@" -c "$work/a.c" -o "$work/a.o" && gcc -c "$work/b.c" -o "$work/b.o" &&
    gcc "$work/a.o" "$work/b.o" -o "$work/ab.exe" && "$work/ab.exe"
}
defines() { nm "$work/a.o" | grep -q " T $1\$"; }
check "-fgnu89-inline: the program links and runs" gnu89_links -O0 -fgnu89-inline
check "-fgnu89-inline: inline defines seven" defines seven
check "-fgnu89-inline: extern inline does not define eight" eval '! defines eight'
check "-std=gnu89 means gnu89 inline" gnu89_links -O2 -std=gnu89
check "gnu89 inline predefines __GNUC_GNU_INLINE__" \
  eval "echo __GNUC_GNU_INLINE__ __GNUC_STDC_INLINE__ | '$kitcc' -fgnu89-inline -E - | grep -q '^1 __GNUC_STDC_INLINE__'"
check "C99 inline predefines __GNUC_STDC_INLINE__" \
  eval "echo __GNUC_GNU_INLINE__ __GNUC_STDC_INLINE__ | '$kitcc' -E - | grep -q '^__GNUC_GNU_INLINE__ 1'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
