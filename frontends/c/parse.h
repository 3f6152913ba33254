/* frontends/c/parse.h — state shared by the parser's files: the token
 * array, keywords, scopes, and the per-function context. parse.c drives,
 * decl.c reads declarations and types, expr.c expressions (with the
 * semantic checks and implicit conversions), stmt.c statements, init.c
 * initializers, scope.c names, eval.c constant expressions. */
#ifndef KIT_C_PARSE_H
#define KIT_C_PARSE_H

#include "cc.h"

typedef enum Kw {
  KW_NONE,
  KW_AUTO, KW_BREAK, KW_CASE, KW_CHAR, KW_CONST, KW_CONTINUE, KW_DEFAULT, KW_DO, KW_DOUBLE,
  KW_ELSE, KW_ENUM, KW_EXTERN, KW_FLOAT, KW_FOR, KW_GOTO, KW_IF, KW_INLINE, KW_INT, KW_LONG,
  KW_REGISTER, KW_RESTRICT, KW_RETURN, KW_SHORT, KW_SIGNED, KW_SIZEOF, KW_STATIC, KW_STRUCT,
  KW_SWITCH, KW_TYPEDEF, KW_UNION, KW_UNSIGNED, KW_VOID, KW_VOLATILE, KW_WHILE,
  KW_ALIGNAS, KW_ALIGNOF, KW_ATOMIC, KW_BOOL, KW_COMPLEX, KW_GENERIC, KW_IMAGINARY, KW_NORETURN,
  KW_STATIC_ASSERT, KW_THREAD_LOCAL,
  /* GNU */
  KW_ATTRIBUTE, KW_ASM, KW_TYPEOF, KW_TYPEOF_UNQUAL, KW_EXTENSION, KW_INT128, KW_BUILTIN_VA_LIST,
  KW_BUILTIN_VA_ARG, KW_BUILTIN_OFFSETOF, KW_BUILTIN_TYPES_COMPATIBLE_P, KW_BUILTIN_CHOOSE_EXPR,
  KW_LABEL, KW_AUTO_TYPE, KW_REAL, KW_IMAG, KW_FLOAT128, KW_FLOATN,
  KW_COUNT
} Kw;

/* one token of the unit, copied out of the preprocessor */
typedef struct PTok {
  CTokKind kind;
  Kw kw;
  const char *text;
  uint32_t len;
  CPos pos;
  bool too_deep;         /* an opening bracket nested past the bracket depth limit */
} PTok;

/* what a name means in the ordinary name space */
typedef enum SymKind { SYM_OBJ, SYM_TYPEDEF, SYM_ENUMCONST } SymKind;

typedef struct Sym {
  struct Sym *next;      /* same scope */
  const char *name;
  SymKind kind;
  CObj *obj;             /* SYM_OBJ */
  CType *type;           /* SYM_TYPEDEF, SYM_ENUMCONST (its type) */
  int64_t value;         /* SYM_ENUMCONST */
} Sym;

typedef struct Tag {
  struct Tag *next;
  const char *name;
  CType *type;
} Tag;

typedef struct PScope {
  struct PScope *up;
  Sym *syms;
  Tag *tags;
  void *index;           /* hash of syms for the file scope */
} PScope;

/* GNU attributes collected while reading a declaration */
typedef struct Attrs {
  int aligned;           /* 0 = none */
  bool packed, weak, used, noinline, always_inline, noreturn, cold, returns_twice, no_sanitize_address;
  bool no_instrument_function;
  bool is_unused, deprecated, transparent_union, may_alias, gnu_inline;
  CVisibility visibility;
  bool has_visibility;
  const char *section, *alias, *cleanup;
  int constructor, destructor;  /* priority, 0 = none */
  int mode_bytes;               /* __attribute__((mode(QI/HI/SI/DI/TI))) */
  uint64_t nonnull_args;        /* nonnull(N, ...): bit N-1; nonnull_all: nonnull() on every pointer */
  bool nonnull_all, returns_nonnull;
  CPos nonnull_pos, returns_nonnull_pos; /* the attribute names (UBSan's note lines) */
  int vector_size;
} Attrs;

