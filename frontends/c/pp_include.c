/* frontends/c/pp_include.c — source files and #include: the search path
 * (current dir, -iquote, -I, -isystem, system dirs), #include_next,
 * __has_include, #pragma once / #import and the include-guard shortcut. */
#include "pp_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_INCLUDE_DEPTH 200

/* gcc 12's list on x86-64 Debian; kitcc uses gcc's own header directory
 * (stddef.h, stdarg.h, float.h, limits.h ...), see docs/kitcc-preprocessor.md. */
static const char *const default_system_dirs[] = {
  "/usr/lib/gcc/x86_64-linux-gnu/12/include",
  "/usr/local/include",
  "/usr/include/x86_64-linux-gnu",
  "/usr/include",
};

const char *const *cpp_default_system_dirs(size_t *n) {
  *n = sizeof default_system_dirs / sizeof *default_system_dirs;
  return default_system_dirs;
}

void pp_setup_dirs(CPP *pp) {
  const CPPOptions *o = &pp->opt;
  size_t ndef = pp->opt.no_std_inc ? 0 : sizeof default_system_dirs / sizeof *default_system_dirs;
  size_t cap = o->nquote_dirs + o->ninclude_dirs + o->nsystem_dirs + ndef;
  pp->dirs = pp_alloc(pp, (cap + 1) * sizeof *pp->dirs);
  for (size_t i = 0; i < o->nquote_dirs; i++) pp->dirs[pp->ndirs++] = o->quote_dirs[i];
  pp->bracket_start = pp->ndirs;
  for (size_t i = 0; i < o->ninclude_dirs; i++) pp->dirs[pp->ndirs++] = o->include_dirs[i];
  pp->system_start = pp->ndirs;
  for (size_t i = 0; i < o->nsystem_dirs; i++) pp->dirs[pp->ndirs++] = o->system_dirs[i];
  for (size_t i = 0; i < ndef; i++) {
    struct stat st;
    if (stat(default_system_dirs[i], &st) == 0) pp->dirs[pp->ndirs++] = default_system_dirs[i];
  }
}

SrcFile *pp_new_name(CPP *pp, const char *name) {
  if (pp->nfiles == pp->capfiles) {
    pp->capfiles = pp->capfiles ? pp->capfiles * 2 : 64;
    pp->files = realloc(pp->files, pp->capfiles * sizeof *pp->files);
    if (!pp->files) {
      fprintf(stderr, "kitcc: out of memory\n");
      exit(1);
    }
  }
  SrcFile *f = pp_alloc(pp, sizeof *f);
  f->path = pp_strndup(pp, name, strlen(name));
  f->id = (uint32_t)pp->nfiles;
  pp->files[pp->nfiles++] = f;
  return f;
}

void pp_add_dep(CPP *pp, const char *path) {
  for (size_t i = 0; i < pp->ndeps; i++)
    if (!strcmp(pp->deps[i], path)) return;
  if (pp->ndeps == pp->capdeps) {
    pp->capdeps = pp->capdeps ? pp->capdeps * 2 : 64;
    pp->deps = realloc(pp->deps, pp->capdeps * sizeof *pp->deps);
    if (!pp->deps) {
      fprintf(stderr, "kitcc: out of memory\n");
      exit(1);
    }
  }
  pp->deps[pp->ndeps++] = path;
}

static char *read_all(FILE *fp, size_t *len) {
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  for (;;) {
    if (!buf) return NULL;
    size_t r = fread(buf + n, 1, cap - n, fp);
    n += r;
    if (n < cap) break;
    cap *= 2;
    buf = realloc(buf, cap + 1);
  }
  if (ferror(fp)) {
    free(buf);
    return NULL;
  }
  buf[n] = 0;
  *len = n;
  return buf;
}

SrcFile *pp_load_file(CPP *pp, const char *path, bool quiet) {
  struct stat st;
  bool is_stdin = !strcmp(path, "-");
  if (!is_stdin) {
    int st_err = stat(path, &st) != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
    if (st_err) {
      if (!quiet) {
        fprintf(pp->opt.err ? pp->opt.err : stderr, "kitcc: error: %s: %s\n", path, strerror(st_err));
        pp->errors++;
      }
      return NULL;
    }
    for (size_t i = 0; i < pp->nfiles; i++) {
      SrcFile *f = pp->files[i];
      if (f->buf && f->dev == (unsigned long long)st.st_dev && f->ino == (unsigned long long)st.st_ino)
        return f;
    }
  }
  FILE *fp = is_stdin ? stdin : fopen(path, "rb");
  if (!fp) {
    if (!quiet) {
      fprintf(pp->opt.err ? pp->opt.err : stderr, "kitcc: error: %s: %s\n", path, strerror(errno));
      pp->errors++;
    }
    return NULL;
  }
  size_t len = 0;
  char *buf = read_all(fp, &len);
  if (!is_stdin) fclose(fp);
  if (!buf) {
    if (!quiet) {
      fprintf(pp->opt.err ? pp->opt.err : stderr, "kitcc: error: %s: read failed\n", path);
      pp->errors++;
    }
    return NULL;
  }
  SrcFile *f = pp_new_name(pp, is_stdin ? "<stdin>" : path);
  f->buf = buf;
  f->len = len;
  if (!is_stdin) {
    f->dev = (unsigned long long)st.st_dev;
    f->ino = (unsigned long long)st.st_ino;
    f->mtime = (long)st.st_mtime;
  }
  f->toks = pp_lex_file(pp, f);
  pp_add_dep(pp, f->path);
  return f;
}

