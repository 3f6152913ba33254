/* cg/interp/slow.c — the ops the dispatch loop hands off by their CG form:
 * i128 and f80 arithmetic, bit ops, overflow predicates, conversions (with
 * saturation), wide loads/stores, memory intrinsics, atomics, va_list ops. */
#include "interp.h"

#include <math.h>
#include <string.h>

static unsigned width(KitCgType t) { return t == KIT_CG_PTR ? 64 : kit_cg_type_bits(t); }

static int64_t sx(uint64_t v, KitCgType t) {
  unsigned w = width(t);
  return w >= 64 ? (int64_t)v : (int64_t)sxw(v, 64 - w);
}

/* ---- integers ------------------------------------------------------------------ */

/* an integer comparison from the three facts every predicate derives from;
 * -1 for a predicate that is not one (both widths use it) */
static int icmp(unsigned pred, bool eq, bool slt, bool ult) {
  switch ((KitCgPred)pred) {
  case KIT_CG_EQ: return eq;
  case KIT_CG_NE: return !eq;
  case KIT_CG_SLT: return slt;
  case KIT_CG_SLE: return slt || eq;
  case KIT_CG_SGT: return !slt && !eq;
  case KIT_CG_SGE: return !slt;
  case KIT_CG_ULT: return ult;
  case KIT_CG_ULE: return ult || eq;
  case KIT_CG_UGT: return !ult && !eq;
  case KIT_CG_UGE: return !ult;
  default: return -1;
  }
}

static const char *int128_op(const KitCgInst *in, Slot *S) {
  unsigned __int128 a = S[in->args[0]].q, b = in->nargs > 1 ? S[in->args[1]].q : 0, r = 0;
  __int128 sa = (__int128)a, sb = (__int128)b;
  const __int128 min = (__int128)((unsigned __int128)1 << 127);
  Slot *d = &S[in->id];
  switch ((KitCgOp)in->op) {
  case KIT_CG_OP_ADD: r = a + b; break;
  case KIT_CG_OP_SUB: r = a - b; break;
  case KIT_CG_OP_MUL: r = a * b; break;
  case KIT_CG_OP_UDIV: if (!b) return "integer division by zero"; r = a / b; break;
  case KIT_CG_OP_UREM: if (!b) return "integer division by zero"; r = a % b; break;
  case KIT_CG_OP_SDIV: case KIT_CG_OP_SREM:
    if (!b) return "integer division by zero";
    if (sb == -1 && sa == min) return "integer overflow in signed division (MIN / -1)";
    r = (unsigned __int128)(in->op == KIT_CG_OP_SDIV ? sa / sb : sa % sb);
    break;
  case KIT_CG_OP_AND: r = a & b; break;
  case KIT_CG_OP_OR: r = a | b; break;
  case KIT_CG_OP_XOR: r = a ^ b; break;
  case KIT_CG_OP_SHL: r = a << (b & 127); break;
  case KIT_CG_OP_LSHR: r = a >> (b & 127); break;
  case KIT_CG_OP_ASHR: r = (unsigned __int128)(sa >> (b & 127)); break;
  case KIT_CG_OP_NEG: r = -a; break;
  case KIT_CG_OP_NOT: r = ~a; break;
  case KIT_CG_OP_SMIN: r = sa < sb ? a : b; break;
  case KIT_CG_OP_SMAX: r = sa > sb ? a : b; break;
  case KIT_CG_OP_UMIN: r = a < b ? a : b; break;
  case KIT_CG_OP_UMAX: r = a > b ? a : b; break;
  case KIT_CG_OP_SADDO: { __int128 t; d->q = __builtin_add_overflow(sa, sb, &t); return NULL; }
  case KIT_CG_OP_SSUBO: { __int128 t; d->q = __builtin_sub_overflow(sa, sb, &t); return NULL; }
  case KIT_CG_OP_SMULO: { __int128 t; d->q = __builtin_mul_overflow(sa, sb, &t); return NULL; }
  case KIT_CG_OP_UADDO: { unsigned __int128 t; d->q = __builtin_add_overflow(a, b, &t); return NULL; }
  case KIT_CG_OP_USUBO: { unsigned __int128 t; d->q = __builtin_sub_overflow(a, b, &t); return NULL; }
  case KIT_CG_OP_UMULO: { unsigned __int128 t; d->q = __builtin_mul_overflow(a, b, &t); return NULL; }
  case KIT_CG_OP_BSWAP:
    r = ((unsigned __int128)__builtin_bswap64((uint64_t)a) << 64) | __builtin_bswap64((uint64_t)(a >> 64));
    break;
  case KIT_CG_OP_CLZ: {
    uint64_t hi = (uint64_t)(a >> 64), lo = (uint64_t)a;
    r = hi ? (unsigned)__builtin_clzll(hi) : lo ? 64u + (unsigned)__builtin_clzll(lo) : 128u;
    break;
  }
  case KIT_CG_OP_CTZ: {
    uint64_t hi = (uint64_t)(a >> 64), lo = (uint64_t)a;
    r = lo ? (unsigned)__builtin_ctzll(lo) : hi ? 64u + (unsigned)__builtin_ctzll(hi) : 128u;
    break;
  }
  case KIT_CG_OP_POPCNT:
    r = (unsigned)(__builtin_popcountll((uint64_t)a) + __builtin_popcountll((uint64_t)(a >> 64)));
    break;
  case KIT_CG_OP_ICMP: {
    int c = icmp(in->pred, a == b, sa < sb, a < b);
    if (c < 0) return "bad icmp predicate";
    d->q = (unsigned)c;
    return NULL;
  }
  default: return "unsupported i128 operation";
  }
  d->q = r;
  return NULL;
}

