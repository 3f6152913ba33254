/* frontends/c/parse.c — the parser's driver: copies the preprocessed token
 * stream into an array (so lookahead is free), classifies keywords, offers
 * the token helpers every parser file uses, and reads the translation unit. */
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static const struct {
  const char *name;
  Kw kw;
} keywords[] = {
    {"auto", KW_AUTO}, {"break", KW_BREAK}, {"case", KW_CASE}, {"char", KW_CHAR}, {"const", KW_CONST},
    {"continue", KW_CONTINUE}, {"default", KW_DEFAULT}, {"do", KW_DO}, {"double", KW_DOUBLE},
    {"else", KW_ELSE}, {"enum", KW_ENUM}, {"extern", KW_EXTERN}, {"float", KW_FLOAT}, {"for", KW_FOR},
    {"goto", KW_GOTO}, {"if", KW_IF}, {"inline", KW_INLINE}, {"int", KW_INT}, {"long", KW_LONG},
    {"register", KW_REGISTER}, {"restrict", KW_RESTRICT}, {"return", KW_RETURN}, {"short", KW_SHORT},
    {"signed", KW_SIGNED}, {"sizeof", KW_SIZEOF}, {"static", KW_STATIC}, {"struct", KW_STRUCT},
    {"switch", KW_SWITCH}, {"typedef", KW_TYPEDEF}, {"union", KW_UNION}, {"unsigned", KW_UNSIGNED},
    {"void", KW_VOID}, {"volatile", KW_VOLATILE}, {"while", KW_WHILE},
    {"_Alignas", KW_ALIGNAS}, {"_Alignof", KW_ALIGNOF}, {"_Atomic", KW_ATOMIC}, {"_Bool", KW_BOOL},
    {"_Complex", KW_COMPLEX}, {"_Generic", KW_GENERIC}, {"_Imaginary", KW_IMAGINARY},
    {"_Noreturn", KW_NORETURN}, {"_Static_assert", KW_STATIC_ASSERT}, {"_Thread_local", KW_THREAD_LOCAL},
    /* GNU spellings */
    {"__attribute__", KW_ATTRIBUTE}, {"__attribute", KW_ATTRIBUTE}, {"__asm__", KW_ASM}, {"__asm", KW_ASM},
    {"__typeof__", KW_TYPEOF}, {"__typeof", KW_TYPEOF}, {"__extension__", KW_EXTENSION},
    {"__int128", KW_INT128}, {"__int128_t", KW_NONE}, {"__builtin_va_list", KW_BUILTIN_VA_LIST},
    {"__builtin_va_arg", KW_BUILTIN_VA_ARG}, {"__builtin_offsetof", KW_BUILTIN_OFFSETOF},
    {"__builtin_types_compatible_p", KW_BUILTIN_TYPES_COMPATIBLE_P},
    {"__builtin_choose_expr", KW_BUILTIN_CHOOSE_EXPR}, {"__label__", KW_LABEL}, {"__auto_type", KW_AUTO_TYPE},
    {"__real__", KW_REAL}, {"__imag__", KW_IMAG}, {"__real", KW_REAL}, {"__imag", KW_IMAG},
    {"__const", KW_CONST}, {"__const__", KW_CONST}, {"__volatile", KW_VOLATILE}, {"__volatile__", KW_VOLATILE},
    {"__restrict", KW_RESTRICT}, {"__restrict__", KW_RESTRICT}, {"__inline", KW_INLINE},
    {"__inline__", KW_INLINE}, {"__signed", KW_SIGNED}, {"__signed__", KW_SIGNED},
    {"__alignof__", KW_ALIGNOF}, {"__alignof", KW_ALIGNOF}, {"_Alignof", KW_ALIGNOF},
    {"__thread", KW_THREAD_LOCAL}, {"__complex__", KW_COMPLEX}, {"__complex", KW_COMPLEX}, {"__float128", KW_FLOAT128},
    /* keywords for GNU C 7 and later, which kitcc presents (docs/kitcc.md "Identity") */
    {"_Float32", KW_FLOATN}, {"_Float64", KW_FLOATN}, {"_Float32x", KW_FLOATN}, {"_Float64x", KW_FLOATN},
    {"_Float128", KW_FLOAT128},
};

