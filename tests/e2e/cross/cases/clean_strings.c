/* clean_strings.c — clean: string functions on heap strings of many lengths. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  size_t total = 0;
  for (int n = 0; n < 70; n++) {
    char *s = malloc(n + 1);
    memset(s, 'a' + n % 26, n);
    s[n] = 0;
    char *t = strdup(s);
    total += strlen(t) + (strcmp(s, t) == 0) + (strchr(t, 'z') != NULL);
    char *u = malloc(2 * n + 1);
    strcpy(u, s);
    strcat(u, t);
    total += strlen(u);
    free(s);
    free(t);
    free(u);
  }
  printf("total %zu\n", total);
  return total == 0;
}
