/* fcvt in every direction: saturation, NaN -> max, rounding modes,
 * unsigned of negative values, W results sign-extended */
  li t0, 0x7ff8000000000000      /* qNaN */
  fmv.d.x f1, t0
  li t0, 0xc1e0000000200000      /* -2147483649.0 */
  fmv.d.x f2, t0
  li t0, 0x41e0000000000000      /* 2147483648.0 */
  fmv.d.x f3, t0
  li t0, 0xbfe0000000000000      /* -0.5 */
  fmv.d.x f4, t0
  li t0, 0x4004000000000000      /* 2.5 */
  fmv.d.x f5, t0
  li t0, 0x43f0000000000000      /* 2^64 */
  fmv.d.x f6, t0
  li t0, 0xfff0000000000000      /* -inf */
  fmv.d.x f7, t0
  fcvt.w.d s2, f1
  fcvt.w.d s3, f2
  fcvt.w.d s4, f3
  fcvt.wu.d s5, f4, rtz          /* -0.5 -> 0, only NX */
  fcvt.wu.d s6, f2               /* negative: 0, NV */
  fcvt.w.d s7, f5                /* rne: 2 */
  fcvt.w.d s8, f5, rmm           /* 3 */
  fcvt.w.d s9, f5, rup
  fcvt.w.d s10, f4, rdn
  fcvt.l.d s11, f6
  fcvt.lu.d t3, f6
  fcvt.lu.d t4, f1
  fcvt.l.d t5, f7
  fcvt.wu.d t6, f3               /* 2^31 fits unsigned: sign-extended 0xffffffff80000000 */
  fcvt.s.d f8, f5
  fcvt.w.s a0, f8
  fcvt.l.s a1, f8, rup
  fcvt.lu.s a2, f8
  fcvt.wu.s a3, f8
  fmv.w.x f9, zero
  fcvt.w.s a4, f9
  li t0, 0x7f800001              /* f32 sNaN */
  fmv.w.x f10, t0
  fcvt.w.s a5, f10
  li t0, -3
  fcvt.d.w f11, t0
  fcvt.d.wu f12, t0
  fcvt.d.l f13, t0
  fcvt.d.lu f14, t0
  fcvt.d.lu f15, t0, rdn
  fcvt.s.w f16, t0
  fcvt.s.wu f17, t0
  fcvt.s.l f18, t0
  fcvt.s.lu f19, t0, rtz
  li t0, 0x1000001               /* 2^24+1: inexact in f32 */
  fcvt.s.w f20, t0
  fcvt.s.w f21, t0, rup
  fcvt.s.l f22, t2
  fcvt.d.l f23, t2, rtz
  li t0, 0
