/* frontends/c/diag.c — compiler diagnostics in gcc's layout:
 * "file:line:col: error: message", the source line, and a caret under the column. */
#include <stdarg.h>
#include <stdio.h>

#include "cc.h"

static void emit(CDiag *d, CPos pos, const char *kind, const char *fmt, va_list ap) {
  FILE *out = d->out ? d->out : stderr;
  const char *file = d->pp ? cpp_file_name(d->pp, pos.file) : NULL;
  if (file && pos.line)
    fprintf(out, "%s:%u:%u: %s: ", file, pos.line, pos.col, kind);
  else
    fprintf(out, "kitcc: %s: ", kind);
  vfprintf(out, fmt, ap);
  fputc('\n', out);
  size_t len = 0;
  const char *line = d->pp && pos.line ? cpp_source_line(d->pp, pos.file, pos.line, &len) : NULL;
  if (!line) return;
  fprintf(out, "%5u | %.*s\n      | ", pos.line, (int)len, line);
  /* keep tabs so the caret lines up under the same column */
  for (unsigned i = 1; i < pos.col && i <= len; i++) fputc(line[i - 1] == '\t' ? '\t' : ' ', out);
  fputs("^\n", out);
}

void c_error(CDiag *d, CPos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit(d, pos, "error", fmt, ap);
  va_end(ap);
  d->errors++;
}

void c_warning(CDiag *d, CPos pos, const char *fmt, ...) {
  if (d->no_warnings) return;
  va_list ap;
  va_start(ap, fmt);
  emit(d, pos, d->werror ? "error" : "warning", fmt, ap);
  va_end(ap);
  if (d->werror)
    d->errors++;
  else
    d->warnings++;
}

void c_note(CDiag *d, CPos pos, const char *fmt, ...) {
  if (d->no_warnings) return;
  va_list ap;
  va_start(ap, fmt);
  emit(d, pos, "note", fmt, ap);
  va_end(ap);
}
