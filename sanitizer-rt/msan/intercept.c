/* intercept.c — libc functions seen by MemorySanitizer: what libc writes into
 * the program's memory is made initialized (read, fread, fgets, recv, stat,
 * time, snprintf's output, strtod's end pointer, the strcpy family copying the
 * source's shadow ...), and what libc passes on out of the program (write,
 * fwrite, send, memcmp's operands) must be initialized, else a report names
 * the interceptor as clang's runtime does. libc's own definition comes from
 * dlsym(RTLD_NEXT). */
#define _GNU_SOURCE
#include "msan_rt.h"
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* glibc's headers declare some of these pointers nonnull; programs pass NULL anyway */
#pragma GCC diagnostic ignored "-Wnonnull-compare"

static void unpoison_str(const char *s) {
  if (s) msan_unpoison(s, strlen(s) + 1);
}

/* ---- what libc reads out of the program ---- */

DECLARE_REAL(write);
ssize_t write(int fd, const void *buf, size_t n) {
  ssize_t r = REAL(ssize_t(*)(int, const void *, size_t), write)(fd, buf, n);
  if (r > 0) MSAN_CHECK("__interceptor_write", buf, (size_t)r);
  return r;
}

DECLARE_REAL(fwrite);
size_t fwrite(const void *p, size_t size, size_t n, FILE *f) {
  size_t r = REAL(size_t(*)(const void *, size_t, size_t, FILE *), fwrite)(p, size, n, f);
  if (r) MSAN_CHECK("__interceptor_fwrite", p, r * size);
  return r;
}

DECLARE_REAL(send);
ssize_t send(int fd, const void *buf, size_t n, int flags) {
  MSAN_CHECK("__interceptor_send", buf, n);
  return REAL(ssize_t(*)(int, const void *, size_t, int), send)(fd, buf, n, flags);
}

DECLARE_REAL(memcmp);
int memcmp(const void *a, const void *b, size_t n) {
  MSAN_CHECK("__interceptor_memcmp", a, n);
  MSAN_CHECK("__interceptor_memcmp", b, n);
  return REAL(int (*)(const void *, const void *, size_t), memcmp)(a, b, n);
}

/* ---- what libc writes into the program ---- */

DECLARE_REAL(read);
ssize_t read(int fd, void *buf, size_t n) {
  ssize_t r = REAL(ssize_t(*)(int, void *, size_t), read)(fd, buf, n);
  if (r > 0) msan_unpoison(buf, (size_t)r);
  return r;
}

DECLARE_REAL(pread);
ssize_t pread(int fd, void *buf, size_t n, off_t off) {
  ssize_t r = REAL(ssize_t(*)(int, void *, size_t, off_t), pread)(fd, buf, n, off);
  if (r > 0) msan_unpoison(buf, (size_t)r);
  return r;
}

DECLARE_REAL(fread);
size_t fread(void *p, size_t size, size_t n, FILE *f) {
  size_t r = REAL(size_t(*)(void *, size_t, size_t, FILE *), fread)(p, size, n, f);
  if (r) msan_unpoison(p, r * size);
  return r;
}

DECLARE_REAL(fgets);
char *fgets(char *s, int n, FILE *f) {
  char *r = REAL(char *(*)(char *, int, FILE *), fgets)(s, n, f);
  unpoison_str(r);
  return r;
}

DECLARE_REAL(getdelim);
ssize_t getdelim(char **line, size_t *n, int delim, FILE *f) {
  ssize_t r = REAL(ssize_t(*)(char **, size_t *, int, FILE *), getdelim)(line, n, delim, f);
  msan_unpoison(line, sizeof *line);
  msan_unpoison(n, sizeof *n);
  if (r > 0) msan_unpoison(*line, (size_t)r + 1);
  return r;
}

ssize_t getline(char **line, size_t *n, FILE *f) { return getdelim(line, n, '\n', f); }

DECLARE_REAL(recv);
ssize_t recv(int fd, void *buf, size_t n, int flags) {
  ssize_t r = REAL(ssize_t(*)(int, void *, size_t, int), recv)(fd, buf, n, flags);
  if (r > 0) msan_unpoison(buf, (size_t)r);
  return r;
}

DECLARE_REAL(recvfrom);
ssize_t recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *from, socklen_t *len) {
  ssize_t r = REAL(ssize_t(*)(int, void *, size_t, int, struct sockaddr *, socklen_t *), recvfrom)(fd, buf, n, flags,
                                                                                                 from, len);
  if (r > 0) msan_unpoison(buf, (size_t)r);
  if (r >= 0 && len) {
    msan_unpoison(len, sizeof *len);
    if (from) msan_unpoison(from, *len);
  }
  return r;
}

#define STAT_LIKE(name, arg_t)                                                   \
  DECLARE_REAL(name);                                                            \
  int name(arg_t a, struct stat *st) {                                           \
    int r = REAL(int (*)(arg_t, struct stat *), name)(a, st);                    \
    if (!r) msan_unpoison(st, sizeof *st);                                       \
    return r;                                                                    \
  }
