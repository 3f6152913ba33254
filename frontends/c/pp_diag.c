/* frontends/c/pp_diag.c — gcc-style diagnostics for the preprocessor:
 * "file:line:col: error: message", the source line and a caret, and the
 * source-line lookup the parser uses for its own carets. */
#include "pp_internal.h"
#include "warn.h"

#include <stdlib.h>

const char *cpp_source_line(const CPP *pp, uint32_t file, uint32_t line, size_t *len) {
  if (file >= pp->nfiles) return NULL;
  SrcFile *f = pp->files[file];
  if (!f->buf) return NULL;
  if (!f->line_off) {
    uint32_t n = 1;
    for (size_t i = 0; i < f->len; i++) n += f->buf[i] == '\n';
    f->line_off = malloc((n + 1) * sizeof *f->line_off);
    if (!f->line_off) return NULL;
    f->nlines = 0;
    f->line_off[f->nlines++] = 0;
    for (size_t i = 0; i < f->len; i++)
      if (f->buf[i] == '\n') f->line_off[f->nlines++] = (uint32_t)(i + 1);
  }
  if (line == 0 || line > f->nlines) return NULL;
  const char *s = f->buf + f->line_off[line - 1];
  const char *e = memchr(s, '\n', f->len - f->line_off[line - 1]);
  size_t n = e ? (size_t)(e - s) : f->len - f->line_off[line - 1];
  if (n && s[n - 1] == '\r') n--;
  if (len) *len = n;
  return s;
}

static bool in_system_header(CPP *pp) {
  return pp->nctx && pp->ctx[pp->nctx - 1].system;
}

void cpp_print_caret(const CPP *pp, FILE *out, CPos pos) {
  size_t n = 0;
  const char *src = pos.line ? cpp_source_line(pp, pos.file, pos.line, &n) : NULL;
  if (!src) return;
  fprintf(out, "%5u | %.*s\n      | ", pos.line, (int)n, src);
  for (uint32_t i = 1; i < pos.col && i <= n; i++) fputc(src[i - 1] == '\t' ? '\t' : ' ', out);
  fputs("^\n", out);
}

static void report_suffixed(CPP *pp, const char *kind, const char *suffix, CPos pos, const char *fmt, va_list ap);

static void report(CPP *pp, const char *kind, CPos pos, const char *fmt, va_list ap) {
  report_suffixed(pp, kind, NULL, pos, fmt, ap);
}

static void report_suffixed(CPP *pp, const char *kind, const char *suffix, CPos pos, const char *fmt, va_list ap) {
  FILE *out = pp->opt.err ? pp->opt.err : stderr;
  const char *name = pos.file < pp->nfiles ? pp->files[pos.file]->path : "<command-line>";
  if (pos.line) fprintf(out, "%s:%u:%u: %s: ", name, pos.line, pos.col, kind);
  else fprintf(out, "%s: %s: ", name, kind);
  vfprintf(out, fmt, ap);
  if (suffix) fprintf(out, " [%s]", suffix);
  fputc('\n', out);
  cpp_print_caret(pp, out, pos);
}

void pp_error(CPP *pp, CPos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(pp, "error", pos, fmt, ap);
  va_end(ap);
  pp->errors++;
}

static void vwarn(CPP *pp, CWarnId id, CPos pos, const char *fmt, va_list ap) {
  if (in_system_header(pp)) return;
  CWarnState st = c_warn_state(pp->opt.warn, id);
  if (st == WS_OFF) return;
  const char *name = c_warn_name(id);
  char suffix[96];
  if (st == WS_ERROR) snprintf(suffix, sizeof suffix, name ? "-Werror=%s" : "-Werror", name);
  else snprintf(suffix, sizeof suffix, "-W%s", name ? name : "");
  report_suffixed(pp, st == WS_ERROR ? "error" : "warning", st == WS_ERROR || name ? suffix : NULL, pos, fmt, ap);
  if (st == WS_ERROR) pp->errors++;
  else pp->warnings++;
}

void pp_warning(CPP *pp, CPos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vwarn(pp, W_NONE, pos, fmt, ap);
  va_end(ap);
}

void pp_warn(CPP *pp, int warn_id, CPos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vwarn(pp, (CWarnId)warn_id, pos, fmt, ap);
  va_end(ap);
}

void pp_note(CPP *pp, CPos pos, const char *fmt, ...) {
  if (in_system_header(pp)) return;
  va_list ap;
  va_start(ap, fmt);
  report(pp, "note", pos, fmt, ap);
  va_end(ap);
}

int cpp_errors(const CPP *pp) { return pp->errors; }
