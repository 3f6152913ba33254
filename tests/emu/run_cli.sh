#!/usr/bin/env bash
# tests/emu/run_cli.sh KIT_EMU KIT_COV MAIN_C KIT_COV_C — the emu-side command
# lines: --version and --help exit 0 on stdout, --help names every option the
# driver's source parses, and kit-cov refuses garbage inputs with a message
# and exit status 1 instead of an empty report.
set -u
emu=$1 cov=$2 main_c=$3 cov_c=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-emu-cli.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }
for tool in "$emu" "$cov"; do
  name=$(basename "$tool")
  out=$("$tool" --version) && [[ $out == "$name (kit) "* ]] || fail "$name --version: '$out'"
  "$tool" --help >"$work/help" 2>"$work/err" || fail "$name --help exits $?"
  [[ -s $work/err ]] && fail "$name --help writes to stderr"
  src=$main_c
  [[ $name == kit-cov ]] && src=$cov_c
  # every option the source compares an argument with
  for o in $(grep -o '"-[-a-zA-Z0-9]*[=]*' "$src" | tr -d '"' | sort -u); do
    grep -q -- "${o%=}" "$work/help" || fail "$name --help does not mention $o"
  done
done
printf 'int main(void){return 0;}\n' >"$work/t.c"
cc -g -o "$work/t" "$work/t.c"
printf 'kit-cov ranges v1\nhello world\n' >"$work/garbage.ranges"
printf 'kit-cov ranges v1\n10 8 1\n' >"$work/backwards.ranges"
head -c 300 /dev/urandom >"$work/random"
printf '\x64\xff\xff\xff\xff\xff\xbf\xc0\x10\x00\x00' >"$work/partial.sancov"
for f in garbage.ranges backwards.ranges random partial.sancov missing; do
  "$cov" "$work/t" "$work/$f" >"$work/out" 2>"$work/err"
  rc=$?
  if [[ $rc != 1 ]] || ! grep -q "kit-cov: error: .*$f" "$work/err"; then
    fail "kit-cov on $f: exit $rc, stderr: $(head -2 "$work/err")"
  else
    echo "ok: kit-cov $f: $(head -1 "$work/err")"
  fi
done
printf 'kit-cov ranges v1\n# a comment\n\n' >"$work/empty.ranges"
"$cov" -q "$work/t" "$work/empty.ranges" || fail "kit-cov on an empty range file exits $?"
[[ $status == 0 ]] && echo "ok: versions, help texts, kit-cov inputs"
exit $status
