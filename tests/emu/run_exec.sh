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
emu=$(cd "$(dirname "$emu")" && pwd)/$(basename "$emu")
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
 * child execs PATH, the parent prints the child's status; prog chain N [PATH]:
 * execs itself N times in the same process, then closes fd 2 and execs PATH */
int main(int argc, char **argv) {
  if (argc > 2 && !strcmp(argv[1], "vfork")) { /* prog vfork PATH ARGV...: PATH reads what we write after vfork */
    int p[2];
    if (pipe(p)) return 2;
    pid_t c = vfork();
    if (c == 0) {
      dup2(p[0], 0);
      close(p[0]), close(p[1]);
      execv(argv[2], argv + 3);
      _exit(127);
    }
    close(p[0]);
    if (write(p[1], "through the pipe\n", 17) != 17) return 3;
    close(p[1]);
    int st;
    waitpid(c, &st, 0);
    printf("vfork child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    return 0;
  }
  if (argc > 1 && !strcmp(argv[1], "cat")) { /* prog cat: stdin to stdout */
    char b[256];
    ssize_t n;
    while ((n = read(0, b, sizeof b)) > 0) fwrite(b, 1, (size_t)n, stdout);
    return 4;
  }
  if (argc > 1 && !strcmp(argv[1], "len")) { /* prog len: its arguments' lengths */
    for (int i = 2; i < argc; i++) printf("%zu ", strlen(argv[i]));
    printf("\n");
    return 0;
  }
  if (argc > 2 && !strcmp(argv[1], "long")) { /* prog long N: execs itself with an N-byte argument */
    size_t n = (size_t)atol(argv[2]);
    char *a = malloc(n + 1);
    memset(a, 'x', n), a[n] = 0;
    execl("/proc/self/exe", argv[0], "len", a, "end", (char *)0);
    printf("execve: %s\n", strerror(errno));
    return 0;
  }
  if (argc > 2 && !strcmp(argv[1], "chain")) {
    int n = atoi(argv[2]);
    printf("chain %d pid %d\n", n, (int)getpid());
    fflush(stdout);
    char b[16];
    snprintf(b, sizeof b, "%d", n - 1);
    if (n > 0) execl("/proc/self/exe", argv[0], "chain", b, argc > 3 ? argv[3] : (char *)0, (char *)0);
    else if (argc > 3) close(2), execl(argv[3], argv[3], "child", (char *)0);
    else return 0;
    return 127;
  }
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

# vfork: the parent goes on once the child has exec'd (busybox tar's
# compressor reads what the parent writes after vfork returns)
out=$(timeout 20 "$emu" "$work/prog-static" vfork /bin/cat cat 2>&1)
[ "$out" = "through the pipe
vfork child status 0" ] || fail "vfork + exec of a host program: got '$out'"
out=$(timeout 20 "$emu" "$work/prog-static" vfork "$work/prog-static" x cat 2>&1)
[ "$out" = "through the pipe
vfork child status 4" ] || fail "vfork + exec of a guest program: got '$out'"
echo "ok vfork: the parent runs on after the child's exec (host and guest programs)"

# long arguments (autoconf's sed scripts): Linux takes up to 128 KiB each
out=$(run "$work/prog-static" long 131071; run "$work/prog-static" long 131072)
[ "$out" = "131071 3 
execve: Argument list too long" ] || fail "a 128 KiB argument: got '$out'"
echo "ok an argument of 131071 bytes passes, 131072 is E2BIG (as Linux)"

# --trace across execve (docs/trace-format.md, "Processes"): each program its
# own stream, none overwritten; a fork child's program writes DEST.PID, a
# plain execve's (the same pid) the next free name
trace=$(dirname "$emu")/kit-trace
if [ -x "$trace" ]; then
  (cd "$work" && run --trace=syscall,thread --trace-out=t.trace "$work/prog" run "$work/prog-static" c child) >"$work/t.out" || fail "--trace: $(cat "$work/t.out")"
  cpid=$("$trace" dump "$work/t.trace" | sed -n 's/^[0-9]* syscall clone(.*) = \([0-9]*\)$/\1/p' | head -1)
  [ -n "$cpid" ] && [ -f "$work/t.trace.$cpid" ] || fail "--trace: no stream t.trace.<child pid> ($(ls "$work"))"
  "$trace" dump "$work/t.trace" | grep -q '^[0-9]* exit status=0$' || fail "--trace: the parent's stream has no exit"
  "$trace" dump "$work/t.trace.$cpid" | grep -q "^$cpid exit status=5$" || fail "--trace: the child's stream has no exit 5"
  rm -f "$work"/t.trace*
  out=$(cd "$work" && run --trace=syscall --trace-out=c.%p "$work/prog-static" chain 2)
  pid=$(sed -n 's/^chain 2 pid \([0-9]*\)$/\1/p' <<<"$out")
  for f in "c.$pid" "c.$pid.2" "c.$pid.3"; do
    [ -f "$work/$f" ] || fail "--trace-out=c.%p, two plain execves: no $f ($(ls "$work"))"
  done
  for f in "c.$pid" "c.$pid.2"; do
    "$trace" dump "$work/$f" | tail -1 | grep -q "^$pid syscall execve(.*) = 0$" || fail "--trace: $f does not end with its execve"
  done
  "$trace" dump "$work/c.$pid.3" | tail -1 | grep -q "^$pid exit status=0$" || fail "--trace: c.$pid.3 does not end with the exit"
  [ ! -e "$work/c.$pid.4" ] || fail "--trace: a fourth stream"
  echo "ok --trace: a stream per program (t.trace, t.trace.$cpid; c.$pid, c.$pid.2, c.$pid.3)"
  # a ring carries one program: the next runs untraced, and says so
  err=$(cd "$work" && "$emu" --trace=syscall --trace-drop --trace-out=shm:kit-exec-$$ "$work/prog-static" chain 1 2>&1 >/dev/null)
  grep -q "^kit-emu: --trace: the ring carries one program; /proc/self/exe runs without --trace" <<<"$err" ||
    fail "--trace to a ring, execve: got '$err'"
  rm -f "/dev/shm/kit-exec-$$"
  echo "ok --trace to a ring: the execed program runs untraced"
fi

# --strace: a successful execve's line, = 0, then the new program's calls
out=$("$emu" --strace "$work/prog-static" chain 1 2>&1 >/dev/null)
grep -q '^execve("/proc/self/exe", 0x[0-9a-f]*, 0x[0-9a-f]*) = 0$' <<<"$out" || fail "--strace: no execve line = 0"
[ "$(grep -c '^+++ exited with 0 +++$' <<<"$out")" = 1 ] || fail "--strace: not one exit line"
echo "ok --strace: execve(...) = 0"

# the new program's messages when the guest closed fd 2 before the execve, or
# with --log-fd (Valgrind's): where the first program's went
out=$(run --tool=insncount "$work/prog-static" chain 1 "$work/prog-static" 2>&1)
grep -q '^kit-emu: insncount: [0-9]* instructions$' <<<"$out" || fail "fd 2 closed before execve: no insncount line; got
$out"
err=$("$emu" --log-fd=5 --tool=insncount "$work/prog-static" chain 1 5>"$work/log5" 2>&1 >/dev/null)
[ -z "$err" ] && grep -q '^kit-emu: insncount: [0-9]* instructions$' "$work/log5" ||
  fail "--log-fd=5: stderr '$err', descriptor 5 '$(cat "$work/log5")'"
err=$("$emu" --log-fd=9 "$work/prog-static" chain 0 2>&1 >/dev/null); rc=$?
[ $rc = 1 ] && [ "$err" = "kit-emu: --log-fd=9: not an open descriptor" ] || fail "--log-fd=9 (closed): rc $rc, '$err'"
echo "ok --log-fd, and fd 2 closed before execve"
