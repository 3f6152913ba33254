/* frontends/c/lower.h — state shared by the files that lower kitcc's AST to
 * CG: lower.c (module, globals, functions), lower_expr.c, lower_stmt.c,
 * lower_init.c and abi.c (the x86-64 SysV calling convention). */
#ifndef KIT_C_LOWER_H
#define KIT_C_LOWER_H

#include "cc.h"

/* How one C parameter or return value crosses a call (SysV x86-64). */
typedef enum AbiKind {
  ABI_IGNORE,   /* void, empty struct */
  ABI_DIRECT,   /* a scalar in one CG value of ->cg[0] */
  ABI_SPLIT,    /* a small struct in 1 or 2 eightbytes ->cg[0..n-1] (i64 or f64 parts); a
                   returned long double (in a struct) f80, a long double _Complex two f80 */
  ABI_MEMORY,   /* byval pointer (params) / sret pointer (returns) */
} AbiKind;

typedef struct AbiArg {
  AbiKind kind;
  uint8_t n;            /* values for SPLIT */
  KitCgType cg[2];
  uint8_t attrs;        /* KIT_CG_PA_ZEXT / SEXT for DIRECT small ints */
} AbiArg;

typedef struct AbiSig {
  AbiArg ret;
  int nparams;          /* C parameters */
  AbiArg *params;
  bool variadic;
} AbiSig;

/* classify a function type; extra variadic argument types may follow (calls) */
void abi_classify(CType *fn, CType **vararg_types, int nvarargs, AbiSig *out);
/* the CG value type of a scalar C type (ints by width, _Bool = i8, pointers = ptr) */
KitCgType abi_cg_type(const CType *t);
/* where part k of an ABI_SPLIT value lies in memory (8, or 16 for the f80 pair);
 * the parts' temporary is ABI_SPLIT_TEMP bytes, aligned to 16 */
uint32_t abi_split_offset(const AbiArg *a, int k);
enum { ABI_SPLIT_TEMP = 32 };

typedef struct Lower Lower;

/* per-function jump targets of the statement being lowered, with the scope
 * depth they belong to (jumping there runs the cleanups of deeper scopes) */
typedef struct Targets {
  KitCgBlkId brk, cont;
  bool has_brk, has_cont;
  int brk_depth, cont_depth;
} Targets;

/* an open block scope: its locals with cleanup attributes run on exit */
typedef struct Scope {
  struct Scope *up;
  CStmt *block;
  int depth;
} Scope;

typedef struct LabelBlk {
  struct LabelBlk *next;
  const char *name;
  KitCgBlkId blk;
  bool defined;         /* its `name:` was lowered */
  bool addressed;       /* &&name: a destination of every computed goto */
  CPos pos;             /* first use */
} LabelBlk;

/* &&label in the static initializer of a function's local static, lowered
 * before the function: its relocation waits for the label's block */
typedef struct LabelReloc {
  struct LabelReloc *next;
  KitCgGlobal *g;
  uint64_t offset;
  unsigned size;
  CAddrConst ac;
  CPos pos;
} LabelReloc;

struct Lower {
  KitCgModule *m;
  CDiag *diag;
  const CLowerOptions *opt;
  CUnit *unit;
  /* the function being lowered */
  CObj *fn;
  KitCgFunc *f;
  KitCgBuilder b;
  AbiSig sig;
  KitCgVal sret;        /* the sret pointer parameter, or 0 */
  Targets tg;
  LabelBlk *labels;
  KitCgBlkId *gotos;    /* blocks ending in a computed goto: a br to igoto_blk */
  KitCgVal *goto_vals;  /* the address each of them jumps to (igoto_blk's phi) */
  uint32_t ngotos, gotos_cap;
  KitCgBlkId igoto_blk; /* the indirect-goto block (phi + indirectbr), or 0 */
  LabelReloc *label_relocs; /* pending, of functions not lowered yet */
  CStmt *cur_switch;
  Scope *scope;         /* innermost open block */
  uint32_t file_str;    /* module string of the current file name */
  uint32_t pos_file_key, pos_file_str; /* pos_file's cache: CPos.file + 1 -> module string */
  int nstrings;         /* string literal globals made so far */
  int ntemps;
  struct DiCache *dicache; /* -g: ditypes made so far (lower_debug.c) */
};

/* the no-signed-wrap flag of signed +, -, * and negation: none under -fwrapv */
static inline uint16_t lower_nsw(const Lower *L) { return L->opt->wrapv ? 0 : KIT_CG_F_NSW; }

