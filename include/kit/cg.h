/* include/kit/cg.h — CG, kit's IR: the narrow waist between the C frontend,
 * the rv64 lifter, the sanitizer passes and the executors (interpreter,
 * LLVM, the baseline x86-64 compiler). The data structures are public and plain: passes walk and rewrite
 * them directly; the builder functions below are the convenient way to add.
 * docs/cg.md explains the design, docs/cg-text.md the textual form. */
#ifndef KIT_CG_H
#define KIT_CG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- types ------------------------------------------------------------ */

typedef enum KitCgType {
  KIT_CG_VOID = 0,
  KIT_CG_I1,
  KIT_CG_I8,
  KIT_CG_I16,
  KIT_CG_I32,
  KIT_CG_I64,
  KIT_CG_I128,
  KIT_CG_F32,
  KIT_CG_F64,
  KIT_CG_F80, /* x86 80-bit extended (C long double on x86-64), see docs/cg.md */
  KIT_CG_PTR,
  KIT_CG_NTYPES,
  /* vector types (docs/cg.md "Vectors"): KIT_CG_VEC | log2(lanes) << 4 | the
   * element type (i8..i64, f32, f64); 1 to 128 lanes */
  KIT_CG_VEC = 0x80,
  KIT_CG_VEC_MAX = 0xff
} KitCgType;

const char *kit_cg_type_name(KitCgType t);   /* "i32", "ptr", ... */
unsigned kit_cg_type_size(KitCgType t);      /* bytes in memory: i1=1, f80=16, ptr=8 */
unsigned kit_cg_type_bits(KitCgType t);      /* value bits: i1=1, f80=80 */
static inline bool kit_cg_type_is_int(KitCgType t) { return t >= KIT_CG_I1 && t <= KIT_CG_I128; }
static inline bool kit_cg_type_is_float(KitCgType t) { return t >= KIT_CG_F32 && t <= KIT_CG_F80; }
static inline bool kit_cg_type_is_vec(KitCgType t) { return (t & KIT_CG_VEC) != 0; }
/* a vector's element type and lane count; a scalar is its own element, one lane */
static inline KitCgType kit_cg_type_elem(KitCgType t) { return kit_cg_type_is_vec(t) ? (KitCgType)(t & 15) : t; }
static inline unsigned kit_cg_type_lanes(KitCgType t) { return kit_cg_type_is_vec(t) ? 1u << ((t >> 4) & 7) : 1; }
/* the vector of lanes elems (i8..i64, f32, f64; lanes a power of two <= 128), or VOID */
KitCgType kit_cg_vec_type(KitCgType elem, unsigned lanes);
/* the integer vector with t's shape (lanes of the element's width): what a vector compare yields */
KitCgType kit_cg_vec_int(KitCgType t);
/* a valid type: a scalar (not VOID) or a well-formed vector */
bool kit_cg_type_valid(KitCgType t);

/* ---- ops (the table lives in cg_ops.def) ---------------------------------- */

enum {
  KIT_CGO_RES = 1 << 0,
  KIT_CGO_TERM = 1 << 1,
  KIT_CGO_MEM = 1 << 2,
  KIT_CGO_SIDE = 1 << 3,
  KIT_CGO_COMM = 1 << 4,
  KIT_CGO_BIN = 1 << 5,
  KIT_CGO_CMP = 1 << 6,
  KIT_CGO_CONV = 1 << 7,
  KIT_CGO_INT = 1 << 8,
  KIT_CGO_FLT = 1 << 9,
};

typedef enum KitCgOp {
#define CG_OP(e, text, nargs, flags) KIT_CG_OP_##e,
#include "cg_ops.def"
#undef CG_OP
  KIT_CG_NOPS
} KitCgOp;

typedef struct KitCgOpInfo {
  const char *name;
  int nargs;      /* -1 = variable */
  unsigned flags; /* KIT_CGO_* */
} KitCgOpInfo;
extern const KitCgOpInfo kit_cg_op_info[KIT_CG_NOPS];

