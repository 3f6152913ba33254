/* tests/emu/guest/maskwait.c — the signal mask of ppoll, pselect and
 * epoll_pwait: the classic race-free wait (block a signal, then wait with a
 * mask that lets it in) must return EINTR and run the handler, for a signal
 * already pending and for one that comes during the wait; the old mask is
 * back afterwards; a signal the wait's mask blocks stays pending, and one
 * the thread blocks does not interrupt a blocking read. With a second
 * thread, an ignored SIGCHLD (a child's exit) interrupts neither a read
 * nor a poll. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t got;
/* the second thread: it waits until the process ends (no loop back to its
 * first statement: gdb keeps a breakpoint on such a function at its entry,
 * kit_debuginfo goes past the prologue; see the stop 32 notes) */
static void *idle(void *a) {
  (void)a;
  sleep(600);
  return NULL;
}
static void on_usr1(int s) { (void)s; got++; }

/* a child that after usec sends sig to us (0: none), after wusec more
 * writes ch to fd (-1: none), and exits */
static pid_t child(useconds_t usec, int sig, useconds_t wusec, int fd, char ch) {
  pid_t kid = fork();
  if (kid == 0) {
    usleep(usec);
    if (sig) kill(getppid(), sig);
    usleep(wusec);
    if (fd >= 0) write(fd, &ch, 1);
    _exit(0);
  }
  return kid;
}

static int blocked_now(void) {
  sigset_t cur;
  sigprocmask(SIG_SETMASK, NULL, &cur);
  return sigismember(&cur, SIGUSR1);
}

enum { PPOLL, PSELECT, EPOLL };
static const char *names[] = {"ppoll", "pselect", "epoll_pwait"};

/* one wait on the read end of an empty pipe, for at most ms */
static int wait_once(int how, int fd, int ep, const sigset_t *mask, int ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  if (how == PPOLL) {
    struct pollfd p = {fd, POLLIN, 0};
    return ppoll(&p, 1, &ts, mask);
  }
  if (how == PSELECT) {
    fd_set r;
    FD_ZERO(&r);
    FD_SET(fd, &r);
    return pselect(fd + 1, &r, NULL, NULL, &ts, mask);
  }
  struct epoll_event ev;
  return epoll_pwait(ep, &ev, 1, ms, mask);
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigaction(SIGUSR1, &sa, NULL);
  sigset_t usr1, open;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  sigprocmask(SIG_BLOCK, &usr1, NULL);
  sigemptyset(&open);
  int p[2];
  pipe(p);
  int ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN, .data.fd = p[0]};
  epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
  for (int how = PPOLL; how <= EPOLL; how++) {
    /* pending before the wait: it returns at once */
    got = 0;
    kill(getpid(), SIGUSR1);
    int r = wait_once(how, p[0], ep, &open, 5000);
    int e = errno;
    printf("%s pending: r=%d eintr=%d handler=%d blocked after=%d\n", names[how], r, r < 0 && e == EINTR, got,
           blocked_now());
    /* sent during the wait by a child */
    got = 0;
    pid_t kid = child(100000, SIGUSR1, 0, -1, 0);
    r = wait_once(how, p[0], ep, &open, 5000);
    e = errno;
    waitpid(kid, NULL, 0);
    printf("%s during: r=%d eintr=%d handler=%d blocked after=%d\n", names[how], r, r < 0 && e == EINTR, got,
           blocked_now());
    /* a mask that keeps it blocked: the wait times out, the signal stays pending */
    got = 0;
    kill(getpid(), SIGUSR1);
    r = wait_once(how, p[0], ep, &usr1, 50);
    sigset_t pend;
    sigpending(&pend);
    printf("%s kept out: r=%d handler=%d pending=%d\n", names[how], r, got, sigismember(&pend, SIGUSR1));
    sigprocmask(SIG_UNBLOCK, &usr1, NULL); /* taken now */
    sigprocmask(SIG_BLOCK, &usr1, NULL);
    printf("%s unblocked: handler=%d\n", names[how], got);
    /* no mask (NULL): the thread's own mask, which blocks it */
    kill(getpid(), SIGUSR1);
    got = 0;
    r = wait_once(how, p[0], ep, NULL, 50);
    printf("%s no mask: r=%d handler=%d\n", names[how], r, got);
    sigprocmask(SIG_UNBLOCK, &usr1, NULL);
    sigprocmask(SIG_BLOCK, &usr1, NULL);
  }
  /* blocked during a read: the read is not interrupted, the signal waits */
  got = 0;
  pid_t kid = child(50000, SIGUSR1, 100000, p[1], 'x');
  char c = 0;
  ssize_t n = read(p[0], &c, 1);
  waitpid(kid, NULL, 0);
  printf("read with it blocked: n=%zd c=%c handler=%d\n", n, c, got);
  sigprocmask(SIG_UNBLOCK, &usr1, NULL);
  printf("unblocked after the read: handler=%d\n", got);
  /* threaded from here on; SIGCHLD keeps its default action (ignore) */
  pthread_t th;
  pthread_create(&th, NULL, idle, NULL);
  child(50000, 0, 0, -1, 0);      /* exits during the read */
  child(200000, 0, 0, p[1], 'y'); /* then the byte comes */
  n = read(p[0], &c, 1);
  printf("threaded, a child exits during a read: n=%zd c=%c\n", n, c);
  while (wait(NULL) > 0) {}
  child(50000, 0, 0, -1, 0); /* exits during the poll */
  struct pollfd pf = {p[0], POLLIN, 0};
  int pr = poll(&pf, 1, 300);
  printf("threaded, a child exits during a poll: r=%d\n", pr);
  while (wait(NULL) > 0) {}
  return 0;
}
