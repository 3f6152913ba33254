/* cg/baseline/compile.c — the baseline compiler's entry (kit_baseline_compile):
 * the subset it takes, an Emitter's arrays, and prepare(), the passes that
 * run before emission, in order. How the generated code looks and why:
 * docs/baseline.md. */
#include <stdlib.h>

#include "baseline_internal.h"

#if defined(__x86_64__)
#define NO_COMPILER "no x86-64 compiler"
#else
#define NO_COMPILER "not an x86-64 host"
#endif

static bool int_type(KitCgType t) { return t == KIT_CG_VOID || (t >= KIT_CG_I1 && t <= KIT_CG_I64) || t == KIT_CG_PTR; }

/* why f is outside the subset the compiler takes, or NULL */
static const char *unsupported(const KitCgModule *m, const KitCgFunc *f) {
  if (f->nparams > 6 || f->variadic || f->nstack) return "parameters or stack objects";
  for (uint32_t i = 0; i < f->nparams; i++)
    if (!int_type((KitCgType)f->params[i].type) || f->params[i].attrs & (KIT_CG_PA_BYVAL | KIT_CG_PA_SRET))
      return "a parameter type";
  if (!int_type((KitCgType)f->ret[0]) || f->ret[1] != KIT_CG_VOID) return "the result type";
  for (uint32_t v = 1; v < f->nvals; v++)
    if (!int_type((KitCgType)f->vtype[v]) && f->vtype[v] != KIT_CG_VOID) return "a value type (float, i128 or vector)";
  for (uint32_t bi = 0; bi < f->nblocks; bi++) {
    const KitCgBlock *bl = &f->blocks[bi];
    for (uint32_t i = 0; i < bl->ninsts; i++) {
      const KitCgInst *in = &bl->insts[i];
      switch (in->op) {
      case KIT_CG_OP_CONST: case KIT_CG_OP_ADD: case KIT_CG_OP_SUB: case KIT_CG_OP_MUL:
      case KIT_CG_OP_AND: case KIT_CG_OP_OR: case KIT_CG_OP_XOR: case KIT_CG_OP_SHL: case KIT_CG_OP_LSHR:
      case KIT_CG_OP_ASHR: case KIT_CG_OP_NEG: case KIT_CG_OP_NOT: case KIT_CG_OP_UMIN: case KIT_CG_OP_UMAX:
      case KIT_CG_OP_SELECT: case KIT_CG_OP_TRUNC: case KIT_CG_OP_ZEXT: case KIT_CG_OP_SEXT:
      case KIT_CG_OP_PTRTOINT: case KIT_CG_OP_INTTOPTR: case KIT_CG_OP_PTRADD: case KIT_CG_OP_BR:
      case KIT_CG_OP_CONDBR: case KIT_CG_OP_RET: case KIT_CG_OP_UNREACHABLE: case KIT_CG_OP_TRAP:
      case KIT_CG_OP_FENCE:
        break;
      case KIT_CG_OP_UDIV: case KIT_CG_OP_UREM: case KIT_CG_OP_SDIV: case KIT_CG_OP_SREM:
      case KIT_CG_OP_SMIN: case KIT_CG_OP_SMAX:
        if (in->type == KIT_CG_I1) return "i1 signed or divide";
        break;
      case KIT_CG_OP_ICMP:
        if (signed_pred((KitCgPred)in->pred) && f->vtype[in->args[0]] == KIT_CG_I1) return "signed i1 compare";
        break;
      case KIT_CG_OP_LOAD: case KIT_CG_OP_STORE:
        if (in->flags & KIT_CG_F_VOLATILE) return "volatile";
        break;
      case KIT_CG_OP_CALL: case KIT_CG_OP_CALLI: {
        if (in->type2 != KIT_CG_VOID || in->flags & KIT_CG_F_VARARGS || in->nargs - (in->op == KIT_CG_OP_CALLI) > 6)
          return "a call's signature";
        if (in->op == KIT_CG_OP_CALL) {
          const KitCgFunc *c = kit_cg_func_of(m, in->aux);
          if (m->syms[in->aux].kind != KIT_CG_SYM_FUNC || !kit_cg_func_is_decl(c)) return "a call into the module";
          for (uint32_t k = 0; k < c->nparams && k < in->nargs; k++)
            if (c->params[k].attrs & KIT_CG_PA_SEXT && width((KitCgType)c->params[k].type) < 32)
              return "a sign-extended argument";
        }
        if (in->argattrs)
          for (uint32_t k = 0; k + (in->op == KIT_CG_OP_CALLI) < in->nargs; k++)
            if (in->argattrs[k].attrs & ~KIT_CG_PA_ZEXT) return "a call's argument attributes";
        if (in->flags & KIT_CG_F_TAIL) { /* must be followed by the ret of its result */
          if (i + 1 >= bl->ninsts || bl->insts[i + 1].op != KIT_CG_OP_RET) return "a tail call not followed by ret";
          const KitCgInst *r = &bl->insts[i + 1];
          if (r->nargs && (!in->id || r->args[0] != in->id)) return "a tail call whose result is not returned";
        }
        break;
      }
      case KIT_CG_OP_ASM: case KIT_CG_OP_ASMGOTO: return "inline asm";
      default: return kit_cg_op_info[in->op].name;
      }
    }
  }
  return NULL;
}

