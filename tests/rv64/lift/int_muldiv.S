/* M extension incl. the defined division edge cases */
  mul s2, t1, t2
  mulh s3, s0, s0
  mulhu s4, tp, tp
  mulhsu s5, t1, tp
  mulh s6, t1, t2
  mulw s7, a5, a5
  div s8, s0, tp        /* MIN / -1 = MIN */
  rem s9, s0, tp        /* MIN % -1 = 0 */
  div s10, t1, zero     /* x / 0 = -1 */
  rem s11, t1, zero     /* x % 0 = x */
  divu t3, t1, zero
  remu t4, t1, zero
  div t5, t1, a1        /* -7 / 2 = -3 */
  rem t6, t1, a1        /* -7 % 2 = -1 */
  divu a7, t1, a1
  remu ra, t1, t0
  divw a0, a3, tp       /* INT32_MIN / -1 in 32 bits */
  remw a2, a3, tp
  divw a4, t1, zero
  remw a6, t1, zero
  divuw s1, t1, a1
  remuw sp, t1, zero
  divuw t2, a3, zero
  remuw a3, a3, a1
  li a1, 0
