/* frontends/c/pp.c — the preprocessor's driver: the public API of token.h,
 * the arena, reading tokens across include contexts, and the directives
 * (conditionals, #define/#undef, #line, #error, #pragma). */
#include "pp_internal.h"
#include "warn.h"

#include <stdlib.h>
#include <time.h>

void *pp_alloc(CPP *pp, size_t n) {
  n = (n + 15) & ~(size_t)15;
  ArenaBlock *b = pp->arena;
  if (!b || b->used + n > b->size) {
    /* small inputs stay cheap; big ones get big blocks */
    size_t sz = b ? (b->size < (4u << 20) ? b->size * 2 : b->size) : (64u << 10);
    if (sz < n) sz = n;
    b = calloc(1, sizeof *b + sz);
    if (!b) {
      fprintf(stderr, "kitcc: out of memory\n");
      exit(1);
    }
    b->size = sz;
    b->next = pp->arena;
    pp->arena = b;
  }
  void *p = b->data + b->used;
  b->used += n;
  return p;
}

char *pp_strndup(CPP *pp, const char *s, size_t n) {
  char *p = pp_alloc(pp, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *pp_printf(CPP *pp, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = pp_alloc(pp, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

void pp_tv_push(CPP *pp, TokVec *v, Tok *t) {
  if (v->n == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 16;
    Tok **nv = pp_alloc(pp, cap * sizeof *nv);
    if (v->n) memcpy(nv, v->v, v->n * sizeof *nv);
    v->v = nv;
    v->cap = cap;
  }
  v->v[v->n++] = t;
}

Tok *pp_copy_tok(CPP *pp, const Tok *t) {
  Tok *c = pp_alloc(pp, sizeof *c);
  *c = *t;
  c->next = NULL;
  return c;
}

Tok *pp_new_tok(CPP *pp, CTokKind kind, const char *text, CPos pos) {
  Tok *t = pp_alloc(pp, sizeof *t);
  t->t.kind = kind;
  t->t.text = text;
  t->t.len = (uint32_t)strlen(text);
  t->t.pos = t->t.exp = pos;
  t->param = -1;
  return t;
}

Ctx *pp_top(CPP *pp) { return pp->nctx ? &pp->ctx[pp->nctx - 1] : NULL; }

CPP *cpp_new(const CPPOptions *opt) {
  CPP *pp = calloc(1, sizeof *pp);
  if (!pp) return NULL;
  pp->opt = *opt;
  if (!pp->opt.std_version) pp->opt.std_version = 201710L;
  pp->eof.t.kind = CT_EOF;
  pp->eof.t.text = "";
  pp->eof.t.bol = true;
  pp->eof.flags = TF_FILEEOF;
  pp->eof.param = -1;
  time_t now = time(NULL);
  const char *sde = getenv("SOURCE_DATE_EPOCH");
  if (sde && *sde) now = (time_t)strtoll(sde, NULL, 10);
  struct tm tm;
  if (sde && *sde) gmtime_r(&now, &tm);
  else localtime_r(&now, &tm);
  strftime(pp->date, sizeof pp->date, "\"%b %e %Y\"", &tm);
  strftime(pp->time, sizeof pp->time, "\"%H:%M:%S\"", &tm);
  pp_setup_dirs(pp);
  pp_predefine(pp);
  for (size_t i = 0; i < opt->nmacros; i++) {
    const char *d = opt->macros[i];
    if (d[0] == '-') {
      pp_undef(pp, d + 1);
      continue;
    }
    const char *eq = strchr(d, '=');
    char *text = eq ? pp_printf(pp, "%.*s %s", (int)(eq - d), d, eq + 1) : pp_printf(pp, "%s 1", d);
    pp_define_text(pp, text);
  }
  return pp;
}

void cpp_free(CPP *pp) {
  if (!pp) return;
  for (size_t i = 0; i < pp->nfiles; i++) {
    free(pp->files[i]->buf);
    free(pp->files[i]->line_off);
  }
  free(pp->files);
  free(pp->ctx);
  free(pp->conds);
  free(pp->mtab);
  free(pp->hs_names);
  free(pp->deps);
  free(pp->events);
  while (pp->arena) {
    ArenaBlock *n = pp->arena->next;
    free(pp->arena);
    pp->arena = n;
  }
  free(pp);
}

/* glibc's stdc-predef.h and the -include files are read before the main
 * file, one after the other at include level 0, as gcc does. */
static void queue_start(CPP *pp, SrcFile *f, int dir, bool sys) {
  StartFile *q = pp_alloc(pp, (pp->nstartq + 1) * sizeof *q);
  if (pp->nstartq) memcpy(q, pp->startq, pp->nstartq * sizeof *q);
  q[pp->nstartq++] = (StartFile){f, dir, sys};
  pp->startq = q;
}

static void next_start(CPP *pp) {
  StartFile *s = &pp->startq[pp->startq_pos++];
  pp_push_file(pp, s->f, s->dir, s->sys, pp->startq_pos == pp->nstartq ? 0 : 1);
}

static int start(CPP *pp, SrcFile *f) {
  pp->base_file = f->path;
  pp_add_event(pp, (PPEvent){f->id, 0, EV_BEGIN, false, NULL});
  if (!pp->opt.no_std_inc) {
    for (size_t i = pp->bracket_start; i < pp->ndirs; i++) {
      char *p = pp_printf(pp, "%s/stdc-predef.h", pp->dirs[i]);
      SrcFile *inc = pp_load_file(pp, p, true);
      if (inc) {
        queue_start(pp, inc, (int)i, i >= pp->system_start);
        break;
      }
    }
  }
  for (size_t i = 0; i < pp->opt.nforced_includes; i++) {
    SrcFile *inc = pp_load_file(pp, pp->opt.forced_includes[i], false);
    if (inc) queue_start(pp, inc, -1, false);
  }
  queue_start(pp, f, -1, false);
  next_start(pp);
  return 0;
}

int cpp_open_file(CPP *pp, const char *path) {
  SrcFile *f = pp_load_file(pp, path, false);
  if (!f) return -1;
  return start(pp, f);
}

int cpp_open_buffer(CPP *pp, const char *name, const char *buf, size_t len) {
  SrcFile *f = pp_new_name(pp, name);
  f->buf = malloc(len + 1);
  if (!f->buf) return -1;
  memcpy(f->buf, buf, len);
  f->buf[len] = 0;
  f->len = len;
  f->toks = pp_lex_file(pp, f);
  return start(pp, f);
}

const char *cpp_file_name(const CPP *pp, uint32_t file) {
  return file < pp->nfiles ? pp->files[file]->path : "<unknown>";
}

bool cpp_file_is_system(const CPP *pp, uint32_t file) {
  return file < pp->nfiles && pp->files[file]->system;
}

size_t cpp_deps(const CPP *pp, const char ***out) {
  *out = pp->deps;
  return pp->ndeps;
}

void cpp_on_pragma(CPP *pp, CPPPragmaFn fn, void *user) {
  pp->pragma_fn = fn;
  pp->pragma_user = user;
}

const CTok *cpp_next(CPP *pp) {
  for (;;) {
    Tok *t = pp_expand_next(pp);
    if (t->flags & TF_ARGEND) continue;
    return &t->t;
  }
}

/* ---- reading across files ---- */

static void end_file(CPP *pp) {
  Ctx *c = pp_top(pp);
  while (pp->nconds > c->cond_base) {
    Cond *cd = &pp->conds[--pp->nconds];
    pp_error(pp, cd->pos, "unterminated conditional directive");
  }
  pp->eof.t.pos = pp->eof.t.exp = c->cur->t.pos;
  pp->nctx--;
  if (pp->nctx) {
    pp_event(pp, 2);
  } else if (pp->startq_pos < pp->nstartq) {
    pp_add_event(pp, (PPEvent){0, 0, EV_CMDLINE, false, NULL});
    next_start(pp);
  }
}

static void directive(CPP *pp);

static Tok *present(CPP *pp, Ctx *c, Tok *t) {
  if (t->t.kind == CT_OTHER && !(t->flags & TF_HEADER) && t->t.text[strcspn(t->t.text, "\"'")]) {
    /* a warning, as in gcc -E; the parser rejects the stray token it becomes */
    pp_warning(pp, t->t.pos, "missing terminating %c character",
               t->t.text[strcspn(t->t.text, "\"'")]);
  }
  if (c->line_delta == 0 && c->name_id == c->file->id) return t;
  Tok *n = pp_copy_tok(pp, t);
  n->t.pos.file = n->t.exp.file = c->name_id;
  n->t.pos.line = n->t.exp.line = (uint32_t)((int32_t)t->t.pos.line + c->line_delta);
  return n;
}

Tok *pp_read_raw(CPP *pp) {
  for (;;) {
    Tok *t = pp->pending;
    if (t) {
      if (!(t->flags & TF_ARGEND)) pp->pending = t->next;
      return t;
    }
    Ctx *c = pp_top(pp);
    if (!c) return &pp->eof;
    t = c->cur;
    if (t->t.kind == CT_EOF) {
      if (pp->collecting) return t;
      end_file(pp);
      continue;
    }
    if (t->t.bol && t->t.kind == CT_PUNCT && t->t.text[0] == '#' && !t->t.text[1]) {
      directive(pp);
      continue;
    }
    c->cur = t->next;
    return present(pp, c, t);
  }
}

/* ---- conditionals ---- */

static void skip_group(CPP *pp) {
  Ctx *c = pp_top(pp);
  int depth = 0;
  for (Tok *t = c->cur;; t = t->next) {
    if (t->t.kind == CT_EOF) {
      c->cur = t;
      return;
    }
    if (!t->t.bol || t->t.kind != CT_PUNCT || strcmp(t->t.text, "#")) continue;
    Tok *n = t->next;
    if (n->t.bol || n->t.kind != CT_IDENT) continue;
    const char *s = n->t.text;
    if (!strcmp(s, "if") || !strcmp(s, "ifdef") || !strcmp(s, "ifndef")) {
      depth++;
    } else if (!strcmp(s, "endif")) {
      if (depth == 0) {
        c->cur = t;
        return;
      }
      depth--;
    } else if (depth == 0 && (!strcmp(s, "elif") || !strcmp(s, "else") ||
                              !strcmp(s, "elifdef") || !strcmp(s, "elifndef"))) {
      c->cur = t;
      return;
    }
  }
}

static void push_cond(CPP *pp, bool taken, CPos pos) {
  if (pp->nconds == pp->capconds) {
    pp->capconds = pp->capconds ? pp->capconds * 2 : 64;
    pp->conds = realloc(pp->conds, pp->capconds * sizeof *pp->conds);
    if (!pp->conds) {
      fprintf(stderr, "kitcc: out of memory\n");
      exit(1);
    }
  }
  pp->conds[pp->nconds++] = (Cond){taken, false, pos};
}

static void extra_tokens(CPP *pp, Tok **line, size_t n, size_t used, const char *dir) {
  if (n > used) pp_warn(pp, !strcmp(dir, "else") || !strcmp(dir, "endif") ? W_ENDIF_LABELS : W_NONE, line[used]->t.pos, "extra tokens at end of #%s directive", dir);
}

static Cond *cur_cond(CPP *pp, Tok *d) {
  Ctx *c = pp_top(pp);
  if (pp->nconds <= c->cond_base) {
    pp_error(pp, d->t.pos, "#%s without #if", d->t.text);
    return NULL;
  }
  return &pp->conds[pp->nconds - 1];
}

static bool ifdef_test(CPP *pp, Tok *d, Tok **line, size_t n) {
  if (n == 0) {
    pp_error(pp, d->t.pos, "no macro name given in #%s directive", d->t.text);
    return false;
  }
  if (line[0]->t.kind != CT_IDENT) {
    pp_error(pp, line[0]->t.pos, "macro names must be identifiers");
    return false;
  }
  extra_tokens(pp, line, n, 1, d->t.text);
  Macro *m = pp_find_macro(pp, line[0]->t.text);
  if (m && m->builtin == BM_POISON)
    pp_error(pp, line[0]->t.pos, "attempt to use poisoned \"%s\"", m->name);
  return m != NULL;
}

static void do_conditional(CPP *pp, Tok *d, Tok **line, size_t n) {
  const char *s = d->t.text;
  if (!strcmp(s, "if") || !strcmp(s, "ifdef") || !strcmp(s, "ifndef")) {
    bool v = !strcmp(s, "if") ? pp_eval_if(pp, line, n, d->t.pos)
                              : ifdef_test(pp, d, line, n) == (s[2] == 'd');
    push_cond(pp, v, d->t.pos);
    if (!v) skip_group(pp);
    return;
  }
  Cond *c = cur_cond(pp, d);
  if (!c) return;
  if (!strcmp(s, "endif")) {
    extra_tokens(pp, line, n, 0, s);
    pp->nconds--;
    return;
  }
  if (c->seen_else) {
    pp_error(pp, d->t.pos, "#%s after #else", s);
    pp_note(pp, c->pos, "the conditional began here");
  }
  if (!strcmp(s, "else")) {
    extra_tokens(pp, line, n, 0, s);
    c->seen_else = true;
    if (c->taken) skip_group(pp);
    c->taken = true;
    return;
  }
  if (c->taken) {
    skip_group(pp);
    return;
  }
  bool v = !strcmp(s, "elif") ? pp_eval_if(pp, line, n, d->t.pos)
                              : ifdef_test(pp, d, line, n) == (s[4] == 'd');
  c = &pp->conds[pp->nconds - 1];
  if (v) c->taken = true;
  else skip_group(pp);
}

/* ---- #line, #error, #pragma ---- */

char *pp_join_tokens(CPP *pp, Tok **line, size_t n) {
  size_t len = 1;
  for (size_t i = 0; i < n; i++) len += line[i]->t.len + 1;
  char *s = pp_alloc(pp, len), *p = s;
  for (size_t i = 0; i < n; i++) {
    if (i && line[i]->t.space) *p++ = ' ';
    memcpy(p, line[i]->t.text, line[i]->t.len);
    p += line[i]->t.len;
  }
  *p = 0;
  return s;
}

static bool parse_line_number(const Tok *t, unsigned long *out) {
  if (t->t.kind != CT_NUMBER) return false;
  char *end;
  *out = strtoul(t->t.text, &end, 10);
  return *end == 0 && t->t.text[0] >= '0' && t->t.text[0] <= '9';
}

static const char *unquote(CPP *pp, const Tok *t) {
  /* #line names keep their escapes undone the simple way: \\ and \" only */
  char *s = pp_alloc(pp, t->t.len), *p = s;
  for (uint32_t i = 1; i + 1 < t->t.len; i++) {
    if (t->t.text[i] == '\\' && i + 2 < t->t.len) i++;
    *p++ = t->t.text[i];
  }
  *p = 0;
  return s;
}

static void do_line(CPP *pp, Tok *d, Tok **line, size_t n, bool marker) {
  TokVec v = {0};
  if (marker) {
    for (size_t i = 0; i < n; i++) pp_tv_push(pp, &v, line[i]);
  } else {
    pp_expand_list(pp, line, n, &v);
  }
  unsigned long num;
  if (v.n == 0 || !parse_line_number(v.v[0], &num)) {
    pp_error(pp, v.n ? v.v[0]->t.pos : d->t.pos, "\"%s\" after #line is not a positive integer",
             v.n ? v.v[0]->t.text : "");
    return;
  }
  Ctx *c = pp_top(pp);
  uint32_t phys_next = pp->dir_last_line + 1;
  if (v.n > 1) {
    if (v.v[1]->t.kind != CT_STRING || v.v[1]->t.text[0] != '"') {
      pp_error(pp, v.v[1]->t.pos, "invalid filename \"%s\"", v.v[1]->t.text);
      return;
    }
    c->name_id = pp_new_name(pp, unquote(pp, v.v[1]))->id;
  } else if (c->name_id == c->file->id) {
    c->name_id = pp_new_name(pp, c->file->path)->id;
  }
  bool sys = false;
  for (size_t i = 2; marker && i < v.n; i++)
    if (!strcmp(v.v[i]->t.text, "3")) sys = true;
  if (sys) c->system = true;
  else if (!marker && v.n > 2) extra_tokens(pp, v.v, v.n, 2, "line");
  c->line_delta = (int32_t)num - (int32_t)phys_next;
  pp_event(pp, 0);
}

static void do_diag_directive(CPP *pp, Tok *d, Tok **line, size_t n) {
  const char *msg = pp_join_tokens(pp, line, n);
  if (!strcmp(d->t.text, "error")) pp_error(pp, d->t.pos, "#error %s", msg);
  else pp_warn(pp, W_CPP, d->t.pos, "#warning %s", msg);
}

/* The text of a _Pragma / #pragma for -E output. */
static const char *pragma_text(CPP *pp, Tok **toks, size_t n) {
  return pp_printf(pp, "#pragma %s", pp_join_tokens(pp, toks, n));
}

static const char *pragma_macro_name(CPP *pp, Tok **t, size_t n) {
  if (n < 4 || !tok_is(t[1], "(") || t[2]->t.kind != CT_STRING || t[2]->t.text[0] != '"' ||
      !tok_is(t[3], ")")) {
    pp_error(pp, t[0]->t.pos, "invalid #pragma %s directive", t[0]->t.text);
    return NULL;
  }
  return unquote(pp, t[2]);
}

static void pragma_push_pop(CPP *pp, Tok **t, size_t n, bool push) {
  const char *name = pragma_macro_name(pp, t, n);
  if (!name) return;
  if (push) {
    PushedMacro *pm = pp_alloc(pp, sizeof *pm);
    pm->name = name;
    pm->m = pp_find_macro(pp, name);
    pm->next = pp->pushed;
    pp->pushed = pm;
    return;
  }
  for (PushedMacro **pp_ = &pp->pushed; *pp_; pp_ = &(*pp_)->next) {
    if (strcmp((*pp_)->name, name)) continue;
    PushedMacro *pm = *pp_;
    *pp_ = pm->next;
    pp_undef(pp, name);
    if (pm->m) pp_set_macro(pp, pm->m);
    return;
  }
}

void pp_handle_pragma(CPP *pp, Tok **t, size_t n, CPos pos) {
  Ctx *c = pp_top(pp);
  if (n >= 1 && tok_is(t[0], "once")) {
    if (c && pp->nctx > 1) c->file->pragma_once = true;
    else pp_warning(pp, t[0]->t.pos, "#pragma once in main file");
    return;
  }
  if (n >= 1 && (tok_is(t[0], "push_macro") || tok_is(t[0], "pop_macro"))) {
    pragma_push_pop(pp, t, n, t[0]->t.text[1] == 'u');
    return;
  }
  if (n >= 2 && tok_is(t[0], "GCC") && tok_is(t[1], "system_header")) {
    if (c && pp->nctx > 1) {
      c->system = true;
      c->file->system = true;
      pp_event(pp, EV_SYSHDR);
    }
    return;
  }
  if (n >= 2 && tok_is(t[0], "GCC") && tok_is(t[1], "poison")) {
    for (size_t i = 2; i < n; i++) {
      if (t[i]->t.kind != CT_IDENT) {
        pp_error(pp, t[i]->t.pos, "invalid #pragma GCC poison directive");
        break;
      }
      Macro *m = pp_alloc(pp, sizeof *m);
      m->name = t[i]->t.text;
      m->builtin = BM_POISON;
      pp_set_macro(pp, m);
    }
    return;
  }
  if (n >= 3 && tok_is(t[0], "GCC") && (tok_is(t[1], "warning") || tok_is(t[1], "error")) &&
      t[2]->t.kind == CT_STRING) {
    if (t[1]->t.text[0] == 'e') pp_error(pp, pos, "%s", unquote(pp, t[2]));
    else pp_warning(pp, pos, "%s", unquote(pp, t[2]));
    return;
  }
  if (pp->emode) {
    /* printed before the next token, even from inside macro arguments, as gcc does */
    pp_add_event(pp, (PPEvent){0, 0, EV_PRAGMA, false, pragma_text(pp, t, n)});
    return;
  }
  if (!pp->pragma_fn) return;
  CTok *arr = pp_alloc(pp, (n + 1) * sizeof *arr);
  for (size_t i = 0; i < n; i++) arr[i] = t[i]->t;
  pp->pragma_fn(pp->pragma_user, arr, n);
}

/* ---- #assert / #unassert ---- */

bool pp_test_assertion(CPP *pp, const char *pred, const char *answer) {
  for (Assertion *a = pp->asserts; a; a = a->next)
    if (!strcmp(a->pred, pred) && (!answer || !strcmp(a->answer, answer))) return true;
  return false;
}

static void do_assert(CPP *pp, Tok *d, Tok **line, size_t n, bool add) {
  pp_warning(pp, d->t.pos, "#%s is a deprecated GCC extension", d->t.text);
  if (n == 0 || line[0]->t.kind != CT_IDENT) {
    pp_error(pp, d->t.pos, "assertion without predicate");
    return;
  }
  const char *answer = NULL;
  if (n > 1) {
    size_t close = 2;
    while (close < n && !tok_is(line[close], ")")) close++;
    if (!tok_is(line[1], "(") || close >= n || close == 2) {
      pp_error(pp, line[1]->t.pos, "missing '(' after predicate or empty answer");
      return;
    }
    answer = pp_join_tokens(pp, line + 2, close - 2);
    extra_tokens(pp, line, n, close + 1, d->t.text);
  } else if (add) {
    pp_error(pp, d->t.pos, "missing '(' after predicate");
    return;
  }
  if (add) {
    Assertion *a = pp_alloc(pp, sizeof *a);
    *a = (Assertion){line[0]->t.text, answer, pp->asserts};
    pp->asserts = a;
    return;
  }
  for (Assertion **p = &pp->asserts; *p;) {
    if (!strcmp((*p)->pred, line[0]->t.text) && (!answer || !strcmp((*p)->answer, answer)))
      *p = (*p)->next;
    else
      p = &(*p)->next;
  }
}

/* ---- directive dispatch ---- */

static void do_define_directive(CPP *pp, Tok *d, Tok **line, size_t n) {
  if (n == 0) {
    pp_error(pp, d->t.pos, "no macro name given in #define directive");
    return;
  }
  pp_define(pp, line[0], line + 1, n - 1);
}

static void do_undef(CPP *pp, Tok *d, Tok **line, size_t n) {
  if (n == 0) {
    pp_error(pp, d->t.pos, "no macro name given in #undef directive");
    return;
  }
  if (line[0]->t.kind != CT_IDENT) {
    pp_error(pp, line[0]->t.pos, "macro names must be identifiers");
    return;
  }
  if (!strcmp(line[0]->t.text, "defined")) {
    pp_error(pp, line[0]->t.pos, "\"defined\" cannot be used as a macro name");
    return;
  }
  extra_tokens(pp, line, n, 1, "undef");
  pp_undef(pp, line[0]->t.text);
}

static void directive(CPP *pp) {
  Ctx *c = pp_top(pp);
  Tok *hash = c->cur;
  TokVec v = {0};
  Tok *t = hash->next;
  pp->dir_last_line = hash->t.pos.line;
  for (; !t->t.bol && t->t.kind != CT_EOF; t = t->next) {
    pp->dir_last_line = t->t.pos.line;
    pp_tv_push(pp, &v, present(pp, c, t));
  }
  c->cur = t;
  if (v.n == 0) return;
  Tok *d = v.v[0];
  Tok **line = v.v + 1;
  size_t n = v.n - 1;
  const char *s = d->t.text;
  if (d->t.kind == CT_NUMBER) {
    do_line(pp, hash, v.v, v.n, true);
    return;
  }
  if (d->t.kind != CT_IDENT) {
    pp_error(pp, d->t.pos, "invalid preprocessing directive");
    return;
  }
  if (!strcmp(s, "define")) do_define_directive(pp, d, line, n);
  else if (!strcmp(s, "undef")) do_undef(pp, d, line, n);
  else if (!strcmp(s, "include")) pp_do_include(pp, d, line, n, false, false);
  else if (!strcmp(s, "include_next")) pp_do_include(pp, d, line, n, true, false);
  else if (!strcmp(s, "import")) pp_do_include(pp, d, line, n, false, true);
  else if (!strcmp(s, "if") || !strcmp(s, "ifdef") || !strcmp(s, "ifndef") ||
           !strcmp(s, "elif") || !strcmp(s, "elifdef") || !strcmp(s, "elifndef") ||
           !strcmp(s, "else") || !strcmp(s, "endif"))
    do_conditional(pp, d, line, n);
  else if (!strcmp(s, "line")) do_line(pp, d, line, n, false);
  else if (!strcmp(s, "error") || !strcmp(s, "warning")) do_diag_directive(pp, d, line, n);
  else if (!strcmp(s, "pragma")) pp_handle_pragma(pp, line, n, d->t.pos);
  else if (!strcmp(s, "assert") || !strcmp(s, "unassert")) do_assert(pp, d, line, n, s[0] == 'a');
  else if (!strcmp(s, "ident") || !strcmp(s, "sccs"))
    return;
  else pp_error(pp, d->t.pos, "invalid preprocessing directive #%s", s);
}
