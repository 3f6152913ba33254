/* frontends/c/lex.c — translation phases 1-3 for kitcc: line splicing, comments,
 * and the split of a source file into pp-tokens (identifiers with UCNs,
 * pp-numbers, literals with prefixes, punctuators and digraphs, header names). */
#include "pp_internal.h"
#include "warn.h"

#include <ctype.h>
#include <stdlib.h>

typedef struct Lexer {
  CPP *pp;
  const char *s;
  size_t len;
  uint32_t *splice;      /* offsets (in the spliced text) where a line was joined */
  size_t nsplice, si;
  uint32_t file;
  uint32_t line;
  size_t line_start;
  bool fixed;            /* lexing a string made by the preprocessor: one position */
  CPos fixed_pos;
  Tok *head, *tail;
  bool bol, space;
  int hdr;               /* header-name recognition: 1 after '#', 2 when '<' starts one, 3 after __has_include */
} Lexer;

/* Longest first, so that the first match is the longest punctuator. */
static const char *const puncts[] = {
  "%:%:", "...", "<<=", ">>=",
  "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=", "/=",
  "%=", "+=", "-=", "&=", "^=", "|=", "##", "<:", ":>", "<%", "%>", "%:",
  "[", "]", "(", ")", "{", "}", ".", "&", "*", "+", "-", "~", "!", "/", "%",
  "<", ">", "^", "|", "?", ":", ";", "=", ",", "#",
};

static const char *digraph_canon(const char *p, size_t n) {
  if (n == 4) return "##";
  if (n != 2) return NULL;
  if (!memcmp(p, "<:", 2)) return "[";
  if (!memcmp(p, ":>", 2)) return "]";
  if (!memcmp(p, "<%", 2)) return "{";
  if (!memcmp(p, "%>", 2)) return "}";
  if (!memcmp(p, "%:", 2)) return "#";
  return NULL;
}

bool pp_is_punct_spelling(const char *s, size_t len) {
  for (size_t i = 0; i < sizeof puncts / sizeof *puncts; i++)
    if (strlen(puncts[i]) == len && !memcmp(puncts[i], s, len)) return true;
  return false;
}

static size_t match_punct(const char *p) {
  for (size_t i = 0; i < sizeof puncts / sizeof *puncts; i++) {
    if (puncts[i][0] != *p) continue; /* most candidates fail here, without a call */
    size_t n = strlen(puncts[i]);
    if (!strncmp(p, puncts[i], n)) return n;
  }
  return 0;
}

/* Phase 1-2: CRLF to LF and backslash-newline removal, remembering where lines were joined. */
static char *splice_lines(CPP *pp, const char *raw, size_t n, size_t *outlen, uint32_t **splice,
                          size_t *nsplice) {
  char *out = malloc(n + 2);
  size_t cap = 16, ns = 0, o = 0;
  uint32_t *sp = malloc(cap * sizeof *sp);
  if (!out || !sp) { fprintf(stderr, "kitcc: out of memory\n"); exit(1); }
  (void)pp;
  for (size_t i = 0; i < n; i++) {
    char c = raw[i];
    if (c == '\\') {
      size_t j = i + 1;
      while (j < n && (raw[j] == ' ' || raw[j] == '\t')) j++;
      size_t nl = 0;
      if (j < n && raw[j] == '\n') nl = 1;
      else if (j + 1 < n && raw[j] == '\r' && raw[j + 1] == '\n') nl = 2;
      if (nl) {
        if (ns == cap) {
          cap *= 2;
          sp = realloc(sp, cap * sizeof *sp);
          if (!sp) { fprintf(stderr, "kitcc: out of memory\n"); exit(1); }
        }
        sp[ns++] = (uint32_t)o;
        i = j + nl - 1;
        continue;
      }
    }
    if (c == '\r' && i + 1 < n && raw[i + 1] == '\n') continue;
    out[o++] = c;
  }
  if (o == 0 || out[o - 1] != '\n') out[o++] = '\n';
  out[o] = 0;
  *outlen = o;
  *splice = sp;
  *nsplice = ns;
  return out;
}

static CPos pos_at(Lexer *lx, size_t off) {
  if (lx->fixed) return lx->fixed_pos;
  while (lx->si < lx->nsplice && lx->splice[lx->si] <= off) {
    lx->line++;
    lx->line_start = lx->splice[lx->si++];
  }
  return (CPos){lx->file, lx->line, (uint32_t)(off - lx->line_start + 1)};
}

static void newline_at(Lexer *lx, size_t off) {
  pos_at(lx, off);
  lx->line++;
  lx->line_start = off + 1;
}

