/* cg/interp/run.c — the dispatch loop (computed goto over decoded
 * instructions), frame entry, and kit_interp_call. Interpreted calls push
 * frames on the interpreter's own stacks, never on the host stack. */
#include "interp.h"

#include <string.h>

static int run(KitInterp *ip, Ctx *cx, Frame *entry, const void *const **labels_out);

const void *const *kit_interp__labels(void) {
  const void *const *l = NULL;
  run(NULL, NULL, NULL, &l);
  return l;
}

/* Sets up a new frame whose base and result fields the caller filled in:
 * stack objects, the variadic overflow area, constants, byval copies. */
static inline int enter(Ctx *cx, Frame *nf, Fn *fn, char *atop, const uint32_t *xslots, const uint8_t *xtypes,
                        const Slot *S, uint32_t nx, const KitCgScalar *xvals) {
  uintptr_t fa = ((uintptr_t)atop + fn->frame_align - 1) & ~(uintptr_t)(fn->frame_align - 1);
  uintptr_t end = fa + fn->frame_size;
  char *va = NULL;
  if (fn->f->variadic) {
    end = (end + 15) & ~(uintptr_t)15;
    va = (char *)end;
    uint64_t need = 0;
    for (uint32_t i = 0; i < nx; i++) {
      KitCgType t = xtypes ? (KitCgType)xtypes[i] : KIT_CG_I64;
      need = (t == KIT_CG_F80 || t == KIT_CG_I128) ? ((need + 15) & ~15ull) + 16 : need + 8;
    }
    if (end + need > (uintptr_t)cx->astack_end) return -1;
    uint64_t off = 0;
    for (uint32_t i = 0; i < nx; i++) {
      KitCgType t = xtypes ? (KitCgType)xtypes[i] : KIT_CG_I64;
      const void *src = xvals ? (const void *)&xvals[i] : (const void *)&S[xslots[i]];
      if (t == KIT_CG_F80 || t == KIT_CG_I128) {
        off = (off + 15) & ~15ull;
        memcpy(va + off, src, 16);
        off += 16;
      } else {
        memcpy(va + off, src, 8);
        off += 8;
      }
    }
    end += (need + 15) & ~15ull;
  }
  if (end > (uintptr_t)cx->astack_end) return -1;
  nf->fn = fn;
  nf->fa = (char *)fa;
  nf->atop = (char *)end;
  nf->va = va;
  Slot *b = nf->base;
  for (uint32_t i = 0; i < fn->nconsts; i++) b[fn->cslot[i]] = fn->cval[i];
  /* RETADDR is where the caller resumes: not a host code address, but
   * unique per call site and never null */
  for (uint32_t i = 0; i < fn->nsaddr; i++)
    b[fn->sa_slot[i]].i = fn->sa_off[i] == SA_RETADDR ? (uintptr_t)nf->ret_pc : fa + fn->sa_off[i];
  if (fn->ntls) {
    void **tls = kit_interp__tls(fn->ip);
    if (!tls) return -1;
    for (uint32_t i = 0; i < fn->ntls; i++) b[fn->tl_slot[i]].i = (uintptr_t)tls[fn->tl_global[i]] + fn->tl_off[i];
  }
  for (uint32_t i = 0; i < fn->nbyval; i++) {
    Slot *p = &b[1 + fn->bv_param[i]];
    char *copy = (char *)fa + fn->bv_off[i];
    if (p->p) memcpy(copy, p->p, fn->bv_size[i]);
    p->i = (uintptr_t)copy;
  }
  return 0;
}

/* what an interpreted setjmp leaves in the jmp_buf (glibc's is 200 bytes) */
typedef struct JmpRec {
  uint64_t magic, serial;
  Frame *entry, *fp;
  const Ins *resume;
  uint32_t rd;
} JmpRec;
#define JMP_MAGIC 0x6b69742d6a6d7031ull


static inline int fcmp64(unsigned p, double x, double y) {
  switch (p) {
  case KIT_CG_FOLT: return __builtin_isless(x, y);
  case KIT_CG_FOGT: return __builtin_isgreater(x, y);
  case KIT_CG_FOLE: return __builtin_islessequal(x, y);
  case KIT_CG_FOGE: return __builtin_isgreaterequal(x, y);
  default: return kit_interp__fcmp(p, x, y);
  }
}

#define DISPATCH goto *pc->op
#define NEXT                                                                                                     \
  do {                                                                                                           \
    nops++;                                                                                                      \
    pc++;                                                                                                        \
    DISPATCH;                                                                                                    \
  } while (0)
