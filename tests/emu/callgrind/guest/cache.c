/* tests/emu/callgrind/guest/cache.c — memory access patterns whose cache
 * misses are known in closed form (run with --cache-sim=yes
 * --D1=32768,8,64 --LL=262144,8,64): stride() reads one byte per 64-byte
 * line of 1 MiB twice (larger than LL: every read misses D1 and LL, 32768
 * of each); inside() reads 16 KiB 8 bytes at a time 10 times (inside D1: only
 * the first pass misses, 256 lines; Dr 20480); writes() stores one byte per
 * line of 64 KiB never touched before (1024 D1mw and DLmw). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NOIPA __attribute__((noipa))

NOIPA unsigned stride(const volatile uint8_t *a) {
  unsigned s = 0;
  for (int pass = 0; pass < 2; pass++)
    for (long i = 0; i < (1 << 20); i += 64) s += a[i];
  return s;
}

NOIPA uint64_t inside(const volatile uint64_t *a) {
  uint64_t s = 0;
  for (int pass = 0; pass < 10; pass++)
    for (long i = 0; i < 16384 / 8; i++) s += a[i];
  return s;
}

NOIPA void writes(volatile uint8_t *a) {
  for (long i = 0; i < 65536; i += 64) a[i] = 1;
}

static _Alignas(64) uint8_t big[1 << 20];
static _Alignas(64) uint64_t small[16384 / 8];
static _Alignas(64) uint8_t fresh[65536];

int main(void) {
  unsigned s = stride(big);
  s += (unsigned)inside(small);
  writes(fresh);
  printf("%u\n", s);
  return 0;
}
