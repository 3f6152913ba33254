/* tests/emu/guest/signalfd.c — signalfd(2): blocked signals read as
 * signalfd_siginfo records (raise, kill of ourselves, another process's
 * kill, a child's exit with its status), readiness for poll and epoll,
 * a mask changed in place, two records in one read, a blocking read, and
 * the same with a second thread running. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

static int readable(int fd, int ms) {
  struct pollfd p = {fd, POLLIN, 0};
  return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

/* one read; prints each record as the test can compare it with qemu's */
static void take(const char *what, int fd, size_t room, pid_t expect_pid) {
  struct signalfd_siginfo si[2];
  memset(si, 0, sizeof si);
  ssize_t n = read(fd, si, room * sizeof si[0]);
  if (n < 0) {
    printf("%s: read=-1 errno=%s\n", what, errno == EAGAIN ? "EAGAIN" : strerror(errno));
    return;
  }
  printf("%s: read=%zd", what, n);
  for (ssize_t i = 0; i < n / (ssize_t)sizeof si[0]; i++)
    printf(" [signo=%u code=%d pid ok=%d status=%d]", si[i].ssi_signo, si[i].ssi_code,
           (pid_t)si[i].ssi_pid == expect_pid, si[i].ssi_signo == SIGCHLD ? si[i].ssi_status : 0);
  printf("\n");
}

/* a child that sends sig to us (0: none) after usec and exits with status */
static pid_t child(useconds_t usec, int sig, int status) {
  pid_t kid = fork();
  if (kid == 0) {
    usleep(usec);
    if (sig) kill(getppid(), sig);
    _exit(status);
  }
  return kid;
}

/* the second thread: it waits until the process ends (no loop back to its
 * first statement: gdb keeps a breakpoint on such a function at its entry,
 * kit_debuginfo goes past the prologue; see the stop 32 notes) */
static void *idle(void *a) {
  (void)a;
  sleep(600);
  return NULL;
}

int main(void) {
  sigset_t m;
  sigemptyset(&m);
  sigaddset(&m, SIGUSR1);
  sigaddset(&m, SIGUSR2);
  sigaddset(&m, SIGCHLD);
  sigprocmask(SIG_BLOCK, &m, NULL);
  sigset_t watch;
  sigemptyset(&watch);
  sigaddset(&watch, SIGUSR1);
  sigaddset(&watch, SIGCHLD);
  int fd = signalfd(-1, &watch, SFD_NONBLOCK | SFD_CLOEXEC);
  printf("signalfd: %d\n", fd >= 0);
  take("nothing pending", fd, 1, 0);
  raise(SIGUSR1);
  printf("after raise: readable=%d\n", readable(fd, 0));
  take("raise", fd, 1, getpid());
  kill(getpid(), SIGUSR1);
  take("kill of ourselves", fd, 1, getpid());
  raise(SIGUSR2);
  printf("SIGUSR2, not watched: readable=%d\n", readable(fd, 0));
  sigaddset(&watch, SIGUSR2);
  printf("mask changed in place: same fd=%d\n", signalfd(fd, &watch, 0) == fd);
  printf("now: readable=%d\n", readable(fd, 0));
  take("SIGUSR2", fd, 1, getpid());
  /* a child's exit, its pid and status */
  pid_t kid = child(0, 0, 7);
  printf("child exited: readable=%d\n", readable(fd, 5000));
  take("SIGCHLD", fd, 1, kid);
  waitpid(kid, NULL, 0);
  /* two at once */
  raise(SIGUSR1);
  raise(SIGUSR2);
  take("two pending, room for two", fd, 2, getpid());
  /* epoll */
  int ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
  epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
  struct epoll_event out;
  printf("epoll, nothing: %d\n", epoll_wait(ep, &out, 1, 0));
  raise(SIGUSR1);
  printf("epoll, after raise: %d\n", epoll_wait(ep, &out, 1, 1000));
  take("after epoll", fd, 1, getpid());
  /* a blocking descriptor: another process's kill comes while read waits */
  int bfd = signalfd(-1, &watch, 0);
  kid = child(100000, SIGUSR1, 0);
  take("blocking read, another process's kill", bfd, 1, kid);
  take("blocking read, its exit", bfd, 1, kid);
  waitpid(kid, NULL, 0);
  /* a second thread, and a child's exit while the main thread polls */
  pthread_t th;
  pthread_create(&th, NULL, idle, NULL);
  kid = child(50000, 0, 3);
  printf("threaded, child exited: readable=%d\n", readable(fd, 5000));
  take("threaded SIGCHLD", fd, 1, kid);
  waitpid(kid, NULL, 0);
  kid = child(50000, SIGUSR2, 0);
  take("threaded blocking read", bfd, 1, kid);
  take("threaded blocking read, its exit", bfd, 1, kid);
  waitpid(kid, NULL, 0);
  close(bfd);
  printf("closed: read=%zd\n", read(bfd, &out, sizeof out));
  return 0;
}
