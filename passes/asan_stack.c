/* passes/asan_stack.c — ASan's stack frames: which stack objects get
 * redzones (escaping ones the pass cannot prove safe), their layout in one
 * frame object (clang's ASanStackFrameLayout rules, so offsets in reports
 * match), the frame header the runtime reads (magic, description, pc), shadow
 * poisoning at entry and unpoisoning at every return, use-after-scope through
 * lifetime markers, fake frames for use-after-return, and redzones around
 * dynamic allocas (VLAs, alloca()). */
#include "asan_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRANULE 8
#define MIN_HEADER 32
#define MIN_ALIGN 16
#define MAX_FAKE_CLASS 10

/* Is every use of every pointer into object `obj` an in-bounds access at a
 * constant offset (and never the address itself leaving)? */
static bool object_safe(AsanFn *A, uint32_t obj) {
  KitCgFunc *f = A->f;
  uint64_t limit = A->obj_size[obj];
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      for (uint32_t k = 0; k < in->nargs; k++) {
        KitCgVal v = in->args[k];
        if (!v || v >= A->nvals0 || A->fact[v].kind != FACT_STACK || A->fact[v].id != obj) continue;
        int64_t off = A->fact[v].off;
        uint64_t size;
        switch (in->op) {
        case KIT_CG_OP_LOAD:
        case KIT_CG_OP_ALOAD:
          if (k != 0) return false;
          size = asan_type_access_size(in->type);
          break;
        case KIT_CG_OP_STORE:
        case KIT_CG_OP_ASTORE:
          if (k != 1) return false;
          size = asan_type_access_size(kit_cg_val_type(f, in->args[0]));
          break;
        case KIT_CG_OP_ARMW:
        case KIT_CG_OP_ACMPXCHG:
          if (k != 0) return false;
          size = asan_type_access_size(in->type);
          break;
        case KIT_CG_OP_PTRADD:
          if (k != 0 || in->args[1] >= A->nvals0 || A->fact[in->args[1]].kind != FACT_CONST) return false;
          continue; /* the result is checked through its own uses */
        case KIT_CG_OP_MEMCPY:
        case KIT_CG_OP_MEMMOVE:
        case KIT_CG_OP_MEMSET:
          if (k == 2 || (in->op == KIT_CG_OP_MEMSET && k == 1)) return false;
          if (in->args[2] >= A->nvals0 || A->fact[in->args[2]].kind != FACT_CONST || A->fact[in->args[2]].off < 0)
            return false;
          size = (uint64_t)A->fact[in->args[2]].off;
          break;
        default:
          return false;
        }
        if (off < 0 || (uint64_t)off > limit || size > limit - (uint64_t)off) return false;
      }
    }
  return true;
}

static uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

static uint64_t var_and_redzone(uint64_t size, uint64_t align) {
  uint64_t r = size <= 4 ? 16 : size <= 16 ? 32 : size <= 128 ? size + 32 : size <= 512 ? size + 64
                                                : size <= 4096 ? size + 128 : size + 256;
  return align_up(r < 2 * GRANULE ? 2 * GRANULE : r, align);
}

static int by_align_desc(const void *x, const void *y) {
  const AsanVar *a = x, *b = y;
  if (a->align != b->align) return a->align > b->align ? -1 : 1;
  return a->obj < b->obj ? -1 : a->obj > b->obj; /* stable */
}

