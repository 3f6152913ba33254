/* segv_call_null.c — SEGV: a call through a null function pointer (the pc
 * is 0: both hints). */
#include <stdio.h>

static void (*volatile handler)(int);

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 5) handler = (void (*)(int))puts;
  handler(argc);
  return 0;
}
