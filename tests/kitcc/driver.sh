#!/usr/bin/env bash
# tests/kitcc/driver.sh KITCC — kitcc's driver against gcc's: @response files,
# unknown options rejected, the options Debian and build systems pass accepted,
# the queries (-dumpmachine, -print-*), -v/-###/--version, -fwrapv, .s inputs.
set -uo pipefail
kitcc=$(realpath "${1:?usage: driver.sh KITCC}")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cd "$t"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }

# --- response files: quotes, backslashes, nested, missing (as gcc) ---
cat >show.c <<'C'
#define S_(x) #x
#define S(x) S_(x)
int puts(const char *);
int main(void) { puts(S(A)); puts(S(B)); puts(S(C)); puts(S(D)); return 0; }
C
printf '%s\n' "-DA='one two'" '-DB=\"quoted\"' '-DC=a\ b"c d"' '@inner.rsp' >outer.rsp
printf '%s\n' '-DD=nested' '-o' 'show' >inner.rsp
gcc @outer.rsp show.c && ./show >gcc.out || bad "gcc @file"
rm -f show
"$kitcc" @outer.rsp show.c && ./show >kit.out || bad "kitcc @file"
check "@file expands as gcc's" cmp -s gcc.out kit.out
gcc @missing.rsp show.c 2>gcc.err; grc=$?
"$kitcc" @missing.rsp show.c 2>kit.err; krc=$?
check "missing @file: non-zero like gcc ($grc/$krc)" [ $grc -ne 0 -a $krc -ne 0 ]
check "missing @file named" grep -q "@missing.rsp: No such file or directory" kit.err

# --- unknown options and values: an error, non-zero ---
echo 'int main(void) { return 0; }' >min.c
for opt in -fbogus-flag "-std=c2000" "-march=nonsense" "-x fortran" -m32 -mx32 -Xbogus --bogus; do
  # shellcheck disable=SC2086
  "$kitcc" $opt -c min.c -o min.o 2>err; rc=$?
  check "'$opt' rejected (rc $rc)" [ $rc -ne 0 ]
  check "'$opt' has an error message" grep -q "^kitcc: error: " err
done
"$kitcc" -fbogus-flag -c min.c 2>err
check "clang's wording" grep -qx "kitcc: error: unknown argument: '-fbogus-flag'" err

# --- what Debian and build systems pass: accepted ---
deb="$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get LDFLAGS)"
common="-pipe -fPIC -fstack-protector-strong -Wformat -Werror=format-security -ffile-prefix-map=$t=.
  -fdebug-prefix-map=$t=. -fno-strict-aliasing -Wl,-z,now -Xlinker --as-needed -pthread -g3 -ggdb
  -fvisibility=hidden -fcf-protection -fno-omit-frame-pointer -flto=auto -ffat-lto-objects -Wall -Wextra
  -Wno-unused-parameter -Wp,-D_GLIBCXX_ASSERTIONS -fasynchronous-unwind-tables -fstack-clash-protection
  -m64 -march=x86-64-v2 -mtune=generic -std=gnu11 -fwrapv -fno-common -ffunction-sections
  -fdata-sections -Wl,--gc-sections -fdiagnostics-color=always -fmessage-length=0 -W -Wno-error -Wshadow
  -Wstrict-prototypes -Wmissing-prototypes -Wno-sign-compare -pedantic -fexceptions -Og -O2 -static-libgcc"
# shellcheck disable=SC2086
"$kitcc" $deb min.c -o min 2>err && ./min; rc=$?
check "dpkg-buildflags accepted (rc $rc): $(head -2 err)" [ $rc -eq 0 ]
# shellcheck disable=SC2086
"$kitcc" $common -MD -MF min.d -MT min.o -MP -c min.c -o min.o 2>err; rc=$?
check "common gcc options accepted (rc $rc): $(head -2 err)" [ $rc -eq 0 -a -s min.d ]
check "no diagnostics for them" [ ! -s err ]
"$kitcc" -Wbogus-warning -c min.c -o min.o 2>err; rc=$?
check "unknown -W: a warning as clang's, rc 0" [ $rc -eq 0 ]
check "unknown -W named" grep -q "unknown warning option '-Wbogus-warning'" err

# --- queries: as gcc answers them (gcc does the linking) ---
for q in -dumpmachine -print-prog-name=ld -print-search-dirs -print-libgcc-file-name -print-file-name=libc.so \
         -print-multiarch -print-multi-os-directory; do
  check "$q as gcc" [ "$("$kitcc" $q)" = "$(gcc $q)" ]
