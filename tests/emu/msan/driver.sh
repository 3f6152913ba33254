#!/usr/bin/env bash
# driver.sh KIT_EMU — kit-emu --sanitize=memory's options and report: address
# with memory refused (as clang refuses it), a branch on an uninitialized
# local reported in clang's text with the guest frame and line in every tier,
# write(2) of uninitialized bytes reported with the "Uninitialized bytes in"
# line, bytes read(2) fills initialized, MSAN_OPTIONS exit_code, and
# --sanitize-recover=memory with halt_on_error=0 going on and counting, and
# a clear refusal when ulimit -v leaves no room for the shadow.
set -u
emu=$(realpath "$1")
command -v riscv64-linux-gnu-gcc >/dev/null || { echo "SKIP: riscv64-linux-gnu-gcc not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # check WHAT COND...
  local what=$1; shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fail=1; fi
}
cd "$tmp"
cat >branch.c <<'C'
#include <stdio.h>
__attribute__((noinline)) int f(int c) {
  int x;
  if (c) x = 1;
  if (x > 0) /* line 5 */
    return 3;
  return 4;
}
int main(int argc, char **argv) { (void)argv; printf("%d\n", f(argc - 1)); return 0; }
C
cat >io.c <<'C'
#include <string.h>
#include <unistd.h>
int main(void) {
  char in[8], out[8];
  int fd[2];
  if (pipe(fd)) return 2;
  if (write(fd[1], "abcdefgh", 8) != 8) return 2;
  if (read(fd[0], in, 8) != 8) return 2;
  if (in[3] != 'd') return 3; /* read(2) made in[] initialized */
  memcpy(out, in, 4);
  write(1, out, 8); /* line 11: out[4..7] never written */
  return 0;
}
C
cat >alt.c <<'C'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static volatile int got;
static void h(int sig, siginfo_t *si, void *uc) { (void)uc; got = si->si_signo == sig && si->si_code <= 0 ? 1 : 2; }
int main(void) {
  stack_t ss = {.ss_sp = malloc(65536), .ss_size = 65536, .ss_flags = 0};
  sigaltstack(&ss, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = h;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigaction(SIGUSR1, &sa, NULL);
  raise(SIGUSR1); /* the frame on the malloc'd (poisoned) alternate stack */
  if (got == 1) puts("handled");
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGUSR2, &sa, NULL);
  raise(SIGUSR2); /* the frame below sp, where earlier frames were poisoned */
  if (got == 1) puts("handled 2");
  return 0;
}
C
cat >sock.c <<'C'
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
/* what the kernel writes through recvmsg, getsockname, getsockopt, ppoll
 * and ioctl is initialized; sock bad: sendmsg of uninitialized bytes */
int main(int argc, char **argv) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) return 2;
  char msg[16];
  memcpy(msg, "0123456789abcdef", 16);
  char bad[8];
  struct iovec out = {.iov_base = argc > 1 ? bad : msg, .iov_len = argc > 1 ? 8 : 16};
  struct msghdr mo = {.msg_iov = &out, .msg_iovlen = 1};
  if (sendmsg(sv[0], &mo, 0) < 0) return 2; /* line 18: bad's bytes are uninitialized */
  char buf[16], name[sizeof(struct sockaddr_un)], ctl[64];
  struct iovec in = {.iov_base = buf, .iov_len = sizeof buf};
  struct msghdr mi = {.msg_iov = &in, .msg_iovlen = 1, .msg_name = name, .msg_namelen = sizeof name,
                      .msg_control = ctl, .msg_controllen = sizeof ctl};
  struct pollfd p = {.fd = sv[1], .events = POLLIN};
  if (poll(&p, 1, 1000) != 1 || !(p.revents & POLLIN)) return 3;
  int avail;
  if (ioctl(sv[1], FIONREAD, &avail) || avail != 16) return 4;
  ssize_t n = recvmsg(sv[1], &mi, 0);
  if (n != 16 || buf[15] != 'f' || mi.msg_flags) return 5;
  struct sockaddr_un a;
  socklen_t al = sizeof a;
  if (getsockname(sv[0], (struct sockaddr *)&a, &al) || a.sun_family != AF_UNIX) return 6;
  int type;
  socklen_t tl = sizeof type;
  if (getsockopt(sv[0], SOL_SOCKET, SO_TYPE, &type, &tl) || type != SOCK_STREAM) return 7;
  puts("ok");
  return 0;
}
C
riscv64-linux-gnu-gcc -g -O0 -static branch.c -o branch && riscv64-linux-gnu-gcc -g -O0 -static io.c -o io &&
  riscv64-linux-gnu-gcc -g -O0 sock.c -o sock &&
  riscv64-linux-gnu-gcc -g -O2 -static alt.c -o alt || exit 1