/* A UCN (\uXXXX or \UXXXXXXXX) at p: its length, or 0. */
static size_t ucn_len(const char *p) {
  if (p[0] != '\\' || (p[1] != 'u' && p[1] != 'U')) return 0;
  size_t n = p[1] == 'u' ? 4 : 8;
  for (size_t i = 0; i < n; i++)
    if (!isxdigit((unsigned char)p[2 + i])) return 0;
  return n + 2;
}

static unsigned hexval(const char *p, size_t n) {
  unsigned v = 0;
  for (size_t i = 0; i < n; i++)
    v = v * 16 + (unsigned)(isdigit((unsigned char)p[i]) ? p[i] - '0' : (p[i] | 32) - 'a' + 10);
  return v;
}

/* \u00e9 and é name the same identifier (C11 6.4.2.1), so identifiers keep UTF-8 only. */
static char *ident_utf8(CPP *pp, const char *s, size_t n) {
  char *out = pp_alloc(pp, n + 1), *o = out;
  for (size_t i = 0; i < n;) {
    size_t u = s[i] == '\\' ? ucn_len(s + i) : 0;
    if (!u) {
      *o++ = s[i++];
      continue;
    }
    unsigned c = hexval(s + i + 2, u - 2);
    i += u;
    if (c < 0x80) {
      *o++ = (char)c;
    } else if (c < 0x800) {
      *o++ = (char)(0xc0 | c >> 6);
      *o++ = (char)(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
      *o++ = (char)(0xe0 | c >> 12);
      *o++ = (char)(0x80 | ((c >> 6) & 0x3f));
      *o++ = (char)(0x80 | (c & 0x3f));
    } else {
      *o++ = (char)(0xf0 | ((c >> 18) & 7));
      *o++ = (char)(0x80 | ((c >> 12) & 0x3f));
      *o++ = (char)(0x80 | ((c >> 6) & 0x3f));
      *o++ = (char)(0x80 | (c & 0x3f));
    }
  }
  *o = 0;
  return out;
}

static void add(Lexer *lx, CTokKind kind, size_t start, size_t end, uint16_t flags) {
  Tok *t = pp_alloc(lx->pp, sizeof *t);
  t->t.kind = kind;
  t->t.pos = t->t.exp = pos_at(lx, start);
  t->t.bol = lx->bol;
  t->t.space = lx->space;
  t->param = -1;
  t->flags = flags;
  const char *canon = kind == CT_PUNCT ? digraph_canon(lx->s + start, end - start) : NULL;
  if (canon) {
    t->t.text = canon;
    t->t.len = (uint32_t)strlen(canon);
    t->flags |= TF_DIGRAPH;
  } else if (kind == CT_IDENT && memchr(lx->s + start, '\\', end - start)) {
    t->t.text = ident_utf8(lx->pp, lx->s + start, end - start);
    t->t.len = (uint32_t)strlen(t->t.text);
  } else {
    t->t.text = pp_strndup(lx->pp, lx->s + start, end - start);
    t->t.len = (uint32_t)(end - start);
  }
  lx->bol = lx->space = false;
  if (lx->tail) lx->tail->next = t;
  else lx->head = t;
  lx->tail = t;
  /* header-name context: `# include <` and `__has_include (<` */
  int h = lx->hdr;
  lx->hdr = 0;
  if (kind == CT_PUNCT && !strcmp(t->t.text, "#") && t->t.bol) lx->hdr = 1;
  else if (kind == CT_IDENT && h == 1 &&
           (!strcmp(t->t.text, "include") || !strcmp(t->t.text, "include_next") ||
            !strcmp(t->t.text, "import")))
    lx->hdr = 2;
  else if (kind == CT_IDENT && t->t.text[0] == '_' &&
           (!strcmp(t->t.text, "__has_include") || !strcmp(t->t.text, "__has_include_next")))
    lx->hdr = 3;
  else if (kind == CT_PUNCT && h == 3 && !strcmp(t->t.text, "(")) lx->hdr = 2;
}

static bool is_ident_char(unsigned char c) {
  return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

static size_t lex_quoted(Lexer *lx, size_t i, char q, bool *ok) {
  const char *s = lx->s;
  size_t j = i + 1;
  while (s[j] != q) {
    if (s[j] == '\n' || j >= lx->len) {
      *ok = false;
      return j;
    }
    if (s[j] == '\\' && s[j + 1] != '\n') j++;
    j++;
  }
  *ok = true;
  return j + 1;
}

static size_t literal_prefix(const char *p) {
  if (p[0] == 'u' && p[1] == '8' && (p[2] == '"' || p[2] == '\'')) return 2;
  if ((p[0] == 'L' || p[0] == 'u' || p[0] == 'U') && (p[1] == '"' || p[1] == '\'')) return 1;
  return 0;
}

static void lex_all(Lexer *lx) {
  const char *s = lx->s;
  size_t i = 0;
  lx->bol = true;
  while (i < lx->len) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\n') {
      if (!lx->fixed) newline_at(lx, i);
      lx->bol = true;
      lx->space = false;
      if (lx->hdr) lx->hdr = 0;
      i++;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r') {
      lx->space = true;
      i++;
      continue;
    }
    if (c == '/' && s[i + 1] == '/') {
      while (i < lx->len && s[i] != '\n') i++;
      lx->space = true;
      continue;
    }
    if (c == '/' && s[i + 1] == '*') {
      size_t start = i;
      i += 2;
      while (i < lx->len && !(s[i] == '*' && s[i + 1] == '/')) {
        if (s[i] == '\n' && !lx->fixed) newline_at(lx, i);
        if (s[i] == '/' && s[i + 1] == '*' && !lx->pp->lex_system)
          pp_warn(lx->pp, W_COMMENT, pos_at(lx, i), "\"/*\" within comment");
        i++;
      }
      if (i >= lx->len) {
        pp_error(lx->pp, pos_at(lx, start), "unterminated comment");
        break;
      }
      i += 2;
      lx->space = true;
      continue;
    }
    if (lx->hdr == 2 && c == '<') {
      size_t j = i + 1;
      while (s[j] != '>' && s[j] != '\n') j++;
      if (s[j] == '>') {
        add(lx, CT_OTHER, i, j + 1, TF_HEADER);
        i = j + 1;
        continue;
      }
    }
    size_t pre = literal_prefix(s + i);
    if (c == '"' || c == '\'' || pre) {
      char q = s[i + pre];
      bool ok;
      size_t end = lex_quoted(lx, i + pre, q, &ok);
      if (!ok) {
        /* unterminated: the rest of the line is one stray token, diagnosed only if it is used */
        add(lx, CT_OTHER, i, end, 0);
      } else {
        add(lx, q == '"' ? CT_STRING : CT_CHAR, i, end, 0);
      }
      i = end;
      continue;
    }
    if (isdigit(c) || (c == '.' && isdigit((unsigned char)s[i + 1]))) {
      size_t j = i + 1;
      for (;;) {
        unsigned char d = (unsigned char)s[j];
        if ((d == '+' || d == '-') && strchr("eEpP", s[j - 1])) j++;
        else if (is_ident_char(d) || d == '.') j++;
        else if (ucn_len(s + j)) j += ucn_len(s + j);
        else break;
      }
      add(lx, CT_NUMBER, i, j, 0);
      i = j;
      continue;
    }
    if (is_ident_char(c) || ucn_len(s + i)) {
      size_t j = i;
      for (;;) {
        if (is_ident_char((unsigned char)s[j])) j++;
        else if (ucn_len(s + j)) j += ucn_len(s + j);
        else break;
      }
      add(lx, CT_IDENT, i, j, 0);
      i = j;
      continue;
    }
    size_t n = match_punct(s + i);
    if (n) {
      add(lx, CT_PUNCT, i, i + n, 0);
      i += n;
      continue;
    }
    /* a stray byte; NUL bytes and controls included */
    add(lx, CT_OTHER, i, i + 1, 0);
    i++;
  }
  Tok *e = pp_alloc(lx->pp, sizeof *e);
  e->t.kind = CT_EOF;
  e->t.text = "";
  e->t.pos = e->t.exp = pos_at(lx, lx->len ? lx->len - 1 : 0);
  e->t.bol = true;
  e->param = -1;
  e->flags = TF_FILEEOF;
  if (lx->tail) lx->tail->next = e;
  else lx->head = e;
}

Tok *pp_lex_file(CPP *pp, SrcFile *f) {
  Lexer lx = {.pp = pp, .file = f->id, .line = 1};
  size_t n, bom = f->len >= 3 && !memcmp(f->buf, "\xef\xbb\xbf", 3) ? 3 : 0;
  char *clean = splice_lines(pp, f->buf + bom, f->len - bom, &n, &lx.splice, &lx.nsplice);
  lx.s = clean;
  lx.len = n;
  lex_all(&lx);
  free(clean);
  free(lx.splice);
  return lx.head;
}

Tok *pp_lex_string(CPP *pp, const char *s, size_t len, CPos pos) {
  Lexer lx = {.pp = pp, .fixed = true, .fixed_pos = pos, .file = pos.file, .line = pos.line};
  char *buf = malloc(len + 2);
  if (!buf) { fprintf(stderr, "kitcc: out of memory\n"); exit(1); }
  memcpy(buf, s, len);
  buf[len] = '\n';
  buf[len + 1] = 0;
  lx.s = buf;
  lx.len = len + 1;
  lex_all(&lx);
  free(buf);
  return lx.head;
}
