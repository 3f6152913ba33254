void f(void) {
  break;
}
