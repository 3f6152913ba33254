/* frontends/c/pp_internal.h — internals shared by the preprocessor's files:
 * the pp-token record, source files, include contexts, the macro table,
 * the arena and diagnostics. Nothing outside lex.c/pp*.c includes this. */
#ifndef KIT_C_PP_INTERNAL_H
#define KIT_C_PP_INTERNAL_H

#include "token.h"

#include <stdarg.h>
#include <string.h>

enum {
  TF_NOEXPAND = 1u << 0,    /* painted blue: never expanded again (C11 6.10.3.4p2) */
  TF_HEADER = 1u << 1,      /* <...> header-name, only in #include / __has_include */
  TF_ARGEND = 1u << 2,      /* sentinel closing an isolated expansion */
  TF_PLACEMARKER = 1u << 3, /* empty argument operand of ## */
  TF_DIGRAPH = 1u << 4,     /* written as a digraph; text holds the canonical spelling */
  TF_FILEEOF = 1u << 6,     /* end of one source file */
  TF_VAOPT = 1u << 7,       /* __VA_OPT__ in a variadic macro body */
  TF_PASTE = 1u << 8,       /* a ## operator of a macro body (not one from an argument) */
};

/* The macro names a token may no longer expand to (C11 6.10.3.4): a list in
 * ascending order of the names' ids (pp_macro.c), tails shared between sets.
 * A name expanded inside an expansion of a later-defined one (the usual
 * order of macros built on one another) goes to the front in O(1). */
typedef struct Hideset {
  uint32_t id;
  struct Hideset *next;
} Hideset;

typedef struct Tok {
  CTok t;
  struct Tok *next;
  Hideset *hs;
  uint16_t flags;
  int16_t param;    /* in a macro body: parameter index, else -1 */
} Tok;

typedef struct TokVec {
  Tok **v;
  size_t n, cap;
} TokVec;

typedef struct SrcFile {
  char *path;            /* as written in diagnostics and line markers */
  char *buf;             /* raw contents, NUL-terminated; NULL for #line names */
  size_t len;
  uint32_t *line_off;    /* start offset of each physical line (lazily built) */
  uint32_t nlines;
  Tok *toks;             /* lexed once, shared by every inclusion */
  uint32_t id;
  bool pragma_once;
  bool included;
  bool guard_checked;
  bool system;           /* included as a system header: no warnings */
  const char *guard;     /* macro of a whole-file #ifndef guard, or NULL */
  unsigned long long dev, ino;
  long mtime;
} SrcFile;

typedef struct Ctx {
  SrcFile *file;
  Tok *cur;
  int dir_idx;           /* search directory it was found in; -1 if not found by search */
  uint32_t name_id;      /* presumed file (after #line) */
  int32_t line_delta;    /* presumed line - physical line */
  size_t cond_base;
  bool system;
} Ctx;

typedef struct Cond {
  bool taken;            /* some group of this #if chain was processed */
  bool seen_else;
  CPos pos;
} Cond;

typedef struct Macro {
  const char *name;
  uint32_t hs_id;        /* the name's id in hidesets, one per distinct name */
  bool funclike, variadic;
  int nparams;
  const char **params;
  TokVec body;
  int builtin;           /* BM_* or 0 */
  CPos pos;
  struct Macro *hnext;
} Macro;

enum { BM_FILE = 1, BM_LINE, BM_DATE, BM_TIME, BM_COUNTER, BM_INCLUDE_LEVEL,
       BM_BASE_FILE, BM_TIMESTAMP, BM_PRAGMA, BM_HAS_INCLUDE, BM_HAS_INCLUDE_NEXT,
       BM_HAS_ATTRIBUTE, BM_HAS_C_ATTRIBUTE, BM_HAS_BUILTIN, BM_HAS_FEATURE, BM_POISON };

typedef struct PushedMacro {
  const char *name;
  Macro *m;              /* NULL: was undefined when pushed */
  struct PushedMacro *next;
} PushedMacro;

typedef struct Assertion { /* #assert pred(answer), a deprecated GNU extension */
  const char *pred, *answer;
  struct Assertion *next;
} Assertion;

typedef struct ArenaBlock {
  struct ArenaBlock *next;
  size_t used, size;
  char data[];
} ArenaBlock;

/* gcc's `# 0 "<built-in>"` prelude, the return to it, a #pragma line for -E,
 * and the marker after `#pragma GCC system_header` (flag 3 alone) */
enum { EV_BEGIN = 3, EV_CMDLINE = 4, EV_PRAGMA = 5, EV_SYSHDR = 6 };

typedef struct StartFile {
  SrcFile *f;
  int dir;
  bool sys;
} StartFile;

typedef struct PPEvent {
  uint32_t file;
  uint32_t line;
  int flag;              /* 0 new position, 1 enter, 2 return, or EV_* */
  bool system;
  const char *text;      /* EV_PRAGMA */
} PPEvent;