void asan_stack_plan(AsanFn *A) {
  KitCgFunc *f = A->f;
  uint32_t nobj = f->nstack;
  bool *scoped = calloc(nobj + 1, 1), *vol = calloc(nobj + 1, 1);
  A->vars = calloc(nobj + 1, sizeof *A->vars);
  if (!scoped || !vol || !A->vars) abort();
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      if ((in->op == KIT_CG_OP_LIFETIME_START || in->op == KIT_CG_OP_LIFETIME_END) && in->aux < nobj)
        scoped[in->aux] = true;
      /* a volatile access keeps an object in memory for LLVM (no promotion),
       * so clang's ASan gives it a frame slot: the reports list it */
      KitCgVal at = in->op == KIT_CG_OP_LOAD ? in->args[0] : in->op == KIT_CG_OP_STORE ? in->args[1] : 0;
      if ((in->flags & KIT_CG_F_VOLATILE) && at && at < A->nvals0 && A->fact[at].kind == FACT_STACK &&
          A->fact[at].id < nobj)
        vol[A->fact[at].id] = true;
    }
  for (uint32_t o = 0; o < nobj; o++) {
    const KitCgStackObj *so = &f->stack[o];
    if (!(so->escapes || vol[o]) || !so->size) continue;
    if (A->c->skip_safe && !vol[o] && object_safe(A, o)) continue;
    uint32_t al = so->align > MIN_ALIGN ? so->align : MIN_ALIGN;
    A->vars[A->nvars++] = (AsanVar){.obj = o, .size = so->size, .align = al, .scoped = scoped[o]};
  }
  free(scoped);
  free(vol);
  if (!A->nvars) return;
  qsort(A->vars, A->nvars, sizeof *A->vars, by_align_desc);
  uint64_t off = A->vars[0].align > MIN_HEADER ? A->vars[0].align : MIN_HEADER;
  for (uint32_t i = 0; i < A->nvars; i++) {
    uint64_t next_align = i + 1 < A->nvars ? A->vars[i + 1].align : GRANULE;
    A->vars[i].off = off;
    off += var_and_redzone(A->vars[i].size, next_align);
  }
  A->frame_size = align_up(off, MIN_HEADER);
  A->frame_align = A->vars[0].align > 32 ? A->vars[0].align : 32;
  A->var_of = malloc((nobj + 1) * sizeof *A->var_of);
  if (!A->var_of) abort();
  for (uint32_t o = 0; o <= nobj; o++) A->var_of[o] = -1;
  for (uint32_t i = 0; i < A->nvars; i++) A->var_of[A->vars[i].obj] = (int32_t)i;
  A->fake_class = -1;
  if (A->c->use_after_return && !(f->attrs & KIT_CG_FA_RETURNS_TWICE))
    for (int cls = 0; cls <= MAX_FAKE_CLASS; cls++)
      if ((64ull << cls) >= A->frame_size) {
        A->fake_class = cls;
        break;
      }
}

/* the "N off size len name[:line] ..." string the runtime's frame report reads */
static KitCgSym make_description(AsanFn *A) {
  size_t cap = 32 + A->nvars * 64, n = 0;
  char *s = malloc(cap);
  if (!s) abort();
  n += (size_t)snprintf(s, cap, "%u", A->nvars);
  for (uint32_t i = 0; i < A->nvars; i++) {
    const KitCgStackObj *so = &A->f->stack[A->vars[i].obj];
    const char *nm = so->name ? kit_cg_strget(A->m, so->name) : "";
    char name[160];
    if (!*nm) nm = "<tmp>";
    if (so->loc.line)
      snprintf(name, sizeof name, "%.120s:%u", nm, so->loc.line);
    else
      snprintf(name, sizeof name, "%.120s", nm);
    if (n + strlen(name) + 64 > cap) {
      cap = cap * 2 + strlen(name) + 64;
      s = realloc(s, cap);
      if (!s) abort();
    }
    n += (size_t)snprintf(s + n, cap - n, " %llu %llu %zu %s", (unsigned long long)A->vars[i].off,
                          (unsigned long long)A->vars[i].size, strlen(name), name);
  }
  KitCgSym sym = asan_cstring(A->m, s);
  free(s);
  return sym;
}

/* Shadow stores are volatile: LLVM's optimizer (which runs after this pass,
 * unlike clang's ASan) would otherwise merge them into a memset call, and the
 * runtime's memset checks its arguments against the shadow of the shadow. */
static void shadow_store(AsanFn *A, const KitCgVal *x) {
  KitCgInst *st = asan_emit(A, KIT_CG_OP_STORE, KIT_CG_VOID, x, 2);
  st->imm = 1;
  st->flags |= KIT_CG_F_VOLATILE;
}

/* for (k = 0; k < words; k++) ((i64 *)at)[k] = byte * 0x0101010101010101: a
 * loop of plain stores (a memset would call the runtime's checking memset) */