static const char *int_op(const KitCgInst *in, Slot *S, KitCgType t) {
  if (t == KIT_CG_I128) return int128_op(in, S);
  uint64_t m = kit_interp__mask(t), a = S[in->args[0]].i & m, b = in->nargs > 1 ? S[in->args[1]].i & m : 0;
  unsigned w = width(t), sh = 64 - w;
  int64_t sa = sx(a, t), sb = sx(b, t);
  uint64_t r;
  Slot *d = &S[in->id];
  switch ((KitCgOp)in->op) {
  case KIT_CG_OP_NEG: r = -a; break;
  case KIT_CG_OP_NOT: r = ~a; break;
  case KIT_CG_OP_SMIN: r = sa < sb ? a : b; break;
  case KIT_CG_OP_SMAX: r = sa > sb ? a : b; break;
  case KIT_CG_OP_UMIN: r = a < b ? a : b; break;
  case KIT_CG_OP_UMAX: r = a > b ? a : b; break;
  case KIT_CG_OP_SADDO: case KIT_CG_OP_SSUBO: case KIT_CG_OP_SMULO: {
    __int128 x = in->op == KIT_CG_OP_SADDO   ? (__int128)sa + sb
                 : in->op == KIT_CG_OP_SSUBO ? (__int128)sa - sb
                                             : (__int128)sa * sb;
    int64_t back = (int64_t)((uint64_t)x << sh) >> sh;
    d->i = x != (__int128)back;
    return NULL;
  }
  case KIT_CG_OP_UADDO: d->i = (unsigned __int128)a + b > m; return NULL;
  case KIT_CG_OP_USUBO: d->i = a < b; return NULL;
  case KIT_CG_OP_UMULO: d->i = (unsigned __int128)a * b > m; return NULL;
  case KIT_CG_OP_BSWAP: r = w >= 16 ? __builtin_bswap64(a) >> sh : a; break;
  case KIT_CG_OP_CLZ: r = a ? (uint64_t)(__builtin_clzll(a) - (int)sh) : w; break;
  case KIT_CG_OP_CTZ: r = a ? (uint64_t)__builtin_ctzll(a) : w; break;
  case KIT_CG_OP_POPCNT: r = (uint64_t)__builtin_popcountll(a); break;
  case KIT_CG_OP_ADD: r = a + b; break;
  case KIT_CG_OP_SUB: r = a - b; break;
  case KIT_CG_OP_MUL: r = a * b; break;
  case KIT_CG_OP_AND: r = a & b; break;
  case KIT_CG_OP_OR: r = a | b; break;
  case KIT_CG_OP_XOR: r = a ^ b; break;
  case KIT_CG_OP_SHL: r = a << (b & (w - 1)); break;
  case KIT_CG_OP_LSHR: r = a >> (b & (w - 1)); break;
  case KIT_CG_OP_ASHR: r = (uint64_t)(sa >> (b & (w - 1))); break;
  case KIT_CG_OP_ICMP: {
    int c = icmp(in->pred, a == b, sa < sb, a < b);
    if (c < 0) return "bad icmp predicate";
    d->i = (uint64_t)c;
    return NULL;
  }
  default: return "unsupported integer operation";
  }
  d->i = r & m;
  return NULL;
}