STAT_LIKE(stat, const char *)
STAT_LIKE(lstat, const char *)
STAT_LIKE(fstat, int)

DECLARE_REAL(time);
time_t time(time_t *t) {
  time_t r = REAL(time_t(*)(time_t *), time)(t);
  if (t) msan_unpoison(t, sizeof *t);
  return r;
}

DECLARE_REAL(gettimeofday);
int gettimeofday(struct timeval *tv, void *tz) {
  int r = REAL(int (*)(struct timeval *, void *), gettimeofday)(tv, tz);
  if (!r && tv) msan_unpoison(tv, sizeof *tv);
  return r;
}

DECLARE_REAL(clock_gettime);
int clock_gettime(clockid_t c, struct timespec *ts) {
  int r = REAL(int (*)(clockid_t, struct timespec *), clock_gettime)(c, ts);
  if (!r) msan_unpoison(ts, sizeof *ts);
  return r;
}

#define TM_R(name)                                                               \
  DECLARE_REAL(name);                                                            \
  struct tm *name(const time_t *t, struct tm *tm) {                              \
    struct tm *r = REAL(struct tm *(*)(const time_t *, struct tm *), name)(t, tm); \
    if (r) msan_unpoison(r, sizeof *r);                                          \
    return r;                                                                    \
  }
TM_R(localtime_r)
TM_R(gmtime_r)

DECLARE_REAL(mktime);
time_t mktime(struct tm *tm) {
  time_t r = REAL(time_t(*)(struct tm *), mktime)(tm);
  msan_unpoison(tm, sizeof *tm);
  return r;
}

DECLARE_REAL(strftime);
size_t strftime(char *s, size_t max, const char *fmt, const struct tm *tm) {
  size_t r = REAL(size_t(*)(char *, size_t, const char *, const struct tm *), strftime)(s, max, fmt, tm);
  if (r) msan_unpoison(s, r + 1);
  return r;
}

DECLARE_REAL(vsnprintf);
int vsnprintf(char *s, size_t n, const char *fmt, va_list ap) {
  int r = REAL(int (*)(char *, size_t, const char *, va_list), vsnprintf)(s, n, fmt, ap);
  if (r >= 0 && n) msan_unpoison(s, ((size_t)r < n ? (size_t)r : n - 1) + 1);
  return r;
}

DECLARE_REAL(vsprintf);
int vsprintf(char *s, const char *fmt, va_list ap) {
  int r = REAL(int (*)(char *, const char *, va_list), vsprintf)(s, fmt, ap);
  if (r >= 0) msan_unpoison(s, (size_t)r + 1);
  return r;
}

int snprintf(char *s, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsnprintf(s, n, fmt, ap);
  va_end(ap);
  return r;
}

int sprintf(char *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsprintf(s, fmt, ap);
  va_end(ap);
  return r;
}

#define STRTO_INT(type, name)                                                    \
  DECLARE_REAL(name);                                                            \
  type name(const char *s, char **end, int base) {                               \
    type r = REAL(type(*)(const char *, char **, int), name)(s, end, base);      \
    if (end) msan_unpoison(end, sizeof *end);                                    \
    return r;                                                                    \
  }
#define STRTO_FLT(type, name)                                                    \
  DECLARE_REAL(name);                                                            \
  type name(const char *s, char **end) {                                         \
    type r = REAL(type(*)(const char *, char **), name)(s, end);                 \
    if (end) msan_unpoison(end, sizeof *end);                                    \
    return r;                                                                    \
  }
STRTO_INT(long, strtol)
STRTO_INT(unsigned long, strtoul)
STRTO_INT(long long, strtoll)
STRTO_INT(unsigned long long, strtoull)
STRTO_FLT(double, strtod)
STRTO_FLT(float, strtof)
STRTO_FLT(long double, strtold)

#define FREXP(type, name, out_t)                                                 \
  DECLARE_REAL(name);                                                            \
  type name(type x, out_t *out) {                                                \
    type r = REAL(type(*)(type, out_t *), name)(x, out);                         \
    msan_unpoison(out, sizeof *out);                                             \
    return r;                                                                    \
  }
FREXP(double, frexp, int)
FREXP(float, frexpf, int)
FREXP(long double, frexpl, int)
FREXP(double, modf, double)
FREXP(float, modff, float)
FREXP(long double, modfl, long double)

/* the strcpy family: the copy's shadow is the source's */
DECLARE_REAL(strcpy);
char *strcpy(char *d, const char *s) {
  size_t n = strlen(s) + 1;
  char *r = REAL(char *(*)(char *, const char *), strcpy)(d, s);
  msan_copy_shadow(d, s, n);
  return r;
}

DECLARE_REAL(stpcpy);
char *stpcpy(char *d, const char *s) {
  size_t n = strlen(s) + 1;
  char *r = REAL(char *(*)(char *, const char *), stpcpy)(d, s);
  msan_copy_shadow(d, s, n);
  return r;
}

DECLARE_REAL(strncpy);
char *strncpy(char *d, const char *s, size_t n) {
  size_t k = strnlen(s, n);
  char *r = REAL(char *(*)(char *, const char *, size_t), strncpy)(d, s, n);
  msan_copy_shadow(d, s, k);
  if (k < n) msan_unpoison(d + k, n - k);
  return r;
}

