/* frontends/c/pp_expr.c — #if/#elif: the operators that only exist there
 * (defined, __has_include, __has_attribute, __has_builtin ...) and the
 * evaluation of the expanded line in intmax_t/uintmax_t (C11 6.10.1). */
#include "pp_internal.h"
#include "warn.h"

#include <ctype.h>
#include <stdlib.h>

#define MAX_PAREN_DEPTH 256

/* ---- operators read while expanding the line ---- */

static Tok *number_tok(CPP *pp, Tok *at, long v) {
  Tok *r = pp_new_tok(pp, CT_NUMBER, v ? "1" : "0", at->t.exp);
  if (v > 1) r->t.text = pp_printf(pp, "%ld", v);
  r->t.len = (uint32_t)strlen(r->t.text);
  r->t.space = at->t.space;
  r->flags = TF_NOEXPAND;
  return r;
}

static Tok *read_op(CPP *pp) {
  bool saved = pp->collecting;
  pp->collecting = true;
  Tok *t = pp_read_raw(pp);
  pp->collecting = saved;
  return t;
}

static Tok *op_defined(CPP *pp, Tok *d) {
  Tok *t = read_op(pp);
  bool paren = tok_is(t, "(");
  if (paren) t = read_op(pp);
  if (t->t.kind != CT_IDENT) {
    pp_error(pp, d->t.pos, "operator \"defined\" requires an identifier");
    pp_unread(pp, t);
    return number_tok(pp, d, 0);
  }
  bool v = pp_find_macro(pp, t->t.text) != NULL;
  if (paren) {
    Tok *r = read_op(pp);
    if (!tok_is(r, ")")) {
      pp_error(pp, d->t.pos, "missing ')' after \"defined\"");
      pp_unread(pp, r);
    }
  }
  return number_tok(pp, d, v);
}

/* The tokens between the parentheses of __has_*( ... ); NULL after an error. */
static TokVec *op_args(CPP *pp, Tok *op) {
  Tok *l = read_op(pp);
  if (!tok_is(l, "(")) {
    pp_error(pp, op->t.pos, "missing '(' after \"%s\"", op->t.text);
    pp_unread(pp, l);
    return NULL;
  }
  TokVec *v = pp_alloc(pp, sizeof *v);
  int depth = 0;
  for (;;) {
    Tok *t = read_op(pp);
    if (t->t.kind == CT_EOF) {
      pp_error(pp, op->t.pos, "missing ')' after \"%s\" operand", op->t.text);
      return NULL;
    }
    if (tok_is(t, "(")) depth++;
    if (tok_is(t, ")") && depth-- == 0) break;
    pp_tv_push(pp, v, t);
  }
  return v;
}

static Tok *op_has_include(CPP *pp, Tok *op, bool next) {
  TokVec *v = op_args(pp, op);
  if (!v) return number_tok(pp, op, 0);
  if (v->n == 0) {
    pp_error(pp, op->t.pos, "operator \"%s\" requires a header-name", op->t.text);
    return number_tok(pp, op, 0);
  }
  Tok *t = v->v[0];
  TokVec e = {0};
  if (!(t->flags & TF_HEADER) && t->t.kind != CT_STRING) {
    pp_expand_list(pp, v->v, v->n, &e);
    v = &e;
    t = v->n ? v->v[0] : t;
  }
  if ((t->flags & TF_HEADER) || (t->t.kind == CT_STRING && t->t.text[0] == '"')) {
    const char *name = pp_strndup(pp, t->t.text + 1, t->t.len - 2);
    return number_tok(pp, op, pp_has_include(pp, name, t->t.text[0] == '<', next, op->t.pos));
  }
  if (tok_is(t, "<")) {
    size_t len = 1;
    for (size_t i = 1; i < v->n; i++) len += v->v[i]->t.len + 1;
    char *s = pp_alloc(pp, len), *p = s;
    for (size_t i = 1; i < v->n && !tok_is(v->v[i], ">"); i++) {
      if (v->v[i]->t.space && p != s) *p++ = ' ';
      memcpy(p, v->v[i]->t.text, v->v[i]->t.len);
      p += v->v[i]->t.len;
    }
    *p = 0;
    return number_tok(pp, op, pp_has_include(pp, s, true, next, op->t.pos));
  }
  pp_error(pp, op->t.pos, "operator \"%s\" requires a header-name", op->t.text);
  return number_tok(pp, op, 0);
}

