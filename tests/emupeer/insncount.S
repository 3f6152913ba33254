/* tests/emupeer/insncount.S — a guest whose instruction count is known by
 * hand: every instruction below is one machine instruction (no pseudo that
 * expands to two; `li` values fit 12 bits). Counted, including the final
 * ecall:
 *   _start:         3   (li s0, li s1, li t0)
 *   outer loop:     OUTER × (1 li t1 + INNER × 3 + 2 (addi, bnez))
 *   inner loop:     3   (addi t1; add s1; bnez)
 *   tail:           11  (rdinstret, sub, sd, li, addi, li, li, ecall, li, li, ecall)
 * with OUTER = 100, INNER = 1000: 3 + 100 × (1 + 3000 + 2) = 300303 before
 * the tail's rdinstret, which therefore reads 300303 (instret counts the
 * instructions retired before it), and the whole program is 300303 + 11 =
 * 300314 instructions (20 static ones). The program writes the 8 bytes it read from instret
 * to stdout and exits 0. */
        .text
        .globl _start
_start:
        li      s0, 100           /* OUTER */
        li      s1, 0
        li      t0, 0
outer:
        li      t1, 1000          /* INNER (fits 12 bits: one addi) */
inner:
        addi    t1, t1, -1
        add     s1, s1, t1
        bnez    t1, inner
        addi    s0, s0, -1
        bnez    s0, outer
        rdinstret t2              /* 300303 */
        sub     t3, t2, t0        /* t0 is 0: keeps the count honest */
        sd      t3, -8(sp)
        li      a0, 1
        addi    a1, sp, -8
        li      a2, 8
        li      a7, 64            /* write */
        ecall
        li      a0, 0
        li      a7, 93            /* exit */
        ecall
