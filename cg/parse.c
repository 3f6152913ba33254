/* cg/parse.c — the CG parser: the textual form of docs/cg-text.md back into a
 * module. Two passes over the tokens: the first creates every symbol named by
 * a top-level definition (so uses may precede definitions), the second fills
 * them in. Semantic checks are the verifier's; this file only rejects what it
 * cannot represent, with one positioned message. */
#include "internal.h"
#include "lex.h"
#include "text.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define GROW KIT_CG_GROW

/* an operand whose type the text states (store's value, icmp's operands):
 * checked once the function's values are all known */
typedef struct TypeClaim {
  KitCgVal v;
  uint8_t type;
  size_t tok;
} TypeClaim;

typedef struct P {
  const char *src;
  const char *name;
  FILE *err;
  KitCgTok *t;
  size_t nt, i;
  KitCgModule *m;
  jmp_buf jb;
  char *buf; /* decoded string scratch */
  size_t bufcap;
  size_t *symdef; /* per symbol: token index of its defining line + 1 */
  size_t symdef_cap;
  KitCgVal *args;
  size_t args_cap;
  KitCgBlkId *blks;
  size_t blks_cap;
  int64_t *cases;
  size_t cases_cap;
  TypeClaim *claims;
  size_t nclaims, claims_cap;
  KitCgParam *aattrs; /* call-site argument attributes, parallel to args */
  size_t aattrs_cap;
  bool any_aattrs;
  KitCgFunc *f; /* function whose body is being parsed */
  char found[80]; /* "word 'foo'": what an error message says it found */
} P;

static _Noreturn void perr_at(P *p, size_t tok, const char *fmt, ...) {
  if (p->err) {
    const KitCgTok *t = &p->t[tok < p->nt ? tok : p->nt - 1];
    fprintf(p->err, "%s:%u:%u: error: ", p->name, t->line, t->col);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(p->err, fmt, ap);
    va_end(ap);
    fputc('\n', p->err);
  }
  longjmp(p->jb, 1);
}
#define perr(p, ...) perr_at((p), (p)->i, __VA_ARGS__)

static void *xgrow(P *p, void *arr, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return arr;
  size_t nc = *cap ? *cap * 2 : 16;
  while (nc < need) nc *= 2;
  void *n = realloc(arr, nc * elem);
  if (!n) perr(p, "out of memory");
  *cap = nc;
  return n;
}

/* ---- token helpers ------------------------------------------------------------- */

static const KitCgTok *cur(const P *p) { return &p->t[p->i]; }
static int kind(const P *p) { return p->t[p->i].kind; }
/* describes a token for an error message: its kind and (some of) its text */
static const char *tokdesc_at(P *p, const KitCgTok *t) {
  static const char *const names[] = {"end of input", "end of line", "word", "symbol", "value", "stack object",
                                      "string", "blob", "integer", "number", "modifier", "punctuation"};
  const char *k = t->kind < sizeof names / sizeof names[0] ? names[t->kind] : "token";
  if (t->kind == KIT_CG_TK_EOF || t->kind == KIT_CG_TK_NL) return k;
  char text[28];
  size_t n = 0;
  for (size_t i = 0; i < t->len && n < 24; i++) {
    unsigned char c = (unsigned char)p->src[t->pos + i];
    text[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
  }
  text[n] = 0;
  static const char *const pre[] = {"", "", "", "@", "%", "$", "\"", "x\"", "", "", "!", ""};
  const char *pf = t->kind < sizeof pre / sizeof pre[0] ? pre[t->kind] : "";
  const char *sf = t->kind == KIT_CG_TK_STR || t->kind == KIT_CG_TK_BLOB ? "\"" : "";
  snprintf(p->found, sizeof p->found, "%s '%s%s%s%s'", k, pf, text, t->len > 24 ? "..." : "", sf);
  return p->found;
}
#define tokdesc(t) tokdesc_at(p, (t))

static bool is_word(const P *p, const char *w) {
  const KitCgTok *t = cur(p);
  return t->kind == KIT_CG_TK_IDENT && t->len == strlen(w) && !memcmp(p->src + t->pos, w, t->len);
}
static bool is_mod(const P *p, const char *w) {
  const KitCgTok *t = cur(p);
  return t->kind == KIT_CG_TK_MOD && t->len == strlen(w) && !memcmp(p->src + t->pos, w, t->len);
}
static bool is_punct(const P *p, char c) { return kind(p) == KIT_CG_TK_PUNCT && cur(p)->punct == c; }
static bool accept_word(P *p, const char *w) {
  if (!is_word(p, w)) return false;
  p->i++;
  return true;
}
static bool accept_punct(P *p, char c) {
  if (!is_punct(p, c)) return false;
  p->i++;
  return true;
}

static void expect_punct(P *p, char c) {
  if (accept_punct(p, c)) return;
  const char *what = c == '.' ? "..." : c == '>' ? "->" : (char[]){c, 0};
  perr(p, "expected '%s', found %s", what, tokdesc(cur(p)));
}

static void expect_word(P *p, const char *w) {
  if (!accept_word(p, w)) perr(p, "expected '%s', found %s", w, tokdesc(cur(p)));
}

static void expect_eol(P *p) {
  if (kind(p) == KIT_CG_TK_EOF) return;
  if (kind(p) != KIT_CG_TK_NL) perr(p, "unexpected %s at end of line", tokdesc(cur(p)));
  p->i++;
}

static void skip_nl(P *p) {
  while (kind(p) == KIT_CG_TK_NL) p->i++;
}

/* ---- strings and numbers ------------------------------------------------------ */

static int hexv(int c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; }

/* decodes a STR (or quoted SYM) token into p->buf, NUL-terminated */
static const char *decode(P *p, const KitCgTok *t, size_t *outlen) {
  p->buf = xgrow(p, p->buf, &p->bufcap, t->len + 1, 1);
  const char *s = p->src + t->pos;
  size_t n = 0;
  for (size_t k = 0; k < t->len; k++) {
    char c = s[k];
    if (c == '\\') {
      char e = s[++k];
      if (e == 'x') {
        c = (char)(hexv((unsigned char)s[k + 1]) * 16 + hexv((unsigned char)s[k + 2]));
        k += 2;
      } else {
        c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
      }
    }
    p->buf[n++] = c;
  }
  p->buf[n] = 0;
  if (outlen) *outlen = n;
  return p->buf;
}

static uint32_t expect_str(P *p) {
  if (kind(p) != KIT_CG_TK_STR) perr(p, "expected a string, found %s", tokdesc(cur(p)));
  size_t n;
  const char *s = decode(p, cur(p), &n);
  p->i++;
  return kit_cg_strn(p->m, s, n);
}

/* an INT token as a 128-bit magnitude and a sign */
typedef struct Num {
  bool neg;
  uint64_t hi, lo;
} Num;

static Num tok_num(P *p) {
  const KitCgTok *t = cur(p);
  if (t->kind != KIT_CG_TK_INT) perr(p, "expected an integer, found %s", tokdesc(t));
  const char *s = p->src + t->pos, *e = s + t->len;
  Num n = {0};
  if (*s == '-') {
    n.neg = true;
    s++;
  }
  if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    for (s += 2; s < e; s++) {
      if (n.hi >> 60) perr(p, "integer does not fit 128 bits");
      n.hi = n.hi << 4 | n.lo >> 60;
      n.lo = n.lo << 4 | (uint64_t)hexv((unsigned char)*s);
    }
  } else {
    for (; s < e; s++) {
      unsigned d = (unsigned)(*s - '0');
      if (n.lo > (UINT64_MAX - d) / 10) perr(p, "integer does not fit 64 bits");
      n.lo = n.lo * 10 + d;
    }
  }
  p->i++;
  return n;
}

