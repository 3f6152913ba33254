/* tests/kitcc/weak/weak.c — #pragma weak before and after the declarations it
 * names (weak.sh compares the symbols with gcc's and links it with gcc objects) */
#include <stdio.h>
#pragma weak undeclared_alias = target_fn
#pragma weak declared_later
#pragma weak alias_declared = target_fn
#pragma weak data_alias = target_data
#pragma weak optional_fn
int target_data = 5;
int target_fn(int x) { return x + 1; }
int declared_later(void) { return 3; }
int alias_declared(int);
extern int optional_fn(void);
extern int data_alias;
int overridden(void);
#pragma weak overridden
int overridden(void) { return 10; }

int main(void) {
  printf("optional_fn %d\n", optional_fn ? optional_fn() : -1);
  printf("alias_declared %d data_alias %d\n", alias_declared(41), data_alias);
  printf("declared_later %d overridden %d\n", declared_later(), overridden());
  return 0;
}
