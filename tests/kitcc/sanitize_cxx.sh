#!/usr/bin/env bash
# tests/kitcc/sanitize_cxx.sh KITCC — a C library built with kitcc
# -fsanitize=address,undefined linked into a C++ program by g++ (and clang++),
# with the runtimes from `kitcc -fsanitize=... --print-sanitizer-link-flags`:
# it links, runs clean, and reports the C code's heap overflow and overflow.
set -uo pipefail
kitcc=$(realpath "${1:?usage: sanitize_cxx.sh KITCC}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t"
pass=0 fail=0
check() { local what=$1; shift; if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi; }

cat >sum.c <<'C'
int kit_sum(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
int kit_add(int a, int b) { return a + b; }
C
cat >main.cpp <<'C'
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>
extern "C" int kit_sum(const int *a, int n);
extern "C" int kit_add(int a, int b);
int main(int argc, char **argv) {
  int mode = argc > 1 ? std::atoi(argv[1]) : 0;
  int *a = new int[4]{1, 2, 3, 4};
  std::vector<int> v(a, a + 4);
  int s = kit_sum(v.data(), mode == 1 ? 5 : 4); /* mode 1: reads a[4], past the heap block */
  int o = kit_add(mode == 2 ? INT_MAX : 1, 1);  /* mode 2: signed overflow */
  std::printf("%d %d\n", s, o);
  delete[] a;
  return 0;
}
C
san=-fsanitize=address,undefined
"$kitcc" $san -g -c sum.c -o sum.o && ar rcs libsum.a sum.o
flags=$("$kitcc" $san --print-sanitizer-link-flags)
check "link flags name the runtimes ($flags)" sh -c "echo '$flags' | grep -q libkit_asan.a && echo '$flags' | grep -q libkit_ubsan.a"
for cxx in g++ clang++; do
  command -v $cxx >/dev/null || continue
  # shellcheck disable=SC2086
  $cxx -g main.cpp -L. -lsum $flags -o prog-$cxx 2>link.err
  check "$cxx links the kitcc-sanitized library: $(head -2 link.err)" test -x prog-$cxx
  out=$(./prog-$cxx 0 2>&1); rc=$?
  check "$cxx: a clean run is quiet (rc $rc: $out)" [ $rc -eq 0 -a "$out" = "10 2" ]
  ./prog-$cxx 1 >out 2>err; rc=$?
  check "$cxx: heap overflow in the C code stops it (rc $rc)" [ $rc -ne 0 ]
  check "$cxx: ASan names it" grep -q "ERROR: AddressSanitizer: heap-buffer-overflow" err
  check "$cxx: in kit_sum" grep -q "kit_sum" err
  ./prog-$cxx 2 >out 2>err
  check "$cxx: UBSan reports the C code's overflow" grep -q "sum.c:6.*runtime error: signed integer overflow" err
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
