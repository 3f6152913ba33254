/* frontends/c/pp_macro.c — the macro table, #define, and macro expansion
 * (C11 6.10.3): argument collection and pre-expansion, # and ##, __VA_ARGS__,
 * __VA_OPT__, GNU comma swallowing, rescanning with hidesets (painted blue). */
#include "pp_internal.h"

#include <stdlib.h>
#include <time.h>

#define MAX_EXPAND_DEPTH 1000

/* ---- table ---- */

static unsigned hash_name(const char *s) {
  unsigned h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

Macro *pp_find_macro(CPP *pp, const char *name) {
  if (!pp->mtab_size) return NULL;
  for (Macro *m = pp->mtab[hash_name(name) & (pp->mtab_size - 1)]; m; m = m->hnext)
    if (!strcmp(m->name, name)) return m;
  return NULL;
}

void pp_undef(CPP *pp, const char *name) {
  if (!pp->mtab_size) return;
  for (Macro **p = &pp->mtab[hash_name(name) & (pp->mtab_size - 1)]; *p; p = &(*p)->hnext) {
    if (!strcmp((*p)->name, name)) {
      *p = (*p)->hnext;
      pp->nmacros--;
      return;
    }
  }
}

/* the id of a macro name in hidesets: ids count up in order of first definition */
static uint32_t hs_name_id(CPP *pp, const char *name) {
  if (pp->hs_names_n * 2 >= pp->hs_names_cap) {
    size_t ncap = pp->hs_names_cap ? pp->hs_names_cap * 2 : 1024;
    struct HsName *nt = calloc(ncap, sizeof *nt);
    if (!nt) {
      fprintf(stderr, "kitcc: out of memory\n");
      exit(1);
    }
    for (size_t i = 0; i < pp->hs_names_cap; i++) {
      if (!pp->hs_names[i].name) continue;
      size_t j = hash_name(pp->hs_names[i].name) & (ncap - 1);
      while (nt[j].name) j = (j + 1) & (ncap - 1);
      nt[j] = pp->hs_names[i];
    }
    free(pp->hs_names);
    pp->hs_names = nt;
    pp->hs_names_cap = ncap;
  }
  size_t j = hash_name(name) & (pp->hs_names_cap - 1);
  for (; pp->hs_names[j].name; j = (j + 1) & (pp->hs_names_cap - 1))
    if (!strcmp(pp->hs_names[j].name, name)) return pp->hs_names[j].id;
  pp->hs_names[j].name = name;
  pp->hs_names[j].id = (uint32_t)++pp->hs_names_n;
  return pp->hs_names[j].id;
}

void pp_set_macro(CPP *pp, Macro *m) {
  m->hs_id = hs_name_id(pp, m->name);
  pp_undef(pp, m->name);
  if (pp->nmacros * 2 >= pp->mtab_size) {
    size_t ns = pp->mtab_size ? pp->mtab_size * 2 : 4096;
    Macro **nt = calloc(ns, sizeof *nt);
    if (!nt) {
      fprintf(stderr, "kitcc: out of memory\n");
      exit(1);
    }
    for (size_t i = 0; i < pp->mtab_size; i++) {
      for (Macro *x = pp->mtab[i], *n; x; x = n) {
        n = x->hnext;
        x->hnext = nt[hash_name(x->name) & (ns - 1)];
        nt[hash_name(x->name) & (ns - 1)] = x;
      }
    }
    free(pp->mtab);
    pp->mtab = nt;
    pp->mtab_size = ns;
  }
  Macro **b = &pp->mtab[hash_name(m->name) & (pp->mtab_size - 1)];
  m->hnext = *b;
  *b = m;
  pp->nmacros++;
}

void pp_define_builtins(CPP *pp) {
  static const struct { const char *name; int kind; } b[] = {
    {"__FILE__", BM_FILE}, {"__LINE__", BM_LINE}, {"__DATE__", BM_DATE},
    {"__TIME__", BM_TIME}, {"__COUNTER__", BM_COUNTER}, {"__INCLUDE_LEVEL__", BM_INCLUDE_LEVEL},
    {"__BASE_FILE__", BM_BASE_FILE}, {"__TIMESTAMP__", BM_TIMESTAMP}, {"_Pragma", BM_PRAGMA},
    {"__has_include", BM_HAS_INCLUDE}, {"__has_include_next", BM_HAS_INCLUDE_NEXT},
    {"__has_attribute", BM_HAS_ATTRIBUTE}, {"__has_cpp_attribute", BM_HAS_ATTRIBUTE},
    {"__has_c_attribute", BM_HAS_C_ATTRIBUTE}, {"__has_builtin", BM_HAS_BUILTIN},
    {"__has_feature", BM_HAS_FEATURE}, {"__has_extension", BM_HAS_FEATURE},
  };
  for (size_t i = 0; i < sizeof b / sizeof *b; i++) {
    Macro *m = pp_alloc(pp, sizeof *m);
    m->name = b[i].name;
    m->builtin = b[i].kind;
    pp_set_macro(pp, m);
  }
}

/* ---- #define ---- */

static int param_index(const Macro *m, const char *name) {
  for (int i = 0; i < m->nparams; i++)
    if (!strcmp(m->params[i], name)) return i;
  return -1;
}

/* Parses "( params )" at line[0]; returns the number of tokens used, or -1. */
static int parse_params(CPP *pp, Macro *m, Tok **line, size_t n) {
  const char **params = pp_alloc(pp, (n + 1) * sizeof *params);
  size_t i = 1;
  if (i < n && tok_is(line[i], ")")) {
    m->params = params;
    return 2;
  }
  for (;;) {
    if (i >= n) {
      pp_error(pp, line[n - 1]->t.pos, "missing ')' in macro parameter list");
      return -1;
    }
    Tok *t = line[i];
    if (tok_is(t, "...")) {
      params[m->nparams++] = "__VA_ARGS__";
      m->variadic = true;
      i++;
    } else if (t->t.kind == CT_IDENT) {
      if (!strcmp(t->t.text, "__VA_ARGS__") || !strcmp(t->t.text, "__VA_OPT__")) {
        pp_error(pp, t->t.pos, "%s can not be used as a parameter name", t->t.text);
        return -1;
      }
      for (int k = 0; k < m->nparams; k++)
        if (!strcmp(params[k], t->t.text)) {
          pp_error(pp, t->t.pos, "duplicate macro parameter \"%s\"", t->t.text);
          return -1;
        }
      params[m->nparams++] = t->t.text;
      i++;
      if (i < n && tok_is(line[i], "...")) {
        m->variadic = true;
        i++;
      }
    } else {
      pp_error(pp, t->t.pos, "expected parameter name, found \"%s\"", t->t.text);
      return -1;
    }
    if (i >= n) continue;
    if (tok_is(line[i], ")")) break;
    if (m->variadic || !tok_is(line[i], ",")) {
      pp_error(pp, line[i]->t.pos, "expected ',' or ')', found \"%s\"", line[i]->t.text);
      return -1;
    }
    i++;
  }
  m->params = params;
  return (int)i + 1;
}

static bool same_definition(const Macro *a, const Macro *b) {
  if (a->builtin || b->builtin || a->funclike != b->funclike || a->variadic != b->variadic ||
      a->nparams != b->nparams || a->body.n != b->body.n)
    return false;
  for (int i = 0; i < a->nparams; i++)
    if (strcmp(a->params[i], b->params[i])) return false;
  for (size_t i = 0; i < a->body.n; i++) {
    const Tok *x = a->body.v[i], *y = b->body.v[i];
    if (strcmp(x->t.text, y->t.text) || (i && x->t.space != y->t.space)) return false;
  }
  return true;
}

static bool check_body(CPP *pp, Macro *m) {
  TokVec *b = &m->body;
  if (b->n && (b->v[0]->flags & TF_PASTE)) {
    pp_error(pp, b->v[0]->t.pos, "'##' cannot appear at either end of a macro expansion");
    return false;
  }
  if (b->n && (b->v[b->n - 1]->flags & TF_PASTE)) {
    pp_error(pp, b->v[b->n - 1]->t.pos, "'##' cannot appear at either end of a macro expansion");
    return false;
  }
  for (size_t i = 0; m->funclike && i < b->n; i++) {
    if (!tok_is(b->v[i], "#")) continue;
    if (i + 1 >= b->n || (b->v[i + 1]->param < 0 && !(b->v[i + 1]->flags & TF_VAOPT))) {
      pp_error(pp, b->v[i]->t.pos, "'#' is not followed by a macro parameter");
      return false;
    }
  }
  return true;
}

void pp_define(CPP *pp, Tok *name, Tok **line, size_t n) {
  if (name->t.kind != CT_IDENT) {
    pp_error(pp, name->t.pos, "macro names must be identifiers");
    return;
  }
  if (!strcmp(name->t.text, "defined")) {
    pp_error(pp, name->t.pos, "\"defined\" cannot be used as a macro name");
    return;
  }
  Macro *m = pp_alloc(pp, sizeof *m);
  m->name = name->t.text;
  m->pos = name->t.pos;
  size_t i = 0;
  if (n && tok_is(line[0], "(") && !line[0]->t.space) {
    m->funclike = true;
    int used = parse_params(pp, m, line, n);
    if (used < 0) return;
    i = (size_t)used;
  } else if (n && !line[0]->t.space) {
    pp_warning(pp, line[0]->t.pos, "missing whitespace after the macro name");
  }
  for (; i < n; i++) {
    Tok *t = pp_copy_tok(pp, line[i]);
    t->t.bol = false;
    if (m->body.n == 0) t->t.space = false;
    if (t->t.kind == CT_IDENT && m->funclike) t->param = (int16_t)param_index(m, t->t.text);
    if (t->t.kind == CT_IDENT && m->variadic && !strcmp(t->t.text, "__VA_OPT__"))
      t->flags |= TF_VAOPT;
    if (tok_is(t, "##")) {
      t->flags |= TF_PASTE;
      /* `a ## ## b` pastes once, as in gcc */
      if (m->body.n && (m->body.v[m->body.n - 1]->flags & TF_PASTE)) continue;
    }
    pp_tv_push(pp, &m->body, t);
  }
  if (!check_body(pp, m)) return;
  Macro *old = pp_find_macro(pp, m->name);
  if (old && old->builtin == BM_POISON) {
    pp_error(pp, name->t.pos, "attempt to use poisoned \"%s\"", m->name);
    return;
  }
  if (old && !same_definition(old, m)) {
    pp_warning(pp, name->t.pos, "\"%s\" redefined", m->name);
    if (!old->builtin && old->pos.line) pp_note(pp, old->pos, "this is the location of the previous definition");
  }
  pp_set_macro(pp, m);
}

void pp_define_text(CPP *pp, const char *text) {
  Tok *t = pp_lex_string(pp, text, strlen(text), (CPos){0, 0, 0});
  TokVec v = {0};
  for (Tok *x = t->next; x && x->t.kind != CT_EOF; x = x->next) pp_tv_push(pp, &v, x);
  if (t->t.kind == CT_EOF) return;
  pp_define(pp, t, v.v, v.n);
}

/* ---- hidesets ---- */

static bool hs_has(const Hideset *h, uint32_t id) {
  for (; h && h->id < id; h = h->next) {}
  return h && h->id == id;
}

static Hideset *hs_node(CPP *pp, uint32_t id, Hideset *next) {
  Hideset *n = pp_alloc(pp, sizeof *n);
  n->id = id;
  n->next = next;
  return n;
}

/* h with id: the nodes before its place are copied, the rest is shared */
static Hideset *hs_add(CPP *pp, Hideset *h, uint32_t id) {
  if (hs_has(h, id)) return h;
  Hideset *head = NULL, **tail = &head;
  for (; h && h->id < id; h = h->next, tail = &(*tail)->next) *tail = hs_node(pp, h->id, NULL);
  *tail = hs_node(pp, id, h);
  return head;
}

/* every id of a is in b; a tail the two share ends the walk */
static bool hs_subset(const Hideset *a, const Hideset *b) {
  for (; a && a != b; a = a->next, b = b->next) {
    for (; b && b->id < a->id; b = b->next) {}
    if (!b || b->id != a->id) return false;
  }
  return true;
}

/* Sets nested expansions make contain one another: the larger one is the
 * answer as it is, without new nodes (the union of a chain of expansions
 * would otherwise copy a longer list at each level). */
static Hideset *hs_union(CPP *pp, Hideset *a, Hideset *b) {
  if (hs_subset(a, b)) return b;
  if (hs_subset(b, a)) return a;
  Hideset *head = NULL, **tail = &head;
  while (a && b && a != b) { /* a shared tail ends the merge */
    uint32_t id = a->id < b->id ? a->id : b->id;
    if (a->id == id) a = a->next;
    if (b->id == id) b = b->next;
    *tail = hs_node(pp, id, NULL);
    tail = &(*tail)->next;
  }
  *tail = a ? a : b;
  return head;
}

static Hideset *hs_intersect(CPP *pp, Hideset *a, Hideset *b) {
  if (hs_subset(a, b)) return a;
  if (hs_subset(b, a)) return b;
  Hideset *head = NULL, **tail = &head;
  while (a && b) {
    if (a == b) {
      *tail = a;
      break;
    }
    if (a->id == b->id) {
      *tail = hs_node(pp, a->id, NULL);
      tail = &(*tail)->next;
      a = a->next;
      b = b->next;
    } else if (a->id < b->id) {
      a = a->next;
    } else {
      b = b->next;
    }
  }
  return head;
}

/* ---- reading ---- */

void pp_unread(CPP *pp, Tok *t) {
  if (t->flags & (TF_ARGEND | TF_FILEEOF)) return;
  Tok *c = pp_copy_tok(pp, t);
  c->next = pp->pending;
  pp->pending = c;
}

static void push_list(CPP *pp, TokVec *v) {
  for (size_t i = v->n; i-- > 0;) {
    v->v[i]->next = pp->pending;
    pp->pending = v->v[i];
  }
}

static Tok *placemarker(CPP *pp, CPos pos) {
  Tok *t = pp_new_tok(pp, CT_OTHER, "", pos);
  t->flags = TF_PLACEMARKER;
  return t;
}

void pp_expand_list(CPP *pp, Tok **in, size_t n, TokVec *out) {
  Tok *saved = pp->pending;
  bool saved_collecting = pp->collecting, saved_carry = pp->carry_space;
  pp->carry_space = false;
  Tok *end = pp_new_tok(pp, CT_EOF, "", n ? in[n - 1]->t.pos : (CPos){0, 0, 0});
  end->flags = TF_ARGEND;
  pp->pending = end;
  for (size_t i = n; i-- > 0;) {
    Tok *c = pp_copy_tok(pp, in[i]);
    c->next = pp->pending;
    pp->pending = c;
  }
  if (++pp->expand_depth > MAX_EXPAND_DEPTH) {
    pp_error(pp, end->t.pos, "macro invocations nested more than %d deep", MAX_EXPAND_DEPTH);
  } else {
    for (;;) {
      Tok *t = pp_expand_next(pp);
      if (t == end || (t->flags & TF_ARGEND)) break;
      pp_tv_push(pp, out, t);
    }
  }
  pp->list_trailing_space = pp->carry_space;
  pp->expand_depth--;
  pp->pending = saved;
  pp->collecting = saved_collecting;
  pp->carry_space = saved_carry;
}

/* ---- # and ## ---- */

Tok *pp_stringize(CPP *pp, Tok **toks, size_t n, CPos pos) {
  size_t len = 3;
  for (size_t i = 0; i < n; i++) len += strlen(pp_spelling(toks[i])) * 2 + 1;
  char *s = pp_alloc(pp, len), *p = s;
  *p++ = '"';
  for (size_t i = 0; i < n; i++) {
    Tok *t = toks[i];
    if (t->flags & TF_PLACEMARKER) continue;
    if (p > s + 1 && t->t.space) *p++ = ' ';
    bool quote = t->t.kind == CT_STRING || t->t.kind == CT_CHAR;
    const char *txt = pp_spelling(t);
    for (uint32_t k = 0; txt[k]; k++) {
      if (quote && (txt[k] == '"' || txt[k] == '\\')) *p++ = '\\';
      *p++ = txt[k];
    }
  }
  *p++ = '"';
  *p = 0;
  Tok *r = pp_new_tok(pp, CT_STRING, s, pos);
  return r;
}

static Tok *paste(CPP *pp, Tok *l, Tok *r) {
  if (l->flags & TF_PLACEMARKER) return r;
  if (r->flags & TF_PLACEMARKER) return l;
  char *s = pp_printf(pp, "%s%s", pp_spelling(l), pp_spelling(r));
  Tok *t = pp_lex_string(pp, s, strlen(s), l->t.pos);
  if (t->t.kind == CT_EOF || t->next->t.kind != CT_EOF || (t->flags & TF_HEADER)) {
    pp_error(pp, l->t.pos, "pasting \"%s\" and \"%s\" does not give a valid preprocessing token",
             l->t.text, r->t.text);
    return NULL;
  }
  t->t.space = l->t.space;
  t->t.bol = false;
  t->hs = l->hs;
  t->next = NULL;
  return t;
}

/* ---- substitution ---- */

typedef struct Args {
  TokVec *raw;       /* as written */
  TokVec **exp;      /* fully expanded, computed on first use */
  int n;
  int nactual;       /* arguments written, before padding to the parameter count */
} Args;

static TokVec *expanded_arg(CPP *pp, Args *a, int i) {
  if (!a->exp[i]) {
    a->exp[i] = pp_alloc(pp, sizeof(TokVec));
    pp_expand_list(pp, a->raw[i].v, a->raw[i].n, a->exp[i]);
    if (pp->list_trailing_space) {
      Tok *pad = placemarker(pp, a->raw[i].n ? a->raw[i].v[0]->t.pos : (CPos){0, 0, 0});
      pad->t.space = true;
      pp_tv_push(pp, a->exp[i], pad);
    }
  }
  return a->exp[i];
}


static void append_arg(CPP *pp, TokVec *out, TokVec *arg, const Tok *param) {
  if (arg->n == 0) {
    pp_tv_push(pp, out, placemarker(pp, param->t.pos));
    return;
  }
  for (size_t k = 0; k < arg->n; k++) {
    Tok *c = pp_copy_tok(pp, arg->v[k]);
    c->flags &= (uint16_t)~TF_PASTE;
    if (k == 0) c->t.space = param->t.space || (c->flags & TF_PLACEMARKER && c->t.space);
    pp_tv_push(pp, out, c);
  }
}

static bool has_tokens(const TokVec *v) {
  for (size_t i = 0; i < v->n; i++)
    if (!(v->v[i]->flags & TF_PLACEMARKER)) return true;
  return false;
}

static size_t vaopt_end(const TokVec *b, size_t i) {
  /* b->v[i] is __VA_OPT__; returns the index of its ')' or b->n */
  if (i + 1 >= b->n || !tok_is(b->v[i + 1], "(")) return b->n;
  int depth = 0;
  for (size_t k = i + 1; k < b->n; k++) {
    if (tok_is(b->v[k], "(")) depth++;
    else if (tok_is(b->v[k], ")") && --depth == 0) return k;
  }
  return b->n;
}

static void subst(CPP *pp, Macro *m, Args *a, size_t lo, size_t hi, TokVec *out) {
  TokVec *b = &m->body;
  int va = m->variadic ? m->nparams - 1 : -1;
  for (size_t i = lo; i < hi; i++) {
    Tok *t = b->v[i];
    if (t->flags & TF_VAOPT) {
      size_t end = vaopt_end(b, i);
      if (end >= hi) {
        pp_error(pp, t->t.pos, "unterminated __VA_OPT__");
        return;
      }
      if (a && va >= 0 && a->n > va && has_tokens(expanded_arg(pp, a, va))) {
        size_t before = out->n;
        subst(pp, m, a, i + 2, end, out);
        if (out->n > before) out->v[before]->t.space = t->t.space;
      } else {
        pp_tv_push(pp, out, placemarker(pp, t->t.pos));
      }
      i = end;
      continue;
    }
    if (!a) {
      pp_tv_push(pp, out, pp_copy_tok(pp, t));
      continue;
    }
    if (tok_is(t, "#") && i + 1 < hi && b->v[i + 1]->param >= 0) {
      TokVec *raw = &a->raw[b->v[i + 1]->param];
      Tok *s = pp_stringize(pp, raw->v, raw->n, t->t.pos);
      s->t.space = t->t.space;
      pp_tv_push(pp, out, s);
      i++;
      continue;
    }
    /* GNU: `, ## __VA_ARGS__` drops the comma when the variable argument is left
     * out altogether (or, in gnu modes, is the only one and empty); gcc keeps it
     * for a present but empty one (`f(a,)`). */
    if (tok_is(t, ",") && i + 2 < hi && (b->v[i + 1]->flags & TF_PASTE) && va >= 0 &&
        b->v[i + 2]->param == va) {
      TokVec *raw = &a->raw[va];
      if (a->nactual <= va || (pp->opt.gnu && m->nparams == 1 && raw->n == 0)) {
        i += 2;
        continue;
      }
      pp_tv_push(pp, out, pp_copy_tok(pp, t));
      append_arg(pp, out, raw, b->v[i + 2]);
      i += 2;
      continue;
    }
    if (t->param >= 0) {
      bool pasted = (i + 1 < hi && (b->v[i + 1]->flags & TF_PASTE)) ||
                    (i > lo && (b->v[i - 1]->flags & TF_PASTE));
      TokVec empty = {0};
      TokVec *arg = t->param < a->n ? (pasted ? &a->raw[t->param] : expanded_arg(pp, a, t->param))
                                    : &empty;
      append_arg(pp, out, arg, t);
      continue;
    }
    pp_tv_push(pp, out, pp_copy_tok(pp, t));
  }
}

/* Applies ## and drops placemarkers; true if white space is left over at the end. */
static bool paste_all(CPP *pp, TokVec *v) {
  size_t o = 0;
  for (size_t i = 0; i < v->n; i++) {
    Tok *t = v->v[i];
    if (t->flags & TF_PASTE) {
      /* an operand removed by GNU comma swallowing leaves ## with one side */
      if (o == 0 || i + 1 >= v->n) continue;
      Tok *r = paste(pp, v->v[o - 1], v->v[++i]);
      if (r) v->v[o - 1] = r;
      else v->v[o++] = v->v[i];
      continue;
    }
    v->v[o++] = t;
  }
  v->n = o;
  o = 0;
  bool space = false; /* white space carried by a vanished empty expansion */
  for (size_t i = 0; i < v->n; i++) {
    Tok *t = v->v[i];
    if (t->flags & TF_PLACEMARKER) {
      space |= t->t.space;
      continue;
    }
    if (space) t->t.space = true;
    space = false;
    v->v[o++] = t;
  }
  v->n = o;
  return space;
}

/* ---- invocation ---- */

static bool collect_args(CPP *pp, Macro *m, Tok *name, Args *a, Tok **rparen) {
  size_t cap = (size_t)(m->nparams > 0 ? m->nparams : 1);
  a->raw = pp_alloc(pp, cap * sizeof *a->raw);
  a->n = 1;
  int depth = 0;
  bool saved = pp->collecting;
  pp->collecting = true;
  for (;;) {
    Tok *t = pp_read_raw(pp);
    if (t->t.kind == CT_EOF) {
      pp_error(pp, name->t.pos, "unterminated argument list invoking macro \"%s\"", m->name);
      pp->collecting = saved;
      return false;
    }
    if (depth == 0 && tok_is(t, ")")) {
      *rparen = t;
      break;
    }
    if (tok_is(t, "(")) depth++;
    else if (tok_is(t, ")")) depth--;
    if (depth == 0 && tok_is(t, ",") && !(m->variadic && a->n >= m->nparams)) {
      if ((size_t)a->n == cap) {
        TokVec *nr = pp_alloc(pp, cap * 2 * sizeof *nr);
        memcpy(nr, a->raw, cap * sizeof *nr);
        a->raw = nr;
        cap *= 2;
      }
      a->n++;
      continue;
    }
    Tok *c = pp_copy_tok(pp, t);
    if (c->t.bol && a->raw[a->n - 1].n) c->t.space = true; /* a newline is white space */
    c->t.bol = false;
    pp_tv_push(pp, &a->raw[a->n - 1], c);
  }
  pp->collecting = saved;
  if (m->nparams == 0 && a->n == 1 && a->raw[0].n == 0) a->n = 0;
  if (a->n < m->nparams && !(m->variadic && a->n == m->nparams - 1) &&
      !(m->nparams == 1 && a->n == 0)) {
    pp_error(pp, name->t.pos, "macro \"%s\" requires %d arguments, but only %d given", m->name,
             m->nparams, a->n);
    return false;
  }
  if (a->n > m->nparams && !(m->nparams == 0 && a->n == 0)) {
    pp_error(pp, name->t.pos, "macro \"%s\" passed %d arguments, but takes just %d", m->name, a->n,
             m->nparams);
    return false;
  }
  a->nactual = a->n;
  if (a->n < m->nparams) a->n = m->nparams;
  a->exp = pp_alloc(pp, (size_t)(a->n + 1) * sizeof *a->exp);
  return true;
}

static char *quote_string(CPP *pp, const char *s) {
  size_t n = strlen(s);
  char *r = pp_alloc(pp, n * 2 + 3), *p = r;
  *p++ = '"';
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') *p++ = '\\';
    *p++ = *s;
  }
  *p++ = '"';
  *p = 0;
  return r;
}

