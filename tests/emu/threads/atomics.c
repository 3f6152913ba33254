/* threads: 8 threads x 10^6 atomic increments (AMO add), a compare-and-swap
 * loop, and a spinlock on LR/SC guarding a plain counter: exact totals */
#include <pthread.h>
#include <stdio.h>

enum { THREADS = 8, N = 1000000 };
static long amo_count, cas_count, locked_count;
static int spin;

static void lock(int *l) {
#if defined(__riscv)
  int tmp, one = 1;
  __asm__ volatile("1: lr.w.aq %0, (%1)\n"
                   "   bnez %0, 1b\n"
                   "   sc.w.rl %0, %2, (%1)\n"
                   "   bnez %0, 1b\n"
                   : "=&r"(tmp)
                   : "r"(l), "r"(one)
                   : "memory");
#else
  while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE)) {
  }
#endif
}

static void unlock(int *l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }

static void *work(void *arg) {
  (void)arg;
  for (int i = 0; i < N; i++) {
    __atomic_fetch_add(&amo_count, 1, __ATOMIC_RELAXED);
    long old = __atomic_load_n(&cas_count, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&cas_count, &old, old + 1, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    if (i % 8 == 0) {
      lock(&spin);
      locked_count++;
      unlock(&spin);
    }
  }
  return NULL;
}

int main(void) {
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, work, NULL);
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  printf("amo %ld cas %ld lr/sc-locked %ld (expected %ld %ld %ld)\n", amo_count, cas_count, locked_count,
         (long)THREADS * N, (long)THREADS * N, (long)THREADS * N / 8);
  return amo_count != (long)THREADS * N || cas_count != (long)THREADS * N || locked_count != (long)THREADS * N / 8;
}
