/* passes/msan_internal.h — state shared by the files of the MSan pass:
 * msan.c (driver, the shadow of every value, propagation through the ops),
 * msan_select.c (branches that are selects) and msan_check.c (reports,
 * memory, calls, returns, the function entry). */
#ifndef KIT_PASSES_MSAN_INTERNAL_H
#define KIT_PASSES_MSAN_INTERNAL_H

#include "kit/passes.h"
#include "rewrite.h"

/* a shadow phi waiting for its incoming values: the original phi and its
 * shadow sit at these positions of block blk */
typedef struct MsanPhi {
  KitCgBlkId blk;
  uint32_t orig, shadow;
  uint32_t origin; /* its origin phi's position, or UINT32_MAX */
} MsanPhi;

typedef struct MsanFn {
  KitCgModule *m;
  KitCgFunc *f;
  const KitMsanConfig *c;
  KitCgBuilder b;       /* where new code goes; b.blk moves as checks split blocks */
  uint32_t nvals0;      /* values below this id existed before the pass */
  KitCgVal *sh;         /* shadow of each original value */
  KitCgVal *sh2;        /* a call's second result's shadow, by the call's value */
  KitCgVal zero[256];   /* a clean shadow per shadow type, made at the entry */
  MsanPhi *phis;
  uint32_t nphis, phis_cap;
  KitCgSym param_tls, retval_tls;
  KitCgLoc *vloc;       /* where each original value is computed */
  /* branches treated as selects (msan_select.c), by original block: */
  bool *select_br;      /* this block's condbr is not checked ... */
  KitCgVal *join_cond;  /* ... its join's phis are poisoned when the condition is */
  KitCgVal pending_cond; /* the block being rebuilt is such a join: poison after its phis */
  uint32_t block_phis;  /* phis[] from here on are the current block's */
  KitCgBlkId cur_block; /* the original block being rebuilt */
  /* lifted code (c->state_size): constants and [base + constant] pointers among
   * the original values, to find the CPU state accesses */
  bool *is_k;
  uint64_t *k;
  KitCgVal *pbase;
  uint64_t entry_pc;    /* the block's first guest pc (its epilogue's location) */
  uint64_t last_pc;     /* the latest guest pc other than entry_pc rebuilt so far */
  /* compiled code: a stack object whose address is only ever a load's or a
   * store's (through ptradds) gets its shadow in a stack object of its own,
   * not at its address ^ shadow_xor, so that LLVM can promote both (clang's
   * MemorySanitizer runs after that promotion) */
  uint32_t nstack0;     /* the original stack objects */
  uint32_t *shadow_obj; /* per original object: its shadow object + 1, or 0 */
  KitCgVal *shp;        /* per original value derived from such an object: the shadow's pointer */
  /* origins (msan_origin.c), compiled code with c->origins only; else NULL/0 */
  KitCgVal *org;        /* origin (i32) of each original value, 0 = none */
  KitCgSym param_origin_tls, retval_origin_tls;
  uint32_t *origin_obj; /* per private object: its origin slot (one for the object) + 1 */
  KitCgVal *orp;        /* per value derived from a private object: its origin slot's pointer */
  KitCgVal *obj_origin; /* per original object: its origin id, made at the entry */
  bool *promoted;       /* from -O1, per value: points into a stack object clang's optimiser would promote */
} MsanFn;

/* compiled code or lifted code (kit-emu) */
static inline bool msan_lifted(const MsanFn *M) { return M->c->state_size != 0; }

/* msan.c */
KitCgType msan_shadow_type(KitCgType t);
KitCgInst *msan_emit(MsanFn *M, KitCgOp op, KitCgType t, const KitCgVal *args, uint32_t n);
KitCgVal msan_op2(MsanFn *M, KitCgOp op, KitCgVal a, KitCgVal b); /* type of a */
KitCgVal msan_i64(MsanFn *M, uint64_t v);
KitCgVal msan_clean(MsanFn *M, KitCgType shadow_type); /* the all-zero shadow */
KitCgVal msan_shadow_of(MsanFn *M, KitCgVal v);
/* i1: some bit of shadow s is set (vectors, and i1 shadows, as they come: see msan.c) */
KitCgVal msan_any(MsanFn *M, KitCgVal s);
/* a shadow of type t: all ones if any bit of s is set, else clean */
KitCgVal msan_all_or_nothing(MsanFn *M, KitCgVal s, KitCgType t);

