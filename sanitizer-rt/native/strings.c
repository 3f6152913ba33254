/* strings.c — the libc memory and string functions whose arguments ASan
 * checks, defined by the runtime (own loops: no dlsym, so they work before
 * init). Frame #0 names match clang-16's runtime: __asan_memcpy, strcpy,
 * __interceptor_strncpy, ... with the libc name as weak alias where needed. */
#define _GNU_SOURCE
#include "native.h"
#include <ctype.h>
#include <string.h>

#define ALIAS(name, target) extern __typeof(target) name __attribute__((weak, alias(#target)))

static inline bool on(void) { return kit_native_ready() && !kit_san_in_report; }

/* the thread-local in-report flag is read only when something is wrong */
#define CHECK(p, n, write)                                                         \
  do {                                                                             \
    size_t n_ = (n);                                                               \
    if (n_ && kit_native_ready()) {                                                \
      uintptr_t bad_ = kit_san_region_bad((uintptr_t)(p), n_);                     \
      if (bad_ && !kit_san_in_report)                                              \
        kit_san_report_access(KIT_HERE_PC(), KIT_HERE_BP(), KIT_HERE_SP(), bad_, n_, \
                              write, false);                                       \
    }                                                                              \
  } while (0)
#define READ(p, n) CHECK(p, n, false)
#define WRITE(p, n) CHECK(p, n, true)
#define OVERLAP(fn, a, an, b, bn)                                                  \
  do {                                                                             \
    uintptr_t a_ = (uintptr_t)(a), b_ = (uintptr_t)(b);                            \
    size_t an_ = (an), bn_ = (bn);                                                 \
    if (an_ && bn_ && a_ < b_ + bn_ && b_ < a_ + an_ && on())                      \
      kit_san_report_overlap(KIT_HERE_PC() - 1, KIT_HERE_BP(), fn, a_, an_, b_, bn_); \
  } while (0)

/* The bulk copies are glibc's optimised ones, reached through their _chk
 * entry points (memcpy, memmove and memset themselves are this file's; the
 * runtime is built with -fno-builtin, so these calls stay as written). */
extern void *__memcpy_chk(void *, const void *, size_t, size_t);
extern void *__memmove_chk(void *, const void *, size_t, size_t);
extern void *__memset_chk(void *, int, size_t, size_t);

static void copy_fwd(unsigned char *d, const unsigned char *s, size_t n) {
  if ((((uintptr_t)d | (uintptr_t)s) & 7) == 0) {
    for (; n >= 8; n -= 8, d += 8, s += 8)
      *(uint64_t *)d = *(const uint64_t *)s;
  }
  while (n--)
    *d++ = *s++;
}

static size_t slen(const char *s) {
  const char *p = s;
  while (*p)
    p++;
  return (size_t)(p - s);
}

/* The reference skips the overlap check when the two pointers are equal
 * (memcpy(p, p, n) is harmless in every libc); the string functions below have
 * no such exception. */
__attribute__((noinline)) void *__asan_memcpy(void *d, const void *s, size_t n) {
  if (d != s)
    OVERLAP("memcpy", d, n, s, n);
  READ(s, n);
  WRITE(d, n);
  return __memcpy_chk(d, s, n, n);
}
ALIAS(memcpy, __asan_memcpy);

__attribute__((noinline)) void *__asan_memmove(void *d, const void *s, size_t n) {
  READ(s, n);
  WRITE(d, n);
  return __memmove_chk(d, s, n, n);
}
ALIAS(memmove, __asan_memmove);

__attribute__((noinline)) void *__asan_memset(void *d, int c, size_t n) {
  WRITE(d, n);
  return __memset_chk(d, c, n, n);
}
ALIAS(memset, __asan_memset);

__attribute__((noinline)) int memcmp(const void *a, const void *b, size_t n) {
  READ(a, n);
  READ(b, n);
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i])
      return x[i] - y[i];
  return 0;
}

__attribute__((noinline)) int bcmp(const void *a, const void *b, size_t n) {
  READ(a, n);
  READ(b, n);
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i])
      return 1;
  return 0;
}

__attribute__((noinline)) size_t strlen(const char *s) {
  size_t n = slen(s);
  READ(s, n + 1);
  return n;
}

