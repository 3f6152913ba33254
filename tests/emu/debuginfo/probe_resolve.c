/* tests/emu/debuginfo/probe_resolve.c — `probe_resolve ELF SPEC...`: per
 * spec one line, "SPEC -> kind addr... [print r1 r2]" or "SPEC !! message" */
#include <inttypes.h>
#include <stdio.h>

#include "spec.h"

int main(int argc, char **argv) {
  static const char *const kinds[] = {"func", "offset", "line", "return"};
  for (int i = 2; i < argc; i++) {
    KitProbeSpec p;
    char err[512];
    uint64_t a[64];
    long n;
    if (kit_probe_parse(argv[i], &p, err, sizeof err) < 0 || (n = kit_probe_resolve(&p, argv[1], a, 64, err, sizeof err)) < 0) {
      printf("%s !! %s\n", argv[i], err);
      continue;
    }
    printf("%s -> %s", argv[i], kinds[p.kind]);
    for (long k = 0; k < n; k++) printf(" 0x%" PRIx64, a[k]);
    if (p.nprint) printf(" [print");
    for (unsigned k = 0; k < p.nprint; k++) printf(" %s", p.print[k]);
    printf(p.nprint ? "]\n" : "\n");
  }
  return 0;
}
