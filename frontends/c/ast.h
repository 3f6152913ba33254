/* frontends/c/ast.h — the typed syntax tree between kitcc's parser (which
 * resolves names, types, implicit conversions, designated initializers and
 * _Generic) and the lowering to CG (which knows the ABI and emits code). */
#ifndef KIT_C_AST_H
#define KIT_C_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "token.h"
#include "type.h"

typedef struct CObj CObj;
typedef struct CStmt CStmt;
typedef struct CInit CInit;
typedef struct CExprList CExprList;

/* ---- expressions ------------------------------------------------------------ */

typedef enum CExprKind {
  /* leaves */
  EX_INT,          /* ->ival (type says width/signedness) */
  EX_FLOAT,        /* ->fval */
  EX_STRING,       /* ->str/->str_len bytes incl. the terminator, element size in type */
  EX_VAR,          /* ->obj (an lvalue; a function designator when obj is a function) */
  EX_LABEL_ADDR,   /* &&label: ->label */
  /* unary; ->lhs is the operand */
  EX_NEG, EX_BITNOT, EX_LNOT,
  EX_ADDR,         /* &lvalue, and function designator -> pointer */
  EX_DEREF,        /* *pointer (an lvalue) */
  EX_DECAY,        /* array lvalue -> pointer to its first element */
  EX_PREINC, EX_PREDEC, EX_POSTINC, EX_POSTDEC, /* ->lhs lvalue; ->step: 1, or the pointee size */
  EX_CAST,         /* ->lhs converted to ->type (->implicit for inserted conversions) */
  EX_MEMBER,       /* ->lhs struct/union lvalue (or rvalue), ->member (a->b is (*a).b) */
  /* binary; ->lhs, ->rhs already converted to the operation type (->type for
   * arithmetic; for comparisons the common type is ->lhs->type, result int) */
  EX_ADD, EX_SUB, EX_MUL, EX_DIV, EX_MOD, EX_SHL, EX_SHR, EX_BAND, EX_BOR, EX_BXOR,
  EX_LT, EX_LE, EX_GT, EX_GE, EX_EQ, EX_NE,
  EX_LAND, EX_LOR,
  EX_PTRADD,       /* pointer ->lhs + integer ->rhs (i64) * ->step bytes (->step 0: VLA, see ->vla_type);
                      ->bound >= 0: the pointer came from an array of that many elements */
  EX_PTRSUB,       /* pointer - integer, as PTRADD */
  EX_PTRDIFF,      /* (pointer - pointer) / ->step, type ptrdiff_t */
  EX_ASSIGN,       /* ->lhs lvalue = ->rhs (already converted to the lhs type) */
  EX_OPASSIGN,     /* ->lhs op= ->rhs: ->op is the binary kind (EX_ADD...,EX_PTRADD); the
                      computation happens in ->optype, then converts back to the lhs type */
  EX_COND,         /* ->cond ? ->lhs : ->rhs (GNU x ?: y has ->lhs == NULL: reuse cond) */
  EX_COMMA,        /* ->lhs , ->rhs */
  EX_CALL,         /* ->lhs callee (pointer to function), ->args */
  EX_COMPOUND_LIT, /* ->obj (an unnamed object with its initializer), an lvalue */
  EX_STMT_EXPR,    /* ({ ... }): ->body; value of the last expression statement */
  EX_VLA_SIZEOF,   /* sizeof of a VLA type ->vla_type, computed at run time */
  EX_VA_ARG,       /* va_arg(->lhs (a va_list lvalue), ->type) */
  EX_BUILTIN,      /* ->builtin with ->args (see CBuiltin) */
  EX_COMPLEX,      /* the complex ->lhs + ->rhs * i (both of ->type's element type):
                      __builtin_complex (CMPLX), imaginary constants (2.0i is 0.0 + 2.0 * i) */
} CExprKind;

