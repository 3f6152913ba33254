#!/usr/bin/env bash
# origins.sh KIT_EMU — kit-emu --sanitize=memory --sanitize-memory-track-origins
# against valgrind memcheck --track-origins=yes: programs whose uninitialized
# value comes from the heap (a byte, a field, realloc's grown part, through a
# parameter and a return value in registers) or a stack frame (a local, one
# copied by memcpy, one passed to a function), built with riscv64 gcc -g -O0
# -static (under kit-emu, tiers auto, 0 and 1) and x86-64 gcc -g -O0 (under
# memcheck). Per program: the report's first frame in the program's source,
# the origin's kind (kit-emu's "created by a heap allocation" / "created in
# the stack frame", memcheck's "created by a heap / stack allocation") and its
# first frame in the program's source (function, line: the allocation's call,
# the function whose prologue made the frame) must be memcheck's. Then free's
# origin ("a heap deallocation", memcheck reports an invalid read there
# instead) and origins off (no origin lines).
set -u
emu=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
e2e=$here/../../e2e/msan
for t in riscv64-linux-gnu-gcc gcc valgrind; do
  command -v $t >/dev/null || { echo "SKIP: $t not installed"; exit 0; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

# "FUNC LINE" frames in file $2: the report's first, then the origin's kind and its first
kinds='function kind(l) { return l ~ /deallocation/ ? "origin: freed" : l ~ /heap/ ? "origin: heap" : "origin: stack" }'
kit_summary() {
  awk -v f="$2" "$kinds"'
    function frame(l,  a) { a = l; sub(/^ +#[0-9]+ 0x[0-9a-f]+ in /, "", a); sub(/ .*\//, " ", a)
                            sub(/:[0-9]+$/, "", a); sub(":", " ", a); return a }
    /^ +#[0-9]+ / && index($0, "/" f ":") && !rep { rep = 1; print "report:", frame($0) }
    /Uninitialized value was created/ { print kind($0); want = 1; next }
    want && /^ +#[0-9]+ / && index($0, "/" f ":") { print "  at", frame($0); want = 0 }' "$1"
}
vg_summary() {
  awk -v f="$2" "$kinds"'
    function frame(l,  a) { a = l; sub(/^==[0-9]+== +(at|by) 0x[0-9A-F]+: /, "", a); sub(/ \(/, " ", a)
                            sub(/\)$/, "", a); sub(":", " ", a); return a }
    /^==[0-9]+== +(at|by) / && index($0, "(" f ":") && !rep { rep = 1; print "report:", frame($0) }
    /Uninitialised value was created by/ { print kind($0); want = 1; next }
    want && /^==[0-9]+== +(at|by) / && index($0, "(" f ":") { print "  at", frame($0); want = 0 }' "$1"
}
same() { # what expected got
  if [[ -n $2 && $2 == "$3" ]]; then
    echo "same    $1"
  else
    echo "differs $1"; diff <(echo "$2") <(echo "$3") | sed 's/^/    /'; fails=$((fails + 1))
  fi
}

for src in "$e2e"/cases/bug_heap_byte.c "$e2e"/cases/bug_heap_field.c "$e2e"/cases/bug_realloc_grown.c \
           "$e2e"/origins/heap_through_call.c "$e2e"/cases/bug_after_free.c "$e2e"/cases/bug_branch_local.c \
           "$e2e"/cases/bug_memcpy.c "$e2e"/cases/bug_param.c; do
  name=$(basename "$src" .c)
  riscv64-linux-gnu-gcc -g -O0 -static "$src" -o "$tmp/$name.rv" && gcc -g -O0 "$src" -o "$tmp/$name.x86" ||
    { echo "differs [$name] build failed"; fails=$((fails + 1)); continue; }
  if [[ $name == bug_after_free ]]; then
    ref=$'report: main bug_after_free.c 9\norigin: freed\n  at main bug_after_free.c 7'
  else
    (cd "$tmp" && exec 2>/dev/null; timeout 60 valgrind -q --track-origins=yes "./$name.x86" >/dev/null 2>"$tmp/$name.vg")
    ref=$(vg_summary "$tmp/$name.vg" "$name.c")
  fi
  for tier in auto 0 1; do
    [[ $tier != auto && $name != bug_heap_byte ]] && continue
    timeout 60 "$emu" --tier=$tier --sanitize=memory --sanitize-memory-track-origins "$tmp/$name.rv" \
      >/dev/null 2>"$tmp/$name.kit" </dev/null
    same "[$name] --tier=$tier" "$ref" "$(kit_summary "$tmp/$name.kit" "$name.c")"
  done
done
# origins off: the report alone
timeout 60 "$emu" --sanitize=memory "$tmp/bug_heap_byte.rv" >/dev/null 2>"$tmp/off.kit" </dev/null
same "[bug_heap_byte] origins off" "report: main bug_heap_byte.c 8" "$(kit_summary "$tmp/off.kit" bug_heap_byte.c)"
echo "origins: $fails differences"
[[ $fails == 0 ]]