/* comparison predicates (ICMP uses the integer ones, FCMP the float ones) */
typedef enum KitCgPred {
  KIT_CG_EQ, KIT_CG_NE, KIT_CG_SLT, KIT_CG_SLE, KIT_CG_SGT, KIT_CG_SGE,
  KIT_CG_ULT, KIT_CG_ULE, KIT_CG_UGT, KIT_CG_UGE,
  /* ordered (false if either is NaN) and unordered (true if either is NaN) */
  KIT_CG_FOEQ, KIT_CG_FONE, KIT_CG_FOLT, KIT_CG_FOLE, KIT_CG_FOGT, KIT_CG_FOGE,
  KIT_CG_FUEQ, KIT_CG_FUNE, KIT_CG_FULT, KIT_CG_FULE, KIT_CG_FUGT, KIT_CG_FUGE,
  KIT_CG_FORD, KIT_CG_FUNO,
  KIT_CG_NPREDS
} KitCgPred;
const char *kit_cg_pred_name(KitCgPred p); /* "slt", "olt", "uno", ... */

typedef enum KitCgOrder { /* atomic ordering */
  KIT_CG_RELAXED, KIT_CG_ACQUIRE, KIT_CG_RELEASE, KIT_CG_ACQREL, KIT_CG_SEQCST
} KitCgOrder;
const char *kit_cg_order_name(KitCgOrder o);

typedef enum KitCgRmw { /* atomic read-modify-write operation */
  KIT_CG_RMW_XCHG, KIT_CG_RMW_ADD, KIT_CG_RMW_SUB, KIT_CG_RMW_AND, KIT_CG_RMW_OR,
  KIT_CG_RMW_XOR, KIT_CG_RMW_NAND, KIT_CG_RMW_SMAX, KIT_CG_RMW_SMIN,
  KIT_CG_RMW_UMAX, KIT_CG_RMW_UMIN
} KitCgRmw;
const char *kit_cg_rmw_name(KitCgRmw r);

/* memory access class: what the sanitizer passes instrument */
typedef enum KitCgClass {
  KIT_CG_PROGRAM = 0, /* memory the program sees: C objects, guest memory */
  KIT_CG_INTERNAL = 1 /* emulator CPU state, shadow, counters: never instrumented */
} KitCgClass;

/* per-inst flags */
enum {
  KIT_CG_F_NSW = 1 << 0,        /* signed overflow is UB (C signed arithmetic) */
  KIT_CG_F_NUW = 1 << 1,        /* unsigned overflow is UB (pointer arithmetic facts) */
  KIT_CG_F_EXACT = 1 << 2,      /* division is exact */
  KIT_CG_F_SHIFT_INRANGE = 1 << 3, /* shift amount >= width is UB (C shifts) */
  KIT_CG_F_BOUNDS = 1 << 4,     /* PTRADD: array-bounds fact, see KitCgInst.bound */
  KIT_CG_F_VOLATILE = 1 << 5,   /* memory op is volatile */
  KIT_CG_F_VARARGS = 1 << 6,    /* call to a variadic callee; imm = fixed arg count */
  KIT_CG_F_TAIL = 1 << 7,       /* call must be a tail call (emulator chaining) */
  KIT_CG_F_NOMERGE = 1 << 8,    /* keep distinct (sanitizer report calls) */
  KIT_CG_F_COLD = 1 << 9,       /* CONDBR: blks[0] is unlikely; CALL: cold callee */
  KIT_CG_F_LIKELY = 1 << 10,    /* CONDBR: blks[0] is likely; SELECT: the condition nearly always holds */
  KIT_CG_F_NOINSTR = 1 << 11,   /* emitted by a pass: do not instrument again */
  KIT_CG_F_FAULT_PC = 1 << 12,  /* STORE of a constant that only a host fault handler reads (the emulator's
                                   guest pc before an access): an executor that can give the handler the
                                   value from the faulting host pc instead may drop it (cg/baseline) */
  KIT_CG_F_UINDEX = 1 << 13,    /* PTRADD of C pointer arithmetic (tydesc set): the C index is unsigned */
  KIT_CG_F_PTRSUB = 1 << 14,    /* PTRADD of C pointer arithmetic: p - n (the offset is the negated index) */
  KIT_CG_F_PASSED = 1 << 15,    /* MEMCPY/MEMMOVE/MEMSET the program called (memcpy(3) and friends): its
                                   pointers are arguments, not C accesses (array-bounds takes them as formed) */
};

