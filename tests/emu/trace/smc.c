/* tests/emu/trace/smc.c — code written, run, rewritten, run again and unmapped:
 * the invalidate records of run.sh's "invalidate" part. A private RWX page
 * (a write to translated code, instruction-cache flushes that find nothing
 * left to drop, the munmap), then a JIT's two views of one memfd, written
 * through the writable one and run through the executable one: no write
 * there reaches the emulator, so only the flushes (fence.i,
 * riscv_flush_icache) retire the old code. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
typedef int (*fn)(void);
int main(void) {
  unsigned *p = mmap(0, 4096, PROT_READ|PROT_WRITE|PROT_EXEC, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
  p[0] = 0x00100513; /* li a0,1 */ p[1] = 0x00008067; /* ret */
  __builtin___clear_cache((char*)p, (char*)p + 8);
  int a = ((fn)p)();
  p[0] = 0x00200513; /* li a0,2 */
  __builtin___clear_cache((char*)p, (char*)p + 8);
  int b = ((fn)p)();
  munmap(p, 4096);
  printf("%d %d\n", a, b);
  int fd = memfd_create("jit", 0);
  if (fd < 0 || ftruncate(fd, 4096) < 0) return 1;
  unsigned *w = mmap(0, 4096, PROT_READ|PROT_WRITE, MAP_SHARED, fd, 0);
  unsigned *x = mmap(0, 4096, PROT_READ|PROT_EXEC, MAP_SHARED, fd, 0);
  if (w == MAP_FAILED || x == MAP_FAILED) return 1;
  printf("x=%p\n", (void *)x);
  for (int v = 3; v <= 5; v++) {
    w[0] = 0x00000513u | ((unsigned)v << 20); /* li a0,v */ w[1] = 0x00008067;
    if (v == 4) __asm__ volatile("fence.i" ::: "memory");
    else __builtin___clear_cache((char*)x, (char*)x + 8);
    printf("%d\n", ((fn)x)());
  }
  return 0;
}
