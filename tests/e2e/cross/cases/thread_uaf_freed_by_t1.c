/* freed by the second thread, used by the first: "freed by thread T1 here:"
 * and T1's creation */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static char *p;

static void *release(void *arg) {
  (void)arg;
  free(p);
  return NULL;
}

int main(void) {
  p = malloc(32);
  p[0] = 'x';
  pthread_t t;
  pthread_create(&t, NULL, release, NULL);
  pthread_join(t, NULL);
  printf("%c\n", p[0]); /* use after T1's free */
  return 0;
}