/* GNU keywords without underscores exist only in gnu modes */
static const struct {
  const char *name;
  Kw kw;
} gnu_keywords[] = {{"typeof", KW_TYPEOF}, {"asm", KW_ASM}, {"typeof_unqual", KW_TYPEOF_UNQUAL}};

static Kw classify(Parser *p, const char *s, size_t n) {
  /* a small open-addressing table built on first use */
  enum { N = 512 };
  static struct {
    const char *name;
    Kw kw;
  } table[N];
  static bool built;
  if (!built) {
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
      const char *k = keywords[i].name;
      unsigned h = 5381;
      for (const char *c = k; *c; c++) h = h * 33 + (unsigned char)*c;
      while (table[h % N].name) h++;
      table[h % N].name = k;
      table[h % N].kw = keywords[i].kw;
    }
    built = true;
  }
  unsigned h = 5381;
  for (size_t i = 0; i < n; i++) h = h * 33 + (unsigned char)s[i];
  for (;; h++) {
    const char *k = table[h % N].name;
    if (!k) break;
    if (strlen(k) == n && memcmp(k, s, n) == 0) return table[h % N].kw;
  }
  if (p->opt->gnu)
    for (size_t i = 0; i < sizeof gnu_keywords / sizeof gnu_keywords[0]; i++)
      if (strlen(gnu_keywords[i].name) == n && memcmp(gnu_keywords[i].name, s, n) == 0) return gnu_keywords[i].kw;
  return KW_NONE;
}

bool is_punct(PTok *t, const char *s) { return t->kind == CT_PUNCT && strcmp(t->text, s) == 0; }
bool is_kw(PTok *t, Kw kw) { return t->kind == CT_IDENT && t->kw == kw; }

/* A fatal error: the parse goes on at the end of input, where every
 * production returns at once, and the diagnostics are silent from here. */
static void stop_parsing(Parser *p) { p->pos = p->ntoks - 1; }

static void bracket_overflow(Parser *p, PTok *t) {
  int limit = p->opt->bracket_depth > 0 ? p->opt->bracket_depth : 256;
  c_fatal(p->diag, t->pos, "use -fbracket-depth=N to increase maximum nesting level",
          "bracket nesting level exceeded maximum of %d", limit);
  stop_parsing(p);
}

PTok *next(Parser *p) {
  PTok *t = tok(p);
  if (t->too_deep) {
    bracket_overflow(p, t);
    return tok(p);
  }
  if (p->pos + 1 < p->ntoks) p->pos++;
  return t;
}

bool nest_enter(Parser *p) {
  if (p->nesting >= PARSE_MAX_NESTING) {
    c_fatal(p->diag, tok(p)->pos, NULL, "nesting level exceeded maximum of %d", PARSE_MAX_NESTING);
    stop_parsing(p);
    return false;
  }
  p->nesting++;
  return true;
}

bool accept(Parser *p, const char *punct) {
  if (!is_punct(tok(p), punct)) return false;
  next(p);
  return true;
}

bool accept_kw(Parser *p, Kw kw) {
  if (!is_kw(tok(p), kw)) return false;
  next(p);
  return true;
}

static const char *tok_desc(PTok *t) { return t->kind == CT_EOF ? "end of input" : t->text; }

void expect(Parser *p, const char *punct) {
  if (accept(p, punct)) return;
  perror_at(p, tok(p)->pos, "expected '%s' before '%s'", punct, tok_desc(tok(p)));
}

const char *ident(Parser *p) {
  PTok *t = tok(p);
  if (t->kind == CT_IDENT && t->kw == KW_NONE) {
    next(p);
    return t->text;
  }
  perror_at(p, t->pos, "expected identifier before '%s'", tok_desc(t));
  return NULL;
}

