/* cg/interp/decode.c — turns a CG function into the interpreter's form once:
 * fixed-size instructions over value slots, constants and stack addresses
 * moved into the frame prologue, phis lowered to parallel copies on edges,
 * branch targets resolved to instruction indices, ICMP+CONDBR fused. */
#include "interp.h"

#include <stdlib.h>
#include <string.h>

typedef struct Fix {
  uint32_t at;     /* code index, or UINT32_MAX when ptr is used */
  uint8_t field;   /* 0 = d, 1 = b, 2 = imm */
  uint32_t blk;
  uint32_t *ptr;
} Fix;

typedef struct Dec {
  KitInterp *ip;
  Fn *fn;
  KitCgFunc *f;
  Ins *code;
  const KitCgInst **src;
  uint32_t n, cap;
  Fix *fix;
  uint32_t nfix, fixcap;
  uint32_t *uses;
  uint8_t *is_const;   /* value is an integer CONST, its bits in cbits */
  uint64_t *cbits;
  uint32_t *second; /* call value id -> hidden slot of its second result */
  uint32_t tmp;     /* scratch slot for breaking copy cycles */
  uint32_t *dst, *srcv; /* parallel-copy work arrays */
  const char *err;
} Dec;

/* frameaddr/retaddr of a caller's frame (level imm > 0) */
static bool outer_frame(const KitCgInst *in) {
  return (in->op == KIT_CG_OP_FRAMEADDR || in->op == KIT_CG_OP_RETADDR) && in->imm;
}

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fputs("kit-interp: out of memory\n", stderr);
    abort();
  }
  return q;
}

static void *xcalloc(size_t n, size_t sz) {
  void *p = calloc(n ? n : 1, sz ? sz : 1);
  if (!p) {
    fputs("kit-interp: out of memory\n", stderr);
    abort();
  }
  return p;
}

static uint32_t emit(Dec *D, int op, uint32_t d, uint32_t a, uint32_t b, uint64_t imm, const KitCgInst *src) {
  if (D->n == D->cap) {
    D->cap = D->cap ? D->cap * 2 : 64;
    D->code = xrealloc(D->code, D->cap * sizeof(Ins));
    D->src = xrealloc(D->src, D->cap * sizeof(*D->src));
  }
  Ins *in = &D->code[D->n];
  memset(in, 0, sizeof *in);
  in->op = (const void *)(uintptr_t)op;
  in->d = d;
  in->a = a;
  in->b = b;
  in->imm = imm;
  D->src[D->n] = src;
  return D->n++;
}

static void fixup(Dec *D, uint32_t at, uint8_t field, uint32_t blk, uint32_t *ptr) {
  if (D->nfix == D->fixcap) {
    D->fixcap = D->fixcap ? D->fixcap * 2 : 32;
    D->fix = xrealloc(D->fix, D->fixcap * sizeof(Fix));
  }
  D->fix[D->nfix++] = (Fix){at, field, blk, ptr};
}

static void set_width(Ins *in, KitCgType t) {
  unsigned bits = t == KIT_CG_PTR ? 64 : kit_cg_type_bits(t);
  if (bits == 0 || bits > 64) bits = 64;
  in->sh = (uint8_t)(64 - bits);
  in->wm = (uint8_t)(bits - 1);
}

/* Emits the copies that the phis of block `to` need on the edge from `from`,
 * sequentialized so that no source is overwritten before it is read. */
static uint32_t edge_moves(Dec *D, uint32_t from, uint32_t to, const KitCgInst *src) {
  const KitCgBlock *bb = &D->f->blocks[to];
  uint32_t n = 0;
  for (uint32_t i = 0; i < bb->ninsts && bb->insts[i].op == KIT_CG_OP_PHI; i++) {
    const KitCgInst *phi = &bb->insts[i];
    for (uint32_t j = 0; j < phi->nargs && j < phi->nblks; j++) {
      if (phi->blks[j] != from) continue;
      if (phi->args[j] != phi->id) {
        D->dst[n] = phi->id;
        D->srcv[n] = phi->args[j];
        n++;
      }
      break;
    }
  }
  uint32_t emitted = 0;
  while (n) {
    uint32_t k = UINT32_MAX;
    for (uint32_t i = 0; i < n && k == UINT32_MAX; i++) {
      bool read = false;
      for (uint32_t j = 0; j < n && !read; j++) read = j != i && D->srcv[j] == D->dst[i];
      if (!read) k = i;
    }
    if (k == UINT32_MAX) {
      /* only cycles are left: park one destination's old value in tmp */
      emit(D, IOP_MOV, D->tmp, D->dst[0], 0, 0, src);
      emitted++;
      for (uint32_t j = 0; j < n; j++)
        if (D->srcv[j] == D->dst[0]) D->srcv[j] = D->tmp;
      continue;
    }
    emit(D, IOP_MOV, D->dst[k], D->srcv[k], 0, 0, src);
    emitted++;
    D->dst[k] = D->dst[n - 1];
    D->srcv[k] = D->srcv[n - 1];
    n--;
  }
  return emitted;
}

/* Pairs up the copies just emitted from `mark` (MOV2), and turns the last
 * one into a copy-and-jump to block `to` (op MOVJ or MOVBR). */
