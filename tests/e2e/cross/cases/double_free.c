/* double_free.c — double-free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void release(void *p) { free(p); }

int main(void) {
  void *p = malloc(24);
  release(p);
  release(p);
  return 0;
}
