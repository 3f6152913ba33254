/* a leak from a thread that has ended: its block is reachable from nothing */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static void *worker(void *arg) {
  char *q = malloc(48);
  memset(q, 1, 48);
  q = NULL;
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  return 0;
}
