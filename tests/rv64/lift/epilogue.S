/* tests/rv64/lift/epilogue.S — end of every lifter test program: stores
 * x1..x31, f0..f31 and fcsr into dumpbuf (through gp), writes it to stdout
 * and exits, so kit and qemu-riscv64 outputs compare byte for byte. */
  .irp r, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
  sd x\r, (\r*8)(gp)
  .endr
  .irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
  fsd f\r, (256+\r*8)(gp)
  .endr
  frcsr t0
  sd t0, 512(gp)
  li a7, 64
  li a0, 1
  mv a1, gp
  li a2, 520
  ecall
  li a7, 93
  li a0, 0
  ecall

  .data
  .balign 16
dumpbuf: .space 528
scratch: .space 4096
stack: .space 4096
stack_top:
