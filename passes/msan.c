/* passes/msan.c — the MemorySanitizer pass over CG: every value gets a shadow
 * of its own width (1 = uninitialized bit) computed next to it, with clang's
 * MemorySanitizer's rules (OR of the operands' shadows for arithmetic, exact
 * and/or, shifted shadows, exact eq/ne, all-or-nothing for conversions and
 * float<->int); blocks are rebuilt as the ASan pass does, checks splitting
 * them (msan_check.c). Shadow types: ints as they are, f32 i32, f64 and ptr
 * i64, f80 i128, vectors the integer vector of their shape. */
#include "msan_internal.h"

#include <stdlib.h>
#include <string.h>

KitCgType msan_shadow_type(KitCgType t) {
  if (kit_cg_type_is_vec(t)) return kit_cg_vec_int(t);
  switch (t) {
  case KIT_CG_F32: return KIT_CG_I32;
  case KIT_CG_F64:
  case KIT_CG_PTR: return KIT_CG_I64;
  case KIT_CG_F80: return KIT_CG_I128;
  default: return t;
  }
}

KitCgInst *msan_emit(MsanFn *M, KitCgOp op, KitCgType t, const KitCgVal *args, uint32_t n) {
  KitCgInst *in = kit_cg_emit(&M->b, op, t, args, n);
  in->flags |= KIT_CG_F_NOINSTR;
  if (kit_cg_op_info[op].flags & KIT_CGO_MEM) in->cls = KIT_CG_INTERNAL;
  return in;
}

static bool is_clean(MsanFn *M, KitCgVal s);

KitCgVal msan_op2(MsanFn *M, KitCgOp op, KitCgVal a, KitCgVal b) {
  /* x | 0, x ^ 0, x & 0: no code (a clean shadow is the type's zero constant) */
  if ((op == KIT_CG_OP_OR || op == KIT_CG_OP_XOR) && is_clean(M, b)) return a;
  if ((op == KIT_CG_OP_OR || op == KIT_CG_OP_XOR) && is_clean(M, a)) return b;
  if (op == KIT_CG_OP_AND && (is_clean(M, a) || is_clean(M, b))) return is_clean(M, a) ? a : b;
  KitCgVal args[2] = {a, b};
  return msan_emit(M, op, kit_cg_val_type(M->f, a), args, 2)->id;
}

static KitCgVal op1(MsanFn *M, KitCgOp op, KitCgType t, KitCgVal a) { return msan_emit(M, op, t, &a, 1)->id; }

KitCgVal msan_i64(MsanFn *M, uint64_t v) { return kit_cg_iconst(&M->b, KIT_CG_I64, v); }

KitCgVal msan_clean(MsanFn *M, KitCgType st) {
  if (M->zero[st]) return M->zero[st];
  KitCgType elem = kit_cg_type_elem(st);
  KitCgInst *c = kit_cg_insert(M->m, M->f, 0, 0, KIT_CG_OP_CONST, elem, NULL, 0);
  c->flags |= KIT_CG_F_NOINSTR;
  KitCgVal v = c->id;
  if (kit_cg_type_is_vec(st)) {
    KitCgInst *s = kit_cg_insert(M->m, M->f, 0, 1, KIT_CG_OP_SPLAT, st, &v, 1);
    s->flags |= KIT_CG_F_NOINSTR;
    v = s->id;
  }
  return M->zero[st] = v;
}

static bool is_clean(MsanFn *M, KitCgVal s) { return s == M->zero[kit_cg_val_type(M->f, s)]; }

KitCgVal msan_shadow_of(MsanFn *M, KitCgVal v) {
  if (v && v < M->nvals0 && M->sh[v]) return M->sh[v];
  return msan_clean(M, msan_shadow_type(kit_cg_val_type(M->f, v)));
}

KitCgVal msan_any(MsanFn *M, KitCgVal s) {
  KitCgType st = kit_cg_val_type(M->f, s);
  if (st == KIT_CG_I1) return s;
  if (kit_cg_type_is_vec(st) || is_clean(M, s)) return msan_clean(M, KIT_CG_I1);
  KitCgVal args[2] = {s, msan_clean(M, st)};
  KitCgInst *ne = msan_emit(M, KIT_CG_OP_ICMP, KIT_CG_I1, args, 2);
  ne->pred = KIT_CG_NE;
  return ne->id;
}

KitCgVal msan_all_or_nothing(MsanFn *M, KitCgVal s, KitCgType t) {
  if (kit_cg_type_is_vec(t) || kit_cg_type_is_vec(kit_cg_val_type(M->f, s)) || is_clean(M, s))
    return msan_clean(M, t);
  KitCgVal any = msan_any(M, s);
  return t == KIT_CG_I1 ? any : op1(M, KIT_CG_OP_SEXT, t, any);
}

/* shadow s (an int) resized to the int shadow type t: what ptrtoint/inttoptr do to bits */
static KitCgVal resize(MsanFn *M, KitCgVal s, KitCgType t) {
  unsigned from = kit_cg_type_bits(kit_cg_val_type(M->f, s)), to = kit_cg_type_bits(t);
  if (from == to) return s;
  return op1(M, from > to ? KIT_CG_OP_TRUNC : KIT_CG_OP_ZEXT, t, s);
}

