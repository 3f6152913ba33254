/* cg/baseline/baseline_internal.h — the state the baseline compiler's files
 * share: the compiler (code memory, fault marks), one function's Emitter and
 * its per-value facts, and each stage's entry points. The stages, in the order
 * they run: layout.c, fold.c (prepare), then emit.c walking the blocks with
 * select*.c, which use regs.c, which uses encode.c; codemem.c places code. */
#ifndef KIT_BASELINE_INTERNAL_H
#define KIT_BASELINE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "encode.h"
#include "kit/cg_exec.h"

/* none of this is kitcg's interface: kept out of the dynamic symbol table */
#pragma GCC visibility push(hidden)

#define SCRATCH R11 /* never holds a value: the instructions' temporary */
#define NPOOL 8     /* registers values live in: alloc_pool */
#define RED_SLOTS 16 /* spill slots in the red zone of a function without a frame */
extern const int alloc_pool[NPOOL];
extern const int arg_regs[6];

/* ---- the compiler: code memory and the fault marks (codemem.c) ---------------------- */

/* the side table of KIT_CG_F_FAULT_PC stores: per function, where in its
 * code each dropped store stood and the value it stored */
typedef struct FaultMark {
  uint32_t off;
  uint64_t value;
} FaultMark;
typedef struct FuncMarks {
  uintptr_t start, end;
  uint32_t first, n; /* into marks */
} FuncMarks;

struct KitBaseline {
  KitCgResolver resolve;
  void *user;
  uint8_t *chunk; /* executable memory being filled */
  size_t used, cap, total;
  FuncMarks *funcs; /* sorted by start */
  uint32_t nfuncs, funcs_cap;
  FaultMark *marks;
  uint32_t nmarks, marks_cap;
};

/* ---- one function being compiled ---------------------------------------------------- */

typedef struct Val {
  int8_t reg;       /* host register or -1 */
  bool in_slot;     /* its slot holds it */
  bool global;      /* used outside its defining block */
  bool isconst;
  bool deferred;    /* folded into the instruction that uses it (fold.c) */
  int32_t slot;     /* -1: none yet */
  uint32_t uses;    /* uses not yet emitted */
  uint32_t defblk;
  uint64_t imm;     /* constant: its bits, zero-extended from its width */
  const KitCgInst *def;
} Val;

typedef struct BranchFix {
  uint32_t at;  /* offset of a rel32 */
  uint32_t blk; /* block it jumps to */
} BranchFix;

/* the registers at a branch: what they hold, which constants they keep */
typedef struct RegSnapshot {
  KitCgVal regval[16];
  uint64_t kconst[16];
  unsigned kvalid;
} RegSnapshot;

/* the rare side of a likely select, out of line after the function: dst
 * gets the constant imm (src < 0) or register src, then jumps back */
typedef struct OutOfLineMove {
  uint32_t at, back; /* the jcc's rel32; where to go on */
  int8_t dst, src;
  uint64_t imm;
} OutOfLineMove;

typedef struct Emitter {
  KitBaseline *x;
  const KitCgModule *m;
  const KitCgFunc *f;
  const char *why; /* why the function is declined; NULL while it compiles */
  CodeBuf code;
  Val *v;
  KitCgVal *canon; /* equal constants share one value */
  KitCgVal regval[16];
  uint64_t kconst[16]; /* a constant a register still holds (kvalid), used or not */
  unsigned kvalid;
  unsigned pinned;     /* registers the current instruction holds */
  unsigned reserved;   /* registers no value may take: the first parameter's home */
  int home;            /* where the first parameter lives throughout: rdi, rbx (saved) with calls, or -1 */
  int32_t *order;      /* blocks in emission order (the reachable ones) */
  uint32_t norder;
  int32_t *fused;      /* the block emitted right after, continuing its registers, or -1 */
  uint32_t *region;    /* a block and the blocks fused after it share one */
  const KitCgInst *skip[2]; /* instructions a read-modify-write folded in */
  FaultMark *marks;         /* KIT_CG_F_FAULT_PC stores left out */
  uint32_t nmarks, marks_cap;
  uint32_t nslots;
  bool frame;      /* slots below rsp (calls) instead of the red zone */
  bool red_full;   /* failed only for want of red-zone slots: compiled again with a frame */
  uint32_t *blkoff;
  BranchFix *fix;
  uint32_t nfix, fixcap;
  uint32_t *framefix; /* offsets of the imm32 of sub/add rsp */
  uint32_t nframefix, framefixcap;
  OutOfLineMove *rare;
  uint32_t nrare, rarecap;
  /* cold paths (layout.c): per block, the block whose cold branch it hangs
   * off (-1: none); per such block, its continuation, the registers at its
   * branch, and its last cold block */
  int32_t *cold_of, *cont_of, *cold_last;
  RegSnapshot *snap;
  bool *cold_started;
  KitCgVal *flipped; /* values a cold path stored to their slots */
  uint32_t nflipped;
  /* where the emitter is: for next-use distances */
  uint32_t cur_blk, cur_inst;
  /* an icmp whose result is in the flags: the value and its condition code */
  KitCgVal flags_val;
  int flags_cc;
} Emitter;

