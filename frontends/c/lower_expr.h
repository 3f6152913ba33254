/* frontends/c/lower_expr.h — helpers shared by the expression lowering files
 * (lower_expr.c, lower_call.c, lower_stmt.c). */
#ifndef KIT_C_LOWER_EXPR_H
#define KIT_C_LOWER_EXPR_H

#include "lower.h"

/* an lvalue: an address, or a bitfield inside the storage at addr */
typedef struct LValue {
  KitCgVal addr;
  CMember *bf;
  CType *type;
  bool is_volatile;
  uint32_t align; /* a member's effective alignment when below its type's (packed), else 0 */
} LValue;

LValue lower_lvalue(Lower *L, CExpr *e);
KitCgVal lv_load(Lower *L, LValue *lv);
KitCgVal lv_store(Lower *L, LValue *lv, KitCgVal v);
/* the address of the next variadic argument of type t (advances the va_list) */
KitCgVal lower_va_arg(Lower *L, KitCgVal ap, CType *t);
KitCgVal lower_arith(Lower *L, CExprKind k, KitCgVal a, KitCgVal b, CType *t, CType *rhs_type);

/* lower_vector.c: GNU vector values (frontends/c/vector.h) */
KitCgType lower_vector_cg_type(const CType *t);
bool lower_vector_owns(CExpr *e);                     /* an operation lower_vector_expr lowers */
KitCgVal lower_vector_expr(Lower *L, CExpr *e);
KitCgVal lower_vector_convert(Lower *L, KitCgVal v, CType *from, CType *to);
/* v (0: a zero) as the same-size type `to` a vector crosses a call in (frontends/c/abi.c) */
KitCgVal lower_vector_abi(Lower *L, KitCgVal v, KitCgType to);
KitCgVal lower_vector_arith(Lower *L, CExprKind k, KitCgVal a, KitCgVal b, CType *t);

/* lower_call.c */
KitCgVal lower_call(Lower *L, CExpr *e);
KitCgVal lower_builtin(Lower *L, CExpr *e);
/* lower_stmt.c */
KitCgVal lower_stmt_expr(Lower *L, CExpr *e);

/* lower_complex.c: a complex value is the address of its parts */
KitCgVal lower_complex_expr(Lower *L, CExpr *e);      /* + - * / of complex type, unary -, ~, EX_COMPLEX */
KitCgVal lower_complex_compare(Lower *L, CExpr *e);   /* == != of complex operands: i1 */
KitCgVal lower_complex_opassign(Lower *L, CExpr *e, KitCgVal old, KitCgVal rhs); /* old op rhs in e->optype */
KitCgVal lower_complex_convert(Lower *L, KitCgVal v, CType *from, CType *to);    /* either type complex */
KitCgVal lower_complex_to_bool(Lower *L, KitCgVal v, CType *t);                  /* i1 */
KitCgVal lower_complex_incdec(Lower *L, CExpr *e);    /* GNU z++ etc.: the real part steps by 1 */

#endif
