/* leak_indirect.c — LeakSanitizer: a leaked list head and its indirectly leaked node. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node { struct node *next; char pad[24]; };

static struct node *cons(struct node *next) {
  struct node *n = malloc(sizeof *n);
  n->next = next;
  return n;
}

/* the list's only reference lives in a chunk that is then freed */
static void build(void) {
  struct node **holder = malloc(sizeof *holder);
  *holder = cons(cons(NULL));
  free(holder);
}

/* overwrite the dead stack slots that still hold the list's addresses */
static int scrub(int depth) {
  volatile char junk[1024];
  memset((char *)junk, 0, sizeof junk);
  return depth ? scrub(depth - 1) + junk[0] : junk[0];
}

int main(void) {
  build();
  return scrub(16);
}
