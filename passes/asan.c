/* passes/asan.c — the AddressSanitizer pass over CG: the compiled-mode
 * config, per-function pointer facts (what a value points into at which
 * constant offset), the body rewrite that splits blocks around inline checks,
 * and the rules for skipping provably safe accesses. One pass for kitcc and
 * kit-emu: what differs is KitAsanConfig. */
#include "asan_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kit_asan_config_compiled(KitAsanConfig *c, bool recover) {
  memset(c, 0, sizeof *c);
  c->shadow_offset = 0x7fff8000ull;
  c->stack = true;
  c->globals = true;
  c->use_after_scope = true;
  c->use_after_return = true;
  c->recover = recover;
  c->skip_safe = true;
}

/* ---- emission helpers ---------------------------------------------------- */

KitCgInst *asan_emit(AsanFn *A, KitCgOp op, KitCgType t, const KitCgVal *args, uint32_t n) {
  KitCgInst *in = kit_cg_emit(&A->b, op, t, args, n);
  in->flags |= KIT_CG_F_NOINSTR;
  if (kit_cg_op_info[op].flags & KIT_CGO_MEM) in->cls = KIT_CG_INTERNAL;
  return in;
}

KitCgVal asan_i64(AsanFn *A, uint64_t v) { return kit_cg_iconst(&A->b, KIT_CG_I64, v); }


KitCgVal asan_call(AsanFn *A, KitCgSym fn, KitCgType ret, const KitCgVal *args, uint32_t n) {
  KitCgInst *in = kit_cg_emit(&A->b, KIT_CG_OP_CALL, ret, args, n);
  in->aux = fn;
  in->flags |= KIT_CG_F_NOINSTR;
  return in->id;
}

KitCgVal asan_shadow_ptr(AsanFn *A, KitCgVal a) {
  KitCgVal args[2] = {a, asan_i64(A, 3)};
  KitCgVal sh = asan_emit(A, KIT_CG_OP_LSHR, KIT_CG_I64, args, 2)->id;
  args[0] = sh;
  args[1] = A->c->shadow_base ? A->c->shadow_base(A->c->user, &A->b) : asan_i64(A, A->c->shadow_offset);
  KitCgVal s = asan_emit(A, KIT_CG_OP_ADD, KIT_CG_I64, args, 2)->id;
  return asan_emit(A, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, &s, 1)->id;
}

KitCgSym asan_cstring(KitCgModule *m, const char *s) {
  static unsigned counter;
  char name[48];
  do snprintf(name, sizeof name, ".asan.str.%u", counter++);
  while (kit_cg_sym_find(m, name) != UINT32_MAX);
  size_t n = strlen(s) + 1;
  KitCgGlobal *g = kit_cg_global_new(m, name, n, 1);
  kit_cg_global_set_init(m, g, s, n);
  g->is_const = true;
  g->no_redzone = true;
  m->syms[g->sym].linkage = KIT_CG_LINK_INTERNAL;
  return g->sym;
}

uint64_t asan_type_access_size(KitCgType t) {
  if (t == KIT_CG_F80) return 10; /* x87 stores 10 bytes of its 16-byte slot */
  return kit_cg_type_size(t);
}

/* ---- pointer facts -------------------------------------------------------- */

static void compute_facts(AsanFn *A) {
  KitCgFunc *f = A->f;
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      if (!in->id || in->id >= A->nvals0) continue;
      AsanFact *x = &A->fact[in->id];
      if (in->op == KIT_CG_OP_STACKADDR && in->aux < f->nstack) {
        *x = (AsanFact){FACT_STACK, in->aux, 0};
      } else if (in->op == KIT_CG_OP_SYMADDR && in->aux < A->m->nsyms &&
                 A->m->syms[in->aux].kind == KIT_CG_SYM_GLOBAL) {
        *x = (AsanFact){FACT_GLOBAL, in->aux, (int64_t)in->imm};
      } else if (in->op == KIT_CG_OP_CONST && kit_cg_type_is_int(in->type) && in->type != KIT_CG_I128) {
        unsigned bits = kit_cg_type_bits(in->type);
        int64_t v = (int64_t)in->imm;
        if (bits < 64) v = (int64_t)(in->imm << (64 - bits)) >> (64 - bits);
        *x = (AsanFact){FACT_CONST, 0, v};
      }
    }
  /* ptradd chains, in whatever order their blocks come */
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t bi = 0; bi < f->nblocks; bi++)
      for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
        const KitCgInst *in = &f->blocks[bi].insts[i];
        if (in->op != KIT_CG_OP_PTRADD || in->nargs != 2 || !in->id || in->id >= A->nvals0) continue;
        if (A->fact[in->id].kind != FACT_NONE) continue;
        KitCgVal p = in->args[0], o = in->args[1];
        if (p >= A->nvals0 || o >= A->nvals0) continue;
        const AsanFact *base = &A->fact[p], *off = &A->fact[o];
        if ((base->kind == FACT_STACK || base->kind == FACT_GLOBAL) && off->kind == FACT_CONST) {
          A->fact[in->id] = (AsanFact){base->kind, base->id, base->off + off->off};
          changed = true;
        }
      }
  }
}