/* an integer in [min, max] (signed view; max may exceed INT64_MAX through umax) */
static uint64_t get_int(P *p, int64_t min, uint64_t umax) {
  size_t at = p->i;
  Num n = tok_num(p);
  if (n.hi) perr_at(p, at, "integer out of range");
  if (n.neg) {
    if (n.lo > (uint64_t)INT64_MAX + 1 || (n.lo && -(int64_t)(n.lo - 1) - 1 < min))
      perr_at(p, at, "integer out of range");
    return (uint64_t)0 - n.lo;
  }
  if (n.lo > umax) perr_at(p, at, "integer out of range");
  return n.lo;
}
static uint64_t get_u64(P *p) { return get_int(p, 0, UINT64_MAX); }
static uint32_t get_u32(P *p) { return (uint32_t)get_int(p, 0, UINT32_MAX); }
static int64_t get_i64(P *p) { return (int64_t)get_int(p, INT64_MIN, INT64_MAX); }

static KitCgBlkId get_blk(P *p) {
  const KitCgTok *t = cur(p);
  const char *s = p->src + t->pos;
  if (t->kind != KIT_CG_TK_IDENT || t->len < 2 || s[0] != 'b') perr(p, "expected a block bN, found %s", tokdesc(t));
  uint64_t v = 0;
  for (size_t k = 1; k < t->len; k++) {
    if (s[k] < '0' || s[k] > '9') perr(p, "expected a block bN");
    v = v * 10 + (uint64_t)(s[k] - '0');
    if (v > UINT32_MAX) perr(p, "block number out of range");
  }
  p->i++;
  return (KitCgBlkId)v;
}

/* a block bN (without the ':' of a label) */
static bool is_blk(const P *p) {
  const KitCgTok *t = cur(p);
  const char *s = p->src + t->pos;
  if (t->kind != KIT_CG_TK_IDENT || t->len < 2 || s[0] != 'b') return false;
  for (size_t k = 1; k < t->len; k++)
    if (s[k] < '0' || s[k] > '9') return false;
  return true;
}

static bool is_blk_label(const P *p) {
  return is_blk(p) && p->i + 1 < p->nt && p->t[p->i + 1].kind == KIT_CG_TK_PUNCT && p->t[p->i + 1].punct == ':';
}

static KitCgVal get_val(P *p) {
  const KitCgTok *t = cur(p);
  if (t->kind != KIT_CG_TK_VAL) perr(p, "expected a value %%N, found %s", tokdesc(t));
  if (t->num == 0 || t->num >= KIT_CG_TEXT_MAX_VAL) perr(p, "value id %%%llu out of range", (unsigned long long)t->num);
  p->i++;
  return (KitCgVal)t->num;
}

static uint32_t get_stk(P *p) {
  const KitCgTok *t = cur(p);
  if (t->kind != KIT_CG_TK_STK) perr(p, "expected a stack object $N, found %s", tokdesc(t));
  if (t->num > UINT32_MAX) perr(p, "stack object number out of range");
  p->i++;
  return (uint32_t)t->num;
}

static KitCgSym get_sym(P *p) {
  const KitCgTok *t = cur(p);
  if (t->kind != KIT_CG_TK_SYM) perr(p, "expected a symbol @name, found %s", tokdesc(t));
  const char *name;
  size_t n;
  if (t->quoted) {
    name = decode(p, t, &n);
  } else {
    name = p->src + t->pos;
    n = t->len;
    p->buf = xgrow(p, p->buf, &p->bufcap, n + 1, 1);
    memcpy(p->buf, name, n);
    p->buf[n] = 0;
    name = p->buf;
  }
  KitCgSym s = kit_cg_sym_find(p->m, name);
  if (s == UINT32_MAX) perr(p, "unknown symbol @%s", name);
  p->i++;
  return s;
}

static int type_of_word(const P *p) {
  const KitCgTok *t = cur(p);
  if (t->kind != KIT_CG_TK_IDENT) return -1;
  for (int k = 0; k <= KIT_CG_VEC_MAX; k++) {
    if (k >= KIT_CG_NTYPES && !kit_cg_type_valid((KitCgType)k)) continue;
    const char *n = kit_cg_type_name((KitCgType)k);
    if (strlen(n) == t->len && !memcmp(n, p->src + t->pos, t->len)) return k;
  }
  return -1;
}

static KitCgType get_type(P *p, bool allow_void) {
  int k = type_of_word(p);
  if (k < 0) perr(p, "expected a type, found %s", tokdesc(cur(p)));
  if (k == KIT_CG_VOID && !allow_void) perr(p, "void is not a value type here");
  p->i++;
  return (KitCgType)k;
}

/* T or {T1, T2} */
static void get_rettype(P *p, uint8_t *t1, uint8_t *t2) {
  if (accept_punct(p, '{')) {
    *t1 = (uint8_t)get_type(p, false);
    expect_punct(p, ',');
    *t2 = (uint8_t)get_type(p, false);
    expect_punct(p, '}');
  } else {
    *t1 = (uint8_t)get_type(p, true);
    *t2 = KIT_CG_VOID;
  }
}

static int word_index(const P *p, const char *const *names, int n) {
  const KitCgTok *t = cur(p);
  if (t->kind != KIT_CG_TK_IDENT) return -1;
  for (int k = 0; k < n; k++)
    if (names[k] && strlen(names[k]) == t->len && !memcmp(names[k], p->src + t->pos, t->len)) return k;
  return -1;
}

/* `!loc "file" L:C` and `!pc 0xADDR`; returns false if the token is neither */
static bool parse_loc(P *p, KitCgLoc *l) {
  if (is_mod(p, "loc")) {
    p->i++;
    l->file = expect_str(p);
    l->line = get_u32(p);
    expect_punct(p, ':');
    l->col = get_u32(p);
    return true;
  }
  if (is_mod(p, "pc")) {
    p->i++;
    l->pc = get_u64(p);
    return true;
  }
  return false;
}

static uint32_t parse_ty(P *p) {
  p->i++; /* !ty */
  return get_u32(p);
}

/* ---- pass 1: create the symbols ---------------------------------------------- */

static const char *symtok_name(P *p, const KitCgTok *t) {
  if (t->quoted) return decode(p, t, NULL);
  p->buf = xgrow(p, p->buf, &p->bufcap, t->len + 1, 1);
  memcpy(p->buf, p->src + t->pos, t->len);
  p->buf[t->len] = 0;
  return p->buf;
}

/* Creates the symbol a definition line at token `at` names, if its name is
 * free; returns false if the name is taken. */