/* ---- source locations and diagnostics facts ----------------------------- */

/* file == 0 and pc == 0: no location. file != 0: source file (module string
 * index) with line/col. pc != 0 without file: a guest program counter. */
typedef struct KitCgLoc {
  uint32_t file, line, col;
  uint64_t pc;
} KitCgLoc;

/* type descriptor for UBSan messages: what C calls the type */
typedef enum KitCgTyKind { KIT_CG_TD_INT, KIT_CG_TD_FLOAT, KIT_CG_TD_PTR, KIT_CG_TD_OTHER } KitCgTyKind;
typedef struct KitCgTyDesc {
  uint32_t name;      /* module string: "int", "unsigned long", "struct S *" */
  uint8_t kind;       /* KitCgTyKind */
  uint8_t is_signed;
  uint16_t bits;      /* value width */
  uint32_t align;     /* required alignment of the pointee (ptr) or 0 */
  uint32_t pointee;   /* tydesc of the pointee for ptr, or 0 */
} KitCgTyDesc;

/* ---- debug info (docs/cg.md "Debug info") -------------------------------- */

/* A side table that only describes: what C calls the program's types and
 * where its variables live, for a debugger. No executor or pass reads it;
 * passes that move a stack object rebind the variables on it. */
typedef enum KitCgDiKind {
  KIT_CG_DI_BASE,     /* name, size, encoding */
  KIT_CG_DI_POINTER,  /* to base (0 = void), size */
  KIT_CG_DI_TYPEDEF,  /* name for base */
  KIT_CG_DI_STRUCT,   /* name (0 = anonymous), size, align, members; DECL = incomplete */
  KIT_CG_DI_UNION,
  KIT_CG_DI_ARRAY,    /* count elements of base; count < 0: unknown bound */
  KIT_CG_DI_ENUM,     /* name, size, base (underlying integer type), members with values */
  KIT_CG_DI_FUNC,     /* returns base (0 = void); members are the parameter types */
  KIT_CG_DI_CONST,    /* base qualified */
  KIT_CG_DI_VOLATILE,
  KIT_CG_DI_NKINDS
} KitCgDiKind;

/* DWARF base type encodings (DW_ATE_*) */
enum {
  KIT_CG_ATE_BOOLEAN = 0x02, KIT_CG_ATE_COMPLEX_FLOAT = 0x03, KIT_CG_ATE_FLOAT = 0x04,
  KIT_CG_ATE_SIGNED = 0x05, KIT_CG_ATE_SIGNED_CHAR = 0x06, KIT_CG_ATE_UNSIGNED = 0x07,
  KIT_CG_ATE_UNSIGNED_CHAR = 0x08,
  KIT_CG_ATE_LO_USER = 0x80, /* what gcc and clang give a complex integer type */
};

enum { KIT_CG_DIF_DECL = 1 << 0, KIT_CG_DIF_VARIADIC = 1 << 1 };

typedef struct KitCgDiMember {
  uint32_t name;        /* module string; 0 for a function type's parameters */
  uint32_t type;        /* ditype */
  uint64_t offset_bits; /* struct/union member: from the start of the object */
  uint32_t bit_size;    /* bit-field width, 0 = not a bit-field */
  int64_t value;        /* enumerator value */
} KitCgDiMember;

typedef struct KitCgDiType {
  uint8_t kind;         /* KitCgDiKind */
  uint8_t encoding;     /* BASE: KIT_CG_ATE_* */
  uint8_t flags;        /* KIT_CG_DIF_* */
  uint32_t name;        /* module string or 0 */
  uint64_t size;        /* bytes */
  uint32_t align;       /* bytes, 0 = natural */
  uint32_t base;        /* ditype (see the kinds), 0 = none / void */
  int64_t count;        /* ARRAY */
  uint32_t nmembers;
  KitCgDiMember *members;
  KitCgLoc loc;
} KitCgDiType;

/* Where a variable lives: at = STACK: the address of stack object `where`;
 * at = VALUE: the pointer value `where` (a parameter: a byval copy). deref:
 * that address holds a pointer, which is loaded first. offset is added last. */