static void fuse_moves(Dec *D, uint32_t mark, int jop, uint32_t to) {
  uint32_t n = D->n - mark, k = mark;
  Ins *c = D->code;
  uint32_t out = mark;
  for (; mark + n - k > 2; k += 2) { /* leave at least one copy for the jump */
    Ins m2 = c[k];
    m2.op = (const void *)(uintptr_t)IOP_MOV2;
    m2.b = c[k + 1].d;
    m2.imm = c[k + 1].a;
    D->src[out] = D->src[k];
    c[out++] = m2;
  }
  for (; k < mark + n; k++) {
    D->src[out] = D->src[k];
    c[out++] = c[k];
  }
  D->n = out;
  Ins *last = &c[out - 1];
  last->op = (const void *)(uintptr_t)jop;
  fixup(D, out - 1, 1, to, NULL);
}

/* Points field `field` of the branch at `at` (or *ptr) at block `to`, or,
 * when the edge from `from` carries phi copies, at those copies, emitted
 * here and ending in a jump to `to`. */
static void edge_target(Dec *D, uint32_t at, uint8_t field, uint32_t from, uint32_t to, const KitCgInst *src,
                        uint32_t *ptr) {
  uint32_t mark = D->n;
  if (edge_moves(D, from, to, src)) {
    fuse_moves(D, mark, IOP_MOVJ, to);
    if (ptr)
      *ptr = mark;
    else if (field == 0)
      D->code[at].d = mark;
    else if (field == 1)
      D->code[at].b = mark;
    else
      D->code[at].imm = mark;
  } else {
    fixup(D, ptr ? UINT32_MAX : at, field, to, ptr);
  }
}

static int int_fast_op(KitCgOp op) {
  switch (op) {
  case KIT_CG_OP_ADD: return IOP_ADD;
  case KIT_CG_OP_SUB: return IOP_SUB;
  case KIT_CG_OP_MUL: return IOP_MUL;
  case KIT_CG_OP_AND: return IOP_AND;
  case KIT_CG_OP_OR: return IOP_OR;
  case KIT_CG_OP_XOR: return IOP_XOR;
  case KIT_CG_OP_SHL: return IOP_SHL;
  case KIT_CG_OP_LSHR: return IOP_LSHR;
  case KIT_CG_OP_ASHR: return IOP_ASHR;
  case KIT_CG_OP_UDIV: return IOP_UDIV;
  case KIT_CG_OP_SDIV: return IOP_SDIV;
  case KIT_CG_OP_UREM: return IOP_UREM;
  case KIT_CG_OP_SREM: return IOP_SREM;
  default: return -1;
  }
}

static int cmp_op(KitCgPred p, bool fused) {
  if (p > KIT_CG_UGE) return -1;
  return (fused ? IOP_BEQ : IOP_EQ) + (int)p;
}

static int float_fast_op(KitCgOp op, KitCgType t) {
  int base = t == KIT_CG_F32 ? IOP_FADD32 : t == KIT_CG_F64 ? IOP_FADD64 : -1;
  if (base < 0) return -1;
  switch (op) {
  case KIT_CG_OP_FADD: return base;
  case KIT_CG_OP_FSUB: return base + 1;
  case KIT_CG_OP_FMUL: return base + 2;
  case KIT_CG_OP_FDIV: return base + 3;
  default: return -1;
  }
}

static bool word(KitCgType t) { return t == KIT_CG_PTR || (kit_cg_type_is_int(t) && t != KIT_CG_I128); }

/* integer conversions within 64 bits are a mask (values are kept
 * zero-extended) or a sign extension; lifted code is full of them */
static int conv_fast_op(KitCgOp op, KitCgType from, KitCgType to) {
  switch (op) {
  case KIT_CG_OP_TRUNC: case KIT_CG_OP_ZEXT: case KIT_CG_OP_PTRTOINT: case KIT_CG_OP_INTTOPTR:
    return word(from) && word(to) ? IOP_MASK : -1;
  case KIT_CG_OP_SEXT:
    return word(from) && word(to) ? IOP_SEXT : -1;
  case KIT_CG_OP_BITCAST:
    return (word(from) || from == KIT_CG_F32 || from == KIT_CG_F64) &&
                   (word(to) || to == KIT_CG_F32 || to == KIT_CG_F64)
               ? IOP_MASK
               : -1;
  default:
    return -1;
  }
}

static int mem_op(KitCgType t, bool store) {
  int base = store ? IOP_ST8 : IOP_LD8;
  switch (t) {
  case KIT_CG_I1: case KIT_CG_I8: return base;
  case KIT_CG_I16: return base + 1;
  case KIT_CG_I32: case KIT_CG_F32: return base + 2;
  case KIT_CG_I64: case KIT_CG_F64: case KIT_CG_PTR: return base + 3;
  default: return -1;
  }
}

/* A tail call replaces the caller's frame (so emulator block chains run in
 * constant space) when the RET after it returns exactly its result. */
static bool is_tail(const KitCgInst *in, const KitCgInst *next) {
  if (!(in->flags & KIT_CG_F_TAIL) || !next || next->op != KIT_CG_OP_RET) return false;
  if (next->nargs == 0) return true;
  return next->nargs == 1 && in->id && next->args[0] == in->id && in->type2 == KIT_CG_VOID;
}

/* setjmp/longjmp cannot go through libffi: the host setjmp would record a
 * host frame that is gone by the time interpreted code longjmps */
