/* a heap list built, walked and freed */
#include <stdlib.h>
struct node { int v; struct node *next; };
int main(void) {
  struct node *head = NULL;
  for (int i = 0; i < 100; i++) {
    struct node *n = malloc(sizeof *n);
    n->v = i;
    n->next = head;
    head = n;
  }
  long s = 0;
  while (head) {
    struct node *n = head;
    s += n->v;
    head = n->next;
    free(n);
  }
  return s != 4950;
}
