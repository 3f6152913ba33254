/* tests/emu/guest/smc.c — self-modifying code: a function written into an
 * RWX page, run, rewritten (with and without a cache flush), run again. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
typedef long (*fn_t)(void);
static void emit(uint32_t *code, int value) {
  code[0] = 0x00000513u | ((uint32_t)value << 20); /* addi a0, zero, value */
  code[1] = 0x00008067u;                            /* ret */
}
int main(void) {
  uint32_t *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (code == MAP_FAILED) return 1;
  fn_t f = (fn_t)(uintptr_t)code;
  long sum = 0;
  for (int v = 1; v <= 5; v++) {
    emit(code, v);
    __builtin___clear_cache((char *)code, (char *)(code + 2));
    long r = f();
    printf("run %d -> %ld\n", v, r);
    sum += r;
  }
  /* no flush at all: the store itself must retire the old translation
   * (real hardware needs fence.i; emulators detect the write) */
  for (int v = 20; v <= 22; v++) {
    emit(code, v);
    printf("no flush %d -> %ld\n", v, f());
  }
  for (int v = 10; v <= 12; v++) {
    emit(code, v);
    __asm__ volatile("fence.i" ::: "memory");
    printf("fence.i %d -> %ld\n", v, f());
  }
  /* unmap and map again at the same place with new code */
  munmap(code, 4096);
  code = mmap(code, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  emit(code, 42);
  __builtin___clear_cache((char *)code, (char *)(code + 2));
  printf("remapped -> %ld\n", ((fn_t)(uintptr_t)code)());
  printf("sum=%ld\n", sum);
  return 0;
}