static void do_pragma_operator(CPP *pp, Tok *name) {
  bool saved = pp->collecting;
  pp->collecting = true;
  Tok *l = pp_read_raw(pp), *s = NULL, *r = NULL;
  pp->collecting = saved;
  /* gcc expands macros in the operand: _Pragma(STRINGIFY(...)) works */
  if (tok_is(l, "(")) s = pp_expand_next(pp);
  if (s && s->t.kind == CT_STRING) r = pp_expand_next(pp);
  if (!r || !tok_is(r, ")")) {
    pp_error(pp, name->t.pos, "_Pragma takes a parenthesized string literal");
    return;
  }
  const char *txt = strchr(s->t.text, '"') + 1;
  size_t n = strlen(txt) - 1;
  char *buf = pp_alloc(pp, n + 1), *p = buf;
  for (size_t i = 0; i < n; i++) {
    if (txt[i] == '\\' && (txt[i + 1] == '"' || txt[i + 1] == '\\')) i++;
    *p++ = txt[i];
  }
  TokVec v = {0};
  for (Tok *t = pp_lex_string(pp, buf, (size_t)(p - buf), name->t.exp); t->t.kind != CT_EOF; t = t->next)
    pp_tv_push(pp, &v, t);
  pp_handle_pragma(pp, v.v, v.n, name->t.exp);
}

