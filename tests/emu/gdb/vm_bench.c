/* tests/emu/gdb/vm_bench.c — a small bytecode interpreter running a loop
 * (dispatch through a switch, calls, loads and stores: what an interpreter
 * like Lua spends its time on), the guest bench_overhead.sh times with and
 * without -g. Prints a checksum so that the work cannot be skipped. */
#include <stdio.h>
#include <stdlib.h>

enum { PUSH, ADD, MUL, DUP, SWAP, JNZ, DEC, STORE, LOAD, HALT };

static long mem[64];

__attribute__((noinline)) static long run(const int *code, long n) {
  long stack[64];
  int sp = 0, pc = 0;
  stack[sp++] = n;
  for (;;) {
    switch (code[pc++]) {
    case PUSH: stack[sp++] = code[pc++]; break;
    case ADD: sp--, stack[sp - 1] += stack[sp]; break;
    case MUL: sp--, stack[sp - 1] = stack[sp - 1] * stack[sp] % 1000003; break;
    case DUP: stack[sp] = stack[sp - 1], sp++; break;
    case SWAP: { long t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2], stack[sp - 2] = t; } break;
    case JNZ: { int to = code[pc++]; if (stack[--sp]) pc = to; } break;
    case DEC: stack[sp - 1]--; break;
    case STORE: mem[code[pc++] & 63] = stack[--sp]; break;
    case LOAD: stack[sp++] = mem[code[pc++] & 63]; break;
    case HALT: return mem[1];
    }
  }
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 3000000;
  /* counter in stack[0]; mem[1] = mem[1] * 7 + counter, n times */
  static const int code[] = {
      /* 0 */ LOAD, 1, PUSH, 7, MUL, SWAP, DUP, STORE, 2, SWAP, LOAD, 2, ADD, STORE, 1,
      /* 15 */ DEC, DUP, JNZ, 0, HALT};
  printf("%ld\n", run(code, n));
  return 0;
}
