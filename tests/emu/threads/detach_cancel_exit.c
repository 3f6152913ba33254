/* threads: detached threads, cancellation at a cancellation point with a
 * cleanup handler, and exit() from a thread while others still run */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int detached_done, cleanups;

static void *detached(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  detached_done++;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return NULL;
}

static void cleanup(void *arg) {
  (void)arg;
  cleanups++;
}

static void *cancellable(void *arg) {
  (void)arg;
  pthread_cleanup_push(cleanup, NULL);
  for (;;) pause(); /* a cancellation point */
  pthread_cleanup_pop(0);
  return NULL;
}

static void *spinner(void *arg) {
  (void)arg;
  for (volatile unsigned long i = 0;; i++) {
  }
  return NULL;
}

static void *exiter(void *arg) {
  (void)arg;
  printf("detached %d, cancelled with %d cleanup(s); exiting from a thread\n", detached_done, cleanups);
  fflush(stdout);
  exit(7);
}

int main(void) {
  pthread_attr_t a;
  pthread_attr_init(&a);
  pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
  pthread_t t;
  for (int i = 0; i < 4; i++) pthread_create(&t, &a, detached, NULL);
  pthread_mutex_lock(&m);
  while (detached_done < 4) pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  pthread_t k;
  pthread_create(&k, NULL, cancellable, NULL);
  usleep(10000);
  pthread_cancel(k);
  void *r;
  pthread_join(k, &r);
  if (r != PTHREAD_CANCELED) return 1;
  pthread_t s[2];
  for (int i = 0; i < 2; i++) pthread_create(&s[i], NULL, spinner, NULL);
  pthread_create(&t, NULL, exiter, NULL);
  pthread_join(t, NULL); /* never returns: the process exits with 7 */
  return 0;
}
