/* sanitizer-rt/ubsan/report.c — UBSan's report writer: UBSAN_OPTIONS
 * (halt_on_error, print_stacktrace, print_summary, exitcode, log_path,
 * suppressions, report_error_type), one report per site, clang's layout
 * ("file:line:col: runtime error: ...", "SUMMARY: UndefinedBehaviorSanitizer:
 * undefined-behavior file:line:col in "), the memory note of alignment reports
 * and the stack trace, through ASan's unwinder and symbolizer when that runtime
 * is linked too, through dladdr otherwise. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ubsan_rt.h"

typedef struct Options {
  bool halt_on_error, print_stacktrace, print_summary, report_error_type;
  int exitcode;
  char log_path[512];
  char suppressions[512];
} Options;

static Options opt;
static bool opt_ready;
static int out_fd = 2;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t cur_col; /* the site's column, taken from the record under lock */

#define MAX_SUPP 64
static struct {
  char check[48];
  char pattern[208];
} supp[MAX_SUPP];
static int nsupp;

static bool flag_bool(const char *v) { return !strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes"); }

static void set_option(const char *k, size_t kn, const char *v) {
#define IS(name) (kn == strlen(name) && !strncmp(k, name, kn))
  if (IS("halt_on_error")) opt.halt_on_error = flag_bool(v);
  else if (IS("print_stacktrace")) opt.print_stacktrace = flag_bool(v);
  else if (IS("print_summary")) opt.print_summary = flag_bool(v);
  else if (IS("report_error_type")) opt.report_error_type = flag_bool(v);
  else if (IS("exitcode")) opt.exitcode = atoi(v);
  else if (IS("log_path")) snprintf(opt.log_path, sizeof opt.log_path, "%s", v);
  else if (IS("suppressions")) snprintf(opt.suppressions, sizeof opt.suppressions, "%s", v);
#undef IS
}

/* "a=1:b=2" (also separated by spaces or commas, as sanitizer_common accepts) */
static void parse_options(const char *s) {
  char buf[2048];
  snprintf(buf, sizeof buf, "%s", s);
  for (char *tok = strtok(buf, ": ,\n\t"); tok; tok = strtok(NULL, ": ,\n\t")) {
    char *eq = strchr(tok, '=');
    if (!eq) continue;
    set_option(tok, (size_t)(eq - tok), eq + 1);
  }
}

/* "check:pattern" lines; # starts a comment */
static void load_suppressions(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    dprintf(2, "UndefinedBehaviorSanitizer: failed to read suppressions file '%s'\n", path);
    _exit(1);
  }
  char line[256];
  while (nsupp < MAX_SUPP && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    char *p = line + strspn(line, " \t");
    char *c = strchr(p, ':');
    if (*p == '#' || !c) continue;
    *c = 0;
    snprintf(supp[nsupp].check, sizeof supp[nsupp].check, "%s", p);
    snprintf(supp[nsupp].pattern, sizeof supp[nsupp].pattern, "%s", c + 1);
    nsupp++;
  }
  fclose(f);
}

static void init_options(void) {
  if (opt_ready) return;
  opt_ready = true;
  opt.print_summary = true;
  opt.exitcode = 1;
  const char *env = getenv("UBSAN_OPTIONS");
  if (env) parse_options(env);
  if (opt.suppressions[0]) load_suppressions(opt.suppressions);
  if (opt.log_path[0] && strcmp(opt.log_path, "stderr")) {
    char path[600];
    if (!strcmp(opt.log_path, "stdout")) {
      out_fd = 1;
      return;
    }
    snprintf(path, sizeof path, "%s.%d", opt.log_path, (int)getpid());
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (fd >= 0) out_fd = fd;
  }
}

/* a pattern matches a file by its path or its last component, '*' as a glob */
static bool suppressed(const char *check, const char *file) {
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  for (int i = 0; i < nsupp; i++) {
    if (strcmp(supp[i].check, check) && strcmp(supp[i].check, "undefined")) continue;
    const char *p = supp[i].pattern;
    if (!fnmatch(p, file, 0) || !fnmatch(p, base, 0) || strstr(file, p)) return true;
  }
  return false;
}

bool kit_ubsan_begin(KitUbsanData *d, const char *check) {
  init_options();
  uint32_t col = __atomic_exchange_n(&d->col, ~0u, __ATOMIC_RELAXED);
  if (col == ~0u || suppressed(check, d->file)) return false;
  pthread_mutex_lock(&lock);
  cur_col = col; /* the record's column is gone now: keep it for the message */
  return true;
}

