/* libc_alloc.c — no false reports: memory libc allocates internally (asprintf,
 * getline, realpath, stdio) goes through the runtime's malloc and frees
 * cleanly, and a thread's ld.so-made DTV is not reported as a leak. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *thread_main(void *arg) {
  char *p = malloc(100);
  memset(p, 0, 100);
  free(p);
  return arg;
}

int main(void) {
  char *s = NULL;
  if (asprintf(&s, "x%d", 1) < 0)
    return 2;
  free(s);
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f)
    return 3;
  char *line = NULL;
  size_t n = 0;
  while (getline(&line, &n, f) > 0)
    ;
  free(line);
  fclose(f);
  free(realpath("/tmp", NULL));
  pthread_t t;
  if (pthread_create(&t, NULL, thread_main, NULL) || pthread_join(t, NULL))
    return 4;
  printf("ok\n");
  return 0;
}