typedef enum CBuiltin {
  BI_VA_START, BI_VA_END, BI_VA_COPY,           /* args: va_list lvalue(s) */
  BI_EXPECT,                                    /* (e, c) -> e */
  BI_UNREACHABLE, BI_TRAP,
  BI_BSWAP16, BI_BSWAP32, BI_BSWAP64,
  BI_CLZ, BI_CTZ, BI_POPCOUNT, BI_PARITY, BI_FFS, BI_CLRSB, /* operand type says the width */
  BI_ADD_OVERFLOW, BI_SUB_OVERFLOW, BI_MUL_OVERFLOW, /* (a, b, ptr) -> _Bool */
  BI_ADD_OVERFLOW_P, BI_SUB_OVERFLOW_P, BI_MUL_OVERFLOW_P, /* (a, b, c): would a op b overflow c's type
                                                             (c's value unused) -> _Bool */
  BI_MEMCPY, BI_MEMMOVE, BI_MEMSET, BI_MEMCMP, BI_STRLEN, BI_STRCMP, BI_STRCPY, /* or a libc call */
  BI_ALLOCA,
  BI_FRAME_ADDRESS, BI_RETURN_ADDRESS,
  BI_FABS, BI_SQRT, BI_COPYSIGN, BI_FMIN, BI_FMAX, BI_FMA, /* type of the result says f/d/ld */
  BI_ISNAN, BI_ISINF, BI_ISFINITE, BI_SIGNBIT, BI_ISUNORDERED, BI_ISLESS, BI_ISLESSEQUAL,
  BI_ISGREATER, BI_ISGREATEREQUAL, BI_ISLESSGREATER,
  /* atomics: C11 <stdatomic.h> (via __atomic_*) and __sync_*, in value form
   * (the parser rewrites the generic by-pointer __atomic_load/store/exchange
   * into these): LOAD (p, order); STORE (p, v, order); EXCHANGE and FETCH_*,
   * *_FETCH (p, v, order); CMPXCHG (p, expected_ptr, desired, weak, success
   * order, failure order) -> _Bool; TEST_AND_SET (p, order) -> _Bool; CLEAR
   * (p, order); fences (order). Orders are int expressions (__ATOMIC_*);
   * __sync_* forms get __ATOMIC_SEQ_CST. */
  BI_ATOMIC_LOAD, BI_ATOMIC_STORE, BI_ATOMIC_EXCHANGE, BI_ATOMIC_CMPXCHG, /* strong/weak in ->ival */
  BI_ATOMIC_FETCH_ADD, BI_ATOMIC_FETCH_SUB, BI_ATOMIC_FETCH_AND, BI_ATOMIC_FETCH_OR,
  BI_ATOMIC_FETCH_XOR, BI_ATOMIC_FETCH_NAND,
  BI_ATOMIC_ADD_FETCH, BI_ATOMIC_SUB_FETCH, BI_ATOMIC_AND_FETCH, BI_ATOMIC_OR_FETCH,
  BI_ATOMIC_XOR_FETCH, BI_ATOMIC_NAND_FETCH,
  BI_ATOMIC_TEST_AND_SET, BI_ATOMIC_CLEAR, BI_ATOMIC_THREAD_FENCE, BI_ATOMIC_SIGNAL_FENCE,
  BI_SYNC_SYNCHRONIZE, BI_SYNC_LOCK_RELEASE,
  BI_SYNC_VAL_CAS, BI_SYNC_BOOL_CAS,              /* __sync_{val,bool}_compare_and_swap(p, old, new) */
  BI_SETJMP, BI_LONGJMP,                        /* __builtin_setjmp/longjmp */
  BI_PREFETCH,                                  /* evaluated for side effects only */
  BI_ASSUME_ALIGNED,                            /* (p, align[, off]) -> p */
  BI_CONSTANT_P,                                /* __builtin_constant_p(e) the parser could not
                                                   decide: CG's isconst, folded after inlining */
  BI_OBJECT_SIZE,                               /* (p): ->ival = type 0-3, + 4 if dynamic */
} CBuiltin;

struct CExprList {
  CExprList *next;
  CExpr *expr;
};