static void vout(const char *fmt, va_list ap) {
  char buf[4096];
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  if (n < 0) return;
  if ((size_t)n >= sizeof buf) n = sizeof buf - 1;
  for (ssize_t off = 0, w; off < n; off += w)
    if ((w = write(out_fd, buf + off, (size_t)(n - off))) <= 0) break;
}

void kit_ubsan_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vout(fmt, ap);
  va_end(ap);
}

void kit_ubsan_error(const KitUbsanData *d, const char *fmt, ...) {
  kit_ubsan_printf("%s:%u:%u: runtime error: ", d->file, d->line, cur_col);
  va_list ap;
  va_start(ap, fmt);
  vout(fmt, ap);
  va_end(ap);
  kit_ubsan_printf("\n");
}

/* bytes in [p, p+n) readable? A write to a pipe fails with EFAULT when not. */
static bool readable(uintptr_t p, size_t n) {
  int fds[2];
  if (pipe(fds)) return false;
  bool ok = write(fds[1], (const void *)p, n) == (ssize_t)n;
  close(fds[0]);
  close(fds[1]);
  return ok;
}

void kit_ubsan_memory_note(uintptr_t addr) {
  kit_ubsan_printf("0x%012lx: note: pointer points here\n", (unsigned long)addr);
  uintptr_t min = addr >= 4 ? addr - 4 : 0, max = min + 32;
  if (!readable(min, max - min)) {
    kit_ubsan_printf("<memory cannot be printed>\n");
    return;
  }
  char line[160], hl[160];
  size_t n = 0, h = 0;
  for (uintptr_t p = min; p != max; p++)
    n += (size_t)snprintf(line + n, sizeof line - n, "%s%02x", p % 8 == 0 ? "  " : " ", *(const unsigned char *)p);
  for (uintptr_t p = min; p <= addr; p++) {
    if (p % 8 == 0) hl[h++] = ' ';
    hl[h++] = ' ';
    hl[h++] = p == addr ? '^' : ' ';
    hl[h++] = ' ';
  }
  hl[h] = 0;
  kit_ubsan_printf("%s\n%s\n", line, hl);
}

/* ASan's frame source and printer, when libkit_asan is linked as well */
extern size_t kit_san_unwind(uintptr_t pc, uintptr_t bp, uintptr_t *out, size_t max) __attribute__((weak));
extern void kit_san_print_stack(const uintptr_t *frames, size_t n) __attribute__((weak));

static void print_stack(void) {
  uintptr_t frames[64];
  size_t n = 0;
  uintptr_t *fp = __builtin_frame_address(0);
  if (kit_san_unwind && kit_san_print_stack) {
    n = kit_san_unwind((uintptr_t)__builtin_return_address(0), (uintptr_t)fp, frames, 64);
    /* drop the runtime's own frames: the first frame is the handler's caller already */
    kit_san_print_stack(frames + (n > 2 ? 2 : 0), n > 2 ? n - 2 : n);
    return;
  }
  /* frame-pointer walk: skip this function, kit_ubsan_end and the handler */
  for (int skip = 0; fp && n < 64; skip++) {
    uintptr_t ret = fp[1];
    if (!ret) break;
    if (skip >= 2) frames[n++] = ret - 1;
    uintptr_t *next = (uintptr_t *)fp[0];
    if (next <= fp) break;
    fp = next;
  }
  for (size_t i = 0; i < n; i++) {
    Dl_info di;
    if (dladdr((void *)frames[i], &di) && di.dli_fname) {
      kit_ubsan_printf("    #%zu 0x%lx in %s (%s+0x%lx)\n", i, (unsigned long)frames[i],
                       di.dli_sname ? di.dli_sname : "<unknown>", di.dli_fname,
                       (unsigned long)(frames[i] - (uintptr_t)di.dli_fbase));
    } else {
      kit_ubsan_printf("    #%zu 0x%lx\n", i, (unsigned long)frames[i]);
    }
  }
  kit_ubsan_printf("\n");
}

void kit_ubsan_end(const KitUbsanData *d, bool fatal) {
  if (opt.print_stacktrace) print_stack();
  if (opt.print_summary)
    kit_ubsan_printf("SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior %s:%u:%u in \n", d->file, d->line, cur_col);
  pthread_mutex_unlock(&lock);
  if (fatal || opt.halt_on_error) _exit(opt.exitcode);
}