static uint8_t special_of(const char *name) {
  static const char *const sj[] = {"setjmp", "_setjmp", "__sigsetjmp", "sigsetjmp"};
  static const char *const lj[] = {"longjmp", "_longjmp", "siglongjmp", "__longjmp_chk"};
  for (unsigned i = 0; i < 4; i++) {
    if (!strcmp(name, sj[i])) return SPECIAL_SETJMP;
    if (!strcmp(name, lj[i])) return SPECIAL_LONGJMP;
  }
  return SPECIAL_NONE;
}

static int decode_call(Dec *D, const KitCgInst *in, const KitCgInst *next) {
  KitInterp *ip = D->ip;
  KitCgModule *m = ip->m;
  bool indirect = in->op == KIT_CG_OP_CALLI;
  uint32_t first = indirect ? 1 : 0;
  if (indirect && in->nargs < 1) return D->err = "calli without a callee", -1;
  CallDesc *cd = xcalloc(1, sizeof *cd);
  D->fn->calls = xrealloc(D->fn->calls, (D->fn->ncalls + 1) * sizeof(CallDesc *));
  D->fn->calls[D->fn->ncalls++] = cd;
  cd->src = in;
  cd->nargs = in->nargs - first;
  cd->args = xcalloc(cd->nargs + 1, sizeof(uint32_t));
  cd->types = xcalloc(cd->nargs + 1, 1);
  cd->byval = xcalloc(cd->nargs + 1, 1);
  for (uint32_t i = 0; i < cd->nargs; i++) {
    cd->args[i] = in->args[first + i];
    cd->types[i] = D->f->vtype[cd->args[i]];
  }
  cd->nfixed = (in->flags & KIT_CG_F_VARARGS) && in->imm < cd->nargs ? (uint32_t)in->imm : cd->nargs;
  cd->rt = in->type;
  cd->rt2 = in->type2;
  cd->rd = in->id;
  cd->rd2 = in->type2 != KIT_CG_VOID ? D->second[in->id] : 0;
  cd->tail = is_tail(in, next);
  const KitCgFunc *decl = NULL;
  if (!indirect) {
    if (in->aux >= m->nsyms) return D->err = "call to a bad symbol", -1;
    KitCgSym s = kit_interp__resolve_alias(m, in->aux);
    if (s == UINT32_MAX) return D->err = "call through an alias cycle", -1;
    if (m->syms[s].kind == KIT_CG_SYM_FUNC) {
      KitCgFunc *cf = kit_cg_func_of(m, s);
      if (!kit_cg_func_is_decl(cf)) {
        cd->callee = kit_interp__fn(ip, cf);
      } else {
        cd->special = special_of(kit_cg_sym_name(m, s));
        decl = cf;
      }
    }
    if (!cd->callee) cd->host = ip->symaddr[s]; /* NULL: an unresolved weak symbol, traps if called */
  }
  if (!cd->callee) {
    /* call-site attributes win; a direct callee's declaration is the fallback */
    const KitCgParam **pa = xcalloc(cd->nargs + 1, sizeof *pa);
    for (uint32_t i = 0; i < cd->nargs; i++)
      pa[i] = in->argattrs ? &in->argattrs[i] : decl && i < decl->nparams ? &decl->params[i] : NULL;
    kit_interp__prep_call(ip, cd, pa, decl ? decl->ret_attrs : 0, (in->flags & KIT_CG_F_VARARGS) != 0);
    free(pa);
  }
  emit(D, indirect ? IOP_CALLI : IOP_CALL, in->id, indirect ? in->args[0] : 0, 0, (uint64_t)(uintptr_t)cd, in);
  return 0;
}