/* lifted code: where a branch on an uninitialized v is reported: the
 * guest instruction that computed it, or, when the emulator's epilogue did
 * (it carries the block's first pc, and compares a branch's operands again),
 * the last guest instruction lifted: the branch */
KitCgLoc msan_value_loc(MsanFn *M, KitCgVal v);

/* msan_select.c: fills select_br and join_cond */
void msan_find_selects(MsanFn *M);

/* msan_origin.c (compiled code with c->origins) */
bool msan_origins(const MsanFn *M);
KitCgVal msan_origin_of(MsanFn *M, KitCgVal v); /* the clean i32 when none */
/* o2 where shadow s2 has a set bit, else o1 */
KitCgVal msan_origin_pick(MsanFn *M, KitCgVal o1, KitCgVal s2, KitCgVal o2);
/* a value op's: the last operand's with a set shadow bit */
KitCgVal msan_origin_combine(MsanFn *M, const KitCgInst *in);
KitCgVal msan_origin_select(MsanFn *M, const KitCgInst *in);
/* the origin of a value loaded from ptr whose shadow (just loaded) is s */
KitCgVal msan_load_origin(MsanFn *M, KitCgVal ptr, KitCgVal s);
/* where shadow s of a t stored at ptr has a set bit: origin o (level 2: chained) */
void msan_store_origin(MsanFn *M, KitCgVal s, KitCgType t, KitCgVal ptr, KitCgVal o);
/* stack object o was just poisoned: its origin, "an allocation of 'x' in f" */
void msan_origin_object(MsanFn *M, uint32_t o);
/* a dynamic alloca (after its poisoning): "an allocation of 'vla'" (a VLA: tydesc set) or of '' */
void msan_origin_alloca(MsanFn *M, const KitCgInst *in);
/* from -O1 (c->selects): fills promoted[] */
void msan_find_promoted(MsanFn *M);
/* value id -> the stack object (below n) it addresses, through stackaddr and
 * ptradds, plus one; 0 for the rest (callocated, f->nvals + 1 entries) */
uint32_t *msan_stack_bases(const KitCgFunc *f, uint32_t n);
/* after the inline copy of n constant bytes and their shadow from src to dst:
 * where the copied shadow has a set bit, the runtime copies the origins
 * (level 2 chains them, except into an object clang's optimiser promotes) */
void msan_copy_origin(MsanFn *M, KitCgVal dst, KitCgVal src, uint64_t n);
KitCgVal msan_load_origin_at(MsanFn *M, KitCgVal at);
void msan_store_origin_at(MsanFn *M, KitCgVal o, KitCgVal at);

/* msan_check.c */
/* report when shadow s has a set bit (at the builder's location), with origin o
 * (0: none); skips clean constants */
void msan_check(MsanFn *M, KitCgVal s, KitCgVal o);
/* msan_check of value v's shadow and origin */
void msan_check_value(MsanFn *M, KitCgVal v);
KitCgVal msan_shadow_ptr(MsanFn *M, KitCgVal ptr);
KitCgVal msan_load_shadow(MsanFn *M, KitCgType t, KitCgVal ptr);
void msan_store_shadow(MsanFn *M, KitCgVal s, KitCgType t, KitCgVal ptr);
void msan_set_shadow(MsanFn *M, KitCgVal ptr, uint8_t byte, KitCgVal len);
void msan_entry(MsanFn *M);
/* stack object o's bytes uninitialized (the entry, lifetime.start) */
void msan_poison_object(MsanFn *M, uint32_t o);
/* the checks and shadow traffic before a call (returns the result shadows after it) */
void msan_call_before(MsanFn *M, KitCgInst *in);
void msan_call_after(MsanFn *M, const KitCgInst *in);
void msan_ret(MsanFn *M, const KitCgInst *in);
/* a PROGRAM memcpy/memmove/memset becomes a call of __msan_memcpy/... (which copies the shadow too) */
void msan_memop(MsanFn *M, const KitCgInst *in);
/* lifted code: an INTERNAL load or store at [parameter 0 + off] of the CPU state
 * (before the op; for a load the shadow is loaded after it by msan_state_load) */
void msan_state_store(MsanFn *M, const KitCgInst *in, uint64_t off);
KitCgVal msan_state_load(MsanFn *M, KitCgType t, uint64_t off);
KitCgVal msan_state_load_origin(MsanFn *M, uint64_t off); /* with origins */

#endif
