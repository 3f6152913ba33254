#!/usr/bin/env bash
# options.sh KITCC KIT_EMU — ASAN_OPTIONS mean the same under kit-emu as in a
# kitcc -fsanitize=address program: exitcode, detect_leaks, halt_on_error with
# recover (-fsanitize-recover=address / --sanitize-recover=address),
# log_path, print_legend, malloc_context_size, quarantine_size_mb. Each
# setting runs a program both ways; exit statuses and the report lines
# selected per setting must agree.
set -u
kitcc=$1 emu=$2
here=$(cd "$(dirname "$0")" && pwd)
command -v riscv64-linux-gnu-gcc >/dev/null || { echo "SKIP: riscv64-linux-gnu-gcc not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat >two.c <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  (void)argv;
  char *p = malloc(10);
  p[10 + argc - 1] = 1;
  p[11 + argc - 1] = 2;
  printf("after the errors\n");
  free(p);
  return 0;
}
C
build() { # build NAME SRC [recover]
  local rec=()
  [[ ${3:-} ]] && rec=(-fsanitize-recover=address)
  $kitcc -g -fsanitize=address "${rec[@]}" -o "$1.host" "$2" &&
    riscv64-linux-gnu-gcc -g -O0 -static -o "$1.rv" "$2"
}
build leak "$here/cases/leak_direct.c" && build uaf "$here/cases/uaf_read.c" && build two two.c rec ||
  { echo "FAIL: cannot build"; exit 1; }
fail=0
check() { # check DESC OPTIONS PROG GREP [recover]
  local desc=$1 opts=$2 prog=$3 pat=$4 rec=()
  [[ ${5:-} ]] && rec=(--sanitize-recover=address)
  ASAN_OPTIONS=$opts "./$prog.host" >h.out 2>h.err; local hs=$?
  ASAN_OPTIONS=$opts "$emu" --sanitize=address "${rec[@]}" "./$prog.rv" >e.out 2>e.err; local es=$?
  local hl el
  hl=$(cat h.out h.err | grep -cE "$pat") el=$(cat e.out e.err | grep -cE "$pat")
  if [[ $hs == "$es" && $hl == "$el" ]]; then
    echo "same    [$desc] exit $hs, $hl matching lines"
  else
    echo "differs [$desc] exit compiled=$hs kit-emu=$es, /$pat/ lines compiled=$hl kit-emu=$el"
    fail=$((fail + 1))
  fi
}
check "exitcode=42" "exitcode=42" uaf "ERROR: AddressSanitizer"
check "detect_leaks=0" "detect_leaks=0" leak "LeakSanitizer"
check "detect_leaks=1" "detect_leaks=1" leak "LeakSanitizer|Direct leak"
check "halt_on_error=0 with recover" "halt_on_error=0" two "ERROR: AddressSanitizer|after the errors" rec
check "halt_on_error=1 with recover" "halt_on_error=1" two "ERROR: AddressSanitizer|after the errors" rec
check "print_legend=0" "print_legend=0" uaf "Shadow byte legend|ERROR"
check "malloc_context_size=1" "malloc_context_size=1" uaf "^ +#1 |freed by"
check "quarantine_size_mb=0" "quarantine_size_mb=0" uaf "heap-use-after-free"
for m in host rv; do
  rm -f log.*
  if [[ $m == host ]]; then ASAN_OPTIONS=log_path=$tmp/log ./uaf.host 2>/dev/null
  else ASAN_OPTIONS=log_path=$tmp/log "$emu" --sanitize=address ./uaf.rv 2>/dev/null; fi
  n=$(cat log.* 2>/dev/null | grep -c "heap-use-after-free")
  if [[ $n -ge 1 ]]; then echo "same    [log_path ($m)] report in log.PID"; else echo "differs [log_path ($m)] no log file"; fail=$((fail + 1)); fi
done
echo "$fail differ"
[[ $fail == 0 ]]
