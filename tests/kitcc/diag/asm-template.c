int f(int a) {
  int x;
  asm("mov %2, %0" : "=r"(x) : "r"(a));
  asm("mov %[nope], %0" : "=r"(x) : "r"(a));
  asm("jmp %l0" : "=r"(x) : "r"(a));
  asm("mov %k, %0" : "=r"(x) : "r"(a));
  asm("" : : : : a);
  return x;
}
