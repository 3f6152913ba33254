/* passes/pipeline.c — the one parser of the -fsanitize= option family, shared
 * by kitcc and kit-emu, and kit_passes_run, which runs the enabled passes over
 * a CG module in their fixed order. */
#include "kit/passes.h"

#include <stdio.h>
#include <string.h>

typedef struct SanName {
  const char *name;
  uint64_t mask;
} SanName;

static const SanName san_names[] = {
    {"address", KIT_SAN_ADDRESS},
    {"memory", KIT_SAN_MEMORY},
    {"alignment", KIT_SAN_ALIGNMENT},
    {"bool", KIT_SAN_BOOL},
    {"builtin", KIT_SAN_BUILTIN},
    {"bounds", KIT_SAN_BOUNDS},
    {"array-bounds", KIT_SAN_ARRAY_BOUNDS},
    {"local-bounds", KIT_SAN_LOCAL_BOUNDS},
    {"enum", KIT_SAN_ENUM},
    {"float-cast-overflow", KIT_SAN_FLOAT_CAST_OVERFLOW},
    {"float-divide-by-zero", KIT_SAN_FLOAT_DIVIDE_BY_ZERO},
    {"function", KIT_SAN_FUNCTION},
    {"integer-divide-by-zero", KIT_SAN_INTEGER_DIVIDE_BY_ZERO},
    {"nonnull-attribute", KIT_SAN_NONNULL_ATTRIBUTE},
    {"null", KIT_SAN_NULL},
    {"nullability", KIT_SAN_NULLABILITY},
    {"nullability-arg", KIT_SAN_NULLABILITY_ARG},
    {"nullability-assign", KIT_SAN_NULLABILITY_ASSIGN},
    {"nullability-return", KIT_SAN_NULLABILITY_RETURN},
    {"object-size", KIT_SAN_OBJECT_SIZE},
    {"pointer-overflow", KIT_SAN_POINTER_OVERFLOW},
    {"return", KIT_SAN_RETURN},
    {"returns-nonnull-attribute", KIT_SAN_RETURNS_NONNULL_ATTRIBUTE},
    {"shift", KIT_SAN_SHIFT},
    {"shift-base", KIT_SAN_SHIFT_BASE},
    {"shift-exponent", KIT_SAN_SHIFT_EXPONENT},
    {"signed-integer-overflow", KIT_SAN_SIGNED_INTEGER_OVERFLOW},
    {"unreachable", KIT_SAN_UNREACHABLE},
    {"vla-bound", KIT_SAN_VLA_BOUND},
    {"vptr", KIT_SAN_VPTR},
    {"unsigned-integer-overflow", KIT_SAN_UNSIGNED_INTEGER_OVERFLOW},
    {"unsigned-shift-base", KIT_SAN_UNSIGNED_SHIFT_BASE},
    {"implicit-unsigned-integer-truncation", KIT_SAN_IMPLICIT_UNSIGNED_INTEGER_TRUNCATION},
    {"implicit-signed-integer-truncation", KIT_SAN_IMPLICIT_SIGNED_INTEGER_TRUNCATION},
    {"implicit-integer-truncation", KIT_SAN_IMPLICIT_INTEGER_TRUNCATION},
    {"implicit-integer-sign-change", KIT_SAN_IMPLICIT_INTEGER_SIGN_CHANGE},
    {"implicit-conversion", KIT_SAN_IMPLICIT_CONVERSION},
    {"integer", KIT_SAN_INTEGER},
    {"undefined", KIT_SAN_UNDEFINED},
    {"coverage", KIT_SAN_COVERAGE},
};

typedef struct CovName {
  const char *name;
  uint32_t mask;
} CovName;

