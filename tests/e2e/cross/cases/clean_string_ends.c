/* clean_string_ends.c — clean: every string/memory function of <string.h>
 * (and a few of <strings.h>, <stdlib.h>) on heap strings of lengths 0..40
 * starting at every offset of their chunk, so that the terminator is the
 * chunk's last byte: a libc that reads words past the terminator (glibc's
 * generic strcspn, strlen, ...) must not be reported. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static unsigned long total;

static void use(const void *p) { total += p != NULL; }

/* s and t: equal strings of length n in chunks of exactly their size */
static void reads(const char *s, const char *t, size_t n) {
  total += strlen(s) + strnlen(s, n + 8) + strnlen(s, n);
  use(strchr(s, 'z')), use(strchr(s, 0)), use(strchrnul(s, 'z')), use(strrchr(s, 'z')), use(strrchr(s, 0));
  use(index(s, 'z')), use(rindex(s, 'z'));
  use(memchr(s, 'z', n + 1)), use(memrchr(s, 'z', n + 1)), use(rawmemchr(s, 0));
  total += (unsigned)strcmp(s, t) + (unsigned)strncmp(s, t, n + 8) + (unsigned)memcmp(s, t, n + 1);
  total += (unsigned)bcmp(s, t, n + 1) + (unsigned)strcasecmp(s, t) + (unsigned)strncasecmp(s, t, n + 8);
  total += (unsigned)strcoll(s, t) + (unsigned)strverscmp(s, t);
  total += strspn(s, "abc") + strspn(s, "a") + strspn(s, "") + strcspn(s, " \t") + strcspn(s, "z");
  total += strcspn(s, "") + strspn(s, "xyzabcdefghijklmnopqrstuvw");
  use(strpbrk(s, " \t")), use(strpbrk(s, "z"));
  use(strstr(s, "zz")), use(strstr(s, "")), use(strcasestr(s, "ZZ")), use(memmem(s, n + 1, "zz", 2));
  total += (unsigned long)atoi(s) + (unsigned long)strtol(s, NULL, 10);
}

static void writes(const char *s, size_t n) {
  char *d = malloc(n + 1);
  strcpy(d, s), use(stpcpy(d, s)), strncpy(d, s, n + 1), use(stpncpy(d, s, n + 1));
  memcpy(d, s, n + 1), memmove(d, s, n + 1), use(mempcpy(d, s, n + 1));
  free(d);
  char *e = malloc(2 * n + 1);
  e[0] = 0;
  strcat(e, s), strncat(e, s, n + 8);
  total += strlen(e);
  free(e);
  char *u = strdup(s), *v = strndup(s, n + 8), *w = strndup(s, n);
  total += strlen(u) + strlen(v) + strlen(w);
  free(u), free(v), free(w);
}

/* strtok, strtok_r and strsep split a copy in a chunk of its exact size */
static void splits(const char *s, size_t n) {
  char *a = strdup(s), *save;
  for (char *tok = strtok(a, " b"); tok; tok = strtok(NULL, " b"))
    total += strlen(tok);
  memcpy(a, s, n + 1);
  for (char *tok = strtok_r(a, "c", &save); tok; tok = strtok_r(NULL, "c", &save))
    total += strlen(tok);
  memcpy(a, s, n + 1);
  for (char *p = a, *tok; (tok = strsep(&p, "d"));)
    total += strlen(tok);
  free(a);
}

int main(void) {
  for (size_t n = 0; n <= 40; n++)
    for (size_t off = 0; off < 16; off++) {
      char *bs = malloc(off + n + 1), *bt = malloc(off + n + 1);
      char *s = bs + off, *t = bt + off;
      for (size_t i = 0; i < n; i++)
        s[i] = t[i] = (char)("abcd 1\tbcad"[(i + off) % 11]);
      s[n] = t[n] = 0;
      reads(s, t, n);
      writes(s, n);
      splits(s, n);
      free(bs), free(bt);
    }
  printf("total %lu\n", total);
  return total == 0;
}