typedef struct Parser {
  CDiag *diag;
  const CParseOptions *opt;
  PTok *toks;
  size_t ntoks, pos;
  PScope *scope;         /* innermost */
  PScope *file_scope;
  CUnit *unit;
  CObjList **unit_tail;
  /* the function being parsed */
  CObj *fn;
  CObjList **locals_tail;
  CStmt *cur_switch;     /* for case/default */
  CStmtList **cases_tail;
  int loop_depth, switch_depth;
  CObjList **block_locals_tail; /* locals of the innermost ST_BLOCK */
  int nstatic_locals;    /* for unique names of static locals */
  int nanon;
  /* #pragma pack, in token order: the tokens are all read before the parse, so
   * the value in effect at a token is replayed from these (pack_at) */
  struct PackEvent *packs;
  size_t npacks, cap_packs;
  struct PragmaWeak *weaks; /* #pragma weak, applied when the unit is parsed */
  /* expanding a call of a gnu_inline function that forwards its variadic
   * arguments: what __builtin_va_arg_pack () stands for (builtin_fortify.c) */
  CExprList *va_pack_args;
  CExpr *va_pack_marker;
  int va_pack_depth;
  int param_depth;       /* > 0 inside a prototype's parameter list */
  int nesting;           /* recursive expression and statement parses in progress */
  CStmtList *pending;    /* statements a declarator produced (VLA lengths), emitted before its declaration */
  CStmtList **pending_tail;
  CStmtList *fn_labels, *used_labels; /* lint.c: labels of the function and the names jumped to */
  int unevaluated;       /* > 0 in the operand of sizeof, _Alignof, typeof */
  int stmt_expr_depth;   /* > 0 inside ({ ... }), whose last statement is its value */
} Parser;

/* ---- whole-scope warnings (lint.c) ---- */
void lint_scope_end(Parser *p, PScope *s);
void lint_unit_end(Parser *p);
void lint_label_defined(Parser *p, CStmt *label);
void lint_label_used(Parser *p, const char *name);
void lint_function_end(Parser *p);
void lint_shadow(Parser *p, const char *name, CPos pos);
void lint_binary(Parser *p, CExprKind k, CExpr *a, CExpr *b, CPos pos);
void lint_condition(Parser *p, CExpr *e);
void lint_expr_stmt(Parser *p, CExpr *e);
void lint_switch(Parser *p, CStmt *s, CType *enum_type);
void lint_read(Parser *p, CExpr *e);
void lint_format(Parser *p, CExpr *fn, CExprList *args);  /* lint_format.c */

/* ---- tokens (parse.c) ---- */
static inline PTok *tok(Parser *p) { return &p->toks[p->pos]; }
static inline PTok *peek(Parser *p, int n) {
  size_t i = p->pos + (size_t)n;
  return &p->toks[i < p->ntoks ? i : p->ntoks - 1];
}
static inline bool at_eof(Parser *p) { return tok(p)->kind == CT_EOF; }
bool is_punct(PTok *t, const char *s);
bool is_kw(PTok *t, Kw kw);
bool accept(Parser *p, const char *punct);     /* consume if it is that punctuator */
bool accept_kw(Parser *p, Kw kw);
void expect(Parser *p, const char *punct);     /* error if missing (does not consume otherwise) */
PTok *next(Parser *p);                         /* consume and return the current token */
const char *ident(Parser *p);                  /* consume an identifier or report; NULL on error */
void skip_to(Parser *p, const char *punct);    /* error recovery: up to and over punct */
/* The parser recurses once per nesting level, and so do the passes after it:
 * nest_enter reports (fatally) a nesting past PARSE_MAX_NESTING instead of
 * letting the stack overflow; each true return is paired with nest_leave. */
#define PARSE_MAX_NESTING 10000
bool nest_enter(Parser *p);
static inline void nest_leave(Parser *p) { p->nesting--; }
#define perror_at(p, pos, ...) c_error((p)->diag, (pos), __VA_ARGS__)
#define pwarn_at(p, pos, ...) c_warning((p)->diag, (pos), __VA_ARGS__)
#define pwarn_w(p, id, pos, ...) c_warn((p)->diag, (id), (pos), __VA_ARGS__)

/* ---- scopes (scope.c) ---- */
void scope_push(Parser *p);
void scope_pop(Parser *p);
Sym *scope_find(Parser *p, const char *name);            /* innermost visible */
Sym *scope_find_here(Parser *p, const char *name);       /* current scope only */
Sym *scope_add(Parser *p, const char *name, SymKind kind);
Tag *tag_find(Parser *p, const char *name, bool here_only);
Tag *tag_add(Parser *p, const char *name, CType *t);
bool is_typename(Parser *p, PTok *t);
int pack_at(Parser *p, size_t tok_index);  /* #pragma pack in effect there, 0 = none */
bool at_std_attr(Parser *p);               /* at a C23 [[...]] */
size_t skip_std_attrs(Parser *p, size_t i); /* the token after [[...]]... from token i */                    /* starts a type name / declaration */

/* ---- declarations (decl.c) ---- */
typedef struct DeclSpec {
  CType *type;
  CStorage storage;
  bool is_inline, is_noreturn, is_thread_local;
  int align;
  Attrs attrs;
  bool had_type;         /* some type specifier was seen (else implicit int) */
  CPos pos;
} DeclSpec;