DECLARE_REAL(strcat);
char *strcat(char *d, const char *s) {
  size_t dl = strlen(d), n = strlen(s) + 1;
  char *r = REAL(char *(*)(char *, const char *), strcat)(d, s);
  msan_copy_shadow(d + dl, s, n);
  return r;
}

DECLARE_REAL(strncat);
char *strncat(char *d, const char *s, size_t n) {
  size_t dl = strlen(d), k = strnlen(s, n);
  char *r = REAL(char *(*)(char *, const char *, size_t), strncat)(d, s, n);
  msan_copy_shadow(d + dl, s, k);
  msan_unpoison(d + dl + k, 1);
  return r;
}

#define RETURNS_STRING(name, params, args)                                       \
  DECLARE_REAL(name);                                                            \
  char *name params {                                                            \
    char *r = REAL(char *(*) params, name) args;                                 \
    unpoison_str(r);                                                             \
    return r;                                                                    \
  }
RETURNS_STRING(getenv, (const char *name), (name))
RETURNS_STRING(getcwd, (char *buf, size_t n), (buf, n))
RETURNS_STRING(realpath, (const char *p, char *out), (p, out))
RETURNS_STRING(tmpnam, (char s[L_tmpnam]), (s))

DECLARE_REAL(mkstemp);
int mkstemp(char *tmpl) {
  int r = REAL(int (*)(char *), mkstemp)(tmpl);
  unpoison_str(tmpl);
  return r;
}

/* fresh mappings are zero-filled (or the file's bytes): initialized */
DECLARE_REAL(mmap);
void *mmap(void *addr, size_t n, int prot, int flags, int fd, off_t off) {
  void *r = REAL(void *(*)(void *, size_t, int, int, int, off_t), mmap)(addr, n, prot, flags, fd, off);
  if (r != MAP_FAILED) msan_unpoison(r, n);
  return r;
}

DECLARE_REAL(readlink);
ssize_t readlink(const char *p, char *buf, size_t n) {
  ssize_t r = REAL(ssize_t(*)(const char *, char *, size_t), readlink)(p, buf, n);
  if (r > 0) msan_unpoison(buf, (size_t)r);
  return r;
}

/* functions that fill one object the caller points to */
#define FILLS(ret, name, params, args, obj, size)                                \
  DECLARE_REAL(name);                                                            \
  ret name params {                                                              \
    ret r = REAL(ret(*) params, name) args;                                      \
    if (obj) msan_unpoison(obj, size);                                           \
    return r;                                                                    \
  }
FILLS(int, pipe, (int fds[2]), (fds), fds, 2 * sizeof(int))
FILLS(int, pipe2, (int fds[2], int fl), (fds, fl), fds, 2 * sizeof(int))
FILLS(int, socketpair, (int d, int t, int p, int sv[2]), (d, t, p, sv), sv, 2 * sizeof(int))
FILLS(int, uname, (struct utsname * u), (u), u, sizeof *u)
FILLS(int, getrlimit, (__rlimit_resource_t res, struct rlimit *rl), (res, rl), rl, sizeof *rl)
FILLS(int, getrusage, (__rusage_who_t who, struct rusage *ru), (who, ru), ru, sizeof *ru)
FILLS(clock_t, times, (struct tms * t), (t), t, sizeof *t)
FILLS(int, sigemptyset, (sigset_t * s), (s), s, sizeof *s)
FILLS(int, sigfillset, (sigset_t * s), (s), s, sizeof *s)
FILLS(int, sigaction, (int sig, const struct sigaction *act, struct sigaction *old), (sig, act, old), old,
      sizeof *old)
FILLS(pid_t, waitpid, (pid_t pid, int *status, int opts), (pid, status, opts), status, sizeof *status)
FILLS(pid_t, wait, (int *status), (status), status, sizeof *status)
FILLS(int, poll, (struct pollfd * fds, nfds_t n, int t), (fds, n, t), fds, n * sizeof *fds)
FILLS(int, pthread_create, (pthread_t * t, const pthread_attr_t *a, void *(*fn)(void *), void *arg), (t, a, fn, arg),
      t, sizeof *t)
FILLS(int, pthread_join, (pthread_t t, void **ret), (t, ret), ret, sizeof *ret)

/* the names the pass calls these by when LLVM would rewrite a call of libc's
 * (passes/msan_check.c, redirect_libcall) */
#define MSAN_ALIAS(name) extern __typeof(name) __kit_msan_##name __attribute__((alias(#name), copy(name)))
MSAN_ALIAS(strcpy);
MSAN_ALIAS(stpcpy);
MSAN_ALIAS(strncpy);
MSAN_ALIAS(strcat);
MSAN_ALIAS(strncat);
MSAN_ALIAS(memcmp);
MSAN_ALIAS(sprintf);
MSAN_ALIAS(snprintf);
MSAN_ALIAS(vsprintf);
MSAN_ALIAS(vsnprintf);
MSAN_ALIAS(fwrite);
