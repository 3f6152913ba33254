/* segv_call_wild.c — SEGV: a tail call through a wild function pointer (an
 * unmapped address above the zero page). */
#include <stdint.h>
#include <stdio.h>

static int (*volatile op)(int) = (int (*)(int))(uintptr_t)0x12345000;

static int apply(int x) { return op(x); }

int main(int argc, char **argv) {
  (void)argv;
  return apply(argc);
}
