/* threads: pthread_kill to one thread whose handler records which thread
 * ran it, signal masks per thread, and a SIGSEGV handled inside a thread */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static __thread int my_id;
static volatile sig_atomic_t usr1_seen_by = -1;
static __thread sigjmp_buf recover;
static pthread_barrier_t ready;

static void on_usr1(int sig) { (void)sig; usr1_seen_by = my_id; }
static void on_segv(int sig) { (void)sig; siglongjmp(recover, 1); }

static void *waiter(void *arg) {
  my_id = (int)(long)arg;
  pthread_barrier_wait(&ready);
  while (usr1_seen_by < 0) usleep(1000);
  return NULL;
}

static void *faulter(void *arg) {
  (void)arg;
  my_id = 9;
  if (sigsetjmp(recover, 1) == 0) {
    *(volatile int *)16 = 1;
    return (void *)1;
  }
  return (void *)2; /* the handler ran in this thread and jumped back */
}

int main(void) {
  signal(SIGUSR1, on_usr1);
  signal(SIGSEGV, on_segv);
  /* pthread_kill aims at thread 2: its handler sees thread 2's TLS */
  pthread_barrier_init(&ready, NULL, 3);
  pthread_t t[2];
  for (long i = 1; i <= 2; i++) pthread_create(&t[i - 1], NULL, waiter, (void *)i);
  pthread_barrier_wait(&ready);
  pthread_kill(t[1], SIGUSR1);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  printf("SIGUSR1 sent to thread 2 ran in thread %d\n", (int)usr1_seen_by);
  sigset_t block;
  sigemptyset(&block);
  sigaddset(&block, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &block, NULL);
  raise(SIGUSR2); /* stays pending: blocked */
  sigset_t pending;
  sigpending(&pending);
  printf("SIGUSR2 pending while blocked: %d\n", sigismember(&pending, SIGUSR2));
  pthread_t f;
  void *r;
  pthread_create(&f, NULL, faulter, NULL);
  pthread_join(f, &r);
  printf("fault in a thread handled there: %ld\n", (long)r);
  return 0;
}
