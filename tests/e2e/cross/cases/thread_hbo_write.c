/* a heap overflow in a second thread: "WRITE ... thread T1", the block
 * allocated by T0, and "Thread T1 created by T0 here:" with main's line */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int *buf;

static void *worker(void *arg) {
  (void)arg;
  buf[4] = 42; /* one past the end */
  return NULL;
}

int main(void) {
  buf = malloc(4 * sizeof *buf);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  printf("%d\n", buf[0]);
  free(buf);
  return 0;
}
