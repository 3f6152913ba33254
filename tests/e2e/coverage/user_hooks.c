/* A program with its own inline-8bit-counters, inline-bool-flag, trace-cmp,
 * trace-div and trace-gep hooks: prints what they saw as yes/no facts, which
 * must be the same under kitcc and clang-16. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

static uint8_t *cnt_beg, *cnt_end;
static bool *flag_beg, *flag_end;
static bool saw_const42, saw_cmp, saw_switch3, saw_div7, saw_gep;

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop) {
  if (!cnt_beg) cnt_beg = start, cnt_end = stop;
}
void __sanitizer_cov_bool_flag_init(bool *start, bool *stop) {
  if (!flag_beg) flag_beg = start, flag_end = stop;
}
void __sanitizer_cov_trace_const_cmp4(uint32_t a, uint32_t b) { saw_const42 |= a == 42 && b == 5; }
void __sanitizer_cov_trace_cmp4(uint32_t a, uint32_t b) { saw_cmp |= a != b; }
void __sanitizer_cov_trace_switch(uint64_t v, uint64_t *cases) { saw_switch3 |= cases[0] == 3 && v == 2; }
void __sanitizer_cov_trace_div4(uint32_t d) { saw_div7 |= d == 7; }
void __sanitizer_cov_trace_gep(uintptr_t idx) { saw_gep |= idx != 0; }

static int table[16];

int main(int argc, char **argv) {
  (void)argv;
  volatile int x = 5, seven = 7, i = argc + 2;
  int r = 0;
  if (x == 42) r = 1;
  if (x < i + 10) r += 2;
  switch (argc + 1) {
  case 1: r += 10; break;
  case 2: r += 20; break;
  case 3: r += 30; break;
  }
  r += 100 / seven;
  table[i] = r;
  int hot = 0, flags = 0;
  for (uint8_t *c = cnt_beg; c < cnt_end; c++) hot += *c != 0;
  for (bool *f = flag_beg; f < flag_end; f++) flags += *f;
  printf("r %d counters %s flags %s const42 %s cmp %s switch %s div %s gep %s\n", table[i], hot ? "yes" : "no",
         flags ? "yes" : "no", saw_const42 ? "yes" : "no", saw_cmp ? "yes" : "no", saw_switch3 ? "yes" : "no",
         saw_div7 ? "yes" : "no", saw_gep ? "yes" : "no");
  return 0;
}
