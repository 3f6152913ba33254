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
    {"__thread", KW_THREAD_LOCAL}, {"__complex__", KW_COMPLEX}, {"__float128", KW_FLOAT128},
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

PTok *next(Parser *p) {
  PTok *t = tok(p);
  if (p->pos + 1 < p->ntoks) p->pos++;
  return t;
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

static void on_pragma(void *user, const CTok *toks, size_t n) {
  Parser *p = user;
  /* #pragma pack(N) / pack() / pack(push, N) / pack(pop) */
  if (n >= 1 && strcmp(toks[0].text, "pack") == 0) {
    int v = 0;
    for (size_t i = 1; i < n; i++)
      if (toks[i].kind == CT_NUMBER) v = atoi(toks[i].text);
    p->pack_align = v;
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
    if (t->kind == CT_EOF) break;
  }
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
    parse_declaration(p, NULL);
    if (p->pos == before) next(p); /* never loop on a token nothing consumes */
  }
  lint_unit_end(p);
  p->unit->errors = diag->errors;
  free(p->toks);
  return p->unit;
}
