/* frontends/c/builtin.c — GNU builtins kitcc understands (va_*, offsetof,
 * types_compatible_p, choose_expr, constant_p, expect, bit operations,
 * overflow arithmetic, atomics, float classification, huge_val/inf/nan) and
 * the prototypes of libc functions that __builtin_<name> forms and implicit
 * declarations should use. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "vector.h"

/* ---- libc prototypes: "r:p,p" with codes i=int u=unsigned l=long L=unsigned long
 * (size_t) d=double f=float D=long double p=void* k=const void* c=const char* v=void .=variadic ---- */
static const struct {
  const char *name, *sig;
} libc[] = {
    {"abort", "v:"}, {"exit", "v:i"}, {"_exit", "v:i"}, {"malloc", "p:L"}, {"calloc", "p:L,L"},
    {"realloc", "p:p,L"}, {"free", "v:p"}, {"memcpy", "p:p,p,L"}, {"memmove", "p:p,p,L"},
    {"memset", "p:p,i,L"}, {"memcmp", "i:p,p,L"}, {"memchr", "p:p,i,L"}, {"strlen", "L:c"},
    {"strcpy", "p:p,c"}, {"strncpy", "p:p,c,L"}, {"strcat", "p:p,c"}, {"strncat", "p:p,c,L"},
    {"strcmp", "i:c,c"}, {"strncmp", "i:c,c,L"}, {"strchr", "p:c,i"}, {"strrchr", "p:c,i"},
    {"strstr", "p:c,c"}, {"strdup", "p:c"}, {"strndup", "p:c,L"}, {"strspn", "L:c,c"},
    {"strcspn", "L:c,c"}, {"strpbrk", "p:c,c"}, {"printf", "i:c."}, {"fprintf", "i:p,c."},
    {"sprintf", "i:p,c."}, {"snprintf", "i:p,L,c."}, {"puts", "i:c"}, {"putchar", "i:i"},
    {"abs", "i:i"}, {"labs", "l:l"}, {"llabs", "l:l"}, {"sqrt", "d:d"}, {"sqrtf", "f:f"},
    {"sqrtl", "D:D"}, {"fabs", "d:d"}, {"fabsf", "f:f"}, {"fabsl", "D:D"}, {"floor", "d:d"},
    {"ceil", "d:d"}, {"pow", "d:d,d"}, {"exp", "d:d"}, {"log", "d:d"}, {"sin", "d:d"}, {"cos", "d:d"},
    {"atan2", "d:d,d"}, {"fmod", "d:d,d"}, {"ldexp", "d:d,i"}, {"frexp", "d:d,p"}, {"modf", "d:d,p"},
    {"isdigit", "i:i"}, {"isalpha", "i:i"}, {"isspace", "i:i"}, {"toupper", "i:i"}, {"tolower", "i:i"},
    {"atoi", "i:c"}, {"atol", "l:c"}, {"strtol", "l:c,p,i"}, {"strtoul", "L:c,p,i"}, {"strtod", "d:c,p"},
    {"alloca", "p:L"}, {"bzero", "v:p,L"}, {"bcmp", "i:p,p,L"}, {"index", "p:c,i"}, {"rindex", "p:c,i"},
    {"stpcpy", "p:p,c"}, {"ffs", "i:i"}, {"fputs", "i:c,p"}, {"fputc", "i:i,p"}, {"putc", "i:i,p"},
    {"fwrite", "L:p,L,L,p"}, {"vprintf", "i:c,p"}, {"vfprintf", "i:p,c,p"}, {"vsprintf", "i:p,c,p"},
    {"vsnprintf", "i:p,L,c,p"}, {"signbit", "i:d"},
};

static CType *code_type(char c) {
  switch (c) {
  case 'i': return ty_int;
  case 'u': return ty_uint;
  case 'l': return ty_long;
  case 'L': return ty_ulong;
  case 'd': return ty_double;
  case 'f': return ty_float;
  case 'D': return ty_ldouble;
  case 'c': return type_ptr(type_qualified(ty_char, Q_CONST));
  case 'p': return type_ptr(ty_void);
  case 'k': return type_ptr(type_qualified(ty_void, Q_CONST));
  default: return ty_void;
  }
}

CType *libc_prototype(const char *name) {
  for (size_t i = 0; i < sizeof libc / sizeof libc[0]; i++)
    if (!strcmp(libc[i].name, name)) return libc_sig_type(libc[i].sig);
  return NULL;
}

