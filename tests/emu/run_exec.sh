#!/usr/bin/env bash
# tests/emu/run_exec.sh KIT_EMU — execve under kit-emu (docs/emu.md,
# "execve"): a guest program execs a guest program (it runs under kit-emu
# with the same options: argv[0], arguments, environment and exit status as
# given), a script whose #! interpreter is a guest program, a host program
# and a host shell script (as under qemu-riscv64: the same output), errors
# (ENOENT, EACCES); --tool=insncount counts the child too, and
# --trace-children=no runs it without the tool. 77 without the cross gcc or qemu.
set -uo pipefail
emu=${1:?usage: run_exec.sh KIT_EMU}
command -v riscv64-linux-gnu-gcc >/dev/null && command -v qemu-riscv64 >/dev/null || { echo "no cross gcc or qemu"; exit 77; }
sysroot=/usr/riscv64-linux-gnu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat >"$work/prog.c" <<'C'
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
/* prog child ARGS...: prints what it got; prog run PATH ARGV0 ARGS...: forks, the
 * child execs PATH, the parent prints the child's status */
int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "child")) {
    printf("child argv0=%s argc=%d", argv[0], argc);
    for (int i = 2; i < argc; i++) printf(" [%s]", argv[i]);
    printf(" KIT_T=%s\n", getenv("KIT_T") ? getenv("KIT_T") : "-");
    return 5;
  }
  if (argc < 4) return 2;
  fflush(stdout);
  pid_t p = fork();
  if (p == 0) {
    char *ev[] = {"KIT_T=set", "PATH=/usr/bin:/bin", NULL};
    execve(argv[2], argv + 3, ev);
    printf("execve: %s\n", strerror(errno));
    fflush(stdout);
    _exit(127);
  }
  int st;
  waitpid(p, &st, 0);
  printf("status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
  return 0;
}
C
riscv64-linux-gnu-gcc -O1 "$work/prog.c" -o "$work/prog" || fail "does not build"
riscv64-linux-gnu-gcc -O1 -static "$work/prog.c" -o "$work/prog-static" || fail "does not build (static)"
printf '#!/bin/sh\necho "host script: $0 $1"\nexit 3\n' >"$work/host.sh"
printf '#!%s child\n' "$work/prog-static" >"$work/guest.sh"
printf 'not a program\n' >"$work/plain"
chmod +x "$work/host.sh" "$work/guest.sh"
run() { "$emu" -L $sysroot "$@" 2>&1; }

# a guest program: under kit-emu, with the argv[0], arguments and environment given
out=$(run "$work/prog" run "$work/prog-static" renamed child a "b c")
want="child argv0=renamed argc=4 [a] [b c] KIT_T=set
status 5"
[ "$out" = "$want" ] || fail "guest exec: got
$out"
echo "ok guest program"

# a script whose interpreter is a guest program: interpreter, its argument, the script, the rest
out=$(run "$work/prog" run "$work/guest.sh" g.sh x)
want="child argv0=$work/prog-static argc=4 [$work/guest.sh] [x] KIT_T=set
status 5"
[ "$out" = "$want" ] || fail "guest script: got
$out"
echo "ok #! guest interpreter"

# host programs and host scripts: as under qemu-riscv64
for args in "/bin/echo echo host echo" "$work/host.sh host.sh one" "$work/nonexistent x" "$work/plain plain"; do
  # shellcheck disable=SC2086
  want=$(qemu-riscv64 -L $sysroot "$work/prog" run $args 2>&1)
  # shellcheck disable=SC2086
  got=$(run "$work/prog" run $args)
  [ "$got" = "$want" ] || fail "exec $args: kit-emu
$got
qemu-riscv64
$want"
  echo "ok as qemu: exec ${args%% *} -> $(tr '\n' ' ' <<<"$got")"
done

# the tools follow (Valgrind's --trace-children=yes), or not
n=$(run --tool=insncount "$work/prog" run "$work/prog-static" c child | grep -c '^kit-emu: insncount:')
[ "$n" -eq 2 ] || fail "--tool=insncount: $n count lines, want the parent's and the child's"
n=$(run --trace-children=no --tool=insncount "$work/prog" run "$work/prog-static" c child | grep -c '^kit-emu: insncount:')
[ "$n" -eq 1 ] || fail "--trace-children=no: $n count lines, want the parent's only"
echo "ok --trace-children"
