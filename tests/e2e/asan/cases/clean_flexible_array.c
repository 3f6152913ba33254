/* tests/e2e/asan/cases/clean_flexible_array.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
struct Msg { int len; char data[]; };
int main(void) {
  struct Msg *m = malloc(sizeof *m + 11);
  m->len = 11;
  for (int i = 0; i < m->len; i++) m->data[i] = (char)('a' + i);
  int s = 0;
  for (int i = 0; i < m->len; i++) s += m->data[i];
  free(m);
  return s == 0;
}
// CLEAN