void pp_add_event(CPP *pp, PPEvent e) {
  if (!pp->emode) return;
  if (pp->nevents == pp->capevents) {
    pp->capevents = pp->capevents ? pp->capevents * 2 : 64;
    pp->events = realloc(pp->events, pp->capevents * sizeof *pp->events);
    if (!pp->events) {
      fprintf(stderr, "kitcc: out of memory\n");
      exit(1);
    }
  }
  pp->events[pp->nevents++] = e;
}

void pp_event(CPP *pp, int flag) {
  Ctx *c = pp_top(pp);
  bool at_start = flag == 1 || c->cur == c->file->toks;
  int32_t line = at_start ? 1 : (int32_t)c->cur->t.pos.line + c->line_delta;
  pp_add_event(pp, (PPEvent){c->name_id, line > 0 ? (uint32_t)line : 1, flag, c->system, NULL});
}

void pp_push_file(CPP *pp, SrcFile *f, int dir_idx, bool system, int flag) {
  if (pp->nctx == pp->capctx) {
    pp->capctx = pp->capctx ? pp->capctx * 2 : 16;
    pp->ctx = realloc(pp->ctx, pp->capctx * sizeof *pp->ctx);
    if (!pp->ctx) {
      fprintf(stderr, "kitcc: out of memory\n");
      exit(1);
    }
  }
  f->included = true;
  if (system) f->system = true;
  pp->ctx[pp->nctx++] = (Ctx){f, f->toks, dir_idx, f->id, 0, pp->nconds, system};
  pp_event(pp, flag);
}

/* A file whose only content is `#ifndef G ... #endif` (or `#if !defined G`)
 * need not be read again while G is defined. */
void pp_check_guard(CPP *pp, SrcFile *f) {
  (void)pp;
  if (f->guard_checked) return;
  f->guard_checked = true;
  Tok *t = f->toks;
  if (!tok_is(t, "#") || !t->t.bol) return;
  t = t->next;
  const char *g = NULL;
  if (tok_is(t, "ifndef") && t->next->t.kind == CT_IDENT && t->next->next->t.bol) {
    g = t->next->t.text;
  } else if (tok_is(t, "if") && tok_is(t->next, "!") && tok_is(t->next->next, "defined")) {
    Tok *x = t->next->next->next;
    if (tok_is(x, "(") && x->next->t.kind == CT_IDENT && tok_is(x->next->next, ")") &&
        x->next->next->next->t.bol)
      g = x->next->t.text;
    else if (x->t.kind == CT_IDENT && x->next->t.bol)
      g = x->t.text;
  }
  if (!g) return;
  int depth = 0;
  for (t = f->toks; t->t.kind != CT_EOF; t = t->next) {
    if (!t->t.bol || !tok_is(t, "#") || t->next->t.bol) continue;
    Tok *d = t->next;
    if (tok_is(d, "if") || tok_is(d, "ifdef") || tok_is(d, "ifndef")) {
      depth++;
    } else if (tok_is(d, "endif")) {
      if (--depth == 0) {
        Tok *e = d->next;
        while (e->t.kind != CT_EOF && !e->t.bol) e = e->next;
        if (e->t.kind == CT_EOF) f->guard = g;
        return;
      }
    } else if (depth == 1 && (tok_is(d, "else") || tok_is(d, "elif") || tok_is(d, "elifdef") ||
                              tok_is(d, "elifndef"))) {
      return;
    }
  }
}

static char *dir_of(CPP *pp, const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return pp_strndup(pp, ".", 1);
  if (slash == path) return pp_strndup(pp, "/", 1);
  return pp_strndup(pp, path, (size_t)(slash - path));
}

/* Find `name`; *dir_idx gets the directory index (-1: absolute or the includer's dir). */
static SrcFile *search(CPP *pp, const char *name, bool angled, bool next, int *dir_idx,
                       bool *system) {
  Ctx *c = pp_top(pp);
  *system = false;
  if (name[0] == '/') {
    *dir_idx = -1;
    pp->lex_system = false;
    return pp_load_file(pp, name, true);
  }
  size_t from = angled ? pp->bracket_start : 0;
  if (next && c && c->dir_idx >= 0) {
    from = (size_t)c->dir_idx + 1;
  } else if (!angled && c && c->file->buf) {
    const char *d = dir_of(pp, c->file->path);
    char *p = strcmp(d, ".") ? pp_printf(pp, "%s/%s", d, name) : pp_strndup(pp, name, strlen(name));
    pp->lex_system = c->system;
    SrcFile *f = pp_load_file(pp, p, true);
    if (f) {
      *dir_idx = c->dir_idx;
      *system = c->system;
      return f;
    }
  }
  for (size_t i = from; i < pp->ndirs; i++) {
    const char *d = pp->dirs[i];
    size_t dl = strlen(d);
    char *p = pp_printf(pp, "%s%s%s", d, dl && d[dl - 1] == '/' ? "" : "/", name);
    pp->lex_system = i >= pp->system_start;
    SrcFile *f = pp_load_file(pp, p, true);
    if (f) {
      *dir_idx = (int)i;
      *system = i >= pp->system_start;
      return f;
    }
  }
  pp->lex_system = false;
  return NULL;
}

