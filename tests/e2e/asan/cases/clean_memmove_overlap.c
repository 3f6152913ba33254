/* tests/e2e/asan/cases/clean_memmove_overlap.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
  char s[32] = "abcdefghijklmnopqrstuvwxyz";
  memmove(s + 2, s, 20);
  memmove(s, s + 5, 10);
  char *h = malloc(64);
  memset(h, 'q', 64);
  memmove(h + 1, h, 63);
  int r = h[63] != 'q' || s[0] != 'd';
  free(h);
  return r;
}
// CLEAN
