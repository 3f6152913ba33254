struct S { int b : 3; };
unsigned long f(struct S *s) {
  return sizeof s->b;
}
