/* smc_threads.c — code written and run by several threads at once, as JITs
 * do: each thread rewrites a function in its own RWX page (li a0, k; ret),
 * flushes the instruction cache and calls it, many times, while the others
 * do the same; one more thread maps, fills, runs and unmaps a page over and
 * over. Every call must return the value just written: translations are
 * dropped (and threads running other code go on) without a stale block or a
 * crash, whether threads take turns or run in parallel. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define THREADS 4
#define ROUNDS 500

typedef long (*fn)(void);

/* addi a0, zero, imm; jalr zero, 0(ra) */
static void emit(uint32_t *p, int imm) {
  p[0] = ((uint32_t)(imm & 0xfff) << 20) | (10u << 7) | 0x13u;
  p[1] = 0x00008067u;
}

static long bad[THREADS + 1];

static void *rewrite(void *arg) {
  long me = (long)arg;
  uint32_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return (void *)1;
  for (int i = 0; i < ROUNDS; i++) {
    int k = (int)((me * 1000 + i) % 2000);
    emit(page, k);
    __builtin___clear_cache((char *)page, (char *)(page + 2));
    if (((fn)page)() != k) bad[me]++;
  }
  munmap(page, 4096);
  return NULL;
}

static void *remap(void *arg) {
  (void)arg;
  for (int i = 0; i < ROUNDS / 10; i++) {
    uint32_t *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) return (void *)1;
    emit(page, i % 1000);
    mprotect(page, 4096, PROT_READ | PROT_EXEC);
    __builtin___clear_cache((char *)page, (char *)(page + 2));
    if (((fn)page)() != i % 1000) bad[THREADS]++;
    munmap(page, 4096);
  }
  return NULL;
}

int main(void) {
  pthread_t t[THREADS + 1];
  for (long i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, rewrite, (void *)i);
  pthread_create(&t[THREADS], NULL, remap, NULL);
  long failed = 0;
  for (int i = 0; i <= THREADS; i++) {
    void *r;
    pthread_join(t[i], &r);
    failed += r != NULL;
  }
  long wrong = 0;
  for (int i = 0; i <= THREADS; i++) wrong += bad[i];
  printf("threads %d, rounds %d: %ld wrong results, %ld threads failed\n", THREADS, ROUNDS, wrong, failed);
  return wrong || failed;
}
