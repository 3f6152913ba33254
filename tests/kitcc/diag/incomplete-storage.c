struct S;
void f(void) {
  struct S s;
}
