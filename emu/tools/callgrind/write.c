/* emu/tools/callgrind/write.c — the profile as a callgrind.out file (format
 * version 1, as valgrind's callgrind writes it: header, per function its self
 * cost lines and calls=/inclusive-cost pairs, totals) and as folded stacks. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"

typedef struct SelfLine {
  KitProfFn fn;
  uint32_t file, line;
  uint64_t addr;
  const uint64_t *cost;
} SelfLine;

typedef struct CallEdge {
  KitProfFn caller, callee;
  uint32_t line;
  uint64_t addr, calls;
  uint64_t *incl;
} CallEdge;

static const KitProf *sort_p; /* qsort has no context argument */

static int cmp_self(const void *a, const void *b) {
  const SelfLine *x = a, *y = b;
  if (x->fn != y->fn) return x->fn < y->fn ? -1 : 1;
  uint32_t own = sort_p->fns[x->fn].file;
  bool xo = x->file == own, yo = y->file == own;
  if (xo != yo) return xo ? -1 : 1; /* the function's own file first */
  if (x->file != y->file) return x->file < y->file ? -1 : 1;
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

static int cmp_edge(const void *a, const void *b) {
  const CallEdge *x = a, *y = b;
  if (x->caller != y->caller) return x->caller < y->caller ? -1 : 1;
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* name compression: "(id) name" the first time, "(id)" after; files, functions
 * and objects are three id spaces */
typedef struct Names {
  const KitProf *p;
  uint32_t *file_id, *fn_id, *obj_id; /* by name id (files, objects) or function id; 0 = not yet */
  uint32_t next_file, next_fn, next_obj;
} Names;

static void put_name(FILE *out, const char *key, uint32_t *ids, uint32_t *next, uint32_t index, const char *text) {
  if (ids[index])
    fprintf(out, "%s=(%u)\n", key, ids[index]);
  else
    fprintf(out, "%s=(%u) %s\n", key, ids[index] = ++*next, text);
}

static void put_file(Names *n, FILE *out, const char *key, uint32_t file) {
  put_name(out, key, n->file_id, &n->next_file, file, n->p->names[file]);
}

static void put_obj(Names *n, FILE *out, const char *key, uint32_t obj) {
  put_name(out, key, n->obj_id, &n->next_obj, obj, n->p->names[obj]);
}

static void put_fn(Names *n, FILE *out, const char *key, KitProfFn fn) {
  put_name(out, key, n->fn_id, &n->next_fn, fn, n->p->names[n->p->fns[fn].name]);
}

static void put_costs(const KitProf *p, FILE *out, uint64_t addr, uint32_t line, const uint64_t *c) {
  unsigned last = p->nevents;
  while (last > 1 && c[last - 1] == 0) last--; /* trailing zeros may be left out */
  if (p->instr_positions) fprintf(out, "0x%" PRIx64 " ", addr);
  fprintf(out, "%u", line);
  for (unsigned e = 0; e < last; e++) fprintf(out, " %" PRIu64, c[e]);
  fputc('\n', out);
}

/* one line per (function, file, line), summing the contexts of the function;
 * the sums go to *store (nevents per line) */
static SelfLine *self_lines(const KitProf *p, size_t *n, uint64_t **store) {
  size_t k = p->nflat ? p->nflat : p->ncosts; /* the function-level figures when there are any */
  SelfLine *s = malloc((k ? k : 1) * sizeof *s);
  uint64_t *acc = calloc((k ? k : 1) * p->nevents, sizeof *acc);
  if (!s || !acc) abort();
  for (size_t i = 0; i < k; i++)
    s[i] = p->nflat ? (SelfLine){p->flat[i].fn, p->flat[i].file, p->flat[i].line, p->flat[i].addr,
                                 &p->flat_costs[i * p->nevents]}
                    : (SelfLine){p->nodes[p->cost_keys[i].node].fn, p->cost_keys[i].file, p->cost_keys[i].line, 0,
                                 &p->costs[i * p->nevents]};
  sort_p = p;
  qsort(s, k, sizeof *s, cmp_self);
  size_t m = 0;
  for (size_t i = 0; i < k; i++) {
    const uint64_t *from = s[i].cost;
    if (!m || cmp_self(&s[m - 1], &s[i])) {
      s[m] = s[i];
      s[m].cost = &acc[m * p->nevents];
      m++;
    }
    uint64_t *to = &acc[(m - 1) * p->nevents];
    for (unsigned e = 0; e < p->nevents; e++) to[e] += from[e];
  }
  *n = m;
  *store = acc;
  return s;
}

/* one edge per (caller, call line, callee), summing the contexts that share
 * it; their inclusive costs go to *store (nevents per edge) */
static CallEdge *call_edges(const KitProf *p, const uint64_t *inc, size_t *n, uint64_t **store) {
  size_t cap = p->nflat ? p->nflat_calls : p->nnodes;
  CallEdge *e = malloc((cap ? cap : 1) * sizeof *e);
  if (!e) abort();
  size_t k = 0;
  if (p->nflat) {
    for (size_t i = 0; i < p->nflat_calls; i++) {
      const ProfFlatCall *c = &p->flat_calls[i];
      e[k++] = (CallEdge){c->caller, c->callee, c->line, c->addr, c->calls, &p->flat_call_costs[i * p->nevents]};
    }
  } else {
    for (size_t i = 1; i < p->nnodes; i++) {
      const ProfNode *nd = &p->nodes[i];
      if (!nd->parent) continue; /* the entry point: nobody called it */
      e[k++] = (CallEdge){p->nodes[nd->parent].fn, nd->fn, nd->call_line, 0, nd->calls, (uint64_t *)&inc[i * p->nevents]};
    }
  }
  qsort(e, k, sizeof *e, cmp_edge);
  uint64_t *acc = calloc((k ? k : 1) * p->nevents, sizeof *acc);
  if (!acc) abort();
  size_t m = 0;
  for (size_t i = 0; i < k; i++) {
    const uint64_t *from = e[i].incl;
    if (m && !cmp_edge(&e[m - 1], &e[i])) {
      e[m - 1].calls += e[i].calls;
    } else {
      e[m] = e[i];
      e[m].incl = &acc[m * p->nevents];
      m++;
    }
    for (unsigned v = 0; v < p->nevents; v++) e[m - 1].incl[v] += from[v];
  }
  *n = m;
  *store = acc;
  return e;
}

static int cmp_jump(const void *a, const void *b) {
  const ProfFlatJump *x = a, *y = b;
  if (x->fn != y->fn) return x->fn < y->fn ? -1 : 1;
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  if (x->to_addr != y->to_addr) return x->to_addr < y->to_addr ? -1 : 1;
  return x->to_line < y->to_line ? -1 : x->to_line > y->to_line;
}

/* "jump=N TARGET" or "jcnd=TAKEN/EXE TARGET", then the jump's own position */
static void put_jump(const KitProf *p, FILE *out, const ProfFlatJump *j) {
  if (j->cond) fprintf(out, "jcnd=%" PRIu64 "/%" PRIu64 " ", j->jumped, j->exe);
  else fprintf(out, "jump=%" PRIu64 " ", j->jumped);
  if (p->instr_positions) fprintf(out, "0x%" PRIx64 " ", j->to_addr);
  fprintf(out, "%u\n", j->to_line);
  if (p->instr_positions) fprintf(out, "0x%" PRIx64 " ", j->addr);
  fprintf(out, "%u\n", j->line);
}

static void write_header(const KitProf *p, FILE *out, const KitProfHeader *h) {
  fprintf(out, "# callgrind format\nversion: 1\ncreator: %s\npid: %ld\ncmd: %s\npart: 1\n",
          h && h->creator ? h->creator : "kit-emu", h ? h->pid : 0, h && h->cmd ? h->cmd : "");
  if (h && h->thread) fprintf(out, "thread: %u\n", h->thread);
  fputc('\n', out);
  for (const char **d = h ? h->desc : NULL; d && *d; d++) fprintf(out, "desc: %s\n", *d);
  fprintf(out, "\npositions: %s\nevents:", p->instr_positions ? "instr line" : "line");
  for (unsigned e = 0; e < p->nevents; e++) fprintf(out, " %s", p->events[e]);
  fprintf(out, "\nsummary:");
  for (unsigned e = 0; e < p->nevents; e++) fprintf(out, " %" PRIu64, kit_prof_total(p, e));
  fprintf(out, "\n\n");
}

int kit_prof_write_callgrind(const KitProf *p, FILE *out, const KitProfHeader *h) {
  uint64_t *inc = kit_prof__inclusive(p);
  size_t nself, nedges;
  uint64_t *self_costs;
  SelfLine *self = self_lines(p, &nself, &self_costs);
  uint64_t *edge_costs;
  CallEdge *edges = call_edges(p, inc, &nedges, &edge_costs);
  Names nm = {.p = p, .file_id = calloc(p->nnames + 1, 4), .fn_id = calloc(p->nfns + 1, 4),
              .obj_id = calloc(p->nnames + 1, 4)};
  if (!nm.file_id || !nm.fn_id || !nm.obj_id) abort();
  write_header(p, out, h);
  qsort(p->flat_jumps, p->nflat_jumps, sizeof *p->flat_jumps, cmp_jump); /* the order only */
  size_t ji = 0;
  uint32_t cur_obj = UINT32_MAX;
  size_t si = 0, ei = 0;
  for (KitProfFn f = 0; f < p->nfns; f++) {
    bool has_self = si < nself && self[si].fn == f, has_calls = ei < nedges && edges[ei].caller == f;
    if (!has_self && !has_calls) continue;
    const ProfFn *fn = &p->fns[f];
    if (fn->obj != cur_obj) put_obj(&nm, out, "ob", cur_obj = fn->obj);
    put_file(&nm, out, "fl", fn->file);
    put_fn(&nm, out, "fn", f);
    uint32_t cur_file = fn->file;
    for (; si < nself && self[si].fn == f; si++) {
      if (self[si].file != cur_file) put_file(&nm, out, "fi", cur_file = self[si].file);
      put_costs(p, out, self[si].addr, self[si].line, self[si].cost);
    }
    if (cur_file != fn->file) put_file(&nm, out, "fe", cur_file = fn->file);
    for (; ei < nedges && edges[ei].caller == f; ei++) {
      const ProfFn *callee = &p->fns[edges[ei].callee];
      if (callee->obj != fn->obj) put_obj(&nm, out, "cob", callee->obj);
      if (callee->file != fn->file) put_file(&nm, out, "cfi", callee->file);
      put_fn(&nm, out, "cfn", edges[ei].callee);
      fprintf(out, "calls=%" PRIu64 " 0\n", edges[ei].calls);
      put_costs(p, out, edges[ei].addr, edges[ei].line, edges[ei].incl);
    }
    for (; ji < p->nflat_jumps && p->flat_jumps[ji].fn < f; ji++) {}
    for (; ji < p->nflat_jumps && p->flat_jumps[ji].fn == f; ji++) put_jump(p, out, &p->flat_jumps[ji]);
    fputc('\n', out);
  }
  fprintf(out, "totals:");
  for (unsigned e = 0; e < p->nevents; e++) fprintf(out, " %" PRIu64, kit_prof_total(p, e));
  fputc('\n', out);
  free(nm.file_id), free(nm.fn_id), free(nm.obj_id);
  free(self);
  free(self_costs);
  free(edge_costs);
  free(edges);
  free(inc);
  return ferror(out) ? -1 : 0;
}

/* ---- folded stacks ------------------------------------------------------------ */

typedef struct Folded {
  char *path;
  uint64_t cost;
} Folded;

static int cmp_folded(const void *a, const void *b) { return strcmp(((const Folded *)a)->path, ((const Folded *)b)->path); }

/* "outer;...;inner" for context n: the function names from the root down */
char *kit_prof__path(const KitProf *p, KitProfNode n) {
  size_t len = 1;
  for (KitProfNode k = n; k; k = p->nodes[k].parent) len += strlen(p->names[p->fns[p->nodes[k].fn].name]) + 1;
  char *s = malloc(len);
  if (!s) abort();
  size_t at = len - 1;
  s[at] = 0;
  for (KitProfNode k = n; k; k = p->nodes[k].parent) {
    const char *name = p->names[p->fns[p->nodes[k].fn].name];
    size_t l = strlen(name);
    if (at != len - 1) s[--at] = ';';
    at -= l;
    memcpy(s + at, name, l);
  }
  if (at) memmove(s, s + at, len - at);
  return s;
}

int kit_prof_write_folded(const KitProf *p, FILE *out, unsigned e) {
  uint64_t *self = calloc(p->nnodes, sizeof *self);
  if (!self) abort();
  for (size_t i = 0; i < p->ncosts; i++) self[p->cost_keys[i].node] += p->costs[i * p->nevents + e];
  Folded *f = malloc(p->nnodes * sizeof *f);
  if (!f) abort();
  size_t n = 0;
  for (KitProfNode i = 1; i < p->nnodes; i++)
    if (self[i]) f[n++] = (Folded){kit_prof__path(p, i), self[i]};
  qsort(f, n, sizeof *f, cmp_folded);
  for (size_t i = 0; i < n;) {
    size_t j = i + 1;
    uint64_t sum = f[i].cost;
    while (j < n && !strcmp(f[j].path, f[i].path)) sum += f[j++].cost;
    fprintf(out, "%s %" PRIu64 "\n", f[i].path, sum);
    for (size_t k = i; k < j; k++) free(f[k].path);
    i = j;
  }
  free(f);
  free(self);
  return ferror(out) ? -1 : 0;
}