CType *libc_sig_type(const char *sig) {
  const char *s = sig;
  CType *ret = code_type(s[0]);
  CParam head = {0}, *tail = &head;
  bool variadic = false;
  for (s += 2; *s; s++) {
    if (*s == ',') continue;
    if (*s == '.') {
      variadic = true;
      continue;
    }
    CParam *q = c_alloc(sizeof *q);
    q->type = code_type(*s);
    tail = tail->next = q;
  }
  return type_func(ret, head.next, variadic, false);
}

/* ---- builtin calls ------------------------------------------------------------------ */

typedef struct BI {
  const char *name;
  CBuiltin id;
  const char *ret;   /* "i" int, "b" _Bool, "a0" type of arg 0, "v" void, "p" void*, "d" double, "L" size_t ... */
  int nargs;         /* -1 = any */
} BI;

static const BI builtins[] = {
    {"__builtin_va_start", BI_VA_START, "v", -1}, {"__builtin_va_end", BI_VA_END, "v", 1},
    {"__builtin_va_copy", BI_VA_COPY, "v", 2}, {"__builtin_expect", BI_EXPECT, "l", 2},
    {"__builtin_expect_with_probability", BI_EXPECT, "l", 3},
    {"__builtin_unreachable", BI_UNREACHABLE, "v", 0}, {"__builtin_trap", BI_TRAP, "v", 0},
    {"__builtin_bswap16", BI_BSWAP16, "s", 1}, {"__builtin_bswap32", BI_BSWAP32, "u", 1},
    {"__builtin_bswap64", BI_BSWAP64, "L", 1},
    {"__builtin_clz", BI_CLZ, "i", 1}, {"__builtin_clzl", BI_CLZ, "i", 1}, {"__builtin_clzll", BI_CLZ, "i", 1},
    {"__builtin_ctz", BI_CTZ, "i", 1}, {"__builtin_ctzl", BI_CTZ, "i", 1}, {"__builtin_ctzll", BI_CTZ, "i", 1},
    {"__builtin_popcount", BI_POPCOUNT, "i", 1}, {"__builtin_popcountl", BI_POPCOUNT, "i", 1},
    {"__builtin_popcountll", BI_POPCOUNT, "i", 1}, {"__builtin_parity", BI_PARITY, "i", 1},
    {"__builtin_parityl", BI_PARITY, "i", 1}, {"__builtin_parityll", BI_PARITY, "i", 1},
    {"__builtin_ffs", BI_FFS, "i", 1}, {"__builtin_ffsl", BI_FFS, "i", 1}, {"__builtin_ffsll", BI_FFS, "i", 1},
    {"__builtin_clrsb", BI_CLRSB, "i", 1}, {"__builtin_clrsbl", BI_CLRSB, "i", 1},
    {"__builtin_clrsbll", BI_CLRSB, "i", 1},
    {"__builtin_add_overflow", BI_ADD_OVERFLOW, "b", 3}, {"__builtin_sub_overflow", BI_SUB_OVERFLOW, "b", 3},
    {"__builtin_mul_overflow", BI_MUL_OVERFLOW, "b", 3},
    {"__builtin_add_overflow_p", BI_ADD_OVERFLOW_P, "b", 3}, {"__builtin_sub_overflow_p", BI_SUB_OVERFLOW_P, "b", 3},
    {"__builtin_mul_overflow_p", BI_MUL_OVERFLOW_P, "b", 3},
    {"__builtin_memcpy", BI_MEMCPY, "p", 3}, {"__builtin_memmove", BI_MEMMOVE, "p", 3},
    {"__builtin_memset", BI_MEMSET, "p", 3}, {"__builtin_alloca", BI_ALLOCA, "p", 1},
    {"__builtin_frame_address", BI_FRAME_ADDRESS, "p", 1}, {"__builtin_return_address", BI_RETURN_ADDRESS, "p", 1},
    {"__builtin_fabs", BI_FABS, "d", 1}, {"__builtin_fabsf", BI_FABS, "f", 1}, {"__builtin_fabsl", BI_FABS, "D", 1},
    {"__builtin_sqrt", BI_SQRT, "d", 1}, {"__builtin_sqrtf", BI_SQRT, "f", 1}, {"__builtin_sqrtl", BI_SQRT, "D", 1},
    {"__builtin_copysign", BI_COPYSIGN, "d", 2}, {"__builtin_copysignf", BI_COPYSIGN, "f", 2},
    {"__builtin_copysignl", BI_COPYSIGN, "D", 2}, {"__builtin_fmin", BI_FMIN, "d", 2},
    {"__builtin_fminf", BI_FMIN, "f", 2}, {"__builtin_fmax", BI_FMAX, "d", 2}, {"__builtin_fmaxf", BI_FMAX, "f", 2},
    {"__builtin_fminl", BI_FMIN, "D", 2}, {"__builtin_fmaxl", BI_FMAX, "D", 2},
    {"__builtin_fma", BI_FMA, "d", 3}, {"__builtin_fmaf", BI_FMA, "f", 3}, {"__builtin_fmal", BI_FMA, "D", 3},
    {"__builtin_isnan", BI_ISNAN, "i", 1}, {"__builtin_isinf", BI_ISINF, "i", 1},
    {"__builtin_isnanf", BI_ISNAN, "i", 1}, {"__builtin_isnanl", BI_ISNAN, "i", 1},
    {"__builtin_isinff", BI_ISINF, "i", 1}, {"__builtin_isinfl", BI_ISINF, "i", 1},
    {"__builtin_finite", BI_ISFINITE, "i", 1}, {"__builtin_finitef", BI_ISFINITE, "i", 1},
    {"__builtin_finitel", BI_ISFINITE, "i", 1},
    {"__builtin_isfinite", BI_ISFINITE, "i", 1}, {"__builtin_signbit", BI_SIGNBIT, "i", 1},
    {"__builtin_signbitf", BI_SIGNBIT, "i", 1}, {"__builtin_signbitl", BI_SIGNBIT, "i", 1},
    {"__builtin_isunordered", BI_ISUNORDERED, "i", 2}, {"__builtin_isless", BI_ISLESS, "i", 2},
    {"__builtin_islessequal", BI_ISLESSEQUAL, "i", 2}, {"__builtin_isgreater", BI_ISGREATER, "i", 2},
    {"__builtin_isgreaterequal", BI_ISGREATEREQUAL, "i", 2}, {"__builtin_islessgreater", BI_ISLESSGREATER, "i", 2},
    {"__builtin_prefetch", BI_PREFETCH, "v", -1}, {"__builtin_assume_aligned", BI_ASSUME_ALIGNED, "p", -1},
    /* x86-64's instruction cache is coherent: nothing to do but evaluate (begin, end) */
    {"__builtin___clear_cache", BI_PREFETCH, "v", 2},
    {"__atomic_load_n", BI_ATOMIC_LOAD, "*0", 2}, {"__atomic_store_n", BI_ATOMIC_STORE, "v", 3},
    {"__atomic_exchange_n", BI_ATOMIC_EXCHANGE, "*0", 3},
    {"__atomic_compare_exchange_n", BI_ATOMIC_CMPXCHG, "b", 6},
    {"__atomic_fetch_add", BI_ATOMIC_FETCH_ADD, "*0", 3}, {"__atomic_fetch_sub", BI_ATOMIC_FETCH_SUB, "*0", 3},
    {"__atomic_fetch_and", BI_ATOMIC_FETCH_AND, "*0", 3}, {"__atomic_fetch_or", BI_ATOMIC_FETCH_OR, "*0", 3},
    {"__atomic_fetch_xor", BI_ATOMIC_FETCH_XOR, "*0", 3}, {"__atomic_fetch_nand", BI_ATOMIC_FETCH_NAND, "*0", 3},
    {"__atomic_add_fetch", BI_ATOMIC_ADD_FETCH, "*0", 3}, {"__atomic_sub_fetch", BI_ATOMIC_SUB_FETCH, "*0", 3},
    {"__atomic_and_fetch", BI_ATOMIC_AND_FETCH, "*0", 3}, {"__atomic_or_fetch", BI_ATOMIC_OR_FETCH, "*0", 3},
    {"__atomic_xor_fetch", BI_ATOMIC_XOR_FETCH, "*0", 3}, {"__atomic_nand_fetch", BI_ATOMIC_NAND_FETCH, "*0", 3},
    {"__atomic_test_and_set", BI_ATOMIC_TEST_AND_SET, "b", 2}, {"__atomic_clear", BI_ATOMIC_CLEAR, "v", 2},
    {"__atomic_thread_fence", BI_ATOMIC_THREAD_FENCE, "v", 1},
    {"__atomic_signal_fence", BI_ATOMIC_SIGNAL_FENCE, "v", 1},
    {"__sync_synchronize", BI_SYNC_SYNCHRONIZE, "v", 0},
    {"__sync_lock_release", BI_SYNC_LOCK_RELEASE, "v", 1},
    {"__sync_val_compare_and_swap", BI_SYNC_VAL_CAS, "*0", 3},
    {"__sync_bool_compare_and_swap", BI_SYNC_BOOL_CAS, "b", 3},
    {"__sync_fetch_and_add", BI_ATOMIC_FETCH_ADD, "*0", -2}, {"__sync_fetch_and_sub", BI_ATOMIC_FETCH_SUB, "*0", -2},
    {"__sync_fetch_and_and", BI_ATOMIC_FETCH_AND, "*0", -2}, {"__sync_fetch_and_or", BI_ATOMIC_FETCH_OR, "*0", -2},
    {"__sync_fetch_and_xor", BI_ATOMIC_FETCH_XOR, "*0", -2},
    {"__sync_fetch_and_nand", BI_ATOMIC_FETCH_NAND, "*0", -2},
    {"__sync_add_and_fetch", BI_ATOMIC_ADD_FETCH, "*0", -2}, {"__sync_sub_and_fetch", BI_ATOMIC_SUB_FETCH, "*0", -2},
    {"__sync_and_and_fetch", BI_ATOMIC_AND_FETCH, "*0", -2}, {"__sync_or_and_fetch", BI_ATOMIC_OR_FETCH, "*0", -2},
    {"__sync_xor_and_fetch", BI_ATOMIC_XOR_FETCH, "*0", -2},
    {"__sync_nand_and_fetch", BI_ATOMIC_NAND_FETCH, "*0", -2},
    {"__sync_lock_test_and_set", BI_ATOMIC_EXCHANGE, "*0", -2},
};

