/* threads: a signal-handling thread (sigwait) as daemons have one: the
 * process's SIGUSR1 and a pthread_kill'ed SIGUSR2 are taken by sigwait in
 * the thread, every thread blocking them; sigtimedwait times out (EAGAIN) */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static sigset_t set;
static int got[3];

static void *waiter(void *arg) {
  (void)arg;
  for (int i = 0; i < 3; i++) {
    int sig = 0;
    if (sigwait(&set, &sig)) return NULL;
    got[i] = sig;
  }
  return NULL;
}

int main(void) {
  sigemptyset(&set);
  sigaddset(&set, SIGUSR1);
  sigaddset(&set, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &set, NULL);
  struct timespec ts = {0, 20 * 1000 * 1000};
  siginfo_t si;
  int r = sigtimedwait(&set, &si, &ts);
  printf("sigtimedwait with nothing pending: %s\n", r < 0 && errno == EAGAIN ? "EAGAIN" : "?");
  pthread_t t;
  pthread_create(&t, NULL, waiter, NULL);
  kill(getpid(), SIGUSR1);
  usleep(20000);
  pthread_kill(t, SIGUSR2);
  usleep(20000);
  kill(getpid(), SIGUSR1);
  pthread_join(t, NULL);
  printf("waiter took %s, %s, %s\n", got[0] == SIGUSR1 ? "USR1" : "?", got[1] == SIGUSR2 ? "USR2" : "?",
         got[2] == SIGUSR1 ? "USR1" : "?");
  raise(SIGUSR2);
  r = sigwaitinfo(&set, &si);
  printf("sigwaitinfo after raise: %s, si_signo %s\n", r == SIGUSR2 ? "USR2" : "?", si.si_signo == SIGUSR2 ? "ok" : "?");
  return 0;
}
