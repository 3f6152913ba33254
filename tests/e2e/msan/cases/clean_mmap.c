/* fresh mappings read as initialized: a large reservation, and a mapping where
 * a freed big malloc block (its own mapping, poisoned when freed) may have been */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
int main(void) {
  char *big = mmap(0, 1UL << 36, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (big == MAP_FAILED) return 0;
  if (big[12345] || big[(1UL << 35) + 7]) puts("nonzero");
  char *h = malloc(1 << 20);
  h[0] = 1;
  free(h);
  char *m = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m[100]) puts("nonzero");
  return 0;
}
