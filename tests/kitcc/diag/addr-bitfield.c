struct S { int b : 3; };
int *f(struct S *s) {
  return &s->b;
}
