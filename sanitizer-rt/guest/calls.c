/* calls.c — the guest's malloc family and string/memory functions, run by
 * the runtime instead of the guest's libc: the same allocator (redzones,
 * quarantine, fill, alloc/free stacks) and the same argument checks as the
 * native interceptors (native/malloc.c, native/strings.c), on guest memory.
 * Frame #0 of a report is the guest function's entry, printed under the name
 * the native runtime's frame has. */
#define _GNU_SOURCE
#include "guest.h"
#include <ctype.h>
#include <errno.h>
#include <string.h>

#define MAX_IGNORED 16
static struct {
  uintptr_t lo, hi;
} ign[MAX_IGNORED];
static unsigned nign;

void kit_guest_lsan_ignore_callers(uintptr_t lo, uintptr_t hi) {
  if (nign < MAX_IGNORED) ign[nign].lo = lo, ign[nign++].hi = hi;
}

static bool ignored_caller(uintptr_t caller) {
  for (unsigned i = 0; i < nign; i++)
    if (caller >= ign[i].lo && caller < ign[i].hi)
      return true;
  return false;
}

static const struct {
  const char *libc, *frame;
} names[KIT_GFN_COUNT] = {
    [KIT_GFN_MALLOC] = {"malloc", "__interceptor_malloc"},
    [KIT_GFN_FREE] = {"free", "free"},
    [KIT_GFN_CALLOC] = {"calloc", "__interceptor_calloc"},
    [KIT_GFN_REALLOC] = {"realloc", "__interceptor_realloc"},
    [KIT_GFN_REALLOCARRAY] = {"reallocarray", "__interceptor_reallocarray"},
    [KIT_GFN_MEMALIGN] = {"memalign", "__interceptor_memalign"},
    [KIT_GFN_POSIX_MEMALIGN] = {"posix_memalign", "__interceptor_posix_memalign"},
    [KIT_GFN_ALIGNED_ALLOC] = {"aligned_alloc", "__interceptor_aligned_alloc"},
    [KIT_GFN_VALLOC] = {"valloc", "__interceptor_valloc"},
    [KIT_GFN_PVALLOC] = {"pvalloc", "__interceptor_pvalloc"},
    [KIT_GFN_MALLOC_USABLE_SIZE] = {"malloc_usable_size", "__interceptor_malloc_usable_size"},
    [KIT_GFN_MEMCPY] = {"memcpy", "__asan_memcpy"},
    [KIT_GFN_MEMMOVE] = {"memmove", "__asan_memmove"},
    [KIT_GFN_MEMSET] = {"memset", "__asan_memset"},
    [KIT_GFN_MEMCMP] = {"memcmp", "memcmp"},
    [KIT_GFN_BCMP] = {"bcmp", "bcmp"},
    [KIT_GFN_MEMCHR] = {"memchr", "memchr"},
    [KIT_GFN_MEMRCHR] = {"memrchr", "memrchr"},
    [KIT_GFN_STRLEN] = {"strlen", "strlen"},
    [KIT_GFN_STRNLEN] = {"strnlen", "strnlen"},
    [KIT_GFN_STRCPY] = {"strcpy", "strcpy"},
    [KIT_GFN_STPCPY] = {"stpcpy", "stpcpy"},
    [KIT_GFN_STRNCPY] = {"strncpy", "__interceptor_strncpy"},
    [KIT_GFN_STRCAT] = {"strcat", "strcat"},
    [KIT_GFN_STRNCAT] = {"strncat", "strncat"},
    [KIT_GFN_STRCMP] = {"strcmp", "strcmp"},
    [KIT_GFN_STRNCMP] = {"strncmp", "strncmp"},
    [KIT_GFN_STRCASECMP] = {"strcasecmp", "strcasecmp"},
    [KIT_GFN_STRCHR] = {"strchr", "strchr"},
    [KIT_GFN_STRCHRNUL] = {"strchrnul", "strchrnul"},
    [KIT_GFN_RAWMEMCHR] = {"rawmemchr", "rawmemchr"},
    [KIT_GFN_STRRCHR] = {"strrchr", "__interceptor_strrchr"},
    [KIT_GFN_STRSTR] = {"strstr", "strstr"},
    [KIT_GFN_STRDUP] = {"strdup", "strdup"},
    [KIT_GFN_STRNDUP] = {"strndup", "__interceptor_strndup"},
    [KIT_GFN_MEMPCPY] = {"mempcpy", "mempcpy"},
    [KIT_GFN_STRSPN] = {"strspn", "__interceptor_strspn"},
    [KIT_GFN_STRCSPN] = {"strcspn", "strcspn"},
    [KIT_GFN_STRPBRK] = {"strpbrk", "__interceptor_strpbrk"},
    [KIT_GFN_STRTOK] = {"strtok", "strtok"},
    [KIT_GFN_STRNCASECMP] = {"strncasecmp", "__interceptor_strncasecmp"},
};

