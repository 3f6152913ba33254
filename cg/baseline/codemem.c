/* cg/baseline/codemem.c — code memory and fault marks: compiled functions
 * copied into executable chunks that stay mapped, and the side table that
 * maps a host pc in that code to the value of the last KIT_CG_F_FAULT_PC
 * store before it (kit_baseline_fault_value). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "baseline_internal.h"

#define CODE_CHUNK (4u << 20)

/* n bytes of code copied into executable memory, 16-byte aligned */
void *code_place(KitBaseline *x, const uint8_t *code, size_t n) {
  size_t at = (x->used + 15) & ~(size_t)15;
  if (!x->chunk || at + n > x->cap) {
    size_t cap = n > CODE_CHUNK ? (n + 4095) & ~(size_t)4095 : CODE_CHUNK;
    void *p = mmap(NULL, cap, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    x->chunk = p;
    x->cap = cap;
    at = 0;
  }
  memcpy(x->chunk + at, code, n);
  x->used = at + n;
  x->total += n;
  return x->chunk + at;
}

/* the function placed at code gets its side table */
bool add_marks(KitBaseline *x, const Emitter *e, uint8_t *code) {
  if (!e->nmarks) return true;
  if (!grow((void **)&x->funcs, x->nfuncs + 1, &x->funcs_cap, sizeof *x->funcs) ||
      !grow((void **)&x->marks, x->nmarks + e->nmarks, &x->marks_cap, sizeof *x->marks))
    return false;
  memcpy(x->marks + x->nmarks, e->marks, e->nmarks * sizeof *e->marks);
  FuncMarks fm = {(uintptr_t)code, (uintptr_t)code + e->code.n, x->nmarks, e->nmarks};
  x->nmarks += e->nmarks;
  uint32_t i = x->nfuncs; /* code mostly grows upwards: insert from the end */
  while (i && x->funcs[i - 1].start > fm.start) i--;
  memmove(x->funcs + i + 1, x->funcs + i, (x->nfuncs - i) * sizeof *x->funcs);
  x->funcs[i] = fm;
  x->nfuncs++;
  return true;
}

bool kit_baseline_fault_value(const KitBaseline *x, uintptr_t pc, uint64_t *value) {
  if (!x || !x->nfuncs) return false;
  uint32_t lo = 0, hi = x->nfuncs; /* the last function starting at or before pc */
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (x->funcs[mid].start <= pc) lo = mid;
    else hi = mid;
  }
  const FuncMarks *f = &x->funcs[lo];
  if (pc < f->start || pc >= f->end) return false;
  uint32_t off = (uint32_t)(pc - f->start);
  const FaultMark *m = NULL;
  for (uint32_t i = 0; i < f->n && x->marks[f->first + i].off <= off; i++) m = &x->marks[f->first + i];
  if (!m) return false;
  *value = m->value;
  return true;
}

KitBaseline *kit_baseline_new(KitCgResolver resolve, void *user) {
#if !defined(__x86_64__)
  return NULL; /* its code would not run here */
#endif
  KitBaseline *x = calloc(1, sizeof *x);
  if (!x) return NULL;
  x->resolve = resolve;
  x->user = user;
  return x;
}

void kit_baseline_free(KitBaseline *x) {
  /* code chunks stay mapped: code may still be running or linked to */
  if (!x) return;
  free(x->funcs);
  free(x->marks);
  free(x);
}

size_t kit_baseline_code_size(const KitBaseline *x) { return x ? x->total : 0; }
