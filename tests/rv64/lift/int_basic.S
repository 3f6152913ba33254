/* integer ALU ops, shifts with masking, W forms, slt, lui/auipc */
  add s2, t0, t1
  sub s3, t0, t1
  addi s4, t1, -2048
  addiw s5, a5, 1
  addw s6, a5, a5
  subw s7, s0, a0
  sll s8, a6, t1
  srl s9, a6, t1
  sra s10, s0, t1
  slli s11, a6, 63
  srli t3, s0, 1
  srai t4, s0, 63
  sllw t5, a5, t1
  srlw t6, s1, a1
  sraw a7, a3, a2
  xor ra, ra, a6
  or tp, tp, a6
  and t2, t2, a6
  slt a0, t1, t0
  sltu a1, t1, t0
  slti a2, t1, -8
  sltiu a4, a4, -1
  xori s1, s1, -1
  ori a3, a3, 0x7ff
  andi a6, a6, -16
  slliw t0, a5, 31
  srliw t1, a3, 31
  sraiw s0, a3, 4
  lui a5, 0x80000
  auipc sp, 0
  sub sp, sp, sp