static Tok *op_has_name(CPP *pp, Tok *op, int kind) {
  TokVec *v = op_args(pp, op);
  if (!v) return number_tok(pp, op, 0);
  size_t len = 1;
  for (size_t i = 0; i < v->n; i++) len += v->v[i]->t.len;
  char *s = pp_alloc(pp, len), *p = s;
  for (size_t i = 0; i < v->n; i++) {
    memcpy(p, v->v[i]->t.text, v->v[i]->t.len);
    p += v->v[i]->t.len;
  }
  *p = 0;
  if (v->n == 0 || v->v[0]->t.kind != CT_IDENT) {
    pp_error(pp, op->t.pos, "macro \"%s\" requires an identifier", op->t.text);
    return number_tok(pp, op, 0);
  }
  long r = 0;
  switch (kind) {
  case BM_HAS_ATTRIBUTE: r = pp_has_attribute(s, false); break;
  case BM_HAS_C_ATTRIBUTE: r = pp_has_attribute(s, true); break;
  case BM_HAS_BUILTIN: r = pp_has_builtin(s); break;
  default: r = pp_has_feature(pp, s); break;
  }
  return number_tok(pp, op, r);
}

/* `#pred(answer)`: a GNU assertion test (deprecated, but old code has it),
 * read before macro expansion like `defined`. */
static Tok *op_assertion(CPP *pp, Tok *hash) {
  Tok *pred = read_op(pp);
  if (pred->t.kind != CT_IDENT) {
    pp_error(pp, hash->t.pos, "assertion without predicate");
    pp_unread(pp, pred);
    return number_tok(pp, hash, 0);
  }
  pp_warning(pp, hash->t.pos, "assertions are a deprecated extension");
  Tok *l = read_op(pp);
  if (!tok_is(l, "(")) {
    pp_unread(pp, l);
    return number_tok(pp, hash, pp_test_assertion(pp, pred->t.text, NULL));
  }
  TokVec v = {0};
  for (Tok *t = read_op(pp); !tok_is(t, ")"); t = read_op(pp)) {
    if (t->t.kind == CT_EOF) {
      pp_error(pp, hash->t.pos, "missing ')' to complete answer");
      return number_tok(pp, hash, 0);
    }
    pp_tv_push(pp, &v, t);
  }
  return number_tok(pp, hash, pp_test_assertion(pp, pred->t.text, pp_join_tokens(pp, v.v, v.n)));
}

Tok *pp_if_operator(CPP *pp, Tok *t, int kind) {
  if (kind == 0) return op_defined(pp, t);
  if (kind < 0) return op_assertion(pp, t);
  if (!pp->in_if) {
    pp_error(pp, t->t.pos, "\"%s\" used outside of preprocessing directive", t->t.text);
    return NULL;
  }
  if (kind == BM_HAS_INCLUDE || kind == BM_HAS_INCLUDE_NEXT)
    return op_has_include(pp, t, kind == BM_HAS_INCLUDE_NEXT);
  return op_has_name(pp, t, kind);
}

/* ---- evaluation ---- */

typedef struct Val {
  uint64_t v;
  bool u;
} Val;

typedef struct Eval {
  CPP *pp;
  Tok **t;
  size_t n, i;
  CPos pos;
  bool failed;
  int depth;
} Eval;

static Val cond_expr(Eval *e, bool skip);

static void fail(Eval *e, CPos pos, const char *fmt, const char *arg) {
  if (!e->failed) pp_error(e->pp, pos, fmt, arg);
  e->failed = true;
}

static Tok *peek(Eval *e) { return e->i < e->n ? e->t[e->i] : NULL; }

static bool accept(Eval *e, const char *op) {
  Tok *t = peek(e);
  if (t && t->t.kind == CT_PUNCT && !strcmp(t->t.text, op)) {
    e->i++;
    return true;
  }
  return false;
}