/* an integer view of value v for the exact rules (ptr -> i64), 0 when there is none */
static KitCgVal int_view(MsanFn *M, KitCgVal v) {
  KitCgType t = kit_cg_val_type(M->f, v);
  if (kit_cg_type_is_int(t)) return v;
  if (t == KIT_CG_PTR) return op1(M, KIT_CG_OP_PTRTOINT, KIT_CG_I64, v);
  return 0;
}

/* a & b: a bit is uninitialized unless an initialized 0 on either side decides it */
static KitCgVal shadow_and(MsanFn *M, KitCgVal a, KitCgVal b, KitCgVal sa, KitCgVal sb) {
  KitCgVal both = msan_op2(M, KIT_CG_OP_AND, sa, sb);
  KitCgVal x = msan_op2(M, KIT_CG_OP_AND, a, sb), y = msan_op2(M, KIT_CG_OP_AND, sa, b);
  return msan_op2(M, KIT_CG_OP_OR, both, msan_op2(M, KIT_CG_OP_OR, x, y));
}

/* a | b: ... unless an initialized 1 on either side decides it */
static KitCgVal shadow_or(MsanFn *M, KitCgVal a, KitCgVal b, KitCgVal sa, KitCgVal sb) {
  KitCgType t = kit_cg_val_type(M->f, a);
  KitCgVal na = op1(M, KIT_CG_OP_NOT, t, a), nb = op1(M, KIT_CG_OP_NOT, t, b);
  return shadow_and(M, na, nb, sa, sb);
}

/* eq/ne are defined when the initialized bits already differ */
static KitCgVal shadow_equality(MsanFn *M, const KitCgInst *in, KitCgVal sa, KitCgVal sb) {
  KitCgVal a = int_view(M, in->args[0]), b = int_view(M, in->args[1]);
  KitCgVal s = msan_op2(M, KIT_CG_OP_OR, sa, sb);
  if (is_clean(M, s) || !a || !b) return msan_any(M, s);
  KitCgType t = kit_cg_val_type(M->f, s);
  KitCgVal diff = msan_op2(M, KIT_CG_OP_XOR, a, b);
  KitCgVal known_diff = msan_op2(M, KIT_CG_OP_AND, diff, op1(M, KIT_CG_OP_NOT, t, s));
  KitCgVal args[2] = {known_diff, msan_clean(M, t)};
  KitCgInst *same = msan_emit(M, KIT_CG_OP_ICMP, KIT_CG_I1, args, 2);
  same->pred = KIT_CG_EQ;
  return msan_op2(M, KIT_CG_OP_AND, msan_any(M, s), same->id);
}

/* lifted code: is v the original constant k */
static bool const_is(const MsanFn *M, KitCgVal v, uint64_t k) {
  return M->is_k && v && v < M->nvals0 && M->is_k[v] && M->k[v] == k;
}

/* v == 0 (or != 0) is defined when an initialized bit of v is set */
static KitCgVal shadow_eq_zero(MsanFn *M, KitCgVal v, KitCgVal s) {
  KitCgType t = kit_cg_val_type(M->f, s);
  KitCgVal iv = int_view(M, v);
  if (is_clean(M, s) || !iv) return msan_any(M, s);
  KitCgVal known_set = msan_op2(M, KIT_CG_OP_AND, iv, op1(M, KIT_CG_OP_NOT, t, s));
  KitCgVal args[2] = {known_set, msan_clean(M, t)};
  KitCgInst *none = msan_emit(M, KIT_CG_OP_ICMP, KIT_CG_I1, args, 2);
  none->pred = KIT_CG_EQ;
  return msan_op2(M, KIT_CG_OP_AND, msan_any(M, s), none->id);
}

/* the unsigned compares that are equalities with 0 (sltu rd, x0, rs; seqz):
 * 0 <u x, x >u 0, x <u 1, x <=u 0, as LLVM canonicalises them for clang's */
static bool zero_test(const MsanFn *M, const KitCgInst *in, KitCgVal *v) {
  KitCgVal a = in->args[0], b = in->args[1];
  switch (in->pred) {
  case KIT_CG_ULT:
    if (const_is(M, a, 0)) return *v = b, true;
    if (const_is(M, b, 1)) return *v = a, true;
    return false;
  case KIT_CG_UGT:
    if (const_is(M, b, 0)) return *v = a, true;
    if (const_is(M, a, 1)) return *v = b, true;
    return false;
  case KIT_CG_ULE:
    if (const_is(M, b, 0)) return *v = a, true;
    return false;
  case KIT_CG_UGE:
    if (const_is(M, a, 0)) return *v = b, true;
    return false;
  default:
    return false;
  }
}