/* ---- floats ------------------------------------------------------------------- */

static long double fget(const Slot *s, KitCgType t) {
  return t == KIT_CG_F32 ? (long double)s->f : t == KIT_CG_F64 ? (long double)s->d : s->ld;
}


/* one body per float type: the arithmetic must round in that type */
#define FLOAT_OPS(T, F, SQRT, FMOD, FMIN, FMAX, COPYSIGN, FMA, FABS)                                               \
  do {                                                                                                           \
    T a = S[in->args[0]].F, b = in->nargs > 1 ? S[in->args[1]].F : 0;                                            \
    T r;                                                                                                         \
    switch ((KitCgOp)in->op) {                                                                                   \
    case KIT_CG_OP_FADD: r = a + b; break;                                                                       \
    case KIT_CG_OP_FSUB: r = a - b; break;                                                                       \
    case KIT_CG_OP_FMUL: r = a * b; break;                                                                       \
    case KIT_CG_OP_FDIV: r = a / b; break;                                                                       \
    case KIT_CG_OP_FREM: r = FMOD(a, b); break;                                                                  \
    case KIT_CG_OP_FNEG: r = -a; break;                                                                          \
    case KIT_CG_OP_FABS: r = FABS(a); break;                                                                     \
    case KIT_CG_OP_FSQRT: r = SQRT(a); break;                                                                    \
    case KIT_CG_OP_FMIN: r = FMIN(a, b); break;                                                                  \
    case KIT_CG_OP_FMAX: r = FMAX(a, b); break;                                                                  \
    case KIT_CG_OP_FCOPYSIGN: r = COPYSIGN(a, b); break;                                                         \
    case KIT_CG_OP_FMA: r = FMA(a, b, S[in->args[2]].F); break;                                                  \
    default: return "unsupported float operation";                                                               \
    }                                                                                                            \
    memset(d, 0, sizeof *d);                                                                                     \
    d->F = r;                                                                                                    \
  } while (0)

static const char *float_op(const KitCgInst *in, Slot *S, KitCgType t) {
  Slot *d = &S[in->id];
  if (in->op == KIT_CG_OP_FCMP) {
    d->i = (uint64_t)kit_interp__fcmp(in->pred, fget(&S[in->args[0]], t), fget(&S[in->args[1]], t));
    return NULL;
  }
  if (in->op == KIT_CG_OP_FMA && in->nargs < 3) return "fma needs three operands";
  switch (t) {
  case KIT_CG_F32: FLOAT_OPS(float, f, sqrtf, fmodf, fminf, fmaxf, copysignf, fmaf, fabsf); break;
  case KIT_CG_F64: FLOAT_OPS(double, d, sqrt, fmod, fmin, fmax, copysign, fma, fabs); break;
  case KIT_CG_F80: FLOAT_OPS(long double, ld, sqrtl, fmodl, fminl, fmaxl, copysignl, fmal, fabsl); break;
  default: return "float operation on a non-float type";
  }
  return NULL;
}

/* ---- conversions ------------------------------------------------------------ */

