int f(int a) {
  int x;
  asm("" : "r"(x));
  asm("" : "=z"(x));
  asm("" : "=r"(x) : "=r"(a));
  asm("" : "=r"(x) : "3"(a));
  asm("" : "=r"(a + 1));
  asm("" : : "n"(a));
  asm("" : : "m"(a + 1));
  asm("" : : "r"(a) : "foo");
  return x;
}
