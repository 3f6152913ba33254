/* leak_direct.c — LeakSanitizer: one direct leak. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *keep;

static char *make(void) { return malloc(77); }

int main(void) {
  keep = NULL;
  char *p = make();
  p[0] = 1;
  p = NULL;
  return 0;
}