static CType *ret_type(const char *r, CExprList *args) {
  if (r[0] == '*') {
    /* the pointee of argument 0 */
    CType *t = args ? type_unqual(args->expr->type) : NULL;
    return t && t->kind == TY_PTR ? type_unqual(t->base) : ty_int;
  }
  switch (r[0]) {
  case 'i': return ty_int;
  case 'b': return ty_bool;
  case 'v': return ty_void;
  case 'p': return type_ptr(ty_void);
  case 'd': return ty_double;
  case 'f': return ty_float;
  case 'D': return ty_ldouble;
  case 'l': return ty_long;
  case 'L': return ty_ulong;
  case 'u': return ty_uint;
  case 's': return ty_ushort;
  default: return ty_int;
  }
}

static int count(CExprList *a) {
  int n = 0;
  for (; a; a = a->next) n++;
  return n;
}

/* operands of the bit builtins are converted to the width the name says */
/* __builtin_LINE (), __builtin_FILE (), __builtin_FUNCTION () of gcc and
 * clang: the call's own line, file and function; NULL for another name */
static CExpr *source_location_builtin(Parser *p, const char *name, CPos pos) {
  int which = !strcmp(name, "__builtin_LINE") ? 1 : !strcmp(name, "__builtin_FILE") ? 2
            : !strcmp(name, "__builtin_FUNCTION") ? 3 : 0;
  if (!which) return NULL;
  expect(p, "(");
  expect(p, ")");
  if (which == 1) return new_int((int64_t)pos.line, ty_int, pos);
  if (which == 3) return new_name_string(p->fn ? p->fn->name : "", pos);
  const char *file = p->diag->pp ? cpp_file_name(p->diag->pp, pos.file) : NULL;
  return new_name_string(file ? file : "", pos);
}

