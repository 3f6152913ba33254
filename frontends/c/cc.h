/* frontends/c/cc.h — the pieces of kitcc and how they connect: diagnostics,
 * the parser (tokens -> typed AST) and the lowering (AST -> CG). The driver
 * (kitcc.c) runs pp -> parse -> lower -> passes -> LLVM -> link. */
#ifndef KIT_C_CC_H
#define KIT_C_CC_H

#include "kit/cg.h"
#include "ast.h"
#include "token.h"
#include "warn.h"

#include <stdarg.h>

/* ---- diagnostics (diag.c) ------------------------------------------------------
 * "file:line:col: error: message", then the source line and a caret, as gcc
 * prints them. Errors are counted; parsing goes on after an error. */
typedef struct CDiag {
  CPP *pp;        /* for file names and source lines */
  FILE *out;
  int errors, warnings;
  int warn_errors;                /* of the errors, warnings made errors by -Werror */
  bool werror, no_warnings;       /* without flags */
  bool fatal;     /* a fatal error ended the unit: later diagnostics are dropped */
  const CWarnFlags *flags;        /* -W options (warn.h); NULL: gcc's defaults */
} CDiag;

void c_error(CDiag *d, CPos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* a warning gcc gives without a name; c_warn, one with its -Wname */
void c_warning(CDiag *d, CPos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void c_warn(CDiag *d, CWarnId id, CPos pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
bool c_warn_on(const CDiag *d, CWarnId id);
void c_emit_suffixed(CDiag *d, CPos pos, const char *kind, const char *suffix, const char *fmt, va_list ap);
void c_note(CDiag *d, CPos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* an error after which the unit is not worth reading on (its notes go with it) */
void c_fatal(CDiag *d, CPos pos, const char *note, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* ---- allocation ---------------------------------------------------------------
 * The frontend allocates from one arena freed at the end of a compilation. */
void *c_alloc(size_t size);          /* zeroed */
char *c_strdup(const char *s);
char *c_strndup(const char *s, size_t n);
void c_arena_free_all(void);
/* changes whenever the arena is freed: caches of arena objects check it */
unsigned c_arena_generation(void);

/* ---- parser (parse*.c, decl.c, expr.c, stmt.c, init.c, eval.c, scope.c) ----------- */

typedef struct CParseOptions {
  long std_version;   /* 199901, 201112, 201710 */
  bool gnu;           /* gnu* modes: GNU keywords without underscores (typeof, asm) */
  bool gnu89_inline;  /* -fgnu89-inline (the default before C99): `inline` defines the
                         external symbol too, `extern inline` is an inline-only body */
  int bracket_depth;  /* -fbracket-depth: most ( [ { of one kind open at once; 0 = 256, clang's */
} CParseOptions;

/* Parse a whole translation unit from the preprocessor. Returns the unit
 * (also on errors, with ->errors set); never NULL. */
CUnit *c_parse(CPP *pp, CDiag *diag, const CParseOptions *opt);

/* Constant evaluation (eval.c): integer constant expressions and, for static
 * initializers, address constants (&obj + offset, string literals, labels). */
bool c_eval_int(CExpr *e, int64_t *out);
bool c_eval_ice(CExpr *e, int64_t *out);
/* no stores, calls, volatile reads or statement expressions anywhere in e */
bool c_expr_is_pure(const CExpr *e);
bool c_eval_float(CExpr *e, long double *out);
bool c_eval_complex(CExpr *e, long double *re, long double *im); /* complex.c; a real has im 0 */
/* complex.c: e is a real the usual arithmetic conversions made (floating) complex */
bool complex_real_operand(CExpr *e);
typedef struct CAddrConst {
  CObj *obj;            /* NULL for a string literal or a plain integer */
  CExpr *str;           /* EX_STRING when the address is of a string literal */
  const char *label;    /* &&label */
  const char *label2;   /* &&label - &&label2 (an integer) */
  CObj *label_fn;       /* the function of the labels */
  int64_t offset;
} CAddrConst;
bool c_eval_addr(CExpr *e, CAddrConst *out);

/* ---- lowering to CG (lower*.c, abi.c) ---------------------------------------- */

typedef struct CLowerOptions {
  bool debug_info;    /* -g: locations on every inst, variable descriptions */
  int opt_level;
  bool pic;
  bool wrapv;         /* -fwrapv: signed arithmetic wraps (no nsw, so no UBSan check either) */
  bool instrument_functions; /* -finstrument-functions: __cyg_profile_func_enter/exit */
} CLowerOptions;

/* Lower a parsed unit into a new CG module. Returns NULL (and reports
 * through diag) only for constructs kitcc cannot compile. */
KitCgModule *c_lower(CUnit *u, CDiag *diag, const CLowerOptions *opt);

#endif
