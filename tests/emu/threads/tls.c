/* threads: __thread variables and pthread keys with destructors */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static __thread int counter = 100;
static __thread char name[16];
static pthread_key_t key;
static int destructed;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void destroy(void *p) {
  pthread_mutex_lock(&m);
  destructed += *(int *)p;
  pthread_mutex_unlock(&m);
  free(p);
}

static void *body(void *arg) {
  int id = (int)(long)arg;
  snprintf(name, sizeof name, "thread-%d", id);
  for (int i = 0; i < 1000; i++) counter++;
  int *v = malloc(sizeof *v);
  *v = id + 1;
  pthread_setspecific(key, v);
  return (void *)(long)(counter * 10 + (name[7] - '0'));
}

int main(void) {
  pthread_key_create(&key, destroy);
  pthread_t t[5];
  for (long i = 0; i < 5; i++) pthread_create(&t[i], NULL, body, (void *)i);
  for (int i = 0; i < 5; i++) {
    void *r;
    pthread_join(t[i], &r);
    printf("thread %d: %ld\n", i, (long)r);
  }
  printf("main's counter %d, name '%s', destructors summed %d\n", counter, name, destructed);
  return 0;
}