struct CExpr {
  CExprKind kind;
  CType *type;        /* the type of the value (after lvalue conversion for rvalues) */
  CPos pos;           /* the operator's position (UBSan and -g locations) */
  CPos name_pos;      /* EX_MEMBER: the member name's position (where UBSan reports accesses) */
  CExpr *lhs, *rhs, *cond;
  CExprList *args;
  CObj *obj;
  CMember *member;
  CStmt *body;
  CType *vla_type;    /* EX_VLA_SIZEOF, VLA pointer arithmetic */
  CType *optype;      /* EX_OPASSIGN computation type */
  CExprKind op;       /* EX_OPASSIGN binary op */
  CBuiltin builtin;
  const char *label;  /* EX_LABEL_ADDR */
  const char *str;    /* EX_STRING */
  int64_t str_len;
  unsigned __int128 ival;
  long double fval;
  int64_t step;       /* pointer arithmetic element size, inc/dec amount */
  int64_t bound;      /* EX_PTRADD array-bounds fact, -1 if none */
  bool implicit;      /* EX_CAST inserted by the parser */
  bool parens;        /* written in parentheses (-Wparentheses) */
  bool subscript;     /* EX_PTRADD of a[i]: UBSan reports bounds at the array, else at the operator */
  bool is_lvalue;
  void *cg;           /* free for the lowering */
};

/* ---- initializers -------------------------------------------------------------- */

/* A flattened initializer: the parser resolves braces and designators into
 * scalar leaves at byte offsets (sorted, later designators overriding earlier
 * ones); everything not listed is zero. A char array initialized from a string
 * literal is one item whose expr is the EX_STRING (bytes copied, rest zero). */
typedef struct CInitItem {
  int64_t offset;     /* bytes from the object start */
  CType *type;        /* the leaf's type */
  CMember *bitfield;  /* non-NULL: store into this bitfield at offset */
  CExpr *expr;        /* already converted to ->type */
} CInitItem;

struct CInit {
  CType *type;        /* complete type (an incomplete array gets its length here) */
  CInitItem *items;
  int nitems;
};

/* ---- statements ---------------------------------------------------------------- */

typedef enum CStmtKind {
  ST_NULL,
  ST_EXPR,     /* ->expr */
  ST_DECL,     /* ->obj: a local object coming into scope (VLA allocation, initializer,
                  lifetime start); static locals are globals and appear as ST_NULL */
  ST_BLOCK,    /* ->stmts; ->locals declared directly in it (lifetime end, cleanup attrs) */
  ST_IF,       /* ->expr cond, ->then, ->els */
  ST_WHILE,    /* ->expr, ->body */
  ST_DO,       /* ->body, ->expr */
  ST_FOR,      /* ->init (a ST_EXPR/ST_BLOCK of ST_DECLs or NULL), ->expr (NULL = forever), ->step, ->body */
  ST_SWITCH,   /* ->expr (promoted), ->body, ->cases (ST_CASE list in order), ->default_case */
  ST_CASE,     /* ->case_lo..->case_hi (GNU ranges; equal otherwise), ->body */
  ST_DEFAULT,  /* ->body */
  ST_BREAK,
  ST_CONTINUE,
  ST_RETURN,   /* ->expr (NULL for void), already converted to the return type */
  ST_GOTO,     /* ->label */
  ST_GOTO_PTR, /* goto *->expr */
  ST_LABEL,    /* ->label: ->body */
  ST_ASM,      /* ->asm_: a GNU asm statement (asm.c, lower_asm.c) */
} CStmtKind;

/* A GNU asm statement, already in LLVM's terms (docs/kitcc.md "Inline
 * assembly"): the template with $N operand references, one constraint entry
 * per operand (outputs, inputs, the inputs of '+' outputs, labels), then the
 * clobbers. */
typedef struct CAsmOperand {
  CExpr *expr;
  bool indirect;      /* a memory operand: passed (outputs: written) through its address */
  int tied;           /* an input: the output it matches (a digit, or the '+' output whose
                         old value it is: then expr is that output's), or -1 */
} CAsmOperand;
typedef struct CAsm {
  const char *tmpl;
  const char *constraints; /* every entry, comma-separated, in LLVM's syntax */
  bool side_effects;       /* volatile, goto, or no outputs */
  int nout, nin;           /* nin counts the extra inputs of '+' outputs */
  CAsmOperand *outs, *ins;
  int nlabels;
  const char **labels;
  CPos *label_pos;
} CAsm;

typedef struct CStmtList {
  struct CStmtList *next;
  CStmt *stmt;
} CStmtList;

typedef struct CObjList {
  struct CObjList *next;
  CObj *obj;
} CObjList;

