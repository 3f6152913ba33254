/* cg/interp/interp.h — private to the CG interpreter: the decoded form of a
 * function (fixed-size instructions over frame-relative value slots), the
 * frame stack, call descriptors, and the interpreter state. */
#ifndef KIT_CG_INTERP_H
#define KIT_CG_INTERP_H

#include "kit/cg_exec.h"

#include <ffi.h>
#include <pthread.h>

/* One value slot. Integers narrower than 64 bits are kept zero-extended
 * (i1 is 0/1); f32 lives in the low 4 bytes. Slot index == CG value id, so
 * the cold paths can read operands straight from the KitCgInst. */
typedef union Slot {
  uint64_t i;
  int64_t s;
  double d;
  float f;
  long double ld;
  unsigned __int128 q;
  __int128 sq;
  void *p;
} Slot;

/* Internal opcodes; each is a label in the run loop. */
#define INTERP_OPS(X)                                                                                            \
  X(EXIT) X(MOV) X(MOV2) X(MOVJ) X(MOVBR) X(JMP) X(BR) X(CONDBR) X(SWITCH) X(RET) X(CALL) X(CALLI) X(TRAP) X(UNREACH) X(SLOW)            \
  X(ADD) X(SUB) X(MUL) X(AND) X(OR) X(XOR) X(SHL) X(LSHR) X(ASHR) X(UDIV) X(SDIV) X(UREM) X(SREM)                \
  X(EQ) X(NE) X(SLT) X(SLE) X(SGT) X(SGE) X(ULT) X(ULE) X(UGT) X(UGE)                                            \
  X(BEQ) X(BNE) X(BSLT) X(BSLE) X(BSGT) X(BSGE) X(BULT) X(BULE) X(BUGT) X(BUGE)                                  \
  X(SELECT) X(MASK) X(SEXT) X(PTRADD) X(ALLOCA) X(STACKSAVE) X(STACKRESTORE) X(LD8) X(LD16) X(LD32) X(LD64) X(ST8) X(ST16) X(ST32) X(ST64)                              \
  X(FADD32) X(FSUB32) X(FMUL32) X(FDIV32) X(FADD64) X(FSUB64) X(FMUL64) X(FDIV64) X(FCMP32) X(FCMP64)

enum {
#define X(n) IOP_##n,
  INTERP_OPS(X)
#undef X
  IOP_COUNT
};

/* A decoded instruction. d = result slot (or true target), a/b = operand
 * slots, sh = 64 - width (for sign extension), wm = width - 1 (shift amount
 * mask), imm = width mask, false target, a load/store's constant address
 * offset, or a pointer to a side descriptor (KitCgInst for SLOW); pad = extra
 * CG ops a fused instruction retires. While decoding, slots are value ids and targets are
 * instruction indices; the finished code holds byte offsets of both (from
 * the frame base and from the code start), which saves a scale per operand. */
typedef struct Ins {
  const void *op;
  uint32_t d, a, b;
  uint8_t sh, wm, pred, pad;
  uint64_t imm;
} Ins;

typedef struct Fn Fn;

typedef struct CallDesc {
  Fn *callee;            /* interpreted callee of a CALL, else NULL */
  void *host;            /* host address of a CALL to an external */
  uint32_t nargs, nfixed; /* nfixed: fixed-arg count for a variadic callee */
  uint32_t *args;        /* argument slots (CALLI: without the pointer) */
  uint8_t *types;        /* argument types */
  uint8_t *byval;        /* per argument: passed by value as a struct (host) */
  uint32_t rd, rd2;      /* result slots (0 = scratch) */
  uint8_t rt, rt2;
  bool cif_ok;
  bool tail;             /* KIT_CG_F_TAIL call whose result the next RET returns */
  uint8_t special;       /* SPECIAL_*: libc calls the interpreter performs itself */
  ffi_cif cif;
  ffi_type **atypes;
  ffi_type *rtype;
  const KitCgInst *src;
} CallDesc;

