/* segv_null.c — SEGV on a null pointer write. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void poke(int *p) { *p = 1; }

int main(int argc, char **argv) {
  (void)argv;
  poke(argc > 5 ? (int *)&argc : NULL);
  return 0;
}