static int switch_cmp(const void *a, const void *b) {
  const uint64_t *x = a, *y = b;
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

static SwitchDesc *switch_desc(Dec *D) {
  SwitchDesc *sd = xcalloc(1, sizeof *sd);
  D->fn->switches = xrealloc(D->fn->switches, (D->fn->nswitches + 1) * sizeof(SwitchDesc *));
  D->fn->switches[D->fn->nswitches++] = sd;
  return sd;
}

static void decode_switch(Dec *D, uint32_t blk, const KitCgInst *in) {
  SwitchDesc *sd = switch_desc(D);
  KitCgType t = (KitCgType)D->f->vtype[in->args[0]];
  sd->mask = kit_interp__mask(t);
  uint32_t nc = in->nblks ? in->nblks - 1 : 0;
  uint64_t (*pairs)[2] = xcalloc(nc + 1, sizeof *pairs);
  for (uint32_t i = 0; i < nc; i++) {
    pairs[i][0] = (uint64_t)in->cases[i] & sd->mask;
    pairs[i][1] = in->blks[1 + i];
  }
  qsort(pairs, nc, sizeof *pairs, switch_cmp);
  sd->n = nc;
  sd->vals = xcalloc(nc + 1, sizeof(uint64_t));
  sd->targets = xcalloc(nc + 1, sizeof(uint32_t));
  emit(D, IOP_SWITCH, 0, in->args[0], 0, (uint64_t)(uintptr_t)sd, in);
  if (t == KIT_CG_I128) {
    /* case values are int64: compare them sign-extended, in case order */
    sd->wide = true;
    sd->wvals = xcalloc(nc + 1, sizeof(int64_t));
    for (uint32_t i = 0; i < nc; i++) {
      sd->wvals[i] = in->cases[i];
      edge_target(D, 0, 0, blk, in->blks[1 + i], in, &sd->targets[i]);
    }
  } else {
    for (uint32_t i = 0; i < nc; i++) {
      sd->vals[i] = pairs[i][0];
      edge_target(D, 0, 0, blk, (uint32_t)pairs[i][1], in, &sd->targets[i]);
    }
  }
  edge_target(D, 0, 0, blk, in->blks[0], in, &sd->dflt);
  free(pairs);
}

/* indirectbr: a switch over the block-address tokens of its destinations;
 * any other address ends in the slow path, which reports it */
static void decode_indirectbr(Dec *D, uint32_t blk, const KitCgInst *in) {
  SwitchDesc *sd = switch_desc(D);
  sd->mask = UINT64_MAX;
  uint32_t n = in->nblks;
  uint64_t (*pairs)[2] = xcalloc(n + 1, sizeof *pairs);
  for (uint32_t i = 0; i < n; i++) {
    pairs[i][0] = kit_interp__blockaddr(D->f->sym, in->blks[i]);
    pairs[i][1] = in->blks[i];
  }
  qsort(pairs, n, sizeof *pairs, switch_cmp);
  sd->n = n;
  sd->vals = xcalloc(n + 1, sizeof(uint64_t));
  sd->targets = xcalloc(n + 1, sizeof(uint32_t));
  emit(D, IOP_SWITCH, 0, in->args[0], 0, (uint64_t)(uintptr_t)sd, in);
  for (uint32_t i = 0; i < n; i++) {
    sd->vals[i] = pairs[i][0];
    edge_target(D, 0, 0, blk, (uint32_t)pairs[i][1], in, &sd->targets[i]);
  }
  sd->dflt = emit(D, IOP_SLOW, 0, 0, 0, (uint64_t)(uintptr_t)in, in);
  free(pairs);
}

static bool fusable(Dec *D, const KitCgBlock *bb, uint32_t i) {
  const KitCgInst *c = &bb->insts[i];
  if (c->op != KIT_CG_OP_ICMP || i + 1 >= bb->ninsts) return false;
  const KitCgInst *br = &bb->insts[i + 1];
  KitCgType t = (KitCgType)D->f->vtype[c->args[0]];
  return br->op == KIT_CG_OP_CONDBR && br->nargs == 1 && br->args[0] == c->id && D->uses[c->id] == 1 &&
         (t == KIT_CG_PTR || (kit_cg_type_is_int(t) && t != KIT_CG_I128)) && c->pred <= KIT_CG_UGE;
}

/* `p = ptradd base, CONST; load/store via p` where p has no other use: one
 * load/store with the offset folded in (CPU-state accesses of lifted code). */
static bool fuse_address(Dec *D, const KitCgBlock *bb, uint32_t i) {
  const KitCgInst *pa = &bb->insts[i];
  if (!D->is_const[pa->args[1]] || D->uses[pa->id] != 1 || i + 1 >= bb->ninsts) return false;
  const KitCgInst *nx = &bb->insts[i + 1];
  int op;
  uint32_t k;
  if (nx->op == KIT_CG_OP_LOAD && nx->args[0] == pa->id && nx->type != KIT_CG_I1 &&
      (op = mem_op((KitCgType)nx->type, false)) >= 0)
    k = emit(D, op, nx->id, pa->args[0], 0, D->cbits[pa->args[1]], nx);
  else if (nx->op == KIT_CG_OP_STORE && nx->args[1] == pa->id && nx->args[0] != pa->id &&
           (op = mem_op((KitCgType)D->f->vtype[nx->args[0]], true)) >= 0)
    k = emit(D, op, 0, nx->args[0], pa->args[0], D->cbits[pa->args[1]], nx);
  else
    return false;
  D->code[k].pad = 1; /* retires two CG ops */
  return true;
}

static int decode_inst(Dec *D, uint32_t blk, const KitCgBlock *bb, uint32_t *pi) {
  const KitCgInst *in = &bb->insts[*pi];
  KitCgFunc *f = D->f;
  KitCgType t = (KitCgType)in->type;
  KitCgType at = in->nargs ? (KitCgType)f->vtype[in->args[0]] : KIT_CG_VOID;
  int op;
  switch ((KitCgOp)in->op) {
  case KIT_CG_OP_CONST: case KIT_CG_OP_SYMADDR: case KIT_CG_OP_STACKADDR: case KIT_CG_OP_FRAMEADDR:
  case KIT_CG_OP_RETADDR: case KIT_CG_OP_PHI: case KIT_CG_OP_LIFETIME_START: case KIT_CG_OP_LIFETIME_END:
  case KIT_CG_OP_BLOCKADDR: case KIT_CG_OP_ISCONST:
    return 0;
  case KIT_CG_OP_PARAM:
    if (in->aux >= f->nparams) return D->err = "param index out of range", -1;
    emit(D, IOP_MOV, in->id, in->aux + 1, 0, 0, in);
    return 0;
  case KIT_CG_OP_SECOND:
    emit(D, IOP_MOV, in->id, D->second[in->args[0]], 0, 0, in);
    return 0;
  case KIT_CG_OP_ICMP:
    if (fusable(D, bb, *pi)) {
      const KitCgInst *br = &bb->insts[*pi + 1];
      uint32_t k = emit(D, cmp_op((KitCgPred)in->pred, true), 0, in->args[0], in->args[1], 0, br);
      set_width(&D->code[k], at);
      edge_target(D, k, 0, blk, br->blks[0], br, NULL);
      edge_target(D, k, 2, blk, br->blks[1], br, NULL);
      (*pi)++;
      return 0;
    }
    if ((at == KIT_CG_PTR || (kit_cg_type_is_int(at) && at != KIT_CG_I128)) && in->pred <= KIT_CG_UGE) {
      uint32_t k = emit(D, cmp_op((KitCgPred)in->pred, false), in->id, in->args[0], in->args[1], 0, in);
      set_width(&D->code[k], at);
      return 0;
    }
    break;
  case KIT_CG_OP_FCMP:
    if (at == KIT_CG_F32 || at == KIT_CG_F64) {
      uint32_t k = emit(D, at == KIT_CG_F32 ? IOP_FCMP32 : IOP_FCMP64, in->id, in->args[0], in->args[1], 0, in);
      D->code[k].pred = in->pred;
      return 0;
    }
    break;
  case KIT_CG_OP_SELECT:
    emit(D, IOP_SELECT, in->id, in->args[0], in->args[1], in->args[2], in);
    return 0;
  case KIT_CG_OP_PTRADD:
    if (fuse_address(D, bb, *pi)) {
      (*pi)++;
      return 0;
    }
    emit(D, IOP_PTRADD, in->id, in->args[0], in->args[1], 0, in);
    return 0;
  case KIT_CG_OP_ALLOCA:
    emit(D, IOP_ALLOCA, in->id, in->args[0], 0, in->imm && !(in->imm & (in->imm - 1)) ? in->imm : 16, in);
    return 0;
  case KIT_CG_OP_STACKSAVE:
    emit(D, IOP_STACKSAVE, in->id, 0, 0, 0, in);
    return 0;
  case KIT_CG_OP_STACKRESTORE:
    emit(D, IOP_STACKRESTORE, 0, in->args[0], 0, 0, in);
    return 0;
  case KIT_CG_OP_LOAD:
    if ((op = mem_op(t, false)) >= 0 && t != KIT_CG_I1) {
      emit(D, op, in->id, in->args[0], 0, 0, in);
      return 0;
    }
    break;
  case KIT_CG_OP_STORE:
    if ((op = mem_op(at, true)) >= 0) {
      emit(D, op, 0, in->args[0], in->args[1], 0, in);
      return 0;
    }
    break;
  case KIT_CG_OP_CALL: case KIT_CG_OP_CALLI:
    return decode_call(D, in, *pi + 1 < bb->ninsts ? &bb->insts[*pi + 1] : NULL);
  case KIT_CG_OP_RET:
    emit(D, IOP_RET, 0, in->nargs > 0 ? in->args[0] : 0, in->nargs > 1 ? in->args[1] : 0, 0, in);
    return 0;
  case KIT_CG_OP_BR: {
    if (in->nblks < 1) return D->err = "br without a target", -1;
    uint32_t mark = D->n;
    if (edge_moves(D, blk, in->blks[0], in)) {
      fuse_moves(D, mark, IOP_MOVBR, in->blks[0]);
    } else {
      uint32_t k = emit(D, IOP_BR, 0, 0, 0, 0, in);
      fixup(D, k, 0, in->blks[0], NULL);
    }
    return 0;
  }
  case KIT_CG_OP_CONDBR: {
    if (in->nblks < 2) return D->err = "condbr without two targets", -1;
    uint32_t k = emit(D, IOP_CONDBR, 0, in->args[0], 0, 0, in);
    edge_target(D, k, 0, blk, in->blks[0], in, NULL);
    edge_target(D, k, 1, blk, in->blks[1], in, NULL);
    return 0;
  }
  case KIT_CG_OP_SWITCH:
    if (in->nblks < 1 || (in->nblks > 1 && !in->cases)) return D->err = "malformed switch", -1;
    decode_switch(D, blk, in);
    return 0;
  case KIT_CG_OP_INDIRECTBR:
    decode_indirectbr(D, blk, in);
    return 0;
  case KIT_CG_OP_UNREACHABLE:
    emit(D, IOP_UNREACH, 0, 0, 0, 0, in);
    return 0;
  case KIT_CG_OP_TRAP:
    emit(D, IOP_TRAP, 0, 0, 0, 0, in);
    return 0;
  default:
    break;
  }
  if ((op = conv_fast_op(in->op, at, t)) >= 0) {
    uint32_t k = emit(D, op, in->id, in->args[0], 0, kit_interp__mask(t), in);
    set_width(&D->code[k], at);
    return 0;
  }
  op = -1;
  if (kit_cg_op_info[in->op].flags & KIT_CGO_BIN) {
    if ((at == KIT_CG_PTR || (kit_cg_type_is_int(at) && at != KIT_CG_I128)) && (op = int_fast_op(in->op)) >= 0) {
      uint32_t k = emit(D, op, in->id, in->args[0], in->args[1], kit_interp__mask(at), in);
      set_width(&D->code[k], at);
      return 0;
    }
    if ((op = float_fast_op(in->op, at)) >= 0) {
      emit(D, op, in->id, in->args[0], in->args[1], 0, in);
      return 0;
    }
  }
  emit(D, IOP_SLOW, in->id, 0, 0, (uint64_t)(uintptr_t)in, in);
  return 0;
}

static bool check_body(Dec *D) {
  KitCgFunc *f = D->f;
  KitCgModule *m = D->ip->m;
  for (uint32_t v = 1; v < f->nvals; v++) /* docs/cg.md "Vectors": only the LLVM lowering runs them */
    if (kit_cg_type_is_vec((KitCgType)f->vtype[v])) return D->err = "vector values are not interpreted (the LLVM JIT runs them)", false;
  for (uint32_t b = 0; b < f->nblocks; b++) {
    const KitCgBlock *bb = &f->blocks[b];
    if (!bb->ninsts || !(kit_cg_op_info[bb->insts[bb->ninsts - 1].op].flags & KIT_CGO_TERM))
      return D->err = "a block does not end with a terminator", false;
    for (uint32_t i = 0; i < bb->ninsts; i++) {
      const KitCgInst *in = &bb->insts[i];
      if (in->op >= KIT_CG_NOPS) return D->err = "unknown op", false;
      if (in->op == KIT_CG_OP_ASM || in->op == KIT_CG_OP_ASMGOTO)
        return D->err = "inline asm is not supported by the interpreter", false;
      if (in->id >= f->nvals) return D->err = "value id out of range", false;
      int na = kit_cg_op_info[in->op].nargs;
      if (na >= 0 && in->nargs < (uint32_t)na) return D->err = "too few operands", false;
      for (uint32_t k = 0; k < in->nargs; k++)
        if (in->args[k] >= f->nvals || in->args[k] == 0) return D->err = "operand out of range", false;
      for (uint32_t k = 0; k < in->nblks; k++)
        if (in->blks[k] >= f->nblocks) return D->err = "block id out of range", false;
      if (in->op == KIT_CG_OP_SYMADDR && in->aux >= m->nsyms) return D->err = "symbol out of range", false;
      if ((in->op == KIT_CG_OP_STACKADDR || in->op == KIT_CG_OP_LIFETIME_START ||
           in->op == KIT_CG_OP_LIFETIME_END) && in->aux >= f->nstack)
        return D->err = "stack object out of range", false;
      if (in->type >= KIT_CG_NTYPES || in->type2 >= KIT_CG_NTYPES) return D->err = "bad type", false;
    }
  }
  return true;
}

static Slot const_value(const KitCgInst *in) {
  Slot v;
  memset(&v, 0, sizeof v);
  switch ((KitCgType)in->type) {
  case KIT_CG_I128: v.q = ((unsigned __int128)in->imm2 << 64) | in->imm; break;
  case KIT_CG_F32: v.i = in->imm & 0xffffffffu; break;
  case KIT_CG_F80: {
    unsigned char bytes[16] = {0};
    memcpy(bytes, &in->imm, 8);
    memcpy(bytes + 8, &in->imm2, 2);
    memcpy(&v, bytes, 16);
    break;
  }
  case KIT_CG_F64: case KIT_CG_PTR: v.i = in->imm; break;
  default: v.i = in->imm & kit_interp__mask((KitCgType)in->type); break;
  }
  return v;
}

/* global index of a defined thread-local global named by symbol s, or UINT32_MAX */
static uint32_t tls_index(const KitCgModule *m, KitCgSym s) {
  s = kit_interp__resolve_alias(m, s);
  if (s == UINT32_MAX || m->syms[s].kind != KIT_CG_SYM_GLOBAL || !m->syms[s].defined) return UINT32_MAX;
  return m->globals[m->syms[s].index]->is_tls ? m->syms[s].index : UINT32_MAX;
}

/* Everything a frame's prologue sets up: constants, symbol and stack
 * addresses, the stack-object layout, byval copies, hidden result slots. */
static int layout(Dec *D) {
  KitInterp *ip = D->ip;
  KitCgModule *m = ip->m;
  KitCgFunc *f = D->f;
  Fn *fn = D->fn;
  uint64_t *obj_off = xcalloc(f->nstack + 1, sizeof(uint64_t));
  uint64_t off = 0;
  uint32_t falign = 16;
  for (uint32_t i = 0; i < f->nstack; i++) {
    uint32_t al = f->stack[i].align ? f->stack[i].align : 1;
    if (al & (al - 1)) al = 16;
    if (al > falign) falign = al;
    off = (off + al - 1) & ~(uint64_t)(al - 1);
    obj_off[i] = off;
    off += f->stack[i].size;
  }
  uint32_t nbv = 0;
  for (uint32_t i = 0; i < f->nparams; i++) nbv += (f->params[i].attrs & KIT_CG_PA_BYVAL) != 0;
  fn->bv_param = xcalloc(nbv + 1, sizeof(uint32_t));
  fn->bv_off = xcalloc(nbv + 1, sizeof(uint64_t));
  fn->bv_size = xcalloc(nbv + 1, sizeof(uint64_t));
  for (uint32_t i = 0; i < f->nparams; i++) {
    if (!(f->params[i].attrs & KIT_CG_PA_BYVAL)) continue;
    uint32_t al = f->params[i].byval_align ? f->params[i].byval_align : 8;
    if (al & (al - 1)) al = 16;
    if (al > falign) falign = al;
    off = (off + al - 1) & ~(uint64_t)(al - 1);
    fn->bv_param[fn->nbyval] = i;
    fn->bv_off[fn->nbyval] = off;
    fn->bv_size[fn->nbyval++] = f->params[i].byval_size;
    off += f->params[i].byval_size;
  }
  fn->frame_size = (off + 15) & ~(uint64_t)15;
  fn->frame_align = falign;

  uint32_t nc = 0, ns = 0, extra = 0;
  for (uint32_t b = 0; b < f->nblocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].ninsts; i++) {
      const KitCgInst *in = &f->blocks[b].insts[i];
      nc += in->op == KIT_CG_OP_CONST || in->op == KIT_CG_OP_SYMADDR || in->op == KIT_CG_OP_BLOCKADDR ||
            in->op == KIT_CG_OP_ISCONST || outer_frame(in);
      ns += in->op == KIT_CG_OP_STACKADDR || ((in->op == KIT_CG_OP_FRAMEADDR || in->op == KIT_CG_OP_RETADDR) && !outer_frame(in));
      for (uint32_t k = 0; k < in->nargs; k++) D->uses[in->args[k]]++;
      if ((in->op == KIT_CG_OP_CALL || in->op == KIT_CG_OP_CALLI) && in->type2 != KIT_CG_VOID && in->id)
        D->second[in->id] = f->nvals + extra++;
    }
  fn->tl_slot = xcalloc(nc + 1, sizeof(uint32_t));
  fn->tl_global = xcalloc(nc + 1, sizeof(uint32_t));
  fn->tl_off = xcalloc(nc + 1, sizeof(uint64_t));
  fn->cslot = xcalloc(nc + 1, sizeof(uint32_t));
  fn->cval = xcalloc(nc + 1, sizeof(Slot));
  fn->sa_slot = xcalloc(ns + 1, sizeof(uint32_t));
  fn->sa_off = xcalloc(ns + 1, sizeof(uint64_t));
  for (uint32_t b = 0; b < f->nblocks; b++)
    for (uint32_t i = 0; i < f->blocks[b].ninsts; i++) {
      const KitCgInst *in = &f->blocks[b].insts[i];
      if (!in->id) continue;
      if (in->op == KIT_CG_OP_CONST || in->op == KIT_CG_OP_ISCONST || outer_frame(in)) {
        /* the interpreter folds nothing: an isconst is the constant 0 (its imm); it
         * keeps no chain of its callers' frames, so their addresses are 0 (as gcc
         * allows for __builtin_return_address(N > 0)) */
        fn->cslot[fn->nconsts] = in->id;
        fn->cval[fn->nconsts++] = in->op == KIT_CG_OP_CONST ? const_value(in) : (Slot){.q = 0};
        if (kit_cg_type_is_int((KitCgType)in->type) && in->type != KIT_CG_I128) {
          D->is_const[in->id] = 1;
          D->cbits[in->id] = fn->cval[fn->nconsts - 1].i;
        }
      } else if (in->op == KIT_CG_OP_BLOCKADDR) {
        Slot v = {.q = 0};
        v.i = kit_interp__blockaddr(f->sym, in->nblks ? in->blks[0] : 0);
        fn->cslot[fn->nconsts] = in->id;
        fn->cval[fn->nconsts++] = v;
      } else if (in->op == KIT_CG_OP_SYMADDR && tls_index(m, in->aux) != UINT32_MAX) {
        fn->tl_slot[fn->ntls] = in->id;
        fn->tl_global[fn->ntls] = tls_index(m, in->aux);
        fn->tl_off[fn->ntls++] = in->imm;
      } else if (in->op == KIT_CG_OP_SYMADDR) {
        KitCgSym s = kit_interp__resolve_alias(m, in->aux);
        void *base = NULL;
        if (s != UINT32_MAX && m->syms[s].kind == KIT_CG_SYM_FUNC && !kit_cg_func_is_decl(kit_cg_func_of(m, s)))
          base = kit_interp__func_addr(ip, kit_interp__fn(ip, kit_cg_func_of(m, s)));
        else if (s != UINT32_MAX)
          base = ip->symaddr[s];
        Slot v = {.q = 0};
        v.i = (uint64_t)(uintptr_t)base + in->imm;
        fn->cslot[fn->nconsts] = in->id;
        fn->cval[fn->nconsts++] = v;
      } else if (in->op == KIT_CG_OP_STACKADDR || in->op == KIT_CG_OP_FRAMEADDR || in->op == KIT_CG_OP_RETADDR) {
        fn->sa_slot[fn->nsaddr] = in->id;
        fn->sa_off[fn->nsaddr++] = in->op == KIT_CG_OP_STACKADDR ? obj_off[in->aux]
                                   : in->op == KIT_CG_OP_RETADDR ? SA_RETADDR
                                                                 : 0;
      }
    }
  free(obj_off);
  D->tmp = f->nvals + extra;
  fn->nslots = f->nvals + extra + 1;
  return 0;
}

