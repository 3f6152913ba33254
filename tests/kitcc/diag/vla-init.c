void f(int n) {
  int a[n] = {1};
}
