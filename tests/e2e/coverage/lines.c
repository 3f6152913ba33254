#include <stdio.h>

static int square(int x) { return x * x; }

static int never(int x) {
  int y = x + 1;
  return y * 2;
}

int main(int argc, char **argv) {
  (void)argv;
  int s = 0;
  for (int i = 0; i < 3; i++) s += square(i);
  if (argc > 5) {
    s += never(s);
    printf("many\n");
  }
  printf("%d\n", s);
  return 0;
}
