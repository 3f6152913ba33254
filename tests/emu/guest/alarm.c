/* tests/emu/guest/alarm.c — asynchronous signals: an interval timer's SIGALRM
 * interrupts a busy loop and a blocking read (EINTR without SA_RESTART, a
 * restarted read with it), a blocked signal stays pending until unblocked,
 * and SIGINT's default action ends the process with 128+2. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
static volatile sig_atomic_t ticks, usr2;
static void on_alrm(int s) { (void)s; ticks++; }
static void on_usr2(int s) { (void)s; usr2++; }
int main(void) {
  signal(SIGALRM, on_alrm);
  struct itimerval it = {{0, 20000}, {0, 20000}};
  setitimer(ITIMER_REAL, &it, NULL);
  volatile unsigned long spin = 0;
  while (ticks < 3) spin++;
  memset(&it, 0, sizeof it);
  setitimer(ITIMER_REAL, &it, NULL);
  printf("ticks>=3: %d\n", ticks >= 3);
  int p[2];
  char c;
  pipe(p);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alrm;
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval once = {{0, 0}, {0, 50000}};
  int before = ticks;
  setitimer(ITIMER_REAL, &once, NULL);
  ssize_t n = read(p[0], &c, 1);
  printf("read=%zd eintr=%d handler ran=%d\n", n, errno == EINTR, ticks > before);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &sa, NULL);
  pid_t kid = fork();
  if (kid == 0) {
    usleep(300000);
    write(p[1], "x", 1);
    _exit(0);
  }
  before = ticks;
  setitimer(ITIMER_REAL, &once, NULL);
  n = read(p[0], &c, 1);
  printf("restarted read=%zd c=%c handler ran=%d\n", n, c, ticks > before);
  waitpid(kid, NULL, 0);
  signal(SIGUSR2, on_usr2);
  sigset_t s, old;
  sigemptyset(&s);
  sigaddset(&s, SIGUSR2);
  sigprocmask(SIG_BLOCK, &s, &old);
  kill(getpid(), SIGUSR2);
  sigset_t pend;
  sigpending(&pend);
  printf("blocked: delivered=%d pending=%d\n", usr2, sigismember(&pend, SIGUSR2));
  sigprocmask(SIG_SETMASK, &old, NULL);
  printf("unblocked: delivered=%d\n", usr2);
  fflush(stdout);
  kill(getpid(), SIGINT);
  printf("not reached\n");
  return 0;
}
