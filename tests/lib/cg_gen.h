/* tests/lib/cg_gen.h — seeded random CG functions for differential tests
 * and fuzzers, in the subset the baseline compiler takes (i1..i64 and ptr;
 * arithmetic, shifts by any amount, min/max, guarded division, icmp, select,
 * conversions, ptradd, loads and stores into the scratch buffer also at
 * constant addresses, fences, forward-only CFGs, direct, indirect and tail
 * calls to the host helpers) in four shapes: "pressure" (20-50 values live
 * at once), "straight", "calls" and "cfg". Every access stays inside
 * host_env.h's buffer; every division is guarded. */
#ifndef KIT_TESTLIB_CG_GEN_H
#define KIT_TESTLIB_CG_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "kit/cg.h"

/* one generated function @f in its own module, with arguments to run it on:
 * args, and dirty (the same with garbage in the bits SysV leaves undefined) */
typedef struct GenFunc {
  KitCgModule *m;
  KitCgFunc *f;
  uint64_t args[6], dirty[6];
  const char *shape;
  bool any_order; /* blocks numbered in an order that is not topological */
} GenFunc;

/* a module named module holding @f(ps) -> rt, with a builder at its first block */
typedef struct NewFunc {
  KitCgModule *m;
  KitCgFunc *f;
  KitCgBuilder b;
} NewFunc;
NewFunc new_func(const char *module, KitCgType rt, const KitCgType *ps, uint32_t np);

/* the function of a seed (the same on every run); avoid_select spells
 * selects as and/xor */
GenFunc gen_func(uint64_t seed, bool avoid_select);

#endif
