/* Zba, Zbb, Zbs on edge values: zero counts, rotates by 0 and by more
 * than the width, the .uw forms on negative inputs */
  sh1add s2, t1, a6
  sh2add s3, t1, a6
  sh3add s4, t1, a6
  add.uw s5, t1, a0
  sh1add.uw s6, t1, a0
  sh2add.uw s7, a3, a0
  sh3add.uw s8, t1, a0
  slli.uw s9, t1, 35
  andn s10, a6, t1
  orn s11, a6, t1
  xnor t3, a6, t1
  clz t4, zero
  ctz t5, s0
  cpop t6, a6
  clzw ra, a5
  ctzw tp, zero
  cpopw t2, t1
  max a7, t1, t0
  maxu a0, t1, t0
  min a1, t1, t0
  minu a2, t1, t0
  li t0, 0x1234567890abcdef
  sext.b a4, t0
  sext.h a5, t0
  zext.h s1, t0
  li t1, 68
  rol s0, t0, t1
  ror a3, t0, t1
  rolw a6, t0, t1
  rorw sp, t0, zero
  rori t1, t0, 13
  roriw t0, t0, 31
  li t6, 0x00ff0010a0000001
  orc.b t6, t6
  rev8 t4, a7
  bclr t5, a7, tp
  bclri s2, t2, 40
  bext s3, s0, a1
  bexti s4, a0, 63
  binv s5, a1, a2
  binvi s6, a2, 0
  bset s7, zero, a2
  bseti s8, zero, 63