/* __builtin_constant_p as gcc and clang answer it: 1 for an integer or
 * floating constant expression and for a string literal; 0 for anything with
 * side effects (never evaluated) and for other pointers; otherwise the
 * question waits for the optimiser (CG's isconst: 1 once inlining and
 * constant propagation made it a constant, 0 at -O0). */
static CExpr *constant_p(Parser *p, CExpr *e, CPos pos) {
  int64_t v;
  long double f;
  const CExpr *s = e;
  while (s->kind == EX_DECAY || (s->kind == EX_CAST && s->implicit)) s = s->lhs;
  if (c_eval_int(e, &v) || (type_is_float(e->type) && c_eval_float(e, &f)) || s->kind == EX_STRING)
    return new_int(1, ty_int, pos);
  bool numeric = type_is_integer(e->type) || type_is_float(e->type);
  if (!numeric || !c_expr_is_pure(e) || !p->fn) return new_int(0, ty_int, pos);
  CExpr *b = new_expr(EX_BUILTIN, ty_int, pos);
  b->builtin = BI_CONSTANT_P;
  b->args = c_alloc(sizeof *b->args);
  b->args->expr = rvalue(p, e);
  return b;
}

/* an integer constant's exact value, whatever its type's signedness */
static bool exact_value(CExpr *e, __int128 *out) {
  int64_t v;
  if (!type_is_integer(e->type) || !c_expr_is_pure(e) || !c_eval_int(e, &v)) return false;
  CType *t = type_unqual(e->type);
  if (t->kind == TY_ENUM) t = t->base;
  if (t->size > 8) return false;
  *out = t->is_unsigned ? (__int128)(uint64_t)v : (__int128)v;
  return true;
}