/* A global whose size the pass can trust: defined here with a size, not
 * replaceable at link time (weak, common), not TLS. */
static bool global_size_known(const KitCgModule *m, KitCgSym s, uint64_t *size) {
  const KitCgSymbol *sy = &m->syms[s];
  if (!sy->defined || sy->kind != KIT_CG_SYM_GLOBAL) return false;
  if (sy->linkage == KIT_CG_LINK_WEAK || sy->linkage == KIT_CG_LINK_COMMON) return false;
  const KitCgGlobal *g = m->globals[sy->index];
  if (!g->size) return false;
  *size = g->size;
  return true;
}

bool asan_provably_safe(AsanFn *A, KitCgVal p, uint64_t size) {
  if (!A->c->skip_safe || !p || p >= A->nvals0) return false;
  const AsanFact *x = &A->fact[p];
  uint64_t limit;
  if (x->kind == FACT_STACK) {
    int32_t v = A->var_of ? A->var_of[x->id] : -1;
    /* an object in scope only part of the time must keep its checks */
    if (v >= 0 && A->vars[v].scoped && A->c->use_after_scope) return false;
    limit = A->obj_size[x->id];
  } else if (x->kind == FACT_GLOBAL) {
    if (!global_size_known(A->m, x->id, &limit)) return false;
  } else {
    return false;
  }
  return x->off >= 0 && (uint64_t)x->off <= limit && size <= limit - (uint64_t)x->off;
}

/* ---- the body rewrite ----------------------------------------------------- */

static bool instrumentable(const KitCgInst *in) {
  return in->cls == KIT_CG_PROGRAM && !(in->flags & KIT_CG_F_NOINSTR);
}


static bool callee_noreturn(const AsanFn *A, const KitCgInst *in) {
  if (in->op != KIT_CG_OP_CALL || in->aux >= A->m->nsyms) return false;
  const KitCgSymbol *sy = &A->m->syms[in->aux];
  return sy->kind == KIT_CG_SYM_FUNC && (A->m->funcs[sy->index]->attrs & KIT_CG_FA_NORETURN);
}

static void check(AsanFn *A, KitCgVal ptr, KitCgType t, bool is_write) {
  uint64_t size = asan_type_access_size(t);
  if (!asan_provably_safe(A, ptr, size)) asan_check_access(A, ptr, size, is_write);
}

/* as clang: the direct outputs of an asm are stores after it (checked here,
 * before it); its memory operands are the asm's own accesses (not checked) */
static void check_asm_outputs(AsanFn *A, const KitCgInst *in) {
  const char *cons = in->imm < A->m->nstrs ? kit_cg_strget(A->m, (uint32_t)in->imm) : "";
  int n = kit_cg_asm_entries(cons, NULL, 0);
  uint8_t *kinds = n > 0 && in->argattrs ? malloc((size_t)n) : NULL;
  if (!kinds) return;
  kit_cg_asm_entries(cons, kinds, n);
  for (uint32_t e = 0, k = 0; e < (uint32_t)n && k < in->nargs; e++) {
    if (!kit_cg_asm_takes_arg(kinds[e])) continue;
    if (kinds[e] == KIT_CG_ASM_OUT) check(A, in->args[k], (KitCgType)in->argattrs[k].type, true);
    k++;
  }
  free(kinds);
}

static void rewrite_inst(AsanFn *A, const KitCgInst *orig, bool next_unreachable) {
  KitCgInst in = *orig;
  A->b.loc = in.loc;
  switch (in.op) {
  case KIT_CG_OP_LOAD:
  case KIT_CG_OP_ALOAD:
    if (instrumentable(&in)) check(A, in.args[0], in.type, false);
    break;
  case KIT_CG_OP_STORE:
  case KIT_CG_OP_ASTORE:
    if (instrumentable(&in)) check(A, in.args[1], kit_cg_val_type(A->f, in.args[0]), true);
    break;
  case KIT_CG_OP_ARMW:
  case KIT_CG_OP_ACMPXCHG:
    if (instrumentable(&in)) check(A, in.args[0], in.type, true);
    break;
  case KIT_CG_OP_ASM:
    if (instrumentable(&in)) check_asm_outputs(A, &in);
    break;
  case KIT_CG_OP_MEMCPY:
  case KIT_CG_OP_MEMMOVE:
  case KIT_CG_OP_MEMSET:
    if (instrumentable(&in) && !asan_memop(A, &in)) return;
    break;
  case KIT_CG_OP_STACKADDR:
    if (A->var_of && in.aux < A->f->nstack && A->var_of[in.aux] >= 0) {
      /* the object now lives inside the ASan frame */
      KitCgVal *args = kit_cg_alloc(A->m, 2 * sizeof(KitCgVal));
      args[0] = A->frame;
      args[1] = A->vars[A->var_of[in.aux]].offval;
      in.op = KIT_CG_OP_PTRADD;
      in.args = args;
      in.nargs = 2;
      in.aux = 0;
    }
    break;
  case KIT_CG_OP_LIFETIME_START:
  case KIT_CG_OP_LIFETIME_END:
    if (A->var_of && in.aux < A->f->nstack && A->var_of[in.aux] >= 0) {
      if (A->c->use_after_scope) asan_stack_lifetime(A, (uint32_t)A->var_of[in.aux], in.op == KIT_CG_OP_LIFETIME_START);
      return;
    }
    break;
  case KIT_CG_OP_CALL:
    if (A->nvars && (callee_noreturn(A, &in) || next_unreachable)) {
      /* longjmp, exit, abort: the frames being left keep no poisoned redzones */
      KitCgSym h = kit_pass_runtime_fn(A->m, "__asan_handle_no_return", KIT_CG_VOID, NULL, 0, false);
      asan_call(A, h, KIT_CG_VOID, NULL, 0);
    }
    break;
  case KIT_CG_OP_ALLOCA:
    if (A->has_alloca) asan_alloca(A, &in); /* in becomes the user pointer */
    break;
  case KIT_CG_OP_STACKRESTORE:
    if (A->has_alloca) {
      KitCgVal sp = asan_emit(A, KIT_CG_OP_PTRTOINT, KIT_CG_I64, &in.args[0], 1)->id;
      asan_allocas_unpoison(A, sp);
    }
    break;
  case KIT_CG_OP_RET:
    if (A->has_alloca) asan_allocas_unpoison(A, 0);
    if (A->nvars) asan_stack_epilogue(A);
    break;
  default:
    break;
  }
  kit_pass_append_original(A->m, A->f, A->b.blk, &in);
}

