/* strdup, strcpy, strcat, getenv and getline results */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  int n = 0;
  char *s = strdup("hello");
  if (s[4] != 'o') n++;
  char buf[32];
  strcpy(buf, s);
  strcat(buf, " world");
  if (buf[8] != 'r' || buf[11] != 0) n++;
  free(s);
  setenv("KIT_MSAN_T", "value", 1);
  const char *e = getenv("KIT_MSAN_T");
  if (!e || e[4] != 'e') n++;
  FILE *f = tmpfile();
  fputs("abc\ndef\n", f);
  rewind(f);
  char *line = NULL;
  size_t cap = 0;
  if (getline(&line, &cap, f) != 4 || line[2] != 'c') n++;
  free(line);
  fclose(f);
  return n;
}
