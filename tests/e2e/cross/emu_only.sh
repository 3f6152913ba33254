#!/usr/bin/env bash
# emu_only.sh KIT_EMU — overflows through libc functions that the native
# runtime leaves to the uninstrumented libc (as clang's does) but kit-emu sees:
# each program of cases_emu/, built by riscv64-linux-gnu-gcc static and
# dynamic, must give the report its `expect:` line names under
# kit-emu --sanitize=address (kind and frame #0's function in SUMMARY).
set -u
emu=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v riscv64-linux-gnu-gcc >/dev/null || { echo "SKIP: riscv64-linux-gnu-gcc not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 pass=0
for src in "$here"/cases_emu/*.c; do
  name=$(basename "$src" .c)
  want=$(sed -n 's|.*expect: \([a-z-]*\) in \([A-Za-z_]*\).*|\1 \2|p' "$src")
  [[ -n $want ]] || { echo "FAIL [$name] no expect: line"; fail=$((fail + 1)); continue; }
  read -r kind fn <<<"$want"
  for link in static dynamic; do
    flags=(-g -O0)
    [[ $link == static ]] && flags+=(-static)
    riscv64-linux-gnu-gcc "${flags[@]}" -o "$tmp/$name" "$src" || { echo "FAIL [$name] cannot build"; fail=$((fail + 1)); continue; }
    timeout 120 "$emu" ${EMU_FLAGS:-} --sanitize=address "$tmp/$name" >/dev/null 2>"$tmp/err" </dev/null
    rc=$?
    got=$(grep '^SUMMARY:' "$tmp/err")
    if [[ $rc != 0 && $got == "SUMMARY: AddressSanitizer: $kind "*" in $fn" ]]; then
      pass=$((pass + 1))
      echo "ok      [$name/$link] $kind in $fn"
    else
      fail=$((fail + 1))
      echo "FAIL    [$name/$link] rc=$rc, want $kind in $fn, got: ${got:-no report}"
      head -5 "$tmp/err" | sed 's/^/    /'
    fi
  done
done
echo "$pass runs as expected, $fail not"
[[ $fail == 0 ]]
