/* frontends/c/literal.c — C literals: integer constants with the C11 type
 * rules and GNU suffixes, floating constants (decimal and hex), character
 * constants with every escape, and string literals (adjacent ones joined,
 * u8/u/U/L prefixes, UTF-8 source decoded for wide strings). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static bool fits(unsigned __int128 v, CType *t) {
  int bits = t->size * 8 - (t->is_unsigned ? 0 : 1);
  if (bits >= 128) return true;
  return v < ((unsigned __int128)1 << bits);
}

CExpr *parse_number(Parser *p, PTok *t) {
  const char *s = t->text;
  size_t n = strlen(s);
  bool is_hex = n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  bool is_float = false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '.' || (!is_hex && (c == 'e' || c == 'E')) || (is_hex && (c == 'p' || c == 'P'))) is_float = true;
  }
  if (is_float) {
    char *end;
    errno = 0;
    long double v = strtold(s, &end);
    CType *ty = ty_double;
    bool imaginary = false;
    for (; *end; end++) {
      if (*end == 'f' || *end == 'F') ty = ty_float;
      else if (*end == 'l' || *end == 'L') ty = ty_ldouble;
      else if ((*end == 'i' || *end == 'j' || *end == 'I' || *end == 'J') && !imaginary) imaginary = true;
      else {
        perror_at(p, t->pos, "invalid suffix \"%s\" on floating constant", end);
        break;
      }
    }
    CExpr *e = new_expr(EX_FLOAT, ty, t->pos);
    e->fval = ty == ty_float ? (float)v : ty == ty_double ? (double)v : v;
    return imaginary ? imaginary_constant(e) : e;
  }
  int base = 10;
  const char *d = s;
  if (is_hex) {
    base = 16;
    d += 2;
  } else if (n > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    d += 2;
  } else if (s[0] == '0') {
    base = 8;
  }
  unsigned __int128 v = 0;
  bool overflow = false;
  for (; *d; d++) {
    int x = hexval(*d);
    if (x < 0 || x >= base) break;
    unsigned __int128 nv = v * base + x;
    if (nv / base != v) overflow = true;
    v = nv;
  }
  bool u = false, imaginary = false;
  int l = 0;
  for (; *d; d++) {
    if (*d == 'u' || *d == 'U') u = true;
    else if (*d == 'l' || *d == 'L') l++;
    else if ((*d == 'i' || *d == 'j' || *d == 'I' || *d == 'J') && !imaginary) imaginary = true;
    else {
      perror_at(p, t->pos, "invalid suffix \"%s\" on integer constant", d);
      break;
    }
  }
  if (overflow) perror_at(p, t->pos, "integer constant is too large for its type");
  /* C11 6.4.4.1p5: the first type of the list that can represent the value */
  CType *cands[8];
  int nc = 0;
  bool dec = base == 10;
  if (l == 0) {
    if (!u) cands[nc++] = ty_int;
    if (u || !dec) cands[nc++] = ty_uint;
  }
  if (l <= 1) {
    if (!u) cands[nc++] = ty_long;
    if (u || !dec) cands[nc++] = ty_ulong;
  }
  if (!u) cands[nc++] = ty_llong;
  if (u || !dec) cands[nc++] = ty_ullong;
  CType *ty = NULL;
  for (int i = 0; i < nc; i++)
    if (fits(v, cands[i])) {
      ty = cands[i];
      break;
    }
  if (!ty) {
    /* gcc: too large for long long -> unsigned long long (or __int128) with a warning */
    ty = v >> 64 ? ty_int128 : ty_ullong;
    pwarn_at(p, t->pos, "integer constant is so large that it is unsigned");
  }
  CExpr *e = new_expr(EX_INT, ty, t->pos);
  e->ival = v;
  return imaginary ? imaginary_constant(e) : e;
}

/* decode one (possibly escaped) character; returns its code point */
static uint32_t decode_char(Parser *p, const char **sp, PTok *t, bool *is_raw_byte, bool narrow) {
  const char *s = *sp;
  *is_raw_byte = false;
  if (*s != '\\' && narrow) {
    /* narrow literals keep the source bytes as they are */
    *is_raw_byte = true;
    *sp = s + 1;
    return (unsigned char)*s;
  }
  if (*s != '\\') {
    /* UTF-8 source character */
    unsigned char c = (unsigned char)*s;
    uint32_t cp = c;
    int extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
    if (extra) cp = c & (0x3f >> extra);
    s++;
    for (int i = 0; i < extra && (*s & 0xc0) == 0x80; i++) cp = (cp << 6) | (*s++ & 0x3f);
    if (!extra && c >= 0x80) *is_raw_byte = true;
    *sp = s;
    return cp;
  }
  s++;
  uint32_t v;
  switch (*s) {
  case 'n': v = '\n'; s++; break;
  case 't': v = '\t'; s++; break;
  case 'r': v = '\r'; s++; break;
  case 'a': v = '\a'; s++; break;
  case 'b': v = '\b'; s++; break;
  case 'f': v = '\f'; s++; break;
  case 'v': v = '\v'; s++; break;
  case 'e': case 'E': v = 27; s++; break;
  case 'x': {
    s++;
    v = 0;
    if (hexval(*s) < 0) perror_at(p, t->pos, "\\x used with no following hex digits");
    while (hexval(*s) >= 0) v = v * 16 + hexval(*s++);
    *is_raw_byte = true;
    break;
  }
  case 'u': case 'U': {
    int nd = *s == 'u' ? 4 : 8;
    s++;
    v = 0;
    for (int i = 0; i < nd && hexval(*s) >= 0; i++) v = v * 16 + hexval(*s++);
    break;
  }
  default:
    if (*s >= '0' && *s <= '7') {
      v = 0;
      for (int i = 0; i < 3 && *s >= '0' && *s <= '7'; i++) v = v * 8 + (*s++ - '0');
      *is_raw_byte = true;
    } else {
      if (*s != '\\' && *s != '\'' && *s != '"' && *s != '?') pwarn_at(p, t->pos, "unknown escape sequence: '\\%c'", *s);
      v = (unsigned char)*s;
      if (*s) s++;
    }
  }
  *sp = s;
  return v;
}

