/* tests/cgtext/cgtext_tool.c — the driver the cgtext script tests run: parses
 * a CG text file and prints, verifies or round-trips it, so each .cg case is
 * one process whose exit status tells a clean error from a crash. */
#include "kit/cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + len, 1, cap - len, f)) > 0;) {
    len += got;
    if (len == cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) free(buf);
      buf = nb;
    }
  }
  fclose(f);
  *n = len;
  return buf;
}

static char *print_to_string(const KitCgModule *m, size_t *n) {
  char *s = NULL;
  FILE *out = open_memstream(&s, n);
  if (!out) return NULL;
  kit_cg_print(m, out);
  fclose(out);
  return s;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s parse|verify|check|roundtrip FILE.cg\n", argv[0]);
    return 2;
  }
  const char *mode = argv[1];
  size_t n;
  char *text = slurp(argv[2], &n);
  if (!text) {
    fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[2]);
    return 2;
  }
  KitCgModule *m = kit_cg_parse(text, n, argv[2], stdout);
  free(text);
  if (!m) return 1;
  int rc = 0;
  if (!strcmp(mode, "parse")) {
    kit_cg_print(m, stdout);
  } else if (!strcmp(mode, "verify") || !strcmp(mode, "check")) {
    rc = kit_cg_verify(m, stdout) ? 1 : 0;
  } else if (!strcmp(mode, "roundtrip")) {
    size_t n1, n2;
    char *p1 = print_to_string(m, &n1);
    KitCgModule *m2 = kit_cg_parse(p1, n1, "printed", stdout);
    char *p2 = m2 ? print_to_string(m2, &n2) : NULL;
    if (!p2 || n1 != n2 || memcmp(p1, p2, n1)) {
      printf("round trip differs\n--- first print\n%s--- second print\n%s", p1, p2 ? p2 : "(parse failed)\n");
      rc = 1;
    }
    free(p1);
    free(p2);
    kit_cg_module_free(m2);
  } else {
    fprintf(stderr, "%s: unknown mode %s\n", argv[0], mode);
    rc = 2;
  }
  kit_cg_module_free(m);
  return rc;
}
