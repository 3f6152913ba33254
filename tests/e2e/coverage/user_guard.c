/* A program with its own trace-pc-guard and pc-table callbacks, as a fuzzer
 * would write them: counts the guards and the function entries in the table,
 * and how many distinct guards ran. */
#include <stdint.h>
#include <stdio.h>

static uint32_t nguards, nhit;
static size_t npcs, nfuncs;

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop) {
  if (start == stop || *start) return;
  for (uint32_t *g = start; g < stop; g++) *g = ++nguards;
}

void __sanitizer_cov_trace_pc_guard(uint32_t *guard) {
  if (!*guard) return;
  *guard = 0;
  nhit++;
}

void __sanitizer_cov_pcs_init(const uintptr_t *beg, const uintptr_t *end) {
  for (const uintptr_t *p = beg; p < end; p += 2) {
    npcs++;
    if (p[1] & 1) nfuncs++;
  }
}

static int classify(int x) {
  if (x > 10) return 2;
  if (x > 0) return 1;
  return 0;
}

int main(int argc, char **argv) {
  (void)argv;
  int s = classify(argc) + classify(argc + 20);
  printf("classify %d\n", s);
  printf("guards %u pcs %zu funcs %zu hit>0 %d hit<guards %d\n", nguards, npcs, nfuncs, nhit > 0, nhit < nguards);
  return 0;
}
