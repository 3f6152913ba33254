int f(int n) {
  struct S { int len; char data[n]; } s;
  return (int)sizeof s;
}