static void fill_loop(AsanFn *A, KitCgVal at, uint8_t byte, uint64_t words) {
  KitCgBlkId from = A->b.blk, head = kit_cg_block_new(A->m, A->f), done = kit_cg_block_new(A->m, A->f);
  KitCgVal zero = asan_i64(A, 0);
  KitCgVal pattern = asan_i64(A, byte * 0x0101010101010101ull);
  kit_cg_br(&A->b, head);
  kit_cg_builder_at(&A->b, head);
  KitCgInst *phi = kit_cg_phi(&A->b, KIT_CG_I64);
  KitCgVal k = phi->id;
  kit_cg_phi_add(A->m, phi, zero, from);
  KitCgVal x[2] = {k, asan_i64(A, 8)};
  KitCgVal off = asan_emit(A, KIT_CG_OP_MUL, KIT_CG_I64, x, 2)->id;
  x[0] = at;
  x[1] = off;
  KitCgVal p = asan_emit(A, KIT_CG_OP_PTRADD, KIT_CG_PTR, x, 2)->id;
  x[0] = pattern;
  x[1] = p;
  shadow_store(A, x);
  x[0] = k;
  x[1] = asan_i64(A, 1);
  KitCgVal next = asan_emit(A, KIT_CG_OP_ADD, KIT_CG_I64, x, 2)->id;
  x[0] = next;
  x[1] = asan_i64(A, words);
  KitCgInst *more = asan_emit(A, KIT_CG_OP_ICMP, KIT_CG_I1, x, 2);
  more->pred = KIT_CG_ULT;
  kit_cg_condbr(&A->b, more->id, head, done);
  kit_cg_phi_add(A->m, &A->f->blocks[head].insts[0], next, head);
  kit_cg_builder_at(&A->b, done);
}

void asan_shadow_write(AsanFn *A, KitCgVal base, uint64_t off, const uint8_t *bytes, uint64_t n) {
  KitCgVal a = asan_emit(A, KIT_CG_OP_PTRTOINT, KIT_CG_I64, &base, 1)->id;
  KitCgVal sp = asan_shadow_ptr(A, a);
  uint64_t i = 0;
  while (i < n) {
    uint64_t run = 1;
    while (i + run < n && bytes[i + run] == bytes[i]) run++;
    KitCgVal x[3] = {sp, asan_i64(A, off / GRANULE + i)};
    KitCgVal at = asan_emit(A, KIT_CG_OP_PTRADD, KIT_CG_PTR, x, 2)->id;
    if (run >= 64) {
      uint64_t words = run / 8;
      fill_loop(A, at, bytes[i], words);
      i += words * 8;
      continue;
    }
    unsigned w = n - i >= 8 ? 8 : n - i >= 4 ? 4 : n - i >= 2 ? 2 : 1;
    uint64_t v = 0;
    for (unsigned k = 0; k < w; k++) v |= (uint64_t)bytes[i + k] << (8 * k);
    KitCgType t = w == 8 ? KIT_CG_I64 : w == 4 ? KIT_CG_I32 : w == 2 ? KIT_CG_I16 : KIT_CG_I8;
    x[0] = kit_cg_iconst(&A->b, t, v);
    x[1] = at;
    shadow_store(A, x);
    i += w;
  }
}

/* the shadow of the whole frame as the prologue leaves it */
static uint8_t *frame_shadow(AsanFn *A) {
  uint64_t n = A->frame_size / GRANULE;
  uint8_t *s = malloc(n);
  if (!s) abort();
  memset(s, 0xf2, n);
  memset(s, 0xf1, A->vars[0].off / GRANULE);
  for (uint32_t i = 0; i < A->nvars; i++) {
    const AsanVar *v = &A->vars[i];
    uint64_t g = v->off / GRANULE, full = v->size / GRANULE, part = v->size % GRANULE;
    bool poisoned = v->scoped && A->c->use_after_scope;
    memset(s + g, poisoned ? 0xf8 : 0, full);
    if (part) s[g + full] = poisoned ? 0xf8 : (uint8_t)part;
    if (i + 1 == A->nvars) {
      uint64_t end = g + full + (part ? 1 : 0);
      memset(s + end, 0xf3, n - end);
    }
  }
  return s;
}

static KitCgSym fake_fn(AsanFn *A, bool is_free) {
  char name[40];
  snprintf(name, sizeof name, "__asan_stack_%s_%d", is_free ? "free" : "malloc", A->fake_class);
  KitCgType p[2] = {KIT_CG_I64, KIT_CG_I64};
  return is_free ? kit_pass_runtime_fn(A->m, name, KIT_CG_VOID, p, 2, false) : kit_pass_runtime_fn(A->m, name, KIT_CG_I64, p + 1, 1, false);
}

/* Debug info: a variable on an object moved into the frame now lives at its
 * offset there. When a fake frame is possible the frame's address is a value,
 * so it is kept in a slot of its own that the variables dereference (clang's
 * asan_local_stack_base). */