enum { KIT_CG_DV_STACK, KIT_CG_DV_VALUE };
typedef struct KitCgDiVar {
  uint32_t name;        /* module string */
  uint32_t type;        /* ditype */
  uint32_t arg;         /* C parameter number (1-based), 0 = a local */
  uint8_t at;           /* KIT_CG_DV_* */
  uint8_t deref;
  uint32_t where;       /* stack object or value id */
  uint64_t offset;
  KitCgLoc loc;         /* declaration */
} KitCgDiVar;

/* ---- IR structures --------------------------------------------------- */

typedef uint32_t KitCgVal;   /* value id inside a function; 0 = none */
typedef uint32_t KitCgBlkId; /* block index inside a function */
typedef uint32_t KitCgSym;   /* symbol index inside a module */

typedef struct KitCgInst {
  uint16_t op;     /* KitCgOp */
  uint8_t type;    /* result type (VOID if none); LOAD/VAARG: loaded type */
  uint8_t type2;   /* second result of a call, VOID if none */
  uint8_t cls;     /* KitCgClass for MEM ops */
  uint8_t pred;    /* KitCgPred (ICMP/FCMP), KitCgOrder (atomics) */
  uint16_t flags;  /* KIT_CG_F_* */
  KitCgVal id;     /* result value (0 if none) */
  uint32_t nargs;
  KitCgVal *args;
  uint32_t nblks;
  KitCgBlkId *blks;
  int64_t *cases;  /* SWITCH: nblks-1 case values */
  uint64_t imm;    /* CONST low bits / SYMADDR offset / alignment / fixed args */
  uint64_t imm2;   /* CONST high bits (i128, f80) */
  uint32_t aux;    /* symbol, stack object, param index, KitCgRmw */
  uint32_t tydesc; /* KitCgTyDesc index, 0 = none */
  int64_t bound;   /* KIT_CG_F_BOUNDS: element count of the array indexed */
  KitCgLoc loc;
  /* CALL/CALLI: the ABI attributes of each argument at the call site (byval,
   * sret, zext/sext; for CALLI argattrs[i] is the i-th argument after the callee),
   * for calls whose callee declaration cannot say (indirect
   * and unprototyped calls); NULL = take them from a direct callee */
  struct KitCgParam *argattrs;
} KitCgInst;

typedef struct KitCgBlock {
  uint32_t ninsts, cap;
  KitCgInst *insts;
  uint32_t name; /* module string or 0 */
} KitCgBlock;

typedef struct KitCgStackObj {
  uint64_t size;
  uint32_t align;
  uint32_t name;    /* module string or 0 */
  uint8_t escapes;  /* frontend: address may leave the function (ASan) */
  uint32_t tydesc;
  KitCgLoc loc;
} KitCgStackObj;

/* parameter attributes for the x86-64 SysV ABI (frontend classified) */
enum {
  KIT_CG_PA_ZEXT = 1 << 0,  /* i8/i16 zero-extended by caller */
  KIT_CG_PA_SEXT = 1 << 1,
  KIT_CG_PA_BYVAL = 1 << 2, /* ptr to a copy in the caller's argument area; size/align */
  KIT_CG_PA_SRET = 1 << 3,  /* ptr to the return slot (MEMORY-class return) */
  KIT_CG_PA_PARTIAL = 1 << 4, /* a register piece of a struct (ABI_SPLIT): may hold padding or
                                 unset members, so MSan passes its shadow instead of checking it */
};
struct KitCgParam;
typedef struct KitCgParam {
  uint8_t type;
  uint8_t attrs;
  uint32_t byval_size, byval_align;
  uint32_t name; /* module string or 0 */
} KitCgParam;

typedef enum KitCgLinkage {
  KIT_CG_LINK_EXTERNAL, /* defined here, visible outside, or declared (no body) */
  KIT_CG_LINK_INTERNAL, /* static */
  KIT_CG_LINK_WEAK,
  KIT_CG_LINK_COMMON,   /* tentative definition (globals only) */
} KitCgLinkage;

typedef enum KitCgVisibility { KIT_CG_VIS_DEFAULT, KIT_CG_VIS_HIDDEN, KIT_CG_VIS_PROTECTED } KitCgVisibility;