static void fp_to_int(Slot *d, long double x, KitCgType to, bool is_signed) {
  unsigned w = width(to);
  memset(d, 0, sizeof *d);
  if (__builtin_isnan(x)) return;
  if (is_signed) {
    long double lim = ldexpl(1.0L, (int)w - 1); /* 2^(w-1) */
    if (w == 128) {
      __int128 v = x >= lim ? (__int128)(((unsigned __int128)1 << 127) - 1)
                   : x <= -lim ? (__int128)((unsigned __int128)1 << 127)
                               : (__int128)x;
      d->sq = v;
      return;
    }
    int64_t max = w == 64 ? INT64_MAX : (int64_t)((1ull << (w - 1)) - 1);
    int64_t v = x >= lim ? max : x <= -lim ? -max - 1 : (int64_t)x;
    d->i = (uint64_t)v & kit_interp__mask(to);
    return;
  }
  long double lim = ldexpl(1.0L, (int)w); /* 2^w */
  if (x <= 0) return;
  if (w == 128) {
    d->q = x >= lim ? ~(unsigned __int128)0 : (unsigned __int128)x;
    return;
  }
  d->i = x >= lim ? kit_interp__mask(to) : (uint64_t)x;
}

static void int_to_fp(Slot *d, const Slot *s, KitCgType from, KitCgType to, bool is_signed) {
  memset(d, 0, sizeof *d);
  if (from == KIT_CG_I128) {
    if (is_signed) {
      __int128 v = s->sq;
      if (to == KIT_CG_F32) d->f = (float)v; else if (to == KIT_CG_F64) d->d = (double)v; else d->ld = (long double)v;
    } else {
      unsigned __int128 v = s->q;
      if (to == KIT_CG_F32) d->f = (float)v; else if (to == KIT_CG_F64) d->d = (double)v; else d->ld = (long double)v;
    }
    return;
  }
  uint64_t u = s->i & kit_interp__mask(from);
  if (is_signed) {
    int64_t v = sx(u, from);
    if (to == KIT_CG_F32) d->f = (float)v; else if (to == KIT_CG_F64) d->d = (double)v; else d->ld = (long double)v;
  } else {
    if (to == KIT_CG_F32) d->f = (float)u; else if (to == KIT_CG_F64) d->d = (double)u; else d->ld = (long double)u;
  }
}

static const char *conv_op(const KitCgInst *in, Slot *S) {
  KitCgType to = (KitCgType)in->type;
  const Slot *s = &S[in->args[0]];
  Slot r;
  switch ((KitCgOp)in->op) {
  case KIT_CG_OP_TRUNC: case KIT_CG_OP_ZEXT: case KIT_CG_OP_PTRTOINT: case KIT_CG_OP_INTTOPTR:
  case KIT_CG_OP_BITCAST:
    /* values are kept zero-extended, so these only re-mask (f80/i128 copy whole) */
    r = *s;
    if (to == KIT_CG_I128 || to == KIT_CG_F80) {
      if (in->op != KIT_CG_OP_BITCAST) r.q = s->i;
    } else if (kit_cg_type_is_int(to) || to == KIT_CG_PTR) {
      r.q = 0;
      r.i = (uint64_t)s->q & kit_interp__mask(to);
    }
    break;
  default:
    return "unsupported conversion";
  }
  S[in->id] = r;
  return NULL;
}

