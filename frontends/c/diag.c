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
  if (d->pp) cpp_print_caret(d->pp, out, pos);
}

void c_error(CDiag *d, CPos pos, const char *fmt, ...) {
  if (d->fatal) return;
  va_list ap;
  va_start(ap, fmt);
  emit(d, pos, "error", fmt, ap);
  va_end(ap);
  d->errors++;
}

void c_warning(CDiag *d, CPos pos, const char *fmt, ...) {
  if (d->no_warnings || d->fatal) return;
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
  if (d->no_warnings || d->fatal) return;
  va_list ap;
  va_start(ap, fmt);
  emit(d, pos, "note", fmt, ap);
  va_end(ap);
}

static void emit_plain(CDiag *d, CPos pos, const char *kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit(d, pos, kind, fmt, ap);
  va_end(ap);
}

void c_fatal(CDiag *d, CPos pos, const char *note, const char *fmt, ...) {
  if (d->fatal) return;
  va_list ap;
  va_start(ap, fmt);
  emit(d, pos, "fatal error", fmt, ap);
  va_end(ap);
  if (note) emit_plain(d, pos, "note", "%s", note);
  d->errors++;
  d->fatal = true;
}