/* function attributes */
enum {
  KIT_CG_FA_NOINLINE = 1 << 0,
  KIT_CG_FA_ALWAYSINLINE = 1 << 1,
  KIT_CG_FA_NORETURN = 1 << 2,
  KIT_CG_FA_NOSANITIZE = 1 << 3, /* no_sanitize_address / runtime glue */
  KIT_CG_FA_USED = 1 << 4,
  KIT_CG_FA_RETURNS_TWICE = 1 << 5, /* setjmp-like */
  KIT_CG_FA_COLD = 1 << 6,
  KIT_CG_FA_NOUNWIND = 1 << 7,
};

typedef struct KitCgFunc {
  KitCgSym sym;          /* its symbol */
  uint32_t nparams;
  KitCgParam *params;    /* value ids 1..nparams are the parameters */
  uint8_t ret[2];        /* result types; VOID for none */
  uint8_t ret_attrs;     /* KIT_CG_PA_ZEXT/SEXT for small int returns */
  bool variadic;
  uint32_t attrs;        /* KIT_CG_FA_* */
  /* body: no blocks = declaration */
  uint32_t nblocks, blocks_cap;
  KitCgBlock *blocks;    /* block 0 is the entry */
  uint32_t nstack, stack_cap;
  KitCgStackObj *stack;
  uint32_t nvals, vals_cap; /* value id space; vtype[0] unused */
  uint8_t *vtype;        /* type of each value id */
  KitCgLoc loc;          /* where the function is defined */
  void *user;            /* free for executors/passes */
  /* debug info: its variables and its ditype (a FUNC) or 0 */
  uint32_t ndivars, divars_cap;
  KitCgDiVar *divars;
  uint32_t ditype;
} KitCgFunc;

typedef struct KitCgReloc {
  uint64_t offset;  /* in the initializer */
  KitCgSym sym;
  int64_t addend;
  uint8_t size;     /* 8 (pointer) or 4 */
  /* labels as values: blk != 0 makes this the address of block blk of
   * function sym (+ addend) instead of &sym; blk2 != 0 then subtracts the
   * address of block blk2 of the same function (&&a - &&b). Never block 0,
   * the entry, whose address cannot be taken. */
  KitCgBlkId blk, blk2;
} KitCgReloc;

typedef struct KitCgGlobal {
  KitCgSym sym;
  uint64_t size;
  uint32_t align;
  bool is_const, is_tls;
  uint8_t *init;           /* NULL = zero-filled */
  uint32_t nrelocs, relocs_cap;
  KitCgReloc *relocs;
  uint32_t section;        /* module string or 0 */
  uint32_t tydesc;
  KitCgLoc loc;
  bool no_redzone;         /* ASan: do not pad (section-placed, user asked) */
  bool used;               /* kept even if unreferenced (__attribute__((used)), pass-made arrays) */
  uint32_t ditype;         /* debug info: its type, 0 = not described */
  uint32_t diname;         /* debug info: its C name if not the symbol's */
} KitCgGlobal;

typedef enum KitCgSymKind { KIT_CG_SYM_FUNC, KIT_CG_SYM_GLOBAL, KIT_CG_SYM_ALIAS } KitCgSymKind;

typedef struct KitCgSymbol {
  uint32_t name;        /* module string */
  uint8_t kind;         /* KitCgSymKind */
  uint8_t linkage;      /* KitCgLinkage */
  uint8_t visibility;   /* KitCgVisibility */
  bool defined;         /* has a body / initializer / alias target */
  uint32_t index;       /* into funcs[] or globals[]; ALIAS: target symbol */
  uint32_t asm_name;    /* __asm__ label or 0 */
} KitCgSymbol;

typedef struct KitCgCtor {
  KitCgSym func;
  int32_t priority;     /* 65535 = default */
} KitCgCtor;

