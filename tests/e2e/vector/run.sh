#!/bin/sh
# tests/e2e/vector/run.sh — GNU vector_size vectors end to end:
#  1. ops.c (the operators, casts, subscripts, shuffles, conversions) and
#     sse2.c (SSE2 intrinsics through gcc's <emmintrin.h>) built by kitcc at
#     -O0 and -O2 print what gcc's build prints, and clang-16's build agrees;
#     sse2.c also under -fsanitize=address,undefined without a report;
#  2. abi_a.c/abi_b.c: vectors and structs of vectors passed both ways between
#     kitcc and gcc objects (every mix, -O0 and -O2) print the all-gcc output;
#  3. unsupported.c: an __builtin_ia32_* kitcc lacks is an error naming it,
#     only when the program uses it.
#   run.sh KITCC
set -u
KITCC=$1
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

for prog in ops sse2; do
  gcc -O0 -w -Wno-psabi -o "$WORK/$prog.gcc" "$HERE/$prog.c" && "$WORK/$prog.gcc" >"$WORK/$prog.want" ||
    { bad "$prog: gcc reference build"; continue; }
  if clang-16 -O0 -w -o "$WORK/$prog.clang" "$HERE/$prog.c" && "$WORK/$prog.clang" >"$WORK/$prog.clang.out" &&
     cmp -s "$WORK/$prog.want" "$WORK/$prog.clang.out"; then ok "$prog: clang-16 agrees with gcc"; else
    bad "$prog: clang-16's output differs from gcc's"
  fi
  for cfg in "O0:-O0" "O2:-O2" "san:-O1 -fsanitize=address,undefined"; do
    name=$prog.${cfg%%:*}
    # shellcheck disable=SC2086
    if ! "$KITCC" ${cfg#*:} -o "$WORK/$name" "$HERE/$prog.c" 2>"$WORK/$name.cc"; then
      bad "$name: kitcc failed: $(head -c 300 "$WORK/$name.cc")"
      continue
    fi
    "$WORK/$name" >"$WORK/$name.out" 2>"$WORK/$name.err"
    if cmp -s "$WORK/$prog.want" "$WORK/$name.out" && [ ! -s "$WORK/$name.err" ]; then ok "$name"; else
      bad "$name: output differs from gcc's or a report was printed"
      diff "$WORK/$prog.want" "$WORK/$name.out" | head -5
      head -5 "$WORK/$name.err"
    fi
  done
done

gcc -O1 -w -Wno-psabi -c "$HERE/abi_a.c" -o "$WORK/ga.o" && gcc -O1 -w -Wno-psabi -c "$HERE/abi_b.c" -o "$WORK/gb.o" &&
  gcc "$WORK/ga.o" "$WORK/gb.o" -o "$WORK/gg" && "$WORK/gg" >"$WORK/abi.want" || { bad "abi: gcc reference build"; }
for o in -O0 -O2; do
  if ! "$KITCC" $o -c "$HERE/abi_a.c" -o "$WORK/ka.o" || ! "$KITCC" $o -c "$HERE/abi_b.c" -o "$WORK/kb.o"; then
    bad "abi $o: kitcc failed"
    continue
  fi
  for mix in "ka gb" "ga kb" "ka kb"; do
    set -- $mix
    if gcc "$WORK/$1.o" "$WORK/$2.o" -o "$WORK/mix" && "$WORK/mix" >"$WORK/mix.out" && cmp -s "$WORK/abi.want" "$WORK/mix.out"
    then ok "abi $o: $1.o + $2.o"; else
      bad "abi $o: $1.o + $2.o prints other than the all-gcc build"
      diff "$WORK/abi.want" "$WORK/mix.out" | head -5
    fi
  done
done

if "$KITCC" -O2 -o "$WORK/unsup" "$HERE/unsupported.c" 2>"$WORK/unsup.err" && "$WORK/unsup"; then
  ok "unsupported: the headers' unused builtins are no error"
else
  bad "unsupported: without the builtin: $(head -c 300 "$WORK/unsup.err")"
fi
"$KITCC" -O2 -DUSE_IT -o "$WORK/unsup2" "$HERE/unsupported.c" 2>"$WORK/unsup2.err"
rc=$?
if [ $rc -ne 0 ] && [ $rc -lt 128 ] && grep -q "unsupported builtin '__builtin_ia32_pshufb128'" "$WORK/unsup2.err"; then
  ok "unsupported: a clean error naming the builtin"
else
  bad "unsupported: exit $rc, $(head -c 300 "$WORK/unsup2.err")"
fi
exit $fail
