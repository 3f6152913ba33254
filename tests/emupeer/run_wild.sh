#!/usr/bin/env bash
# tests/emupeer/run_wild.sh KIT_EMU DIR CANARY_TOOL_SO — wildwrite.c (a guest
# that loads and stores at every address it can form by walking bits) under
# kit-emu with the canary tool (canary_tool.c: host memory on both sides of the
# guest window and a heap block, checked byte for byte when the guest ends):
#   - walk mode (faults caught by the guest): exit 0, no rule violation, the
#     same per-access outcome list in tier 0, tier 1 and auto, canaries intact;
#   - die mode (no handler): exit status 139 (the guest's SIGSEGV), canaries
#     intact — kit-emu itself never crashes ("internal error" fails the test);
#   - the canary tool's self-test corrupts a byte and must report it.
# Static and dynamic guests. Exit 77 (skipped) without the cross toolchain.
set -u
emu=$1 dir=$2 canary=$3
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-emupeer-wild.XXXXXX")
trap 'rm -rf "$work"' EXIT
ulimit -c 0
status=0
fail() { echo "FAIL: $*"; status=1; }
for link in static dynamic; do
  lf=(); [ $link = static ] && lf=(-static)
  riscv64-linux-gnu-gcc -O2 "${lf[@]}" -o "$work/ww-$link" "$dir/wildwrite.c" || exit 1
  for t in 0 1 auto; do
    what="$link tier $t"
    { "$emu" --tier=$t --tool="$canary" "$work/ww-$link" walk -v >"$work/walk.$t" 2>"$work/err"; rc=$?; } 2>/dev/null
    if [ $rc -ne 0 ] || grep -q '^BAD' "$work/walk.$t"; then
      fail "walk, $what: exit $rc"; grep '^BAD' "$work/walk.$t" | head; tail -3 "$work/err"
    elif ! grep -q '^emupeer-canary: ok' "$work/err" || grep -q 'internal error' "$work/err"; then
      fail "walk, $what: host memory check:"; cat "$work/err"
    else
      echo "ok: walk, $what: $(tail -n1 "$work/walk.$t"); $(grep -o 'ok, [0-9]* bytes intact' "$work/err")"
    fi
    if [ $t != 0 ] && ! cmp -s "$work/walk.0" "$work/walk.$t"; then
      fail "walk, $what: access outcomes differ from tier 0:"; diff "$work/walk.0" "$work/walk.$t" | head
    fi
    { "$emu" --tier=$t --tool="$canary" "$work/ww-$link" die >"$work/out" 2>"$work/err"; rc=$?; } 2>/dev/null
    if [ $rc -ne 139 ] || ! grep -q '^emupeer-canary: ok' "$work/err" || grep -q 'internal error' "$work/err"; then
      fail "die, $what: exit $rc (want 139)"; cat "$work/err"
    else
      echo "ok: die, $what: exit 139, host memory intact"
    fi
  done
done
"$emu" --tool="$canary" --tool-args=selftest "$work/ww-static" walk >/dev/null 2>"$work/err"
if grep -q '^emupeer-canary: CORRUPTED' "$work/err"; then echo "ok: canary self-test detects a corrupted byte"
else fail "canary self-test did not detect the corrupted byte"; cat "$work/err"; fi
exit $status
