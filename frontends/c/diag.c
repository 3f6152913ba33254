/* frontends/c/diag.c — compiler diagnostics in gcc's layout:
 * "file:line:col: error: message", the source line, and a caret under the column. */
#include <stdarg.h>
#include <stdio.h>

#include "cc.h"

static void emit(CDiag *d, CPos pos, const char *kind, const char *fmt, va_list ap) {
  c_emit_suffixed(d, pos, kind, NULL, fmt, ap);
}

/* the message, then " [-Wname]" (suffix) as gcc ends a named warning */
void c_emit_suffixed(CDiag *d, CPos pos, const char *kind, const char *suffix, const char *fmt, va_list ap) {
  FILE *out = d->out ? d->out : stderr;
  const char *file = d->pp ? cpp_file_name(d->pp, pos.file) : NULL;
  if (file && pos.line)
    fprintf(out, "%s:%u:%u: %s: ", file, pos.line, pos.col, kind);
  else
    fprintf(out, "kitcc: %s: ", kind);
  vfprintf(out, fmt, ap);
  if (suffix) fprintf(out, " [%s]", suffix);
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

static CWarnState state_of(const CDiag *d, CWarnId id) {
  if (d->flags) return c_warn_state(d->flags, id);
  return d->no_warnings ? WS_OFF : d->werror ? WS_ERROR : WS_WARN;
}

static void vwarn(CDiag *d, CWarnId id, CPos pos, const char *fmt, va_list ap) {
  CWarnState st = state_of(d, id);
  if (st == WS_OFF || (d->pp && cpp_file_is_system(d->pp, pos.file))) return;
  const char *name = c_warn_name(id);
  char suffix[96];
  if (st == WS_ERROR) snprintf(suffix, sizeof suffix, name ? "-Werror=%s" : "-Werror", name);
  else snprintf(suffix, sizeof suffix, "-W%s", name ? name : "");
  c_emit_suffixed(d, pos, st == WS_ERROR ? "error" : "warning", st == WS_ERROR || name ? suffix : NULL, fmt, ap);
  if (st == WS_ERROR) {
    d->errors++;
    d->warn_errors++;
  } else {
    d->warnings++;
  }
}

void c_warning(CDiag *d, CPos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vwarn(d, W_NONE, pos, fmt, ap);
  va_end(ap);
}

void c_warn(CDiag *d, CWarnId id, CPos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vwarn(d, id, pos, fmt, ap);
  va_end(ap);
}

bool c_warn_on(const CDiag *d, CWarnId id) { return state_of(d, id) != WS_OFF; }

void c_note(CDiag *d, CPos pos, const char *fmt, ...) {
  if (d->no_warnings || d->fatal || (d->flags && d->flags->none)) return;
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
