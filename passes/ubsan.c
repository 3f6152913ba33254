/* passes/ubsan.c — the UndefinedBehaviorSanitizer pass over CG. It reads the
 * UB facts the frontend put on ops (nsw, shift-in-range, bounds, type
 * descriptors, the ICMPs that assert nonnull and value-keeping conversions),
 * traces pointers to objects of known size (object-size) and, for each
 * enabled check, splits the block before the op:
 * an inline test, then a cold block that calls the runtime handler with a
 * static data record (location, C type names, check details) and the operand
 * values, or traps (-fsanitize-trap). sanitizer-rt/ubsan/ubsan_rt.h defines
 * the record and the handlers; docs/ubsan.md lists the checks and their facts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/passes.h"

/* the static data record, as sanitizer-rt/ubsan/ubsan_rt.h KitUbsanData */
enum {
  REC_FILE = 0, REC_LINE = 8, REC_COL = 12, REC_TYPE = 16, REC_TINFO = 24, REC_EXTRA = 28,
  REC_TYPE2 = 32, REC_T2INFO = 40, REC_EXTRA2 = 44, REC_SIZE = 48
};

typedef struct Ub {
  KitCgModule *m;
  KitCgFunc *f;
  const KitPassOptions *o;
  KitCgBuilder b;
  unsigned nrec, nstr;
  /* the string constants made so far, by content: one per file / type name */
  KitCgSym *strs;
  uint32_t *str_keys; /* module string id + 1, 0 = empty slot */
  uint32_t str_cap, str_used;
  uint8_t *accessed; /* per value of the function: see mark_accessed */
  int64_t *room;     /* per pointer value: bytes to the end of its object (object-size) */
  uint32_t naccessed;
  KitCgBlkId at_blk; /* where the inst being checked sits (for looking at its neighbours) */
  uint32_t at_pos;
} Ub;

/* what one report passes to the runtime besides its values */
typedef struct Rec {
  const char *handler; /* "overflow" -> __kit_ubsan_overflow[_abort] */
  uint64_t check;      /* KIT_SAN_* bit: recover/trap decisions */
  uint32_t type, type2; /* tydescs, 0 = none */
  uint32_t extra, extra2;
} Rec;

/* ---- emission helpers --------------------------------------------------------- */

static KitCgInst *emit3(Ub *U, KitCgOp op, KitCgType t, KitCgVal a, KitCgVal b, KitCgVal c) {
  KitCgVal args[3] = {a, b, c};
  uint32_t n = kit_cg_op_info[op].nargs;
  KitCgInst *in = kit_cg_emit(&U->b, op, t, args, n);
  in->flags |= KIT_CG_F_NOINSTR;
  return in;
}
static KitCgInst *emit(Ub *U, KitCgOp op, KitCgType t, KitCgVal a, KitCgVal b) { return emit3(U, op, t, a, b, 0); }
static KitCgVal op2(Ub *U, KitCgOp op, KitCgVal a, KitCgVal b) {
  return emit(U, op, kit_cg_val_type(U->f, a), a, b)->id;
}
static KitCgVal icmp(Ub *U, KitCgPred p, KitCgVal a, KitCgVal b) {
  KitCgInst *in = emit(U, KIT_CG_OP_ICMP, KIT_CG_I1, a, b);
  in->pred = (uint8_t)p;
  return in->id;
}
static KitCgVal iconst(Ub *U, KitCgType t, uint64_t v) { return kit_cg_iconst(&U->b, t, v); }
static KitCgVal conv(Ub *U, KitCgOp op, KitCgType to, KitCgVal v) { return emit(U, op, to, v, 0)->id; }

/* any operand as the i64 the handlers take: ints extended by their C
 * signedness, pointers as addresses, floats as the bits of a double */
static KitCgVal as_u64(Ub *U, KitCgVal v, bool is_signed) {
  KitCgType t = kit_cg_val_type(U->f, v);
  if (t == KIT_CG_I64) return v;
  if (t == KIT_CG_PTR) return conv(U, KIT_CG_OP_PTRTOINT, KIT_CG_I64, v);
  if (t == KIT_CG_I128) return conv(U, KIT_CG_OP_TRUNC, KIT_CG_I64, v);
  if (t == KIT_CG_F32) v = conv(U, KIT_CG_OP_FPEXT, KIT_CG_F64, v);
  if (t == KIT_CG_F80) v = conv(U, KIT_CG_OP_FPTRUNC, KIT_CG_F64, v);
  if (kit_cg_type_is_float(t)) return conv(U, KIT_CG_OP_BITCAST, KIT_CG_I64, v);
  return conv(U, is_signed ? KIT_CG_OP_SEXT : KIT_CG_OP_ZEXT, KIT_CG_I64, v);
}

/* the pass's own side tables (freed by kit_ubsan_run), zero-filled */
static void *zalloc(size_t n) {
  void *p = calloc(n ? n : 1, 1);
  if (!p) {
    fprintf(stderr, "kit: out of memory\n");
    exit(1);
  }
  return p;
}

static KitCgSym cstring_new(Ub *U, const char *s) {
  char name[48];
  do snprintf(name, sizeof name, ".ubsan.str.%u", U->nstr++);
  while (kit_cg_sym_find(U->m, name) != UINT32_MAX);
  size_t n = strlen(s) + 1;
  KitCgGlobal *g = kit_cg_global_new(U->m, name, n, 1);
  kit_cg_global_set_init(U->m, g, s, n);
  g->is_const = true;
  g->no_redzone = true;
  U->m->syms[g->sym].linkage = KIT_CG_LINK_INTERNAL;
  return g->sym;
}

/* the constant holding s, shared by every record naming the same string
 * (open addressing on the module string id) */