static bool define_sym(P *p, size_t at, const char *kw, const KitCgTok *symtok) {
  const char *name = symtok_name(p, symtok);
  if (kit_cg_sym_find(p->m, name) != UINT32_MAX) return false;
  KitCgSym s;
  if (!strcmp(kw, "global") || !strcmp(kw, "extern")) {
    s = kit_cg_global_declare(p->m, name)->sym;
  } else if (!strcmp(kw, "alias")) {
    s = kit_cg_alias_new(p->m, name, 0);
  } else {
    s = kit_cg_func_declare(p->m, name, KIT_CG_VOID, NULL, 0, false)->sym;
  }
  p->symdef = xgrow(p, p->symdef, &p->symdef_cap, (size_t)s + 1, sizeof *p->symdef);
  p->symdef[s] = at + 1;
  return true;
}

static const char *const def_words[] = {"global", "extern", "alias", "declare", "func"};

static void pass1(P *p) {
  int depth = 0;
  bool line_start = true;
  for (size_t k = 0; k < p->nt; k++) {
    const KitCgTok *t = &p->t[k];
    if (t->kind == KIT_CG_TK_NL) {
      line_start = true;
      continue;
    }
    if (t->kind == KIT_CG_TK_PUNCT && t->punct == '{') depth++;
    if (t->kind == KIT_CG_TK_PUNCT && t->punct == '}' && depth > 0) depth--;
    if (line_start && depth == 0 && t->kind == KIT_CG_TK_IDENT && k + 1 < p->nt &&
        p->t[k + 1].kind == KIT_CG_TK_SYM) {
      for (size_t w = 0; w < sizeof def_words / sizeof *def_words; w++)
        if (t->len == strlen(def_words[w]) && !memcmp(p->src + t->pos, def_words[w], t->len))
          define_sym(p, k, def_words[w], &p->t[k + 1]);
    }
    line_start = false;
  }
}

/* pass 2 reaches definition line `at`: the symbol it defines, which must
 * have been created for this very line */
static KitCgSym claim_sym(P *p, size_t at, const char *kw, KitCgSymKind want) {
  const KitCgTok *st = cur(p);
  if (st->kind != KIT_CG_TK_SYM) perr(p, "expected a symbol @name after '%s'", kw);
  const char *name = symtok_name(p, st);
  KitCgSym s = kit_cg_sym_find(p->m, name);
  if (s == UINT32_MAX) {
    /* pass 1 did not see this line as top level (unbalanced braces before it) */
    if (!define_sym(p, at, kw, st)) perr(p, "redefinition of @%s", name);
    s = kit_cg_sym_find(p->m, symtok_name(p, st));
  }
  if (s >= p->symdef_cap || p->symdef[s] != at + 1 || p->m->syms[s].kind != want)
    perr(p, "redefinition of @%s", symtok_name(p, st));
  p->i++;
  return s;
}

/* ---- top-level lines --------------------------------------------------------- */

static void parse_tydesc(P *p) {
  size_t at = p->i;
  uint32_t n = get_u32(p);
  if (n != p->m->ntydescs) perr_at(p, at, "tydesc %u out of order (expected %u)", n, p->m->ntydescs);
  KitCgTyDesc d = {0};
  d.name = expect_str(p);
  int k = word_index(p, kit_cg_text_tdkind, 4);
  if (k < 0) perr(p, "expected a tydesc kind (int float ptr other)");
  p->i++;
  d.kind = (uint8_t)k;
  if (accept_word(p, "signed")) d.is_signed = 1;
  else expect_word(p, "unsigned");
  d.bits = (uint16_t)get_int(p, 0, UINT16_MAX);
  for (;;) {
    if (accept_word(p, "align")) d.align = get_u32(p);
    else if (accept_word(p, "pointee")) d.pointee = get_u32(p);
    else break;
  }
  expect_eol(p);
  GROW(p->m, p->m->tydescs, p->m->tydescs_cap, p->m->ntydescs + 1);
  p->m->tydescs[p->m->ntydescs++] = d;
}

/* `["name"] [type T] [off BITS] [bits W] [val V]`, fields in any order */
static void parse_dimember(P *p, KitCgDiMember *mb) {
  bool any = false;
  for (;; any = true) {
    if (kind(p) == KIT_CG_TK_STR && !mb->name) mb->name = expect_str(p);
    else if (accept_word(p, "type")) mb->type = get_u32(p);
    else if (accept_word(p, "off")) mb->offset_bits = get_u64(p);
    else if (accept_word(p, "bits")) mb->bit_size = get_u32(p);
    else if (accept_word(p, "val")) mb->value = get_i64(p);
    else break;
  }
  if (!any) perr(p, "expected a member (\"name\" type off bits val), found %s", tokdesc(cur(p)));
}

static void parse_ditype(P *p) {
  size_t at = p->i;
  uint32_t n = get_u32(p);
  uint32_t want = p->m->nditypes ? p->m->nditypes : 1;
  if (n != want) perr_at(p, at, "ditype %u out of order (expected %u)", n, want);
  if (n >= KIT_CG_TEXT_MAX_VAL) perr_at(p, at, "too many ditypes");
  KitCgDiType d = {0};
  int k = word_index(p, kit_cg_text_dikind, KIT_CG_DI_NKINDS);
  if (k < 0) perr(p, "expected a ditype kind (base pointer typedef struct union array enum func const volatile)");
  p->i++;
  d.kind = (uint8_t)k;
  KitCgDiMember *mem = NULL;
  uint32_t nmem = 0, cap = 0;
  for (;;) {
    if (kind(p) == KIT_CG_TK_STR && !d.name) d.name = expect_str(p);
    else if (accept_word(p, "of")) d.base = get_u32(p);
    else if (accept_word(p, "size")) d.size = get_u64(p);
    else if (accept_word(p, "align")) d.align = get_u32(p);
    else if (accept_word(p, "count")) d.count = get_i64(p);
    else if (accept_word(p, "decl")) d.flags |= KIT_CG_DIF_DECL;
    else if (accept_word(p, "variadic")) d.flags |= KIT_CG_DIF_VARIADIC;
    else if (accept_word(p, "enc")) {
      if (kind(p) == KIT_CG_TK_INT) {
        d.encoding = (uint8_t)get_int(p, 0, 255);
        continue;
      }
      size_t e = 0;
      while (e < KIT_CG_TEXT_NATE && !is_word(p, kit_cg_text_ate[e].name)) e++;
      if (e == KIT_CG_TEXT_NATE) perr(p, "expected an encoding (boolean float signed signed_char unsigned ...)");
      p->i++;
      d.encoding = (uint8_t)kit_cg_text_ate[e].bit;
    } else if (parse_loc(p, &d.loc)) continue;
    else if (accept_punct(p, '{')) {
      /* members go to the module arena: nothing to free on a parse error */
      while (!accept_punct(p, '}')) {
        if (nmem && !accept_punct(p, ',')) perr(p, "expected ',' or '}' in a member list, found %s", tokdesc(cur(p)));
        if (nmem >= KIT_CG_TEXT_MAX_VAL) perr(p, "too many members");
        GROW(p->m, mem, cap, nmem + 1);
        mem[nmem] = (KitCgDiMember){0};
        parse_dimember(p, &mem[nmem++]);
      }
    } else break;
  }
  expect_eol(p);
  kit_cg_ditype_new(p->m, &d, mem, nmem);
}