typedef struct KitCgModule {
  void *arena;          /* owner of every allocation below */
  uint32_t name;        /* module string */
  /* strings: index 0 is "", interned */
  uint32_t nstrs, strs_cap;
  char **strs;
  void *str_index;
  uint32_t nsyms, syms_cap;
  KitCgSymbol *syms;
  void *sym_index;
  uint32_t nfuncs, funcs_cap;
  KitCgFunc **funcs;
  uint32_t nglobals, globals_cap;
  KitCgGlobal **globals;
  uint32_t ntydescs, tydescs_cap;
  KitCgTyDesc *tydescs; /* index 0 unused */
  uint32_t nctors, ctors_cap;
  KitCgCtor *ctors;
  uint32_t ndtors, dtors_cap;
  KitCgCtor *dtors;
  uint32_t nditypes, ditypes_cap;
  KitCgDiType *ditypes; /* index 0 unused */
  uint32_t nasms, asms_cap;
  uint32_t *asms;       /* module-level (file-scope) asm: module strings, in order */
} KitCgModule;

/* ---- module and strings --------------------------------------------------- */

KitCgModule *kit_cg_module_new(const char *name);
void kit_cg_module_free(KitCgModule *m);
void *kit_cg_alloc(KitCgModule *m, size_t size); /* zeroed, lives as long as m */
uint32_t kit_cg_str(KitCgModule *m, const char *s);            /* intern */
uint32_t kit_cg_strn(KitCgModule *m, const char *s, size_t n);
static inline const char *kit_cg_strget(const KitCgModule *m, uint32_t i) { return m->strs[i]; }

/* ---- symbols, functions, globals ---------------------------------------- */

KitCgSym kit_cg_sym_find(const KitCgModule *m, const char *name); /* UINT32_MAX if none */
static inline const char *kit_cg_sym_name(const KitCgModule *m, KitCgSym s) { return m->strs[m->syms[s].name]; }

/* Declare or find a function. A second call with the same name returns the
 * same function (its signature is left as first declared). */
KitCgFunc *kit_cg_func_declare(KitCgModule *m, const char *name, KitCgType ret, const KitCgType *params,
                               uint32_t nparams, bool variadic);
static inline KitCgFunc *kit_cg_func_of(const KitCgModule *m, KitCgSym s) { return m->funcs[m->syms[s].index]; }
static inline const char *kit_cg_func_name(const KitCgModule *m, const KitCgFunc *f) { return kit_cg_sym_name(m, f->sym); }
static inline bool kit_cg_func_is_decl(const KitCgFunc *f) { return f->nblocks == 0; }
void kit_cg_func_set_linkage(KitCgModule *m, KitCgFunc *f, KitCgLinkage l);

KitCgGlobal *kit_cg_global_new(KitCgModule *m, const char *name, uint64_t size, uint32_t align);
/* declare an external global (defined elsewhere) */
KitCgGlobal *kit_cg_global_declare(KitCgModule *m, const char *name);
static inline KitCgGlobal *kit_cg_global_of(const KitCgModule *m, KitCgSym s) { return m->globals[m->syms[s].index]; }
void kit_cg_global_set_init(KitCgModule *m, KitCgGlobal *g, const void *bytes, uint64_t n); /* n <= size */
void kit_cg_global_add_reloc(KitCgModule *m, KitCgGlobal *g, uint64_t offset, KitCgSym sym, int64_t addend,
                             unsigned size);
/* a block-address relocation (see KitCgReloc): &&blk (- &&blk2 when blk2 != 0) + addend */
void kit_cg_global_add_blockaddr(KitCgModule *m, KitCgGlobal *g, uint64_t offset, KitCgSym func, KitCgBlkId blk,
                                 KitCgBlkId blk2, int64_t addend, unsigned size);
KitCgSym kit_cg_alias_new(KitCgModule *m, const char *name, KitCgSym target);
void kit_cg_add_ctor(KitCgModule *m, KitCgSym func, int32_t priority);
void kit_cg_add_dtor(KitCgModule *m, KitCgSym func, int32_t priority);

uint32_t kit_cg_tydesc(KitCgModule *m, const char *name, KitCgTyKind kind, bool is_signed, unsigned bits);
/* the index of a descriptor equal to *d in every field, added if new */
uint32_t kit_cg_tydesc_of(KitCgModule *m, const KitCgTyDesc *d);

/* debug info: a new ditype (members copied into the module), a variable of f */
uint32_t kit_cg_ditype_new(KitCgModule *m, const KitCgDiType *t, const KitCgDiMember *members, uint32_t nmembers);
KitCgDiVar *kit_cg_divar_add(KitCgModule *m, KitCgFunc *f, const KitCgDiVar *v);

