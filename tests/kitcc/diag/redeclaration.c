void f(void) {
  int a;
  int a;
}