/* the working arrays of prepare(), freed when it is done */
typedef struct PrepareWork {
  const KitCgInst **user; /* per value: its last user */
  uint32_t *preds, *rpo, nrpo, *stack;
  bool *placed, *seen;
  KitCgVal *hash; /* constants by value (hcap entries) */
  uint32_t hcap;
} PrepareWork;

/* ---- small facts about types and arrays (inline) ----------------------------------- */

static inline int width(KitCgType t) {
  switch (t) {
  case KIT_CG_I1: return 1;
  case KIT_CG_I8: return 8;
  case KIT_CG_I16: return 16;
  case KIT_CG_I32: return 32;
  default: return 64;
  }
}
/* the operand size an instruction on a value of type t uses */
static inline int opsize(KitCgType t) { return width(t) == 64 ? 64 : 32; }
static inline uint64_t mask_of(int w) { return w == 64 ? ~0ull : (1ull << w) - 1; }
static inline KitCgType vt(const Emitter *e, KitCgVal v) { return (KitCgType)e->f->vtype[v]; }
static inline int access_size(KitCgType t) { return t == KIT_CG_I1 ? 8 : width(t); }
static inline bool signed_pred(KitCgPred p) { return p >= KIT_CG_SLT && p <= KIT_CG_SGE; }
/* room for need elements in the growing array *arr of *cap */
static inline bool grow(void **arr, uint32_t need, uint32_t *cap, size_t elem) {
  if (need <= *cap) return true;
  uint32_t c = *cap ? *cap : 16;
  while (c < need) c *= 2;
  void *p = realloc(*arr, c * elem);
  if (!p) return false;
  *arr = p;
  *cap = c;
  return true;
}
/* room for one more (n used), else the function is out of memory */
static inline bool room(Emitter *e, void **arr, uint32_t n, uint32_t *cap, size_t elem) {
  if (grow(arr, n + 1, cap, elem)) return true;
  e->code.oom = true;
  return false;
}

/* ---- layout.c: block order, fused blocks, register regions, cold paths ----------------- */

void layout_blocks(Emitter *e, PrepareWork *w);

/* ---- fold.c: constants, use counts, dead code, values folded into their user ----------- */

void fold_values(Emitter *e, PrepareWork *w);
bool pure(const KitCgInst *in);
bool silent(const Emitter *e, const KitCgInst *in);
const KitCgInst *next_real(const Emitter *e, uint32_t blk, uint32_t i);
bool imm_ok(const Emitter *e, KitCgVal v, int size, int64_t *imm);
bool is_k(const Emitter *e, KitCgVal v, uint64_t k);

/* ---- regs.c: values in registers and slots ------------------------------------------------ */

Operand slot_op(Emitter *e, Val *v);
void spill_reg(Emitter *e, int r);
int alloc_reg(Emitter *e);
void bind_reg(Emitter *e, KitCgVal v, int r);
void forget_regs(Emitter *e);
void clobber(Emitter *e, int r);
void load_into(Emitter *e, int r, KitCgVal v);
int value_reg(Emitter *e, KitCgVal v);
void use_done(Emitter *e, KitCgVal v);
bool last_use(Emitter *e, KitCgVal v);
int result_reg(Emitter *e, KitCgVal a, int ra);
void define_value(Emitter *e, KitCgVal id, int r);
void keep_zext(Emitter *e, int r, int w);

/* ---- select*.c: instruction selection ---------------------------------------------------- */

void sel_binary(Emitter *e, const KitCgInst *in, KitCgType t);
void sel_shift(Emitter *e, const KitCgInst *in, KitCgType t);
void sel_divide(Emitter *e, const KitCgInst *in, KitCgType t);
void sel_minmax(Emitter *e, const KitCgInst *in, KitCgType t);
void sel_unary(Emitter *e, const KitCgInst *in, KitCgType t);
void sel_icmp(Emitter *e, const KitCgInst *in, uint32_t blk, uint32_t idx);
int condition_code(Emitter *e, KitCgVal c);
void sel_select(Emitter *e, const KitCgInst *in, KitCgType t);
void sel_convert(Emitter *e, const KitCgInst *in);
Operand mem_operand(Emitter *e, KitCgVal p);
void sel_load(Emitter *e, const KitCgInst *in);
void sel_store(Emitter *e, const KitCgInst *in);
void frame_adjust(Emitter *e, int alu);
void sel_call(Emitter *e, const KitCgInst *in);
void sel_ret(Emitter *e, const KitCgInst *in);

/* ---- emit.c: the walk over the blocks ---------------------------------------------------- */

void emit_function(Emitter *e);

/* ---- codemem.c --------------------------------------------------------------------------- */

void *code_place(KitBaseline *x, const uint8_t *code, size_t n);
bool add_marks(KitBaseline *x, const Emitter *e, uint8_t *code);

#pragma GCC visibility pop

#endif
