#include <stdio.h>
struct Node {
  int key;
  struct Node *next;
};
static int second_key(const struct Node *n) { return n->next->key; }
int main(void) {
  struct Node b = {2, NULL}, a = {1, &b};
  printf("%d\n", second_key(&a));
  fflush(stdout);
  printf("%d\n", second_key(&b));
  return 0;
}
