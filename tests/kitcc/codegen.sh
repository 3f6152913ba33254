#!/usr/bin/env bash
# tests/kitcc/codegen.sh KITCC — the function attributes kitcc gives LLVM
# (docs/kitcc.md "Performance"): frame pointers only at -O0, with a sanitizer
# or -fno-omit-frame-pointer; every C function nounwind with unwind tables
# (an FDE per function in .eh_frame); visibility("internal") as hidden; and
# -ftime-report's phases.
set -euo pipefail
kitcc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/t.c" <<'C'
__attribute__((visibility("internal"))) int inner(int *p, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += p[i] * (i + 1);
  return s;
}
int outer(int *p, int n) { return inner(p, n) + inner(p + 1, n - 1); }
C
pass=0 fail=0
check() { # NAME COMMAND...: counts COMMAND's success
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
no() { ! "$@"; }
has_fp() { # FLAGS...: does the IR of t.c keep frame pointers?
  "$kitcc" "$@" -emit-llvm "$work/t.c" -o "$work/t.ll"
  grep -q '"frame-pointer"="all"' "$work/t.ll"
}
check "-O0 keeps frame pointers" has_fp -O0
check "-O2 omits frame pointers" no has_fp -O2
check "-O2 -fno-omit-frame-pointer keeps them" has_fp -O2 -fno-omit-frame-pointer
check "-O2 -fsanitize=address keeps them (the runtime unwinds by them)" has_fp -O2 -fsanitize=address
check "-O0 -fomit-frame-pointer omits them" no has_fp -O0 -fomit-frame-pointer

"$kitcc" -O0 -emit-llvm "$work/t.c" -o "$work/t.ll"
check "visibility(\"internal\") is hidden" grep -q '^define hidden i32 @inner' "$work/t.ll"
attrs=$(sed -n 's/^define [^#]*@outer([^)]*)[^#]*#\([0-9]*\).*/\1/p' "$work/t.ll")
line=$(grep "^attributes #$attrs " "$work/t.ll" || true)
check "C functions are nounwind with uwtable: '$line'" grep -q 'nounwind.*uwtable' <<<"$line"

# unwind tables stay: one FDE per function in .eh_frame at -O2
"$kitcc" -O2 -c "$work/t.c" -o "$work/t.o"
fdes=$(readelf --debug-dump=frames "$work/t.o" 2>/dev/null | grep -c ' FDE ' || true)
check "two FDEs in .eh_frame (got $fdes)" [ "$fdes" = 2 ]

rep=$("$kitcc" -O1 -ftime-report -c "$work/t.c" -o "$work/t.o" 2>&1)
for phase in "preprocess+parse" "lower to CG" "cg->llvm" "llvm opt" "llvm codegen"; do
  check "-ftime-report has '$phase'" grep -q "kitcc: time: $phase .* s cpu .* s wall" <<<"$rep"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