#define SLOT(off) (*(Slot *)((char *)S + (off)))
#define D_ SLOT(pc->d)
#define A_ SLOT(pc->a)
#define B_ SLOT(pc->b)
#define GOTO(off) (pc = (const Ins *)((const char *)code + (off)))

static int run(KitInterp *ip, Ctx *cx, Frame *entry, const void *const **labels_out) {
  static const void *const labels[IOP_COUNT] = {
#define X(n) [IOP_##n] = &&L_##n,
      INTERP_OPS(X)
#undef X
  };
  if (!ip) {
    *labels_out = labels;
    return 0;
  }
  Frame *fp = entry;
  Slot *S = fp->base;
  const Ins *code = fp->fn->code;
  const Ins *pc = code;
  uint64_t nops = 0;
  const char *why;
  const CallDesc *cd;
  Fn *cf;
  DISPATCH;

L_EXIT:
  __atomic_fetch_add(&ip->ops, nops, __ATOMIC_RELAXED);
  return 0;
L_MOV:
  D_ = A_;
  pc++;
  DISPATCH;
L_MOV2:
  D_ = A_;
  B_ = SLOT(pc->imm);
  pc++;
  DISPATCH;
L_MOVJ:
  D_ = A_;
  GOTO(pc->b);
  DISPATCH;
L_MOVBR:
  nops++;
  D_ = A_;
  GOTO(pc->b);
  DISPATCH;
L_JMP:
  GOTO(pc->d);
  DISPATCH;
L_BR:
  nops++;
  GOTO(pc->d);
  DISPATCH;
L_CONDBR:
  nops++;
  GOTO(A_.i ? pc->d : pc->b);
  DISPATCH;
L_SWITCH: {
  const SwitchDesc *sd = (const SwitchDesc *)pc->imm;
  uint64_t v = A_.i & sd->mask;
  uint32_t lo = 0, hi = sd->n, to = sd->dflt;
  if (sd->wide) {
    for (uint32_t i = 0; i < sd->n; i++)
      if (A_.sq == (__int128)sd->wvals[i]) {
        to = sd->targets[i];
        break;
      }
    hi = 0;
  }
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (sd->vals[mid] == v) {
      to = sd->targets[mid];
      break;
    }
    if (sd->vals[mid] < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  nops++;
  pc = code + to;
  DISPATCH;
}
L_RET: {
  Slot *rb = fp->rbase;
  rb[fp->rd] = A_;
  rb[fp->rd2] = B_;
  nops++;
  pc = fp->ret_pc;
  fp--;
  S = fp->base;
  code = fp->fn->code;
  DISPATCH;
}
L_CALL:
  cd = (const CallDesc *)pc->imm;
  cf = cd->callee;
  if (cf) goto call_interp;
  if (cd->special == SPECIAL_SETJMP) {
    JmpRec *jr = S[cd->args[0]].p;
    *jr = (JmpRec){JMP_MAGIC, ip->serial, entry, fp, pc + 1, cd->rd};
    S[cd->rd].q = 0;
    NEXT;
  }
  if (cd->special == SPECIAL_LONGJMP) {
    const JmpRec *jr = S[cd->args[0]].p;
    uint64_t v = cd->nargs > 1 ? S[cd->args[1]].i & 0xffffffffu : 1;
    if (jr->magic != JMP_MAGIC || jr->serial != ip->serial || jr->entry != entry || jr->fp < entry || jr->fp > fp) {
      why = "longjmp to a setjmp that is not active in this interpreted call";
      goto trap;
    }
    nops++;
    fp = jr->fp;
    S = fp->base;
    code = fp->fn->code;
    S[jr->rd].q = 0;
    S[jr->rd].i = v ? v : 1;
    pc = jr->resume;
    DISPATCH;
  }
  if (!cd->host) {
    why = "call to an unresolved weak function";
    goto trap;
  }
  if (!cd->cif_ok) {
    why = "unsupported signature for a host call";
    goto trap;
  }
  cx->fp = fp;
  kit_interp__host_call(ip, cd, S, cd->host);
  goto host_done;
L_CALLI: {
  cd = (const CallDesc *)pc->imm;
  void *target = A_.p;
  cf = kit_interp__closure_fn(ip, target);
  if (cf) goto call_interp;
  if (!target) {
    why = "call through a null function pointer";
    goto trap;
  }
  if (!cd->cif_ok) {
    why = "unsupported signature for a host call";
    goto trap;
  }
  cx->fp = fp;
  kit_interp__host_call(ip, cd, S, target);
  goto host_done;
}
host_done:
  if (cx->trap_pending) {
    cx->trap_pending = 0;
    why = "trap in interpreted code called back from a host function";
    goto trap;
  }
  NEXT;
call_interp: {
  if (__atomic_load_n(&cf->state, __ATOMIC_ACQUIRE) != 1 && kit_interp__decode(ip, cf)) {
    why = "callee cannot be interpreted";
    goto trap;
  }
  if (cd->tail && !cf->f->variadic) goto tail_call;
  Frame *nf = fp + 1;
  Slot *nb = S + fp->fn->nslots;
  if (nf >= cx->frames_end || nb + cf->nslots > cx->slots_end) {
    why = "interpreter stack overflow (call depth)";
    goto trap;
  }
  uint32_t np = cf->f->nparams, n = cd->nargs < np ? cd->nargs : np, i;
  for (i = 0; i < n; i++) nb[1 + i] = S[cd->args[i]];
  for (; i < np; i++) nb[1 + i].q = 0;
  nf->base = nb;
  nf->rbase = S;
  nf->rd = cd->rd;
  nf->rd2 = cd->rd2;
  nf->ret_pc = pc + 1;
  if (enter(cx, nf, cf, fp->atop, cd->args + n, cd->types + n, S, cd->nargs - n, NULL)) {
    why = "interpreter stack overflow (stack objects)";
    goto trap;
  }
  nops++;
  fp = nf;
  S = nb;
  code = cf->code;
  pc = code;
  DISPATCH;
}
tail_call: {
  /* the callee takes over this frame: its caller, result slots and return
   * point stay; arguments are staged above the frame first, since the new
   * parameters overwrite the slots they are read from */
  uint32_t np = cf->f->nparams, n = cd->nargs < np ? cd->nargs : np, i;
  Slot *stage = S + fp->fn->nslots;
  if (stage + n > cx->slots_end || S + cf->nslots > cx->slots_end) {
    why = "interpreter stack overflow (call depth)";
    goto trap;
  }
  for (i = 0; i < n; i++) stage[i] = S[cd->args[i]];
  for (i = 0; i < n; i++) S[1 + i] = stage[i]; /* forward: destination is below the source */
  for (; i < np; i++) S[1 + i].q = 0;
  if (enter(cx, fp, cf, (fp - 1)->atop, NULL, NULL, S, 0, NULL)) {
    why = "interpreter stack overflow (stack objects)";
    goto trap;
  }
  nops++;
  code = cf->code;
  pc = code;
  DISPATCH;
}
L_TRAP:
  why = "trap instruction reached";
  goto trap;
L_UNREACH:
  why = "unreachable instruction reached";
  goto trap;
L_SLOW:
  why = kit_interp__slow(ip, fp, S, (const KitCgInst *)pc->imm);
  if (why) goto trap;
  NEXT;

L_ADD: D_.i = (A_.i + B_.i) & pc->imm; NEXT;
L_SUB: D_.i = (A_.i - B_.i) & pc->imm; NEXT;
L_MUL: D_.i = (A_.i * B_.i) & pc->imm; NEXT;
L_AND: D_.i = A_.i & B_.i; NEXT;
L_OR: D_.i = A_.i | B_.i; NEXT;
L_XOR: D_.i = A_.i ^ B_.i; NEXT;
L_SHL: D_.i = (A_.i << (B_.i & pc->wm)) & pc->imm; NEXT;
L_LSHR: D_.i = A_.i >> (B_.i & pc->wm); NEXT;
L_ASHR: D_.i = (uint64_t)((int64_t)sxw(A_.i, pc->sh) >> (B_.i & pc->wm)) & pc->imm; NEXT;
L_UDIV:
  if (!B_.i) goto divzero;
  D_.i = A_.i / B_.i;
  NEXT;
L_UREM:
  if (!B_.i) goto divzero;
  D_.i = A_.i % B_.i;
  NEXT;
L_SDIV: {
  int64_t x = (int64_t)sxw(A_.i, pc->sh), y = (int64_t)sxw(B_.i, pc->sh);
  if (!y) goto divzero;
  if (y == -1 && x == (INT64_MIN >> pc->sh)) goto divovf;
  D_.i = (uint64_t)(x / y) & pc->imm;
  NEXT;
}
L_SREM: {
  int64_t x = (int64_t)sxw(A_.i, pc->sh), y = (int64_t)sxw(B_.i, pc->sh);
  if (!y) goto divzero;
  if (y == -1 && x == (INT64_MIN >> pc->sh)) goto divovf;
  D_.i = (uint64_t)(x % y) & pc->imm;
  NEXT;
}
divzero:
  why = "integer division by zero";
  goto trap;
divovf:
  why = "integer overflow in signed division (MIN / -1)";
  goto trap;

#define SX(v) ((int64_t)sxw((v), pc->sh))
L_EQ: D_.i = A_.i == B_.i; NEXT;
L_NE: D_.i = A_.i != B_.i; NEXT;
L_SLT: D_.i = SX(A_.i) < SX(B_.i); NEXT;
L_SLE: D_.i = SX(A_.i) <= SX(B_.i); NEXT;
L_SGT: D_.i = SX(A_.i) > SX(B_.i); NEXT;
L_SGE: D_.i = SX(A_.i) >= SX(B_.i); NEXT;
L_ULT: D_.i = A_.i < B_.i; NEXT;
L_ULE: D_.i = A_.i <= B_.i; NEXT;
L_UGT: D_.i = A_.i > B_.i; NEXT;
L_UGE: D_.i = A_.i >= B_.i; NEXT;
#define FUSED(cond)                                                                                              \
  nops += 2;                                                                                                     \
  GOTO((cond) ? pc->d : pc->imm);                                                                                \
  DISPATCH;
L_BEQ: FUSED(A_.i == B_.i)
L_BNE: FUSED(A_.i != B_.i)
L_BSLT: FUSED(SX(A_.i) < SX(B_.i))
L_BSLE: FUSED(SX(A_.i) <= SX(B_.i))
L_BSGT: FUSED(SX(A_.i) > SX(B_.i))
L_BSGE: FUSED(SX(A_.i) >= SX(B_.i))
L_BULT: FUSED(A_.i < B_.i)
L_BULE: FUSED(A_.i <= B_.i)
L_BUGT: FUSED(A_.i > B_.i)
L_BUGE: FUSED(A_.i >= B_.i)

L_SELECT:
  D_ = A_.i ? B_ : SLOT(pc->imm);
  NEXT;
L_MASK: D_.i = A_.i & pc->imm; NEXT;
L_SEXT: D_.i = sxw(A_.i, pc->sh) & pc->imm; NEXT;
L_PTRADD: D_.i = A_.i + B_.i; NEXT;
L_ALLOCA: {
  /* dynamic allocas grow the frame's object area; returning frees them */
  uintptr_t p = ((uintptr_t)fp->atop + pc->imm - 1) & ~(uintptr_t)(pc->imm - 1);
  if ((char *)p > cx->astack_end || A_.i > (uint64_t)(cx->astack_end - (char *)p)) {
    why = "interpreter stack overflow (alloca)";
    goto trap;
  }
  fp->atop = (char *)p + A_.i;
  D_.i = p;
  NEXT;
}
L_STACKSAVE: D_.p = fp->atop; NEXT;
L_STACKRESTORE:
  if (A_.p >= (void *)fp->fa && A_.p <= (void *)cx->astack_end) fp->atop = A_.p;
  NEXT;
/* imm: a constant offset folded in from a PTRADD (pad = 1 then) */
#define ADDR(s) ((char *)(s).p + pc->imm)
L_LD8: { uint8_t v; memcpy(&v, ADDR(A_), 1); D_.i = v; nops += pc->pad; NEXT; }
L_LD16: { uint16_t v; memcpy(&v, ADDR(A_), 2); D_.i = v; nops += pc->pad; NEXT; }
L_LD32: { uint32_t v; memcpy(&v, ADDR(A_), 4); D_.i = v; nops += pc->pad; NEXT; }
L_LD64: { uint64_t v; memcpy(&v, ADDR(A_), 8); D_.i = v; nops += pc->pad; NEXT; }
L_ST8: memcpy(ADDR(B_), &A_, 1); nops += pc->pad; NEXT;
L_ST16: memcpy(ADDR(B_), &A_, 2); nops += pc->pad; NEXT;
L_ST32: memcpy(ADDR(B_), &A_, 4); nops += pc->pad; NEXT;
L_ST64: memcpy(ADDR(B_), &A_, 8); nops += pc->pad; NEXT;

L_FADD32: D_.i = 0; D_.f = A_.f + B_.f; NEXT;
L_FSUB32: D_.i = 0; D_.f = A_.f - B_.f; NEXT;
L_FMUL32: D_.i = 0; D_.f = A_.f * B_.f; NEXT;
L_FDIV32: D_.i = 0; D_.f = A_.f / B_.f; NEXT;
L_FADD64: D_.d = A_.d + B_.d; NEXT;
L_FSUB64: D_.d = A_.d - B_.d; NEXT;
L_FMUL64: D_.d = A_.d * B_.d; NEXT;
L_FDIV64: D_.d = A_.d / B_.d; NEXT;
L_FCMP32: D_.i = (uint64_t)fcmp64(pc->pred, A_.f, B_.f); NEXT;
L_FCMP64: D_.i = (uint64_t)fcmp64(pc->pred, A_.d, B_.d); NEXT;

trap: {
  const Fn *tf = fp->fn;
  const KitCgInst *src = tf->src && pc >= tf->code && pc < tf->code + tf->ncode ? tf->src[pc - tf->code] : NULL;
  kit_interp__msg(ip, tf, src, "trap: %s", why);
  cx->fp = entry - 1;
  __atomic_fetch_add(&ip->ops, nops, __ATOMIC_RELAXED);
  return 1;
}
}

static void to_slot(Slot *s, KitCgType t, const KitCgScalar *v) {
  memset(s, 0, sizeof *s);
  switch (t) {
  case KIT_CG_F32: s->f = v->f32; break;
  case KIT_CG_F64: s->d = v->f64; break;
  case KIT_CG_F80: s->ld = v->f80; break;
  case KIT_CG_I128: s->q = v->i128; break;
  default: s->i = v->i & kit_interp__mask(t); break;
  }
}

static void from_slot(KitCgScalar *v, KitCgType t, const Slot *s, bool sext) {
  memset(v, 0, sizeof *v);
  switch (t) {
  case KIT_CG_VOID: break;
  case KIT_CG_F32: v->f32 = s->f; break;
  case KIT_CG_F64: v->f64 = s->d; break;
  case KIT_CG_F80: v->f80 = s->ld; break;
  case KIT_CG_I128: v->i128 = s->q; break;
  default:
    v->i = s->i & kit_interp__mask(t);
    if (sext && t != KIT_CG_PTR) v->i = sxw(v->i, 64 - kit_cg_type_bits(t));
    break;
  }
}

int kit_interp_call(KitInterp *ip, KitCgFunc *f, const KitCgScalar *args, uint32_t nargs, KitCgScalar ret[2]) {
  if (!ip || !f) return 1;
  if (!args) nargs = 0;
  Fn *fn = ip->last_f == f ? ip->last_fn : kit_interp__fn(ip, f);
  if (!fn) {
    kit_interp__msg(ip, NULL, NULL, "kit_interp_call: function is not part of this interpreter's module");
    return 1;
  }
  ip->last_f = f;
  ip->last_fn = fn;
  if (__atomic_load_n(&fn->state, __ATOMIC_ACQUIRE) != 1 && kit_interp__decode(ip, fn)) return 1;
  Ctx *cx = kit_interp__ctx();
  if (!cx) {
    kit_interp__msg(ip, fn, NULL, "cannot reserve interpreter stacks for this thread");
    return 1;
  }
  Frame *caller = cx->fp, *nf = caller + 1;
  Slot *nb = caller->base + caller->fn->nslots;
  if (nf >= cx->frames_end || nb + fn->nslots > cx->slots_end) {
    kit_interp__msg(ip, fn, NULL, "trap: interpreter stack overflow (call depth)");
    return 1;
  }
  uint32_t np = f->nparams, n = nargs < np ? nargs : np, i;
  for (i = 0; i < n; i++) to_slot(&nb[1 + i], (KitCgType)f->params[i].type, &args[i]);
  for (; i < np; i++) nb[1 + i].q = 0;
  Slot rb[2];
  memset(rb, 0, sizeof rb);
  nf->base = nb;
  nf->rbase = rb;
  nf->rd = 0;
  nf->rd2 = 1;
  nf->ret_pc = &ip->exit_ins;
  if (enter(cx, nf, fn, caller->atop, NULL, NULL, NULL, nargs - n, args + n)) {
    kit_interp__msg(ip, fn, NULL, "trap: interpreter stack overflow (stack objects)");
    return 1;
  }
  int rc = run(ip, cx, nf, NULL);
  cx->fp = caller;
  if (ret) {
    bool sext = (f->ret_attrs & KIT_CG_PA_SEXT) != 0;
    from_slot(&ret[0], (KitCgType)f->ret[0], &rb[0], sext);
    if (f->ret[1] != KIT_CG_VOID) from_slot(&ret[1], (KitCgType)f->ret[1], &rb[1], sext);
  }
  return rc;
}
