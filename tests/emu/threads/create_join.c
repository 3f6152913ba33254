/* threads: create and join with results, many at once and in waves */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

static void *square(void *arg) { return (void *)((uintptr_t)arg * (uintptr_t)arg); }

int main(void) {
  pthread_t t[16];
  uintptr_t sum = 0;
  for (int wave = 0; wave < 3; wave++) {
    for (uintptr_t i = 0; i < 16; i++) pthread_create(&t[i], NULL, square, (void *)(i + 16 * wave));
    for (int i = 0; i < 16; i++) {
      void *r;
      pthread_join(t[i], &r);
      sum += (uintptr_t)r;
    }
  }
  printf("sum of squares 0..47: %lu\n", (unsigned long)sum);
  return 0;
}
