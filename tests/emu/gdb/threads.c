/* tests/emu/gdb/threads.c — gdb on guest threads: thread 2 reaches work()
 * while thread 1 (main) waits in pthread_join for thread 3 and thread 3 waits
 * in pthread_join for thread 2; so where every thread is at each stop does
 * not depend on timing (only the usleep before thread 2's work gives thread 3
 * time to reach its join) */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_t t[2];
static int results[2];

static int work(int id, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += i * id;
  return s;
}

static void *first(void *arg) {
  usleep(100000);
  int r = work((int)(long)arg, 10);
  results[0] = r;
  return NULL;
}

static void *second(void *arg) {
  pthread_join(t[0], NULL);
  int r = work((int)(long)arg, 10);
  results[1] = r;
  return NULL;
}

int main(void) {
  pthread_create(&t[0], NULL, first, (void *)1L);
  pthread_create(&t[1], NULL, second, (void *)2L);
  pthread_join(t[1], NULL);
  printf("results %d %d\n", results[0], results[1]);
  return 3;
}
