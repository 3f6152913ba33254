/* emu/tools/callgrind/profile.c — the calling-context tree and its callgrind
 * and folded-stack writers. Contexts are keyed by (parent, callee, call line);
 * self costs by (context, file, line). The callgrind file aggregates contexts
 * per function, as callgrind's own output does. */
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"

static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p) abort();
  return p;
}

/* ---- hashing ------------------------------------------------------------- */

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* open addressing over u64 keys (never 0) to u32 values */
static void map_grow(ProfMap *m) {
  size_t cap = m->cap ? m->cap * 2 : 1024;
  ProfSlot *old = m->slots;
  size_t oldcap = m->cap;
  m->slots = calloc(cap, sizeof *m->slots);
  if (!m->slots) abort();
  m->cap = cap;
  m->n = 0;
  for (size_t i = 0; i < oldcap; i++)
    if (old[i].key) kit_prof__map_put(m, old[i].key, old[i].val);
  free(old);
}

uint32_t *kit_prof__map_get(ProfMap *m, uint64_t key) {
  if (!m->cap) return NULL;
  for (size_t i = mix(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (m->slots[i].key == key) return &m->slots[i].val;
    if (!m->slots[i].key) return NULL;
  }
}

void kit_prof__map_put(ProfMap *m, uint64_t key, uint32_t val) {
  if (2 * (m->n + 1) > m->cap) map_grow(m);
  size_t i = mix(key) & (m->cap - 1);
  while (m->slots[i].key && m->slots[i].key != key) i = (i + 1) & (m->cap - 1);
  if (!m->slots[i].key) m->n++;
  m->slots[i].key = key;
  m->slots[i].val = val;
}

/* ---- names, functions, contexts ---------------------------------------------- */

uint32_t kit_prof__name(KitProf *p, const char *s) {
  if (!s || !*s) s = "???";
  uint64_t h = hash_str(s) | 1;
  for (;; h += 2) { /* a collision of hashes moves on to the next odd key */
    uint32_t *v = kit_prof__map_get(&p->name_map, h);
    if (!v) break;
    if (!strcmp(p->names[*v], s)) return *v;
  }
  if (p->nnames == p->names_cap) {
    p->names_cap = p->names_cap ? 2 * p->names_cap : 256;
    p->names = xrealloc(p->names, p->names_cap * sizeof *p->names);
  }
  p->names[p->nnames] = strdup(s);
  if (!p->names[p->nnames]) abort();
  kit_prof__map_put(&p->name_map, h, (uint32_t)p->nnames);
  return (uint32_t)p->nnames++;
}

KitProf *kit_prof_new(const char *const *events, unsigned nevents) {
  if (nevents == 0 || nevents > KIT_PROF_MAX_EVENTS) return NULL;
  KitProf *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->nevents = nevents;
  for (unsigned i = 0; i < nevents; i++) p->events[i] = strdup(events[i]);
  /* node 0: the root, the context of no function */
  p->nodes = xrealloc(NULL, 64 * sizeof *p->nodes);
  p->nodes_cap = 64;
  p->nodes[0] = (ProfNode){.fn = UINT32_MAX};
  p->nnodes = 1;
  return p;
}

void kit_prof_free(KitProf *p) {
  if (!p) return;
  for (unsigned i = 0; i < p->nevents; i++) free(p->events[i]);
  for (size_t i = 0; i < p->nnames; i++) free(p->names[i]);
  free(p->names);
  free(p->name_map.slots);
  free(p->fns);
  free(p->fn_map.slots);
  free(p->nodes);
  free(p->node_map.slots);
  free(p->costs);
  free(p->cost_keys);
  free(p->cost_map.slots);
  free(p->flat), free(p->flat_costs), free(p->flat_calls), free(p->flat_call_costs), free(p->flat_jumps);
  free(p);
}

unsigned kit_prof_nevents(const KitProf *p) { return p->nevents; }

KitProfFn kit_prof_fn(KitProf *p, const char *obj, const char *file, const char *name) {
  uint32_t o = kit_prof__name(p, obj), f = kit_prof__name(p, file), n = kit_prof__name(p, name);
  uint64_t key = ((uint64_t)o << 42 ^ (uint64_t)f << 21 ^ n) + 1;
  for (;; key += 0x9e3779b97f4a7c15ull | 1) {
    uint32_t *v = kit_prof__map_get(&p->fn_map, key);
    if (!v) break;
    if (p->fns[*v].obj == o && p->fns[*v].file == f && p->fns[*v].name == n) return *v;
  }
  if (p->nfns == p->fns_cap) {
    p->fns_cap = p->fns_cap ? 2 * p->fns_cap : 128;
    p->fns = xrealloc(p->fns, p->fns_cap * sizeof *p->fns);
  }
  p->fns[p->nfns] = (ProfFn){o, f, n};
  kit_prof__map_put(&p->fn_map, key, (uint32_t)p->nfns);
  return (KitProfFn)p->nfns++;
}

KitProfNode kit_prof_enter(KitProf *p, KitProfNode parent, KitProfFn callee, uint32_t line) {
  uint64_t key = ((uint64_t)parent * 0x100000001b3ull ^ (uint64_t)callee << 32 ^ line) | 1;
  for (;; key += 2) {
    uint32_t *v = kit_prof__map_get(&p->node_map, key);
    if (!v) break;
    ProfNode *n = &p->nodes[*v];
    if (n->parent == parent && n->fn == callee && n->call_line == line) {
      n->calls++;
      return *v;
    }
  }
  if (p->nnodes == p->nodes_cap) {
    p->nodes_cap *= 2;
    p->nodes = xrealloc(p->nodes, p->nodes_cap * sizeof *p->nodes);
  }
  KitProfNode id = (KitProfNode)p->nnodes++;
  p->nodes[id] = (ProfNode){.parent = parent, .fn = callee, .call_line = line, .calls = 1};
  kit_prof__map_put(&p->node_map, key, id);
  return id;
}

KitProfNode kit_prof_parent(const KitProf *p, KitProfNode n) { return n ? p->nodes[n].parent : 0; }
KitProfFn kit_prof_node_fn(const KitProf *p, KitProfNode n) { return p->nodes[n].fn; }

void kit_prof_cost(KitProf *p, KitProfNode n, const char *file, uint32_t line, const uint64_t *costs) {
  uint32_t f = file ? kit_prof__name(p, file) : p->fns[p->nodes[n].fn].file;
  uint64_t key = ((uint64_t)n << 40 ^ (uint64_t)f << 20 ^ line) * 2 + 1;
  uint32_t idx = UINT32_MAX;
  for (;; key += 2) {
    uint32_t *v = kit_prof__map_get(&p->cost_map, key);
    if (!v) break;
    ProfCostKey *k = &p->cost_keys[*v];
    if (k->node == n && k->file == f && k->line == line) {
      idx = *v;
      break;
    }
  }
  if (idx == UINT32_MAX) {
    if (p->ncosts == p->costs_cap) {
      p->costs_cap = p->costs_cap ? 2 * p->costs_cap : 1024;
      p->cost_keys = xrealloc(p->cost_keys, p->costs_cap * sizeof *p->cost_keys);
      p->costs = xrealloc(p->costs, p->costs_cap * p->nevents * sizeof *p->costs);
    }
    idx = (uint32_t)p->ncosts++;
    p->cost_keys[idx] = (ProfCostKey){n, f, line};
    memset(&p->costs[(size_t)idx * p->nevents], 0, p->nevents * sizeof *p->costs);
    kit_prof__map_put(&p->cost_map, key, idx);
  }
  uint64_t *c = &p->costs[(size_t)idx * p->nevents];
  for (unsigned e = 0; e < p->nevents; e++) c[e] += costs[e];
}

uint64_t kit_prof_total(const KitProf *p, unsigned e) {
  uint64_t t = 0;
  if (p->nflat) {
    for (size_t i = 0; i < p->nflat; i++) t += p->flat_costs[i * p->nevents + e];
    return t;
  }
  for (size_t i = 0; i < p->ncosts; i++) t += p->costs[i * p->nevents + e];
  return t;
}

/* inclusive cost of every context, nevents per node (children come after
 * their parents in creation order, so one backward pass sums them) */
uint64_t *kit_prof__inclusive(const KitProf *p) {
  uint64_t *inc = calloc(p->nnodes * p->nevents, sizeof *inc);
  if (!inc) abort();
  for (size_t i = 0; i < p->ncosts; i++)
    for (unsigned e = 0; e < p->nevents; e++) inc[p->cost_keys[i].node * p->nevents + e] += p->costs[i * p->nevents + e];
  for (size_t n = p->nnodes; n-- > 1;)
    for (unsigned e = 0; e < p->nevents; e++) inc[p->nodes[n].parent * p->nevents + e] += inc[n * p->nevents + e];
  return inc;
}

/* ---- function-level figures ----------------------------------------------------- */

void kit_prof_fn_cost(KitProf *p, KitProfFn fn, const char *file, uint32_t line, uint64_t addr, const uint64_t *costs) {
  if (p->nflat == p->flat_cap) {
    p->flat_cap = p->flat_cap ? 2 * p->flat_cap : 1024;
    p->flat = xrealloc(p->flat, p->flat_cap * sizeof *p->flat);
    p->flat_costs = xrealloc(p->flat_costs, p->flat_cap * p->nevents * sizeof *p->flat_costs);
  }
  uint32_t f = file ? kit_prof__name(p, file) : p->fns[fn].file;
  p->flat[p->nflat] = (ProfFlatCost){fn, f, line, addr};
  memcpy(&p->flat_costs[p->nflat * p->nevents], costs, p->nevents * sizeof *costs);
  p->nflat++;
}

void kit_prof_fn_call(KitProf *p, KitProfFn caller, uint32_t line, uint64_t addr, KitProfFn callee, uint64_t calls,
                      const uint64_t *incl) {
  if (p->nflat_calls == p->flat_calls_cap) {
    p->flat_calls_cap = p->flat_calls_cap ? 2 * p->flat_calls_cap : 256;
    p->flat_calls = xrealloc(p->flat_calls, p->flat_calls_cap * sizeof *p->flat_calls);
    p->flat_call_costs = xrealloc(p->flat_call_costs, p->flat_calls_cap * p->nevents * sizeof *p->flat_call_costs);
  }
  p->flat_calls[p->nflat_calls] = (ProfFlatCall){caller, callee, line, addr, calls};
  memcpy(&p->flat_call_costs[p->nflat_calls * p->nevents], incl, p->nevents * sizeof *incl);
  p->nflat_calls++;
}

void kit_prof_fn_jump(KitProf *p, KitProfFn fn, uint32_t line, uint64_t addr, uint32_t to_line, uint64_t to_addr,
                      bool cond, uint64_t exe, uint64_t jumped) {
  if (p->nflat_jumps == p->flat_jumps_cap) {
    p->flat_jumps_cap = p->flat_jumps_cap ? 2 * p->flat_jumps_cap : 256;
    p->flat_jumps = xrealloc(p->flat_jumps, p->flat_jumps_cap * sizeof *p->flat_jumps);
  }
  p->flat_jumps[p->nflat_jumps++] = (ProfFlatJump){fn, line, to_line, addr, to_addr, exe, jumped, cond};
}

void kit_prof_set_instr_positions(KitProf *p, bool on) { p->instr_positions = on; }
