/* goto * needs a pointer (gcc: the same message and column) */
int f(int x) {
  goto *x;
}
