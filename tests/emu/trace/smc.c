/* tests/emu/trace/smc.c — code written, run, rewritten, run again and unmapped:
 * the invalidate records of run.sh's "invalidate" part (a write to
 * translated code, the instruction-cache flushes, the munmap) */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
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
  return 0;
}
