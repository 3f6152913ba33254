/* cg/lex.c — the lexer of the CG textual form: bytes to tokens with line and
 * column, newlines kept as tokens because an instruction is one line. Any
 * byte sequence either lexes or yields one positioned error. */
#include "lex.h"

#include <stdlib.h>
#include <string.h>

typedef struct Lx {
  const char *s;
  size_t n, i;
  uint32_t line, col;
  const char *name;
  FILE *err;
  KitCgTok *toks;
  size_t ntoks, cap;
  bool failed;
} Lx;

static bool isid0(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool isdig(int c) { return c >= '0' && c <= '9'; }
static bool isid(int c) { return isid0(c) || isdig(c) || c == '.'; }
static bool issymc(int c) { return isid(c) || c == '$'; }
static bool ishex(int c) { return isdig(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

static int peek(const Lx *l, size_t k) { return l->i + k < l->n ? (unsigned char)l->s[l->i + k] : -1; }

static void lerr(Lx *l, uint32_t line, uint32_t col, const char *msg, int c) {
  if (l->failed) return;
  l->failed = true;
  if (!l->err) return;
  fprintf(l->err, "%s:%u:%u: error: %s", l->name, line, col, msg);
  if (c >= 0x20 && c < 0x7f && c != '\'') fprintf(l->err, " '%c'", c);
  else if (c >= 0) fprintf(l->err, " (byte 0x%02x)", c);
  fputc('\n', l->err);
}

static KitCgTok *push(Lx *l, KitCgTokKind k, uint32_t line, uint32_t col, size_t pos, size_t len) {
  if (l->ntoks == l->cap) {
    size_t nc = l->cap ? l->cap * 2 : 256;
    KitCgTok *t = realloc(l->toks, nc * sizeof *t);
    if (!t) {
      lerr(l, line, col, "out of memory", -1);
      return NULL;
    }
    l->toks = t;
    l->cap = nc;
  }
  KitCgTok *t = &l->toks[l->ntoks++];
  memset(t, 0, sizeof *t);
  t->kind = (uint8_t)k;
  t->line = line;
  t->col = col;
  t->pos = pos;
  t->len = len;
  return t;
}

static void adv(Lx *l, size_t k) {
  l->i += k;
  l->col += (uint32_t)k;
}

/* a quoted string starting at the opening quote; checks escapes; leaves l->i
 * after the closing quote; returns false on error */
static bool lex_quoted(Lx *l, size_t *pos, size_t *len) {
  uint32_t line = l->line, col = l->col;
  adv(l, 1);
  *pos = l->i;
  for (;;) {
    int c = peek(l, 0);
    if (c < 0 || c == '\n') {
      lerr(l, line, col, "unterminated string", -1);
      return false;
    }
    if (c == '"') break;
    if (c == 0) {
      lerr(l, l->line, l->col, "NUL byte in string", -1);
      return false;
    }
    if (c == '\\') {
      int e = peek(l, 1);
      if (e == 'x') {
        if (!ishex(peek(l, 2)) || !ishex(peek(l, 3))) {
          lerr(l, l->line, l->col, "\\x needs two hex digits", -1);
          return false;
        }
        if (peek(l, 2) == '0' && peek(l, 3) == '0') {
          lerr(l, l->line, l->col, "NUL byte in string", -1);
          return false;
        }
        adv(l, 4);
        continue;
      }
      if (e != 'n' && e != 't' && e != '\\' && e != '"') {
        lerr(l, l->line, l->col, "unknown escape in string", e);
        return false;
      }
      adv(l, 2);
      continue;
    }
    adv(l, 1);
  }
  *len = l->i - *pos;
  adv(l, 1);
  return true;
}

static bool lex_number(Lx *l) {
  uint32_t col = l->col;
  size_t start = l->i;
  if (peek(l, 0) == '-') adv(l, 1);
  KitCgTokKind k = KIT_CG_TK_INT;
  if (peek(l, 0) == '0' && (peek(l, 1) == 'x' || peek(l, 1) == 'X')) {
    adv(l, 2);
    if (!ishex(peek(l, 0))) {
      lerr(l, l->line, col, "hex number without digits", -1);
      return false;
    }
    while (ishex(peek(l, 0))) adv(l, 1);
  } else {
    while (isdig(peek(l, 0))) adv(l, 1);
    if (peek(l, 0) == '.' || peek(l, 0) == 'e' || peek(l, 0) == 'E') {
      k = KIT_CG_TK_FLOAT;
      if (peek(l, 0) == '.') {
        adv(l, 1);
        while (isdig(peek(l, 0))) adv(l, 1);
      }
      if (peek(l, 0) == 'e' || peek(l, 0) == 'E') {
        adv(l, 1);
        if (peek(l, 0) == '+' || peek(l, 0) == '-') adv(l, 1);
        if (!isdig(peek(l, 0))) {
          lerr(l, l->line, col, "bad exponent in number", -1);
          return false;
        }
        while (isdig(peek(l, 0))) adv(l, 1);
      }
    }
  }
  if (isid(peek(l, 0))) {
    lerr(l, l->line, l->col, "bad character in number", peek(l, 0));
    return false;
  }
  return push(l, k, l->line, col, start, l->i - start) != NULL;
}

/* %N and $N */
static bool lex_ref(Lx *l, KitCgTokKind k) {
  uint32_t col = l->col;
  adv(l, 1);
  size_t start = l->i;
  if (!isdig(peek(l, 0))) {
    lerr(l, l->line, col, k == KIT_CG_TK_VAL ? "expected a number after '%'" : "expected a number after '$'", -1);
    return false;
  }
  uint64_t v = 0;
  while (isdig(peek(l, 0))) {
    unsigned d = (unsigned)(peek(l, 0) - '0');
    v = v > (UINT64_MAX - d) / 10 ? UINT64_MAX : v * 10 + d;
    adv(l, 1);
  }
  if (isid(peek(l, 0))) {
    lerr(l, l->line, l->col, "bad character in number", peek(l, 0));
    return false;
  }
  KitCgTok *t = push(l, k, l->line, col, start, l->i - start);
  if (!t) return false;
  t->num = v;
  return true;
}

static bool lex_one(Lx *l) {
  int c = peek(l, 0);
  uint32_t col = l->col;
  size_t start = l->i;
  if (c == '\n') {
    if (!push(l, KIT_CG_TK_NL, l->line, col, start, 1)) return false;
    l->i++;
    l->line++;
    l->col = 1;
    return true;
  }
  if (c == ' ' || c == '\t' || c == '\r') {
    adv(l, 1);
    return true;
  }
  if (c == ';') {
    while (peek(l, 0) >= 0 && peek(l, 0) != '\n') adv(l, 1);
    return true;
  }
  if (c == 'x' && peek(l, 1) == '"') {
    adv(l, 1);
    size_t pos, len;
    if (!lex_quoted(l, &pos, &len)) return false;
    for (size_t k = 0; k < len; k++)
      if (!ishex((unsigned char)l->s[pos + k])) {
        lerr(l, l->line, col, "blob holds a non-hex character", (unsigned char)l->s[pos + k]);
        return false;
      }
    if (len % 2) {
      lerr(l, l->line, col, "blob has an odd number of hex digits", -1);
      return false;
    }
    return push(l, KIT_CG_TK_BLOB, l->line, col, pos, len) != NULL;
  }
  if (isid0(c)) {
    while (isid(peek(l, 0))) adv(l, 1);
    return push(l, KIT_CG_TK_IDENT, l->line, col, start, l->i - start) != NULL;
  }
  if (isdig(c) || (c == '-' && isdig(peek(l, 1)))) return lex_number(l);
  if (c == '-' && peek(l, 1) == '>') {
    adv(l, 2);
    KitCgTok *t = push(l, KIT_CG_TK_PUNCT, l->line, col, start, 2);
    if (t) t->punct = '>';
    return t != NULL;
  }
  if (c == '.' && peek(l, 1) == '.' && peek(l, 2) == '.') {
    adv(l, 3);
    KitCgTok *t = push(l, KIT_CG_TK_PUNCT, l->line, col, start, 3);
    if (t) t->punct = '.';
    return t != NULL;
  }
  if (c == '%') return lex_ref(l, KIT_CG_TK_VAL);
  if (c == '$') return lex_ref(l, KIT_CG_TK_STK);
  if (c == '"') {
    size_t pos, len;
    if (!lex_quoted(l, &pos, &len)) return false;
    return push(l, KIT_CG_TK_STR, l->line, col, pos, len) != NULL;
  }
  if (c == '@') {
    adv(l, 1);
    if (peek(l, 0) == '"') {
      size_t pos, len;
      if (!lex_quoted(l, &pos, &len)) return false;
      KitCgTok *t = push(l, KIT_CG_TK_SYM, l->line, col, pos, len);
      if (t) t->quoted = true;
      return t != NULL;
    }
    size_t s0 = l->i;
    while (issymc(peek(l, 0))) adv(l, 1);
    if (l->i == s0) {
      lerr(l, l->line, col, "expected a symbol name after '@'", -1);
      return false;
    }
    return push(l, KIT_CG_TK_SYM, l->line, col, s0, l->i - s0) != NULL;
  }
  if (c == '!') {
    adv(l, 1);
    size_t s0 = l->i;
    while (isid(peek(l, 0))) adv(l, 1);
    if (l->i == s0) {
      lerr(l, l->line, col, "expected a modifier name after '!'", -1);
      return false;
    }
    return push(l, KIT_CG_TK_MOD, l->line, col, s0, l->i - s0) != NULL;
  }
  if (c >= 0 && strchr("=,(){}[]:", c) && c != 0) {
    adv(l, 1);
    KitCgTok *t = push(l, KIT_CG_TK_PUNCT, l->line, col, start, 1);
    if (t) t->punct = (char)c;
    return t != NULL;
  }
  lerr(l, l->line, col, "unexpected character", c);
  return false;
}

size_t kit_cg_lex(const char *src, size_t len, const char *name, FILE *err, KitCgTok **out) {
  Lx l = {.s = src ? src : "", .n = src ? len : 0, .line = 1, .col = 1, .name = name, .err = err};
  *out = NULL;
  while (l.i < l.n)
    if (!lex_one(&l)) {
      free(l.toks);
      return 0;
    }
  if (!push(&l, KIT_CG_TK_EOF, l.line, l.col, l.i, 0)) {
    free(l.toks);
    return 0;
  }
  *out = l.toks;
  return l.ntoks;
}