enum { SPECIAL_NONE, SPECIAL_SETJMP, SPECIAL_LONGJMP };
#define SA_RETADDR UINT64_MAX

typedef struct SwitchDesc {
  uint32_t n;
  bool wide;        /* i128: linear compare against the sign-extended cases */
  int64_t *wvals;
  uint64_t *vals;   /* sorted, masked to the operand width */
  uint32_t *targets;
  uint32_t dflt;
  uint64_t mask;
} SwitchDesc;

struct Fn {
  KitInterp *ip;
  KitCgFunc *f;
  int state;              /* 0 = not decoded, 1 = ready, -1 = failed */
  Ins *code;
  const KitCgInst **src;  /* per code index: the inst it came from (messages) */
  uint32_t ncode;
  uint32_t nslots;
  uint32_t nconsts;
  uint32_t *cslot;
  Slot *cval;
  uint32_t ntls;          /* addresses of thread-local globals, per thread */
  uint32_t *tl_slot, *tl_global;
  uint64_t *tl_off;
  uint32_t nsaddr;        /* stack addresses computed at entry (SA_RETADDR: the return point) */
  uint32_t *sa_slot;
  uint64_t *sa_off;
  uint32_t nbyval;
  uint32_t *bv_param;
  uint64_t *bv_off, *bv_size;
  uint64_t frame_size;
  uint32_t frame_align;
  CallDesc **calls;
  uint32_t ncalls;
  SwitchDesc **switches;
  uint32_t nswitches;
  /* host-callable trampoline */
  ffi_closure *closure;
  void *closure_code;     /* entry point; a bare token when libffi cannot express the signature */
  void *token;
  ffi_cif ccif;
  ffi_type **cat;
  ffi_type *crt;
};

typedef struct Frame {
  Fn *fn;
  Slot *base;
  Slot *rbase;            /* caller's slots (results land in rbase[rd]) */
  const Ins *ret_pc;
  char *fa;               /* stack-object area */
  char *atop;             /* end of this frame's stack memory */
  char *va;               /* variadic overflow area or NULL */
  uint32_t rd, rd2;
} Frame;

/* The stacks one host thread runs interpreted code on. They belong to the
 * thread, not to an interpreter: every interpreter the thread enters (the
 * emulator makes one per guest block; callbacks nest one in another) pushes
 * its frames on top. Reserved on the thread's first call, released when the
 * thread exits. */
typedef struct Ctx {
  Frame *frames, *frames_end, *fp;
  Slot *slots, *slots_end;
  char *astack, *astack_end;
  int trap_pending;       /* a callback from host code trapped */
} Ctx;

/* one thread's copies of an interpreter's thread-local globals */
typedef struct TlsSet {
  pthread_t thread;
  void **tls;             /* by global index */
  struct TlsSet *next;
} TlsSet;

/* host code pointer -> interpreted function; replaced whole when it grows so
 * that lookups need no lock (old tables live until kit_interp_free) */
typedef struct CTab {
  uint32_t cap, n;
  struct CTab *older;
  void **keys;
  Fn **vals;
} CTab;

struct KitInterp {
  KitCgModule *m;
  KitCgResolver resolve;
  void *ruser;
  FILE *err;
  uint64_t serial;        /* tells apart interpreters at one address over time */
  Fn *fns;                /* by function index */
  void **symaddr;         /* by symbol: global address / function entry */
  void **gmem;            /* by global index: our allocation */
  void **tls_init;        /* by global index: a TLS global's initial image */
  void **main_tls;        /* by global index: the creating thread's TLS copies (gmem) */
  pthread_t owner;        /* the thread that made the interpreter */
  TlsSet *tls_sets;       /* other threads' TLS copies */
  pthread_mutex_t lock;   /* recursive: decoding, closures, TLS copies */
  uint64_t ops;
  CTab *ctab;
  void *owned_types;      /* malloc'd ffi struct types, a list */
  Ins exit_ins;           /* where an activation's entry frame returns to */
  /* kit_interp_call's last function: a caller that runs one function over
   * and over (the emulator's tier 0) skips the symbol-table lookup, whose
   * cache misses were ~14% of a tier-0 block run */
  const KitCgFunc *last_f;
  Fn *last_fn;
};