/* __builtin_{add,sub,mul}_overflow_p(a, b, c): folded to 0 or 1 when a and b
 * are constants (gnulib's intprops.h uses them in integer constant
 * expressions, which is why gcc has them), else computed at run time */
static CExpr *overflow_p(Parser *p, CExpr *e) {
  CExpr *a = e->args->expr, *b = e->args->next->expr, *c = e->args->next->next->expr;
  CType *rt = type_unqual(c->type);
  if (rt->kind == TY_ENUM) rt = rt->base;
  if (!type_is_integer(a->type) || !type_is_integer(b->type) || !type_is_integer(rt) || rt->kind == TY_BOOL) {
    perror_at(p, e->pos, "operands of an overflow builtin must be integers");
    return new_int(0, ty_int, e->pos);
  }
  __int128 x, y;
  if (rt->size > 8 || !exact_value(a, &x) || !exact_value(b, &y) || !c_expr_is_pure(c)) return e;
  __int128 r = e->builtin == BI_ADD_OVERFLOW_P ? x + y : e->builtin == BI_SUB_OVERFLOW_P ? x - y : x * y;
  int bits = (int)rt->size * 8;
  __int128 lo = rt->is_unsigned ? 0 : -((__int128)1 << (bits - 1));
  __int128 hi = rt->is_unsigned ? ((__int128)1 << bits) - 1 : ((__int128)1 << (bits - 1)) - 1;
  return new_int(r < lo || r > hi, ty_bool, e->pos);
}

/* the __atomic_*_n and __sync_* forms act on an integer or a pointer of 1,
 * 2, 4, 8 or 16 bytes; anything else is an error, in clang's words */
static bool atomic_operand_ok(Parser *p, CBuiltin id, CExprList *args, CPos pos) {
  bool on_object = (id >= BI_ATOMIC_LOAD && id <= BI_ATOMIC_NAND_FETCH) || id == BI_SYNC_VAL_CAS ||
                   id == BI_SYNC_BOOL_CAS || id == BI_SYNC_LOCK_RELEASE;
  if (!on_object || !args) return true;
  CType *pt = type_unqual(args->expr->type);
  if (pt->kind != TY_PTR) {
    perror_at(p, pos, "address argument to atomic builtin must be a pointer");
    return false;
  }
  CType *t = type_unqual(pt->base);
  /* a _Bool is loaded, stored, exchanged and compared, not added to */
  bool bool_ok = id == BI_ATOMIC_LOAD || id == BI_ATOMIC_STORE || id == BI_ATOMIC_EXCHANGE || id == BI_ATOMIC_CMPXCHG;
  bool kind_ok = t->kind == TY_PTR || (type_is_integer(t) && (t->kind != TY_BOOL || bool_ok));
  bool size_ok = t->size == 1 || t->size == 2 || t->size == 4 || t->size == 8 || t->size == 16;
  if (kind_ok && size_ok) return true;
  perror_at(p, pos, "address argument to atomic operation must be a pointer to integer or pointer");
  return false;
}

static CType *bit_operand_type(const char *name, CBuiltin id) {
  size_t n = strlen(name);
  if (id == BI_BSWAP16) return ty_ushort;
  if (id == BI_BSWAP32) return ty_uint;
  if (id == BI_BSWAP64) return ty_ulong;
  bool ll = n > 2 && name[n - 1] == 'l' && name[n - 2] == 'l';
  bool l = !ll && name[n - 1] == 'l';
  bool sgn = id == BI_CLRSB || id == BI_FFS;
  if (ll || l) return sgn ? ty_long : ty_ulong;
  return sgn ? ty_int : ty_uint;
}

