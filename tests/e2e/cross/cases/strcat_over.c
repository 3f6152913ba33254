/* strcat_over.c — heap-buffer-overflow through strcat. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  const char *volatile tail = "defgh";
  char *d = malloc(8);
  strcpy(d, "abc");
  strcat(d, tail);
  free(d);
  return 0;
}
