/* a label defined twice, one of them a computed goto's destination */
void f(int k) {
  void *t[] = {&&a};
a:
  if (k--) goto *t[0];
a:
  return;
}
