/* tests/emu/guest/net.c — sockets, eventfd and epoll as real programs use
 * them: a TCP server and client over 127.0.0.1 (the server a fork child), UDP
 * datagrams with their source address, a Unix socket pair passing a
 * descriptor with SCM_RIGHTS, socket options, shutdown, epoll over an
 * eventfd and a socket, pselect and poll. Prints what arrived (no port
 * numbers or descriptor values), so qemu-riscv64's output is the oracle. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK(c)                                            \
  do {                                                      \
    if (!(c)) {                                             \
      printf("FAIL line %d: %s (%s)\n", __LINE__, #c, strerror(errno)); \
      exit(1);                                              \
    }                                                       \
  } while (0)

static struct sockaddr_in loopback(uint16_t port) {
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

static void tcp(void) {
  int ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  CHECK(ls >= 0);
  int one = 1;
  CHECK(setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0);
  struct sockaddr_in a = loopback(0);
  CHECK(bind(ls, (struct sockaddr *)&a, sizeof a) == 0);
  CHECK(listen(ls, 4) == 0);
  socklen_t al = sizeof a;
  CHECK(getsockname(ls, (struct sockaddr *)&a, &al) == 0 && al == sizeof a && a.sin_port != 0);
  fflush(stdout);
  pid_t p = fork();
  CHECK(p >= 0);
  if (p == 0) { /* the server: echo upper-cased, twice */
    struct sockaddr_in peer;
    socklen_t pl = sizeof peer;
    int c = accept4(ls, (struct sockaddr *)&peer, &pl, SOCK_CLOEXEC);
    if (c < 0 || peer.sin_addr.s_addr != htonl(INADDR_LOOPBACK)) _exit(2);
    char b[64];
    for (int round = 0; round < 2; round++) {
      ssize_t n = recv(c, b, sizeof b, 0);
      if (n <= 0) _exit(3);
      for (ssize_t i = 0; i < n; i++) b[i] = (char)(b[i] >= 'a' && b[i] <= 'z' ? b[i] - 32 : b[i]);
      if (send(c, b, (size_t)n, 0) != n) _exit(4);
    }
    char end;
    _exit(recv(c, &end, 1, 0) == 0 ? 0 : 5); /* the client's shutdown: end of stream */
  }
  close(ls);
  int s = socket(AF_INET, SOCK_STREAM, 0);
  CHECK(s >= 0);
  CHECK(connect(s, (struct sockaddr *)&a, sizeof a) == 0);
  CHECK(setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) == 0);
  int v = 0;
  socklen_t vl = sizeof v;
  CHECK(getsockopt(s, IPPROTO_TCP, TCP_NODELAY, &v, &vl) == 0 && vl == sizeof v);
  printf("tcp: nodelay %d\n", v != 0);
  struct sockaddr_in peer;
  socklen_t pl = sizeof peer;
  CHECK(getpeername(s, (struct sockaddr *)&peer, &pl) == 0 && peer.sin_port == a.sin_port);
  char b[64];
  CHECK(send(s, "hello ", 6, 0) == 6);
  ssize_t n = 0;
  while (n < 6) {
    ssize_t k = recv(s, b + n, sizeof b - (size_t)n, 0);
    CHECK(k > 0);
    n += k;
  }
  printf("tcp: %.*s|\n", (int)n, b);
  struct iovec iov[2] = {{"wor", 3}, {"ld", 2}};
  struct msghdr m = {.msg_iov = iov, .msg_iovlen = 2};
  CHECK(sendmsg(s, &m, 0) == 5);
  char r1[3], r2[2];
  struct iovec in[2] = {{r1, sizeof r1}, {r2, sizeof r2}};
  struct msghdr mi = {.msg_iov = in, .msg_iovlen = 2};
  n = recvmsg(s, &mi, MSG_WAITALL);
  CHECK(n >= 3);
  printf("tcp: recvmsg %zd bytes: %.3s%.*s flags %d\n", n, r1, (int)(n - 3), r2, mi.msg_flags);
  CHECK(shutdown(s, SHUT_WR) == 0);
  int st;
  CHECK(waitpid(p, &st, 0) == p);
  printf("tcp: server exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
  close(s);
}