/* slot ids -> byte offsets from the frame base, code indices -> byte
 * offsets from the code start, by what each field means for the op */
static void scale(Ins *in) {
  const uint32_t SL = sizeof(Slot), IN = sizeof(Ins);
  switch ((int)(uintptr_t)in->op) {
  case IOP_EXIT: case IOP_TRAP: case IOP_UNREACH: case IOP_SLOW: case IOP_CALL:
    break;
  case IOP_CALLI: case IOP_SWITCH:
    in->a *= SL;
    break;
  case IOP_JMP: case IOP_BR:
    in->d *= IN;
    break;
  case IOP_CONDBR:
    in->a *= SL;
    in->d *= IN;
    in->b *= IN;
    break;
  case IOP_MOVJ: case IOP_MOVBR:
    in->d *= SL;
    in->a *= SL;
    in->b *= IN;
    break;
  case IOP_MOV2: case IOP_SELECT:
    in->d *= SL;
    in->a *= SL;
    in->b *= SL;
    in->imm *= SL;
    break;
  default:
    if ((int)(uintptr_t)in->op >= IOP_BEQ && (int)(uintptr_t)in->op <= IOP_BUGE) {
      in->a *= SL;
      in->b *= SL;
      in->d *= IN;
      in->imm *= IN;
      break;
    }
    in->d *= SL;
    in->a *= SL;
    in->b *= SL;
    break;
  }
}

