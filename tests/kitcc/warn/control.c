/* -Wreturn-type, -Wparentheses, -Wunused-value, -Wswitch: gcc -Wall -Wextra's findings */
enum color { RED, GREEN, BLUE };

int no_return(int x) {
  if (x) return 1;
}

int all_paths(int x) {
  if (x) return 1;
  else return 2;
}

int loops_forever(void) {
  for (;;) {
  }
}

int main(void) { return 0; }

int parens(int a, int b) {
  if (a = b) return 1;
  if ((a = b)) return 2;
  while (a = b - 1) b--;
  if (a && b || a) return 3;
  if (a || (a && b)) return 4;
  return a & b == 3;
}

void values(int a, int *p) {
  a;
  a + 1;
  *p;
  (void)a;
  a = 2;
  p++;
  a == 1;
}

int sw(enum color c) {
  switch (c) {
  case RED: return 1;
  case GREEN: return 2;
  }
  switch (c) {
  case RED: return 1;
  default: return 3;
  }
}
