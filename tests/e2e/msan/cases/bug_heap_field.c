/* a struct from malloc with one field set */
#include <stdio.h>
#include <stdlib.h>
struct node { int key; struct node *next; };
__attribute__((noinline)) static void set_key(struct node *n) { n->key = 3; }
int main(void) {
  struct node *n = malloc(sizeof *n);
  set_key(n);
  if (n->next) puts("has next");
  free(n);
  return 0;
}
