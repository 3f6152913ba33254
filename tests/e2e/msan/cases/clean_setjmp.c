/* setjmp/longjmp out of a deeper frame */
#include <setjmp.h>
#include <stdio.h>
static jmp_buf env;
__attribute__((noinline)) static void deep(int n) {
  int local[8];
  for (int i = 0; i < 8; i++) local[i] = n + i;
  if (local[7] > 10) longjmp(env, local[7]);
  deep(n + 1);
}
int main(void) {
  int r = setjmp(env);
  if (r == 0) deep(0);
  return r != 11;
}