static void rebind_divars(AsanFn *A, uint32_t frame_obj) {
  KitCgFunc *f = A->f;
  bool any = false;
  for (uint32_t i = 0; i < f->ndivars; i++) {
    const KitCgDiVar *v = &f->divars[i];
    any |= v->at == KIT_CG_DV_STACK && v->where < f->nstack && A->var_of[v->where] >= 0;
  }
  if (!any) return;
  uint32_t base = frame_obj;
  if (A->fake_class >= 0) {
    base = kit_cg_stack_new(A->m, f, 8, 8, kit_cg_str(A->m, "asan.frame.base"));
    f->stack[base].escapes = 0;
    KitCgVal x[2] = {A->frame, kit_cg_stackaddr(&A->b, base)};
    asan_emit(A, KIT_CG_OP_STORE, KIT_CG_VOID, x, 2)->imm = 8;
  }
  for (uint32_t i = 0; i < f->ndivars; i++) {
    KitCgDiVar *v = &f->divars[i];
    if (v->at != KIT_CG_DV_STACK || v->where >= f->nstack || A->var_of[v->where] < 0) continue;
    v->offset += A->vars[A->var_of[v->where]].off;
    v->where = base;
    v->deref = A->fake_class >= 0;
  }
}

void asan_stack_prologue(AsanFn *A) {
  KitCgFunc *f = A->f;
  uint32_t fo = kit_cg_stack_new(A->m, f, A->frame_size, A->frame_align, kit_cg_str(A->m, "asan.frame"));
  KitCgVal real = kit_cg_stackaddr(&A->b, fo);
  A->frame = real;
  A->fake = 0;
  if (A->fake_class >= 0) {
    /* fake = flag ? __asan_stack_malloc_N(size) : 0; frame = fake ? fake : real */
    KitCgSym flag = kit_cg_sym_find(A->m, "__asan_option_detect_stack_use_after_return");
    if (flag == UINT32_MAX) {
      KitCgGlobal *g = kit_cg_global_declare(A->m, "__asan_option_detect_stack_use_after_return");
      g->size = 4;
      g->align = 4;
      flag = g->sym;
    }
    KitCgVal zero = asan_i64(A, 0);
    KitCgVal fa = kit_cg_symaddr(&A->b, flag, 0);
    KitCgVal on = asan_emit(A, KIT_CG_OP_LOAD, KIT_CG_I32, &fa, 1)->id;
    KitCgVal x[3] = {on, kit_cg_iconst(&A->b, KIT_CG_I32, 0)};
    KitCgInst *cmp = asan_emit(A, KIT_CG_OP_ICMP, KIT_CG_I1, x, 2);
    cmp->pred = KIT_CG_NE;
    KitCgBlkId from = A->b.blk, mk = kit_cg_block_new(A->m, f), join = kit_cg_block_new(A->m, f);
    kit_cg_condbr(&A->b, cmp->id, mk, join);
    kit_cg_builder_at(&A->b, mk);
    KitCgVal size = asan_i64(A, A->frame_size);
    KitCgVal got = asan_call(A, fake_fn(A, false), KIT_CG_I64, &size, 1);
    kit_cg_br(&A->b, join);
    kit_cg_builder_at(&A->b, join);
    KitCgInst *phi = kit_cg_phi(&A->b, KIT_CG_I64);
    A->fake = phi->id;
    kit_cg_phi_add(A->m, phi, zero, from);
    phi = &f->blocks[join].insts[0];
    kit_cg_phi_add(A->m, phi, got, mk);
    KitCgVal ri = asan_emit(A, KIT_CG_OP_PTRTOINT, KIT_CG_I64, &real, 1)->id;
    x[0] = A->fake;
    x[1] = zero;
    KitCgInst *isfake = asan_emit(A, KIT_CG_OP_ICMP, KIT_CG_I1, x, 2);
    isfake->pred = KIT_CG_NE;
    x[0] = isfake->id;
    x[1] = A->fake;
    x[2] = ri;
    KitCgVal fr = asan_emit(A, KIT_CG_OP_SELECT, KIT_CG_I64, x, 3)->id;
    A->frame = asan_emit(A, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, &fr, 1)->id;
  }
  /* the header the runtime finds at the frame's first f1 granule */
  A->desc = make_description(A);
  KitCgVal words[3] = {asan_i64(A, 0x41B58AB3ull), kit_cg_symaddr(&A->b, A->desc, 0),
                       kit_cg_symaddr(&A->b, f->sym, 0)};
  for (int i = 0; i < 3; i++) {
    KitCgVal x[2] = {A->frame, asan_i64(A, 8 * (uint64_t)i)};
    KitCgVal at = asan_emit(A, KIT_CG_OP_PTRADD, KIT_CG_PTR, x, 2)->id;
    x[0] = words[i];
    x[1] = at;
    asan_emit(A, KIT_CG_OP_STORE, KIT_CG_VOID, x, 2)->imm = 8;
  }
  uint8_t *sh = frame_shadow(A);
  asan_shadow_write(A, A->frame, 0, sh, A->frame_size / GRANULE);
  free(sh);
  for (uint32_t i = 0; i < A->nvars; i++) A->vars[i].offval = asan_i64(A, A->vars[i].off);
  /* the objects now live in the frame: their own slots shrink to nothing */
  for (uint32_t i = 0; i < A->nvars; i++) f->stack[A->vars[i].obj].size = 0;
  rebind_divars(A, fo);
}

