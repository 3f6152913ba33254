int g(int a, int b);
int f(void) {
  return g(1);
}