/* `dvar "name" type T $obj|%val [off N] [deref] [arg N] [!loc ...]` */
static void parse_dvar(P *p) {
  KitCgDiVar v = {0};
  v.name = expect_str(p);
  expect_word(p, "type");
  v.type = get_u32(p);
  if (kind(p) == KIT_CG_TK_VAL) {
    v.at = KIT_CG_DV_VALUE;
    v.where = get_val(p);
  } else {
    v.where = get_stk(p);
  }
  for (;;) {
    if (accept_word(p, "off")) v.offset = get_u64(p);
    else if (accept_word(p, "deref")) v.deref = 1;
    else if (accept_word(p, "arg")) v.arg = get_u32(p);
    else if (parse_loc(p, &v.loc)) continue;
    else break;
  }
  expect_eol(p);
  kit_cg_divar_add(p->m, p->f, &v);
}

/* `!di N` (a ditype) */
static bool parse_di(P *p, uint32_t *di) {
  if (!is_mod(p, "di")) return false;
  p->i++;
  *di = get_u32(p);
  return true;
}

static bool parse_symattr(P *p, KitCgSymbol *sy) {
  int k = word_index(p, kit_cg_text_linkage, 4);
  if (k >= 0) {
    sy->linkage = (uint8_t)k;
    p->i++;
    return true;
  }
  k = word_index(p, kit_cg_text_vis, 3);
  if (k >= 0) {
    sy->visibility = (uint8_t)k;
    p->i++;
    return true;
  }
  if (accept_word(p, "asm")) {
    sy->asm_name = expect_str(p);
    return true;
  }
  return false;
}

static void parse_global(P *p, bool defined) {
  size_t at = p->i - 1;
  KitCgSym s = claim_sym(p, at, defined ? "global" : "extern", KIT_CG_SYM_GLOBAL);
  KitCgGlobal *g = kit_cg_global_of(p->m, s);
  KitCgSymbol *sy = &p->m->syms[s];
  sy->defined = defined;
  size_t blob = 0, nrel = 0, first_rel = 0;
  for (;;) {
    if (accept_word(p, "size")) g->size = get_u64(p);
    else if (accept_word(p, "align")) g->align = get_u32(p);
    else if (accept_word(p, "const")) g->is_const = true;
    else if (accept_word(p, "tls")) g->is_tls = true;
    else if (accept_word(p, "noredzone")) g->no_redzone = true;
    else if (accept_word(p, "used")) g->used = true;
    else if (accept_word(p, "section")) g->section = expect_str(p);
    else if (parse_symattr(p, sy)) continue;
    else if (is_mod(p, "ty")) g->tydesc = parse_ty(p);
    else if (parse_di(p, &g->ditype)) continue;
    else if (is_mod(p, "diname")) {
      p->i++;
      g->diname = expect_str(p);
    } else if (parse_loc(p, &g->loc)) continue;
    else if (accept_punct(p, '=')) {
      if (kind(p) != KIT_CG_TK_BLOB) perr(p, "expected an initializer x\"...\"");
      blob = p->i++ + 1;
    } else if (is_word(p, "reloc")) {
      if (!nrel) first_rel = p->i;
      nrel++;
      p->i++;
      get_u64(p);
      get_sym(p);
      get_i64(p);
      get_int(p, 0, 255);
      if (is_blk(p)) {
        get_blk(p);
        if (accept_word(p, "minus")) get_blk(p);
      }
    } else break;
  }
  expect_eol(p);
  size_t end = p->i;
  if ((blob || nrel) && g->size > KIT_CG_TEXT_MAX_INIT)
    perr_at(p, at, "initialized global larger than %llu bytes", (unsigned long long)KIT_CG_TEXT_MAX_INIT);
  if (blob) {
    const KitCgTok *bt = &p->t[blob - 1];
    if (bt->len / 2 > g->size) perr_at(p, blob - 1, "initializer longer than the global's size");
    g->init = kit_cg_alloc(p->m, g->size ? g->size : 1);
    for (size_t k = 0; k < bt->len / 2; k++)
      g->init[k] = (uint8_t)(hexv((unsigned char)p->src[bt->pos + 2 * k]) * 16 +
                             hexv((unsigned char)p->src[bt->pos + 2 * k + 1]));
  }
  /* relocs were checked above; now record them in order */
  p->i = first_rel;
  for (size_t r = 0; r < nrel; r++) {
    while (!is_word(p, "reloc")) p->i++;
    p->i++;
    uint64_t off = get_u64(p);
    KitCgSym rs = get_sym(p);
    int64_t add = get_i64(p);
    unsigned sz = (unsigned)get_int(p, 0, 255);
    KitCgBlkId rb = 0, rb2 = 0;
    if (is_blk(p)) {
      size_t bt = p->i;
      rb = get_blk(p);
      if (accept_word(p, "minus")) rb2 = get_blk(p);
      if (!rb) perr_at(p, bt, "the entry block b0 has no address");
    }
    kit_cg_global_add_blockaddr(p->m, g, off, rs, rb, rb2, add, sz);
  }
  p->i = end;
}

static void parse_alias(P *p) {
  size_t at = p->i - 1;
  KitCgSym s = claim_sym(p, at, "alias", KIT_CG_SYM_ALIAS);
  expect_punct(p, '=');
  KitCgSym target = get_sym(p);
  KitCgSymbol *sy = &p->m->syms[s];
  sy->index = target;
  while (parse_symattr(p, sy)) {
  }
  expect_eol(p);
}

static void parse_ctor(P *p, bool dtor) {
  KitCgSym s = get_sym(p);
  int32_t prio = (int32_t)get_int(p, INT32_MIN, INT32_MAX);
  expect_eol(p);
  if (dtor) kit_cg_add_dtor(p->m, s, prio);
  else kit_cg_add_ctor(p->m, s, prio);
}

/* one ABI attribute of a parameter or call argument, if the next word is one */
static bool parse_pattr(P *p, KitCgParam *pa) {
  if (accept_word(p, "zeroext")) pa->attrs |= KIT_CG_PA_ZEXT;
  else if (accept_word(p, "signext")) pa->attrs |= KIT_CG_PA_SEXT;
  else if (accept_word(p, "sret")) pa->attrs |= KIT_CG_PA_SRET;
  else if (accept_word(p, "byval")) {
    pa->attrs |= KIT_CG_PA_BYVAL;
    expect_punct(p, '(');
    pa->byval_size = get_u32(p);
    expect_punct(p, ',');
    pa->byval_align = get_u32(p);
    expect_punct(p, ')');
  } else return false;
  return true;
}

