#!/usr/bin/env bash
# tests/kitcc/buildsys.sh KITCC — real build systems take kitcc as a C11/C17
# compiler: a CMake project with target_compile_features(c_std_11/c_std_17)
# configures, builds and runs, and autoconf's AC_PROG_CC finds kitcc GNU C
# with C11 and needs no option for it.
set -uo pipefail
kitcc=$(realpath "${1:?usage: buildsys.sh KITCC}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
pass=0 fail=0
check() { local what=$1; shift; if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi; }

mkdir -p "$t/cm"
cat >"$t/cm/CMakeLists.txt" <<'C'
cmake_minimum_required(VERSION 3.13)
project(kitcc_features C)
add_executable(c11 c11.c)
target_compile_features(c11 PRIVATE c_std_11)
add_executable(c17 c17.c)
target_compile_features(c17 PRIVATE c_std_17)
C
cat >"$t/cm/c11.c" <<'C'
#include <stdio.h>
_Static_assert(__STDC_VERSION__ >= 201112L, "C11");
int main(void) { _Alignas(16) int x = 11; printf("c11 %d\n", x); return 0; }
C
cat >"$t/cm/c17.c" <<'C'
#include <stdio.h>
_Static_assert(__STDC_VERSION__ >= 201710L, "C17");
int main(void) { printf("c17 %ld\n", (long)__STDC_VERSION__); return 0; }
C
CC="$kitcc" cmake -S "$t/cm" -B "$t/cm/b" >"$t/cmake.log" 2>&1
check "cmake configures with kitcc ($(grep -m1 'error' "$t/cmake.log"))" test -f "$t/cm/b/Makefile"
check "CMake identifies GNU C" grep -q "The C compiler identification is GNU" "$t/cmake.log"
check "CMake found implicit include dirs" grep -q "/usr/include" "$t/cm/b/CMakeFiles/"*/CMakeCCompiler.cmake
cmake --build "$t/cm/b" >"$t/build.log" 2>&1
check "the C11 and C17 targets build ($(grep -m1 -i 'error' "$t/build.log"))" test -x "$t/cm/b/c17"
check "c11 runs" [ "$("$t/cm/b/c11")" = "c11 11" ]
check "c17 runs" [ "$("$t/cm/b/c17")" = "c17 201710" ]

mkdir -p "$t/ac"
cat >"$t/ac/configure.ac" <<'C'
AC_INIT([kitcc-probe], [1.0])
AC_PROG_CC
AC_CHECK_HEADERS([stdio.h unistd.h])
AC_CHECK_FUNCS([strdup])
AC_CHECK_SIZEOF([long])
AC_OUTPUT
C
if command -v autoconf >/dev/null; then
  (cd "$t/ac" && autoconf 2>/dev/null && ./configure CC="$kitcc" >"$t/conf.log" 2>&1)
  check "configure with kitcc ($(tail -1 "$t/conf.log"))" [ $? -eq 0 ]
  check "AC_PROG_CC: GNU C" grep -q "whether we are using the GNU C compiler... yes\|whether the compiler supports GNU C... yes" "$t/conf.log"
  check "AC_PROG_CC: -g accepted" grep -q "whether $kitcc accepts -g... yes" "$t/conf.log"
  if grep -q "option to enable C11 features" "$t/conf.log"; then
    check "AC_PROG_CC: C11 without options" grep -q "option to enable C11 features... none needed" "$t/conf.log"
  else
    check "AC_PROG_CC: C89 without options" grep -q "option to accept ISO C89... none needed" "$t/conf.log"
  fi
  check "sizeof(long) 8" grep -q "size of long... 8" "$t/conf.log"
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
