/* tests/emu/debuginfo/line_addrs.c — print what kit_debuginfo_line_addrs
 * answers for `ELF FILE LINE...` (one line per source line, "LINE: 0x...
 * 0x..."), or kit_debuginfo_function_addrs for `ELF --func NAME...` ("NAME:
 * 0x..."); the compare script puts gdb's answers beside them */
#include <inttypes.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo.h"

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: line_addrs ELF FILE LINE...\n");
    return 2;
  }
  bool funcs = !strcmp(argv[2], "--func");
  for (int i = 3; i < argc; i++) {
    uint64_t a[64];
    uint32_t found;
    long n = funcs ? kit_debuginfo_function_addrs(argv[1], argv[i], a, 64)
                   : kit_debuginfo_line_addrs(argv[1], argv[2], (uint32_t)atoi(argv[i]), a, 64, &found);
    if (n < 0) {
      fprintf(stderr, "line_addrs: cannot read the DWARF of %s\n", argv[1]);
      return 1;
    }
    printf("%s:", argv[i]);
    for (long k = 0; k < n; k++) printf(" 0x%" PRIx64, a[k]);
    printf("\n");
  }
  return 0;
}
