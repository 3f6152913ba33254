/* fmin/fmax with NaNs and signed zeros, comparisons, fclass, fsgnj, NaN
 * boxing (an f32 op on a badly boxed value reads the canonical NaN),
 * fmv, flw/fsw/fld/fsd */
  li t0, 0x7ff4000000000000      /* d sNaN */
  fmv.d.x f1, t0
  li t0, 0x7ff8000000000000      /* d qNaN */
  fmv.d.x f2, t0
  li t0, 0x8000000000000000      /* -0.0 */
  fmv.d.x f3, t0
  fmv.d.x f4, zero               /* +0.0 */
  li t0, 0x3ff0000000000000
  fmv.d.x f5, t0                 /* 1.0 */
  fmin.d f6, f1, f5              /* sNaN: NV, result 1.0 */
  fmax.d f7, f2, f2              /* both NaN: canonical */
  fmin.d f8, f3, f4              /* -0 */
  fmax.d f9, f3, f4              /* +0 */
  fmax.d f10, f1, f2
  feq.d s2, f2, f5               /* quiet: no NV */
  flt.d s3, f2, f5               /* NV */
  fle.d s4, f3, f4
  feq.d s5, f3, f4
  flt.d s6, f3, f4
  fclass.d s7, f1
  fclass.d s8, f2
  fclass.d s9, f3
  fclass.d s10, f5
  li t0, 1
  fmv.d.x f11, t0
  fclass.d s11, f11
  fsgnj.d f12, f5, f3
  fsgnjn.d f13, f5, f3
  fsgnjx.d f14, f3, f3
  li t0, 0x3f800000              /* 1.0f, not boxed: reads as canonical NaN */
  fmv.d.x f15, t0
  fadd.s f16, f15, f15
  fclass.s t3, f15
  fsgnj.s f17, f15, f15
  fmv.w.x f18, t0                /* properly boxed 1.0f */
  fmin.s f19, f18, f15
  fmv.x.w t4, f18
  li t0, 0xbf800000
  fmv.w.x f20, t0
  fmv.x.w t5, f20                /* sign-extended */
  fsgnjx.s f21, f20, f20
  fmv.x.d t6, f21
  la s0, scratch
  fsw f20, 0(s0)
  fsd f5, 8(s0)
  flw f22, 0(s0)
  fld f23, 8(s0)
  flw f24, 8(s0)
  lw a0, 0(s0)
  ld a1, 8(s0)
  li t0, 0x7fa00000              /* f32 sNaN */
  fmv.w.x f25, t0
  fmax.s f26, f25, f18           /* NV, 1.0f */
  feq.s a2, f25, f18             /* NV (signaling) */
  fclass.s a3, f25
  fcvt.d.s f27, f25              /* NV, canonical */
  fle.s a4, f18, f20
  li s0, 0
  li t0, 0