static const CovName cov_names[] = {
    {"func", KIT_COV_FUNC},
    {"bb", KIT_COV_BB},
    {"edge", KIT_COV_EDGE},
    {"trace-pc", KIT_COV_TRACE_PC},
    {"trace-pc-guard", KIT_COV_TRACE_PC_GUARD},
    {"trace-cmp", KIT_COV_TRACE_CMP},
    {"trace-div", KIT_COV_TRACE_DIV},
    {"trace-gep", KIT_COV_TRACE_GEP},
    {"inline-8bit-counters", KIT_COV_INLINE_8BIT_COUNTERS},
    {"inline-bool-flag", KIT_COV_INLINE_BOOL_FLAG},
    {"pc-table", KIT_COV_PC_TABLE},
    {"no-prune", KIT_COV_NO_PRUNE},
    {"stack-depth", KIT_COV_STACK_DEPTH},
    {"trace-loads", KIT_COV_TRACE_LOADS},
    {"trace-stores", KIT_COV_TRACE_STORES},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const char *kit_sanitize_name(uint64_t bit) {
  for (size_t i = 0; i < COUNT(san_names); i++)
    if (san_names[i].mask == bit) return san_names[i].name;
  return "?";
}

void kit_pass_options_init(KitPassOptions *o) {
  memset(o, 0, sizeof *o);
  o->recover = KIT_SAN_UB_ALL & ~KIT_SAN_UNRECOVERABLE;
  o->msan_param_retval = true;
}

/* Calls item(name, len, ctx) for each comma-separated item; stops at the
 * first nonzero return. Empty items are an error, as in clang. */
static int each_item(const char *list, int (*item)(const char *, size_t, void *), void *ctx) {
  const char *p = list;
  for (;;) {
    const char *c = strchr(p, ',');
    size_t n = c ? (size_t)(c - p) : strlen(p);
    int r = item(p, n, ctx);
    if (r) return r;
    if (!c) return 0;
    p = c + 1;
  }
}

typedef struct ListCtx {
  uint64_t mask;
  uint32_t cov;
  bool allow_all;
  const char *option;
  char *err;
  size_t errsz;
} ListCtx;

static int bad_item(ListCtx *c, const char *s, size_t n) {
  if (c->err && c->errsz) snprintf(c->err, c->errsz, "unsupported argument '%.*s' to option '%s'", (int)n, s, c->option);
  return -1;
}

static int san_item(const char *s, size_t n, void *ctx) {
  ListCtx *c = ctx;
  if (c->allow_all && n == 3 && !memcmp(s, "all", 3)) {
    c->mask |= KIT_SAN_UB_ALL | KIT_SAN_ADDRESS | KIT_SAN_MEMORY;
    return 0;
  }
  for (size_t i = 0; i < COUNT(san_names); i++)
    if (strlen(san_names[i].name) == n && !memcmp(san_names[i].name, s, n)) {
      c->mask |= san_names[i].mask;
      return 0;
    }
  return bad_item(c, s, n);
}

static int cov_item(const char *s, size_t n, void *ctx) {
  ListCtx *c = ctx;
  for (size_t i = 0; i < COUNT(cov_names); i++)
    if (strlen(cov_names[i].name) == n && !memcmp(cov_names[i].name, s, n)) {
      c->cov |= cov_names[i].mask;
      return 0;
    }
  return bad_item(c, s, n);
}

static int parse_list_as(const char *list, bool allow_all, const char *option, uint64_t *mask, char *err,
                         size_t errsz) {
  ListCtx c = {.allow_all = allow_all, .option = option, .err = err, .errsz = errsz};
  if (each_item(list, san_item, &c)) return -1;
  *mask = c.mask;
  return 0;
}

int kit_sanitize_parse_list(const char *list, bool allow_all, uint64_t *mask, char *err, size_t errsz) {
  return parse_list_as(list, allow_all, "-fsanitize=", mask, err, errsz);
}

/* the option's "=LIST" part: NULL when arg is exactly `flag` (bare form), the
 * list when it is `flag=`LIST; *match tells whether arg is this flag at all */
static const char *flag_value(const char *arg, const char *flag, bool *match) {
  size_t n = strlen(flag);
  *match = false;
  if (strncmp(arg, flag, n)) return NULL;
  if (arg[n] == 0) {
    *match = true;
    return NULL;
  }
  if (arg[n] != '=') return NULL;
  *match = true;
  return arg + n + 1;
}

/* MSan's own flags: -f[no-]sanitize-memory-param-retval, -f[no-]sanitize-memory-track-origins[=N] */
static int parse_msan_arg(KitPassOptions *o, const char *arg, char *err, size_t errsz) {
  if (!strcmp(arg, "-fsanitize-memory-param-retval") || !strcmp(arg, "-fno-sanitize-memory-param-retval")) {
    o->msan_param_retval = arg[2] != 'n';
    return 1;
  }
  if (!strcmp(arg, "-fno-sanitize-memory-track-origins")) {
    o->msan_track_origins = 0;
    return 1;
  }
  const char *t = "-fsanitize-memory-track-origins";
  if (strncmp(arg, t, strlen(t))) return 0;
  const char *v = arg + strlen(t);
  if (!*v) {
    o->msan_track_origins = 2;
    return 1;
  }
  if (!strcmp(v, "=0") || !strcmp(v, "=1") || !strcmp(v, "=2")) {
    o->msan_track_origins = v[1] - '0';
    return 1;
  }
  if (err && errsz) snprintf(err, errsz, "invalid value '%s' in '%s'", *v == '=' ? v + 1 : v, arg);
  return -1;
}

int kit_sanitize_parse_arg(KitPassOptions *o, const char *arg, char *err, size_t errsz) {
  int r = parse_msan_arg(o, arg, err, errsz);
  if (r) return r;
  bool m;
  const char *v;
  uint64_t mask;
  char opt[64];
  static const struct {
    const char *flag;
    int what; /* 0 sanitize, 1 recover, 2 trap */
    bool on, bare_ok;
  } forms[] = {
      {"-fsanitize", 0, true, false},          {"-fno-sanitize", 0, false, false},
      {"-fsanitize-recover", 1, true, true},   {"-fno-sanitize-recover", 1, false, true},
      {"-fsanitize-trap", 2, true, true},      {"-fno-sanitize-trap", 2, false, true},
  };
  /* coverage first: its flags share the -fsanitize prefix */
  for (int neg = 0; neg < 2; neg++) {
    const char *flag = neg ? "-fno-sanitize-coverage" : "-fsanitize-coverage";
    v = flag_value(arg, flag, &m);
    if (!m) continue;
    snprintf(opt, sizeof opt, "%s=", flag);
    if (!v) {
      if (err && errsz) snprintf(err, errsz, "option '%s' needs a list", flag);
      return -1;
    }
    ListCtx c = {.option = opt, .err = err, .errsz = errsz};
    if (each_item(v, cov_item, &c)) return -1;
    if (neg)
      o->coverage &= ~c.cov;
    else
      o->coverage |= c.cov;
    return 1;
  }
  for (size_t i = 0; i < COUNT(forms); i++) {
    v = flag_value(arg, forms[i].flag, &m);
    if (!m) continue;
    snprintf(opt, sizeof opt, "%s=", forms[i].flag);
    if (!v) {
      if (!forms[i].bare_ok) {
        if (err && errsz) snprintf(err, errsz, "option '%s' needs a list", forms[i].flag);
        return -1;
      }
      mask = KIT_SAN_UB_ALL | (forms[i].what == 1 ? KIT_SAN_ADDRESS | KIT_SAN_MEMORY : 0);
    } else if (parse_list_as(v, forms[i].what != 0 || !forms[i].on, opt, &mask, err, errsz)) {
      return -1;
    }
    uint64_t *field = forms[i].what == 0 ? &o->sanitize : forms[i].what == 1 ? &o->recover : &o->trap;
    if (forms[i].what == 1 && forms[i].on) {
      if (v && (mask & KIT_SAN_UNRECOVERABLE)) {
        if (err && errsz)
          snprintf(err, errsz, "unsupported argument '%s' to option '%s'",
                   kit_sanitize_name(mask & KIT_SAN_UNRECOVERABLE & -(mask & KIT_SAN_UNRECOVERABLE)), opt);
        return -1;
      }
      mask &= ~KIT_SAN_UNRECOVERABLE;
    }
    if (forms[i].what == 2) mask &= KIT_SAN_UB_ALL; /* only UBSan checks can trap */
    if (forms[i].on)
      *field |= mask;
    else
      *field &= ~mask;
    return 1;
  }
  return 0;
}

/* UBSan checks with a pass (passes/ubsan.c), and the C++-only ones (clang-16
 * emits no enum, vptr, function or return checks for C), which have nothing to
 * instrument in C */
#define KIT_SAN_UBSAN_DONE                                                                                  \
  (KIT_SAN_VPTR | KIT_SAN_FUNCTION | KIT_SAN_RETURN | KIT_SAN_ENUM | KIT_SAN_SIGNED_INTEGER_OVERFLOW | KIT_SAN_SHIFT | KIT_SAN_INTEGER_DIVIDE_BY_ZERO | KIT_SAN_ARRAY_BOUNDS | \
   KIT_SAN_NULL | KIT_SAN_ALIGNMENT | KIT_SAN_UNREACHABLE | KIT_SAN_FLOAT_CAST_OVERFLOW | KIT_SAN_BUILTIN |   \
   KIT_SAN_BOOL | KIT_SAN_POINTER_OVERFLOW | KIT_SAN_VLA_BOUND | KIT_SAN_FLOAT_DIVIDE_BY_ZERO | \
   KIT_SAN_UNSIGNED_INTEGER_OVERFLOW | KIT_SAN_NONNULL_ATTRIBUTE | KIT_SAN_RETURNS_NONNULL_ATTRIBUTE | \
   KIT_SAN_IMPLICIT_CONVERSION | KIT_SAN_OBJECT_SIZE)

uint64_t kit_passes_unimplemented(const KitPassOptions *o) {
  return o->sanitize & KIT_SAN_UB_ALL & ~KIT_SAN_UBSAN_DONE;
}

int kit_passes_run(KitCgModule *m, const KitPassOptions *o) {
  int problems = 0;
  if (o->sanitize & KIT_SAN_UB_ALL) problems += kit_ubsan_run(m, o);
  if (o->coverage) problems += kit_coverage_run(m, o->coverage);
  if (o->sanitize & KIT_SAN_ADDRESS) {
    KitAsanConfig c;
    if (o->asan) {
      c = *o->asan;
    } else {
      kit_asan_config_compiled(&c, (o->recover & KIT_SAN_ADDRESS) != 0);
    }
    problems += kit_asan_run(m, &c);
  }
  if (o->sanitize & KIT_SAN_MEMORY) {
    KitMsanConfig c = {.shadow_xor = 0x500000000000ull, .eager_checks = o->msan_param_retval,
                       .recover = (o->recover & KIT_SAN_MEMORY) != 0, .selects = o->opt_level > 0, .origins = o->msan_track_origins};
    problems += kit_msan_run(m, &c);
  }
  return problems;
}