/* parameter list, return type and attributes of declare/func */
static void parse_signature(P *p, KitCgFunc *f) {
  KitCgModule *m = p->m;
  expect_punct(p, '(');
  uint32_t n = 0, cap = 0;
  KitCgParam *ps = NULL;
  while (!is_punct(p, ')')) {
    if (n || f->variadic) expect_punct(p, ',');
    if (f->variadic) perr(p, "'...' must end the parameter list");
    if (accept_punct(p, '.')) {
      f->variadic = true;
      continue;
    }
    if (n >= KIT_CG_TEXT_MAX_VAL - 1) perr(p, "too many parameters");
    GROW(m, ps, cap, n + 1);
    KitCgParam *pa = &ps[n++];
    memset(pa, 0, sizeof *pa);
    pa->type = (uint8_t)get_type(p, false);
    for (;;) {
      if (parse_pattr(p, pa)) continue;
      else if (kind(p) == KIT_CG_TK_STR) pa->name = expect_str(p);
      else break;
    }
  }
  p->i++;
  f->nparams = n;
  f->params = ps ? ps : kit_cg_alloc(m, sizeof(KitCgParam));
  GROW(m, f->vtype, f->vals_cap, n + 1);
  f->nvals = n + 1;
  for (uint32_t k = 0; k < n; k++) f->vtype[k + 1] = ps[k].type;
  expect_punct(p, '>');
  get_rettype(p, &f->ret[0], &f->ret[1]);
  KitCgSymbol *sy = &m->syms[f->sym];
  for (;;) {
    if (accept_word(p, "zeroext")) f->ret_attrs |= KIT_CG_PA_ZEXT;
    else if (accept_word(p, "signext")) f->ret_attrs |= KIT_CG_PA_SEXT;
    else if (parse_symattr(p, sy)) continue;
    else if (parse_di(p, &f->ditype)) continue;
    else if (parse_loc(p, &f->loc)) continue;
    else {
      bool hit = false;
      for (size_t k = 0; k < KIT_CG_TEXT_NFATTRS && !hit; k++)
        if (accept_word(p, kit_cg_text_fattrs[k].name)) {
          f->attrs |= kit_cg_text_fattrs[k].bit;
          hit = true;
        }
      if (!hit) break;
    }
  }
}

/* ---- function bodies ------------------------------------------------------------ */

static void claim_type(P *p, KitCgVal v, KitCgType t, size_t tok) {
  p->claims = xgrow(p, p->claims, &p->claims_cap, p->nclaims + 1, sizeof *p->claims);
  p->claims[p->nclaims++] = (TypeClaim){v, (uint8_t)t, tok};
}

static void push_arg(P *p, uint32_t *n, KitCgVal v) {
  if (*n >= KIT_CG_TEXT_MAX_VAL) perr(p, "too many operands");
  p->args = xgrow(p, p->args, &p->args_cap, (size_t)*n + 1, sizeof *p->args);
  p->args[(*n)++] = v;
}

static void push_blk(P *p, uint32_t *n, KitCgBlkId b) {
  if (*n >= KIT_CG_TEXT_MAX_VAL) perr(p, "too many successors");
  p->blks = xgrow(p, p->blks, &p->blks_cap, (size_t)*n + 1, sizeof *p->blks);
  p->blks[(*n)++] = b;
}

/* exactly n comma-separated values, appended to p->args */
static void parse_vals(P *p, uint32_t *nargs, int n) {
  for (int k = 0; k < n; k++) {
    if (k) expect_punct(p, ',');
    push_arg(p, nargs, get_val(p));
  }
}

/* call arguments: ( %a, %b, ..., %c ); returns the fixed count or -1 */
static int64_t parse_callargs(P *p, uint32_t *nargs) {
  uint32_t base = *nargs;
  int64_t fixed = -1;
  expect_punct(p, '(');
  bool first = true;
  while (!is_punct(p, ')')) {
    if (!first) expect_punct(p, ',');
    first = false;
    if (accept_punct(p, '.')) {
      if (fixed >= 0) perr(p, "'...' appears twice");
      fixed = *nargs - base;
      continue;
    }
    push_arg(p, nargs, get_val(p));
    size_t k = *nargs - base - 1;
    p->aattrs = xgrow(p, p->aattrs, &p->aattrs_cap, k + 1, sizeof *p->aattrs);
    memset(&p->aattrs[k], 0, sizeof *p->aattrs);
    while (parse_pattr(p, &p->aattrs[k])) p->any_aattrs = true;
  }
  p->i++;
  return fixed;
}

static int get_order(P *p) {
  static const char *const names[] = {"relaxed", "acquire", "release", "acq_rel", "seq_cst"};
  int k = word_index(p, names, 5);
  if (k < 0) perr(p, "expected an atomic ordering (relaxed acquire release acq_rel seq_cst)");
  p->i++;
  return k;
}

static int find_op(P *p) {
  const KitCgTok *t = cur(p);
  if (t->kind != KIT_CG_TK_IDENT) perr(p, "expected an instruction, found %s", tokdesc(t));
  for (int k = 0; k < KIT_CG_NOPS; k++) {
    const char *n = kit_cg_op_info[k].name;
    if (strlen(n) == t->len && !memcmp(n, p->src + t->pos, t->len)) return k;
  }
  perr(p, "unknown instruction '%.*s'", (int)(t->len > 32 ? 32 : t->len), p->src + t->pos);
}

static uint64_t mask_to(P *p, size_t at, Num n, KitCgType t) {
  unsigned bits = kit_cg_type_bits(t);
  if (n.hi) perr_at(p, at, "constant does not fit %s", kit_cg_type_name(t));
  uint64_t v = n.neg ? (uint64_t)0 - n.lo : n.lo;
  if (bits < 64) {
    uint64_t lim = 1ull << bits;
    /* accept the signed and the unsigned range of the width */
    if (n.neg ? n.lo > lim / 2 : n.lo >= lim) perr_at(p, at, "constant does not fit %s", kit_cg_type_name(t));
    v &= lim - 1;
  } else if (n.neg && n.lo > (1ull << 63)) {
    perr_at(p, at, "constant does not fit %s", kit_cg_type_name(t));
  }
  return v;
}

static void parse_const(P *p, KitCgType t, uint64_t *imm, uint64_t *imm2) {
  size_t at = p->i;
  if (t == KIT_CG_VOID) perr(p, "constant of type void");
  if (kit_cg_type_is_float(t) && (kind(p) == KIT_CG_TK_FLOAT || (kind(p) == KIT_CG_TK_INT &&
                                                                   !memchr(p->src + cur(p)->pos, 'x', cur(p)->len)))) {
    /* a decimal literal is the value; a hex one is the raw bits */
    char tmp[128];
    size_t n = cur(p)->len < sizeof tmp - 1 ? cur(p)->len : sizeof tmp - 1;
    memcpy(tmp, p->src + cur(p)->pos, n);
    tmp[n] = 0;
    p->i++;
    if (t == KIT_CG_F32) {
      float f = strtof(tmp, NULL);
      uint32_t u;
      memcpy(&u, &f, 4);
      *imm = u;
    } else if (t == KIT_CG_F64) {
      double d = strtod(tmp, NULL);
      memcpy(imm, &d, 8);
    } else {
      long double ld = strtold(tmp, NULL);
      unsigned char b[16] = {0};
      memcpy(b, &ld, 10);
      memcpy(imm, b, 8);
      memcpy(imm2, b + 8, 8);
      *imm2 &= 0xffff;
    }
    return;
  }
  if (kind(p) != KIT_CG_TK_INT) perr(p, "expected a constant, found %s", tokdesc(cur(p)));
  Num n = tok_num(p);
  if (t == KIT_CG_I128) {
    if (n.neg) {
      /* two's complement negation over 128 bits */
      n.lo = ~n.lo + 1;
      n.hi = ~n.hi + (n.lo == 0);
    }
    *imm = n.lo;
    *imm2 = n.hi;
  } else if (t == KIT_CG_F80) {
    if (n.neg || n.hi > 0xffff) perr_at(p, at, "f80 bits need at most 20 hex digits");
    *imm = n.lo;
    *imm2 = n.hi;
  } else if (kit_cg_type_is_float(t)) {
    if (n.neg || n.hi || (t == KIT_CG_F32 && n.lo > UINT32_MAX)) perr_at(p, at, "constant does not fit %s",
                                                                        kit_cg_type_name(t));
    *imm = n.lo;
  } else if (t == KIT_CG_PTR) {
    *imm = mask_to(p, at, n, KIT_CG_I64);
  } else {
    *imm = mask_to(p, at, n, t);
  }
}