static int put_utf8(char *out, uint32_t cp) {
  if (cp < 0x80) { out[0] = (char)cp; return 1; }
  if (cp < 0x800) { out[0] = (char)(0xc0 | (cp >> 6)); out[1] = (char)(0x80 | (cp & 0x3f)); return 2; }
  if (cp < 0x10000) {
    out[0] = (char)(0xe0 | (cp >> 12)); out[1] = (char)(0x80 | ((cp >> 6) & 0x3f)); out[2] = (char)(0x80 | (cp & 0x3f));
    return 3;
  }
  out[0] = (char)(0xf0 | (cp >> 18)); out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3f)); out[3] = (char)(0x80 | (cp & 0x3f));
  return 4;
}

/* prefix -> element size and type */
static int prefix_of(const char *s, CType **elem, int *skip) {
  if (s[0] == 'u' && s[1] == '8') { *elem = ty_char; *skip = 2; return 1; }
  if (s[0] == 'u') { *elem = ty_ushort; *skip = 1; return 2; }
  if (s[0] == 'U') { *elem = ty_uint; *skip = 1; return 4; }
  if (s[0] == 'L') { *elem = ty_int; *skip = 1; return 4; }
  *elem = ty_char;
  *skip = 0;
  return 1;
}

CExpr *parse_char(Parser *p, PTok *t) {
  CType *elem;
  int skip;
  int size = prefix_of(t->text, &elem, &skip);
  const char *s = t->text + skip + 1;
  int64_t v = 0;
  int count = 0;
  while (*s && *s != '\'') {
    bool raw;
    uint32_t c = decode_char(p, &s, t, &raw, size == 1);
    if (size == 1) {
      if (!raw && c >= 0x80) {
        /* a multibyte UTF-8 character in a plain char constant: gcc takes its bytes */
        char buf[4];
        int k = put_utf8(buf, c);
        for (int i = 0; i < k; i++) v = (v << 8) | (unsigned char)buf[i];
        count += k;
        continue;
      }
      v = (v << 8) | (c & 0xff);
    } else {
      v = c;
    }
    count++;
  }
  if (!count) perror_at(p, t->pos, "empty character constant");
  CType *ty = size == 1 ? ty_int : elem;
  if (size == 1) {
    if (count == 1) v = (int64_t)(signed char)v; /* plain char is signed */
    else if (count > 4) pwarn_at(p, t->pos, "character constant too long for its type");
    else if (count > 1) pwarn_w(p, W_MULTICHAR, t->pos, "multi-character character constant");
    v = (int32_t)v;
  }
  CExpr *e = new_expr(EX_INT, ty, t->pos);
  e->ival = (unsigned __int128)(__int128)v;
  return e;
}

CExpr *parse_string(Parser *p) {
  /* join adjacent literals; the widest prefix wins */
  size_t start = p->pos;
  CType *elem = ty_char;
  int size = 1;
  while (tok(p)->kind == CT_STRING) {
    CType *e2;
    int sk;
    int s2 = prefix_of(tok(p)->text, &e2, &sk);
    if (s2 > size || (s2 == size && e2 != ty_char && elem == ty_char)) {
      size = s2;
      elem = e2;
    }
    next(p);
  }
  size_t end = p->pos;
  size_t cap = 64, n = 0;
  char *buf = c_alloc(cap);
  for (size_t i = start; i < end; i++) {
    PTok *t = &p->toks[i];
    CType *e2;
    int sk;
    prefix_of(t->text, &e2, &sk);
    const char *s = t->text + sk + 1;
    while (*s && *s != '"') {
      bool raw;
      uint32_t c = decode_char(p, &s, t, &raw, size == 1);
      char tmp[8];
      int k;
      if (size == 1) {
        if (raw) {
          tmp[0] = (char)c;
          k = 1;
        } else {
          k = put_utf8(tmp, c);
        }
      } else {
        if (size == 2 && c >= 0x10000) {
          /* a surrogate pair */
          uint32_t hi = 0xd800 + ((c - 0x10000) >> 10), lo = 0xdc00 + ((c - 0x10000) & 0x3ff);
          memcpy(tmp, &hi, 2);
          memcpy(tmp + 2, &lo, 2);
          k = 4;
        } else {
          memcpy(tmp, &c, (size_t)size);
          k = size;
        }
      }
      if (n + (size_t)k + 8 > cap) {
        size_t nc = cap * 2 + (size_t)k;
        char *nb = c_alloc(nc);
        memcpy(nb, buf, n);
        buf = nb;
        cap = nc;
      }
      memcpy(buf + n, tmp, (size_t)k);
      n += (size_t)k;
    }
  }
  if (n + (size_t)size > cap) {
    char *nb = c_alloc(n + (size_t)size);
    memcpy(nb, buf, n);
    buf = nb;
  }
  memset(buf + n, 0, (size_t)size);
  n += (size_t)size;
  CExpr *e = new_expr(EX_STRING, type_array(elem, (int64_t)(n / (size_t)size)), p->toks[start].pos);
  e->str = buf;
  e->str_len = (int64_t)n;
  e->is_lvalue = true;
  return e;
}
