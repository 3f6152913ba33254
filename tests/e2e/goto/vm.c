/* tests/e2e/goto/vm.c — a threaded-code interpreter in the style of Lua's
 * and CPython's: computed goto through a static table of label addresses
 * (`goto *disp[op]`), a second dispatch through label differences
 * (`&&l - &&base` in a static table, as some interpreters pack them), a local
 * array of label addresses, and a `goto *` out of a statement expression.
 * run.sh compares its output with gcc's build of it and runs it under the
 * sanitizers; -DBUG_ASAN / -DBUG_UBSAN plant one bug in a handler. */
#include <stdio.h>
#include <string.h>

enum { OP_HALT, OP_PUSH, OP_ADD, OP_MUL, OP_DUP, OP_SWAP, OP_JNZ, OP_DEC, OP_PRINT, OP_STORE, OP_MIX, OP_LOAD };

static long run(const int *code, int packed, long *mem) {
  static void *const disp[] = {&&op_halt, &&op_push, &&op_add,   &&op_mul,   &&op_dup, &&op_swap,
                               &&op_jnz,  &&op_dec,  &&op_print, &&op_store, &&op_mix, &&op_load};
  static const int offs[] = {&&op_halt - &&op_halt, &&op_push - &&op_halt,  &&op_add - &&op_halt,
                             &&op_mul - &&op_halt,  &&op_dup - &&op_halt,   &&op_swap - &&op_halt,
                             &&op_jnz - &&op_halt,  &&op_dec - &&op_halt,   &&op_print - &&op_halt,
                             &&op_store - &&op_halt, &&op_mix - &&op_halt,  &&op_load - &&op_halt};
  long stack[16];
  int sp = 0, pc = 0;
  long steps = 0;
#define NEXT                                                        \
  do {                                                              \
    steps++;                                                        \
    if (packed && (steps & 1)) goto *(&&op_halt + offs[code[pc++]]); \
    goto *disp[code[pc++]];                                         \
  } while (0)
  NEXT;
op_push:
  stack[sp++] = code[pc++];
  NEXT;
op_add:
  sp--;
  stack[sp - 1] += stack[sp];
  NEXT;
op_mul:
  sp--;
  stack[sp - 1] *= stack[sp];
  NEXT;
op_dup:
  stack[sp] = stack[sp - 1];
  sp++;
  NEXT;
op_swap: {
  long t = stack[sp - 1];
  stack[sp - 1] = stack[sp - 2];
  stack[sp - 2] = t;
  NEXT;
}
op_jnz: {
  int to = code[pc++];
  if (stack[--sp]) pc = to;
  NEXT;
}
op_dec:
  stack[sp - 1]--;
  NEXT;
op_print:
  printf("%ld\n", stack[--sp]);
  NEXT;
op_store:
#ifdef BUG_ASAN
  stack[code[pc++] + 16] = stack[--sp]; /* past the end of stack[] */
#else
  mem[code[pc++]] = stack[--sp];
#endif
  NEXT;
op_load:
  stack[sp++] = mem[code[pc++]];
  NEXT;
op_mix: {
  int x = (int)stack[sp - 1];
#ifdef BUG_UBSAN
  x = x * 0x7fffffff; /* overflows for x > 1 */
#else
  x = x * 31 + 7;
#endif
  stack[sp - 1] = x & 0xffff;
  NEXT;
}
op_halt:
  return steps;
}

/* a label array in automatic storage, and goto * out of a statement expression */
static int classify(int v) {
  void *where[] = {&&neg, &&zero, &&pos};
  int r = ({
    int k = v < 0 ? 0 : v == 0 ? 1 : 2;
    if (v == 42) goto *where[2];
    k * 10;
  });
  goto *where[r / 10];
neg:
  return -1;
zero:
  return 0;
pos:
  return v == 42 ? 420 : 1;
}

/* writes every byte of a large frame: ASan must find no redzone left behind
 * by run()'s frames (they are unpoisoned when run returns) */
static long scrub(int seed) {
  volatile char big[4096];
  long s = 0;
  for (int i = 0; i < (int)sizeof big; i++) big[i] = (char)(i ^ seed);
  for (int i = 0; i < (int)sizeof big; i++) s += big[i];
  return s;
}

int main(void) {
  /* n = 100; acc = 0; do { acc += n; mem[2] = mix(acc); } while (--n); print acc, mem[2], 4 * 3 */
  const int prog[] = {OP_PUSH, 100, OP_STORE, 0, OP_PUSH, 0, OP_STORE, 1,
                      /* 8 */ OP_LOAD, 0, OP_LOAD, 1, OP_ADD, OP_STORE, 1,
                      /* 15 */ OP_LOAD, 1, OP_MIX, OP_STORE, 2,
                      /* 20 */ OP_LOAD, 0, OP_DEC, OP_DUP, OP_STORE, 0,
                      /* 26 */ OP_JNZ, 8,
                      /* 28 */ OP_LOAD, 1, OP_PRINT, OP_LOAD, 2, OP_PRINT, OP_PUSH, 3, OP_PUSH, 4, OP_SWAP, OP_MUL,
                      OP_PRINT, OP_HALT};
  long mem[4];
  long total = 0;
  for (int packed = 0; packed < 2; packed++)
    for (int round = 0; round < 3; round++) {
      memset(mem, 0, sizeof mem);
      long steps = run(prog, packed, mem);
      total += steps + scrub(round) % 7;
      printf("packed %d round %d: steps %ld mem %ld %ld %ld\n", packed, round, steps, mem[0], mem[1], mem[2]);
    }
  for (int v = -2; v <= 42; v += 11) printf("classify(%d) = %d\n", v, classify(v));
  printf("total %ld\n", total);
  return 0;
}