/* ---- inline assembly (docs/cg.md "Inline assembly") ------------------------ */

/* append a piece of module-level assembly (GNU file-scope asm) */
void kit_cg_module_asm(KitCgModule *m, const char *text);

/* the entries of an ASM/ASMGOTO constraint string (LLVM's syntax, split at
 * commas): which consume an operand (OUT: a ptr the result is stored to;
 * OUT_MEM, IN_MEM: a ptr to the memory operand; IN: the value) and which not */
typedef enum KitCgAsmEntry {
  KIT_CG_ASM_OUT, KIT_CG_ASM_OUT_MEM, KIT_CG_ASM_IN, KIT_CG_ASM_IN_MEM, KIT_CG_ASM_LABEL, KIT_CG_ASM_CLOBBER
} KitCgAsmEntry;
/* Writes the kind of each entry to kinds[] (up to max of them) and returns the
 * number of entries; -1 when an entry is empty or has no constraint code. */
int kit_cg_asm_entries(const char *constraints, uint8_t *kinds, int max);
static inline bool kit_cg_asm_takes_arg(int kind) { return kind <= KIT_CG_ASM_IN_MEM; }

/* ---- builder ------------------------------------------------------------- */

/* A builder appends instructions to the end of one block of one function.
 * Every emitted inst gets the builder's current location. */
typedef struct KitCgBuilder {
  KitCgModule *m;
  KitCgFunc *f;
  KitCgBlkId blk;
  KitCgLoc loc;
} KitCgBuilder;

KitCgBlkId kit_cg_block_new(KitCgModule *m, KitCgFunc *f);
uint32_t kit_cg_stack_new(KitCgModule *m, KitCgFunc *f, uint64_t size, uint32_t align, uint32_t name);
KitCgVal kit_cg_param(const KitCgFunc *f, uint32_t i); /* value id of parameter i */
KitCgVal kit_cg_val_new(KitCgModule *m, KitCgFunc *f, KitCgType t); /* fresh value id */
static inline KitCgType kit_cg_val_type(const KitCgFunc *f, KitCgVal v) { return (KitCgType)f->vtype[v]; }

void kit_cg_builder_init(KitCgBuilder *b, KitCgModule *m, KitCgFunc *f);
static inline void kit_cg_builder_at(KitCgBuilder *b, KitCgBlkId blk) { b->blk = blk; }
/* true if the current block already ends with a terminator */
bool kit_cg_block_terminated(const KitCgFunc *f, KitCgBlkId blk);

/* low-level: append an inst (args/blks copied into the module arena); returns
 * the inst, whose ->id is the new value when type != VOID */
KitCgInst *kit_cg_emit(KitCgBuilder *b, KitCgOp op, KitCgType type, const KitCgVal *args, uint32_t nargs);
/* insert into block blk at position pos (shifting later insts); same contract */
KitCgInst *kit_cg_insert(KitCgModule *m, KitCgFunc *f, KitCgBlkId blk, uint32_t pos, KitCgOp op, KitCgType type,
                         const KitCgVal *args, uint32_t nargs);
void kit_cg_inst_set_blks(KitCgModule *m, KitCgInst *in, const KitCgBlkId *blks, uint32_t n);

