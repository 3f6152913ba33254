/* branches both ways, jal/jalr links, a loop, compressed branches */
  li s2, 0
  li s3, 10
1: addi s2, s2, 3
  addi s3, s3, -1
  bnez s3, 1b
  li s4, 0
  blt t1, t0, 2f
  addi s4, s4, 1
2: bltu t1, t0, 3f
  addi s4, s4, 2
3: bge t1, t0, 4f
  addi s4, s4, 4
4: bgeu t1, t0, 5f
  addi s4, s4, 8
5: beq a0, a0, 6f
  addi s4, s4, 16
6: bne a0, a0, 7f
  addi s4, s4, 32
7: jal s5, 8f
  addi s4, s4, 64
8: la s6, 9f
  jalr s7, 0(s6)
  addi s4, s4, 128
9: la s8, 10f
  jalr s8, 1(s8)        /* bit 0 of the target is cleared; rd = rs1 */
  addi s4, s4, 256
10: call 11f
  j 12f
11: addi s9, ra, 0
  ret
12: la t6, 13f
  c.jr t6
  addi s4, s4, 512
13: sub s5, s5, s6
  sub s7, s7, s6
  sub s8, s8, s6
  sub s9, s9, s6
  li ra, 0
  li t6, 0
  li s6, 0