static Tok *builtin_token(CPP *pp, Macro *m, Tok *name) {
  Ctx *c = pp_top(pp);
  const char *s = "";
  CTokKind kind = CT_NUMBER;
  switch (m->builtin) {
  case BM_FILE:
    s = quote_string(pp, c ? cpp_file_name(pp, c->name_id) : "");
    kind = CT_STRING;
    break;
  case BM_LINE: s = pp_printf(pp, "%u", name->t.exp.line); break;
  case BM_DATE: s = pp->date; kind = CT_STRING; break;
  case BM_TIME: s = pp->time; kind = CT_STRING; break;
  case BM_COUNTER: s = pp_printf(pp, "%d", pp->counter++); break;
  case BM_INCLUDE_LEVEL: s = pp_printf(pp, "%zu", pp->nctx ? pp->nctx - 1 : 0); break;
  case BM_BASE_FILE:
    s = quote_string(pp, pp->base_file ? pp->base_file : "");
    kind = CT_STRING;
    break;
  case BM_TIMESTAMP: {
    char buf[64] = "\"??? ??? ?? ??:??:?? ????\"";
    if (c && c->file->mtime) {
      time_t mt = (time_t)c->file->mtime;
      struct tm tm;
      localtime_r(&mt, &tm);
      strftime(buf, sizeof buf, "\"%a %b %e %H:%M:%S %Y\"", &tm);
    }
    s = pp_strndup(pp, buf, strlen(buf));
    kind = CT_STRING;
    break;
  }
  default: break;
  }
  return pp_new_tok(pp, kind, s, name->t.exp);
}