/* the Emitter's per-value and per-block arrays (emitter_free frees them) */
static bool alloc_emitter_arrays(Emitter *e) {
  const KitCgFunc *f = e->f;
  uint32_t nv = f->nvals;
  e->v = calloc(nv + 1, sizeof *e->v);
  e->canon = calloc(nv + 1, sizeof *e->canon);
  e->blkoff = calloc(2 * f->nblocks + 2, sizeof *e->blkoff); /* blocks, then cold paths' returns */
  e->cold_of = calloc(f->nblocks + 1, sizeof *e->cold_of);
  e->cont_of = calloc(f->nblocks + 1, sizeof *e->cont_of);
  e->cold_last = calloc(f->nblocks + 1, sizeof *e->cold_last);
  e->snap = calloc(f->nblocks + 1, sizeof *e->snap);
  e->cold_started = calloc(f->nblocks + 1, sizeof *e->cold_started);
  e->flipped = calloc(nv + 1, sizeof *e->flipped);
  e->order = calloc(f->nblocks + 1, sizeof *e->order);
  e->fused = calloc(f->nblocks + 1, sizeof *e->fused);
  e->region = calloc(f->nblocks + 1, sizeof *e->region);
  return e->v && e->canon && e->blkoff && e->order && e->fused && e->region && e->cold_of && e->cont_of &&
         e->cold_last && e->snap && e->cold_started && e->flipped;
}

static void emitter_free(Emitter *e) {
  free(e->marks);
  free(e->code.bytes);
  free(e->v);
  free(e->canon);
  free(e->blkoff);
  free(e->order);
  free(e->fused);
  free(e->region);
  free(e->fix);
  free(e->rare);
  free(e->cold_of);
  free(e->cont_of);
  free(e->cold_last);
  free(e->snap);
  free(e->cold_started);
  free(e->flipped);
  free(e->framefix);
}

static bool prepare_work_new(PrepareWork *w, const KitCgFunc *f) {
  uint32_t nv = f->nvals;
  w->user = calloc(nv + 1, sizeof *w->user);
  w->preds = calloc(f->nblocks + 1, sizeof *w->preds);
  w->rpo = calloc(f->nblocks + 1, sizeof *w->rpo);
  w->stack = calloc(2 * f->nblocks + 2, sizeof *w->stack);
  w->placed = calloc(f->nblocks + 1, sizeof *w->placed);
  w->seen = calloc(f->nblocks + 1, sizeof *w->seen);
  w->nrpo = 0;
  w->hcap = 64;
  while (w->hcap < nv * 2) w->hcap *= 2;
  w->hash = calloc(w->hcap, sizeof *w->hash);
  return w->user && w->preds && w->rpo && w->stack && w->placed && w->seen && w->hash;
}

static void prepare_work_free(PrepareWork *w) {
  free(w->user);
  free(w->preds);
  free(w->rpo);
  free(w->stack);
  free(w->placed);
  free(w->seen);
  free(w->hash);
}

/* everything emission needs to know before it starts: the block layout
 * (layout.c), then constants, use counts, dead code and the values that
 * fold into their user (fold.c) */
static bool prepare(Emitter *e) {
  PrepareWork w;
  bool ok = alloc_emitter_arrays(e);
  ok = prepare_work_new(&w, e->f) && ok;
  if (ok) {
    layout_blocks(e, &w);
    fold_values(e, &w);
  }
  prepare_work_free(&w);
  return ok;
}

void *kit_baseline_compile(KitBaseline *x, const KitCgModule *m, const KitCgFunc *f, const char **why) {
  const char *w = !x ? NO_COMPILER : kit_cg_func_is_decl(f) ? "a declaration" : unsupported(m, f);
  if (w) {
    if (why) *why = w;
    return NULL;
  }
  bool has_calls = false;
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      has_calls |= (in->op == KIT_CG_OP_CALL || in->op == KIT_CG_OP_CALLI) && !(in->flags & KIT_CG_F_TAIL);
    }
  void *out = NULL;
  for (int attempt = 0; attempt < 2 && !out; attempt++) {
    /* the first parameter (the emulator's CPU) stays in rdi without calls,
     * in rbx (saved, restored on the way out) with them */
    int home = f->nparams < 1 ? -1 : has_calls ? RBX : RDI;
    Emitter e = {.x = x, .m = m, .f = f, .frame = has_calls || attempt == 1,
                 .reserved = home >= 0 ? 1u << home : 0, .home = home};
    if (!prepare(&e)) {
      e.why = "out of memory";
    } else {
      emit_function(&e);
      if (e.code.oom) e.why = "out of memory";
    }
    w = e.why;
    if (!w) out = code_place(x, e.code.bytes, e.code.n);
    if (out && !add_marks(x, &e, out)) {
      out = NULL; /* without its side table a fault could not find its pc */
      w = "out of memory";
    }
    bool retry = e.red_full;
    emitter_free(&e);
    if (!retry) break;
  }
  if (!out && why) *why = w ? w : "out of executable memory";
  return out;
}