void asan_stack_lifetime(AsanFn *A, uint32_t var, bool start) {
  const AsanVar *v = &A->vars[var];
  uint64_t n = (v->size + GRANULE - 1) / GRANULE;
  uint8_t *s = malloc(n);
  if (!s) abort();
  memset(s, start ? 0 : 0xf8, n);
  if (start && v->size % GRANULE) s[n - 1] = (uint8_t)(v->size % GRANULE);
  asan_shadow_write(A, A->frame, v->off, s, n);
  free(s);
}

static void unpoison_frame(AsanFn *A, KitCgVal frame) {
  uint64_t n = A->frame_size / GRANULE;
  uint8_t *z = calloc(n, 1);
  if (!z) abort();
  asan_shadow_write(A, frame, 0, z, n);
  free(z);
}

void asan_stack_epilogue(AsanFn *A) {
  if (A->fake_class < 0) {
    unpoison_frame(A, A->frame);
    return;
  }
  KitCgVal x[2] = {A->fake, asan_i64(A, 0)};
  KitCgInst *isfake = asan_emit(A, KIT_CG_OP_ICMP, KIT_CG_I1, x, 2);
  isfake->pred = KIT_CG_NE;
  KitCgBlkId fr = kit_cg_block_new(A->m, A->f), unp = kit_cg_block_new(A->m, A->f), join = kit_cg_block_new(A->m, A->f);
  kit_cg_condbr(&A->b, isfake->id, fr, unp);
  kit_cg_builder_at(&A->b, fr);
  x[1] = asan_i64(A, A->frame_size);
  asan_call(A, fake_fn(A, true), KIT_CG_VOID, x, 2);
  kit_cg_br(&A->b, join);
  kit_cg_builder_at(&A->b, unp);
  unpoison_frame(A, A->frame);
  kit_cg_br(&A->b, join);
  kit_cg_builder_at(&A->b, join);
}

/* ---- dynamic allocas --------------------------------------------------------- */

#define ALLOCA_RZ 32

static KitCgSym rt_unpoison(AsanFn *A) {
  KitCgType p[2] = {KIT_CG_I64, KIT_CG_I64};
  return kit_pass_runtime_fn(A->m, "__asan_allocas_unpoison", KIT_CG_VOID, p, 2, false);
}

/* Two slots: the lowest start and the highest end of the allocas made so far.
 * After inlining, LLVM may turn a constant-size alloca into a static one above
 * the entry stack pointer, so the range to clear at return is [low, high), not
 * [last alloca, entry sp). */
void asan_alloca_prologue(AsanFn *A) {
  A->last_alloca = kit_cg_stack_new(A->m, A->f, 16, 8, kit_cg_str(A->m, "asan.alloca.range"));
  A->f->stack[A->last_alloca].escapes = 0;
  KitCgVal slot = kit_cg_stackaddr(&A->b, A->last_alloca);
  KitCgVal x[2] = {asan_i64(A, ~0ull), slot};
  asan_emit(A, KIT_CG_OP_STORE, KIT_CG_VOID, x, 2);
  x[0] = slot;
  x[1] = asan_i64(A, 8);
  x[1] = asan_emit(A, KIT_CG_OP_PTRADD, KIT_CG_PTR, x, 2)->id;
  x[0] = asan_i64(A, 0);
  asan_emit(A, KIT_CG_OP_STORE, KIT_CG_VOID, x, 2);
}

