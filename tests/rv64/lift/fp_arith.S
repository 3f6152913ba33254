/* F/D arithmetic, fused multiply-add family, sqrt, rounding modes (static
 * and dynamic frm), fflags accumulation (fcsr is in the dump) */
  li t0, 0x3ff0000000000000      /* 1.0 */
  fmv.d.x f1, t0
  li t0, 0x4008000000000000      /* 3.0 */
  fmv.d.x f2, t0
  fdiv.d f3, f1, f2              /* inexact: NX */
  fdiv.d f4, f1, f2, rtz
  fdiv.d f5, f1, f2, rup
  fdiv.d f6, f1, f2, rdn
  fmul.d f7, f3, f2
  fsub.d f8, f3, f1
  fadd.d f9, f3, f2, rmm
  fsqrt.d f10, f2
  fmadd.d f11, f3, f2, f1
  fmsub.d f12, f3, f2, f1
  fnmsub.d f13, f3, f2, f1
  fnmadd.d f14, f3, f2, f1
  fcvt.s.d f15, f3
  fcvt.s.d f16, f3, rup
  fdiv.s f17, f15, f16
  fmadd.s f18, f15, f16, f17, rdn
  fsqrt.s f19, f16
  frrm s2
  fsrmi s3, 1                    /* dynamic rounding: rtz */
  fdiv.d f20, f1, f2
  fdiv.s f21, f15, f16
  fsrm s4, s3                    /* back to rne, old frm into s4 */
  frflags s5
  fsflags s6, zero
  fmv.d.x f22, zero
  fdiv.d f23, f1, f22            /* DZ */
  frflags s7
  li t1, 0x7fefffffffffffff
  fmv.d.x f24, t1
  fadd.d f25, f24, f24           /* OF|NX */
  fsqrt.d f26, f8                /* sqrt of a negative: NV, canonical NaN */
  fcvt.d.s f27, f17
  li t1, 1
  fmv.d.x f28, t1                /* smallest subnormal */
  fmul.d f29, f28, f3            /* UF|NX */
  fcvt.s.d f30, f24              /* overflow to f32 */
  fmul.s f31, f30, f22           /* inf * 0: NV */
  li t0, 0
  li t1, 0