static CExpr *offsetof_expr(Parser *p, CPos pos) {
  expect(p, "(");
  CType *t = parse_type_name(p);
  expect(p, ",");
  /* a member designator: ident ( . ident | [ expr ] )* */
  int64_t off = 0;
  CType *cur = type_unqual(t);
  const char *name = ident(p);
  for (;;) {
    if (name) {
      int64_t o = 0;
      CMember *m = type_find_member(cur, name, &o);
      if (!m) {
        perror_at(p, pos, "no member named '%s'", name);
        break;
      }
      off += o;
      cur = type_unqual(m->type);
      name = NULL;
    }
    if (accept(p, ".")) {
      name = ident(p);
      continue;
    }
    if (accept(p, "[")) {
      int64_t i = parse_const_int(p);
      expect(p, "]");
      if (cur->kind == TY_ARRAY) {
        off += i * type_unqual(cur->base)->size;
        cur = type_unqual(cur->base);
      }
      continue;
    }
    break;
  }
  expect(p, ")");
  return new_int(off, ty_ulong, pos);
}

static CExpr *nan_or_inf(Parser *p, const char *name, CPos pos) {
  const char *s = name + strlen("__builtin_");
  CType *t = ty_double;
  size_t n = strlen(s);
  if (strcmp(s, "inf") && s[n - 1] == 'f') t = ty_float;
  if (s[n - 1] == 'l') t = ty_ldouble;
  bool is_nan = !strncmp(s, "nan", 3);
  CExprList *args = parse_call_args(p);
  (void)args;
  CExpr *e = new_expr(EX_FLOAT, t, pos);
  e->fval = is_nan ? (long double)NAN : (long double)INFINITY;
  return e;
}

/* gcc's type classes (typeclass.h) for __builtin_classify_type; the operand
 * is an expression, so arrays and functions have decayed to pointers */
static int classify_type(CType *t) {
  t = type_unqual(t);
  switch (t->kind) {
  case TY_VOID: return 0;
  case TY_ENUM: return 3;
  case TY_BOOL: return 4;
  case TY_PTR: case TY_ARRAY: case TY_FUNC: return 5;
  case TY_FLOAT: case TY_DOUBLE: case TY_LDOUBLE: return 8;
  case TY_STRUCT: return 12;
  case TY_UNION: return 13;
  default: return type_is_integer(t) ? 1 : -1;
  }
}

/* glibc's classification function for x's type (__fpclassify, __isinfl, ...), as
 * its math.h declares it */
static CExpr *libm_classify(Parser *p, const char *base, CExpr *x, CPos pos) {
  CType *t = type_unqual(x->type);
  if (!type_is_float(t)) t = ty_double;
  const char *suffix = t->kind == TY_FLOAT ? "f" : t->kind == TY_LDOUBLE ? "l" : "";
  char fname[32];
  snprintf(fname, sizeof fname, "%s%s", base, suffix);
  Sym *y = scope_find(p, fname);
  CObj *o;
  if (y && y->kind == SYM_OBJ && y->obj->is_function) {
    o = y->obj;
  } else {
    CParam *q = c_alloc(sizeof *q);
    q->type = t;
    o = c_alloc(sizeof *o);
    o->name = c_strdup(fname);
    o->type = type_func(ty_int, q, false, false);
    o->pos = pos;
    o->is_function = true;
    o->storage = SC_EXTERN;
    PScope *saved = p->scope;
    p->scope = p->file_scope;
    scope_add(p, o->name, SYM_OBJ)->obj = o;
    p->scope = saved;
    add_unit_obj(p, o);
  }
  CExpr *fn = new_expr(EX_VAR, o->type, pos);
  fn->obj = o;
  CExprList *args = c_alloc(sizeof *args);
  args->expr = x;
  return finish_call(p, fn, args, pos);
}

/* __builtin_fpclassify, __builtin_isnormal, __builtin_isinf_sign (what glibc's
 * math.h uses for GNU C 4.4 and later): glibc's own __fpclassify and __isinf */
