/* bad_free_interior.c — bad-free: free of a pointer inside a chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char *p = malloc(32);
  free(p + 8);
  return 0;
}
