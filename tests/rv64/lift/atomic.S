/* AMOs (w forms sign-extend the old value), lr/sc success and failure */
  la s2, scratch
  addi s1, s2, 8
  addi a5, s2, 12
  sd a6, 0(s2)
  sd s0, 8(s2)
  amoadd.d s3, t0, (s2)
  amoswap.w s4, a3, (s1)
  amoxor.d.aq s5, tp, (s2)
  amoand.w.rl s6, a4, (s1)
  amoor.d.aqrl s7, a0, (s2)
  amomin.w s8, t1, (a5)
  amomax.d s9, t1, (s2)
  amominu.d s10, t1, (s2)
  amomaxu.w s11, t1, (s1)
  amoadd.w x0, t0, (a5)
  ld t3, 0(s2)
  ld t4, 8(s2)
  lr.d t5, (s2)
  addi t5, t5, 1
  sc.d t6, t5, (s2)      /* succeeds: t6 = 0 */
  sc.d a7, t5, (s2)      /* no reservation left: fails, a7 = 1 */
  lr.w a0, (s1)
  sc.w a1, t1, (s1)
  ld a2, 0(s2)
  ld a4, 8(s2)
  addi s0, s2, 16
  lr.w a3, (s2)
  sc.w a6, t1, (s0)       /* other address: fails */
  lr.d.aqrl ra, (s2)
  sc.d.rl tp, t1, (s2)
  ld t2, 0(s2)
  li s2, 0
  li s0, 0
  li s1, 0
  li a5, 0
