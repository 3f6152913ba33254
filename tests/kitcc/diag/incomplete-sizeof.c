struct S;
unsigned long f(void) {
  return sizeof(struct S);
}
