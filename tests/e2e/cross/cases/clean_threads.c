/* clean: four threads fill their own heap blocks under a mutex-protected
 * counter; a block a live thread still holds only on its stack is no leak */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static long total;
static int ready;

static void *fill(void *arg) {
  long n = (long)arg;
  long *v = malloc(n * sizeof *v);
  long s = 0;
  for (long i = 0; i < n; i++) v[i] = i, s += v[i];
  free(v);
  pthread_mutex_lock(&m);
  total += s;
  pthread_mutex_unlock(&m);
  return NULL;
}

static void *holder(void *arg) {
  (void)arg;
  volatile char *mine = malloc(64); /* only on this thread's stack */
  mine[0] = 1;
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  for (;;) pthread_cond_wait(&c, &m); /* still running at exit */
  return NULL;
}

int main(void) {
  pthread_t t[4], h;
  for (long i = 0; i < 4; i++) pthread_create(&t[i], NULL, fill, (void *)(100 + i));
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  pthread_create(&h, NULL, holder, NULL);
  pthread_mutex_lock(&m);
  while (!ready) pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  printf("%ld\n", total);
  return 0;
}
