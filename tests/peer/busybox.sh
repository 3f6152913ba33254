#!/usr/bin/env bash
# tests/peer/busybox.sh KIT_EMU [--quick] [--asan] [APPLET...] — BusyBox's own
# test suite (apt-get source busybox) on a static riscv64 build (its
# defconfig, cross-built with riscv64-linux-gnu-gcc, cached under
# ${KIT_CACHE:-~/.cache/kit}/busybox), every applet run under qemu-riscv64 and
# under kit-emu (with --asan: kit-emu --sanitize=address, leak checking off):
# the same tests must pass and fail, test by test. The suite's driver is the
# host's shell; `busybox` in the build tree is a two-line script that runs
# the riscv64 binary under the emulator with -0 "$0", so every applet link
# keeps its name. --quick runs a few applets' tests (ctest
# emupeer_busybox_quick); without APPLET or --quick, all of them (about 8
# minutes per emulator on 2 cores). Exit 77 without the cross compiler, qemu
# or the source.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
emu=${1:?usage: busybox.sh KIT_EMU [--quick] [--asan] [APPLET...]}
emu=$(cd "$(dirname "$emu")" && pwd)/$(basename "$emu")
shift
quick=0 asan=0 applets=()
for a in "$@"; do
  case $a in
    --quick) quick=1 ;;
    --asan) asan=1 ;;
    *) applets+=("$a") ;;
  esac
done
[ $quick = 1 ] && [ ${#applets[@]} = 0 ] && applets=(sed awk sort uniq cut tr head tail wc od md5sum sha1sum xargs find grep tar cpio gzip bunzip2 printf expr date basename dirname)
command -v riscv64-linux-gnu-gcc >/dev/null && command -v qemu-riscv64 >/dev/null || { echo "skip: no cross gcc or qemu"; exit 77; }
src=$(bash "$here/fetch-source.sh" busybox 2>/dev/null) || { echo "skip: apt-get source busybox failed"; exit 77; }
ver=$(basename "$src")
cache=${KIT_CACHE:-$HOME/.cache/kit}/busybox/$ver-$(riscv64-linux-gnu-gcc -dumpfullversion)
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-busybox.XXXXXX")
trap '[ -n "${KIT_KEEP:-}" ] || rm -rf "$work"' EXIT
if [ ! -x "$cache/busybox.rv64" ]; then
  mkdir -p "$cache"
  cp -a "$src" "$work/build"
  # defconfig, static; tc does not build against Debian 12's kernel headers
  (cd "$work/build" && make defconfig && sed -i 's/^# CONFIG_STATIC is not set/CONFIG_STATIC=y/; s/^CONFIG_TC=y/# CONFIG_TC is not set/' .config &&
    { yes "" || true; } | make oldconfig && make -j2 CROSS_COMPILE=riscv64-linux-gnu-) >"$work/build.log" 2>&1 ||
    { tail -20 "$work/build.log"; echo "FAIL: busybox does not cross-build"; exit 1; }
  cp "$work/build/busybox" "$cache/busybox.rv64.tmp" && cp "$work/build/.config" "$cache/config" &&
    mv "$cache/busybox.rv64.tmp" "$cache/busybox.rv64"
fi
echo "busybox: $ver, static riscv64, its defconfig less tc"

# one tree per emulator: the suite writes into it
run_suite() { # NAME EMULATOR...
  local name=$1 tree=$work/$1
  shift
  mkdir -p "$tree"
  cp -a "$src/testsuite" "$tree/testsuite" && cp -a "$src/scripts" "$tree/scripts"
  cp "$cache/config" "$tree/.config"
  printf '#!/bin/sh\nexec %s -0 "$0" %q "$@"\n' "$*" "$cache/busybox.rv64" >"$tree/busybox"
  chmod +x "$tree/busybox"
  (cd "$tree/testsuite" && bindir=$tree srcdir=$tree/testsuite SED=sed timeout 3600 ./runtest "${applets[@]}" \
    >"$work/$name.log" 2>&1)
  grep -E '^(PASS|FAIL|SKIPPED|UNTESTED): ' "$work/$name.log" | sort >"$work/$name.res"
}
run_suite qemu qemu-riscv64
if [ $asan = 1 ]; then
  mkdir -p "$work/asan"
  export ASAN_OPTIONS=detect_leaks=0:log_path=$work/asan/report # (a test may discard stderr)
  run_suite kit-emu "$emu" --sanitize=address
else
  run_suite kit-emu "$emu"
fi
npass() { grep -c '^PASS' "$1" || true; }
echo "qemu-riscv64: $(npass "$work/qemu.res") passed, $(grep -c '^FAIL' "$work/qemu.res") failed"
echo "kit-emu$([ $asan = 1 ] && echo ' --sanitize=address'): $(npass "$work/kit-emu.res") passed, $(grep -c '^FAIL' "$work/kit-emu.res") failed"
status=0
if ! cmp -s "$work/qemu.res" "$work/kit-emu.res"; then
  echo "FAIL: the results differ (< qemu, > kit-emu):"
  diff "$work/qemu.res" "$work/kit-emu.res" | grep '^[<>]'
  status=1
fi
if [ $asan = 1 ] && [ -n "$(ls "$work/asan")" ]; then
  echo "FAIL: sanitizer reports:"; head -20 "$work"/asan/*; status=1
fi
[ "$(npass "$work/qemu.res")" -gt 0 ] || { echo "FAIL: nothing passed under qemu"; status=1; }
[ $status = 0 ] && echo "ok: every test passes or fails as under qemu-riscv64"
exit $status
