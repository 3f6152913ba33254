/* tests/rv64/lift/prologue.S — start of every lifter test program: known
 * values in every register (gp holds the dump buffer and stays put), a
 * stack, fcsr cleared. The case body follows, then epilogue.S. */
  .text
  .globl _start
_start:
  la gp, dumpbuf
  la sp, stack_top
  li ra, 0x0123456789abcdef
  li tp, -1
  li t0, 5
  li t1, -7
  li t2, 0x7fffffffffffffff
  li s0, 0x8000000000000000
  li s1, 0xffffffff
  li a0, 1
  li a1, 2
  li a2, 3
  li a3, 0x80000000
  li a4, -2
  li a5, 0x7fffffff
  li a6, 0x5555aaaa5555aaaa
  li a7, 0
  li s2, 0; li s3, 0; li s4, 0; li s5, 0; li s6, 0; li s7, 0
  li s8, 0; li s9, 0; li s10, 0; li s11, 0
  li t3, 0; li t4, 0; li t5, 0; li t6, 0
  .irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
  fmv.d.x f\r, zero
  .endr
  fscsr zero
