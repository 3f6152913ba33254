/* frontends/c/token.h — the token stream between the C preprocessor (pp.c,
 * lex.c) and the parser. The preprocessor hands out fully expanded tokens. */
#ifndef KIT_C_TOKEN_H
#define KIT_C_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum CTokKind {
  CT_EOF,
  CT_IDENT,   /* identifiers and keywords (the parser classifies keywords) */
  CT_NUMBER,  /* pp-number: the parser converts (integer or floating) */
  CT_CHAR,    /* character constant incl. prefix: 'a' L'a' u'a' U'a' u8'a' */
  CT_STRING,  /* string literal incl. prefix; adjacent literals are NOT joined */
  CT_PUNCT,   /* punctuator: text holds its spelling ("<<=", "{", "...") */
  CT_OTHER,   /* a stray character (e.g. '@', '`'): the parser reports it */
} CTokKind;

/* a source position: file is an index into the preprocessor's file table */
typedef struct CPos {
  uint32_t file;
  uint32_t line, col;
} CPos;

typedef struct CTok {
  CTokKind kind;
  const char *text;   /* NUL-terminated spelling, owned by the preprocessor */
  uint32_t len;
  CPos pos;           /* where it was written (after #line) */
  CPos exp;           /* for tokens from a macro expansion: where the macro was used; else == pos */
  bool bol;           /* first token on its line */
  bool space;         /* preceded by white space */
} CTok;

typedef struct CPP CPP;

typedef struct CPPOptions {
  const char **include_dirs;  /* -I, in order */
  size_t ninclude_dirs;
  const char **quote_dirs;    /* -iquote */
  size_t nquote_dirs;
  const char **system_dirs;   /* -isystem, then the system directories */
  size_t nsystem_dirs;
  bool no_std_inc;            /* -nostdinc */
  const char **macros;        /* -D and -U in command-line order: "NAME" or "NAME=VALUE"
                               * defines, "-NAME" undefines (no name starts with '-') */
  size_t nmacros;
  const char **forced_includes; /* -include */
  size_t nforced_includes;
  long std_version;           /* __STDC_VERSION__, e.g. 201710L */
  bool gnu;                   /* -std=gnu* (defines `linux`, `unix`) */
  int opt_level;              /* __OPTIMIZE__ when > 0 */
  bool pic;                   /* __PIC__/__pic__ */
  bool gnu89_inline;          /* __GNUC_GNU_INLINE__ instead of __GNUC_STDC_INLINE__ */
  /* the -fsanitize= families on, for __has_feature(address_sanitizer) ... */
  bool san_address;           /* also __SANITIZE_ADDRESS__, as gcc */
  bool san_memory;            /* __has_feature(memory_sanitizer) */
  bool san_undefined;         /* any check of clang's "undefined" group */
  bool san_coverage;          /* -fsanitize-coverage= */
  FILE *err;                  /* diagnostics */
  const struct CWarnFlags *warn; /* -W options (warn.h); NULL: gcc's defaults */
} CPPOptions;

CPP *cpp_new(const CPPOptions *opt);
void cpp_free(CPP *pp);
/* Start on a file (path "-" = stdin) or on a memory buffer. Returns 0 or -1 with a diagnostic. */
int cpp_open_file(CPP *pp, const char *path);
int cpp_open_buffer(CPP *pp, const char *name, const char *buf, size_t len);
/* Next expanded token; CT_EOF at the end (and forever after). */
const CTok *cpp_next(CPP *pp);
const char *cpp_file_name(const CPP *pp, uint32_t file);
/* the file was included from a system directory (or says #pragma GCC system_header) */
bool cpp_file_is_system(const CPP *pp, uint32_t file);
/* The source line `line` of `file` (for carets in diagnostics), without its newline. */
const char *cpp_source_line(const CPP *pp, uint32_t file, uint32_t line, size_t *len);
/* After a diagnostic's first line: the source line of pos and a caret under
 * its column (tabs kept so it lines up); nothing when the line is unknown. */
void cpp_print_caret(const CPP *pp, FILE *out, CPos pos);
/* Number of errors reported so far. */
int cpp_errors(const CPP *pp);
/* -E: write the preprocessed text (with # line markers as gcc does) to out. */
int cpp_write_preprocessed(CPP *pp, FILE *out);
/* Dependency list for -M/-MD: every file opened, in order. */
size_t cpp_deps(const CPP *pp, const char ***out);
/* #pragma and _Pragma reach the parser as tokens: "#pragma" ident... end with a CT_PUNCT "\n"?
 * No: pragmas the preprocessor does not handle itself (once, push_macro, pop_macro,
 * GCC system_header, GCC diagnostic) are passed to this callback and dropped. */
typedef void (*CPPPragmaFn)(void *user, const CTok *toks, size_t ntoks);
void cpp_on_pragma(CPP *pp, CPPPragmaFn fn, void *user);

/* Extensions (cpp): the system directories searched after opt->system_dirs
 * unless no_std_inc (gcc 12's list on x86-64 Debian, missing ones skipped). */
const char *const *cpp_default_system_dirs(size_t *n);
/* -E mode must be chosen before cpp_open_*: pragmas are then kept as text. */
void cpp_set_preprocess_only(CPP *pp, bool on);
/* -P: cpp_write_preprocessed without line markers. */
void cpp_set_line_markers(CPP *pp, bool on);

#endif
