/* arch/rv64/helpers.c — host C helpers that lifted riscv64 code calls for
 * what CG cannot say exactly: floating point under the guest's rounding
 * mode (all five, RMM included) with fflags accumulation, NaN boxing and
 * canonical NaNs, RISC-V's fmin/fmax and fcvt saturation rules, and the
 * user-level CSRs. */
#define _GNU_SOURCE
#include "cpu.h"
#include "rv64.h"

#include <fenv.h>
#include <math.h>
#include <string.h>
#include <time.h>

#define CANON_S 0x7fc00000u
#define CANON_D 0x7ff8000000000000ull
#define BOX 0xffffffff00000000ull

static float f_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t u_of_f(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double d_of(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t u_of_d(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* an f32 register whose upper half is not all ones reads as the canonical NaN */
static uint32_t unbox(uint64_t v) { return (v >> 32) == 0xffffffffu ? (uint32_t)v : CANON_S; }

static bool snan_s(uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu) && !(u & 0x400000u); }
static bool snan_d(uint64_t u) {
  return (u & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (u & 0xfffffffffffffull) &&
         !(u & 0x8000000000000ull);
}

static uint64_t res_s(float f) { return BOX | (isnan(f) ? CANON_S : u_of_f(f)); }
static uint64_t res_d(double d) { return isnan(d) ? CANON_D : u_of_d(d); }

static uint32_t host_flags(void) {
  int e = fetestexcept(FE_ALL_EXCEPT);
  uint32_t f = 0;
  if (e & FE_INEXACT) f |= RV_NX;
  if (e & FE_UNDERFLOW) f |= RV_UF;
  if (e & FE_OVERFLOW) f |= RV_OF;
  if (e & FE_DIVBYZERO) f |= RV_DZ;
  if (e & FE_INVALID) f |= RV_NV;
  return f;
}

static int host_round(unsigned rm) {
  switch (rm) {
  case RV_RTZ: return FE_TOWARDZERO;
  case RV_RDN: return FE_DOWNWARD;
  case RV_RUP: return FE_UPWARD;
  default: return FE_TONEAREST; /* RNE, and RMM until rmm_fix corrects its ties */
  }
}

static double round_int(double x, unsigned rm) {
  switch (rm) {
  case RV_RTZ: return trunc(x);
  case RV_RDN: return floor(x);
  case RV_RUP: return ceil(x);
  case RV_RMM: return round(x);
  default: return roundeven(x);
  }
}

/* float -> integer with RISC-V saturation: NaN and +overflow give the
 * maximum, -overflow the minimum, both raising NV; inexact raises NX */
static uint64_t to_int(double x, unsigned kind, unsigned rm, uint32_t *fl) {
  static const double lo[4] = {-2147483648.0, 0.0, -9223372036854775808.0, 0.0};
  static const double hi_excl[4] = {2147483648.0, 4294967296.0, 9223372036854775808.0, 18446744073709551616.0};
  static const uint64_t vmin[4] = {(uint64_t)INT32_MIN, 0, (uint64_t)INT64_MIN, 0};
  static const uint64_t vmax[4] = {INT32_MAX, UINT32_MAX, INT64_MAX, UINT64_MAX};
  uint64_t r;
  if (isnan(x)) {
    *fl |= RV_NV;
    r = vmax[kind];
  } else {
    double t = round_int(x, rm);
    if (t < lo[kind]) {
      *fl |= RV_NV;
      r = vmin[kind];
    } else if (t >= hi_excl[kind]) {
      *fl |= RV_NV;
      r = vmax[kind];
    } else {
      if (t != x) *fl |= RV_NX;
      r = (kind & 1) ? (uint64_t)t : (uint64_t)(int64_t)t;
    }
  }
  if (kind < 2) r = (uint64_t)(int64_t)(int32_t)(uint32_t)r; /* W results are sign-extended */
  return r;
}

static uint64_t classify(bool neg, int cls, bool snan) {
  switch (cls) {
  case FP_INFINITE: return neg ? 1u << 0 : 1u << 7;
  case FP_NORMAL: return neg ? 1u << 1 : 1u << 6;
  case FP_SUBNORMAL: return neg ? 1u << 2 : 1u << 5;
  case FP_ZERO: return neg ? 1u << 3 : 1u << 4;
  default: return snan ? 1u << 8 : 1u << 9;
  }
}

/* fmin/fmax: a NaN operand is ignored, two NaNs give the canonical NaN,
 * -0 orders below +0, any signaling NaN raises NV */
static double minmax(double x, double y, bool is_max) {
  if (isnan(x) && isnan(y)) return NAN;
  if (isnan(x)) return y;
  if (isnan(y)) return x;
  if (x == y) return (signbit(x) != is_max) ? x : y;
  return (x < y) != is_max ? x : y;
}

/* Round-to-nearest, ties away (RMM) has no host mode: the host rounded to
 * nearest-even, which differs only on an exact tie that went toward zero.
 * e is the exact result minus p (exact, or as close as long double gets). */
static long double rmm_fix(long double p, long double away_bound, long double e) {
  if (e == 0 || isnan(p) || isinf(p)) return p;
  long double dir = p != 0 ? p : e;
  if ((e > 0) != (dir > 0)) return p; /* p lies beyond the exact value: already away */
  long double half = (away_bound - p) / 2;
  return fabsl(e) == fabsl(half) ? away_bound : p;
}

static float rmm_s(float p, long double e) {
  float dir = p != 0 ? p : (float)e;
  return (float)rmm_fix(p, nextafterf(p, dir > 0 ? INFINITY : -INFINITY), e);
}

static double rmm_d(double p, long double e) {
  double dir = p != 0 ? p : (double)e;
  return (double)rmm_fix(p, nextafter(p, dir > 0 ? INFINITY : -INFINITY), e);
}

/* exact error of a+b rounded to nearest (TwoSum) */
static double two_sum_err(double a, double b, double s) {
  double bb = s - a;
  return (a - (s - bb)) + (b - bb);
}

/* the RMM correction for the ops that can tie (division and square root
 * never land exactly halfway); the host flags of the first rounding stay */
static uint64_t rmm_s_op(unsigned op, uint64_t r, float a, float b, float c, uint64_t ra) {
  float p = f_of((uint32_t)r);
  long double e;
  switch (op) {
  case KIT_RV64_FP_ADD: e = ((double)a + (double)b) - (double)p; break;
  case KIT_RV64_FP_SUB: e = ((double)a - (double)b) - (double)p; break;
  case KIT_RV64_FP_MUL: e = ((double)a * (double)b) - (double)p; break;
  case KIT_RV64_FP_MADD: e = fma((double)a, (double)b, (double)c) - (double)p; break;
  case KIT_RV64_FP_MSUB: e = fma((double)a, (double)b, -(double)c) - (double)p; break;
  case KIT_RV64_FP_NMSUB: e = -fma((double)a, (double)b, -(double)c) - (double)p; break;
  case KIT_RV64_FP_NMADD: e = -fma((double)a, (double)b, (double)c) - (double)p; break;
  case KIT_RV64_FP_CVT_FROM_W: e = (long double)(int32_t)ra - p; break;
  case KIT_RV64_FP_CVT_FROM_WU: e = (long double)(uint32_t)ra - p; break;
  case KIT_RV64_FP_CVT_FROM_L: e = (long double)(int64_t)ra - p; break;
  case KIT_RV64_FP_CVT_FROM_LU: e = (long double)ra - p; break;
  case KIT_RV64_FP_CVT_S_D: e = (long double)d_of(ra) - p; break;
  default: return r;
  }
  return res_s(rmm_s(p, e));
}

static uint64_t rmm_d_op(unsigned op, uint64_t r, double a, double b, double c, uint64_t ra) {
  double p = d_of(r);
  long double e;
  switch (op) {
  case KIT_RV64_FP_ADD: e = two_sum_err(a, b, p); break;
  case KIT_RV64_FP_SUB: e = two_sum_err(a, -b, p); break;
  case KIT_RV64_FP_MUL: e = fma(a, b, -p); break;
  case KIT_RV64_FP_MADD: e = fmal(a, b, c) - p; break;
  case KIT_RV64_FP_MSUB: e = fmal(a, b, -(long double)c) - p; break;
  case KIT_RV64_FP_NMSUB: e = -fmal(a, b, -(long double)c) - p; break;
  case KIT_RV64_FP_NMADD: e = -fmal(a, b, c) - p; break;
  case KIT_RV64_FP_CVT_FROM_L: e = (long double)(int64_t)ra - p; break;
  case KIT_RV64_FP_CVT_FROM_LU: e = (long double)ra - p; break;
  default: return r; /* int32 and f32 sources convert exactly */
  }
  return res_d(rmm_d(p, e));
}

static uint64_t fp_s(unsigned op, unsigned rm, uint64_t ra, uint64_t rb, uint64_t rc, uint32_t *fl) {
  uint32_t ua = unbox(ra), ub = unbox(rb), uc = unbox(rc);
  float a = f_of(ua), b = f_of(ub), c = f_of(uc);
  bool sn = snan_s(ua) || snan_s(ub);
  switch (op) {
  case KIT_RV64_FP_ADD: return res_s(a + b);
  case KIT_RV64_FP_SUB: return res_s(a - b);
  case KIT_RV64_FP_MUL: return res_s(a * b);
  case KIT_RV64_FP_DIV: return res_s(a / b);
  case KIT_RV64_FP_SQRT: return res_s(sqrtf(a));
  case KIT_RV64_FP_MADD: case KIT_RV64_FP_MSUB: case KIT_RV64_FP_NMSUB: case KIT_RV64_FP_NMADD:
    if ((isinf(a) && b == 0) || (a == 0 && isinf(b))) {
      *fl |= RV_NV; /* inf*0 is invalid even when the addend is a quiet NaN */
      return BOX | CANON_S;
    }
    if (op == KIT_RV64_FP_MSUB || op == KIT_RV64_FP_NMADD) c = -c;
    if (op == KIT_RV64_FP_NMSUB || op == KIT_RV64_FP_NMADD) a = -a;
    return res_s(fmaf(a, b, c));
  case KIT_RV64_FP_SGNJ: return BOX | (ua & 0x7fffffffu) | (ub & 0x80000000u);
  case KIT_RV64_FP_SGNJN: return BOX | (ua & 0x7fffffffu) | (~ub & 0x80000000u);
  case KIT_RV64_FP_SGNJX: return BOX | (ua ^ (ub & 0x80000000u));
  case KIT_RV64_FP_MIN: case KIT_RV64_FP_MAX:
    if (sn) *fl |= RV_NV;
    return res_s((float)minmax(a, b, op == KIT_RV64_FP_MAX));
  case KIT_RV64_FP_EQ:
    if (sn) *fl |= RV_NV;
    return a == b;
  case KIT_RV64_FP_LT: case KIT_RV64_FP_LE:
    if (isnan(a) || isnan(b)) {
      *fl |= RV_NV;
      return 0;
    }
    return op == KIT_RV64_FP_LT ? a < b : a <= b;
  case KIT_RV64_FP_CLASS: return classify(signbit(a), fpclassify(a), snan_s(ua));
  case KIT_RV64_FP_CVT_W: case KIT_RV64_FP_CVT_WU: case KIT_RV64_FP_CVT_L: case KIT_RV64_FP_CVT_LU:
    return to_int((double)a, op - KIT_RV64_FP_CVT_W, rm, fl);
  case KIT_RV64_FP_CVT_FROM_W: return res_s((float)(int32_t)ra);
  case KIT_RV64_FP_CVT_FROM_WU: return res_s((float)(uint32_t)ra);
  case KIT_RV64_FP_CVT_FROM_L: return res_s((float)(int64_t)ra);
  case KIT_RV64_FP_CVT_FROM_LU: return res_s((float)ra);
  case KIT_RV64_FP_CVT_S_D: return res_s((float)d_of(ra));
  }
  return 0;
}

static uint64_t fp_d(unsigned op, unsigned rm, uint64_t ua, uint64_t ub, uint64_t uc, uint32_t *fl) {
  double a = d_of(ua), b = d_of(ub), c = d_of(uc);
  bool sn = snan_d(ua) || snan_d(ub);
  switch (op) {
  case KIT_RV64_FP_ADD: return res_d(a + b);
  case KIT_RV64_FP_SUB: return res_d(a - b);
  case KIT_RV64_FP_MUL: return res_d(a * b);
  case KIT_RV64_FP_DIV: return res_d(a / b);
  case KIT_RV64_FP_SQRT: return res_d(sqrt(a));
  case KIT_RV64_FP_MADD: case KIT_RV64_FP_MSUB: case KIT_RV64_FP_NMSUB: case KIT_RV64_FP_NMADD:
    if ((isinf(a) && b == 0) || (a == 0 && isinf(b))) {
      *fl |= RV_NV;
      return CANON_D;
    }
    if (op == KIT_RV64_FP_MSUB || op == KIT_RV64_FP_NMADD) c = -c;
    if (op == KIT_RV64_FP_NMSUB || op == KIT_RV64_FP_NMADD) a = -a;
    return res_d(fma(a, b, c));
  case KIT_RV64_FP_SGNJ: return (ua & ~(1ull << 63)) | (ub & (1ull << 63));
  case KIT_RV64_FP_SGNJN: return (ua & ~(1ull << 63)) | (~ub & (1ull << 63));
  case KIT_RV64_FP_SGNJX: return ua ^ (ub & (1ull << 63));
  case KIT_RV64_FP_MIN: case KIT_RV64_FP_MAX:
    if (sn) *fl |= RV_NV;
    return res_d(minmax(a, b, op == KIT_RV64_FP_MAX));
  case KIT_RV64_FP_EQ:
    if (sn) *fl |= RV_NV;
    return a == b;
  case KIT_RV64_FP_LT: case KIT_RV64_FP_LE:
    if (isnan(a) || isnan(b)) {
      *fl |= RV_NV;
      return 0;
    }
    return op == KIT_RV64_FP_LT ? a < b : a <= b;
  case KIT_RV64_FP_CLASS: return classify(signbit(a), fpclassify(a), snan_d(ua));
  case KIT_RV64_FP_CVT_W: case KIT_RV64_FP_CVT_WU: case KIT_RV64_FP_CVT_L: case KIT_RV64_FP_CVT_LU:
    return to_int(a, op - KIT_RV64_FP_CVT_W, rm, fl);
  case KIT_RV64_FP_CVT_FROM_W: return res_d((double)(int32_t)ua);
  case KIT_RV64_FP_CVT_FROM_WU: return res_d((double)(uint32_t)ua);
  case KIT_RV64_FP_CVT_FROM_L: return res_d((double)(int64_t)ua);
  case KIT_RV64_FP_CVT_FROM_LU: return res_d((double)ua);
  case KIT_RV64_FP_CVT_D_S: return res_d((double)f_of(unbox(ua)));
  }
  return 0;
}

/* ops whose flags come from the host FPU; the rest compute theirs exactly */
static bool host_flagged(unsigned op) {
  return op <= KIT_RV64_FP_NMADD || (op >= KIT_RV64_FP_CVT_FROM_W && op <= KIT_RV64_FP_CVT_D_S);
}

#if defined(__x86_64__)
/* The common case, round-to-nearest-even, needs no fenv calls on x86-64:
 * SSE arithmetic reports its exceptions in MXCSR, which is cheap to clear,
 * read and restore. The other modes take the portable fenv path below
 * (x87 code in libm follows fesetround, not MXCSR alone). */
static uint32_t mxcsr_flags(unsigned m) {
  uint32_t f = 0;
  if (m & 0x01) f |= RV_NV;
  if (m & 0x04) f |= RV_DZ;
  if (m & 0x08) f |= RV_OF;
  if (m & 0x10) f |= RV_UF;
  if (m & 0x20) f |= RV_NX;
  return f;
}
#endif

uint64_t kit_rv64_fp(KitRv64Cpu *cpu, uint32_t op, uint32_t rm, uint64_t a, uint64_t b, uint64_t c) {
  unsigned base = op & 0xff;
  bool dbl = op & KIT_RV64_FP_DOUBLE;
  if (rm == RV_DYN) rm = (cpu->fcsr >> 5) & 7;
  uint32_t fl = 0;
  uint64_t r;
#if defined(__x86_64__)
  if (rm == RV_RNE || rm > RV_RMM) {
    unsigned saved = __builtin_ia32_stmxcsr();
    __builtin_ia32_ldmxcsr(saved & ~0x603fu); /* flags clear, rounding to nearest */
    r = dbl ? fp_d(base, RV_RNE, a, b, c, &fl) : fp_s(base, RV_RNE, a, b, c, &fl);
    unsigned now = __builtin_ia32_stmxcsr();
    __builtin_ia32_ldmxcsr(saved);
    if (host_flagged(base)) fl |= mxcsr_flags(now);
    cpu->fcsr |= fl;
    return r;
  }
#endif
  int saved_round = fegetround();
  fesetround(host_round(rm));
  feclearexcept(FE_ALL_EXCEPT);
  r = dbl ? fp_d(base, rm, a, b, c, &fl) : fp_s(base, rm, a, b, c, &fl);
  if (host_flagged(base)) fl |= host_flags();
  if (rm == RV_RMM && (fl & RV_NX)) {
    if (dbl) r = rmm_d_op(base, r, d_of(a), d_of(b), d_of(c), a);
    else r = rmm_s_op(base, r, f_of(unbox(a)), f_of(unbox(b)), f_of(unbox(c)), a);
  }
  fesetround(saved_round);
  cpu->fcsr |= fl;
  return r;
}

uint64_t kit_rv64_csr(KitRv64Cpu *cpu, uint32_t csr, uint32_t kind, uint64_t value, uint32_t write) {
  uint64_t old;
  switch (csr) {
  case RV_CSR_FFLAGS: old = cpu->fcsr & 0x1f; break;
  case RV_CSR_FRM: old = (cpu->fcsr >> 5) & 7; break;
  case RV_CSR_FCSR: old = cpu->fcsr & 0xff; break;
  case RV_CSR_CYCLE: case RV_CSR_INSTRET: return cpu->instret;
  case RV_CSR_TIME: {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec) / 100; /* 10 MHz timebase */
  }
  default: return 0;
  }
  if (!write) return old;
  uint64_t nv = kind == 0 ? value : kind == 1 ? old | value : old & ~value;
  switch (csr) {
  case RV_CSR_FFLAGS: cpu->fcsr = (cpu->fcsr & ~0x1fu) | (uint32_t)(nv & 0x1f); break;
  case RV_CSR_FRM: cpu->fcsr = (cpu->fcsr & ~0xe0u) | (uint32_t)((nv & 7) << 5); break;
  default: cpu->fcsr = (uint32_t)(nv & 0xff); break;
  }
  return old;
}
