/* emu/tools/gdb/tdesc.c — the target description gdb reads with
 * qXfer:features:read:target.xml: the architecture and one <feature> per
 * group of registers, as the arch's register descriptor names them (gdb
 * checks each feature's register names against its own description of the
 * architecture). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsp.h"

typedef struct {
  char *s;
  size_t len, cap;
} Text;

static void add(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(Text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (t->len + (size_t)n + 1 > t->cap) {
    t->cap = (t->len + (size_t)n + 1) * 2;
    t->s = realloc(t->s, t->cap);
    if (!t->s) abort();
  }
  va_start(ap, fmt);
  vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
  va_end(ap);
  t->len += (size_t)n;
}

char *kit_gdb_tdesc_xml(const char *arch, const KitGdbReg *regs, size_t n) {
  Text t = {0};
  add(&t, "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target version=\"1.0\">\n");
  add(&t, "  <architecture>%s</architecture>\n", arch);
  const char *open = NULL;
  for (size_t i = 0; i < n; i++) {
    const KitGdbReg *r = &regs[i];
    if (!open || strcmp(open, r->feature)) {
      if (open) add(&t, "  </feature>\n");
      add(&t, "  <feature name=\"%s\">\n", r->feature);
      open = r->feature;
    }
    /* every register names its number: gdb numbers a feature's registers on
     * from the previous feature's otherwise, which need not be ours */
    add(&t, "    <reg name=\"%s\" bitsize=\"%u\" type=\"%s\" regnum=\"%zu\"", r->name, r->bits, r->type, i);
    if (r->group) add(&t, " group=\"%s\"", r->group);
    add(&t, "/>\n");
  }
  if (open) add(&t, "  </feature>\n");
  add(&t, "</target>\n");
  return t.s;
}
