/* tests/e2e/goto/cov_hooks.c — -fsanitize-coverage=trace-pc-guard callbacks
 * for vm.c, built without coverage in their own file as a fuzzer's runtime
 * would be: number the guards, count the calls and the guards reached, and
 * print the figures at exit for run.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t nguards, nhit;
static uint64_t ncalls;
static unsigned char *seen;

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop) {
  if (start == stop || *start) return;
  for (uint32_t *g = start; g < stop; g++) *g = ++nguards;
  seen = calloc(nguards + 1, 1);
}

void __sanitizer_cov_trace_pc_guard(uint32_t *guard) {
  ncalls++;
  if (*guard && seen && *guard <= nguards && !seen[*guard]) {
    seen[*guard] = 1;
    nhit++;
  }
}

__attribute__((destructor)) static void cov_report(void) {
  fprintf(stderr, "coverage: guards %u reached %u calls %llu\n", nguards, nhit, (unsigned long long)ncalls);
}