const char *kit_guest_fn_libc_name(KitGuestFn fn) { return fn > 0 && fn < KIT_GFN_COUNT ? names[fn].libc : NULL; }
const char *kit_guest_fn_frame_name(KitGuestFn fn) {
  return fn > 0 && fn < KIT_GFN_COUNT ? names[fn].frame : NULL;
}

/* ---- helpers over guest memory ---- */

static inline uint8_t *H(uintptr_t a) { return (uint8_t *)(a + kit_guest_delta()); }

static size_t slen(uintptr_t s) { return strlen((const char *)H(s)); }

static bool on(void) { return kit_guest_ready() && !kit_san_in_report; }

/* the length of s's prefix of bytes in set (in) or not in it (!in); the
 * terminator is never in it */
static size_t span(uintptr_t s, uintptr_t set, bool in) {
  bool table[256] = {false};
  for (const uint8_t *p = H(set); *p; p++)
    table[*p] = true;
  const uint8_t *q = H(s);
  size_t i = 0;
  while (q[i] && table[q[i]] == in)
    i++;
  return i;
}

/* where the guest's strtok goes on: the runtime's strtok replaces libc's
 * whole, with its state */
static uintptr_t strtok_next;

typedef struct {
  uintptr_t entry;
} Ctx;

static void check(const Ctx *c, uintptr_t p, size_t n, bool write) {
  if (!n || !on())
    return;
  uintptr_t bad = kit_san_region_bad(p, n);
  if (bad)
    kit_san_report_access(c->entry + 1, 0, 0, bad, n, write, false);
}
#define READ(p, n) check(c, (p), (n), false)
#define WRITE(p, n) check(c, (p), (n), true)

static void overlap(const Ctx *c, const char *fn, uintptr_t a, size_t an, uintptr_t b, size_t bn) {
  if (an && bn && a < b + bn && b < a + an && on())
    kit_san_report_overlap(c->entry, 0, fn, a, an, b, bn);
}

static uint32_t stack_here(const Ctx *c) { return on() ? kit_san_stack_id(c->entry, 0) : 0; }

/* ---- malloc family ---- */

static bool too_big(const Ctx *c, size_t size) {
  if (size <= KIT_SAN_MAX_ALLOC)
    return false;
  if (!kit_san_opts.allocator_may_return_null)
    kit_san_report_too_big(c->entry, 0, size);
  return true;
}

static uintptr_t alloc(const Ctx *c, size_t size, size_t align, bool zero, uintptr_t caller) {
  if (too_big(c, size))
    return 0;
  uintptr_t p = kit_san_alloc(size, align, stack_here(c), zero);
  if (p && ignored_caller(caller))
    *kit_san_chunk_tag(p) = KIT_SAN_LSAN_IGNORED;
  return p;
}