static KitCgVal shadow_select(MsanFn *M, const KitCgInst *in, KitCgType st) {
  /* lifted code: the memory seam's clamp of a guest address (`addr < size ?
   * addr : guard`): as initialized as the address */
  if (msan_lifted(M) && (in->flags & KIT_CG_F_LIKELY) && M->is_k && in->args[2] < M->nvals0 && M->is_k[in->args[2]])
    return msan_shadow_of(M, in->args[1]);
  KitCgVal c = in->args[0], sc = msan_shadow_of(M, c);
  KitCgVal sx = msan_shadow_of(M, in->args[1]), sy = msan_shadow_of(M, in->args[2]);
  if (kit_cg_val_type(M->f, c) != KIT_CG_I1) return msan_clean(M, st);
  KitCgVal args[3] = {c, sx, sy};
  KitCgVal r = msan_emit(M, KIT_CG_OP_SELECT, st, args, 3)->id;
  if (is_clean(M, sc) || kit_cg_type_is_vec(st)) return r;
  /* an uninitialized condition: every bit where the two sides may differ */
  KitCgVal x = int_view(M, in->args[1]), y = int_view(M, in->args[2]), differ;
  if (x && y)
    differ = msan_op2(M, KIT_CG_OP_OR, msan_op2(M, KIT_CG_OP_XOR, x, y), msan_op2(M, KIT_CG_OP_OR, sx, sy));
  else
    differ = op1(M, KIT_CG_OP_NOT, st, msan_clean(M, st));
  KitCgVal a2[3] = {sc, differ, r};
  return msan_emit(M, KIT_CG_OP_SELECT, st, a2, 3)->id;
}

static KitCgVal shadow_shift(MsanFn *M, const KitCgInst *in, KitCgType st) {
  KitCgVal sa = msan_shadow_of(M, in->args[0]), sb = msan_shadow_of(M, in->args[1]);
  KitCgVal shifted = msan_op2(M, (KitCgOp)in->op, sa, in->args[1]);
  if (is_clean(M, sb)) return shifted;
  return msan_op2(M, KIT_CG_OP_OR, shifted, msan_all_or_nothing(M, sb, st));
}

static KitCgVal shadow_conv(MsanFn *M, const KitCgInst *in, KitCgType st) {
  KitCgVal s = msan_shadow_of(M, in->args[0]);
  KitCgType from = kit_cg_val_type(M->f, s);
  switch (in->op) {
  case KIT_CG_OP_TRUNC:
  case KIT_CG_OP_ZEXT:
  case KIT_CG_OP_SEXT:
    return is_clean(M, s) ? msan_clean(M, st) : op1(M, (KitCgOp)in->op, st, s);
  case KIT_CG_OP_PTRTOINT:
  case KIT_CG_OP_INTTOPTR:
    return kit_cg_type_is_vec(st) ? msan_clean(M, st) : resize(M, s, st);
  case KIT_CG_OP_BITCAST:
    if (from == st) return s;
    return msan_clean(M, st);
  default: /* float conversions: all bits or none */
    return msan_all_or_nothing(M, s, st);
  }
}

static KitCgVal shadow_or_of_args(MsanFn *M, const KitCgInst *in, KitCgType st) {
  KitCgVal s = 0;
  for (uint32_t i = 0; i < in->nargs; i++) {
    KitCgVal si = msan_shadow_of(M, in->args[i]);
    if (kit_cg_val_type(M->f, si) != st) return msan_clean(M, st);
    if (is_clean(M, si)) continue;
    s = s ? msan_op2(M, KIT_CG_OP_OR, s, si) : si;
  }
  return s ? s : msan_clean(M, st);
}

/* the shadow of a value op (after the op itself) */
static KitCgVal propagate(MsanFn *M, const KitCgInst *in) {
  KitCgType st = msan_shadow_type((KitCgType)in->type);
  unsigned fl = kit_cg_op_info[in->op].flags;
  KitCgVal sa = in->nargs > 0 ? msan_shadow_of(M, in->args[0]) : 0;
  KitCgVal sb = in->nargs > 1 ? msan_shadow_of(M, in->args[1]) : 0;
  switch (in->op) {
  case KIT_CG_OP_SDIV:
  case KIT_CG_OP_UDIV:
  case KIT_CG_OP_SREM:
  case KIT_CG_OP_UREM:
  case KIT_CG_OP_NEG:
  case KIT_CG_OP_NOT:
  case KIT_CG_OP_FNEG:
  case KIT_CG_OP_FABS:
  case KIT_CG_OP_FSQRT:
    return sa;
  case KIT_CG_OP_AND:
  case KIT_CG_OP_OR:
    if (is_clean(M, sa) && is_clean(M, sb)) return sa;
    return (in->op == KIT_CG_OP_AND ? shadow_and : shadow_or)(M, in->args[0], in->args[1], sa, sb);
  case KIT_CG_OP_SHL:
  case KIT_CG_OP_LSHR:
  case KIT_CG_OP_ASHR:
    return shadow_shift(M, in, st);
  case KIT_CG_OP_SADDO:
  case KIT_CG_OP_UADDO:
  case KIT_CG_OP_SSUBO:
  case KIT_CG_OP_USUBO:
  case KIT_CG_OP_SMULO:
  case KIT_CG_OP_UMULO:
    return msan_any(M, msan_op2(M, KIT_CG_OP_OR, sa, sb));
  case KIT_CG_OP_BSWAP:
    return is_clean(M, sa) ? sa : op1(M, KIT_CG_OP_BSWAP, st, sa);
  case KIT_CG_OP_CLZ:
  case KIT_CG_OP_CTZ:
  case KIT_CG_OP_POPCNT:
    return msan_all_or_nothing(M, sa, st);
  case KIT_CG_OP_ICMP:
  case KIT_CG_OP_FCMP:
    if (kit_cg_type_is_vec(st)) return msan_clean(M, st);
    if (in->op == KIT_CG_OP_ICMP && (in->pred == KIT_CG_EQ || in->pred == KIT_CG_NE))
      return shadow_equality(M, in, sa, sb);
    if (in->op == KIT_CG_OP_ICMP) {
      KitCgVal v;
      if (zero_test(M, in, &v)) return shadow_eq_zero(M, v, msan_shadow_of(M, v));
    }
    return msan_any(M, msan_op2(M, KIT_CG_OP_OR, sa, sb));
  case KIT_CG_OP_SELECT:
    return shadow_select(M, in, st);
  case KIT_CG_OP_PTRADD:
    return shadow_or_of_args(M, in, st);
  case KIT_CG_OP_EXTRACT: {
    KitCgVal args[2] = {sa, in->args[1]};
    return msan_emit(M, KIT_CG_OP_EXTRACT, st, args, 2)->id;
  }
  case KIT_CG_OP_INSERT: {
    KitCgVal args[3] = {sa, sb, in->args[2]};
    return msan_emit(M, KIT_CG_OP_INSERT, st, args, 3)->id;
  }
  case KIT_CG_OP_SHUFFLE: {
    KitCgVal args[2] = {sa, sb};
    KitCgInst *s = msan_emit(M, KIT_CG_OP_SHUFFLE, st, args, 2);
    s->cases = in->cases;
    return s->id;
  }
  case KIT_CG_OP_SPLAT:
    return is_clean(M, sa) ? msan_clean(M, st) : op1(M, KIT_CG_OP_SPLAT, st, sa);
  case KIT_CG_OP_SECOND:
    return in->args[0] < M->nvals0 && M->sh2[in->args[0]] ? M->sh2[in->args[0]] : msan_clean(M, st);
  default:
    break;
  }
  if (fl & KIT_CGO_CONV) return shadow_conv(M, in, st);
  if ((fl & KIT_CGO_BIN) || in->op == KIT_CG_OP_FMA || in->op == KIT_CG_OP_FCOPYSIGN)
    return shadow_or_of_args(M, in, st);
  return msan_clean(M, st);
}

