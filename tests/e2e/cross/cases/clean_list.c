/* clean_list.c — clean: a linked list built, walked and freed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node { struct node *next; int v; };

int main(void) {
  struct node *head = NULL;
  for (int i = 0; i < 1000; i++) {
    struct node *n = malloc(sizeof *n);
    n->v = i;
    n->next = head;
    head = n;
  }
  long sum = 0;
  while (head) {
    struct node *n = head;
    sum += n->v;
    head = n->next;
    free(n);
  }
  printf("%ld\n", sum);
  return sum != 499500;
}