static const char *conv(const KitCgInst *in, Slot *S, const KitCgFunc *f) {
  KitCgType to = (KitCgType)in->type, from = (KitCgType)f->vtype[in->args[0]];
  const Slot *s = &S[in->args[0]];
  Slot *d = &S[in->id];
  switch ((KitCgOp)in->op) {
  case KIT_CG_OP_SEXT: {
    Slot r;
    memset(&r, 0, sizeof r);
    if (from == KIT_CG_I128)
      r.q = s->q;
    else if (to == KIT_CG_I128)
      r.sq = sx(s->i, from);
    else
      r.i = (uint64_t)sx(s->i, from) & kit_interp__mask(to);
    *d = r;
    return NULL;
  }
  case KIT_CG_OP_FPTRUNC: case KIT_CG_OP_FPEXT: {
    long double x = fget(s, from);
    Slot r;
    memset(&r, 0, sizeof r);
    if (to == KIT_CG_F32) {
      r.f = from == KIT_CG_F64 ? (float)s->d : (float)x;
    } else if (to == KIT_CG_F64) {
      r.d = (double)x;
    } else {
      r.ld = x;
    }
    *d = r;
    return NULL;
  }
  case KIT_CG_OP_FPTOSI: case KIT_CG_OP_FPTOUI:
    fp_to_int(d, fget(s, from), to, in->op == KIT_CG_OP_FPTOSI);
    return NULL;
  case KIT_CG_OP_SITOFP: case KIT_CG_OP_UITOFP: {
    Slot src = *s;
    int_to_fp(d, &src, from, to, in->op == KIT_CG_OP_SITOFP);
    return NULL;
  }
  default:
    return conv_op(in, S);
  }
}

/* ---- memory ------------------------------------------------------------------ */

static const char *load_wide(const KitCgInst *in, Slot *S) {
  KitCgType t = (KitCgType)in->type;
  Slot r;
  memset(&r, 0, sizeof r);
  const void *p = S[in->args[0]].p;
  if (t == KIT_CG_F80)
    memcpy(&r, p, 10);
  else if (t == KIT_CG_I1) {
    memcpy(&r, p, 1);
    r.i &= 1;
  } else
    memcpy(&r, p, kit_cg_type_size(t));
  S[in->id] = r;
  return NULL;
}

static const char *store_wide(const KitCgInst *in, Slot *S, KitCgType t) {
  memcpy(S[in->args[1]].p, &S[in->args[0]], t == KIT_CG_F80 ? 10 : kit_cg_type_size(t));
  return NULL;
}

static volatile int wide_lock;

static void lock_wide(void) {
  while (__atomic_test_and_set(&wide_lock, __ATOMIC_ACQUIRE)) __builtin_ia32_pause();
}
static void unlock_wide(void) { __atomic_clear(&wide_lock, __ATOMIC_RELEASE); }

static uint64_t rmw_apply(unsigned op, uint64_t old, uint64_t v, KitCgType t) {
  uint64_t m = kit_interp__mask(t);
  int64_t so = sx(old & m, t), sv = sx(v & m, t);
  switch (op) {
  case KIT_CG_RMW_XCHG: return v;
  case KIT_CG_RMW_ADD: return old + v;
  case KIT_CG_RMW_SUB: return old - v;
  case KIT_CG_RMW_AND: return old & v;
  case KIT_CG_RMW_OR: return old | v;
  case KIT_CG_RMW_XOR: return old ^ v;
  case KIT_CG_RMW_NAND: return ~(old & v);
  case KIT_CG_RMW_SMAX: return so > sv ? old : v;
  case KIT_CG_RMW_SMIN: return so < sv ? old : v;
  case KIT_CG_RMW_UMAX: return (old & m) > (v & m) ? old : v;
  case KIT_CG_RMW_UMIN: return (old & m) < (v & m) ? old : v;
  default: return old;
  }
}

/* Atomic access of 1/2/4/8 bytes through a CAS loop generic over the size;
 * 16-byte atomics serialize on one lock (no cmpxchg16b assumption). */
#define ATOMIC_SIZES(X) X(1, uint8_t) X(2, uint16_t) X(4, uint32_t) X(8, uint64_t)

static uint64_t a_load(void *p, unsigned size) {
  switch (size) {
#define X(n, T) case n: return __atomic_load_n((T *)p, __ATOMIC_SEQ_CST);
    ATOMIC_SIZES(X)
#undef X
  }
  return 0;
}

static void a_store(void *p, unsigned size, uint64_t v) {
  switch (size) {
#define X(n, T) case n: __atomic_store_n((T *)p, (T)v, __ATOMIC_SEQ_CST); return;
    ATOMIC_SIZES(X)
#undef X
  }
}