static void udp(void) {
  int r = socket(AF_INET, SOCK_DGRAM, 0), w = socket(AF_INET, SOCK_DGRAM, 0);
  CHECK(r >= 0 && w >= 0);
  struct sockaddr_in a = loopback(0), from;
  CHECK(bind(r, (struct sockaddr *)&a, sizeof a) == 0);
  socklen_t al = sizeof a;
  CHECK(getsockname(r, (struct sockaddr *)&a, &al) == 0);
  CHECK(sendto(w, "datagram", 8, 0, (struct sockaddr *)&a, sizeof a) == 8);
  char b[32];
  socklen_t fl = sizeof from;
  ssize_t n = recvfrom(r, b, sizeof b, 0, (struct sockaddr *)&from, &fl);
  CHECK(n == 8 && fl == sizeof from);
  struct sockaddr_in wa;
  socklen_t wl = sizeof wa;
  CHECK(getsockname(w, (struct sockaddr *)&wa, &wl) == 0);
  printf("udp: %.*s from the sender's port: %s\n", (int)n, b, from.sin_port == wa.sin_port ? "yes" : "no");
  /* recvmsg with msg_name: the source address too */
  CHECK(sendto(w, "again", 5, 0, (struct sockaddr *)&a, sizeof a) == 5);
  struct iovec iov = {b, sizeof b};
  struct msghdr m = {.msg_name = &from, .msg_namelen = sizeof from, .msg_iov = &iov, .msg_iovlen = 1};
  n = recvmsg(r, &m, 0);
  CHECK(n == 5);
  printf("udp: recvmsg %.*s namelen %u port ok %d\n", (int)n, b, (unsigned)m.msg_namelen, from.sin_port == wa.sin_port);
  close(r), close(w);
}

static void unix_rights(void) {
  int sv[2], pfd[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
  CHECK(pipe(pfd) == 0);
  char cbuf[CMSG_SPACE(sizeof(int))];
  memset(cbuf, 0, sizeof cbuf);
  struct iovec iov = {"x", 1};
  struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
  struct cmsghdr *c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET, c->cmsg_type = SCM_RIGHTS, c->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(c), &pfd[1], sizeof(int));
  CHECK(sendmsg(sv[0], &m, 0) == 1);
  close(pfd[1]);
  char ch, rbuf[CMSG_SPACE(sizeof(int)) + 16];
  struct iovec in = {&ch, 1};
  struct msghdr mi = {.msg_iov = &in, .msg_iovlen = 1, .msg_control = rbuf, .msg_controllen = sizeof rbuf};
  CHECK(recvmsg(sv[1], &mi, 0) == 1);
  struct cmsghdr *rc = CMSG_FIRSTHDR(&mi);
  CHECK(rc && rc->cmsg_level == SOL_SOCKET && rc->cmsg_type == SCM_RIGHTS);
  int fd;
  memcpy(&fd, CMSG_DATA(rc), sizeof fd);
  CHECK(write(fd, "via rights", 10) == 10);
  close(fd);
  char b[16];
  ssize_t n = read(pfd[0], b, sizeof b);
  printf("unix: %c, a descriptor passed: %.*s, controllen %zu\n", ch, (int)n, b, (size_t)mi.msg_controllen);
  close(pfd[0]), close(sv[0]), close(sv[1]);
}

static void multiplex(void) {
  int ev = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  int sv[2];
  CHECK(ev >= 0 && socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == 0);
  int ep = epoll_create1(EPOLL_CLOEXEC);
  CHECK(ep >= 0);
  struct epoll_event e = {.events = EPOLLIN, .data.u64 = 0x1122334455667788ull};
  CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, ev, &e) == 0);
  e.data.u64 = 42;
  CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, sv[1], &e) == 0);
  struct epoll_event out[4];
  printf("epoll: %d ready before\n", epoll_wait(ep, out, 4, 0));
  uint64_t one = 3;
  CHECK(write(ev, &one, 8) == 8);
  CHECK(send(sv[0], "d", 1, 0) == 1);
  int n = epoll_wait(ep, out, 4, 1000);
  uint64_t seen = 0;
  for (int i = 0; i < n; i++) {
    seen ^= out[i].data.u64;
    CHECK(out[i].events & EPOLLIN);
  }
  printf("epoll: %d ready, data %s\n", n, seen == (0x1122334455667788ull ^ 42) ? "both" : "wrong");
  uint64_t cnt;
  CHECK(read(ev, &cnt, 8) == 8);
  printf("eventfd: %llu\n", (unsigned long long)cnt);
  fd_set rs;
  FD_ZERO(&rs);
  FD_SET(sv[1], &rs);
  FD_SET(ev, &rs);
  struct timeval tv = {1, 0};
  int k = select((sv[1] > ev ? sv[1] : ev) + 1, &rs, NULL, NULL, &tv);
  printf("select: %d ready, socket %d, eventfd %d\n", k, FD_ISSET(sv[1], &rs) != 0, FD_ISSET(ev, &rs) != 0);
  struct pollfd p[2] = {{sv[1], POLLIN, 0}, {ev, POLLIN, 0}};
  printf("poll: %d ready, revents %d %d\n", poll(p, 2, 100), p[0].revents, p[1].revents);
  close(ep), close(ev), close(sv[0]), close(sv[1]);
}

int main(void) {
  tcp();
  udp();
  unix_rights();
  multiplex();
  int s = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = loopback(1); /* nothing listens on port 1 */
  printf("connect to a closed port: %s\n", connect(s, (struct sockaddr *)&a, sizeof a) < 0 ? strerrorname_np(errno) : "connected");
  printf("socket of a bad family: %s\n", socket(12345, SOCK_STREAM, 0) < 0 ? strerrorname_np(errno) : "made");
  return 0;
}
