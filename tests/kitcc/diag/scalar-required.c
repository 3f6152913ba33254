struct S { int a; };
int f(struct S s) {
  if (s) return 1;
  return 0;
}