static Val number_value(Eval *e, Tok *t) {
  const char *s = t->t.text, *p = s;
  int base = 10;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, p += 2;
  else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, p += 2;
  else if (s[0] == '0') base = 8;
  uint64_t v = 0;
  bool overflow = false, digits = false;
  for (;; p++) {
    int d = isdigit((unsigned char)*p) ? *p - '0'
            : isxdigit((unsigned char)*p) && base == 16 ? (tolower((unsigned char)*p) - 'a' + 10)
            : -1;
    if (d < 0 || d >= base) break;
    digits = true;
    if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) overflow = true;
    v = v * (uint64_t)base + (uint64_t)d;
  }
  if (strchr(s, '.') || (base != 16 && strpbrk(s, "eE")) || (base == 16 && strpbrk(s, "pP"))) {
    fail(e, t->t.pos, "floating constant in preprocessor expression%s", "");
    return (Val){0, false};
  }
  bool u = false;
  int l = 0;
  const char *suf = p;
  for (; *p; p++) {
    if ((*p == 'u' || *p == 'U') && !u) u = true;
    else if ((*p == 'l' || *p == 'L') && l < 2) l++;
    else {
      fail(e, t->t.pos, "invalid suffix \"%s\" on integer constant", suf);
      return (Val){0, false};
    }
  }
  if ((!digits && base != 8) || (base == 8 && isdigit((unsigned char)*suf) && *suf > '7')) {
    fail(e, t->t.pos, "invalid integer constant \"%s\" in #if", s);
    return (Val){0, false};
  }
  if (overflow) pp_error(e->pp, t->t.pos, "integer constant is too large for its type");
  if (!u && v > INT64_MAX) {
    if (base == 10) pp_warning(e->pp, t->t.pos, "integer constant is so large that it is unsigned");
    u = true;
  }
  return (Val){v, u};
}

static int escape_value(const char **pp_, bool *ok) {
  const char *p = *pp_;
  int c = *p++;
  int v;
  switch (c) {
  case 'n': v = '\n'; break;
  case 't': v = '\t'; break;
  case 'r': v = '\r'; break;
  case 'a': v = '\a'; break;
  case 'b': v = '\b'; break;
  case 'f': v = '\f'; break;
  case 'v': v = '\v'; break;
  case 'e': case 'E': v = 27; break;
  case 'x':
    v = 0;
    if (!isxdigit((unsigned char)*p)) *ok = false;
    while (isxdigit((unsigned char)*p)) {
      int d = isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;
      v = (int)(((unsigned)v << 4) | (unsigned)d);
      p++;
    }
    break;
  case 'u': case 'U': {
    int n = c == 'u' ? 4 : 8;
    v = 0;
    for (int i = 0; i < n && isxdigit((unsigned char)*p); i++, p++)
      v = (int)(((unsigned)v << 4) |
                (unsigned)(isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10));
    break;
  }
  default:
    if (c >= '0' && c <= '7') {
      v = c - '0';
      for (int i = 0; i < 2 && *p >= '0' && *p <= '7'; i++) v = v * 8 + (*p++ - '0');
    } else {
      v = c;
    }
  }
  *pp_ = p;
  return v;
}

