#!/usr/bin/env bash
# cross_kitcc.sh KITCC KIT_EMU [CASE.c...] — one report contract across the two
# modes: each program of tests/e2e/msan/cases built with kitcc -g -O0
# -fsanitize=memory -fno-sanitize-memory-param-retval (clang's lazy mode:
# shadows through calls, checks at branches, addresses and libc's reads, as a
# binary gets them) and with riscv64-linux-gnu-gcc -g -O0 -static under kit-emu
# --sanitize=memory. Both reports must have clang's shape (the WARNING line,
# frames, the SUMMARY line, Exiting) and the same first frame in the program's
# source (function and line), or neither may report, except where the modes
# differ by design (expected[] below: what each must give there).
set -u
declare -A expected=(
  # compiled code checks divisors (clang does); binaries are checked as memcheck checks them
  [bug_divisor]="quot 3 / main 6"
  # fwrite's interceptor checks at the call; a binary's bytes reach write(2) at fclose
  [bug_fwrite]="main 7 / main 8"
  # lazy compiled code checks no printf argument; in a binary vfprintf branches on it
  [bug_printf]="clean / main 8"
  # lazy compiled code checks no exit status; a binary's reaches exit_group(2) (memcheck's
  # "Syscall param exit_group(status)"), with no frame in the program: main has returned
  [bug_return]="clean / other"
)
kitcc=$(realpath "$1") emu=$(realpath "$2")
shift 2
here=$(cd "$(dirname "$0")" && pwd)
command -v riscv64-linux-gnu-gcc >/dev/null || { echo "SKIP: riscv64-linux-gnu-gcc not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=("$here"/../../e2e/msan/cases/*.c)
verdict() { # ERR FILE
  grep -q 'WARNING: MemorySanitizer: use-of-uninitialized-value' "$1" || { echo clean; return; }
  grep -qE '^SUMMARY: MemorySanitizer: use-of-uninitialized-value .+ in [^ ]+$' "$1" || { echo "no-summary"; return; }
  local v
  v=$(sed -nE "s/^ +#[0-9]+ 0x[0-9a-f]+ in ([^ ]+) (.*\/)?$2:([0-9]+)(:[0-9]+)?\$/\1 \3/p" "$1" | head -1)
  echo "${v:-other}"
}
agree=0 total=0
for src in "${cases[@]}"; do
  name=$(basename "$src" .c) file=$(basename "$src")
  total=$((total + 1))
  "$kitcc" -g -O0 -fsanitize=memory -fno-sanitize-memory-param-retval "$src" -o "$tmp/$name.kit" -lm 2>/dev/null &&
    riscv64-linux-gnu-gcc -g -O0 -static "$src" -o "$tmp/$name.rv" -lm 2>/dev/null || { echo "differs [$name] build failed"; continue; }
  (cd "$tmp" && timeout 20 "./$name.kit" >/dev/null 2>"$name.kit.err" </dev/null)
  (cd "$tmp" && timeout 30 "$emu" --sanitize=memory "./$name.rv" >/dev/null 2>"$name.emu.err" </dev/null)
  k=$(verdict "$tmp/$name.kit.err" "$file") e=$(verdict "$tmp/$name.emu.err" "$file")
  if [[ -n ${expected[$name]:-} ]]; then
    if [[ "$k / $e" == "${expected[$name]}" ]]; then
      agree=$((agree + 1)); echo "by mode [$name] kitcc: $k / kit-emu: $e"
    else
      echo "differs [$name] kitcc: $k / kit-emu: $e (expected ${expected[$name]})"
    fi
  elif [[ $k == "$e" ]]; then
    agree=$((agree + 1)); echo "same    [$name] $k"
  else
    echo "differs [$name] kitcc: $k / kit-emu: $e"
  fi
done
echo "kit-emu --sanitize=memory agrees with kitcc -fsanitize=memory (lazy) on $agree of $total programs"
[[ $agree == "$total" ]]