__attribute__((noinline)) size_t strnlen(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n])
    n++;
  READ(s, n < max ? n + 1 : n);
  return n;
}

__attribute__((noinline)) char *strcpy(char *d, const char *s) {
  size_t n = slen(s) + 1;
  OVERLAP("strcpy", d, n, s, n);
  READ(s, n);
  WRITE(d, n);
  copy_fwd((unsigned char *)d, (const unsigned char *)s, n);
  return d;
}

__attribute__((noinline)) char *__interceptor_strncpy(char *d, const char *s, size_t n) {
  size_t k = 0;
  while (k < n && s[k])
    k++;
  size_t from = k < n ? k + 1 : n;
  OVERLAP("strncpy", d, from, s, from);
  READ(s, from);
  WRITE(d, n);
  for (size_t i = 0; i < n; i++)
    d[i] = i < k ? s[i] : 0;
  return d;
}
ALIAS(strncpy, __interceptor_strncpy);

/* strcat/strncat as the reference checks them: the source, the destination's
 * string without its terminator, the bytes written, then (only when something
 * is appended) the result against the source. */
__attribute__((noinline)) char *strcat(char *d, const char *s) {
  size_t dl = slen(d), sl = slen(s);
  READ(s, sl + 1);
  READ(d, dl);
  WRITE(d + dl, sl + 1);
  if (sl)
    OVERLAP("strcat", d, dl + sl + 1, s, sl + 1);
  copy_fwd((unsigned char *)d + dl, (const unsigned char *)s, sl + 1);
  return d;
}

__attribute__((noinline)) char *strncat(char *d, const char *s, size_t n) {
  size_t dl = slen(d), sl = 0;
  while (sl < n && s[sl])
    sl++;
  size_t copy = sl < n ? sl + 1 : sl;
  READ(s, copy);
  READ(d, dl);
  WRITE(d + dl, sl + 1);
  if (sl)
    OVERLAP("strncat", d, dl + copy + 1, s, copy);
  copy_fwd((unsigned char *)d + dl, (const unsigned char *)s, sl);
  d[dl + sl] = 0;
  return d;
}

__attribute__((noinline)) int strcmp(const char *a, const char *b) {
  size_t i = 0;
  while (a[i] && a[i] == b[i])
    i++;
  READ(a, i + 1);
  READ(b, i + 1);
  return (unsigned char)a[i] - (unsigned char)b[i];
}

__attribute__((noinline)) int strncmp(const char *a, const char *b, size_t n) {
  size_t i = 0;
  while (i < n && a[i] && a[i] == b[i])
    i++;
  size_t k = i < n ? i + 1 : n;
  READ(a, k);
  READ(b, k);
  return i < n ? (unsigned char)a[i] - (unsigned char)b[i] : 0;
}

__attribute__((noinline)) int strcasecmp(const char *a, const char *b) {
  size_t i = 0;
  while (a[i] && tolower((unsigned char)a[i]) == tolower((unsigned char)b[i]))
    i++;
  READ(a, i + 1);
  READ(b, i + 1);
  return tolower((unsigned char)a[i]) - tolower((unsigned char)b[i]);
}

__attribute__((noinline)) int __interceptor_strncasecmp(const char *a, const char *b, size_t n) {
  size_t i = 0;
  while (i < n && a[i] && tolower((unsigned char)a[i]) == tolower((unsigned char)b[i]))
    i++;
  size_t k = i < n ? i + 1 : n;
  READ(a, k);
  READ(b, k);
  return i < n ? tolower((unsigned char)a[i]) - tolower((unsigned char)b[i]) : 0;
}
ALIAS(strncasecmp, __interceptor_strncasecmp);

__attribute__((noinline)) char *strchr(const char *s, int c) {
  const char *p = s;
  while (*p && *p != (char)c)
    p++;
  READ(s, (size_t)(p - s) + 1);
  return *p == (char)c ? (char *)p : NULL;
}

__attribute__((noinline)) char *__interceptor_strrchr(const char *s, int c) {
  const char *last = NULL, *p = s;
  for (;; p++) {
    if (*p == (char)c)
      last = p;
    if (!*p)
      break;
  }
  READ(s, (size_t)(p - s) + 1);
  return (char *)last;
}
ALIAS(strrchr, __interceptor_strrchr);