/* slot 0 (low) or 1 (high) of the range */
static KitCgVal range_slot(AsanFn *A, int which) {
  KitCgVal slot = kit_cg_stackaddr(&A->b, A->last_alloca);
  if (!which) return slot;
  KitCgVal x[2] = {slot, asan_i64(A, 8)};
  return asan_emit(A, KIT_CG_OP_PTRADD, KIT_CG_PTR, x, 2)->id;
}

static void range_update(AsanFn *A, int which, KitCgVal v) {
  KitCgVal at = range_slot(A, which);
  KitCgVal old = asan_emit(A, KIT_CG_OP_LOAD, KIT_CG_I64, &at, 1)->id;
  KitCgVal x[2] = {old, v};
  x[0] = asan_emit(A, which ? KIT_CG_OP_UMAX : KIT_CG_OP_UMIN, KIT_CG_I64, x, 2)->id;
  x[1] = at;
  asan_emit(A, KIT_CG_OP_STORE, KIT_CG_VOID, x, 2);
}

void asan_alloca(AsanFn *A, KitCgInst *in) {
  uint64_t align = in->imm > ALLOCA_RZ ? in->imm : ALLOCA_RZ;
  KitCgVal size = in->args[0];
  KitCgVal x[2] = {size, asan_i64(A, ALLOCA_RZ - 1)};
  KitCgVal partial = asan_emit(A, KIT_CG_OP_AND, KIT_CG_I64, x, 2)->id;
  x[0] = asan_i64(A, ALLOCA_RZ);
  x[1] = partial;
  KitCgVal pad = asan_emit(A, KIT_CG_OP_SUB, KIT_CG_I64, x, 2)->id;
  x[0] = pad;
  x[1] = asan_i64(A, ALLOCA_RZ - 1);
  pad = asan_emit(A, KIT_CG_OP_AND, KIT_CG_I64, x, 2)->id;
  x[0] = size;
  x[1] = pad;
  KitCgVal total = asan_emit(A, KIT_CG_OP_ADD, KIT_CG_I64, x, 2)->id;
  x[0] = total;
  x[1] = asan_i64(A, align + ALLOCA_RZ);
  total = asan_emit(A, KIT_CG_OP_ADD, KIT_CG_I64, x, 2)->id;
  KitCgInst *raw = asan_emit(A, KIT_CG_OP_ALLOCA, KIT_CG_PTR, &total, 1);
  raw->imm = align;
  KitCgVal rawp = raw->id;
  KitCgVal rawi = asan_emit(A, KIT_CG_OP_PTRTOINT, KIT_CG_I64, &rawp, 1)->id;
  range_update(A, 0, rawi);
  x[0] = rawi;
  x[1] = total;
  range_update(A, 1, asan_emit(A, KIT_CG_OP_ADD, KIT_CG_I64, x, 2)->id);
  x[0] = rawp;
  x[1] = asan_i64(A, align);
  KitCgVal user = asan_emit(A, KIT_CG_OP_PTRADD, KIT_CG_PTR, x, 2)->id;
  KitCgVal ui = asan_emit(A, KIT_CG_OP_PTRTOINT, KIT_CG_I64, &user, 1)->id;
  KitCgType p[2] = {KIT_CG_I64, KIT_CG_I64};
  x[0] = ui;
  x[1] = size;
  asan_call(A, kit_pass_runtime_fn(A->m, "__asan_alloca_poison", KIT_CG_VOID, p, 2, false), KIT_CG_VOID, x, 2);
  /* the original instruction keeps its value id: now the user pointer */
  KitCgVal *args = kit_cg_alloc(A->m, 2 * sizeof(KitCgVal));
  args[0] = user;
  args[1] = asan_i64(A, 0);
  in->op = KIT_CG_OP_PTRADD;
  in->args = args;
  in->nargs = 2;
  in->imm = 0;
  in->flags |= KIT_CG_F_NOINSTR;
}

void asan_allocas_unpoison(AsanFn *A, KitCgVal bottom) {
  KitCgVal at = range_slot(A, 0);
  KitCgVal top = asan_emit(A, KIT_CG_OP_LOAD, KIT_CG_I64, &at, 1)->id;
  if (!bottom) { /* return: everything made since entry */
    at = range_slot(A, 1);
    bottom = asan_emit(A, KIT_CG_OP_LOAD, KIT_CG_I64, &at, 1)->id;
  }
  KitCgVal x[2] = {top, bottom};
  asan_call(A, rt_unpoison(A), KIT_CG_VOID, x, 2);
}
