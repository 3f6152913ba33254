/* frontends/c/warn.c — the -W command line: gcc's warning names and groups
 * (-Wall, -Wextra, -Wunused, -Wformat=N, -Wimplicit), -Werror[=name], -w,
 * and the state each kitcc warning ends up in. */
#include "warn.h"

#include <stdlib.h>
#include <string.h>

static const struct {
  const char *name;
  CWarnLevel level;
} table[W_COUNT] = {
#define C_WARN_ROW(id, name, level) {name, level},
  C_WARNINGS(C_WARN_ROW)
#undef C_WARN_ROW
};

/* gcc warnings kitcc does not give: -Wname and -Wno-name are accepted and do nothing */
static const char *const gcc_only[] = {
  "format-nonliteral", "format-y2k", "format-overflow", "format-truncation", "format-signedness",
  "format-zero-length", "format-contains-nul", "date-time", "missing-prototypes", "strict-prototypes",
  "missing-declarations", "old-style-definition", "old-style-declaration", "declaration-after-statement",
  "pointer-arith", "cast-align", "cast-qual", "write-strings", "conversion", "sign-conversion",
  "float-equal", "undef", "redundant-decls", "nested-externs", "bad-function-cast", "inline", "vla",
  "overlength-strings", "long-long", "padded", "packed", "switch-enum", "switch-default",
  "cast-function-type", "implicit-fallthrough", "type-limits", "empty-body", "missing-include-dirs",
  "null-dereference", "double-promotion", "logical-op", "duplicated-cond", "duplicated-branches",
  "jump-misses-init", "stack-protector", "trampolines", "unused-macros", "unused-result",
  "unused-const-variable", "unused-local-typedefs", "unused-but-set-parameter", "init-self",
  "missing-noreturn", "suggest-attribute", "shift-overflow", "stringop-overflow", "stringop-truncation",
  "stringop-overread", "array-bounds", "restrict", "pointer-sign", "char-subscripts", "address",
  "nonnull", "main", "misleading-indentation", "sequence-point", "strict-aliasing", "strict-overflow",
  "aggregate-return", "deprecated-declarations", "deprecated", "system-headers", "traditional",
  "unreachable-code", "variadic-macros", "vla-larger-than", "frame-larger-than", "stack-usage",
  "larger-than", "alloca", "alloc-zero", "alloc-size-larger-than", "enum-compare",
  "builtin-macro-redefined", "attributes", "psabi", "discarded-array-qualifiers", "int-to-pointer-cast",
  "pointer-to-int-cast", "return-local-addr", "dangling-pointer", "array-parameter", "vla-parameter",
  "maybe-uninitialized", "clobbered", "override-init", "ignored-qualifiers", "sizeof-pointer-memaccess",
  "sizeof-pointer-div", "sizeof-array-argument", "memset-transposed-args", "free-nonheap-object",
  "builtin-declaration-mismatch", "c++-compat", "c90-c99-compat", "c99-c11-compat", "nonnull-compare",
  "tautological-compare", "array-compare", "bool-compare", "bool-operation", "logical-not-parentheses",
  "int-in-bool-context", "enum-conversion", "expansion-to-defined", "shift-negative-value",
  "shift-count-overflow", "shift-count-negative", "abi", "odr", "lto-type-mismatch", "invalid-pch",
  "pragmas", "unknown-pragmas", "trigraphs", "normalized", "multistatement-macros", "missing-attributes",
  "missing-parameter-type", "fatal-errors", "comments", "unused-result", "volatile-register-var",
  "pointer-compare", "format-diag", "analyzer-too-complex", "extra-semi", "empty-translation-unit",
  "invalid-memory-model", "mismatched-dealloc", "use-after-free", "infinite-recursion", "cpp",
  "missing-format-attribute", "suggest-attribute=format", "unsuffixed-float-constants", "packed-not-aligned",
  "if-not-aligned", "designated-init", "incompatible-function-pointer-types", "zero-length-bounds",
  "string-compare", "unused", "implicit", "return-type", "narrowing", "error-implicit-function-declaration",
  "coverage-mismatch", "disabled-optimization", "unsafe-loop-optimizations", "vector-operation-performance",
  "hsa", "format-security", "unknown-warning-option", "absolute-value", "array-bounds-pointer-arithmetic",
  "documentation", "shorten-64-to-32", "gnu", "newline-eof", "reserved-identifier",
};