void skip_to(Parser *p, const char *punct) {
  int depth = 0;
  while (!at_eof(p)) {
    PTok *t = tok(p);
    if (depth == 0 && is_punct(t, punct)) {
      next(p);
      return;
    }
    if (is_punct(t, "(") || is_punct(t, "[") || is_punct(t, "{")) depth++;
    if (is_punct(t, ")") || is_punct(t, "]") || is_punct(t, "}")) {
      /* stop at the '}' that closes the enclosing body; a stray ')' or ']' is
       * skipped, or error recovery loops that end only at '}' or ';' would spin */
      if (depth == 0 && is_punct(t, "}")) return;
      if (depth > 0) depth--;
    }
    next(p);
  }
}

/* `#pragma weak name` makes name's symbol weak (a weak reference when it is only
 * declared); `#pragma weak name = target` defines name as a weak alias of
 * target. As in gcc the declarations may come before or after the pragma, so
 * they are applied once the unit is parsed (apply_pragma_weak). */
typedef struct PragmaWeak {
  const char *name, *target;
  CPos pos;
  struct PragmaWeak *next;
} PragmaWeak;

static void pragma_weak(Parser *p, const CTok *toks, size_t n) {
  bool alias = n == 4 && toks[2].kind == CT_PUNCT && !strcmp(toks[2].text, "=") && toks[3].kind == CT_IDENT;
  if ((n != 2 && !alias) || toks[1].kind != CT_IDENT) {
    pwarn_at(p, toks[0].pos, "malformed '#pragma weak', ignored (expected 'name' or 'name = target')");
    return;
  }
  PragmaWeak *w = c_alloc(sizeof *w);
  *w = (PragmaWeak){c_strdup(toks[1].text), alias ? c_strdup(toks[3].text) : NULL, toks[1].pos, p->weaks};
  p->weaks = w;
}

static CObj *file_scope_obj(Parser *p, const char *name) {
  PScope *saved = p->scope;
  p->scope = p->file_scope;
  Sym *y = scope_find_here(p, name);
  p->scope = saved;
  return y && y->kind == SYM_OBJ ? y->obj : NULL;
}

static void apply_pragma_weak(Parser *p) {
  for (PragmaWeak *w = p->weaks; w; w = w->next) {
    CObj *o = file_scope_obj(p, w->name);
    if (!w->target) {
      if (o) o->attr_weak = true;
      else pwarn_at(p, w->pos, "weak identifier '%s' never declared", w->name);
      continue;
    }
    CObj *t = file_scope_obj(p, w->target);
    if (!t) {
      perror_at(p, w->pos, "'#pragma weak %s = %s': '%s' is not declared", w->name, w->target, w->target);
      continue;
    }
    if (o && (o->body || o->init || (o->is_definition && !o->is_tentative))) {
      perror_at(p, w->pos, "'%s' is defined and cannot also be an alias of '%s'", w->name, w->target);
      continue;
    }
    if (!o) {
      o = c_alloc(sizeof *o);
      *o = (CObj){.name = w->name, .type = t->type, .pos = w->pos, .is_function = t->is_function};
      add_unit_obj(p, o);
    }
    o->is_definition = o->is_tentative = false;
    o->alias_target = w->target;
    o->attr_weak = true;
  }
}

/* #pragma pack(N) / pack() / pack(push[, N]) / pack(pop[, N]), as gcc: each
 * takes effect from the token after it */
typedef struct PackEvent {
  size_t at;       /* the index of the first token after the pragma */
  char op;         /* 's' set, 'u' push, 'o' pop */
  int value;       /* -1: none given */
} PackEvent;

static void pragma_pack(Parser *p, const CTok *toks, size_t n) {
  PackEvent e = {p->ntoks, 's', -1};
  for (size_t i = 1; i < n; i++) {
    if (toks[i].kind == CT_NUMBER) e.value = atoi(toks[i].text);
    else if (!strcmp(toks[i].text, "push")) e.op = 'u';
    else if (!strcmp(toks[i].text, "pop")) e.op = 'o';
  }
  if (p->npacks == p->cap_packs) {
    p->cap_packs = p->cap_packs ? 2 * p->cap_packs : 16;
    PackEvent *grown = c_alloc(sizeof *grown * p->cap_packs);
    if (p->npacks) memcpy(grown, p->packs, sizeof *grown * p->npacks);
    p->packs = grown;
  }
  p->packs[p->npacks++] = e;
}