static void def_val(P *p, KitCgVal id, KitCgType t, size_t tok) {
  KitCgFunc *f = p->f;
  if (id <= f->nparams) perr_at(p, tok, "value %%%u is a parameter", id);
  if (id < f->nvals && f->vtype[id] != KIT_CG_VOID) perr_at(p, tok, "value %%%u defined twice", id);
  if (id >= f->nvals) {
    GROW(p->m, f->vtype, f->vals_cap, id + 1);
    memset(f->vtype + f->nvals, 0, id + 1 - f->nvals);
    f->nvals = id + 1;
  }
  f->vtype[id] = (uint8_t)t;
}

static bool is_memop(int op) { return kit_cg_op_info[op].flags & KIT_CGO_MEM; }

/* gives a call its own argument attributes (from the text, or all empty);
 * their types are filled in once the function's values are known */
static void set_argattrs(P *p, KitCgInst *in, bool from_text) {
  uint32_t first = in->op == KIT_CG_OP_CALLI, n = in->nargs > first ? in->nargs - first : 0;
  in->argattrs = kit_cg_alloc(p->m, (n + 1) * sizeof(KitCgParam));
  if (from_text && n) memcpy(in->argattrs, p->aattrs, n * sizeof(KitCgParam));
}

/* modifiers after the operands, up to the end of the line */
static void parse_trailer(P *p, KitCgInst *in) {
  for (;;) {
    if (is_memop(in->op) && accept_word(p, "align")) in->imm = get_u64(p);
    else if (is_memop(in->op) && accept_word(p, "volatile")) in->flags |= KIT_CG_F_VOLATILE;
    else if (is_memop(in->op) && accept_word(p, "internal")) in->cls = KIT_CG_INTERNAL;
    else if (in->op == KIT_CG_OP_PTRADD && accept_word(p, "bounds")) {
      in->flags |= KIT_CG_F_BOUNDS;
      in->bound = get_i64(p);
    } else if (is_mod(p, "ty")) in->tydesc = parse_ty(p);
    else if (parse_loc(p, &in->loc)) continue;
    else if ((in->op == KIT_CG_OP_CALL || in->op == KIT_CG_OP_CALLI) && is_mod(p, "argattrs")) {
      p->i++;
      if (!in->argattrs) set_argattrs(p, in, false);
    } else if (kind(p) == KIT_CG_TK_MOD) {
      bool hit = false;
      for (size_t k = 0; k < KIT_CG_TEXT_NFLAGS && !hit; k++)
        if (is_mod(p, kit_cg_text_flags[k].name)) {
          in->flags |= (uint16_t)kit_cg_text_flags[k].bit;
          hit = true;
        }
      if (!hit) perr(p, "unknown modifier '!%.*s'", (int)(cur(p)->len > 32 ? 32 : cur(p)->len), p->src + cur(p)->pos);
      p->i++;
    } else break;
  }
  expect_eol(p);
}

/* asm [volatile] "template", "constraints"(%a, %p -> T, ...) and, for
 * asm.goto, the fallthrough block and the label list [bL, ...] */
static void parse_asm(P *p, int op, uint32_t *nargs, uint32_t *nblks, uint32_t *aux, uint64_t *imm, uint16_t *flags) {
  if (accept_word(p, "volatile")) *flags |= KIT_CG_F_VOLATILE;
  *aux = expect_str(p);
  expect_punct(p, ',');
  *imm = expect_str(p);
  expect_punct(p, '(');
  while (!is_punct(p, ')')) {
    if (*nargs) expect_punct(p, ',');
    push_arg(p, nargs, get_val(p));
    p->aattrs = xgrow(p, p->aattrs, &p->aattrs_cap, *nargs, sizeof *p->aattrs);
    memset(&p->aattrs[*nargs - 1], 0, sizeof *p->aattrs);
    if (accept_punct(p, '>')) p->aattrs[*nargs - 1].type = (uint8_t)get_type(p, false);
  }
  p->i++;
  if (op != KIT_CG_OP_ASMGOTO) return;
  push_blk(p, nblks, get_blk(p));
  expect_punct(p, '[');
  while (!is_punct(p, ']')) {
    if (*nblks > 1) expect_punct(p, ',');
    push_blk(p, nblks, get_blk(p));
  }
  p->i++;
}