static Val char_value(Eval *e, Tok *t) {
  const char *s = t->t.text;
  char prefix = s[0] == '\'' ? 0 : s[0];
  if (s[0] == 'u' && s[1] == '8') prefix = '8';
  const char *p = strchr(s, '\'') + 1;
  int64_t v = 0;
  int n = 0;
  bool ok = true;
  while (*p && *p != '\'') {
    bool hex = p[0] == '\\' && p[1] == 'x';
    int c = *p == '\\' ? (p++, escape_value(&p, &ok)) : (unsigned char)*p++;
    if (!ok) {
      fail(e, t->t.pos, "\\x used with no following hex digits%s", "");
      return (Val){0, false};
    }
    if (hex && (prefix == 0 || prefix == '8') && (unsigned)c > 0xff)
      pp_error(e->pp, t->t.pos, "hex escape sequence out of range");
    n++;
    if (prefix == 0 || prefix == '8') v = (int64_t)(((uint64_t)v << 8) | (unsigned char)c);
    else v = c;
  }
  if (n == 0) {
    fail(e, t->t.pos, "empty character constant%s", "");
    return (Val){0, false};
  }
  if (n > 1 && prefix == 0) pp_warn(e->pp, W_MULTICHAR, t->t.pos, "multi-character character constant");
  if (prefix == 0) v = n == 1 ? (int64_t)(signed char)v : (int64_t)(int32_t)v;
  else if (prefix == '8') v = (unsigned char)v;
  else if (prefix == 'L') v = (int32_t)v;
  else if (prefix == 'u') v = (uint16_t)v;
  else return (Val){(uint32_t)v, true};
  return (Val){(uint64_t)v, false};
}

static Val primary(Eval *e, bool skip) {
  Tok *t = peek(e);
  if (!t) {
    fail(e, e->pos, "#if with no expression%s", "");
    return (Val){0, false};
  }
  e->i++;
  if (t->t.kind == CT_NUMBER) return number_value(e, t);
  if (t->t.kind == CT_CHAR) return char_value(e, t);
  if (t->t.kind == CT_IDENT) return (Val){0, false};
  if (tok_is(t, "(")) {
    if (++e->depth > MAX_PAREN_DEPTH) {
      fail(e, t->t.pos, "#if expression nested too deeply%s", "");
      return (Val){0, false};
    }
    Val v = cond_expr(e, skip);
    while (!e->failed && accept(e, ",")) v = cond_expr(e, skip);
    e->depth--;
    if (!accept(e, ")")) fail(e, t->t.pos, "missing ')' in expression%s", "");
    return v;
  }
  fail(e, t->t.pos, "token \"%s\" is not valid in preprocessor expressions", t->t.text);
  return (Val){0, false};
}

static Val unary(Eval *e, bool skip) {
  int ops[MAX_PAREN_DEPTH];
  int n = 0;
  for (;;) {
    Tok *t = peek(e);
    if (!t || t->t.kind != CT_PUNCT || t->t.len != 1 || !strchr("+-~!", t->t.text[0])) break;
    if (n == MAX_PAREN_DEPTH) {
      fail(e, t->t.pos, "#if expression nested too deeply%s", "");
      return (Val){0, false};
    }
    ops[n++] = t->t.text[0];
    e->i++;
  }
  Val v = primary(e, skip);
  while (n-- > 0) {
    switch (ops[n]) {
    case '-': v.v = -v.v; break;
    case '~': v.v = ~v.v; break;
    case '!': v = (Val){v.v == 0, false}; break;
    default: break;
    }
  }
  return v;
}

static int prec(const Tok *t) {
  static const struct { const char *op; int p; } tab[] = {
    {"*", 10}, {"/", 10}, {"%", 10}, {"+", 9}, {"-", 9}, {"<<", 8}, {">>", 8},
    {"<", 7}, {">", 7}, {"<=", 7}, {">=", 7}, {"==", 6}, {"!=", 6}, {"&", 5},
    {"^", 4}, {"|", 3}, {"&&", 2}, {"||", 1},
  };
  if (!t || t->t.kind != CT_PUNCT) return 0;
  for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
    if (!strcmp(tab[i].op, t->t.text)) return tab[i].p;
  return 0;
}

static Val shift(Val l, Val r, bool left) {
  int64_t n = (int64_t)r.v;
  if (!r.u && n < 0) {
    left = !left;
    n = -n;
  }
  if (r.u && r.v > 64) n = 64;
  if (left) return (Val){n >= 64 ? 0 : l.v << n, l.u};
  if (l.u) return (Val){n >= 64 ? 0 : l.v >> n, true};
  int64_t s = (int64_t)l.v;
  return (Val){(uint64_t)(n >= 64 ? (s < 0 ? -1 : 0) : s >> n), false};
}

