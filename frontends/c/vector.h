/* frontends/c/vector.h — GNU vector types (__attribute__((vector_size(N))))
 * in kitcc: the parser's side (vector.c: types, operators with gcc's rules,
 * subscripts, casts, __builtin_shuffle/convertvector and the __builtin_ia32_*
 * of the x86 intrinsics headers, vector_ia32.c) and the lowering's side
 * (lower_vector.c: CG vector values, docs/cg.md "Vectors"). */
#ifndef KIT_C_VECTOR_H
#define KIT_C_VECTOR_H

#include "parse.h"

/* the builtins of vector code (CBuiltin values after every other builtin) */
enum {
  BI_VEC_SPLAT = 1000, /* (scalar of the element type) -> every lane */
  BI_VEC_SHUFFLE,      /* __builtin_shuffle(a, mask) / (a, b, mask) */
  BI_VEC_CONVERT,      /* __builtin_convertvector(v, T): lane by lane */
  BI_VEC_IA32,         /* __builtin_ia32_*: ->ival indexes the table of vector_ia32.c */
  BI_VEC_IA32_UNKNOWN, /* an __builtin_ia32_* kitcc lacks: an error if it is ever lowered (->str names it) */
  BI_VEC_SHUFFLEVECTOR, /* clang's __builtin_shufflevector(a, b, i...): constant lanes (-1: any) */
};

static inline bool vector_type(CType *t) { return t && type_unqual(t)->kind == TY_VECTOR; }

/* parser (vector.c) */
CType *vector_apply_size(Parser *p, CType *t, int64_t bytes, CPos pos); /* t (or what it derives from) made a vector */
CType *vector_realign(CType *t, int align);          /* a typedef's aligned(N) on a vector type */
CExpr *vector_binary(Parser *p, CExprKind k, CExpr *a, CExpr *b, CPos pos);
CExpr *vector_unary(Parser *p, CExprKind k, CExpr *e, CPos pos);
CExpr *vector_subscript(Parser *p, CExpr *v, CExpr *i, CPos pos);
CExpr *vector_opassign(Parser *p, CExpr *e, CExprKind op, CExpr *rhs); /* e: the EX_OPASSIGN to complete */
CExpr *vector_assign_convert(Parser *p, CExpr *e, CType *to, const char *what);
bool vector_cast_ok(CType *to, CType *from);         /* (T)e between same-size vectors and integers */
CExpr *vector_builtin_call(Parser *p, const char *name, CPos pos); /* NULL: not a vector builtin */
bool vector_retype(CExpr *e, CType *to);             /* an unknown ia32 builtin takes the type it converts to */
int vector_uses(void);                               /* grows whenever vector code is parsed */
bool vector_signature(CType *fn);                    /* a function type that takes or returns a vector */
void vector_note_use(void);

/* the x86 table (vector_ia32.c): how each __builtin_ia32_* lowers */
typedef enum IaKind {
  IA_LLVM,    /* a call of the LLVM intrinsic ->llvm on the CG types of the signature */
  IA_BIN,     /* CG binary op ->op on the (integer) vectors */
  IA_FBIT,    /* ->op (and/or/xor) on float vectors, as integers; ANDN: ->op = -1 */
  IA_UN,      /* CG unary op ->op */
  IA_SHUF,    /* a lane pattern (IaShuf ->op), from an immediate or fixed */
  IA_FCMP,    /* FCMP predicate ->op (ops swapped when ->llvm is "swap"): lanes -1/0 as float bits */
  IA_EXT,     /* lane (immediate) of a vector */
  IA_SET,     /* vector with lane (immediate) replaced */
  IA_BSHIFT,  /* whole-register shift by an immediate number of bits: ->op 0 left, 1 right */
  IA_MULUDQ,  /* even unsigned 32-bit lanes multiplied to 64 bits */
  IA_CONV,    /* CG conversion ->op of the low lanes (as many as the result has) */
  IA_SCALAR,  /* lane 0 of a replaced by ->op (binary FADD.., unary FSQRT, or a conversion) of lane 0 of b */
  IA_LOADLANE,/* lane ->op of a replaced by a value loaded from the pointer */
  IA_STORE,   /* a plain store of the value through the pointer (non-temporal hints dropped) */
} IaKind;

typedef enum IaShuf {
  SH_PSHUFD, SH_PSHUFLW, SH_PSHUFHW, SH_SHUFPS, SH_SHUFPD, /* from an immediate */
  SH_UNPACKLO, SH_UNPACKHI, SH_MOVHL, SH_MOVLH, SH_MOVS, SH_MOVQ, /* fixed */
} IaShuf;

typedef struct IaBuiltin {
  const char *name;  /* after __builtin_ia32_ */
  const char *sig;   /* "r:a,b": codes of ia32_code_type, I = an int immediate */
  uint8_t kind;      /* IaKind */
  int op;
  const char *llvm;
} IaBuiltin;

const IaBuiltin *ia32_find(const char *name);        /* NULL if kitcc lacks it */
const IaBuiltin *ia32_get(int index);
int ia32_index(const IaBuiltin *b);
CType *ia32_code_type(char c);

#endif