void c_warn_flags_init(CWarnFlags *f) {
  memset(f, 0, sizeof *f);
  memset(f->set, -1, sizeof f->set);
  memset(f->err, -1, sizeof f->err);
}

const char *c_warn_name(CWarnId id) { return id < W_COUNT ? table[id].name : NULL; }

/* every warning of a name (two for "return-type"); false if none */
static bool set_named(signed char *vec, const char *name, signed char v) {
  bool any = false;
  for (int i = 1; i < W_COUNT; i++)
    if (!strcmp(table[i].name, name)) {
      vec[i] = v;
      any = true;
    }
  return any;
}

static bool set_group(CWarnFlags *f, const char *name, bool on) {
  static const char *const unused[] = {"unused-variable", "unused-function", "unused-but-set-variable",
                                       "unused-label", "unused-value"};
  if (!strcmp(name, "all")) f->all = on;
  else if (!strcmp(name, "extra")) f->extra = on;
  else if (!strcmp(name, "pedantic")) f->pedantic = on;
  else if (!strcmp(name, "unused")) {
    for (size_t i = 0; i < sizeof unused / sizeof *unused; i++) set_named(f->set, unused[i], on);
    if (on && f->extra) set_named(f->set, "unused-parameter", 1);
  } else if (!strcmp(name, "implicit")) {
    set_named(f->set, "implicit-int", on);
    set_named(f->set, "implicit-function-declaration", on);
  } else if (!strcmp(name, "format") || !strncmp(name, "format=", 7)) {
    int level = !on ? 0 : name[6] == '=' ? atoi(name + 7) : 1;
    f->set[W_FORMAT] = f->set[W_FORMAT_EXTRA_ARGS] = level > 0;
    if (level != 1) f->set[W_FORMAT_SECURITY] = level >= 2;
  } else {
    return false;
  }
  return true;
}

static bool known_gcc_name(const char *name) {
  size_t n = strcspn(name, "=");
  for (size_t i = 0; i < sizeof gcc_only / sizeof *gcc_only; i++)
    if (strlen(gcc_only[i]) == n && !strncmp(gcc_only[i], name, n)) return true;
  return false;
}

bool c_warn_option(CWarnFlags *f, const char *arg) {
  if (!strcmp(arg, "-w")) return f->none = true;
  if (!strcmp(arg, "-pedantic")) return f->pedantic = true;
  if (!strcmp(arg, "-pedantic-errors")) {
    f->err[W_PEDANTIC] = 1;
    return f->pedantic = true;
  }
  const char *name = arg + 2;
  if (!*name) return f->extra = true; /* -W is -Wextra's old name */
  bool on = strncmp(name, "no-", 3) != 0;
  if (!on) name += 3;
  if (!strcmp(name, "error")) {
    f->werror = on;
    return true;
  }
  if (!strncmp(name, "error=", 6)) {
    name += 6;
    if (on) set_named(f->set, name, 1);
    return set_named(f->err, name, on) || known_gcc_name(name) || !on;
  }
  if (set_group(f, name, on) || set_named(f->set, name, on)) return true;
  return known_gcc_name(name) || !on; /* gcc takes any -Wno-name silently */
}

static bool level_on(const CWarnFlags *f, CWarnId id) {
  switch (table[id].level) {
  case WL_DEFAULT: return true;
  case WL_ALL: return f->all;
  case WL_EXTRA: return f->extra && (id != W_UNUSED_PARAMETER || f->all);
  case WL_PEDANTIC: return f->pedantic;
  case WL_NAMED: return false;
  }
  return false;
}

CWarnState c_warn_state(const CWarnFlags *f, CWarnId id) {
  if (!f) return table[id].level == WL_DEFAULT ? WS_WARN : WS_OFF;
  if (f->none) return WS_OFF;
  bool on = f->set[id] >= 0 ? f->set[id] == 1 : level_on(f, id);
  if (id == W_FORMAT_SECURITY || id == W_FORMAT_EXTRA_ARGS) on = on && c_warn_state(f, W_FORMAT) != WS_OFF;
  if (!on) return WS_OFF;
  bool err = f->err[id] >= 0 ? f->err[id] == 1 : f->werror;
  return err ? WS_ERROR : WS_WARN;
}