/* ---- the body rewrite ----------------------------------------------------- */


static void add_phi(MsanFn *M, const KitCgInst *in) {
  KitCgInst *p = kit_cg_phi(&M->b, msan_shadow_type((KitCgType)in->type));
  M->sh[in->id] = p->id;
  uint32_t origin = UINT32_MAX;
  if (msan_origins(M)) {
    M->org[in->id] = kit_cg_phi(&M->b, KIT_CG_I32)->id;
    origin = M->f->blocks[M->b.blk].ninsts - 1;
  }
  if (M->nphis == M->phis_cap) {
    M->phis_cap = M->phis_cap ? 2 * M->phis_cap : 16;
    M->phis = realloc(M->phis, M->phis_cap * sizeof *M->phis);
    if (!M->phis) abort();
  }
  const KitCgBlock *bb = &M->f->blocks[M->b.blk];
  uint32_t n = bb->ninsts - (origin != UINT32_MAX);
  M->phis[M->nphis++] = (MsanPhi){M->b.blk, n - 2, n - 1, origin};
}

static bool program_mem(const KitCgInst *in) { return in->cls == KIT_CG_PROGRAM; }
static bool checked(const KitCgInst *in) { return !(in->flags & KIT_CG_F_NOINSTR); }

/* checks and shadow stores that go before the op; true when the op itself was
 * replaced (a memop by the runtime's call) */
static bool before(MsanFn *M, KitCgInst *in) {
  switch (in->op) {
  case KIT_CG_OP_CONDBR:
    if (M->select_br[M->cur_block]) break; /* a select: its join carries the condition */
    /* fall through */
  case KIT_CG_OP_SWITCH:
  case KIT_CG_OP_INDIRECTBR:
    if (checked(in)) {
      KitCgLoc at = M->b.loc;
      if (msan_lifted(M)) M->b.loc = msan_value_loc(M, in->args[0]);
      msan_check_value(M, in->args[0]);
      M->b.loc = at;
    }
    break;
  case KIT_CG_OP_SDIV:
  case KIT_CG_OP_UDIV:
  case KIT_CG_OP_SREM:
  case KIT_CG_OP_UREM:
    /* binaries: checks at control flow, addresses and system calls only, as memcheck's */
    if (checked(in) && !msan_lifted(M) && !kit_cg_type_is_vec((KitCgType)in->type))
      msan_check_value(M, in->args[1]);
    break;
  case KIT_CG_OP_LOAD:
  case KIT_CG_OP_ALOAD:
    if (program_mem(in) && checked(in)) msan_check_value(M, in->args[0]);
    break;
  case KIT_CG_OP_STORE:
  case KIT_CG_OP_ASTORE:
    if (!program_mem(in)) break;
    if (checked(in)) msan_check_value(M, in->args[1]);
    msan_store_shadow(M, msan_shadow_of(M, in->args[0]), kit_cg_val_type(M->f, in->args[0]), in->args[1]);
    if (msan_origins(M))
      msan_store_origin(M, msan_shadow_of(M, in->args[0]), kit_cg_val_type(M->f, in->args[0]), in->args[1],
                        msan_origin_of(M, in->args[0]));
    break;
  case KIT_CG_OP_ARMW:
  case KIT_CG_OP_ACMPXCHG: {
    if (!program_mem(in)) break;
    if (checked(in)) msan_check_value(M, in->args[0]);
    KitCgType t = (KitCgType)in->type;
    M->sh[in->id] = msan_load_shadow(M, t, in->args[0]);
    if (msan_origins(M)) M->org[in->id] = msan_load_origin(M, in->args[0], M->sh[in->id]);
    KitCgVal nv = in->args[in->op == KIT_CG_OP_ARMW ? 1 : 2];
    msan_store_shadow(M, msan_shadow_of(M, nv), t, in->args[0]);
    if (msan_origins(M)) msan_store_origin(M, msan_shadow_of(M, nv), t, in->args[0], msan_origin_of(M, nv));
    break;
  }
  case KIT_CG_OP_MEMCPY:
  case KIT_CG_OP_MEMMOVE:
  case KIT_CG_OP_MEMSET:
    if (!program_mem(in)) break;
    msan_memop(M, in);
    return true;
  case KIT_CG_OP_CALL:
  case KIT_CG_OP_CALLI:
    msan_call_before(M, in);
    break;
  case KIT_CG_OP_RET:
    msan_ret(M, in);
    break;
  case KIT_CG_OP_LIFETIME_START:
    if (in->aux < M->nstack0) msan_poison_object(M, in->aux);
    break;
  default:
    break;
  }
  return false;
}