int pack_at(Parser *p, size_t tok_index) {
  int stack[64], depth = 0, cur = 0;
  for (size_t i = 0; i < p->npacks && p->packs[i].at <= tok_index; i++) {
    PackEvent *e = &p->packs[i];
    if (e->op == 'u' && depth < 64) stack[depth++] = cur;
    if (e->op == 'o') cur = depth ? stack[--depth] : 0;
    if (e->value >= 0 || e->op == 's') cur = e->value > 0 ? e->value : 0;
  }
  return cur;
}

static void on_pragma(void *user, const CTok *toks, size_t n) {
  Parser *p = user;
  if (n >= 1 && strcmp(toks[0].text, "pack") == 0) {
    pragma_pack(p, toks, n);
  } else if (n >= 1 && !strcmp(toks[0].text, "weak")) {
    pragma_weak(p, toks, n);
  }
}

/* clang's limit: at most N parentheses, N brackets and N braces open at
 * once, each kind counted on its own; the first opener past it is marked */
static void mark_bracket_depth(Parser *p) {
  static const char opens[] = "([{", closes[] = ")]}";
  int limit = p->opt->bracket_depth > 0 ? p->opt->bracket_depth : 256;
  int depth[3] = {0};
  for (size_t i = 0; i < p->ntoks; i++) {
    PTok *t = &p->toks[i];
    if (t->kind != CT_PUNCT || t->len != 1) continue;
    const char *o = strchr(opens, t->text[0]), *c = strchr(closes, t->text[0]);
    if (o && *o && ++depth[o - opens] > limit) {
      t->too_deep = true;
      return; /* the parse ends there */
    }
    if (c && *c && depth[c - closes] > 0) depth[c - closes]--;
  }
}

static void load_tokens(Parser *p, CPP *pp) {
  size_t cap = 4096;
  p->toks = malloc(cap * sizeof(PTok));
  if (!p->toks) abort();
  for (;;) {
    const CTok *t = cpp_next(pp);
    if (p->ntoks == cap) {
      cap *= 2;
      PTok *n = realloc(p->toks, cap * sizeof(PTok));
      if (!n) abort();
      p->toks = n;
    }
    PTok *d = &p->toks[p->ntoks++];
    d->kind = t->kind;
    d->text = t->text;
    d->len = t->len;
    d->pos = t->exp.line ? t->exp : t->pos;
    d->kw = t->kind == CT_IDENT ? classify(p, t->text, t->len) : KW_NONE;
    d->too_deep = false;
    if (t->kind == CT_EOF) break;
  }
  mark_bracket_depth(p);
}

void add_unit_obj(Parser *p, CObj *o) {
  CObjList *l = c_alloc(sizeof *l);
  l->obj = o;
  *p->unit_tail = l;
  p->unit_tail = &l->next;
}

CUnit *c_parse(CPP *pp, CDiag *diag, const CParseOptions *opt) {
  Parser P = {0};
  Parser *p = &P;
  p->diag = diag;
  p->opt = opt;
  cpp_on_pragma(pp, on_pragma, p);
  load_tokens(p, pp);
  p->unit = c_alloc(sizeof(CUnit));
  p->unit_tail = &p->unit->objs;
  /* the main file is the one every include chain starts from: the file of
   * the last real token, not of the first, which may come from a header (the
   * EOF token carries the position of the last file the lexer closed) */
  if (p->ntoks) p->unit->main_file = cpp_file_name(pp, p->toks[p->ntoks > 1 ? p->ntoks - 2 : 0].pos.file);
  scope_push(p);
  p->file_scope = p->scope;
  while (!at_eof(p)) {
    size_t before = p->pos;
    if (accept(p, ";")) {
      pwarn_w(p, W_PEDANTIC, p->toks[before].pos, "ISO C does not allow extra ';' outside of a function");
      continue;
    }
    if (is_kw(tok(p), KW_ASM)) {
      parse_file_asm(p);
      continue;
    }
    parse_declaration(p, NULL);
    if (p->pos == before) next(p); /* never loop on a token nothing consumes */
  }
  apply_pragma_weak(p);
  lint_unit_end(p);
  p->unit->errors = diag->errors;
  free(p->toks);
  return p->unit;
}
