/* floating-point edge cases: tininess detected after rounding (a product
 * that rounds up to the smallest normal raises NX but not UF), RMM ties,
 * fflags sampled after each step */
  li t0, 0x0010000000000000      /* smallest normal double */
  fmv.d.x f1, t0
  li t0, 0x3fefffffffffffff      /* 1 - 2^-53 */
  fmv.d.x f2, t0
  fmul.d f3, f1, f2
  frflags s2
  fsflags zero
  fmul.d f4, f1, f2, rtz         /* rounds down: subnormal, UF|NX */
  frflags s3
  fsflags zero
  li t0, 0x3f800000              /* 1.0f */
  fmv.w.x f5, t0
  li t0, 0x33800000              /* 2^-24: half an ulp of 1.0f */
  fmv.w.x f6, t0
  fadd.s f7, f5, f6, rmm         /* tie: away from zero */
  fadd.s f8, f5, f6, rne         /* tie: to even */
  li t0, 0xbf800000
  fmv.w.x f9, t0
  fsub.s f10, f9, f6, rmm        /* negative tie: away from zero */
  li t0, 0x3ff0000000000000
  fmv.d.x f11, t0
  li t0, 0x3ca0000000000000      /* 2^-53 */
  fmv.d.x f12, t0
  fadd.d f13, f11, f12, rmm
  fmul.d f14, f11, f12, rmm
  fmadd.d f15, f11, f12, f11, rmm
  fcvt.s.d f16, f13, rmm
  li t0, 0x3ff0000010000000      /* 1 + 2^-24 exactly: f32 tie */
  fmv.d.x f17, t0
  fcvt.s.d f18, f17, rmm
  fcvt.s.d f19, f17, rne
  li t1, 0x1000001
  fcvt.s.w f20, t1, rmm          /* 2^24+1: a tie in f32 */
  fcvt.s.l f21, t1, rmm
  fdiv.s f22, f5, f6, rmm
  fsqrt.d f23, f11, rmm
  frflags s4
  li t0, 0
  li t1, 0