bool parse_declspec(Parser *p, DeclSpec *ds, bool allow_storage);
/* reads a declarator; name (NULL if abstract) and its position come back */
CType *parse_declarator(Parser *p, CType *base, const char **name, CPos *pos, Attrs *attrs);
CType *parse_type_name(Parser *p);                      /* for casts, sizeof, _Generic ... */
void parse_attributes(Parser *p, Attrs *a);             /* any number of __attribute__((...)) */
/* asm.c: a GNU asm statement (at 'asm'), a file-scope asm("...") */
CStmt *parse_asm_stmt(Parser *p, CPos pos);
void parse_file_asm(Parser *p);
const char *parse_asm_label(Parser *p);                 /* __asm__("name") after a declarator, or NULL */
/* a declaration at file or block scope; block scope appends ST_DECL/ST_EXPR
 * statements to *out (NULL at file scope) */
void parse_declaration(Parser *p, CStmtList ***out);
void parse_static_assert(Parser *p);
void apply_attrs(CObj *o, const Attrs *a);
void attrs_merge(Attrs *into, const Attrs *a);
CObj *new_local(Parser *p, const char *name, CType *t, CPos pos);
void add_unit_obj(Parser *p, CObj *o);
void pending_vla_add(Parser *p, CStmt *s);

/* ---- expressions (expr.c) ---- */
CExpr *parse_expr(Parser *p);                           /* comma expression */
CExpr *parse_assign(Parser *p);
CExpr *parse_cond_expr(Parser *p);                      /* conditional-expression */
int64_t parse_const_int(Parser *p);                     /* integer constant expression */
CExpr *new_expr(CExprKind k, CType *t, CPos pos);
CExpr *new_int(int64_t v, CType *t, CPos pos);
CExpr *convert(Parser *p, CExpr *e, CType *to);         /* implicit conversion (checks) */
CExpr *rvalue(Parser *p, CExpr *e);                     /* array/function decay */
CExpr *assign_convert(Parser *p, CExpr *e, CType *to, const char *what); /* assignment rules */
bool is_null_ptr_const(CExpr *e);
CExpr *cond_expr_bool(Parser *p, CExpr *e);             /* a controlling expression */
void mark_address_taken(CExpr *e);

/* ---- literals (literal.c) ---- */
CExpr *parse_number(Parser *p, PTok *t);
CExpr *parse_char(Parser *p, PTok *t);
CExpr *parse_string(Parser *p);                         /* at a CT_STRING: joins adjacent ones */

/* ---- builtins (builtin.c) ---- */
/* a call-like builtin at an identifier naming one; NULL if `name` is not a builtin */
CExpr *parse_builtin_call(Parser *p, const char *name, CPos pos);
/* the prototype of a libc function that __builtin_<name> or an implicit call
 * should see, or NULL */
CType *libc_prototype(const char *name);
/* the function type of a libc_prototype-style signature, "r:p,p" */
CType *libc_sig_type(const char *sig);
/* __builtin_object_size & co., __builtin___X_chk, __builtin_va_arg_pack
 * (builtin_fortify.c); NULL when name is none of them */
CExpr *parse_fortify_builtin(Parser *p, const char *name, CPos pos);
/* __builtin_tgmath (builtin_tgmath.c), after its name */
CExpr *parse_tgmath_builtin(Parser *p, CPos pos);
/* a direct call of a gnu_inline function whose body forwards its variadic
 * arguments, expanded as the body's expression; `call` when it cannot be */
CExpr *expand_va_arg_pack_call(Parser *p, CObj *f, CExpr *call);
CExpr *finish_call(Parser *p, CExpr *fn, CExprList *args, CPos pos);
/* a `static const char[]` string of s, as __func__ is (an lvalue) */
CExpr *new_name_string(const char *s, CPos pos);
/* after '(': the comma-separated arguments up to and over ')' */
CExprList *parse_call_args(Parser *p);

/* ---- complex numbers (complex.c) ---- */
CExpr *imaginary_constant(CExpr *e);                    /* 2.0i from the constant 2.0 */
CExpr *complex_part(Parser *p, CExpr *e, bool imag, CPos pos); /* __real__ e, __imag__ e */
/* creal.., cimag.., conj.. (declared with their library type, or not at all:
 * declared NULL), their __builtin_ forms, __builtin_complex */
bool is_complex_function(const char *name, CType *declared);
CExpr *complex_builtin(Parser *p, const char *name, CPos pos); /* at the '(' of a call of one */

/* ---- statements (stmt.c) ---- */
CStmt *parse_compound(Parser *p);                       /* { ... } */
CStmt *new_stmt(CStmtKind k, CPos pos);

/* ---- initializers (init.c) ---- */
CInit *parse_initializer(Parser *p, CType *t, bool is_static);

#endif
