/* frontends/c/pp_output.c — `-E`: the expanded token stream as text, with
 * gcc's line markers (`# 1 "x.h" 1 3 4`) and only the spaces that keep
 * re-lexing faithful (a space where two tokens would otherwise fuse). */
#include "pp_internal.h"

void cpp_set_preprocess_only(CPP *pp, bool on) { pp->emode = on; }
void cpp_set_line_markers(CPP *pp, bool on) { pp->no_markers = !on; }

const char *pp_spelling(const Tok *t) {
  if (!(t->flags & TF_DIGRAPH)) return t->t.text;
  switch (t->t.text[0]) {
  case '[': return "<:";
  case ']': return ":>";
  case '{': return "<%";
  case '}': return "%>";
  default: return t->t.text[1] ? "%:%:" : "%:";
  }
}

/* Would `a` immediately followed by `b` lex differently? */
static bool would_fuse(const Tok *a, const Tok *b) {
  const char *x = pp_spelling(a), *y = pp_spelling(b);
  CTokKind ka = a->t.kind, kb = b->t.kind;
  if (!*x || !*y) return false;
  bool wa = ka == CT_IDENT || ka == CT_NUMBER, wb = kb == CT_IDENT || kb == CT_NUMBER;
  if (wa && (wb || kb == CT_STRING || kb == CT_CHAR)) return true;
  if (ka == CT_NUMBER) {
    char last = x[strlen(x) - 1];
    if (y[0] == '.' || ((y[0] == '+' || y[0] == '-') && strchr("eEpP", last))) return true;
  }
  if (ka == CT_PUNCT && kb == CT_NUMBER && !strcmp(x, ".")) return true;
  if (ka == CT_PUNCT && (kb == CT_PUNCT || kb == CT_OTHER)) {
    if (x[0] == '/' && !x[1] && (y[0] == '/' || y[0] == '*')) return true;
    if (!strcmp(x, ".") && y[0] == '.') return true;
    char buf[8];
    size_t n = strlen(x);
    if (n < 6) {
      memcpy(buf, x, n);
      buf[n] = y[0];
      if (pp_is_punct_spelling(buf, n + 1)) return true;
      if (n + 1 < 7 && y[1]) {
        buf[n + 1] = y[1];
        if (pp_is_punct_spelling(buf, n + 2)) return true;
      }
    }
  }
  return false;
}

/* `# line "file"` plus gcc's flags: " 1" enter, " 2" return, " 3 4" system header. */
static void marker(CPP *pp, FILE *out, uint32_t line, uint32_t file, int flag, bool sys) {
  if (pp->no_markers) return;
  fprintf(out, "# %u \"", line);
  for (const char *s = cpp_file_name(pp, file); *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', out);
    fputc(*s, out);
  }
  fputc('"', out);
  if (flag == 1 || flag == 2) fprintf(out, " %d", flag);
  if (flag == EV_SYSHDR) fputs(" 3", out);
  else if (sys) fputs(" 3 4", out);
  fputc('\n', out);
}

int cpp_write_preprocessed(CPP *pp, FILE *out) {
  size_t ev = 0;
  uint32_t cur_file = UINT32_MAX, cur_line = 0;
  bool at_bol = true, sys = false;
  const Tok *prev = NULL;
  for (;;) {
    Tok *t = pp_expand_next(pp);
    if (t->flags & TF_ARGEND) continue;
    for (; ev < pp->nevents; ev++) {
      PPEvent *e = &pp->events[ev];
      if (!at_bol) fputc('\n', out);
      if (e->flag == EV_BEGIN) {
        marker(pp, out, 0, e->file, 0, false);
        if (!pp->no_markers) fputs("# 0 \"<built-in>\"\n# 0 \"<command-line>\"\n", out);
      } else if (e->flag == EV_PRAGMA) {
        fprintf(out, "%s\n", e->text);
        cur_file = UINT32_MAX; /* what follows gets a marker, as in gcc */
        at_bol = true;
        prev = NULL;
        continue;
      } else if (e->flag == EV_CMDLINE) {
        if (!pp->no_markers) fputs("# 0 \"<command-line>\" 2\n", out);
      } else {
        marker(pp, out, e->line, e->file, e->flag, e->system);
      }
      cur_file = e->file;
      cur_line = e->line;
      sys = e->system;
      at_bol = true;
      prev = NULL;
    }
    if (t->t.kind == CT_EOF) break;
    CPos p = t->t.exp;
    if (p.file != cur_file || p.line > cur_line) {
      if (!at_bol) fputc('\n', out);
      if (pp->no_markers) {
        /* -P: no markers, and runs of blank lines collapse as in gcc */
      } else if (p.file == cur_file && p.line - cur_line <= 8) {
        for (uint32_t i = cur_line + (at_bol ? 0 : 1); i < p.line; i++) fputc('\n', out);
      } else {
        marker(pp, out, p.line, p.file, 0, p.file == cur_file && sys);
      }
      cur_file = p.file;
      cur_line = p.line;
      if (t->t.bol && t->t.pos.line == p.line)
        for (uint32_t i = 1; i < t->t.pos.col && i < 80; i++) fputc(' ', out);
      else if (t->t.space)
        fputc(' ', out);
      at_bol = true;
      prev = NULL;
      /* a `#` opening an output line must not read back as a directive */
      if (t->t.kind == CT_PUNCT && !strcmp(t->t.text, "#")) fputc(' ', out);
    } else if (!at_bol && (t->t.space || would_fuse(prev, t))) {
      fputc(' ', out);
    }
    fputs(pp_spelling(t), out);
    at_bol = false;
    prev = t;
  }
  if (!at_bol) fputc('\n', out);
  return pp->errors ? -1 : 0;
}
