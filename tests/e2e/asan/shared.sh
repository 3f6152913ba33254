#!/usr/bin/env bash
# shared.sh KITCC — an instrumented -shared library (no runtime linked into it)
# loaded by an instrumented executable: its globals are registered (the report
# names the library's global), its heap and stack accesses are checked.
set -u
cc=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/lib.c" <<'C'
void *malloc(unsigned long);
void free(void *);
int lib_table[6];
int lib_global(int i) { return lib_table[i]; }
int lib_heap(int n) { char *p = malloc(n); p[n] = 1; free(p); return 0; }
int lib_stack(int i) { char b[12]; for (int k = 0; k < 12; k++) b[k] = 0; return b[i]; }
C
cat >"$tmp/main.c" <<'C'
#include <stdio.h>
int lib_global(int i);
int lib_heap(int n);
int lib_stack(int i);
int main(int argc, char **argv) {
  (void)argv;
  printf("ok %d\n", lib_global(5) + lib_stack(11));
  if (argc == 2) return lib_global(6);
  if (argc == 3) return lib_heap(24);
  if (argc == 4) return lib_stack(12);
  return 0;
}
C
fail=0
"$cc" -g -fsanitize=address -shared -fPIC "$tmp/lib.c" -o "$tmp/libk.so" || exit 1
if nm -D --defined-only "$tmp/libk.so" | grep -q ' T malloc$'; then echo "FAIL: the runtime was linked into the library"; fail=1; fi
"$cc" -g -fsanitize=address "$tmp/main.c" -L"$tmp" -lk -Wl,-rpath,"$tmp" -o "$tmp/main" || exit 1
expect() { # args... -- patterns
  local args=()
  while [[ $1 != -- ]]; do args+=("$1"); shift; done
  shift
  "$tmp/main" "${args[@]}" >"$tmp/out" 2>&1
  local rc=$?
  for pat in "$@"; do
    grep -qE -- "$pat" "$tmp/out" || { echo "FAIL [${args[*]}]: missing '$pat' (rc=$rc)"; sed 's/^/    /' "$tmp/out" | head -20; fail=1; }
  done
}
expect -- "^ok 0$"
expect a -- "global-buffer-overflow" "READ of size 4" "#0 0x[0-9a-f]+ in lib_global .*lib.c:4" \
  "is located 0 bytes after global variable 'lib_table' defined in '.*lib.c:3' .* of size 24"
expect a b -- "heap-buffer-overflow" "WRITE of size 1" "#0 0x[0-9a-f]+ in lib_heap .*lib.c:5" \
  "is located 0 bytes after 24-byte region"
expect a b c -- "stack-buffer-overflow" "READ of size 1" "#0 0x[0-9a-f]+ in lib_stack .*lib.c:6" "'b' \\(line 6\\)"
[[ $fail -eq 0 ]] && echo "shared: ok"
exit $fail