int pp_has_include(CPP *pp, const char *name, bool angled, bool next, CPos pos) {
  if (!*name) {
    pp_error(pp, pos, "empty filename in __has_include");
    return 0;
  }
  int idx;
  bool sys;
  return search(pp, name, angled, next, &idx, &sys) != NULL;
}

/* The file name of an #include line: "x", <x>, or macros expanding to either. */
static const char *include_name(CPP *pp, Tok *d, Tok **line, size_t n, bool *angled) {
  if (n == 0) {
    pp_error(pp, d->t.pos, "#%s expects \"FILENAME\" or <FILENAME>", d->t.text);
    return NULL;
  }
  TokVec v = {0};
  if ((line[0]->flags & TF_HEADER) || (line[0]->t.kind == CT_STRING && line[0]->t.text[0] == '"')) {
    for (size_t i = 0; i < n; i++) pp_tv_push(pp, &v, line[i]);
  } else {
    pp_expand_list(pp, line, n, &v);
  }
  if (v.n == 0) {
    pp_error(pp, d->t.pos, "#%s expects \"FILENAME\" or <FILENAME>", d->t.text);
    return NULL;
  }
  Tok *t = v.v[0];
  if ((t->flags & TF_HEADER) || (t->t.kind == CT_STRING && t->t.text[0] == '"')) {
    *angled = t->t.text[0] == '<';
    if (v.n > 1) pp_warning(pp, v.v[1]->t.pos, "extra tokens at end of #%s directive", d->t.text);
    return pp_strndup(pp, t->t.text + 1, t->t.len - 2);
  }
  if (tok_is(t, "<")) {
    size_t len = 0;
    for (size_t i = 1; i < v.n; i++) len += v.v[i]->t.len + 1;
    char *s = pp_alloc(pp, len + 1), *p = s;
    for (size_t i = 1; i < v.n; i++) {
      if (tok_is(v.v[i], ">")) {
        *p = 0;
        *angled = true;
        return s;
      }
      if (v.v[i]->t.space && p != s) *p++ = ' ';
      memcpy(p, v.v[i]->t.text, v.v[i]->t.len);
      p += v.v[i]->t.len;
    }
    pp_error(pp, t->t.pos, "missing terminating > character");
    return NULL;
  }
  pp_error(pp, t->t.pos, "#%s expects \"FILENAME\" or <FILENAME>", d->t.text);
  return NULL;
}

/* A missing header ends the translation unit, as in gcc: what follows would only cascade. */
static void fatal_missing(CPP *pp, Tok *d, const char *name) {
  FILE *out = pp->opt.err ? pp->opt.err : stderr;
  CPos p = d->t.pos;
  fprintf(out, "%s:%u:%u: fatal error: %s: No such file or directory\n",
          cpp_file_name(pp, p.file), p.line, p.col, name);
  size_t n;
  const char *src = cpp_source_line(pp, p.file, p.line, &n);
  if (src) fprintf(out, "%5u | %.*s\n", p.line, (int)n, src);
  fputs("compilation terminated.\n", out);
  pp->errors++;
  pp->nctx = 0;
  pp->nconds = 0;
  pp->pending = NULL;
}

void pp_do_include(CPP *pp, Tok *d, Tok **line, size_t n, bool next, bool import) {
  bool angled = false;
  const char *name = include_name(pp, d, line, n, &angled);
  if (!name) return;
  if (!*name) {
    pp_error(pp, d->t.pos, "empty filename in #%s", d->t.text);
    return;
  }
  if (next && pp->nctx == 1) pp_warning(pp, d->t.pos, "#include_next in primary source file");
  int idx;
  bool sys;
  SrcFile *f = search(pp, name, angled, next, &idx, &sys);
  if (!f) {
    fatal_missing(pp, d, name);
    return;
  }
  if (f->pragma_once) return;
  if (import) {
    f->pragma_once = true; /* even when it was #included before: once from now on */
    if (f->included) return;
  }
  pp_check_guard(pp, f);
  if (f->guard && pp_find_macro(pp, f->guard)) return;
  if (pp->nctx >= MAX_INCLUDE_DEPTH) {
    pp_error(pp, d->t.pos, "#include nested depth %d exceeds maximum of %d", MAX_INCLUDE_DEPTH,
             MAX_INCLUDE_DEPTH);
    return;
  }
  pp_push_file(pp, f, idx, sys, 1);
}
