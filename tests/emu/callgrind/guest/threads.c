/* tests/emu/callgrind/guest/threads.c — four workers, started together at a
 * barrier so that they take turns on the execution lock in the middle of
 * their calls, each calling known functions a known number of times: worker
 * k runs work(k), which calls leaf 20000 * (k + 1) times, sched_yield
 * 5 * (k + 1) times (every 4096th iteration) and part[k] (its own function)
 * k + 1 times; main calls leaf 3 times and work 0 times
 * itself. The output (the sum) is fixed. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

static pthread_barrier_t go;

__attribute__((noinline)) long leaf(long x) { return x * 3 + 1; }
__attribute__((noinline)) long part0(long x) { return x + 10; }
__attribute__((noinline)) long part1(long x) { return x + 20; }
__attribute__((noinline)) long part2(long x) { return x + 30; }
__attribute__((noinline)) long part3(long x) { return x + 40; }
static long (*const part[4])(long) = {part0, part1, part2, part3};

__attribute__((noinline)) long work(long k) {
  long s = 0;
  for (long i = 0; i < 20000 * (k + 1); i++) {
    if (!(i & 4095)) sched_yield(); /* another worker runs, in the middle of this call */
    s += leaf(i & 1023);
  }
  for (long i = 0; i <= k; i++) s += part[k](i);
  return s;
}

static void *worker(void *arg) {
  long k = (long)arg;
  pthread_barrier_wait(&go);
  return (void *)work(k);
}

int main(void) {
  pthread_t t[4];
  pthread_barrier_init(&go, NULL, 4);
  for (long k = 0; k < 4; k++)
    if (pthread_create(&t[k], NULL, worker, (void *)k)) return 1;
  long s = leaf(1) + leaf(2) + leaf(3);
  for (int k = 0; k < 4; k++) {
    void *r;
    pthread_join(t[k], &r);
    s += (long)r;
  }
  printf("sum %ld\n", s);
  return 0;
}
