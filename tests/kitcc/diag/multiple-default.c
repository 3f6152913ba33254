int f(int x) {
  switch (x) {
  default: return 1;
  default: return 2;
  }
}