__attribute__((noinline)) char *strstr(const char *h, const char *n) {
  size_t hl = slen(h), nl = slen(n);
  READ(h, hl + 1);
  READ(n, nl + 1);
  for (size_t i = 0; i + nl <= hl; i++) {
    size_t j = 0;
    while (j < nl && h[i + j] == n[j])
      j++;
    if (j == nl)
      return (char *)h + i;
  }
  return NULL;
}

__attribute__((noinline)) void *memchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  size_t i = 0;
  while (i < n && p[i] != (unsigned char)c)
    i++;
  READ(s, i < n ? i + 1 : n);
  return i < n ? (void *)(p + i) : NULL;
}

__attribute__((noinline)) void *memrchr(const void *s, int c, size_t n) {
  READ(s, n);
  const unsigned char *p = s;
  while (n--)
    if (p[n] == (unsigned char)c)
      return (void *)(p + n);
  return NULL;
}

__attribute__((noinline)) char *strdup(const char *s) {
  if (!kit_native_ready())
    kit_native_init();
  size_t n = slen(s) + 1;
  READ(s, n);
  char *d = kit_san_in_report ? kit_native_internal_alloc(n, 8, false)
                              : (char *)kit_san_alloc(n, 8, on() ? KIT_HERE_STACK() : 0, false);
  if (d)
    copy_fwd((unsigned char *)d, (const unsigned char *)s, n);
  return d;
}

__attribute__((noinline)) char *__interceptor_strndup(const char *s, size_t max) {
  if (!kit_native_ready())
    kit_native_init();
  size_t n = 0;
  while (n < max && s[n])
    n++;
  READ(s, n < max ? n + 1 : n);
  char *d = kit_san_in_report ? kit_native_internal_alloc(n + 1, 8, false)
                              : (char *)kit_san_alloc(n + 1, 8, on() ? KIT_HERE_STACK() : 0, false);
  if (d) {
    copy_fwd((unsigned char *)d, (const unsigned char *)s, n);
    d[n] = 0;
  }
  return d;
}
ALIAS(strndup, __interceptor_strndup);

/* strspn, strcspn, strpbrk: clang checks the set and the bytes scanned, the
 * terminator or the match included */
static size_t span(const char *s, const char *set, bool in) {
  bool table[256] = {false};
  for (const unsigned char *p = (const unsigned char *)set; *p; p++)
    table[*p] = true;
  const unsigned char *q = (const unsigned char *)s;
  size_t i = 0;
  while (q[i] && table[q[i]] == in)
    i++;
  return i;
}

__attribute__((noinline)) size_t __interceptor_strspn(const char *s, const char *accept) {
  size_t r = span(s, accept, true);
  READ(accept, slen(accept) + 1);
  READ(s, r + 1);
  return r;
}
ALIAS(strspn, __interceptor_strspn);

__attribute__((noinline)) size_t strcspn(const char *s, const char *reject) {
  size_t r = span(s, reject, false);
  READ(reject, slen(reject) + 1);
  READ(s, r + 1);
  return r;
}

__attribute__((noinline)) char *__interceptor_strpbrk(const char *s, const char *accept) {
  size_t r = span(s, accept, false);
  READ(accept, slen(accept) + 1);
  READ(s, r + 1);
  return s[r] ? (char *)s + r : NULL;
}
ALIAS(strpbrk, __interceptor_strpbrk);

/* strtok as clang checks it without strict_string_checks: a byte of the
 * string and of the delimiters, then the token, or the whole string when it
 * has none (the state is global, as glibc's) */
static char *strtok_next;

__attribute__((noinline)) char *strtok(char *str, const char *delim) {
  if (str)
    READ(str, 1);
  READ(delim, 1);
  char *tok = str ? str : strtok_next;
  if (!tok)
    return NULL;
  tok += span(tok, delim, true);
  if (!*tok) {
    strtok_next = tok;
    tok = NULL;
  } else {
    char *end = tok + span(tok, delim, false);
    strtok_next = *end ? end + 1 : end;
    *end = 0;
  }
  if (tok)
    READ(tok, slen(tok) + 1);
  else if (str)
    READ(str, slen(str) + 1);
  return tok;
}