static CExpr *classify_call(Parser *p, const char *name, CPos pos) {
  expect(p, "(");
  CExprList *args = parse_call_args(p);
  int n = count(args);
  bool fpc = !strcmp(name, "__builtin_fpclassify");
  if (n != (fpc ? 6 : 1)) {
    perror_at(p, pos, "wrong number of arguments to '%s'", name);
    return new_int(0, ty_int, pos);
  }
  if (fpc) {
    /* glibc's FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO: what __fpclassify returns */
    static const int64_t glibc_order[5] = {0, 1, 4, 3, 2};
    CExprList *a = args;
    for (int k = 0; k < 5; k++, a = a->next) {
      int64_t v;
      if (!c_eval_int(a->expr, &v) || v != glibc_order[k]) {
        perror_at(p, pos, "__builtin_fpclassify with other values than glibc's FP_* is not supported by kitcc");
        return new_int(0, ty_int, pos);
      }
    }
    args = a;
  }
  CExpr *x = rvalue(p, args->expr);
  if (!strcmp(name, "__builtin_isinf_sign")) return libm_classify(p, "__isinf", x, pos);
  CExpr *c = libm_classify(p, "__fpclassify", x, pos);
  if (fpc) return c;
  CExpr *e = new_expr(EX_EQ, ty_int, pos);
  e->lhs = c;
  e->rhs = new_int(4, ty_int, pos); /* FP_NORMAL */
  return e;
}

