/* tests/lib/cg_gen_internal.h — the random generator's state, shared by
 * cg_gen_insts.c (value pools and one instruction at a time) and cg_gen.c
 * (shapes, control flow, whole functions). */
#ifndef KIT_TESTLIB_CG_GEN_INTERNAL_H
#define KIT_TESTLIB_CG_GEN_INTERNAL_H

#include "cg_gen.h"
#include "rng.h"

#define T_I1 KIT_CG_I1
#define T_I8 KIT_CG_I8
#define T_I16 KIT_CG_I16
#define T_I32 KIT_CG_I32
#define T_I64 KIT_CG_I64
#define T_PTR KIT_CG_PTR
#define T_VOID KIT_CG_VOID

#define POOLMAX 1024
#define DPMAX 512
#define ACC_MAX 504 /* highest buffer offset an 8-byte access may start at */

typedef struct DPtr { /* a pointer into buf[lo..hi] (any of those offsets) */
  KitCgVal v;
  int lo, hi;
} DPtr;

typedef struct Gen {
  Rng r;
  KitCgModule *m;
  KitCgFunc *f;
  KitCgBuilder b;
  KitCgType rt;
  KitCgVal pool[6][POOLMAX];
  int np[6];
  DPtr dp[DPMAX];
  int ndp;
  KitCgVal lastcmp;
  uint64_t fav[3];
  int budget;     /* instructions left */
  int call_pct;   /* weight of calls */
  int tail_pct;   /* chance a ret becomes a tail call */
  bool consts_only; /* pick: params and fresh constants only */
  bool i1_signed;   /* signed compares and smin/smax on i1 (the compiler declines them) */
} Gen;

typedef struct Scope {
  int np[6], ndp;
} Scope;

/* cg_gen_insts.c */
extern const KitCgType gen_types[6];
Scope gen_scope_save(const Gen *g);
void gen_scope_restore(Gen *g, const Scope *s);
void pool_push(Gen *g, KitCgVal v);
KitCgInst *gen_last_inst(Gen *g);
uint64_t gen_interesting(Gen *g, KitCgType t);
KitCgVal pool_pick(Gen *g, KitCgType t);
KitCgType gen_int_type(Gen *g);
KitCgType gen_mem_type(Gen *g);
KitCgVal gen_to64(Gen *g, KitCgVal v);
KitCgVal gen_from64(Gen *g, KitCgVal v, KitCgType t);
KitCgVal gen_addr(Gen *g);
bool gen_signed_pred(KitCgPred p);
KitCgVal gen_icmp(Gen *g, KitCgType t);
uint32_t gen_align(Gen *g);
void gen_store(Gen *g);
KitCgVal gen_loadcmp(Gen *g);
KitCgVal gen_emit_call(Gen *g, int h, bool tail);
void gen_call(Gen *g);
void gen_inst(Gen *g);
extern bool gen_avoid_select;

#endif