struct CPP {
  CPPOptions opt;
  bool lex_system;       /* the file being read was found in a system directory: no lexer warnings */
  ArenaBlock *arena;
  SrcFile **files;
  size_t nfiles, capfiles;
  const char **dirs;     /* quote, -I, -isystem/system: one list */
  size_t ndirs, bracket_start, system_start;
  Ctx *ctx;
  size_t nctx, capctx;
  Cond *conds;
  size_t nconds, capconds;
  Macro **mtab;
  size_t mtab_size, nmacros;
  struct HsName { const char *name; uint32_t id; } *hs_names; /* name -> hideset id (open addressing) */
  size_t hs_names_cap, hs_names_n;
  PushedMacro *pushed;
  Assertion *asserts;
  Tok *pending;          /* tokens read before the current file position */
  Tok eof;
  int errors, warnings;
  int counter;
  int expand_depth;
  bool collecting;       /* reading macro arguments: stay inside the current file */
  bool carry_space;      /* an empty expansion preceded by white space: the next token gets it */
  bool list_trailing_space; /* pp_expand_list's result ended in an empty expansion after a space */
  bool in_if;            /* expanding a #if line: `defined` and __has_* are operators */
  bool emode;            /* -E: keep pragmas as text */
  bool no_markers;       /* -P */
  bool main_done;
  const char *base_file;
  StartFile *startq;     /* stdc-predef.h, -include files, then the main file */
  size_t nstartq, startq_pos;
  uint32_t dir_last_line; /* physical line of a directive's last token (for #line) */
  const char **deps;
  size_t ndeps, capdeps;
  CPPPragmaFn pragma_fn;
  void *pragma_user;
  PPEvent *events;
  size_t nevents, capevents;
  char date[16], time[16];
};

/* arena.c-like helpers (pp.c) */
void *pp_alloc(CPP *pp, size_t n);
char *pp_strndup(CPP *pp, const char *s, size_t n);
char *pp_printf(CPP *pp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pp_tv_push(CPP *pp, TokVec *v, Tok *t);
Tok *pp_copy_tok(CPP *pp, const Tok *t);
Tok *pp_new_tok(CPP *pp, CTokKind kind, const char *text, CPos pos);

/* diagnostics (pp_diag.c) */
void pp_error(CPP *pp, CPos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void pp_warning(CPP *pp, CPos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void pp_warn(CPP *pp, int warn_id, CPos pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void pp_note(CPP *pp, CPos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* lex.c */
Tok *pp_lex_file(CPP *pp, SrcFile *f);
/* Lex a buffer that is not a file (pasted tokens, _Pragma strings): one list, ends in EOF. */
Tok *pp_lex_string(CPP *pp, const char *s, size_t len, CPos pos);
bool pp_is_punct_spelling(const char *s, size_t len);

/* files and includes (pp_include.c) */
SrcFile *pp_new_name(CPP *pp, const char *name);
SrcFile *pp_load_file(CPP *pp, const char *path, bool quiet);
void pp_setup_dirs(CPP *pp);
void pp_do_include(CPP *pp, Tok *d, Tok **line, size_t n, bool next, bool import);
int pp_has_include(CPP *pp, const char *name, bool angled, bool next, CPos pos);
void pp_push_file(CPP *pp, SrcFile *f, int dir_idx, bool system, int flag);
void pp_add_event(CPP *pp, PPEvent e);
void pp_check_guard(CPP *pp, SrcFile *f);
void pp_add_dep(CPP *pp, const char *path);
void pp_event(CPP *pp, int flag);

/* macros (pp_macro.c) */
Macro *pp_find_macro(CPP *pp, const char *name);
void pp_set_macro(CPP *pp, Macro *m);
void pp_undef(CPP *pp, const char *name);
void pp_define(CPP *pp, Tok *name, Tok **line, size_t n);
void pp_define_text(CPP *pp, const char *text);
void pp_define_builtins(CPP *pp);
/* #if operators met while expanding a #if line (pp_expr.c): kind 0 `defined`,
 * -1 an assertion `#pred(answer)`, else BM_HAS_* */
Tok *pp_if_operator(CPP *pp, Tok *t, int kind);
Tok *pp_expand_next(CPP *pp);
void pp_expand_list(CPP *pp, Tok **in, size_t n, TokVec *out);
Tok *pp_stringize(CPP *pp, Tok **toks, size_t n, CPos pos);
void pp_unread(CPP *pp, Tok *t);

/* predefined macros and feature tables (pp_predef.c) */
void pp_predefine(CPP *pp);
int pp_has_attribute(const char *name, bool c_attr);
int pp_has_builtin(const char *name);
int pp_has_feature(CPP *pp, const char *name);

/* #if (pp_expr.c) */
bool pp_eval_if(CPP *pp, Tok **line, size_t n, CPos pos);

/* -E output (pp_output.c): the spelling as written (digraphs too) */
const char *pp_spelling(const Tok *t);

/* directives (pp.c) */
Tok *pp_read_raw(CPP *pp);
void pp_handle_pragma(CPP *pp, Tok **toks, size_t n, CPos pos);
Ctx *pp_top(CPP *pp);
/* `#pred(answer)` / `#pred` in #if: answer NULL asks for any answer */
bool pp_test_assertion(CPP *pp, const char *pred, const char *answer);
char *pp_join_tokens(CPP *pp, Tok **toks, size_t n);

static inline bool tok_is(const Tok *t, const char *s) {
  return (t->t.kind == CT_PUNCT || t->t.kind == CT_IDENT) && !strcmp(t->t.text, s);
}

#endif