struct CStmt {
  CStmtKind kind;
  CPos pos;
  CPos end;           /* ST_BLOCK: its closing brace */
  CExpr *expr, *step;
  CStmt *then, *els, *body, *init;
  CStmtList *stmts;
  CObjList *locals;
  CStmtList *cases;
  CStmt *default_case;
  CObj *obj;
  const char *label;
  int64_t case_lo, case_hi;
  void *cg;           /* free for the lowering (block ids for labels/cases) */
  CAsm *asm_;         /* ST_ASM */
};

/* ---- objects: variables and functions ------------------------------------- */

typedef enum CStorage { SC_NONE, SC_EXTERN, SC_STATIC, SC_AUTO, SC_REGISTER, SC_TYPEDEF } CStorage;
typedef enum CVisibility { VIS_DEFAULT, VIS_HIDDEN, VIS_PROTECTED } CVisibility;

struct CObj {
  const char *name;        /* the C name (locals may repeat; static locals get a unique asm_name) */
  const char *asm_name;    /* symbol name: __asm__("x") label, or a made-up unique name, or NULL = name */
  CType *type;
  CPos pos;
  CStorage storage;
  bool is_function;
  bool is_local;           /* automatic storage (incl. parameters) */
  bool is_param;
  bool is_definition;      /* has a body / an initializer / is a tentative definition in this TU */
  bool is_tentative;       /* file-scope definition without initializer (common-like) */
  bool is_thread_local;
  bool is_inline;
  bool address_taken;      /* & applied, or an array/struct used through a pointer (ASan: escapes) */
  bool is_referenced;
  bool attr_unused;        /* __attribute__((unused)): no -Wunused-* */
  uint32_t nrefs, nsets;   /* names of it in expressions; of them, left of a plain '=' (lint.c) */
  int decl_loop_depth;     /* loops open at its declaration (lint.c: -Wuninitialized) */
  bool warned_uninit;
  int align;               /* effective alignment (_Alignas / aligned) */
  /* GNU attributes that change code */
  bool attr_weak, attr_used, attr_noinline, attr_always_inline, attr_noreturn, attr_packed;
  bool attr_no_sanitize_address, attr_returns_twice, attr_cold;
  bool attr_no_instrument_function; /* -finstrument-functions leaves it alone */
  CVisibility visibility;
  const char *section;
  const char *alias_target;    /* __attribute__((alias("t"))) */
  int constructor_prio;        /* 0 = none, else priority (65535 default) */
  int destructor_prio;
  CObj *cleanup_fn;            /* __attribute__((cleanup(f))) on a local */
  uint64_t attr_nonnull_args;  /* nonnull(N, ...) of a function: bit N-1 (UBSan nonnull-attribute) */
  bool attr_nonnull_all, attr_returns_nonnull; /* nonnull() on every pointer parameter; returns_nonnull */
  CPos attr_nonnull_pos, attr_returns_nonnull_pos; /* where the attributes are named */
  /* variables */
  CInit *init;
  /* functions */
  CObjList *params;            /* parameter objects, in order */
  CStmt *body;
  CObjList *locals;            /* every local object of the function (incl. params, compound literals) */
  bool has_va_start;
  bool uses_setjmp;
  /* gnu_inline extern inline (declare.c gnu_inline_definition): the internal
   * copy of the body that direct calls use, or the body that direct calls
   * expand because it forwards __builtin_va_arg_pack (builtin_fortify.c); on
   * the copy, whether it uses __builtin_va_arg_pack and the token of its
   * `return EXPR;` expression */
  CObj *gnu_inline_body, *gnu_inline_forward;
  bool is_gnu_inline_body, uses_va_arg_pack;
  size_t forward_tok;
  void *cg;                    /* free for the lowering (symbol / stack object / value) */
  uint32_t cg_slot;            /* lowering: stack object index + 1 of a local */
};

/* ---- a translation unit ------------------------------------------------------ */

typedef struct CUnit {
  CObjList *objs;          /* file-scope objects and functions in declaration order, each once
                              (the last declaration wins for attributes; definitions merged) */
  const char *main_file;   /* for DW_AT_name and __FILE__ */
  int errors;
  CStmtList *file_asms;    /* file-scope asm("..."): ST_ASM statements in order */
  CStmtList **file_asms_tail;
} CUnit;

#endif