"$emu" --sanitize=memory ./alt >out 2>err; rc=$?
check "signal frames the emulator wrote (sigaltstack and sp): clean" [ $rc -eq 0 -a ! -s err ]
check "  both handlers ran" [ "$(cat out)" = "$(printf 'handled\nhandled 2')" ]

"$emu" --sanitize=address,memory ./branch >/dev/null 2>err; rc=$?
check "address with memory refused" [ $rc -ne 0 ]
check "  in clang's words" grep -q "not allowed with '--sanitize=memory'" err

for tier in 0 1 auto; do
  "$emu" --tier=$tier --sanitize=memory ./branch >out 2>err; rc=$?
  check "tier $tier: exit status 1" [ $rc -eq 1 ]
  check "tier $tier: warning line" grep -qE '^==[0-9]+==WARNING: MemorySanitizer: use-of-uninitialized-value$' err
  check "tier $tier: frame #0 f branch.c:5" grep -qE '^    #0 0x[0-9a-f]+ in f .*branch.c:5(:[0-9]+)?$' err
  check "tier $tier: frame #1 main" grep -qE '^    #1 0x[0-9a-f]+ in main .*branch.c:9' err
  check "tier $tier: summary" grep -qE '^SUMMARY: MemorySanitizer: use-of-uninitialized-value .*branch.c:5(:[0-9]+)? in f$' err
  check "tier $tier: Exiting" grep -qx Exiting err
done
"$emu" --sanitize=memory ./branch x >out 2>err; rc=$?
check "initialized path: no report, exit 0" [ $rc -eq 0 -a ! -s err ]
check "  and the program's output" grep -qx 3 out

MSAN_OPTIONS=exit_code=42 "$emu" --sanitize=memory ./branch >/dev/null 2>err; rc=$?
check "exit_code=42" [ $rc -eq 42 ]
MSAN_OPTIONS=halt_on_error=0 "$emu" --sanitize=memory --sanitize-recover=memory ./branch >out 2>err; rc=$?
check "recover: the program goes on" grep -qx 4 out
check "recover: warnings counted" grep -qx 'MemorySanitizer: 1 warnings reported.' err
check "recover: exit status 1" [ $rc -eq 1 ]
MSAN_OPTIONS=halt_on_error=0 "$emu" --sanitize=memory ./branch >out 2>err; rc=$?
check "halt_on_error=0 without recover still halts" [ $rc -eq 1 -a ! -s out ]

(ulimit -v 1500000; "$emu" --sanitize=memory ./branch >/dev/null 2>err); rc=$?
check "no room for the shadow (ulimit -v): refused, exit 1" [ $rc -eq 1 ]
check "  with a message" grep -q 'cannot reserve the .* MSan shadow' err

"$emu" --sanitize=memory ./io >out 2>err; rc=$?
check "write(2) of uninitialized bytes: exit 1" [ $rc -eq 1 ]
check "  Uninitialized bytes in write at offset 4" grep -qE '^Uninitialized bytes in write at offset 4 inside \[0x[0-9a-f]+, 8\)$' err
check "  frame main io.c:11" grep -qE '^    #[0-9]+ 0x[0-9a-f]+ in main .*io.c:11' err
check "  read(2)'s bytes are initialized (no earlier report)" [ "$(grep -c WARNING err)" = 1 ]

"$emu" --sanitize=memory ./sock >out 2>err; rc=$?
check "recvmsg, getsockname, getsockopt, ppoll, ioctl(FIONREAD) write initialized bytes: clean" [ $rc -eq 0 -a ! -s err ]
check "  and the program ran through" grep -qx ok out
"$emu" --sanitize=memory ./sock bad >out 2>err; rc=$?
check "sendmsg of uninitialized bytes: exit 1" [ $rc -eq 1 ]
check "  Uninitialized bytes in sendmsg(msg.msg_iov)" grep -qE '^Uninitialized bytes in sendmsg\(msg.msg_iov\) at offset 0 inside \[0x[0-9a-f]+, 8\)$' err
check "  frame main sock.c:18" grep -qE '^    #[0-9]+ 0x[0-9a-f]+ in main .*sock.c:18' err
exit $fail
