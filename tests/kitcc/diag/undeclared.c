int f(void) {
  return y;
}
