int f(void) {
  int x = ;
  return x;
}
