/* emu/tools/callgrind/profile_internal.h — the profile's tables, shared by
 * profile.c (building it) and its writers (write.c, flame.c). */
#ifndef KIT_PROFILE_INTERNAL_H
#define KIT_PROFILE_INTERNAL_H

#include "profile.h"

typedef struct ProfSlot {
  uint64_t key; /* 0: empty */
  uint32_t val;
} ProfSlot;

typedef struct ProfMap {
  ProfSlot *slots;
  size_t cap, n;
} ProfMap;

typedef struct ProfFn {
  uint32_t obj, file, name; /* name ids */
} ProfFn;

typedef struct ProfNode {
  KitProfNode parent;
  KitProfFn fn;        /* UINT32_MAX for the root */
  uint32_t call_line;  /* the call site in the parent's function */
  uint64_t calls;
} ProfNode;

typedef struct ProfCostKey {
  KitProfNode node;
  uint32_t file, line;
} ProfCostKey;

typedef struct ProfFlatCost { /* kit_prof_fn_cost */
  KitProfFn fn;
  uint32_t file, line;
  uint64_t addr;
} ProfFlatCost;

typedef struct ProfFlatCall { /* kit_prof_fn_call */
  KitProfFn caller, callee;
  uint32_t line;
  uint64_t addr, calls;
} ProfFlatCall;

typedef struct ProfFlatJump { /* kit_prof_fn_jump */
  KitProfFn fn;
  uint32_t line, to_line;
  uint64_t addr, to_addr, exe, jumped;
  bool cond;
} ProfFlatJump;

struct KitProf {
  unsigned nevents;
  char *events[KIT_PROF_MAX_EVENTS];
  char **names;
  size_t nnames, names_cap;
  ProfMap name_map;
  ProfFn *fns;
  size_t nfns, fns_cap;
  ProfMap fn_map;
  ProfNode *nodes;
  size_t nnodes, nodes_cap;
  ProfMap node_map;
  ProfCostKey *cost_keys;
  uint64_t *costs; /* nevents per cost key */
  size_t ncosts, costs_cap;
  ProfMap cost_map;
  ProfFlatCost *flat;
  uint64_t *flat_costs; /* nevents per flat cost */
  size_t nflat, flat_cap;
  ProfFlatCall *flat_calls;
  uint64_t *flat_call_costs;
  size_t nflat_calls, flat_calls_cap;
  ProfFlatJump *flat_jumps;
  size_t nflat_jumps, flat_jumps_cap;
  bool instr_positions;
};

uint32_t kit_prof__name(KitProf *p, const char *s);
uint32_t *kit_prof__map_get(ProfMap *m, uint64_t key);
void kit_prof__map_put(ProfMap *m, uint64_t key, uint32_t val);
uint64_t *kit_prof__inclusive(const KitProf *p);
/* "outer;...;inner": the function names of context n from the root down (malloc'd) */
char *kit_prof__path(const KitProf *p, KitProfNode n);

#endif