static void fix_phis(KitCgFunc *f, uint32_t norig, const KitCgBlkId *tail) {
  /* phis stay at the head of their original block; the pass's own are elsewhere */
  for (uint32_t bi = 0; bi < norig; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      KitCgInst *in = &f->blocks[bi].insts[i];
      if (in->op != KIT_CG_OP_PHI) continue;
      for (uint32_t k = 0; k < in->nblks; k++)
        if (in->blks[k] < norig) in->blks[k] = tail[in->blks[k]];
    }
}

static void instrument_function(KitCgModule *m, KitCgFunc *f, const KitAsanConfig *c) {
  AsanFn A = {.m = m, .f = f, .c = c, .nvals0 = f->nvals, .fake_class = -1};
  kit_cg_builder_init(&A.b, m, f);
  A.fact = calloc(f->nvals + 1, sizeof *A.fact);
  A.obj_size = calloc(f->nstack + 1, sizeof *A.obj_size);
  if (!A.fact || !A.obj_size) abort();
  for (uint32_t i = 0; i < f->nstack; i++) A.obj_size[i] = f->stack[i].size;
  compute_facts(&A);
  if (c->stack) {
    asan_stack_plan(&A);
    for (uint32_t bi = 0; bi < f->nblocks && !A.has_alloca; bi++)
      for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++)
        if (f->blocks[bi].insts[i].op == KIT_CG_OP_ALLOCA) A.has_alloca = true;
  }
  uint32_t norig = f->nblocks;
  KitCgBlkId *tail = calloc(norig, sizeof *tail);
  if (!tail) abort();
  for (uint32_t bi = 0; bi < norig; bi++) {
    KitCgInst *old = f->blocks[bi].insts;
    uint32_t n = f->blocks[bi].ninsts;
    f->blocks[bi].insts = NULL;
    f->blocks[bi].ninsts = f->blocks[bi].cap = 0;
    A.b.blk = bi;
    if (bi == 0 && (A.nvars || A.has_alloca)) {
      /* no source line (a guest pc stays): the frame setup is prologue,
       * so a debugger's breakpoint on the function lands after it */
      A.b.loc = (KitCgLoc){.pc = f->loc.pc};
      if (A.nvars) asan_stack_prologue(&A);
      if (A.has_alloca) asan_alloca_prologue(&A);
    }
    for (uint32_t i = 0; i < n; i++)
      rewrite_inst(&A, &old[i], i + 1 < n && old[i + 1].op == KIT_CG_OP_UNREACHABLE);
    tail[bi] = A.b.blk;
  }
  fix_phis(f, norig, tail);
  kit_pass_mark_emitted(f);
  free(tail);
  free(A.fact);
  free(A.obj_size);
  free(A.vars);
  free(A.var_of);
}

int kit_asan_run(KitCgModule *m, const KitAsanConfig *c) {
  uint32_t nfuncs = m->nfuncs; /* the pass's own functions come after */
  for (uint32_t i = 0; i < nfuncs; i++) {
    KitCgFunc *f = m->funcs[i];
    if (kit_cg_func_is_decl(f) || (f->attrs & KIT_CG_FA_NOSANITIZE)) continue;
    instrument_function(m, f, c);
  }
  asan_globals(m, c);
  return 0;
}

int kit_asan_run_func(KitCgModule *m, KitCgFunc *f, const KitAsanConfig *c) {
  if (!kit_cg_func_is_decl(f) && !(f->attrs & KIT_CG_FA_NOSANITIZE)) instrument_function(m, f, c);
  return 0;
}