/* The register save area va_start fills and the caller's stack arguments are
 * written outside the pass's sight; the arguments were checked at the call
 * (eager checks), so va_arg's loads from them see initialized bytes. */
static void va_areas_initialized(MsanFn *M, KitCgVal ap) {
  static const struct { int64_t field; uint64_t bytes; } areas[] = {{16, 176}, {8, 256}};
  for (int k = 0; k < 2; k++) {
    KitCgVal at = msan_emit(M, KIT_CG_OP_PTRADD, KIT_CG_PTR, (KitCgVal[]){ap, msan_i64(M, (uint64_t)areas[k].field)}, 2)->id;
    KitCgInst *ld = msan_emit(M, KIT_CG_OP_LOAD, KIT_CG_PTR, &at, 1);
    msan_set_shadow(M, ld->id, 0, msan_i64(M, areas[k].bytes));
  }
}

/* the memory an op's own machinery writes: made initialized (or, for allocas, not) */
static void after_memory(MsanFn *M, const KitCgInst *in) {
  switch (in->op) {
  case KIT_CG_OP_ALLOCA:
    msan_set_shadow(M, in->id, 0xff, in->args[0]);
    if (msan_origins(M) && !msan_lifted(M)) msan_origin_alloca(M, in);
    break;
  case KIT_CG_OP_VASTART:
    msan_set_shadow(M, in->args[0], 0, msan_i64(M, 24));
    va_areas_initialized(M, in->args[0]);
    break;
  case KIT_CG_OP_VACOPY:
    msan_set_shadow(M, in->args[0], 0, msan_i64(M, 24));
    break;
  case KIT_CG_OP_ASM:
    for (uint32_t k = 0; k < in->nargs && in->argattrs; k++)
      if (in->argattrs[k].type != KIT_CG_VOID && kit_cg_val_type(M->f, in->args[k]) == KIT_CG_PTR)
        msan_set_shadow(M, in->args[k], 0, msan_i64(M, kit_cg_type_size((KitCgType)in->argattrs[k].type)));
    break;
  default:
    break;
  }
}

/* after the phis of a join of a select-like branch: an uninitialized
 * condition makes every phi uninitialized (clang's select rule, coarsened) */
static void poison_join(MsanFn *M) {
  KitCgVal any = msan_any(M, msan_shadow_of(M, M->pending_cond));
  M->pending_cond = 0;
  if (any == M->zero[KIT_CG_I1]) return;
  for (uint32_t i = M->block_phis; i < M->nphis; i++) {
    const MsanPhi *p = &M->phis[i];
    KitCgVal id = M->f->blocks[p->blk].insts[p->orig].id, s = M->sh[id];
    KitCgType st = kit_cg_val_type(M->f, s);
    if (kit_cg_type_is_vec(st)) continue;
    KitCgVal ones = op1(M, KIT_CG_OP_NOT, st, msan_clean(M, st));
    KitCgVal args[3] = {any, ones, s};
    M->sh[id] = msan_emit(M, KIT_CG_OP_SELECT, st, args, 3)->id;
    if (msan_origins(M)) {
      KitCgVal c = M->join_cond[M->cur_block];
      M->org[id] = msan_origin_pick(M, msan_origin_of(M, id), msan_shadow_of(M, c), msan_origin_of(M, c));
    }
  }
}

KitCgLoc msan_value_loc(MsanFn *M, KitCgVal v) {
  KitCgLoc at = M->b.loc;
  if (v && v < M->nvals0 && M->vloc[v].pc && M->vloc[v].pc != M->entry_pc) return M->vloc[v];
  if (M->last_pc) at.pc = M->last_pc;
  return at;
}

/* lifted code: the CPU state offset an INTERNAL access at ptr reaches, or -1 */
static int64_t state_off(MsanFn *M, KitCgVal ptr) {
  KitCgVal cpu = kit_cg_param(M->f, 0);
  uint64_t off;
  if (ptr == cpu) off = 0;
  else if (ptr < M->nvals0 && M->pbase[ptr] == cpu) off = M->k[ptr];
  else return -1;
  return off < M->c->state_size ? (int64_t)off : -1;
}