/* the instruction just emitted (to set flags, types or facts on it) */
static inline KitCgInst *last_inst(Lower *L) { return &L->f->blocks[L->b.blk].insts[L->f->blocks[L->b.blk].ninsts - 1]; }

/* lower.c */
KitCgSym lower_obj_sym(Lower *L, CObj *obj);          /* symbol of a global/function (declared on demand) */
KitCgSym lower_string_sym(Lower *L, CExpr *str);      /* a private constant global holding the literal */
void lower_set_loc(Lower *L, CPos pos);
KitCgLoc lower_pos_loc(Lower *L, CPos pos);           /* file:line:col of pos */
KitCgBlkId lower_new_block(Lower *L);
void lower_profile_hook(Lower *L, bool enter);         /* -finstrument-functions' enter/exit call */
KitCgPred lower_cmp_pred(CExprKind k, CType *t);     /* a C comparison's CG predicate (lower_expr.c) */
void lower_start_block(Lower *L, KitCgBlkId blk);     /* continue emitting there */
bool lower_reachable(Lower *L);                       /* current block still open */

/* lower_expr.c */
KitCgVal lower_expr(Lower *L, CExpr *e);              /* rvalue of a scalar; struct rvalues: their address */
KitCgVal lower_addr(Lower *L, CExpr *e);              /* address of an lvalue (or of a struct rvalue) */
KitCgVal lower_cond(Lower *L, CExpr *e);              /* i1 truth value */
void lower_cond_branch(Lower *L, CExpr *e, KitCgBlkId t, KitCgBlkId f);
KitCgVal lower_convert(Lower *L, KitCgVal v, CType *from, CType *to);
KitCgVal lower_load(Lower *L, KitCgVal addr, CType *t, bool is_volatile);
void lower_store(Lower *L, KitCgVal v, KitCgVal addr, CType *t, bool is_volatile);
KitCgVal lower_i64(Lower *L, int64_t v);
KitCgVal lower_vla_size(Lower *L, CType *t);          /* byte size of a (VLA) type as i64 */
uint32_t lower_tydesc(Lower *L, CType *t);
uint32_t lower_ub_tydesc(Lower *L, CType *t, bool rvalue); /* UBSan's spelling, see lower_expr.c */
/* lower_call.c: the UBSan fact "v (at) must not be null" for a nonnull attribute at attr */
void lower_nonnull_fact(Lower *L, KitCgVal v, CPos at, CPos attr, unsigned argno);
/* lower_expr.c: the UBSan fact "the implicit conversion of src (from) to dst (to) kept the value" */
void lower_conversion_fact(Lower *L, KitCgVal src, KitCgVal dst, CType *from, CType *to, CPos at);
CPos lower_ub_begin(CExpr *e);                        /* where an expression starts */
CPos lower_ub_loc(CExpr *e, bool begin);

/* lower_stmt.c */
void lower_stmt(Lower *L, CStmt *s);
void lower_local_init(Lower *L, CObj *obj);           /* ST_DECL: allocate VLA, run initializer */
KitCgVal lower_label_addr(Lower *L, CExpr *e);        /* &&label */
/* a static initializer's &&label (- &&label2): now, or once its function is lowered */
void lower_label_reloc(Lower *L, KitCgGlobal *g, uint64_t offset, unsigned size, const CAddrConst *ac, CPos pos);
void lower_labels_finish(Lower *L);                   /* end of a function: check labels, fill computed gotos */
KitCgBlkId lower_goto_block(Lower *L, const char *label, CPos pos); /* the block of a label (asm goto) */

/* lower_asm.c: a GNU asm statement; the unit's file-scope asm */
void lower_asm(Lower *L, CStmt *s);
void lower_file_asms(Lower *L, CUnit *u);

/* lower_debug.c (-g; each does nothing without it): C types as ditypes, and
 * the debug records of a variable (at = KIT_CG_DV_STACK/VALUE), a global, a function */
uint32_t lower_ditype(Lower *L, CType *t);
void lower_debug_var(Lower *L, CObj *o, int at, uint32_t where);
void lower_debug_global(Lower *L, CObj *o, KitCgGlobal *g, CType *t);
void lower_debug_func(Lower *L, CObj *o, KitCgFunc *f);

/* lower_init.c */
void lower_global_init(Lower *L, CObj *obj, KitCgGlobal *g);
void lower_runtime_init(Lower *L, CInit *init, KitCgVal addr); /* memset 0 + stores */

#endif