CExpr *parse_builtin_call(Parser *p, const char *name, CPos pos) {
  if (strncmp(name, "__builtin_", 10) && strncmp(name, "__atomic_", 9) && strncmp(name, "__sync_", 7)) return NULL;
  CExpr *v = vector_builtin_call(p, name, pos);
  if (v) return v;
  if (!strcmp(name, "__builtin_va_arg")) {
    expect(p, "(");
    CExpr *ap = parse_assign(p);
    expect(p, ",");
    CType *t = parse_type_name(p);
    expect(p, ")");
    CExpr *e = new_expr(EX_VA_ARG, t, pos);
    e->lhs = ap;
    return e;
  }
  if (!strcmp(name, "__builtin_offsetof")) return offsetof_expr(p, pos);
  CExpr *fortify = parse_fortify_builtin(p, name, pos);
  if (fortify) return fortify;
  if (!strcmp(name, "__builtin_types_compatible_p")) {
    expect(p, "(");
    CType *a = parse_type_name(p);
    expect(p, ",");
    CType *b = parse_type_name(p);
    expect(p, ")");
    return new_int(type_compatible(type_unqual(a), type_unqual(b)), ty_int, pos);
  }
  if (!strcmp(name, "__builtin_choose_expr")) {
    expect(p, "(");
    int64_t c = parse_const_int(p);
    expect(p, ",");
    CExpr *a = parse_assign(p);
    expect(p, ",");
    CExpr *b = parse_assign(p);
    expect(p, ")");
    return c ? a : b;
  }
  if (!strcmp(name, "__builtin_tgmath")) return parse_tgmath_builtin(p, pos);
  CExpr *where = source_location_builtin(p, name, pos);
  if (where) return where;
  if (!strcmp(name, "__builtin_classify_type")) {
    expect(p, "(");
    CExpr *e = parse_assign(p);
    expect(p, ")");
    return new_int(classify_type(e->type), ty_int, pos);
  }
  if (!strcmp(name, "__builtin_constant_p")) {
    expect(p, "(");
    CExpr *e = parse_assign(p);
    expect(p, ")");
    return constant_p(p, e, pos);
  }
  if (!strncmp(name, "__builtin_huge_val", 18) || !strncmp(name, "__builtin_inf", 13) || !strncmp(name, "__builtin_nan", 13)) {
    expect(p, "(");
    return nan_or_inf(p, name, pos);
  }
  if (is_complex_function(name, NULL)) return complex_builtin(p, name, pos);
  if (!strcmp(name, "__builtin_fpclassify") || !strcmp(name, "__builtin_isnormal") || !strcmp(name, "__builtin_isinf_sign"))
    return classify_call(p, name, pos);
  for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
    const BI *b = &builtins[i];
    if (strcmp(b->name, name)) continue;
    expect(p, "(");
    CExprList *args = parse_call_args(p);
    int n = count(args);
    if (b->nargs >= 0 && n != b->nargs && b->id != BI_PREFETCH) {
      perror_at(p, pos, "wrong number of arguments to '%s'", name);
      return new_int(0, ty_int, pos);
    }
    for (CExprList *a = args; a; a = a->next) {
      /* va_list arguments stay lvalues; everything else decays */
      if (b->id == BI_VA_START || b->id == BI_VA_END || b->id == BI_VA_COPY) continue;
      a->expr = rvalue(p, a->expr);
    }
    if (b->id == BI_VA_START && p->fn) p->fn->has_va_start = true;
    if (b->nargs == -2 || (b->id >= BI_ATOMIC_LOAD && b->id <= BI_SYNC_BOOL_CAS && !strncmp(name, "__sync", 6))) {
      /* __sync_* forms: sequentially consistent */
      CExprList *l = args;
      while (l && l->next) l = l->next;
      if (l && b->id != BI_SYNC_SYNCHRONIZE && b->id != BI_SYNC_LOCK_RELEASE && b->id != BI_SYNC_VAL_CAS &&
          b->id != BI_SYNC_BOOL_CAS) {
        CExprList *o = c_alloc(sizeof *o);
        o->expr = new_int(5, ty_int, pos);
        l->next = o;
      }
    }
    if (!atomic_operand_ok(p, b->id, args, pos)) return new_int(0, ty_int, pos);
    CExpr *e = new_expr(EX_BUILTIN, ret_type(b->ret, args), pos);
    e->builtin = b->id;
    e->args = args;
    switch (b->id) {
    case BI_CLZ: case BI_CTZ: case BI_POPCOUNT: case BI_PARITY: case BI_FFS: case BI_CLRSB:
    case BI_BSWAP16: case BI_BSWAP32: case BI_BSWAP64:
      args->expr = convert(p, args->expr, bit_operand_type(name, b->id));
      if (b->id == BI_BSWAP16) e->type = ty_ushort;
      break;
    case BI_FABS: case BI_SQRT: case BI_COPYSIGN: case BI_FMIN: case BI_FMAX: case BI_FMA:
      for (CExprList *a = args; a; a = a->next) a->expr = convert(p, a->expr, e->type);
      break;
    case BI_ISNAN: case BI_ISINF: case BI_ISFINITE: case BI_SIGNBIT:
      if (!type_is_float(args->expr->type)) args->expr = convert(p, args->expr, ty_double);
      break;
    case BI_ISUNORDERED: case BI_ISLESS: case BI_ISLESSEQUAL: case BI_ISGREATER: case BI_ISGREATEREQUAL:
    case BI_ISLESSGREATER: {
      CType *t = type_common(args->expr->type, args->next->expr->type);
      args->expr = convert(p, args->expr, t);
      args->next->expr = convert(p, args->next->expr, t);
      break;
    }
    case BI_EXPECT:
      args->expr = convert(p, args->expr, ty_long);
      break;
    case BI_ADD_OVERFLOW_P: case BI_SUB_OVERFLOW_P: case BI_MUL_OVERFLOW_P:
      return overflow_p(p, e);
    case BI_FRAME_ADDRESS: case BI_RETURN_ADDRESS: {
      int64_t level;
      if (!c_eval_ice(args->expr, &level) || level < 0 || level > 0xffff) {
        perror_at(p, args->expr->pos, "invalid argument to '%s'", name);
        level = 0;
      }
      e->ival = level;
      break;
    }
    default:
      break;
    }
    return e;
  }
  /* __builtin_<libc function>: a call of the function itself */
  const char *base = name + (name[2] == 'b' ? 10 : 0);
  if (name[2] != 'b') return NULL;
  Sym *y = scope_find(p, base);
  CObj *o;
  if (y && y->kind == SYM_OBJ && y->obj->is_function) {
    o = y->obj;
  } else {
    CType *proto = libc_prototype(base);
    if (!proto) {
      perror_at(p, pos, "unsupported builtin '%s'", name);
      if (accept(p, "(")) parse_call_args(p); /* its arguments, so they do not look like a call of 0 */
      return new_int(0, ty_int, pos);
    }
    o = c_alloc(sizeof *o);
    o->name = base;
    o->type = proto;
    o->pos = pos;
    o->is_function = true;
    o->storage = SC_EXTERN;
    PScope *saved = p->scope;
    p->scope = p->file_scope;
    scope_add(p, base, SYM_OBJ)->obj = o;
    p->scope = saved;
    add_unit_obj(p, o);
  }
  expect(p, "(");
  CExprList *args = parse_call_args(p);
  CExpr *fn = new_expr(EX_VAR, o->type, pos);
  fn->obj = o;
  return finish_call(p, fn, args, pos);
}