/* lifted code: remember constants and [base + constant]; the CPU state's
 * loads and stores. true when the op is done (appended) */
static bool lifted_inst(MsanFn *M, const KitCgInst *in) {
  if (in->id && in->id < M->nvals0) {
    if (in->op == KIT_CG_OP_CONST && kit_cg_type_is_int((KitCgType)in->type)) M->is_k[in->id] = true, M->k[in->id] = in->imm;
    if (in->op == KIT_CG_OP_PTRADD && in->args[1] < M->nvals0 && M->is_k[in->args[1]])
      M->pbase[in->id] = in->args[0], M->k[in->id] = M->k[in->args[1]];
  }
  if (in->cls != KIT_CG_INTERNAL || (in->flags & KIT_CG_F_NOINSTR)) return false;
  if (in->op == KIT_CG_OP_STORE) {
    int64_t off = state_off(M, in->args[1]);
    if (off >= 0) msan_state_store(M, in, (uint64_t)off);
    return false;
  }
  if (in->op == KIT_CG_OP_LOAD && in->id) {
    int64_t off = state_off(M, in->args[0]);
    if (off < 0) return false;
    kit_pass_append_original(M->m, M->f, M->b.blk, in);
    M->sh[in->id] = msan_state_load(M, (KitCgType)in->type, (uint64_t)off);
    if (msan_origins(M)) M->org[in->id] = msan_state_load_origin(M, (uint64_t)off);
    return true;
  }
  return false;
}

static void rewrite_inst(MsanFn *M, const KitCgInst *orig) {
  KitCgInst in = *orig;
  if (in.id && in.id < M->nvals0) M->vloc[in.id] = in.loc;
  M->b.loc = in.loc;
  if (msan_lifted(M) && in.loc.pc && in.loc.pc != M->entry_pc) M->last_pc = in.loc.pc;
  if (msan_lifted(M) && in.op != KIT_CG_OP_PHI && lifted_inst(M, &in)) return;
  if (in.op == KIT_CG_OP_PHI) {
    kit_pass_append_original(M->m, M->f, M->b.blk, &in);
    add_phi(M, &in);
    return;
  }
  if (M->pending_cond) poison_join(M);
  if (before(M, &in)) return;
  kit_pass_append_original(M->m, M->f, M->b.blk, &in);
  if (M->shp && in.id && in.id < M->nvals0) { /* the shadow's pointer beside a private object's */
    if (in.op == KIT_CG_OP_STACKADDR && in.aux < M->nstack0 && M->shadow_obj[in.aux])
      M->shp[in.id] = kit_cg_stackaddr(&M->b, M->shadow_obj[in.aux] - 1);
    else if (in.op == KIT_CG_OP_PTRADD && in.args[0] < M->nvals0 && M->shp[in.args[0]]) {
      KitCgVal a[2] = {M->shp[in.args[0]], in.args[1]};
      M->shp[in.id] = msan_emit(M, KIT_CG_OP_PTRADD, KIT_CG_PTR, a, 2)->id;
    }
    if (M->orp && in.op == KIT_CG_OP_STACKADDR && in.aux < M->nstack0 && M->origin_obj[in.aux])
      M->orp[in.id] = kit_cg_stackaddr(&M->b, M->origin_obj[in.aux] - 1);
    else if (M->orp && in.op == KIT_CG_OP_PTRADD && in.args[0] < M->nvals0 && M->orp[in.args[0]])
      M->orp[in.id] = M->orp[in.args[0]];
  }
  after_memory(M, &in);
  if (!in.id || in.id >= M->nvals0 || M->sh[in.id]) return;
  if (in.op == KIT_CG_OP_CALL || in.op == KIT_CG_OP_CALLI) {
    msan_call_after(M, &in);
  } else if ((in.op == KIT_CG_OP_LOAD || in.op == KIT_CG_OP_ALOAD) && program_mem(&in)) {
    M->sh[in.id] = msan_load_shadow(M, (KitCgType)in.type, in.args[0]);
    if (msan_origins(M)) M->org[in.id] = msan_load_origin(M, in.args[0], M->sh[in.id]);
  } else {
    M->sh[in.id] = propagate(M, &in);
    if (msan_origins(M) && M->sh[in.id] != M->zero[kit_cg_val_type(M->f, M->sh[in.id])])
      M->org[in.id] = in.op == KIT_CG_OP_SELECT ? msan_origin_select(M, &in)
                      : in.op == KIT_CG_OP_SECOND ? M->org[in.args[0]] /* a call's results share its origin */
                                                  : msan_origin_combine(M, &in);
  }
}

static void fix_phis(KitCgFunc *f, uint32_t norig, const KitCgBlkId *tail) {
  for (uint32_t bi = 0; bi < norig; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      KitCgInst *in = &f->blocks[bi].insts[i];
      if (in->op != KIT_CG_OP_PHI || !(in->flags & KIT_PASS_ORIGINAL)) continue;
      for (uint32_t k = 0; k < in->nblks; k++)
        if (in->blks[k] < norig) in->blks[k] = tail[in->blks[k]];
    }
}