static bool a_cas(void *p, unsigned size, uint64_t *expected, uint64_t desired) {
  switch (size) {
#define X(n, T)                                                                                                  \
  case n: {                                                                                                      \
    T e = (T)*expected;                                                                                          \
    bool ok = __atomic_compare_exchange_n((T *)p, &e, (T)desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
    *expected = e;                                                                                               \
    return ok;                                                                                                   \
  }
    ATOMIC_SIZES(X)
#undef X
  }
  return false;
}

static const char *atomic_op(const KitCgInst *in, Slot *S, const KitCgFunc *f) {
  KitCgType t;
  void *p;
  switch ((KitCgOp)in->op) {
  case KIT_CG_OP_ALOAD: t = (KitCgType)in->type; p = S[in->args[0]].p; break;
  case KIT_CG_OP_ASTORE: t = (KitCgType)f->vtype[in->args[0]]; p = S[in->args[1]].p; break;
  default: t = (KitCgType)f->vtype[in->args[1]]; p = S[in->args[0]].p; break;
  }
  unsigned size = kit_cg_type_size(t);
  if (t == KIT_CG_F80) return "atomic access to an f80 value";
  if (size == 16) {
    lock_wide();
    Slot old;
    memcpy(&old, p, 16);
    switch ((KitCgOp)in->op) {
    case KIT_CG_OP_ALOAD: S[in->id] = old; break;
    case KIT_CG_OP_ASTORE: memcpy(p, &S[in->args[0]], 16); break;
    case KIT_CG_OP_ARMW: {
      unsigned __int128 a = old.q, v = S[in->args[1]].q, r;
      __int128 sa = (__int128)a, sv = (__int128)v;
      switch (in->aux) {
      case KIT_CG_RMW_XCHG: r = v; break;
      case KIT_CG_RMW_ADD: r = a + v; break;
      case KIT_CG_RMW_SUB: r = a - v; break;
      case KIT_CG_RMW_AND: r = a & v; break;
      case KIT_CG_RMW_OR: r = a | v; break;
      case KIT_CG_RMW_XOR: r = a ^ v; break;
      case KIT_CG_RMW_NAND: r = ~(a & v); break;
      case KIT_CG_RMW_SMAX: r = sa > sv ? a : v; break;
      case KIT_CG_RMW_SMIN: r = sa < sv ? a : v; break;
      case KIT_CG_RMW_UMAX: r = a > v ? a : v; break;
      default: r = a < v ? a : v; break;
      }
      memcpy(p, &r, 16);
      S[in->id] = old;
      break;
    }
    default:
      if (old.q == S[in->args[1]].q) memcpy(p, &S[in->args[2]], 16);
      S[in->id] = old;
      break;
    }
    unlock_wide();
    return NULL;
  }
  uint64_t m = kit_interp__mask(t);
  switch ((KitCgOp)in->op) {
  case KIT_CG_OP_ALOAD: S[in->id].q = 0; S[in->id].i = a_load(p, size) & m; return NULL;
  case KIT_CG_OP_ASTORE: a_store(p, size, S[in->args[0]].i); return NULL;
  case KIT_CG_OP_ARMW: {
    uint64_t v = S[in->args[1]].i, old = a_load(p, size);
    while (!a_cas(p, size, &old, rmw_apply(in->aux, old, v, t))) {
    }
    S[in->id].q = 0;
    S[in->id].i = old & m;
    return NULL;
  }
  default: {
    uint64_t expected = S[in->args[1]].i;
    a_cas(p, size, &expected, S[in->args[2]].i);
    S[in->id].q = 0;
    S[in->id].i = expected & m;
    return NULL;
  }
  }
}

/* ---- variadic ------------------------------------------------------------------ */

typedef struct VaList {
  uint32_t gp_offset, fp_offset;
  char *overflow_arg_area;
  char *reg_save_area;
} VaList;

static const char *va_arg_op(const KitCgInst *in, Slot *S) {
  VaList *va = S[in->args[0]].p;
  KitCgType t = (KitCgType)in->type;
  Slot r;
  memset(&r, 0, sizeof r);
  if (t == KIT_CG_F80) {
    va->overflow_arg_area = (char *)(((uintptr_t)va->overflow_arg_area + 15) & ~(uintptr_t)15);
    memcpy(&r, va->overflow_arg_area, 10);
    va->overflow_arg_area += 16;
  } else if (t == KIT_CG_I128) {
    if (va->gp_offset <= 48 - 16) {
      memcpy(&r, va->reg_save_area + va->gp_offset, 16);
      va->gp_offset += 16;
    } else {
      va->overflow_arg_area = (char *)(((uintptr_t)va->overflow_arg_area + 15) & ~(uintptr_t)15);
      memcpy(&r, va->overflow_arg_area, 16);
      va->overflow_arg_area += 16;
    }
  } else if (t == KIT_CG_F32 || t == KIT_CG_F64) {
    if (va->fp_offset <= 176 - 16) {
      memcpy(&r, va->reg_save_area + va->fp_offset, kit_cg_type_size(t));
      va->fp_offset += 16;
    } else {
      memcpy(&r, va->overflow_arg_area, kit_cg_type_size(t));
      va->overflow_arg_area += 8;
    }
  } else {
    if (va->gp_offset <= 48 - 8) {
      memcpy(&r, va->reg_save_area + va->gp_offset, 8);
      va->gp_offset += 8;
    } else {
      memcpy(&r, va->overflow_arg_area, 8);
      va->overflow_arg_area += 8;
    }
    r.i &= kit_interp__mask(t);
  }
  S[in->id] = r;
  return NULL;
}

/* ---- entry ---------------------------------------------------------------------- */

const char *kit_interp__slow(KitInterp *ip, Frame *fp, Slot *S, const KitCgInst *in) {
  (void)ip;
  const KitCgFunc *f = fp->fn->f;
  KitCgOp op = (KitCgOp)in->op;
  unsigned flags = kit_cg_op_info[op].flags;
  KitCgType at = in->nargs ? (KitCgType)f->vtype[in->args[0]] : KIT_CG_VOID;
  if (flags & KIT_CGO_CONV) return conv(in, S, f);
  if ((flags & KIT_CGO_INT) && (kit_cg_type_is_int(at) || at == KIT_CG_PTR)) return int_op(in, S, at);
  if (flags & KIT_CGO_FLT) return float_op(in, S, at);
  switch (op) {
  case KIT_CG_OP_LOAD: return load_wide(in, S);
  case KIT_CG_OP_STORE: return store_wide(in, S, at);
  case KIT_CG_OP_MEMCPY: case KIT_CG_OP_MEMMOVE: {
    uint64_t n = S[in->args[2]].i;
    if (n) memmove(S[in->args[0]].p, S[in->args[1]].p, n);
    return NULL;
  }
  case KIT_CG_OP_MEMSET: {
    uint64_t n = S[in->args[2]].i;
    if (n) memset(S[in->args[0]].p, (int)(S[in->args[1]].i & 0xff), n);
    return NULL;
  }
  case KIT_CG_OP_ALOAD: case KIT_CG_OP_ASTORE: case KIT_CG_OP_ARMW: case KIT_CG_OP_ACMPXCHG:
    return atomic_op(in, S, f);
  case KIT_CG_OP_FENCE: __atomic_thread_fence(__ATOMIC_SEQ_CST); return NULL;
  case KIT_CG_OP_VASTART: {
    VaList *va = S[in->args[0]].p;
    va->gp_offset = 48;
    va->fp_offset = 176;
    va->overflow_arg_area = fp->va ? fp->va : fp->atop;
    va->reg_save_area = va->overflow_arg_area;
    return NULL;
  }
  case KIT_CG_OP_VAEND: return NULL;
  case KIT_CG_OP_VACOPY: memcpy(S[in->args[0]].p, S[in->args[1]].p, sizeof(VaList)); return NULL;
  case KIT_CG_OP_VAARG: return va_arg_op(in, S);
  case KIT_CG_OP_INDIRECTBR: return "indirectbr to an address that is not one of its destinations";
  default: return "operation not supported by the interpreter";
  }
}