/* the decoder's working arrays, freed whether decoding succeeded or not */
static void decoder_scratch_free(Dec *D) {
  free(D->fix);
  free(D->uses);
  free(D->is_const);
  free(D->cbits);
  free(D->second);
  free(D->dst);
  free(D->srcv);
}

static int decode_locked(KitInterp *ip, Fn *fn) {
  if (fn->state == 1) return 0;
  if (fn->state < 0) return -1;
  KitCgFunc *f = fn->f;
  Dec D = {.ip = ip, .fn = fn, .f = f};
  if (kit_cg_func_is_decl(f)) {
    kit_interp__msg(ip, fn, NULL, "cannot interpret a function without a body");
    fn->state = -1;
    return -1;
  }
  uint32_t *bstart = NULL;
  if (!check_body(&D)) goto fail;
  D.uses = xcalloc(f->nvals + 1, sizeof(uint32_t));
  D.second = xcalloc(f->nvals + 1, sizeof(uint32_t));
  D.is_const = xcalloc(f->nvals + 1, 1);
  D.cbits = xcalloc(f->nvals + 1, sizeof(uint64_t));
  uint32_t maxphi = 1;
  for (uint32_t b = 0; b < f->nblocks; b++) maxphi += f->blocks[b].ninsts;
  D.dst = xcalloc(maxphi, sizeof(uint32_t));
  D.srcv = xcalloc(maxphi, sizeof(uint32_t));
  layout(&D);
  bstart = xcalloc(f->nblocks + 1, sizeof(uint32_t));
  for (uint32_t b = 0; b < f->nblocks; b++) {
    const KitCgBlock *bb = &f->blocks[b];
    bstart[b] = D.n;
    for (uint32_t i = 0; i < bb->ninsts; i++) {
      if (decode_inst(&D, b, bb, &i)) goto fail;
      if (kit_cg_op_info[bb->insts[i].op].flags & KIT_CGO_TERM) break;
    }
  }
  for (uint32_t i = 0; i < D.nfix; i++) {
    Fix *x = &D.fix[i];
    uint32_t to = bstart[x->blk];
    if (x->ptr)
      *x->ptr = to;
    else if (x->field == 0)
      D.code[x->at].d = to;
    else if (x->field == 1)
      D.code[x->at].b = to;
    else
      D.code[x->at].imm = to;
  }
  const void *const *labels = kit_interp__labels();
  for (uint32_t i = 0; i < D.n; i++) {
    scale(&D.code[i]);
    D.code[i].op = labels[(uintptr_t)D.code[i].op];
  }
  fn->code = D.code;
  fn->src = D.src;
  fn->ncode = D.n;
  __atomic_store_n(&fn->state, 1, __ATOMIC_RELEASE);
  free(bstart);
  decoder_scratch_free(&D);
  return 0;
fail:
  kit_interp__msg(ip, fn, NULL, "cannot decode function: %s", D.err ? D.err : "malformed body");
  free(bstart);
  free(D.code);
  free(D.src);
  decoder_scratch_free(&D);
  fn->state = -1;
  return -1;
}

