/* threads: a reader-writer lock, a barrier between phases, pthread_once */
#include <pthread.h>
#include <stdio.h>

enum { N = 6, ROUNDS = 2000 };
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t barrier;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static long table[4], inits, serial_count;

static void init(void) { inits++; }

static void *worker(void *arg) {
  long id = (long)arg, seen = 0;
  pthread_once(&once, init);
  for (int r = 0; r < ROUNDS; r++) {
    if (r % 10 == (int)id) {
      pthread_rwlock_wrlock(&rw);
      for (int i = 0; i < 4; i++) table[i]++;
      pthread_rwlock_unlock(&rw);
    } else {
      pthread_rwlock_rdlock(&rw);
      long a = table[0];
      for (int i = 1; i < 4; i++) seen += table[i] != a; /* a writer never shows half-done */
      pthread_rwlock_unlock(&rw);
    }
  }
  if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD) __atomic_fetch_add(&serial_count, 1, __ATOMIC_SEQ_CST);
  pthread_barrier_wait(&barrier);
  return (void *)seen;
}

int main(void) {
  pthread_t t[N];
  pthread_barrier_init(&barrier, NULL, N);
  for (long i = 0; i < N; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  long torn = 0;
  for (int i = 0; i < N; i++) {
    void *r;
    pthread_join(t[i], &r);
    torn += (long)r;
  }
  printf("writes %ld per slot, torn reads %ld, once ran %ld time, serial threads %ld\n", table[0], torn, inits,
         serial_count);
  return 0;
}