KitCgVal kit_cg_iconst(KitCgBuilder *b, KitCgType t, uint64_t v);
KitCgVal kit_cg_i128const(KitCgBuilder *b, uint64_t lo, uint64_t hi);
KitCgVal kit_cg_fconst(KitCgBuilder *b, KitCgType t, double v);        /* f32/f64/f80 */
KitCgVal kit_cg_f80const(KitCgBuilder *b, long double v);
KitCgVal kit_cg_symaddr(KitCgBuilder *b, KitCgSym s, int64_t offset);
KitCgVal kit_cg_stackaddr(KitCgBuilder *b, uint32_t obj);
KitCgVal kit_cg_binop(KitCgBuilder *b, KitCgOp op, KitCgVal x, KitCgVal y); /* type of x */
KitCgVal kit_cg_unop(KitCgBuilder *b, KitCgOp op, KitCgVal x);
KitCgVal kit_cg_cmp(KitCgBuilder *b, KitCgPred p, KitCgVal x, KitCgVal y);  /* icmp or fcmp */
KitCgVal kit_cg_conv(KitCgBuilder *b, KitCgOp op, KitCgType to, KitCgVal x);
KitCgVal kit_cg_select(KitCgBuilder *b, KitCgVal c, KitCgVal x, KitCgVal y);
KitCgVal kit_cg_load(KitCgBuilder *b, KitCgType t, KitCgVal ptr, uint32_t align, KitCgClass cls);
void kit_cg_store(KitCgBuilder *b, KitCgVal v, KitCgVal ptr, uint32_t align, KitCgClass cls);
KitCgVal kit_cg_ptradd(KitCgBuilder *b, KitCgVal ptr, KitCgVal off_i64);
void kit_cg_memop(KitCgBuilder *b, KitCgOp op, KitCgVal dst, KitCgVal src_or_byte, KitCgVal len, KitCgClass cls);
KitCgVal kit_cg_call(KitCgBuilder *b, KitCgSym callee, KitCgType ret, const KitCgVal *args, uint32_t nargs);
KitCgVal kit_cg_calli(KitCgBuilder *b, KitCgVal fnptr, KitCgType ret, const KitCgVal *args, uint32_t nargs);
void kit_cg_br(KitCgBuilder *b, KitCgBlkId to);
void kit_cg_condbr(KitCgBuilder *b, KitCgVal c, KitCgBlkId t, KitCgBlkId f);
KitCgInst *kit_cg_switch(KitCgBuilder *b, KitCgVal v, KitCgBlkId dflt, const int64_t *cases,
                         const KitCgBlkId *targets, uint32_t ncases);
void kit_cg_ret(KitCgBuilder *b, KitCgVal v); /* v = 0 for void */
void kit_cg_unreachable(KitCgBuilder *b);
/* labels as values: the address of block blk (not the entry) of the builder's
 * function, and a jump to such an address, one of targets (an address not
 * among them is undefined behaviour; the interpreter reports it) */
KitCgVal kit_cg_blockaddr(KitCgBuilder *b, KitCgBlkId blk);
KitCgInst *kit_cg_indirectbr(KitCgBuilder *b, KitCgVal addr, const KitCgBlkId *targets, uint32_t ntargets);
/* inline asm: ASM, or ASMGOTO when nblks > 0 (blks[0] the fallthrough, then
 * the labels); types[i] as KitCgInst.argattrs (VOID for a value input) */
KitCgInst *kit_cg_asm(KitCgBuilder *b, const char *tmpl, const char *constraints, bool side_effects,
                      const KitCgVal *args, const KitCgType *types, uint32_t nargs, const KitCgBlkId *blks,
                      uint32_t nblks);
/* phi: add incoming pairs later with kit_cg_phi_add */
KitCgInst *kit_cg_phi(KitCgBuilder *b, KitCgType t);
void kit_cg_phi_add(KitCgModule *m, KitCgInst *phi, KitCgVal v, KitCgBlkId from);

/* the inst that defines value v (NULL for parameters); O(insts) */
KitCgInst *kit_cg_def(const KitCgFunc *f, KitCgVal v);
/* successors of a block's terminator */
uint32_t kit_cg_block_succs(const KitCgFunc *f, KitCgBlkId blk, const KitCgBlkId **out);

/* ---- verifier, printer, parser ---------------------------------------------- */

/* Returns 0 when the module is well formed. Otherwise writes one message per
 * problem ("verify: func @f, block b2, inst 3 (add): operand types differ")
 * to err (may be NULL) and returns the number of problems. */
int kit_cg_verify(const KitCgModule *m, FILE *err);

void kit_cg_print(const KitCgModule *m, FILE *out);
void kit_cg_print_func(const KitCgModule *m, const KitCgFunc *f, FILE *out);
/* Parse the textual form. On error returns NULL and writes
 * "name:line:col: error: ..." to err. Never crashes on bad input. */
KitCgModule *kit_cg_parse(const char *text, size_t len, const char *name, FILE *err);

#ifdef __cplusplus
}
#endif
#endif
