/* tests/e2e/asan/cases/clean_linked_list.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
struct N { struct N *next; int v; };
int main(void) {
  struct N *head = 0;
  for (int i = 0; i < 1000; i++) { struct N *n = malloc(sizeof *n); n->v = i; n->next = head; head = n; }
  long s = 0;
  while (head) { struct N *n = head; head = n->next; s += n->v; free(n); }
  return s != 499500;
}
// CLEAN
