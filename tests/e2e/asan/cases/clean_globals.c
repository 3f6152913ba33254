/* tests/e2e/asan/cases/clean_globals.c — a clean program: tricky but legal memory use; no report, exit 0. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int table[16];
static char words[3][6] = {"one", "two", "three"};
const char *msg = "literal";
int main(void) {
  for (int i = 0; i < 16; i++) table[i] = i;
  int s = 0;
  for (int i = 0; i < 3; i++) s += (int)strlen(words[i]);
  s += (int)strlen(msg) + msg[7];
  return table[15] != 15 || s != 18;
}
// CLEAN
