#!/usr/bin/env bash
# tests/peer/exec-shell.sh KIT_EMU — a real shell under kit-emu running other
# guest programs (issue 17, execve): Debian's dash (apt-get source dash),
# cross-built for riscv64 and installed as /bin/sh of a sysroot (-L), so
# every `sh`, `#!/bin/sh` and subshell is the guest's while cat, tr, sed, gcc
# stay the host's (as under binfmt_misc). Checked against the host's dash of
# the same version (Debian's /bin/dash) running the same script with an
# x86-64 build of the same helper program (qemu-riscv64 cannot run a guest's
# guest children without binfmt_misc: ENOEXEC):
#   1. a script: command substitution, a guest | host pipeline, a loop, a
#      nested sh, exit statuses, a #! script, exec: the same output;
#   2. the tools follow: --tool=insncount prints one more line per guest
#      execve than with --trace-children=no (9 in the script);
#   3. the script under --sanitize=address: the same output, no report;
#   4. dash's own configure (an autoconf script: some 400 processes, the
#      guest shell running host sed, grep, gcc): output, config.h and
#      config.status's exit as under the host's dash.
# The riscv64 dash is cached under ${KIT_CACHE:-~/.cache/kit}/exec-shell.
# Exit 77 without the cross compiler, the host's dash or the source.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
emu=${1:?usage: exec-shell.sh KIT_EMU}
emu=$(cd "$(dirname "$emu")" && pwd)/$(basename "$emu")
command -v riscv64-linux-gnu-gcc >/dev/null || { echo "skip: no riscv64-linux-gnu-gcc"; exit 77; }
[ -x /bin/dash ] || { echo "skip: no host dash"; exit 77; }
sysroot=${KIT_EMU_SYSROOT:-/usr/riscv64-linux-gnu}
src=$(bash "$here/fetch-source.sh" dash 2>/dev/null) || { echo "skip: apt-get source dash failed"; exit 77; }
ver=$(basename "$src")
hostver=$(dpkg-query -W -f '${Version}' dash 2>/dev/null || echo "?")
cache=${KIT_CACHE:-$HOME/.cache/kit}/exec-shell/$ver-$(riscv64-linux-gnu-gcc -dumpfullversion)
work=$(mktemp -d "${TMPDIR:-/tmp}/kit-exec-shell.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; status=1; }

if [ ! -x "$cache/dash" ]; then
  mkdir -p "$cache"
  cp -a "$src" "$work/build"
  (cd "$work/build" && ./configure --host=riscv64-linux-gnu CC=riscv64-linux-gnu-gcc CFLAGS=-O2 &&
    make -j2) >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; echo "FAIL: dash does not cross-build"; exit 1; }
  cp "$work/build/src/dash" "$cache/dash.tmp" && mv "$cache/dash.tmp" "$cache/dash"
fi
echo "dash: $ver for riscv64 against the host's dash $hostver"

# the sysroot: the cross libraries and the guest's /bin/sh
root=$work/root
mkdir -p "$root/bin" "$root/usr/bin"
ln -s "$sysroot/lib" "$root/lib"
cp "$cache/dash" "$root/bin/sh"
cp "$cache/dash" "$root/usr/bin/sh" # PATH finds /usr/bin/sh first (a merged /usr)

# the helper: what it was given, exit 5 (tests/emu/run_exec.sh's "child")
cat >"$work/prog.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  printf("prog argv0=%s argc=%d", argv[0], argc);
  for (int i = 1; i < argc; i++) printf(" [%s]", argv[i]);
  printf(" V=%s\n", getenv("V") ? getenv("V") : "-");
  return 5;
}
C
mkdir -p "$work/n" "$work/k"
riscv64-linux-gnu-gcc -O1 "$work/prog.c" -o "$work/k/prog" && cc -O1 "$work/prog.c" -o "$work/n/prog" ||
  { echo "FAIL: the helper does not build"; exit 1; }
# 9 guest execs: $(prog), prog | tr, 3 in the loop, sh -c, if prog, ./sub.sh, exec prog
cat >"$work/script.sh" <<'SH'
echo "subst: $(./prog a 'b c')"
V=piped ./prog x | tr a-z A-Z
for i in 1 2 3; do ./prog "$i"; done | wc -l
sh -c 'echo "nested: $0 $1"; exit 3' zero one; echo "status $?"
if ./prog >/dev/null; then echo yes; else echo "no: $?"; fi
printf '#!/bin/sh\necho "script: $0 $1"\n' >sub.sh; chmod +x sub.sh; ./sub.sh arg
x=$(printf 'l1\nl2\n' | sed -n 2p); echo "host sed: $x"
exec ./prog last
SH
(cd "$work/n" && /bin/dash ../script.sh >out 2>&1; echo "exit $?" >>out)
runk() { (cd "$work/k" && "$emu" -L "$root" "$@" "$root/bin/sh" ../script.sh >out 2>err; echo "exit $?" >>out); }
runk
if cmp -s "$work/n/out" "$work/k/out" && [ ! -s "$work/k/err" ]; then ok "script: the host dash's output ($(wc -l <"$work/k/out") lines, $(tail -1 "$work/k/out"))"
else bad "script: differs from the host dash's"; diff "$work/n/out" "$work/k/out" | head -10; head -5 "$work/k/err"; fi

# the tools follow each execve
runk --tool=insncount; yes=$(grep -c '^kit-emu: insncount: [0-9]* instructions$' "$work/k/err")
cmp -s "$work/n/out" "$work/k/out" || bad "--tool=insncount: the output changed"
runk --tool=insncount --trace-children=no; no=$(grep -c '^kit-emu: insncount: [0-9]* instructions$' "$work/k/err")
if [ $((yes - no)) = 9 ]; then ok "--tool=insncount: $yes count lines, $no with --trace-children=no: one per guest execve"
else bad "--tool=insncount: $yes count lines, $no with --trace-children=no (want 9 more)"; fi

# ASan in every guest process
ASAN_OPTIONS=detect_leaks=0 runk --sanitize=address
if cmp -s "$work/n/out" "$work/k/out" && ! grep -q 'Sanitizer' "$work/k/err"; then ok "--sanitize=address: the same output, no report"
else bad "--sanitize=address: differs or reports"; diff "$work/n/out" "$work/k/out" | head -5; head -5 "$work/k/err"; fi

# an autoconf configure script, the guest shell running it
cp -a "$src" "$work/cn" && cp -a "$src" "$work/ck"
(cd "$work/cn" && /bin/dash ./configure >../cn.out 2>&1; echo "exit $?" >>../cn.out)
(cd "$work/ck" && "$emu" -L "$root" "$root/bin/sh" ./configure >../ck.out 2>&1; echo "exit $?" >>../ck.out)
if cmp -s "$work/cn.out" "$work/ck.out" && cmp -s "$work/cn/config.h" "$work/ck/config.h"; then
  ok "configure: the host dash's output ($(grep -c '^checking' "$work/ck.out") checks, $(tail -1 "$work/ck.out")) and config.h"
else bad "configure: differs from the host dash's"; diff "$work/cn.out" "$work/ck.out" | head -10; diff "$work/cn/config.h" "$work/ck/config.h" | head -5; fi
exit $status