static void parse_inst(P *p, KitCgBlkId b) {
  size_t start = p->i;
  KitCgVal id = 0;
  if (kind(p) == KIT_CG_TK_VAL) {
    id = get_val(p);
    expect_punct(p, '=');
  }
  bool tail = accept_word(p, "tail");
  size_t optok = p->i;
  int op = find_op(p);
  p->i++;
  if (tail && op != KIT_CG_OP_CALL && op != KIT_CG_OP_CALLI) perr_at(p, optok, "'tail' only applies to calls");
  const KitCgOpInfo *oi = &kit_cg_op_info[op];
  uint8_t type = KIT_CG_VOID, type2 = KIT_CG_VOID, pred = 0;
  uint32_t nargs = 0, nblks = 0, aux = 0;
  uint64_t imm = 0, imm2 = 0;
  uint16_t flags = tail ? KIT_CG_F_TAIL : 0;
  size_t ncases = 0;
  switch (op) {
  case KIT_CG_OP_CONST:
    type = (uint8_t)get_type(p, false);
    parse_const(p, (KitCgType)type, &imm, &imm2);
    break;
  case KIT_CG_OP_SYMADDR:
    type = KIT_CG_PTR;
    aux = get_sym(p);
    if (accept_punct(p, ',')) imm = (uint64_t)get_i64(p);
    break;
  case KIT_CG_OP_STACKADDR: type = KIT_CG_PTR; /* fallthrough */
  case KIT_CG_OP_LIFETIME_START:
  case KIT_CG_OP_LIFETIME_END: aux = get_stk(p); break;
  case KIT_CG_OP_PARAM:
    type = (uint8_t)get_type(p, false);
    aux = get_u32(p);
    break;
  case KIT_CG_OP_ICMP:
  case KIT_CG_OP_FCMP: {
    int lo = op == KIT_CG_OP_ICMP ? KIT_CG_EQ : KIT_CG_FOEQ, hi = op == KIT_CG_OP_ICMP ? KIT_CG_UGE : KIT_CG_FUNO;
    int k = -1;
    for (int q = lo; q <= hi && k < 0; q++)
      if (is_word(p, kit_cg_pred_name((KitCgPred)q))) k = q;
    if (k < 0) perr(p, "expected a %s predicate", oi->name);
    p->i++;
    pred = (uint8_t)k;
    size_t tt = p->i;
    KitCgType ot = get_type(p, true); /* void: the printer's word for an undefined operand */
    parse_vals(p, &nargs, 2);
    claim_type(p, p->args[0], ot, tt);
    claim_type(p, p->args[1], ot, tt);
    type = kit_cg_type_is_vec(ot) ? kit_cg_vec_int(ot) : KIT_CG_I1;
    break;
  }
  case KIT_CG_OP_SADDO: case KIT_CG_OP_UADDO: case KIT_CG_OP_SSUBO:
  case KIT_CG_OP_USUBO: case KIT_CG_OP_SMULO: case KIT_CG_OP_UMULO: {
    size_t tt = p->i;
    KitCgType ot = get_type(p, true); /* void: the printer's word for an undefined operand */
    parse_vals(p, &nargs, 2);
    claim_type(p, p->args[0], ot, tt);
    type = KIT_CG_I1;
    break;
  }
  case KIT_CG_OP_STORE:
  case KIT_CG_OP_ASTORE: {
    size_t tt = p->i;
    KitCgType ot = get_type(p, true); /* void: the printer's word for an undefined operand */
    parse_vals(p, &nargs, 2);
    claim_type(p, p->args[0], ot, tt);
    if (op == KIT_CG_OP_ASTORE) pred = (uint8_t)get_order(p);
    break;
  }
  case KIT_CG_OP_ALOAD:
  case KIT_CG_OP_ACMPXCHG:
    type = (uint8_t)get_type(p, false);
    parse_vals(p, &nargs, oi->nargs);
    pred = (uint8_t)get_order(p);
    break;
  case KIT_CG_OP_ARMW: {
    static const char *const names[] = {"xchg", "add", "sub", "and", "or", "xor",
                                        "nand", "smax", "smin", "umax", "umin"};
    int k = word_index(p, names, 11);
    if (k < 0) perr(p, "expected an atomic.rmw operation (xchg add sub and or xor nand smax smin umax umin)");
    p->i++;
    aux = (uint32_t)k;
    type = (uint8_t)get_type(p, false);
    parse_vals(p, &nargs, 2);
    pred = (uint8_t)get_order(p);
    break;
  }
  case KIT_CG_OP_FENCE: pred = (uint8_t)get_order(p); break;
  case KIT_CG_OP_PTRADD: type = KIT_CG_PTR; /* fallthrough */
  case KIT_CG_OP_MEMCPY:
  case KIT_CG_OP_MEMMOVE:
  case KIT_CG_OP_MEMSET:
  case KIT_CG_OP_VASTART:
  case KIT_CG_OP_VAEND:
  case KIT_CG_OP_VACOPY:
  case KIT_CG_OP_STACKRESTORE: parse_vals(p, &nargs, oi->nargs); break;
  case KIT_CG_OP_ALLOCA:
    type = KIT_CG_PTR;
    parse_vals(p, &nargs, 1);
    if (accept_word(p, "align")) imm = get_u64(p);
    break;
  case KIT_CG_OP_STACKSAVE: type = KIT_CG_PTR; break;
  case KIT_CG_OP_FRAMEADDR:
  case KIT_CG_OP_RETADDR:
    type = KIT_CG_PTR;
    if (accept_word(p, "level")) imm = get_u64(p);
    break;
  case KIT_CG_OP_CALL:
  case KIT_CG_OP_CALLI: {
    get_rettype(p, &type, &type2);
    if (op == KIT_CG_OP_CALL) aux = get_sym(p);
    else push_arg(p, &nargs, get_val(p));
    p->any_aattrs = false;
    int64_t fixed = parse_callargs(p, &nargs);
    if (fixed >= 0) {
      flags |= KIT_CG_F_VARARGS;
      imm = (uint64_t)fixed;
    }
    break;
  }
  case KIT_CG_OP_PHI:
    type = (uint8_t)get_type(p, false);
    if (kind(p) == KIT_CG_TK_PUNCT && cur(p)->punct == '[') {
      do {
        expect_punct(p, '[');
        push_arg(p, &nargs, get_val(p));
        expect_punct(p, ',');
        push_blk(p, &nblks, get_blk(p));
        expect_punct(p, ']');
      } while (accept_punct(p, ','));
    }
    break;
  case KIT_CG_OP_BR: push_blk(p, &nblks, get_blk(p)); break;
  case KIT_CG_OP_CONDBR:
    parse_vals(p, &nargs, 1);
    expect_punct(p, ',');
    push_blk(p, &nblks, get_blk(p));
    expect_punct(p, ',');
    push_blk(p, &nblks, get_blk(p));
    break;
  case KIT_CG_OP_SWITCH: {
    size_t tt = p->i;
    KitCgType ot = get_type(p, true); /* void: the printer's word for an undefined operand */
    parse_vals(p, &nargs, 1);
    claim_type(p, p->args[0], ot, tt);
    expect_punct(p, ',');
    push_blk(p, &nblks, get_blk(p));
    if (accept_punct(p, '[')) {
      while (!is_punct(p, ']')) {
        if (ncases) expect_punct(p, ',');
        p->cases = xgrow(p, p->cases, &p->cases_cap, ncases + 1, sizeof *p->cases);
        p->cases[ncases++] = get_i64(p);
        expect_punct(p, ':');
        push_blk(p, &nblks, get_blk(p));
      }
      p->i++;
    }
    break;
  }
  case KIT_CG_OP_RET:
    if (kind(p) == KIT_CG_TK_VAL) {
      do push_arg(p, &nargs, get_val(p));
      while (accept_punct(p, ','));
    }
    break;
  case KIT_CG_OP_BLOCKADDR:
    type = KIT_CG_PTR;
    push_blk(p, &nblks, get_blk(p));
    break;
  case KIT_CG_OP_INDIRECTBR:
    parse_vals(p, &nargs, 1);
    expect_punct(p, '[');
    while (!is_punct(p, ']')) {
      if (nblks) expect_punct(p, ',');
      push_blk(p, &nblks, get_blk(p));
    }
    p->i++;
    break;
  case KIT_CG_OP_SHUFFLE:
    type = (uint8_t)get_type(p, false);
    parse_vals(p, &nargs, 2);
    expect_punct(p, '[');
    while (!is_punct(p, ']')) {
      if (ncases) expect_punct(p, ',');
      p->cases = xgrow(p, p->cases, &p->cases_cap, ncases + 1, sizeof *p->cases);
      p->cases[ncases++] = get_i64(p);
    }
    p->i++;
    if (ncases != kit_cg_type_lanes((KitCgType)type)) perr_at(p, start, "shuffle lists %zu lanes for %s", ncases, kit_cg_type_name((KitCgType)type));
    break;
  case KIT_CG_OP_UNREACHABLE:
  case KIT_CG_OP_TRAP: break;
  case KIT_CG_OP_ASM:
  case KIT_CG_OP_ASMGOTO: parse_asm(p, op, &nargs, &nblks, &aux, &imm, &flags); break;
  default:
    /* arithmetic, conversions, select, load, second, va.arg (and any op
     * without a spelling of its own): the result type, then the operands */
    if (oi->flags & KIT_CGO_RES) type = (uint8_t)get_type(p, false);
    parse_vals(p, &nargs, oi->nargs < 0 ? 0 : oi->nargs);
    break;
  }
  if (type != KIT_CG_VOID && !id) perr_at(p, start, "'%s' produces a value: write %%N = %s ...", oi->name, oi->name);
  if (type == KIT_CG_VOID && id) perr_at(p, start, "'%s' here produces no value", oi->name);
  if (id) def_val(p, id, (KitCgType)type, start);
  KitCgInst *in = kit_cg_insert(p->m, p->f, b, UINT32_MAX, (KitCgOp)op, KIT_CG_VOID, p->args, nargs);
  in->type = type;
  in->type2 = type2;
  in->id = id;
  in->pred = pred;
  in->aux = aux;
  in->imm = imm;
  in->imm2 = imm2;
  in->flags = flags;
  if (nblks) kit_cg_inst_set_blks(p->m, in, p->blks, nblks);
  if (ncases) {
    in->cases = kit_cg_alloc(p->m, ncases * sizeof(int64_t));
    memcpy(in->cases, p->cases, ncases * sizeof(int64_t));
  }
  if ((op == KIT_CG_OP_CALL || op == KIT_CG_OP_CALLI) && p->any_aattrs) set_argattrs(p, in, true);
  if (op == KIT_CG_OP_ASM || op == KIT_CG_OP_ASMGOTO) set_argattrs(p, in, true);
  parse_trailer(p, in);
}