static void finish(CPP *pp, TokVec *out, Tok *name, Hideset *hs, bool trailing_space) {
  Hideset *last_in = NULL, *last_out = hs; /* neighbours mostly share their hideset */
  for (size_t i = 0; i < out->n; i++) {
    Tok *t = out->v[i];
    if (t->hs != last_in) {
      last_in = t->hs;
      last_out = hs_union(pp, t->hs, hs);
    }
    t->hs = last_out;
    t->t.exp = name->t.exp;
    t->t.bol = false;
    t->flags &= (uint16_t)~TF_PASTE;
  }
  if (out->n) {
    out->v[0]->t.space = name->t.space;
    out->v[0]->t.bol = name->t.bol;
  }
  /* gcc: `a EMPTY b` stringizes as "a b" */
  if ((!out->n && name->t.space) || trailing_space) pp->carry_space = true;
  push_list(pp, out);
}

/* Expands `name` (macro m) onto the pending input; false: not an invocation. */
static bool expand_macro(CPP *pp, Tok *name, Macro *m) {
  if (m->builtin >= BM_HAS_INCLUDE) {
    Tok *r = pp_if_operator(pp, name, m->builtin);
    if (!r) return false;
    pp_unread(pp, r);
    return true;
  }
  if (m->builtin == BM_POISON) {
    pp_error(pp, name->t.pos, "attempt to use poisoned \"%s\"", m->name);
    return false;
  }
  if (m->builtin == BM_PRAGMA) {
    do_pragma_operator(pp, name);
    return true;
  }
  if (m->builtin) {
    Tok *r = builtin_token(pp, m, name);
    r->t.space = name->t.space;
    r->t.bol = name->t.bol;
    pp_unread(pp, r);
    pp->pending->flags |= TF_NOEXPAND;
    return true;
  }
  TokVec out = {0};
  if (!m->funclike) {
    subst(pp, m, NULL, 0, m->body.n, &out);
    bool sp = paste_all(pp, &out);
    finish(pp, &out, name, hs_add(pp, name->hs, m->hs_id), sp);
    return true;
  }
  bool saved = pp->collecting;
  pp->collecting = true;
  Tok *lp = pp_read_raw(pp);
  pp->collecting = saved;
  if (!tok_is(lp, "(")) {
    pp_unread(pp, lp);
    return false;
  }
  Args a = {0};
  Tok *rparen = NULL;
  if (!collect_args(pp, m, name, &a, &rparen)) return false; /* gcc keeps the name */
  subst(pp, m, &a, 0, m->body.n, &out);
  bool sp = paste_all(pp, &out);
  finish(pp, &out, name, hs_add(pp, hs_intersect(pp, name->hs, rparen->hs), m->hs_id), sp);
  return true;
}

static Tok *with_carried_space(CPP *pp, Tok *t) {
  if (!pp->carry_space || (t->flags & (TF_ARGEND | TF_FILEEOF))) return t;
  pp->carry_space = false;
  if (t->t.space) return t;
  t = pp_copy_tok(pp, t);
  t->t.space = true;
  return t;
}

Tok *pp_expand_next(CPP *pp) {
  for (;;) {
    Tok *t = with_carried_space(pp, pp_read_raw(pp));
    if (pp->in_if && t->t.kind == CT_PUNCT && !strcmp(t->t.text, "#"))
      return pp_if_operator(pp, t, -1);
    if (t->t.kind != CT_IDENT || (t->flags & TF_NOEXPAND)) return t;
    if (pp->in_if && !strcmp(t->t.text, "defined")) {
      Tok *r = pp_if_operator(pp, t, 0);
      if (r) return r;
      continue;
    }
    Macro *m = pp_find_macro(pp, t->t.text);
    if (!m) return t;
    if (hs_has(t->hs, m->hs_id)) {
      t->flags |= TF_NOEXPAND;
      return t;
    }
    if (!expand_macro(pp, t, m)) return t;
  }
}