done
gnuc=$(echo __GNUC__ | "$kitcc" -E -P - | tr -d ' \n')
check "-dumpversion is __GNUC__ ($gnuc)" [ "$("$kitcc" -dumpversion)" = "$gnuc" ]
check "-print-file-name of the ASan runtime" test -f "$("$kitcc" -print-file-name=libkit_asan.a)"

# --- -v, -###, --version ---
"$kitcc" -v >out 2>err; rc=$?
check "kitcc -v alone: rc 0" [ $rc -eq 0 ]
check "kitcc -v alone: a version" grep -q "^kitcc version " err
check "--version" sh -c "'$kitcc' --version | grep -q '^kitcc version'"
"$kitcc" -v min.c -o min 2>err; rc=$?
check "-v compile+link rc 0" [ $rc -eq 0 ]
check "-v: gcc's include search list" grep -q '^#include <...> search starts here:$' err
check "-v: /usr/include listed" grep -qx ' /usr/include' err
check "-v: end of list" grep -q '^End of search list.$' err
check "-v: the link's collect2 line" grep -q 'collect2 ' err
rm -f min
"$kitcc" -### min.c -o min 2>err; rc=$?
check "-###: rc 0, nothing built" [ $rc -eq 0 -a ! -e min ]
check "-###: quoted commands" grep -q '^ "gcc" ' err

# --- -fwrapv: signed overflow wraps, as with gcc ---
cat >wrap.c <<'C'
#include <limits.h>
int puts(const char *);
__attribute__((noinline)) int grows(int x) { return x + 1 > x; }
int main(void) { puts(grows(INT_MAX) ? "no-wrap" : "wrap"); return 0; }
C
gcc -O2 -fwrapv wrap.c -o wg && "$kitcc" -O2 -fwrapv wrap.c -o wk || bad "-fwrapv builds"
check "-fwrapv as gcc" [ "$(./wk)" = "$(./wg)" -a "$(./wk)" = wrap ]

# --- -D and -U apply in command-line order, as gcc applies them ---
cat >du.c <<'C'
int puts(const char *);
#define S_(x) #x
#define S(x) S_(x)
int main(void) {
#ifdef A
  puts("A=" S(A));
#else
  puts("no A");
#endif
#ifdef B
  puts("B=" S(B));
#else
  puts("no B");
#endif
  return 0;
}
C
dflags="-DA=1 -UA -DA=3 -DB -UB"
gcc $dflags du.c -o dug && "$kitcc" $dflags du.c -o duk || bad "-D/-U builds"
check "-D/-U in order as gcc ($(./duk | tr '\n' ' '))" [ "$(./duk)" = "$(./dug)" ]

# --- -fsyntax-only, .s input, -c ---
"$kitcc" -fsyntax-only min.c 2>err; rc=$?
check "-fsyntax-only rc 0" [ $rc -eq 0 ]
printf '.globl seven\nseven:\n movl $7, %%eax\n ret\n.section .note.GNU-stack,"",@progbits\n' >seven.s
echo 'int seven(void); int main(void) { return seven() != 7; }' >usesev.c
"$kitcc" -c seven.s -o seven.o && "$kitcc" usesev.c seven.o -o sev && ./sev
check ".s assembled by -c" [ $? -eq 0 ]

# --- -Wl, options keep their place among the files (libtool's --whole-archive) ---
printf 'int wa_one(void) { return 1; }\nint wa_two(void) { return 2; }\n' >wa.c
gcc -fPIC -c wa.c -o wa.o && ar cr libwa.a wa.o
gcc -shared -Wl,--whole-archive ./libwa.a -Wl,--no-whole-archive -o wag.so
"$kitcc" -shared -Wl,--whole-archive ./libwa.a -Wl,--no-whole-archive -o wak.so
check "-Wl,--whole-archive LIB.a exports as gcc's ($(nm -D wak.so 2>/dev/null | grep -c ' T wa_'))" \
  [ "$(nm -D wak.so | grep ' T wa_' | awk '{print $3}')" = "$(nm -D wag.so | grep ' T wa_' | awk '{print $3}')" -a \
    "$(nm -D wak.so | grep -c ' T wa_')" = 2 ]
"$kitcc" -Wl,-v 2>err; rc=$?
check "-Wl,... alone is no input file (rc $rc)" [ $rc -eq 1 ] && grep -q "no input files" err

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