/* threads may meet the same undecoded function: one decodes, the others
 * wait and find it ready */
int kit_interp__decode(KitInterp *ip, Fn *fn) {
  pthread_mutex_lock(&ip->lock);
  int rc = decode_locked(ip, fn);
  pthread_mutex_unlock(&ip->lock);
  return rc;
}

void kit_interp__fn_release(Fn *fn) {
  free(fn->code);
  free(fn->src);
  free(fn->cslot);
  free(fn->tl_slot);
  free(fn->tl_global);
  free(fn->tl_off);
  free(fn->cval);
  free(fn->sa_slot);
  free(fn->sa_off);
  free(fn->bv_param);
  free(fn->bv_off);
  free(fn->bv_size);
  for (uint32_t i = 0; i < fn->ncalls; i++) {
    CallDesc *cd = fn->calls[i];
    free(cd->args);
    free(cd->types);
    free(cd->byval);
    free(cd->atypes);
    free(cd);
  }
  free(fn->calls);
  for (uint32_t i = 0; i < fn->nswitches; i++) {
    free(fn->switches[i]->vals);
    free(fn->switches[i]->wvals);
    free(fn->switches[i]->targets);
    free(fn->switches[i]);
  }
  free(fn->switches);
  if (fn->closure) ffi_closure_free(fn->closure);
  free(fn->token);
  free(fn->cat);
}
