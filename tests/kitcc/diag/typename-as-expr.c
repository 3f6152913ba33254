typedef int T;
int f(void) {
  return T;
}