static void parse_stack(P *p) {
  KitCgFunc *f = p->f;
  size_t at = p->i;
  uint32_t n = get_stk(p);
  if (n != f->nstack) perr_at(p, at, "stack object $%u out of order (expected $%u)", n, f->nstack);
  if (n >= KIT_CG_TEXT_MAX_VAL) perr_at(p, at, "too many stack objects");
  kit_cg_stack_new(p->m, f, 0, 1, 0);
  KitCgStackObj *s = &f->stack[n];
  for (;;) {
    if (accept_word(p, "size")) s->size = get_u64(p);
    else if (accept_word(p, "align")) s->align = get_u32(p);
    else if (accept_word(p, "noescape")) s->escapes = 0;
    else if (kind(p) == KIT_CG_TK_STR) s->name = expect_str(p);
    else if (is_mod(p, "ty")) s->tydesc = parse_ty(p);
    else if (parse_loc(p, &s->loc)) continue;
    else break;
  }
  expect_eol(p);
}

static void parse_body(P *p, KitCgFunc *f) {
  p->f = f;
  p->nclaims = 0;
  size_t open = p->i - 1;
  bool in_block = false;
  for (;;) {
    skip_nl(p);
    if (kind(p) == KIT_CG_TK_EOF) perr_at(p, open, "function body not closed with '}'");
    if (accept_punct(p, '}')) {
      expect_eol(p);
      break;
    }
    if (accept_word(p, "stack")) {
      parse_stack(p);
    } else if (accept_word(p, "dvar")) {
      parse_dvar(p);
    } else if (is_blk_label(p)) {
      size_t at = p->i;
      KitCgBlkId n = get_blk(p);
      if (n != f->nblocks) perr_at(p, at, "block label b%u out of order (expected b%u)", n, f->nblocks);
      if (n >= KIT_CG_TEXT_MAX_VAL) perr_at(p, at, "too many blocks");
      p->i++; /* ':' */
      kit_cg_block_new(p->m, f);
      if (kind(p) == KIT_CG_TK_STR) f->blocks[n].name = expect_str(p);
      expect_eol(p);
      in_block = true;
    } else {
      if (!in_block) perr(p, "instruction before the first block label");
      parse_inst(p, f->nblocks - 1);
    }
  }
  if (!f->nblocks) perr_at(p, open, "function body has no blocks");
  for (uint32_t b = 0; b < f->nblocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].ninsts; i++) {
      KitCgInst *in = &f->blocks[b].insts[i];
      if (in->op != KIT_CG_OP_CALL && in->op != KIT_CG_OP_CALLI) continue; /* asm: its own types */
      for (uint32_t k = in->op == KIT_CG_OP_CALLI; in->argattrs && k < in->nargs; k++)
        if (in->args[k] < f->nvals) in->argattrs[k - (in->op == KIT_CG_OP_CALLI)].type = f->vtype[in->args[k]];
    }
  for (size_t k = 0; k < p->nclaims; k++) {
    TypeClaim *c = &p->claims[k];
    if (c->v < f->nvals && f->vtype[c->v] != KIT_CG_VOID && f->vtype[c->v] != c->type)
      perr_at(p, c->tok, "operand %%%u has type %s, not %s", c->v, kit_cg_type_name((KitCgType)f->vtype[c->v]),
              kit_cg_type_name((KitCgType)c->type));
  }
  p->f = NULL;
}
static void parse_func(P *p, bool body) {
  size_t at = p->i - 1;
  KitCgSym s = claim_sym(p, at, body ? "func" : "declare", KIT_CG_SYM_FUNC);
  KitCgFunc *f = kit_cg_func_of(p->m, s);
  parse_signature(p, f);
  if (!body) {
    expect_eol(p);
    return;
  }
  expect_punct(p, '{');
  expect_eol(p);
  parse_body(p, f);
}

static void parse_top(P *p) {
  pass1(p);
  for (;;) {
    skip_nl(p);
    if (kind(p) == KIT_CG_TK_EOF) return;
    if (accept_word(p, "module")) {
      p->m->name = expect_str(p);
      expect_eol(p);
    } else if (accept_word(p, "tydesc")) parse_tydesc(p);
    else if (accept_word(p, "ditype")) parse_ditype(p);
    else if (accept_word(p, "global")) parse_global(p, true);
    else if (accept_word(p, "extern")) parse_global(p, false);
    else if (accept_word(p, "alias")) parse_alias(p);
    else if (accept_word(p, "declare")) parse_func(p, false);
    else if (accept_word(p, "func")) parse_func(p, true);
    else if (accept_word(p, "ctor")) parse_ctor(p, false);
    else if (accept_word(p, "dtor")) parse_ctor(p, true);
    else if (accept_word(p, "asm")) {
      uint32_t s = expect_str(p);
      KIT_CG_GROW(p->m, p->m->asms, p->m->asms_cap, p->m->nasms + 1);
      p->m->asms[p->m->nasms++] = s;
      expect_eol(p);
    } else perr(p, "expected a top-level definition (module asm tydesc ditype global extern alias declare func ctor dtor)");
  }
}

KitCgModule *kit_cg_parse(const char *text, size_t len, const char *name, FILE *err) {
  /* on the heap, not automatic: its fields change between setjmp and longjmp */
  P *volatile p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->src = text ? text : "";
  p->name = name ? name : "<input>";
  p->err = err;
  p->nt = kit_cg_lex(p->src, text ? len : 0, p->name, err, &p->t);
  KitCgModule *volatile m = NULL;
  if (p->nt) {
    m = p->m = kit_cg_module_new(name);
    if (setjmp(p->jb)) {
      kit_cg_module_free(m);
      m = NULL;
    } else {
      parse_top(p);
    }
  }
  free(p->t);
  free(p->buf);
  free(p->symdef);
  free(p->args);
  free(p->blks);
  free(p->cases);
  free(p->claims);
  free(p->aattrs);
  free(p);
  return m;
}
