/* threads.c — a chunk allocated, freed and then touched by three different
 * threads: the report must name T1/T2/T3 and say who created each. Built like
 * cases.c: gcc + explicit checks, or clang-16 -fsanitize=address -DREF_BUILD. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef REF_BUILD
#define CHK(call)
#else
#include "kit/san_abi.h"
#define CHK(call) call
#endif

static char *p;
static int one;

static void *alloc_thread(void *a) { p = malloc(10); return a; }
static void *free_thread(void *a) { free(p); return a; }
static void *use_thread(void *a) {
  CHK(__asan_store1((uintptr_t)&p[one])); p[one] = 1;
  return a;
}

static pthread_mutex_t started = PTHREAD_MUTEX_INITIALIZER;

/* Keeps its only pointer to a chunk on its own stack and never returns. */
static void *holder_thread(void *a) {
  char *volatile mine = malloc(24);
  mine[0] = 1;
  pthread_mutex_unlock(&started);
  for (;;)
    pause();
  return a;
}

/* Allocator and depot under contention: four threads churn the heap at once. */
static void *churn_thread(void *a) {
  char *keep[64] = {0};
  unsigned seed = (unsigned)(uintptr_t)a;
  for (int i = 0; i < 20000; i++) {
    seed = seed * 1103515245 + 12345;
    int k = (int)((seed >> 8) % 64);
    if (keep[k]) {
      if (keep[k][0] != (char)k)
        return (void *)1;
      free(keep[k]);
      keep[k] = NULL;
    } else {
      keep[k] = malloc(1 + (seed >> 16) % 700);
      keep[k][0] = (char)k;
    }
  }
  for (int k = 0; k < 64; k++)
    free(keep[k]);
  return NULL;
}

int main(int argc, char **argv) {
  one = argc - 1;
  pthread_t t;
  if (argc > 1 && !strcmp(argv[1], "churn")) {
    pthread_t ts[4];
    for (uintptr_t i = 0; i < 4; i++)
      pthread_create(&ts[i], NULL, churn_thread, (void *)(i + 1));
    int bad = 0;
    for (int i = 0; i < 4; i++) {
      void *r;
      pthread_join(ts[i], &r);
      bad |= r != NULL;
    }
    fprintf(stderr, "churn %s\n", bad ? "corrupt" : "ok");
    return bad;
  }
  if (argc > 1 && !strcmp(argv[1], "live")) {
    /* A thread still running at exit: its stack is a root, so no leak. */
    pthread_mutex_lock(&started);
    pthread_create(&t, NULL, holder_thread, NULL);
    pthread_mutex_lock(&started);
    return 0;
  }
  pthread_create(&t, NULL, alloc_thread, NULL);
  pthread_join(t, NULL);
  pthread_create(&t, NULL, free_thread, NULL);
  pthread_join(t, NULL);
  pthread_create(&t, NULL, use_thread, NULL);
  pthread_join(t, NULL);
  return 0;
}