/* Labels as values: the interpreter's address of block blk of the function
 * with symbol fsym. A token, not memory (non-canonical on x86-64, so a load
 * through it faults), linear in blk so that &&a - &&b and &&b + (&&a - &&b)
 * compute as in C; an indirectbr compares against the tokens of its list. */
static inline uint64_t kit_interp__blockaddr(KitCgSym fsym, KitCgBlkId blk) {
  return 0xb10c000000000000ull | ((uint64_t)(fsym & 0xffffff) << 24) | (blk & 0xffffff);
}

/* state.c */
Fn *kit_interp__fn(KitInterp *ip, const KitCgFunc *f);
void *kit_interp__func_addr(KitInterp *ip, Fn *fn); /* closure entry, created on demand */
Fn *kit_interp__closure_fn(KitInterp *ip, void *code);
Ctx *kit_interp__ctx(void);             /* the calling thread's stacks, NULL if none can be made */
void **kit_interp__tls(KitInterp *ip);  /* the calling thread's TLS copies, NULL if none can be made */
KitCgSym kit_interp__resolve_alias(const KitCgModule *m, KitCgSym s);
void kit_interp__msg(KitInterp *ip, const Fn *fn, const KitCgInst *in, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* decode.c */
int kit_interp__decode(KitInterp *ip, Fn *fn);
void kit_interp__fn_release(Fn *fn);
const void *const *kit_interp__labels(void);

/* ffi.c */
ffi_type *kit_interp__ffi_type(KitCgType t, uint8_t attrs);
int kit_interp__prep_call(KitInterp *ip, CallDesc *cd, const KitCgParam *const *pa, uint8_t ret_attrs, bool variadic);
void kit_interp__free_types(KitInterp *ip);
void kit_interp__host_call(KitInterp *ip, const CallDesc *cd, Slot *S, void *fnp);
int kit_interp__make_closure(KitInterp *ip, Fn *fn);

/* slow.c: returns 0 or a trap message (static string) */
const char *kit_interp__slow(KitInterp *ip, Frame *fp, Slot *S, const KitCgInst *in);

/* the bits a value of type t keeps in the low 64 of its slot */
/* an FCMP predicate on two values widened to long double (exact for f32/f64) */
static inline int kit_interp__fcmp(unsigned p, long double x, long double y) {
  bool un = __builtin_isunordered(x, y);
  switch (p) {
  case KIT_CG_FOEQ: return !un && x == y;
  case KIT_CG_FONE: return !un && x != y;
  case KIT_CG_FOLT: return !un && x < y;
  case KIT_CG_FOLE: return !un && x <= y;
  case KIT_CG_FOGT: return !un && x > y;
  case KIT_CG_FOGE: return !un && x >= y;
  case KIT_CG_FUEQ: return un || x == y;
  case KIT_CG_FUNE: return un || x != y;
  case KIT_CG_FULT: return un || x < y;
  case KIT_CG_FULE: return un || x <= y;
  case KIT_CG_FUGT: return un || x > y;
  case KIT_CG_FUGE: return un || x >= y;
  case KIT_CG_FORD: return !un;
  case KIT_CG_FUNO: return un;
  default: return 0;
  }
}

static inline uint64_t kit_interp__mask(KitCgType t) {
  switch (t) {
  case KIT_CG_I1: return 1;
  case KIT_CG_I8: return 0xff;
  case KIT_CG_I16: return 0xffff;
  case KIT_CG_I32: case KIT_CG_F32: return 0xffffffffu;
  default: return ~0ull;
  }
}

static inline uint64_t sxw(uint64_t v, unsigned sh) { return (uint64_t)((int64_t)(v << sh) >> sh); }

#endif
