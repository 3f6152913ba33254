/* Variably modified parameters (C11 6.9.1p10): every size expression of a
 * parameter's declarator is evaluated on entry, in order, the decayed
 * outermost one too; the inner ones size the parameter's pointed-to arrays.
 * (The order among them is unspecified: gcc and clang differ, so no test
 * depends on it.) */
#include <stdio.h>
#include <string.h>

int N = 3;

static void fill(int rows, int cols, int m[rows][cols]) {
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) m[r][c] = r * 10 + c;
}

static long sum_ptr(int cols, int (*m)[cols], int rows) {
  long s = 0;
  for (int r = 0; r < rows; r++) s += m[r][cols - 1] * (long)sizeof m[r];
  return s;
}

static int side_effects(int a, int b[a++], int c, int d[c += 2][4]) {
  (void)b;
  return a * 100 + c * 10 + (int)(sizeof d[0] / sizeof d[0][0]);
}

static void global_dim(char a[2][N]) { a[1][0] = (char)N; }

static int nested(int n, int m, char t[n][m][n + m]) {
  return (int)(sizeof t[0] + sizeof t[0][0]) + (int)(&t[1][0][0] - &t[0][0][0]);
}

int main(void) {
  int m[4][5];
  fill(4, 5, m);
  printf("%d %d %d\n", m[0][0], m[3][4], m[2][1]);
  printf("%ld\n", sum_ptr(5, m, 4));
  int e[10][4];
  printf("%d\n", side_effects(1, &e[0][0], 1, e));
  char buf[16];
  memset(buf, 0, sizeof buf);
  N = 5;
  global_dim((void *)buf);
  printf("%d %d\n", buf[5], buf[3]);
  static char big[3][4][7];
  printf("%d\n", nested(3, 4, big));
  return 0;
}