static void fill_phis(MsanFn *M) {
  for (uint32_t i = 0; i < M->nphis; i++) {
    const MsanPhi *p = &M->phis[i];
    uint32_t n = M->f->blocks[p->blk].insts[p->orig].nargs;
    for (uint32_t k = 0; k < n; k++) {
      const KitCgInst *o = &M->f->blocks[p->blk].insts[p->orig];
      KitCgVal s = msan_shadow_of(M, o->args[k]);
      KitCgBlkId from = o->blks[k];
      kit_cg_phi_add(M->m, &M->f->blocks[p->blk].insts[p->shadow], s, from);
      if (p->origin != UINT32_MAX) {
        KitCgVal org = msan_origin_of(M, M->f->blocks[p->blk].insts[p->orig].args[k]);
        kit_cg_phi_add(M->m, &M->f->blocks[p->blk].insts[p->origin], org, from);
      }
    }
  }
}

/* Lifted code: the pass's own value computations nothing uses (a shadow
 * computed for a value that is never checked or stored) are dropped, as
 * LLVM's optimiser would; tier 0 and the baseline compiler run what they get. */
static void drop_unused(KitCgFunc *f) {
  uint32_t *uses = calloc(f->nvals + 1, sizeof *uses);
  if (!uses) return;
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      for (uint32_t k = 0; k < in->nargs; k++)
        if (in->args[k] <= f->nvals) uses[in->args[k]]++;
    }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t bi = 0; bi < f->nblocks; bi++) {
      KitCgBlock *bl = &f->blocks[bi];
      uint32_t w = 0;
      for (uint32_t i = 0; i < bl->ninsts; i++) {
        KitCgInst *in = &bl->insts[i];
        unsigned fl = kit_cg_op_info[in->op].flags;
        bool pure = (in->flags & KIT_CG_F_NOINSTR) && in->id && in->id <= f->nvals && !uses[in->id] &&
                    (!(fl & (KIT_CGO_TERM | KIT_CGO_MEM | KIT_CGO_SIDE)) ||
                     (in->op == KIT_CG_OP_LOAD && in->cls == KIT_CG_INTERNAL)) && in->op != KIT_CG_OP_CALL &&
                    in->op != KIT_CG_OP_CALLI && in->op != KIT_CG_OP_PHI && in->op != KIT_CG_OP_CONST;
        if (pure) {
          for (uint32_t k = 0; k < in->nargs; k++)
            if (in->args[k] <= f->nvals && uses[in->args[k]]) uses[in->args[k]]--;
          changed = true;
          continue;
        }
        bl->insts[w++] = *in;
      }
      bl->ninsts = w;
    }
  }
  free(uses);
}

uint32_t *msan_stack_bases(const KitCgFunc *f, uint32_t n) {
  uint32_t *from = calloc(f->nvals + 1, sizeof *from);
  if (!from) abort();
  for (int round = 0; round < 2; round++)
    for (uint32_t bi = 0; bi < f->nblocks; bi++)
      for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
        const KitCgInst *in = &f->blocks[bi].insts[i];
        if (!in->id || in->id > f->nvals) continue;
        if (in->op == KIT_CG_OP_STACKADDR && in->aux < n) from[in->id] = in->aux + 1;
        else if (in->op == KIT_CG_OP_PTRADD && in->args[0] <= f->nvals && from[in->args[0]])
          from[in->id] = from[in->args[0]];
      }
  return from;
}

/* Compiled code: the stack objects whose address only ever reaches loads and
 * stores (through ptradds) get a shadow object each (MsanFn.shadow_obj). */
static void private_objects(MsanFn *M) {
  KitCgFunc *f = M->f;
  uint32_t n = M->nstack0;
  if (!n) return;
  uint32_t *from = msan_stack_bases(f, n);
  uint8_t *esc = calloc(n, 1);
  M->shadow_obj = calloc(n, sizeof *M->shadow_obj);
  M->shp = calloc(f->nvals + 1, sizeof *M->shp);
  if (!esc || !M->shadow_obj || !M->shp) abort();
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      for (uint32_t k = 0; k < in->nargs; k++) {
        if (in->args[k] > f->nvals || !from[in->args[k]]) continue;
        bool ok = (in->op == KIT_CG_OP_LOAD && k == 0) || (in->op == KIT_CG_OP_STORE && k == 1) ||
                  (in->op == KIT_CG_OP_PTRADD && k == 0);
        if (!ok || (in->flags & KIT_CG_F_VOLATILE)) esc[from[in->args[k]] - 1] = 1;
      }
    }
  for (uint32_t o = 0; o < n; o++)
    if (!esc[o] && !f->stack[o].escapes)
      M->shadow_obj[o] = kit_cg_stack_new(M->m, f, f->stack[o].size, f->stack[o].align, 0) + 1;
  if (msan_origins(M)) {
    M->origin_obj = calloc(n, sizeof *M->origin_obj);
    M->orp = calloc(f->nvals + 1, sizeof *M->orp);
    if (!M->origin_obj || !M->orp) abort();
    for (uint32_t o = 0; o < n; o++)
      if (M->shadow_obj[o]) M->origin_obj[o] = kit_cg_stack_new(M->m, f, 4, 4, 0) + 1;
  }
  free(from);
  free(esc);
}