static void do_free(const Ctx *c, uintptr_t p) {
  if (!p)
    return;
  KitSanFreeResult r = kit_san_free(p, stack_here(c));
  if (r != KIT_FREE_OK)
    kit_san_report_free(c->entry, 0, p, r);
}

static uintptr_t do_realloc(const Ctx *c, uintptr_t p, size_t size, uintptr_t caller) {
  if (!p)
    return alloc(c, size, 8, false, caller);
  if (too_big(c, size))
    return 0;
  if (size == 0) {
    do_free(c, p);
    return 0;
  }
  size_t old = kit_san_alloc_usable_size(p);
  if (!old && !kit_san_chunk_live_at(p, NULL, NULL)) {
    KitSanChunkInfo ci;
    bool freed = kit_san_chunk_find(p, &ci) && ci.user_beg == p && ci.state == KIT_CHUNK_QUARANTINED;
    kit_san_report_free(c->entry, 0, p, freed ? KIT_FREE_DOUBLE : KIT_FREE_BAD);
    return 0;
  }
  uintptr_t n = alloc(c, size, 8, false, caller);
  if (!n)
    return 0;
  memcpy(H(n), H(p), old < size ? old : size);
  kit_san_free(p, stack_here(c));
  return n;
}

static bool pow2(size_t a) { return a && !(a & (a - 1)); }

/* strtok with clang's checks without strict_string_checks: a byte of the
 * string and of the delimiters, then the token, or the whole string when it
 * has none */
static uintptr_t guest_strtok(const Ctx *c, uintptr_t str, uintptr_t delim) {
  if (str)
    READ(str, 1);
  READ(delim, 1);
  uintptr_t tok = str ? str : strtok_next;
  if (!tok)
    return 0;
  tok += span(tok, delim, true);
  if (!H(tok)[0]) {
    strtok_next = tok;
    tok = 0;
  } else {
    uintptr_t end = tok + span(tok, delim, false);
    strtok_next = H(end)[0] ? end + 1 : end;
    H(end)[0] = 0;
  }
  if (tok)
    READ(tok, slen(tok) + 1);
  else if (str)
    READ(str, slen(str) + 1);
  return tok;
}

/* ---- the dispatcher ---- */

#define NEG(e) ((uint64_t)(int64_t)-(e))

