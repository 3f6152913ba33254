/* options.c — ASAN_OPTIONS / LSAN_OPTIONS parsing: the reference's option
 * names, separators (':' ',' ' ' tab newline) and defaults. */
#include "san_core.h"
#include <stdlib.h>
#include <string.h>

KitSanOptions kit_san_opts;

void kit_san_options_defaults(KitSanOptions *o) {
  memset(o, 0, sizeof *o);
  o->halt_on_error = true;
  o->detect_leaks = true;
  o->print_legend = true;
  o->symbolize = true;
  o->detect_stack_use_after_return = true; /* clang-16's default on Linux */
  o->handle_segv = true;
  o->handle_sigbus = true;
  o->handle_sigfpe = true;
  o->allow_user_poisoning = true;
  o->check_malloc_usable_size = true;
  o->print_summary = true;
  o->leak_check_at_exit = true;
  o->replace_str = true;
  o->replace_intrin = true;
  o->intercept_strlen = true;
  o->exitcode = 1;
  o->malloc_fill_byte = 0xbe;
  o->malloc_context_size = 30;
  o->quarantine_size_mb = 256;
  o->redzone = 16;
  o->max_redzone = 2048;
  o->max_malloc_fill_size = 0x1000;
}

typedef enum { OPT_BOOL, OPT_INT, OPT_LONG, OPT_STR } OptKind;
typedef struct {
  const char *name;
  OptKind kind;
  size_t off;
  size_t len;
} OptDesc;

#define B(n) {#n, OPT_BOOL, offsetof(KitSanOptions, n), 0}
#define I(n) {#n, OPT_INT, offsetof(KitSanOptions, n), 0}
#define L(n) {#n, OPT_LONG, offsetof(KitSanOptions, n), 0}
#define S(n) {#n, OPT_STR, offsetof(KitSanOptions, n), sizeof(((KitSanOptions *)0)->n)}
static const OptDesc opts[] = {
    B(halt_on_error), B(abort_on_error), B(detect_leaks), B(print_legend), B(symbolize),
    B(detect_stack_use_after_return), B(handle_segv), B(handle_sigbus), B(handle_sigfpe),
    B(allow_user_poisoning), B(coverage), B(check_malloc_usable_size), B(print_summary),
    B(leak_check_at_exit), B(replace_str), B(replace_intrin), B(intercept_strlen),
    B(allocator_may_return_null),
    I(exitcode), I(verbosity), I(malloc_fill_byte), I(malloc_context_size),
    L(quarantine_size_mb), L(redzone), L(max_redzone), L(max_malloc_fill_size),
    S(log_path), S(strip_path_prefix), S(coverage_dir),
};
#undef B
#undef I
#undef L
#undef S

static bool parse_bool(const char *v, bool *out) {
  if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes")) {
    *out = true;
    return true;
  }
  if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no")) {
    *out = false;
    return true;
  }
  return false;
}

static void set_one(KitSanOptions *o, const char *name, const char *val,
                    void (*warn)(const char *, const char *), const char *tool) {
  for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
    const OptDesc *d = &opts[i];
    if (strcmp(d->name, name))
      continue;
    char *field = (char *)o + d->off;
    char *end;
    switch (d->kind) {
    case OPT_BOOL:
      parse_bool(val, (bool *)field);
      break;
    case OPT_INT:
      *(int *)field = (int)strtol(val, &end, 0);
      break;
    case OPT_LONG:
      *(long *)field = strtol(val, &end, 0);
      break;
    case OPT_STR:
      strncpy(field, val, d->len - 1);
      field[d->len - 1] = 0;
      break;
    }
    return;
  }
  if (warn)
    warn(name, tool);
}

static bool is_sep(char c) { return c == ':' || c == ',' || c == ' ' || c == '\t' || c == '\n'; }

void kit_san_options_parse(KitSanOptions *o, const char *s,
                           void (*warn)(const char *, const char *), const char *tool) {
  if (!s)
    return;
  char name[128], val[512];
  while (*s) {
    while (*s && is_sep(*s))
      s++;
    if (!*s)
      break;
    size_t n = 0;
    while (*s && *s != '=' && !is_sep(*s)) {
      if (n + 1 < sizeof name)
        name[n++] = *s;
      s++;
    }
    name[n] = 0;
    n = 0;
    if (*s == '=') {
      s++;
      char quote = (*s == '"' || *s == '\'') ? *s++ : 0;
      while (*s && (quote ? *s != quote : !is_sep(*s))) {
        if (n + 1 < sizeof val)
          val[n++] = *s;
        s++;
      }
      if (quote && *s)
        s++;
    }
    val[n] = 0;
    set_one(o, name, val, warn, tool);
  }
}