static void instrument_function(KitCgModule *m, KitCgFunc *f, const KitMsanConfig *c, const KitCgSym tls[4]) {
  MsanFn M = {.m = m, .f = f, .c = c, .nvals0 = f->nvals, .param_tls = tls[0], .retval_tls = tls[1],
              .param_origin_tls = tls[2], .retval_origin_tls = tls[3]};
  kit_cg_builder_init(&M.b, m, f);
  M.sh = calloc(f->nvals + 1, sizeof *M.sh);
  M.sh2 = calloc(f->nvals + 1, sizeof *M.sh2);
  M.vloc = calloc(f->nvals + 1, sizeof *M.vloc);
  M.select_br = calloc(f->nblocks + 1, sizeof *M.select_br);
  M.join_cond = calloc(f->nblocks + 1, sizeof *M.join_cond);
  uint32_t norig = f->nblocks;
  KitCgBlkId *tail = calloc(norig, sizeof *tail);
  if (!M.sh || !M.sh2 || !M.vloc || !M.select_br || !M.join_cond || !tail) abort();
  if (c->state_size) {
    M.is_k = calloc(f->nvals + 1, sizeof *M.is_k);
    M.k = calloc(f->nvals + 1, sizeof *M.k);
    M.pbase = calloc(f->nvals + 1, sizeof *M.pbase);
    if (!M.is_k || !M.k || !M.pbase) abort();
    if (f->nblocks && f->blocks[0].ninsts) M.entry_pc = f->blocks[0].insts[0].loc.pc;
  }
  M.nstack0 = f->nstack;
  if (msan_origins(&M)) {
    M.org = calloc(f->nvals + 1, sizeof *M.org);
    M.obj_origin = calloc(f->nstack + 1, sizeof *M.obj_origin);
    if (!M.org || !M.obj_origin) abort();
  }
  if (!c->state_size) private_objects(&M);
  if (msan_origins(&M) && c->selects) msan_find_promoted(&M);
  if (c->selects) msan_find_selects(&M);
  for (uint32_t bi = 0; bi < norig; bi++) {
    KitCgInst *old = f->blocks[bi].insts;
    uint32_t n = f->blocks[bi].ninsts;
    f->blocks[bi].insts = NULL;
    f->blocks[bi].ninsts = f->blocks[bi].cap = 0;
    M.b.blk = bi;
    M.cur_block = bi;
    M.pending_cond = M.join_cond[bi];
    M.block_phis = M.nphis;
    if (bi == 0) {
      M.b.loc = (KitCgLoc){.pc = f->loc.pc};
      msan_entry(&M);
    }
    for (uint32_t i = 0; i < n; i++) rewrite_inst(&M, &old[i]);
    tail[bi] = M.b.blk;
  }
  fix_phis(f, norig, tail);
  fill_phis(&M);
  if (c->state_size) drop_unused(f);
  kit_pass_mark_emitted(f);
  free(tail);
  free(M.sh);
  free(M.sh2);
  free(M.vloc);
  free(M.select_br);
  free(M.join_cond);
  free(M.phis);
  free(M.is_k);
  free(M.k);
  free(M.pbase);
  free(M.shadow_obj);
  free(M.shp);
  free(M.org);
  free(M.obj_origin);
  free(M.origin_obj);
  free(M.orp);
  free(M.promoted);
}

static KitCgSym tls_array(KitCgModule *m, const char *name) {
  KitCgSym s = kit_cg_sym_find(m, name);
  if (s != UINT32_MAX) return s;
  KitCgGlobal *g = kit_cg_global_declare(m, name);
  g->is_tls = true;
  return g->sym;
}

/* clang's weak_odr i32: the runtime reads the level the program was built with */
static void define_track_origins(KitCgModule *m, int level) {
  if (kit_cg_sym_find(m, "__msan_track_origins") != UINT32_MAX) return;
  KitCgGlobal *g = kit_cg_global_new(m, "__msan_track_origins", 4, 4);
  int32_t v = level;
  kit_cg_global_set_init(m, g, &v, 4);
  g->is_const = true;
  g->used = true;
  m->syms[g->sym].linkage = KIT_CG_LINK_WEAK;
}

int kit_msan_run(KitCgModule *m, const KitMsanConfig *c) {
  KitCgSym tls[4] = {tls_array(m, "__msan_param_tls"), tls_array(m, "__msan_retval_tls"), 0, 0};
  if (c->origins > 0) {
    tls[2] = tls_array(m, "__msan_param_origin_tls");
    tls[3] = tls_array(m, "__msan_retval_origin_tls");
    define_track_origins(m, c->origins);
  }
  uint32_t nfuncs = m->nfuncs; /* the pass's own declarations come after */
  for (uint32_t i = 0; i < nfuncs; i++) {
    KitCgFunc *f = m->funcs[i];
    if (kit_cg_func_is_decl(f) || (f->attrs & KIT_CG_FA_NOSANITIZE)) continue;
    instrument_function(m, f, c, tls);
  }
  return 0;
}

int kit_msan_run_func(KitCgModule *m, KitCgFunc *f, const KitMsanConfig *c) {
  if (kit_cg_func_is_decl(f) || (f->attrs & KIT_CG_FA_NOSANITIZE)) return 0;
  static const KitCgSym none[4];
  instrument_function(m, f, c, none);
  return 0;
}
