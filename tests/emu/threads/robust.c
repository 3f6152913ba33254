/* threads: a robust mutex whose owner exits while holding it: the next
 * locker gets EOWNERDEAD, makes it consistent, and goes on */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m;

static void *owner(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  return NULL; /* exits holding it */
}

int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
  pthread_mutex_init(&m, &a);
  pthread_t t;
  pthread_create(&t, NULL, owner, NULL);
  pthread_join(t, NULL);
  int r = pthread_mutex_lock(&m);
  printf("lock after the owner died: %s\n", r == EOWNERDEAD ? "EOWNERDEAD" : r == 0 ? "0" : "other");
  if (r == EOWNERDEAD) pthread_mutex_consistent(&m);
  pthread_mutex_unlock(&m);
  printf("relock: %d\n", pthread_mutex_lock(&m));
  return 0;
}
