/* tests/rv64/objdump_cmp.c — reads `objdump -d [-M no-aliases]` output of
 * a riscv64 binary on stdin, re-decodes every instruction's bytes with kit's
 * decoder and disassembler, and compares the text line by line. Prints the
 * match percentage and the mismatches; exits 1 under the threshold.
 *   objdump_cmp [THRESHOLD [MAX_SHOWN [alias]]] */
#include "rv64.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* drop objdump's annotations: " <symbol+off>" after targets, " # comment" */
static void normalize(char *s) {
  char *p = strstr(s, " <");
  if (p) *p = 0;
  p = strstr(s, " #");
  if (p) *p = 0;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
}

int main(int argc, char **argv) {
  double threshold = argc > 1 ? atof(argv[1]) : 99.9;
  unsigned max_show = argc > 2 ? (unsigned)atoi(argv[2]) : 50;
  bool aliases = argc > 3 && !strcmp(argv[3], "alias");
  char line[1024];
  unsigned long total = 0, bad = 0;
  while (fgets(line, sizeof line, stdin)) {
    /* "   267a0:\t00100397          \tauipc\tt2,0x100" */
    char *colon = strchr(line, ':');
    if (!colon || line[0] != ' ' || colon[1] != '\t') continue;
    unsigned long long pc = strtoull(line, NULL, 16);
    char *hex = colon + 2;
    char *tab = strchr(hex, '\t');
    if (!tab) continue;
    char *end;
    unsigned long raw = strtoul(hex, &end, 16);
    size_t ndig = (size_t)(end - hex);
    if (ndig != 4 && ndig != 8) continue;
    char *want = tab + 1;
    want[strcspn(want, "\n")] = 0;
    /* data objdump shows as .word/.short/.byte (mapping symbols) is not code */
    if (!strncmp(want, ".word", 5) || !strncmp(want, ".short", 6) || !strncmp(want, ".byte", 5)) continue;
    normalize(want);
    uint8_t bytes[4] = {(uint8_t)raw, (uint8_t)(raw >> 8), (uint8_t)(raw >> 16), (uint8_t)(raw >> 24)};
    KitDecodedInsn d;
    kit_rv64_decode(bytes, ndig / 2, pc, &d);
    char got[256];
    if (aliases) kit_rv64_disasm_alias(&d, got, sizeof got);
    else kit_rv64_disasm(&d, got, sizeof got);
    total++;
    if (strcmp(got, want)) {
      if (bad++ < max_show) printf("MISMATCH %llx %0*lx: kit '%s' objdump '%s'\n", pc, (int)ndig, raw, got, want);
    }
  }
  double pct = total ? 100.0 * (double)(total - bad) / (double)total : 0;
  printf("objdump-compare: %lu instructions, %lu mismatches, %.4f%% match\n", total, bad, pct);
  return total && pct >= threshold ? 0 : 1;
}