static Val apply(Eval *e, Tok *op, Val l, Val r, bool skip) {
  const char *o = op->t.text;
  bool u = l.u || r.u;
  int64_t a = (int64_t)l.v, b = (int64_t)r.v;
  if (!strcmp(o, "<<") || !strcmp(o, ">>")) return shift(l, r, o[0] == '<');
  if (!strcmp(o, "/") || !strcmp(o, "%")) {
    if (r.v == 0) {
      if (!skip) fail(e, op->t.pos, "division by zero in #if%s", "");
      return (Val){0, u};
    }
    if (u) return (Val){o[0] == '/' ? l.v / r.v : l.v % r.v, true};
    if (a == INT64_MIN && b == -1) return (Val){o[0] == '/' ? (uint64_t)a : 0, false};
    return (Val){(uint64_t)(o[0] == '/' ? a / b : a % b), false};
  }
  switch (o[0]) {
  case '*': return (Val){l.v * r.v, u};
  case '+': return (Val){l.v + r.v, u};
  case '-': return (Val){l.v - r.v, u};
  case '&': return (Val){l.v & r.v, u};
  case '^': return (Val){l.v ^ r.v, u};
  case '|': return (Val){l.v | r.v, u};
  case '=': return (Val){l.v == r.v, false};
  case '!': return (Val){l.v != r.v, false};
  default: break;
  }
  bool lt = u ? l.v < r.v : a < b, gt = u ? l.v > r.v : a > b;
  if (!strcmp(o, "<")) return (Val){lt, false};
  if (!strcmp(o, ">")) return (Val){gt, false};
  if (!strcmp(o, "<=")) return (Val){!gt, false};
  return (Val){!lt, false};
}

/* Precedence climbing over the binary operators; && and || short-circuit
 * by evaluating their right side with `skip` (no division-by-zero error). */
static Val binary(Eval *e, int min, bool skip) {
  Val l = unary(e, skip);
  for (;;) {
    Tok *op = peek(e);
    int p = prec(op);
    if (!p || p < min || e->failed) return l;
    e->i++;
    if (p == 2 || p == 1) {
      bool short_circuit = p == 2 ? l.v == 0 : l.v != 0;
      Val r = binary(e, p + 1, skip || short_circuit);
      l = (Val){p == 2 ? (l.v && r.v) : (l.v || r.v), false};
      continue;
    }
    Val r = binary(e, p + 1, skip);
    l = apply(e, op, l, r, skip);
  }
}

static Val cond_expr(Eval *e, bool skip) {
  if (++e->depth > MAX_PAREN_DEPTH) {
    fail(e, e->pos, "#if expression nested too deeply%s", "");
    return (Val){0, false};
  }
  Val c = binary(e, 1, skip);
  if (!e->failed && accept(e, "?")) {
    Val a = cond_expr(e, skip || c.v == 0);
    while (!e->failed && accept(e, ",")) a = cond_expr(e, skip || c.v == 0);
    if (!accept(e, ":")) fail(e, e->pos, "'?' without following ':'%s", "");
    Val b = cond_expr(e, skip || c.v != 0);
    bool u = a.u || b.u;
    c = c.v ? (Val){a.v, u} : (Val){b.v, u};
  }
  e->depth--;
  return c;
}

bool pp_eval_if(CPP *pp, Tok **line, size_t n, CPos pos) {
  if (n == 0) {
    pp_error(pp, pos, "#if with no expression");
    return false;
  }
  TokVec v = {0};
  int errors = pp->errors;
  pp->in_if = true;
  pp_expand_list(pp, line, n, &v);
  pp->in_if = false;
  if (pp->errors != errors) return false;
  Eval e = {pp, v.v, v.n, 0, pos, false, 0};
  Val r = cond_expr(&e, false);
  while (!e.failed && accept(&e, ",")) r = cond_expr(&e, false); /* gcc allows it outside C90 */
  if (!e.failed && e.i < e.n) {
    Tok *t = e.t[e.i];
    if (tok_is(t, ":")) fail(&e, t->t.pos, "':' without preceding '?'%s", "");
    else fail(&e, t->t.pos, "missing binary operator before token \"%s\"", t->t.text);
  }
  return !e.failed && r.v != 0;
}