static KitCgSym cstring(Ub *U, const char *s) {
  if (U->str_used * 2 >= U->str_cap) {
    uint32_t ncap = U->str_cap ? U->str_cap * 2 : 256, *okeys = U->str_keys;
    KitCgSym *osyms = U->strs;
    U->str_keys = zalloc(ncap * sizeof *U->str_keys);
    U->strs = zalloc(ncap * sizeof *U->strs);
    for (uint32_t i = 0; i < U->str_cap; i++) {
      if (!okeys[i]) continue;
      uint32_t h = okeys[i] * 2654435761u & (ncap - 1);
      while (U->str_keys[h]) h = (h + 1) & (ncap - 1);
      U->str_keys[h] = okeys[i];
      U->strs[h] = osyms[i];
    }
    free(okeys);
    free(osyms);
    U->str_cap = ncap;
  }
  uint32_t key = kit_cg_str(U->m, s) + 1, h = key * 2654435761u & (U->str_cap - 1);
  while (U->str_keys[h] && U->str_keys[h] != key) h = (h + 1) & (U->str_cap - 1);
  if (!U->str_keys[h]) {
    U->str_keys[h] = key;
    U->strs[h] = cstring_new(U, s);
    U->str_used++;
  }
  return U->strs[h];
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

static uint32_t tyinfo(const KitCgTyDesc *d) {
  return d ? (uint32_t)d->bits | (uint32_t)(d->is_signed ? 1u << 16 : 0) | ((uint32_t)d->kind << 17) : 0;
}

/* the writable static record of one check site (the runtime marks it reported) */
static KitCgSym record(Ub *U, const KitCgInst *in, const Rec *r) {
  char name[48];
  do snprintf(name, sizeof name, ".ubsan.data.%u", U->nrec++);
  while (kit_cg_sym_find(U->m, name) != UINT32_MAX);
  KitCgGlobal *g = kit_cg_global_new(U->m, name, REC_SIZE, 8);
  g->no_redzone = true;
  U->m->syms[g->sym].linkage = KIT_CG_LINK_INTERNAL;
  uint8_t buf[REC_SIZE] = {0};
  put32(buf + REC_LINE, in->loc.line);
  put32(buf + REC_COL, in->loc.col);
  const KitCgTyDesc *t1 = r->type ? &U->m->tydescs[r->type] : NULL;
  const KitCgTyDesc *t2 = r->type2 ? &U->m->tydescs[r->type2] : NULL;
  put32(buf + REC_TINFO, tyinfo(t1));
  put32(buf + REC_T2INFO, tyinfo(t2));
  put32(buf + REC_EXTRA, r->extra);
  put32(buf + REC_EXTRA2, r->extra2);
  kit_cg_global_set_init(U->m, g, buf, REC_SIZE);
  const char *file = in->loc.file ? kit_cg_strget(U->m, in->loc.file) : "<unknown>";
  kit_cg_global_add_reloc(U->m, g, REC_FILE, cstring(U, file), 0, 8);
  if (t1) kit_cg_global_add_reloc(U->m, g, REC_TYPE, cstring(U, kit_cg_strget(U->m, t1->name)), 0, 8);
  if (t2) kit_cg_global_add_reloc(U->m, g, REC_TYPE2, cstring(U, kit_cg_strget(U->m, t2->name)), 0, 8);
  return g->sym;
}

static KitCgSym handler(Ub *U, const char *name, bool abort) {
  char full[64];
  snprintf(full, sizeof full, "__kit_ubsan_%s%s", name, abort ? "_abort" : "");
  KitCgType p[3] = {KIT_CG_PTR, KIT_CG_I64, KIT_CG_I64};
  KitCgFunc *f = kit_cg_func_declare(U->m, full, KIT_CG_VOID, p, 3, false);
  f->attrs |= KIT_CG_FA_NOUNWIND | KIT_CG_FA_COLD;
  if (abort) f->attrs |= KIT_CG_FA_NORETURN;
  return f->sym;
}

/* Move insts [pos, end) of blk into a new block; the successors' phis now
 * name the new block as their predecessor. The new block takes over that
 * part of the array in place (a block checked op by op is split as often as
 * it has checks: copying its tail each time would be quadratic); both caps
 * end where the parts do, so the next append to either copies it out. */
static KitCgBlkId split(Ub *U, KitCgBlkId blk, uint32_t pos) {
  KitCgBlkId nb = kit_cg_block_new(U->m, U->f);
  KitCgBlock *ob = &U->f->blocks[blk], *n = &U->f->blocks[nb];
  uint32_t cnt = ob->ninsts - pos;
  n->insts = ob->insts + pos;
  n->ninsts = n->cap = cnt;
  ob->ninsts = ob->cap = pos;
  const KitCgBlkId *succ;
  uint32_t ns = kit_cg_block_succs(U->f, nb, &succ);
  for (uint32_t s = 0; s < ns; s++) {
    KitCgBlock *sb = &U->f->blocks[succ[s]];
    for (uint32_t i = 0; i < sb->ninsts && sb->insts[i].op == KIT_CG_OP_PHI; i++)
      for (uint32_t k = 0; k < sb->insts[i].nblks; k++)
        if (sb->insts[i].blks[k] == blk) sb->insts[i].blks[k] = nb;
  }
  return nb;
}

/* The check itself: `bad` was computed at the end of the current block (the
 * split-off head). Branch to a cold report block; return to `cont`. */
static void report_if(Ub *U, const KitCgInst *at, KitCgVal bad, KitCgBlkId cont, KitCgBlkId cold, const Rec *r,
                      KitCgVal a, KitCgVal b) {
  kit_cg_condbr(&U->b, bad, cold, cont);
  KitCgBlock *bb = &U->f->blocks[U->b.blk];
  bb->insts[bb->ninsts - 1].flags |= KIT_CG_F_COLD | KIT_CG_F_NOINSTR;
  kit_cg_builder_at(&U->b, cold);
  if (U->o->trap & r->check) {
    emit(U, KIT_CG_OP_TRAP, KIT_CG_VOID, 0, 0);
    return;
  }
  bool abort = !(U->o->recover & r->check);
  KitCgVal args[3] = {kit_cg_symaddr(&U->b, record(U, at, r), 0), a ? a : iconst(U, KIT_CG_I64, 0),
                      b ? b : iconst(U, KIT_CG_I64, 0)};
  KitCgInst *call = kit_cg_emit(&U->b, KIT_CG_OP_CALL, KIT_CG_VOID, args, 3);
  call->aux = handler(U, r->handler, abort);
  call->flags |= KIT_CG_F_COLD | KIT_CG_F_NOMERGE | KIT_CG_F_NOINSTR;
  if (abort)
    emit(U, KIT_CG_OP_UNREACHABLE, KIT_CG_VOID, 0, 0);
  else
    kit_cg_br(&U->b, cont);
}

static bool on(Ub *U, uint64_t check) { return (U->o->sanitize & check) != 0; }

static const KitCgTyDesc *td(Ub *U, const KitCgInst *in) { return in->tydesc ? &U->m->tydescs[in->tydesc] : NULL; }

static uint64_t smin_of(unsigned bits) { return bits >= 64 ? (uint64_t)1 << 63 : (uint64_t)1 << (bits - 1); }

/* ---- the checks: each returns the i1 "bad" value (0 = no check here) and fills r,
 * a, b with what to report. The builder sits at the end of the head block. ---- */

/* x / 0.0 (opt-in: float-divide-by-zero) */
static KitCgVal check_fdiv(Ub *U, const KitCgInst *in, Rec *r, KitCgVal *a, KitCgVal *b) {
  KitCgType t = (KitCgType)in->type;
  if (!on(U, KIT_SAN_FLOAT_DIVIDE_BY_ZERO) || kit_cg_type_is_vec(t)) return 0;
  KitCgVal zero = t == KIT_CG_F80 ? kit_cg_f80const(&U->b, 0.0L) : kit_cg_fconst(&U->b, t, 0.0);
  KitCgInst *c = emit(U, KIT_CG_OP_FCMP, KIT_CG_I1, in->args[1], zero);
  c->pred = KIT_CG_FOEQ;
  r->handler = "float_divide_by_zero";
  r->check = KIT_SAN_FLOAT_DIVIDE_BY_ZERO;
  r->type = in->tydesc;
  *a = as_u64(U, in->args[0], true);
  *b = as_u64(U, in->args[1], true);
  return c->id;
}

static KitCgVal check_arith(Ub *U, const KitCgInst *in, Rec *r, KitCgVal *a, KitCgVal *b) {
  const KitCgTyDesc *d = td(U, in);
  KitCgType t = (KitCgType)in->type;
  if (in->op == KIT_CG_OP_FDIV) return check_fdiv(U, in, r, a, b);
  if (!d || !kit_cg_type_is_int(t) || t == KIT_CG_I128) return 0;
  KitCgVal x = in->args[0], y = in->nargs > 1 ? in->args[1] : 0;
  bool sgn = d->is_signed;
  r->type = in->tydesc;
  r->type2 = in->tydesc;
  switch (in->op) {
  case KIT_CG_OP_ADD: case KIT_CG_OP_SUB: case KIT_CG_OP_MUL: {
    /* signed: the nsw fact; unsigned (opt-in, int and wider: narrower types
     * were promoted to int by C) wraps by definition but is still reported */
    bool s = (in->flags & KIT_CG_F_NSW) && on(U, KIT_SAN_SIGNED_INTEGER_OVERFLOW);
    bool u = !sgn && d->kind == KIT_CG_TD_INT && d->bits >= 32 && on(U, KIT_SAN_UNSIGNED_INTEGER_OVERFLOW);
    if (!s && !u) return 0;
    r->handler = "overflow";
    r->check = s ? KIT_SAN_SIGNED_INTEGER_OVERFLOW : KIT_SAN_UNSIGNED_INTEGER_OVERFLOW;
    /* unary minus: kitcc lowers -v as `sub 0, v` with the 0 emitted right
     * after v, where a written `0 - v` has the 0 before v's code */
    const KitCgBlock *hb = &U->f->blocks[U->at_blk];
    const KitCgInst *prev = in->op == KIT_CG_OP_SUB && U->at_pos > 0 && U->at_pos <= hb->ninsts
                                ? &hb->insts[U->at_pos - 1] : NULL;
    bool neg = prev && prev->id == x && prev->op == KIT_CG_OP_CONST && prev->imm == 0;
    r->extra = neg ? 'n' : in->op == KIT_CG_OP_ADD ? '+' : in->op == KIT_CG_OP_SUB ? '-' : '*';
    *a = as_u64(U, x, s);
    *b = as_u64(U, y, s);
    KitCgOp ov = in->op == KIT_CG_OP_ADD ? (s ? KIT_CG_OP_SADDO : KIT_CG_OP_UADDO)
                 : in->op == KIT_CG_OP_SUB ? (s ? KIT_CG_OP_SSUBO : KIT_CG_OP_USUBO)
                                           : (s ? KIT_CG_OP_SMULO : KIT_CG_OP_UMULO);
    return emit(U, ov, KIT_CG_I1, x, y)->id;
  }
  case KIT_CG_OP_SHL: case KIT_CG_OP_ASHR: case KIT_CG_OP_LSHR: {
    if (!(in->flags & KIT_CG_F_SHIFT_INRANGE)) return 0;
    bool exp = on(U, KIT_SAN_SHIFT_EXPONENT);
    bool base = in->op == KIT_CG_OP_SHL && sgn && on(U, KIT_SAN_SHIFT_BASE);
    if (!exp && !base) return 0;
    unsigned w = kit_cg_type_bits(t);
    r->handler = "shift";
    r->check = exp ? KIT_SAN_SHIFT_EXPONENT : KIT_SAN_SHIFT_BASE;
    r->extra = in->op == KIT_CG_OP_SHL;
    *a = as_u64(U, x, sgn);
    *b = as_u64(U, y, sgn);
    KitCgVal oob = icmp(U, KIT_CG_UGE, y, iconst(U, t, w));
    if (!base) return oob;
    /* C: the bits shifted out past the sign bit must be zero, sign bit included */
    KitCgVal amt = emit3(U, KIT_CG_OP_SELECT, t, oob, iconst(U, t, 0), y)->id;
    KitCgVal keep = op2(U, KIT_CG_OP_SUB, iconst(U, t, w - 1), amt);
    KitCgVal out = op2(U, KIT_CG_OP_LSHR, x, keep);
    KitCgVal bad = icmp(U, KIT_CG_NE, out, iconst(U, t, 0));
    return exp ? op2(U, KIT_CG_OP_OR, oob, bad) : op2(U, KIT_CG_OP_AND, bad, conv(U, KIT_CG_OP_NOT, KIT_CG_I1, oob));
  }
  case KIT_CG_OP_SDIV: case KIT_CG_OP_SREM: case KIT_CG_OP_UDIV: case KIT_CG_OP_UREM: {
    bool dz = on(U, KIT_SAN_INTEGER_DIVIDE_BY_ZERO);
    bool ov = sgn && on(U, KIT_SAN_SIGNED_INTEGER_OVERFLOW);
    if (!dz && !ov) return 0;
    r->handler = "divrem";
    r->check = dz ? KIT_SAN_INTEGER_DIVIDE_BY_ZERO : KIT_SAN_SIGNED_INTEGER_OVERFLOW;
    *a = as_u64(U, x, sgn);
    *b = as_u64(U, y, sgn);
    KitCgVal bad = dz ? icmp(U, KIT_CG_EQ, y, iconst(U, t, 0)) : 0;
    if (ov) {
      unsigned w = kit_cg_type_bits(t);
      KitCgVal m1 = icmp(U, KIT_CG_EQ, y, iconst(U, t, ~(uint64_t)0));
      KitCgVal mn = icmp(U, KIT_CG_EQ, x, iconst(U, t, smin_of(w)));
      KitCgVal both = op2(U, KIT_CG_OP_AND, m1, mn);
      bad = bad ? op2(U, KIT_CG_OP_OR, bad, both) : both;
    }
    return bad;
  }
  case KIT_CG_OP_CLZ: case KIT_CG_OP_CTZ:
    if (!on(U, KIT_SAN_BUILTIN)) return 0;
    r->handler = "invalid_builtin";
    r->check = KIT_SAN_BUILTIN;
    r->extra = in->op == KIT_CG_OP_CLZ;
    return icmp(U, KIT_CG_EQ, x, iconst(U, t, 0));
  default:
    return 0;
  }
}

/* the index of a bounds-checked PTRADD: its offset is idx or idx * size */
static KitCgVal bounds_index(Ub *U, const KitCgInst *in, bool *is_signed) {
  KitCgVal off = in->args[1];
  KitCgInst *d = kit_cg_def(U->f, off);
  *is_signed = true;
  bool neg = d && d->op == KIT_CG_OP_NEG; /* a - n */
  if (neg) d = kit_cg_def(U->f, d->args[0]);
  if (d && d->op == KIT_CG_OP_MUL) {
    KitCgInst *s = kit_cg_def(U->f, d->args[1]);
    if (!s || s->op != KIT_CG_OP_CONST || s->imm == 0) return 0;
    return neg ? emit(U, KIT_CG_OP_NEG, KIT_CG_I64, d->args[0], 0)->id : d->args[0];
  }
  return off;
}

#define ROOM_UNKNOWN INT64_MIN
static int64_t room_at(Ub *U, const KitCgBlock *bb, uint32_t i);

/* Which values are addresses accessed (loaded/stored through, indexed by a
 * bounds-checked PTRADD, a memory op's operand) rather than only formed?
 * Forming &a[n] is legal; reading a[n] is not. Marked once per function. */
static void mark_accessed(Ub *U) {
  free(U->accessed);
  U->accessed = zalloc(U->f->nvals + 1);
  free(U->room);
  U->room = zalloc((U->f->nvals + 1) * sizeof *U->room);
  for (uint32_t v = 0; v <= U->f->nvals; v++) U->room[v] = ROOM_UNKNOWN;
  U->naccessed = U->f->nvals;
  bool sizes = on(U, KIT_SAN_OBJECT_SIZE);
  for (uint32_t bi = 0; bi < U->f->nblocks; bi++) {
    KitCgBlock *bb = &U->f->blocks[bi];
    for (uint32_t i = 0; i < bb->ninsts; i++) {
      KitCgInst *x = &bb->insts[i];
      if (sizes && x->id && x->id < U->naccessed && x->type == KIT_CG_PTR) U->room[x->id] = room_at(U, bb, i);
      KitCgVal v = 0, w = 0;
      if (x->op == KIT_CG_OP_LOAD) v = x->args[0];
      if (x->op == KIT_CG_OP_STORE) v = x->args[1];
      if (x->op == KIT_CG_OP_PTRADD && (x->flags & KIT_CG_F_BOUNDS)) v = x->args[0];
      /* the frontend's own copies (struct assignment, initializers) access; memcpy(3) only passes */
      bool memop = x->op == KIT_CG_OP_MEMCPY || x->op == KIT_CG_OP_MEMMOVE || x->op == KIT_CG_OP_MEMSET;
      if (memop && !(x->flags & KIT_CG_F_PASSED)) {
        v = x->args[0];
        if (x->op != KIT_CG_OP_MEMSET) w = x->args[1];
      }
      if (v < U->naccessed) U->accessed[v] = 1;
      if (w < U->naccessed) U->accessed[w] = 1;
    }
  }
}

static bool is_accessed(Ub *U, KitCgVal v) { return v && v < U->naccessed && U->accessed[v]; }

static KitCgVal check_bounds(Ub *U, const KitCgInst *in, Rec *r, KitCgVal *a) {
  if (!(in->flags & KIT_CG_F_BOUNDS) || !on(U, KIT_SAN_ARRAY_BOUNDS) || in->bound < 0) return 0;
  bool sgn;
  KitCgVal idx = bounds_index(U, in, &sgn);
  if (!idx || kit_cg_val_type(U->f, idx) != KIT_CG_I64) return 0;
  r->handler = "out_of_bounds";
  r->check = KIT_SAN_ARRAY_BOUNDS;
  r->type = in->tydesc;
  *a = idx;
  bool acc = is_accessed(U, in->id);
  return icmp(U, acc ? KIT_CG_UGE : KIT_CG_UGT, idx, iconst(U, KIT_CG_I64, (uint64_t)in->bound));
}

/* ---- object-size: the object behind a pointer, where the CG shows it ---- */

/* a constant integer, through sign/zero extensions */
static bool const_int(Ub *U, KitCgVal v, int64_t *out) {
  for (int depth = 0; depth < 4; depth++) {
    KitCgInst *d = kit_cg_def(U->f, v);
    if (!d) return false;
    if (d->op == KIT_CG_OP_CONST && kit_cg_type_is_int((KitCgType)d->type)) {
      unsigned w = kit_cg_type_bits((KitCgType)d->type);
      *out = w < 64 ? (int64_t)(d->imm << (64 - w)) >> (64 - w) : (int64_t)d->imm;
      return true;
    }
    if (d->op != KIT_CG_OP_SEXT && d->op != KIT_CG_OP_ZEXT) return false;
    v = d->args[0];
  }
  return false;
}

static int64_t room_of(Ub *U, KitCgVal v) { return v && v < U->naccessed ? U->room[v] : ROOM_UNKNOWN; }

/* the value last stored to the noescape stack slot `addr` before position
 * pos of bb (the frontend keeps locals in slots), or 0 */
static KitCgVal slot_value(Ub *U, const KitCgBlock *bb, uint32_t pos, KitCgVal addr) {
  KitCgInst *a = kit_cg_def(U->f, addr);
  if (!a || a->op != KIT_CG_OP_STACKADDR || a->aux >= U->f->nstack || U->f->stack[a->aux].escapes) return 0;
  for (uint32_t i = pos; i-- > 0;) {
    const KitCgInst *x = &bb->insts[i];
    if (x->op != KIT_CG_OP_STORE) continue;
    KitCgInst *xa = kit_cg_def(U->f, x->args[1]);
    if (xa && xa->op == KIT_CG_OP_STACKADDR && xa->aux == a->aux) return x->args[0];
  }
  return 0;
}

/* The bytes left from pointer insts[i] of bb to the end of its object: a
 * stack object, a global defined here, malloc/calloc of a constant size,
 * through constant PTRADDs and noescape slots stored in the same block.
 * Computed before instrumentation splits blocks; in block order, so a
 * pointer from a later-numbered block stays unknown. */
static int64_t room_at(Ub *U, const KitCgBlock *bb, uint32_t i) {
  const KitCgInst *d = &bb->insts[i];
  int64_t k, n, base;
  switch (d->op) {
  case KIT_CG_OP_STACKADDR:
    return d->aux < U->f->nstack ? (int64_t)U->f->stack[d->aux].size : ROOM_UNKNOWN;
  case KIT_CG_OP_SYMADDR: {
    const KitCgSymbol *sy = &U->m->syms[d->aux];
    if (sy->kind != KIT_CG_SYM_GLOBAL || !sy->defined || sy->linkage == KIT_CG_LINK_WEAK ||
        sy->linkage == KIT_CG_LINK_COMMON)
      return ROOM_UNKNOWN;
    return (int64_t)kit_cg_global_of(U->m, d->aux)->size - (int64_t)d->imm;
  }
  case KIT_CG_OP_PTRADD:
    base = room_of(U, d->args[0]);
    return base != ROOM_UNKNOWN && const_int(U, d->args[1], &k) && k >= 0 ? base - k : ROOM_UNKNOWN;
  case KIT_CG_OP_CALL: {
    const char *name = kit_cg_strget(U->m, U->m->syms[d->aux].name);
    if (!strcmp(name, "malloc") && d->nargs == 1 && const_int(U, d->args[0], &n) && n >= 0) return n;
    if (!strcmp(name, "calloc") && d->nargs == 2 && const_int(U, d->args[0], &n) && const_int(U, d->args[1], &k) &&
        n >= 0 && k >= 0 && n < (1 << 30) && k < (1 << 30))
      return n * k;
    return ROOM_UNKNOWN;
  }
  case KIT_CG_OP_LOAD:
    return d->type == KIT_CG_PTR ? room_of(U, slot_value(U, bb, i, d->args[0])) : ROOM_UNKNOWN;
  default:
    return ROOM_UNKNOWN;
  }
}

/* object-size: an access of `bytes` at ptr that its object cannot hold (a
 * verdict known at compile time) */
static bool too_small(Ub *U, KitCgVal ptr, uint64_t bytes) {
  int64_t room = room_of(U, ptr);
  return on(U, KIT_SAN_OBJECT_SIZE) && room != ROOM_UNKNOWN && (room < 0 || (uint64_t)room < bytes);
}

static KitCgVal or_bad(Ub *U, KitCgVal bad, KitCgVal more) { return bad ? op2(U, KIT_CG_OP_OR, bad, more) : more; }

/* the type_mismatch record and verdict shared by accesses and member
 * accesses: ptr null (when `null`), not `align`-aligned (when `al`), or in an
 * object known now to be too small; `kind` is the handler's access kind
 * (0 load, 1 store, 2 member access) */
static KitCgVal type_mismatch(Ub *U, const KitCgInst *in, Rec *r, KitCgVal *a, KitCgVal ptr, bool null, bool al,
                              uint32_t align, bool small, uint32_t kind) {
  r->handler = "type_mismatch";
  r->check = null ? KIT_SAN_NULL : KIT_SAN_ALIGNMENT;
  r->type = in->tydesc;
  r->extra = kind;
  r->extra2 = align;
  *a = as_u64(U, ptr, false);
  KitCgVal bad = null ? icmp(U, KIT_CG_EQ, *a, iconst(U, KIT_CG_I64, 0)) : 0;
  if (al) {
    KitCgVal low = op2(U, KIT_CG_OP_AND, *a, iconst(U, KIT_CG_I64, align - 1));
    bad = or_bad(U, bad, icmp(U, KIT_CG_NE, low, iconst(U, KIT_CG_I64, 0)));
  }
  if (small) {
    bad = or_bad(U, bad, iconst(U, KIT_CG_I1, 1));
    r->check = KIT_SAN_OBJECT_SIZE;
  }
  return bad;
}

/* null and alignment of a C lvalue access (LOAD/STORE with a tydesc) */
static KitCgVal check_access(Ub *U, const KitCgInst *in, Rec *r, KitCgVal *a) {
  if (!in->tydesc || in->cls != KIT_CG_PROGRAM) return 0;
  bool null = on(U, KIT_SAN_NULL);
  uint32_t align = (uint32_t)in->imm;
  bool al = on(U, KIT_SAN_ALIGNMENT) && align > 1;
  KitCgVal ptr = in->op == KIT_CG_OP_LOAD ? in->args[0] : in->args[1];
  KitCgType at = in->op == KIT_CG_OP_LOAD ? (KitCgType)in->type : kit_cg_val_type(U->f, in->args[0]);
  bool small = kit_cg_type_bits(at) >= 8 && too_small(U, ptr, kit_cg_type_bits(at) / 8);
  if (!null && !al && !small) return 0;
  return type_mismatch(U, in, r, a, ptr, null, al, align, small, in->op == KIT_CG_OP_STORE);
}

/* float -> int conversion outside the destination's range (or NaN) */
static KitCgVal check_float_cast(Ub *U, const KitCgInst *in, Rec *r, KitCgVal *a) {
  const KitCgTyDesc *d = td(U, in);
  if (!d || !on(U, KIT_SAN_FLOAT_CAST_OVERFLOW) || in->type == KIT_CG_I128) return 0;
  KitCgVal x = in->args[0];
  KitCgType ft = kit_cg_val_type(U->f, x);
  unsigned w = kit_cg_type_bits((KitCgType)in->type);
  bool sgn = in->op == KIT_CG_OP_FPTOSI;
  /* valid iff lo < x < hi, exact in f64 for w <= 32 and in f80 always */
  long double p = 1.0L;
  for (unsigned k = 0; k + (sgn ? 1 : 0) < w; k++) p *= 2.0L;
  long double lo = sgn ? -p - 1.0L : -1.0L, hi = p;
  KitCgVal v = x;
  KitCgType ct = ft == KIT_CG_F80 || w > 32 ? KIT_CG_F80 : KIT_CG_F64;
  if (ft != ct) v = conv(U, KIT_CG_OP_FPEXT, ct, x);
  KitCgVal clo = ct == KIT_CG_F80 ? kit_cg_f80const(&U->b, lo) : kit_cg_fconst(&U->b, ct, (double)lo);
  KitCgVal chi = ct == KIT_CG_F80 ? kit_cg_f80const(&U->b, hi) : kit_cg_fconst(&U->b, ct, (double)hi);
  KitCgInst *c1 = emit(U, KIT_CG_OP_FCMP, KIT_CG_I1, v, clo);
  c1->pred = KIT_CG_FOGT;
  KitCgVal gt = c1->id;
  KitCgInst *c2 = emit(U, KIT_CG_OP_FCMP, KIT_CG_I1, v, chi);
  c2->pred = KIT_CG_FOLT;
  KitCgVal ok = op2(U, KIT_CG_OP_AND, gt, c2->id);
  r->handler = "float_cast_overflow";
  r->check = KIT_SAN_FLOAT_CAST_OVERFLOW;
  r->type = in->tydesc;
  r->extra = kit_cg_type_bits(ft);
  *a = as_u64(U, x, true);
  return conv(U, KIT_CG_OP_NOT, KIT_CG_I1, ok);
}

/* ---- the walk ---------------------------------------------------------------- */

/* p->m: the frontend's PTRADD carrying the struct's tydesc (kind OTHER, align) */
static KitCgVal check_member(Ub *U, const KitCgInst *in, Rec *r, KitCgVal *a) {
  const KitCgTyDesc *d = td(U, in);
  bool null = on(U, KIT_SAN_NULL), al = on(U, KIT_SAN_ALIGNMENT) && d->align > 1;
  bool small = d->bits >= 8 && too_small(U, in->args[0], d->bits / 8u);
  if (!null && !al && !small) return 0;
  return type_mismatch(U, in, r, a, in->args[0], null, al, d->align, small, 2);
}

static bool is_member_access(Ub *U, const KitCgInst *in) {
  const KitCgTyDesc *d = td(U, in);
  return in->op == KIT_CG_OP_PTRADD && d && d->kind == KIT_CG_TD_OTHER && !(in->flags & KIT_CG_F_BOUNDS);
}

static KitCgVal check_before(Ub *U, const KitCgInst *in, Rec *r, KitCgVal *a, KitCgVal *b) {
  switch (in->op) {
  case KIT_CG_OP_PTRADD: return is_member_access(U, in) ? check_member(U, in, r, a) : check_bounds(U, in, r, a);
  case KIT_CG_OP_LOAD: case KIT_CG_OP_STORE: return check_access(U, in, r, a);
  case KIT_CG_OP_FPTOSI: case KIT_CG_OP_FPTOUI: return check_float_cast(U, in, r, a);
  default: return check_arith(U, in, r, a, b);
  }
}

/* _Bool loaded from memory must be 0 or 1: checked after the load */
static KitCgVal check_bool(Ub *U, const KitCgInst *in, Rec *r, KitCgVal *a, KitCgVal *b) {
  (void)b;
  if (in->op != KIT_CG_OP_LOAD || !on(U, KIT_SAN_BOOL)) return 0;
  const KitCgTyDesc *d = td(U, in);
  if (!d || d->kind != KIT_CG_TD_INT || d->bits != 1 || !kit_cg_type_is_int((KitCgType)in->type)) return 0;
  r->handler = "load_invalid_value";
  r->check = KIT_SAN_BOOL;
  r->type = in->tydesc;
  *a = as_u64(U, in->id, false);
  return icmp(U, KIT_CG_UGT, in->id, iconst(U, (KitCgType)in->type, 1));
}

/* The index times the element size overflowing i64 (clang's OffsetOverflows):
 * the frontend scales by a MUL of its own (no tydesc) by a constant. */
static KitCgVal offset_overflows(Ub *U, const KitCgInst *in) {
  KitCgInst *d = kit_cg_def(U->f, in->args[1]);
  if (d && (in->flags & KIT_CG_F_PTRSUB) && d->op == KIT_CG_OP_NEG) d = kit_cg_def(U->f, d->args[0]);
  int64_t scale;
  if (!d || d->op != KIT_CG_OP_MUL || d->tydesc || !const_int(U, d->args[1], &scale) || scale <= 1) return 0;
  KitCgVal hi = icmp(U, KIT_CG_SGT, d->args[0], iconst(U, KIT_CG_I64, (uint64_t)(INT64_MAX / scale)));
  KitCgVal lo = icmp(U, KIT_CG_SLT, d->args[0], iconst(U, KIT_CG_I64, (uint64_t)(INT64_MIN / scale)));
  return op2(U, KIT_CG_OP_OR, hi, lo);
}

/* C pointer arithmetic (a PTRADD with a tydesc), checked on the result as
 * clang does for C: the base or the result null (nullptr + 0 is undefined in
 * C), or the result on the wrong side of the base for the index's signedness
 * and direction: a signed offset may go either way, an unsigned one added
 * may not come out below the base, subtracted not above it. */
static KitCgVal check_ptr_overflow(Ub *U, const KitCgInst *in, Rec *r, KitCgVal *a, KitCgVal *b) {
  if (in->op != KIT_CG_OP_PTRADD || !in->tydesc || is_member_access(U, in) || !on(U, KIT_SAN_POINTER_OVERFLOW))
    return 0;
  /* the result computed on integers, as clang computes it (LLVM may fold a
   * test of the inbounds GEP's own value) */
  KitCgVal off = in->args[1];
  if (kit_cg_val_type(U->f, off) != KIT_CG_I64) off = conv(U, KIT_CG_OP_SEXT, KIT_CG_I64, off);
  KitCgVal base = as_u64(U, in->args[0], false), res = op2(U, KIT_CG_OP_ADD, base, off);
  KitCgVal zero = iconst(U, KIT_CG_I64, 0);
  /* the base's null test on the pointer, as clang's: from -O1 LLVM folds
   * "an inbounds GEP of P is null" to "P is null" (the backend's GEPs for C
   * pointer arithmetic are inbounds), so `base = src - n; base + i` reports
   * base's null result once, not i's offset from it (lz4.c) */
  KitCgVal bnull = icmp(U, KIT_CG_EQ, in->args[0], kit_cg_iconst(&U->b, KIT_CG_PTR, 0));
  KitCgVal rnull = icmp(U, KIT_CG_EQ, res, zero);
  KitCgVal bad = op2(U, KIT_CG_OP_OR, bnull, rnull);
  KitCgVal below = icmp(U, KIT_CG_ULT, res, base), above = icmp(U, KIT_CG_UGT, res, base);
  KitCgVal wrap;
  if (!(in->flags & KIT_CG_F_UINDEX))
    wrap = emit3(U, KIT_CG_OP_SELECT, KIT_CG_I1, icmp(U, KIT_CG_SGE, in->args[1], zero), below, above)->id;
  else
    wrap = in->flags & KIT_CG_F_PTRSUB ? above : below;
  bad = op2(U, KIT_CG_OP_OR, bad, wrap);
  KitCgVal ovf = offset_overflows(U, in);
  if (ovf) bad = op2(U, KIT_CG_OP_OR, bad, ovf);
  r->handler = "pointer_overflow";
  r->check = KIT_SAN_POINTER_OVERFLOW;
  *a = base;
  *b = res;
  return bad;
}

/* a pointer declared nonnull: the frontend's ICMP (address != 0) with a ptr
 * tydesc named by the attribute's location, bits = the argument number (0:
 * the returned value) */
static KitCgVal check_nonnull(Ub *U, const KitCgInst *in, Rec *r) {
  const KitCgTyDesc *d = td(U, in);
  uint64_t check = d->bits ? KIT_SAN_NONNULL_ATTRIBUTE : KIT_SAN_RETURNS_NONNULL_ATTRIBUTE;
  if (!on(U, check)) return 0;
  r->handler = d->bits ? "nonnull_arg" : "nonnull_return";
  r->check = check;
  r->type = in->tydesc;
  r->extra = d->bits;
  return conv(U, KIT_CG_OP_NOT, KIT_CG_I1, in->id);
}

/* an implicit integer conversion: the frontend's ICMP EQ (src, the result
 * converted back) with a tydesc (kind OTHER) of the destination type whose
 * pointee is the source's. Which test, and under which check, is clang's:
 * truncation (of a signed source, or between unsigned types) compares the
 * round trip; a sign change compares the signs of source and result; an
 * unsigned source truncated to a signed type gets both under sign-change. */
static KitCgVal check_conversion(Ub *U, const KitCgInst *in, Rec *r, KitCgVal *a, KitCgVal *b) {
  const KitCgTyDesc *to = td(U, in), *from = &U->m->tydescs[to->pointee];
  KitCgVal src = in->args[0];
  unsigned sb = from->bits, db = to->bits;
  bool ss = from->is_signed, ds = to->is_signed, trunc = sb > db;
  bool sign_on = on(U, KIT_SAN_IMPLICIT_INTEGER_SIGN_CHANGE);
  bool strunc_on = on(U, KIT_SAN_IMPLICIT_SIGNED_INTEGER_TRUNCATION);
  uint64_t tcheck = !ss && !ds ? KIT_SAN_IMPLICIT_UNSIGNED_INTEGER_TRUNCATION : KIT_SAN_IMPLICIT_SIGNED_INTEGER_TRUNCATION;
  bool do_trunc = trunc && !(sign_on && !ss && ds) && on(U, tcheck);
  bool do_sign = !do_trunc && sign_on && !(ss == ds && sb == db) && (ss || ds) && !(db > sb && ds) &&
                 !(strunc_on && trunc && ss);
  if (!do_trunc && !do_sign) return 0;
  KitCgVal lost = conv(U, KIT_CG_OP_NOT, KIT_CG_I1, in->id);
  KitCgType st = kit_cg_val_type(U->f, src);
  KitCgType dt = db == 8 ? KIT_CG_I8 : db == 16 ? KIT_CG_I16 : db == 32 ? KIT_CG_I32 : KIT_CG_I64;
  KitCgVal dst = st == dt ? src : conv(U, sb > db ? KIT_CG_OP_TRUNC : ss ? KIT_CG_OP_SEXT : KIT_CG_OP_ZEXT, dt, src);
  KitCgVal bad = lost;
  r->check = tcheck;
  if (do_sign) {
    KitCgVal sneg = ss ? icmp(U, KIT_CG_SLT, src, iconst(U, st, 0)) : iconst(U, KIT_CG_I1, 0);
    KitCgVal dneg = ds ? icmp(U, KIT_CG_SLT, dst, iconst(U, dt, 0)) : iconst(U, KIT_CG_I1, 0);
    bad = op2(U, KIT_CG_OP_XOR, sneg, dneg);
    if (strunc_on && trunc && !ss && ds) bad = op2(U, KIT_CG_OP_OR, bad, lost);
    r->check = KIT_SAN_IMPLICIT_INTEGER_SIGN_CHANGE;
  }
  r->handler = "implicit_conversion";
  r->type = to->pointee;
  r->type2 = in->tydesc;
  r->extra = r->check == KIT_SAN_IMPLICIT_INTEGER_SIGN_CHANGE ? 2 : r->check == KIT_SAN_IMPLICIT_SIGNED_INTEGER_TRUNCATION;
  *a = as_u64(U, src, ss);
  *b = as_u64(U, dst, ds);
  return bad;
}

/* a VLA bound must be positive: the frontend's ICMP (bound > 0) with the bound's tydesc */
static KitCgVal check_vla_bound(Ub *U, const KitCgInst *in, Rec *r, KitCgVal *a, KitCgVal *b) {
  (void)b;
  if (in->op != KIT_CG_OP_ICMP || !in->tydesc) return 0;
  const KitCgTyDesc *d = td(U, in);
  if (d->kind == KIT_CG_TD_PTR) return check_nonnull(U, in, r);
  if (d->kind == KIT_CG_TD_OTHER && d->pointee) return check_conversion(U, in, r, a, b);
  if (!on(U, KIT_SAN_VLA_BOUND)) return 0;
  r->handler = "vla_bound_not_positive";
  r->check = KIT_SAN_VLA_BOUND;
  r->type = in->tydesc;
  *a = as_u64(U, in->args[0], d->is_signed);
  return conv(U, KIT_CG_OP_NOT, KIT_CG_I1, in->id);
}

static KitCgVal check_after(Ub *U, const KitCgInst *in, Rec *r, KitCgVal *a, KitCgVal *b) {
  switch (in->op) {
  case KIT_CG_OP_LOAD: return check_bool(U, in, r, a, b);
  case KIT_CG_OP_PTRADD: return check_ptr_overflow(U, in, r, a, b);
  case KIT_CG_OP_ICMP: return check_vla_bound(U, in, r, a, b);
  default: return 0;
  }
}

typedef KitCgVal (*CheckFn)(Ub *U, const KitCgInst *in, Rec *r, KitCgVal *a, KitCgVal *b);

/* Guard the code from position pos of *cur on with fn's check of `in`. The
 * test is built in a fresh block first (nothing changes when fn declines),
 * then moved to the end of the head; that fresh block becomes the cold one.
 * On success *cur is the block that now starts at pos. */
static bool guard(Ub *U, KitCgBlkId *cur, uint32_t pos, const KitCgInst *in, CheckFn fn) {
  KitCgBlkId cold = kit_cg_block_new(U->m, U->f);
  kit_cg_builder_at(&U->b, cold);
  U->b.loc = in->loc;
  Rec r = {0};
  KitCgVal a = 0, b = 0;
  U->at_blk = *cur;
  U->at_pos = pos;
  KitCgVal bad = fn(U, in, &r, &a, &b);
  if (!bad) {
    U->f->nblocks--; /* still the last block: nothing was emitted */
    return false;
  }
  KitCgBlkId cont = split(U, *cur, pos);
  /* a checked op must not stay undefined for the backend when execution
   * recovers past a report: it wraps (no nsw), shifts modulo the width */
  KitCgInst *orig = &U->f->blocks[cont].insts[0];
  if (orig->id == in->id && orig->op == in->op) {
    if (r.check == KIT_SAN_SIGNED_INTEGER_OVERFLOW && in->op != KIT_CG_OP_SDIV && in->op != KIT_CG_OP_SREM)
      orig->flags &= (uint16_t)~KIT_CG_F_NSW;
    if (r.check == KIT_SAN_SHIFT_EXPONENT || r.check == KIT_SAN_SHIFT_BASE)
      orig->flags &= (uint16_t)~KIT_CG_F_SHIFT_INRANGE;
  }
  KitCgBlock *hb = &U->f->blocks[*cur], *cb = &U->f->blocks[cold];
  uint32_t n = hb->ninsts + cb->ninsts;
  KitCgInst *insts = kit_cg_alloc(U->m, (n + 4) * sizeof(KitCgInst));
  memcpy(insts, hb->insts, hb->ninsts * sizeof(KitCgInst));
  memcpy(insts + hb->ninsts, cb->insts, cb->ninsts * sizeof(KitCgInst));
  hb->insts = insts;
  hb->ninsts = n;
  hb->cap = n + 4;
  cb->ninsts = 0;
  kit_cg_builder_at(&U->b, *cur);
  report_if(U, in, bad, cont, cold, &r, a, b);
  *cur = cont;
  return true;
}

/* __builtin_unreachable (the frontend marks that UNREACHABLE with a tydesc;
 * the ones it adds after noreturn calls have none): report, then stop */
static void instrument_unreachable(Ub *U, KitCgBlkId cur, uint32_t i) {
  KitCgInst in = U->f->blocks[cur].insts[i];
  U->f->blocks[cur].ninsts = i;
  kit_cg_builder_at(&U->b, cur);
  U->b.loc = in.loc;
  if (U->o->trap & KIT_SAN_UNREACHABLE) {
    emit(U, KIT_CG_OP_TRAP, KIT_CG_VOID, 0, 0);
    return;
  }
  Rec r = {.handler = "unreachable", .check = KIT_SAN_UNREACHABLE};
  KitCgVal args[3] = {kit_cg_symaddr(&U->b, record(U, &in, &r), 0), iconst(U, KIT_CG_I64, 0), iconst(U, KIT_CG_I64, 0)};
  KitCgInst *call = kit_cg_emit(&U->b, KIT_CG_OP_CALL, KIT_CG_VOID, args, 3);
  call->aux = handler(U, "unreachable", true);
  call->flags |= KIT_CG_F_COLD | KIT_CG_F_NOINSTR;
  emit(U, KIT_CG_OP_UNREACHABLE, KIT_CG_VOID, 0, 0);
}

static void instrument_block(Ub *U, KitCgBlkId cur) {
  for (uint32_t i = 0; i < U->f->blocks[cur].ninsts; i++) {
    KitCgInst in = U->f->blocks[cur].insts[i];
    if (in.flags & KIT_CG_F_NOINSTR) continue;
    if (in.op == KIT_CG_OP_UNREACHABLE) {
      if (in.tydesc && on(U, KIT_SAN_UNREACHABLE)) instrument_unreachable(U, cur, i);
      return;
    }
    if (!in.tydesc && !(in.op == KIT_CG_OP_PTRADD && (in.flags & KIT_CG_F_BOUNDS))) continue;
    if (guard(U, &cur, i, &in, check_before)) i = 0; /* the op is now insts[0] of cur */
    if (guard(U, &cur, i + 1, &in, check_after)) i = (uint32_t)-1; /* resume at cur's start */
  }
}

static void instrument_func(Ub *U) {
  uint32_t n = U->f->nblocks; /* blocks added while instrumenting are handled by instrument_block */
  for (KitCgBlkId bi = 0; bi < n; bi++) instrument_block(U, bi);
}

/* Run the UBSan checks enabled in o over every function of m. */
int kit_ubsan_run(KitCgModule *m, const KitPassOptions *o) {
  Ub U = {.m = m, .o = o};
  uint32_t nf = m->nfuncs;
  for (uint32_t k = 0; k < nf; k++) {
    KitCgFunc *f = m->funcs[k];
    if (kit_cg_func_is_decl(f) || (f->attrs & KIT_CG_FA_NOSANITIZE)) continue;
    U.f = f;
    kit_cg_builder_init(&U.b, m, f);
    mark_accessed(&U);
    instrument_func(&U);
  }
  free(U.accessed);
  free(U.room);
  free(U.strs);
  free(U.str_keys);
  return 0;
}