uint64_t kit_guest_call(KitGuestFn fn, uintptr_t entry, uintptr_t caller, const uint64_t a[4]) {
  Ctx cc = {entry}, *c = &cc;
  uintptr_t d = a[0], s = a[1];
  size_t n = a[2];
  switch (fn) {
  case KIT_GFN_MALLOC:
    return alloc(c, a[0], 8, false, caller);
  case KIT_GFN_FREE:
    do_free(c, a[0]);
    return 0;
  case KIT_GFN_CALLOC: {
    size_t total;
    if (__builtin_mul_overflow(a[0], a[1], &total)) {
      if (!kit_san_opts.allocator_may_return_null)
        kit_san_report_calloc_overflow(entry, 0, a[0], a[1]);
      return 0;
    }
    return alloc(c, total, 8, true, caller);
  }
  case KIT_GFN_REALLOC:
    return do_realloc(c, a[0], a[1], caller);
  case KIT_GFN_REALLOCARRAY: {
    size_t total;
    if (__builtin_mul_overflow(a[1], a[2], &total))
      return 0;
    return do_realloc(c, a[0], total, caller);
  }
  case KIT_GFN_MEMALIGN:
  case KIT_GFN_ALIGNED_ALLOC:
    return pow2(a[0]) ? alloc(c, a[1], a[0], false, caller) : 0;
  case KIT_GFN_POSIX_MEMALIGN: {
    if (!pow2(a[1]) || a[1] % 8)
      return EINVAL;
    uintptr_t p = alloc(c, a[2], a[1], false, caller);
    if (!p)
      return ENOMEM;
    if (!kit_guest_accessible(a[0], 8, true))
      return EINVAL;
    memcpy(H(a[0]), &p, 8);
    return 0;
  }
  case KIT_GFN_VALLOC:
    return alloc(c, a[0], 4096, false, caller);
  case KIT_GFN_PVALLOC:
    return alloc(c, a[0] ? (a[0] + 4095) & ~4095ul : 4096, 4096, false, caller);
  case KIT_GFN_MALLOC_USABLE_SIZE:
    return a[0] ? kit_san_alloc_usable_size(a[0]) : 0;

  case KIT_GFN_MEMCPY:
  case KIT_GFN_MEMPCPY:
    overlap(c, "memcpy", d, n, s, n);
    READ(s, n);
    WRITE(d, n);
    memmove(H(d), H(s), n);
    return fn == KIT_GFN_MEMPCPY ? d + n : d;
  case KIT_GFN_MEMMOVE:
    READ(s, n);
    WRITE(d, n);
    memmove(H(d), H(s), n);
    return d;
  case KIT_GFN_MEMSET:
    WRITE(d, n);
    memset(H(d), (int)a[1], n);
    return d;
  case KIT_GFN_MEMCMP:
  case KIT_GFN_BCMP: {
    READ(d, n);
    READ(s, n);
    int r = memcmp(H(d), H(s), n);
    return (uint64_t)(int64_t)(fn == KIT_GFN_BCMP ? r != 0 : r);
  }
  case KIT_GFN_MEMCHR: {
    const uint8_t *p = H(d);
    size_t i = 0;
    while (i < n && p[i] != (uint8_t)s)
      i++;
    READ(d, i < n ? i + 1 : n);
    return i < n ? d + i : 0;
  }
  case KIT_GFN_MEMRCHR: {
    READ(d, n);
    const uint8_t *p = H(d);
    while (n--)
      if (p[n] == (uint8_t)s)
        return d + n;
    return 0;
  }
  case KIT_GFN_RAWMEMCHR: {
    const uint8_t *p = H(d);
    size_t i = 0;
    while (p[i] != (uint8_t)s)
      i++;
    READ(d, i + 1);
    return d + i;
  }
  case KIT_GFN_STRLEN: {
    size_t l = slen(d);
    READ(d, l + 1);
    return l;
  }
  case KIT_GFN_STRNLEN: {
    size_t max = s, l = 0;
    while (l < max && H(d)[l])
      l++;
    READ(d, l < max ? l + 1 : l);
    return l;
  }
  case KIT_GFN_STRCPY:
  case KIT_GFN_STPCPY: {
    size_t l = slen(s) + 1;
    overlap(c, names[fn].libc, d, l, s, l);
    READ(s, l);
    WRITE(d, l);
    memmove(H(d), H(s), l);
    return fn == KIT_GFN_STPCPY ? d + l - 1 : d;
  }
  case KIT_GFN_STRNCPY: {
    size_t k = 0;
    while (k < n && H(s)[k])
      k++;
    size_t from = k < n ? k + 1 : n;
    overlap(c, "strncpy", d, n, s, from);
    READ(s, from);
    WRITE(d, n);
    memmove(H(d), H(s), k);
    memset(H(d) + k, 0, n - k);
    return d;
  }
  case KIT_GFN_STRCAT: {
    size_t dl = slen(d), sl = slen(s);
    READ(s, sl + 1);
    READ(d, dl + 1);
    overlap(c, "strcat", d, dl + sl + 1, s, sl + 1);
    WRITE(d + dl, sl + 1);
    memmove(H(d) + dl, H(s), sl + 1);
    return d;
  }
  case KIT_GFN_STRNCAT: {
    size_t dl = slen(d), sl = 0;
    while (sl < n && H(s)[sl])
      sl++;
    READ(s, sl < n ? sl + 1 : sl);
    READ(d, dl + 1);
    overlap(c, "strncat", d, dl + sl + 1, s, sl);
    WRITE(d + dl, sl + 1);
    memmove(H(d) + dl, H(s), sl);
    H(d)[dl + sl] = 0;
    return d;
  }
  case KIT_GFN_STRCMP: {
    const uint8_t *x = H(d), *y = H(s);
    size_t i = 0;
    while (x[i] && x[i] == y[i])
      i++;
    READ(d, i + 1);
    READ(s, i + 1);
    return (uint64_t)(int64_t)(x[i] - y[i]);
  }
  case KIT_GFN_STRNCMP: {
    const uint8_t *x = H(d), *y = H(s);
    size_t i = 0;
    while (i < n && x[i] && x[i] == y[i])
      i++;
    size_t k = i < n ? i + 1 : n;
    READ(d, k);
    READ(s, k);
    return i < n ? (uint64_t)(int64_t)(x[i] - y[i]) : 0;
  }
  case KIT_GFN_STRCASECMP: {
    const uint8_t *x = H(d), *y = H(s);
    size_t i = 0;
    while (x[i] && tolower(x[i]) == tolower(y[i]))
      i++;
    READ(d, i + 1);
    READ(s, i + 1);
    return (uint64_t)(int64_t)(tolower(x[i]) - tolower(y[i]));
  }
  case KIT_GFN_STRNCASECMP: {
    const uint8_t *x = H(d), *y = H(s);
    size_t i = 0;
    while (i < n && x[i] && tolower(x[i]) == tolower(y[i]))
      i++;
    size_t k = i < n ? i + 1 : n;
    READ(d, k);
    READ(s, k);
    return i < n ? (uint64_t)(int64_t)(tolower(x[i]) - tolower(y[i])) : 0;
  }
  case KIT_GFN_STRCHR:
  case KIT_GFN_STRCHRNUL: {
    const uint8_t *p = H(d);
    size_t i = 0;
    while (p[i] && p[i] != (uint8_t)s)
      i++;
    READ(d, i + 1);
    if (fn == KIT_GFN_STRCHRNUL || p[i] == (uint8_t)s)
      return d + i;
    return 0;
  }
  case KIT_GFN_STRRCHR: {
    const uint8_t *p = H(d);
    uintptr_t last = 0;
    size_t i = 0;
    for (;; i++) {
      if (p[i] == (uint8_t)s)
        last = d + i;
      if (!p[i])
        break;
    }
    READ(d, i + 1);
    return last;
  }
  case KIT_GFN_STRSTR: {
    size_t hl = slen(d), nl = slen(s);
    READ(d, hl + 1);
    READ(s, nl + 1);
    const char *r = strstr((const char *)H(d), (const char *)H(s));
    return r ? d + (uintptr_t)((const uint8_t *)r - H(d)) : 0;
  }
  case KIT_GFN_STRDUP:
  case KIT_GFN_STRNDUP: {
    size_t l = 0;
    if (fn == KIT_GFN_STRDUP) {
      l = slen(d);
      READ(d, l + 1);
    } else {
      while (l < s && H(d)[l])
        l++;
      READ(d, l < s ? l + 1 : l);
    }
    uintptr_t p = alloc(c, l + 1, 8, false, caller);
    if (p) {
      memcpy(H(p), H(d), l);
      H(p)[l] = 0;
    }
    return p;
  }
  case KIT_GFN_STRSPN:
  case KIT_GFN_STRCSPN:
  case KIT_GFN_STRPBRK: {
    /* as clang's interceptors: the set and the bytes scanned, terminator
     * or match included, exactly (glibc's own read words past the end) */
    size_t r = span(d, s, fn == KIT_GFN_STRSPN);
    READ(s, slen(s) + 1);
    READ(d, r + 1);
    if (fn != KIT_GFN_STRPBRK)
      return r;
    return H(d)[r] ? d + r : 0;
  }
  case KIT_GFN_STRTOK:
    return guest_strtok(c, d, s);
  default:
    return NEG(ENOSYS);
  }
}
